//! What the graph remembers of each node: its record (driver handle, kind, name, kernel, uses
//! of memory) and its dependencies.

use std::borrow::Cow;

use cudarc::driver::sys;

use crate::kernel::KernelContract;
use crate::node::NodeKind;

/// What the crate remembers of each node: enough to update it, name it and draw it.
#[derive(Debug, Clone)]
pub(crate) struct NodeRecord {
    pub(crate) raw: sys::CUgraphNode,
    pub(crate) kind: NodeKind,
    pub(crate) name: Option<Cow<'static, str>>,
    pub(super) deps: Deps,
    /// For kernel nodes, what the node keeps of its kernel: the function (an update re-sends
    /// it), the type of its parameter list and its launch check.
    pub(crate) kernel: KernelContract,
    /// The node's uses of memory: `tables.uses[start..start + len]`.
    pub(super) uses: (u32, u32),
}

impl NodeRecord {
    /// The record once its graph's use and edge tables are appended to another graph's, at
    /// `uses_base` and `edges_base` (a conditional body's, taken in by the enclosing graph).
    pub(crate) fn rebased(mut self, uses_base: u32, edges_base: u32) -> Self {
        if self.uses.1 > 0 {
            self.uses.0 += uses_base;
        }
        if let Deps::Listed { start, end } = &mut self.deps {
            *start += edges_base;
            *end += edges_base;
        }
        self
    }
}

/// A node's dependencies, by index, in the order given.
///
/// Most nodes have at most one (chains, pipelines), so that one is kept in the record itself and
/// only fan-ins use the graph's shared edge list: building a chain allocates nothing for its edges.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Deps {
    None,
    One(u32),
    /// `edges[start..end]`.
    Listed {
        start: u32,
        end: u32,
    },
}

impl Deps {
    pub(super) fn get<'a>(&'a self, edges: &'a [u32]) -> &'a [u32] {
        match self {
            Deps::None => &[],
            Deps::One(dep) => std::slice::from_ref(dep),
            Deps::Listed { start, end } => &edges[*start as usize..*end as usize],
        }
    }
}
