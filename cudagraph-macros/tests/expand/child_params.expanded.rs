//! Params of every role an executable copies into its applied params and back when a change is
//! refused: a child graph (whose copies may fail: made all before any is stored), a kernel, a
//! buffer, a value.
use cudagraph_runtime::{cuda_graph, prelude::*};
const _: () = {
    #[allow(unused_imports)]
    use ::cudagraph_runtime::__private::{
        ArgsFallback as _, BodyFallback as _, ParamFallback as _, SlotFallback as _,
    };
    if <::cudagraph_runtime::__private::ParamProbe<
        Kernel<(u32, f32, DevicePtrMut<f32>)>,
    >>::IS_HANDLE {
        ::cudagraph_runtime::__private::fail(
            "param `scale` is a `ConditionalHandle`: a handle is made by the conditional node that reads it (`name: while scale { ... }`), since one made for another graph would be set where no node reads it",
        )
    }
};
const _: () = {
    #[allow(unused_imports)]
    use ::cudagraph_runtime::__private::{
        ArgsFallback as _, BodyFallback as _, ParamFallback as _, SlotFallback as _,
    };
    if ({
        use ::cudagraph_runtime::__private::LaunchFallback as _;
        <::cudagraph_runtime::__private::LaunchProbe<DeviceBuffer<f32>>>::IS_LAUNCH
            || <::cudagraph_runtime::__private::ParamProbe<DeviceBuffer<f32>>>::IS_HANDLE
    }) {
        ::cudagraph_runtime::__private::fail(
            ({
                use ::cudagraph_runtime::__private::LaunchFallback as _;
                if <::cudagraph_runtime::__private::LaunchProbe<
                    DeviceBuffer<f32>,
                >>::IS_LAUNCH {
                    "`DeviceBuffer<f32>` here is a device graph's handle, not memory: `cuda_graph!` takes a type written `DeviceBuffer<f32>` for memory, and would not check what a kernel given it may launch; give the import or alias another name"
                } else {
                    "`DeviceBuffer<f32>` here is a `ConditionalHandle`, not memory: `cuda_graph!` takes a type written `DeviceBuffer<f32>` for memory, and a handle is made by the conditional node that reads it (`name: while h { ... }`), never a param; remove the param, and give the import or alias another name"
                }
            }),
        )
    }
};
const _: () = {
    #[allow(unused_imports)]
    use ::cudagraph_runtime::__private::{
        ArgsFallback as _, BodyFallback as _, ParamFallback as _, SlotFallback as _,
    };
    if ({
        use ::cudagraph_runtime::__private::SameFallback as _;
        !<::cudagraph_runtime::__private::SameProbe<u32, ::core::primitive::u32>>::SAME
    }) {
        ::cudagraph_runtime::__private::fail(
            "`u32` here is not the primitive `u32`: `cuda_graph!` takes a type written `u32` for that primitive, a plain value that holds no memory, and an alias or import that gives the name to another type would hide the memory it holds from the data-race rule; give that type another name",
        )
    }
};
const _: () = {
    #[allow(unused_imports)]
    use ::cudagraph_runtime::__private::{
        ArgsFallback as _, BodyFallback as _, ParamFallback as _, SlotFallback as _,
    };
    if ({
        use ::cudagraph_runtime::__private::SameFallback as _;
        !<::cudagraph_runtime::__private::SameProbe<f32, ::core::primitive::f32>>::SAME
    }) {
        ::cudagraph_runtime::__private::fail(
            "`f32` here is not the primitive `f32`: `cuda_graph!` takes a type written `f32` for that primitive, a plain value that holds no memory, and an alias or import that gives the name to another type would hide the memory it holds from the data-race rule; give that type another name",
        )
    }
};
/**The params of [`Inner`]: what its nodes are built from ([`Inner::build`]). Its executable owns a copy ([`InnerExec::params`]), changed through the executable (`set_<param>`, [`InnerExec::params_mut`], [`InnerExec::set_params`]), which updates exactly the nodes that read what changed:

- node `mul` reads `scale`, `y`, `n`, `s`
*/
#[allow(clippy::type_complexity)]
struct InnerParams {
    ///Param `scale`, read by node `mul`.
    pub scale: Kernel<(u32, f32, DevicePtrMut<f32>)>,
    ///Param `y`, read by node `mul`.
    pub y: DeviceBuffer<f32>,
    ///Param `n`, read by node `mul`.
    pub n: u32,
    ///Param `s`, read by node `mul`.
    pub s: f32,
}
impl ::cudagraph_runtime::__private::fmt::Debug for InnerParams {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("InnerParams").finish_non_exhaustive()
    }
}
/// `y *= s` over `n` elements.
/**

A CUDA graph declared with `cuda_graph!`: [`Inner::build`] builds it from a [`InnerParams`], [`Inner::instantiate`] makes it a [`InnerExec`].

# Nodes

In build order (a node's position is its index in the graph):

0. `mul`: `kernel scale<<<n.div_ceil(256), 256>>>(n, s, y)`

# Topology

<div style="overflow-x:auto"><svg xmlns="http://www.w3.org/2000/svg" role="img" width="74" height="56" viewBox="0 0 74 56" font-family="monospace" font-size="14" text-anchor="middle" fill="currentColor"><title>Topology of Inner: 1 node, 0 edges</title><rect x="8" y="8" width="58" height="40" rx="4" fill="#dbeafe" stroke="#1d4ed8"/><text x="37" y="25" fill="#111">mul</text><text x="37" y="41" font-size="11" fill="#374151">kernel</text></svg></div>

As text: `Inner::TOPOLOGY.to_mermaid()` (Mermaid) or `.to_dot()` (Graphviz).
*/
struct Inner {
    parts: ::cudagraph_runtime::__private::Guarded<__InnerParts>,
}
#[doc(hidden)]
#[allow(non_camel_case_types)]
struct __InnerParts {
    graph: ::cudagraph_runtime::__private::Graph<'static>,
    nodes: ::cudagraph_runtime::__private::Box<
        ::cudagraph_runtime::__private::ManuallyDrop<__InnerNodes>,
    >,
    state: __InnerState,
    build_id: ::core::primitive::u64,
}
#[doc(hidden)]
#[allow(non_camel_case_types, dead_code, clippy::type_complexity)]
struct __InnerNodes {
    mul: ::cudagraph_runtime::__private::KernelNode<(u32, f32, DevicePtrMut<f32>)>,
}
unsafe impl ::cudagraph_runtime::__private::Unbuilt for __InnerNodes {}
#[doc(hidden)]
#[allow(non_camel_case_types, non_snake_case, dead_code)]
#[derive(Clone, Copy)]
struct __InnerLaunch {
    mul: ::cudagraph_runtime::__private::LaunchConfig,
}
unsafe impl ::cudagraph_runtime::__private::Unbuilt for __InnerLaunch {}
#[doc(hidden)]
#[allow(non_camel_case_types)]
struct __InnerState {
    params: ::cudagraph_runtime::__private::Box<InnerParams>,
    launch: ::cudagraph_runtime::__private::Box<__InnerLaunch>,
}
impl Inner {
    /// The declared shape: nodes in build order (their indices in the graph; one more
    /// with `#[indirect]` params, whose fetch node comes first), kinds and edges. Its
    /// `to_dot()` and `to_mermaid()` draw it.
    pub const TOPOLOGY: ::cudagraph_runtime::__private::Topology = ::cudagraph_runtime::__private::Topology {
        name: "Inner",
        nodes: &[("mul", ::cudagraph_runtime::__private::NodeKind::Kernel)],
        edges: &[],
        bodies: &[],
    };
    /// [`TOPOLOGY`](Self::TOPOLOGY) drawn as a standalone SVG image, laid out when the
    /// macro ran: the picture in this type's docs. Write it to a `.svg` file or put it
    /// in an HTML page; its lines and labels take the text colour of the page around it
    /// (black in a file of its own). It is in the binary only if the program calls this.
    pub const fn topology_svg() -> &'static ::core::primitive::str {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" width=\"74\" height=\"56\" viewBox=\"0 0 74 56\" font-family=\"monospace\" font-size=\"14\" text-anchor=\"middle\" fill=\"currentColor\"><title>Topology of Inner: 1 node, 0 edges</title><rect x=\"8\" y=\"8\" width=\"58\" height=\"40\" rx=\"4\" fill=\"#dbeafe\" stroke=\"#1d4ed8\"/><text x=\"37\" y=\"25\" fill=\"#111\">mul</text><text x=\"37\" y=\"41\" font-size=\"11\" fill=\"#374151\">kernel</text></svg>"
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
        __cg_params: &InnerParams,
    ) -> ::cudagraph_runtime::__private::Result<Self> {
        Self::__cg_check_overlaps(__cg_params)?;
        let mut __cg_graph = ::cudagraph_runtime::__private::Graph::with_capacity(
            ctx,
            1usize,
        )?;
        let (nodes, state) = Self::__cg_add_nodes(&mut __cg_graph, __cg_params)?;
        ::cudagraph_runtime::__private::built(&__cg_graph, "Inner");
        let __cg_parts = __InnerParts {
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
        __cg_params: &InnerParams,
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
        ::cudagraph_runtime::__private::built(&__cg_parts.graph, "Inner");
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
        __cg_params: &InnerParams,
    ) -> ::cudagraph_runtime::__private::Result<
        (
            ::cudagraph_runtime::__private::Box<
                ::cudagraph_runtime::__private::ManuallyDrop<__InnerNodes>,
            >,
            __InnerState,
        ),
    > {
        let owned = Self::__cg_own(__cg_params)?;
        let mut boxed = ::cudagraph_runtime::__private::unbuilt_box::<
            ::cudagraph_runtime::__private::ManuallyDrop<__InnerNodes>,
        >();
        let mut configs = ::cudagraph_runtime::__private::unbuilt_box::<__InnerLaunch>();
        {
            let nodes: &mut __InnerNodes = &mut boxed;
            #[allow(unused_variables)]
            let launches: &mut __InnerLaunch = &mut configs;
            Self::__cg_add_0(__cg_graph, __cg_params, nodes, launches)?;
        }
        ::cudagraph_runtime::__private::Result::Ok((
            boxed,
            __InnerState {
                params: owned,
                launch: configs,
            },
        ))
    }
    #[inline(never)]
    fn __cg_add_0(
        __cg_graph: &mut ::cudagraph_runtime::__private::Graph<'static>,
        __cg_params: &InnerParams,
        nodes: &mut __InnerNodes,
        launches: &mut __InnerLaunch,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        (nodes.mul, launches.mul) = ::cudagraph_runtime::__private::add_node(
            __cg_graph,
            "mul",
            |__cg_graph| {
                let (kernel, config, args) = Inner::__cg_eval_mul(__cg_params);
                let added = __cg_graph.add_kernel(kernel, config, args, &[])?;
                ::cudagraph_runtime::__private::Result::Ok((added, config))
            },
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
        __cg_params: &InnerParams,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        #[allow(unused_imports)]
        use ::cudagraph_runtime::__private::{
            ArgsFallback as _, BodyFallback as _, ParamFallback as _, SlotFallback as _,
        };
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    ///Instantiates the graph with default flags.
    pub fn instantiate(self) -> ::cudagraph_runtime::__private::Result<InnerExec> {
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
    ) -> ::cudagraph_runtime::__private::Result<InnerExec> {
        let __cg_parts = self.parts.into_inner();
        let applied = Self::__cg_own(&__cg_parts.state.params)?;
        let exec = __cg_parts.graph.instantiate_with(flags, upload)?;
        ::cudagraph_runtime::__private::Result::Ok(unsafe {
            InnerExec::__cg_new(exec, __cg_parts.nodes, __cg_parts.state, applied)
        })
    }
    ///Instantiates the graph as an executable *bound to* `stream`: it launches there only (`launch` refuses another stream). The launches of executables bound to one stream never overlap, so they may share host memory that their host nodes write, which two executables launched anywhere may not (`Error::BufferInUse` when the second is made).
    pub fn instantiate_on(
        self,
        stream: &::cudagraph_runtime::__private::Arc<
            ::cudagraph_runtime::__private::CudaStream,
        >,
    ) -> ::cudagraph_runtime::__private::Result<InnerExec> {
        let flags = ::cudagraph_runtime::__private::InstantiateFlags::NONE;
        let __cg_parts = self.parts.into_inner();
        let applied = Self::__cg_own(&__cg_parts.state.params)?;
        let exec = __cg_parts.graph.instantiate_on(stream, flags)?;
        ::cudagraph_runtime::__private::Result::Ok(unsafe {
            InnerExec::__cg_new(exec, __cg_parts.nodes, __cg_parts.state, applied)
        })
    }
    #[allow(
        non_snake_case,
        unused_variables,
        clippy::type_complexity,
        clippy::needless_lifetimes
    )]
    fn __cg_eval_mul<'__cg_p>(
        __cg_params: &'__cg_p InnerParams,
    ) -> (
        &'__cg_p ::cudagraph_runtime::__private::Kernel<(u32, f32, DevicePtrMut<f32>)>,
        ::cudagraph_runtime::__private::LaunchConfig,
        (
            impl ::cudagraph_runtime::__private::KernelArg<'static, u32> + '__cg_p,
            impl ::cudagraph_runtime::__private::KernelArg<'static, f32> + '__cg_p,
            impl ::cudagraph_runtime::__private::KernelArg<
                'static,
                DevicePtrMut<f32>,
            > + '__cg_p,
        ),
    ) {
        #[allow(unused_imports)]
        use ::cudagraph_runtime::__private::{BindCopy as _, BindRef as _};
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let scale = (&::cudagraph_runtime::__private::Bind(&__cg_params.scale))
            .__cg_bind();
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let n = (&::cudagraph_runtime::__private::Bind(&__cg_params.n)).__cg_bind();
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let s = (&::cudagraph_runtime::__private::Bind(&__cg_params.s)).__cg_bind();
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let y = (&::cudagraph_runtime::__private::Bind(&__cg_params.y)).__cg_bind();
        let config = ::cudagraph_runtime::__private::launch(n.div_ceil(256), 256, 0);
        let args = (
            ::cudagraph_runtime::__private::KernelArgPart::<'static, u32, _>::new(n),
            ::cudagraph_runtime::__private::KernelArgPart::<'static, f32, _>::new(s),
            ::cudagraph_runtime::__private::KernelArgPart::<
                'static,
                DevicePtrMut<f32>,
                _,
            >::new(y),
        );
        (
            <Kernel<
                (u32, f32, DevicePtrMut<f32>),
            > as ::cudagraph_runtime::__private::KernelType>::as_kernel(
                &__cg_params.scale,
            ),
            config,
            args,
        )
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for Inner {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("Inner").field("graph", &self.parts.graph).finish_non_exhaustive()
    }
}
impl ::cudagraph_runtime::__private::BodyRules for Inner {
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
unsafe impl ::cudagraph_runtime::__private::ChildGraph for Inner {
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
impl ::cudagraph_runtime::__private::SameDeclaration<Inner> for Inner {
    fn same(&self) -> &Inner {
        self
    }
}
/**[`Inner`], instantiated, with the [`InnerParams`] it runs, which it owns ([`params`](Self::params)).

Change a param with its setter (`exec.set_alpha(0.5)?`, one per param: it updates the nodes that read it, and returns the old value), several at once or two swapped through [`params_mut`](Self::params_mut) ([`InnerParamsMut`], whose changes the next launch applies if its `apply` did not), all of them by [`set_params`](Self::set_params); or update it from another [`Inner`] ([`update`](Self::update)), or one node through its handle. Which node reads which param is known when the macro runs: a change updates the nodes that read it, each once, with nothing else compared.

A change is made whole or not at all. One that a node refuses (the driver or a kernel's check, params that would make two nodes race, or a change CUDA cannot make, such as an allocation's length) is the error of the setter, `apply`, `set_params` or launch that tried it, naming the node, and is undone: every param changed since the last update gets back the value the nodes were last updated from (the executable keeps a copy of those), the nodes updated before the refusal are set back, and nothing stays pending, so the next launch runs what ran before. A panic in your code that a change runs (a node expression, a param's `Clone`, `PartialEq` or `Drop`) may stop it part way: caught, it leaves the executable refusing updates and launches (`Error::Invalid`) until a whole-graph update. Memory the executable stops using is released once the launches that may use it are done.

Nodes:

- [`mul()`](Self::mul): kernel node
*/
struct InnerExec {
    parts: ::cudagraph_runtime::__private::Guarded<__InnerExecParts>,
}
#[doc(hidden)]
#[allow(non_camel_case_types)]
struct __InnerExecParts {
    exec: ::cudagraph_runtime::__private::GraphExec<'static>,
    nodes: ::cudagraph_runtime::__private::Box<
        ::cudagraph_runtime::__private::ManuallyDrop<__InnerNodes>,
    >,
    state: __InnerState,
    /// A copy of the params as the nodes were last updated from them: what a refused
    /// change puts back (see `__private::apply`).
    applied: ::cudagraph_runtime::__private::Box<InnerParams>,
    /// The nodes that disagree with the params (see `__private::Tracker`).
    tracker: ::cudagraph_runtime::__private::Tracker,
}
impl InnerExec {
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
            ::cudagraph_runtime::__private::ManuallyDrop<__InnerNodes>,
        >,
        state: __InnerState,
        applied: ::cudagraph_runtime::__private::Box<InnerParams>,
    ) -> Self {
        let tracker = ::cudagraph_runtime::__private::Tracker::new(1usize, 4usize);
        let __cg_parts = __InnerExecParts {
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
    /**Whole-graph update from a [`Inner`] built with other params (`cuGraphExecUpdate`).

Only a graph of this declaration is accepted: it was built by the same sequence of calls, so its nodes pair with this executable's ([whole-graph update](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#whole-graph-update)). Afterwards the executable owns a copy of that graph's params (what [`params`](Self::params) shows), and changes made to its own params and not applied yet are dropped.*/
    pub fn update<__CgSame: ::cudagraph_runtime::__private::SameDeclaration<Inner>>(
        &mut self,
        source: &__CgSame,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let source: &Inner = ::cudagraph_runtime::__private::SameDeclaration::same(
            source,
        );
        let params = Inner::__cg_own(&source.parts.state.params)?;
        let applied = Inner::__cg_own(&source.parts.state.params)?;
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
    /**Replaces the executable's params with `params` as a whole: each param that differs from the executable's own is copied in, then the nodes that read a changed param (or were set through their handle since) are updated, each once, with one single-node update. Afterwards the nodes are what [`Inner::build`] would make from `params`. Returns how many nodes it updated. Enabled/disabled states are kept.

It compares every param, so its cost grows with the declaration: to change a few params, set them (the setters `set_<param>`, [`params_mut`](Self::params_mut)), which updates only their readers. A param is compared with `PartialEq`, a kernel by function, a declared graph by identity; a runtime `Graph` counts as changed every time. A kernel param may change function (same parameter list, same context): the node's single-node update switches it.

Params under which two nodes that may run at the same time share memory, one writing it, are refused as by [`Inner::build`], with nothing changed. So is any update a node refuses: the error names the node, and the params and the nodes updated before it are set back to what they were.*/
    pub fn set_params(
        &mut self,
        __cg_params: &InnerParams,
    ) -> ::cudagraph_runtime::__private::Result<::core::primitive::usize> {
        Inner::__cg_check_overlaps(__cg_params)?;
        self.__cg_take_0(__cg_params);
        ::cudagraph_runtime::__private::set_all(self)
    }
    ///The params the executable runs: those it was built from, with every change made since through the setters (`set_<param>`), [`params_mut`](Self::params_mut), [`set_params`](Self::set_params) or [`update`](Self::update). Host code reads the buffers among them as any buffer's holder does: `exec.params().y.to_vec()` waits for the launches that may write `y`.
    pub fn params(&self) -> &InnerParams {
        &self.parts.state.params
    }
    /**A guard through which to change several params at once, or to swap two: [`InnerParamsMut`]'s `set_<param>` and [`swap`](InnerParamsMut::swap) change the params (read them through the guard) and mark the nodes that read them; [`InnerParamsMut::apply`] updates those nodes, each once however many of its params changed, and if the guard is dropped instead, the next [`launch`](Self::launch) does. Either reports an update the driver or a kernel's check refuses as an error naming the node, and undoes the changes (the params and the nodes are as they were before them); nothing is lost when the guard is dropped.

```text
exec.params_mut().swap(|p| (&mut p.x, &mut p.x_new))?; // the ping-pong of a solver
exec.launch(&stream)?;                                 // updates x's and x_new's readers
```*/
    pub fn params_mut(&mut self) -> InnerParamsMut<'_> {
        InnerParamsMut { exec: self }
    }
    /// The params, taking the executable apart (it is dropped; memory its launches may
    /// still use stays alive until they are done).
    pub fn into_params(self) -> InnerParams {
        *self.parts.into_inner().state.params
    }
    /// The runtime executable, for what the typed API does not cover (read-only).
    pub fn as_exec(&self) -> &::cudagraph_runtime::__private::GraphExec<'static> {
        &self.parts.exec
    }
    #[inline(never)]
    fn __cg_take_0(&mut self, __cg_params: &InnerParams) {
        let __cg_parts = unsafe { self.parts.get_mut() };
        if !(<Kernel<
            (u32, f32, DevicePtrMut<f32>),
        > as ::cudagraph_runtime::__private::KernelType>::function_id(&__cg_params.scale)
            == <Kernel<
                (u32, f32, DevicePtrMut<f32>),
            > as ::cudagraph_runtime::__private::KernelType>::function_id(
                &__cg_parts.state.params.scale,
            ))
        {
            let value = <Kernel<
                (u32, f32, DevicePtrMut<f32>),
            > as ::cudagraph_runtime::__private::KernelType>::keep(&__cg_params.scale);
            ::cudagraph_runtime::__private::stage_in::<
                Self,
            >(&mut __cg_parts.tracker, 0usize);
            __cg_parts.state.params.scale = value;
        }
        if !(<DeviceBuffer<
            f32,
        > as ::cudagraph_runtime::__private::ParamValue>::same(
            &__cg_params.y,
            &__cg_parts.state.params.y,
        )) {
            let value = <DeviceBuffer<
                f32,
            > as ::cudagraph_runtime::__private::ParamValue>::keep(&__cg_params.y);
            ::cudagraph_runtime::__private::stage_in::<
                Self,
            >(&mut __cg_parts.tracker, 1usize);
            __cg_parts.state.params.y = value;
        }
        if !(<u32 as ::cudagraph_runtime::__private::ParamValue>::same(
            &__cg_params.n,
            &__cg_parts.state.params.n,
        )) {
            let value = <u32 as ::cudagraph_runtime::__private::ParamValue>::keep(
                &__cg_params.n,
            );
            ::cudagraph_runtime::__private::stage_in::<
                Self,
            >(&mut __cg_parts.tracker, 2usize);
            __cg_parts.state.params.n = value;
        }
        if !(<f32 as ::cudagraph_runtime::__private::ParamValue>::same(
            &__cg_params.s,
            &__cg_parts.state.params.s,
        )) {
            let value = <f32 as ::cudagraph_runtime::__private::ParamValue>::keep(
                &__cg_params.s,
            );
            ::cudagraph_runtime::__private::stage_in::<
                Self,
            >(&mut __cg_parts.tracker, 3usize);
            __cg_parts.state.params.s = value;
        }
    }
    ///Node `mul` (`kernel scale<<<n.div_ceil(256), 256>>>(n, s, y)`): its update handle.
    pub fn mul(&mut self) -> InnerMulNode<'_> {
        InnerMulNode { exec: self }
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for InnerExec {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("InnerExec")
            .field("exec", &self.parts.exec)
            .finish_non_exhaustive()
    }
}
impl Inner {
    /// A copy of `params`, for the graph and then its executable to keep: made field by
    /// field in place on the heap, a few dozen fields per function.
    #[allow(unused_variables, unused_unsafe)]
    fn __cg_own(
        __cg_params: &InnerParams,
    ) -> ::cudagraph_runtime::__private::Result<
        ::cudagraph_runtime::__private::Box<InnerParams>,
    > {
        let mut out = ::cudagraph_runtime::__private::Box::<InnerParams>::new_uninit();
        let dst = out.as_mut_ptr();
        unsafe {
            Self::__cg_own_0(__cg_params, dst);
            ::cudagraph_runtime::__private::Result::Ok(out.assume_init())
        }
    }
    /// Writes a copy of some of the params into `dst` (see `__cg_own`).
    ///
    /// # Safety
    /// `dst` is valid for writes of the params struct.
    #[inline(never)]
    unsafe fn __cg_own_0(__cg_params: &InnerParams, dst: *mut InnerParams) {
        unsafe {
            (&raw mut (*dst).scale)
                .write(
                    <Kernel<
                        (u32, f32, DevicePtrMut<f32>),
                    > as ::cudagraph_runtime::__private::KernelType>::keep(
                        &__cg_params.scale,
                    ),
                );
            (&raw mut (*dst).y)
                .write(
                    <DeviceBuffer<
                        f32,
                    > as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_params.y,
                    ),
                );
            (&raw mut (*dst).n)
                .write(
                    <u32 as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_params.n,
                    ),
                );
            (&raw mut (*dst).s)
                .write(
                    <f32 as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_params.s,
                    ),
                );
        }
    }
}
///The params of a [`InnerParams`] as [`InnerParamsMut::swap`] names them: a field per param, of the same name, holding no value (a `Slot` per param, an array of them per array param whose elements are params of their own). Given to `swap`'s `pick` instead of the params, so that it names the two to swap and cannot change any: `|p| (&mut p.x, &mut p.x_new)`. None can be made outside `swap`.
#[repr(C)]
#[allow(clippy::type_complexity)]
struct InnerSlots {
    ///Param [`scale`](InnerParams::scale), to swap.
    pub scale: ::cudagraph_runtime::__private::Slot<
        Kernel<(u32, f32, DevicePtrMut<f32>)>,
    >,
    ///Param [`y`](InnerParams::y), to swap.
    pub y: ::cudagraph_runtime::__private::Slot<DeviceBuffer<f32>>,
    ///Param [`n`](InnerParams::n), to swap.
    pub n: ::cudagraph_runtime::__private::Slot<u32>,
    ///Param [`s`](InnerParams::s), to swap.
    pub s: ::cudagraph_runtime::__private::Slot<f32>,
}
const _: () = {
    ::core::assert!(
        ::cudagraph_runtime::__private::offset_of!(InnerSlots, scale) == 0usize
    );
    ::core::assert!(::cudagraph_runtime::__private::offset_of!(InnerSlots, y) == 1usize);
    ::core::assert!(::cudagraph_runtime::__private::offset_of!(InnerSlots, n) == 2usize);
    ::core::assert!(::cudagraph_runtime::__private::offset_of!(InnerSlots, s) == 3usize);
    ::core::assert!(
        ::cudagraph_runtime::__private::size_of:: < InnerSlots > () == 4usize
    );
};
const _: fn(&InnerSlots, &InnerParams) = |slots, params| {
    ::cudagraph_runtime::__private::slot_of(&slots.scale, &params.scale);
    ::cudagraph_runtime::__private::slot_of(&slots.y, &params.y);
    ::cudagraph_runtime::__private::slot_of(&slots.n, &params.n);
    ::cudagraph_runtime::__private::slot_of(&slots.s, &params.s);
};
impl ::cudagraph_runtime::__private::fmt::Debug for InnerSlots {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("InnerSlots").finish_non_exhaustive()
    }
}
unsafe impl ::cudagraph_runtime::__private::Tracked for InnerExec {
    type Params = InnerParams;
    type Slots = InnerSlots;
    const NAME: &'static ::core::primitive::str = "InnerExec";
    #[allow(clippy::type_complexity)]
    const UPDATES: &'static [(
        fn(
            &mut Self,
            ::core::primitive::usize,
            ::cudagraph_runtime::__private::Internal,
        ) -> ::cudagraph_runtime::__private::Result<()>,
        ::core::primitive::u32,
    )] = &[(Self::__cg_update_node_0, 0u32)];
    const READERS: &'static [(
        &'static [::core::primitive::u32],
        ::core::primitive::bool,
        ::core::primitive::bool,
    )] = &[
        (&[0u32], false, false),
        (&[0u32], false, false),
        (&[0u32], false, false),
        (&[0u32], false, false),
    ];
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
    ) -> &mut InnerParams {
        &mut unsafe { self.parts.get_mut() }.state.params
    }
    #[inline(always)]
    fn applied_mut(
        &mut self,
        _: ::cudagraph_runtime::__private::Internal,
    ) -> &mut InnerParams {
        &mut unsafe { self.parts.get_mut() }.applied
    }
    fn check(&self) -> ::cudagraph_runtime::__private::Result<()> {
        Inner::__cg_check_overlaps(&self.parts.state.params)
    }
    #[inline]
    fn slot_offset(slot: ::core::primitive::usize) -> ::core::primitive::usize {
        match slot {
            0usize..4usize => Self::__cg_slot_offset_0(slot),
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
            0usize..4usize => self.__cg_sync_0(param, commit, key),
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
impl InnerExec {
    /**Sets param `scale` and updates what reads it (node `mul`), one single-node update each. Returns the old value; on error, naming the node, nothing changes: the param keeps its old value and the nodes their updates (see [`InnerExec`]).
*/
    pub fn set_scale(
        &mut self,
        value: Kernel<(u32, f32, DevicePtrMut<f32>)>,
    ) -> ::cudagraph_runtime::__private::Result<Kernel<(u32, f32, DevicePtrMut<f32>)>> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.parts.get_mut() }.state.params.scale,
            value,
        );
        {
            let commit = |exec: &mut Self| {
                let __cg_parts = unsafe { exec.parts.get_mut() };
                __cg_parts.applied.scale = <Kernel<
                    (u32, f32, DevicePtrMut<f32>),
                > as ::cudagraph_runtime::__private::KernelType>::keep(
                    &__cg_parts.state.params.scale,
                );
            };
            unsafe {
                ::cudagraph_runtime::__private::set_sole_reader(
                    self,
                    0usize,
                    0usize,
                    (Self::__cg_update_node_0, 0usize),
                    commit,
                )
            }
        }
            .map(|_| old)
    }
    /**Sets param `y` and updates what reads it (node `mul`), one single-node update each. Returns the old value; on error, naming the node, nothing changes: the param keeps its old value and the nodes their updates (see [`InnerExec`]).
*/
    pub fn set_y(
        &mut self,
        value: DeviceBuffer<f32>,
    ) -> ::cudagraph_runtime::__private::Result<DeviceBuffer<f32>> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.parts.get_mut() }.state.params.y,
            value,
        );
        {
            let commit = |exec: &mut Self| {
                let __cg_parts = unsafe { exec.parts.get_mut() };
                __cg_parts.applied.y = <DeviceBuffer<
                    f32,
                > as ::cudagraph_runtime::__private::ParamValue>::keep(
                    &__cg_parts.state.params.y,
                );
            };
            unsafe {
                ::cudagraph_runtime::__private::set_sole_reader(
                    self,
                    1usize,
                    0usize,
                    (Self::__cg_update_node_0, 0usize),
                    commit,
                )
            }
        }
            .map(|_| old)
    }
    /**Sets param `n` and updates what reads it (node `mul`), one single-node update each. Returns the old value; on error, naming the node, nothing changes: the param keeps its old value and the nodes their updates (see [`InnerExec`]).
*/
    pub fn set_n(&mut self, value: u32) -> ::cudagraph_runtime::__private::Result<u32> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.parts.get_mut() }.state.params.n,
            value,
        );
        {
            let commit = |exec: &mut Self| {
                let __cg_parts = unsafe { exec.parts.get_mut() };
                __cg_parts.applied.n = <u32 as ::cudagraph_runtime::__private::ParamValue>::keep(
                    &__cg_parts.state.params.n,
                );
            };
            unsafe {
                ::cudagraph_runtime::__private::set_sole_reader(
                    self,
                    2usize,
                    0usize,
                    (Self::__cg_update_node_0, 0usize),
                    commit,
                )
            }
        }
            .map(|_| old)
    }
    /**Sets param `s` and updates what reads it (node `mul`), one single-node update each. Returns the old value; on error, naming the node, nothing changes: the param keeps its old value and the nodes their updates (see [`InnerExec`]).
*/
    pub fn set_s(&mut self, value: f32) -> ::cudagraph_runtime::__private::Result<f32> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.parts.get_mut() }.state.params.s,
            value,
        );
        {
            let commit = |exec: &mut Self| {
                let __cg_parts = unsafe { exec.parts.get_mut() };
                __cg_parts.applied.s = <f32 as ::cudagraph_runtime::__private::ParamValue>::keep(
                    &__cg_parts.state.params.s,
                );
            };
            unsafe {
                ::cudagraph_runtime::__private::set_sole_reader(
                    self,
                    3usize,
                    0usize,
                    (Self::__cg_update_node_0, 0usize),
                    commit,
                )
            }
        }
            .map(|_| old)
    }
    /**Swaps two params of one type, named by `pick` (`exec.swap(|p| (&mut p.x, &mut p.x_new))?`), and updates the nodes that read them, each once, before it returns: the ping-pong buffers of an iteration swapped between launches in one call. Returns how many nodes it updated. `pick` is given the params' slots ([`InnerSlots`]), not their values: it names two params and changes none. As [`InnerParamsMut::swap`] followed by `apply`: all or nothing (a refused update is reported, naming its node, and the swap undone), any other change pending applied with it.

Swapping two buffers the executable holds (a ping-pong) registers and releases nothing: the swap costs its readers' driver calls and the update of their records of memory.

# Errors

The error of the update that refused the swap, naming its node (a kernel's launch check, a driver error, two nodes that would race): the swap is undone.*/
    pub fn swap<S: ::cudagraph_runtime::__private::Pick>(
        &mut self,
        pick: impl FnOnce(&mut InnerSlots) -> (&mut S, &mut S),
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
    #[inline(never)]
    #[allow(unused_variables)]
    fn __cg_update_node_0(
        &mut self,
        index: ::core::primitive::usize,
        _: ::cudagraph_runtime::__private::Internal,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.parts.get_mut() };
        let __cg_params: &InnerParams = &__cg_parts.state.params;
        let (kernel, config, args) = Inner::__cg_eval_mul(__cg_params);
        __cg_parts.exec.set_kernel(__cg_parts.nodes.mul, kernel, config, args)?;
        __cg_parts.state.launch.mul = config;
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline]
    fn __cg_slot_offset_0(slot: ::core::primitive::usize) -> ::core::primitive::usize {
        match slot {
            0usize => ::cudagraph_runtime::__private::offset_of!(InnerParams, scale),
            1usize => ::cudagraph_runtime::__private::offset_of!(InnerParams, y),
            2usize => ::cudagraph_runtime::__private::offset_of!(InnerParams, n),
            3usize => ::cudagraph_runtime::__private::offset_of!(InnerParams, s),
            _ => ::core::unreachable!(),
        }
    }
    /// `Tracked::sync` for this chunk's params (keyed, as it).
    #[inline(never)]
    #[allow(unused_variables)]
    fn __cg_sync_0(
        &mut self,
        param: ::core::primitive::usize,
        commit: ::core::primitive::bool,
        _: ::cudagraph_runtime::__private::Internal,
    ) {
        let __cg_parts = unsafe { self.parts.get_mut() };
        match param {
            0usize => {
                if commit {
                    __cg_parts.applied.scale = <Kernel<
                        (u32, f32, DevicePtrMut<f32>),
                    > as ::cudagraph_runtime::__private::KernelType>::keep(
                        &__cg_parts.state.params.scale,
                    );
                } else {
                    __cg_parts.state.params.scale = <Kernel<
                        (u32, f32, DevicePtrMut<f32>),
                    > as ::cudagraph_runtime::__private::KernelType>::keep(
                        &__cg_parts.applied.scale,
                    );
                }
            }
            1usize => {
                if commit {
                    __cg_parts.applied.y = <DeviceBuffer<
                        f32,
                    > as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_parts.state.params.y,
                    );
                } else {
                    __cg_parts.state.params.y = <DeviceBuffer<
                        f32,
                    > as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_parts.applied.y,
                    );
                }
            }
            2usize => {
                if commit {
                    __cg_parts.applied.n = <u32 as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_parts.state.params.n,
                    );
                } else {
                    __cg_parts.state.params.n = <u32 as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_parts.applied.n,
                    );
                }
            }
            3usize => {
                if commit {
                    __cg_parts.applied.s = <f32 as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_parts.state.params.s,
                    );
                } else {
                    __cg_parts.state.params.s = <f32 as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_parts.applied.s,
                    );
                }
            }
            _ => {}
        }
    }
}
/**Changes to the params of a [`InnerExec`], several at once ([`InnerExec::params_mut`]). It reads as the params (`Deref`); `set_<param>` and [`swap`](Self::swap) change them and mark the nodes that read them, and [`apply`](Self::apply) updates those nodes, each once however many of its params changed. A guard dropped without `apply` leaves the changes to the executable's next launch, which applies them first: a change cannot be forgotten. An update that fails is the error of that `apply` or launch, naming the node (the launch launches nothing), and undoes the changes: the params and the nodes are as they were before them.

```text
let mut p = exec.params_mut();
p.set_n(n);                         // its readers are updated once,
p.set_scale(0.5);                   // even those reading both
p.swap(|p| (&mut p.x, &mut p.x_new))?;
p.apply()?;                         // or: the next exec.launch(&stream)
```*/
#[must_use = "changes made through the guard are applied by `apply`, or by the next launch"]
struct InnerParamsMut<'a> {
    exec: &'a mut InnerExec,
}
impl ::cudagraph_runtime::__private::Deref for InnerParamsMut<'_> {
    type Target = InnerParams;
    fn deref(&self) -> &InnerParams {
        &self.exec.parts.state.params
    }
}
#[allow(clippy::type_complexity)]
impl InnerParamsMut<'_> {
    ///Sets param `scale`, and marks what reads it (node `mul`) for the guard's [`apply`](Self::apply), or the executable's next launch. Returns the old value.
    #[inline]
    pub fn set_scale(
        &mut self,
        value: Kernel<(u32, f32, DevicePtrMut<f32>)>,
    ) -> Kernel<(u32, f32, DevicePtrMut<f32>)> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.exec.parts.get_mut() }.state.params.scale,
            value,
        );
        unsafe {
            ::cudagraph_runtime::__private::stage_sole_reader(self.exec, 0usize, 0usize)
        };
        old
    }
    ///Sets param `y`, and marks what reads it (node `mul`) for the guard's [`apply`](Self::apply), or the executable's next launch. Returns the old value.
    #[inline]
    pub fn set_y(&mut self, value: DeviceBuffer<f32>) -> DeviceBuffer<f32> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.exec.parts.get_mut() }.state.params.y,
            value,
        );
        unsafe {
            ::cudagraph_runtime::__private::stage_sole_reader(self.exec, 1usize, 0usize)
        };
        old
    }
    ///Sets param `n`, and marks what reads it (node `mul`) for the guard's [`apply`](Self::apply), or the executable's next launch. Returns the old value.
    #[inline]
    pub fn set_n(&mut self, value: u32) -> u32 {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.exec.parts.get_mut() }.state.params.n,
            value,
        );
        unsafe {
            ::cudagraph_runtime::__private::stage_sole_reader(self.exec, 2usize, 0usize)
        };
        old
    }
    ///Sets param `s`, and marks what reads it (node `mul`) for the guard's [`apply`](Self::apply), or the executable's next launch. Returns the old value.
    #[inline]
    pub fn set_s(&mut self, value: f32) -> f32 {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.exec.parts.get_mut() }.state.params.s,
            value,
        );
        unsafe {
            ::cudagraph_runtime::__private::stage_sole_reader(self.exec, 3usize, 0usize)
        };
        old
    }
    /**Swaps two params of one type, named by `pick` (`p.swap(|p| (&mut p.x, &mut p.x_new))`), and marks the nodes that read them. `pick` is given the params' slots ([`InnerSlots`]), not their values: it names two params and changes none, so that the swap is the only change, and the tracker knows it. The slots of an array param are its elements' (`|p| (&mut p.w[0], &mut p.w[1])`); two arrays of slots (two array params, or runs of elements) are swapped element by element.

Never refused for slots of the struct `pick` is given (its signature allows no other).*/
    pub fn swap<S: ::cudagraph_runtime::__private::Pick>(
        &mut self,
        pick: impl FnOnce(&mut InnerSlots) -> (&mut S, &mut S),
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
impl ::cudagraph_runtime::__private::fmt::Debug for InnerParamsMut<'_> {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("InnerParamsMut").finish_non_exhaustive()
    }
}
/**Update handle of node `mul` of [`InnerExec`] (`kernel scale<<<n.div_ceil(256), 256>>>(n, s, y)`): its arguments and launch configuration can change, and it can be enabled or disabled ([what CUDA allows](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#individual-node-update)).

Memory given through the handle is not judged by the race rule, which judges the declaration's params: it must not be memory that a node no edge orders with this one uses, one of them writing it (host memory that host code uses is checked: `Error::Hazard`). A change of a param the node reads, or `set_params`, sets the node back to its params.*/
struct InnerMulNode<'a> {
    exec: &'a mut InnerExec,
}
impl<'a> InnerMulNode<'a> {
    ///Sets the kernel's arguments for the next launches, keeping the node's launch configuration (`cuGraphExecKernelNodeSetParams`). Memory the node stops using is released once the launches that may use it are done.
    pub fn set(
        &mut self,
        n: impl ::cudagraph_runtime::__private::KernelArg<'static, u32>,
        s: impl ::cudagraph_runtime::__private::KernelArg<'static, f32>,
        y: impl ::cudagraph_runtime::__private::KernelArg<'static, DevicePtrMut<f32>>,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = self.exec.parts.get();
        let config = __cg_parts.state.launch.mul;
        self.set_launch(config, n, s, y)
    }
    ///Sets the launch configuration and the kernel's arguments for the next launches (`cuGraphExecKernelNodeSetParams`).
    pub fn set_launch(
        &mut self,
        config: ::cudagraph_runtime::__private::LaunchConfig,
        n: impl ::cudagraph_runtime::__private::KernelArg<'static, u32>,
        s: impl ::cudagraph_runtime::__private::KernelArg<'static, f32>,
        y: impl ::cudagraph_runtime::__private::KernelArg<'static, DevicePtrMut<f32>>,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.exec.parts.get_mut() };
        __cg_parts.exec.set_kernel_params(__cg_parts.nodes.mul, config, (n, s, y))?;
        __cg_parts.state.launch.mul = config;
        __cg_parts.tracker.set_by_handle(0usize);
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    /// The node's launch configuration now.
    pub fn launch_config(&self) -> ::cudagraph_runtime::__private::LaunchConfig {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.state.launch.mul
    }
    /// Enables or disables the node for the next launches (`cuGraphNodeSetEnabled`). A
    /// disabled node acts as an empty node; params set meanwhile apply once it is enabled.
    pub fn set_enabled(
        &mut self,
        enabled: ::core::primitive::bool,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.exec.parts.get_mut() };
        __cg_parts.exec.set_enabled(__cg_parts.nodes.mul, enabled)
    }
    /// Whether the node is enabled (`cuGraphNodeGetEnabled`).
    pub fn is_enabled(
        &self,
    ) -> ::cudagraph_runtime::__private::Result<::core::primitive::bool> {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.exec.is_enabled(__cg_parts.nodes.mul)
    }
    /// The node's runtime handle, for the runtime's own API.
    pub fn node(
        &self,
    ) -> ::cudagraph_runtime::__private::KernelNode<(u32, f32, DevicePtrMut<f32>)> {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.nodes.mul
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for InnerMulNode<'_> {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("InnerMulNode").field("index", &0usize).finish_non_exhaustive()
    }
}
const _: () = {
    #[allow(unused_imports)]
    use ::cudagraph_runtime::__private::{
        ArgsFallback as _, BodyFallback as _, ParamFallback as _, SlotFallback as _,
    };
    if <::cudagraph_runtime::__private::ParamProbe<Inner>>::IS_HANDLE {
        ::cudagraph_runtime::__private::fail(
            "param `first` is a `ConditionalHandle`: a handle is made by the conditional node that reads it (`name: while first { ... }`), since one made for another graph would be set where no node reads it",
        )
    }
};
const _: () = {
    #[allow(unused_imports)]
    use ::cudagraph_runtime::__private::{
        ArgsFallback as _, BodyFallback as _, ParamFallback as _, SlotFallback as _,
    };
    if <::cudagraph_runtime::__private::ParamProbe<Inner>>::IS_HANDLE {
        ::cudagraph_runtime::__private::fail(
            "param `second` is a `ConditionalHandle`: a handle is made by the conditional node that reads it (`name: while second { ... }`), since one made for another graph would be set where no node reads it",
        )
    }
};
const _: () = {
    #[allow(unused_imports)]
    use ::cudagraph_runtime::__private::{
        ArgsFallback as _, BodyFallback as _, ParamFallback as _, SlotFallback as _,
    };
    if ({
        use ::cudagraph_runtime::__private::LaunchFallback as _;
        <::cudagraph_runtime::__private::LaunchProbe<DeviceBuffer<f32>>>::IS_LAUNCH
            || <::cudagraph_runtime::__private::ParamProbe<DeviceBuffer<f32>>>::IS_HANDLE
    }) {
        ::cudagraph_runtime::__private::fail(
            ({
                use ::cudagraph_runtime::__private::LaunchFallback as _;
                if <::cudagraph_runtime::__private::LaunchProbe<
                    DeviceBuffer<f32>,
                >>::IS_LAUNCH {
                    "`DeviceBuffer<f32>` here is a device graph's handle, not memory: `cuda_graph!` takes a type written `DeviceBuffer<f32>` for memory, and would not check what a kernel given it may launch; give the import or alias another name"
                } else {
                    "`DeviceBuffer<f32>` here is a `ConditionalHandle`, not memory: `cuda_graph!` takes a type written `DeviceBuffer<f32>` for memory, and a handle is made by the conditional node that reads it (`name: while h { ... }`), never a param; remove the param, and give the import or alias another name"
                }
            }),
        )
    }
};
/**The params of [`Outer`]: what its nodes are built from ([`Outer::build`]). Its executable owns a copy ([`OuterExec::params`]), changed through the executable (`set_<param>`, [`OuterExec::params_mut`], [`OuterExec::set_params`]), which updates exactly the nodes that read what changed:

- node `a` reads `first`
- node `b` reads `second`
- node `clear` reads `z`
*/
#[allow(clippy::type_complexity)]
struct OuterParams {
    ///Param `first`, read by node `a`.
    pub first: Inner,
    ///Param `second`, read by node `b`.
    pub second: Inner,
    ///Param `z`, read by node `clear`.
    pub z: DeviceBuffer<f32>,
}
impl ::cudagraph_runtime::__private::fmt::Debug for OuterParams {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("OuterParams").finish_non_exhaustive()
    }
}
/// Two `Inner` children, then a zeroed `z`.
/**

A CUDA graph declared with `cuda_graph!`: [`Outer::build`] builds it from a [`OuterParams`], [`Outer::instantiate`] makes it a [`OuterExec`].

# Nodes

In build order (a node's position is its index in the graph):

0. `a`: `child(first)`
1. `b`: `child(second)`, after `a`
2. `clear`: `memset(z, 0.0f32)`, after `b`

# Topology

<div style="overflow-x:auto"><svg xmlns="http://www.w3.org/2000/svg" role="img" width="108" height="200" viewBox="0 0 108 200" font-family="monospace" font-size="14" text-anchor="middle" fill="currentColor"><title>Topology of Outer: 3 nodes, 2 edges</title><defs><marker id="cg2b757dac" viewBox="0 0 8 8" refX="8" refY="4" markerWidth="8" markerHeight="8" orient="auto"><path d="M0 0L8 4L0 8z"/></marker></defs><g fill="none" stroke="currentColor" marker-end="url(#cg2b757dac)"><path d="M54 48V80"/><path d="M54 120V152"/></g><rect x="8" y="8" width="92" height="40" rx="4" fill="#ede9fe" stroke="#6d28d9"/><text x="54" y="25" fill="#111">a</text><text x="54" y="41" font-size="11" fill="#374151">child_graph</text><rect x="8" y="80" width="92" height="40" rx="4" fill="#ede9fe" stroke="#6d28d9"/><text x="54" y="97" fill="#111">b</text><text x="54" y="113" font-size="11" fill="#374151">child_graph</text><rect x="24" y="152" width="60" height="40" rx="4" fill="#ccfbf1" stroke="#0f766e"/><text x="54" y="169" fill="#111">clear</text><text x="54" y="185" font-size="11" fill="#374151">memset</text></svg></div>

As text: `Outer::TOPOLOGY.to_mermaid()` (Mermaid) or `.to_dot()` (Graphviz).
*/
struct Outer {
    parts: ::cudagraph_runtime::__private::Guarded<__OuterParts>,
}
#[doc(hidden)]
#[allow(non_camel_case_types)]
struct __OuterParts {
    graph: ::cudagraph_runtime::__private::Graph<'static>,
    nodes: ::cudagraph_runtime::__private::Box<
        ::cudagraph_runtime::__private::ManuallyDrop<__OuterNodes>,
    >,
    state: __OuterState,
    build_id: ::core::primitive::u64,
}
#[doc(hidden)]
#[allow(non_camel_case_types, dead_code, clippy::type_complexity)]
struct __OuterNodes {
    a: ::cudagraph_runtime::__private::ChildGraphNode,
    b: ::cudagraph_runtime::__private::ChildGraphNode,
    clear: ::cudagraph_runtime::__private::MemsetNode<
        <DeviceBuffer<f32> as ::cudagraph_runtime::__private::MemsetTarget>::Pattern,
    >,
}
unsafe impl ::cudagraph_runtime::__private::Unbuilt for __OuterNodes {}
#[doc(hidden)]
#[allow(non_camel_case_types, non_snake_case, dead_code)]
#[derive(Clone, Copy)]
struct __OuterLaunch {}
unsafe impl ::cudagraph_runtime::__private::Unbuilt for __OuterLaunch {}
#[doc(hidden)]
#[allow(non_camel_case_types)]
struct __OuterState {
    params: ::cudagraph_runtime::__private::Box<OuterParams>,
    launch: ::cudagraph_runtime::__private::Box<__OuterLaunch>,
}
impl Outer {
    /// The declared shape: nodes in build order (their indices in the graph; one more
    /// with `#[indirect]` params, whose fetch node comes first), kinds and edges. Its
    /// `to_dot()` and `to_mermaid()` draw it.
    pub const TOPOLOGY: ::cudagraph_runtime::__private::Topology = ::cudagraph_runtime::__private::Topology {
        name: "Outer",
        nodes: &[
            ("a", ::cudagraph_runtime::__private::NodeKind::ChildGraph),
            ("b", ::cudagraph_runtime::__private::NodeKind::ChildGraph),
            ("clear", ::cudagraph_runtime::__private::NodeKind::Memset),
        ],
        edges: &[(0usize, 1usize), (1usize, 2usize)],
        bodies: &[],
    };
    /// [`TOPOLOGY`](Self::TOPOLOGY) drawn as a standalone SVG image, laid out when the
    /// macro ran: the picture in this type's docs. Write it to a `.svg` file or put it
    /// in an HTML page; its lines and labels take the text colour of the page around it
    /// (black in a file of its own). It is in the binary only if the program calls this.
    pub const fn topology_svg() -> &'static ::core::primitive::str {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" width=\"108\" height=\"200\" viewBox=\"0 0 108 200\" font-family=\"monospace\" font-size=\"14\" text-anchor=\"middle\" fill=\"currentColor\"><title>Topology of Outer: 3 nodes, 2 edges</title><defs><marker id=\"cg2b757dac\" viewBox=\"0 0 8 8\" refX=\"8\" refY=\"4\" markerWidth=\"8\" markerHeight=\"8\" orient=\"auto\"><path d=\"M0 0L8 4L0 8z\"/></marker></defs><g fill=\"none\" stroke=\"currentColor\" marker-end=\"url(#cg2b757dac)\"><path d=\"M54 48V80\"/><path d=\"M54 120V152\"/></g><rect x=\"8\" y=\"8\" width=\"92\" height=\"40\" rx=\"4\" fill=\"#ede9fe\" stroke=\"#6d28d9\"/><text x=\"54\" y=\"25\" fill=\"#111\">a</text><text x=\"54\" y=\"41\" font-size=\"11\" fill=\"#374151\">child_graph</text><rect x=\"8\" y=\"80\" width=\"92\" height=\"40\" rx=\"4\" fill=\"#ede9fe\" stroke=\"#6d28d9\"/><text x=\"54\" y=\"97\" fill=\"#111\">b</text><text x=\"54\" y=\"113\" font-size=\"11\" fill=\"#374151\">child_graph</text><rect x=\"24\" y=\"152\" width=\"60\" height=\"40\" rx=\"4\" fill=\"#ccfbf1\" stroke=\"#0f766e\"/><text x=\"54\" y=\"169\" fill=\"#111\">clear</text><text x=\"54\" y=\"185\" font-size=\"11\" fill=\"#374151\">memset</text></svg>"
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
        __cg_params: &OuterParams,
    ) -> ::cudagraph_runtime::__private::Result<Self> {
        Self::__cg_check_overlaps(__cg_params)?;
        let mut __cg_graph = ::cudagraph_runtime::__private::Graph::with_capacity(
            ctx,
            3usize,
        )?;
        let (nodes, state) = Self::__cg_add_nodes(&mut __cg_graph, __cg_params)?;
        ::cudagraph_runtime::__private::built(&__cg_graph, "Outer");
        let __cg_parts = __OuterParts {
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
        __cg_params: &OuterParams,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        Self::__cg_check_overlaps(__cg_params)?;
        let __cg_parts = unsafe { self.parts.get_mut() };
        __cg_parts.build_id = ::cudagraph_runtime::__private::next_build_id();
        __cg_parts.graph.clear()?;
        let (nodes, state) = Self::__cg_add_nodes(&mut __cg_parts.graph, __cg_params)?;
        ::cudagraph_runtime::__private::built(&__cg_parts.graph, "Outer");
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
        __cg_params: &OuterParams,
    ) -> ::cudagraph_runtime::__private::Result<
        (
            ::cudagraph_runtime::__private::Box<
                ::cudagraph_runtime::__private::ManuallyDrop<__OuterNodes>,
            >,
            __OuterState,
        ),
    > {
        let owned = Self::__cg_own(__cg_params)?;
        let mut boxed = ::cudagraph_runtime::__private::unbuilt_box::<
            ::cudagraph_runtime::__private::ManuallyDrop<__OuterNodes>,
        >();
        let mut configs = ::cudagraph_runtime::__private::unbuilt_box::<__OuterLaunch>();
        {
            let nodes: &mut __OuterNodes = &mut boxed;
            #[allow(unused_variables)]
            let launches: &mut __OuterLaunch = &mut configs;
            Self::__cg_add_0(__cg_graph, __cg_params, nodes, launches)?;
        }
        ::cudagraph_runtime::__private::Result::Ok((
            boxed,
            __OuterState {
                params: owned,
                launch: configs,
            },
        ))
    }
    #[inline(never)]
    fn __cg_add_0(
        __cg_graph: &mut ::cudagraph_runtime::__private::Graph<'static>,
        __cg_params: &OuterParams,
        nodes: &mut __OuterNodes,
        launches: &mut __OuterLaunch,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        nodes.a = ::cudagraph_runtime::__private::add_node(
            __cg_graph,
            "a",
            |__cg_graph| __cg_graph.add_child_graph(Outer::__cg_eval_a(__cg_params), &[]),
        )?;
        nodes.b = ::cudagraph_runtime::__private::add_node(
            __cg_graph,
            "b",
            |__cg_graph| {
                __cg_graph
                    .add_child_graph(Outer::__cg_eval_b(__cg_params), &[nodes.a.id()])
            },
        )?;
        nodes.clear = ::cudagraph_runtime::__private::add_node(
            __cg_graph,
            "clear",
            |__cg_graph| {
                __cg_graph
                    .add_memset(Outer::__cg_eval_clear(__cg_params), &[nodes.b.id()])
            },
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
        __cg_params: &OuterParams,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        #[allow(unused_imports)]
        use ::cudagraph_runtime::__private::{
            ArgsFallback as _, BodyFallback as _, ParamFallback as _, SlotFallback as _,
        };
        {
            #[allow(unused_imports)]
            use ::cudagraph_runtime::__private::LaunchFallback as _;
            let mut launched_0 = ::cudagraph_runtime::__private::Launched::new();
            launched_0
                .add_child(
                    ::cudagraph_runtime::__private::ChildGraph::graph(&__cg_params.first),
                );
            let mut launched_1 = ::cudagraph_runtime::__private::Launched::new();
            launched_1
                .add_child(
                    ::cudagraph_runtime::__private::ChildGraph::graph(
                        &__cg_params.second,
                    ),
                );
            ::cudagraph_runtime::__private::check_launched_child(
                &launched_0,
                ::cudagraph_runtime::__private::ChildGraph::graph(&__cg_params.second),
                &[],
                ("a", "b"),
            )?;
            ::cudagraph_runtime::__private::check_launched_uses(
                &launched_0,
                &[
                    ::cudagraph_runtime::__private::declared_use(
                        ::cudagraph_runtime::__private::access_max(
                            &[::cudagraph_runtime::__private::WRITE],
                        ),
                        <::cudagraph_runtime::__private::ParamProbe<
                            DeviceBuffer<f32>,
                        >>::bytes(&__cg_params.z),
                    ),
                ],
                &[],
                ("a", "clear"),
            )?;
            ::cudagraph_runtime::__private::check_launched_uses(
                &launched_1,
                &[
                    ::cudagraph_runtime::__private::declared_use(
                        ::cudagraph_runtime::__private::access_max(
                            &[::cudagraph_runtime::__private::WRITE],
                        ),
                        <::cudagraph_runtime::__private::ParamProbe<
                            DeviceBuffer<f32>,
                        >>::bytes(&__cg_params.z),
                    ),
                ],
                &[],
                ("b", "clear"),
            )?;
        }
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    ///Instantiates the graph with default flags.
    pub fn instantiate(self) -> ::cudagraph_runtime::__private::Result<OuterExec> {
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
    ) -> ::cudagraph_runtime::__private::Result<OuterExec> {
        let __cg_parts = self.parts.into_inner();
        let applied = Self::__cg_own(&__cg_parts.state.params)?;
        let exec = __cg_parts.graph.instantiate_with(flags, upload)?;
        Self::__cg_check_overlaps(&__cg_parts.state.params)?;
        ::cudagraph_runtime::__private::Result::Ok(unsafe {
            OuterExec::__cg_new(exec, __cg_parts.nodes, __cg_parts.state, applied)
        })
    }
    ///Instantiates the graph as an executable *bound to* `stream`: it launches there only (`launch` refuses another stream). The launches of executables bound to one stream never overlap, so they may share host memory that their host nodes write, which two executables launched anywhere may not (`Error::BufferInUse` when the second is made).
    pub fn instantiate_on(
        self,
        stream: &::cudagraph_runtime::__private::Arc<
            ::cudagraph_runtime::__private::CudaStream,
        >,
    ) -> ::cudagraph_runtime::__private::Result<OuterExec> {
        let flags = ::cudagraph_runtime::__private::InstantiateFlags::NONE;
        let __cg_parts = self.parts.into_inner();
        let applied = Self::__cg_own(&__cg_parts.state.params)?;
        let exec = __cg_parts.graph.instantiate_on(stream, flags)?;
        Self::__cg_check_overlaps(&__cg_parts.state.params)?;
        ::cudagraph_runtime::__private::Result::Ok(unsafe {
            OuterExec::__cg_new(exec, __cg_parts.nodes, __cg_parts.state, applied)
        })
    }
    #[allow(
        non_snake_case,
        unused_variables,
        clippy::type_complexity,
        clippy::needless_lifetimes
    )]
    fn __cg_eval_a<'__cg_p>(
        __cg_params: &'__cg_p OuterParams,
    ) -> &'__cg_p ::cudagraph_runtime::__private::Graph<'static> {
        #[allow(unused_imports)]
        use ::cudagraph_runtime::__private::{BindCopy as _, BindRef as _};
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let first = (&::cudagraph_runtime::__private::Bind(&__cg_params.first))
            .__cg_bind();
        ::cudagraph_runtime::__private::ChildGraph::graph(&__cg_params.first)
    }
    #[allow(
        non_snake_case,
        unused_variables,
        clippy::type_complexity,
        clippy::needless_lifetimes
    )]
    fn __cg_eval_b<'__cg_p>(
        __cg_params: &'__cg_p OuterParams,
    ) -> &'__cg_p ::cudagraph_runtime::__private::Graph<'static> {
        #[allow(unused_imports)]
        use ::cudagraph_runtime::__private::{BindCopy as _, BindRef as _};
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let second = (&::cudagraph_runtime::__private::Bind(&__cg_params.second))
            .__cg_bind();
        ::cudagraph_runtime::__private::ChildGraph::graph(&__cg_params.second)
    }
    #[allow(
        non_snake_case,
        unused_variables,
        clippy::type_complexity,
        clippy::needless_lifetimes
    )]
    fn __cg_eval_clear<'__cg_p>(
        __cg_params: &'__cg_p OuterParams,
    ) -> ::cudagraph_runtime::__private::Memset<
        'static,
        <DeviceBuffer<f32> as ::cudagraph_runtime::__private::MemsetTarget>::Pattern,
    > {
        #[allow(unused_imports)]
        use ::cudagraph_runtime::__private::{BindCopy as _, BindRef as _};
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let z = (&::cudagraph_runtime::__private::Bind(&__cg_params.z)).__cg_bind();
        <DeviceBuffer<
            f32,
        > as ::cudagraph_runtime::__private::MemsetTarget>::memset(
            &__cg_params.z,
            0.0f32,
        )
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for Outer {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("Outer").field("graph", &self.parts.graph).finish_non_exhaustive()
    }
}
impl ::cudagraph_runtime::__private::BodyRules for Outer {
    const FORBIDDEN_IN_BODY: ::cudagraph_runtime::__private::Option<
        &'static ::core::primitive::str,
    > = {
        #[allow(unused_imports)]
        use ::cudagraph_runtime::__private::{
            ArgsFallback as _, BodyFallback as _, ParamFallback as _, SlotFallback as _,
        };
        ::cudagraph_runtime::__private::first_forbidden(
            &[
                {
                    const INNER: ::cudagraph_runtime::__private::Option<
                        &'static ::core::primitive::str,
                    > = <::cudagraph_runtime::__private::BodyProbe<
                        Inner,
                    >>::FORBIDDEN_IN_BODY;
                    const JOINED: &::cudagraph_runtime::__private::ConstMessage = &::cudagraph_runtime::__private::ConstMessage::join(
                        &[
                            "embeds a `Inner` in child node `a`, which ",
                            match INNER {
                                ::cudagraph_runtime::__private::Option::Some(inner) => inner,
                                ::cudagraph_runtime::__private::Option::None => "",
                            },
                        ],
                    );
                    if INNER.is_some() {
                        ::cudagraph_runtime::__private::Option::Some(JOINED.as_str())
                    } else {
                        ::cudagraph_runtime::__private::Option::None
                    }
                },
                {
                    const INNER: ::cudagraph_runtime::__private::Option<
                        &'static ::core::primitive::str,
                    > = <::cudagraph_runtime::__private::BodyProbe<
                        Inner,
                    >>::FORBIDDEN_IN_BODY;
                    const JOINED: &::cudagraph_runtime::__private::ConstMessage = &::cudagraph_runtime::__private::ConstMessage::join(
                        &[
                            "embeds a `Inner` in child node `b`, which ",
                            match INNER {
                                ::cudagraph_runtime::__private::Option::Some(inner) => inner,
                                ::cudagraph_runtime::__private::Option::None => "",
                            },
                        ],
                    );
                    if INNER.is_some() {
                        ::cudagraph_runtime::__private::Option::Some(JOINED.as_str())
                    } else {
                        ::cudagraph_runtime::__private::Option::None
                    }
                },
            ],
        )
    };
}
unsafe impl ::cudagraph_runtime::__private::ChildGraph for Outer {
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
impl ::cudagraph_runtime::__private::SameDeclaration<Outer> for Outer {
    fn same(&self) -> &Outer {
        self
    }
}
/**[`Outer`], instantiated, with the [`OuterParams`] it runs, which it owns ([`params`](Self::params)).

Change a param with its setter (`exec.set_alpha(0.5)?`, one per param: it updates the nodes that read it, and returns the old value), several at once or two swapped through [`params_mut`](Self::params_mut) ([`OuterParamsMut`], whose changes the next launch applies if its `apply` did not), all of them by [`set_params`](Self::set_params); or update it from another [`Outer`] ([`update`](Self::update)), or one node through its handle. Which node reads which param is known when the macro runs: a change updates the nodes that read it, each once, with nothing else compared.

A change is made whole or not at all. One that a node refuses (the driver or a kernel's check, params that would make two nodes race, or a change CUDA cannot make, such as an allocation's length) is the error of the setter, `apply`, `set_params` or launch that tried it, naming the node, and is undone: every param changed since the last update gets back the value the nodes were last updated from (the executable keeps a copy of those), the nodes updated before the refusal are set back, and nothing stays pending, so the next launch runs what ran before. A panic in your code that a change runs (a node expression, a param's `Clone`, `PartialEq` or `Drop`) may stop it part way: caught, it leaves the executable refusing updates and launches (`Error::Invalid`) until a whole-graph update. Memory the executable stops using is released once the launches that may use it are done.

Nodes:

- [`a()`](Self::a): child_graph node
- [`b()`](Self::b): child_graph node
- [`clear()`](Self::clear): memset node
*/
struct OuterExec {
    parts: ::cudagraph_runtime::__private::Guarded<__OuterExecParts>,
}
#[doc(hidden)]
#[allow(non_camel_case_types)]
struct __OuterExecParts {
    exec: ::cudagraph_runtime::__private::GraphExec<'static>,
    nodes: ::cudagraph_runtime::__private::Box<
        ::cudagraph_runtime::__private::ManuallyDrop<__OuterNodes>,
    >,
    state: __OuterState,
    /// A copy of the params as the nodes were last updated from them: what a refused
    /// change puts back (see `__private::apply`).
    applied: ::cudagraph_runtime::__private::Box<OuterParams>,
    /// The nodes that disagree with the params (see `__private::Tracker`).
    tracker: ::cudagraph_runtime::__private::Tracker,
}
impl OuterExec {
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
            ::cudagraph_runtime::__private::ManuallyDrop<__OuterNodes>,
        >,
        state: __OuterState,
        applied: ::cudagraph_runtime::__private::Box<OuterParams>,
    ) -> Self {
        let tracker = ::cudagraph_runtime::__private::Tracker::new(3usize, 3usize);
        let __cg_parts = __OuterExecParts {
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
    /**Whole-graph update from a [`Outer`] built with other params (`cuGraphExecUpdate`).

Only a graph of this declaration is accepted: it was built by the same sequence of calls, so its nodes pair with this executable's ([whole-graph update](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#whole-graph-update)). Afterwards the executable owns a copy of that graph's params (what [`params`](Self::params) shows), and changes made to its own params and not applied yet are dropped.*/
    pub fn update<__CgSame: ::cudagraph_runtime::__private::SameDeclaration<Outer>>(
        &mut self,
        source: &__CgSame,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let source: &Outer = ::cudagraph_runtime::__private::SameDeclaration::same(
            source,
        );
        let params = Outer::__cg_own(&source.parts.state.params)?;
        let applied = Outer::__cg_own(&source.parts.state.params)?;
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
    /**Replaces the executable's params with `params` as a whole: each param that differs from the executable's own is copied in, then the nodes that read a changed param (or were set through their handle since) are updated, each once, with one single-node update. Afterwards the nodes are what [`Outer::build`] would make from `params`. Returns how many nodes it updated. Enabled/disabled states are kept.

It compares every param, so its cost grows with the declaration: to change a few params, set them (the setters `set_<param>`, [`params_mut`](Self::params_mut)), which updates only their readers. A param is compared with `PartialEq`, a kernel by function, a declared graph by identity; a runtime `Graph` counts as changed every time. A kernel param may change function (same parameter list, same context): the node's single-node update switches it.

Params under which two nodes that may run at the same time share memory, one writing it, are refused as by [`Outer::build`], with nothing changed. So is any update a node refuses: the error names the node, and the params and the nodes updated before it are set back to what they were.*/
    pub fn set_params(
        &mut self,
        __cg_params: &OuterParams,
    ) -> ::cudagraph_runtime::__private::Result<::core::primitive::usize> {
        Outer::__cg_check_overlaps(__cg_params)?;
        let __cg_parts = &self.parts;
        let __cg_child_0 = if {
            use ::cudagraph_runtime::__private::RoleFallback as _;
            ::cudagraph_runtime::__private::same_graph(
                <::cudagraph_runtime::__private::RoleProbe<
                    Inner,
                >>::identity(&__cg_params.first),
                <::cudagraph_runtime::__private::RoleProbe<
                    Inner,
                >>::identity(&__cg_parts.state.params.first),
            )
        } {
            ::cudagraph_runtime::__private::Option::None
        } else {
            ::cudagraph_runtime::__private::Option::Some(
                {
                    use ::cudagraph_runtime::__private::RoleFallback as _;
                    <::cudagraph_runtime::__private::RoleProbe<
                        Inner,
                    >>::duplicate(&__cg_params.first)
                }?,
            )
        };
        let __cg_child_1 = if {
            use ::cudagraph_runtime::__private::RoleFallback as _;
            ::cudagraph_runtime::__private::same_graph(
                <::cudagraph_runtime::__private::RoleProbe<
                    Inner,
                >>::identity(&__cg_params.second),
                <::cudagraph_runtime::__private::RoleProbe<
                    Inner,
                >>::identity(&__cg_parts.state.params.second),
            )
        } {
            ::cudagraph_runtime::__private::Option::None
        } else {
            ::cudagraph_runtime::__private::Option::Some(
                {
                    use ::cudagraph_runtime::__private::RoleFallback as _;
                    <::cudagraph_runtime::__private::RoleProbe<
                        Inner,
                    >>::duplicate(&__cg_params.second)
                }?,
            )
        };
        self.__cg_take_2(__cg_params);
        if let ::cudagraph_runtime::__private::Option::Some(copy) = __cg_child_0 {
            let __cg_parts = unsafe { self.parts.get_mut() };
            ::cudagraph_runtime::__private::stage_in::<
                Self,
            >(&mut __cg_parts.tracker, 0usize);
            __cg_parts.state.params.first = copy;
        }
        if let ::cudagraph_runtime::__private::Option::Some(copy) = __cg_child_1 {
            let __cg_parts = unsafe { self.parts.get_mut() };
            ::cudagraph_runtime::__private::stage_in::<
                Self,
            >(&mut __cg_parts.tracker, 1usize);
            __cg_parts.state.params.second = copy;
        }
        ::cudagraph_runtime::__private::set_all(self)
    }
    ///The params the executable runs: those it was built from, with every change made since through the setters (`set_<param>`), [`params_mut`](Self::params_mut), [`set_params`](Self::set_params) or [`update`](Self::update). Host code reads the buffers among them as any buffer's holder does: `exec.params().y.to_vec()` waits for the launches that may write `y`.
    pub fn params(&self) -> &OuterParams {
        &self.parts.state.params
    }
    /**A guard through which to change several params at once, or to swap two: [`OuterParamsMut`]'s `set_<param>` and [`swap`](OuterParamsMut::swap) change the params (read them through the guard) and mark the nodes that read them; [`OuterParamsMut::apply`] updates those nodes, each once however many of its params changed, and if the guard is dropped instead, the next [`launch`](Self::launch) does. Either reports an update the driver or a kernel's check refuses as an error naming the node, and undoes the changes (the params and the nodes are as they were before them); nothing is lost when the guard is dropped.

```text
exec.params_mut().swap(|p| (&mut p.x, &mut p.x_new))?; // the ping-pong of a solver
exec.launch(&stream)?;                                 // updates x's and x_new's readers
```*/
    pub fn params_mut(&mut self) -> OuterParamsMut<'_> {
        OuterParamsMut { exec: self }
    }
    /// The params, taking the executable apart (it is dropped; memory its launches may
    /// still use stays alive until they are done).
    pub fn into_params(self) -> OuterParams {
        *self.parts.into_inner().state.params
    }
    /// The runtime executable, for what the typed API does not cover (read-only).
    pub fn as_exec(&self) -> &::cudagraph_runtime::__private::GraphExec<'static> {
        &self.parts.exec
    }
    #[inline(never)]
    fn __cg_take_2(&mut self, __cg_params: &OuterParams) {
        let __cg_parts = unsafe { self.parts.get_mut() };
        if !(<DeviceBuffer<
            f32,
        > as ::cudagraph_runtime::__private::ParamValue>::same(
            &__cg_params.z,
            &__cg_parts.state.params.z,
        )) {
            let value = <DeviceBuffer<
                f32,
            > as ::cudagraph_runtime::__private::ParamValue>::keep(&__cg_params.z);
            ::cudagraph_runtime::__private::stage_in::<
                Self,
            >(&mut __cg_parts.tracker, 2usize);
            __cg_parts.state.params.z = value;
        }
    }
    ///Node `a` (`child(first)`): its update handle.
    pub fn a(&mut self) -> OuterANode<'_> {
        OuterANode { exec: self }
    }
    ///Node `b` (`child(second)`): its update handle.
    pub fn b(&mut self) -> OuterBNode<'_> {
        OuterBNode { exec: self }
    }
    ///Node `clear` (`memset(z, 0.0f32)`): its update handle.
    pub fn clear(&mut self) -> OuterClearNode<'_> {
        OuterClearNode { exec: self }
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for OuterExec {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("OuterExec")
            .field("exec", &self.parts.exec)
            .finish_non_exhaustive()
    }
}
impl Outer {
    /// A copy of `params`, for the graph and then its executable to keep: made field by
    /// field in place on the heap, a few dozen fields per function.
    #[allow(unused_variables, unused_unsafe)]
    fn __cg_own(
        __cg_params: &OuterParams,
    ) -> ::cudagraph_runtime::__private::Result<
        ::cudagraph_runtime::__private::Box<OuterParams>,
    > {
        let __cg_child_0 = {
            use ::cudagraph_runtime::__private::RoleFallback as _;
            <::cudagraph_runtime::__private::RoleProbe<
                Inner,
            >>::duplicate(&__cg_params.first)
        }?;
        let __cg_child_1 = {
            use ::cudagraph_runtime::__private::RoleFallback as _;
            <::cudagraph_runtime::__private::RoleProbe<
                Inner,
            >>::duplicate(&__cg_params.second)
        }?;
        let mut out = ::cudagraph_runtime::__private::Box::<OuterParams>::new_uninit();
        let dst = out.as_mut_ptr();
        unsafe {
            Self::__cg_own_2(__cg_params, dst);
            (&raw mut (*dst).first).write(__cg_child_0);
            (&raw mut (*dst).second).write(__cg_child_1);
            ::cudagraph_runtime::__private::Result::Ok(out.assume_init())
        }
    }
    /// Writes a copy of some of the params into `dst` (see `__cg_own`).
    ///
    /// # Safety
    /// `dst` is valid for writes of the params struct.
    #[inline(never)]
    unsafe fn __cg_own_2(__cg_params: &OuterParams, dst: *mut OuterParams) {
        unsafe {
            (&raw mut (*dst).z)
                .write(
                    <DeviceBuffer<
                        f32,
                    > as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_params.z,
                    ),
                );
        }
    }
}
///The params of a [`OuterParams`] as [`OuterParamsMut::swap`] names them: a field per param, of the same name, holding no value (a `Slot` per param, an array of them per array param whose elements are params of their own). Given to `swap`'s `pick` instead of the params, so that it names the two to swap and cannot change any: `|p| (&mut p.x, &mut p.x_new)`. None can be made outside `swap`.
#[repr(C)]
#[allow(clippy::type_complexity)]
struct OuterSlots {
    ///Param [`first`](OuterParams::first), to swap.
    pub first: ::cudagraph_runtime::__private::Slot<Inner>,
    ///Param [`second`](OuterParams::second), to swap.
    pub second: ::cudagraph_runtime::__private::Slot<Inner>,
    ///Param [`z`](OuterParams::z), to swap.
    pub z: ::cudagraph_runtime::__private::Slot<DeviceBuffer<f32>>,
}
const _: () = {
    ::core::assert!(
        ::cudagraph_runtime::__private::offset_of!(OuterSlots, first) == 0usize
    );
    ::core::assert!(
        ::cudagraph_runtime::__private::offset_of!(OuterSlots, second) == 1usize
    );
    ::core::assert!(::cudagraph_runtime::__private::offset_of!(OuterSlots, z) == 2usize);
    ::core::assert!(
        ::cudagraph_runtime::__private::size_of:: < OuterSlots > () == 3usize
    );
};
const _: fn(&OuterSlots, &OuterParams) = |slots, params| {
    ::cudagraph_runtime::__private::slot_of(&slots.first, &params.first);
    ::cudagraph_runtime::__private::slot_of(&slots.second, &params.second);
    ::cudagraph_runtime::__private::slot_of(&slots.z, &params.z);
};
impl ::cudagraph_runtime::__private::fmt::Debug for OuterSlots {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("OuterSlots").finish_non_exhaustive()
    }
}
unsafe impl ::cudagraph_runtime::__private::Tracked for OuterExec {
    type Params = OuterParams;
    type Slots = OuterSlots;
    const NAME: &'static ::core::primitive::str = "OuterExec";
    #[allow(clippy::type_complexity)]
    const UPDATES: &'static [(
        fn(
            &mut Self,
            ::core::primitive::usize,
            ::cudagraph_runtime::__private::Internal,
        ) -> ::cudagraph_runtime::__private::Result<()>,
        ::core::primitive::u32,
    )] = &[
        (Self::__cg_update_node_0, 0u32),
        (Self::__cg_update_node_1, 0u32),
        (Self::__cg_update_node_2, 0u32),
    ];
    const READERS: &'static [(
        &'static [::core::primitive::u32],
        ::core::primitive::bool,
        ::core::primitive::bool,
    )] = &[(&[0u32], false, true), (&[1u32], false, true), (&[2u32], false, false)];
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
    ) -> &mut OuterParams {
        &mut unsafe { self.parts.get_mut() }.state.params
    }
    #[inline(always)]
    fn applied_mut(
        &mut self,
        _: ::cudagraph_runtime::__private::Internal,
    ) -> &mut OuterParams {
        &mut unsafe { self.parts.get_mut() }.applied
    }
    fn check(&self) -> ::cudagraph_runtime::__private::Result<()> {
        Outer::__cg_check_overlaps(&self.parts.state.params)
    }
    #[inline]
    fn slot_offset(slot: ::core::primitive::usize) -> ::core::primitive::usize {
        match slot {
            0usize..3usize => Self::__cg_slot_offset_0(slot),
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
            0usize..3usize => self.__cg_sync_0(param, commit, key),
            _ => {}
        }
    }
    fn sync_children(
        &mut self,
        how: ::cudagraph_runtime::__private::SyncChildren,
        _: ::cudagraph_runtime::__private::Internal,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.parts.get_mut() };
        if how == ::cudagraph_runtime::__private::SyncChildren::Swap {
            if __cg_parts.tracker.is_changed(0usize) {
                ::cudagraph_runtime::__private::swap(
                    &mut __cg_parts.state.params.first,
                    &mut __cg_parts.applied.first,
                );
            }
            if __cg_parts.tracker.is_changed(1usize) {
                ::cudagraph_runtime::__private::swap(
                    &mut __cg_parts.state.params.second,
                    &mut __cg_parts.applied.second,
                );
            }
            return ::cudagraph_runtime::__private::Result::Ok(());
        }
        let commit = how == ::cudagraph_runtime::__private::SyncChildren::Commit;
        let __cg_child_0 = match __cg_parts.tracker.is_changed(0usize) {
            false => ::cudagraph_runtime::__private::Option::None,
            true if commit => {
                ::cudagraph_runtime::__private::Option::Some(
                    {
                        use ::cudagraph_runtime::__private::RoleFallback as _;
                        <::cudagraph_runtime::__private::RoleProbe<
                            Inner,
                        >>::duplicate(&__cg_parts.state.params.first)
                    }?,
                )
            }
            true => {
                ::cudagraph_runtime::__private::Option::Some(
                    {
                        use ::cudagraph_runtime::__private::RoleFallback as _;
                        <::cudagraph_runtime::__private::RoleProbe<
                            Inner,
                        >>::duplicate(&__cg_parts.applied.first)
                    }?,
                )
            }
        };
        let __cg_child_1 = match __cg_parts.tracker.is_changed(1usize) {
            false => ::cudagraph_runtime::__private::Option::None,
            true if commit => {
                ::cudagraph_runtime::__private::Option::Some(
                    {
                        use ::cudagraph_runtime::__private::RoleFallback as _;
                        <::cudagraph_runtime::__private::RoleProbe<
                            Inner,
                        >>::duplicate(&__cg_parts.state.params.second)
                    }?,
                )
            }
            true => {
                ::cudagraph_runtime::__private::Option::Some(
                    {
                        use ::cudagraph_runtime::__private::RoleFallback as _;
                        <::cudagraph_runtime::__private::RoleProbe<
                            Inner,
                        >>::duplicate(&__cg_parts.applied.second)
                    }?,
                )
            }
        };
        if let ::cudagraph_runtime::__private::Option::Some(copy) = __cg_child_0 {
            if commit {
                __cg_parts.applied.first = copy;
            } else {
                __cg_parts.state.params.first = copy;
            }
        }
        if let ::cudagraph_runtime::__private::Option::Some(copy) = __cg_child_1 {
            if commit {
                __cg_parts.applied.second = copy;
            } else {
                __cg_parts.state.params.second = copy;
            }
        }
        ::cudagraph_runtime::__private::Result::Ok(())
    }
}
#[allow(clippy::type_complexity)]
impl OuterExec {
    /**Sets param `first` and updates what reads it (node `a`), one single-node update each. Returns the old value; on error, naming the node, nothing changes: the param keeps its old value and the nodes their updates (see [`OuterExec`]).
*/
    pub fn set_first(
        &mut self,
        value: Inner,
    ) -> ::cudagraph_runtime::__private::Result<Inner> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.parts.get_mut() }.state.params.first,
            value,
        );
        ::cudagraph_runtime::__private::set_param(self, 0usize).map(|_| old)
    }
    /**Sets param `second` and updates what reads it (node `b`), one single-node update each. Returns the old value; on error, naming the node, nothing changes: the param keeps its old value and the nodes their updates (see [`OuterExec`]).
*/
    pub fn set_second(
        &mut self,
        value: Inner,
    ) -> ::cudagraph_runtime::__private::Result<Inner> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.parts.get_mut() }.state.params.second,
            value,
        );
        ::cudagraph_runtime::__private::set_param(self, 1usize).map(|_| old)
    }
    /**Sets param `z` and updates what reads it (node `clear`), one single-node update each. Returns the old value; on error, naming the node, nothing changes: the param keeps its old value and the nodes their updates (see [`OuterExec`]).
*/
    pub fn set_z(
        &mut self,
        value: DeviceBuffer<f32>,
    ) -> ::cudagraph_runtime::__private::Result<DeviceBuffer<f32>> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.parts.get_mut() }.state.params.z,
            value,
        );
        {
            let commit = |exec: &mut Self| {
                let __cg_parts = unsafe { exec.parts.get_mut() };
                __cg_parts.applied.z = <DeviceBuffer<
                    f32,
                > as ::cudagraph_runtime::__private::ParamValue>::keep(
                    &__cg_parts.state.params.z,
                );
            };
            unsafe {
                ::cudagraph_runtime::__private::set_sole_reader(
                    self,
                    2usize,
                    2usize,
                    (Self::__cg_update_node_2, 0usize),
                    commit,
                )
            }
        }
            .map(|_| old)
    }
    /**Swaps two params of one type, named by `pick` (`exec.swap(|p| (&mut p.x, &mut p.x_new))?`), and updates the nodes that read them, each once, before it returns: the ping-pong buffers of an iteration swapped between launches in one call. Returns how many nodes it updated. `pick` is given the params' slots ([`OuterSlots`]), not their values: it names two params and changes none. As [`OuterParamsMut::swap`] followed by `apply`: all or nothing (a refused update is reported, naming its node, and the swap undone), any other change pending applied with it.

Swapping two buffers the executable holds (a ping-pong) registers and releases nothing: the swap costs its readers' driver calls and the update of their records of memory.

# Errors

The error of the update that refused the swap, naming its node (a kernel's launch check, a driver error, two nodes that would race): the swap is undone.*/
    pub fn swap<S: ::cudagraph_runtime::__private::Pick>(
        &mut self,
        pick: impl FnOnce(&mut OuterSlots) -> (&mut S, &mut S),
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
    #[inline(never)]
    #[allow(unused_variables)]
    fn __cg_update_node_0(
        &mut self,
        index: ::core::primitive::usize,
        _: ::cudagraph_runtime::__private::Internal,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.parts.get_mut() };
        let __cg_params: &OuterParams = &__cg_parts.state.params;
        __cg_parts
            .exec
            .set_child_graph(__cg_parts.nodes.a, Outer::__cg_eval_a(__cg_params))?;
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline(never)]
    #[allow(unused_variables)]
    fn __cg_update_node_1(
        &mut self,
        index: ::core::primitive::usize,
        _: ::cudagraph_runtime::__private::Internal,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.parts.get_mut() };
        let __cg_params: &OuterParams = &__cg_parts.state.params;
        __cg_parts
            .exec
            .set_child_graph(__cg_parts.nodes.b, Outer::__cg_eval_b(__cg_params))?;
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline(never)]
    #[allow(unused_variables)]
    fn __cg_update_node_2(
        &mut self,
        index: ::core::primitive::usize,
        _: ::cudagraph_runtime::__private::Internal,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.parts.get_mut() };
        let __cg_params: &OuterParams = &__cg_parts.state.params;
        __cg_parts
            .exec
            .set_memset_params(
                __cg_parts.nodes.clear,
                Outer::__cg_eval_clear(__cg_params),
            )?;
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline]
    fn __cg_slot_offset_0(slot: ::core::primitive::usize) -> ::core::primitive::usize {
        match slot {
            0usize => ::cudagraph_runtime::__private::offset_of!(OuterParams, first),
            1usize => ::cudagraph_runtime::__private::offset_of!(OuterParams, second),
            2usize => ::cudagraph_runtime::__private::offset_of!(OuterParams, z),
            _ => ::core::unreachable!(),
        }
    }
    /// `Tracked::sync` for this chunk's params (keyed, as it).
    #[inline(never)]
    #[allow(unused_variables)]
    fn __cg_sync_0(
        &mut self,
        param: ::core::primitive::usize,
        commit: ::core::primitive::bool,
        _: ::cudagraph_runtime::__private::Internal,
    ) {
        let __cg_parts = unsafe { self.parts.get_mut() };
        match param {
            2usize => {
                if commit {
                    __cg_parts.applied.z = <DeviceBuffer<
                        f32,
                    > as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_parts.state.params.z,
                    );
                } else {
                    __cg_parts.state.params.z = <DeviceBuffer<
                        f32,
                    > as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_parts.applied.z,
                    );
                }
            }
            _ => {}
        }
    }
}
/**Changes to the params of a [`OuterExec`], several at once ([`OuterExec::params_mut`]). It reads as the params (`Deref`); `set_<param>` and [`swap`](Self::swap) change them and mark the nodes that read them, and [`apply`](Self::apply) updates those nodes, each once however many of its params changed. A guard dropped without `apply` leaves the changes to the executable's next launch, which applies them first: a change cannot be forgotten. An update that fails is the error of that `apply` or launch, naming the node (the launch launches nothing), and undoes the changes: the params and the nodes are as they were before them.

```text
let mut p = exec.params_mut();
p.set_n(n);                         // its readers are updated once,
p.set_scale(0.5);                   // even those reading both
p.swap(|p| (&mut p.x, &mut p.x_new))?;
p.apply()?;                         // or: the next exec.launch(&stream)
```*/
#[must_use = "changes made through the guard are applied by `apply`, or by the next launch"]
struct OuterParamsMut<'a> {
    exec: &'a mut OuterExec,
}
impl ::cudagraph_runtime::__private::Deref for OuterParamsMut<'_> {
    type Target = OuterParams;
    fn deref(&self) -> &OuterParams {
        &self.exec.parts.state.params
    }
}
#[allow(clippy::type_complexity)]
impl OuterParamsMut<'_> {
    ///Sets param `first`, and marks what reads it (node `a`) for the guard's [`apply`](Self::apply), or the executable's next launch. Returns the old value.
    #[inline]
    pub fn set_first(&mut self, value: Inner) -> Inner {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.exec.parts.get_mut() }.state.params.first,
            value,
        );
        ::cudagraph_runtime::__private::stage(self.exec, 0usize);
        old
    }
    ///Sets param `second`, and marks what reads it (node `b`) for the guard's [`apply`](Self::apply), or the executable's next launch. Returns the old value.
    #[inline]
    pub fn set_second(&mut self, value: Inner) -> Inner {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.exec.parts.get_mut() }.state.params.second,
            value,
        );
        ::cudagraph_runtime::__private::stage(self.exec, 1usize);
        old
    }
    ///Sets param `z`, and marks what reads it (node `clear`) for the guard's [`apply`](Self::apply), or the executable's next launch. Returns the old value.
    #[inline]
    pub fn set_z(&mut self, value: DeviceBuffer<f32>) -> DeviceBuffer<f32> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.exec.parts.get_mut() }.state.params.z,
            value,
        );
        unsafe {
            ::cudagraph_runtime::__private::stage_sole_reader(self.exec, 2usize, 2usize)
        };
        old
    }
    /**Swaps two params of one type, named by `pick` (`p.swap(|p| (&mut p.x, &mut p.x_new))`), and marks the nodes that read them. `pick` is given the params' slots ([`OuterSlots`]), not their values: it names two params and changes none, so that the swap is the only change, and the tracker knows it. The slots of an array param are its elements' (`|p| (&mut p.w[0], &mut p.w[1])`); two arrays of slots (two array params, or runs of elements) are swapped element by element.

Never refused for slots of the struct `pick` is given (its signature allows no other).*/
    pub fn swap<S: ::cudagraph_runtime::__private::Pick>(
        &mut self,
        pick: impl FnOnce(&mut OuterSlots) -> (&mut S, &mut S),
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
impl ::cudagraph_runtime::__private::fmt::Debug for OuterParamsMut<'_> {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("OuterParamsMut").finish_non_exhaustive()
    }
}
/**Update handle of node `a` of [`OuterExec`] (`child(first)`): its embedded graph can change (same topology); CUDA cannot enable or disable it ([what CUDA allows](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#individual-node-update)).

Memory given through the handle is not judged by the race rule, which judges the declaration's params: it must not be memory that a node no edge orders with this one uses, one of them writing it (host memory that host code uses is checked: `Error::Hazard`). A change of a param the node reads, or `set_params`, sets the node back to its params.*/
struct OuterANode<'a> {
    exec: &'a mut OuterExec,
}
impl<'a> OuterANode<'a> {
    /// Replaces the embedded graph's contents with `graph`'s, for the next launches
    /// (`cuGraphExecChildGraphNodeSetParams`); it must have the embedded graph's
    /// topology.
    pub fn set(&mut self, graph: &Inner) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.exec.parts.get_mut() };
        __cg_parts
            .exec
            .set_child_graph(
                __cg_parts.nodes.a,
                <Inner as ::cudagraph_runtime::__private::ChildGraph>::graph(graph),
            )?;
        __cg_parts.tracker.set_by_handle(0usize);
        ::cudagraph_runtime::__private::Result::Ok(())
    }
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
    pub fn node(&self) -> ::cudagraph_runtime::__private::ChildGraphNode {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.nodes.a
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for OuterANode<'_> {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("OuterANode").field("index", &0usize).finish_non_exhaustive()
    }
}
/**Update handle of node `b` of [`OuterExec`] (`child(second)`): its embedded graph can change (same topology); CUDA cannot enable or disable it ([what CUDA allows](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#individual-node-update)).

Memory given through the handle is not judged by the race rule, which judges the declaration's params: it must not be memory that a node no edge orders with this one uses, one of them writing it (host memory that host code uses is checked: `Error::Hazard`). A change of a param the node reads, or `set_params`, sets the node back to its params.*/
struct OuterBNode<'a> {
    exec: &'a mut OuterExec,
}
impl<'a> OuterBNode<'a> {
    /// Replaces the embedded graph's contents with `graph`'s, for the next launches
    /// (`cuGraphExecChildGraphNodeSetParams`); it must have the embedded graph's
    /// topology.
    pub fn set(&mut self, graph: &Inner) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.exec.parts.get_mut() };
        __cg_parts
            .exec
            .set_child_graph(
                __cg_parts.nodes.b,
                <Inner as ::cudagraph_runtime::__private::ChildGraph>::graph(graph),
            )?;
        __cg_parts.tracker.set_by_handle(1usize);
        ::cudagraph_runtime::__private::Result::Ok(())
    }
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
    pub fn node(&self) -> ::cudagraph_runtime::__private::ChildGraphNode {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.nodes.b
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for OuterBNode<'_> {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("OuterBNode").field("index", &1usize).finish_non_exhaustive()
    }
}
/**Update handle of node `clear` of [`OuterExec`] (`memset(z, 0.0f32)`): its destination and value can change (1-D only), and it can be enabled or disabled ([what CUDA allows](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#individual-node-update)).

Memory given through the handle is not judged by the race rule, which judges the declaration's params: it must not be memory that a node no edge orders with this one uses, one of them writing it (host memory that host code uses is checked: `Error::Hazard`). A change of a param the node reads, or `set_params`, sets the node back to its params.*/
struct OuterClearNode<'a> {
    exec: &'a mut OuterExec,
}
impl<'a> OuterClearNode<'a> {
    /// Sets the destination and the pattern written, for the next launches
    /// (`cuGraphExecMemsetNodeSetParams`): device memory the node's pattern type fills, such as
    /// a `&DeviceBuffer<T>`. Memory the node stops using is released once the launches that
    /// may use it are done.
    pub fn set(
        &mut self,
        dst: impl ::cudagraph_runtime::__private::MemsetAs<
            <DeviceBuffer<f32> as ::cudagraph_runtime::__private::MemsetTarget>::Pattern,
        >,
        value: <DeviceBuffer<
            f32,
        > as ::cudagraph_runtime::__private::MemsetTarget>::Pattern,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.exec.parts.get_mut() };
        __cg_parts
            .exec
            .set_memset_params(
                __cg_parts.nodes.clear,
                ::cudagraph_runtime::__private::MemsetAs::memset_as(dst, value),
            )?;
        __cg_parts.tracker.set_by_handle(2usize);
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[doc(hidden)]
    pub fn set_2d<__CgDst, __CgValue>(
        &mut self,
        dst: __CgDst,
        pitch: ::core::primitive::usize,
        value: __CgValue,
        width: ::core::primitive::usize,
        height: ::core::primitive::usize,
    ) -> ::cudagraph_runtime::__private::Result<()>
    where
        &'a (): ::cudagraph_runtime::__private::CanUpdate2D,
    {
        let _ = (dst, pitch, value, width, height);
        match <&'a () as ::cudagraph_runtime::__private::CanUpdate2D>::NEVER {}
    }
    /// Enables or disables the node for the next launches (`cuGraphNodeSetEnabled`). A
    /// disabled node acts as an empty node; params set meanwhile apply once it is enabled.
    pub fn set_enabled(
        &mut self,
        enabled: ::core::primitive::bool,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.exec.parts.get_mut() };
        __cg_parts.exec.set_enabled(__cg_parts.nodes.clear, enabled)
    }
    /// Whether the node is enabled (`cuGraphNodeGetEnabled`).
    pub fn is_enabled(
        &self,
    ) -> ::cudagraph_runtime::__private::Result<::core::primitive::bool> {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.exec.is_enabled(__cg_parts.nodes.clear)
    }
    /// The node's runtime handle, for the runtime's own API.
    pub fn node(
        &self,
    ) -> ::cudagraph_runtime::__private::MemsetNode<
        <DeviceBuffer<f32> as ::cudagraph_runtime::__private::MemsetTarget>::Pattern,
    > {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.nodes.clear
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for OuterClearNode<'_> {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("OuterClearNode").field("index", &2usize).finish_non_exhaustive()
    }
}
fn main() {}
