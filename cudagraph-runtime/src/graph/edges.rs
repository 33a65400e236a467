//! Edges added after both their nodes, and edges with data: programmatic and launch-order edges
//! between kernel nodes ([programmatic dependent launch], CUDA 12.3+).
//!
//! A node's dependency list ([`Graph::add_kernel`]'s `deps`) gives plain edges: the consumer
//! starts once the producer has completed and its writes are visible. [`Graph::add_edge`] adds
//! an edge between two nodes already in the graph, plain or carrying `CUgraphEdgeData`:
//!
//! - [`EdgeKind::Programmatic`] (port `CU_GRAPH_KERNEL_NODE_PORT_PROGRAMMATIC`, type
//!   `CU_GRAPH_DEPENDENCY_TYPE_PROGRAMMATIC`): the consumer kernel may launch once every block
//!   of the producer has called `cudaTriggerProgrammaticLaunchCompletion()`
//!   (`griddepcontrol.launch_dependents`) or exited;
//! - [`EdgeKind::LaunchOrder`] (port `CU_GRAPH_KERNEL_NODE_PORT_LAUNCH_ORDER`, same type): the
//!   consumer may launch once every block of the producer has begun.
//!
//! Either way the consumer sees the producer's writes only after `cudaGridDependencySynchronize()`
//! (`griddepcontrol.wait`), which waits for the producer's completion. The graph's memory checks
//! count such an edge as ordering only into a kernel declared to wait
//! ([`Kernel::waits_for_dependency`](crate::Kernel::waits_for_dependency)); into any other it
//! orders launches, not memory.
//!
//! [programmatic dependent launch]: https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#programmatic-dependent-launch-and-synchronization

// Edges with data need CUDA 12.3 or newer: the `cuda-12020` binding has `EdgeKind` alone.
#[cfg(not(feature = "cuda-12020"))]
use {
    super::definition::Graph,
    super::records::Deps,
    crate::error::{Error, Result},
    crate::node::{NodeId, NodeKind},
};

/// What an edge added with [`Graph::add_edge`](crate::Graph::add_edge) waits for, and what it
/// promises the consumer ([programmatic dependent launch]).
///
/// A programmatic or launch-order edge joins two kernel nodes. Its consumer sees the producer's
/// writes only after `cudaGridDependencySynchronize()` (`griddepcontrol.wait`), which waits for
/// the producer's completion: the graph's memory checks count such an edge as ordering only into
/// a kernel declared to wait
/// ([`Kernel::waits_for_dependency`](crate::Kernel::waits_for_dependency)); into any other it
/// orders launches, not memory.
///
/// [programmatic dependent launch]: https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#programmatic-dependent-launch-and-synchronization
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum EdgeKind {
    /// A plain edge: the consumer starts after the producer completes, and sees its writes.
    Default,
    /// A programmatic edge between two kernel nodes: the consumer may launch once every block
    /// of the producer has called `cudaTriggerProgrammaticLaunchCompletion()` or exited, and
    /// sees the producer's writes after `cudaGridDependencySynchronize()`.
    Programmatic,
    /// A launch-order edge between two kernel nodes: the consumer may launch once every block of
    /// the producer has begun; it sees the producer's writes after
    /// `cudaGridDependencySynchronize()`.
    LaunchOrder,
}

impl EdgeKind {
    /// The `CUgraphEdgeData` of an edge of this kind.
    #[cfg(not(feature = "cuda-12020"))]
    pub(crate) fn data(self) -> cudarc::driver::sys::CUgraphEdgeData {
        use cudarc::driver::sys;
        let (port, kind) = match self {
            EdgeKind::Default => (
                sys::CU_GRAPH_KERNEL_NODE_PORT_DEFAULT,
                sys::CUgraphDependencyType::CU_GRAPH_DEPENDENCY_TYPE_DEFAULT,
            ),
            EdgeKind::Programmatic => (
                sys::CU_GRAPH_KERNEL_NODE_PORT_PROGRAMMATIC,
                sys::CUgraphDependencyType::CU_GRAPH_DEPENDENCY_TYPE_PROGRAMMATIC,
            ),
            EdgeKind::LaunchOrder => (
                sys::CU_GRAPH_KERNEL_NODE_PORT_LAUNCH_ORDER,
                sys::CUgraphDependencyType::CU_GRAPH_DEPENDENCY_TYPE_PROGRAMMATIC,
            ),
        };
        // SAFETY: plain integers (and padding); all zeros is the default edge.
        let mut data: sys::CUgraphEdgeData = unsafe { std::mem::zeroed() };
        // The ports are small constants (0 to 2) and the type a C enum of two values: each
        // fits the byte the driver's struct gives it.
        data.from_port = port as u8;
        data.type_ = kind as u8;
        data
    }

