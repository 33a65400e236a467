//! A `#[device_launch]` declaration: the graph type gains `instantiate_for_device_launch`, and the
//! attribute goes to no generated item.
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
/**The params of [`Worker`]: what its nodes are built from ([`Worker::build`]), and what [`WorkerExec::set_params`] compares to update only the nodes whose inputs changed.

- node `clear` reads `counter`
- node `bump` reads `step`, `counter`, `n`
*/
#[allow(clippy::type_complexity)]
struct WorkerParams {
    ///Param `step`, read by node `bump`.
    pub step: Kernel<(u32, DevicePtrMut<u32>)>,
    ///Param `counter`, read by nodes `clear`, `bump`.
    pub counter: DeviceBuffer<u32>,
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

# Topology

<div style="overflow-x:auto"><svg xmlns="http://www.w3.org/2000/svg" role="img" width="76" height="128" viewBox="0 0 76 128" font-family="monospace" font-size="14" text-anchor="middle" fill="currentColor"><title>Topology of Worker: 2 nodes, 1 edge</title><defs><marker id="cgb8841fcc" viewBox="0 0 8 8" refX="8" refY="4" markerWidth="8" markerHeight="8" orient="auto"><path d="M0 0L8 4L0 8z"/></marker></defs><g fill="none" stroke="currentColor" marker-end="url(#cgb8841fcc)"><path d="M38 48V80"/></g><rect x="8" y="8" width="60" height="40" rx="4" fill="#ccfbf1" stroke="#0f766e"/><text x="38" y="25" fill="#111">clear</text><text x="38" y="41" font-size="11" fill="#374151">memset</text><rect x="9" y="80" width="58" height="40" rx="4" fill="#dbeafe" stroke="#1d4ed8"/><text x="38" y="97" fill="#111">bump</text><text x="38" y="113" font-size="11" fill="#374151">kernel</text></svg></div>

As text: `Worker::TOPOLOGY.to_mermaid()` (Mermaid) or `.to_dot()` (Graphviz).
*/
struct Worker {
    graph: ::cudagraph_runtime::__private::Graph<'static>,
    nodes: ::cudagraph_runtime::__private::Box<
        ::cudagraph_runtime::__private::ManuallyDrop<__WorkerNodes>,
    >,
    state: __WorkerState,
    build_id: u64,
}
#[doc(hidden)]
#[allow(non_camel_case_types, dead_code, clippy::type_complexity)]
struct __WorkerNodes {
    clear: ::cudagraph_runtime::__private::MemsetNode<
        <DeviceBuffer<u32> as ::cudagraph_runtime::__private::MemsetTarget>::Pattern,
    >,
    bump: ::cudagraph_runtime::__private::KernelNode<(u32, DevicePtrMut<u32>)>,
}
unsafe impl ::cudagraph_runtime::__private::Unbuilt for __WorkerNodes {}
#[doc(hidden)]
#[allow(non_camel_case_types, non_snake_case, dead_code, clippy::type_complexity)]
struct __WorkerSnapshot0 {
    step: usize,
    counter: DeviceBuffer<u32>,
    n: u32,
}
impl __WorkerSnapshot0 {
    #[inline(never)]
    fn __cg_keep(__cg_params: &WorkerParams) -> Self {
        Self {
            step: <Kernel<
                (u32, DevicePtrMut<u32>),
            > as ::cudagraph_runtime::__private::KernelType>::function_id(
                &__cg_params.step,
            ),
            counter: <DeviceBuffer<
                u32,
            > as ::cudagraph_runtime::__private::ParamValue>::keep(&__cg_params.counter),
            n: <u32 as ::cudagraph_runtime::__private::ParamValue>::keep(&__cg_params.n),
        }
    }
}
impl ::cudagraph_runtime::__private::Clone for __WorkerSnapshot0 {
    #[inline(never)]
    fn clone(&self) -> Self {
        Self {
            step: self.step,
            counter: <DeviceBuffer<
                u32,
            > as ::cudagraph_runtime::__private::ParamValue>::keep(&self.counter),
            n: <u32 as ::cudagraph_runtime::__private::ParamValue>::keep(&self.n),
        }
    }
}
#[doc(hidden)]
#[allow(non_camel_case_types)]
struct __WorkerSnapshot {
    __cg_kept_0: __WorkerSnapshot0,
}
impl __WorkerSnapshot {
    /// What the executable keeps of `params`.
    #[allow(unused_variables)]
    fn __cg_keep(__cg_params: &WorkerParams) -> Self {
        Self {
            __cg_kept_0: __WorkerSnapshot0::__cg_keep(__cg_params),
        }
    }
}
impl ::cudagraph_runtime::__private::Clone for __WorkerSnapshot {
    fn clone(&self) -> Self {
        Self {
            __cg_kept_0: ::cudagraph_runtime::__private::Clone::clone(&self.__cg_kept_0),
        }
    }
}
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
    params: __WorkerSnapshot,
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
        ],
        edges: &[(0usize, 1usize)],
        bodies: &[],
    };
    /// [`TOPOLOGY`](Self::TOPOLOGY) drawn as a standalone SVG image, laid out when the
    /// macro ran: the picture in this type's docs. Write it to a `.svg` file or put it
    /// in an HTML page; its lines and labels take the text colour of the page around it
    /// (black in a file of its own). It is in the binary only if the program calls this.
    pub const fn topology_svg() -> &'static str {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" width=\"76\" height=\"128\" viewBox=\"0 0 76 128\" font-family=\"monospace\" font-size=\"14\" text-anchor=\"middle\" fill=\"currentColor\"><title>Topology of Worker: 2 nodes, 1 edge</title><defs><marker id=\"cgb8841fcc\" viewBox=\"0 0 8 8\" refX=\"8\" refY=\"4\" markerWidth=\"8\" markerHeight=\"8\" orient=\"auto\"><path d=\"M0 0L8 4L0 8z\"/></marker></defs><g fill=\"none\" stroke=\"currentColor\" marker-end=\"url(#cgb8841fcc)\"><path d=\"M38 48V80\"/></g><rect x=\"8\" y=\"8\" width=\"60\" height=\"40\" rx=\"4\" fill=\"#ccfbf1\" stroke=\"#0f766e\"/><text x=\"38\" y=\"25\" fill=\"#111\">clear</text><text x=\"38\" y=\"41\" font-size=\"11\" fill=\"#374151\">memset</text><rect x=\"9\" y=\"80\" width=\"58\" height=\"40\" rx=\"4\" fill=\"#dbeafe\" stroke=\"#1d4ed8\"/><text x=\"38\" y=\"97\" fill=\"#111\">bump</text><text x=\"38\" y=\"113\" font-size=\"11\" fill=\"#374151\">kernel</text></svg>"
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
            2usize,
        )?;
        let (nodes, state) = Self::__cg_add_nodes(&mut __cg_graph, __cg_params)?;
        ::cudagraph_runtime::__private::built(&__cg_graph, "Worker");
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
        __cg_params: &WorkerParams,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        Self::__cg_check_overlaps(__cg_params)?;
        self.build_id = ::cudagraph_runtime::__private::next_build_id();
        self.graph.clear()?;
        let (nodes, state) = Self::__cg_add_nodes(&mut self.graph, __cg_params)?;
        ::cudagraph_runtime::__private::built(&self.graph, "Worker");
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
        __cg_params: &WorkerParams,
    ) -> ::cudagraph_runtime::__private::Result<
        (
            ::cudagraph_runtime::__private::Box<
                ::cudagraph_runtime::__private::ManuallyDrop<__WorkerNodes>,
            >,
            __WorkerState,
        ),
    > {
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
                params: __WorkerSnapshot::__cg_keep(__cg_params),
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
                ::cudagraph_runtime::__private::Result::Ok((
                    __cg_graph.add_kernel(kernel, config, args, &[nodes.clear.id()])?,
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
        ::cudagraph_runtime::__private::Result::Ok(WorkerExec {
            exec: self.graph.instantiate_with(flags, upload)?,
            nodes: self.nodes,
            state: self.state,
            dirty: [false; 2usize],
            stamps: ::cudagraph_runtime::__private::zeros(2usize),
            generation: 0,
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
        self.graph.instantiate_for_device_launch(upload)
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
}
impl ::cudagraph_runtime::__private::fmt::Debug for Worker {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("Worker").field("graph", &self.graph).finish_non_exhaustive()
    }
}
impl ::cudagraph_runtime::__private::BodyRules for Worker {
    const FORBIDDEN_IN_BODY: ::cudagraph_runtime::__private::Option<&'static str> = {
        #[allow(unused_imports)]
        use ::cudagraph_runtime::__private::{
            ArgsFallback as _, BodyFallback as _, ParamFallback as _, SlotFallback as _,
        };
        ::cudagraph_runtime::__private::first_forbidden(&[])
    };
}
impl ::cudagraph_runtime::__private::ChildGraph for Worker {
    fn graph(&self) -> &::cudagraph_runtime::__private::Graph<'static> {
        &self.graph
    }
    fn identity(&self) -> ::cudagraph_runtime::__private::Option<u64> {
        ::cudagraph_runtime::__private::Option::Some(self.build_id)
    }
}
impl ::cudagraph_runtime::__private::SameDeclaration<Worker> for Worker {
    fn same(&self) -> &Worker {
        self
    }
}
/**[`Worker`], instantiated: launch it, update it from another [`Worker`] or with [`set_params`](Self::set_params), or update one node through its handle:

- [`clear()`](Self::clear): memset node
- [`bump()`](Self::bump): kernel node
*/
struct WorkerExec {
    exec: ::cudagraph_runtime::__private::GraphExec<'static>,
    nodes: ::cudagraph_runtime::__private::Box<
        ::cudagraph_runtime::__private::ManuallyDrop<__WorkerNodes>,
    >,
    state: __WorkerState,
    /// Nodes set through their handles since the last `set_params`: it sets them again.
    dirty: [bool; 2usize],
    /// Per node, the number of the last `set_params_only` call naming several params that
    /// updated it (so that it updates each node once).
    stamps: ::cudagraph_runtime::__private::Box<[u32]>,
    /// The number of the last such call.
    generation: u32,
}
impl WorkerExec {
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
    /**Whole-graph update from a [`Worker`] built with other params (`cuGraphExecUpdate`).

Only a graph of this declaration is accepted: it was built by the same sequence of calls, so its nodes pair with this executable's ([whole-graph update](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#whole-graph-update)). Afterwards the executable runs that graph's params, and [`set_params`](Self::set_params) compares with them.*/
    pub fn update<__CgSame: ::cudagraph_runtime::__private::SameDeclaration<Worker>>(
        &mut self,
        source: &__CgSame,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let source: &Worker = ::cudagraph_runtime::__private::SameDeclaration::same(
            source,
        );
        self.exec.update(&source.graph)?;
        self.state.params = source.state.params.clone();
        *self.state.launch = *source.state.launch;
        self.dirty = [false; 2usize];
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    /**Makes the executable's nodes what [`Worker::build`] would make from `params`, with one single-node update per node whose inputs changed since the last build, update or `set_params` (or that was set through its handle since). Returns how many nodes it updated. Enabled/disabled states are kept.

A param is compared with `PartialEq`, a kernel by function, a declared graph by identity; a runtime `Graph` counts as changed every time. A kernel param may change function (same parameter list, same context): the node's single-node update switches it.*/
    pub fn set_params(
        &mut self,
        __cg_params: &WorkerParams,
    ) -> ::cudagraph_runtime::__private::Result<usize> {
        Worker::__cg_check_overlaps(__cg_params)?;
        #[allow(unused_mut)]
        let mut changed = [false; 3usize];
        self.__cg_changed_0(__cg_params, &mut changed);
        let mut updated = 0usize;
        #[allow(clippy::type_complexity)]
        const READS: &[(
            usize,
            &[usize],
            fn(
                &mut WorkerExec,
                &WorkerParams,
            ) -> ::cudagraph_runtime::__private::Result<()>,
        )] = &[
            (0usize, &[1usize], WorkerExec::__cg_update_node_0),
            (1usize, &[0usize, 1usize, 2usize], WorkerExec::__cg_update_node_1),
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
        self.dirty = [false; 2usize];
        ::cudagraph_runtime::__private::Result::Ok(updated)
    }
    /// The runtime executable, for what the typed API does not cover (read-only).
    pub fn as_exec(&self) -> &::cudagraph_runtime::__private::GraphExec<'static> {
        &self.exec
    }
    #[inline(never)]
    fn __cg_changed_0(&self, __cg_params: &WorkerParams, changed: &mut [bool; 3usize]) {
        changed[0usize] = !(<Kernel<
            (u32, DevicePtrMut<u32>),
        > as ::cudagraph_runtime::__private::KernelType>::function_id(&__cg_params.step)
            == self.state.params.__cg_kept_0.step);
        changed[1usize] = !(<DeviceBuffer<
            u32,
        > as ::cudagraph_runtime::__private::ParamValue>::same(
            &__cg_params.counter,
            &self.state.params.__cg_kept_0.counter,
        ));
        changed[2usize] = !(<u32 as ::cudagraph_runtime::__private::ParamValue>::same(
            &__cg_params.n,
            &self.state.params.__cg_kept_0.n,
        ));
    }
    ///Node `clear` (`memset(counter, 0u32)`): its update handle.
    pub fn clear(&mut self) -> WorkerClearNode<'_> {
        WorkerClearNode { exec: self }
    }
    ///Node `bump` (`kernel step<<<1, 32>>>(n, counter)`): its update handle.
    pub fn bump(&mut self) -> WorkerBumpNode<'_> {
        WorkerBumpNode { exec: self }
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for WorkerExec {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("WorkerExec").field("exec", &self.exec).finish_non_exhaustive()
    }
}
///The params of [`WorkerParams`], one variant each: what [`WorkerExec::set_params_only`] is told changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(dead_code)]
enum WorkerParam {
    ///Param `step`.
    Step,
    ///Param `counter`.
    Counter,
    ///Param `n`.
    N,
}
impl WorkerExec {
    /**Like [`set_params`](Self::set_params), for callers that know what they changed: updates the nodes whose expressions read a param in `changed` (each once), and only them, so its cost grows with the nodes updated, not with the graph. Returns how many nodes it updated.

A changed param missing from `changed` leaves its nodes as they were (the executable keeps alive whatever memory they use); nodes set through their handles are not reset (`set_params` does both). Params that share memory with another under nodes that may run at the same time are refused as by [`Worker::build`].*/
    pub fn set_params_only(
        &mut self,
        __cg_params: &WorkerParams,
        changed: &[WorkerParam],
    ) -> ::cudagraph_runtime::__private::Result<usize> {
        Worker::__cg_check_overlaps(__cg_params)?;
        for &__cg_param in changed {
            match __cg_param {
                WorkerParam::Step => {}
                WorkerParam::Counter => {}
                WorkerParam::N => {}
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
            fn(&mut Self, &WorkerParams) -> ::cudagraph_runtime::__private::Result<()>,
        )],
        fn(&mut Self, &WorkerParams) -> ::cudagraph_runtime::__private::Result<()>,
    )] = &[
        (&[(1usize, Self::__cg_update_node_1)], Self::__cg_commit_0),
        (
            &[(0usize, Self::__cg_update_node_0), (1usize, Self::__cg_update_node_1)],
            Self::__cg_commit_1,
        ),
        (&[(1usize, Self::__cg_update_node_1)], Self::__cg_commit_2),
    ];
    #[inline(never)]
    fn __cg_commit_0(
        &mut self,
        __cg_params: &WorkerParams,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        self.state.params.__cg_kept_0.step = <Kernel<
            (u32, DevicePtrMut<u32>),
        > as ::cudagraph_runtime::__private::KernelType>::function_id(&__cg_params.step);
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline(never)]
    fn __cg_commit_1(
        &mut self,
        __cg_params: &WorkerParams,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        self.state.params.__cg_kept_0.counter = <DeviceBuffer<
            u32,
        > as ::cudagraph_runtime::__private::ParamValue>::keep(&__cg_params.counter);
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline(never)]
    fn __cg_commit_2(
        &mut self,
        __cg_params: &WorkerParams,
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
        __cg_params: &WorkerParams,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        self.exec
            .set_memset_params(self.nodes.clear, Worker::__cg_eval_clear(__cg_params))?;
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline(never)]
    #[allow(unused_variables)]
    fn __cg_update_node_1(
        &mut self,
        __cg_params: &WorkerParams,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let (kernel, config, args) = Worker::__cg_eval_bump(__cg_params);
        self.exec.set_kernel(self.nodes.bump, kernel, config, args)?;
        self.state.launch.bump = config;
        ::cudagraph_runtime::__private::Result::Ok(())
    }
}
///Update handle of node `clear` of [`WorkerExec`] (`memset(counter, 0u32)`): its destination and value can change (1-D only), and it can be enabled or disabled ([what CUDA allows](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#individual-node-update)).
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
        self.exec.dirty[0usize] = true;
        self.exec
            .exec
            .set_memset_params(
                self.exec.nodes.clear,
                ::cudagraph_runtime::__private::MemsetAs::memset_as(dst, value),
            )
    }
    #[doc(hidden)]
    pub fn set_2d<__CgDst, __CgValue>(
        &mut self,
        dst: __CgDst,
        pitch: usize,
        value: __CgValue,
        width: usize,
        height: usize,
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
        enabled: bool,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        self.exec.exec.set_enabled(self.exec.nodes.clear, enabled)
    }
    /// Whether the node is enabled (`cuGraphNodeGetEnabled`).
    pub fn is_enabled(&self) -> ::cudagraph_runtime::__private::Result<bool> {
        self.exec.exec.is_enabled(self.exec.nodes.clear)
    }
    /// The node's runtime handle, for the runtime's own API.
    pub fn node(
        &self,
    ) -> ::cudagraph_runtime::__private::MemsetNode<
        <DeviceBuffer<u32> as ::cudagraph_runtime::__private::MemsetTarget>::Pattern,
    > {
        self.exec.nodes.clear
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
///Update handle of node `bump` of [`WorkerExec`] (`kernel step<<<1, 32>>>(n, counter)`): its arguments and launch configuration can change, and it can be enabled or disabled ([what CUDA allows](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#individual-node-update)).
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
        let config = self.exec.state.launch.bump;
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
        self.exec.dirty[1usize] = true;
        self.exec.exec.set_kernel_params(self.exec.nodes.bump, config, (n, counter))?;
        self.exec.state.launch.bump = config;
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    /// The node's launch configuration now.
    pub fn launch_config(&self) -> ::cudagraph_runtime::__private::LaunchConfig {
        self.exec.state.launch.bump
    }
    /// Enables or disables the node for the next launches (`cuGraphNodeSetEnabled`). A
    /// disabled node acts as an empty node; params set meanwhile apply once it is enabled.
    pub fn set_enabled(
        &mut self,
        enabled: bool,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        self.exec.exec.set_enabled(self.exec.nodes.bump, enabled)
    }
    /// Whether the node is enabled (`cuGraphNodeGetEnabled`).
    pub fn is_enabled(&self) -> ::cudagraph_runtime::__private::Result<bool> {
        self.exec.exec.is_enabled(self.exec.nodes.bump)
    }
    /// The node's runtime handle, for the runtime's own API.
    pub fn node(
        &self,
    ) -> ::cudagraph_runtime::__private::KernelNode<(u32, DevicePtrMut<u32>)> {
        self.exec.nodes.bump
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
fn main() {}
