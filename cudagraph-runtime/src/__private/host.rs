//! Host nodes: the closure a declared host node runs, with the buffers it gets.

use std::fmt;

use crate::memory::operand::Use;
use crate::{
    Graph, GraphExec, HostBuffer, HostCallback, HostFn, HostNode, HostViews, NodeId, Result,
};

// ---------------------------------------------------------------------------------------------
// Host nodes with buffers.

/// `mut b` in `host(f, mut b)`.
#[inline(always)]
pub fn writes<T: Send + Sync + 'static>(buffer: &HostBuffer<T>) -> crate::node::Writes<T> {
    crate::node::Writes(buffer.clone())
}

/// A host node's closure with the buffers it gets, type-erased: what a declared host node is
/// built and updated from.
pub struct HostWith {
    f: HostFn,
    uses: Vec<Use<'static>>,
}

impl fmt::Debug for HostWith {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HostWith")
            .field("buffers", &self.uses.len())
            .finish_non_exhaustive()
    }
}

/// `host(f)`.
#[inline]
pub fn host_plain(f: impl HostCallable) -> HostWith {
    HostWith {
        f: f.into_host_fn(),
        uses: Vec::new(),
    }
}

/// `host(f, a, mut b, ...)`.
#[inline]
pub fn host_with<V: HostViews>(
    buffers: V,
    f: impl for<'v> FnMut(V::Views<'v>) + Send + 'static,
) -> HostWith {
    let mut uses = Vec::new();
    let f = crate::node::with_views(buffers, f, &mut uses);
    HostWith { f, uses }
}

/// Adds a declared host node.
#[inline]
pub fn add_host(graph: &mut Graph<'static>, node: HostWith, deps: &[NodeId]) -> Result<HostNode> {
    graph.push_host(node.f, node.uses, deps)
}

/// Updates a declared host node.
#[inline]
pub fn set_host(exec: &mut GraphExec<'static>, node: HostNode, with: HostWith) -> Result<()> {
    exec.install_host_call(node, with.f, with.uses)
}

// ---------------------------------------------------------------------------------------------
// Host nodes.

/// What a host node runs: a closure or `fn()`, or a [`HostCallback`].
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot run in a host node",
    label = "expected a closure, a `fn()` or a `HostCallback`",
    note = "a host node runs an `FnMut() + Send + 'static` closure on a CPU thread"
)]
pub trait HostCallable {
    /// The closure the node runs.
    fn into_host_fn(self) -> HostFn;
}

impl<F: FnMut() + Send + 'static> HostCallable for F {
    #[inline]
    fn into_host_fn(self) -> HostFn {
        Box::new(self)
    }
}

impl HostCallable for HostCallback {
    #[inline]
    fn into_host_fn(self) -> HostFn {
        Box::new(move || self.call())
    }
}

impl HostCallable for &HostCallback {
    #[inline]
    fn into_host_fn(self) -> HostFn {
        self.clone().into_host_fn()
    }
}

/// `host(f)`.
#[inline]
pub fn host_fn(f: impl HostCallable) -> HostFn {
    f.into_host_fn()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_callbacks_compare_by_identity() {
        let a = HostCallback::new(|| {});
        let b = HostCallback::new(|| {});
        assert_eq!(a, a.clone());
        assert_ne!(a, b);
    }
}
