//! The smallest declaration: no params, one empty node.
use cudagraph_runtime::cuda_graph;
/**The params of [`Nothing`]: what its nodes are built from ([`Nothing::build`]), and what [`NothingExec::set_params`] compares to update only the nodes whose inputs changed.

*/
#[allow(clippy::type_complexity)]
struct NothingParams {}
impl ::cudagraph_runtime::__private::fmt::Debug for NothingParams {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("NothingParams").finish_non_exhaustive()
    }
}
/**A CUDA graph declared with `cuda_graph!`: [`Nothing::build`] builds it from a [`NothingParams`], [`Nothing::instantiate`] makes it a [`NothingExec`].

# Nodes

In build order (a node's position is its index in the graph):

0. `only`: `empty`

# Topology

<div style="overflow-x:auto"><svg xmlns="http://www.w3.org/2000/svg" role="img" width="68" height="56" viewBox="0 0 68 56" font-family="monospace" font-size="14" text-anchor="middle" fill="currentColor"><title>Topology of Nothing: 1 node, 0 edges</title><rect x="8" y="8" width="52" height="40" rx="4" fill="#f3f4f6" stroke="#4b5563"/><text x="34" y="25" fill="#111">only</text><text x="34" y="41" font-size="11" fill="#374151">empty</text></svg></div>

As text: `Nothing::TOPOLOGY.to_mermaid()` (Mermaid) or `.to_dot()` (Graphviz).
*/
struct Nothing {
    graph: ::cudagraph_runtime::__private::Graph<'static>,
    nodes: ::cudagraph_runtime::__private::Box<
        ::cudagraph_runtime::__private::ManuallyDrop<__NothingNodes>,
    >,
    state: __NothingState,
    build_id: u64,
}
#[doc(hidden)]
#[allow(non_camel_case_types, dead_code, clippy::type_complexity)]
struct __NothingNodes {
    only: ::cudagraph_runtime::__private::EmptyNode,
}
unsafe impl ::cudagraph_runtime::__private::Unbuilt for __NothingNodes {}
#[doc(hidden)]
#[allow(non_camel_case_types)]
struct __NothingSnapshot {}
impl __NothingSnapshot {
    /// What the executable keeps of `params`.
    #[allow(unused_variables)]
    fn __cg_keep(__cg_params: &NothingParams) -> Self {
        Self {}
    }
}
impl ::cudagraph_runtime::__private::Clone for __NothingSnapshot {
    fn clone(&self) -> Self {
        Self {}
    }
}
#[doc(hidden)]
#[allow(non_camel_case_types, non_snake_case, dead_code)]
#[derive(Clone, Copy)]
struct __NothingLaunch {}
unsafe impl ::cudagraph_runtime::__private::Unbuilt for __NothingLaunch {}
#[doc(hidden)]
#[allow(non_camel_case_types)]
struct __NothingState {
    params: __NothingSnapshot,
    launch: ::cudagraph_runtime::__private::Box<__NothingLaunch>,
}
impl Nothing {
    /// The declared shape: nodes in build order (their indices in the graph; one more
    /// with `#[indirect]` params, whose fetch node comes first), kinds and edges. Its
    /// `to_dot()` and `to_mermaid()` draw it.
    pub const TOPOLOGY: ::cudagraph_runtime::__private::Topology = ::cudagraph_runtime::__private::Topology {
        name: "Nothing",
        nodes: &[("only", ::cudagraph_runtime::__private::NodeKind::Empty)],
        edges: &[],
        bodies: &[],
    };
    /// [`TOPOLOGY`](Self::TOPOLOGY) drawn as a standalone SVG image, laid out when the
    /// macro ran: the picture in this type's docs. Write it to a `.svg` file or put it
    /// in an HTML page; its lines and labels take the text colour of the page around it
    /// (black in a file of its own). It is in the binary only if the program calls this.
    pub const fn topology_svg() -> &'static str {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" width=\"68\" height=\"56\" viewBox=\"0 0 68 56\" font-family=\"monospace\" font-size=\"14\" text-anchor=\"middle\" fill=\"currentColor\"><title>Topology of Nothing: 1 node, 0 edges</title><rect x=\"8\" y=\"8\" width=\"52\" height=\"40\" rx=\"4\" fill=\"#f3f4f6\" stroke=\"#4b5563\"/><text x=\"34\" y=\"25\" fill=\"#111\">only</text><text x=\"34\" y=\"41\" font-size=\"11\" fill=\"#374151\">empty</text></svg>"
    }
    /// Builds the graph from `params` on `ctx`'s device.
    ///
    /// Nodes are added in one fixed order (a topological order of the declaration, ties
    /// broken by declaration order) with dependencies in declared order, so every graph
    /// built here pairs node for node with every executable of this declaration.
    pub fn build(
        ctx: &::cudagraph_runtime::__private::Arc<
            ::cudagraph_runtime::__private::CudaContext,
        >,
        __cg_params: &NothingParams,
    ) -> ::cudagraph_runtime::__private::Result<Self> {
        Self::__cg_check_overlaps(__cg_params)?;
        let mut __cg_graph = ::cudagraph_runtime::__private::Graph::with_capacity(
            ctx,
            1usize,
        )?;
        let (nodes, state) = Self::__cg_add_nodes(&mut __cg_graph, __cg_params)?;
        ::cudagraph_runtime::__private::built(&__cg_graph, "Nothing");
        ::cudagraph_runtime::__private::Result::Ok(Self {
            graph: __cg_graph,
            nodes,
            state,
            build_id: ::cudagraph_runtime::__private::next_build_id(),
        })
    }
    /// Builds the graph again from `params`, in place: the driver calls of [`Self::build`],
    /// reusing the runtime graph's bookkeeping and references (see `Graph::clear`). The
    /// cheap way to rebuild for a whole-graph update in a loop.
    ///
    /// On error the graph is left empty or partly built: rebuild it before using it
    /// again (an update from it is refused).
    pub fn rebuild(
        &mut self,
        __cg_params: &NothingParams,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        Self::__cg_check_overlaps(__cg_params)?;
        self.build_id = ::cudagraph_runtime::__private::next_build_id();
        self.graph.clear()?;
        let (nodes, state) = Self::__cg_add_nodes(&mut self.graph, __cg_params)?;
        ::cudagraph_runtime::__private::built(&self.graph, "Nothing");
        self.nodes = nodes;
        self.state = state;
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    /// Adds every node to the empty `graph`, in the canonical order; returns their handles
    /// and the state they were built from. (The handles come boxed for the reason given
    /// at the `nodes` field: a signature naming their struct by value would repeat each
    /// bad param type's error at the macro call.)
    fn __cg_add_nodes(
        __cg_graph: &mut ::cudagraph_runtime::__private::Graph<'static>,
        __cg_params: &NothingParams,
    ) -> ::cudagraph_runtime::__private::Result<
        (
            ::cudagraph_runtime::__private::Box<
                ::cudagraph_runtime::__private::ManuallyDrop<__NothingNodes>,
            >,
            __NothingState,
        ),
    > {
        let mut boxed = ::cudagraph_runtime::__private::unbuilt_box::<
            ::cudagraph_runtime::__private::ManuallyDrop<__NothingNodes>,
        >();
        let mut configs = ::cudagraph_runtime::__private::unbuilt_box::<
            __NothingLaunch,
        >();
        {
            let nodes: &mut __NothingNodes = &mut boxed;
            #[allow(unused_variables)]
            let launches: &mut __NothingLaunch = &mut configs;
            Self::__cg_add_0(__cg_graph, __cg_params, nodes, launches)?;
        }
        ::cudagraph_runtime::__private::Result::Ok((
            boxed,
            __NothingState {
                params: __NothingSnapshot::__cg_keep(__cg_params),
                launch: configs,
            },
        ))
    }
    #[inline(never)]
    fn __cg_add_0(
        __cg_graph: &mut ::cudagraph_runtime::__private::Graph<'static>,
        __cg_params: &NothingParams,
        nodes: &mut __NothingNodes,
        launches: &mut __NothingLaunch,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        nodes.only = ::cudagraph_runtime::__private::add_node(
            __cg_graph,
            "only",
            |__cg_graph| __cg_graph.add_empty(&[]),
        )?;
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    /// The runtime graph.
    pub fn graph(&self) -> &::cudagraph_runtime::__private::Graph<'static> {
        &self.graph
    }
    /// Refuses params under which two nodes that may run at the same time share memory, one
    /// writing it.
    #[allow(unused_variables)]
    #[inline]
    fn __cg_check_overlaps(
        __cg_params: &NothingParams,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        #[allow(unused_imports)]
        use ::cudagraph_runtime::__private::{
            ArgsFallback as _, BodyFallback as _, ParamFallback as _, SlotFallback as _,
        };
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    ///Instantiates the graph with default flags.
    pub fn instantiate(self) -> ::cudagraph_runtime::__private::Result<NothingExec> {
        self.instantiate_with(
            ::cudagraph_runtime::__private::InstantiateFlags::NONE,
            ::cudagraph_runtime::__private::Option::None,
        )
    }
    ///Instantiates the graph with `flags`, uploading it to `upload` when given.
    pub fn instantiate_with(
        self,
        flags: ::cudagraph_runtime::__private::InstantiateFlags,
        upload: ::cudagraph_runtime::__private::Option<
            &::cudagraph_runtime::__private::CudaStream,
        >,
    ) -> ::cudagraph_runtime::__private::Result<NothingExec> {
        ::cudagraph_runtime::__private::Result::Ok(NothingExec {
            exec: self.graph.instantiate_with(flags, upload)?,
            nodes: self.nodes,
            state: self.state,
            dirty: [false; 1usize],
            stamps: ::cudagraph_runtime::__private::zeros(1usize),
            generation: 0,
        })
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for Nothing {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("Nothing").field("graph", &self.graph).finish_non_exhaustive()
    }
}
impl ::cudagraph_runtime::__private::BodyRules for Nothing {
    const FORBIDDEN_IN_BODY: ::cudagraph_runtime::__private::Option<&'static str> = {
        #[allow(unused_imports)]
        use ::cudagraph_runtime::__private::{
            ArgsFallback as _, BodyFallback as _, ParamFallback as _, SlotFallback as _,
        };
        ::cudagraph_runtime::__private::first_forbidden(&[])
    };
}
impl ::cudagraph_runtime::__private::ChildGraph for Nothing {
    fn graph(&self) -> &::cudagraph_runtime::__private::Graph<'static> {
        &self.graph
    }
    fn identity(&self) -> ::cudagraph_runtime::__private::Option<u64> {
        ::cudagraph_runtime::__private::Option::Some(self.build_id)
    }
}
impl ::cudagraph_runtime::__private::SameDeclaration<Nothing> for Nothing {
    fn same(&self) -> &Nothing {
        self
    }
}
/**[`Nothing`], instantiated: launch it, update it from another [`Nothing`] or with [`set_params`](Self::set_params), or update one node through its handle:

- [`only()`](Self::only): empty node
*/
struct NothingExec {
    exec: ::cudagraph_runtime::__private::GraphExec<'static>,
    nodes: ::cudagraph_runtime::__private::Box<
        ::cudagraph_runtime::__private::ManuallyDrop<__NothingNodes>,
    >,
    state: __NothingState,
    /// Nodes set through their handles since the last `set_params`: it sets them again.
    dirty: [bool; 1usize],
    /// Per node, the number of the last `set_params_only` call naming several params that
    /// updated it (so that it updates each node once).
    stamps: ::cudagraph_runtime::__private::Box<[u32]>,
    /// The number of the last such call.
    generation: u32,
}
impl NothingExec {
    /// Launches the graph into `stream`.
    pub fn launch(
        &mut self,
        stream: &::cudagraph_runtime::__private::Arc<
            ::cudagraph_runtime::__private::CudaStream,
        >,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        self.exec.launch(stream)
    }
    /// Uploads the executable ahead of its first launch.
    pub fn upload(
        &self,
        stream: &::cudagraph_runtime::__private::CudaStream,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        self.exec.upload(stream)
    }
    /**Whole-graph update from a [`Nothing`] built with other params (`cuGraphExecUpdate`).

Only a graph of this declaration is accepted: it was built by the same sequence of calls, so its nodes pair with this executable's ([whole-graph update](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#whole-graph-update)). Afterwards the executable runs that graph's params, and [`set_params`](Self::set_params) compares with them.*/
    pub fn update<__CgSame: ::cudagraph_runtime::__private::SameDeclaration<Nothing>>(
        &mut self,
        source: &__CgSame,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let source: &Nothing = ::cudagraph_runtime::__private::SameDeclaration::same(
            source,
        );
        self.exec.update(&source.graph)?;
        self.state.params = source.state.params.clone();
        *self.state.launch = *source.state.launch;
        self.dirty = [false; 1usize];
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    /**Makes the executable's nodes what [`Nothing::build`] would make from `params`, with one single-node update per node whose inputs changed since the last build, update or `set_params` (or that was set through its handle since). Returns how many nodes it updated. Enabled/disabled states are kept.

A param is compared with `PartialEq`, a kernel by function, a declared graph by identity; a runtime `Graph` counts as changed every time. A kernel param may change function (same parameter list, same context): the node's single-node update switches it.*/
    pub fn set_params(
        &mut self,
        __cg_params: &NothingParams,
    ) -> ::cudagraph_runtime::__private::Result<usize> {
        Nothing::__cg_check_overlaps(__cg_params)?;
        #[allow(unused_mut)]
        let mut changed = [false; 0usize];
        let mut updated = 0usize;
        #[allow(clippy::type_complexity)]
        const READS: &[(
            usize,
            &[usize],
            fn(
                &mut NothingExec,
                &NothingParams,
                usize,
            ) -> ::cudagraph_runtime::__private::Result<()>,
            usize,
        )] = &[];
        for &(pos, reads, update, index) in READS {
            if self.dirty[pos] || reads.iter().any(|&i| changed[i]) {
                self.dirty[pos] = true;
                update(self, __cg_params, index)?;
                updated += 1;
            }
        }
        self.dirty = [false; 1usize];
        ::cudagraph_runtime::__private::Result::Ok(updated)
    }
    /// The runtime executable, for what the typed API does not cover (read-only).
    pub fn as_exec(&self) -> &::cudagraph_runtime::__private::GraphExec<'static> {
        &self.exec
    }
    ///Node `only` (`empty`): its update handle.
    pub fn only(&mut self) -> NothingOnlyNode<'_> {
        NothingOnlyNode { exec: self }
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for NothingExec {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("NothingExec").field("exec", &self.exec).finish_non_exhaustive()
    }
}
///The params of [`NothingParams`], one variant each: what [`NothingExec::set_params_only`] is told changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(dead_code)]
enum NothingParam {}
impl NothingExec {
    /**Like [`set_params`](Self::set_params), for callers that know what they changed: updates the nodes whose expressions read a param in `changed` (each once), and only them, so its cost grows with the nodes updated, not with the graph. Returns how many nodes it updated.

A changed param missing from `changed` leaves its nodes as they were (the executable keeps alive whatever memory they use); nodes set through their handles are not reset (`set_params` does both). Params that share memory with another under nodes that may run at the same time are refused as by [`Nothing::build`].*/
    pub fn set_params_only(
        &mut self,
        __cg_params: &NothingParams,
        changed: &[NothingParam],
    ) -> ::cudagraph_runtime::__private::Result<usize> {
        let _ = changed;
        Nothing::__cg_check_overlaps(__cg_params)?;
        ::cudagraph_runtime::__private::Result::Ok(0)
    }
}
///Update handle of node `only` of [`NothingExec`] (`empty`): nothing about it can change ([what CUDA allows](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#individual-node-update)).
struct NothingOnlyNode<'a> {
    exec: &'a mut NothingExec,
}
impl<'a> NothingOnlyNode<'a> {
    #[doc(hidden)]
    pub fn set_enabled(
        &mut self,
        enabled: bool,
    ) -> ::cudagraph_runtime::__private::Result<()>
    where
        &'a (): ::cudagraph_runtime::__private::CanEnableDisable,
    {
        let _ = enabled;
        match <&'a () as ::cudagraph_runtime::__private::CanEnableDisable>::NEVER {}
    }
    #[doc(hidden)]
    pub fn is_enabled(&self) -> ::cudagraph_runtime::__private::Result<bool>
    where
        &'a (): ::cudagraph_runtime::__private::CanEnableDisable,
    {
        match <&'a () as ::cudagraph_runtime::__private::CanEnableDisable>::NEVER {}
    }
    /// The node's runtime handle, for the runtime's own API.
    pub fn node(&self) -> ::cudagraph_runtime::__private::EmptyNode {
        self.exec.nodes.only
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for NothingOnlyNode<'_> {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("NothingOnlyNode").field("index", &0usize).finish_non_exhaustive()
    }
}
fn main() {}
