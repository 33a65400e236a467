//! Capture nodes that declare the memory their recorded work uses, between kernels.
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::Capture;
const _: () = {
    #[allow(unused_imports)]
    use ::cudagraph_runtime::__private::{
        ArgsFallback as _, BodyFallback as _, ParamFallback as _, SlotFallback as _,
    };
    if <::cudagraph_runtime::__private::ParamProbe<
        Kernel<(u32, DevicePtr<f32>, DevicePtrMut<f32>)>,
    >>::IS_HANDLE {
        ::cudagraph_runtime::__private::fail(
            "param `bias` is a `ConditionalHandle`: a handle is made by the conditional node that reads it (`name: while bias { ... }`), since one made for another graph would be set where no node reads it",
        )
    }
};
const _: () = {
    #[allow(unused_imports)]
    use ::cudagraph_runtime::__private::{
        ArgsFallback as _, BodyFallback as _, ParamFallback as _, SlotFallback as _,
    };
    if <::cudagraph_runtime::__private::ParamProbe<Capture>>::IS_HANDLE {
        ::cudagraph_runtime::__private::fail(
            "param `layer1` is a `ConditionalHandle`: a handle is made by the conditional node that reads it (`name: while layer1 { ... }`), since one made for another graph would be set where no node reads it",
        )
    }
};
const _: () = {
    #[allow(unused_imports)]
    use ::cudagraph_runtime::__private::{
        ArgsFallback as _, BodyFallback as _, ParamFallback as _, SlotFallback as _,
    };
    if <::cudagraph_runtime::__private::ParamProbe<Capture>>::IS_HANDLE {
        ::cudagraph_runtime::__private::fail(
            "param `layer2` is a `ConditionalHandle`: a handle is made by the conditional node that reads it (`name: while layer2 { ... }`), since one made for another graph would be set where no node reads it",
        )
    }
};
/**The params of [`Layers`]: what its nodes are built from ([`Layers::build`]), and what [`LayersExec::set_params`] compares to update only the nodes whose inputs changed.

- node `gemm1` reads `layer1`
- node `act` reads `bias`, `h`, `b`, `n`
- node `gemm2` reads `layer2`
*/
#[allow(clippy::type_complexity)]
struct LayersParams {
    ///Param `bias`, read by node `act`.
    pub bias: Kernel<(u32, DevicePtr<f32>, DevicePtrMut<f32>)>,
    ///Param `layer1`, read by node `gemm1`.
    pub layer1: Capture,
    ///Param `layer2`, read by node `gemm2`.
    pub layer2: Capture,
    ///Param `w1` (read by no node).
    pub w1: DeviceBuffer<f32>,
    ///Param `w2` (read by no node).
    pub w2: DeviceBuffer<f32>,
    ///Param `x` (read by no node).
    pub x: DeviceBuffer<f32>,
    ///Param `h`, read by node `act`.
    pub h: DeviceBuffer<f32>,
    ///Param `y` (read by no node).
    pub y: DeviceBuffer<f32>,
    ///Param `b`, read by node `act`.
    pub b: DeviceBuffer<f32>,
    ///Param `n`, read by node `act`.
    pub n: u32,
}
impl ::cudagraph_runtime::__private::fmt::Debug for LayersParams {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("LayersParams").finish_non_exhaustive()
    }
}
/**A CUDA graph declared with `cuda_graph!`: [`Layers::build`] builds it from a [`LayersParams`], [`Layers::instantiate`] makes it a [`LayersExec`].

# Nodes

In build order (a node's position is its index in the graph):

0. `gemm1`: `capture(layer1)`
1. `act`: `kernel bias<<<n.div_ceil(256), 256>>>(n, b, h)`, after `gemm1`
2. `gemm2`: `capture(layer2)`, after `act`

# Topology

<div style="overflow-x:auto"><svg xmlns="http://www.w3.org/2000/svg" role="img" width="80" height="200" viewBox="0 0 80 200" font-family="monospace" font-size="14" text-anchor="middle" fill="currentColor"><title>Topology of Layers: 3 nodes, 2 edges</title><defs><marker id="cg163c1a64" viewBox="0 0 8 8" refX="8" refY="4" markerWidth="8" markerHeight="8" orient="auto"><path d="M0 0L8 4L0 8z"/></marker></defs><g fill="none" stroke="currentColor" marker-end="url(#cg163c1a64)"><path d="M40 48V80"/><path d="M40 120V152"/></g><rect x="8" y="8" width="64" height="40" rx="4" fill="#f3f4f6" stroke="#4b5563"/><text x="40" y="25" fill="#111">gemm1</text><text x="40" y="41" font-size="11" fill="#374151">capture</text><rect x="11" y="80" width="58" height="40" rx="4" fill="#dbeafe" stroke="#1d4ed8"/><text x="40" y="97" fill="#111">act</text><text x="40" y="113" font-size="11" fill="#374151">kernel</text><rect x="8" y="152" width="64" height="40" rx="4" fill="#f3f4f6" stroke="#4b5563"/><text x="40" y="169" fill="#111">gemm2</text><text x="40" y="185" font-size="11" fill="#374151">capture</text></svg></div>

As text: `Layers::TOPOLOGY.to_mermaid()` (Mermaid) or `.to_dot()` (Graphviz).
*/
struct Layers {
    graph: ::cudagraph_runtime::__private::Graph<'static>,
    nodes: ::cudagraph_runtime::__private::Box<
        ::cudagraph_runtime::__private::ManuallyDrop<__LayersNodes>,
    >,
    state: __LayersState,
    build_id: u64,
}
#[doc(hidden)]
#[allow(non_camel_case_types, dead_code, clippy::type_complexity)]
struct __LayersNodes {
    gemm1: ::cudagraph_runtime::__private::ChildGraphNode,
    act: ::cudagraph_runtime::__private::KernelNode<
        (u32, DevicePtr<f32>, DevicePtrMut<f32>),
    >,
    gemm2: ::cudagraph_runtime::__private::ChildGraphNode,
}
unsafe impl ::cudagraph_runtime::__private::Unbuilt for __LayersNodes {}
#[doc(hidden)]
#[allow(non_camel_case_types, non_snake_case, dead_code, clippy::type_complexity)]
struct __LayersSnapshot0 {
    bias: usize,
    layer1: Capture,
    layer2: Capture,
    w1: DeviceBuffer<f32>,
    w2: DeviceBuffer<f32>,
    x: DeviceBuffer<f32>,
    h: DeviceBuffer<f32>,
    y: DeviceBuffer<f32>,
    b: DeviceBuffer<f32>,
    n: u32,
}
impl __LayersSnapshot0 {
    #[inline(never)]
    fn __cg_keep(__cg_params: &LayersParams) -> Self {
        Self {
            bias: <Kernel<
                (u32, DevicePtr<f32>, DevicePtrMut<f32>),
            > as ::cudagraph_runtime::__private::KernelType>::function_id(
                &__cg_params.bias,
            ),
            layer1: <Capture as ::cudagraph_runtime::__private::ParamValue>::keep(
                &__cg_params.layer1,
            ),
            layer2: <Capture as ::cudagraph_runtime::__private::ParamValue>::keep(
                &__cg_params.layer2,
            ),
            w1: <DeviceBuffer<
                f32,
            > as ::cudagraph_runtime::__private::ParamValue>::keep(&__cg_params.w1),
            w2: <DeviceBuffer<
                f32,
            > as ::cudagraph_runtime::__private::ParamValue>::keep(&__cg_params.w2),
            x: <DeviceBuffer<
                f32,
            > as ::cudagraph_runtime::__private::ParamValue>::keep(&__cg_params.x),
            h: <DeviceBuffer<
                f32,
            > as ::cudagraph_runtime::__private::ParamValue>::keep(&__cg_params.h),
            y: <DeviceBuffer<
                f32,
            > as ::cudagraph_runtime::__private::ParamValue>::keep(&__cg_params.y),
            b: <DeviceBuffer<
                f32,
            > as ::cudagraph_runtime::__private::ParamValue>::keep(&__cg_params.b),
            n: <u32 as ::cudagraph_runtime::__private::ParamValue>::keep(&__cg_params.n),
        }
    }
}
impl ::cudagraph_runtime::__private::Clone for __LayersSnapshot0 {
    #[inline(never)]
    fn clone(&self) -> Self {
        Self {
            bias: self.bias,
            layer1: <Capture as ::cudagraph_runtime::__private::ParamValue>::keep(
                &self.layer1,
            ),
            layer2: <Capture as ::cudagraph_runtime::__private::ParamValue>::keep(
                &self.layer2,
            ),
            w1: <DeviceBuffer<
                f32,
            > as ::cudagraph_runtime::__private::ParamValue>::keep(&self.w1),
            w2: <DeviceBuffer<
                f32,
            > as ::cudagraph_runtime::__private::ParamValue>::keep(&self.w2),
            x: <DeviceBuffer<
                f32,
            > as ::cudagraph_runtime::__private::ParamValue>::keep(&self.x),
            h: <DeviceBuffer<
                f32,
            > as ::cudagraph_runtime::__private::ParamValue>::keep(&self.h),
            y: <DeviceBuffer<
                f32,
            > as ::cudagraph_runtime::__private::ParamValue>::keep(&self.y),
            b: <DeviceBuffer<
                f32,
            > as ::cudagraph_runtime::__private::ParamValue>::keep(&self.b),
            n: <u32 as ::cudagraph_runtime::__private::ParamValue>::keep(&self.n),
        }
    }
}
#[doc(hidden)]
#[allow(non_camel_case_types)]
struct __LayersSnapshot {
    __cg_kept_0: __LayersSnapshot0,
}
impl __LayersSnapshot {
    /// What the executable keeps of `params`.
    #[allow(unused_variables)]
    fn __cg_keep(__cg_params: &LayersParams) -> Self {
        Self {
            __cg_kept_0: __LayersSnapshot0::__cg_keep(__cg_params),
        }
    }
}
impl ::cudagraph_runtime::__private::Clone for __LayersSnapshot {
    fn clone(&self) -> Self {
        Self {
            __cg_kept_0: ::cudagraph_runtime::__private::Clone::clone(&self.__cg_kept_0),
        }
    }
}
#[doc(hidden)]
#[allow(non_camel_case_types, non_snake_case, dead_code)]
#[derive(Clone, Copy)]
struct __LayersLaunch {
    act: ::cudagraph_runtime::__private::LaunchConfig,
}
unsafe impl ::cudagraph_runtime::__private::Unbuilt for __LayersLaunch {}
#[doc(hidden)]
#[allow(non_camel_case_types)]
struct __LayersState {
    params: __LayersSnapshot,
    launch: ::cudagraph_runtime::__private::Box<__LayersLaunch>,
}
impl Layers {
    /// The declared shape: nodes in build order (their indices in the graph; one more
    /// with `#[indirect]` params, whose fetch node comes first), kinds and edges. Its
    /// `to_dot()` and `to_mermaid()` draw it.
    pub const TOPOLOGY: ::cudagraph_runtime::__private::Topology = ::cudagraph_runtime::__private::Topology {
        name: "Layers",
        nodes: &[
            ("gemm1", ::cudagraph_runtime::__private::NodeKind::ChildGraph),
            ("act", ::cudagraph_runtime::__private::NodeKind::Kernel),
            ("gemm2", ::cudagraph_runtime::__private::NodeKind::ChildGraph),
        ],
        edges: &[(0usize, 1usize), (1usize, 2usize)],
        bodies: &[],
    };
    /// [`TOPOLOGY`](Self::TOPOLOGY) drawn as a standalone SVG image, laid out when the
    /// macro ran: the picture in this type's docs. Write it to a `.svg` file or put it
    /// in an HTML page; its lines and labels take the text colour of the page around it
    /// (black in a file of its own). It is in the binary only if the program calls this.
    pub const fn topology_svg() -> &'static str {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" width=\"80\" height=\"200\" viewBox=\"0 0 80 200\" font-family=\"monospace\" font-size=\"14\" text-anchor=\"middle\" fill=\"currentColor\"><title>Topology of Layers: 3 nodes, 2 edges</title><defs><marker id=\"cg163c1a64\" viewBox=\"0 0 8 8\" refX=\"8\" refY=\"4\" markerWidth=\"8\" markerHeight=\"8\" orient=\"auto\"><path d=\"M0 0L8 4L0 8z\"/></marker></defs><g fill=\"none\" stroke=\"currentColor\" marker-end=\"url(#cg163c1a64)\"><path d=\"M40 48V80\"/><path d=\"M40 120V152\"/></g><rect x=\"8\" y=\"8\" width=\"64\" height=\"40\" rx=\"4\" fill=\"#f3f4f6\" stroke=\"#4b5563\"/><text x=\"40\" y=\"25\" fill=\"#111\">gemm1</text><text x=\"40\" y=\"41\" font-size=\"11\" fill=\"#374151\">capture</text><rect x=\"11\" y=\"80\" width=\"58\" height=\"40\" rx=\"4\" fill=\"#dbeafe\" stroke=\"#1d4ed8\"/><text x=\"40\" y=\"97\" fill=\"#111\">act</text><text x=\"40\" y=\"113\" font-size=\"11\" fill=\"#374151\">kernel</text><rect x=\"8\" y=\"152\" width=\"64\" height=\"40\" rx=\"4\" fill=\"#f3f4f6\" stroke=\"#4b5563\"/><text x=\"40\" y=\"169\" fill=\"#111\">gemm2</text><text x=\"40\" y=\"185\" font-size=\"11\" fill=\"#374151\">capture</text></svg>"
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
        __cg_params: &LayersParams,
    ) -> ::cudagraph_runtime::__private::Result<Self> {
        Self::__cg_check_overlaps(__cg_params)?;
        let mut __cg_graph = ::cudagraph_runtime::__private::Graph::with_capacity(
            ctx,
            3usize,
        )?;
        let (nodes, state) = Self::__cg_add_nodes(&mut __cg_graph, __cg_params)?;
        ::cudagraph_runtime::__private::built(&__cg_graph, "Layers");
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
        __cg_params: &LayersParams,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        Self::__cg_check_overlaps(__cg_params)?;
        self.build_id = ::cudagraph_runtime::__private::next_build_id();
        self.graph.clear()?;
        let (nodes, state) = Self::__cg_add_nodes(&mut self.graph, __cg_params)?;
        ::cudagraph_runtime::__private::built(&self.graph, "Layers");
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
        __cg_params: &LayersParams,
    ) -> ::cudagraph_runtime::__private::Result<
        (
            ::cudagraph_runtime::__private::Box<
                ::cudagraph_runtime::__private::ManuallyDrop<__LayersNodes>,
            >,
            __LayersState,
        ),
    > {
        let mut boxed = ::cudagraph_runtime::__private::unbuilt_box::<
            ::cudagraph_runtime::__private::ManuallyDrop<__LayersNodes>,
        >();
        let mut configs = ::cudagraph_runtime::__private::unbuilt_box::<
            __LayersLaunch,
        >();
        {
            let nodes: &mut __LayersNodes = &mut boxed;
            #[allow(unused_variables)]
            let launches: &mut __LayersLaunch = &mut configs;
            Self::__cg_add_0(__cg_graph, __cg_params, nodes, launches)?;
        }
        ::cudagraph_runtime::__private::Result::Ok((
            boxed,
            __LayersState {
                params: __LayersSnapshot::__cg_keep(__cg_params),
                launch: configs,
            },
        ))
    }
    #[inline(never)]
    fn __cg_add_0(
        __cg_graph: &mut ::cudagraph_runtime::__private::Graph<'static>,
        __cg_params: &LayersParams,
        nodes: &mut __LayersNodes,
        launches: &mut __LayersLaunch,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        nodes.gemm1 = ::cudagraph_runtime::__private::add_node(
            __cg_graph,
            "gemm1",
            |__cg_graph| ::cudagraph_runtime::__private::add_declared_capture(
                __cg_graph,
                Layers::__cg_eval_gemm1(__cg_params),
                {
                    #[allow(unused_imports)]
                    use ::cudagraph_runtime::__private::{
                        ArgsFallback as _, BodyFallback as _, ParamFallback as _,
                        SlotFallback as _,
                    };
                    ::cudagraph_runtime::__private::Option::Some(
                        ::cudagraph_runtime::__private::Vec::from([
                            ::cudagraph_runtime::__private::declared_use(
                                ::cudagraph_runtime::__private::READ,
                                <::cudagraph_runtime::__private::ParamProbe<
                                    DeviceBuffer<f32>,
                                >>::bytes(&__cg_params.w1),
                            ),
                            ::cudagraph_runtime::__private::declared_use(
                                ::cudagraph_runtime::__private::READ,
                                <::cudagraph_runtime::__private::ParamProbe<
                                    DeviceBuffer<f32>,
                                >>::bytes(&__cg_params.x),
                            ),
                            ::cudagraph_runtime::__private::declared_use(
                                ::cudagraph_runtime::__private::WRITE,
                                <::cudagraph_runtime::__private::ParamProbe<
                                    DeviceBuffer<f32>,
                                >>::bytes(&__cg_params.h),
                            ),
                        ]),
                    )
                }
                    .as_deref(),
                &[],
            ),
        )?;
        (nodes.act, launches.act) = ::cudagraph_runtime::__private::add_node(
            __cg_graph,
            "act",
            |__cg_graph| {
                let (kernel, config, args) = Layers::__cg_eval_act(__cg_params);
                ::cudagraph_runtime::__private::Result::Ok((
                    __cg_graph.add_kernel(kernel, config, args, &[nodes.gemm1.id()])?,
                    config,
                ))
            },
        )?;
        nodes.gemm2 = ::cudagraph_runtime::__private::add_node(
            __cg_graph,
            "gemm2",
            |__cg_graph| ::cudagraph_runtime::__private::add_declared_capture(
                __cg_graph,
                Layers::__cg_eval_gemm2(__cg_params),
                {
                    #[allow(unused_imports)]
                    use ::cudagraph_runtime::__private::{
                        ArgsFallback as _, BodyFallback as _, ParamFallback as _,
                        SlotFallback as _,
                    };
                    ::cudagraph_runtime::__private::Option::Some(
                        ::cudagraph_runtime::__private::Vec::from([
                            ::cudagraph_runtime::__private::declared_use(
                                ::cudagraph_runtime::__private::READ,
                                <::cudagraph_runtime::__private::ParamProbe<
                                    DeviceBuffer<f32>,
                                >>::bytes(&__cg_params.w2),
                            ),
                            ::cudagraph_runtime::__private::declared_use(
                                ::cudagraph_runtime::__private::READ,
                                <::cudagraph_runtime::__private::ParamProbe<
                                    DeviceBuffer<f32>,
                                >>::bytes(&__cg_params.h),
                            ),
                            ::cudagraph_runtime::__private::declared_use(
                                ::cudagraph_runtime::__private::WRITE,
                                <::cudagraph_runtime::__private::ParamProbe<
                                    DeviceBuffer<f32>,
                                >>::bytes(&__cg_params.y),
                            ),
                        ]),
                    )
                }
                    .as_deref(),
                &[nodes.act.id()],
            ),
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
        __cg_params: &LayersParams,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        #[allow(unused_imports)]
        use ::cudagraph_runtime::__private::{
            ArgsFallback as _, BodyFallback as _, ParamFallback as _, SlotFallback as _,
        };
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    ///Instantiates the graph with default flags.
    pub fn instantiate(self) -> ::cudagraph_runtime::__private::Result<LayersExec> {
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
    ) -> ::cudagraph_runtime::__private::Result<LayersExec> {
        ::cudagraph_runtime::__private::Result::Ok(LayersExec {
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
    fn __cg_eval_gemm1<'__cg_p>(
        __cg_params: &'__cg_p LayersParams,
    ) -> &'__cg_p ::cudagraph_runtime::__private::Capture {
        #[allow(unused_imports)]
        use ::cudagraph_runtime::__private::{BindCopy as _, BindRef as _};
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let layer1 = (&::cudagraph_runtime::__private::Bind(&__cg_params.layer1))
            .__cg_bind();
        ::cudagraph_runtime::__private::CaptureParam::capture(&__cg_params.layer1)
    }
    #[allow(
        non_snake_case,
        unused_variables,
        clippy::type_complexity,
        clippy::needless_lifetimes
    )]
    fn __cg_eval_act<'__cg_p>(
        __cg_params: &'__cg_p LayersParams,
    ) -> (
        &'__cg_p ::cudagraph_runtime::__private::Kernel<
            (u32, DevicePtr<f32>, DevicePtrMut<f32>),
        >,
        ::cudagraph_runtime::__private::LaunchConfig,
        (
            impl ::cudagraph_runtime::__private::KernelArg<'static, u32> + '__cg_p,
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
        let bias = (&::cudagraph_runtime::__private::Bind(&__cg_params.bias))
            .__cg_bind();
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let n = (&::cudagraph_runtime::__private::Bind(&__cg_params.n)).__cg_bind();
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let b = (&::cudagraph_runtime::__private::Bind(&__cg_params.b)).__cg_bind();
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let h = (&::cudagraph_runtime::__private::Bind(&__cg_params.h)).__cg_bind();
        let config = ::cudagraph_runtime::__private::launch(n.div_ceil(256), 256, 0);
        let args = (
            ::cudagraph_runtime::__private::KernelArgPart::<'static, u32, _>::new(n),
            ::cudagraph_runtime::__private::KernelArgPart::<
                'static,
                DevicePtr<f32>,
                _,
            >::new(b),
            ::cudagraph_runtime::__private::KernelArgPart::<
                'static,
                DevicePtrMut<f32>,
                _,
            >::new(h),
        );
        (
            <Kernel<
                (u32, DevicePtr<f32>, DevicePtrMut<f32>),
            > as ::cudagraph_runtime::__private::KernelType>::as_kernel(
                &__cg_params.bias,
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
    fn __cg_eval_gemm2<'__cg_p>(
        __cg_params: &'__cg_p LayersParams,
    ) -> &'__cg_p ::cudagraph_runtime::__private::Capture {
        #[allow(unused_imports)]
        use ::cudagraph_runtime::__private::{BindCopy as _, BindRef as _};
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let layer2 = (&::cudagraph_runtime::__private::Bind(&__cg_params.layer2))
            .__cg_bind();
        ::cudagraph_runtime::__private::CaptureParam::capture(&__cg_params.layer2)
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for Layers {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("Layers").field("graph", &self.graph).finish_non_exhaustive()
    }
}
impl ::cudagraph_runtime::__private::BodyRules for Layers {
    const FORBIDDEN_IN_BODY: ::cudagraph_runtime::__private::Option<&'static str> = {
        #[allow(unused_imports)]
        use ::cudagraph_runtime::__private::{
            ArgsFallback as _, BodyFallback as _, ParamFallback as _, SlotFallback as _,
        };
        ::cudagraph_runtime::__private::first_forbidden(&[])
    };
}
impl ::cudagraph_runtime::__private::ChildGraph for Layers {
    fn graph(&self) -> &::cudagraph_runtime::__private::Graph<'static> {
        &self.graph
    }
    fn identity(&self) -> ::cudagraph_runtime::__private::Option<u64> {
        ::cudagraph_runtime::__private::Option::Some(self.build_id)
    }
}
impl ::cudagraph_runtime::__private::SameDeclaration<Layers> for Layers {
    fn same(&self) -> &Layers {
        self
    }
}
/**[`Layers`], instantiated: launch it, update it from another [`Layers`] or with [`set_params`](Self::set_params), or update one node through its handle:

- [`gemm1()`](Self::gemm1): capture node
- [`act()`](Self::act): kernel node
- [`gemm2()`](Self::gemm2): capture node
*/
struct LayersExec {
    exec: ::cudagraph_runtime::__private::GraphExec<'static>,
    nodes: ::cudagraph_runtime::__private::Box<
        ::cudagraph_runtime::__private::ManuallyDrop<__LayersNodes>,
    >,
    state: __LayersState,
    /// Nodes set through their handles since the last `set_params`: it sets them again.
    dirty: [bool; 3usize],
    /// Per node, the number of the last `set_params_only` call naming several params that
    /// updated it (so that it updates each node once).
    stamps: ::cudagraph_runtime::__private::Box<[u32]>,
    /// The number of the last such call.
    generation: u32,
}
impl LayersExec {
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
    /**Whole-graph update from a [`Layers`] built with other params (`cuGraphExecUpdate`).

Only a graph of this declaration is accepted: it was built by the same sequence of calls, so its nodes pair with this executable's ([whole-graph update](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#whole-graph-update)). Afterwards the executable runs that graph's params, and [`set_params`](Self::set_params) compares with them.*/
    pub fn update<__CgSame: ::cudagraph_runtime::__private::SameDeclaration<Layers>>(
        &mut self,
        source: &__CgSame,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let source: &Layers = ::cudagraph_runtime::__private::SameDeclaration::same(
            source,
        );
        self.exec.update(&source.graph)?;
        self.state.params = source.state.params.clone();
        *self.state.launch = *source.state.launch;
        self.dirty = [false; 3usize];
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    /**Makes the executable's nodes what [`Layers::build`] would make from `params`, with one single-node update per node whose inputs changed since the last build, update or `set_params` (or that was set through its handle since). Returns how many nodes it updated. Enabled/disabled states are kept.

A param is compared with `PartialEq`, a kernel by function, a declared graph by identity; a runtime `Graph` counts as changed every time. A kernel param may change function (same parameter list, same context): the node's single-node update switches it.*/
    pub fn set_params(
        &mut self,
        __cg_params: &LayersParams,
    ) -> ::cudagraph_runtime::__private::Result<usize> {
        Layers::__cg_check_overlaps(__cg_params)?;
        #[allow(unused_mut)]
        let mut changed = [false; 10usize];
        self.__cg_changed_0(__cg_params, &mut changed);
        let mut updated = 0usize;
        #[allow(clippy::type_complexity)]
        const READS: &[(
            usize,
            &[usize],
            fn(
                &mut LayersExec,
                &LayersParams,
                usize,
            ) -> ::cudagraph_runtime::__private::Result<()>,
            usize,
        )] = &[
            (0usize, &[1usize], LayersExec::__cg_update_node_0, 0usize),
            (
                1usize,
                &[0usize, 6usize, 8usize, 9usize],
                LayersExec::__cg_update_node_1,
                0usize,
            ),
            (2usize, &[2usize], LayersExec::__cg_update_node_2, 0usize),
        ];
        for &(pos, reads, update, index) in READS {
            if self.dirty[pos] || reads.iter().any(|&i| changed[i]) {
                self.dirty[pos] = true;
                update(self, __cg_params, index)?;
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
    fn __cg_changed_0(&self, __cg_params: &LayersParams, changed: &mut [bool; 10usize]) {
        changed[0usize] = !(<Kernel<
            (u32, DevicePtr<f32>, DevicePtrMut<f32>),
        > as ::cudagraph_runtime::__private::KernelType>::function_id(&__cg_params.bias)
            == self.state.params.__cg_kept_0.bias);
        changed[1usize] = !(<Capture as ::cudagraph_runtime::__private::ParamValue>::same(
            &__cg_params.layer1,
            &self.state.params.__cg_kept_0.layer1,
        ));
        changed[2usize] = !(<Capture as ::cudagraph_runtime::__private::ParamValue>::same(
            &__cg_params.layer2,
            &self.state.params.__cg_kept_0.layer2,
        ));
        changed[3usize] = !(<DeviceBuffer<
            f32,
        > as ::cudagraph_runtime::__private::ParamValue>::same(
            &__cg_params.w1,
            &self.state.params.__cg_kept_0.w1,
        ));
        changed[4usize] = !(<DeviceBuffer<
            f32,
        > as ::cudagraph_runtime::__private::ParamValue>::same(
            &__cg_params.w2,
            &self.state.params.__cg_kept_0.w2,
        ));
        changed[5usize] = !(<DeviceBuffer<
            f32,
        > as ::cudagraph_runtime::__private::ParamValue>::same(
            &__cg_params.x,
            &self.state.params.__cg_kept_0.x,
        ));
        changed[6usize] = !(<DeviceBuffer<
            f32,
        > as ::cudagraph_runtime::__private::ParamValue>::same(
            &__cg_params.h,
            &self.state.params.__cg_kept_0.h,
        ));
        changed[7usize] = !(<DeviceBuffer<
            f32,
        > as ::cudagraph_runtime::__private::ParamValue>::same(
            &__cg_params.y,
            &self.state.params.__cg_kept_0.y,
        ));
        changed[8usize] = !(<DeviceBuffer<
            f32,
        > as ::cudagraph_runtime::__private::ParamValue>::same(
            &__cg_params.b,
            &self.state.params.__cg_kept_0.b,
        ));
        changed[9usize] = !(<u32 as ::cudagraph_runtime::__private::ParamValue>::same(
            &__cg_params.n,
            &self.state.params.__cg_kept_0.n,
        ));
    }
    ///Node `gemm1` (`capture(layer1)`): its update handle.
    pub fn gemm1(&mut self) -> LayersGemm1Node<'_> {
        LayersGemm1Node { exec: self }
    }
    ///Node `act` (`kernel bias<<<n.div_ceil(256), 256>>>(n, b, h)`): its update handle.
    pub fn act(&mut self) -> LayersActNode<'_> {
        LayersActNode { exec: self }
    }
    ///Node `gemm2` (`capture(layer2)`): its update handle.
    pub fn gemm2(&mut self) -> LayersGemm2Node<'_> {
        LayersGemm2Node { exec: self }
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for LayersExec {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("LayersExec").field("exec", &self.exec).finish_non_exhaustive()
    }
}
///The params of [`LayersParams`], one variant each: what [`LayersExec::set_params_only`] is told changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(dead_code)]
enum LayersParam {
    ///Param `bias`.
    Bias,
    ///Param `layer1`.
    Layer1,
    ///Param `layer2`.
    Layer2,
    ///Param `w1`.
    W1,
    ///Param `w2`.
    W2,
    ///Param `x`.
    X,
    ///Param `h`.
    H,
    ///Param `y`.
    Y,
    ///Param `b`.
    B,
    ///Param `n`.
    N,
}
impl LayersExec {
    /**Like [`set_params`](Self::set_params), for callers that know what they changed: updates the nodes whose expressions read a param in `changed` (each once), and only them, so its cost grows with the nodes updated, not with the graph. Returns how many nodes it updated.

A changed param missing from `changed` leaves its nodes as they were (the executable keeps alive whatever memory they use); nodes set through their handles are not reset (`set_params` does both). Params that share memory with another under nodes that may run at the same time are refused as by [`Layers::build`].*/
    pub fn set_params_only(
        &mut self,
        __cg_params: &LayersParams,
        changed: &[LayersParam],
    ) -> ::cudagraph_runtime::__private::Result<usize> {
        Layers::__cg_check_overlaps(__cg_params)?;
        for &__cg_param in changed {
            match __cg_param {
                LayersParam::Bias => {}
                LayersParam::Layer1 => {}
                LayersParam::Layer2 => {}
                LayersParam::W1 => {}
                LayersParam::W2 => {}
                LayersParam::X => {}
                LayersParam::H => {}
                LayersParam::Y => {}
                LayersParam::B => {}
                LayersParam::N => {}
            }
        }
        let mut updated = 0usize;
        if let [__cg_param] = changed {
            let (readers, commit) = Self::__CG_PARAMS[*__cg_param as usize];
            for &(_, update, index) in readers {
                update(self, __cg_params, index)?;
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
            for &(pos, update, index) in Self::__CG_PARAMS[__cg_param as usize].0 {
                if self.stamps[pos] != stamp {
                    self.stamps[pos] = stamp;
                    update(self, __cg_params, index)?;
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
            fn(
                &mut Self,
                &LayersParams,
                usize,
            ) -> ::cudagraph_runtime::__private::Result<()>,
            usize,
        )],
        fn(&mut Self, &LayersParams) -> ::cudagraph_runtime::__private::Result<()>,
    )] = &[
        (&[(1usize, Self::__cg_update_node_1, 0usize)], Self::__cg_commit_0),
        (&[(0usize, Self::__cg_update_node_0, 0usize)], Self::__cg_commit_1),
        (&[(2usize, Self::__cg_update_node_2, 0usize)], Self::__cg_commit_2),
        (&[], Self::__cg_commit_3),
        (&[], Self::__cg_commit_4),
        (&[], Self::__cg_commit_5),
        (&[(1usize, Self::__cg_update_node_1, 0usize)], Self::__cg_commit_6),
        (&[], Self::__cg_commit_7),
        (&[(1usize, Self::__cg_update_node_1, 0usize)], Self::__cg_commit_8),
        (&[(1usize, Self::__cg_update_node_1, 0usize)], Self::__cg_commit_9),
    ];
    #[inline(never)]
    fn __cg_commit_0(
        &mut self,
        __cg_params: &LayersParams,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        self.state.params.__cg_kept_0.bias = <Kernel<
            (u32, DevicePtr<f32>, DevicePtrMut<f32>),
        > as ::cudagraph_runtime::__private::KernelType>::function_id(&__cg_params.bias);
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline(never)]
    fn __cg_commit_1(
        &mut self,
        __cg_params: &LayersParams,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        self.state.params.__cg_kept_0.layer1 = <Capture as ::cudagraph_runtime::__private::ParamValue>::keep(
            &__cg_params.layer1,
        );
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline(never)]
    fn __cg_commit_2(
        &mut self,
        __cg_params: &LayersParams,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        self.state.params.__cg_kept_0.layer2 = <Capture as ::cudagraph_runtime::__private::ParamValue>::keep(
            &__cg_params.layer2,
        );
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline(never)]
    fn __cg_commit_3(
        &mut self,
        __cg_params: &LayersParams,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        self.state.params.__cg_kept_0.w1 = <DeviceBuffer<
            f32,
        > as ::cudagraph_runtime::__private::ParamValue>::keep(&__cg_params.w1);
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline(never)]
    fn __cg_commit_4(
        &mut self,
        __cg_params: &LayersParams,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        self.state.params.__cg_kept_0.w2 = <DeviceBuffer<
            f32,
        > as ::cudagraph_runtime::__private::ParamValue>::keep(&__cg_params.w2);
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline(never)]
    fn __cg_commit_5(
        &mut self,
        __cg_params: &LayersParams,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        self.state.params.__cg_kept_0.x = <DeviceBuffer<
            f32,
        > as ::cudagraph_runtime::__private::ParamValue>::keep(&__cg_params.x);
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline(never)]
    fn __cg_commit_6(
        &mut self,
        __cg_params: &LayersParams,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        self.state.params.__cg_kept_0.h = <DeviceBuffer<
            f32,
        > as ::cudagraph_runtime::__private::ParamValue>::keep(&__cg_params.h);
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline(never)]
    fn __cg_commit_7(
        &mut self,
        __cg_params: &LayersParams,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        self.state.params.__cg_kept_0.y = <DeviceBuffer<
            f32,
        > as ::cudagraph_runtime::__private::ParamValue>::keep(&__cg_params.y);
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline(never)]
    fn __cg_commit_8(
        &mut self,
        __cg_params: &LayersParams,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        self.state.params.__cg_kept_0.b = <DeviceBuffer<
            f32,
        > as ::cudagraph_runtime::__private::ParamValue>::keep(&__cg_params.b);
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline(never)]
    fn __cg_commit_9(
        &mut self,
        __cg_params: &LayersParams,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        self.state.params.__cg_kept_0.n = <u32 as ::cudagraph_runtime::__private::ParamValue>::keep(
            &__cg_params.n,
        );
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline(never)]
    #[allow(unused_variables)]
    fn __cg_update_node_0(
        &mut self,
        __cg_params: &LayersParams,
        index: usize,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        ::cudagraph_runtime::__private::set_declared_capture(
            &mut self.exec,
            self.nodes.gemm1,
            Layers::__cg_eval_gemm1(__cg_params),
            {
                #[allow(unused_imports)]
                use ::cudagraph_runtime::__private::{
                    ArgsFallback as _, BodyFallback as _, ParamFallback as _,
                    SlotFallback as _,
                };
                ::cudagraph_runtime::__private::Option::Some(
                    ::cudagraph_runtime::__private::Vec::from([
                        ::cudagraph_runtime::__private::declared_use(
                            ::cudagraph_runtime::__private::READ,
                            <::cudagraph_runtime::__private::ParamProbe<
                                DeviceBuffer<f32>,
                            >>::bytes(&__cg_params.w1),
                        ),
                        ::cudagraph_runtime::__private::declared_use(
                            ::cudagraph_runtime::__private::READ,
                            <::cudagraph_runtime::__private::ParamProbe<
                                DeviceBuffer<f32>,
                            >>::bytes(&__cg_params.x),
                        ),
                        ::cudagraph_runtime::__private::declared_use(
                            ::cudagraph_runtime::__private::WRITE,
                            <::cudagraph_runtime::__private::ParamProbe<
                                DeviceBuffer<f32>,
                            >>::bytes(&__cg_params.h),
                        ),
                    ]),
                )
            }
                .as_deref(),
        )?;
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline(never)]
    #[allow(unused_variables)]
    fn __cg_update_node_1(
        &mut self,
        __cg_params: &LayersParams,
        index: usize,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let (kernel, config, args) = Layers::__cg_eval_act(__cg_params);
        self.exec.set_kernel(self.nodes.act, kernel, config, args)?;
        self.state.launch.act = config;
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline(never)]
    #[allow(unused_variables)]
    fn __cg_update_node_2(
        &mut self,
        __cg_params: &LayersParams,
        index: usize,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        ::cudagraph_runtime::__private::set_declared_capture(
            &mut self.exec,
            self.nodes.gemm2,
            Layers::__cg_eval_gemm2(__cg_params),
            {
                #[allow(unused_imports)]
                use ::cudagraph_runtime::__private::{
                    ArgsFallback as _, BodyFallback as _, ParamFallback as _,
                    SlotFallback as _,
                };
                ::cudagraph_runtime::__private::Option::Some(
                    ::cudagraph_runtime::__private::Vec::from([
                        ::cudagraph_runtime::__private::declared_use(
                            ::cudagraph_runtime::__private::READ,
                            <::cudagraph_runtime::__private::ParamProbe<
                                DeviceBuffer<f32>,
                            >>::bytes(&__cg_params.w2),
                        ),
                        ::cudagraph_runtime::__private::declared_use(
                            ::cudagraph_runtime::__private::READ,
                            <::cudagraph_runtime::__private::ParamProbe<
                                DeviceBuffer<f32>,
                            >>::bytes(&__cg_params.h),
                        ),
                        ::cudagraph_runtime::__private::declared_use(
                            ::cudagraph_runtime::__private::WRITE,
                            <::cudagraph_runtime::__private::ParamProbe<
                                DeviceBuffer<f32>,
                            >>::bytes(&__cg_params.y),
                        ),
                    ]),
                )
            }
                .as_deref(),
        )?;
        ::cudagraph_runtime::__private::Result::Ok(())
    }
}
///Update handle of node `gemm1` of [`LayersExec`] (`capture(layer1)`): its work can be recorded again from another `Capture` (the recorded graph must have the same topology); CUDA cannot enable or disable it ([what CUDA allows](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#individual-node-update)).
struct LayersGemm1Node<'a> {
    exec: &'a mut LayersExec,
}
impl<'a> LayersGemm1Node<'a> {
    /// Records `work` and makes the node run it, for the next launches
    /// (`cuGraphExecChildGraphNodeSetParams`); the recorded graph must have the
    /// topology of the node's current one. When the node declares the memory its
    /// work uses, the new work may use only what the current work uses, as it uses
    /// it (to use other declared memory, change the params and `set_params`).
    pub fn set(
        &mut self,
        work: &::cudagraph_runtime::__private::Capture,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        self.exec.dirty[0usize] = true;
        ::cudagraph_runtime::__private::set_capture_by_handle(
            &mut self.exec.exec,
            self.exec.nodes.gemm1,
            work,
            true,
        )
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
    pub fn node(&self) -> ::cudagraph_runtime::__private::ChildGraphNode {
        self.exec.nodes.gemm1
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for LayersGemm1Node<'_> {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("LayersGemm1Node").field("index", &0usize).finish_non_exhaustive()
    }
}
///Update handle of node `act` of [`LayersExec`] (`kernel bias<<<n.div_ceil(256), 256>>>(n, b, h)`): its arguments and launch configuration can change, and it can be enabled or disabled ([what CUDA allows](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#individual-node-update)).
struct LayersActNode<'a> {
    exec: &'a mut LayersExec,
}
impl<'a> LayersActNode<'a> {
    ///Sets the kernel's arguments for the next launches, keeping the node's launch configuration (`cuGraphExecKernelNodeSetParams`). Memory the node stops using is released once the launches that may use it are done.
    pub fn set(
        &mut self,
        n: impl ::cudagraph_runtime::__private::KernelArg<'static, u32>,
        b: impl ::cudagraph_runtime::__private::KernelArg<'static, DevicePtr<f32>>,
        h: impl ::cudagraph_runtime::__private::KernelArg<'static, DevicePtrMut<f32>>,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let config = self.exec.state.launch.act;
        self.set_launch(config, n, b, h)
    }
    ///Sets the launch configuration and the kernel's arguments for the next launches (`cuGraphExecKernelNodeSetParams`).
    pub fn set_launch(
        &mut self,
        config: ::cudagraph_runtime::__private::LaunchConfig,
        n: impl ::cudagraph_runtime::__private::KernelArg<'static, u32>,
        b: impl ::cudagraph_runtime::__private::KernelArg<'static, DevicePtr<f32>>,
        h: impl ::cudagraph_runtime::__private::KernelArg<'static, DevicePtrMut<f32>>,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        self.exec.dirty[1usize] = true;
        self.exec.exec.set_kernel_params(self.exec.nodes.act, config, (n, b, h))?;
        self.exec.state.launch.act = config;
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    /// The node's launch configuration now.
    pub fn launch_config(&self) -> ::cudagraph_runtime::__private::LaunchConfig {
        self.exec.state.launch.act
    }
    /// Enables or disables the node for the next launches (`cuGraphNodeSetEnabled`). A
    /// disabled node acts as an empty node; params set meanwhile apply once it is enabled.
    pub fn set_enabled(
        &mut self,
        enabled: bool,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        self.exec.exec.set_enabled(self.exec.nodes.act, enabled)
    }
    /// Whether the node is enabled (`cuGraphNodeGetEnabled`).
    pub fn is_enabled(&self) -> ::cudagraph_runtime::__private::Result<bool> {
        self.exec.exec.is_enabled(self.exec.nodes.act)
    }
    /// The node's runtime handle, for the runtime's own API.
    pub fn node(
        &self,
    ) -> ::cudagraph_runtime::__private::KernelNode<
        (u32, DevicePtr<f32>, DevicePtrMut<f32>),
    > {
        self.exec.nodes.act
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for LayersActNode<'_> {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("LayersActNode").field("index", &1usize).finish_non_exhaustive()
    }
}
///Update handle of node `gemm2` of [`LayersExec`] (`capture(layer2)`): its work can be recorded again from another `Capture` (the recorded graph must have the same topology); CUDA cannot enable or disable it ([what CUDA allows](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#individual-node-update)).
struct LayersGemm2Node<'a> {
    exec: &'a mut LayersExec,
}
impl<'a> LayersGemm2Node<'a> {
    /// Records `work` and makes the node run it, for the next launches
    /// (`cuGraphExecChildGraphNodeSetParams`); the recorded graph must have the
    /// topology of the node's current one. When the node declares the memory its
    /// work uses, the new work may use only what the current work uses, as it uses
    /// it (to use other declared memory, change the params and `set_params`).
    pub fn set(
        &mut self,
        work: &::cudagraph_runtime::__private::Capture,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        self.exec.dirty[2usize] = true;
        ::cudagraph_runtime::__private::set_capture_by_handle(
            &mut self.exec.exec,
            self.exec.nodes.gemm2,
            work,
            true,
        )
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
    pub fn node(&self) -> ::cudagraph_runtime::__private::ChildGraphNode {
        self.exec.nodes.gemm2
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for LayersGemm2Node<'_> {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("LayersGemm2Node").field("index", &2usize).finish_non_exhaustive()
    }
}
fn main() {}