    /// How the declaration writes it (`a ->(programmatic) b`), for messages.
    pub fn name(self) -> &'static str {
        match self {
            EdgeKind::Default => "plain",
            EdgeKind::Programmatic => "programmatic",
            EdgeKind::LaunchOrder => "launch-order",
        }
    }
}

#[cfg(not(feature = "cuda-12020"))]
impl Graph<'_> {
    /// Adds the edge `from -> to` of `kind` between two nodes already in the graph: `from`
    /// added before `to` (so no edge can close a cycle), not already an edge.
    ///
    /// A [`EdgeKind::Programmatic`] or [`EdgeKind::LaunchOrder`] edge joins two kernel nodes
    /// (CUDA's rule; [`Error::Invalid`] naming the node that is not one), needs a CUDA 12.3
    /// driver ([`Error::DriverTooOld`]), and orders memory only into a kernel that waits for
    /// it ([`Kernel::waits_for_dependency`](crate::Kernel::waits_for_dependency)): see
    /// [`EdgeKind`]. Whole-graph updates pair graphs whose edges carry the same
    /// data, added by the same calls in the same order.
    pub fn add_edge(
        &mut self,
        from: impl Into<NodeId>,
        to: impl Into<NodeId>,
        kind: EdgeKind,
    ) -> Result<()> {
        let (from, to) = (from.into(), to.into());
        self.check_not_broken()?;
        let f = self.check_node(from)?;
        let t = self.check_node(to)?;
        let refuse = |graph: &Self, reason: String| Error::Invalid {
            node: graph.name_of(t),
            reason,
        };
        if f >= t {
            return Err(refuse(
                self,
                format!(
                    "an added edge goes from an earlier node to a later one (so that no edge \
                     closes a cycle), and `{}` was not added before it",
                    self.name_of(f)
                ),
            ));
        }
        if self.deps_of(t).contains(&(f as u32)) {
            return Err(refuse(
                self,
                format!("it already depends on `{}`", self.name_of(f)),
            ));
        }
        if kind != EdgeKind::Default {
            if let Some(end) = [f, t]
                .into_iter()
                .find(|&i| self.nodes[i].kind != NodeKind::Kernel)
            {
                return Err(Error::Invalid {
                    node: self.name_of(end),
                    reason: format!(
                        "a {} edge joins two kernel nodes (CUDA's rule for edges with data), and \
                         this is a {} node: use a plain edge",
                        kind.name(),
                        self.nodes[end].kind.name()
                    ),
                });
            }
        }
        let data = kind.data();
        let (raw_from, raw_to) = (self.nodes[f].raw, self.nodes[t].raw);
        // SAFETY: the graph is live and both nodes are its own (checked above).
        unsafe { crate::driver::result::graph::add_dependency(self.raw, raw_from, raw_to, &data) }
            .map_err(|e| e.at_node(|| self.name_of(t)))?;
        // The recorded dependencies are what the memory checks order by: an edge with data
        // orders memory only into a kernel that waits for it.
        if kind == EdgeKind::Default || self.nodes[t].kernel.waits {
            self.push_dep(t, f as u32);
        }
        // Whole-graph updates pair nodes through the driver's dependency lists, which list every
        // edge (see `graph::pairing`).
        self.tables_mut().pairing.added(f as u32, t as u32, kind);
        Ok(())
    }

    /// Records `dep` as one more dependency of node `index` (one of the graph's own).
    fn push_dep(&mut self, index: usize, dep: u32) {
        let old = self.nodes[index].deps;
        let edges = &mut self.tables_mut().edges;
        // A list moves to the end of the edge table with `dep` appended (unless it is there
        // already): the old slots stay, unused, as a rebuilt graph's would.
        let start = match old {
            Deps::None => {
                self.nodes[index].deps = Deps::One(dep);
                return;
            }
            Deps::One(one) => {
                edges.push(one);
                edges.len() - 1
            }
            Deps::Listed { start, end } if end as usize == edges.len() => start as usize,
            Deps::Listed { start, end } => {
                let moved = edges.len();
                edges.extend_from_within(start as usize..end as usize);
                moved
            }
        };
        edges.push(dep);
        // Edge-table positions are `u32`s, as every node index is (a graph holds at most 2^32
        // nodes, checked when each is added); the table grows by at most one per edge.
        let deps = Deps::Listed {
            start: start as u32,
            end: edges.len() as u32,
        };
        self.nodes[index].deps = deps;
    }
}
