//! [`Body`]: the body of a conditional node, as the closure that builds it gets it.

use std::borrow::Cow;
use std::ops::Deref;

use super::definition::Graph;
use crate::error::Result;
use crate::kernel::{Kernel, KernelArgValues, KernelArgs, LaunchConfig};
use crate::node::{
    ChildGraphNode, Direction, EmptyNode, KernelNode, Memcpy, MemcpyNode, Memset, MemsetNode,
    MemsetValue, NodeId,
};
#[cfg(not(feature = "cuda-12020"))]
use crate::node::{Condition, ConditionalHandle, ConditionalNode};

/// The body of a conditional node, lent to the closure that builds it
/// ([`Graph::add_conditional`]).
///
/// A body is a graph that belongs to its conditional node: it has the node-adding methods of
/// [`Graph`] for the kinds CUDA allows in a body (kernel, empty, child-graph, memset, memcpy and
/// conditional nodes; [conditional graph nodes]), and [`Graph`]'s read-only methods through
/// `Deref`. It is unsized, and the closure gets it only by reference, so it can only be used in
/// place: it cannot be moved out of the closure, swapped with another body or replaced
/// (`std::mem::replace` and `swap` need sized values), and so it never outlives the node it
/// belongs to, and every node added to it is added while the enclosing graph can still take in
/// what the node uses.
///
/// ```compile_fail
/// # use cudagraph_runtime::prelude::*;
/// # fn f(graph: &mut Graph, h: ConditionalHandle, ctx: &std::sync::Arc<cudarc::driver::CudaContext>) {
/// let mut kept = None;
/// graph.add_conditional(h, Condition::If, &[], |bodies| {
///     kept = Some(std::mem::replace(&mut *bodies[0], todo!())); // a body cannot be moved out
///     Ok(())
/// });
/// # }
/// ```
///
/// Nor has it adders for the kinds CUDA refuses in a body:
///
/// ```compile_fail
/// # use cudagraph_runtime::prelude::*;
/// # fn f(graph: &mut Graph, h: ConditionalHandle) {
/// graph.add_conditional(h, Condition::If, &[], |bodies| {
///     bodies[0].add_host(|| {}, &[])?; // no host node in a conditional body
///     Ok(())
/// });
/// # }
/// ```
///
/// [conditional graph nodes]: https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#conditional-graph-nodes
#[repr(transparent)]
pub struct Body<'a>([Graph<'a>]);

impl std::fmt::Debug for Body<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Body").field(self.graph()).finish()
    }
}

impl<'a> Body<'a> {
    /// `graph` as a body: a conditional node's body graph, lent to the closure that builds it,
    /// or any graph seen as one ([`Graph::as_body`]).
    pub(crate) fn lend<'g>(graph: &'g mut Graph<'a>) -> &'g mut Body<'a> {
        let one: *mut [Graph<'a>] = std::slice::from_mut(graph);
        // SAFETY: `Body` is a `repr(transparent)` wrapper of `[Graph]`: the same layout and
        // pointer metadata (a length of 1 here); the reference keeps `graph`'s borrow.
        unsafe { &mut *(one as *mut Body<'a>) }
    }

    fn graph(&self) -> &Graph<'a> {
        &self.0[0]
    }

    pub(super) fn graph_mut(&mut self) -> &mut Graph<'a> {
        &mut self.0[0]
    }

