//! A `#[device_launch]` declaration: the graph type gains `instantiate_for_device_launch`, and the
//! attribute goes to no generated item. A kernel given its handle as a param: what the launched
//! graph uses is checked against the nodes not ordered before the launching kernel. The params a
//! memcpy copies are asked whether they are buffers a device graph may copy.
use cudagraph_runtime::prelude::*;
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
        use ::cudagraph_runtime::__private::LaunchFallback as _;
        <::cudagraph_runtime::__private::LaunchProbe<HostBuffer<u32>>>::IS_LAUNCH
            || <::cudagraph_runtime::__private::ParamProbe<HostBuffer<u32>>>::IS_HANDLE
    }) {
        ::cudagraph_runtime::__private::fail(
            ({
                use ::cudagraph_runtime::__private::LaunchFallback as _;
                if <::cudagraph_runtime::__private::LaunchProbe<
                    HostBuffer<u32>,
                >>::IS_LAUNCH {
                    "`HostBuffer<u32>` here is a device graph's handle, not memory: `cuda_graph!` takes a type written `HostBuffer<u32>` for memory, and would not check what a kernel given it may launch; give the import or alias another name"
                } else {
                    "`HostBuffer<u32>` here is a `ConditionalHandle`, not memory: `cuda_graph!` takes a type written `HostBuffer<u32>` for memory, and a handle is made by the conditional node that reads it (`name: while h { ... }`), never a param; remove the param, and give the import or alias another name"
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
        use ::cudagraph_runtime::__private::DeviceCopyFallback as _;
        !<::cudagraph_runtime::__private::DeviceCopyProbe<
            DeviceBuffer<u32>,
        >>::DEVICE_COPY
    }) {
        ::cudagraph_runtime::__private::fail(
            "memcpy `copy` of `#[device_launch]` graph `Worker` copies param `counter`, a `DeviceBuffer<u32>`, which is not the runtime's `DeviceBuffer<T>` or `HostBuffer<T>` (whatever name it is written with): CUDA lets a graph launched from the device copy only device memory and device-mapped page-locked host memory (https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#device-graph-requirements); give `counter` one of those types (an alias of one is fine), or copy it in a graph the host launches",
        )
    }
};
const _: () = {
    #[allow(unused_imports)]
    use ::cudagraph_runtime::__private::{
        ArgsFallback as _, BodyFallback as _, ParamFallback as _, SlotFallback as _,
    };
    if ({
        use ::cudagraph_runtime::__private::DeviceCopyFallback as _;
        !<::cudagraph_runtime::__private::DeviceCopyProbe<HostBuffer<u32>>>::DEVICE_COPY
    }) {
        ::cudagraph_runtime::__private::fail(
            "memcpy `copy` of `#[device_launch]` graph `Worker` copies param `mirror`, a `HostBuffer<u32>`, which is not the runtime's `DeviceBuffer<T>` or `HostBuffer<T>` (whatever name it is written with): CUDA lets a graph launched from the device copy only device memory and device-mapped page-locked host memory (https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#device-graph-requirements); give `mirror` one of those types (an alias of one is fine), or copy it in a graph the host launches",
        )
    }
};
/**The params of [`Worker`]: what its nodes are built from ([`Worker::build`]). Its executable owns a copy ([`WorkerExec::params`]), changed through the executable (`set_<param>`, [`WorkerExec::params_mut`], [`WorkerExec::set_params`]), which updates exactly the nodes that read what changed:

- node `clear` reads `counter`
- node `bump` reads `step`, `counter`, `n`
- node `copy` reads `counter`, `mirror`
*/
#[allow(clippy::type_complexity)]
struct WorkerParams {
    ///Param `step`, read by node `bump`.
    pub step: Kernel<(u32, DevicePtrMut<u32>)>,
    ///Param `counter`, read by nodes `clear`, `bump`, `copy`.
    pub counter: DeviceBuffer<u32>,
    ///Param `mirror`, read by node `copy`.
    pub mirror: HostBuffer<u32>,
    ///Param `n`, read by node `bump`.
    pub n: u32,
}
impl ::cudagraph_runtime::__private::fmt::Debug for WorkerParams {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("WorkerParams").finish_non_exhaustive()
    }
}
/**A CUDA graph declared with `cuda_graph!`: [`Worker::build`] builds it from a [`WorkerParams`], [`Worker::instantiate`] makes it a [`WorkerExec`].

# Nodes

In build order (a node's position is its index in the graph):

0. `clear`: `memset(counter, 0u32)`
1. `bump`: `kernel step<<<1, 32>>>(n, counter)`, after `clear`
2. `copy`: `memcpy(counter -> mirror)`, after `bump`

# Topology

<div style="overflow-x:auto"><svg xmlns="http://www.w3.org/2000/svg" role="img" width="76" height="200" viewBox="0 0 76 200" font-family="monospace" font-size="14" text-anchor="middle" fill="currentColor"><title>Topology of Worker: 3 nodes, 2 edges</title><defs><marker id="cgcae3850c" viewBox="0 0 8 8" refX="8" refY="4" markerWidth="8" markerHeight="8" orient="auto"><path d="M0 0L8 4L0 8z"/></marker></defs><g fill="none" stroke="currentColor" marker-end="url(#cgcae3850c)"><path d="M38 48V80"/><path d="M38 120V152"/></g><rect x="8" y="8" width="60" height="40" rx="4" fill="#ccfbf1" stroke="#0f766e"/><text x="38" y="25" fill="#111">clear</text><text x="38" y="41" font-size="11" fill="#374151">memset</text><rect x="9" y="80" width="58" height="40" rx="4" fill="#dbeafe" stroke="#1d4ed8"/><text x="38" y="97" fill="#111">bump</text><text x="38" y="113" font-size="11" fill="#374151">kernel</text><rect x="9" y="152" width="58" height="40" rx="4" fill="#dcfce7" stroke="#15803d"/><text x="38" y="169" fill="#111">copy</text><text x="38" y="185" font-size="11" fill="#374151">memcpy</text></svg></div>

As text: `Worker::TOPOLOGY.to_mermaid()` (Mermaid) or `.to_dot()` (Graphviz).
*/
struct Worker {
    parts: ::cudagraph_runtime::__private::Guarded<__WorkerParts>,
}
#[doc(hidden)]
#[allow(non_camel_case_types)]
struct __WorkerParts {
    graph: ::cudagraph_runtime::__private::Graph<'static>,
    nodes: ::cudagraph_runtime::__private::Box<
        ::cudagraph_runtime::__private::ManuallyDrop<__WorkerNodes>,
    >,
    state: __WorkerState,
    build_id: ::core::primitive::u64,
}
#[doc(hidden)]
#[allow(non_camel_case_types, dead_code, clippy::type_complexity)]
struct __WorkerNodes {
    clear: ::cudagraph_runtime::__private::MemsetNode<
        <DeviceBuffer<u32> as ::cudagraph_runtime::__private::MemsetTarget>::Pattern,
    >,
    bump: ::cudagraph_runtime::__private::KernelNode<(u32, DevicePtrMut<u32>)>,
    copy: ::cudagraph_runtime::__private::MemcpyNode<
        <(
            DeviceBuffer<u32>,
            HostBuffer<u32>,
        ) as ::cudagraph_runtime::__private::CopyPair>::Dir,
    >,
}
unsafe impl ::cudagraph_runtime::__private::Unbuilt for __WorkerNodes {}
#[doc(hidden)]
#[allow(non_camel_case_types, non_snake_case, dead_code)]
#[derive(Clone, Copy)]
struct __WorkerLaunch {
    bump: ::cudagraph_runtime::__private::LaunchConfig,
}
unsafe impl ::cudagraph_runtime::__private::Unbuilt for __WorkerLaunch {}
#[doc(hidden)]
#[allow(non_camel_case_types)]
struct __WorkerState {
    params: ::cudagraph_runtime::__private::Box<WorkerParams>,
    launch: ::cudagraph_runtime::__private::Box<__WorkerLaunch>,
}
impl Worker {
    /// The declared shape: nodes in build order (their indices in the graph; one more
    /// with `#[indirect]` params, whose fetch node comes first), kinds and edges. Its
    /// `to_dot()` and `to_mermaid()` draw it.
    pub const TOPOLOGY: ::cudagraph_runtime::__private::Topology = ::cudagraph_runtime::__private::Topology {
        name: "Worker",
        nodes: &[
            ("clear", ::cudagraph_runtime::__private::NodeKind::Memset),
            ("bump", ::cudagraph_runtime::__private::NodeKind::Kernel),
            ("copy", ::cudagraph_runtime::__private::NodeKind::Memcpy),
        ],
        edges: &[(0usize, 1usize), (1usize, 2usize)],
        bodies: &[],
    };
    /// [`TOPOLOGY`](Self::TOPOLOGY) drawn as a standalone SVG image, laid out when the
    /// macro ran: the picture in this type's docs. Write it to a `.svg` file or put it
    /// in an HTML page; its lines and labels take the text colour of the page around it
    /// (black in a file of its own). It is in the binary only if the program calls this.
    pub const fn topology_svg() -> &'static ::core::primitive::str {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" width=\"76\" height=\"200\" viewBox=\"0 0 76 200\" font-family=\"monospace\" font-size=\"14\" text-anchor=\"middle\" fill=\"currentColor\"><title>Topology of Worker: 3 nodes, 2 edges</title><defs><marker id=\"cgcae3850c\" viewBox=\"0 0 8 8\" refX=\"8\" refY=\"4\" markerWidth=\"8\" markerHeight=\"8\" orient=\"auto\"><path d=\"M0 0L8 4L0 8z\"/></marker></defs><g fill=\"none\" stroke=\"currentColor\" marker-end=\"url(#cgcae3850c)\"><path d=\"M38 48V80\"/><path d=\"M38 120V152\"/></g><rect x=\"8\" y=\"8\" width=\"60\" height=\"40\" rx=\"4\" fill=\"#ccfbf1\" stroke=\"#0f766e\"/><text x=\"38\" y=\"25\" fill=\"#111\">clear</text><text x=\"38\" y=\"41\" font-size=\"11\" fill=\"#374151\">memset</text><rect x=\"9\" y=\"80\" width=\"58\" height=\"40\" rx=\"4\" fill=\"#dbeafe\" stroke=\"#1d4ed8\"/><text x=\"38\" y=\"97\" fill=\"#111\">bump</text><text x=\"38\" y=\"113\" font-size=\"11\" fill=\"#374151\">kernel</text><rect x=\"9\" y=\"152\" width=\"58\" height=\"40\" rx=\"4\" fill=\"#dcfce7\" stroke=\"#15803d\"/><text x=\"38\" y=\"169\" fill=\"#111\">copy</text><text x=\"38\" y=\"185\" font-size=\"11\" fill=\"#374151\">memcpy</text></svg>"
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
        __cg_params: &WorkerParams,
    ) -> ::cudagraph_runtime::__private::Result<Self> {
        Self::__cg_check_overlaps(__cg_params)?;
        let mut __cg_graph = ::cudagraph_runtime::__private::Graph::with_capacity(
            ctx,
            3usize,
        )?;
        let (nodes, state) = Self::__cg_add_nodes(&mut __cg_graph, __cg_params)?;
        ::cudagraph_runtime::__private::built(&__cg_graph, "Worker");
        let __cg_parts = __WorkerParts {
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
        __cg_params: &WorkerParams,
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
        ::cudagraph_runtime::__private::built(&__cg_parts.graph, "Worker");
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
        __cg_params: &WorkerParams,
    ) -> ::cudagraph_runtime::__private::Result<
        (
            ::cudagraph_runtime::__private::Box<
                ::cudagraph_runtime::__private::ManuallyDrop<__WorkerNodes>,
            >,
            __WorkerState,
        ),
    > {
        let owned = Self::__cg_own(__cg_params)?;
        let mut boxed = ::cudagraph_runtime::__private::unbuilt_box::<
            ::cudagraph_runtime::__private::ManuallyDrop<__WorkerNodes>,
        >();
        let mut configs = ::cudagraph_runtime::__private::unbuilt_box::<
            __WorkerLaunch,
        >();
        {
            let nodes: &mut __WorkerNodes = &mut boxed;
            #[allow(unused_variables)]
            let launches: &mut __WorkerLaunch = &mut configs;
            Self::__cg_add_0(__cg_graph, __cg_params, nodes, launches)?;
        }
        ::cudagraph_runtime::__private::Result::Ok((
            boxed,
            __WorkerState {
                params: owned,
                launch: configs,
            },
        ))
    }
    #[inline(never)]
    fn __cg_add_0(
        __cg_graph: &mut ::cudagraph_runtime::__private::Graph<'static>,
        __cg_params: &WorkerParams,
        nodes: &mut __WorkerNodes,
        launches: &mut __WorkerLaunch,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        nodes.clear = ::cudagraph_runtime::__private::add_node(
            __cg_graph,
            "clear",
            |__cg_graph| __cg_graph.add_memset(Worker::__cg_eval_clear(__cg_params), &[]),
        )?;
        (nodes.bump, launches.bump) = ::cudagraph_runtime::__private::add_node(
            __cg_graph,
            "bump",
            |__cg_graph| {
                let (kernel, config, args) = Worker::__cg_eval_bump(__cg_params);
                let added = __cg_graph
                    .add_kernel(kernel, config, args, &[nodes.clear.id()])?;
                ::cudagraph_runtime::__private::Result::Ok((added, config))
            },
        )?;
        nodes.copy = ::cudagraph_runtime::__private::add_node(
            __cg_graph,
            "copy",
            |__cg_graph| {
                __cg_graph
                    .add_memcpy(Worker::__cg_eval_copy(__cg_params), &[nodes.bump.id()])
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
        __cg_params: &WorkerParams,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        #[allow(unused_imports)]
        use ::cudagraph_runtime::__private::{
            ArgsFallback as _, BodyFallback as _, ParamFallback as _, SlotFallback as _,
        };
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    ///Instantiates the graph with default flags.
    pub fn instantiate(self) -> ::cudagraph_runtime::__private::Result<WorkerExec> {
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
    ) -> ::cudagraph_runtime::__private::Result<WorkerExec> {
        let __cg_parts = self.parts.into_inner();
        let applied = Self::__cg_own(&__cg_parts.state.params)?;
        let exec = __cg_parts.graph.instantiate_with(flags, upload)?;
        ::cudagraph_runtime::__private::Result::Ok(unsafe {
            WorkerExec::__cg_new(exec, __cg_parts.nodes, __cg_parts.state, applied)
        })
    }
    ///Instantiates the graph as an executable *bound to* `stream`: it launches there only (`launch` refuses another stream). The launches of executables bound to one stream never overlap, so they may share host memory that their host nodes write, which two executables launched anywhere may not (`Error::BufferInUse` when the second is made).
    pub fn instantiate_on(
        self,
        stream: &::cudagraph_runtime::__private::Arc<
            ::cudagraph_runtime::__private::CudaStream,
        >,
    ) -> ::cudagraph_runtime::__private::Result<WorkerExec> {
        let flags = ::cudagraph_runtime::__private::InstantiateFlags::NONE;
        let __cg_parts = self.parts.into_inner();
        let applied = Self::__cg_own(&__cg_parts.state.params)?;
        let exec = __cg_parts.graph.instantiate_on(stream, flags)?;
        ::cudagraph_runtime::__private::Result::Ok(unsafe {
            WorkerExec::__cg_new(exec, __cg_parts.nodes, __cg_parts.state, applied)
        })
    }
    /// Instantiates the graph for launch from the device and uploads it on `upload`
    /// (see `cudagraph_runtime::device_launch`): kernels launch it through its
    /// `DeviceGraphExec::handle`, given for a kernel parameter of type `DeviceGraph`.
    pub fn instantiate_for_device_launch(
        self,
        upload: &::cudagraph_runtime::__private::Arc<
            ::cudagraph_runtime::__private::CudaStream,
        >,
    ) -> ::cudagraph_runtime::__private::Result<
        ::cudagraph_runtime::__private::DeviceGraphExec,
    > {
        self.parts.into_inner().graph.instantiate_for_device_launch(upload)
    }
    #[allow(
        non_snake_case,
        unused_variables,
        clippy::type_complexity,
        clippy::needless_lifetimes
    )]
    fn __cg_eval_clear<'__cg_p>(
        __cg_params: &'__cg_p WorkerParams,
    ) -> ::cudagraph_runtime::__private::Memset<
        'static,
        <DeviceBuffer<u32> as ::cudagraph_runtime::__private::MemsetTarget>::Pattern,
    > {
        #[allow(unused_imports)]
        use ::cudagraph_runtime::__private::{BindCopy as _, BindRef as _};
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let counter = (&::cudagraph_runtime::__private::Bind(&__cg_params.counter))
            .__cg_bind();
        <DeviceBuffer<
            u32,
        > as ::cudagraph_runtime::__private::MemsetTarget>::memset(
            &__cg_params.counter,
            0u32,
        )
    }
    #[allow(
        non_snake_case,
        unused_variables,
        clippy::type_complexity,
        clippy::needless_lifetimes
    )]
    fn __cg_eval_bump<'__cg_p>(
        __cg_params: &'__cg_p WorkerParams,
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
        let counter = (&::cudagraph_runtime::__private::Bind(&__cg_params.counter))
            .__cg_bind();
        let config = ::cudagraph_runtime::__private::launch(1, 32, 0);
        let args = (
            ::cudagraph_runtime::__private::KernelArgPart::<'static, u32, _>::new(n),
            ::cudagraph_runtime::__private::KernelArgPart::<
                'static,
                DevicePtrMut<u32>,
                _,
            >::new(counter),
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
    fn __cg_eval_copy<'__cg_p>(
        __cg_params: &'__cg_p WorkerParams,
    ) -> ::cudagraph_runtime::__private::Memcpy<
        'static,
        <(
            DeviceBuffer<u32>,
            HostBuffer<u32>,
        ) as ::cudagraph_runtime::__private::CopyPair>::Dir,
    > {
        #[allow(unused_imports)]
        use ::cudagraph_runtime::__private::{BindCopy as _, BindRef as _};
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let counter = (&::cudagraph_runtime::__private::Bind(&__cg_params.counter))
            .__cg_bind();
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let mirror = (&::cudagraph_runtime::__private::Bind(&__cg_params.mirror))
            .__cg_bind();
        <(
            DeviceBuffer<u32>,
            HostBuffer<u32>,
        ) as ::cudagraph_runtime::__private::CopyPair>::memcpy(
            &__cg_params.counter,
            &__cg_params.mirror,
        )
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for Worker {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("Worker")
            .field("graph", &self.parts.graph)
            .finish_non_exhaustive()
    }
}
impl ::cudagraph_runtime::__private::BodyRules for Worker {
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
unsafe impl ::cudagraph_runtime::__private::ChildGraph for Worker {
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
impl ::cudagraph_runtime::__private::SameDeclaration<Worker> for Worker {
    fn same(&self) -> &Worker {
        self
    }
}
/**[`Worker`], instantiated, with the [`WorkerParams`] it runs, which it owns ([`params`](Self::params)).

Change a param with its setter (`exec.set_alpha(0.5)?`, one per param: it updates the nodes that read it, and returns the old value), several at once or two swapped through [`params_mut`](Self::params_mut) ([`WorkerParamsMut`], whose changes the next launch applies if its `apply` did not), all of them by [`set_params`](Self::set_params); or update it from another [`Worker`] ([`update`](Self::update)), or one node through its handle. Which node reads which param is known when the macro runs: a change updates the nodes that read it, each once, with nothing else compared.

A change is made whole or not at all. One that a node refuses (the driver or a kernel's check, params that would make two nodes race, or a change CUDA cannot make, such as an allocation's length) is the error of the setter, `apply`, `set_params` or launch that tried it, naming the node, and is undone: every param changed since the last update gets back the value the nodes were last updated from (the executable keeps a copy of those), the nodes updated before the refusal are set back, and nothing stays pending, so the next launch runs what ran before. A panic in your code that a change runs (a node expression, a param's `Clone`, `PartialEq` or `Drop`) may stop it part way: caught, it leaves the executable refusing updates and launches (`Error::Invalid`) until a whole-graph update. Memory the executable stops using is released once the launches that may use it are done.

Nodes:

- [`clear()`](Self::clear): memset node
- [`bump()`](Self::bump): kernel node
- [`copy()`](Self::copy): memcpy node
*/
struct WorkerExec {
    parts: ::cudagraph_runtime::__private::Guarded<__WorkerExecParts>,
}
#[doc(hidden)]
#[allow(non_camel_case_types)]
struct __WorkerExecParts {
    exec: ::cudagraph_runtime::__private::GraphExec<'static>,
    nodes: ::cudagraph_runtime::__private::Box<
        ::cudagraph_runtime::__private::ManuallyDrop<__WorkerNodes>,
    >,
    state: __WorkerState,
    /// A copy of the params as the nodes were last updated from them: what a refused
    /// change puts back (see `__private::apply`).
    applied: ::cudagraph_runtime::__private::Box<WorkerParams>,
    /// The nodes that disagree with the params (see `__private::Tracker`).
    tracker: ::cudagraph_runtime::__private::Tracker,
}
impl WorkerExec {
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
            ::cudagraph_runtime::__private::ManuallyDrop<__WorkerNodes>,
        >,
        state: __WorkerState,
        applied: ::cudagraph_runtime::__private::Box<WorkerParams>,
    ) -> Self {
        let tracker = ::cudagraph_runtime::__private::Tracker::new(3usize, 4usize);
        let __cg_parts = __WorkerExecParts {
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
    /**Whole-graph update from a [`Worker`] built with other params (`cuGraphExecUpdate`).

Only a graph of this declaration is accepted: it was built by the same sequence of calls, so its nodes pair with this executable's ([whole-graph update](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#whole-graph-update)). Afterwards the executable owns a copy of that graph's params (what [`params`](Self::params) shows), and changes made to its own params and not applied yet are dropped.*/
    pub fn update<__CgSame: ::cudagraph_runtime::__private::SameDeclaration<Worker>>(
        &mut self,
        source: &__CgSame,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let source: &Worker = ::cudagraph_runtime::__private::SameDeclaration::same(
            source,
        );
        let params = Worker::__cg_own(&source.parts.state.params)?;
        let applied = Worker::__cg_own(&source.parts.state.params)?;
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
    /**Replaces the executable's params with `params` as a whole: each param that differs from the executable's own is copied in, then the nodes that read a changed param (or were set through their handle since) are updated, each once, with one single-node update. Afterwards the nodes are what [`Worker::build`] would make from `params`. Returns how many nodes it updated. Enabled/disabled states are kept.

It compares every param, so its cost grows with the declaration: to change a few params, set them (the setters `set_<param>`, [`params_mut`](Self::params_mut)), which updates only their readers. A param is compared with `PartialEq`, a kernel by function, a declared graph by identity; a runtime `Graph` counts as changed every time. A kernel param may change function (same parameter list, same context): the node's single-node update switches it.

Params under which two nodes that may run at the same time share memory, one writing it, are refused as by [`Worker::build`], with nothing changed. So is any update a node refuses: the error names the node, and the params and the nodes updated before it are set back to what they were.*/
    pub fn set_params(
        &mut self,
        __cg_params: &WorkerParams,
    ) -> ::cudagraph_runtime::__private::Result<::core::primitive::usize> {
        Worker::__cg_check_overlaps(__cg_params)?;
        self.__cg_take_0(__cg_params);
        ::cudagraph_runtime::__private::set_all(self)
    }
    ///The params the executable runs: those it was built from, with every change made since through the setters (`set_<param>`), [`params_mut`](Self::params_mut), [`set_params`](Self::set_params) or [`update`](Self::update). Host code reads the buffers among them as any buffer's holder does: `exec.params().y.to_vec()` waits for the launches that may write `y`.
    pub fn params(&self) -> &WorkerParams {
        &self.parts.state.params
    }
    /**A guard through which to change several params at once, or to swap two: [`WorkerParamsMut`]'s `set_<param>` and [`swap`](WorkerParamsMut::swap) change the params (read them through the guard) and mark the nodes that read them; [`WorkerParamsMut::apply`] updates those nodes, each once however many of its params changed, and if the guard is dropped instead, the next [`launch`](Self::launch) does. Either reports an update the driver or a kernel's check refuses as an error naming the node, and undoes the changes (the params and the nodes are as they were before them); nothing is lost when the guard is dropped.

```text
exec.params_mut().swap(|p| (&mut p.x, &mut p.x_new))?; // the ping-pong of a solver
exec.launch(&stream)?;                                 // updates x's and x_new's readers
```*/
    pub fn params_mut(&mut self) -> WorkerParamsMut<'_> {
        WorkerParamsMut { exec: self }
    }
    /// The params, taking the executable apart (it is dropped; memory its launches may
    /// still use stays alive until they are done).
    pub fn into_params(self) -> WorkerParams {
        *self.parts.into_inner().state.params
    }
    /// The runtime executable, for what the typed API does not cover (read-only).
    pub fn as_exec(&self) -> &::cudagraph_runtime::__private::GraphExec<'static> {
        &self.parts.exec
    }
    #[inline(never)]
    fn __cg_take_0(&mut self, __cg_params: &WorkerParams) {
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
            &__cg_params.counter,
            &__cg_parts.state.params.counter,
        )) {
            let value = <DeviceBuffer<
                u32,
            > as ::cudagraph_runtime::__private::ParamValue>::keep(&__cg_params.counter);
            ::cudagraph_runtime::__private::stage_in::<
                Self,
            >(&mut __cg_parts.tracker, 1usize);
            __cg_parts.state.params.counter = value;
        }
        if !(<HostBuffer<
            u32,
        > as ::cudagraph_runtime::__private::ParamValue>::same(
            &__cg_params.mirror,
            &__cg_parts.state.params.mirror,
        )) {
            let value = <HostBuffer<
                u32,
            > as ::cudagraph_runtime::__private::ParamValue>::keep(&__cg_params.mirror);
            ::cudagraph_runtime::__private::stage_in::<
                Self,
            >(&mut __cg_parts.tracker, 2usize);
            __cg_parts.state.params.mirror = value;
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
            >(&mut __cg_parts.tracker, 3usize);
            __cg_parts.state.params.n = value;
        }
    }
    ///Node `clear` (`memset(counter, 0u32)`): its update handle.
    pub fn clear(&mut self) -> WorkerClearNode<'_> {
        WorkerClearNode { exec: self }
    }
    ///Node `bump` (`kernel step<<<1, 32>>>(n, counter)`): its update handle.
    pub fn bump(&mut self) -> WorkerBumpNode<'_> {
        WorkerBumpNode { exec: self }
    }
    ///Node `copy` (`memcpy(counter -> mirror)`): its update handle.
    pub fn copy(&mut self) -> WorkerCopyNode<'_> {
        WorkerCopyNode { exec: self }
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for WorkerExec {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("WorkerExec")
            .field("exec", &self.parts.exec)
            .finish_non_exhaustive()
    }
}
impl Worker {
    /// A copy of `params`, for the graph and then its executable to keep: made field by
    /// field in place on the heap, a few dozen fields per function.
    #[allow(unused_variables, unused_unsafe)]
    fn __cg_own(
        __cg_params: &WorkerParams,
    ) -> ::cudagraph_runtime::__private::Result<
        ::cudagraph_runtime::__private::Box<WorkerParams>,
    > {
        let mut out = ::cudagraph_runtime::__private::Box::<WorkerParams>::new_uninit();
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
    unsafe fn __cg_own_0(__cg_params: &WorkerParams, dst: *mut WorkerParams) {
        unsafe {
            (&raw mut (*dst).step)
                .write(
                    <Kernel<
                        (u32, DevicePtrMut<u32>),
                    > as ::cudagraph_runtime::__private::KernelType>::keep(
                        &__cg_params.step,
                    ),
                );
            (&raw mut (*dst).counter)
                .write(
                    <DeviceBuffer<
                        u32,
                    > as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_params.counter,
                    ),
                );
            (&raw mut (*dst).mirror)
                .write(
                    <HostBuffer<
                        u32,
                    > as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_params.mirror,
                    ),
                );
            (&raw mut (*dst).n)
                .write(
                    <u32 as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_params.n,
                    ),
                );
        }
    }
}
///The params of a [`WorkerParams`] as [`WorkerParamsMut::swap`] names them: a field per param, of the same name, holding no value (a `Slot` per param, an array of them per array param whose elements are params of their own). Given to `swap`'s `pick` instead of the params, so that it names the two to swap and cannot change any: `|p| (&mut p.x, &mut p.x_new)`. None can be made outside `swap`.
#[repr(C)]
#[allow(clippy::type_complexity)]
struct WorkerSlots {
    ///Param [`step`](WorkerParams::step), to swap.
    pub step: ::cudagraph_runtime::__private::Slot<Kernel<(u32, DevicePtrMut<u32>)>>,
    ///Param [`counter`](WorkerParams::counter), to swap.
    pub counter: ::cudagraph_runtime::__private::Slot<DeviceBuffer<u32>>,
    ///Param [`mirror`](WorkerParams::mirror), to swap.
    pub mirror: ::cudagraph_runtime::__private::Slot<HostBuffer<u32>>,
    ///Param [`n`](WorkerParams::n), to swap.
    pub n: ::cudagraph_runtime::__private::Slot<u32>,
}
const _: () = {
    ::core::assert!(
        ::cudagraph_runtime::__private::offset_of!(WorkerSlots, step) == 0usize
    );
    ::core::assert!(
        ::cudagraph_runtime::__private::offset_of!(WorkerSlots, counter) == 1usize
    );
    ::core::assert!(
        ::cudagraph_runtime::__private::offset_of!(WorkerSlots, mirror) == 2usize
    );
    ::core::assert!(
        ::cudagraph_runtime::__private::offset_of!(WorkerSlots, n) == 3usize
    );
    ::core::assert!(
        ::cudagraph_runtime::__private::size_of:: < WorkerSlots > () == 4usize
    );
};
const _: fn(&WorkerSlots, &WorkerParams) = |slots, params| {
    ::cudagraph_runtime::__private::slot_of(&slots.step, &params.step);
    ::cudagraph_runtime::__private::slot_of(&slots.counter, &params.counter);
    ::cudagraph_runtime::__private::slot_of(&slots.mirror, &params.mirror);
    ::cudagraph_runtime::__private::slot_of(&slots.n, &params.n);
};
impl ::cudagraph_runtime::__private::fmt::Debug for WorkerSlots {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("WorkerSlots").finish_non_exhaustive()
    }
}
unsafe impl ::cudagraph_runtime::__private::Tracked for WorkerExec {
    type Params = WorkerParams;
    type Slots = WorkerSlots;
    const NAME: &'static ::core::primitive::str = "WorkerExec";
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
        (&[0u32, 1u32, 2u32], false, false),
        (&[2u32], false, false),
        (&[1u32], false, false),
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
    ) -> &mut WorkerParams {
        &mut unsafe { self.parts.get_mut() }.state.params
    }
    #[inline(always)]
    fn applied_mut(
        &mut self,
        _: ::cudagraph_runtime::__private::Internal,
    ) -> &mut WorkerParams {
        &mut unsafe { self.parts.get_mut() }.applied
    }
    fn check(&self) -> ::cudagraph_runtime::__private::Result<()> {
        Worker::__cg_check_overlaps(&self.parts.state.params)
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
impl WorkerExec {
    /**Sets param `step` and updates what reads it (node `bump`), one single-node update each. Returns the old value; on error, naming the node, nothing changes: the param keeps its old value and the nodes their updates (see [`WorkerExec`]).
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
    /**Sets param `counter` and updates what reads it (nodes `clear`, `bump`, `copy`), one single-node update each. Returns the old value; on error, naming the node, nothing changes: the param keeps its old value and the nodes their updates (see [`WorkerExec`]).
*/
    pub fn set_counter(
        &mut self,
        value: DeviceBuffer<u32>,
    ) -> ::cudagraph_runtime::__private::Result<DeviceBuffer<u32>> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.parts.get_mut() }.state.params.counter,
            value,
        );
        ::cudagraph_runtime::__private::set_param(self, 1usize).map(|_| old)
    }
    /**Sets param `mirror` and updates what reads it (node `copy`), one single-node update each. Returns the old value; on error, naming the node, nothing changes: the param keeps its old value and the nodes their updates (see [`WorkerExec`]).
*/
    pub fn set_mirror(
        &mut self,
        value: HostBuffer<u32>,
    ) -> ::cudagraph_runtime::__private::Result<HostBuffer<u32>> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.parts.get_mut() }.state.params.mirror,
            value,
        );
        {
            let commit = |exec: &mut Self| {
                let __cg_parts = unsafe { exec.parts.get_mut() };
                __cg_parts.applied.mirror = <HostBuffer<
                    u32,
                > as ::cudagraph_runtime::__private::ParamValue>::keep(
                    &__cg_parts.state.params.mirror,
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
    /**Sets param `n` and updates what reads it (node `bump`), one single-node update each. Returns the old value; on error, naming the node, nothing changes: the param keeps its old value and the nodes their updates (see [`WorkerExec`]).
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
                    3usize,
                    1usize,
                    (Self::__cg_update_node_1, 0usize),
                    commit,
                )
            }
        }
            .map(|_| old)
    }
    /**Swaps two params of one type, named by `pick` (`exec.swap(|p| (&mut p.x, &mut p.x_new))?`), and updates the nodes that read them, each once, before it returns: the ping-pong buffers of an iteration swapped between launches in one call. Returns how many nodes it updated. `pick` is given the params' slots ([`WorkerSlots`]), not their values: it names two params and changes none. As [`WorkerParamsMut::swap`] followed by `apply`: all or nothing (a refused update is reported, naming its node, and the swap undone), any other change pending applied with it.

Swapping two buffers the executable holds (a ping-pong) registers and releases nothing: the swap costs its readers' driver calls and the update of their records of memory.

# Errors

The error of the update that refused the swap, naming its node (a kernel's launch check, a driver error, two nodes that would race): the swap is undone.*/
    pub fn swap<S: ::cudagraph_runtime::__private::Pick>(
        &mut self,
        pick: impl FnOnce(&mut WorkerSlots) -> (&mut S, &mut S),
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
        let __cg_params: &WorkerParams = &__cg_parts.state.params;
        __cg_parts
            .exec
            .set_memset_params(
                __cg_parts.nodes.clear,
                Worker::__cg_eval_clear(__cg_params),
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
        let __cg_params: &WorkerParams = &__cg_parts.state.params;
        let (kernel, config, args) = Worker::__cg_eval_bump(__cg_params);
        __cg_parts.exec.set_kernel(__cg_parts.nodes.bump, kernel, config, args)?;
        __cg_parts.state.launch.bump = config;
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
        let __cg_params: &WorkerParams = &__cg_parts.state.params;
        __cg_parts
            .exec
            .set_memcpy_params(
                __cg_parts.nodes.copy,
                Worker::__cg_eval_copy(__cg_params),
            )?;
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline]
    fn __cg_slot_offset_0(slot: ::core::primitive::usize) -> ::core::primitive::usize {
        match slot {
            0usize => ::cudagraph_runtime::__private::offset_of!(WorkerParams, step),
            1usize => ::cudagraph_runtime::__private::offset_of!(WorkerParams, counter),
            2usize => ::cudagraph_runtime::__private::offset_of!(WorkerParams, mirror),
            3usize => ::cudagraph_runtime::__private::offset_of!(WorkerParams, n),
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
                    __cg_parts.applied.counter = <DeviceBuffer<
                        u32,
                    > as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_parts.state.params.counter,
                    );
                } else {
                    __cg_parts.state.params.counter = <DeviceBuffer<
                        u32,
                    > as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_parts.applied.counter,
                    );
                }
            }
            2usize => {
                if commit {
                    __cg_parts.applied.mirror = <HostBuffer<
                        u32,
                    > as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_parts.state.params.mirror,
                    );
                } else {
                    __cg_parts.state.params.mirror = <HostBuffer<
                        u32,
                    > as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_parts.applied.mirror,
                    );
                }
            }
            3usize => {
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
            _ => {}
        }
    }
}
/**Changes to the params of a [`WorkerExec`], several at once ([`WorkerExec::params_mut`]). It reads as the params (`Deref`); `set_<param>` and [`swap`](Self::swap) change them and mark the nodes that read them, and [`apply`](Self::apply) updates those nodes, each once however many of its params changed. A guard dropped without `apply` leaves the changes to the executable's next launch, which applies them first: a change cannot be forgotten. An update that fails is the error of that `apply` or launch, naming the node (the launch launches nothing), and undoes the changes: the params and the nodes are as they were before them.

```text
let mut p = exec.params_mut();
p.set_n(n);                         // its readers are updated once,
p.set_scale(0.5);                   // even those reading both
p.swap(|p| (&mut p.x, &mut p.x_new))?;
p.apply()?;                         // or: the next exec.launch(&stream)
```*/
#[must_use = "changes made through the guard are applied by `apply`, or by the next launch"]
struct WorkerParamsMut<'a> {
    exec: &'a mut WorkerExec,
}
impl ::cudagraph_runtime::__private::Deref for WorkerParamsMut<'_> {
    type Target = WorkerParams;
    fn deref(&self) -> &WorkerParams {
        &self.exec.parts.state.params
    }
}
#[allow(clippy::type_complexity)]
impl WorkerParamsMut<'_> {
    ///Sets param `step`, and marks what reads it (node `bump`) for the guard's [`apply`](Self::apply), or the executable's next launch. Returns the old value.
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
    ///Sets param `counter`, and marks what reads it (nodes `clear`, `bump`, `copy`) for the guard's [`apply`](Self::apply), or the executable's next launch. Returns the old value.
    #[inline]
    pub fn set_counter(&mut self, value: DeviceBuffer<u32>) -> DeviceBuffer<u32> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.exec.parts.get_mut() }.state.params.counter,
            value,
        );
        ::cudagraph_runtime::__private::stage(self.exec, 1usize);
        old
    }
    ///Sets param `mirror`, and marks what reads it (node `copy`) for the guard's [`apply`](Self::apply), or the executable's next launch. Returns the old value.
    #[inline]
    pub fn set_mirror(&mut self, value: HostBuffer<u32>) -> HostBuffer<u32> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.exec.parts.get_mut() }.state.params.mirror,
            value,
        );
        unsafe {
            ::cudagraph_runtime::__private::stage_sole_reader(self.exec, 2usize, 2usize)
        };
        old
    }
    ///Sets param `n`, and marks what reads it (node `bump`) for the guard's [`apply`](Self::apply), or the executable's next launch. Returns the old value.
    #[inline]
    pub fn set_n(&mut self, value: u32) -> u32 {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.exec.parts.get_mut() }.state.params.n,
            value,
        );
        unsafe {
            ::cudagraph_runtime::__private::stage_sole_reader(self.exec, 3usize, 1usize)
        };
        old
    }
    /**Swaps two params of one type, named by `pick` (`p.swap(|p| (&mut p.x, &mut p.x_new))`), and marks the nodes that read them. `pick` is given the params' slots ([`WorkerSlots`]), not their values: it names two params and changes none, so that the swap is the only change, and the tracker knows it. The slots of an array param are its elements' (`|p| (&mut p.w[0], &mut p.w[1])`); two arrays of slots (two array params, or runs of elements) are swapped element by element.

Never refused for slots of the struct `pick` is given (its signature allows no other).*/
    pub fn swap<S: ::cudagraph_runtime::__private::Pick>(
        &mut self,
        pick: impl FnOnce(&mut WorkerSlots) -> (&mut S, &mut S),
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
impl ::cudagraph_runtime::__private::fmt::Debug for WorkerParamsMut<'_> {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("WorkerParamsMut").finish_non_exhaustive()
    }
}
/**Update handle of node `clear` of [`WorkerExec`] (`memset(counter, 0u32)`): its destination and value can change (1-D only), and it can be enabled or disabled ([what CUDA allows](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#individual-node-update)).

Memory given through the handle is not judged by the race rule, which judges the declaration's params: it must not be memory that a node no edge orders with this one uses, one of them writing it (host memory that host code uses is checked: `Error::Hazard`). A change of a param the node reads, or `set_params`, sets the node back to its params.*/
struct WorkerClearNode<'a> {
    exec: &'a mut WorkerExec,
}
impl<'a> WorkerClearNode<'a> {
    /// Sets the destination and the pattern written, for the next launches
    /// (`cuGraphExecMemsetNodeSetParams`): device memory the node's pattern type fills, such as
    /// a `&DeviceBuffer<T>`. Memory the node stops using is released once the launches that
    /// may use it are done.
    pub fn set(
        &mut self,
        dst: impl ::cudagraph_runtime::__private::MemsetAs<
            <DeviceBuffer<u32> as ::cudagraph_runtime::__private::MemsetTarget>::Pattern,
        >,
        value: <DeviceBuffer<
            u32,
        > as ::cudagraph_runtime::__private::MemsetTarget>::Pattern,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.exec.parts.get_mut() };
        __cg_parts
            .exec
            .set_memset_params(
                __cg_parts.nodes.clear,
                ::cudagraph_runtime::__private::MemsetAs::memset_as(dst, value),
            )?;
        __cg_parts.tracker.set_by_handle(0usize);
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
        <DeviceBuffer<u32> as ::cudagraph_runtime::__private::MemsetTarget>::Pattern,
    > {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.nodes.clear
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for WorkerClearNode<'_> {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("WorkerClearNode").field("index", &0usize).finish_non_exhaustive()
    }
}
/**Update handle of node `bump` of [`WorkerExec`] (`kernel step<<<1, 32>>>(n, counter)`): its arguments and launch configuration can change, and it can be enabled or disabled ([what CUDA allows](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#individual-node-update)).

Memory given through the handle is not judged by the race rule, which judges the declaration's params: it must not be memory that a node no edge orders with this one uses, one of them writing it (host memory that host code uses is checked: `Error::Hazard`). A change of a param the node reads, or `set_params`, sets the node back to its params.*/
struct WorkerBumpNode<'a> {
    exec: &'a mut WorkerExec,
}
impl<'a> WorkerBumpNode<'a> {
    ///Sets the kernel's arguments for the next launches, keeping the node's launch configuration (`cuGraphExecKernelNodeSetParams`). Memory the node stops using is released once the launches that may use it are done.
    pub fn set(
        &mut self,
        n: impl ::cudagraph_runtime::__private::KernelArg<'static, u32>,
        counter: impl ::cudagraph_runtime::__private::KernelArg<
            'static,
            DevicePtrMut<u32>,
        >,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = self.exec.parts.get();
        let config = __cg_parts.state.launch.bump;
        self.set_launch(config, n, counter)
    }
    ///Sets the launch configuration and the kernel's arguments for the next launches (`cuGraphExecKernelNodeSetParams`).
    pub fn set_launch(
        &mut self,
        config: ::cudagraph_runtime::__private::LaunchConfig,
        n: impl ::cudagraph_runtime::__private::KernelArg<'static, u32>,
        counter: impl ::cudagraph_runtime::__private::KernelArg<
            'static,
            DevicePtrMut<u32>,
        >,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.exec.parts.get_mut() };
        __cg_parts.exec.set_kernel_params(__cg_parts.nodes.bump, config, (n, counter))?;
        __cg_parts.state.launch.bump = config;
        __cg_parts.tracker.set_by_handle(1usize);
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    /// The node's launch configuration now.
    pub fn launch_config(&self) -> ::cudagraph_runtime::__private::LaunchConfig {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.state.launch.bump
    }
    /// Enables or disables the node for the next launches (`cuGraphNodeSetEnabled`). A
    /// disabled node acts as an empty node; params set meanwhile apply once it is enabled.
    pub fn set_enabled(
        &mut self,
        enabled: ::core::primitive::bool,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.exec.parts.get_mut() };
        __cg_parts.exec.set_enabled(__cg_parts.nodes.bump, enabled)
    }
    /// Whether the node is enabled (`cuGraphNodeGetEnabled`).
    pub fn is_enabled(
        &self,
    ) -> ::cudagraph_runtime::__private::Result<::core::primitive::bool> {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.exec.is_enabled(__cg_parts.nodes.bump)
    }
    /// The node's runtime handle, for the runtime's own API.
    pub fn node(
        &self,
    ) -> ::cudagraph_runtime::__private::KernelNode<(u32, DevicePtrMut<u32>)> {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.nodes.bump
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for WorkerBumpNode<'_> {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("WorkerBumpNode").field("index", &1usize).finish_non_exhaustive()
    }
}
/**Update handle of node `copy` of [`WorkerExec`] (`memcpy(counter -> mirror)`): its source and destination can change (same direction, 1-D only), and it can be enabled or disabled ([what CUDA allows](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#individual-node-update)).

Memory given through the handle is not judged by the race rule, which judges the declaration's params: it must not be memory that a node no edge orders with this one uses, one of them writing it (host memory that host code uses is checked: `Error::Hazard`). A change of a param the node reads, or `set_params`, sets the node back to its params.*/
struct WorkerCopyNode<'a> {
    exec: &'a mut WorkerExec,
}
impl<'a> WorkerCopyNode<'a> {
    /// Sets the source and the destination for the next launches
    /// (`cuGraphExecMemcpyNodeSetParams`). They copy in the node's direction (CUDA cannot
    /// change it), between buffers of equal length: `&DeviceBuffer<T>` and `&HostBuffer<T>`
    /// as the direction says. Memory the node stops using is released once the launches that
    /// may use it are done.
    pub fn set<__CgElem, __CgSrc, __CgDst>(
        &mut self,
        src: __CgSrc,
        dst: __CgDst,
    ) -> ::cudagraph_runtime::__private::Result<()>
    where
        (
            __CgSrc,
            __CgDst,
        ): ::cudagraph_runtime::__private::CopyAs<
            <(
                DeviceBuffer<u32>,
                HostBuffer<u32>,
            ) as ::cudagraph_runtime::__private::CopyPair>::Dir,
            __CgElem,
        >,
    {
        let __cg_parts = unsafe { self.exec.parts.get_mut() };
        __cg_parts
            .exec
            .set_memcpy_params(
                __cg_parts.nodes.copy,
                ::cudagraph_runtime::__private::memcpy_as(src, dst),
            )?;
        __cg_parts.tracker.set_by_handle(2usize);
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[doc(hidden)]
    pub fn set_2d<__CgSrc, __CgDst>(
        &mut self,
        src: __CgSrc,
        src_pitch: ::core::primitive::usize,
        dst: __CgDst,
        dst_pitch: ::core::primitive::usize,
        width: ::core::primitive::usize,
        height: ::core::primitive::usize,
    ) -> ::cudagraph_runtime::__private::Result<()>
    where
        &'a (): ::cudagraph_runtime::__private::CanUpdate2D,
    {
        let _ = (src, src_pitch, dst, dst_pitch, width, height);
        match <&'a () as ::cudagraph_runtime::__private::CanUpdate2D>::NEVER {}
    }
    /// Enables or disables the node for the next launches (`cuGraphNodeSetEnabled`). A
    /// disabled node acts as an empty node; params set meanwhile apply once it is enabled.
    pub fn set_enabled(
        &mut self,
        enabled: ::core::primitive::bool,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.exec.parts.get_mut() };
        __cg_parts.exec.set_enabled(__cg_parts.nodes.copy, enabled)
    }
    /// Whether the node is enabled (`cuGraphNodeGetEnabled`).
    pub fn is_enabled(
        &self,
    ) -> ::cudagraph_runtime::__private::Result<::core::primitive::bool> {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.exec.is_enabled(__cg_parts.nodes.copy)
    }
    /// The node's runtime handle, for the runtime's own API.
    pub fn node(
        &self,
    ) -> ::cudagraph_runtime::__private::MemcpyNode<
        <(
            DeviceBuffer<u32>,
            HostBuffer<u32>,
        ) as ::cudagraph_runtime::__private::CopyPair>::Dir,
    > {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.nodes.copy
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for WorkerCopyNode<'_> {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("WorkerCopyNode").field("index", &2usize).finish_non_exhaustive()
    }
}
const _: () = {
    #[allow(unused_imports)]
    use ::cudagraph_runtime::__private::{
        ArgsFallback as _, BodyFallback as _, ParamFallback as _, SlotFallback as _,
    };
    if !<::cudagraph_runtime::__private::ParamProbe<SharedDeviceGraph>>::IS_MEMORY
        && !<::cudagraph_runtime::__private::ParamProbe<SharedDeviceGraph>>::IS_VALUE
        && ::cudagraph_runtime::__private::access_max(
            &[<::cudagraph_runtime::__private::SlotProbe<DeviceGraph>>::ACCESS],
        ) != ::cudagraph_runtime::__private::VALUE
    {
        ::cudagraph_runtime::__private::fail(
            "param `worker` is named in a pointer argument of node `go`, but its type (`SharedDeviceGraph`) is neither a buffer (`DeviceBuffer<T>`, `HostBuffer<T>`, a raw pointer, or a reference to one) nor a plain value (a number, `bool`, a `KernelParam` type): `cuda_graph!` finds data races through buffer params, and cannot see the memory this one may hold; make each buffer a param of its own",
        )
    }
};
const _: () = {
    #[allow(unused_imports)]
    use ::cudagraph_runtime::__private::{
        ArgsFallback as _, BodyFallback as _, ParamFallback as _, SlotFallback as _,
    };
    if <::cudagraph_runtime::__private::ParamProbe<
        Kernel<(DeviceGraph, u32)>,
    >>::IS_HANDLE {
        ::cudagraph_runtime::__private::fail(
            "param `launch` is a `ConditionalHandle`: a handle is made by the conditional node that reads it (`name: while launch { ... }`), since one made for another graph would be set where no node reads it",
        )
    }
};
const _: () = {
    #[allow(unused_imports)]
    use ::cudagraph_runtime::__private::{
        ArgsFallback as _, BodyFallback as _, ParamFallback as _, SlotFallback as _,
    };
    if <::cudagraph_runtime::__private::ParamProbe<
        Kernel<(u32, DevicePtrMut<u32>)>,
    >>::IS_HANDLE {
        ::cudagraph_runtime::__private::fail(
            "param `bump` is a `ConditionalHandle`: a handle is made by the conditional node that reads it (`name: while bump { ... }`), since one made for another graph would be set where no node reads it",
        )
    }
};
const _: () = {
    #[allow(unused_imports)]
    use ::cudagraph_runtime::__private::{
        ArgsFallback as _, BodyFallback as _, ParamFallback as _, SlotFallback as _,
    };
    if <::cudagraph_runtime::__private::ParamProbe<SharedDeviceGraph>>::IS_HANDLE {
        ::cudagraph_runtime::__private::fail(
            "param `worker` is a `ConditionalHandle`: a handle is made by the conditional node that reads it (`name: while worker { ... }`), since one made for another graph would be set where no node reads it",
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
/**The params of [`Launcher`]: what its nodes are built from ([`Launcher::build`]). Its executable owns a copy ([`LauncherExec::params`]), changed through the executable (`set_<param>`, [`LauncherExec::params_mut`], [`LauncherExec::set_params`]), which updates exactly the nodes that read what changed:

- node `before` reads `bump`, `counter`, `n`
- node `go` reads `launch`, `worker`, `n`
- node `after` reads `bump`, `counter`, `n`
*/
#[allow(clippy::type_complexity)]
struct LauncherParams {
    ///Param `launch`, read by node `go`.
    pub launch: Kernel<(DeviceGraph, u32)>,
    ///Param `bump`, read by nodes `before`, `after`.
    pub bump: Kernel<(u32, DevicePtrMut<u32>)>,
    ///Param `worker`, read by node `go`.
    pub worker: SharedDeviceGraph,
    ///Param `counter`, read by nodes `before`, `after`.
    pub counter: DeviceBuffer<u32>,
    ///Param `n`, read by nodes `before`, `go`, `after`.
    pub n: u32,
}
impl ::cudagraph_runtime::__private::fmt::Debug for LauncherParams {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("LauncherParams").finish_non_exhaustive()
    }
}
/**A CUDA graph declared with `cuda_graph!`: [`Launcher::build`] builds it from a [`LauncherParams`], [`Launcher::instantiate`] makes it a [`LauncherExec`].

# Nodes

In build order (a node's position is its index in the graph):

0. `before`: `kernel bump<<<1, 32>>>(n, counter)`
1. `go`: `kernel launch<<<1, 1>>>(worker, n)`, after `before`
2. `after`: `kernel bump<<<1, 32>>>(n, counter)`, after `go`

# Topology

<div style="overflow-x:auto"><svg xmlns="http://www.w3.org/2000/svg" role="img" width="86" height="200" viewBox="0 0 86 200" font-family="monospace" font-size="14" text-anchor="middle" fill="currentColor"><title>Topology of Launcher: 3 nodes, 2 edges</title><defs><marker id="cgc0b6fe22" viewBox="0 0 8 8" refX="8" refY="4" markerWidth="8" markerHeight="8" orient="auto"><path d="M0 0L8 4L0 8z"/></marker></defs><g fill="none" stroke="currentColor" marker-end="url(#cgc0b6fe22)"><path d="M43 48V80"/><path d="M43 120V152"/></g><rect x="8" y="8" width="70" height="40" rx="4" fill="#dbeafe" stroke="#1d4ed8"/><text x="43" y="25" fill="#111">before</text><text x="43" y="41" font-size="11" fill="#374151">kernel</text><rect x="14" y="80" width="58" height="40" rx="4" fill="#dbeafe" stroke="#1d4ed8"/><text x="43" y="97" fill="#111">go</text><text x="43" y="113" font-size="11" fill="#374151">kernel</text><rect x="13" y="152" width="60" height="40" rx="4" fill="#dbeafe" stroke="#1d4ed8"/><text x="43" y="169" fill="#111">after</text><text x="43" y="185" font-size="11" fill="#374151">kernel</text></svg></div>

As text: `Launcher::TOPOLOGY.to_mermaid()` (Mermaid) or `.to_dot()` (Graphviz).
*/
struct Launcher {
    parts: ::cudagraph_runtime::__private::Guarded<__LauncherParts>,
}
#[doc(hidden)]
#[allow(non_camel_case_types)]
struct __LauncherParts {
    graph: ::cudagraph_runtime::__private::Graph<'static>,
    nodes: ::cudagraph_runtime::__private::Box<
        ::cudagraph_runtime::__private::ManuallyDrop<__LauncherNodes>,
    >,
    state: __LauncherState,
    build_id: ::core::primitive::u64,
}
#[doc(hidden)]
#[allow(non_camel_case_types, dead_code, clippy::type_complexity)]
struct __LauncherNodes {
    before: ::cudagraph_runtime::__private::KernelNode<(u32, DevicePtrMut<u32>)>,
    go: ::cudagraph_runtime::__private::KernelNode<(DeviceGraph, u32)>,
    after: ::cudagraph_runtime::__private::KernelNode<(u32, DevicePtrMut<u32>)>,
}
unsafe impl ::cudagraph_runtime::__private::Unbuilt for __LauncherNodes {}
#[doc(hidden)]
#[allow(non_camel_case_types, non_snake_case, dead_code)]
#[derive(Clone, Copy)]
struct __LauncherLaunch {
    before: ::cudagraph_runtime::__private::LaunchConfig,
    go: ::cudagraph_runtime::__private::LaunchConfig,
    after: ::cudagraph_runtime::__private::LaunchConfig,
}
unsafe impl ::cudagraph_runtime::__private::Unbuilt for __LauncherLaunch {}
#[doc(hidden)]
#[allow(non_camel_case_types)]
struct __LauncherState {
    params: ::cudagraph_runtime::__private::Box<LauncherParams>,
    launch: ::cudagraph_runtime::__private::Box<__LauncherLaunch>,
}
impl Launcher {
    /// The declared shape: nodes in build order (their indices in the graph; one more
    /// with `#[indirect]` params, whose fetch node comes first), kinds and edges. Its
    /// `to_dot()` and `to_mermaid()` draw it.
    pub const TOPOLOGY: ::cudagraph_runtime::__private::Topology = ::cudagraph_runtime::__private::Topology {
        name: "Launcher",
        nodes: &[
            ("before", ::cudagraph_runtime::__private::NodeKind::Kernel),
            ("go", ::cudagraph_runtime::__private::NodeKind::Kernel),
            ("after", ::cudagraph_runtime::__private::NodeKind::Kernel),
        ],
        edges: &[(0usize, 1usize), (1usize, 2usize)],
        bodies: &[],
    };
    /// [`TOPOLOGY`](Self::TOPOLOGY) drawn as a standalone SVG image, laid out when the
    /// macro ran: the picture in this type's docs. Write it to a `.svg` file or put it
    /// in an HTML page; its lines and labels take the text colour of the page around it
    /// (black in a file of its own). It is in the binary only if the program calls this.
    pub const fn topology_svg() -> &'static ::core::primitive::str {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" width=\"86\" height=\"200\" viewBox=\"0 0 86 200\" font-family=\"monospace\" font-size=\"14\" text-anchor=\"middle\" fill=\"currentColor\"><title>Topology of Launcher: 3 nodes, 2 edges</title><defs><marker id=\"cgc0b6fe22\" viewBox=\"0 0 8 8\" refX=\"8\" refY=\"4\" markerWidth=\"8\" markerHeight=\"8\" orient=\"auto\"><path d=\"M0 0L8 4L0 8z\"/></marker></defs><g fill=\"none\" stroke=\"currentColor\" marker-end=\"url(#cgc0b6fe22)\"><path d=\"M43 48V80\"/><path d=\"M43 120V152\"/></g><rect x=\"8\" y=\"8\" width=\"70\" height=\"40\" rx=\"4\" fill=\"#dbeafe\" stroke=\"#1d4ed8\"/><text x=\"43\" y=\"25\" fill=\"#111\">before</text><text x=\"43\" y=\"41\" font-size=\"11\" fill=\"#374151\">kernel</text><rect x=\"14\" y=\"80\" width=\"58\" height=\"40\" rx=\"4\" fill=\"#dbeafe\" stroke=\"#1d4ed8\"/><text x=\"43\" y=\"97\" fill=\"#111\">go</text><text x=\"43\" y=\"113\" font-size=\"11\" fill=\"#374151\">kernel</text><rect x=\"13\" y=\"152\" width=\"60\" height=\"40\" rx=\"4\" fill=\"#dbeafe\" stroke=\"#1d4ed8\"/><text x=\"43\" y=\"169\" fill=\"#111\">after</text><text x=\"43\" y=\"185\" font-size=\"11\" fill=\"#374151\">kernel</text></svg>"
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
        __cg_params: &LauncherParams,
    ) -> ::cudagraph_runtime::__private::Result<Self> {
        Self::__cg_check_overlaps(__cg_params)?;
        let mut __cg_graph = ::cudagraph_runtime::__private::Graph::with_capacity(
            ctx,
            3usize,
        )?;
        let (nodes, state) = Self::__cg_add_nodes(&mut __cg_graph, __cg_params)?;
        ::cudagraph_runtime::__private::built(&__cg_graph, "Launcher");
        let __cg_parts = __LauncherParts {
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
        __cg_params: &LauncherParams,
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
        ::cudagraph_runtime::__private::built(&__cg_parts.graph, "Launcher");
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
        __cg_params: &LauncherParams,
    ) -> ::cudagraph_runtime::__private::Result<
        (
            ::cudagraph_runtime::__private::Box<
                ::cudagraph_runtime::__private::ManuallyDrop<__LauncherNodes>,
            >,
            __LauncherState,
        ),
    > {
        let owned = Self::__cg_own(__cg_params)?;
        let mut boxed = ::cudagraph_runtime::__private::unbuilt_box::<
            ::cudagraph_runtime::__private::ManuallyDrop<__LauncherNodes>,
        >();
        let mut configs = ::cudagraph_runtime::__private::unbuilt_box::<
            __LauncherLaunch,
        >();
        {
            let nodes: &mut __LauncherNodes = &mut boxed;
            #[allow(unused_variables)]
            let launches: &mut __LauncherLaunch = &mut configs;
            Self::__cg_add_0(__cg_graph, __cg_params, nodes, launches)?;
        }
        ::cudagraph_runtime::__private::Result::Ok((
            boxed,
            __LauncherState {
                params: owned,
                launch: configs,
            },
        ))
    }
    #[inline(never)]
    fn __cg_add_0(
        __cg_graph: &mut ::cudagraph_runtime::__private::Graph<'static>,
        __cg_params: &LauncherParams,
        nodes: &mut __LauncherNodes,
        launches: &mut __LauncherLaunch,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        (nodes.before, launches.before) = ::cudagraph_runtime::__private::add_node(
            __cg_graph,
            "before",
            |__cg_graph| {
                let (kernel, config, args) = Launcher::__cg_eval_before(__cg_params);
                let added = __cg_graph.add_kernel(kernel, config, args, &[])?;
                ::cudagraph_runtime::__private::Result::Ok((added, config))
            },
        )?;
        (nodes.go, launches.go) = ::cudagraph_runtime::__private::add_node(
            __cg_graph,
            "go",
            |__cg_graph| {
                let (kernel, config, args) = Launcher::__cg_eval_go(__cg_params);
                let added = __cg_graph
                    .add_kernel(kernel, config, args, &[nodes.before.id()])?;
                ::cudagraph_runtime::__private::Result::Ok((added, config))
            },
        )?;
        (nodes.after, launches.after) = ::cudagraph_runtime::__private::add_node(
            __cg_graph,
            "after",
            |__cg_graph| {
                let (kernel, config, args) = Launcher::__cg_eval_after(__cg_params);
                let added = __cg_graph
                    .add_kernel(kernel, config, args, &[nodes.go.id()])?;
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
        __cg_params: &LauncherParams,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        #[allow(unused_imports)]
        use ::cudagraph_runtime::__private::{
            ArgsFallback as _, BodyFallback as _, ParamFallback as _, SlotFallback as _,
        };
        {
            #[allow(unused_imports)]
            use ::cudagraph_runtime::__private::LaunchFallback as _;
            let mut launched_0 = ::cudagraph_runtime::__private::Launched::new();
            <::cudagraph_runtime::__private::LaunchProbe<
                SharedDeviceGraph,
            >>::add(&__cg_params.worker, &mut launched_0);
            ::cudagraph_runtime::__private::check_launched_uses(
                &launched_0,
                &[
                    ::cudagraph_runtime::__private::declared_use(
                        ::cudagraph_runtime::__private::access_max(
                            &[::cudagraph_runtime::__private::WRITE],
                        ),
                        <::cudagraph_runtime::__private::ParamProbe<
                            DeviceBuffer<u32>,
                        >>::bytes(&__cg_params.counter),
                    ),
                ],
                &[],
                ("go", "after"),
            )?;
        }
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    ///Instantiates the graph with default flags.
    pub fn instantiate(self) -> ::cudagraph_runtime::__private::Result<LauncherExec> {
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
    ) -> ::cudagraph_runtime::__private::Result<LauncherExec> {
        let __cg_parts = self.parts.into_inner();
        let applied = Self::__cg_own(&__cg_parts.state.params)?;
        let exec = __cg_parts.graph.instantiate_with(flags, upload)?;
        Self::__cg_check_overlaps(&__cg_parts.state.params)?;
        ::cudagraph_runtime::__private::Result::Ok(unsafe {
            LauncherExec::__cg_new(exec, __cg_parts.nodes, __cg_parts.state, applied)
        })
    }
    ///Instantiates the graph as an executable *bound to* `stream`: it launches there only (`launch` refuses another stream). The launches of executables bound to one stream never overlap, so they may share host memory that their host nodes write, which two executables launched anywhere may not (`Error::BufferInUse` when the second is made).
    pub fn instantiate_on(
        self,
        stream: &::cudagraph_runtime::__private::Arc<
            ::cudagraph_runtime::__private::CudaStream,
        >,
    ) -> ::cudagraph_runtime::__private::Result<LauncherExec> {
        let flags = ::cudagraph_runtime::__private::InstantiateFlags::NONE;
        let __cg_parts = self.parts.into_inner();
        let applied = Self::__cg_own(&__cg_parts.state.params)?;
        let exec = __cg_parts.graph.instantiate_on(stream, flags)?;
        Self::__cg_check_overlaps(&__cg_parts.state.params)?;
        ::cudagraph_runtime::__private::Result::Ok(unsafe {
            LauncherExec::__cg_new(exec, __cg_parts.nodes, __cg_parts.state, applied)
        })
    }
    #[allow(
        non_snake_case,
        unused_variables,
        clippy::type_complexity,
        clippy::needless_lifetimes
    )]
    fn __cg_eval_before<'__cg_p>(
        __cg_params: &'__cg_p LauncherParams,
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
        let bump = (&::cudagraph_runtime::__private::Bind(&__cg_params.bump))
            .__cg_bind();
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let n = (&::cudagraph_runtime::__private::Bind(&__cg_params.n)).__cg_bind();
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let counter = (&::cudagraph_runtime::__private::Bind(&__cg_params.counter))
            .__cg_bind();
        let config = ::cudagraph_runtime::__private::launch(1, 32, 0);
        let args = (
            ::cudagraph_runtime::__private::KernelArgPart::<'static, u32, _>::new(n),
            ::cudagraph_runtime::__private::KernelArgPart::<
                'static,
                DevicePtrMut<u32>,
                _,
            >::new(counter),
        );
        (
            <Kernel<
                (u32, DevicePtrMut<u32>),
            > as ::cudagraph_runtime::__private::KernelType>::as_kernel(
                &__cg_params.bump,
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
    fn __cg_eval_go<'__cg_p>(
        __cg_params: &'__cg_p LauncherParams,
    ) -> (
        &'__cg_p ::cudagraph_runtime::__private::Kernel<(DeviceGraph, u32)>,
        ::cudagraph_runtime::__private::LaunchConfig,
        (
            impl ::cudagraph_runtime::__private::KernelArg<
                'static,
                DeviceGraph,
            > + '__cg_p,
            impl ::cudagraph_runtime::__private::KernelArg<'static, u32> + '__cg_p,
        ),
    ) {
        #[allow(unused_imports)]
        use ::cudagraph_runtime::__private::{BindCopy as _, BindRef as _};
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let launch = (&::cudagraph_runtime::__private::Bind(&__cg_params.launch))
            .__cg_bind();
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let worker = (&::cudagraph_runtime::__private::Bind(&__cg_params.worker))
            .__cg_bind();
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let n = (&::cudagraph_runtime::__private::Bind(&__cg_params.n)).__cg_bind();
        let config = ::cudagraph_runtime::__private::launch(1, 1, 0);
        let args = (
            ::cudagraph_runtime::__private::KernelArgPart::<
                'static,
                DeviceGraph,
                _,
            >::new(worker),
            ::cudagraph_runtime::__private::KernelArgPart::<'static, u32, _>::new(n),
        );
        (
            <Kernel<
                (DeviceGraph, u32),
            > as ::cudagraph_runtime::__private::KernelType>::as_kernel(
                &__cg_params.launch,
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
    fn __cg_eval_after<'__cg_p>(
        __cg_params: &'__cg_p LauncherParams,
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
        let bump = (&::cudagraph_runtime::__private::Bind(&__cg_params.bump))
            .__cg_bind();
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let n = (&::cudagraph_runtime::__private::Bind(&__cg_params.n)).__cg_bind();
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let counter = (&::cudagraph_runtime::__private::Bind(&__cg_params.counter))
            .__cg_bind();
        let config = ::cudagraph_runtime::__private::launch(1, 32, 0);
        let args = (
            ::cudagraph_runtime::__private::KernelArgPart::<'static, u32, _>::new(n),
            ::cudagraph_runtime::__private::KernelArgPart::<
                'static,
                DevicePtrMut<u32>,
                _,
            >::new(counter),
        );
        (
            <Kernel<
                (u32, DevicePtrMut<u32>),
            > as ::cudagraph_runtime::__private::KernelType>::as_kernel(
                &__cg_params.bump,
            ),
            config,
            args,
        )
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for Launcher {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("Launcher")
            .field("graph", &self.parts.graph)
            .finish_non_exhaustive()
    }
}
impl ::cudagraph_runtime::__private::BodyRules for Launcher {
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
unsafe impl ::cudagraph_runtime::__private::ChildGraph for Launcher {
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
impl ::cudagraph_runtime::__private::SameDeclaration<Launcher> for Launcher {
    fn same(&self) -> &Launcher {
        self
    }
}
/**[`Launcher`], instantiated, with the [`LauncherParams`] it runs, which it owns ([`params`](Self::params)).

Change a param with its setter (`exec.set_alpha(0.5)?`, one per param: it updates the nodes that read it, and returns the old value), several at once or two swapped through [`params_mut`](Self::params_mut) ([`LauncherParamsMut`], whose changes the next launch applies if its `apply` did not), all of them by [`set_params`](Self::set_params); or update it from another [`Launcher`] ([`update`](Self::update)), or one node through its handle. Which node reads which param is known when the macro runs: a change updates the nodes that read it, each once, with nothing else compared.

A change is made whole or not at all. One that a node refuses (the driver or a kernel's check, params that would make two nodes race, or a change CUDA cannot make, such as an allocation's length) is the error of the setter, `apply`, `set_params` or launch that tried it, naming the node, and is undone: every param changed since the last update gets back the value the nodes were last updated from (the executable keeps a copy of those), the nodes updated before the refusal are set back, and nothing stays pending, so the next launch runs what ran before. A panic in your code that a change runs (a node expression, a param's `Clone`, `PartialEq` or `Drop`) may stop it part way: caught, it leaves the executable refusing updates and launches (`Error::Invalid`) until a whole-graph update. Memory the executable stops using is released once the launches that may use it are done.

Nodes:

- [`before()`](Self::before): kernel node
- [`go()`](Self::go): kernel node
- [`after()`](Self::after): kernel node
*/
struct LauncherExec {
    parts: ::cudagraph_runtime::__private::Guarded<__LauncherExecParts>,
}
#[doc(hidden)]
#[allow(non_camel_case_types)]
struct __LauncherExecParts {
    exec: ::cudagraph_runtime::__private::GraphExec<'static>,
    nodes: ::cudagraph_runtime::__private::Box<
        ::cudagraph_runtime::__private::ManuallyDrop<__LauncherNodes>,
    >,
    state: __LauncherState,
    /// A copy of the params as the nodes were last updated from them: what a refused
    /// change puts back (see `__private::apply`).
    applied: ::cudagraph_runtime::__private::Box<LauncherParams>,
    /// The nodes that disagree with the params (see `__private::Tracker`).
    tracker: ::cudagraph_runtime::__private::Tracker,
}
impl LauncherExec {
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
            ::cudagraph_runtime::__private::ManuallyDrop<__LauncherNodes>,
        >,
        state: __LauncherState,
        applied: ::cudagraph_runtime::__private::Box<LauncherParams>,
    ) -> Self {
        let tracker = ::cudagraph_runtime::__private::Tracker::new(3usize, 5usize);
        let __cg_parts = __LauncherExecParts {
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
    /**Whole-graph update from a [`Launcher`] built with other params (`cuGraphExecUpdate`).

Only a graph of this declaration is accepted: it was built by the same sequence of calls, so its nodes pair with this executable's ([whole-graph update](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#whole-graph-update)). Afterwards the executable owns a copy of that graph's params (what [`params`](Self::params) shows), and changes made to its own params and not applied yet are dropped.*/
    pub fn update<__CgSame: ::cudagraph_runtime::__private::SameDeclaration<Launcher>>(
        &mut self,
        source: &__CgSame,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let source: &Launcher = ::cudagraph_runtime::__private::SameDeclaration::same(
            source,
        );
        let params = Launcher::__cg_own(&source.parts.state.params)?;
        let applied = Launcher::__cg_own(&source.parts.state.params)?;
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
    /**Replaces the executable's params with `params` as a whole: each param that differs from the executable's own is copied in, then the nodes that read a changed param (or were set through their handle since) are updated, each once, with one single-node update. Afterwards the nodes are what [`Launcher::build`] would make from `params`. Returns how many nodes it updated. Enabled/disabled states are kept.

It compares every param, so its cost grows with the declaration: to change a few params, set them (the setters `set_<param>`, [`params_mut`](Self::params_mut)), which updates only their readers. A param is compared with `PartialEq`, a kernel by function, a declared graph by identity; a runtime `Graph` counts as changed every time. A kernel param may change function (same parameter list, same context): the node's single-node update switches it.

Params under which two nodes that may run at the same time share memory, one writing it, are refused as by [`Launcher::build`], with nothing changed. So is any update a node refuses: the error names the node, and the params and the nodes updated before it are set back to what they were.*/
    pub fn set_params(
        &mut self,
        __cg_params: &LauncherParams,
    ) -> ::cudagraph_runtime::__private::Result<::core::primitive::usize> {
        Launcher::__cg_check_overlaps(__cg_params)?;
        self.__cg_take_0(__cg_params);
        ::cudagraph_runtime::__private::set_all(self)
    }
    ///The params the executable runs: those it was built from, with every change made since through the setters (`set_<param>`), [`params_mut`](Self::params_mut), [`set_params`](Self::set_params) or [`update`](Self::update). Host code reads the buffers among them as any buffer's holder does: `exec.params().y.to_vec()` waits for the launches that may write `y`.
    pub fn params(&self) -> &LauncherParams {
        &self.parts.state.params
    }
    /**A guard through which to change several params at once, or to swap two: [`LauncherParamsMut`]'s `set_<param>` and [`swap`](LauncherParamsMut::swap) change the params (read them through the guard) and mark the nodes that read them; [`LauncherParamsMut::apply`] updates those nodes, each once however many of its params changed, and if the guard is dropped instead, the next [`launch`](Self::launch) does. Either reports an update the driver or a kernel's check refuses as an error naming the node, and undoes the changes (the params and the nodes are as they were before them); nothing is lost when the guard is dropped.

```text
exec.params_mut().swap(|p| (&mut p.x, &mut p.x_new))?; // the ping-pong of a solver
exec.launch(&stream)?;                                 // updates x's and x_new's readers
```*/
    pub fn params_mut(&mut self) -> LauncherParamsMut<'_> {
        LauncherParamsMut { exec: self }
    }
    /// The params, taking the executable apart (it is dropped; memory its launches may
    /// still use stays alive until they are done).
    pub fn into_params(self) -> LauncherParams {
        *self.parts.into_inner().state.params
    }
    /// The runtime executable, for what the typed API does not cover (read-only).
    pub fn as_exec(&self) -> &::cudagraph_runtime::__private::GraphExec<'static> {
        &self.parts.exec
    }
    #[inline(never)]
    fn __cg_take_0(&mut self, __cg_params: &LauncherParams) {
        let __cg_parts = unsafe { self.parts.get_mut() };
        if !(<Kernel<
            (DeviceGraph, u32),
        > as ::cudagraph_runtime::__private::KernelType>::function_id(
            &__cg_params.launch,
        )
            == <Kernel<
                (DeviceGraph, u32),
            > as ::cudagraph_runtime::__private::KernelType>::function_id(
                &__cg_parts.state.params.launch,
            ))
        {
            let value = <Kernel<
                (DeviceGraph, u32),
            > as ::cudagraph_runtime::__private::KernelType>::keep(&__cg_params.launch);
            ::cudagraph_runtime::__private::stage_in::<
                Self,
            >(&mut __cg_parts.tracker, 0usize);
            __cg_parts.state.params.launch = value;
        }
        if !(<Kernel<
            (u32, DevicePtrMut<u32>),
        > as ::cudagraph_runtime::__private::KernelType>::function_id(&__cg_params.bump)
            == <Kernel<
                (u32, DevicePtrMut<u32>),
            > as ::cudagraph_runtime::__private::KernelType>::function_id(
                &__cg_parts.state.params.bump,
            ))
        {
            let value = <Kernel<
                (u32, DevicePtrMut<u32>),
            > as ::cudagraph_runtime::__private::KernelType>::keep(&__cg_params.bump);
            ::cudagraph_runtime::__private::stage_in::<
                Self,
            >(&mut __cg_parts.tracker, 1usize);
            __cg_parts.state.params.bump = value;
        }
        if !(<SharedDeviceGraph as ::cudagraph_runtime::__private::ParamValue>::same(
            &__cg_params.worker,
            &__cg_parts.state.params.worker,
        )) {
            let value = <SharedDeviceGraph as ::cudagraph_runtime::__private::ParamValue>::keep(
                &__cg_params.worker,
            );
            ::cudagraph_runtime::__private::stage_in::<
                Self,
            >(&mut __cg_parts.tracker, 2usize);
            __cg_parts.state.params.worker = value;
        }
        if !(<DeviceBuffer<
            u32,
        > as ::cudagraph_runtime::__private::ParamValue>::same(
            &__cg_params.counter,
            &__cg_parts.state.params.counter,
        )) {
            let value = <DeviceBuffer<
                u32,
            > as ::cudagraph_runtime::__private::ParamValue>::keep(&__cg_params.counter);
            ::cudagraph_runtime::__private::stage_in::<
                Self,
            >(&mut __cg_parts.tracker, 3usize);
            __cg_parts.state.params.counter = value;
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
            >(&mut __cg_parts.tracker, 4usize);
            __cg_parts.state.params.n = value;
        }
    }
    ///Node `before` (`kernel bump<<<1, 32>>>(n, counter)`): its update handle.
    pub fn before(&mut self) -> LauncherBeforeNode<'_> {
        LauncherBeforeNode { exec: self }
    }
    ///Node `go` (`kernel launch<<<1, 1>>>(worker, n)`): its update handle.
    pub fn go(&mut self) -> LauncherGoNode<'_> {
        LauncherGoNode { exec: self }
    }
    ///Node `after` (`kernel bump<<<1, 32>>>(n, counter)`): its update handle.
    pub fn after(&mut self) -> LauncherAfterNode<'_> {
        LauncherAfterNode { exec: self }
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for LauncherExec {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("LauncherExec")
            .field("exec", &self.parts.exec)
            .finish_non_exhaustive()
    }
}
impl Launcher {
    /// A copy of `params`, for the graph and then its executable to keep: made field by
    /// field in place on the heap, a few dozen fields per function.
    #[allow(unused_variables, unused_unsafe)]
    fn __cg_own(
        __cg_params: &LauncherParams,
    ) -> ::cudagraph_runtime::__private::Result<
        ::cudagraph_runtime::__private::Box<LauncherParams>,
    > {
        let mut out = ::cudagraph_runtime::__private::Box::<
            LauncherParams,
        >::new_uninit();
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
    unsafe fn __cg_own_0(__cg_params: &LauncherParams, dst: *mut LauncherParams) {
        unsafe {
            (&raw mut (*dst).launch)
                .write(
                    <Kernel<
                        (DeviceGraph, u32),
                    > as ::cudagraph_runtime::__private::KernelType>::keep(
                        &__cg_params.launch,
                    ),
                );
            (&raw mut (*dst).bump)
                .write(
                    <Kernel<
                        (u32, DevicePtrMut<u32>),
                    > as ::cudagraph_runtime::__private::KernelType>::keep(
                        &__cg_params.bump,
                    ),
                );
            (&raw mut (*dst).worker)
                .write(
                    <SharedDeviceGraph as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_params.worker,
                    ),
                );
            (&raw mut (*dst).counter)
                .write(
                    <DeviceBuffer<
                        u32,
                    > as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_params.counter,
                    ),
                );
            (&raw mut (*dst).n)
                .write(
                    <u32 as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_params.n,
                    ),
                );
        }
    }
}
///The params of a [`LauncherParams`] as [`LauncherParamsMut::swap`] names them: a field per param, of the same name, holding no value (a `Slot` per param, an array of them per array param whose elements are params of their own). Given to `swap`'s `pick` instead of the params, so that it names the two to swap and cannot change any: `|p| (&mut p.x, &mut p.x_new)`. None can be made outside `swap`.
#[repr(C)]
#[allow(clippy::type_complexity)]
struct LauncherSlots {
    ///Param [`launch`](LauncherParams::launch), to swap.
    pub launch: ::cudagraph_runtime::__private::Slot<Kernel<(DeviceGraph, u32)>>,
    ///Param [`bump`](LauncherParams::bump), to swap.
    pub bump: ::cudagraph_runtime::__private::Slot<Kernel<(u32, DevicePtrMut<u32>)>>,
    ///Param [`worker`](LauncherParams::worker), to swap.
    pub worker: ::cudagraph_runtime::__private::Slot<SharedDeviceGraph>,
    ///Param [`counter`](LauncherParams::counter), to swap.
    pub counter: ::cudagraph_runtime::__private::Slot<DeviceBuffer<u32>>,
    ///Param [`n`](LauncherParams::n), to swap.
    pub n: ::cudagraph_runtime::__private::Slot<u32>,
}
const _: () = {
    ::core::assert!(
        ::cudagraph_runtime::__private::offset_of!(LauncherSlots, launch) == 0usize
    );
    ::core::assert!(
        ::cudagraph_runtime::__private::offset_of!(LauncherSlots, bump) == 1usize
    );
    ::core::assert!(
        ::cudagraph_runtime::__private::offset_of!(LauncherSlots, worker) == 2usize
    );
    ::core::assert!(
        ::cudagraph_runtime::__private::offset_of!(LauncherSlots, counter) == 3usize
    );
    ::core::assert!(
        ::cudagraph_runtime::__private::offset_of!(LauncherSlots, n) == 4usize
    );
    ::core::assert!(
        ::cudagraph_runtime::__private::size_of:: < LauncherSlots > () == 5usize
    );
};
const _: fn(&LauncherSlots, &LauncherParams) = |slots, params| {
    ::cudagraph_runtime::__private::slot_of(&slots.launch, &params.launch);
    ::cudagraph_runtime::__private::slot_of(&slots.bump, &params.bump);
    ::cudagraph_runtime::__private::slot_of(&slots.worker, &params.worker);
    ::cudagraph_runtime::__private::slot_of(&slots.counter, &params.counter);
    ::cudagraph_runtime::__private::slot_of(&slots.n, &params.n);
};
impl ::cudagraph_runtime::__private::fmt::Debug for LauncherSlots {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("LauncherSlots").finish_non_exhaustive()
    }
}
unsafe impl ::cudagraph_runtime::__private::Tracked for LauncherExec {
    type Params = LauncherParams;
    type Slots = LauncherSlots;
    const NAME: &'static ::core::primitive::str = "LauncherExec";
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
        (&[0u32, 2u32], false, false),
        (&[1u32], false, false),
        (&[0u32, 2u32], false, false),
        (&[0u32, 1u32, 2u32], false, false),
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
    ) -> &mut LauncherParams {
        &mut unsafe { self.parts.get_mut() }.state.params
    }
    #[inline(always)]
    fn applied_mut(
        &mut self,
        _: ::cudagraph_runtime::__private::Internal,
    ) -> &mut LauncherParams {
        &mut unsafe { self.parts.get_mut() }.applied
    }
    fn check(&self) -> ::cudagraph_runtime::__private::Result<()> {
        Launcher::__cg_check_overlaps(&self.parts.state.params)
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
impl LauncherExec {
    /**Sets param `launch` and updates what reads it (node `go`), one single-node update each. Returns the old value; on error, naming the node, nothing changes: the param keeps its old value and the nodes their updates (see [`LauncherExec`]).
*/
    pub fn set_launch(
        &mut self,
        value: Kernel<(DeviceGraph, u32)>,
    ) -> ::cudagraph_runtime::__private::Result<Kernel<(DeviceGraph, u32)>> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.parts.get_mut() }.state.params.launch,
            value,
        );
        {
            let commit = |exec: &mut Self| {
                let __cg_parts = unsafe { exec.parts.get_mut() };
                __cg_parts.applied.launch = <Kernel<
                    (DeviceGraph, u32),
                > as ::cudagraph_runtime::__private::KernelType>::keep(
                    &__cg_parts.state.params.launch,
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
    /**Sets param `bump` and updates what reads it (nodes `before`, `after`), one single-node update each. Returns the old value; on error, naming the node, nothing changes: the param keeps its old value and the nodes their updates (see [`LauncherExec`]).
*/
    pub fn set_bump(
        &mut self,
        value: Kernel<(u32, DevicePtrMut<u32>)>,
    ) -> ::cudagraph_runtime::__private::Result<Kernel<(u32, DevicePtrMut<u32>)>> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.parts.get_mut() }.state.params.bump,
            value,
        );
        ::cudagraph_runtime::__private::set_param(self, 1usize).map(|_| old)
    }
    /**Sets param `worker` and updates what reads it (node `go`), one single-node update each. Returns the old value; on error, naming the node, nothing changes: the param keeps its old value and the nodes their updates (see [`LauncherExec`]).
*/
    pub fn set_worker(
        &mut self,
        value: SharedDeviceGraph,
    ) -> ::cudagraph_runtime::__private::Result<SharedDeviceGraph> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.parts.get_mut() }.state.params.worker,
            value,
        );
        {
            let commit = |exec: &mut Self| {
                let __cg_parts = unsafe { exec.parts.get_mut() };
                __cg_parts.applied.worker = <SharedDeviceGraph as ::cudagraph_runtime::__private::ParamValue>::keep(
                    &__cg_parts.state.params.worker,
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
    /**Sets param `counter` and updates what reads it (nodes `before`, `after`), one single-node update each. Returns the old value; on error, naming the node, nothing changes: the param keeps its old value and the nodes their updates (see [`LauncherExec`]).
*/
    pub fn set_counter(
        &mut self,
        value: DeviceBuffer<u32>,
    ) -> ::cudagraph_runtime::__private::Result<DeviceBuffer<u32>> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.parts.get_mut() }.state.params.counter,
            value,
        );
        ::cudagraph_runtime::__private::set_param(self, 3usize).map(|_| old)
    }
    /**Sets param `n` and updates what reads it (nodes `before`, `go`, `after`), one single-node update each. Returns the old value; on error, naming the node, nothing changes: the param keeps its old value and the nodes their updates (see [`LauncherExec`]).
*/
    pub fn set_n(&mut self, value: u32) -> ::cudagraph_runtime::__private::Result<u32> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.parts.get_mut() }.state.params.n,
            value,
        );
        ::cudagraph_runtime::__private::set_param(self, 4usize).map(|_| old)
    }
    /**Swaps two params of one type, named by `pick` (`exec.swap(|p| (&mut p.x, &mut p.x_new))?`), and updates the nodes that read them, each once, before it returns: the ping-pong buffers of an iteration swapped between launches in one call. Returns how many nodes it updated. `pick` is given the params' slots ([`LauncherSlots`]), not their values: it names two params and changes none. As [`LauncherParamsMut::swap`] followed by `apply`: all or nothing (a refused update is reported, naming its node, and the swap undone), any other change pending applied with it.

Swapping two buffers the executable holds (a ping-pong) registers and releases nothing: the swap costs its readers' driver calls and the update of their records of memory.

# Errors

The error of the update that refused the swap, naming its node (a kernel's launch check, a driver error, two nodes that would race): the swap is undone.*/
    pub fn swap<S: ::cudagraph_runtime::__private::Pick>(
        &mut self,
        pick: impl FnOnce(&mut LauncherSlots) -> (&mut S, &mut S),
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
        let __cg_params: &LauncherParams = &__cg_parts.state.params;
        let (kernel, config, args) = Launcher::__cg_eval_before(__cg_params);
        __cg_parts.exec.set_kernel(__cg_parts.nodes.before, kernel, config, args)?;
        __cg_parts.state.launch.before = config;
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
        let __cg_params: &LauncherParams = &__cg_parts.state.params;
        let (kernel, config, args) = Launcher::__cg_eval_go(__cg_params);
        __cg_parts.exec.set_kernel(__cg_parts.nodes.go, kernel, config, args)?;
        __cg_parts.state.launch.go = config;
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
        let __cg_params: &LauncherParams = &__cg_parts.state.params;
        let (kernel, config, args) = Launcher::__cg_eval_after(__cg_params);
        __cg_parts.exec.set_kernel(__cg_parts.nodes.after, kernel, config, args)?;
        __cg_parts.state.launch.after = config;
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline]
    fn __cg_slot_offset_0(slot: ::core::primitive::usize) -> ::core::primitive::usize {
        match slot {
            0usize => ::cudagraph_runtime::__private::offset_of!(LauncherParams, launch),
            1usize => ::cudagraph_runtime::__private::offset_of!(LauncherParams, bump),
            2usize => ::cudagraph_runtime::__private::offset_of!(LauncherParams, worker),
            3usize => ::cudagraph_runtime::__private::offset_of!(LauncherParams, counter),
            4usize => ::cudagraph_runtime::__private::offset_of!(LauncherParams, n),
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
                    __cg_parts.applied.launch = <Kernel<
                        (DeviceGraph, u32),
                    > as ::cudagraph_runtime::__private::KernelType>::keep(
                        &__cg_parts.state.params.launch,
                    );
                } else {
                    __cg_parts.state.params.launch = <Kernel<
                        (DeviceGraph, u32),
                    > as ::cudagraph_runtime::__private::KernelType>::keep(
                        &__cg_parts.applied.launch,
                    );
                }
            }
            1usize => {
                if commit {
                    __cg_parts.applied.bump = <Kernel<
                        (u32, DevicePtrMut<u32>),
                    > as ::cudagraph_runtime::__private::KernelType>::keep(
                        &__cg_parts.state.params.bump,
                    );
                } else {
                    __cg_parts.state.params.bump = <Kernel<
                        (u32, DevicePtrMut<u32>),
                    > as ::cudagraph_runtime::__private::KernelType>::keep(
                        &__cg_parts.applied.bump,
                    );
                }
            }
            2usize => {
                if commit {
                    __cg_parts.applied.worker = <SharedDeviceGraph as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_parts.state.params.worker,
                    );
                } else {
                    __cg_parts.state.params.worker = <SharedDeviceGraph as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_parts.applied.worker,
                    );
                }
            }
            3usize => {
                if commit {
                    __cg_parts.applied.counter = <DeviceBuffer<
                        u32,
                    > as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_parts.state.params.counter,
                    );
                } else {
                    __cg_parts.state.params.counter = <DeviceBuffer<
                        u32,
                    > as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_parts.applied.counter,
                    );
                }
            }
            4usize => {
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
            _ => {}
        }
    }
}
/**Changes to the params of a [`LauncherExec`], several at once ([`LauncherExec::params_mut`]). It reads as the params (`Deref`); `set_<param>` and [`swap`](Self::swap) change them and mark the nodes that read them, and [`apply`](Self::apply) updates those nodes, each once however many of its params changed. A guard dropped without `apply` leaves the changes to the executable's next launch, which applies them first: a change cannot be forgotten. An update that fails is the error of that `apply` or launch, naming the node (the launch launches nothing), and undoes the changes: the params and the nodes are as they were before them.

```text
let mut p = exec.params_mut();
p.set_n(n);                         // its readers are updated once,
p.set_scale(0.5);                   // even those reading both
p.swap(|p| (&mut p.x, &mut p.x_new))?;
p.apply()?;                         // or: the next exec.launch(&stream)
```*/
#[must_use = "changes made through the guard are applied by `apply`, or by the next launch"]
struct LauncherParamsMut<'a> {
    exec: &'a mut LauncherExec,
}
impl ::cudagraph_runtime::__private::Deref for LauncherParamsMut<'_> {
    type Target = LauncherParams;
    fn deref(&self) -> &LauncherParams {
        &self.exec.parts.state.params
    }
}
#[allow(clippy::type_complexity)]
impl LauncherParamsMut<'_> {
    ///Sets param `launch`, and marks what reads it (node `go`) for the guard's [`apply`](Self::apply), or the executable's next launch. Returns the old value.
    #[inline]
    pub fn set_launch(
        &mut self,
        value: Kernel<(DeviceGraph, u32)>,
    ) -> Kernel<(DeviceGraph, u32)> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.exec.parts.get_mut() }.state.params.launch,
            value,
        );
        unsafe {
            ::cudagraph_runtime::__private::stage_sole_reader(self.exec, 0usize, 1usize)
        };
        old
    }
    ///Sets param `bump`, and marks what reads it (nodes `before`, `after`) for the guard's [`apply`](Self::apply), or the executable's next launch. Returns the old value.
    #[inline]
    pub fn set_bump(
        &mut self,
        value: Kernel<(u32, DevicePtrMut<u32>)>,
    ) -> Kernel<(u32, DevicePtrMut<u32>)> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.exec.parts.get_mut() }.state.params.bump,
            value,
        );
        ::cudagraph_runtime::__private::stage(self.exec, 1usize);
        old
    }
    ///Sets param `worker`, and marks what reads it (node `go`) for the guard's [`apply`](Self::apply), or the executable's next launch. Returns the old value.
    #[inline]
    pub fn set_worker(&mut self, value: SharedDeviceGraph) -> SharedDeviceGraph {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.exec.parts.get_mut() }.state.params.worker,
            value,
        );
        unsafe {
            ::cudagraph_runtime::__private::stage_sole_reader(self.exec, 2usize, 1usize)
        };
        old
    }
    ///Sets param `counter`, and marks what reads it (nodes `before`, `after`) for the guard's [`apply`](Self::apply), or the executable's next launch. Returns the old value.
    #[inline]
    pub fn set_counter(&mut self, value: DeviceBuffer<u32>) -> DeviceBuffer<u32> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.exec.parts.get_mut() }.state.params.counter,
            value,
        );
        ::cudagraph_runtime::__private::stage(self.exec, 3usize);
        old
    }
    ///Sets param `n`, and marks what reads it (nodes `before`, `go`, `after`) for the guard's [`apply`](Self::apply), or the executable's next launch. Returns the old value.
    #[inline]
    pub fn set_n(&mut self, value: u32) -> u32 {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.exec.parts.get_mut() }.state.params.n,
            value,
        );
        ::cudagraph_runtime::__private::stage(self.exec, 4usize);
        old
    }
    /**Swaps two params of one type, named by `pick` (`p.swap(|p| (&mut p.x, &mut p.x_new))`), and marks the nodes that read them. `pick` is given the params' slots ([`LauncherSlots`]), not their values: it names two params and changes none, so that the swap is the only change, and the tracker knows it. The slots of an array param are its elements' (`|p| (&mut p.w[0], &mut p.w[1])`); two arrays of slots (two array params, or runs of elements) are swapped element by element.

Never refused for slots of the struct `pick` is given (its signature allows no other).*/
    pub fn swap<S: ::cudagraph_runtime::__private::Pick>(
        &mut self,
        pick: impl FnOnce(&mut LauncherSlots) -> (&mut S, &mut S),
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
impl ::cudagraph_runtime::__private::fmt::Debug for LauncherParamsMut<'_> {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("LauncherParamsMut").finish_non_exhaustive()
    }
}
/**Update handle of node `before` of [`LauncherExec`] (`kernel bump<<<1, 32>>>(n, counter)`): its arguments and launch configuration can change, and it can be enabled or disabled ([what CUDA allows](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#individual-node-update)).

Memory given through the handle is not judged by the race rule, which judges the declaration's params: it must not be memory that a node no edge orders with this one uses, one of them writing it (host memory that host code uses is checked: `Error::Hazard`). A change of a param the node reads, or `set_params`, sets the node back to its params.*/
struct LauncherBeforeNode<'a> {
    exec: &'a mut LauncherExec,
}
impl<'a> LauncherBeforeNode<'a> {
    ///Sets the kernel's arguments for the next launches, keeping the node's launch configuration (`cuGraphExecKernelNodeSetParams`). Memory the node stops using is released once the launches that may use it are done.
    pub fn set(
        &mut self,
        n: impl ::cudagraph_runtime::__private::KernelArg<'static, u32>,
        counter: impl ::cudagraph_runtime::__private::KernelArg<
            'static,
            DevicePtrMut<u32>,
        >,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = self.exec.parts.get();
        let config = __cg_parts.state.launch.before;
        self.set_launch(config, n, counter)
    }
    ///Sets the launch configuration and the kernel's arguments for the next launches (`cuGraphExecKernelNodeSetParams`).
    pub fn set_launch(
        &mut self,
        config: ::cudagraph_runtime::__private::LaunchConfig,
        n: impl ::cudagraph_runtime::__private::KernelArg<'static, u32>,
        counter: impl ::cudagraph_runtime::__private::KernelArg<
            'static,
            DevicePtrMut<u32>,
        >,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.exec.parts.get_mut() };
        __cg_parts
            .exec
            .set_kernel_params(__cg_parts.nodes.before, config, (n, counter))?;
        __cg_parts.state.launch.before = config;
        __cg_parts.tracker.set_by_handle(0usize);
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    /// The node's launch configuration now.
    pub fn launch_config(&self) -> ::cudagraph_runtime::__private::LaunchConfig {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.state.launch.before
    }
    /// Enables or disables the node for the next launches (`cuGraphNodeSetEnabled`). A
    /// disabled node acts as an empty node; params set meanwhile apply once it is enabled.
    pub fn set_enabled(
        &mut self,
        enabled: ::core::primitive::bool,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.exec.parts.get_mut() };
        __cg_parts.exec.set_enabled(__cg_parts.nodes.before, enabled)
    }
    /// Whether the node is enabled (`cuGraphNodeGetEnabled`).
    pub fn is_enabled(
        &self,
    ) -> ::cudagraph_runtime::__private::Result<::core::primitive::bool> {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.exec.is_enabled(__cg_parts.nodes.before)
    }
    /// The node's runtime handle, for the runtime's own API.
    pub fn node(
        &self,
    ) -> ::cudagraph_runtime::__private::KernelNode<(u32, DevicePtrMut<u32>)> {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.nodes.before
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for LauncherBeforeNode<'_> {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("LauncherBeforeNode")
            .field("index", &0usize)
            .finish_non_exhaustive()
    }
}
/**Update handle of node `go` of [`LauncherExec`] (`kernel launch<<<1, 1>>>(worker, n)`): its arguments and launch configuration can change, and it can be enabled or disabled ([what CUDA allows](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#individual-node-update)).

Memory given through the handle is not judged by the race rule, which judges the declaration's params: it must not be memory that a node no edge orders with this one uses, one of them writing it (host memory that host code uses is checked: `Error::Hazard`). A change of a param the node reads, or `set_params`, sets the node back to its params.*/
struct LauncherGoNode<'a> {
    exec: &'a mut LauncherExec,
}
impl<'a> LauncherGoNode<'a> {
    ///Sets the kernel's arguments for the next launches, keeping the node's launch configuration (`cuGraphExecKernelNodeSetParams`). Memory the node stops using is released once the launches that may use it are done.
    pub fn set(
        &mut self,
        worker: impl ::cudagraph_runtime::__private::KernelArg<'static, DeviceGraph>,
        n: impl ::cudagraph_runtime::__private::KernelArg<'static, u32>,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = self.exec.parts.get();
        let config = __cg_parts.state.launch.go;
        self.set_launch(config, worker, n)
    }
    ///Sets the launch configuration and the kernel's arguments for the next launches (`cuGraphExecKernelNodeSetParams`).
    pub fn set_launch(
        &mut self,
        config: ::cudagraph_runtime::__private::LaunchConfig,
        worker: impl ::cudagraph_runtime::__private::KernelArg<'static, DeviceGraph>,
        n: impl ::cudagraph_runtime::__private::KernelArg<'static, u32>,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.exec.parts.get_mut() };
        __cg_parts.exec.set_kernel_params(__cg_parts.nodes.go, config, (worker, n))?;
        __cg_parts.state.launch.go = config;
        __cg_parts.tracker.set_by_handle(1usize);
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    /// The node's launch configuration now.
    pub fn launch_config(&self) -> ::cudagraph_runtime::__private::LaunchConfig {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.state.launch.go
    }
    /// Enables or disables the node for the next launches (`cuGraphNodeSetEnabled`). A
    /// disabled node acts as an empty node; params set meanwhile apply once it is enabled.
    pub fn set_enabled(
        &mut self,
        enabled: ::core::primitive::bool,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.exec.parts.get_mut() };
        __cg_parts.exec.set_enabled(__cg_parts.nodes.go, enabled)
    }
    /// Whether the node is enabled (`cuGraphNodeGetEnabled`).
    pub fn is_enabled(
        &self,
    ) -> ::cudagraph_runtime::__private::Result<::core::primitive::bool> {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.exec.is_enabled(__cg_parts.nodes.go)
    }
    /// The node's runtime handle, for the runtime's own API.
    pub fn node(
        &self,
    ) -> ::cudagraph_runtime::__private::KernelNode<(DeviceGraph, u32)> {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.nodes.go
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for LauncherGoNode<'_> {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("LauncherGoNode").field("index", &1usize).finish_non_exhaustive()
    }
}
/**Update handle of node `after` of [`LauncherExec`] (`kernel bump<<<1, 32>>>(n, counter)`): its arguments and launch configuration can change, and it can be enabled or disabled ([what CUDA allows](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#individual-node-update)).

Memory given through the handle is not judged by the race rule, which judges the declaration's params: it must not be memory that a node no edge orders with this one uses, one of them writing it (host memory that host code uses is checked: `Error::Hazard`). A change of a param the node reads, or `set_params`, sets the node back to its params.*/
struct LauncherAfterNode<'a> {
    exec: &'a mut LauncherExec,
}
impl<'a> LauncherAfterNode<'a> {
    ///Sets the kernel's arguments for the next launches, keeping the node's launch configuration (`cuGraphExecKernelNodeSetParams`). Memory the node stops using is released once the launches that may use it are done.
    pub fn set(
        &mut self,
        n: impl ::cudagraph_runtime::__private::KernelArg<'static, u32>,
        counter: impl ::cudagraph_runtime::__private::KernelArg<
            'static,
            DevicePtrMut<u32>,
        >,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = self.exec.parts.get();
        let config = __cg_parts.state.launch.after;
        self.set_launch(config, n, counter)
    }
    ///Sets the launch configuration and the kernel's arguments for the next launches (`cuGraphExecKernelNodeSetParams`).
    pub fn set_launch(
        &mut self,
        config: ::cudagraph_runtime::__private::LaunchConfig,
        n: impl ::cudagraph_runtime::__private::KernelArg<'static, u32>,
        counter: impl ::cudagraph_runtime::__private::KernelArg<
            'static,
            DevicePtrMut<u32>,
        >,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.exec.parts.get_mut() };
        __cg_parts.exec.set_kernel_params(__cg_parts.nodes.after, config, (n, counter))?;
        __cg_parts.state.launch.after = config;
        __cg_parts.tracker.set_by_handle(2usize);
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    /// The node's launch configuration now.
    pub fn launch_config(&self) -> ::cudagraph_runtime::__private::LaunchConfig {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.state.launch.after
    }
    /// Enables or disables the node for the next launches (`cuGraphNodeSetEnabled`). A
    /// disabled node acts as an empty node; params set meanwhile apply once it is enabled.
    pub fn set_enabled(
        &mut self,
        enabled: ::core::primitive::bool,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.exec.parts.get_mut() };
        __cg_parts.exec.set_enabled(__cg_parts.nodes.after, enabled)
    }
    /// Whether the node is enabled (`cuGraphNodeGetEnabled`).
    pub fn is_enabled(
        &self,
    ) -> ::cudagraph_runtime::__private::Result<::core::primitive::bool> {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.exec.is_enabled(__cg_parts.nodes.after)
    }
    /// The node's runtime handle, for the runtime's own API.
    pub fn node(
        &self,
    ) -> ::cudagraph_runtime::__private::KernelNode<(u32, DevicePtrMut<u32>)> {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.nodes.after
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for LauncherAfterNode<'_> {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("LauncherAfterNode")
            .field("index", &2usize)
            .finish_non_exhaustive()
    }
}
fn main() {}
