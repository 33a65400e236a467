//! The smallest declaration: no params, one empty node.
use cudagraph_runtime::cuda_graph;
/**The params of [`Nothing`]: what its nodes are built from ([`Nothing::build`]). Its executable owns a copy ([`NothingExec::params`]), changed through the executable (`set_<param>`, [`NothingExec::params_mut`], [`NothingExec::set_params`]), which updates exactly the nodes that read what changed:

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
    parts: ::cudagraph_runtime::__private::Guarded<__NothingParts>,
}
#[doc(hidden)]
#[allow(non_camel_case_types)]
struct __NothingParts {
    graph: ::cudagraph_runtime::__private::Graph<'static>,
    nodes: ::cudagraph_runtime::__private::Box<
        ::cudagraph_runtime::__private::ManuallyDrop<__NothingNodes>,
    >,
    state: __NothingState,
    build_id: ::core::primitive::u64,
}
#[doc(hidden)]
#[allow(non_camel_case_types, dead_code, clippy::type_complexity)]
struct __NothingNodes {
    only: ::cudagraph_runtime::__private::EmptyNode,
}
unsafe impl ::cudagraph_runtime::__private::Unbuilt for __NothingNodes {}
#[doc(hidden)]
#[allow(non_camel_case_types, non_snake_case, dead_code)]
#[derive(Clone, Copy)]
struct __NothingLaunch {}
unsafe impl ::cudagraph_runtime::__private::Unbuilt for __NothingLaunch {}
#[doc(hidden)]
#[allow(non_camel_case_types)]
struct __NothingState {
    params: ::cudagraph_runtime::__private::Box<NothingParams>,
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
    pub const fn topology_svg() -> &'static ::core::primitive::str {
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
        let __cg_parts = __NothingParts {
            graph: __cg_graph,
            nodes,
            state,
            build_id: ::cudagraph_runtime::__private::next_build_id(),
        };
        ::cudagraph_runtime::__private::Result::Ok(Self {
            parts: unsafe { ::cudagraph_runtime::__private::Guarded::new(__cg_parts) },
        })
    }
    /// Builds the graph again from `params`, in place: the driver calls of [`Self::build`],
    /// reusing the runtime graph's bookkeeping and references (see `Graph::clear`), and,
    /// when the declaration has kernel, memset, memcpy and empty nodes only, the driver's
    /// kernel nodes, each set to its new arguments in place (see `Graph::rebuild`). The
    /// cheap way to rebuild for a whole-graph update in a loop.
    ///
    /// On error the graph is left empty or partly built: rebuild it before using it
    /// again (an update from it is refused).
    pub fn rebuild(
        &mut self,
        __cg_params: &NothingParams,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        Self::__cg_check_overlaps(__cg_params)?;
        let __cg_parts = unsafe { self.parts.get_mut() };
        __cg_parts.build_id = ::cudagraph_runtime::__private::next_build_id();
        let (nodes, state) = __cg_parts
            .graph
            .rebuild(|rebuild| {
                Self::__cg_add_nodes(
                    unsafe {
                        ::cudagraph_runtime::__private::Rebuild::as_graph_mut(rebuild)
                    },
                    __cg_params,
                )
            })?;
        ::cudagraph_runtime::__private::built(&__cg_parts.graph, "Nothing");
        __cg_parts.nodes = nodes;
        __cg_parts.state = state;
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
        let owned = Self::__cg_own(__cg_params)?;
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
                params: owned,
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
        &self.parts.graph
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
        let __cg_parts = self.parts.into_inner();
        let applied = Self::__cg_own(&__cg_parts.state.params)?;
        let exec = __cg_parts.graph.instantiate_with(flags, upload)?;
        ::cudagraph_runtime::__private::Result::Ok(unsafe {
            NothingExec::__cg_new(exec, __cg_parts.nodes, __cg_parts.state, applied)
        })
    }
    ///Instantiates the graph as an executable *bound to* `stream`: it launches there only (`launch` refuses another stream). The launches of executables bound to one stream never overlap, so they may share host memory that their host nodes write, which two executables launched anywhere may not (`Error::BufferInUse` when the second is made).
    pub fn instantiate_on(
        self,
        stream: &::cudagraph_runtime::__private::Arc<
            ::cudagraph_runtime::__private::CudaStream,
        >,
    ) -> ::cudagraph_runtime::__private::Result<NothingExec> {
        let flags = ::cudagraph_runtime::__private::InstantiateFlags::NONE;
        let __cg_parts = self.parts.into_inner();
        let applied = Self::__cg_own(&__cg_parts.state.params)?;
        let exec = __cg_parts.graph.instantiate_on(stream, flags)?;
        ::cudagraph_runtime::__private::Result::Ok(unsafe {
            NothingExec::__cg_new(exec, __cg_parts.nodes, __cg_parts.state, applied)
        })
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for Nothing {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("Nothing")
            .field("graph", &self.parts.graph)
            .finish_non_exhaustive()
    }
}
impl ::cudagraph_runtime::__private::BodyRules for Nothing {
    const FORBIDDEN_IN_BODY: ::cudagraph_runtime::__private::Option<
        &'static ::core::primitive::str,
    > = {
        #[allow(unused_imports)]
        use ::cudagraph_runtime::__private::{
            ArgsFallback as _, BodyFallback as _, ParamFallback as _, SlotFallback as _,
        };
        ::cudagraph_runtime::__private::first_forbidden(&[])
    };
}
unsafe impl ::cudagraph_runtime::__private::ChildGraph for Nothing {
    fn graph(&self) -> &::cudagraph_runtime::__private::Graph<'static> {
        &self.parts.graph
    }
    fn identity(
        &self,
    ) -> ::cudagraph_runtime::__private::Option<::core::primitive::u64> {
        ::cudagraph_runtime::__private::Option::Some(self.parts.build_id)
    }
    fn duplicate(&self) -> ::cudagraph_runtime::__private::Result<Self> {
        let __cg_parts = &self.parts;
        let mut copy = Self::build(
            __cg_parts.graph.context(),
            &__cg_parts.state.params,
        )?;
        unsafe { copy.parts.get_mut() }.build_id = __cg_parts.build_id;
        ::cudagraph_runtime::__private::Result::Ok(copy)
    }
}
impl ::cudagraph_runtime::__private::SameDeclaration<Nothing> for Nothing {
    fn same(&self) -> &Nothing {
        self
    }
}
/**[`Nothing`], instantiated, with the [`NothingParams`] it runs, which it owns ([`params`](Self::params)).

Change a param with its setter (`exec.set_alpha(0.5)?`, one per param: it updates the nodes that read it, and returns the old value), several at once or two swapped through [`params_mut`](Self::params_mut) ([`NothingParamsMut`], whose changes the next launch applies if its `apply` did not), all of them by [`set_params`](Self::set_params); or update it from another [`Nothing`] ([`update`](Self::update)), or one node through its handle. Which node reads which param is known when the macro runs: a change updates the nodes that read it, each once, with nothing else compared.

A change is made whole or not at all. One that a node refuses (the driver or a kernel's check, params that would make two nodes race, or a change CUDA cannot make, such as an allocation's length) is the error of the setter, `apply`, `set_params` or launch that tried it, naming the node, and is undone: every param changed since the last update gets back the value the nodes were last updated from (the executable keeps a copy of those), the nodes updated before the refusal are set back, and nothing stays pending, so the next launch runs what ran before. A panic in your code that a change runs (a node expression, a param's `Clone`, `PartialEq` or `Drop`) may stop it part way: caught, it leaves the executable refusing updates and launches (`Error::Invalid`) until a whole-graph update. Memory the executable stops using is released once the launches that may use it are done.

Nodes:

- [`only()`](Self::only): empty node
*/
struct NothingExec {
    parts: ::cudagraph_runtime::__private::Guarded<__NothingExecParts>,
}
#[doc(hidden)]
#[allow(non_camel_case_types)]
struct __NothingExecParts {
    exec: ::cudagraph_runtime::__private::GraphExec<'static>,
    nodes: ::cudagraph_runtime::__private::Box<
        ::cudagraph_runtime::__private::ManuallyDrop<__NothingNodes>,
    >,
    state: __NothingState,
    /// A copy of the params as the nodes were last updated from them: what a refused
    /// change puts back (see `__private::apply`).
    applied: ::cudagraph_runtime::__private::Box<NothingParams>,
    /// The nodes that disagree with the params (see `__private::Tracker`).
    tracker: ::cudagraph_runtime::__private::Tracker,
}
impl NothingExec {
    /// The executable of `exec`, instantiated from a graph with these nodes and state;
    /// `applied`, a copy of the state's params.
    ///
    /// # Safety
    ///
    /// `exec` was instantiated from the graph the nodes were added to, from the params
    /// kept in `state` (which passed the memory check); `applied` is a copy of them.
    unsafe fn __cg_new(
        exec: ::cudagraph_runtime::__private::GraphExec<'static>,
        nodes: ::cudagraph_runtime::__private::Box<
            ::cudagraph_runtime::__private::ManuallyDrop<__NothingNodes>,
        >,
        state: __NothingState,
        applied: ::cudagraph_runtime::__private::Box<NothingParams>,
    ) -> Self {
        let tracker = ::cudagraph_runtime::__private::Tracker::new(1usize, 0usize);
        let __cg_parts = __NothingExecParts {
            exec,
            nodes,
            state,
            applied,
            tracker,
        };
        Self {
            parts: unsafe { ::cudagraph_runtime::__private::Guarded::new(__cg_parts) },
        }
    }
    /// Launches the graph into `stream`.
    ///
    ///Nodes whose params changed through [`params_mut`](Self::params_mut) and were not updated yet are updated first; an update that fails is the launch's error, naming the node, and nothing is launched: the changes are undone, so the next launch runs what ran before them.
    pub fn launch(
        &mut self,
        stream: &::cudagraph_runtime::__private::Arc<
            ::cudagraph_runtime::__private::CudaStream,
        >,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        if self.parts.tracker.is_dirty() {
            ::cudagraph_runtime::__private::apply(self)?;
        }
        unsafe { self.parts.get_mut() }.exec.launch(stream)
    }
    /// Uploads the executable ahead of its first launch.
    pub fn upload(
        &self,
        stream: &::cudagraph_runtime::__private::CudaStream,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        self.parts.exec.upload(stream)
    }
    /**Whole-graph update from a [`Nothing`] built with other params (`cuGraphExecUpdate`).

Only a graph of this declaration is accepted: it was built by the same sequence of calls, so its nodes pair with this executable's ([whole-graph update](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#whole-graph-update)). Afterwards the executable owns a copy of that graph's params (what [`params`](Self::params) shows), and changes made to its own params and not applied yet are dropped.*/
    pub fn update<__CgSame: ::cudagraph_runtime::__private::SameDeclaration<Nothing>>(
        &mut self,
        source: &__CgSame,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let source: &Nothing = ::cudagraph_runtime::__private::SameDeclaration::same(
            source,
        );
        let params = Nothing::__cg_own(&source.parts.state.params)?;
        let applied = Nothing::__cg_own(&source.parts.state.params)?;
        let __cg_parts = unsafe { self.parts.get_mut() };
        __cg_parts.exec.update(&source.parts.graph)?;
        let replaced = (
            ::cudagraph_runtime::__private::replace(
                &mut __cg_parts.state.params,
                params,
            ),
            ::cudagraph_runtime::__private::replace(&mut __cg_parts.applied, applied),
        );
        *__cg_parts.state.launch = *source.parts.state.launch;
        __cg_parts.tracker.clear();
        ::core::mem::drop(replaced);
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    /**Replaces the executable's params with `params` as a whole: each param that differs from the executable's own is copied in, then the nodes that read a changed param (or were set through their handle since) are updated, each once, with one single-node update. Afterwards the nodes are what [`Nothing::build`] would make from `params`. Returns how many nodes it updated. Enabled/disabled states are kept.

It compares every param, so its cost grows with the declaration: to change a few params, set them (the setters `set_<param>`, [`params_mut`](Self::params_mut)), which updates only their readers. A param is compared with `PartialEq`, a kernel by function, a declared graph by identity; a runtime `Graph` counts as changed every time. A kernel param may change function (same parameter list, same context): the node's single-node update switches it.

Params under which two nodes that may run at the same time share memory, one writing it, are refused as by [`Nothing::build`], with nothing changed. So is any update a node refuses: the error names the node, and the params and the nodes updated before it are set back to what they were.*/
    pub fn set_params(
        &mut self,
        __cg_params: &NothingParams,
    ) -> ::cudagraph_runtime::__private::Result<::core::primitive::usize> {
        Nothing::__cg_check_overlaps(__cg_params)?;
        ::cudagraph_runtime::__private::set_all(self)
    }
    ///The params the executable runs: those it was built from, with every change made since through the setters (`set_<param>`), [`params_mut`](Self::params_mut), [`set_params`](Self::set_params) or [`update`](Self::update). Host code reads the buffers among them as any buffer's holder does: `exec.params().y.to_vec()` waits for the launches that may write `y`.
    pub fn params(&self) -> &NothingParams {
        &self.parts.state.params
    }
    /**A guard through which to change several params at once, or to swap two: [`NothingParamsMut`]'s `set_<param>` and [`swap`](NothingParamsMut::swap) change the params (read them through the guard) and mark the nodes that read them; [`NothingParamsMut::apply`] updates those nodes, each once however many of its params changed, and if the guard is dropped instead, the next [`launch`](Self::launch) does. Either reports an update the driver or a kernel's check refuses as an error naming the node, and undoes the changes (the params and the nodes are as they were before them); nothing is lost when the guard is dropped.

```text
exec.params_mut().swap(|p| (&mut p.x, &mut p.x_new))?; // the ping-pong of a solver
exec.launch(&stream)?;                                 // updates x's and x_new's readers
```*/
    pub fn params_mut(&mut self) -> NothingParamsMut<'_> {
        NothingParamsMut { exec: self }
    }
    /// The params, taking the executable apart (it is dropped; memory its launches may
    /// still use stays alive until they are done).
    pub fn into_params(self) -> NothingParams {
        *self.parts.into_inner().state.params
    }
    /// The runtime executable, for what the typed API does not cover (read-only).
    pub fn as_exec(&self) -> &::cudagraph_runtime::__private::GraphExec<'static> {
        &self.parts.exec
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
        f.debug_struct("NothingExec")
            .field("exec", &self.parts.exec)
            .finish_non_exhaustive()
    }
}
impl Nothing {
    /// A copy of `params`, for the graph and then its executable to keep: made field by
    /// field in place on the heap, a few dozen fields per function.
    #[allow(unused_variables, unused_unsafe)]
    fn __cg_own(
        __cg_params: &NothingParams,
    ) -> ::cudagraph_runtime::__private::Result<
        ::cudagraph_runtime::__private::Box<NothingParams>,
    > {
        let mut out = ::cudagraph_runtime::__private::Box::<NothingParams>::new_uninit();
        let dst = out.as_mut_ptr();
        unsafe { ::cudagraph_runtime::__private::Result::Ok(out.assume_init()) }
    }
}
///The params of a [`NothingParams`] as [`NothingParamsMut::swap`] names them: a field per param, of the same name, holding no value (a `Slot` per param, an array of them per array param whose elements are params of their own). Given to `swap`'s `pick` instead of the params, so that it names the two to swap and cannot change any: `|p| (&mut p.x, &mut p.x_new)`. None can be made outside `swap`.
#[repr(C)]
#[allow(clippy::type_complexity)]
struct NothingSlots {}
const _: () = {
    ::core::assert!(
        ::cudagraph_runtime::__private::size_of:: < NothingSlots > () == 0usize
    );
};
const _: fn(&NothingSlots, &NothingParams) = |slots, params| {};
impl ::cudagraph_runtime::__private::fmt::Debug for NothingSlots {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("NothingSlots").finish_non_exhaustive()
    }
}
unsafe impl ::cudagraph_runtime::__private::Tracked for NothingExec {
    type Params = NothingParams;
    type Slots = NothingSlots;
    const NAME: &'static ::core::primitive::str = "NothingExec";
    #[allow(clippy::type_complexity)]
    const UPDATES: &'static [(
        fn(
            &mut Self,
            ::core::primitive::usize,
            ::cudagraph_runtime::__private::Internal,
        ) -> ::cudagraph_runtime::__private::Result<()>,
        ::core::primitive::u32,
    )] = &[(Self::__cg_nothing, 0)];
    const READERS: &'static [(
        &'static [::core::primitive::u32],
        ::core::primitive::bool,
        ::core::primitive::bool,
    )] = &[];
    #[inline(always)]
    fn tracker(
        &mut self,
        _: ::cudagraph_runtime::__private::Internal,
    ) -> &mut ::cudagraph_runtime::__private::Tracker {
        &mut unsafe { self.parts.get_mut() }.tracker
    }
    #[inline(always)]
    fn params_mut(
        &mut self,
        _: ::cudagraph_runtime::__private::Internal,
    ) -> &mut NothingParams {
        &mut unsafe { self.parts.get_mut() }.state.params
    }
    #[inline(always)]
    fn applied_mut(
        &mut self,
        _: ::cudagraph_runtime::__private::Internal,
    ) -> &mut NothingParams {
        &mut unsafe { self.parts.get_mut() }.applied
    }
    fn check(&self) -> ::cudagraph_runtime::__private::Result<()> {
        Nothing::__cg_check_overlaps(&self.parts.state.params)
    }
    #[inline]
    fn slot_offset(slot: ::core::primitive::usize) -> ::core::primitive::usize {
        match slot {
            _ => ::core::unreachable!(),
        }
    }
    #[allow(unused_variables)]
    fn write_indirect(
        &mut self,
        param: ::core::primitive::usize,
        _: ::cudagraph_runtime::__private::Internal,
    ) {}
    #[inline]
    #[allow(unused_variables)]
    fn sync(
        &mut self,
        param: ::core::primitive::usize,
        commit: ::core::primitive::bool,
        key: ::cudagraph_runtime::__private::Internal,
    ) {
        match param {
            _ => {}
        }
    }
    #[inline(always)]
    fn sync_children(
        &mut self,
        how: ::cudagraph_runtime::__private::SyncChildren,
        _: ::cudagraph_runtime::__private::Internal,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let _ = how;
        ::cudagraph_runtime::__private::Result::Ok(())
    }
}
#[allow(clippy::type_complexity)]
impl NothingExec {
    /**Swaps two params of one type, named by `pick` (`exec.swap(|p| (&mut p.x, &mut p.x_new))?`), and updates the nodes that read them, each once, before it returns: the ping-pong buffers of an iteration swapped between launches in one call. Returns how many nodes it updated. `pick` is given the params' slots ([`NothingSlots`]), not their values: it names two params and changes none. As [`NothingParamsMut::swap`] followed by `apply`: all or nothing (a refused update is reported, naming its node, and the swap undone), any other change pending applied with it.

Swapping two buffers the executable holds (a ping-pong) registers and releases nothing: the swap costs its readers' driver calls and the update of their records of memory.

# Errors

The error of the update that refused the swap, naming its node (a kernel's launch check, a driver error, two nodes that would race): the swap is undone.*/
    pub fn swap<S: ::cudagraph_runtime::__private::Pick>(
        &mut self,
        pick: impl FnOnce(&mut NothingSlots) -> (&mut S, &mut S),
    ) -> ::cudagraph_runtime::__private::Result<::core::primitive::usize> {
        ::cudagraph_runtime::__private::swap_params(self, pick)
    }
    /// The update of a node CUDA updates nothing of.
    #[allow(dead_code)]
    fn __cg_nothing(
        &mut self,
        _: ::core::primitive::usize,
        _: ::cudagraph_runtime::__private::Internal,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        ::cudagraph_runtime::__private::Result::Ok(())
    }
}
/**Changes to the params of a [`NothingExec`], several at once ([`NothingExec::params_mut`]). It reads as the params (`Deref`); `set_<param>` and [`swap`](Self::swap) change them and mark the nodes that read them, and [`apply`](Self::apply) updates those nodes, each once however many of its params changed. A guard dropped without `apply` leaves the changes to the executable's next launch, which applies them first: a change cannot be forgotten. An update that fails is the error of that `apply` or launch, naming the node (the launch launches nothing), and undoes the changes: the params and the nodes are as they were before them.

```text
let mut p = exec.params_mut();
p.set_n(n);                         // its readers are updated once,
p.set_scale(0.5);                   // even those reading both
p.swap(|p| (&mut p.x, &mut p.x_new))?;
p.apply()?;                         // or: the next exec.launch(&stream)
```*/
#[must_use = "changes made through the guard are applied by `apply`, or by the next launch"]
struct NothingParamsMut<'a> {
    exec: &'a mut NothingExec,
}
impl ::cudagraph_runtime::__private::Deref for NothingParamsMut<'_> {
    type Target = NothingParams;
    fn deref(&self) -> &NothingParams {
        &self.exec.parts.state.params
    }
}
#[allow(clippy::type_complexity)]
impl NothingParamsMut<'_> {
    /**Swaps two params of one type, named by `pick` (`p.swap(|p| (&mut p.x, &mut p.x_new))`), and marks the nodes that read them. `pick` is given the params' slots ([`NothingSlots`]), not their values: it names two params and changes none, so that the swap is the only change, and the tracker knows it. The slots of an array param are its elements' (`|p| (&mut p.w[0], &mut p.w[1])`); two arrays of slots (two array params, or runs of elements) are swapped element by element.

Never refused for slots of the struct `pick` is given (its signature allows no other).*/
    pub fn swap<S: ::cudagraph_runtime::__private::Pick>(
        &mut self,
        pick: impl FnOnce(&mut NothingSlots) -> (&mut S, &mut S),
    ) -> ::cudagraph_runtime::__private::Result<()> {
        ::cudagraph_runtime::__private::stage_swap(self.exec, pick)
    }
    /// Updates the nodes that read the params changed so far, each once; returns how
    /// many it updated. All or nothing: an update that fails is reported, naming its
    /// node, and the changes are undone (the params get back the values the nodes were
    /// last updated from, the nodes updated before the refusal are set back, nothing
    /// stays pending), so the executable runs as it did before them.
    pub fn apply(
        self,
    ) -> ::cudagraph_runtime::__private::Result<::core::primitive::usize> {
        ::cudagraph_runtime::__private::apply(self.exec)
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for NothingParamsMut<'_> {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("NothingParamsMut").finish_non_exhaustive()
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
        enabled: ::core::primitive::bool,
    ) -> ::cudagraph_runtime::__private::Result<()>
    where
        &'a (): ::cudagraph_runtime::__private::CanEnableDisable,
    {
        let _ = enabled;
        match <&'a () as ::cudagraph_runtime::__private::CanEnableDisable>::NEVER {}
    }
    #[doc(hidden)]
    pub fn is_enabled(
        &self,
    ) -> ::cudagraph_runtime::__private::Result<::core::primitive::bool>
    where
        &'a (): ::cudagraph_runtime::__private::CanEnableDisable,
    {
        match <&'a () as ::cudagraph_runtime::__private::CanEnableDisable>::NEVER {}
    }
    /// The node's runtime handle, for the runtime's own API.
    pub fn node(&self) -> ::cudagraph_runtime::__private::EmptyNode {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.nodes.only
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