    /// The body as the graph it is, for the code `cuda_graph!` generates. Not part of the API.
    ///
    /// # Safety
    /// The graph is used in place only: never moved out of the reference, swapped or replaced
    /// (it belongs to its conditional node, and lives no longer than the closure building it).
    #[doc(hidden)]
    pub unsafe fn as_graph_mut(&mut self) -> &mut Graph<'a> {
        self.graph_mut()
    }

    /// Names the next node added (see [`Graph::name_next`]).
    pub fn name_next(&mut self, name: impl Into<Cow<'static, str>>) -> &mut Self {
        self.graph_mut().name_next(name);
        self
    }

    /// Renames a node of the body (see [`Graph::set_name`]).
    pub fn set_name(
        &mut self,
        node: impl Into<NodeId>,
        name: impl Into<Cow<'static, str>>,
    ) -> Result<()> {
        self.graph_mut().set_name(node, name)
    }

    /// Adds a kernel launch (see [`Graph::add_kernel`]).
    pub fn add_kernel<A: KernelArgs>(
        &mut self,
        kernel: &Kernel<A>,
        config: LaunchConfig,
        args: impl KernelArgValues<'a, A>,
        deps: &[NodeId],
    ) -> Result<KernelNode<A>> {
        self.graph_mut().add_kernel(kernel, config, args, deps)
    }

    /// Adds an edge between two nodes of the body (see [`Graph::add_edge`]).
    #[cfg(not(feature = "cuda-12020"))]
    pub fn add_edge(
        &mut self,
        from: impl Into<NodeId>,
        to: impl Into<NodeId>,
        kind: crate::EdgeKind,
    ) -> Result<()> {
        self.graph_mut().add_edge(from, to, kind)
    }

    /// Adds a 1-D copy (see [`Graph::add_memcpy`]): device memory, or page-locked host memory
    /// the device can reach.
    pub fn add_memcpy<D: Direction>(
        &mut self,
        copy: Memcpy<'a, D>,
        deps: &[NodeId],
    ) -> Result<MemcpyNode<D>> {
        self.graph_mut().add_memcpy(copy, deps)
    }

    /// Adds a 1-D memset (see [`Graph::add_memset`]).
    pub fn add_memset<V: MemsetValue>(
        &mut self,
        set: Memset<'a, V>,
        deps: &[NodeId],
    ) -> Result<MemsetNode<V>> {
        self.graph_mut().add_memset(set, deps)
    }

    /// Adds an empty node (see [`Graph::add_empty`]).
    pub fn add_empty(&mut self, deps: &[NodeId]) -> Result<EmptyNode> {
        self.graph_mut().add_empty(deps)
    }

    /// Adds a child-graph node (see [`Graph::add_child_graph`]); the child's nodes must be of
    /// the kinds a body allows, at any depth.
    pub fn add_child_graph<'c: 'a>(
        &mut self,
        child: &Graph<'c>,
        deps: &[NodeId],
    ) -> Result<ChildGraphNode> {
        self.graph_mut().add_child_graph(child, deps)
    }

    /// Makes a conditional handle for a conditional node of this body (see
    /// [`Graph::conditional_handle`]).
    #[cfg(not(feature = "cuda-12020"))]
    pub fn conditional_handle(&mut self, default: Option<u32>) -> Result<ConditionalHandle> {
        self.graph_mut().conditional_handle(default)
    }

    /// Adds a nested conditional node (see [`Graph::add_conditional`]).
    #[cfg(not(feature = "cuda-12020"))]
    pub fn add_conditional(
        &mut self,
        handle: ConditionalHandle,
        condition: Condition,
        deps: &[NodeId],
        build: impl FnOnce(&mut [&mut Body<'a>]) -> Result<()>,
    ) -> Result<ConditionalNode> {
        self.graph_mut()
            .add_conditional(handle, condition, deps, build)
    }

    /// Adds a nested conditional node, returning what `build` returns (see
    /// [`Graph::add_conditional_with`]).
    #[cfg(not(feature = "cuda-12020"))]
    pub fn add_conditional_with<R>(
        &mut self,
        handle: ConditionalHandle,
        condition: Condition,
        deps: &[NodeId],
        build: impl FnOnce(&mut [&mut Body<'a>]) -> Result<R>,
    ) -> Result<(ConditionalNode, R)> {
        self.graph_mut()
            .add_conditional_with(handle, condition, deps, build)
    }
}

impl<'a> Graph<'a> {
    /// This graph seen as a [`Body`], whose adders are those of the node kinds a conditional
    /// body allows: for code that builds the same nodes into a graph and into conditional bodies
    /// (a function taking `&mut Body` serves both).
    pub fn as_body(&mut self) -> &mut Body<'a> {
        Body::lend(self)
    }
}

impl<'a> Deref for Body<'a> {
    type Target = Graph<'a>;

    /// The body's graph, to read: its nodes, names, DOT picture.
    fn deref(&self) -> &Graph<'a> {
        self.graph()
    }
}
