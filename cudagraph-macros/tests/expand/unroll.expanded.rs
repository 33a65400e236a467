//! An unrolled WHILE: the body's nodes in each of its 4 copies (handles by copy), its check (the
//! kernel setting the loop's handle) in the last copy only, and the node after the check
//! depending on what the check depends on in the copies before the last.
use cudagraph_runtime::prelude::*;
const _: () = {
    #[allow(unused_imports)]
    use ::cudagraph_runtime::__private::{
        ArgsFallback as _, BodyFallback as _, ParamFallback as _, SlotFallback as _,
    };
    if <::cudagraph_runtime::__private::ParamProbe<
        Kernel<(u32, DevicePtr<f32>, DevicePtrMut<f32>)>,
    >>::IS_HANDLE {
        ::cudagraph_runtime::__private::fail(
            "param `sweep` is a `ConditionalHandle`: a handle is made by the conditional node that reads it (`name: while sweep { ... }`), since one made for another graph would be set where no node reads it",
        )
    }
};
const _: () = {
    #[allow(unused_imports)]
    use ::cudagraph_runtime::__private::{
        ArgsFallback as _, BodyFallback as _, ParamFallback as _, SlotFallback as _,
    };
    if <::cudagraph_runtime::__private::ParamProbe<
        Kernel<(ConditionalHandle, DevicePtr<f32>, u32)>,
    >>::IS_HANDLE {
        ::cudagraph_runtime::__private::fail(
            "param `check` is a `ConditionalHandle`: a handle is made by the conditional node that reads it (`name: while check { ... }`), since one made for another graph would be set where no node reads it",
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
    if <::cudagraph_runtime::__private::SlotProbe<DevicePtr<f32>>>::ACCESS
        == ::cudagraph_runtime::__private::WRITE
    {
        ::cudagraph_runtime::__private::fail(
            "kernel parameter type `DevicePtr<f32>` is written as a `DevicePtr`, which the kernel only reads, but names a pointer it writes through (a `DevicePtrMut`): `cuda_graph!` finds data races by what each kernel parameter is called; write it `DevicePtrMut<T>`, or give the alias or import another name",
        )
    }
};
const _: () = {
    #[allow(unused_imports)]
    use ::cudagraph_runtime::__private::{
        ArgsFallback as _, BodyFallback as _, ParamFallback as _, SlotFallback as _,
    };
    if <::cudagraph_runtime::__private::SlotProbe<ConditionalHandle>>::ACCESS
        != ::cudagraph_runtime::__private::VALUE
    {
        ::cudagraph_runtime::__private::fail(
            "kernel parameter type `ConditionalHandle` is written as a `ConditionalHandle`, which holds no memory, but names a pointer: `cuda_graph!` finds data races by what each kernel parameter is called; write it `DevicePtr<T>` or `DevicePtrMut<T>`, or give the alias or import another name",
        )
    }
};
/**The params of [`Solve`]: what its nodes are built from ([`Solve::build`]). Its executable owns a copy ([`SolveExec::params`]), changed through the executable (`set_<param>`, [`SolveExec::params_mut`], [`SolveExec::set_params`]), which updates exactly the nodes that read what changed:

- node `start` reads `x`
- node `forward` reads `sweep`, `x`, `y`, `n`
- node `back` reads `sweep`, `x`, `y`, `n`
- node `done` reads `check`, `x`, `n`
- node `tail` reads `y`
*/
#[allow(clippy::type_complexity)]
struct SolveParams {
    ///Param `sweep`, read by nodes `forward`, `back`.
    pub sweep: Kernel<(u32, DevicePtr<f32>, DevicePtrMut<f32>)>,
    ///Param `check`, read by node `done`.
    pub check: Kernel<(ConditionalHandle, DevicePtr<f32>, u32)>,
    ///Param `x`, read by nodes `start`, `forward`, `back`, `done`.
    pub x: DeviceBuffer<f32>,
    ///Param `y`, read by nodes `forward`, `back`, `tail`.
    pub y: DeviceBuffer<f32>,
    ///Param `n`, read by nodes `forward`, `back`, `done`.
    pub n: u32,
}
impl ::cudagraph_runtime::__private::fmt::Debug for SolveParams {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("SolveParams").finish_non_exhaustive()
    }
}
/**A CUDA graph declared with `cuda_graph!`: [`Solve::build`] builds it from a [`SolveParams`], [`Solve::instantiate`] makes it a [`SolveExec`].

# Nodes

In build order (a node's position is its index in the graph):

0. `start`: `memset(x, 0.0f32)`
1. `solve`: `while more(default = 1, unroll = 4) { .. }`, after `start`
2. `forward`: `kernel sweep<<<n.div_ceil(256), 256>>>(n, x, y)`
3. `back`: `kernel sweep<<<n.div_ceil(256), 256>>>(n, y, x)`, after `forward`
4. `done`: `kernel check<<<1, 32>>>(more, x, n)`, after `back`
5. `tail`: `memset(y, 0.0f32)`, after `done`

The nodes of an unrolled WHILE body (`unroll = k`) are listed once: the graph holds each `k` times, one copy after the other (the nodes that set the loop's handle in the last copy only), so the indices in the graph of that body's nodes, and of the bodies after it, are not the positions here.

# Topology

<div style="overflow-x:auto"><svg xmlns="http://www.w3.org/2000/svg" role="img" width="138" height="402" viewBox="0 0 138 402" font-family="monospace" font-size="14" text-anchor="middle" fill="currentColor"><title>Topology of Solve: 6 nodes, 4 edges</title><defs><marker id="cg230f020e" viewBox="0 0 8 8" refX="8" refY="4" markerWidth="8" markerHeight="8" orient="auto"><path d="M0 0L8 4L0 8z"/></marker></defs><rect x="8" y="80" width="122" height="314" rx="6" fill-opacity=".07" stroke="currentColor"/><text x="16" y="97" text-anchor="start"><tspan font-weight="bold">solve</tspan>: while</text><rect x="22" y="104" width="94" height="282" rx="4" fill="none" stroke="currentColor" stroke-dasharray="4 3"/><text x="28" y="117" font-size="11" font-style="italic" text-anchor="start">body ×4</text><g fill="none" stroke="currentColor" marker-end="url(#cg230f020e)"><path d="M69 48V80"/><path d="M69 162V194"/><path d="M69 234V266"/><path d="M69 306V338"/></g><rect x="39" y="8" width="60" height="40" rx="4" fill="#ccfbf1" stroke="#0f766e"/><text x="69" y="25" fill="#111">start</text><text x="69" y="41" font-size="11" fill="#374151">memset</text><rect x="30" y="122" width="78" height="40" rx="4" fill="#dbeafe" stroke="#1d4ed8"/><text x="69" y="139" fill="#111">forward</text><text x="69" y="155" font-size="11" fill="#374151">kernel</text><rect x="40" y="194" width="58" height="40" rx="4" fill="#dbeafe" stroke="#1d4ed8"/><text x="69" y="211" fill="#111">back</text><text x="69" y="227" font-size="11" fill="#374151">kernel</text><rect x="40" y="266" width="58" height="40" rx="4" fill="#dbeafe" stroke="#1d4ed8"/><text x="69" y="283" fill="#111">done</text><text x="69" y="299" font-size="11" fill="#374151">kernel</text><rect x="40" y="338" width="58" height="40" rx="4" fill="#ccfbf1" stroke="#0f766e"/><text x="69" y="355" fill="#111">tail</text><text x="69" y="371" font-size="11" fill="#374151">memset</text></svg></div>

As text: `Solve::TOPOLOGY.to_mermaid()` (Mermaid) or `.to_dot()` (Graphviz).
*/
struct Solve {
    parts: ::cudagraph_runtime::__private::Guarded<__SolveParts>,
}
#[doc(hidden)]
#[allow(non_camel_case_types)]
struct __SolveParts {
    graph: ::cudagraph_runtime::__private::Graph<'static>,
    nodes: ::cudagraph_runtime::__private::Box<
        ::cudagraph_runtime::__private::ManuallyDrop<__SolveNodes>,
    >,
    state: __SolveState,
    build_id: ::core::primitive::u64,
}
#[doc(hidden)]
#[allow(non_camel_case_types, dead_code, clippy::type_complexity)]
struct __SolveNodes {
    start: ::cudagraph_runtime::__private::MemsetNode<
        <DeviceBuffer<f32> as ::cudagraph_runtime::__private::MemsetTarget>::Pattern,
    >,
    solve: ::cudagraph_runtime::__private::ConditionalNode,
    forward: [::cudagraph_runtime::__private::KernelNode<
        (u32, DevicePtr<f32>, DevicePtrMut<f32>),
    >; 4usize],
    back: [::cudagraph_runtime::__private::KernelNode<
        (u32, DevicePtr<f32>, DevicePtrMut<f32>),
    >; 4usize],
    done: ::cudagraph_runtime::__private::KernelNode<
        (ConditionalHandle, DevicePtr<f32>, u32),
    >,
    tail: [::cudagraph_runtime::__private::MemsetNode<
        <DeviceBuffer<f32> as ::cudagraph_runtime::__private::MemsetTarget>::Pattern,
    >; 4usize],
    more: ::cudagraph_runtime::__private::ConditionalHandle,
}
unsafe impl ::cudagraph_runtime::__private::Unbuilt for __SolveNodes {}
#[doc(hidden)]
#[allow(non_camel_case_types, non_snake_case, dead_code)]
#[derive(Clone, Copy)]
struct __SolveLaunch {
    forward: ::cudagraph_runtime::__private::LaunchConfig,
    back: ::cudagraph_runtime::__private::LaunchConfig,
    done: ::cudagraph_runtime::__private::LaunchConfig,
}
unsafe impl ::cudagraph_runtime::__private::Unbuilt for __SolveLaunch {}
#[doc(hidden)]
#[allow(non_camel_case_types)]
struct __SolveState {
    params: ::cudagraph_runtime::__private::Box<SolveParams>,
    launch: ::cudagraph_runtime::__private::Box<__SolveLaunch>,
}
impl Solve {
    /// The declared shape: nodes in build order (their indices in the graph; one more
    /// with `#[indirect]` params, whose fetch node comes first), kinds and edges. Its
    /// `to_dot()` and `to_mermaid()` draw it.
    ///
    /// The nodes of an unrolled WHILE body are listed once, though the graph holds them once per copy: the indices in the graph of that body's nodes, and of the bodies after it, are not the positions here.
    pub const TOPOLOGY: ::cudagraph_runtime::__private::Topology = ::cudagraph_runtime::__private::Topology {
        name: "Solve",
        nodes: &[
            ("start", ::cudagraph_runtime::__private::NodeKind::Memset),
            ("solve", ::cudagraph_runtime::__private::NodeKind::Conditional),
            ("forward", ::cudagraph_runtime::__private::NodeKind::Kernel),
            ("back", ::cudagraph_runtime::__private::NodeKind::Kernel),
            ("done", ::cudagraph_runtime::__private::NodeKind::Kernel),
            ("tail", ::cudagraph_runtime::__private::NodeKind::Memset),
        ],
        edges: &[(0usize, 1usize), (2usize, 3usize), (3usize, 4usize), (4usize, 5usize)],
        bodies: &[
            ::cudagraph_runtime::__private::Option::None,
            ::cudagraph_runtime::__private::Option::None,
            ::cudagraph_runtime::__private::Option::Some((1usize, 0u32)),
            ::cudagraph_runtime::__private::Option::Some((1usize, 0u32)),
            ::cudagraph_runtime::__private::Option::Some((1usize, 0u32)),
            ::cudagraph_runtime::__private::Option::Some((1usize, 0u32)),
        ],
    };
    /// [`TOPOLOGY`](Self::TOPOLOGY) drawn as a standalone SVG image, laid out when the
    /// macro ran: the picture in this type's docs. Write it to a `.svg` file or put it
    /// in an HTML page; its lines and labels take the text colour of the page around it
    /// (black in a file of its own). It is in the binary only if the program calls this.
    pub const fn topology_svg() -> &'static ::core::primitive::str {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" width=\"138\" height=\"402\" viewBox=\"0 0 138 402\" font-family=\"monospace\" font-size=\"14\" text-anchor=\"middle\" fill=\"currentColor\"><title>Topology of Solve: 6 nodes, 4 edges</title><defs><marker id=\"cg230f020e\" viewBox=\"0 0 8 8\" refX=\"8\" refY=\"4\" markerWidth=\"8\" markerHeight=\"8\" orient=\"auto\"><path d=\"M0 0L8 4L0 8z\"/></marker></defs><rect x=\"8\" y=\"80\" width=\"122\" height=\"314\" rx=\"6\" fill-opacity=\".07\" stroke=\"currentColor\"/><text x=\"16\" y=\"97\" text-anchor=\"start\"><tspan font-weight=\"bold\">solve</tspan>: while</text><rect x=\"22\" y=\"104\" width=\"94\" height=\"282\" rx=\"4\" fill=\"none\" stroke=\"currentColor\" stroke-dasharray=\"4 3\"/><text x=\"28\" y=\"117\" font-size=\"11\" font-style=\"italic\" text-anchor=\"start\">body ×4</text><g fill=\"none\" stroke=\"currentColor\" marker-end=\"url(#cg230f020e)\"><path d=\"M69 48V80\"/><path d=\"M69 162V194\"/><path d=\"M69 234V266\"/><path d=\"M69 306V338\"/></g><rect x=\"39\" y=\"8\" width=\"60\" height=\"40\" rx=\"4\" fill=\"#ccfbf1\" stroke=\"#0f766e\"/><text x=\"69\" y=\"25\" fill=\"#111\">start</text><text x=\"69\" y=\"41\" font-size=\"11\" fill=\"#374151\">memset</text><rect x=\"30\" y=\"122\" width=\"78\" height=\"40\" rx=\"4\" fill=\"#dbeafe\" stroke=\"#1d4ed8\"/><text x=\"69\" y=\"139\" fill=\"#111\">forward</text><text x=\"69\" y=\"155\" font-size=\"11\" fill=\"#374151\">kernel</text><rect x=\"40\" y=\"194\" width=\"58\" height=\"40\" rx=\"4\" fill=\"#dbeafe\" stroke=\"#1d4ed8\"/><text x=\"69\" y=\"211\" fill=\"#111\">back</text><text x=\"69\" y=\"227\" font-size=\"11\" fill=\"#374151\">kernel</text><rect x=\"40\" y=\"266\" width=\"58\" height=\"40\" rx=\"4\" fill=\"#dbeafe\" stroke=\"#1d4ed8\"/><text x=\"69\" y=\"283\" fill=\"#111\">done</text><text x=\"69\" y=\"299\" font-size=\"11\" fill=\"#374151\">kernel</text><rect x=\"40\" y=\"338\" width=\"58\" height=\"40\" rx=\"4\" fill=\"#ccfbf1\" stroke=\"#0f766e\"/><text x=\"69\" y=\"355\" fill=\"#111\">tail</text><text x=\"69\" y=\"371\" font-size=\"11\" fill=\"#374151\">memset</text></svg>"
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
        __cg_params: &SolveParams,
    ) -> ::cudagraph_runtime::__private::Result<Self> {
        Self::__cg_check_overlaps(__cg_params)?;
        let mut __cg_graph = ::cudagraph_runtime::__private::Graph::with_capacity(
            ctx,
            6usize,
        )?;
        let (nodes, state) = Self::__cg_add_nodes(&mut __cg_graph, __cg_params)?;
        ::cudagraph_runtime::__private::built(&__cg_graph, "Solve");
        let __cg_parts = __SolveParts {
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
        __cg_params: &SolveParams,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        Self::__cg_check_overlaps(__cg_params)?;
        let __cg_parts = unsafe { self.parts.get_mut() };
        __cg_parts.build_id = ::cudagraph_runtime::__private::next_build_id();
        __cg_parts.graph.clear()?;
        let (nodes, state) = Self::__cg_add_nodes(&mut __cg_parts.graph, __cg_params)?;
        ::cudagraph_runtime::__private::built(&__cg_parts.graph, "Solve");
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
        __cg_params: &SolveParams,
    ) -> ::cudagraph_runtime::__private::Result<
        (
            ::cudagraph_runtime::__private::Box<
                ::cudagraph_runtime::__private::ManuallyDrop<__SolveNodes>,
            >,
            __SolveState,
        ),
    > {
        let owned = Self::__cg_own(__cg_params)?;
        let mut boxed = ::cudagraph_runtime::__private::unbuilt_box::<
            ::cudagraph_runtime::__private::ManuallyDrop<__SolveNodes>,
        >();
        let mut configs = ::cudagraph_runtime::__private::unbuilt_box::<__SolveLaunch>();
        {
            let nodes: &mut __SolveNodes = &mut boxed;
            #[allow(unused_variables)]
            let launches: &mut __SolveLaunch = &mut configs;
            nodes.more = __cg_graph
                .conditional_handle(::cudagraph_runtime::__private::Option::Some(1))?;
            Self::__cg_add_0(__cg_graph, __cg_params, nodes, launches)?;
        }
        ::cudagraph_runtime::__private::Result::Ok((
            boxed,
            __SolveState {
                params: owned,
                launch: configs,
            },
        ))
    }
    #[inline(never)]
    fn __cg_add_2(
        __cg_graph: &mut ::cudagraph_runtime::__private::Graph<'static>,
        __cg_params: &SolveParams,
        nodes: &mut __SolveNodes,
        launches: &mut __SolveLaunch,
        copy: ::core::primitive::usize,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        (nodes.forward[copy], launches.forward) = ::cudagraph_runtime::__private::add_node(
            __cg_graph,
            "forward",
            |__cg_graph| {
                let (kernel, config, args) = Solve::__cg_eval_forward(__cg_params);
                let added = __cg_graph.add_kernel(kernel, config, args, &[])?;
                ::cudagraph_runtime::__private::Result::Ok((added, config))
            },
        )?;
        (nodes.back[copy], launches.back) = ::cudagraph_runtime::__private::add_node(
            __cg_graph,
            "back",
            |__cg_graph| {
                let (kernel, config, args) = Solve::__cg_eval_back(__cg_params);
                let added = __cg_graph
                    .add_kernel(kernel, config, args, &[nodes.forward[copy].id()])?;
                ::cudagraph_runtime::__private::Result::Ok((added, config))
            },
        )?;
        if copy + 1 == 4usize {
            (nodes.done, launches.done) = ::cudagraph_runtime::__private::add_node(
                __cg_graph,
                "done",
                |__cg_graph| {
                    let (kernel, config, args) = Solve::__cg_eval_done(
                        __cg_params,
                        nodes.more,
                    );
                    let added = __cg_graph
                        .add_kernel(kernel, config, args, &[nodes.back[copy].id()])?;
                    ::cudagraph_runtime::__private::Result::Ok((added, config))
                },
            )?;
        }
        let (
            last_deps,
            copy_deps,
        ): (
            [::cudagraph_runtime::__private::NodeId; 1usize],
            [::cudagraph_runtime::__private::NodeId; 1usize],
        );
        let deps: &[::cudagraph_runtime::__private::NodeId] = if copy + 1 == 4usize {
            last_deps = [nodes.done.id()];
            &last_deps
        } else {
            copy_deps = [nodes.back[copy].id()];
            &copy_deps
        };
        nodes.tail[copy] = ::cudagraph_runtime::__private::add_node(
            __cg_graph,
            "tail",
            |__cg_graph| __cg_graph.add_memset(Solve::__cg_eval_tail(__cg_params), deps),
        )?;
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline(never)]
    fn __cg_add_0(
        __cg_graph: &mut ::cudagraph_runtime::__private::Graph<'static>,
        __cg_params: &SolveParams,
        nodes: &mut __SolveNodes,
        launches: &mut __SolveLaunch,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        nodes.start = ::cudagraph_runtime::__private::add_node(
            __cg_graph,
            "start",
            |__cg_graph| __cg_graph.add_memset(Solve::__cg_eval_start(__cg_params), &[]),
        )?;
        ::cudagraph_runtime::__private::needs_conditional_nodes::<()>();
        __cg_graph.name_next("solve");
        nodes.solve = __cg_graph
            .add_unrolled_while(
                nodes.more,
                &[nodes.start.id()],
                4,
                |body, unrolled| {
                    let __cg_graph = unsafe {
                        ::cudagraph_runtime::__private::Body::as_graph_mut(body)
                    };
                    let copy: ::core::primitive::usize = unrolled.index()
                        as ::core::primitive::usize;
                    Self::__cg_add_2(__cg_graph, __cg_params, nodes, launches, copy)?;
                    ::cudagraph_runtime::__private::Result::Ok(())
                },
            )?
            .0;
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
        __cg_params: &SolveParams,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        #[allow(unused_imports)]
        use ::cudagraph_runtime::__private::{
            ArgsFallback as _, BodyFallback as _, ParamFallback as _, SlotFallback as _,
        };
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    ///Instantiates the graph with default flags.
    pub fn instantiate(self) -> ::cudagraph_runtime::__private::Result<SolveExec> {
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
    ) -> ::cudagraph_runtime::__private::Result<SolveExec> {
        let __cg_parts = self.parts.into_inner();
        let applied = Self::__cg_own(&__cg_parts.state.params)?;
        let exec = __cg_parts.graph.instantiate_with(flags, upload)?;
        ::cudagraph_runtime::__private::Result::Ok(unsafe {
            SolveExec::__cg_new(exec, __cg_parts.nodes, __cg_parts.state, applied)
        })
    }
    ///Instantiates the graph as an executable *bound to* `stream`: it launches there only (`launch` refuses another stream). The launches of executables bound to one stream never overlap, so they may share host memory that their host nodes write, which two executables launched anywhere may not (`Error::BufferInUse` when the second is made).
    pub fn instantiate_on(
        self,
        stream: &::cudagraph_runtime::__private::Arc<
            ::cudagraph_runtime::__private::CudaStream,
        >,
    ) -> ::cudagraph_runtime::__private::Result<SolveExec> {
        let flags = ::cudagraph_runtime::__private::InstantiateFlags::NONE;
        let __cg_parts = self.parts.into_inner();
        let applied = Self::__cg_own(&__cg_parts.state.params)?;
        let exec = __cg_parts.graph.instantiate_on(stream, flags)?;
        ::cudagraph_runtime::__private::Result::Ok(unsafe {
            SolveExec::__cg_new(exec, __cg_parts.nodes, __cg_parts.state, applied)
        })
    }
    #[allow(
        non_snake_case,
        unused_variables,
        clippy::type_complexity,
        clippy::needless_lifetimes
    )]
    fn __cg_eval_start<'__cg_p>(
        __cg_params: &'__cg_p SolveParams,
    ) -> ::cudagraph_runtime::__private::Memset<
        'static,
        <DeviceBuffer<f32> as ::cudagraph_runtime::__private::MemsetTarget>::Pattern,
    > {
        #[allow(unused_imports)]
        use ::cudagraph_runtime::__private::{BindCopy as _, BindRef as _};
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let x = (&::cudagraph_runtime::__private::Bind(&__cg_params.x)).__cg_bind();
        <DeviceBuffer<
            f32,
        > as ::cudagraph_runtime::__private::MemsetTarget>::memset(
            &__cg_params.x,
            0.0f32,
        )
    }
    #[allow(
        non_snake_case,
        unused_variables,
        clippy::type_complexity,
        clippy::needless_lifetimes
    )]
    fn __cg_eval_forward<'__cg_p>(
        __cg_params: &'__cg_p SolveParams,
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
        let sweep = (&::cudagraph_runtime::__private::Bind(&__cg_params.sweep))
            .__cg_bind();
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let n = (&::cudagraph_runtime::__private::Bind(&__cg_params.n)).__cg_bind();
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let x = (&::cudagraph_runtime::__private::Bind(&__cg_params.x)).__cg_bind();
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let y = (&::cudagraph_runtime::__private::Bind(&__cg_params.y)).__cg_bind();
        let config = ::cudagraph_runtime::__private::launch(n.div_ceil(256), 256, 0);
        let args = (
            ::cudagraph_runtime::__private::KernelArgPart::<'static, u32, _>::new(n),
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
                (u32, DevicePtr<f32>, DevicePtrMut<f32>),
            > as ::cudagraph_runtime::__private::KernelType>::as_kernel(
                &__cg_params.sweep,
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
        __cg_params: &'__cg_p SolveParams,
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
        let sweep = (&::cudagraph_runtime::__private::Bind(&__cg_params.sweep))
            .__cg_bind();
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let n = (&::cudagraph_runtime::__private::Bind(&__cg_params.n)).__cg_bind();
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let y = (&::cudagraph_runtime::__private::Bind(&__cg_params.y)).__cg_bind();
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let x = (&::cudagraph_runtime::__private::Bind(&__cg_params.x)).__cg_bind();
        let config = ::cudagraph_runtime::__private::launch(n.div_ceil(256), 256, 0);
        let args = (
            ::cudagraph_runtime::__private::KernelArgPart::<'static, u32, _>::new(n),
            ::cudagraph_runtime::__private::KernelArgPart::<
                'static,
                DevicePtr<f32>,
                _,
            >::new(y),
            ::cudagraph_runtime::__private::KernelArgPart::<
                'static,
                DevicePtrMut<f32>,
                _,
            >::new(x),
        );
        (
            <Kernel<
                (u32, DevicePtr<f32>, DevicePtrMut<f32>),
            > as ::cudagraph_runtime::__private::KernelType>::as_kernel(
                &__cg_params.sweep,
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
        __cg_params: &'__cg_p SolveParams,
        more: ::cudagraph_runtime::__private::ConditionalHandle,
    ) -> (
        &'__cg_p ::cudagraph_runtime::__private::Kernel<
            (ConditionalHandle, DevicePtr<f32>, u32),
        >,
        ::cudagraph_runtime::__private::LaunchConfig,
        (
            impl ::cudagraph_runtime::__private::KernelArg<
                'static,
                ConditionalHandle,
            > + '__cg_p,
            impl ::cudagraph_runtime::__private::KernelArg<
                'static,
                DevicePtr<f32>,
            > + '__cg_p,
            impl ::cudagraph_runtime::__private::KernelArg<'static, u32> + '__cg_p,
        ),
    ) {
        #[allow(unused_imports)]
        use ::cudagraph_runtime::__private::{BindCopy as _, BindRef as _};
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let check = (&::cudagraph_runtime::__private::Bind(&__cg_params.check))
            .__cg_bind();
        #[allow(unused_variables, clippy::redundant_locals)]
        let more = more;
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let x = (&::cudagraph_runtime::__private::Bind(&__cg_params.x)).__cg_bind();
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let n = (&::cudagraph_runtime::__private::Bind(&__cg_params.n)).__cg_bind();
        let config = ::cudagraph_runtime::__private::launch(1, 32, 0);
        let args = (
            ::cudagraph_runtime::__private::KernelArgPart::<
                'static,
                ConditionalHandle,
                _,
            >::new(more),
            ::cudagraph_runtime::__private::KernelArgPart::<
                'static,
                DevicePtr<f32>,
                _,
            >::new(x),
            ::cudagraph_runtime::__private::KernelArgPart::<'static, u32, _>::new(n),
        );
        (
            <Kernel<
                (ConditionalHandle, DevicePtr<f32>, u32),
            > as ::cudagraph_runtime::__private::KernelType>::as_kernel(
                &__cg_params.check,
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
    fn __cg_eval_tail<'__cg_p>(
        __cg_params: &'__cg_p SolveParams,
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
}
impl ::cudagraph_runtime::__private::fmt::Debug for Solve {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("Solve").field("graph", &self.parts.graph).finish_non_exhaustive()
    }
}
impl ::cudagraph_runtime::__private::SameDeclaration<Solve> for Solve {
    fn same(&self) -> &Solve {
        self
    }
}
/**[`Solve`], instantiated, with the [`SolveParams`] it runs, which it owns ([`params`](Self::params)).

Change a param with its setter (`exec.set_alpha(0.5)?`, one per param: it updates the nodes that read it, and returns the old value), several at once or two swapped through [`params_mut`](Self::params_mut) ([`SolveParamsMut`], whose changes the next launch applies if its `apply` did not), all of them by [`set_params`](Self::set_params); or update it from another [`Solve`] ([`update`](Self::update)), or one node through its handle. Which node reads which param is known when the macro runs: a change updates the nodes that read it, each once, with nothing else compared.

A change is made whole or not at all. One that a node refuses (the driver or a kernel's check, params that would make two nodes race, or a change CUDA cannot make, such as an allocation's length) is the error of the setter, `apply`, `set_params` or launch that tried it, naming the node, and is undone: every param changed since the last update gets back the value the nodes were last updated from (the executable keeps a copy of those), the nodes updated before the refusal are set back, and nothing stays pending, so the next launch runs what ran before. A panic in your code that a change runs (a node expression, a param's `Clone`, `PartialEq` or `Drop`) may stop it part way: caught, it leaves the executable refusing updates and launches (`Error::Invalid`) until a whole-graph update. Memory the executable stops using is released once the launches that may use it are done.

Nodes:

- [`start()`](Self::start): memset node
- [`solve()`](Self::solve): while node
- [`forward()`](Self::forward): kernel node, in each of the 4 copies of an unrolled body
- [`back()`](Self::back): kernel node, in each of the 4 copies of an unrolled body
- [`done()`](Self::done): kernel node
- [`tail()`](Self::tail): memset node, in each of the 4 copies of an unrolled body
*/
struct SolveExec {
    parts: ::cudagraph_runtime::__private::Guarded<__SolveExecParts>,
}
#[doc(hidden)]
#[allow(non_camel_case_types)]
struct __SolveExecParts {
    exec: ::cudagraph_runtime::__private::GraphExec<'static>,
    nodes: ::cudagraph_runtime::__private::Box<
        ::cudagraph_runtime::__private::ManuallyDrop<__SolveNodes>,
    >,
    state: __SolveState,
    /// A copy of the params as the nodes were last updated from them: what a refused
    /// change puts back (see `__private::apply`).
    applied: ::cudagraph_runtime::__private::Box<SolveParams>,
    /// The nodes that disagree with the params (see `__private::Tracker`).
    tracker: ::cudagraph_runtime::__private::Tracker,
}
impl SolveExec {
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
            ::cudagraph_runtime::__private::ManuallyDrop<__SolveNodes>,
        >,
        state: __SolveState,
        applied: ::cudagraph_runtime::__private::Box<SolveParams>,
    ) -> Self {
        let tracker = ::cudagraph_runtime::__private::Tracker::new(6usize, 5usize);
        let __cg_parts = __SolveExecParts {
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
    /**Whole-graph update from a [`Solve`] built with other params (`cuGraphExecUpdate`).

Only a graph of this declaration is accepted: it was built by the same sequence of calls, so its nodes pair with this executable's ([whole-graph update](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#whole-graph-update)). Afterwards the executable owns a copy of that graph's params (what [`params`](Self::params) shows), and changes made to its own params and not applied yet are dropped.*/
    pub fn update<__CgSame: ::cudagraph_runtime::__private::SameDeclaration<Solve>>(
        &mut self,
        source: &__CgSame,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let source: &Solve = ::cudagraph_runtime::__private::SameDeclaration::same(
            source,
        );
        let params = Solve::__cg_own(&source.parts.state.params)?;
        let applied = Solve::__cg_own(&source.parts.state.params)?;
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
    /**Replaces the executable's params with `params` as a whole: each param that differs from the executable's own is copied in, then the nodes that read a changed param (or were set through their handle since) are updated, each once, with one single-node update. Afterwards the nodes are what [`Solve::build`] would make from `params`. Returns how many nodes it updated. Enabled/disabled states are kept.

It compares every param, so its cost grows with the declaration: to change a few params, set them (the setters `set_<param>`, [`params_mut`](Self::params_mut)), which updates only their readers. A param is compared with `PartialEq`, a kernel by function, a declared graph by identity; a runtime `Graph` counts as changed every time. A kernel param may change function (same parameter list, same context): the node's single-node update switches it.

Params under which two nodes that may run at the same time share memory, one writing it, are refused as by [`Solve::build`], with nothing changed. So is any update a node refuses: the error names the node, and the params and the nodes updated before it are set back to what they were.*/
    pub fn set_params(
        &mut self,
        __cg_params: &SolveParams,
    ) -> ::cudagraph_runtime::__private::Result<::core::primitive::usize> {
        Solve::__cg_check_overlaps(__cg_params)?;
        self.__cg_take_0(__cg_params);
        ::cudagraph_runtime::__private::set_all(self)
    }
    ///The params the executable runs: those it was built from, with every change made since through the setters (`set_<param>`), [`params_mut`](Self::params_mut), [`set_params`](Self::set_params) or [`update`](Self::update). Host code reads the buffers among them as any buffer's holder does: `exec.params().y.to_vec()` waits for the launches that may write `y`.
    pub fn params(&self) -> &SolveParams {
        &self.parts.state.params
    }
    /**A guard through which to change several params at once, or to swap two: [`SolveParamsMut`]'s `set_<param>` and [`swap`](SolveParamsMut::swap) change the params (read them through the guard) and mark the nodes that read them; [`SolveParamsMut::apply`] updates those nodes, each once however many of its params changed, and if the guard is dropped instead, the next [`launch`](Self::launch) does. Either reports an update the driver or a kernel's check refuses as an error naming the node, and undoes the changes (the params and the nodes are as they were before them); nothing is lost when the guard is dropped.

```text
exec.params_mut().swap(|p| (&mut p.x, &mut p.x_new))?; // the ping-pong of a solver
exec.launch(&stream)?;                                 // updates x's and x_new's readers
```*/
    pub fn params_mut(&mut self) -> SolveParamsMut<'_> {
        SolveParamsMut { exec: self }
    }
    /// The params, taking the executable apart (it is dropped; memory its launches may
    /// still use stays alive until they are done).
    pub fn into_params(self) -> SolveParams {
        *self.parts.into_inner().state.params
    }
    /// The runtime executable, for what the typed API does not cover (read-only).
    pub fn as_exec(&self) -> &::cudagraph_runtime::__private::GraphExec<'static> {
        &self.parts.exec
    }
    #[inline(never)]
    fn __cg_take_0(&mut self, __cg_params: &SolveParams) {
        let __cg_parts = unsafe { self.parts.get_mut() };
        if !(<Kernel<
            (u32, DevicePtr<f32>, DevicePtrMut<f32>),
        > as ::cudagraph_runtime::__private::KernelType>::function_id(&__cg_params.sweep)
            == <Kernel<
                (u32, DevicePtr<f32>, DevicePtrMut<f32>),
            > as ::cudagraph_runtime::__private::KernelType>::function_id(
                &__cg_parts.state.params.sweep,
            ))
        {
            let value = <Kernel<
                (u32, DevicePtr<f32>, DevicePtrMut<f32>),
            > as ::cudagraph_runtime::__private::KernelType>::keep(&__cg_params.sweep);
            ::cudagraph_runtime::__private::stage_in::<
                Self,
            >(&mut __cg_parts.tracker, 0usize);
            __cg_parts.state.params.sweep = value;
        }
        if !(<Kernel<
            (ConditionalHandle, DevicePtr<f32>, u32),
        > as ::cudagraph_runtime::__private::KernelType>::function_id(&__cg_params.check)
            == <Kernel<
                (ConditionalHandle, DevicePtr<f32>, u32),
            > as ::cudagraph_runtime::__private::KernelType>::function_id(
                &__cg_parts.state.params.check,
            ))
        {
            let value = <Kernel<
                (ConditionalHandle, DevicePtr<f32>, u32),
            > as ::cudagraph_runtime::__private::KernelType>::keep(&__cg_params.check);
            ::cudagraph_runtime::__private::stage_in::<
                Self,
            >(&mut __cg_parts.tracker, 1usize);
            __cg_parts.state.params.check = value;
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
            >(&mut __cg_parts.tracker, 2usize);
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
            >(&mut __cg_parts.tracker, 3usize);
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
            >(&mut __cg_parts.tracker, 4usize);
            __cg_parts.state.params.n = value;
        }
    }
    ///Node `start` (`memset(x, 0.0f32)`): its update handle.
    pub fn start(&mut self) -> SolveStartNode<'_> {
        SolveStartNode { exec: self }
    }
    ///Node `solve` (`while more(default = 1, unroll = 4) { .. }`): its update handle.
    pub fn solve(&mut self) -> SolveSolveNode<'_> {
        SolveSolveNode { exec: self }
    }
    /**Node `forward` (`kernel sweep<<<n.div_ceil(256), 256>>>(n, x, y)`): its update handle.

The node is in an unrolled WHILE body: the graph holds it 4 times, once per copy of the body. The handle is all 4 copies: an update sets each of them, and `node()` gives their runtime handles.*/
    pub fn forward(&mut self) -> SolveForwardNode<'_> {
        SolveForwardNode { exec: self }
    }
    /**Node `back` (`kernel sweep<<<n.div_ceil(256), 256>>>(n, y, x)`): its update handle.

The node is in an unrolled WHILE body: the graph holds it 4 times, once per copy of the body. The handle is all 4 copies: an update sets each of them, and `node()` gives their runtime handles.*/
    pub fn back(&mut self) -> SolveBackNode<'_> {
        SolveBackNode { exec: self }
    }
    /**Node `done` (`kernel check<<<1, 32>>>(more, x, n)`): its update handle.

The node sets the handle of the unrolled WHILE node it is in: it runs in the last of the body's 4 copies only, once per pass of the loop.*/
    pub fn done(&mut self) -> SolveDoneNode<'_> {
        SolveDoneNode { exec: self }
    }
    /**Node `tail` (`memset(y, 0.0f32)`): its update handle.

The node is in an unrolled WHILE body: the graph holds it 4 times, once per copy of the body. The handle is all 4 copies: an update sets each of them, and `node()` gives their runtime handles.*/
    pub fn tail(&mut self) -> SolveTailNode<'_> {
        SolveTailNode { exec: self }
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for SolveExec {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("SolveExec")
            .field("exec", &self.parts.exec)
            .finish_non_exhaustive()
    }
}
impl Solve {
    /// A copy of `params`, for the graph and then its executable to keep: made field by
    /// field in place on the heap, a few dozen fields per function.
    #[allow(unused_variables, unused_unsafe)]
    fn __cg_own(
        __cg_params: &SolveParams,
    ) -> ::cudagraph_runtime::__private::Result<
        ::cudagraph_runtime::__private::Box<SolveParams>,
    > {
        let mut out = ::cudagraph_runtime::__private::Box::<SolveParams>::new_uninit();
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
    unsafe fn __cg_own_0(__cg_params: &SolveParams, dst: *mut SolveParams) {
        unsafe {
            (&raw mut (*dst).sweep)
                .write(
                    <Kernel<
                        (u32, DevicePtr<f32>, DevicePtrMut<f32>),
                    > as ::cudagraph_runtime::__private::KernelType>::keep(
                        &__cg_params.sweep,
                    ),
                );
            (&raw mut (*dst).check)
                .write(
                    <Kernel<
                        (ConditionalHandle, DevicePtr<f32>, u32),
                    > as ::cudagraph_runtime::__private::KernelType>::keep(
                        &__cg_params.check,
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
            (&raw mut (*dst).n)
                .write(
                    <u32 as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_params.n,
                    ),
                );
        }
    }
}
///The params of a [`SolveParams`] as [`SolveParamsMut::swap`] names them: a field per param, of the same name, holding no value (a `Slot` per param, an array of them per array param whose elements are params of their own). Given to `swap`'s `pick` instead of the params, so that it names the two to swap and cannot change any: `|p| (&mut p.x, &mut p.x_new)`. None can be made outside `swap`.
#[repr(C)]
#[allow(clippy::type_complexity)]
struct SolveSlots {
    ///Param [`sweep`](SolveParams::sweep), to swap.
    pub sweep: ::cudagraph_runtime::__private::Slot<
        Kernel<(u32, DevicePtr<f32>, DevicePtrMut<f32>)>,
    >,
    ///Param [`check`](SolveParams::check), to swap.
    pub check: ::cudagraph_runtime::__private::Slot<
        Kernel<(ConditionalHandle, DevicePtr<f32>, u32)>,
    >,
    ///Param [`x`](SolveParams::x), to swap.
    pub x: ::cudagraph_runtime::__private::Slot<DeviceBuffer<f32>>,
    ///Param [`y`](SolveParams::y), to swap.
    pub y: ::cudagraph_runtime::__private::Slot<DeviceBuffer<f32>>,
    ///Param [`n`](SolveParams::n), to swap.
    pub n: ::cudagraph_runtime::__private::Slot<u32>,
}
const _: () = {
    ::core::assert!(
        ::cudagraph_runtime::__private::offset_of!(SolveSlots, sweep) == 0usize
    );
    ::core::assert!(
        ::cudagraph_runtime::__private::offset_of!(SolveSlots, check) == 1usize
    );
    ::core::assert!(::cudagraph_runtime::__private::offset_of!(SolveSlots, x) == 2usize);
    ::core::assert!(::cudagraph_runtime::__private::offset_of!(SolveSlots, y) == 3usize);
    ::core::assert!(::cudagraph_runtime::__private::offset_of!(SolveSlots, n) == 4usize);
    ::core::assert!(
        ::cudagraph_runtime::__private::size_of:: < SolveSlots > () == 5usize
    );
};
const _: fn(&SolveSlots, &SolveParams) = |slots, params| {
    ::cudagraph_runtime::__private::slot_of(&slots.sweep, &params.sweep);
    ::cudagraph_runtime::__private::slot_of(&slots.check, &params.check);
    ::cudagraph_runtime::__private::slot_of(&slots.x, &params.x);
    ::cudagraph_runtime::__private::slot_of(&slots.y, &params.y);
    ::cudagraph_runtime::__private::slot_of(&slots.n, &params.n);
};
impl ::cudagraph_runtime::__private::fmt::Debug for SolveSlots {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("SolveSlots").finish_non_exhaustive()
    }
}
unsafe impl ::cudagraph_runtime::__private::Tracked for SolveExec {
    type Params = SolveParams;
    type Slots = SolveSlots;
    const NAME: &'static ::core::primitive::str = "SolveExec";
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
        (Self::__cg_update_node_4, 0u32),
        (Self::__cg_update_node_5, 0u32),
    ];
    const READERS: &'static [(
        &'static [::core::primitive::u32],
        ::core::primitive::bool,
        ::core::primitive::bool,
    )] = &[
        (&[2u32, 3u32], false, false),
        (&[4u32], false, false),
        (&[0u32, 2u32, 3u32, 4u32], false, false),
        (&[2u32, 3u32, 5u32], false, false),
        (&[2u32, 3u32, 4u32], false, false),
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
    ) -> &mut SolveParams {
        &mut unsafe { self.parts.get_mut() }.state.params
    }
    #[inline(always)]
    fn applied_mut(
        &mut self,
        _: ::cudagraph_runtime::__private::Internal,
    ) -> &mut SolveParams {
        &mut unsafe { self.parts.get_mut() }.applied
    }
    fn check(&self) -> ::cudagraph_runtime::__private::Result<()> {
        Solve::__cg_check_overlaps(&self.parts.state.params)
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
impl SolveExec {
    /**Sets param `sweep` and updates what reads it (nodes `forward`, `back`), one single-node update each. Returns the old value; on error, naming the node, nothing changes: the param keeps its old value and the nodes their updates (see [`SolveExec`]).
*/
    pub fn set_sweep(
        &mut self,
        value: Kernel<(u32, DevicePtr<f32>, DevicePtrMut<f32>)>,
    ) -> ::cudagraph_runtime::__private::Result<
        Kernel<(u32, DevicePtr<f32>, DevicePtrMut<f32>)>,
    > {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.parts.get_mut() }.state.params.sweep,
            value,
        );
        ::cudagraph_runtime::__private::set_param(self, 0usize).map(|_| old)
    }
    /**Sets param `check` and updates what reads it (node `done`), one single-node update each. Returns the old value; on error, naming the node, nothing changes: the param keeps its old value and the nodes their updates (see [`SolveExec`]).
*/
    pub fn set_check(
        &mut self,
        value: Kernel<(ConditionalHandle, DevicePtr<f32>, u32)>,
    ) -> ::cudagraph_runtime::__private::Result<
        Kernel<(ConditionalHandle, DevicePtr<f32>, u32)>,
    > {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.parts.get_mut() }.state.params.check,
            value,
        );
        {
            let commit = |exec: &mut Self| {
                let __cg_parts = unsafe { exec.parts.get_mut() };
                __cg_parts.applied.check = <Kernel<
                    (ConditionalHandle, DevicePtr<f32>, u32),
                > as ::cudagraph_runtime::__private::KernelType>::keep(
                    &__cg_parts.state.params.check,
                );
            };
            unsafe {
                ::cudagraph_runtime::__private::set_sole_reader(
                    self,
                    1usize,
                    4usize,
                    (Self::__cg_update_node_4, 0usize),
                    commit,
                )
            }
        }
            .map(|_| old)
    }
    /**Sets param `x` and updates what reads it (nodes `start`, `forward`, `back`, `done`), one single-node update each. Returns the old value; on error, naming the node, nothing changes: the param keeps its old value and the nodes their updates (see [`SolveExec`]).
*/
    pub fn set_x(
        &mut self,
        value: DeviceBuffer<f32>,
    ) -> ::cudagraph_runtime::__private::Result<DeviceBuffer<f32>> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.parts.get_mut() }.state.params.x,
            value,
        );
        ::cudagraph_runtime::__private::set_param(self, 2usize).map(|_| old)
    }
    /**Sets param `y` and updates what reads it (nodes `forward`, `back`, `tail`), one single-node update each. Returns the old value; on error, naming the node, nothing changes: the param keeps its old value and the nodes their updates (see [`SolveExec`]).
*/
    pub fn set_y(
        &mut self,
        value: DeviceBuffer<f32>,
    ) -> ::cudagraph_runtime::__private::Result<DeviceBuffer<f32>> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.parts.get_mut() }.state.params.y,
            value,
        );
        ::cudagraph_runtime::__private::set_param(self, 3usize).map(|_| old)
    }
    /**Sets param `n` and updates what reads it (nodes `forward`, `back`, `done`), one single-node update each. Returns the old value; on error, naming the node, nothing changes: the param keeps its old value and the nodes their updates (see [`SolveExec`]).
*/
    pub fn set_n(&mut self, value: u32) -> ::cudagraph_runtime::__private::Result<u32> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.parts.get_mut() }.state.params.n,
            value,
        );
        ::cudagraph_runtime::__private::set_param(self, 4usize).map(|_| old)
    }
    /**Swaps two params of one type, named by `pick` (`exec.swap(|p| (&mut p.x, &mut p.x_new))?`), and updates the nodes that read them, each once, before it returns: the ping-pong buffers of an iteration swapped between launches in one call. Returns how many nodes it updated. `pick` is given the params' slots ([`SolveSlots`]), not their values: it names two params and changes none. As [`SolveParamsMut::swap`] followed by `apply`: all or nothing (a refused update is reported, naming its node, and the swap undone), any other change pending applied with it.

Swapping two buffers the executable holds (a ping-pong) registers and releases nothing: the swap costs its readers' driver calls and the update of their records of memory.

# Errors

The error of the update that refused the swap, naming its node (a kernel's launch check, a driver error, two nodes that would race): the swap is undone.*/
    pub fn swap<S: ::cudagraph_runtime::__private::Pick>(
        &mut self,
        pick: impl FnOnce(&mut SolveSlots) -> (&mut S, &mut S),
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
        let __cg_params: &SolveParams = &__cg_parts.state.params;
        __cg_parts
            .exec
            .set_memset_params(
                __cg_parts.nodes.start,
                Solve::__cg_eval_start(__cg_params),
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
        let __cg_params: &SolveParams = &__cg_parts.state.params;
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline(never)]
    #[allow(unused_variables)]
    fn __cg_update_node_2(
        &mut self,
        index: ::core::primitive::usize,
        key: ::cudagraph_runtime::__private::Internal,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        for copy in 0..4usize {
            if let ::cudagraph_runtime::__private::Result::Err(error) = self
                .__cg_update_copy_2(copy, key)
            {
                if copy > 0 {
                    ::cudagraph_runtime::__private::partly_updated(self, 2usize);
                }
                return ::cudagraph_runtime::__private::Result::Err(error);
            }
        }
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    /// Copy `copy` of the node's update (keyed, as the node's: see `__private::apply`).
    #[inline(never)]
    #[allow(unused_variables)]
    fn __cg_update_copy_2(
        &mut self,
        copy: ::core::primitive::usize,
        _: ::cudagraph_runtime::__private::Internal,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.parts.get_mut() };
        let __cg_params: &SolveParams = &__cg_parts.state.params;
        let (kernel, config, args) = Solve::__cg_eval_forward(__cg_params);
        __cg_parts
            .exec
            .set_kernel(__cg_parts.nodes.forward[copy], kernel, config, args)?;
        __cg_parts.state.launch.forward = config;
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline(never)]
    #[allow(unused_variables)]
    fn __cg_update_node_3(
        &mut self,
        index: ::core::primitive::usize,
        key: ::cudagraph_runtime::__private::Internal,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        for copy in 0..4usize {
            if let ::cudagraph_runtime::__private::Result::Err(error) = self
                .__cg_update_copy_3(copy, key)
            {
                if copy > 0 {
                    ::cudagraph_runtime::__private::partly_updated(self, 3usize);
                }
                return ::cudagraph_runtime::__private::Result::Err(error);
            }
        }
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    /// Copy `copy` of the node's update (keyed, as the node's: see `__private::apply`).
    #[inline(never)]
    #[allow(unused_variables)]
    fn __cg_update_copy_3(
        &mut self,
        copy: ::core::primitive::usize,
        _: ::cudagraph_runtime::__private::Internal,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.parts.get_mut() };
        let __cg_params: &SolveParams = &__cg_parts.state.params;
        let (kernel, config, args) = Solve::__cg_eval_back(__cg_params);
        __cg_parts.exec.set_kernel(__cg_parts.nodes.back[copy], kernel, config, args)?;
        __cg_parts.state.launch.back = config;
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline(never)]
    #[allow(unused_variables)]
    fn __cg_update_node_4(
        &mut self,
        index: ::core::primitive::usize,
        _: ::cudagraph_runtime::__private::Internal,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.parts.get_mut() };
        let __cg_params: &SolveParams = &__cg_parts.state.params;
        let (kernel, config, args) = Solve::__cg_eval_done(
            __cg_params,
            __cg_parts.nodes.more,
        );
        __cg_parts.exec.set_kernel(__cg_parts.nodes.done, kernel, config, args)?;
        __cg_parts.state.launch.done = config;
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline(never)]
    #[allow(unused_variables)]
    fn __cg_update_node_5(
        &mut self,
        index: ::core::primitive::usize,
        key: ::cudagraph_runtime::__private::Internal,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        for copy in 0..4usize {
            if let ::cudagraph_runtime::__private::Result::Err(error) = self
                .__cg_update_copy_5(copy, key)
            {
                if copy > 0 {
                    ::cudagraph_runtime::__private::partly_updated(self, 5usize);
                }
                return ::cudagraph_runtime::__private::Result::Err(error);
            }
        }
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    /// Copy `copy` of the node's update (keyed, as the node's: see `__private::apply`).
    #[inline(never)]
    #[allow(unused_variables)]
    fn __cg_update_copy_5(
        &mut self,
        copy: ::core::primitive::usize,
        _: ::cudagraph_runtime::__private::Internal,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.parts.get_mut() };
        let __cg_params: &SolveParams = &__cg_parts.state.params;
        __cg_parts
            .exec
            .set_memset_params(
                __cg_parts.nodes.tail[copy],
                Solve::__cg_eval_tail(__cg_params),
            )?;
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline]
    fn __cg_slot_offset_0(slot: ::core::primitive::usize) -> ::core::primitive::usize {
        match slot {
            0usize => ::cudagraph_runtime::__private::offset_of!(SolveParams, sweep),
            1usize => ::cudagraph_runtime::__private::offset_of!(SolveParams, check),
            2usize => ::cudagraph_runtime::__private::offset_of!(SolveParams, x),
            3usize => ::cudagraph_runtime::__private::offset_of!(SolveParams, y),
            4usize => ::cudagraph_runtime::__private::offset_of!(SolveParams, n),
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
                    __cg_parts.applied.sweep = <Kernel<
                        (u32, DevicePtr<f32>, DevicePtrMut<f32>),
                    > as ::cudagraph_runtime::__private::KernelType>::keep(
                        &__cg_parts.state.params.sweep,
                    );
                } else {
                    __cg_parts.state.params.sweep = <Kernel<
                        (u32, DevicePtr<f32>, DevicePtrMut<f32>),
                    > as ::cudagraph_runtime::__private::KernelType>::keep(
                        &__cg_parts.applied.sweep,
                    );
                }
            }
            1usize => {
                if commit {
                    __cg_parts.applied.check = <Kernel<
                        (ConditionalHandle, DevicePtr<f32>, u32),
                    > as ::cudagraph_runtime::__private::KernelType>::keep(
                        &__cg_parts.state.params.check,
                    );
                } else {
                    __cg_parts.state.params.check = <Kernel<
                        (ConditionalHandle, DevicePtr<f32>, u32),
                    > as ::cudagraph_runtime::__private::KernelType>::keep(
                        &__cg_parts.applied.check,
                    );
                }
            }
            2usize => {
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
            3usize => {
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
/**Changes to the params of a [`SolveExec`], several at once ([`SolveExec::params_mut`]). It reads as the params (`Deref`); `set_<param>` and [`swap`](Self::swap) change them and mark the nodes that read them, and [`apply`](Self::apply) updates those nodes, each once however many of its params changed. A guard dropped without `apply` leaves the changes to the executable's next launch, which applies them first: a change cannot be forgotten. An update that fails is the error of that `apply` or launch, naming the node (the launch launches nothing), and undoes the changes: the params and the nodes are as they were before them.

```text
let mut p = exec.params_mut();
p.set_n(n);                         // its readers are updated once,
p.set_scale(0.5);                   // even those reading both
p.swap(|p| (&mut p.x, &mut p.x_new))?;
p.apply()?;                         // or: the next exec.launch(&stream)
```*/
#[must_use = "changes made through the guard are applied by `apply`, or by the next launch"]
struct SolveParamsMut<'a> {
    exec: &'a mut SolveExec,
}
impl ::cudagraph_runtime::__private::Deref for SolveParamsMut<'_> {
    type Target = SolveParams;
    fn deref(&self) -> &SolveParams {
        &self.exec.parts.state.params
    }
}
#[allow(clippy::type_complexity)]
impl SolveParamsMut<'_> {
    ///Sets param `sweep`, and marks what reads it (nodes `forward`, `back`) for the guard's [`apply`](Self::apply), or the executable's next launch. Returns the old value.
    #[inline]
    pub fn set_sweep(
        &mut self,
        value: Kernel<(u32, DevicePtr<f32>, DevicePtrMut<f32>)>,
    ) -> Kernel<(u32, DevicePtr<f32>, DevicePtrMut<f32>)> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.exec.parts.get_mut() }.state.params.sweep,
            value,
        );
        ::cudagraph_runtime::__private::stage(self.exec, 0usize);
        old
    }
    ///Sets param `check`, and marks what reads it (node `done`) for the guard's [`apply`](Self::apply), or the executable's next launch. Returns the old value.
    #[inline]
    pub fn set_check(
        &mut self,
        value: Kernel<(ConditionalHandle, DevicePtr<f32>, u32)>,
    ) -> Kernel<(ConditionalHandle, DevicePtr<f32>, u32)> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.exec.parts.get_mut() }.state.params.check,
            value,
        );
        unsafe {
            ::cudagraph_runtime::__private::stage_sole_reader(self.exec, 1usize, 4usize)
        };
        old
    }
    ///Sets param `x`, and marks what reads it (nodes `start`, `forward`, `back`, `done`) for the guard's [`apply`](Self::apply), or the executable's next launch. Returns the old value.
    #[inline]
    pub fn set_x(&mut self, value: DeviceBuffer<f32>) -> DeviceBuffer<f32> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.exec.parts.get_mut() }.state.params.x,
            value,
        );
        ::cudagraph_runtime::__private::stage(self.exec, 2usize);
        old
    }
    ///Sets param `y`, and marks what reads it (nodes `forward`, `back`, `tail`) for the guard's [`apply`](Self::apply), or the executable's next launch. Returns the old value.
    #[inline]
    pub fn set_y(&mut self, value: DeviceBuffer<f32>) -> DeviceBuffer<f32> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.exec.parts.get_mut() }.state.params.y,
            value,
        );
        ::cudagraph_runtime::__private::stage(self.exec, 3usize);
        old
    }
    ///Sets param `n`, and marks what reads it (nodes `forward`, `back`, `done`) for the guard's [`apply`](Self::apply), or the executable's next launch. Returns the old value.
    #[inline]
    pub fn set_n(&mut self, value: u32) -> u32 {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.exec.parts.get_mut() }.state.params.n,
            value,
        );
        ::cudagraph_runtime::__private::stage(self.exec, 4usize);
        old
    }
    /**Swaps two params of one type, named by `pick` (`p.swap(|p| (&mut p.x, &mut p.x_new))`), and marks the nodes that read them. `pick` is given the params' slots ([`SolveSlots`]), not their values: it names two params and changes none, so that the swap is the only change, and the tracker knows it. The slots of an array param are its elements' (`|p| (&mut p.w[0], &mut p.w[1])`); two arrays of slots (two array params, or runs of elements) are swapped element by element.

Never refused for slots of the struct `pick` is given (its signature allows no other).*/
    pub fn swap<S: ::cudagraph_runtime::__private::Pick>(
        &mut self,
        pick: impl FnOnce(&mut SolveSlots) -> (&mut S, &mut S),
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
impl ::cudagraph_runtime::__private::fmt::Debug for SolveParamsMut<'_> {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("SolveParamsMut").finish_non_exhaustive()
    }
}
/**Update handle of node `start` of [`SolveExec`] (`memset(x, 0.0f32)`): its destination and value can change (1-D only), and it can be enabled or disabled ([what CUDA allows](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#individual-node-update)).

Memory given through the handle is not judged by the race rule, which judges the declaration's params: it must not be memory that a node no edge orders with this one uses, one of them writing it (host memory that host code uses is checked: `Error::Hazard`). A change of a param the node reads, or `set_params`, sets the node back to its params.*/
struct SolveStartNode<'a> {
    exec: &'a mut SolveExec,
}
impl<'a> SolveStartNode<'a> {
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
                __cg_parts.nodes.start,
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
        __cg_parts.exec.set_enabled(__cg_parts.nodes.start, enabled)
    }
    /// Whether the node is enabled (`cuGraphNodeGetEnabled`).
    pub fn is_enabled(
        &self,
    ) -> ::cudagraph_runtime::__private::Result<::core::primitive::bool> {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.exec.is_enabled(__cg_parts.nodes.start)
    }
    /// The node's runtime handle, for the runtime's own API.
    pub fn node(
        &self,
    ) -> ::cudagraph_runtime::__private::MemsetNode<
        <DeviceBuffer<f32> as ::cudagraph_runtime::__private::MemsetTarget>::Pattern,
    > {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.nodes.start
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for SolveStartNode<'_> {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("SolveStartNode").field("index", &0usize).finish_non_exhaustive()
    }
}
///Update handle of node `solve` of [`SolveExec`] (`while more(default = 1, unroll = 4) { .. }`): nothing about it can change (CUDA updates a conditional node only through its bodies' nodes, which have handles of their own) ([what CUDA allows](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#individual-node-update)).
struct SolveSolveNode<'a> {
    exec: &'a mut SolveExec,
}
impl<'a> SolveSolveNode<'a> {
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
    pub fn node(&self) -> ::cudagraph_runtime::__private::ConditionalNode {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.nodes.solve
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for SolveSolveNode<'_> {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("SolveSolveNode").field("index", &1usize).finish_non_exhaustive()
    }
}
/**Update handle of node `forward` of [`SolveExec`] (`kernel sweep<<<n.div_ceil(256), 256>>>(n, x, y)`): its arguments and launch configuration can change, and it can be enabled or disabled ([what CUDA allows](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#individual-node-update)).

Memory given through the handle is not judged by the race rule, which judges the declaration's params: it must not be memory that a node no edge orders with this one uses, one of them writing it (host memory that host code uses is checked: `Error::Hazard`). A change of a param the node reads, or `set_params`, sets the node back to its params.

The node is in an unrolled WHILE body: the graph holds it 4 times, once per copy of the body. The handle is all 4 copies: an update sets each of them, and `node()` gives their runtime handles.*/
struct SolveForwardNode<'a> {
    exec: &'a mut SolveExec,
}
impl<'a> SolveForwardNode<'a> {
    ///Sets the kernel's arguments for the next launches, keeping the node's launch configuration (`cuGraphExecKernelNodeSetParams`). Memory the node stops using is released once the launches that may use it are done.
    pub fn set(
        &mut self,
        n: impl ::cudagraph_runtime::__private::KernelArg<
            'static,
            u32,
        > + ::cudagraph_runtime::__private::Clone,
        x: impl ::cudagraph_runtime::__private::KernelArg<
            'static,
            DevicePtr<f32>,
        > + ::cudagraph_runtime::__private::Clone,
        y: impl ::cudagraph_runtime::__private::KernelArg<
            'static,
            DevicePtrMut<f32>,
        > + ::cudagraph_runtime::__private::Clone,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = self.exec.parts.get();
        let config = __cg_parts.state.launch.forward;
        self.set_launch(config, n, x, y)
    }
    ///Sets the launch configuration and the kernel's arguments for the next launches (`cuGraphExecKernelNodeSetParams`).
    pub fn set_launch(
        &mut self,
        config: ::cudagraph_runtime::__private::LaunchConfig,
        n: impl ::cudagraph_runtime::__private::KernelArg<
            'static,
            u32,
        > + ::cudagraph_runtime::__private::Clone,
        x: impl ::cudagraph_runtime::__private::KernelArg<
            'static,
            DevicePtr<f32>,
        > + ::cudagraph_runtime::__private::Clone,
        y: impl ::cudagraph_runtime::__private::KernelArg<
            'static,
            DevicePtrMut<f32>,
        > + ::cudagraph_runtime::__private::Clone,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.exec.parts.get_mut() };
        for copy in 0..4usize {
            if let ::cudagraph_runtime::__private::Result::Err(error) = __cg_parts
                .exec
                .set_kernel_params(
                    __cg_parts.nodes.forward[copy],
                    config,
                    (
                        ::cudagraph_runtime::__private::Clone::clone(&n),
                        ::cudagraph_runtime::__private::Clone::clone(&x),
                        ::cudagraph_runtime::__private::Clone::clone(&y),
                    ),
                )
            {
                if copy > 0 {
                    __cg_parts.tracker.set_back(2usize);
                }
                return ::cudagraph_runtime::__private::Result::Err(error);
            }
        }
        __cg_parts.state.launch.forward = config;
        __cg_parts.tracker.set_by_handle(2usize);
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    /// The node's launch configuration now.
    pub fn launch_config(&self) -> ::cudagraph_runtime::__private::LaunchConfig {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.state.launch.forward
    }
    /// Enables or disables the node for the next launches (`cuGraphNodeSetEnabled`). A
    /// disabled node acts as an empty node; params set meanwhile apply once it is enabled.
    pub fn set_enabled(
        &mut self,
        enabled: ::core::primitive::bool,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.exec.parts.get_mut() };
        let was = __cg_parts.exec.is_enabled(__cg_parts.nodes.forward[0])?;
        for copy in 0..4usize {
            if let ::cudagraph_runtime::__private::Result::Err(error) = __cg_parts
                .exec
                .set_enabled(__cg_parts.nodes.forward[copy], enabled)
            {
                for done in 0..copy {
                    let _ = __cg_parts
                        .exec
                        .set_enabled(__cg_parts.nodes.forward[done], was);
                }
                return ::cudagraph_runtime::__private::Result::Err(error);
            }
        }
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    /// Whether the node is enabled (`cuGraphNodeGetEnabled`).
    pub fn is_enabled(
        &self,
    ) -> ::cudagraph_runtime::__private::Result<::core::primitive::bool> {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.exec.is_enabled(__cg_parts.nodes.forward[0])
    }
    /// The runtime handles of the node's copies, one per copy of the unrolled body
    /// (in the order they run), for the runtime's own API.
    pub fn node(
        &self,
    ) -> [::cudagraph_runtime::__private::KernelNode<
        (u32, DevicePtr<f32>, DevicePtrMut<f32>),
    >; 4usize] {
        self.exec.parts.nodes.forward
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for SolveForwardNode<'_> {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("SolveForwardNode")
            .field("index", &2usize)
            .finish_non_exhaustive()
    }
}
/**Update handle of node `back` of [`SolveExec`] (`kernel sweep<<<n.div_ceil(256), 256>>>(n, y, x)`): its arguments and launch configuration can change, and it can be enabled or disabled ([what CUDA allows](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#individual-node-update)).

Memory given through the handle is not judged by the race rule, which judges the declaration's params: it must not be memory that a node no edge orders with this one uses, one of them writing it (host memory that host code uses is checked: `Error::Hazard`). A change of a param the node reads, or `set_params`, sets the node back to its params.

The node is in an unrolled WHILE body: the graph holds it 4 times, once per copy of the body. The handle is all 4 copies: an update sets each of them, and `node()` gives their runtime handles.*/
struct SolveBackNode<'a> {
    exec: &'a mut SolveExec,
}
impl<'a> SolveBackNode<'a> {
    ///Sets the kernel's arguments for the next launches, keeping the node's launch configuration (`cuGraphExecKernelNodeSetParams`). Memory the node stops using is released once the launches that may use it are done.
    pub fn set(
        &mut self,
        n: impl ::cudagraph_runtime::__private::KernelArg<
            'static,
            u32,
        > + ::cudagraph_runtime::__private::Clone,
        y: impl ::cudagraph_runtime::__private::KernelArg<
            'static,
            DevicePtr<f32>,
        > + ::cudagraph_runtime::__private::Clone,
        x: impl ::cudagraph_runtime::__private::KernelArg<
            'static,
            DevicePtrMut<f32>,
        > + ::cudagraph_runtime::__private::Clone,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = self.exec.parts.get();
        let config = __cg_parts.state.launch.back;
        self.set_launch(config, n, y, x)
    }
    ///Sets the launch configuration and the kernel's arguments for the next launches (`cuGraphExecKernelNodeSetParams`).
    pub fn set_launch(
        &mut self,
        config: ::cudagraph_runtime::__private::LaunchConfig,
        n: impl ::cudagraph_runtime::__private::KernelArg<
            'static,
            u32,
        > + ::cudagraph_runtime::__private::Clone,
        y: impl ::cudagraph_runtime::__private::KernelArg<
            'static,
            DevicePtr<f32>,
        > + ::cudagraph_runtime::__private::Clone,
        x: impl ::cudagraph_runtime::__private::KernelArg<
            'static,
            DevicePtrMut<f32>,
        > + ::cudagraph_runtime::__private::Clone,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.exec.parts.get_mut() };
        for copy in 0..4usize {
            if let ::cudagraph_runtime::__private::Result::Err(error) = __cg_parts
                .exec
                .set_kernel_params(
                    __cg_parts.nodes.back[copy],
                    config,
                    (
                        ::cudagraph_runtime::__private::Clone::clone(&n),
                        ::cudagraph_runtime::__private::Clone::clone(&y),
                        ::cudagraph_runtime::__private::Clone::clone(&x),
                    ),
                )
            {
                if copy > 0 {
                    __cg_parts.tracker.set_back(3usize);
                }
                return ::cudagraph_runtime::__private::Result::Err(error);
            }
        }
        __cg_parts.state.launch.back = config;
        __cg_parts.tracker.set_by_handle(3usize);
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    /// The node's launch configuration now.
    pub fn launch_config(&self) -> ::cudagraph_runtime::__private::LaunchConfig {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.state.launch.back
    }
    /// Enables or disables the node for the next launches (`cuGraphNodeSetEnabled`). A
    /// disabled node acts as an empty node; params set meanwhile apply once it is enabled.
    pub fn set_enabled(
        &mut self,
        enabled: ::core::primitive::bool,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.exec.parts.get_mut() };
        let was = __cg_parts.exec.is_enabled(__cg_parts.nodes.back[0])?;
        for copy in 0..4usize {
            if let ::cudagraph_runtime::__private::Result::Err(error) = __cg_parts
                .exec
                .set_enabled(__cg_parts.nodes.back[copy], enabled)
            {
                for done in 0..copy {
                    let _ = __cg_parts
                        .exec
                        .set_enabled(__cg_parts.nodes.back[done], was);
                }
                return ::cudagraph_runtime::__private::Result::Err(error);
            }
        }
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    /// Whether the node is enabled (`cuGraphNodeGetEnabled`).
    pub fn is_enabled(
        &self,
    ) -> ::cudagraph_runtime::__private::Result<::core::primitive::bool> {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.exec.is_enabled(__cg_parts.nodes.back[0])
    }
    /// The runtime handles of the node's copies, one per copy of the unrolled body
    /// (in the order they run), for the runtime's own API.
    pub fn node(
        &self,
    ) -> [::cudagraph_runtime::__private::KernelNode<
        (u32, DevicePtr<f32>, DevicePtrMut<f32>),
    >; 4usize] {
        self.exec.parts.nodes.back
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for SolveBackNode<'_> {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("SolveBackNode").field("index", &3usize).finish_non_exhaustive()
    }
}
/**Update handle of node `done` of [`SolveExec`] (`kernel check<<<1, 32>>>(more, x, n)`): its arguments and launch configuration can change, and it can be enabled or disabled ([what CUDA allows](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#individual-node-update)).

Memory given through the handle is not judged by the race rule, which judges the declaration's params: it must not be memory that a node no edge orders with this one uses, one of them writing it (host memory that host code uses is checked: `Error::Hazard`). A change of a param the node reads, or `set_params`, sets the node back to its params.

The node sets the handle of the unrolled WHILE node it is in: it runs in the last of the body's 4 copies only, once per pass of the loop.*/
struct SolveDoneNode<'a> {
    exec: &'a mut SolveExec,
}
impl<'a> SolveDoneNode<'a> {
    ///Sets the kernel's arguments for the next launches, keeping the node's launch configuration (`cuGraphExecKernelNodeSetParams`). Memory the node stops using is released once the launches that may use it are done.
    pub fn set(
        &mut self,
        more: impl ::cudagraph_runtime::__private::KernelArg<'static, ConditionalHandle>,
        x: impl ::cudagraph_runtime::__private::KernelArg<'static, DevicePtr<f32>>,
        n: impl ::cudagraph_runtime::__private::KernelArg<'static, u32>,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = self.exec.parts.get();
        let config = __cg_parts.state.launch.done;
        self.set_launch(config, more, x, n)
    }
    ///Sets the launch configuration and the kernel's arguments for the next launches (`cuGraphExecKernelNodeSetParams`).
    pub fn set_launch(
        &mut self,
        config: ::cudagraph_runtime::__private::LaunchConfig,
        more: impl ::cudagraph_runtime::__private::KernelArg<'static, ConditionalHandle>,
        x: impl ::cudagraph_runtime::__private::KernelArg<'static, DevicePtr<f32>>,
        n: impl ::cudagraph_runtime::__private::KernelArg<'static, u32>,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.exec.parts.get_mut() };
        __cg_parts.exec.set_kernel_params(__cg_parts.nodes.done, config, (more, x, n))?;
        __cg_parts.state.launch.done = config;
        __cg_parts.tracker.set_by_handle(4usize);
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    /// The node's launch configuration now.
    pub fn launch_config(&self) -> ::cudagraph_runtime::__private::LaunchConfig {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.state.launch.done
    }
    /// Enables or disables the node for the next launches (`cuGraphNodeSetEnabled`). A
    /// disabled node acts as an empty node; params set meanwhile apply once it is enabled.
    pub fn set_enabled(
        &mut self,
        enabled: ::core::primitive::bool,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.exec.parts.get_mut() };
        __cg_parts.exec.set_enabled(__cg_parts.nodes.done, enabled)
    }
    /// Whether the node is enabled (`cuGraphNodeGetEnabled`).
    pub fn is_enabled(
        &self,
    ) -> ::cudagraph_runtime::__private::Result<::core::primitive::bool> {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.exec.is_enabled(__cg_parts.nodes.done)
    }
    /// The node's runtime handle, for the runtime's own API.
    pub fn node(
        &self,
    ) -> ::cudagraph_runtime::__private::KernelNode<
        (ConditionalHandle, DevicePtr<f32>, u32),
    > {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.nodes.done
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for SolveDoneNode<'_> {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("SolveDoneNode").field("index", &4usize).finish_non_exhaustive()
    }
}
/**Update handle of node `tail` of [`SolveExec`] (`memset(y, 0.0f32)`): its destination and value can change (1-D only), and it can be enabled or disabled ([what CUDA allows](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#individual-node-update)).

Memory given through the handle is not judged by the race rule, which judges the declaration's params: it must not be memory that a node no edge orders with this one uses, one of them writing it (host memory that host code uses is checked: `Error::Hazard`). A change of a param the node reads, or `set_params`, sets the node back to its params.

The node is in an unrolled WHILE body: the graph holds it 4 times, once per copy of the body. The handle is all 4 copies: an update sets each of them, and `node()` gives their runtime handles.*/
struct SolveTailNode<'a> {
    exec: &'a mut SolveExec,
}
impl<'a> SolveTailNode<'a> {
    /// Sets the destination and the pattern written, for the next launches
    /// (`cuGraphExecMemsetNodeSetParams`): device memory the node's pattern type fills, such as
    /// a `&DeviceBuffer<T>`. Memory the node stops using is released once the launches that
    /// may use it are done.
    pub fn set(
        &mut self,
        dst: impl ::cudagraph_runtime::__private::MemsetAs<
            <DeviceBuffer<f32> as ::cudagraph_runtime::__private::MemsetTarget>::Pattern,
        > + ::cudagraph_runtime::__private::Clone,
        value: <DeviceBuffer<
            f32,
        > as ::cudagraph_runtime::__private::MemsetTarget>::Pattern,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.exec.parts.get_mut() };
        for copy in 0..4usize {
            if let ::cudagraph_runtime::__private::Result::Err(error) = __cg_parts
                .exec
                .set_memset_params(
                    __cg_parts.nodes.tail[copy],
                    ::cudagraph_runtime::__private::MemsetAs::memset_as(
                        ::cudagraph_runtime::__private::Clone::clone(&dst),
                        value,
                    ),
                )
            {
                if copy > 0 {
                    __cg_parts.tracker.set_back(5usize);
                }
                return ::cudagraph_runtime::__private::Result::Err(error);
            }
        }
        __cg_parts.tracker.set_by_handle(5usize);
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
        let was = __cg_parts.exec.is_enabled(__cg_parts.nodes.tail[0])?;
        for copy in 0..4usize {
            if let ::cudagraph_runtime::__private::Result::Err(error) = __cg_parts
                .exec
                .set_enabled(__cg_parts.nodes.tail[copy], enabled)
            {
                for done in 0..copy {
                    let _ = __cg_parts
                        .exec
                        .set_enabled(__cg_parts.nodes.tail[done], was);
                }
                return ::cudagraph_runtime::__private::Result::Err(error);
            }
        }
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    /// Whether the node is enabled (`cuGraphNodeGetEnabled`).
    pub fn is_enabled(
        &self,
    ) -> ::cudagraph_runtime::__private::Result<::core::primitive::bool> {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.exec.is_enabled(__cg_parts.nodes.tail[0])
    }
    /// The runtime handles of the node's copies, one per copy of the unrolled body
    /// (in the order they run), for the runtime's own API.
    pub fn node(
        &self,
    ) -> [::cudagraph_runtime::__private::MemsetNode<
        <DeviceBuffer<f32> as ::cudagraph_runtime::__private::MemsetTarget>::Pattern,
    >; 4usize] {
        self.exec.parts.nodes.tail
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for SolveTailNode<'_> {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("SolveTailNode").field("index", &5usize).finish_non_exhaustive()
    }
}
fn main() {}
