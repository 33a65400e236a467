//! Kernels and copies: the macro's doc example (memset, kernel, memcpy to the host, host node).
use cudagraph_runtime::{cuda_graph, prelude::*};
fn report(y: &[f32]) {
    println!("step done: y[0] = {}", y[0]);
}
const _: () = {
    #[allow(unused_imports)]
    use ::cudagraph_runtime::__private::{
        ArgsFallback as _, BodyFallback as _, ParamFallback as _, SlotFallback as _,
    };
    if <::cudagraph_runtime::__private::ParamProbe<
        Kernel<(u32, f32, DevicePtr<f32>, DevicePtrMut<f32>)>,
    >>::IS_HANDLE {
        ::cudagraph_runtime::__private::fail(
            "param `saxpy` is a `ConditionalHandle`: a handle is made by the conditional node that reads it (`name: while saxpy { ... }`), since one made for another graph would be set where no node reads it",
        )
    }
};
const _: () = {
    #[allow(unused_imports)]
    use ::cudagraph_runtime::__private::{
        ArgsFallback as _, BodyFallback as _, ParamFallback as _, SlotFallback as _,
    };
    if <::cudagraph_runtime::__private::ParamProbe<fn(&[f32])>>::IS_HANDLE {
        ::cudagraph_runtime::__private::fail(
            "param `done` is a `ConditionalHandle`: a handle is made by the conditional node that reads it (`name: while done { ... }`), since one made for another graph would be set where no node reads it",
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
        use ::cudagraph_runtime::__private::LaunchFallback as _;
        <::cudagraph_runtime::__private::LaunchProbe<HostBuffer<f32>>>::IS_LAUNCH
            || <::cudagraph_runtime::__private::ParamProbe<HostBuffer<f32>>>::IS_HANDLE
    }) {
        ::cudagraph_runtime::__private::fail(
            ({
                use ::cudagraph_runtime::__private::LaunchFallback as _;
                if <::cudagraph_runtime::__private::LaunchProbe<
                    HostBuffer<f32>,
                >>::IS_LAUNCH {
                    "`HostBuffer<f32>` here is a device graph's handle, not memory: `cuda_graph!` takes a type written `HostBuffer<f32>` for memory, and would not check what a kernel given it may launch; give the import or alias another name"
                } else {
                    "`HostBuffer<f32>` here is a `ConditionalHandle`, not memory: `cuda_graph!` takes a type written `HostBuffer<f32>` for memory, and a handle is made by the conditional node that reads it (`name: while h { ... }`), never a param; remove the param, and give the import or alias another name"
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
const _: () = {
    #[allow(unused_imports)]
    use ::cudagraph_runtime::__private::{
        ArgsFallback as _, BodyFallback as _, ParamFallback as _, SlotFallback as _,
    };
    if <::cudagraph_runtime::__private::SlotProbe<DevicePtr<f32>>>::ACCESS
        == ::cudagraph_runtime::__private::WRITE
    {
        ::cudagraph_runtime::__private::fail(
            "kernel parameter type `DevicePtr<f32>` is written as a `DevicePtr`, which the kernel only reads, but names a pointer it writes through (a `DevicePtrMut`): `cuda_graph!` finds data races by what each kernel parameter is called; write it `DevicePtrMut<T>`, or give the alias or import another name",
        )
    }
};
/**The params of [`Step`]: what its nodes are built from ([`Step::build`]). Its executable owns a copy ([`StepExec::params`]), changed through the executable (`set_<param>`, [`StepExec::params_mut`], [`StepExec::set_params`]), which updates exactly the nodes that read what changed:

- node `zero` reads `y`
- node `scale` reads `saxpy`, `x`, `y`, `n`, `alpha`
- node `back` reads `y`, `host_y`
- node `log` reads `host_y`, `done`
*/
#[allow(clippy::type_complexity)]
pub struct StepParams {
    ///Param `saxpy`, read by node `scale`.
    pub saxpy: Kernel<(u32, f32, DevicePtr<f32>, DevicePtrMut<f32>)>,
    ///Param `x`, read by node `scale`.
    pub x: DeviceBuffer<f32>,
    ///Param `y`, read by nodes `zero`, `scale`, `back`.
    pub y: DeviceBuffer<f32>,
    ///Param `host_y`, read by nodes `back`, `log`.
    pub host_y: HostBuffer<f32>,
    ///Param `n`, read by node `scale`.
    pub n: u32,
    ///Param `alpha`, read by node `scale`.
    pub alpha: f32,
    ///Param `done`, read by node `log`.
    pub done: fn(&[f32]),
}
impl ::cudagraph_runtime::__private::fmt::Debug for StepParams {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("StepParams").finish_non_exhaustive()
    }
}
/// One solver step: `y = alpha * x + y` on a zeroed `y`, copied back to the host.
/**

A CUDA graph declared with `cuda_graph!`: [`Step::build`] builds it from a [`StepParams`], [`Step::instantiate`] makes it a [`StepExec`].

# Nodes

In build order (a node's position is its index in the graph):

0. `zero`: `memset(y, 0.0f32)`
1. `scale`: `kernel saxpy<<<n.div_ceil(256), 256>>>(n, alpha, x, y)`, after `zero`
2. `back`: `memcpy(y -> host_y)`, after `scale`
3. `log`: `host(done)`, after `back`

# Topology

<div style="overflow-x:auto"><svg xmlns="http://www.w3.org/2000/svg" role="img" width="76" height="272" viewBox="0 0 76 272" font-family="monospace" font-size="14" text-anchor="middle" fill="currentColor"><title>Topology of Step: 4 nodes, 3 edges</title><defs><marker id="cg175188b6" viewBox="0 0 8 8" refX="8" refY="4" markerWidth="8" markerHeight="8" orient="auto"><path d="M0 0L8 4L0 8z"/></marker></defs><g fill="none" stroke="currentColor" marker-end="url(#cg175188b6)"><path d="M38 48V80"/><path d="M38 120V152"/><path d="M38 192V224"/></g><rect x="9" y="8" width="58" height="40" rx="4" fill="#ccfbf1" stroke="#0f766e"/><text x="38" y="25" fill="#111">zero</text><text x="38" y="41" font-size="11" fill="#374151">memset</text><rect x="8" y="80" width="60" height="40" rx="4" fill="#dbeafe" stroke="#1d4ed8"/><text x="38" y="97" fill="#111">scale</text><text x="38" y="113" font-size="11" fill="#374151">kernel</text><rect x="9" y="152" width="58" height="40" rx="4" fill="#dcfce7" stroke="#15803d"/><text x="38" y="169" fill="#111">back</text><text x="38" y="185" font-size="11" fill="#374151">memcpy</text><rect x="16" y="224" width="44" height="40" rx="4" fill="#fef3c7" stroke="#b45309"/><text x="38" y="241" fill="#111">log</text><text x="38" y="257" font-size="11" fill="#374151">host</text></svg></div>

As text: `Step::TOPOLOGY.to_mermaid()` (Mermaid) or `.to_dot()` (Graphviz).
*/
pub struct Step {
    parts: ::cudagraph_runtime::__private::Guarded<__StepParts>,
}
#[doc(hidden)]
#[allow(non_camel_case_types)]
struct __StepParts {
    graph: ::cudagraph_runtime::__private::Graph<'static>,
    nodes: ::cudagraph_runtime::__private::Box<
        ::cudagraph_runtime::__private::ManuallyDrop<__StepNodes>,
    >,
    state: __StepState,
    build_id: ::core::primitive::u64,
}
#[doc(hidden)]
#[allow(non_camel_case_types, dead_code, clippy::type_complexity)]
struct __StepNodes {
    zero: ::cudagraph_runtime::__private::MemsetNode<
        <DeviceBuffer<f32> as ::cudagraph_runtime::__private::MemsetTarget>::Pattern,
    >,
    scale: ::cudagraph_runtime::__private::KernelNode<
        (u32, f32, DevicePtr<f32>, DevicePtrMut<f32>),
    >,
    back: ::cudagraph_runtime::__private::MemcpyNode<
        <(
            DeviceBuffer<f32>,
            HostBuffer<f32>,
        ) as ::cudagraph_runtime::__private::CopyPair>::Dir,
    >,
    log: ::cudagraph_runtime::__private::HostNode,
}
unsafe impl ::cudagraph_runtime::__private::Unbuilt for __StepNodes {}
#[doc(hidden)]
#[allow(non_camel_case_types, non_snake_case, dead_code)]
#[derive(Clone, Copy)]
struct __StepLaunch {
    scale: ::cudagraph_runtime::__private::LaunchConfig,
}
unsafe impl ::cudagraph_runtime::__private::Unbuilt for __StepLaunch {}
#[doc(hidden)]
#[allow(non_camel_case_types)]
struct __StepState {
    params: ::cudagraph_runtime::__private::Box<StepParams>,
    launch: ::cudagraph_runtime::__private::Box<__StepLaunch>,
}
impl Step {
    /// The declared shape: nodes in build order (their indices in the graph; one more
    /// with `#[indirect]` params, whose fetch node comes first), kinds and edges. Its
    /// `to_dot()` and `to_mermaid()` draw it.
    pub const TOPOLOGY: ::cudagraph_runtime::__private::Topology = ::cudagraph_runtime::__private::Topology {
        name: "Step",
        nodes: &[
            ("zero", ::cudagraph_runtime::__private::NodeKind::Memset),
            ("scale", ::cudagraph_runtime::__private::NodeKind::Kernel),
            ("back", ::cudagraph_runtime::__private::NodeKind::Memcpy),
            ("log", ::cudagraph_runtime::__private::NodeKind::Host),
        ],
        edges: &[(0usize, 1usize), (1usize, 2usize), (2usize, 3usize)],
        bodies: &[],
    };
    /// [`TOPOLOGY`](Self::TOPOLOGY) drawn as a standalone SVG image, laid out when the
    /// macro ran: the picture in this type's docs. Write it to a `.svg` file or put it
    /// in an HTML page; its lines and labels take the text colour of the page around it
    /// (black in a file of its own). It is in the binary only if the program calls this.
    pub const fn topology_svg() -> &'static ::core::primitive::str {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" width=\"76\" height=\"272\" viewBox=\"0 0 76 272\" font-family=\"monospace\" font-size=\"14\" text-anchor=\"middle\" fill=\"currentColor\"><title>Topology of Step: 4 nodes, 3 edges</title><defs><marker id=\"cg175188b6\" viewBox=\"0 0 8 8\" refX=\"8\" refY=\"4\" markerWidth=\"8\" markerHeight=\"8\" orient=\"auto\"><path d=\"M0 0L8 4L0 8z\"/></marker></defs><g fill=\"none\" stroke=\"currentColor\" marker-end=\"url(#cg175188b6)\"><path d=\"M38 48V80\"/><path d=\"M38 120V152\"/><path d=\"M38 192V224\"/></g><rect x=\"9\" y=\"8\" width=\"58\" height=\"40\" rx=\"4\" fill=\"#ccfbf1\" stroke=\"#0f766e\"/><text x=\"38\" y=\"25\" fill=\"#111\">zero</text><text x=\"38\" y=\"41\" font-size=\"11\" fill=\"#374151\">memset</text><rect x=\"8\" y=\"80\" width=\"60\" height=\"40\" rx=\"4\" fill=\"#dbeafe\" stroke=\"#1d4ed8\"/><text x=\"38\" y=\"97\" fill=\"#111\">scale</text><text x=\"38\" y=\"113\" font-size=\"11\" fill=\"#374151\">kernel</text><rect x=\"9\" y=\"152\" width=\"58\" height=\"40\" rx=\"4\" fill=\"#dcfce7\" stroke=\"#15803d\"/><text x=\"38\" y=\"169\" fill=\"#111\">back</text><text x=\"38\" y=\"185\" font-size=\"11\" fill=\"#374151\">memcpy</text><rect x=\"16\" y=\"224\" width=\"44\" height=\"40\" rx=\"4\" fill=\"#fef3c7\" stroke=\"#b45309\"/><text x=\"38\" y=\"241\" fill=\"#111\">log</text><text x=\"38\" y=\"257\" font-size=\"11\" fill=\"#374151\">host</text></svg>"
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
        __cg_params: &StepParams,
    ) -> ::cudagraph_runtime::__private::Result<Self> {
        Self::__cg_check_overlaps(__cg_params)?;
        let mut __cg_graph = ::cudagraph_runtime::__private::Graph::with_capacity(
            ctx,
            4usize,
        )?;
        let (nodes, state) = Self::__cg_add_nodes(&mut __cg_graph, __cg_params)?;
        ::cudagraph_runtime::__private::built(&__cg_graph, "Step");
        let __cg_parts = __StepParts {
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
        __cg_params: &StepParams,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        Self::__cg_check_overlaps(__cg_params)?;
        let __cg_parts = unsafe { self.parts.get_mut() };
        __cg_parts.build_id = ::cudagraph_runtime::__private::next_build_id();
        __cg_parts.graph.clear()?;
        let (nodes, state) = Self::__cg_add_nodes(&mut __cg_parts.graph, __cg_params)?;
        ::cudagraph_runtime::__private::built(&__cg_parts.graph, "Step");
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
        __cg_params: &StepParams,
    ) -> ::cudagraph_runtime::__private::Result<
        (
            ::cudagraph_runtime::__private::Box<
                ::cudagraph_runtime::__private::ManuallyDrop<__StepNodes>,
            >,
            __StepState,
        ),
    > {
        let owned = Self::__cg_own(__cg_params)?;
        let mut boxed = ::cudagraph_runtime::__private::unbuilt_box::<
            ::cudagraph_runtime::__private::ManuallyDrop<__StepNodes>,
        >();
        let mut configs = ::cudagraph_runtime::__private::unbuilt_box::<__StepLaunch>();
        {
            let nodes: &mut __StepNodes = &mut boxed;
            #[allow(unused_variables)]
            let launches: &mut __StepLaunch = &mut configs;
            Self::__cg_add_0(__cg_graph, __cg_params, nodes, launches)?;
        }
        ::cudagraph_runtime::__private::Result::Ok((
            boxed,
            __StepState {
                params: owned,
                launch: configs,
            },
        ))
    }
    #[inline(never)]
    fn __cg_add_0(
        __cg_graph: &mut ::cudagraph_runtime::__private::Graph<'static>,
        __cg_params: &StepParams,
        nodes: &mut __StepNodes,
        launches: &mut __StepLaunch,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        nodes.zero = ::cudagraph_runtime::__private::add_node(
            __cg_graph,
            "zero",
            |__cg_graph| __cg_graph.add_memset(Step::__cg_eval_zero(__cg_params), &[]),
        )?;
        (nodes.scale, launches.scale) = ::cudagraph_runtime::__private::add_node(
            __cg_graph,
            "scale",
            |__cg_graph| {
                let (kernel, config, args) = Step::__cg_eval_scale(__cg_params);
                let added = __cg_graph
                    .add_kernel(kernel, config, args, &[nodes.zero.id()])?;
                ::cudagraph_runtime::__private::Result::Ok((added, config))
            },
        )?;
        nodes.back = ::cudagraph_runtime::__private::add_node(
            __cg_graph,
            "back",
            |__cg_graph| {
                __cg_graph
                    .add_memcpy(Step::__cg_eval_back(__cg_params), &[nodes.scale.id()])
            },
        )?;
        nodes.log = ::cudagraph_runtime::__private::add_node(
            __cg_graph,
            "log",
            |__cg_graph| ::cudagraph_runtime::__private::add_host(
                __cg_graph,
                Step::__cg_eval_log(__cg_params),
                &[nodes.back.id()],
            ),
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
        __cg_params: &StepParams,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        #[allow(unused_imports)]
        use ::cudagraph_runtime::__private::{
            ArgsFallback as _, BodyFallback as _, ParamFallback as _, SlotFallback as _,
        };
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    ///Instantiates the graph with default flags.
    pub fn instantiate(self) -> ::cudagraph_runtime::__private::Result<StepExec> {
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
    ) -> ::cudagraph_runtime::__private::Result<StepExec> {
        let __cg_parts = self.parts.into_inner();
        let applied = Self::__cg_own(&__cg_parts.state.params)?;
        let exec = __cg_parts.graph.instantiate_with(flags, upload)?;
        ::cudagraph_runtime::__private::Result::Ok(unsafe {
            StepExec::__cg_new(exec, __cg_parts.nodes, __cg_parts.state, applied)
        })
    }
    ///Instantiates the graph as an executable *bound to* `stream`: it launches there only (`launch` refuses another stream). The launches of executables bound to one stream never overlap, so they may share host memory that their host nodes write, which two executables launched anywhere may not (`Error::BufferInUse` when the second is made).
    pub fn instantiate_on(
        self,
        stream: &::cudagraph_runtime::__private::Arc<
            ::cudagraph_runtime::__private::CudaStream,
        >,
    ) -> ::cudagraph_runtime::__private::Result<StepExec> {
        let flags = ::cudagraph_runtime::__private::InstantiateFlags::NONE;
        let __cg_parts = self.parts.into_inner();
        let applied = Self::__cg_own(&__cg_parts.state.params)?;
        let exec = __cg_parts.graph.instantiate_on(stream, flags)?;
        ::cudagraph_runtime::__private::Result::Ok(unsafe {
            StepExec::__cg_new(exec, __cg_parts.nodes, __cg_parts.state, applied)
        })
    }
    #[allow(
        non_snake_case,
        unused_variables,
        clippy::type_complexity,
        clippy::needless_lifetimes
    )]
    fn __cg_eval_zero<'__cg_p>(
        __cg_params: &'__cg_p StepParams,
    ) -> ::cudagraph_runtime::__private::Memset<
        'static,
        <DeviceBuffer<f32> as ::cudagraph_runtime::__private::MemsetTarget>::Pattern,
    > {
        #[allow(unused_imports)]
        use ::cudagraph_runtime::__private::{BindCopy as _, BindRef as _};
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let y = (&::cudagraph_runtime::__private::Bind(&__cg_params.y)).__cg_bind();
        <DeviceBuffer<
            f32,
        > as ::cudagraph_runtime::__private::MemsetTarget>::memset(
            &__cg_params.y,
            0.0f32,
        )
    }
    #[allow(
        non_snake_case,
        unused_variables,
        clippy::type_complexity,
        clippy::needless_lifetimes
    )]
    fn __cg_eval_scale<'__cg_p>(
        __cg_params: &'__cg_p StepParams,
    ) -> (
        &'__cg_p ::cudagraph_runtime::__private::Kernel<
            (u32, f32, DevicePtr<f32>, DevicePtrMut<f32>),
        >,
        ::cudagraph_runtime::__private::LaunchConfig,
        (
            impl ::cudagraph_runtime::__private::KernelArg<'static, u32> + '__cg_p,
            impl ::cudagraph_runtime::__private::KernelArg<'static, f32> + '__cg_p,
            impl ::cudagraph_runtime::__private::KernelArg<
                'static,
                DevicePtr<f32>,
            > + '__cg_p,
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
        let saxpy = (&::cudagraph_runtime::__private::Bind(&__cg_params.saxpy))
            .__cg_bind();
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let n = (&::cudagraph_runtime::__private::Bind(&__cg_params.n)).__cg_bind();
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let alpha = (&::cudagraph_runtime::__private::Bind(&__cg_params.alpha))
            .__cg_bind();
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let x = (&::cudagraph_runtime::__private::Bind(&__cg_params.x)).__cg_bind();
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let y = (&::cudagraph_runtime::__private::Bind(&__cg_params.y)).__cg_bind();
        let config = ::cudagraph_runtime::__private::launch(n.div_ceil(256), 256, 0);
        let args = (
            ::cudagraph_runtime::__private::KernelArgPart::<'static, u32, _>::new(n),
            ::cudagraph_runtime::__private::KernelArgPart::<'static, f32, _>::new(alpha),
            ::cudagraph_runtime::__private::KernelArgPart::<
                'static,
                DevicePtr<f32>,
                _,
            >::new(x),
            ::cudagraph_runtime::__private::KernelArgPart::<
                'static,
                DevicePtrMut<f32>,
                _,
            >::new(y),
        );
        (
            <Kernel<
                (u32, f32, DevicePtr<f32>, DevicePtrMut<f32>),
            > as ::cudagraph_runtime::__private::KernelType>::as_kernel(
                &__cg_params.saxpy,
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
    fn __cg_eval_back<'__cg_p>(
        __cg_params: &'__cg_p StepParams,
    ) -> ::cudagraph_runtime::__private::Memcpy<
        'static,
        <(
            DeviceBuffer<f32>,
            HostBuffer<f32>,
        ) as ::cudagraph_runtime::__private::CopyPair>::Dir,
    > {
        #[allow(unused_imports)]
        use ::cudagraph_runtime::__private::{BindCopy as _, BindRef as _};
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let y = (&::cudagraph_runtime::__private::Bind(&__cg_params.y)).__cg_bind();
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let host_y = (&::cudagraph_runtime::__private::Bind(&__cg_params.host_y))
            .__cg_bind();
        <(
            DeviceBuffer<f32>,
            HostBuffer<f32>,
        ) as ::cudagraph_runtime::__private::CopyPair>::memcpy(
            &__cg_params.y,
            &__cg_params.host_y,
        )
    }
    #[allow(
        non_snake_case,
        unused_variables,
        clippy::type_complexity,
        clippy::needless_lifetimes
    )]
    fn __cg_eval_log<'__cg_p>(
        __cg_params: &'__cg_p StepParams,
    ) -> ::cudagraph_runtime::__private::HostWith {
        #[allow(unused_imports)]
        use ::cudagraph_runtime::__private::{BindCopy as _, BindRef as _};
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let done = (&::cudagraph_runtime::__private::Bind(&__cg_params.done))
            .__cg_bind();
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let host_y = (&::cudagraph_runtime::__private::Bind(&__cg_params.host_y))
            .__cg_bind();
        ::cudagraph_runtime::__private::host_with(&__cg_params.host_y, done)
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for Step {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("Step").field("graph", &self.parts.graph).finish_non_exhaustive()
    }
}
impl ::cudagraph_runtime::__private::BodyRules for Step {
    const FORBIDDEN_IN_BODY: ::cudagraph_runtime::__private::Option<
        &'static ::core::primitive::str,
    > = {
        #[allow(unused_imports)]
        use ::cudagraph_runtime::__private::{
            ArgsFallback as _, BodyFallback as _, ParamFallback as _, SlotFallback as _,
        };
        ::cudagraph_runtime::__private::first_forbidden(
            &[::cudagraph_runtime::__private::Option::Some("holds host node `log`")],
        )
    };
}
unsafe impl ::cudagraph_runtime::__private::ChildGraph for Step {
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
impl ::cudagraph_runtime::__private::SameDeclaration<Step> for Step {
    fn same(&self) -> &Step {
        self
    }
}
/**[`Step`], instantiated, with the [`StepParams`] it runs, which it owns ([`params`](Self::params)).

Change a param with its setter (`exec.set_alpha(0.5)?`, one per param: it updates the nodes that read it, and returns the old value), several at once or two swapped through [`params_mut`](Self::params_mut) ([`StepParamsMut`], whose changes the next launch applies if its `apply` did not), all of them by [`set_params`](Self::set_params); or update it from another [`Step`] ([`update`](Self::update)), or one node through its handle. Which node reads which param is known when the macro runs: a change updates the nodes that read it, each once, with nothing else compared.

A change is made whole or not at all. One that a node refuses (the driver or a kernel's check, params that would make two nodes race, or a change CUDA cannot make, such as an allocation's length) is the error of the setter, `apply`, `set_params` or launch that tried it, naming the node, and is undone: every param changed since the last update gets back the value the nodes were last updated from (the executable keeps a copy of those), the nodes updated before the refusal are set back, and nothing stays pending, so the next launch runs what ran before. A panic in your code that a change runs (a node expression, a param's `Clone`, `PartialEq` or `Drop`) may stop it part way: caught, it leaves the executable refusing updates and launches (`Error::Invalid`) until a whole-graph update. Memory the executable stops using is released once the launches that may use it are done.

Nodes:

- [`zero()`](Self::zero): memset node
- [`scale()`](Self::scale): kernel node
- [`back()`](Self::back): memcpy node
- [`log()`](Self::log): host node
*/
pub struct StepExec {
    parts: ::cudagraph_runtime::__private::Guarded<__StepExecParts>,
}
#[doc(hidden)]
#[allow(non_camel_case_types)]
struct __StepExecParts {
    exec: ::cudagraph_runtime::__private::GraphExec<'static>,
    nodes: ::cudagraph_runtime::__private::Box<
        ::cudagraph_runtime::__private::ManuallyDrop<__StepNodes>,
    >,
    state: __StepState,
    /// A copy of the params as the nodes were last updated from them: what a refused
    /// change puts back (see `__private::apply`).
    applied: ::cudagraph_runtime::__private::Box<StepParams>,
    /// The nodes that disagree with the params (see `__private::Tracker`).
    tracker: ::cudagraph_runtime::__private::Tracker,
}
impl StepExec {
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
            ::cudagraph_runtime::__private::ManuallyDrop<__StepNodes>,
        >,
        state: __StepState,
        applied: ::cudagraph_runtime::__private::Box<StepParams>,
    ) -> Self {
        let tracker = ::cudagraph_runtime::__private::Tracker::new(4usize, 7usize);
        let __cg_parts = __StepExecParts {
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
    /**Whole-graph update from a [`Step`] built with other params (`cuGraphExecUpdate`).

Only a graph of this declaration is accepted: it was built by the same sequence of calls, so its nodes pair with this executable's ([whole-graph update](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#whole-graph-update)). Afterwards the executable owns a copy of that graph's params (what [`params`](Self::params) shows), and changes made to its own params and not applied yet are dropped.*/
    pub fn update<__CgSame: ::cudagraph_runtime::__private::SameDeclaration<Step>>(
        &mut self,
        source: &__CgSame,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let source: &Step = ::cudagraph_runtime::__private::SameDeclaration::same(
            source,
        );
        let params = Step::__cg_own(&source.parts.state.params)?;
        let applied = Step::__cg_own(&source.parts.state.params)?;
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
    /**Replaces the executable's params with `params` as a whole: each param that differs from the executable's own is copied in, then the nodes that read a changed param (or were set through their handle since) are updated, each once, with one single-node update. Afterwards the nodes are what [`Step::build`] would make from `params`. Returns how many nodes it updated. Enabled/disabled states are kept.

It compares every param, so its cost grows with the declaration: to change a few params, set them (the setters `set_<param>`, [`params_mut`](Self::params_mut)), which updates only their readers. A param is compared with `PartialEq`, a kernel by function, a declared graph by identity; a runtime `Graph` counts as changed every time. A kernel param may change function (same parameter list, same context): the node's single-node update switches it.

Params under which two nodes that may run at the same time share memory, one writing it, are refused as by [`Step::build`], with nothing changed. So is any update a node refuses: the error names the node, and the params and the nodes updated before it are set back to what they were.*/
    pub fn set_params(
        &mut self,
        __cg_params: &StepParams,
    ) -> ::cudagraph_runtime::__private::Result<::core::primitive::usize> {
        Step::__cg_check_overlaps(__cg_params)?;
        self.__cg_take_0(__cg_params);
        ::cudagraph_runtime::__private::set_all(self)
    }
    ///The params the executable runs: those it was built from, with every change made since through the setters (`set_<param>`), [`params_mut`](Self::params_mut), [`set_params`](Self::set_params) or [`update`](Self::update). Host code reads the buffers among them as any buffer's holder does: `exec.params().y.to_vec()` waits for the launches that may write `y`.
    pub fn params(&self) -> &StepParams {
        &self.parts.state.params
    }
    /**A guard through which to change several params at once, or to swap two: [`StepParamsMut`]'s `set_<param>` and [`swap`](StepParamsMut::swap) change the params (read them through the guard) and mark the nodes that read them; [`StepParamsMut::apply`] updates those nodes, each once however many of its params changed, and if the guard is dropped instead, the next [`launch`](Self::launch) does. Either reports an update the driver or a kernel's check refuses as an error naming the node, and undoes the changes (the params and the nodes are as they were before them); nothing is lost when the guard is dropped.

```text
exec.params_mut().swap(|p| (&mut p.x, &mut p.x_new))?; // the ping-pong of a solver
exec.launch(&stream)?;                                 // updates x's and x_new's readers
```*/
    pub fn params_mut(&mut self) -> StepParamsMut<'_> {
        StepParamsMut { exec: self }
    }
    /// The params, taking the executable apart (it is dropped; memory its launches may
    /// still use stays alive until they are done).
    pub fn into_params(self) -> StepParams {
        *self.parts.into_inner().state.params
    }
    /// The runtime executable, for what the typed API does not cover (read-only).
    pub fn as_exec(&self) -> &::cudagraph_runtime::__private::GraphExec<'static> {
        &self.parts.exec
    }
    #[inline(never)]
    fn __cg_take_0(&mut self, __cg_params: &StepParams) {
        let __cg_parts = unsafe { self.parts.get_mut() };
        if !(<Kernel<
            (u32, f32, DevicePtr<f32>, DevicePtrMut<f32>),
        > as ::cudagraph_runtime::__private::KernelType>::function_id(&__cg_params.saxpy)
            == <Kernel<
                (u32, f32, DevicePtr<f32>, DevicePtrMut<f32>),
            > as ::cudagraph_runtime::__private::KernelType>::function_id(
                &__cg_parts.state.params.saxpy,
            ))
        {
            let value = <Kernel<
                (u32, f32, DevicePtr<f32>, DevicePtrMut<f32>),
            > as ::cudagraph_runtime::__private::KernelType>::keep(&__cg_params.saxpy);
            ::cudagraph_runtime::__private::stage_in::<
                Self,
            >(&mut __cg_parts.tracker, 0usize);
            __cg_parts.state.params.saxpy = value;
        }
        if !(<DeviceBuffer<
            f32,
        > as ::cudagraph_runtime::__private::ParamValue>::same(
            &__cg_params.x,
            &__cg_parts.state.params.x,
        )) {
            let value = <DeviceBuffer<
                f32,
            > as ::cudagraph_runtime::__private::ParamValue>::keep(&__cg_params.x);
            ::cudagraph_runtime::__private::stage_in::<
                Self,
            >(&mut __cg_parts.tracker, 1usize);
            __cg_parts.state.params.x = value;
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
            >(&mut __cg_parts.tracker, 2usize);
            __cg_parts.state.params.y = value;
        }
        if !(<HostBuffer<
            f32,
        > as ::cudagraph_runtime::__private::ParamValue>::same(
            &__cg_params.host_y,
            &__cg_parts.state.params.host_y,
        )) {
            let value = <HostBuffer<
                f32,
            > as ::cudagraph_runtime::__private::ParamValue>::keep(&__cg_params.host_y);
            ::cudagraph_runtime::__private::stage_in::<
                Self,
            >(&mut __cg_parts.tracker, 3usize);
            __cg_parts.state.params.host_y = value;
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
        if !(<f32 as ::cudagraph_runtime::__private::ParamValue>::same(
            &__cg_params.alpha,
            &__cg_parts.state.params.alpha,
        )) {
            let value = <f32 as ::cudagraph_runtime::__private::ParamValue>::keep(
                &__cg_params.alpha,
            );
            ::cudagraph_runtime::__private::stage_in::<
                Self,
            >(&mut __cg_parts.tracker, 5usize);
            __cg_parts.state.params.alpha = value;
        }
        if !(<fn(
            &[f32],
        ) as ::cudagraph_runtime::__private::ParamValue>::same(
            &__cg_params.done,
            &__cg_parts.state.params.done,
        )) {
            let value = <fn(
                &[f32],
            ) as ::cudagraph_runtime::__private::ParamValue>::keep(&__cg_params.done);
            ::cudagraph_runtime::__private::stage_in::<
                Self,
            >(&mut __cg_parts.tracker, 6usize);
            __cg_parts.state.params.done = value;
        }
    }
    ///Node `zero` (`memset(y, 0.0f32)`): its update handle.
    pub fn zero(&mut self) -> StepZeroNode<'_> {
        StepZeroNode { exec: self }
    }
    ///Node `scale` (`kernel saxpy<<<n.div_ceil(256), 256>>>(n, alpha, x, y)`): its update handle.
    pub fn scale(&mut self) -> StepScaleNode<'_> {
        StepScaleNode { exec: self }
    }
    ///Node `back` (`memcpy(y -> host_y)`): its update handle.
    pub fn back(&mut self) -> StepBackNode<'_> {
        StepBackNode { exec: self }
    }
    ///Node `log` (`host(done)`): its update handle.
    pub fn log(&mut self) -> StepLogNode<'_> {
        StepLogNode { exec: self }
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for StepExec {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("StepExec")
            .field("exec", &self.parts.exec)
            .finish_non_exhaustive()
    }
}
impl Step {
    /// A copy of `params`, for the graph and then its executable to keep: made field by
    /// field in place on the heap, a few dozen fields per function.
    #[allow(unused_variables, unused_unsafe)]
    fn __cg_own(
        __cg_params: &StepParams,
    ) -> ::cudagraph_runtime::__private::Result<
        ::cudagraph_runtime::__private::Box<StepParams>,
    > {
        let mut out = ::cudagraph_runtime::__private::Box::<StepParams>::new_uninit();
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
    unsafe fn __cg_own_0(__cg_params: &StepParams, dst: *mut StepParams) {
        unsafe {
            (&raw mut (*dst).saxpy)
                .write(
                    <Kernel<
                        (u32, f32, DevicePtr<f32>, DevicePtrMut<f32>),
                    > as ::cudagraph_runtime::__private::KernelType>::keep(
                        &__cg_params.saxpy,
                    ),
                );
            (&raw mut (*dst).x)
                .write(
                    <DeviceBuffer<
                        f32,
                    > as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_params.x,
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
            (&raw mut (*dst).host_y)
                .write(
                    <HostBuffer<
                        f32,
                    > as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_params.host_y,
                    ),
                );
            (&raw mut (*dst).n)
                .write(
                    <u32 as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_params.n,
                    ),
                );
            (&raw mut (*dst).alpha)
                .write(
                    <f32 as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_params.alpha,
                    ),
                );
            (&raw mut (*dst).done)
                .write(
                    <fn(
                        &[f32],
                    ) as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_params.done,
                    ),
                );
        }
    }
}
///The params of a [`StepParams`] as [`StepParamsMut::swap`] names them: a field per param, of the same name, holding no value (a `Slot` per param, an array of them per array param whose elements are params of their own). Given to `swap`'s `pick` instead of the params, so that it names the two to swap and cannot change any: `|p| (&mut p.x, &mut p.x_new)`. None can be made outside `swap`.
#[repr(C)]
#[allow(clippy::type_complexity)]
pub struct StepSlots {
    ///Param [`saxpy`](StepParams::saxpy), to swap.
    pub saxpy: ::cudagraph_runtime::__private::Slot<
        Kernel<(u32, f32, DevicePtr<f32>, DevicePtrMut<f32>)>,
    >,
    ///Param [`x`](StepParams::x), to swap.
    pub x: ::cudagraph_runtime::__private::Slot<DeviceBuffer<f32>>,
    ///Param [`y`](StepParams::y), to swap.
    pub y: ::cudagraph_runtime::__private::Slot<DeviceBuffer<f32>>,
    ///Param [`host_y`](StepParams::host_y), to swap.
    pub host_y: ::cudagraph_runtime::__private::Slot<HostBuffer<f32>>,
    ///Param [`n`](StepParams::n), to swap.
    pub n: ::cudagraph_runtime::__private::Slot<u32>,
    ///Param [`alpha`](StepParams::alpha), to swap.
    pub alpha: ::cudagraph_runtime::__private::Slot<f32>,
    ///Param [`done`](StepParams::done), to swap.
    pub done: ::cudagraph_runtime::__private::Slot<fn(&[f32])>,
}
const _: () = {
    ::core::assert!(
        ::cudagraph_runtime::__private::offset_of!(StepSlots, saxpy) == 0usize
    );
    ::core::assert!(::cudagraph_runtime::__private::offset_of!(StepSlots, x) == 1usize);
    ::core::assert!(::cudagraph_runtime::__private::offset_of!(StepSlots, y) == 2usize);
    ::core::assert!(
        ::cudagraph_runtime::__private::offset_of!(StepSlots, host_y) == 3usize
    );
    ::core::assert!(::cudagraph_runtime::__private::offset_of!(StepSlots, n) == 4usize);
    ::core::assert!(
        ::cudagraph_runtime::__private::offset_of!(StepSlots, alpha) == 5usize
    );
    ::core::assert!(
        ::cudagraph_runtime::__private::offset_of!(StepSlots, done) == 6usize
    );
    ::core::assert!(
        ::cudagraph_runtime::__private::size_of:: < StepSlots > () == 7usize
    );
};
const _: fn(&StepSlots, &StepParams) = |slots, params| {
    ::cudagraph_runtime::__private::slot_of(&slots.saxpy, &params.saxpy);
    ::cudagraph_runtime::__private::slot_of(&slots.x, &params.x);
    ::cudagraph_runtime::__private::slot_of(&slots.y, &params.y);
    ::cudagraph_runtime::__private::slot_of(&slots.host_y, &params.host_y);
    ::cudagraph_runtime::__private::slot_of(&slots.n, &params.n);
    ::cudagraph_runtime::__private::slot_of(&slots.alpha, &params.alpha);
    ::cudagraph_runtime::__private::slot_of(&slots.done, &params.done);
};
impl ::cudagraph_runtime::__private::fmt::Debug for StepSlots {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("StepSlots").finish_non_exhaustive()
    }
}
unsafe impl ::cudagraph_runtime::__private::Tracked for StepExec {
    type Params = StepParams;
    type Slots = StepSlots;
    const NAME: &'static ::core::primitive::str = "StepExec";
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
        (Self::__cg_update_node_3, 0u32),
    ];
    const READERS: &'static [(
        &'static [::core::primitive::u32],
        ::core::primitive::bool,
        ::core::primitive::bool,
    )] = &[
        (&[1u32], false, false),
        (&[1u32], false, false),
        (&[0u32, 1u32, 2u32], false, false),
        (&[2u32, 3u32], false, false),
        (&[1u32], false, false),
        (&[1u32], false, false),
        (&[3u32], false, false),
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
    ) -> &mut StepParams {
        &mut unsafe { self.parts.get_mut() }.state.params
    }
    #[inline(always)]
    fn applied_mut(
        &mut self,
        _: ::cudagraph_runtime::__private::Internal,
    ) -> &mut StepParams {
        &mut unsafe { self.parts.get_mut() }.applied
    }
    fn check(&self) -> ::cudagraph_runtime::__private::Result<()> {
        Step::__cg_check_overlaps(&self.parts.state.params)
    }
    #[inline]
    fn slot_offset(slot: ::core::primitive::usize) -> ::core::primitive::usize {
        match slot {
            0usize..7usize => Self::__cg_slot_offset_0(slot),
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
            0usize..7usize => self.__cg_sync_0(param, commit, key),
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
impl StepExec {
    /**Sets param `saxpy` and updates what reads it (node `scale`), one single-node update each. Returns the old value; on error, naming the node, nothing changes: the param keeps its old value and the nodes their updates (see [`StepExec`]).
*/
    pub fn set_saxpy(
        &mut self,
        value: Kernel<(u32, f32, DevicePtr<f32>, DevicePtrMut<f32>)>,
    ) -> ::cudagraph_runtime::__private::Result<
        Kernel<(u32, f32, DevicePtr<f32>, DevicePtrMut<f32>)>,
    > {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.parts.get_mut() }.state.params.saxpy,
            value,
        );
        {
            let commit = |exec: &mut Self| {
                let __cg_parts = unsafe { exec.parts.get_mut() };
                __cg_parts.applied.saxpy = <Kernel<
                    (u32, f32, DevicePtr<f32>, DevicePtrMut<f32>),
                > as ::cudagraph_runtime::__private::KernelType>::keep(
                    &__cg_parts.state.params.saxpy,
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
    /**Sets param `x` and updates what reads it (node `scale`), one single-node update each. Returns the old value; on error, naming the node, nothing changes: the param keeps its old value and the nodes their updates (see [`StepExec`]).
*/
    pub fn set_x(
        &mut self,
        value: DeviceBuffer<f32>,
    ) -> ::cudagraph_runtime::__private::Result<DeviceBuffer<f32>> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.parts.get_mut() }.state.params.x,
            value,
        );
        {
            let commit = |exec: &mut Self| {
                let __cg_parts = unsafe { exec.parts.get_mut() };
                __cg_parts.applied.x = <DeviceBuffer<
                    f32,
                > as ::cudagraph_runtime::__private::ParamValue>::keep(
                    &__cg_parts.state.params.x,
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
    /**Sets param `y` and updates what reads it (nodes `zero`, `scale`, `back`), one single-node update each. Returns the old value; on error, naming the node, nothing changes: the param keeps its old value and the nodes their updates (see [`StepExec`]).
*/
    pub fn set_y(
        &mut self,
        value: DeviceBuffer<f32>,
    ) -> ::cudagraph_runtime::__private::Result<DeviceBuffer<f32>> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.parts.get_mut() }.state.params.y,
            value,
        );
        ::cudagraph_runtime::__private::set_param(self, 2usize).map(|_| old)
    }
    /**Sets param `host_y` and updates what reads it (nodes `back`, `log`), one single-node update each. Returns the old value; on error, naming the node, nothing changes: the param keeps its old value and the nodes their updates (see [`StepExec`]).
*/
    pub fn set_host_y(
        &mut self,
        value: HostBuffer<f32>,
    ) -> ::cudagraph_runtime::__private::Result<HostBuffer<f32>> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.parts.get_mut() }.state.params.host_y,
            value,
        );
        ::cudagraph_runtime::__private::set_param(self, 3usize).map(|_| old)
    }
    /**Sets param `n` and updates what reads it (node `scale`), one single-node update each. Returns the old value; on error, naming the node, nothing changes: the param keeps its old value and the nodes their updates (see [`StepExec`]).
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
                    4usize,
                    1usize,
                    (Self::__cg_update_node_1, 0usize),
                    commit,
                )
            }
        }
            .map(|_| old)
    }
    /**Sets param `alpha` and updates what reads it (node `scale`), one single-node update each. Returns the old value; on error, naming the node, nothing changes: the param keeps its old value and the nodes their updates (see [`StepExec`]).
*/
    pub fn set_alpha(
        &mut self,
        value: f32,
    ) -> ::cudagraph_runtime::__private::Result<f32> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.parts.get_mut() }.state.params.alpha,
            value,
        );
        {
            let commit = |exec: &mut Self| {
                let __cg_parts = unsafe { exec.parts.get_mut() };
                __cg_parts.applied.alpha = <f32 as ::cudagraph_runtime::__private::ParamValue>::keep(
                    &__cg_parts.state.params.alpha,
                );
            };
            unsafe {
                ::cudagraph_runtime::__private::set_sole_reader(
                    self,
                    5usize,
                    1usize,
                    (Self::__cg_update_node_1, 0usize),
                    commit,
                )
            }
        }
            .map(|_| old)
    }
    /**Sets param `done` and updates what reads it (node `log`), one single-node update each. Returns the old value; on error, naming the node, nothing changes: the param keeps its old value and the nodes their updates (see [`StepExec`]).
*/
    pub fn set_done(
        &mut self,
        value: fn(&[f32]),
    ) -> ::cudagraph_runtime::__private::Result<fn(&[f32])> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.parts.get_mut() }.state.params.done,
            value,
        );
        {
            let commit = |exec: &mut Self| {
                let __cg_parts = unsafe { exec.parts.get_mut() };
                __cg_parts.applied.done = <fn(
                    &[f32],
                ) as ::cudagraph_runtime::__private::ParamValue>::keep(
                    &__cg_parts.state.params.done,
                );
            };
            unsafe {
                ::cudagraph_runtime::__private::set_sole_reader(
                    self,
                    6usize,
                    3usize,
                    (Self::__cg_update_node_3, 0usize),
                    commit,
                )
            }
        }
            .map(|_| old)
    }
    /**Swaps two params of one type, named by `pick` (`exec.swap(|p| (&mut p.x, &mut p.x_new))?`), and updates the nodes that read them, each once, before it returns: the ping-pong buffers of an iteration swapped between launches in one call. Returns how many nodes it updated. `pick` is given the params' slots ([`StepSlots`]), not their values: it names two params and changes none. As [`StepParamsMut::swap`] followed by `apply`: all or nothing (a refused update is reported, naming its node, and the swap undone), any other change pending applied with it.

Swapping two buffers the executable holds (a ping-pong) registers and releases nothing: the swap costs its readers' driver calls and the update of their records of memory.

# Errors

The error of the update that refused the swap, naming its node (a kernel's launch check, a driver error, two nodes that would race): the swap is undone.*/
    pub fn swap<S: ::cudagraph_runtime::__private::Pick>(
        &mut self,
        pick: impl FnOnce(&mut StepSlots) -> (&mut S, &mut S),
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
        let __cg_params: &StepParams = &__cg_parts.state.params;
        __cg_parts
            .exec
            .set_memset_params(
                __cg_parts.nodes.zero,
                Step::__cg_eval_zero(__cg_params),
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
        let __cg_params: &StepParams = &__cg_parts.state.params;
        let (kernel, config, args) = Step::__cg_eval_scale(__cg_params);
        __cg_parts.exec.set_kernel(__cg_parts.nodes.scale, kernel, config, args)?;
        __cg_parts.state.launch.scale = config;
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
        let __cg_params: &StepParams = &__cg_parts.state.params;
        __cg_parts
            .exec
            .set_memcpy_params(
                __cg_parts.nodes.back,
                Step::__cg_eval_back(__cg_params),
            )?;
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline(never)]
    #[allow(unused_variables)]
    fn __cg_update_node_3(
        &mut self,
        index: ::core::primitive::usize,
        _: ::cudagraph_runtime::__private::Internal,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.parts.get_mut() };
        let __cg_params: &StepParams = &__cg_parts.state.params;
        ::cudagraph_runtime::__private::set_host(
            &mut __cg_parts.exec,
            __cg_parts.nodes.log,
            Step::__cg_eval_log(__cg_params),
        )?;
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline]
    fn __cg_slot_offset_0(slot: ::core::primitive::usize) -> ::core::primitive::usize {
        match slot {
            0usize => ::cudagraph_runtime::__private::offset_of!(StepParams, saxpy),
            1usize => ::cudagraph_runtime::__private::offset_of!(StepParams, x),
            2usize => ::cudagraph_runtime::__private::offset_of!(StepParams, y),
            3usize => ::cudagraph_runtime::__private::offset_of!(StepParams, host_y),
            4usize => ::cudagraph_runtime::__private::offset_of!(StepParams, n),
            5usize => ::cudagraph_runtime::__private::offset_of!(StepParams, alpha),
            6usize => ::cudagraph_runtime::__private::offset_of!(StepParams, done),
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
                    __cg_parts.applied.saxpy = <Kernel<
                        (u32, f32, DevicePtr<f32>, DevicePtrMut<f32>),
                    > as ::cudagraph_runtime::__private::KernelType>::keep(
                        &__cg_parts.state.params.saxpy,
                    );
                } else {
                    __cg_parts.state.params.saxpy = <Kernel<
                        (u32, f32, DevicePtr<f32>, DevicePtrMut<f32>),
                    > as ::cudagraph_runtime::__private::KernelType>::keep(
                        &__cg_parts.applied.saxpy,
                    );
                }
            }
            1usize => {
                if commit {
                    __cg_parts.applied.x = <DeviceBuffer<
                        f32,
                    > as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_parts.state.params.x,
                    );
                } else {
                    __cg_parts.state.params.x = <DeviceBuffer<
                        f32,
                    > as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_parts.applied.x,
                    );
                }
            }
            2usize => {
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
            3usize => {
                if commit {
                    __cg_parts.applied.host_y = <HostBuffer<
                        f32,
                    > as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_parts.state.params.host_y,
                    );
                } else {
                    __cg_parts.state.params.host_y = <HostBuffer<
                        f32,
                    > as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_parts.applied.host_y,
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
            5usize => {
                if commit {
                    __cg_parts.applied.alpha = <f32 as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_parts.state.params.alpha,
                    );
                } else {
                    __cg_parts.state.params.alpha = <f32 as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_parts.applied.alpha,
                    );
                }
            }
            6usize => {
                if commit {
                    __cg_parts.applied.done = <fn(
                        &[f32],
                    ) as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_parts.state.params.done,
                    );
                } else {
                    __cg_parts.state.params.done = <fn(
                        &[f32],
                    ) as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_parts.applied.done,
                    );
                }
            }
            _ => {}
        }
    }
}
/**Changes to the params of a [`StepExec`], several at once ([`StepExec::params_mut`]). It reads as the params (`Deref`); `set_<param>` and [`swap`](Self::swap) change them and mark the nodes that read them, and [`apply`](Self::apply) updates those nodes, each once however many of its params changed. A guard dropped without `apply` leaves the changes to the executable's next launch, which applies them first: a change cannot be forgotten. An update that fails is the error of that `apply` or launch, naming the node (the launch launches nothing), and undoes the changes: the params and the nodes are as they were before them.

```text
let mut p = exec.params_mut();
p.set_n(n);                         // its readers are updated once,
p.set_scale(0.5);                   // even those reading both
p.swap(|p| (&mut p.x, &mut p.x_new))?;
p.apply()?;                         // or: the next exec.launch(&stream)
```*/
#[must_use = "changes made through the guard are applied by `apply`, or by the next launch"]
pub struct StepParamsMut<'a> {
    exec: &'a mut StepExec,
}
impl ::cudagraph_runtime::__private::Deref for StepParamsMut<'_> {
    type Target = StepParams;
    fn deref(&self) -> &StepParams {
        &self.exec.parts.state.params
    }
}
#[allow(clippy::type_complexity)]
impl StepParamsMut<'_> {
    ///Sets param `saxpy`, and marks what reads it (node `scale`) for the guard's [`apply`](Self::apply), or the executable's next launch. Returns the old value.
    #[inline]
    pub fn set_saxpy(
        &mut self,
        value: Kernel<(u32, f32, DevicePtr<f32>, DevicePtrMut<f32>)>,
    ) -> Kernel<(u32, f32, DevicePtr<f32>, DevicePtrMut<f32>)> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.exec.parts.get_mut() }.state.params.saxpy,
            value,
        );
        unsafe {
            ::cudagraph_runtime::__private::stage_sole_reader(self.exec, 0usize, 1usize)
        };
        old
    }
    ///Sets param `x`, and marks what reads it (node `scale`) for the guard's [`apply`](Self::apply), or the executable's next launch. Returns the old value.
    #[inline]
    pub fn set_x(&mut self, value: DeviceBuffer<f32>) -> DeviceBuffer<f32> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.exec.parts.get_mut() }.state.params.x,
            value,
        );
        unsafe {
            ::cudagraph_runtime::__private::stage_sole_reader(self.exec, 1usize, 1usize)
        };
        old
    }
    ///Sets param `y`, and marks what reads it (nodes `zero`, `scale`, `back`) for the guard's [`apply`](Self::apply), or the executable's next launch. Returns the old value.
    #[inline]
    pub fn set_y(&mut self, value: DeviceBuffer<f32>) -> DeviceBuffer<f32> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.exec.parts.get_mut() }.state.params.y,
            value,
        );
        ::cudagraph_runtime::__private::stage(self.exec, 2usize);
        old
    }
    ///Sets param `host_y`, and marks what reads it (nodes `back`, `log`) for the guard's [`apply`](Self::apply), or the executable's next launch. Returns the old value.
    #[inline]
    pub fn set_host_y(&mut self, value: HostBuffer<f32>) -> HostBuffer<f32> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.exec.parts.get_mut() }.state.params.host_y,
            value,
        );
        ::cudagraph_runtime::__private::stage(self.exec, 3usize);
        old
    }
    ///Sets param `n`, and marks what reads it (node `scale`) for the guard's [`apply`](Self::apply), or the executable's next launch. Returns the old value.
    #[inline]
    pub fn set_n(&mut self, value: u32) -> u32 {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.exec.parts.get_mut() }.state.params.n,
            value,
        );
        unsafe {
            ::cudagraph_runtime::__private::stage_sole_reader(self.exec, 4usize, 1usize)
        };
        old
    }
    ///Sets param `alpha`, and marks what reads it (node `scale`) for the guard's [`apply`](Self::apply), or the executable's next launch. Returns the old value.
    #[inline]
    pub fn set_alpha(&mut self, value: f32) -> f32 {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.exec.parts.get_mut() }.state.params.alpha,
            value,
        );
        unsafe {
            ::cudagraph_runtime::__private::stage_sole_reader(self.exec, 5usize, 1usize)
        };
        old
    }
    ///Sets param `done`, and marks what reads it (node `log`) for the guard's [`apply`](Self::apply), or the executable's next launch. Returns the old value.
    #[inline]
    pub fn set_done(&mut self, value: fn(&[f32])) -> fn(&[f32]) {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.exec.parts.get_mut() }.state.params.done,
            value,
        );
        unsafe {
            ::cudagraph_runtime::__private::stage_sole_reader(self.exec, 6usize, 3usize)
        };
        old
    }
    /**Swaps two params of one type, named by `pick` (`p.swap(|p| (&mut p.x, &mut p.x_new))`), and marks the nodes that read them. `pick` is given the params' slots ([`StepSlots`]), not their values: it names two params and changes none, so that the swap is the only change, and the tracker knows it. The slots of an array param are its elements' (`|p| (&mut p.w[0], &mut p.w[1])`); two arrays of slots (two array params, or runs of elements) are swapped element by element.

Never refused for slots of the struct `pick` is given (its signature allows no other).*/
    pub fn swap<S: ::cudagraph_runtime::__private::Pick>(
        &mut self,
        pick: impl FnOnce(&mut StepSlots) -> (&mut S, &mut S),
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
impl ::cudagraph_runtime::__private::fmt::Debug for StepParamsMut<'_> {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("StepParamsMut").finish_non_exhaustive()
    }
}
/**Update handle of node `zero` of [`StepExec`] (`memset(y, 0.0f32)`): its destination and value can change (1-D only), and it can be enabled or disabled ([what CUDA allows](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#individual-node-update)).

Memory given through the handle is not judged by the race rule, which judges the declaration's params: it must not be memory that a node no edge orders with this one uses, one of them writing it (host memory that host code uses is checked: `Error::Hazard`). A change of a param the node reads, or `set_params`, sets the node back to its params.*/
pub struct StepZeroNode<'a> {
    exec: &'a mut StepExec,
}
impl<'a> StepZeroNode<'a> {
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
                __cg_parts.nodes.zero,
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
        __cg_parts.exec.set_enabled(__cg_parts.nodes.zero, enabled)
    }
    /// Whether the node is enabled (`cuGraphNodeGetEnabled`).
    pub fn is_enabled(
        &self,
    ) -> ::cudagraph_runtime::__private::Result<::core::primitive::bool> {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.exec.is_enabled(__cg_parts.nodes.zero)
    }
    /// The node's runtime handle, for the runtime's own API.
    pub fn node(
        &self,
    ) -> ::cudagraph_runtime::__private::MemsetNode<
        <DeviceBuffer<f32> as ::cudagraph_runtime::__private::MemsetTarget>::Pattern,
    > {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.nodes.zero
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for StepZeroNode<'_> {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("StepZeroNode").field("index", &0usize).finish_non_exhaustive()
    }
}
/**Update handle of node `scale` of [`StepExec`] (`kernel saxpy<<<n.div_ceil(256), 256>>>(n, alpha, x, y)`): its arguments and launch configuration can change, and it can be enabled or disabled ([what CUDA allows](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#individual-node-update)).

Memory given through the handle is not judged by the race rule, which judges the declaration's params: it must not be memory that a node no edge orders with this one uses, one of them writing it (host memory that host code uses is checked: `Error::Hazard`). A change of a param the node reads, or `set_params`, sets the node back to its params.*/
pub struct StepScaleNode<'a> {
    exec: &'a mut StepExec,
}
impl<'a> StepScaleNode<'a> {
    ///Sets the kernel's arguments for the next launches, keeping the node's launch configuration (`cuGraphExecKernelNodeSetParams`). Memory the node stops using is released once the launches that may use it are done.
    pub fn set(
        &mut self,
        n: impl ::cudagraph_runtime::__private::KernelArg<'static, u32>,
        alpha: impl ::cudagraph_runtime::__private::KernelArg<'static, f32>,
        x: impl ::cudagraph_runtime::__private::KernelArg<'static, DevicePtr<f32>>,
        y: impl ::cudagraph_runtime::__private::KernelArg<'static, DevicePtrMut<f32>>,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = self.exec.parts.get();
        let config = __cg_parts.state.launch.scale;
        self.set_launch(config, n, alpha, x, y)
    }
    ///Sets the launch configuration and the kernel's arguments for the next launches (`cuGraphExecKernelNodeSetParams`).
    pub fn set_launch(
        &mut self,
        config: ::cudagraph_runtime::__private::LaunchConfig,
        n: impl ::cudagraph_runtime::__private::KernelArg<'static, u32>,
        alpha: impl ::cudagraph_runtime::__private::KernelArg<'static, f32>,
        x: impl ::cudagraph_runtime::__private::KernelArg<'static, DevicePtr<f32>>,
        y: impl ::cudagraph_runtime::__private::KernelArg<'static, DevicePtrMut<f32>>,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.exec.parts.get_mut() };
        __cg_parts
            .exec
            .set_kernel_params(__cg_parts.nodes.scale, config, (n, alpha, x, y))?;
        __cg_parts.state.launch.scale = config;
        __cg_parts.tracker.set_by_handle(1usize);
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    /// The node's launch configuration now.
    pub fn launch_config(&self) -> ::cudagraph_runtime::__private::LaunchConfig {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.state.launch.scale
    }
    /// Enables or disables the node for the next launches (`cuGraphNodeSetEnabled`). A
    /// disabled node acts as an empty node; params set meanwhile apply once it is enabled.
    pub fn set_enabled(
        &mut self,
        enabled: ::core::primitive::bool,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.exec.parts.get_mut() };
        __cg_parts.exec.set_enabled(__cg_parts.nodes.scale, enabled)
    }
    /// Whether the node is enabled (`cuGraphNodeGetEnabled`).
    pub fn is_enabled(
        &self,
    ) -> ::cudagraph_runtime::__private::Result<::core::primitive::bool> {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.exec.is_enabled(__cg_parts.nodes.scale)
    }
    /// The node's runtime handle, for the runtime's own API.
    pub fn node(
        &self,
    ) -> ::cudagraph_runtime::__private::KernelNode<
        (u32, f32, DevicePtr<f32>, DevicePtrMut<f32>),
    > {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.nodes.scale
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for StepScaleNode<'_> {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("StepScaleNode").field("index", &1usize).finish_non_exhaustive()
    }
}
/**Update handle of node `back` of [`StepExec`] (`memcpy(y -> host_y)`): its source and destination can change (same direction, 1-D only), and it can be enabled or disabled ([what CUDA allows](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#individual-node-update)).

Memory given through the handle is not judged by the race rule, which judges the declaration's params: it must not be memory that a node no edge orders with this one uses, one of them writing it (host memory that host code uses is checked: `Error::Hazard`). A change of a param the node reads, or `set_params`, sets the node back to its params.*/
pub struct StepBackNode<'a> {
    exec: &'a mut StepExec,
}
impl<'a> StepBackNode<'a> {
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
                DeviceBuffer<f32>,
                HostBuffer<f32>,
            ) as ::cudagraph_runtime::__private::CopyPair>::Dir,
            __CgElem,
        >,
    {
        let __cg_parts = unsafe { self.exec.parts.get_mut() };
        __cg_parts
            .exec
            .set_memcpy_params(
                __cg_parts.nodes.back,
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
        __cg_parts.exec.set_enabled(__cg_parts.nodes.back, enabled)
    }
    /// Whether the node is enabled (`cuGraphNodeGetEnabled`).
    pub fn is_enabled(
        &self,
    ) -> ::cudagraph_runtime::__private::Result<::core::primitive::bool> {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.exec.is_enabled(__cg_parts.nodes.back)
    }
    /// The node's runtime handle, for the runtime's own API.
    pub fn node(
        &self,
    ) -> ::cudagraph_runtime::__private::MemcpyNode<
        <(
            DeviceBuffer<f32>,
            HostBuffer<f32>,
        ) as ::cudagraph_runtime::__private::CopyPair>::Dir,
    > {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.nodes.back
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for StepBackNode<'_> {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("StepBackNode").field("index", &2usize).finish_non_exhaustive()
    }
}
/**Update handle of node `log` of [`StepExec`] (`host(done)`): its closure can change; CUDA cannot enable or disable it ([what CUDA allows](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#individual-node-update)).

Memory given through the handle is not judged by the race rule, which judges the declaration's params: it must not be memory that a node no edge orders with this one uses, one of them writing it (host memory that host code uses is checked: `Error::Hazard`). A change of a param the node reads, or `set_params`, sets the node back to its params.*/
pub struct StepLogNode<'a> {
    exec: &'a mut StepExec,
}
impl<'a> StepLogNode<'a> {
    /// Replaces the closure the node runs, for the next launches
    /// (`cuGraphExecHostNodeSetParams`). The old closure lives until the launches that
    /// may call it are done. The node gets no host buffers from then on.
    pub fn set(
        &mut self,
        f: impl ::cudagraph_runtime::__private::HostCallable,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.exec.parts.get_mut() };
        let set = ::cudagraph_runtime::__private::set_host(
            &mut __cg_parts.exec,
            __cg_parts.nodes.log,
            ::cudagraph_runtime::__private::host_plain(f),
        );
        set.map(|()| __cg_parts.tracker.set_by_handle(3usize))
    }
    /// Replaces the closure the node runs and the host buffers it gets (`&buffer` to
    /// read, `&mut buffer` to write, or a tuple of them), for the next launches. The
    /// node must stay ordered with every other node that uses those buffers.
    pub fn set_with<__CgViews: ::cudagraph_runtime::__private::HostViews>(
        &mut self,
        buffers: __CgViews,
        f: impl for<'v> FnMut(__CgViews::Views<'v>) + Send + 'static,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.exec.parts.get_mut() };
        let set = ::cudagraph_runtime::__private::set_host(
            &mut __cg_parts.exec,
            __cg_parts.nodes.log,
            ::cudagraph_runtime::__private::host_with(buffers, f),
        );
        set.map(|()| __cg_parts.tracker.set_by_handle(3usize))
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
    pub fn node(&self) -> ::cudagraph_runtime::__private::HostNode {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.nodes.log
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for StepLogNode<'_> {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("StepLogNode").field("index", &3usize).finish_non_exhaustive()
    }
}
fn main() {
    let _ = report;
}
