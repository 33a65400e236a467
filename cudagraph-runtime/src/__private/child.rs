//! Child-graph nodes and whole-graph updates: the graphs a child node embeds, and the graph
//! an executable may be updated from.

use crate::Graph;

// ---------------------------------------------------------------------------------------------
// Child-graph nodes and whole-graph updates.

/// A graph a child node can embed: a runtime [`Graph`] (whose memory and conditional nodes are
/// refused when the node is added) or a graph declared with `cuda_graph!` without memory or
/// conditional nodes.
///
/// # Safety
///
/// What `set_params` and the memory check conclude rests on it: `graph` returns the same graph
/// every time it is called on one value; [`identity`](ChildGraph::identity) returns `Some` only
/// if every value with that identity embeds a graph of the same nodes on the same memory (two
/// values of one identity are not compared further: `set_params` keeps the one it has, while
/// the memory check has judged the new one); and [`duplicate`](ChildGraph::duplicate) returns a
/// value of the same graph and identity. Implemented by the runtime's [`Graph`] and by the
/// graphs `cuda_graph!` declares.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be embedded as a child graph",
    label = "a child node embeds a `Graph`, or a graph declared with `cuda_graph!` without memory or conditional nodes",
    note = "CUDA refuses child graphs with memory nodes (alloc or free): declare such allocations \
            in the parent graph and give the memory to the child's declaration as a \
            `DeviceBuffer` param, or launch the two graphs one after the other on one stream",
    note = "CUDA embeds a child graph by cloning it, and cannot clone conditional nodes: declare \
            the conditional nodes in the parent graph"
)]
pub unsafe trait ChildGraph {
    /// The graph.
    fn graph(&self) -> &Graph<'static>;
    /// An identity that changes whenever the graph may have: a graph declared with `cuda_graph!`
    /// has one per build; a runtime [`Graph`] has none (a replaced graph's handle may be reused
    /// by the next graph created), so it counts as changed every time.
    fn identity(&self) -> Option<u64>;
    /// A copy, for the graph and the executable that keep the params: the same contents and
    /// the same identity (a runtime [`Graph`] is cloned, `cuGraphClone`; a declared graph is
    /// built again from its params).
    fn duplicate(&self) -> crate::Result<Self>
    where
        Self: Sized;
}

// SAFETY: `graph` is the graph itself; no identity, so `set_params` compares nothing and
// takes every new value; `duplicate` clones the graph (`cuGraphClone`).
unsafe impl ChildGraph for Graph<'static> {
    #[inline(always)]
    fn graph(&self) -> &Graph<'static> {
        self
    }
    #[inline(always)]
    fn identity(&self) -> Option<u64> {
        None
    }
    fn duplicate(&self) -> crate::Result<Self> {
        self.try_clone()
    }
}

// SAFETY: as `G`'s (a reference's duplicate is the same reference).
unsafe impl<G: ChildGraph + ?Sized> ChildGraph for &G {
    #[inline(always)]
    fn graph(&self) -> &Graph<'static> {
        (**self).graph()
    }
    #[inline(always)]
    fn identity(&self) -> Option<u64> {
        (**self).identity()
    }
    #[inline(always)]
    fn duplicate(&self) -> crate::Result<Self> {
        Ok(*self)
    }
}

/// A graph built from the declaration of `G` (only `G` itself): whole-graph update pairs nodes
/// correctly only between graphs built by the same sequence of calls (`cuGraphExecUpdate`).
#[diagnostic::on_unimplemented(
    message = "`{Self}` was not built from the declaration of `{G}`",
    label = "expected a `{G}`",
    note = "a whole-graph update pairs nodes by the order they were added (cuGraphExecUpdate): \
            only a graph of the same `cuda_graph!` declaration has the same order; \
            to run another graph, instantiate it"
)]
pub trait SameDeclaration<G> {
    /// As `G`.
    fn same(&self) -> &G;
}
