//! Semaphore nodes around a kernel on memory shared with another API: the count of semaphores in
//! the handle types, the values computed from params in the eval functions.
use cudagraph_runtime::cuda_graph;
const _: () = {
    #[allow(unused_imports)]
    use ::cudagraph_runtime::__private::{
        ArgsFallback as _, BodyFallback as _, ParamFallback as _, SlotFallback as _,
    };
    if <::cudagraph_runtime::__private::ParamProbe<
        Kernel<(u32, DevicePtrMut<u32>)>,
    >>::IS_HANDLE {
        ::cudagraph_runtime::__private::fail(
            "param `step` is a `ConditionalHandle`: a handle is made by the conditional node that reads it (`name: while step { ... }`), since one made for another graph would be set where no node reads it",
        )
    }
};
const _: () = {
    #[allow(unused_imports)]
    use ::cudagraph_runtime::__private::{
        ArgsFallback as _, BodyFallback as _, ParamFallback as _, SlotFallback as _,
    };
    if <::cudagraph_runtime::__private::ParamProbe<ExternalSemaphore>>::IS_HANDLE {
        ::cudagraph_runtime::__private::fail(
            "param `sem` is a `ConditionalHandle`: a handle is made by the conditional node that reads it (`name: while sem { ... }`), since one made for another graph would be set where no node reads it",
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
        <::cudagraph_runtime::__private::LaunchProbe<DeviceBuffer<u32>>>::IS_LAUNCH
            || <::cudagraph_runtime::__private::ParamProbe<DeviceBuffer<u32>>>::IS_HANDLE
    }) {
        ::cudagraph_runtime::__private::fail(
            ({
                use ::cudagraph_runtime::__private::LaunchFallback as _;
                if <::cudagraph_runtime::__private::LaunchProbe<
                    DeviceBuffer<u32>,
                >>::IS_LAUNCH {
                    "`DeviceBuffer<u32>` here is a device graph's handle, not memory: `cuda_graph!` takes a type written `DeviceBuffer<u32>` for memory, and would not check what a kernel given it may launch; give the import or alias another name"
                } else {
                    "`DeviceBuffer<u32>` here is a `ConditionalHandle`, not memory: `cuda_graph!` takes a type written `DeviceBuffer<u32>` for memory, and a handle is made by the conditional node that reads it (`name: while h { ... }`), never a param; remove the param, and give the import or alias another name"
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
        !<::cudagraph_runtime::__private::SameProbe<u64, ::core::primitive::u64>>::SAME
    }) {
        ::cudagraph_runtime::__private::fail(
            "`u64` here is not the primitive `u64`: `cuda_graph!` takes a type written `u64` for that primitive, a plain value that holds no memory, and an alias or import that gives the name to another type would hide the memory it holds from the data-race rule; give that type another name",
        )
    }
};
/**The params of [`Frame`]: what its nodes are built from ([`Frame::build`]). Its executable owns a copy ([`FrameExec::params`]), changed through the executable (`set_<param>`, [`FrameExec::params_mut`], [`FrameExec::set_params`]), which updates exactly the nodes that read what changed:

- node `ready` reads `frame`, `sem`
- node `run` reads `step`, `image`, `n`
- node `done` reads `frame`, `sem`
*/
#[allow(clippy::type_complexity)]
struct FrameParams {
    ///Param `step`, read by node `run`.
    pub step: Kernel<(u32, DevicePtrMut<u32>)>,
    ///Param `image`, read by node `run`.
    pub image: DeviceBuffer<u32>,
    ///Param `n`, read by node `run`.
    pub n: u32,
    ///Param `frame`, read by nodes `ready`, `done`.
    pub frame: u64,
    ///Param `sem`, read by nodes `ready`, `done`.
    pub sem: ExternalSemaphore,
}
impl ::cudagraph_runtime::__private::fmt::Debug for FrameParams {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("FrameParams").finish_non_exhaustive()
    }
}
/**A CUDA graph declared with `cuda_graph!`: [`Frame::build`] builds it from a [`FrameParams`], [`Frame::instantiate`] makes it a [`FrameExec`].

# Nodes

In build order (a node's position is its index in the graph):

0. `ready`: `wait(sem = 2 * frame + 1)`
1. `run`: `kernel step<<<n.div_ceil(256), 256>>>(n, image)`, after `ready`
2. `done`: `signal(sem = 2 * frame + 2)`, after `run`

# Topology

<div style="overflow-x:auto"><svg xmlns="http://www.w3.org/2000/svg" role="img" width="142" height="200" viewBox="0 0 142 200" font-family="monospace" font-size="14" text-anchor="middle" fill="currentColor"><title>Topology of Frame: 3 nodes, 2 edges</title><defs><marker id="cg7d2b6be7" viewBox="0 0 8 8" refX="8" refY="4" markerWidth="8" markerHeight="8" orient="auto"><path d="M0 0L8 4L0 8z"/></marker></defs><g fill="none" stroke="currentColor" marker-end="url(#cg7d2b6be7)"><path d="M71 48V80"/><path d="M71 120V152"/></g><rect x="15" y="8" width="112" height="40" rx="4" fill="#f3f4f6" stroke="#4b5563"/><text x="71" y="25" fill="#111">ready</text><text x="71" y="41" font-size="11" fill="#374151">semaphore_wait</text><rect x="42" y="80" width="58" height="40" rx="4" fill="#dbeafe" stroke="#1d4ed8"/><text x="71" y="97" fill="#111">run</text><text x="71" y="113" font-size="11" fill="#374151">kernel</text><rect x="8" y="152" width="126" height="40" rx="4" fill="#f3f4f6" stroke="#4b5563"/><text x="71" y="169" fill="#111">done</text><text x="71" y="185" font-size="11" fill="#374151">semaphore_signal</text></svg></div>

As text: `Frame::TOPOLOGY.to_mermaid()` (Mermaid) or `.to_dot()` (Graphviz).
*/
struct Frame {
    parts: ::cudagraph_runtime::__private::Guarded<__FrameParts>,
}
#[doc(hidden)]
#[allow(non_camel_case_types)]
struct __FrameParts {
    graph: ::cudagraph_runtime::__private::Graph<'static>,
    nodes: ::cudagraph_runtime::__private::Box<
        ::cudagraph_runtime::__private::ManuallyDrop<__FrameNodes>,
    >,
    state: __FrameState,
    build_id: ::core::primitive::u64,
}
#[doc(hidden)]
#[allow(non_camel_case_types, dead_code, clippy::type_complexity)]
struct __FrameNodes {
    ready: ::cudagraph_runtime::__private::SemaphoreWaitNode<1>,
    run: ::cudagraph_runtime::__private::KernelNode<(u32, DevicePtrMut<u32>)>,
    done: ::cudagraph_runtime::__private::SemaphoreSignalNode<1>,
}
unsafe impl ::cudagraph_runtime::__private::Unbuilt for __FrameNodes {}
#[doc(hidden)]
#[allow(non_camel_case_types, non_snake_case, dead_code)]
#[derive(Clone, Copy)]
struct __FrameLaunch {
    run: ::cudagraph_runtime::__private::LaunchConfig,
}
unsafe impl ::cudagraph_runtime::__private::Unbuilt for __FrameLaunch {}
#[doc(hidden)]
#[allow(non_camel_case_types)]
struct __FrameState {
    params: ::cudagraph_runtime::__private::Box<FrameParams>,
    launch: ::cudagraph_runtime::__private::Box<__FrameLaunch>,
}
impl Frame {
    /// The declared shape: nodes in build order (their indices in the graph; one more
    /// with `#[indirect]` params, whose fetch node comes first), kinds and edges. Its
    /// `to_dot()` and `to_mermaid()` draw it.
    pub const TOPOLOGY: ::cudagraph_runtime::__private::Topology = ::cudagraph_runtime::__private::Topology {
        name: "Frame",
        nodes: &[
            ("ready", ::cudagraph_runtime::__private::NodeKind::SemaphoreWait),
            ("run", ::cudagraph_runtime::__private::NodeKind::Kernel),
            ("done", ::cudagraph_runtime::__private::NodeKind::SemaphoreSignal),
        ],
        edges: &[(0usize, 1usize), (1usize, 2usize)],
        bodies: &[],
    };
    /// [`TOPOLOGY`](Self::TOPOLOGY) drawn as a standalone SVG image, laid out when the
    /// macro ran: the picture in this type's docs. Write it to a `.svg` file or put it
    /// in an HTML page; its lines and labels take the text colour of the page around it
    /// (black in a file of its own). It is in the binary only if the program calls this.
    pub const fn topology_svg() -> &'static ::core::primitive::str {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" width=\"142\" height=\"200\" viewBox=\"0 0 142 200\" font-family=\"monospace\" font-size=\"14\" text-anchor=\"middle\" fill=\"currentColor\"><title>Topology of Frame: 3 nodes, 2 edges</title><defs><marker id=\"cg7d2b6be7\" viewBox=\"0 0 8 8\" refX=\"8\" refY=\"4\" markerWidth=\"8\" markerHeight=\"8\" orient=\"auto\"><path d=\"M0 0L8 4L0 8z\"/></marker></defs><g fill=\"none\" stroke=\"currentColor\" marker-end=\"url(#cg7d2b6be7)\"><path d=\"M71 48V80\"/><path d=\"M71 120V152\"/></g><rect x=\"15\" y=\"8\" width=\"112\" height=\"40\" rx=\"4\" fill=\"#f3f4f6\" stroke=\"#4b5563\"/><text x=\"71\" y=\"25\" fill=\"#111\">ready</text><text x=\"71\" y=\"41\" font-size=\"11\" fill=\"#374151\">semaphore_wait</text><rect x=\"42\" y=\"80\" width=\"58\" height=\"40\" rx=\"4\" fill=\"#dbeafe\" stroke=\"#1d4ed8\"/><text x=\"71\" y=\"97\" fill=\"#111\">run</text><text x=\"71\" y=\"113\" font-size=\"11\" fill=\"#374151\">kernel</text><rect x=\"8\" y=\"152\" width=\"126\" height=\"40\" rx=\"4\" fill=\"#f3f4f6\" stroke=\"#4b5563\"/><text x=\"71\" y=\"169\" fill=\"#111\">done</text><text x=\"71\" y=\"185\" font-size=\"11\" fill=\"#374151\">semaphore_signal</text></svg>"
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
        __cg_params: &FrameParams,
    ) -> ::cudagraph_runtime::__private::Result<Self> {
        Self::__cg_check_overlaps(__cg_params)?;
        let mut __cg_graph = ::cudagraph_runtime::__private::Graph::with_capacity(
            ctx,
            3usize,
        )?;
        let (nodes, state) = Self::__cg_add_nodes(&mut __cg_graph, __cg_params)?;
        ::cudagraph_runtime::__private::built(&__cg_graph, "Frame");
        let __cg_parts = __FrameParts {
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
        __cg_params: &FrameParams,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        Self::__cg_check_overlaps(__cg_params)?;
        let __cg_parts = unsafe { self.parts.get_mut() };
        __cg_parts.build_id = ::cudagraph_runtime::__private::next_build_id();
        __cg_parts.graph.clear()?;
        let (nodes, state) = Self::__cg_add_nodes(&mut __cg_parts.graph, __cg_params)?;
        ::cudagraph_runtime::__private::built(&__cg_parts.graph, "Frame");
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
        __cg_params: &FrameParams,
    ) -> ::cudagraph_runtime::__private::Result<
        (
            ::cudagraph_runtime::__private::Box<
                ::cudagraph_runtime::__private::ManuallyDrop<__FrameNodes>,
            >,
            __FrameState,
        ),
    > {
        let owned = Self::__cg_own(__cg_params)?;
        let mut boxed = ::cudagraph_runtime::__private::unbuilt_box::<
            ::cudagraph_runtime::__private::ManuallyDrop<__FrameNodes>,
        >();
        let mut configs = ::cudagraph_runtime::__private::unbuilt_box::<__FrameLaunch>();
        {
            let nodes: &mut __FrameNodes = &mut boxed;
            #[allow(unused_variables)]
            let launches: &mut __FrameLaunch = &mut configs;
            Self::__cg_add_0(__cg_graph, __cg_params, nodes, launches)?;
        }
        ::cudagraph_runtime::__private::Result::Ok((
            boxed,
            __FrameState {
                params: owned,
                launch: configs,
            },
        ))
    }
    #[inline(never)]
    fn __cg_add_0(
        __cg_graph: &mut ::cudagraph_runtime::__private::Graph<'static>,
        __cg_params: &FrameParams,
        nodes: &mut __FrameNodes,
        launches: &mut __FrameLaunch,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        nodes.ready = ::cudagraph_runtime::__private::add_node(
            __cg_graph,
            "ready",
            |__cg_graph| {
                __cg_graph.add_semaphore_wait(Frame::__cg_eval_ready(__cg_params), &[])
            },
        )?;
        (nodes.run, launches.run) = ::cudagraph_runtime::__private::add_node(
            __cg_graph,
            "run",
            |__cg_graph| {
                let (kernel, config, args) = Frame::__cg_eval_run(__cg_params);
                let added = __cg_graph
                    .add_kernel(kernel, config, args, &[nodes.ready.id()])?;
                ::cudagraph_runtime::__private::Result::Ok((added, config))
            },
        )?;
        nodes.done = ::cudagraph_runtime::__private::add_node(
            __cg_graph,
            "done",
            |__cg_graph| {
                __cg_graph
                    .add_semaphore_signal(
                        Frame::__cg_eval_done(__cg_params),
                        &[nodes.run.id()],
                    )
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
        __cg_params: &FrameParams,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        #[allow(unused_imports)]
        use ::cudagraph_runtime::__private::{
            ArgsFallback as _, BodyFallback as _, ParamFallback as _, SlotFallback as _,
        };
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    ///Instantiates the graph with default flags.
    pub fn instantiate(self) -> ::cudagraph_runtime::__private::Result<FrameExec> {
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
    ) -> ::cudagraph_runtime::__private::Result<FrameExec> {
        let __cg_parts = self.parts.into_inner();
        let applied = Self::__cg_own(&__cg_parts.state.params)?;
        let exec = __cg_parts.graph.instantiate_with(flags, upload)?;
        ::cudagraph_runtime::__private::Result::Ok(unsafe {
            FrameExec::__cg_new(exec, __cg_parts.nodes, __cg_parts.state, applied)
        })
    }
    ///Instantiates the graph as an executable *bound to* `stream`: it launches there only (`launch` refuses another stream). The launches of executables bound to one stream never overlap, so they may share host memory that their host nodes write, which two executables launched anywhere may not (`Error::BufferInUse` when the second is made).
    pub fn instantiate_on(
        self,
        stream: &::cudagraph_runtime::__private::Arc<
            ::cudagraph_runtime::__private::CudaStream,
        >,
    ) -> ::cudagraph_runtime::__private::Result<FrameExec> {
        let flags = ::cudagraph_runtime::__private::InstantiateFlags::NONE;
        let __cg_parts = self.parts.into_inner();
        let applied = Self::__cg_own(&__cg_parts.state.params)?;
        let exec = __cg_parts.graph.instantiate_on(stream, flags)?;
        ::cudagraph_runtime::__private::Result::Ok(unsafe {
            FrameExec::__cg_new(exec, __cg_parts.nodes, __cg_parts.state, applied)
        })
    }
    #[allow(
        non_snake_case,
        unused_variables,
        clippy::type_complexity,
        clippy::needless_lifetimes
    )]
    fn __cg_eval_ready<'__cg_p>(
        __cg_params: &'__cg_p FrameParams,
    ) -> [(
        &'__cg_p ::cudagraph_runtime::__private::ExternalSemaphore,
        ::core::primitive::u64,
    ); 1] {
        #[allow(unused_imports)]
        use ::cudagraph_runtime::__private::{BindCopy as _, BindRef as _};
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let sem = (&::cudagraph_runtime::__private::Bind(&__cg_params.sem)).__cg_bind();
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let frame = (&::cudagraph_runtime::__private::Bind(&__cg_params.frame))
            .__cg_bind();
        [
            (
                ::cudagraph_runtime::__private::SemaphoreParam::semaphore(
                    &__cg_params.sem,
                ),
                ::cudagraph_runtime::__private::semaphore_value(2 * frame + 1),
            ),
        ]
    }
    #[allow(
        non_snake_case,
        unused_variables,
        clippy::type_complexity,
        clippy::needless_lifetimes
    )]
    fn __cg_eval_run<'__cg_p>(
        __cg_params: &'__cg_p FrameParams,
    ) -> (
        &'__cg_p ::cudagraph_runtime::__private::Kernel<(u32, DevicePtrMut<u32>)>,
        ::cudagraph_runtime::__private::LaunchConfig,
        (
            impl ::cudagraph_runtime::__private::KernelArg<'static, u32> + '__cg_p,
            impl ::cudagraph_runtime::__private::KernelArg<
                'static,
                DevicePtrMut<u32>,
            > + '__cg_p,
        ),
    ) {
        #[allow(unused_imports)]
        use ::cudagraph_runtime::__private::{BindCopy as _, BindRef as _};
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let step = (&::cudagraph_runtime::__private::Bind(&__cg_params.step))
            .__cg_bind();
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let n = (&::cudagraph_runtime::__private::Bind(&__cg_params.n)).__cg_bind();
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let image = (&::cudagraph_runtime::__private::Bind(&__cg_params.image))
            .__cg_bind();
        let config = ::cudagraph_runtime::__private::launch(n.div_ceil(256), 256, 0);
        let args = (
            ::cudagraph_runtime::__private::KernelArgPart::<'static, u32, _>::new(n),
            ::cudagraph_runtime::__private::KernelArgPart::<
                'static,
                DevicePtrMut<u32>,
                _,
            >::new(image),
        );
        (
            <Kernel<
                (u32, DevicePtrMut<u32>),
            > as ::cudagraph_runtime::__private::KernelType>::as_kernel(
                &__cg_params.step,
            ),
            config,
            args,
        )
    }
    #[allow(
        non_snake_case,
        unused_variables,
        clippy::type_complexity,
        clippy::needless_lifetimes
    )]
    fn __cg_eval_done<'__cg_p>(
        __cg_params: &'__cg_p FrameParams,
    ) -> [(
        &'__cg_p ::cudagraph_runtime::__private::ExternalSemaphore,
        ::core::primitive::u64,
    ); 1] {
        #[allow(unused_imports)]
        use ::cudagraph_runtime::__private::{BindCopy as _, BindRef as _};
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let sem = (&::cudagraph_runtime::__private::Bind(&__cg_params.sem)).__cg_bind();
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let frame = (&::cudagraph_runtime::__private::Bind(&__cg_params.frame))
            .__cg_bind();
        [
            (
                ::cudagraph_runtime::__private::SemaphoreParam::semaphore(
                    &__cg_params.sem,
                ),
                ::cudagraph_runtime::__private::semaphore_value(2 * frame + 2),
            ),
        ]
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for Frame {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("Frame").field("graph", &self.parts.graph).finish_non_exhaustive()
    }
}
impl ::cudagraph_runtime::__private::BodyRules for Frame {
    const FORBIDDEN_IN_BODY: ::cudagraph_runtime::__private::Option<
        &'static ::core::primitive::str,
    > = {
        #[allow(unused_imports)]
        use ::cudagraph_runtime::__private::{
            ArgsFallback as _, BodyFallback as _, ParamFallback as _, SlotFallback as _,
        };
        ::cudagraph_runtime::__private::first_forbidden(
            &[
                ::cudagraph_runtime::__private::Option::Some(
                    "holds semaphore wait node `ready`",
                ),
                ::cudagraph_runtime::__private::Option::Some(
                    "holds semaphore signal node `done`",
                ),
            ],
        )
    };
}
unsafe impl ::cudagraph_runtime::__private::ChildGraph for Frame {
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
impl ::cudagraph_runtime::__private::SameDeclaration<Frame> for Frame {
    fn same(&self) -> &Frame {
        self
    }
}
/**[`Frame`], instantiated, with the [`FrameParams`] it runs, which it owns ([`params`](Self::params)).

Change a param with its setter (`exec.set_alpha(0.5)?`, one per param: it updates the nodes that read it, and returns the old value), several at once or two swapped through [`params_mut`](Self::params_mut) ([`FrameParamsMut`], whose changes the next launch applies if its `apply` did not), all of them by [`set_params`](Self::set_params); or update it from another [`Frame`] ([`update`](Self::update)), or one node through its handle. Which node reads which param is known when the macro runs: a change updates the nodes that read it, each once, with nothing else compared.

A change is made whole or not at all. One that a node refuses (the driver or a kernel's check, params that would make two nodes race, or a change CUDA cannot make, such as an allocation's length) is the error of the setter, `apply`, `set_params` or launch that tried it, naming the node, and is undone: every param changed since the last update gets back the value the nodes were last updated from (the executable keeps a copy of those), the nodes updated before the refusal are set back, and nothing stays pending, so the next launch runs what ran before. A panic in your code that a change runs (a node expression, a param's `Clone`, `PartialEq` or `Drop`) may stop it part way: caught, it leaves the executable refusing updates and launches (`Error::Invalid`) until a whole-graph update. Memory the executable stops using is released once the launches that may use it are done.

Nodes:

- [`ready()`](Self::ready): semaphore_wait node
- [`run()`](Self::run): kernel node
- [`done()`](Self::done): semaphore_signal node
*/
struct FrameExec {
    parts: ::cudagraph_runtime::__private::Guarded<__FrameExecParts>,
}
#[doc(hidden)]
#[allow(non_camel_case_types)]
struct __FrameExecParts {
    exec: ::cudagraph_runtime::__private::GraphExec<'static>,
    nodes: ::cudagraph_runtime::__private::Box<
        ::cudagraph_runtime::__private::ManuallyDrop<__FrameNodes>,
    >,
    state: __FrameState,
    /// A copy of the params as the nodes were last updated from them: what a refused
    /// change puts back (see `__private::apply`).
    applied: ::cudagraph_runtime::__private::Box<FrameParams>,
    /// The nodes that disagree with the params (see `__private::Tracker`).
    tracker: ::cudagraph_runtime::__private::Tracker,
}
impl FrameExec {
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
            ::cudagraph_runtime::__private::ManuallyDrop<__FrameNodes>,
        >,
        state: __FrameState,
        applied: ::cudagraph_runtime::__private::Box<FrameParams>,
    ) -> Self {
        let tracker = ::cudagraph_runtime::__private::Tracker::new(3usize, 5usize);
        let __cg_parts = __FrameExecParts {
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
    /**Whole-graph update from a [`Frame`] built with other params (`cuGraphExecUpdate`).

Only a graph of this declaration is accepted: it was built by the same sequence of calls, so its nodes pair with this executable's ([whole-graph update](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#whole-graph-update)). Afterwards the executable owns a copy of that graph's params (what [`params`](Self::params) shows), and changes made to its own params and not applied yet are dropped.*/
    pub fn update<__CgSame: ::cudagraph_runtime::__private::SameDeclaration<Frame>>(
        &mut self,
        source: &__CgSame,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let source: &Frame = ::cudagraph_runtime::__private::SameDeclaration::same(
            source,
        );
        let params = Frame::__cg_own(&source.parts.state.params)?;
        let applied = Frame::__cg_own(&source.parts.state.params)?;
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
    /**Replaces the executable's params with `params` as a whole: each param that differs from the executable's own is copied in, then the nodes that read a changed param (or were set through their handle since) are updated, each once, with one single-node update. Afterwards the nodes are what [`Frame::build`] would make from `params`. Returns how many nodes it updated. Enabled/disabled states are kept.

It compares every param, so its cost grows with the declaration: to change a few params, set them (the setters `set_<param>`, [`params_mut`](Self::params_mut)), which updates only their readers. A param is compared with `PartialEq`, a kernel by function, a declared graph by identity; a runtime `Graph` counts as changed every time. A kernel param may change function (same parameter list, same context): the node's single-node update switches it.

Params under which two nodes that may run at the same time share memory, one writing it, are refused as by [`Frame::build`], with nothing changed. So is any update a node refuses: the error names the node, and the params and the nodes updated before it are set back to what they were.*/
    pub fn set_params(
        &mut self,
        __cg_params: &FrameParams,
    ) -> ::cudagraph_runtime::__private::Result<::core::primitive::usize> {
        Frame::__cg_check_overlaps(__cg_params)?;
        self.__cg_take_0(__cg_params);
        ::cudagraph_runtime::__private::set_all(self)
    }
    ///The params the executable runs: those it was built from, with every change made since through the setters (`set_<param>`), [`params_mut`](Self::params_mut), [`set_params`](Self::set_params) or [`update`](Self::update). Host code reads the buffers among them as any buffer's holder does: `exec.params().y.to_vec()` waits for the launches that may write `y`.
    pub fn params(&self) -> &FrameParams {
        &self.parts.state.params
    }
    /**A guard through which to change several params at once, or to swap two: [`FrameParamsMut`]'s `set_<param>` and [`swap`](FrameParamsMut::swap) change the params (read them through the guard) and mark the nodes that read them; [`FrameParamsMut::apply`] updates those nodes, each once however many of its params changed, and if the guard is dropped instead, the next [`launch`](Self::launch) does. Either reports an update the driver or a kernel's check refuses as an error naming the node, and undoes the changes (the params and the nodes are as they were before them); nothing is lost when the guard is dropped.

```text
exec.params_mut().swap(|p| (&mut p.x, &mut p.x_new))?; // the ping-pong of a solver
exec.launch(&stream)?;                                 // updates x's and x_new's readers
```*/
    pub fn params_mut(&mut self) -> FrameParamsMut<'_> {
        FrameParamsMut { exec: self }
    }
    /// The params, taking the executable apart (it is dropped; memory its launches may
    /// still use stays alive until they are done).
    pub fn into_params(self) -> FrameParams {
        *self.parts.into_inner().state.params
    }
    /// The runtime executable, for what the typed API does not cover (read-only).
    pub fn as_exec(&self) -> &::cudagraph_runtime::__private::GraphExec<'static> {
        &self.parts.exec
    }
    #[inline(never)]
    fn __cg_take_0(&mut self, __cg_params: &FrameParams) {
        let __cg_parts = unsafe { self.parts.get_mut() };
        if !(<Kernel<
            (u32, DevicePtrMut<u32>),
        > as ::cudagraph_runtime::__private::KernelType>::function_id(&__cg_params.step)
            == <Kernel<
                (u32, DevicePtrMut<u32>),
            > as ::cudagraph_runtime::__private::KernelType>::function_id(
                &__cg_parts.state.params.step,
            ))
        {
            let value = <Kernel<
                (u32, DevicePtrMut<u32>),
            > as ::cudagraph_runtime::__private::KernelType>::keep(&__cg_params.step);
            ::cudagraph_runtime::__private::stage_in::<
                Self,
            >(&mut __cg_parts.tracker, 0usize);
            __cg_parts.state.params.step = value;
        }
        if !(<DeviceBuffer<
            u32,
        > as ::cudagraph_runtime::__private::ParamValue>::same(
            &__cg_params.image,
            &__cg_parts.state.params.image,
        )) {
            let value = <DeviceBuffer<
                u32,
            > as ::cudagraph_runtime::__private::ParamValue>::keep(&__cg_params.image);
            ::cudagraph_runtime::__private::stage_in::<
                Self,
            >(&mut __cg_parts.tracker, 1usize);
            __cg_parts.state.params.image = value;
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
        if !(<u64 as ::cudagraph_runtime::__private::ParamValue>::same(
            &__cg_params.frame,
            &__cg_parts.state.params.frame,
        )) {
            let value = <u64 as ::cudagraph_runtime::__private::ParamValue>::keep(
                &__cg_params.frame,
            );
            ::cudagraph_runtime::__private::stage_in::<
                Self,
            >(&mut __cg_parts.tracker, 3usize);
            __cg_parts.state.params.frame = value;
        }
        if !(<ExternalSemaphore as ::cudagraph_runtime::__private::ParamValue>::same(
            &__cg_params.sem,
            &__cg_parts.state.params.sem,
        )) {
            let value = <ExternalSemaphore as ::cudagraph_runtime::__private::ParamValue>::keep(
                &__cg_params.sem,
            );
            ::cudagraph_runtime::__private::stage_in::<
                Self,
            >(&mut __cg_parts.tracker, 4usize);
            __cg_parts.state.params.sem = value;
        }
    }
    ///Node `ready` (`wait(sem = 2 * frame + 1)`): its update handle.
    pub fn ready(&mut self) -> FrameReadyNode<'_> {
        FrameReadyNode { exec: self }
    }
    ///Node `run` (`kernel step<<<n.div_ceil(256), 256>>>(n, image)`): its update handle.
    pub fn run(&mut self) -> FrameRunNode<'_> {
        FrameRunNode { exec: self }
    }
    ///Node `done` (`signal(sem = 2 * frame + 2)`): its update handle.
    pub fn done(&mut self) -> FrameDoneNode<'_> {
        FrameDoneNode { exec: self }
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for FrameExec {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("FrameExec")
            .field("exec", &self.parts.exec)
            .finish_non_exhaustive()
    }
}
impl Frame {
    /// A copy of `params`, for the graph and then its executable to keep: made field by
    /// field in place on the heap, a few dozen fields per function.
    #[allow(unused_variables, unused_unsafe)]
    fn __cg_own(
        __cg_params: &FrameParams,
    ) -> ::cudagraph_runtime::__private::Result<
        ::cudagraph_runtime::__private::Box<FrameParams>,
    > {
        let mut out = ::cudagraph_runtime::__private::Box::<FrameParams>::new_uninit();
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
    unsafe fn __cg_own_0(__cg_params: &FrameParams, dst: *mut FrameParams) {
        unsafe {
            (&raw mut (*dst).step)
                .write(
                    <Kernel<
                        (u32, DevicePtrMut<u32>),
                    > as ::cudagraph_runtime::__private::KernelType>::keep(
                        &__cg_params.step,
                    ),
                );
            (&raw mut (*dst).image)
                .write(
                    <DeviceBuffer<
                        u32,
                    > as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_params.image,
                    ),
                );
            (&raw mut (*dst).n)
                .write(
                    <u32 as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_params.n,
                    ),
                );
            (&raw mut (*dst).frame)
                .write(
                    <u64 as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_params.frame,
                    ),
                );
            (&raw mut (*dst).sem)
                .write(
                    <ExternalSemaphore as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_params.sem,
                    ),
                );
        }
    }
}
///The params of a [`FrameParams`] as [`FrameParamsMut::swap`] names them: a field per param, of the same name, holding no value (a `Slot` per param, an array of them per array param whose elements are params of their own). Given to `swap`'s `pick` instead of the params, so that it names the two to swap and cannot change any: `|p| (&mut p.x, &mut p.x_new)`. None can be made outside `swap`.
#[repr(C)]
#[allow(clippy::type_complexity)]
struct FrameSlots {
    ///Param [`step`](FrameParams::step), to swap.
    pub step: ::cudagraph_runtime::__private::Slot<Kernel<(u32, DevicePtrMut<u32>)>>,
    ///Param [`image`](FrameParams::image), to swap.
    pub image: ::cudagraph_runtime::__private::Slot<DeviceBuffer<u32>>,
    ///Param [`n`](FrameParams::n), to swap.
    pub n: ::cudagraph_runtime::__private::Slot<u32>,
    ///Param [`frame`](FrameParams::frame), to swap.
    pub frame: ::cudagraph_runtime::__private::Slot<u64>,
    ///Param [`sem`](FrameParams::sem), to swap.
    pub sem: ::cudagraph_runtime::__private::Slot<ExternalSemaphore>,
}
const _: () = {
    ::core::assert!(
        ::cudagraph_runtime::__private::offset_of!(FrameSlots, step) == 0usize
    );
    ::core::assert!(
        ::cudagraph_runtime::__private::offset_of!(FrameSlots, image) == 1usize
    );
    ::core::assert!(::cudagraph_runtime::__private::offset_of!(FrameSlots, n) == 2usize);
    ::core::assert!(
        ::cudagraph_runtime::__private::offset_of!(FrameSlots, frame) == 3usize
    );
    ::core::assert!(
        ::cudagraph_runtime::__private::offset_of!(FrameSlots, sem) == 4usize
    );
    ::core::assert!(
        ::cudagraph_runtime::__private::size_of:: < FrameSlots > () == 5usize
    );
};
const _: fn(&FrameSlots, &FrameParams) = |slots, params| {
    ::cudagraph_runtime::__private::slot_of(&slots.step, &params.step);
    ::cudagraph_runtime::__private::slot_of(&slots.image, &params.image);
    ::cudagraph_runtime::__private::slot_of(&slots.n, &params.n);
    ::cudagraph_runtime::__private::slot_of(&slots.frame, &params.frame);
    ::cudagraph_runtime::__private::slot_of(&slots.sem, &params.sem);
};
impl ::cudagraph_runtime::__private::fmt::Debug for FrameSlots {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("FrameSlots").finish_non_exhaustive()
    }
}
unsafe impl ::cudagraph_runtime::__private::Tracked for FrameExec {
    type Params = FrameParams;
    type Slots = FrameSlots;
    const NAME: &'static ::core::primitive::str = "FrameExec";
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
    )] = &[
        (&[1u32], false, false),
        (&[1u32], false, false),
        (&[1u32], false, false),
        (&[0u32, 2u32], false, false),
        (&[0u32, 2u32], false, false),
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
    ) -> &mut FrameParams {
        &mut unsafe { self.parts.get_mut() }.state.params
    }
    #[inline(always)]
    fn applied_mut(
        &mut self,
        _: ::cudagraph_runtime::__private::Internal,
    ) -> &mut FrameParams {
        &mut unsafe { self.parts.get_mut() }.applied
    }
    fn check(&self) -> ::cudagraph_runtime::__private::Result<()> {
        Frame::__cg_check_overlaps(&self.parts.state.params)
    }
    #[inline]
    fn slot_offset(slot: ::core::primitive::usize) -> ::core::primitive::usize {
        match slot {
            0usize..5usize => Self::__cg_slot_offset_0(slot),
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
            0usize..5usize => self.__cg_sync_0(param, commit, key),
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
impl FrameExec {
    /**Sets param `step` and updates what reads it (node `run`), one single-node update each. Returns the old value; on error, naming the node, nothing changes: the param keeps its old value and the nodes their updates (see [`FrameExec`]).
*/
    pub fn set_step(
        &mut self,
        value: Kernel<(u32, DevicePtrMut<u32>)>,
    ) -> ::cudagraph_runtime::__private::Result<Kernel<(u32, DevicePtrMut<u32>)>> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.parts.get_mut() }.state.params.step,
            value,
        );
        {
            let commit = |exec: &mut Self| {
                let __cg_parts = unsafe { exec.parts.get_mut() };
                __cg_parts.applied.step = <Kernel<
                    (u32, DevicePtrMut<u32>),
                > as ::cudagraph_runtime::__private::KernelType>::keep(
                    &__cg_parts.state.params.step,
                );
            };
            unsafe {
                ::cudagraph_runtime::__private::set_sole_reader(
                    self,
                    0usize,
                    1usize,
                    (Self::__cg_update_node_1, 0usize),
                    commit,
                )
            }
        }
            .map(|_| old)
    }
    /**Sets param `image` and updates what reads it (node `run`), one single-node update each. Returns the old value; on error, naming the node, nothing changes: the param keeps its old value and the nodes their updates (see [`FrameExec`]).
*/
    pub fn set_image(
        &mut self,
        value: DeviceBuffer<u32>,
    ) -> ::cudagraph_runtime::__private::Result<DeviceBuffer<u32>> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.parts.get_mut() }.state.params.image,
            value,
        );
        {
            let commit = |exec: &mut Self| {
                let __cg_parts = unsafe { exec.parts.get_mut() };
                __cg_parts.applied.image = <DeviceBuffer<
                    u32,
                > as ::cudagraph_runtime::__private::ParamValue>::keep(
                    &__cg_parts.state.params.image,
                );
            };
            unsafe {
                ::cudagraph_runtime::__private::set_sole_reader(
                    self,
                    1usize,
                    1usize,
                    (Self::__cg_update_node_1, 0usize),
                    commit,
                )
            }
        }
            .map(|_| old)
    }
    /**Sets param `n` and updates what reads it (node `run`), one single-node update each. Returns the old value; on error, naming the node, nothing changes: the param keeps its old value and the nodes their updates (see [`FrameExec`]).
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
                    1usize,
                    (Self::__cg_update_node_1, 0usize),
                    commit,
                )
            }
        }
            .map(|_| old)
    }
    /**Sets param `frame` and updates what reads it (nodes `ready`, `done`), one single-node update each. Returns the old value; on error, naming the node, nothing changes: the param keeps its old value and the nodes their updates (see [`FrameExec`]).
*/
    pub fn set_frame(
        &mut self,
        value: u64,
    ) -> ::cudagraph_runtime::__private::Result<u64> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.parts.get_mut() }.state.params.frame,
            value,
        );
        ::cudagraph_runtime::__private::set_param(self, 3usize).map(|_| old)
    }
    /**Sets param `sem` and updates what reads it (nodes `ready`, `done`), one single-node update each. Returns the old value; on error, naming the node, nothing changes: the param keeps its old value and the nodes their updates (see [`FrameExec`]).
*/
    pub fn set_sem(
        &mut self,
        value: ExternalSemaphore,
    ) -> ::cudagraph_runtime::__private::Result<ExternalSemaphore> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.parts.get_mut() }.state.params.sem,
            value,
        );
        ::cudagraph_runtime::__private::set_param(self, 4usize).map(|_| old)
    }
    /**Swaps two params of one type, named by `pick` (`exec.swap(|p| (&mut p.x, &mut p.x_new))?`), and updates the nodes that read them, each once, before it returns: the ping-pong buffers of an iteration swapped between launches in one call. Returns how many nodes it updated. `pick` is given the params' slots ([`FrameSlots`]), not their values: it names two params and changes none. As [`FrameParamsMut::swap`] followed by `apply`: all or nothing (a refused update is reported, naming its node, and the swap undone), any other change pending applied with it.

Swapping two buffers the executable holds (a ping-pong) registers and releases nothing: the swap costs its readers' driver calls and the update of their records of memory.

# Errors

The error of the update that refused the swap, naming its node (a kernel's launch check, a driver error, two nodes that would race): the swap is undone.*/
    pub fn swap<S: ::cudagraph_runtime::__private::Pick>(
        &mut self,
        pick: impl FnOnce(&mut FrameSlots) -> (&mut S, &mut S),
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
        let __cg_params: &FrameParams = &__cg_parts.state.params;
        __cg_parts
            .exec
            .set_semaphore_wait(
                __cg_parts.nodes.ready,
                Frame::__cg_eval_ready(__cg_params),
            )?;
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
        let __cg_params: &FrameParams = &__cg_parts.state.params;
        let (kernel, config, args) = Frame::__cg_eval_run(__cg_params);
        __cg_parts.exec.set_kernel(__cg_parts.nodes.run, kernel, config, args)?;
        __cg_parts.state.launch.run = config;
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
        let __cg_params: &FrameParams = &__cg_parts.state.params;
        __cg_parts
            .exec
            .set_semaphore_signal(
                __cg_parts.nodes.done,
                Frame::__cg_eval_done(__cg_params),
            )?;
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline]
    fn __cg_slot_offset_0(slot: ::core::primitive::usize) -> ::core::primitive::usize {
        match slot {
            0usize => ::cudagraph_runtime::__private::offset_of!(FrameParams, step),
            1usize => ::cudagraph_runtime::__private::offset_of!(FrameParams, image),
            2usize => ::cudagraph_runtime::__private::offset_of!(FrameParams, n),
            3usize => ::cudagraph_runtime::__private::offset_of!(FrameParams, frame),
            4usize => ::cudagraph_runtime::__private::offset_of!(FrameParams, sem),
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
                    __cg_parts.applied.step = <Kernel<
                        (u32, DevicePtrMut<u32>),
                    > as ::cudagraph_runtime::__private::KernelType>::keep(
                        &__cg_parts.state.params.step,
                    );
                } else {
                    __cg_parts.state.params.step = <Kernel<
                        (u32, DevicePtrMut<u32>),
                    > as ::cudagraph_runtime::__private::KernelType>::keep(
                        &__cg_parts.applied.step,
                    );
                }
            }
            1usize => {
                if commit {
                    __cg_parts.applied.image = <DeviceBuffer<
                        u32,
                    > as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_parts.state.params.image,
                    );
                } else {
                    __cg_parts.state.params.image = <DeviceBuffer<
                        u32,
                    > as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_parts.applied.image,
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
                    __cg_parts.applied.frame = <u64 as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_parts.state.params.frame,
                    );
                } else {
                    __cg_parts.state.params.frame = <u64 as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_parts.applied.frame,
                    );
                }
            }
            4usize => {
                if commit {
                    __cg_parts.applied.sem = <ExternalSemaphore as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_parts.state.params.sem,
                    );
                } else {
                    __cg_parts.state.params.sem = <ExternalSemaphore as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_parts.applied.sem,
                    );
                }
            }
            _ => {}
        }
    }
}
/**Changes to the params of a [`FrameExec`], several at once ([`FrameExec::params_mut`]). It reads as the params (`Deref`); `set_<param>` and [`swap`](Self::swap) change them and mark the nodes that read them, and [`apply`](Self::apply) updates those nodes, each once however many of its params changed. A guard dropped without `apply` leaves the changes to the executable's next launch, which applies them first: a change cannot be forgotten. An update that fails is the error of that `apply` or launch, naming the node (the launch launches nothing), and undoes the changes: the params and the nodes are as they were before them.

```text
let mut p = exec.params_mut();
p.set_n(n);                         // its readers are updated once,
p.set_scale(0.5);                   // even those reading both
p.swap(|p| (&mut p.x, &mut p.x_new))?;
p.apply()?;                         // or: the next exec.launch(&stream)
```*/
#[must_use = "changes made through the guard are applied by `apply`, or by the next launch"]
struct FrameParamsMut<'a> {
    exec: &'a mut FrameExec,
}
impl ::cudagraph_runtime::__private::Deref for FrameParamsMut<'_> {
    type Target = FrameParams;
    fn deref(&self) -> &FrameParams {
        &self.exec.parts.state.params
    }
}
#[allow(clippy::type_complexity)]
impl FrameParamsMut<'_> {
    ///Sets param `step`, and marks what reads it (node `run`) for the guard's [`apply`](Self::apply), or the executable's next launch. Returns the old value.
    #[inline]
    pub fn set_step(
        &mut self,
        value: Kernel<(u32, DevicePtrMut<u32>)>,
    ) -> Kernel<(u32, DevicePtrMut<u32>)> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.exec.parts.get_mut() }.state.params.step,
            value,
        );
        unsafe {
            ::cudagraph_runtime::__private::stage_sole_reader(self.exec, 0usize, 1usize)
        };
        old
    }
    ///Sets param `image`, and marks what reads it (node `run`) for the guard's [`apply`](Self::apply), or the executable's next launch. Returns the old value.
    #[inline]
    pub fn set_image(&mut self, value: DeviceBuffer<u32>) -> DeviceBuffer<u32> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.exec.parts.get_mut() }.state.params.image,
            value,
        );
        unsafe {
            ::cudagraph_runtime::__private::stage_sole_reader(self.exec, 1usize, 1usize)
        };
        old
    }
    ///Sets param `n`, and marks what reads it (node `run`) for the guard's [`apply`](Self::apply), or the executable's next launch. Returns the old value.
    #[inline]
    pub fn set_n(&mut self, value: u32) -> u32 {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.exec.parts.get_mut() }.state.params.n,
            value,
        );
        unsafe {
            ::cudagraph_runtime::__private::stage_sole_reader(self.exec, 2usize, 1usize)
        };
        old
    }
    ///Sets param `frame`, and marks what reads it (nodes `ready`, `done`) for the guard's [`apply`](Self::apply), or the executable's next launch. Returns the old value.
    #[inline]
    pub fn set_frame(&mut self, value: u64) -> u64 {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.exec.parts.get_mut() }.state.params.frame,
            value,
        );
        ::cudagraph_runtime::__private::stage(self.exec, 3usize);
        old
    }
    ///Sets param `sem`, and marks what reads it (nodes `ready`, `done`) for the guard's [`apply`](Self::apply), or the executable's next launch. Returns the old value.
    #[inline]
    pub fn set_sem(&mut self, value: ExternalSemaphore) -> ExternalSemaphore {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.exec.parts.get_mut() }.state.params.sem,
            value,
        );
        ::cudagraph_runtime::__private::stage(self.exec, 4usize);
        old
    }
    /**Swaps two params of one type, named by `pick` (`p.swap(|p| (&mut p.x, &mut p.x_new))`), and marks the nodes that read them. `pick` is given the params' slots ([`FrameSlots`]), not their values: it names two params and changes none, so that the swap is the only change, and the tracker knows it. The slots of an array param are its elements' (`|p| (&mut p.w[0], &mut p.w[1])`); two arrays of slots (two array params, or runs of elements) are swapped element by element.

Never refused for slots of the struct `pick` is given (its signature allows no other).*/
    pub fn swap<S: ::cudagraph_runtime::__private::Pick>(
        &mut self,
        pick: impl FnOnce(&mut FrameSlots) -> (&mut S, &mut S),
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
impl ::cudagraph_runtime::__private::fmt::Debug for FrameParamsMut<'_> {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("FrameParamsMut").finish_non_exhaustive()
    }
}
///Update handle of node `ready` of [`FrameExec`] (`wait(sem = 2 * frame + 1)`): its semaphores and their values can change, not how many there are (CUDA cannot change the count); CUDA cannot enable or disable it ([what CUDA allows](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#individual-node-update)).
struct FrameReadyNode<'a> {
    exec: &'a mut FrameExec,
}
impl<'a> FrameReadyNode<'a> {
    ///Sets the semaphore the node waits for and the value it must reach, for the next launches (`cuGraphExecExternalSemaphoresWaitNodeSetParams`). One semaphore: CUDA cannot change how many semaphores a node waits for. The replaced semaphores stay imported until the launches that may wait for them are done.
    pub fn set(
        &mut self,
        sems: [(
            &::cudagraph_runtime::__private::ExternalSemaphore,
            ::core::primitive::u64,
        ); 1],
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.exec.parts.get_mut() };
        let set = __cg_parts.exec.set_semaphore_wait(__cg_parts.nodes.ready, sems);
        set.map(|()| __cg_parts.tracker.set_by_handle(0usize))
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
    pub fn node(&self) -> ::cudagraph_runtime::__private::SemaphoreWaitNode<1> {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.nodes.ready
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for FrameReadyNode<'_> {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("FrameReadyNode").field("index", &0usize).finish_non_exhaustive()
    }
}
/**Update handle of node `run` of [`FrameExec`] (`kernel step<<<n.div_ceil(256), 256>>>(n, image)`): its arguments and launch configuration can change, and it can be enabled or disabled ([what CUDA allows](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#individual-node-update)).

Memory given through the handle is not judged by the race rule, which judges the declaration's params: it must not be memory that a node no edge orders with this one uses, one of them writing it (host memory that host code uses is checked: `Error::Hazard`). A change of a param the node reads, or `set_params`, sets the node back to its params.*/
struct FrameRunNode<'a> {
    exec: &'a mut FrameExec,
}
impl<'a> FrameRunNode<'a> {
    ///Sets the kernel's arguments for the next launches, keeping the node's launch configuration (`cuGraphExecKernelNodeSetParams`). Memory the node stops using is released once the launches that may use it are done.
    pub fn set(
        &mut self,
        n: impl ::cudagraph_runtime::__private::KernelArg<'static, u32>,
        image: impl ::cudagraph_runtime::__private::KernelArg<'static, DevicePtrMut<u32>>,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = self.exec.parts.get();
        let config = __cg_parts.state.launch.run;
        self.set_launch(config, n, image)
    }
    ///Sets the launch configuration and the kernel's arguments for the next launches (`cuGraphExecKernelNodeSetParams`).
    pub fn set_launch(
        &mut self,
        config: ::cudagraph_runtime::__private::LaunchConfig,
        n: impl ::cudagraph_runtime::__private::KernelArg<'static, u32>,
        image: impl ::cudagraph_runtime::__private::KernelArg<'static, DevicePtrMut<u32>>,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.exec.parts.get_mut() };
        __cg_parts.exec.set_kernel_params(__cg_parts.nodes.run, config, (n, image))?;
        __cg_parts.state.launch.run = config;
        __cg_parts.tracker.set_by_handle(1usize);
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    /// The node's launch configuration now.
    pub fn launch_config(&self) -> ::cudagraph_runtime::__private::LaunchConfig {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.state.launch.run
    }
    /// Enables or disables the node for the next launches (`cuGraphNodeSetEnabled`). A
    /// disabled node acts as an empty node; params set meanwhile apply once it is enabled.
    pub fn set_enabled(
        &mut self,
        enabled: ::core::primitive::bool,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.exec.parts.get_mut() };
        __cg_parts.exec.set_enabled(__cg_parts.nodes.run, enabled)
    }
    /// Whether the node is enabled (`cuGraphNodeGetEnabled`).
    pub fn is_enabled(
        &self,
    ) -> ::cudagraph_runtime::__private::Result<::core::primitive::bool> {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.exec.is_enabled(__cg_parts.nodes.run)
    }
    /// The node's runtime handle, for the runtime's own API.
    pub fn node(
        &self,
    ) -> ::cudagraph_runtime::__private::KernelNode<(u32, DevicePtrMut<u32>)> {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.nodes.run
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for FrameRunNode<'_> {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("FrameRunNode").field("index", &1usize).finish_non_exhaustive()
    }
}
///Update handle of node `done` of [`FrameExec`] (`signal(sem = 2 * frame + 2)`): its semaphores and their values can change, not how many there are (CUDA cannot change the count); CUDA cannot enable or disable it ([what CUDA allows](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#individual-node-update)).
struct FrameDoneNode<'a> {
    exec: &'a mut FrameExec,
}
impl<'a> FrameDoneNode<'a> {
    ///Sets the semaphore the node signals and the value it is set to, for the next launches (`cuGraphExecExternalSemaphoresSignalNodeSetParams`). One semaphore: CUDA cannot change how many semaphores a node signals. The replaced semaphores stay imported until the launches that may signal them are done.
    pub fn set(
        &mut self,
        sems: [(
            &::cudagraph_runtime::__private::ExternalSemaphore,
            ::core::primitive::u64,
        ); 1],
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.exec.parts.get_mut() };
        let set = __cg_parts.exec.set_semaphore_signal(__cg_parts.nodes.done, sems);
        set.map(|()| __cg_parts.tracker.set_by_handle(2usize))
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
    pub fn node(&self) -> ::cudagraph_runtime::__private::SemaphoreSignalNode<1> {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.nodes.done
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for FrameDoneNode<'_> {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("FrameDoneNode").field("index", &2usize).finish_non_exhaustive()
    }
}
fn main() {}
