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
/**The params of [`Frame`]: what its nodes are built from ([`Frame::build`]), and what [`FrameExec::set_params`] compares to update only the nodes whose inputs changed.

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
    graph: ::cudagraph_runtime::__private::Graph<'static>,
    nodes: ::cudagraph_runtime::__private::Box<
        ::cudagraph_runtime::__private::ManuallyDrop<__FrameNodes>,
    >,
    state: __FrameState,
    build_id: u64,
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
#[allow(non_camel_case_types, non_snake_case, dead_code, clippy::type_complexity)]
struct __FrameSnapshot0 {
    step: usize,
    image: DeviceBuffer<u32>,
    n: u32,
    frame: u64,
    sem: ExternalSemaphore,
}
impl __FrameSnapshot0 {
    #[inline(never)]
    fn __cg_keep(__cg_params: &FrameParams) -> Self {
        Self {
            step: <Kernel<
                (u32, DevicePtrMut<u32>),
            > as ::cudagraph_runtime::__private::KernelType>::function_id(
                &__cg_params.step,
            ),
            image: <DeviceBuffer<
                u32,
            > as ::cudagraph_runtime::__private::ParamValue>::keep(&__cg_params.image),
            n: <u32 as ::cudagraph_runtime::__private::ParamValue>::keep(&__cg_params.n),
            frame: <u64 as ::cudagraph_runtime::__private::ParamValue>::keep(
                &__cg_params.frame,
            ),
            sem: <ExternalSemaphore as ::cudagraph_runtime::__private::ParamValue>::keep(
                &__cg_params.sem,
            ),
        }
    }
}
impl ::cudagraph_runtime::__private::Clone for __FrameSnapshot0 {
    #[inline(never)]
    fn clone(&self) -> Self {
        Self {
            step: self.step,
            image: <DeviceBuffer<
                u32,
            > as ::cudagraph_runtime::__private::ParamValue>::keep(&self.image),
            n: <u32 as ::cudagraph_runtime::__private::ParamValue>::keep(&self.n),
            frame: <u64 as ::cudagraph_runtime::__private::ParamValue>::keep(
                &self.frame,
            ),
            sem: <ExternalSemaphore as ::cudagraph_runtime::__private::ParamValue>::keep(
                &self.sem,
            ),
        }
    }
}
#[doc(hidden)]
#[allow(non_camel_case_types)]
struct __FrameSnapshot {
    __cg_kept_0: __FrameSnapshot0,
}
impl __FrameSnapshot {
    /// What the executable keeps of `params`.
    #[allow(unused_variables)]
    fn __cg_keep(__cg_params: &FrameParams) -> Self {
        Self {
            __cg_kept_0: __FrameSnapshot0::__cg_keep(__cg_params),
        }
    }
}
impl ::cudagraph_runtime::__private::Clone for __FrameSnapshot {
    fn clone(&self) -> Self {
        Self {
            __cg_kept_0: ::cudagraph_runtime::__private::Clone::clone(&self.__cg_kept_0),
        }
    }
}
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
    params: __FrameSnapshot,
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
    pub const fn topology_svg() -> &'static str {
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
        __cg_params: &FrameParams,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        Self::__cg_check_overlaps(__cg_params)?;
        self.build_id = ::cudagraph_runtime::__private::next_build_id();
        self.graph.clear()?;
        let (nodes, state) = Self::__cg_add_nodes(&mut self.graph, __cg_params)?;
        ::cudagraph_runtime::__private::built(&self.graph, "Frame");
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
        __cg_params: &FrameParams,
    ) -> ::cudagraph_runtime::__private::Result<
        (
            ::cudagraph_runtime::__private::Box<
                ::cudagraph_runtime::__private::ManuallyDrop<__FrameNodes>,
            >,
            __FrameState,
        ),
    > {
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
                params: __FrameSnapshot::__cg_keep(__cg_params),
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
                ::cudagraph_runtime::__private::Result::Ok((
                    __cg_graph.add_kernel(kernel, config, args, &[nodes.ready.id()])?,
                    config,
                ))
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
        &self.graph
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
        ::cudagraph_runtime::__private::Result::Ok(FrameExec {
            exec: self.graph.instantiate_with(flags, upload)?,
            nodes: self.nodes,
            state: self.state,
            dirty: [false; 3usize],
            stamps: ::cudagraph_runtime::__private::zeros(3usize),
            generation: 0,
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
    ) -> [(&'__cg_p ::cudagraph_runtime::__private::ExternalSemaphore, u64); 1] {
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
    ) -> [(&'__cg_p ::cudagraph_runtime::__private::ExternalSemaphore, u64); 1] {
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
        f.debug_struct("Frame").field("graph", &self.graph).finish_non_exhaustive()
    }
}
impl ::cudagraph_runtime::__private::BodyRules for Frame {
    const FORBIDDEN_IN_BODY: ::cudagraph_runtime::__private::Option<&'static str> = {
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
impl ::cudagraph_runtime::__private::ChildGraph for Frame {
    fn graph(&self) -> &::cudagraph_runtime::__private::Graph<'static> {
        &self.graph
    }
    fn identity(&self) -> ::cudagraph_runtime::__private::Option<u64> {
        ::cudagraph_runtime::__private::Option::Some(self.build_id)
    }
}
impl ::cudagraph_runtime::__private::SameDeclaration<Frame> for Frame {
    fn same(&self) -> &Frame {
        self
    }
}
/**[`Frame`], instantiated: launch it, update it from another [`Frame`] or with [`set_params`](Self::set_params), or update one node through its handle:

- [`ready()`](Self::ready): semaphore_wait node
- [`run()`](Self::run): kernel node
- [`done()`](Self::done): semaphore_signal node
*/
struct FrameExec {
    exec: ::cudagraph_runtime::__private::GraphExec<'static>,
    nodes: ::cudagraph_runtime::__private::Box<
        ::cudagraph_runtime::__private::ManuallyDrop<__FrameNodes>,
    >,
    state: __FrameState,
    /// Nodes set through their handles since the last `set_params`: it sets them again.
    dirty: [bool; 3usize],
    /// Per node, the number of the last `set_params_only` call naming several params that
    /// updated it (so that it updates each node once).
    stamps: ::cudagraph_runtime::__private::Box<[u32]>,
    /// The number of the last such call.
    generation: u32,
}
impl FrameExec {
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
    /**Whole-graph update from a [`Frame`] built with other params (`cuGraphExecUpdate`).

Only a graph of this declaration is accepted: it was built by the same sequence of calls, so its nodes pair with this executable's ([whole-graph update](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#whole-graph-update)). Afterwards the executable runs that graph's params, and [`set_params`](Self::set_params) compares with them.*/
    pub fn update<__CgSame: ::cudagraph_runtime::__private::SameDeclaration<Frame>>(
        &mut self,
        source: &__CgSame,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let source: &Frame = ::cudagraph_runtime::__private::SameDeclaration::same(
            source,
        );
        self.exec.update(&source.graph)?;
        self.state.params = source.state.params.clone();
        *self.state.launch = *source.state.launch;
        self.dirty = [false; 3usize];
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    /**Makes the executable's nodes what [`Frame::build`] would make from `params`, with one single-node update per node whose inputs changed since the last build, update or `set_params` (or that was set through its handle since). Returns how many nodes it updated. Enabled/disabled states are kept.

A param is compared with `PartialEq`, a kernel by function, a declared graph by identity; a runtime `Graph` counts as changed every time. A kernel param may change function (same parameter list, same context): the node's single-node update switches it.*/
    pub fn set_params(
        &mut self,
        __cg_params: &FrameParams,
    ) -> ::cudagraph_runtime::__private::Result<usize> {
        Frame::__cg_check_overlaps(__cg_params)?;
        #[allow(unused_mut)]
        let mut changed = [false; 5usize];
        self.__cg_changed_0(__cg_params, &mut changed);
        let mut updated = 0usize;
        #[allow(clippy::type_complexity)]
        const READS: &[(
            usize,
            &[usize],
            fn(
                &mut FrameExec,
                &FrameParams,
            ) -> ::cudagraph_runtime::__private::Result<()>,
        )] = &[
            (0usize, &[3usize, 4usize], FrameExec::__cg_update_node_0),
            (1usize, &[0usize, 1usize, 2usize], FrameExec::__cg_update_node_1),
            (2usize, &[3usize, 4usize], FrameExec::__cg_update_node_2),
        ];
        for &(pos, reads, update) in READS {
            if self.dirty[pos] || reads.iter().any(|&i| changed[i]) {
                self.dirty[pos] = true;
                update(self, __cg_params)?;
                updated += 1;
            }
        }
        for (changed, &(_, commit)) in changed.iter().zip(Self::__CG_PARAMS) {
            if *changed {
                commit(self, __cg_params)?;
            }
        }
        self.dirty = [false; 3usize];
        ::cudagraph_runtime::__private::Result::Ok(updated)
    }
    /// The runtime executable, for what the typed API does not cover (read-only).
    pub fn as_exec(&self) -> &::cudagraph_runtime::__private::GraphExec<'static> {
        &self.exec
    }
    #[inline(never)]
    fn __cg_changed_0(&self, __cg_params: &FrameParams, changed: &mut [bool; 5usize]) {
        changed[0usize] = !(<Kernel<
            (u32, DevicePtrMut<u32>),
        > as ::cudagraph_runtime::__private::KernelType>::function_id(&__cg_params.step)
            == self.state.params.__cg_kept_0.step);
        changed[1usize] = !(<DeviceBuffer<
            u32,
        > as ::cudagraph_runtime::__private::ParamValue>::same(
            &__cg_params.image,
            &self.state.params.__cg_kept_0.image,
        ));
        changed[2usize] = !(<u32 as ::cudagraph_runtime::__private::ParamValue>::same(
            &__cg_params.n,
            &self.state.params.__cg_kept_0.n,
        ));
        changed[3usize] = !(<u64 as ::cudagraph_runtime::__private::ParamValue>::same(
            &__cg_params.frame,
            &self.state.params.__cg_kept_0.frame,
        ));
        changed[4usize] = !(<ExternalSemaphore as ::cudagraph_runtime::__private::ParamValue>::same(
            &__cg_params.sem,
            &self.state.params.__cg_kept_0.sem,
        ));
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
        f.debug_struct("FrameExec").field("exec", &self.exec).finish_non_exhaustive()
    }
}
///The params of [`FrameParams`], one variant each: what [`FrameExec::set_params_only`] is told changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(dead_code)]
enum FrameParam {
    ///Param `step`.
    Step,
    ///Param `image`.
    Image,
    ///Param `n`.
    N,
    ///Param `frame`.
    Frame,
    ///Param `sem`.
    Sem,
}
impl FrameExec {
    /**Like [`set_params`](Self::set_params), for callers that know what they changed: updates the nodes whose expressions read a param in `changed` (each once), and only them, so its cost grows with the nodes updated, not with the graph. Returns how many nodes it updated.

A changed param missing from `changed` leaves its nodes as they were (the executable keeps alive whatever memory they use); nodes set through their handles are not reset (`set_params` does both). Params that share memory with another under nodes that may run at the same time are refused as by [`Frame::build`].*/
    pub fn set_params_only(
        &mut self,
        __cg_params: &FrameParams,
        changed: &[FrameParam],
    ) -> ::cudagraph_runtime::__private::Result<usize> {
        Frame::__cg_check_overlaps(__cg_params)?;
        for &__cg_param in changed {
            match __cg_param {
                FrameParam::Step => {}
                FrameParam::Image => {}
                FrameParam::N => {}
                FrameParam::Frame => {}
                FrameParam::Sem => {}
            }
        }
        let mut updated = 0usize;
        if let [__cg_param] = changed {
            let (readers, commit) = Self::__CG_PARAMS[*__cg_param as usize];
            for &(_, update) in readers {
                update(self, __cg_params)?;
                updated += 1;
            }
            commit(self, __cg_params)?;
            return ::cudagraph_runtime::__private::Result::Ok(updated);
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamps.fill(0);
            self.generation = 1;
        }
        let stamp = self.generation;
        for &__cg_param in changed {
            for &(pos, update) in Self::__CG_PARAMS[__cg_param as usize].0 {
                if self.stamps[pos] != stamp {
                    self.stamps[pos] = stamp;
                    update(self, __cg_params)?;
                    updated += 1;
                }
            }
        }
        for &__cg_param in changed {
            (Self::__CG_PARAMS[__cg_param as usize].1)(self, __cg_params)?;
        }
        ::cudagraph_runtime::__private::Result::Ok(updated)
    }
    #[allow(clippy::type_complexity)]
    const __CG_PARAMS: &'static [(
        &'static [(
            usize,
            fn(&mut Self, &FrameParams) -> ::cudagraph_runtime::__private::Result<()>,
        )],
        fn(&mut Self, &FrameParams) -> ::cudagraph_runtime::__private::Result<()>,
    )] = &[
        (&[(1usize, Self::__cg_update_node_1)], Self::__cg_commit_0),
        (&[(1usize, Self::__cg_update_node_1)], Self::__cg_commit_1),
        (&[(1usize, Self::__cg_update_node_1)], Self::__cg_commit_2),
        (
            &[(0usize, Self::__cg_update_node_0), (2usize, Self::__cg_update_node_2)],
            Self::__cg_commit_3,
        ),
        (
            &[(0usize, Self::__cg_update_node_0), (2usize, Self::__cg_update_node_2)],
            Self::__cg_commit_4,
        ),
    ];
    #[inline(never)]
    fn __cg_commit_0(
        &mut self,
        __cg_params: &FrameParams,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        self.state.params.__cg_kept_0.step = <Kernel<
            (u32, DevicePtrMut<u32>),
        > as ::cudagraph_runtime::__private::KernelType>::function_id(&__cg_params.step);
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline(never)]
    fn __cg_commit_1(
        &mut self,
        __cg_params: &FrameParams,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        self.state.params.__cg_kept_0.image = <DeviceBuffer<
            u32,
        > as ::cudagraph_runtime::__private::ParamValue>::keep(&__cg_params.image);
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline(never)]
    fn __cg_commit_2(
        &mut self,
        __cg_params: &FrameParams,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        self.state.params.__cg_kept_0.n = <u32 as ::cudagraph_runtime::__private::ParamValue>::keep(
            &__cg_params.n,
        );
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline(never)]
    fn __cg_commit_3(
        &mut self,
        __cg_params: &FrameParams,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        self.state.params.__cg_kept_0.frame = <u64 as ::cudagraph_runtime::__private::ParamValue>::keep(
            &__cg_params.frame,
        );
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline(never)]
    fn __cg_commit_4(
        &mut self,
        __cg_params: &FrameParams,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        self.state.params.__cg_kept_0.sem = <ExternalSemaphore as ::cudagraph_runtime::__private::ParamValue>::keep(
            &__cg_params.sem,
        );
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline(never)]
    #[allow(unused_variables)]
    fn __cg_update_node_0(
        &mut self,
        __cg_params: &FrameParams,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        self.exec
            .set_semaphore_wait(self.nodes.ready, Frame::__cg_eval_ready(__cg_params))?;
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline(never)]
    #[allow(unused_variables)]
    fn __cg_update_node_1(
        &mut self,
        __cg_params: &FrameParams,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let (kernel, config, args) = Frame::__cg_eval_run(__cg_params);
        self.exec.set_kernel(self.nodes.run, kernel, config, args)?;
        self.state.launch.run = config;
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline(never)]
    #[allow(unused_variables)]
    fn __cg_update_node_2(
        &mut self,
        __cg_params: &FrameParams,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        self.exec
            .set_semaphore_signal(self.nodes.done, Frame::__cg_eval_done(__cg_params))?;
        ::cudagraph_runtime::__private::Result::Ok(())
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
        sems: [(&::cudagraph_runtime::__private::ExternalSemaphore, u64); 1],
    ) -> ::cudagraph_runtime::__private::Result<()> {
        self.exec.dirty[0usize] = true;
        self.exec.exec.set_semaphore_wait(self.exec.nodes.ready, sems)
    }
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
    pub fn node(&self) -> ::cudagraph_runtime::__private::SemaphoreWaitNode<1> {
        self.exec.nodes.ready
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
///Update handle of node `run` of [`FrameExec`] (`kernel step<<<n.div_ceil(256), 256>>>(n, image)`): its arguments and launch configuration can change, and it can be enabled or disabled ([what CUDA allows](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#individual-node-update)).
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
        let config = self.exec.state.launch.run;
        self.set_launch(config, n, image)
    }
    ///Sets the launch configuration and the kernel's arguments for the next launches (`cuGraphExecKernelNodeSetParams`).
    pub fn set_launch(
        &mut self,
        config: ::cudagraph_runtime::__private::LaunchConfig,
        n: impl ::cudagraph_runtime::__private::KernelArg<'static, u32>,
        image: impl ::cudagraph_runtime::__private::KernelArg<'static, DevicePtrMut<u32>>,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        self.exec.dirty[1usize] = true;
        self.exec.exec.set_kernel_params(self.exec.nodes.run, config, (n, image))?;
        self.exec.state.launch.run = config;
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    /// The node's launch configuration now.
    pub fn launch_config(&self) -> ::cudagraph_runtime::__private::LaunchConfig {
        self.exec.state.launch.run
    }
    /// Enables or disables the node for the next launches (`cuGraphNodeSetEnabled`). A
    /// disabled node acts as an empty node; params set meanwhile apply once it is enabled.
    pub fn set_enabled(
        &mut self,
        enabled: bool,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        self.exec.exec.set_enabled(self.exec.nodes.run, enabled)
    }
    /// Whether the node is enabled (`cuGraphNodeGetEnabled`).
    pub fn is_enabled(&self) -> ::cudagraph_runtime::__private::Result<bool> {
        self.exec.exec.is_enabled(self.exec.nodes.run)
    }
    /// The node's runtime handle, for the runtime's own API.
    pub fn node(
        &self,
    ) -> ::cudagraph_runtime::__private::KernelNode<(u32, DevicePtrMut<u32>)> {
        self.exec.nodes.run
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
        sems: [(&::cudagraph_runtime::__private::ExternalSemaphore, u64); 1],
    ) -> ::cudagraph_runtime::__private::Result<()> {
        self.exec.dirty[2usize] = true;
        self.exec.exec.set_semaphore_signal(self.exec.nodes.done, sems)
    }
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
    pub fn node(&self) -> ::cudagraph_runtime::__private::SemaphoreSignalNode<1> {
        self.exec.nodes.done
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
