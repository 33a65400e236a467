//! An all-reduce between two kernels, over a `Communicator` param (feature `nccl`).
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::Communicator;
const _: () = {
    #[allow(unused_imports)]
    use ::cudagraph_runtime::__private::{
        ArgsFallback as _, BodyFallback as _, ParamFallback as _, SlotFallback as _,
    };
    if <::cudagraph_runtime::__private::ParamProbe<Communicator>>::IS_HANDLE {
        ::cudagraph_runtime::__private::fail(
            "param `comm` is a `ConditionalHandle`: a handle is made by the conditional node that reads it (`name: while comm { ... }`), since one made for another graph would be set where no node reads it",
        )
    }
};
const _: () = {
    #[allow(unused_imports)]
    use ::cudagraph_runtime::__private::{
        ArgsFallback as _, BodyFallback as _, ParamFallback as _, SlotFallback as _,
    };
    if <::cudagraph_runtime::__private::ParamProbe<
        Kernel<(u32, DevicePtrMut<f32>)>,
    >>::IS_HANDLE {
        ::cudagraph_runtime::__private::fail(
            "param `grad` is a `ConditionalHandle`: a handle is made by the conditional node that reads it (`name: while grad { ... }`), since one made for another graph would be set where no node reads it",
        )
    }
};
const _: () = {
    #[allow(unused_imports)]
    use ::cudagraph_runtime::__private::{
        ArgsFallback as _, BodyFallback as _, ParamFallback as _, SlotFallback as _,
    };
    if <::cudagraph_runtime::__private::ParamProbe<
        Kernel<(u32, DevicePtr<f32>)>,
    >>::IS_HANDLE {
        ::cudagraph_runtime::__private::fail(
            "param `update` is a `ConditionalHandle`: a handle is made by the conditional node that reads it (`name: while update { ... }`), since one made for another graph would be set where no node reads it",
        )
    }
};
/**The params of [`Step`]: what its nodes are built from ([`Step::build`]), and what [`StepExec::set_params`] compares to update only the nodes whose inputs changed.

- node `local` reads `grad`, `grads`, `n`
- node `average` reads `comm`, `grads`
- node `step` reads `update`, `grads`, `n`
*/
#[allow(clippy::type_complexity)]
struct StepParams {
    ///Param `comm`, read by node `average`.
    pub comm: Communicator,
    ///Param `grad`, read by node `local`.
    pub grad: Kernel<(u32, DevicePtrMut<f32>)>,
    ///Param `update`, read by node `step`.
    pub update: Kernel<(u32, DevicePtr<f32>)>,
    ///Param `grads`, read by nodes `local`, `average`, `step`.
    pub grads: DeviceBuffer<f32>,
    ///Param `n`, read by nodes `local`, `step`.
    pub n: u32,
}
impl ::cudagraph_runtime::__private::fmt::Debug for StepParams {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("StepParams").finish_non_exhaustive()
    }
}
/**A CUDA graph declared with `cuda_graph!`: [`Step::build`] builds it from a [`StepParams`], [`Step::instantiate`] makes it a [`StepExec`].

# Nodes

In build order (a node's position is its index in the graph):

0. `local`: `kernel grad<<<n.div_ceil(256), 256>>>(n, grads)`
1. `average`: `all_reduce(comm, grads, Avg)`, after `local`
2. `step`: `kernel update<<<n.div_ceil(256), 256>>>(n, grads)`, after `average`

# Topology

<div style="overflow-x:auto"><svg xmlns="http://www.w3.org/2000/svg" role="img" width="102" height="200" viewBox="0 0 102 200" font-family="monospace" font-size="14" text-anchor="middle" fill="currentColor"><title>Topology of Step: 3 nodes, 2 edges</title><defs><marker id="cgacb64e24" viewBox="0 0 8 8" refX="8" refY="4" markerWidth="8" markerHeight="8" orient="auto"><path d="M0 0L8 4L0 8z"/></marker></defs><g fill="none" stroke="currentColor" marker-end="url(#cgacb64e24)"><path d="M51 48V80"/><path d="M51 120V152"/></g><rect x="21" y="8" width="60" height="40" rx="4" fill="#dbeafe" stroke="#1d4ed8"/><text x="51" y="25" fill="#111">local</text><text x="51" y="41" font-size="11" fill="#374151">kernel</text><rect x="8" y="80" width="86" height="40" rx="4" fill="#f3f4f6" stroke="#4b5563"/><text x="51" y="97" fill="#111">average</text><text x="51" y="113" font-size="11" fill="#374151">collective</text><rect x="22" y="152" width="58" height="40" rx="4" fill="#dbeafe" stroke="#1d4ed8"/><text x="51" y="169" fill="#111">step</text><text x="51" y="185" font-size="11" fill="#374151">kernel</text></svg></div>

As text: `Step::TOPOLOGY.to_mermaid()` (Mermaid) or `.to_dot()` (Graphviz).
*/
struct Step {
    graph: ::cudagraph_runtime::__private::Graph<'static>,
    nodes: ::cudagraph_runtime::__private::Box<
        ::cudagraph_runtime::__private::ManuallyDrop<__StepNodes>,
    >,
    state: __StepState,
    build_id: u64,
}
#[doc(hidden)]
#[allow(non_camel_case_types, dead_code, clippy::type_complexity)]
struct __StepNodes {
    local: ::cudagraph_runtime::__private::KernelNode<(u32, DevicePtrMut<f32>)>,
    average: ::cudagraph_runtime::__private::ChildGraphNode,
    step: ::cudagraph_runtime::__private::KernelNode<(u32, DevicePtr<f32>)>,
}
unsafe impl ::cudagraph_runtime::__private::Unbuilt for __StepNodes {}
#[doc(hidden)]
#[allow(non_camel_case_types, non_snake_case, dead_code, clippy::type_complexity)]
struct __StepSnapshot0 {
    comm: Communicator,
    grad: usize,
    update: usize,
    grads: DeviceBuffer<f32>,
    n: u32,
}
impl __StepSnapshot0 {
    #[inline(never)]
    fn __cg_keep(__cg_params: &StepParams) -> Self {
        Self {
            comm: <Communicator as ::cudagraph_runtime::__private::ParamValue>::keep(
                &__cg_params.comm,
            ),
            grad: <Kernel<
                (u32, DevicePtrMut<f32>),
            > as ::cudagraph_runtime::__private::KernelType>::function_id(
                &__cg_params.grad,
            ),
            update: <Kernel<
                (u32, DevicePtr<f32>),
            > as ::cudagraph_runtime::__private::KernelType>::function_id(
                &__cg_params.update,
            ),
            grads: <DeviceBuffer<
                f32,
            > as ::cudagraph_runtime::__private::ParamValue>::keep(&__cg_params.grads),
            n: <u32 as ::cudagraph_runtime::__private::ParamValue>::keep(&__cg_params.n),
        }
    }
}
impl ::cudagraph_runtime::__private::Clone for __StepSnapshot0 {
    #[inline(never)]
    fn clone(&self) -> Self {
        Self {
            comm: <Communicator as ::cudagraph_runtime::__private::ParamValue>::keep(
                &self.comm,
            ),
            grad: self.grad,
            update: self.update,
            grads: <DeviceBuffer<
                f32,
            > as ::cudagraph_runtime::__private::ParamValue>::keep(&self.grads),
            n: <u32 as ::cudagraph_runtime::__private::ParamValue>::keep(&self.n),
        }
    }
}
#[doc(hidden)]
#[allow(non_camel_case_types)]
struct __StepSnapshot {
    __cg_kept_0: __StepSnapshot0,
}
impl __StepSnapshot {
    /// What the executable keeps of `params`.
    #[allow(unused_variables)]
    fn __cg_keep(__cg_params: &StepParams) -> Self {
        Self {
            __cg_kept_0: __StepSnapshot0::__cg_keep(__cg_params),
        }
    }
}
impl ::cudagraph_runtime::__private::Clone for __StepSnapshot {
    fn clone(&self) -> Self {
        Self {
            __cg_kept_0: ::cudagraph_runtime::__private::Clone::clone(&self.__cg_kept_0),
        }
    }
}
#[doc(hidden)]
#[allow(non_camel_case_types, non_snake_case, dead_code)]
#[derive(Clone, Copy)]
struct __StepLaunch {
    local: ::cudagraph_runtime::__private::LaunchConfig,
    step: ::cudagraph_runtime::__private::LaunchConfig,
}
unsafe impl ::cudagraph_runtime::__private::Unbuilt for __StepLaunch {}
#[doc(hidden)]
#[allow(non_camel_case_types)]
struct __StepState {
    params: __StepSnapshot,
    launch: ::cudagraph_runtime::__private::Box<__StepLaunch>,
}
impl Step {
    /// The declared shape: nodes in build order (their indices in the graph; one more
    /// with `#[indirect]` params, whose fetch node comes first), kinds and edges. Its
    /// `to_dot()` and `to_mermaid()` draw it.
    pub const TOPOLOGY: ::cudagraph_runtime::__private::Topology = ::cudagraph_runtime::__private::Topology {
        name: "Step",
        nodes: &[
            ("local", ::cudagraph_runtime::__private::NodeKind::Kernel),
            ("average", ::cudagraph_runtime::__private::NodeKind::ChildGraph),
            ("step", ::cudagraph_runtime::__private::NodeKind::Kernel),
        ],
        edges: &[(0usize, 1usize), (1usize, 2usize)],
        bodies: &[],
    };
    /// [`TOPOLOGY`](Self::TOPOLOGY) drawn as a standalone SVG image, laid out when the
    /// macro ran: the picture in this type's docs. Write it to a `.svg` file or put it
    /// in an HTML page; its lines and labels take the text colour of the page around it
    /// (black in a file of its own). It is in the binary only if the program calls this.
    pub const fn topology_svg() -> &'static str {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" width=\"102\" height=\"200\" viewBox=\"0 0 102 200\" font-family=\"monospace\" font-size=\"14\" text-anchor=\"middle\" fill=\"currentColor\"><title>Topology of Step: 3 nodes, 2 edges</title><defs><marker id=\"cgacb64e24\" viewBox=\"0 0 8 8\" refX=\"8\" refY=\"4\" markerWidth=\"8\" markerHeight=\"8\" orient=\"auto\"><path d=\"M0 0L8 4L0 8z\"/></marker></defs><g fill=\"none\" stroke=\"currentColor\" marker-end=\"url(#cgacb64e24)\"><path d=\"M51 48V80\"/><path d=\"M51 120V152\"/></g><rect x=\"21\" y=\"8\" width=\"60\" height=\"40\" rx=\"4\" fill=\"#dbeafe\" stroke=\"#1d4ed8\"/><text x=\"51\" y=\"25\" fill=\"#111\">local</text><text x=\"51\" y=\"41\" font-size=\"11\" fill=\"#374151\">kernel</text><rect x=\"8\" y=\"80\" width=\"86\" height=\"40\" rx=\"4\" fill=\"#f3f4f6\" stroke=\"#4b5563\"/><text x=\"51\" y=\"97\" fill=\"#111\">average</text><text x=\"51\" y=\"113\" font-size=\"11\" fill=\"#374151\">collective</text><rect x=\"22\" y=\"152\" width=\"58\" height=\"40\" rx=\"4\" fill=\"#dbeafe\" stroke=\"#1d4ed8\"/><text x=\"51\" y=\"169\" fill=\"#111\">step</text><text x=\"51\" y=\"185\" font-size=\"11\" fill=\"#374151\">kernel</text></svg>"
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
            3usize,
        )?;
        let (nodes, state) = Self::__cg_add_nodes(&mut __cg_graph, __cg_params)?;
        ::cudagraph_runtime::__private::built(&__cg_graph, "Step");
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
        __cg_params: &StepParams,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        Self::__cg_check_overlaps(__cg_params)?;
        self.build_id = ::cudagraph_runtime::__private::next_build_id();
        self.graph.clear()?;
        let (nodes, state) = Self::__cg_add_nodes(&mut self.graph, __cg_params)?;
        ::cudagraph_runtime::__private::built(&self.graph, "Step");
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
        __cg_params: &StepParams,
    ) -> ::cudagraph_runtime::__private::Result<
        (
            ::cudagraph_runtime::__private::Box<
                ::cudagraph_runtime::__private::ManuallyDrop<__StepNodes>,
            >,
            __StepState,
        ),
    > {
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
                params: __StepSnapshot::__cg_keep(__cg_params),
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
        (nodes.local, launches.local) = ::cudagraph_runtime::__private::add_node(
            __cg_graph,
            "local",
            |__cg_graph| {
                let (kernel, config, args) = Step::__cg_eval_local(__cg_params);
                ::cudagraph_runtime::__private::Result::Ok((
                    __cg_graph.add_kernel(kernel, config, args, &[])?,
                    config,
                ))
            },
        )?;
        nodes.average = ::cudagraph_runtime::__private::add_node(
            __cg_graph,
            "average",
            |__cg_graph| ::cudagraph_runtime::__private::add_collective(
                __cg_graph,
                Step::__cg_eval_average(__cg_params),
                &[nodes.local.id()],
            ),
        )?;
        (nodes.step, launches.step) = ::cudagraph_runtime::__private::add_node(
            __cg_graph,
            "step",
            |__cg_graph| {
                let (kernel, config, args) = Step::__cg_eval_step(__cg_params);
                ::cudagraph_runtime::__private::Result::Ok((
                    __cg_graph.add_kernel(kernel, config, args, &[nodes.average.id()])?,
                    config,
                ))
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
        ::cudagraph_runtime::__private::Result::Ok(StepExec {
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
    fn __cg_eval_local<'__cg_p>(
        __cg_params: &'__cg_p StepParams,
    ) -> (
        &'__cg_p ::cudagraph_runtime::__private::Kernel<(u32, DevicePtrMut<f32>)>,
        ::cudagraph_runtime::__private::LaunchConfig,
        (
            impl ::cudagraph_runtime::__private::KernelArg<'static, u32> + '__cg_p,
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
        let grad = (&::cudagraph_runtime::__private::Bind(&__cg_params.grad))
            .__cg_bind();
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let n = (&::cudagraph_runtime::__private::Bind(&__cg_params.n)).__cg_bind();
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let grads = (&::cudagraph_runtime::__private::Bind(&__cg_params.grads))
            .__cg_bind();
        let config = ::cudagraph_runtime::__private::launch(n.div_ceil(256), 256, 0);
        let args = (
            ::cudagraph_runtime::__private::KernelArgPart::<'static, u32, _>::new(n),
            ::cudagraph_runtime::__private::KernelArgPart::<
                'static,
                DevicePtrMut<f32>,
                _,
            >::new(grads),
        );
        (
            <Kernel<
                (u32, DevicePtrMut<f32>),
            > as ::cudagraph_runtime::__private::KernelType>::as_kernel(
                &__cg_params.grad,
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
    fn __cg_eval_average<'__cg_p>(
        __cg_params: &'__cg_p StepParams,
    ) -> ::cudagraph_runtime::__private::CollectiveCall<
        '__cg_p,
        <DeviceBuffer<f32> as ::cudagraph_runtime::__private::CollectiveBuffer>::Elem,
    > {
        #[allow(unused_imports)]
        use ::cudagraph_runtime::__private::{BindCopy as _, BindRef as _};
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let comm = (&::cudagraph_runtime::__private::Bind(&__cg_params.comm))
            .__cg_bind();
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let grads = (&::cudagraph_runtime::__private::Bind(&__cg_params.grads))
            .__cg_bind();
        ::cudagraph_runtime::__private::collective(
            ::cudagraph_runtime::__private::communicator(&__cg_params.comm),
            ::cudagraph_runtime::__private::CollectiveOp::AllReduce(
                ::cudagraph_runtime::__private::ReduceOp::Avg,
            ),
            ::cudagraph_runtime::__private::collective_buffer(&__cg_params.grads),
        )
    }
    #[allow(
        non_snake_case,
        unused_variables,
        clippy::type_complexity,
        clippy::needless_lifetimes
    )]
    fn __cg_eval_step<'__cg_p>(
        __cg_params: &'__cg_p StepParams,
    ) -> (
        &'__cg_p ::cudagraph_runtime::__private::Kernel<(u32, DevicePtr<f32>)>,
        ::cudagraph_runtime::__private::LaunchConfig,
        (
            impl ::cudagraph_runtime::__private::KernelArg<'static, u32> + '__cg_p,
            impl ::cudagraph_runtime::__private::KernelArg<
                'static,
                DevicePtr<f32>,
            > + '__cg_p,
        ),
    ) {
        #[allow(unused_imports)]
        use ::cudagraph_runtime::__private::{BindCopy as _, BindRef as _};
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let update = (&::cudagraph_runtime::__private::Bind(&__cg_params.update))
            .__cg_bind();
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let n = (&::cudagraph_runtime::__private::Bind(&__cg_params.n)).__cg_bind();
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let grads = (&::cudagraph_runtime::__private::Bind(&__cg_params.grads))
            .__cg_bind();
        let config = ::cudagraph_runtime::__private::launch(n.div_ceil(256), 256, 0);
        let args = (
            ::cudagraph_runtime::__private::KernelArgPart::<'static, u32, _>::new(n),
            ::cudagraph_runtime::__private::KernelArgPart::<
                'static,
                DevicePtr<f32>,
                _,
            >::new(grads),
        );
        (
            <Kernel<
                (u32, DevicePtr<f32>),
            > as ::cudagraph_runtime::__private::KernelType>::as_kernel(
                &__cg_params.update,
            ),
            config,
            args,
        )
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for Step {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("Step").field("graph", &self.graph).finish_non_exhaustive()
    }
}
impl ::cudagraph_runtime::__private::BodyRules for Step {
    const FORBIDDEN_IN_BODY: ::cudagraph_runtime::__private::Option<&'static str> = {
        #[allow(unused_imports)]
        use ::cudagraph_runtime::__private::{
            ArgsFallback as _, BodyFallback as _, ParamFallback as _, SlotFallback as _,
        };
        ::cudagraph_runtime::__private::first_forbidden(&[])
    };
}
impl ::cudagraph_runtime::__private::ChildGraph for Step {
    fn graph(&self) -> &::cudagraph_runtime::__private::Graph<'static> {
        &self.graph
    }
    fn identity(&self) -> ::cudagraph_runtime::__private::Option<u64> {
        ::cudagraph_runtime::__private::Option::Some(self.build_id)
    }
}
impl ::cudagraph_runtime::__private::SameDeclaration<Step> for Step {
    fn same(&self) -> &Step {
        self
    }
}
/**[`Step`], instantiated: launch it, update it from another [`Step`] or with [`set_params`](Self::set_params), or update one node through its handle:

- [`local()`](Self::local): kernel node
- [`average()`](Self::average): collective node
- [`step()`](Self::step): kernel node
*/
struct StepExec {
    exec: ::cudagraph_runtime::__private::GraphExec<'static>,
    nodes: ::cudagraph_runtime::__private::Box<
        ::cudagraph_runtime::__private::ManuallyDrop<__StepNodes>,
    >,
    state: __StepState,
    /// Nodes set through their handles since the last `set_params`: it sets them again.
    dirty: [bool; 3usize],
    /// Per node, the number of the last `set_params_only` call naming several params that
    /// updated it (so that it updates each node once).
    stamps: ::cudagraph_runtime::__private::Box<[u32]>,
    /// The number of the last such call.
    generation: u32,
}
impl StepExec {
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
    /**Whole-graph update from a [`Step`] built with other params (`cuGraphExecUpdate`).

Only a graph of this declaration is accepted: it was built by the same sequence of calls, so its nodes pair with this executable's ([whole-graph update](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#whole-graph-update)). Afterwards the executable runs that graph's params, and [`set_params`](Self::set_params) compares with them.*/
    pub fn update<__CgSame: ::cudagraph_runtime::__private::SameDeclaration<Step>>(
        &mut self,
        source: &__CgSame,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let source: &Step = ::cudagraph_runtime::__private::SameDeclaration::same(
            source,
        );
        self.exec.update(&source.graph)?;
        self.state.params = source.state.params.clone();
        *self.state.launch = *source.state.launch;
        self.dirty = [false; 3usize];
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    /**Makes the executable's nodes what [`Step::build`] would make from `params`, with one single-node update per node whose inputs changed since the last build, update or `set_params` (or that was set through its handle since). Returns how many nodes it updated. Enabled/disabled states are kept.

A param is compared with `PartialEq`, a kernel by function, a declared graph by identity; a runtime `Graph` counts as changed every time. A kernel param may change function (same parameter list, same context): the node's single-node update switches it.*/
    pub fn set_params(
        &mut self,
        __cg_params: &StepParams,
    ) -> ::cudagraph_runtime::__private::Result<usize> {
        Step::__cg_check_overlaps(__cg_params)?;
        #[allow(unused_mut)]
        let mut changed = [false; 5usize];
        self.__cg_changed_0(__cg_params, &mut changed);
        if changed[0usize] || changed[3usize] {
            ::cudagraph_runtime::__private::same_collective(
                &self.exec,
                self.nodes.average,
                Step::__cg_eval_average(__cg_params),
                "average",
            )?;
        }
        let mut updated = 0usize;
        #[allow(clippy::type_complexity)]
        const READS: &[(
            usize,
            &[usize],
            fn(&mut StepExec, &StepParams) -> ::cudagraph_runtime::__private::Result<()>,
        )] = &[
            (0usize, &[1usize, 3usize, 4usize], StepExec::__cg_update_node_0),
            (2usize, &[2usize, 3usize, 4usize], StepExec::__cg_update_node_2),
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
    fn __cg_changed_0(&self, __cg_params: &StepParams, changed: &mut [bool; 5usize]) {
        changed[0usize] = !(<Communicator as ::cudagraph_runtime::__private::ParamValue>::same(
            &__cg_params.comm,
            &self.state.params.__cg_kept_0.comm,
        ));
        changed[1usize] = !(<Kernel<
            (u32, DevicePtrMut<f32>),
        > as ::cudagraph_runtime::__private::KernelType>::function_id(&__cg_params.grad)
            == self.state.params.__cg_kept_0.grad);
        changed[2usize] = !(<Kernel<
            (u32, DevicePtr<f32>),
        > as ::cudagraph_runtime::__private::KernelType>::function_id(
            &__cg_params.update,
        ) == self.state.params.__cg_kept_0.update);
        changed[3usize] = !(<DeviceBuffer<
            f32,
        > as ::cudagraph_runtime::__private::ParamValue>::same(
            &__cg_params.grads,
            &self.state.params.__cg_kept_0.grads,
        ));
        changed[4usize] = !(<u32 as ::cudagraph_runtime::__private::ParamValue>::same(
            &__cg_params.n,
            &self.state.params.__cg_kept_0.n,
        ));
    }
    ///Node `local` (`kernel grad<<<n.div_ceil(256), 256>>>(n, grads)`): its update handle.
    pub fn local(&mut self) -> StepLocalNode<'_> {
        StepLocalNode { exec: self }
    }
    ///Node `average` (`all_reduce(comm, grads, Avg)`): its update handle.
    pub fn average(&mut self) -> StepAverageNode<'_> {
        StepAverageNode { exec: self }
    }
    ///Node `step` (`kernel update<<<n.div_ceil(256), 256>>>(n, grads)`): its update handle.
    pub fn step(&mut self) -> StepStepNode<'_> {
        StepStepNode { exec: self }
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for StepExec {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("StepExec").field("exec", &self.exec).finish_non_exhaustive()
    }
}
///The params of [`StepParams`], one variant each: what [`StepExec::set_params_only`] is told changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(dead_code)]
enum StepParam {
    ///Param `comm`.
    Comm,
    ///Param `grad`.
    Grad,
    ///Param `update`.
    Update,
    ///Param `grads`.
    Grads,
    ///Param `n`.
    N,
}
impl StepExec {
    /**Like [`set_params`](Self::set_params), for callers that know what they changed: updates the nodes whose expressions read a param in `changed` (each once), and only them, so its cost grows with the nodes updated, not with the graph. Returns how many nodes it updated.

A changed param missing from `changed` leaves its nodes as they were (the executable keeps alive whatever memory they use); nodes set through their handles are not reset (`set_params` does both). Params that share memory with another under nodes that may run at the same time are refused as by [`Step::build`].*/
    pub fn set_params_only(
        &mut self,
        __cg_params: &StepParams,
        changed: &[StepParam],
    ) -> ::cudagraph_runtime::__private::Result<usize> {
        Step::__cg_check_overlaps(__cg_params)?;
        for &__cg_param in changed {
            match __cg_param {
                StepParam::Comm => {
                    ::cudagraph_runtime::__private::same_collective(
                        &self.exec,
                        self.nodes.average,
                        Step::__cg_eval_average(__cg_params),
                        "average",
                    )?;
                }
                StepParam::Grad => {}
                StepParam::Update => {}
                StepParam::Grads => {
                    ::cudagraph_runtime::__private::same_collective(
                        &self.exec,
                        self.nodes.average,
                        Step::__cg_eval_average(__cg_params),
                        "average",
                    )?;
                }
                StepParam::N => {}
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
            fn(&mut Self, &StepParams) -> ::cudagraph_runtime::__private::Result<()>,
        )],
        fn(&mut Self, &StepParams) -> ::cudagraph_runtime::__private::Result<()>,
    )] = &[
        (&[], Self::__cg_commit_0),
        (&[(0usize, Self::__cg_update_node_0)], Self::__cg_commit_1),
        (&[(2usize, Self::__cg_update_node_2)], Self::__cg_commit_2),
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
        __cg_params: &StepParams,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        self.state.params.__cg_kept_0.comm = <Communicator as ::cudagraph_runtime::__private::ParamValue>::keep(
            &__cg_params.comm,
        );
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline(never)]
    fn __cg_commit_1(
        &mut self,
        __cg_params: &StepParams,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        self.state.params.__cg_kept_0.grad = <Kernel<
            (u32, DevicePtrMut<f32>),
        > as ::cudagraph_runtime::__private::KernelType>::function_id(&__cg_params.grad);
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline(never)]
    fn __cg_commit_2(
        &mut self,
        __cg_params: &StepParams,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        self.state.params.__cg_kept_0.update = <Kernel<
            (u32, DevicePtr<f32>),
        > as ::cudagraph_runtime::__private::KernelType>::function_id(
            &__cg_params.update,
        );
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline(never)]
    fn __cg_commit_3(
        &mut self,
        __cg_params: &StepParams,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        self.state.params.__cg_kept_0.grads = <DeviceBuffer<
            f32,
        > as ::cudagraph_runtime::__private::ParamValue>::keep(&__cg_params.grads);
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline(never)]
    fn __cg_commit_4(
        &mut self,
        __cg_params: &StepParams,
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
        __cg_params: &StepParams,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let (kernel, config, args) = Step::__cg_eval_local(__cg_params);
        self.exec.set_kernel(self.nodes.local, kernel, config, args)?;
        self.state.launch.local = config;
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline(never)]
    #[allow(unused_variables)]
    fn __cg_update_node_2(
        &mut self,
        __cg_params: &StepParams,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let (kernel, config, args) = Step::__cg_eval_step(__cg_params);
        self.exec.set_kernel(self.nodes.step, kernel, config, args)?;
        self.state.launch.step = config;
        ::cudagraph_runtime::__private::Result::Ok(())
    }
}
///Update handle of node `local` of [`StepExec`] (`kernel grad<<<n.div_ceil(256), 256>>>(n, grads)`): its arguments and launch configuration can change, and it can be enabled or disabled ([what CUDA allows](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#individual-node-update)).
struct StepLocalNode<'a> {
    exec: &'a mut StepExec,
}
impl<'a> StepLocalNode<'a> {
    ///Sets the kernel's arguments for the next launches, keeping the node's launch configuration (`cuGraphExecKernelNodeSetParams`). Memory the node stops using is released once the launches that may use it are done.
    pub fn set(
        &mut self,
        n: impl ::cudagraph_runtime::__private::KernelArg<'static, u32>,
        grads: impl ::cudagraph_runtime::__private::KernelArg<'static, DevicePtrMut<f32>>,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let config = self.exec.state.launch.local;
        self.set_launch(config, n, grads)
    }
    ///Sets the launch configuration and the kernel's arguments for the next launches (`cuGraphExecKernelNodeSetParams`).
    pub fn set_launch(
        &mut self,
        config: ::cudagraph_runtime::__private::LaunchConfig,
        n: impl ::cudagraph_runtime::__private::KernelArg<'static, u32>,
        grads: impl ::cudagraph_runtime::__private::KernelArg<'static, DevicePtrMut<f32>>,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        self.exec.dirty[0usize] = true;
        self.exec.exec.set_kernel_params(self.exec.nodes.local, config, (n, grads))?;
        self.exec.state.launch.local = config;
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    /// The node's launch configuration now.
    pub fn launch_config(&self) -> ::cudagraph_runtime::__private::LaunchConfig {
        self.exec.state.launch.local
    }
    /// Enables or disables the node for the next launches (`cuGraphNodeSetEnabled`). A
    /// disabled node acts as an empty node; params set meanwhile apply once it is enabled.
    pub fn set_enabled(
        &mut self,
        enabled: bool,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        self.exec.exec.set_enabled(self.exec.nodes.local, enabled)
    }
    /// Whether the node is enabled (`cuGraphNodeGetEnabled`).
    pub fn is_enabled(&self) -> ::cudagraph_runtime::__private::Result<bool> {
        self.exec.exec.is_enabled(self.exec.nodes.local)
    }
    /// The node's runtime handle, for the runtime's own API.
    pub fn node(
        &self,
    ) -> ::cudagraph_runtime::__private::KernelNode<(u32, DevicePtrMut<f32>)> {
        self.exec.nodes.local
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for StepLocalNode<'_> {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("StepLocalNode").field("index", &0usize).finish_non_exhaustive()
    }
}
///Update handle of node `average` of [`StepExec`] (`all_reduce(comm, grads, Avg)`): nothing about it can change: its communicator, buffers, root and peers are fixed when the graph is built (NCCL recorded its work for them on every rank), and `set_params` refuses a change; CUDA cannot enable or disable it ([what CUDA allows](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#individual-node-update)).
struct StepAverageNode<'a> {
    exec: &'a mut StepExec,
}
impl<'a> StepAverageNode<'a> {
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
        self.exec.nodes.average
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for StepAverageNode<'_> {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("StepAverageNode").field("index", &1usize).finish_non_exhaustive()
    }
}
///Update handle of node `step` of [`StepExec`] (`kernel update<<<n.div_ceil(256), 256>>>(n, grads)`): its arguments and launch configuration can change, and it can be enabled or disabled ([what CUDA allows](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#individual-node-update)).
struct StepStepNode<'a> {
    exec: &'a mut StepExec,
}
impl<'a> StepStepNode<'a> {
    ///Sets the kernel's arguments for the next launches, keeping the node's launch configuration (`cuGraphExecKernelNodeSetParams`). Memory the node stops using is released once the launches that may use it are done.
    pub fn set(
        &mut self,
        n: impl ::cudagraph_runtime::__private::KernelArg<'static, u32>,
        grads: impl ::cudagraph_runtime::__private::KernelArg<'static, DevicePtr<f32>>,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let config = self.exec.state.launch.step;
        self.set_launch(config, n, grads)
    }
    ///Sets the launch configuration and the kernel's arguments for the next launches (`cuGraphExecKernelNodeSetParams`).
    pub fn set_launch(
        &mut self,
        config: ::cudagraph_runtime::__private::LaunchConfig,
        n: impl ::cudagraph_runtime::__private::KernelArg<'static, u32>,
        grads: impl ::cudagraph_runtime::__private::KernelArg<'static, DevicePtr<f32>>,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        self.exec.dirty[2usize] = true;
        self.exec.exec.set_kernel_params(self.exec.nodes.step, config, (n, grads))?;
        self.exec.state.launch.step = config;
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    /// The node's launch configuration now.
    pub fn launch_config(&self) -> ::cudagraph_runtime::__private::LaunchConfig {
        self.exec.state.launch.step
    }
    /// Enables or disables the node for the next launches (`cuGraphNodeSetEnabled`). A
    /// disabled node acts as an empty node; params set meanwhile apply once it is enabled.
    pub fn set_enabled(
        &mut self,
        enabled: bool,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        self.exec.exec.set_enabled(self.exec.nodes.step, enabled)
    }
    /// Whether the node is enabled (`cuGraphNodeGetEnabled`).
    pub fn is_enabled(&self) -> ::cudagraph_runtime::__private::Result<bool> {
        self.exec.exec.is_enabled(self.exec.nodes.step)
    }
    /// The node's runtime handle, for the runtime's own API.
    pub fn node(
        &self,
    ) -> ::cudagraph_runtime::__private::KernelNode<(u32, DevicePtr<f32>)> {
        self.exec.nodes.step
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for StepStepNode<'_> {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("StepStepNode").field("index", &2usize).finish_non_exhaustive()
    }
}
fn main() {}
