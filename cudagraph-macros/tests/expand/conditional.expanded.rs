//! Conditional nodes: WHILE with a default, IF/ELSE, SWITCH with a nested WHILE.
use cudagraph_runtime::prelude::*;
const _: () = {
    #[allow(unused_imports)]
    use ::cudagraph_runtime::__private::{
        ArgsFallback as _, BodyFallback as _, ParamFallback as _, SlotFallback as _,
    };
    if <::cudagraph_runtime::__private::ParamProbe<
        Kernel<(ConditionalHandle, DevicePtrMut<u32>, u32)>,
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
    if <::cudagraph_runtime::__private::ParamProbe<
        Kernel<(u32, DevicePtrMut<u32>)>,
    >>::IS_HANDLE {
        ::cudagraph_runtime::__private::fail(
            "param `put` is a `ConditionalHandle`: a handle is made by the conditional node that reads it (`name: while put { ... }`), since one made for another graph would be set where no node reads it",
        )
    }
};
const _: () = {
    #[allow(unused_imports)]
    use ::cudagraph_runtime::__private::{
        ArgsFallback as _, BodyFallback as _, ParamFallback as _, SlotFallback as _,
    };
    if <::cudagraph_runtime::__private::ParamProbe<
        Kernel<(ConditionalHandle, DevicePtr<u32>)>,
    >>::IS_HANDLE {
        ::cudagraph_runtime::__private::fail(
            "param `pick` is a `ConditionalHandle`: a handle is made by the conditional node that reads it (`name: while pick { ... }`), since one made for another graph would be set where no node reads it",
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
    if <::cudagraph_runtime::__private::SlotProbe<ConditionalHandle>>::ACCESS
        != ::cudagraph_runtime::__private::VALUE
    {
        ::cudagraph_runtime::__private::fail(
            "kernel parameter type `ConditionalHandle` is written as a `ConditionalHandle`, which holds no memory, but names a pointer: `cuda_graph!` finds data races by what each kernel parameter is called; write it `DevicePtr<T>` or `DevicePtrMut<T>`, or give the alias or import another name",
        )
    }
};
const _: () = {
    #[allow(unused_imports)]
    use ::cudagraph_runtime::__private::{
        ArgsFallback as _, BodyFallback as _, ParamFallback as _, SlotFallback as _,
    };
    if <::cudagraph_runtime::__private::SlotProbe<DevicePtr<u32>>>::ACCESS
        == ::cudagraph_runtime::__private::WRITE
    {
        ::cudagraph_runtime::__private::fail(
            "kernel parameter type `DevicePtr<u32>` is written as a `DevicePtr`, which the kernel only reads, but names a pointer it writes through (a `DevicePtrMut`): `cuda_graph!` finds data races by what each kernel parameter is called; write it `DevicePtrMut<T>`, or give the alias or import another name",
        )
    }
};
/**The params of [`Flow`]: what its nodes are built from ([`Flow::build`]). Its executable owns a copy ([`FlowExec::params`]), changed through the executable (`set_<param>`, [`FlowExec::params_mut`], [`FlowExec::set_params`]), which updates exactly the nodes that read what changed:

- node `reset` reads `counter`
- node `decide` reads `pick`, `counter`
- node `choose` reads `pick`, `choice`
- node `bump` reads `step`, `counter`, `limit`
- node `mark_odd` reads `put`, `out`
- node `mark_even` reads `out`
- node `c0` reads `put`, `out`
- node `c1` reads `step`, `counter`
*/
#[allow(clippy::type_complexity)]
struct FlowParams {
    ///Param `step`, read by nodes `bump`, `c1`.
    pub step: Kernel<(ConditionalHandle, DevicePtrMut<u32>, u32)>,
    ///Param `put`, read by nodes `mark_odd`, `c0`.
    pub put: Kernel<(u32, DevicePtrMut<u32>)>,
    ///Param `pick`, read by nodes `decide`, `choose`.
    pub pick: Kernel<(ConditionalHandle, DevicePtr<u32>)>,
    ///Param `counter`, read by nodes `reset`, `decide`, `bump`, `c1`.
    pub counter: DeviceBuffer<u32>,
    ///Param `out`, read by nodes `mark_odd`, `mark_even`, `c0`.
    pub out: DeviceBuffer<u32>,
    ///Param `choice`, read by node `choose`.
    pub choice: DeviceBuffer<u32>,
    ///Param `limit`, read by node `bump`.
    pub limit: u32,
}
impl ::cudagraph_runtime::__private::fmt::Debug for FlowParams {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("FlowParams").finish_non_exhaustive()
    }
}
/**A CUDA graph declared with `cuda_graph!`: [`Flow::build`] builds it from a [`FlowParams`], [`Flow::instantiate`] makes it a [`FlowExec`].

# Nodes

In build order (a node's position is its index in the graph):

0. `reset`: `memset(counter, 0u32)`
1. `count`: `while more(default = 1) { .. }`, after `reset`
2. `decide`: `kernel pick<<<1, 32>>>(odd, counter)`, after `count`
3. `branch`: `if odd { .. } else { .. }`, after `decide`
4. `choose`: `kernel pick<<<1, 32>>>(case, choice)`, after `branch`
5. `select`: `switch case { 2 cases }`, after `choose`
6. `bump`: `kernel step<<<1, 32>>>(more, counter, limit)`
7. `mark_odd`: `kernel put<<<1, 32>>>(1, out)`
8. `mark_even`: `memset(out, 0u32)`
9. `c0`: `kernel put<<<1, 32>>>(100, out)`
10. `inner`: `while again(default = 1) { .. }`
11. `c1`: `kernel step<<<1, 32>>>(again, counter, 7)`

# Topology

<div style="overflow-x:auto"><svg xmlns="http://www.w3.org/2000/svg" role="img" width="254" height="648" viewBox="0 0 254 648" font-family="monospace" font-size="14" text-anchor="middle" fill="currentColor"><title>Topology of Flow: 12 nodes, 5 edges</title><defs><marker id="cgf774bfd2" viewBox="0 0 8 8" refX="8" refY="4" markerWidth="8" markerHeight="8" orient="auto"><path d="M0 0L8 4L0 8z"/></marker></defs><rect x="66" y="80" width="122" height="98" rx="6" fill-opacity=".07" stroke="currentColor"/><text x="74" y="97" text-anchor="start"><tspan font-weight="bold">count</tspan>: while</text><rect x="90" y="104" width="74" height="66" rx="4" fill="none" stroke="currentColor" stroke-dasharray="4 3"/><text x="96" y="117" font-size="11" font-style="italic" text-anchor="start">body</text><rect x="8" y="282" width="238" height="98" rx="6" fill-opacity=".07" stroke="currentColor"/><text x="16" y="299" text-anchor="start"><tspan font-weight="bold">branch</tspan>: if_else</text><rect x="16" y="306" width="102" height="66" rx="4" fill="none" stroke="currentColor" stroke-dasharray="4 3"/><text x="22" y="319" font-size="11" font-style="italic" text-anchor="start">then</text><rect x="126" y="306" width="112" height="66" rx="4" fill="none" stroke="currentColor" stroke-dasharray="4 3"/><text x="132" y="319" font-size="11" font-style="italic" text-anchor="start">else</text><rect x="9" y="484" width="236" height="156" rx="6" fill-opacity=".07" stroke="currentColor"/><text x="17" y="501" text-anchor="start"><tspan font-weight="bold">select</tspan>: switch</text><rect x="17" y="508" width="74" height="124" rx="4" fill="none" stroke="currentColor" stroke-dasharray="4 3"/><text x="23" y="521" font-size="11" font-style="italic" text-anchor="start">case 0</text><rect x="99" y="508" width="138" height="124" rx="4" fill="none" stroke="currentColor" stroke-dasharray="4 3"/><text x="105" y="521" font-size="11" font-style="italic" text-anchor="start">case 1</text><rect x="107" y="526" width="122" height="98" rx="6" fill-opacity=".07" stroke="currentColor"/><text x="115" y="543" text-anchor="start"><tspan font-weight="bold">inner</tspan>: while</text><rect x="131" y="550" width="74" height="66" rx="4" fill="none" stroke="currentColor" stroke-dasharray="4 3"/><text x="137" y="563" font-size="11" font-style="italic" text-anchor="start">body</text><g fill="none" stroke="currentColor" marker-end="url(#cgf774bfd2)"><path d="M127 48V80"/><path d="M127 178V210"/><path d="M127 250V282"/><path d="M127 380V412"/><path d="M127 452V484"/></g><rect x="97" y="8" width="60" height="40" rx="4" fill="#ccfbf1" stroke="#0f766e"/><text x="127" y="25" fill="#111">reset</text><text x="127" y="41" font-size="11" fill="#374151">memset</text><rect x="98" y="122" width="58" height="40" rx="4" fill="#dbeafe" stroke="#1d4ed8"/><text x="127" y="139" fill="#111">bump</text><text x="127" y="155" font-size="11" fill="#374151">kernel</text><rect x="92" y="210" width="70" height="40" rx="4" fill="#dbeafe" stroke="#1d4ed8"/><text x="127" y="227" fill="#111">decide</text><text x="127" y="243" font-size="11" fill="#374151">kernel</text><rect x="24" y="324" width="86" height="40" rx="4" fill="#dbeafe" stroke="#1d4ed8"/><text x="67" y="341" fill="#111">mark_odd</text><text x="67" y="357" font-size="11" fill="#374151">kernel</text><rect x="134" y="324" width="96" height="40" rx="4" fill="#ccfbf1" stroke="#0f766e"/><text x="182" y="341" fill="#111">mark_even</text><text x="182" y="357" font-size="11" fill="#374151">memset</text><rect x="92" y="412" width="70" height="40" rx="4" fill="#dbeafe" stroke="#1d4ed8"/><text x="127" y="429" fill="#111">choose</text><text x="127" y="445" font-size="11" fill="#374151">kernel</text><rect x="25" y="526" width="58" height="40" rx="4" fill="#dbeafe" stroke="#1d4ed8"/><text x="54" y="543" fill="#111">c0</text><text x="54" y="559" font-size="11" fill="#374151">kernel</text><rect x="139" y="568" width="58" height="40" rx="4" fill="#dbeafe" stroke="#1d4ed8"/><text x="168" y="585" fill="#111">c1</text><text x="168" y="601" font-size="11" fill="#374151">kernel</text></svg></div>

As text: `Flow::TOPOLOGY.to_mermaid()` (Mermaid) or `.to_dot()` (Graphviz).
*/
struct Flow {
    parts: ::cudagraph_runtime::__private::Guarded<__FlowParts>,
}
#[doc(hidden)]
#[allow(non_camel_case_types)]
struct __FlowParts {
    graph: ::cudagraph_runtime::__private::Graph<'static>,
    nodes: ::cudagraph_runtime::__private::Box<
        ::cudagraph_runtime::__private::ManuallyDrop<__FlowNodes>,
    >,
    state: __FlowState,
    build_id: ::core::primitive::u64,
}
#[doc(hidden)]
#[allow(non_camel_case_types, dead_code, clippy::type_complexity)]
struct __FlowNodes {
    reset: ::cudagraph_runtime::__private::MemsetNode<
        <DeviceBuffer<u32> as ::cudagraph_runtime::__private::MemsetTarget>::Pattern,
    >,
    count: ::cudagraph_runtime::__private::ConditionalNode,
    decide: ::cudagraph_runtime::__private::KernelNode<
        (ConditionalHandle, DevicePtr<u32>),
    >,
    branch: ::cudagraph_runtime::__private::ConditionalNode,
    choose: ::cudagraph_runtime::__private::KernelNode<
        (ConditionalHandle, DevicePtr<u32>),
    >,
    select: ::cudagraph_runtime::__private::ConditionalNode,
    bump: ::cudagraph_runtime::__private::KernelNode<
        (ConditionalHandle, DevicePtrMut<u32>, u32),
    >,
    mark_odd: ::cudagraph_runtime::__private::KernelNode<(u32, DevicePtrMut<u32>)>,
    mark_even: ::cudagraph_runtime::__private::MemsetNode<
        <DeviceBuffer<u32> as ::cudagraph_runtime::__private::MemsetTarget>::Pattern,
    >,
    c0: ::cudagraph_runtime::__private::KernelNode<(u32, DevicePtrMut<u32>)>,
    inner: ::cudagraph_runtime::__private::ConditionalNode,
    c1: ::cudagraph_runtime::__private::KernelNode<
        (ConditionalHandle, DevicePtrMut<u32>, u32),
    >,
    more: ::cudagraph_runtime::__private::ConditionalHandle,
    odd: ::cudagraph_runtime::__private::ConditionalHandle,
    case: ::cudagraph_runtime::__private::ConditionalHandle,
    again: ::cudagraph_runtime::__private::ConditionalHandle,
}
unsafe impl ::cudagraph_runtime::__private::Unbuilt for __FlowNodes {}
#[doc(hidden)]
#[allow(non_camel_case_types, non_snake_case, dead_code)]
#[derive(Clone, Copy)]
struct __FlowLaunch {
    decide: ::cudagraph_runtime::__private::LaunchConfig,
    choose: ::cudagraph_runtime::__private::LaunchConfig,
    bump: ::cudagraph_runtime::__private::LaunchConfig,
    mark_odd: ::cudagraph_runtime::__private::LaunchConfig,
    c0: ::cudagraph_runtime::__private::LaunchConfig,
    c1: ::cudagraph_runtime::__private::LaunchConfig,
}
unsafe impl ::cudagraph_runtime::__private::Unbuilt for __FlowLaunch {}
#[doc(hidden)]
#[allow(non_camel_case_types)]
struct __FlowState {
    params: ::cudagraph_runtime::__private::Box<FlowParams>,
    launch: ::cudagraph_runtime::__private::Box<__FlowLaunch>,
}
impl Flow {
    /// The declared shape: nodes in build order (their indices in the graph; one more
    /// with `#[indirect]` params, whose fetch node comes first), kinds and edges. Its
    /// `to_dot()` and `to_mermaid()` draw it.
    pub const TOPOLOGY: ::cudagraph_runtime::__private::Topology = ::cudagraph_runtime::__private::Topology {
        name: "Flow",
        nodes: &[
            ("reset", ::cudagraph_runtime::__private::NodeKind::Memset),
            ("count", ::cudagraph_runtime::__private::NodeKind::Conditional),
            ("decide", ::cudagraph_runtime::__private::NodeKind::Kernel),
            ("branch", ::cudagraph_runtime::__private::NodeKind::Conditional),
            ("choose", ::cudagraph_runtime::__private::NodeKind::Kernel),
            ("select", ::cudagraph_runtime::__private::NodeKind::Conditional),
            ("bump", ::cudagraph_runtime::__private::NodeKind::Kernel),
            ("mark_odd", ::cudagraph_runtime::__private::NodeKind::Kernel),
            ("mark_even", ::cudagraph_runtime::__private::NodeKind::Memset),
            ("c0", ::cudagraph_runtime::__private::NodeKind::Kernel),
            ("inner", ::cudagraph_runtime::__private::NodeKind::Conditional),
            ("c1", ::cudagraph_runtime::__private::NodeKind::Kernel),
        ],
        edges: &[
            (0usize, 1usize),
            (1usize, 2usize),
            (2usize, 3usize),
            (3usize, 4usize),
            (4usize, 5usize),
        ],
        bodies: &[
            ::cudagraph_runtime::__private::Option::None,
            ::cudagraph_runtime::__private::Option::None,
            ::cudagraph_runtime::__private::Option::None,
            ::cudagraph_runtime::__private::Option::None,
            ::cudagraph_runtime::__private::Option::None,
            ::cudagraph_runtime::__private::Option::None,
            ::cudagraph_runtime::__private::Option::Some((1usize, 0u32)),
            ::cudagraph_runtime::__private::Option::Some((3usize, 0u32)),
            ::cudagraph_runtime::__private::Option::Some((3usize, 1u32)),
            ::cudagraph_runtime::__private::Option::Some((5usize, 0u32)),
            ::cudagraph_runtime::__private::Option::Some((5usize, 1u32)),
            ::cudagraph_runtime::__private::Option::Some((10usize, 0u32)),
        ],
    };
    /// [`TOPOLOGY`](Self::TOPOLOGY) drawn as a standalone SVG image, laid out when the
    /// macro ran: the picture in this type's docs. Write it to a `.svg` file or put it
    /// in an HTML page; its lines and labels take the text colour of the page around it
    /// (black in a file of its own). It is in the binary only if the program calls this.
    pub const fn topology_svg() -> &'static ::core::primitive::str {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" width=\"254\" height=\"648\" viewBox=\"0 0 254 648\" font-family=\"monospace\" font-size=\"14\" text-anchor=\"middle\" fill=\"currentColor\"><title>Topology of Flow: 12 nodes, 5 edges</title><defs><marker id=\"cgf774bfd2\" viewBox=\"0 0 8 8\" refX=\"8\" refY=\"4\" markerWidth=\"8\" markerHeight=\"8\" orient=\"auto\"><path d=\"M0 0L8 4L0 8z\"/></marker></defs><rect x=\"66\" y=\"80\" width=\"122\" height=\"98\" rx=\"6\" fill-opacity=\".07\" stroke=\"currentColor\"/><text x=\"74\" y=\"97\" text-anchor=\"start\"><tspan font-weight=\"bold\">count</tspan>: while</text><rect x=\"90\" y=\"104\" width=\"74\" height=\"66\" rx=\"4\" fill=\"none\" stroke=\"currentColor\" stroke-dasharray=\"4 3\"/><text x=\"96\" y=\"117\" font-size=\"11\" font-style=\"italic\" text-anchor=\"start\">body</text><rect x=\"8\" y=\"282\" width=\"238\" height=\"98\" rx=\"6\" fill-opacity=\".07\" stroke=\"currentColor\"/><text x=\"16\" y=\"299\" text-anchor=\"start\"><tspan font-weight=\"bold\">branch</tspan>: if_else</text><rect x=\"16\" y=\"306\" width=\"102\" height=\"66\" rx=\"4\" fill=\"none\" stroke=\"currentColor\" stroke-dasharray=\"4 3\"/><text x=\"22\" y=\"319\" font-size=\"11\" font-style=\"italic\" text-anchor=\"start\">then</text><rect x=\"126\" y=\"306\" width=\"112\" height=\"66\" rx=\"4\" fill=\"none\" stroke=\"currentColor\" stroke-dasharray=\"4 3\"/><text x=\"132\" y=\"319\" font-size=\"11\" font-style=\"italic\" text-anchor=\"start\">else</text><rect x=\"9\" y=\"484\" width=\"236\" height=\"156\" rx=\"6\" fill-opacity=\".07\" stroke=\"currentColor\"/><text x=\"17\" y=\"501\" text-anchor=\"start\"><tspan font-weight=\"bold\">select</tspan>: switch</text><rect x=\"17\" y=\"508\" width=\"74\" height=\"124\" rx=\"4\" fill=\"none\" stroke=\"currentColor\" stroke-dasharray=\"4 3\"/><text x=\"23\" y=\"521\" font-size=\"11\" font-style=\"italic\" text-anchor=\"start\">case 0</text><rect x=\"99\" y=\"508\" width=\"138\" height=\"124\" rx=\"4\" fill=\"none\" stroke=\"currentColor\" stroke-dasharray=\"4 3\"/><text x=\"105\" y=\"521\" font-size=\"11\" font-style=\"italic\" text-anchor=\"start\">case 1</text><rect x=\"107\" y=\"526\" width=\"122\" height=\"98\" rx=\"6\" fill-opacity=\".07\" stroke=\"currentColor\"/><text x=\"115\" y=\"543\" text-anchor=\"start\"><tspan font-weight=\"bold\">inner</tspan>: while</text><rect x=\"131\" y=\"550\" width=\"74\" height=\"66\" rx=\"4\" fill=\"none\" stroke=\"currentColor\" stroke-dasharray=\"4 3\"/><text x=\"137\" y=\"563\" font-size=\"11\" font-style=\"italic\" text-anchor=\"start\">body</text><g fill=\"none\" stroke=\"currentColor\" marker-end=\"url(#cgf774bfd2)\"><path d=\"M127 48V80\"/><path d=\"M127 178V210\"/><path d=\"M127 250V282\"/><path d=\"M127 380V412\"/><path d=\"M127 452V484\"/></g><rect x=\"97\" y=\"8\" width=\"60\" height=\"40\" rx=\"4\" fill=\"#ccfbf1\" stroke=\"#0f766e\"/><text x=\"127\" y=\"25\" fill=\"#111\">reset</text><text x=\"127\" y=\"41\" font-size=\"11\" fill=\"#374151\">memset</text><rect x=\"98\" y=\"122\" width=\"58\" height=\"40\" rx=\"4\" fill=\"#dbeafe\" stroke=\"#1d4ed8\"/><text x=\"127\" y=\"139\" fill=\"#111\">bump</text><text x=\"127\" y=\"155\" font-size=\"11\" fill=\"#374151\">kernel</text><rect x=\"92\" y=\"210\" width=\"70\" height=\"40\" rx=\"4\" fill=\"#dbeafe\" stroke=\"#1d4ed8\"/><text x=\"127\" y=\"227\" fill=\"#111\">decide</text><text x=\"127\" y=\"243\" font-size=\"11\" fill=\"#374151\">kernel</text><rect x=\"24\" y=\"324\" width=\"86\" height=\"40\" rx=\"4\" fill=\"#dbeafe\" stroke=\"#1d4ed8\"/><text x=\"67\" y=\"341\" fill=\"#111\">mark_odd</text><text x=\"67\" y=\"357\" font-size=\"11\" fill=\"#374151\">kernel</text><rect x=\"134\" y=\"324\" width=\"96\" height=\"40\" rx=\"4\" fill=\"#ccfbf1\" stroke=\"#0f766e\"/><text x=\"182\" y=\"341\" fill=\"#111\">mark_even</text><text x=\"182\" y=\"357\" font-size=\"11\" fill=\"#374151\">memset</text><rect x=\"92\" y=\"412\" width=\"70\" height=\"40\" rx=\"4\" fill=\"#dbeafe\" stroke=\"#1d4ed8\"/><text x=\"127\" y=\"429\" fill=\"#111\">choose</text><text x=\"127\" y=\"445\" font-size=\"11\" fill=\"#374151\">kernel</text><rect x=\"25\" y=\"526\" width=\"58\" height=\"40\" rx=\"4\" fill=\"#dbeafe\" stroke=\"#1d4ed8\"/><text x=\"54\" y=\"543\" fill=\"#111\">c0</text><text x=\"54\" y=\"559\" font-size=\"11\" fill=\"#374151\">kernel</text><rect x=\"139\" y=\"568\" width=\"58\" height=\"40\" rx=\"4\" fill=\"#dbeafe\" stroke=\"#1d4ed8\"/><text x=\"168\" y=\"585\" fill=\"#111\">c1</text><text x=\"168\" y=\"601\" font-size=\"11\" fill=\"#374151\">kernel</text></svg>"
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
        __cg_params: &FlowParams,
    ) -> ::cudagraph_runtime::__private::Result<Self> {
        Self::__cg_check_overlaps(__cg_params)?;
        let mut __cg_graph = ::cudagraph_runtime::__private::Graph::with_capacity(
            ctx,
            12usize,
        )?;
        let (nodes, state) = Self::__cg_add_nodes(&mut __cg_graph, __cg_params)?;
        ::cudagraph_runtime::__private::built(&__cg_graph, "Flow");
        let __cg_parts = __FlowParts {
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
        __cg_params: &FlowParams,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        Self::__cg_check_overlaps(__cg_params)?;
        let __cg_parts = unsafe { self.parts.get_mut() };
        __cg_parts.build_id = ::cudagraph_runtime::__private::next_build_id();
        __cg_parts.graph.clear()?;
        let (nodes, state) = Self::__cg_add_nodes(&mut __cg_parts.graph, __cg_params)?;
        ::cudagraph_runtime::__private::built(&__cg_parts.graph, "Flow");
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
        __cg_params: &FlowParams,
    ) -> ::cudagraph_runtime::__private::Result<
        (
            ::cudagraph_runtime::__private::Box<
                ::cudagraph_runtime::__private::ManuallyDrop<__FlowNodes>,
            >,
            __FlowState,
        ),
    > {
        let owned = Self::__cg_own(__cg_params)?;
        let mut boxed = ::cudagraph_runtime::__private::unbuilt_box::<
            ::cudagraph_runtime::__private::ManuallyDrop<__FlowNodes>,
        >();
        let mut configs = ::cudagraph_runtime::__private::unbuilt_box::<__FlowLaunch>();
        {
            let nodes: &mut __FlowNodes = &mut boxed;
            #[allow(unused_variables)]
            let launches: &mut __FlowLaunch = &mut configs;
            nodes.more = __cg_graph
                .conditional_handle(::cudagraph_runtime::__private::Option::Some(1))?;
            nodes.odd = __cg_graph
                .conditional_handle(::cudagraph_runtime::__private::Option::None)?;
            nodes.case = __cg_graph
                .conditional_handle(::cudagraph_runtime::__private::Option::None)?;
            Self::__cg_add_0(__cg_graph, __cg_params, nodes, launches)?;
        }
        ::cudagraph_runtime::__private::Result::Ok((
            boxed,
            __FlowState {
                params: owned,
                launch: configs,
            },
        ))
    }
    #[inline(never)]
    fn __cg_add_6(
        __cg_graph: &mut ::cudagraph_runtime::__private::Graph<'static>,
        __cg_params: &FlowParams,
        nodes: &mut __FlowNodes,
        launches: &mut __FlowLaunch,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        (nodes.bump, launches.bump) = ::cudagraph_runtime::__private::add_node(
            __cg_graph,
            "bump",
            |__cg_graph| {
                let (kernel, config, args) = Flow::__cg_eval_bump(
                    __cg_params,
                    nodes.more,
                );
                let added = __cg_graph.add_kernel(kernel, config, args, &[])?;
                ::cudagraph_runtime::__private::Result::Ok((added, config))
            },
        )?;
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline(never)]
    fn __cg_add_7(
        __cg_graph: &mut ::cudagraph_runtime::__private::Graph<'static>,
        __cg_params: &FlowParams,
        nodes: &mut __FlowNodes,
        launches: &mut __FlowLaunch,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        (nodes.mark_odd, launches.mark_odd) = ::cudagraph_runtime::__private::add_node(
            __cg_graph,
            "mark_odd",
            |__cg_graph| {
                let (kernel, config, args) = Flow::__cg_eval_mark_odd(__cg_params);
                let added = __cg_graph.add_kernel(kernel, config, args, &[])?;
                ::cudagraph_runtime::__private::Result::Ok((added, config))
            },
        )?;
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline(never)]
    fn __cg_add_8(
        __cg_graph: &mut ::cudagraph_runtime::__private::Graph<'static>,
        __cg_params: &FlowParams,
        nodes: &mut __FlowNodes,
        launches: &mut __FlowLaunch,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        nodes.mark_even = ::cudagraph_runtime::__private::add_node(
            __cg_graph,
            "mark_even",
            |__cg_graph| {
                __cg_graph.add_memset(Flow::__cg_eval_mark_even(__cg_params), &[])
            },
        )?;
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline(never)]
    fn __cg_add_9(
        __cg_graph: &mut ::cudagraph_runtime::__private::Graph<'static>,
        __cg_params: &FlowParams,
        nodes: &mut __FlowNodes,
        launches: &mut __FlowLaunch,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        (nodes.c0, launches.c0) = ::cudagraph_runtime::__private::add_node(
            __cg_graph,
            "c0",
            |__cg_graph| {
                let (kernel, config, args) = Flow::__cg_eval_c0(__cg_params);
                let added = __cg_graph.add_kernel(kernel, config, args, &[])?;
                ::cudagraph_runtime::__private::Result::Ok((added, config))
            },
        )?;
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline(never)]
    fn __cg_add_11(
        __cg_graph: &mut ::cudagraph_runtime::__private::Graph<'static>,
        __cg_params: &FlowParams,
        nodes: &mut __FlowNodes,
        launches: &mut __FlowLaunch,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        (nodes.c1, launches.c1) = ::cudagraph_runtime::__private::add_node(
            __cg_graph,
            "c1",
            |__cg_graph| {
                let (kernel, config, args) = Flow::__cg_eval_c1(
                    __cg_params,
                    nodes.again,
                );
                let added = __cg_graph.add_kernel(kernel, config, args, &[])?;
                ::cudagraph_runtime::__private::Result::Ok((added, config))
            },
        )?;
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline(never)]
    fn __cg_add_10(
        __cg_graph: &mut ::cudagraph_runtime::__private::Graph<'static>,
        __cg_params: &FlowParams,
        nodes: &mut __FlowNodes,
        launches: &mut __FlowLaunch,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        ::cudagraph_runtime::__private::needs_conditional_nodes::<()>();
        __cg_graph.name_next("inner");
        nodes.inner = __cg_graph
            .add_conditional_with(
                nodes.again,
                ::cudagraph_runtime::__private::Condition::While,
                &[],
                |bodies| {
                    {
                        let __cg_graph = unsafe {
                            ::cudagraph_runtime::__private::Body::as_graph_mut(
                                &mut *bodies[0usize],
                            )
                        };
                        Self::__cg_add_11(__cg_graph, __cg_params, nodes, launches)?;
                    }
                    ::cudagraph_runtime::__private::Result::Ok(())
                },
            )?
            .0;
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline(never)]
    fn __cg_add_0(
        __cg_graph: &mut ::cudagraph_runtime::__private::Graph<'static>,
        __cg_params: &FlowParams,
        nodes: &mut __FlowNodes,
        launches: &mut __FlowLaunch,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        nodes.reset = ::cudagraph_runtime::__private::add_node(
            __cg_graph,
            "reset",
            |__cg_graph| __cg_graph.add_memset(Flow::__cg_eval_reset(__cg_params), &[]),
        )?;
        ::cudagraph_runtime::__private::needs_conditional_nodes::<()>();
        __cg_graph.name_next("count");
        nodes.count = __cg_graph
            .add_conditional_with(
                nodes.more,
                ::cudagraph_runtime::__private::Condition::While,
                &[nodes.reset.id()],
                |bodies| {
                    {
                        let __cg_graph = unsafe {
                            ::cudagraph_runtime::__private::Body::as_graph_mut(
                                &mut *bodies[0usize],
                            )
                        };
                        Self::__cg_add_6(__cg_graph, __cg_params, nodes, launches)?;
                    }
                    ::cudagraph_runtime::__private::Result::Ok(())
                },
            )?
            .0;
        (nodes.decide, launches.decide) = ::cudagraph_runtime::__private::add_node(
            __cg_graph,
            "decide",
            |__cg_graph| {
                let (kernel, config, args) = Flow::__cg_eval_decide(
                    __cg_params,
                    nodes.odd,
                );
                let added = __cg_graph
                    .add_kernel(kernel, config, args, &[nodes.count.id()])?;
                ::cudagraph_runtime::__private::Result::Ok((added, config))
            },
        )?;
        ::cudagraph_runtime::__private::needs_conditional_nodes::<()>();
        __cg_graph.name_next("branch");
        nodes.branch = __cg_graph
            .add_conditional_with(
                nodes.odd,
                ::cudagraph_runtime::__private::Condition::IfElse,
                &[nodes.decide.id()],
                |bodies| {
                    {
                        let __cg_graph = unsafe {
                            ::cudagraph_runtime::__private::Body::as_graph_mut(
                                &mut *bodies[0usize],
                            )
                        };
                        Self::__cg_add_7(__cg_graph, __cg_params, nodes, launches)?;
                    }
                    {
                        let __cg_graph = unsafe {
                            ::cudagraph_runtime::__private::Body::as_graph_mut(
                                &mut *bodies[1usize],
                            )
                        };
                        Self::__cg_add_8(__cg_graph, __cg_params, nodes, launches)?;
                    }
                    ::cudagraph_runtime::__private::Result::Ok(())
                },
            )?
            .0;
        (nodes.choose, launches.choose) = ::cudagraph_runtime::__private::add_node(
            __cg_graph,
            "choose",
            |__cg_graph| {
                let (kernel, config, args) = Flow::__cg_eval_choose(
                    __cg_params,
                    nodes.case,
                );
                let added = __cg_graph
                    .add_kernel(kernel, config, args, &[nodes.branch.id()])?;
                ::cudagraph_runtime::__private::Result::Ok((added, config))
            },
        )?;
        ::cudagraph_runtime::__private::needs_conditional_nodes::<()>();
        __cg_graph.name_next("select");
        nodes.select = __cg_graph
            .add_conditional_with(
                nodes.case,
                <() as ::cudagraph_runtime::__private::CudaHasSwitchNodes>::switch(2u32),
                &[nodes.choose.id()],
                |bodies| {
                    {
                        let __cg_graph = unsafe {
                            ::cudagraph_runtime::__private::Body::as_graph_mut(
                                &mut *bodies[0usize],
                            )
                        };
                        Self::__cg_add_9(__cg_graph, __cg_params, nodes, launches)?;
                    }
                    {
                        let __cg_graph = unsafe {
                            ::cudagraph_runtime::__private::Body::as_graph_mut(
                                &mut *bodies[1usize],
                            )
                        };
                        nodes.again = __cg_graph
                            .conditional_handle(
                                ::cudagraph_runtime::__private::Option::Some(1),
                            )?;
                        Self::__cg_add_10(__cg_graph, __cg_params, nodes, launches)?;
                    }
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
        __cg_params: &FlowParams,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        #[allow(unused_imports)]
        use ::cudagraph_runtime::__private::{
            ArgsFallback as _, BodyFallback as _, ParamFallback as _, SlotFallback as _,
        };
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    ///Instantiates the graph with default flags.
    pub fn instantiate(self) -> ::cudagraph_runtime::__private::Result<FlowExec> {
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
    ) -> ::cudagraph_runtime::__private::Result<FlowExec> {
        let __cg_parts = self.parts.into_inner();
        let applied = Self::__cg_own(&__cg_parts.state.params)?;
        let exec = __cg_parts.graph.instantiate_with(flags, upload)?;
        ::cudagraph_runtime::__private::Result::Ok(unsafe {
            FlowExec::__cg_new(exec, __cg_parts.nodes, __cg_parts.state, applied)
        })
    }
    ///Instantiates the graph as an executable *bound to* `stream`: it launches there only (`launch` refuses another stream). The launches of executables bound to one stream never overlap, so they may share host memory that their host nodes write, which two executables launched anywhere may not (`Error::BufferInUse` when the second is made).
    pub fn instantiate_on(
        self,
        stream: &::cudagraph_runtime::__private::Arc<
            ::cudagraph_runtime::__private::CudaStream,
        >,
    ) -> ::cudagraph_runtime::__private::Result<FlowExec> {
        let flags = ::cudagraph_runtime::__private::InstantiateFlags::NONE;
        let __cg_parts = self.parts.into_inner();
        let applied = Self::__cg_own(&__cg_parts.state.params)?;
        let exec = __cg_parts.graph.instantiate_on(stream, flags)?;
        ::cudagraph_runtime::__private::Result::Ok(unsafe {
            FlowExec::__cg_new(exec, __cg_parts.nodes, __cg_parts.state, applied)
        })
    }
    #[allow(
        non_snake_case,
        unused_variables,
        clippy::type_complexity,
        clippy::needless_lifetimes
    )]
    fn __cg_eval_reset<'__cg_p>(
        __cg_params: &'__cg_p FlowParams,
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
    fn __cg_eval_decide<'__cg_p>(
        __cg_params: &'__cg_p FlowParams,
        odd: ::cudagraph_runtime::__private::ConditionalHandle,
    ) -> (
        &'__cg_p ::cudagraph_runtime::__private::Kernel<
            (ConditionalHandle, DevicePtr<u32>),
        >,
        ::cudagraph_runtime::__private::LaunchConfig,
        (
            impl ::cudagraph_runtime::__private::KernelArg<
                'static,
                ConditionalHandle,
            > + '__cg_p,
            impl ::cudagraph_runtime::__private::KernelArg<
                'static,
                DevicePtr<u32>,
            > + '__cg_p,
        ),
    ) {
        #[allow(unused_imports)]
        use ::cudagraph_runtime::__private::{BindCopy as _, BindRef as _};
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let pick = (&::cudagraph_runtime::__private::Bind(&__cg_params.pick))
            .__cg_bind();
        #[allow(unused_variables, clippy::redundant_locals)]
        let odd = odd;
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let counter = (&::cudagraph_runtime::__private::Bind(&__cg_params.counter))
            .__cg_bind();
        let config = ::cudagraph_runtime::__private::launch(1, 32, 0);
        let args = (
            ::cudagraph_runtime::__private::KernelArgPart::<
                'static,
                ConditionalHandle,
                _,
            >::new(odd),
            ::cudagraph_runtime::__private::KernelArgPart::<
                'static,
                DevicePtr<u32>,
                _,
            >::new(counter),
        );
        (
            <Kernel<
                (ConditionalHandle, DevicePtr<u32>),
            > as ::cudagraph_runtime::__private::KernelType>::as_kernel(
                &__cg_params.pick,
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
    fn __cg_eval_choose<'__cg_p>(
        __cg_params: &'__cg_p FlowParams,
        case: ::cudagraph_runtime::__private::ConditionalHandle,
    ) -> (
        &'__cg_p ::cudagraph_runtime::__private::Kernel<
            (ConditionalHandle, DevicePtr<u32>),
        >,
        ::cudagraph_runtime::__private::LaunchConfig,
        (
            impl ::cudagraph_runtime::__private::KernelArg<
                'static,
                ConditionalHandle,
            > + '__cg_p,
            impl ::cudagraph_runtime::__private::KernelArg<
                'static,
                DevicePtr<u32>,
            > + '__cg_p,
        ),
    ) {
        #[allow(unused_imports)]
        use ::cudagraph_runtime::__private::{BindCopy as _, BindRef as _};
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let pick = (&::cudagraph_runtime::__private::Bind(&__cg_params.pick))
            .__cg_bind();
        #[allow(unused_variables, clippy::redundant_locals)]
        let case = case;
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let choice = (&::cudagraph_runtime::__private::Bind(&__cg_params.choice))
            .__cg_bind();
        let config = ::cudagraph_runtime::__private::launch(1, 32, 0);
        let args = (
            ::cudagraph_runtime::__private::KernelArgPart::<
                'static,
                ConditionalHandle,
                _,
            >::new(case),
            ::cudagraph_runtime::__private::KernelArgPart::<
                'static,
                DevicePtr<u32>,
                _,
            >::new(choice),
        );
        (
            <Kernel<
                (ConditionalHandle, DevicePtr<u32>),
            > as ::cudagraph_runtime::__private::KernelType>::as_kernel(
                &__cg_params.pick,
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
    fn __cg_eval_bump<'__cg_p>(
        __cg_params: &'__cg_p FlowParams,
        more: ::cudagraph_runtime::__private::ConditionalHandle,
    ) -> (
        &'__cg_p ::cudagraph_runtime::__private::Kernel<
            (ConditionalHandle, DevicePtrMut<u32>, u32),
        >,
        ::cudagraph_runtime::__private::LaunchConfig,
        (
            impl ::cudagraph_runtime::__private::KernelArg<
                'static,
                ConditionalHandle,
            > + '__cg_p,
            impl ::cudagraph_runtime::__private::KernelArg<
                'static,
                DevicePtrMut<u32>,
            > + '__cg_p,
            impl ::cudagraph_runtime::__private::KernelArg<'static, u32> + '__cg_p,
        ),
    ) {
        #[allow(unused_imports)]
        use ::cudagraph_runtime::__private::{BindCopy as _, BindRef as _};
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let step = (&::cudagraph_runtime::__private::Bind(&__cg_params.step))
            .__cg_bind();
        #[allow(unused_variables, clippy::redundant_locals)]
        let more = more;
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let counter = (&::cudagraph_runtime::__private::Bind(&__cg_params.counter))
            .__cg_bind();
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let limit = (&::cudagraph_runtime::__private::Bind(&__cg_params.limit))
            .__cg_bind();
        let config = ::cudagraph_runtime::__private::launch(1, 32, 0);
        let args = (
            ::cudagraph_runtime::__private::KernelArgPart::<
                'static,
                ConditionalHandle,
                _,
            >::new(more),
            ::cudagraph_runtime::__private::KernelArgPart::<
                'static,
                DevicePtrMut<u32>,
                _,
            >::new(counter),
            ::cudagraph_runtime::__private::KernelArgPart::<'static, u32, _>::new(limit),
        );
        (
            <Kernel<
                (ConditionalHandle, DevicePtrMut<u32>, u32),
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
    fn __cg_eval_mark_odd<'__cg_p>(
        __cg_params: &'__cg_p FlowParams,
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
        let put = (&::cudagraph_runtime::__private::Bind(&__cg_params.put)).__cg_bind();
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let out = (&::cudagraph_runtime::__private::Bind(&__cg_params.out)).__cg_bind();
        let config = ::cudagraph_runtime::__private::launch(1, 32, 0);
        let args = (
            ::cudagraph_runtime::__private::KernelArgPart::<'static, u32, _>::new(1),
            ::cudagraph_runtime::__private::KernelArgPart::<
                'static,
                DevicePtrMut<u32>,
                _,
            >::new(out),
        );
        (
            <Kernel<
                (u32, DevicePtrMut<u32>),
            > as ::cudagraph_runtime::__private::KernelType>::as_kernel(
                &__cg_params.put,
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
    fn __cg_eval_mark_even<'__cg_p>(
        __cg_params: &'__cg_p FlowParams,
    ) -> ::cudagraph_runtime::__private::Memset<
        'static,
        <DeviceBuffer<u32> as ::cudagraph_runtime::__private::MemsetTarget>::Pattern,
    > {
        #[allow(unused_imports)]
        use ::cudagraph_runtime::__private::{BindCopy as _, BindRef as _};
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let out = (&::cudagraph_runtime::__private::Bind(&__cg_params.out)).__cg_bind();
        <DeviceBuffer<
            u32,
        > as ::cudagraph_runtime::__private::MemsetTarget>::memset(
            &__cg_params.out,
            0u32,
        )
    }
    #[allow(
        non_snake_case,
        unused_variables,
        clippy::type_complexity,
        clippy::needless_lifetimes
    )]
    fn __cg_eval_c0<'__cg_p>(
        __cg_params: &'__cg_p FlowParams,
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
        let put = (&::cudagraph_runtime::__private::Bind(&__cg_params.put)).__cg_bind();
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let out = (&::cudagraph_runtime::__private::Bind(&__cg_params.out)).__cg_bind();
        let config = ::cudagraph_runtime::__private::launch(1, 32, 0);
        let args = (
            ::cudagraph_runtime::__private::KernelArgPart::<'static, u32, _>::new(100),
            ::cudagraph_runtime::__private::KernelArgPart::<
                'static,
                DevicePtrMut<u32>,
                _,
            >::new(out),
        );
        (
            <Kernel<
                (u32, DevicePtrMut<u32>),
            > as ::cudagraph_runtime::__private::KernelType>::as_kernel(
                &__cg_params.put,
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
    fn __cg_eval_c1<'__cg_p>(
        __cg_params: &'__cg_p FlowParams,
        again: ::cudagraph_runtime::__private::ConditionalHandle,
    ) -> (
        &'__cg_p ::cudagraph_runtime::__private::Kernel<
            (ConditionalHandle, DevicePtrMut<u32>, u32),
        >,
        ::cudagraph_runtime::__private::LaunchConfig,
        (
            impl ::cudagraph_runtime::__private::KernelArg<
                'static,
                ConditionalHandle,
            > + '__cg_p,
            impl ::cudagraph_runtime::__private::KernelArg<
                'static,
                DevicePtrMut<u32>,
            > + '__cg_p,
            impl ::cudagraph_runtime::__private::KernelArg<'static, u32> + '__cg_p,
        ),
    ) {
        #[allow(unused_imports)]
        use ::cudagraph_runtime::__private::{BindCopy as _, BindRef as _};
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let step = (&::cudagraph_runtime::__private::Bind(&__cg_params.step))
            .__cg_bind();
        #[allow(unused_variables, clippy::redundant_locals)]
        let again = again;
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let counter = (&::cudagraph_runtime::__private::Bind(&__cg_params.counter))
            .__cg_bind();
        let config = ::cudagraph_runtime::__private::launch(1, 32, 0);
        let args = (
            ::cudagraph_runtime::__private::KernelArgPart::<
                'static,
                ConditionalHandle,
                _,
            >::new(again),
            ::cudagraph_runtime::__private::KernelArgPart::<
                'static,
                DevicePtrMut<u32>,
                _,
            >::new(counter),
            ::cudagraph_runtime::__private::KernelArgPart::<'static, u32, _>::new(7),
        );
        (
            <Kernel<
                (ConditionalHandle, DevicePtrMut<u32>, u32),
            > as ::cudagraph_runtime::__private::KernelType>::as_kernel(
                &__cg_params.step,
            ),
            config,
            args,
        )
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for Flow {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("Flow").field("graph", &self.parts.graph).finish_non_exhaustive()
    }
}
impl ::cudagraph_runtime::__private::SameDeclaration<Flow> for Flow {
    fn same(&self) -> &Flow {
        self
    }
}
/**[`Flow`], instantiated, with the [`FlowParams`] it runs, which it owns ([`params`](Self::params)).

Change a param with its setter (`exec.set_alpha(0.5)?`, one per param: it updates the nodes that read it, and returns the old value), several at once or two swapped through [`params_mut`](Self::params_mut) ([`FlowParamsMut`], whose changes the next launch applies if its `apply` did not), all of them by [`set_params`](Self::set_params); or update it from another [`Flow`] ([`update`](Self::update)), or one node through its handle. Which node reads which param is known when the macro runs: a change updates the nodes that read it, each once, with nothing else compared.

A change is made whole or not at all. One that a node refuses (the driver or a kernel's check, params that would make two nodes race, or a change CUDA cannot make, such as an allocation's length) is the error of the setter, `apply`, `set_params` or launch that tried it, naming the node, and is undone: every param changed since the last update gets back the value the nodes were last updated from (the executable keeps a copy of those), the nodes updated before the refusal are set back, and nothing stays pending, so the next launch runs what ran before. A panic in your code that a change runs (a node expression, a param's `Clone`, `PartialEq` or `Drop`) may stop it part way: caught, it leaves the executable refusing updates and launches (`Error::Invalid`) until a whole-graph update. Memory the executable stops using is released once the launches that may use it are done.

Nodes:

- [`reset()`](Self::reset): memset node
- [`count()`](Self::count): while node
- [`decide()`](Self::decide): kernel node
- [`branch()`](Self::branch): if_else node
- [`choose()`](Self::choose): kernel node
- [`select()`](Self::select): switch node
- [`bump()`](Self::bump): kernel node
- [`mark_odd()`](Self::mark_odd): kernel node
- [`mark_even()`](Self::mark_even): memset node
- [`c0()`](Self::c0): kernel node
- [`inner()`](Self::inner): while node
- [`c1()`](Self::c1): kernel node
*/
struct FlowExec {
    parts: ::cudagraph_runtime::__private::Guarded<__FlowExecParts>,
}
#[doc(hidden)]
#[allow(non_camel_case_types)]
struct __FlowExecParts {
    exec: ::cudagraph_runtime::__private::GraphExec<'static>,
    nodes: ::cudagraph_runtime::__private::Box<
        ::cudagraph_runtime::__private::ManuallyDrop<__FlowNodes>,
    >,
    state: __FlowState,
    /// A copy of the params as the nodes were last updated from them: what a refused
    /// change puts back (see `__private::apply`).
    applied: ::cudagraph_runtime::__private::Box<FlowParams>,
    /// The nodes that disagree with the params (see `__private::Tracker`).
    tracker: ::cudagraph_runtime::__private::Tracker,
}
impl FlowExec {
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
            ::cudagraph_runtime::__private::ManuallyDrop<__FlowNodes>,
        >,
        state: __FlowState,
        applied: ::cudagraph_runtime::__private::Box<FlowParams>,
    ) -> Self {
        let tracker = ::cudagraph_runtime::__private::Tracker::new(12usize, 7usize);
        let __cg_parts = __FlowExecParts {
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
    /**Whole-graph update from a [`Flow`] built with other params (`cuGraphExecUpdate`).

Only a graph of this declaration is accepted: it was built by the same sequence of calls, so its nodes pair with this executable's ([whole-graph update](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#whole-graph-update)). Afterwards the executable owns a copy of that graph's params (what [`params`](Self::params) shows), and changes made to its own params and not applied yet are dropped.*/
    pub fn update<__CgSame: ::cudagraph_runtime::__private::SameDeclaration<Flow>>(
        &mut self,
        source: &__CgSame,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let source: &Flow = ::cudagraph_runtime::__private::SameDeclaration::same(
            source,
        );
        let params = Flow::__cg_own(&source.parts.state.params)?;
        let applied = Flow::__cg_own(&source.parts.state.params)?;
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
    /**Replaces the executable's params with `params` as a whole: each param that differs from the executable's own is copied in, then the nodes that read a changed param (or were set through their handle since) are updated, each once, with one single-node update. Afterwards the nodes are what [`Flow::build`] would make from `params`. Returns how many nodes it updated. Enabled/disabled states are kept.

It compares every param, so its cost grows with the declaration: to change a few params, set them (the setters `set_<param>`, [`params_mut`](Self::params_mut)), which updates only their readers. A param is compared with `PartialEq`, a kernel by function, a declared graph by identity; a runtime `Graph` counts as changed every time. A kernel param may change function (same parameter list, same context): the node's single-node update switches it.

Params under which two nodes that may run at the same time share memory, one writing it, are refused as by [`Flow::build`], with nothing changed. So is any update a node refuses: the error names the node, and the params and the nodes updated before it are set back to what they were.*/
    pub fn set_params(
        &mut self,
        __cg_params: &FlowParams,
    ) -> ::cudagraph_runtime::__private::Result<::core::primitive::usize> {
        Flow::__cg_check_overlaps(__cg_params)?;
        self.__cg_take_0(__cg_params);
        ::cudagraph_runtime::__private::set_all(self)
    }
    ///The params the executable runs: those it was built from, with every change made since through the setters (`set_<param>`), [`params_mut`](Self::params_mut), [`set_params`](Self::set_params) or [`update`](Self::update). Host code reads the buffers among them as any buffer's holder does: `exec.params().y.to_vec()` waits for the launches that may write `y`.
    pub fn params(&self) -> &FlowParams {
        &self.parts.state.params
    }
    /**A guard through which to change several params at once, or to swap two: [`FlowParamsMut`]'s `set_<param>` and [`swap`](FlowParamsMut::swap) change the params (read them through the guard) and mark the nodes that read them; [`FlowParamsMut::apply`] updates those nodes, each once however many of its params changed, and if the guard is dropped instead, the next [`launch`](Self::launch) does. Either reports an update the driver or a kernel's check refuses as an error naming the node, and undoes the changes (the params and the nodes are as they were before them); nothing is lost when the guard is dropped.

```text
exec.params_mut().swap(|p| (&mut p.x, &mut p.x_new))?; // the ping-pong of a solver
exec.launch(&stream)?;                                 // updates x's and x_new's readers
```*/
    pub fn params_mut(&mut self) -> FlowParamsMut<'_> {
        FlowParamsMut { exec: self }
    }
    /// The params, taking the executable apart (it is dropped; memory its launches may
    /// still use stays alive until they are done).
    pub fn into_params(self) -> FlowParams {
        *self.parts.into_inner().state.params
    }
    /// The runtime executable, for what the typed API does not cover (read-only).
    pub fn as_exec(&self) -> &::cudagraph_runtime::__private::GraphExec<'static> {
        &self.parts.exec
    }
    #[inline(never)]
    fn __cg_take_0(&mut self, __cg_params: &FlowParams) {
        let __cg_parts = unsafe { self.parts.get_mut() };
        if !(<Kernel<
            (ConditionalHandle, DevicePtrMut<u32>, u32),
        > as ::cudagraph_runtime::__private::KernelType>::function_id(&__cg_params.step)
            == <Kernel<
                (ConditionalHandle, DevicePtrMut<u32>, u32),
            > as ::cudagraph_runtime::__private::KernelType>::function_id(
                &__cg_parts.state.params.step,
            ))
        {
            let value = <Kernel<
                (ConditionalHandle, DevicePtrMut<u32>, u32),
            > as ::cudagraph_runtime::__private::KernelType>::keep(&__cg_params.step);
            ::cudagraph_runtime::__private::stage_in::<
                Self,
            >(&mut __cg_parts.tracker, 0usize);
            __cg_parts.state.params.step = value;
        }
        if !(<Kernel<
            (u32, DevicePtrMut<u32>),
        > as ::cudagraph_runtime::__private::KernelType>::function_id(&__cg_params.put)
            == <Kernel<
                (u32, DevicePtrMut<u32>),
            > as ::cudagraph_runtime::__private::KernelType>::function_id(
                &__cg_parts.state.params.put,
            ))
        {
            let value = <Kernel<
                (u32, DevicePtrMut<u32>),
            > as ::cudagraph_runtime::__private::KernelType>::keep(&__cg_params.put);
            ::cudagraph_runtime::__private::stage_in::<
                Self,
            >(&mut __cg_parts.tracker, 1usize);
            __cg_parts.state.params.put = value;
        }
        if !(<Kernel<
            (ConditionalHandle, DevicePtr<u32>),
        > as ::cudagraph_runtime::__private::KernelType>::function_id(&__cg_params.pick)
            == <Kernel<
                (ConditionalHandle, DevicePtr<u32>),
            > as ::cudagraph_runtime::__private::KernelType>::function_id(
                &__cg_parts.state.params.pick,
            ))
        {
            let value = <Kernel<
                (ConditionalHandle, DevicePtr<u32>),
            > as ::cudagraph_runtime::__private::KernelType>::keep(&__cg_params.pick);
            ::cudagraph_runtime::__private::stage_in::<
                Self,
            >(&mut __cg_parts.tracker, 2usize);
            __cg_parts.state.params.pick = value;
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
        if !(<DeviceBuffer<
            u32,
        > as ::cudagraph_runtime::__private::ParamValue>::same(
            &__cg_params.out,
            &__cg_parts.state.params.out,
        )) {
            let value = <DeviceBuffer<
                u32,
            > as ::cudagraph_runtime::__private::ParamValue>::keep(&__cg_params.out);
            ::cudagraph_runtime::__private::stage_in::<
                Self,
            >(&mut __cg_parts.tracker, 4usize);
            __cg_parts.state.params.out = value;
        }
        if !(<DeviceBuffer<
            u32,
        > as ::cudagraph_runtime::__private::ParamValue>::same(
            &__cg_params.choice,
            &__cg_parts.state.params.choice,
        )) {
            let value = <DeviceBuffer<
                u32,
            > as ::cudagraph_runtime::__private::ParamValue>::keep(&__cg_params.choice);
            ::cudagraph_runtime::__private::stage_in::<
                Self,
            >(&mut __cg_parts.tracker, 5usize);
            __cg_parts.state.params.choice = value;
        }
        if !(<u32 as ::cudagraph_runtime::__private::ParamValue>::same(
            &__cg_params.limit,
            &__cg_parts.state.params.limit,
        )) {
            let value = <u32 as ::cudagraph_runtime::__private::ParamValue>::keep(
                &__cg_params.limit,
            );
            ::cudagraph_runtime::__private::stage_in::<
                Self,
            >(&mut __cg_parts.tracker, 6usize);
            __cg_parts.state.params.limit = value;
        }
    }
    ///Node `reset` (`memset(counter, 0u32)`): its update handle.
    pub fn reset(&mut self) -> FlowResetNode<'_> {
        FlowResetNode { exec: self }
    }
    ///Node `count` (`while more(default = 1) { .. }`): its update handle.
    pub fn count(&mut self) -> FlowCountNode<'_> {
        FlowCountNode { exec: self }
    }
    ///Node `decide` (`kernel pick<<<1, 32>>>(odd, counter)`): its update handle.
    pub fn decide(&mut self) -> FlowDecideNode<'_> {
        FlowDecideNode { exec: self }
    }
    ///Node `branch` (`if odd { .. } else { .. }`): its update handle.
    pub fn branch(&mut self) -> FlowBranchNode<'_> {
        FlowBranchNode { exec: self }
    }
    ///Node `choose` (`kernel pick<<<1, 32>>>(case, choice)`): its update handle.
    pub fn choose(&mut self) -> FlowChooseNode<'_> {
        FlowChooseNode { exec: self }
    }
    ///Node `select` (`switch case { 2 cases }`): its update handle.
    pub fn select(&mut self) -> FlowSelectNode<'_> {
        FlowSelectNode { exec: self }
    }
    ///Node `bump` (`kernel step<<<1, 32>>>(more, counter, limit)`): its update handle.
    pub fn bump(&mut self) -> FlowBumpNode<'_> {
        FlowBumpNode { exec: self }
    }
    ///Node `mark_odd` (`kernel put<<<1, 32>>>(1, out)`): its update handle.
    pub fn mark_odd(&mut self) -> FlowMarkOddNode<'_> {
        FlowMarkOddNode { exec: self }
    }
    ///Node `mark_even` (`memset(out, 0u32)`): its update handle.
    pub fn mark_even(&mut self) -> FlowMarkEvenNode<'_> {
        FlowMarkEvenNode { exec: self }
    }
    ///Node `c0` (`kernel put<<<1, 32>>>(100, out)`): its update handle.
    pub fn c0(&mut self) -> FlowC0Node<'_> {
        FlowC0Node { exec: self }
    }
    ///Node `inner` (`while again(default = 1) { .. }`): its update handle.
    pub fn inner(&mut self) -> FlowInnerNode<'_> {
        FlowInnerNode { exec: self }
    }
    ///Node `c1` (`kernel step<<<1, 32>>>(again, counter, 7)`): its update handle.
    pub fn c1(&mut self) -> FlowC1Node<'_> {
        FlowC1Node { exec: self }
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for FlowExec {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("FlowExec")
            .field("exec", &self.parts.exec)
            .finish_non_exhaustive()
    }
}
impl Flow {
    /// A copy of `params`, for the graph and then its executable to keep: made field by
    /// field in place on the heap, a few dozen fields per function.
    #[allow(unused_variables, unused_unsafe)]
    fn __cg_own(
        __cg_params: &FlowParams,
    ) -> ::cudagraph_runtime::__private::Result<
        ::cudagraph_runtime::__private::Box<FlowParams>,
    > {
        let mut out = ::cudagraph_runtime::__private::Box::<FlowParams>::new_uninit();
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
    unsafe fn __cg_own_0(__cg_params: &FlowParams, dst: *mut FlowParams) {
        unsafe {
            (&raw mut (*dst).step)
                .write(
                    <Kernel<
                        (ConditionalHandle, DevicePtrMut<u32>, u32),
                    > as ::cudagraph_runtime::__private::KernelType>::keep(
                        &__cg_params.step,
                    ),
                );
            (&raw mut (*dst).put)
                .write(
                    <Kernel<
                        (u32, DevicePtrMut<u32>),
                    > as ::cudagraph_runtime::__private::KernelType>::keep(
                        &__cg_params.put,
                    ),
                );
            (&raw mut (*dst).pick)
                .write(
                    <Kernel<
                        (ConditionalHandle, DevicePtr<u32>),
                    > as ::cudagraph_runtime::__private::KernelType>::keep(
                        &__cg_params.pick,
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
            (&raw mut (*dst).out)
                .write(
                    <DeviceBuffer<
                        u32,
                    > as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_params.out,
                    ),
                );
            (&raw mut (*dst).choice)
                .write(
                    <DeviceBuffer<
                        u32,
                    > as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_params.choice,
                    ),
                );
            (&raw mut (*dst).limit)
                .write(
                    <u32 as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_params.limit,
                    ),
                );
        }
    }
}
///The params of a [`FlowParams`] as [`FlowParamsMut::swap`] names them: a field per param, of the same name, holding no value (a `Slot` per param, an array of them per array param whose elements are params of their own). Given to `swap`'s `pick` instead of the params, so that it names the two to swap and cannot change any: `|p| (&mut p.x, &mut p.x_new)`. None can be made outside `swap`.
#[repr(C)]
#[allow(clippy::type_complexity)]
struct FlowSlots {
    ///Param [`step`](FlowParams::step), to swap.
    pub step: ::cudagraph_runtime::__private::Slot<
        Kernel<(ConditionalHandle, DevicePtrMut<u32>, u32)>,
    >,
    ///Param [`put`](FlowParams::put), to swap.
    pub put: ::cudagraph_runtime::__private::Slot<Kernel<(u32, DevicePtrMut<u32>)>>,
    ///Param [`pick`](FlowParams::pick), to swap.
    pub pick: ::cudagraph_runtime::__private::Slot<
        Kernel<(ConditionalHandle, DevicePtr<u32>)>,
    >,
    ///Param [`counter`](FlowParams::counter), to swap.
    pub counter: ::cudagraph_runtime::__private::Slot<DeviceBuffer<u32>>,
    ///Param [`out`](FlowParams::out), to swap.
    pub out: ::cudagraph_runtime::__private::Slot<DeviceBuffer<u32>>,
    ///Param [`choice`](FlowParams::choice), to swap.
    pub choice: ::cudagraph_runtime::__private::Slot<DeviceBuffer<u32>>,
    ///Param [`limit`](FlowParams::limit), to swap.
    pub limit: ::cudagraph_runtime::__private::Slot<u32>,
}
const _: () = {
    ::core::assert!(
        ::cudagraph_runtime::__private::offset_of!(FlowSlots, step) == 0usize
    );
    ::core::assert!(
        ::cudagraph_runtime::__private::offset_of!(FlowSlots, put) == 1usize
    );
    ::core::assert!(
        ::cudagraph_runtime::__private::offset_of!(FlowSlots, pick) == 2usize
    );
    ::core::assert!(
        ::cudagraph_runtime::__private::offset_of!(FlowSlots, counter) == 3usize
    );
    ::core::assert!(
        ::cudagraph_runtime::__private::offset_of!(FlowSlots, out) == 4usize
    );
    ::core::assert!(
        ::cudagraph_runtime::__private::offset_of!(FlowSlots, choice) == 5usize
    );
    ::core::assert!(
        ::cudagraph_runtime::__private::offset_of!(FlowSlots, limit) == 6usize
    );
    ::core::assert!(
        ::cudagraph_runtime::__private::size_of:: < FlowSlots > () == 7usize
    );
};
const _: fn(&FlowSlots, &FlowParams) = |slots, params| {
    ::cudagraph_runtime::__private::slot_of(&slots.step, &params.step);
    ::cudagraph_runtime::__private::slot_of(&slots.put, &params.put);
    ::cudagraph_runtime::__private::slot_of(&slots.pick, &params.pick);
    ::cudagraph_runtime::__private::slot_of(&slots.counter, &params.counter);
    ::cudagraph_runtime::__private::slot_of(&slots.out, &params.out);
    ::cudagraph_runtime::__private::slot_of(&slots.choice, &params.choice);
    ::cudagraph_runtime::__private::slot_of(&slots.limit, &params.limit);
};
impl ::cudagraph_runtime::__private::fmt::Debug for FlowSlots {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("FlowSlots").finish_non_exhaustive()
    }
}
unsafe impl ::cudagraph_runtime::__private::Tracked for FlowExec {
    type Params = FlowParams;
    type Slots = FlowSlots;
    const NAME: &'static ::core::primitive::str = "FlowExec";
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
        (Self::__cg_update_node_6, 0u32),
        (Self::__cg_update_node_7, 0u32),
        (Self::__cg_update_node_8, 0u32),
        (Self::__cg_update_node_9, 0u32),
        (Self::__cg_update_node_10, 0u32),
        (Self::__cg_update_node_11, 0u32),
    ];
    const READERS: &'static [(
        &'static [::core::primitive::u32],
        ::core::primitive::bool,
        ::core::primitive::bool,
    )] = &[
        (&[6u32, 11u32], false, false),
        (&[7u32, 9u32], false, false),
        (&[2u32, 4u32], false, false),
        (&[0u32, 2u32, 6u32, 11u32], false, false),
        (&[7u32, 8u32, 9u32], false, false),
        (&[4u32], false, false),
        (&[6u32], false, false),
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
    ) -> &mut FlowParams {
        &mut unsafe { self.parts.get_mut() }.state.params
    }
    #[inline(always)]
    fn applied_mut(
        &mut self,
        _: ::cudagraph_runtime::__private::Internal,
    ) -> &mut FlowParams {
        &mut unsafe { self.parts.get_mut() }.applied
    }
    fn check(&self) -> ::cudagraph_runtime::__private::Result<()> {
        Flow::__cg_check_overlaps(&self.parts.state.params)
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
impl FlowExec {
    /**Sets param `step` and updates what reads it (nodes `bump`, `c1`), one single-node update each. Returns the old value; on error, naming the node, nothing changes: the param keeps its old value and the nodes their updates (see [`FlowExec`]).
*/
    pub fn set_step(
        &mut self,
        value: Kernel<(ConditionalHandle, DevicePtrMut<u32>, u32)>,
    ) -> ::cudagraph_runtime::__private::Result<
        Kernel<(ConditionalHandle, DevicePtrMut<u32>, u32)>,
    > {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.parts.get_mut() }.state.params.step,
            value,
        );
        ::cudagraph_runtime::__private::set_param(self, 0usize).map(|_| old)
    }
    /**Sets param `put` and updates what reads it (nodes `mark_odd`, `c0`), one single-node update each. Returns the old value; on error, naming the node, nothing changes: the param keeps its old value and the nodes their updates (see [`FlowExec`]).
*/
    pub fn set_put(
        &mut self,
        value: Kernel<(u32, DevicePtrMut<u32>)>,
    ) -> ::cudagraph_runtime::__private::Result<Kernel<(u32, DevicePtrMut<u32>)>> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.parts.get_mut() }.state.params.put,
            value,
        );
        ::cudagraph_runtime::__private::set_param(self, 1usize).map(|_| old)
    }
    /**Sets param `pick` and updates what reads it (nodes `decide`, `choose`), one single-node update each. Returns the old value; on error, naming the node, nothing changes: the param keeps its old value and the nodes their updates (see [`FlowExec`]).
*/
    pub fn set_pick(
        &mut self,
        value: Kernel<(ConditionalHandle, DevicePtr<u32>)>,
    ) -> ::cudagraph_runtime::__private::Result<
        Kernel<(ConditionalHandle, DevicePtr<u32>)>,
    > {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.parts.get_mut() }.state.params.pick,
            value,
        );
        ::cudagraph_runtime::__private::set_param(self, 2usize).map(|_| old)
    }
    /**Sets param `counter` and updates what reads it (nodes `reset`, `decide`, `bump`, `c1`), one single-node update each. Returns the old value; on error, naming the node, nothing changes: the param keeps its old value and the nodes their updates (see [`FlowExec`]).
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
    /**Sets param `out` and updates what reads it (nodes `mark_odd`, `mark_even`, `c0`), one single-node update each. Returns the old value; on error, naming the node, nothing changes: the param keeps its old value and the nodes their updates (see [`FlowExec`]).
*/
    pub fn set_out(
        &mut self,
        value: DeviceBuffer<u32>,
    ) -> ::cudagraph_runtime::__private::Result<DeviceBuffer<u32>> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.parts.get_mut() }.state.params.out,
            value,
        );
        ::cudagraph_runtime::__private::set_param(self, 4usize).map(|_| old)
    }
    /**Sets param `choice` and updates what reads it (node `choose`), one single-node update each. Returns the old value; on error, naming the node, nothing changes: the param keeps its old value and the nodes their updates (see [`FlowExec`]).
*/
    pub fn set_choice(
        &mut self,
        value: DeviceBuffer<u32>,
    ) -> ::cudagraph_runtime::__private::Result<DeviceBuffer<u32>> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.parts.get_mut() }.state.params.choice,
            value,
        );
        {
            let commit = |exec: &mut Self| {
                let __cg_parts = unsafe { exec.parts.get_mut() };
                __cg_parts.applied.choice = <DeviceBuffer<
                    u32,
                > as ::cudagraph_runtime::__private::ParamValue>::keep(
                    &__cg_parts.state.params.choice,
                );
            };
            unsafe {
                ::cudagraph_runtime::__private::set_sole_reader(
                    self,
                    5usize,
                    4usize,
                    (Self::__cg_update_node_4, 0usize),
                    commit,
                )
            }
        }
            .map(|_| old)
    }
    /**Sets param `limit` and updates what reads it (node `bump`), one single-node update each. Returns the old value; on error, naming the node, nothing changes: the param keeps its old value and the nodes their updates (see [`FlowExec`]).
*/
    pub fn set_limit(
        &mut self,
        value: u32,
    ) -> ::cudagraph_runtime::__private::Result<u32> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.parts.get_mut() }.state.params.limit,
            value,
        );
        {
            let commit = |exec: &mut Self| {
                let __cg_parts = unsafe { exec.parts.get_mut() };
                __cg_parts.applied.limit = <u32 as ::cudagraph_runtime::__private::ParamValue>::keep(
                    &__cg_parts.state.params.limit,
                );
            };
            unsafe {
                ::cudagraph_runtime::__private::set_sole_reader(
                    self,
                    6usize,
                    6usize,
                    (Self::__cg_update_node_6, 0usize),
                    commit,
                )
            }
        }
            .map(|_| old)
    }
    /**Swaps two params of one type, named by `pick` (`exec.swap(|p| (&mut p.x, &mut p.x_new))?`), and updates the nodes that read them, each once, before it returns: the ping-pong buffers of an iteration swapped between launches in one call. Returns how many nodes it updated. `pick` is given the params' slots ([`FlowSlots`]), not their values: it names two params and changes none. As [`FlowParamsMut::swap`] followed by `apply`: all or nothing (a refused update is reported, naming its node, and the swap undone), any other change pending applied with it.

Swapping two buffers the executable holds (a ping-pong) registers and releases nothing: the swap costs its readers' driver calls and the update of their records of memory.

# Errors

The error of the update that refused the swap, naming its node (a kernel's launch check, a driver error, two nodes that would race): the swap is undone.*/
    pub fn swap<S: ::cudagraph_runtime::__private::Pick>(
        &mut self,
        pick: impl FnOnce(&mut FlowSlots) -> (&mut S, &mut S),
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
        let __cg_params: &FlowParams = &__cg_parts.state.params;
        __cg_parts
            .exec
            .set_memset_params(
                __cg_parts.nodes.reset,
                Flow::__cg_eval_reset(__cg_params),
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
        let __cg_params: &FlowParams = &__cg_parts.state.params;
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
        let __cg_params: &FlowParams = &__cg_parts.state.params;
        let (kernel, config, args) = Flow::__cg_eval_decide(
            __cg_params,
            __cg_parts.nodes.odd,
        );
        __cg_parts.exec.set_kernel(__cg_parts.nodes.decide, kernel, config, args)?;
        __cg_parts.state.launch.decide = config;
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
        let __cg_params: &FlowParams = &__cg_parts.state.params;
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
        let __cg_params: &FlowParams = &__cg_parts.state.params;
        let (kernel, config, args) = Flow::__cg_eval_choose(
            __cg_params,
            __cg_parts.nodes.case,
        );
        __cg_parts.exec.set_kernel(__cg_parts.nodes.choose, kernel, config, args)?;
        __cg_parts.state.launch.choose = config;
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline(never)]
    #[allow(unused_variables)]
    fn __cg_update_node_5(
        &mut self,
        index: ::core::primitive::usize,
        _: ::cudagraph_runtime::__private::Internal,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.parts.get_mut() };
        let __cg_params: &FlowParams = &__cg_parts.state.params;
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline(never)]
    #[allow(unused_variables)]
    fn __cg_update_node_6(
        &mut self,
        index: ::core::primitive::usize,
        _: ::cudagraph_runtime::__private::Internal,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.parts.get_mut() };
        let __cg_params: &FlowParams = &__cg_parts.state.params;
        let (kernel, config, args) = Flow::__cg_eval_bump(
            __cg_params,
            __cg_parts.nodes.more,
        );
        __cg_parts.exec.set_kernel(__cg_parts.nodes.bump, kernel, config, args)?;
        __cg_parts.state.launch.bump = config;
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline(never)]
    #[allow(unused_variables)]
    fn __cg_update_node_7(
        &mut self,
        index: ::core::primitive::usize,
        _: ::cudagraph_runtime::__private::Internal,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.parts.get_mut() };
        let __cg_params: &FlowParams = &__cg_parts.state.params;
        let (kernel, config, args) = Flow::__cg_eval_mark_odd(__cg_params);
        __cg_parts.exec.set_kernel(__cg_parts.nodes.mark_odd, kernel, config, args)?;
        __cg_parts.state.launch.mark_odd = config;
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline(never)]
    #[allow(unused_variables)]
    fn __cg_update_node_8(
        &mut self,
        index: ::core::primitive::usize,
        _: ::cudagraph_runtime::__private::Internal,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.parts.get_mut() };
        let __cg_params: &FlowParams = &__cg_parts.state.params;
        __cg_parts
            .exec
            .set_memset_params(
                __cg_parts.nodes.mark_even,
                Flow::__cg_eval_mark_even(__cg_params),
            )?;
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline(never)]
    #[allow(unused_variables)]
    fn __cg_update_node_9(
        &mut self,
        index: ::core::primitive::usize,
        _: ::cudagraph_runtime::__private::Internal,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.parts.get_mut() };
        let __cg_params: &FlowParams = &__cg_parts.state.params;
        let (kernel, config, args) = Flow::__cg_eval_c0(__cg_params);
        __cg_parts.exec.set_kernel(__cg_parts.nodes.c0, kernel, config, args)?;
        __cg_parts.state.launch.c0 = config;
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline(never)]
    #[allow(unused_variables)]
    fn __cg_update_node_10(
        &mut self,
        index: ::core::primitive::usize,
        _: ::cudagraph_runtime::__private::Internal,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.parts.get_mut() };
        let __cg_params: &FlowParams = &__cg_parts.state.params;
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline(never)]
    #[allow(unused_variables)]
    fn __cg_update_node_11(
        &mut self,
        index: ::core::primitive::usize,
        _: ::cudagraph_runtime::__private::Internal,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.parts.get_mut() };
        let __cg_params: &FlowParams = &__cg_parts.state.params;
        let (kernel, config, args) = Flow::__cg_eval_c1(
            __cg_params,
            __cg_parts.nodes.again,
        );
        __cg_parts.exec.set_kernel(__cg_parts.nodes.c1, kernel, config, args)?;
        __cg_parts.state.launch.c1 = config;
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline]
    fn __cg_slot_offset_0(slot: ::core::primitive::usize) -> ::core::primitive::usize {
        match slot {
            0usize => ::cudagraph_runtime::__private::offset_of!(FlowParams, step),
            1usize => ::cudagraph_runtime::__private::offset_of!(FlowParams, put),
            2usize => ::cudagraph_runtime::__private::offset_of!(FlowParams, pick),
            3usize => ::cudagraph_runtime::__private::offset_of!(FlowParams, counter),
            4usize => ::cudagraph_runtime::__private::offset_of!(FlowParams, out),
            5usize => ::cudagraph_runtime::__private::offset_of!(FlowParams, choice),
            6usize => ::cudagraph_runtime::__private::offset_of!(FlowParams, limit),
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
                        (ConditionalHandle, DevicePtrMut<u32>, u32),
                    > as ::cudagraph_runtime::__private::KernelType>::keep(
                        &__cg_parts.state.params.step,
                    );
                } else {
                    __cg_parts.state.params.step = <Kernel<
                        (ConditionalHandle, DevicePtrMut<u32>, u32),
                    > as ::cudagraph_runtime::__private::KernelType>::keep(
                        &__cg_parts.applied.step,
                    );
                }
            }
            1usize => {
                if commit {
                    __cg_parts.applied.put = <Kernel<
                        (u32, DevicePtrMut<u32>),
                    > as ::cudagraph_runtime::__private::KernelType>::keep(
                        &__cg_parts.state.params.put,
                    );
                } else {
                    __cg_parts.state.params.put = <Kernel<
                        (u32, DevicePtrMut<u32>),
                    > as ::cudagraph_runtime::__private::KernelType>::keep(
                        &__cg_parts.applied.put,
                    );
                }
            }
            2usize => {
                if commit {
                    __cg_parts.applied.pick = <Kernel<
                        (ConditionalHandle, DevicePtr<u32>),
                    > as ::cudagraph_runtime::__private::KernelType>::keep(
                        &__cg_parts.state.params.pick,
                    );
                } else {
                    __cg_parts.state.params.pick = <Kernel<
                        (ConditionalHandle, DevicePtr<u32>),
                    > as ::cudagraph_runtime::__private::KernelType>::keep(
                        &__cg_parts.applied.pick,
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
                    __cg_parts.applied.out = <DeviceBuffer<
                        u32,
                    > as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_parts.state.params.out,
                    );
                } else {
                    __cg_parts.state.params.out = <DeviceBuffer<
                        u32,
                    > as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_parts.applied.out,
                    );
                }
            }
            5usize => {
                if commit {
                    __cg_parts.applied.choice = <DeviceBuffer<
                        u32,
                    > as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_parts.state.params.choice,
                    );
                } else {
                    __cg_parts.state.params.choice = <DeviceBuffer<
                        u32,
                    > as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_parts.applied.choice,
                    );
                }
            }
            6usize => {
                if commit {
                    __cg_parts.applied.limit = <u32 as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_parts.state.params.limit,
                    );
                } else {
                    __cg_parts.state.params.limit = <u32 as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_parts.applied.limit,
                    );
                }
            }
            _ => {}
        }
    }
}
/**Changes to the params of a [`FlowExec`], several at once ([`FlowExec::params_mut`]). It reads as the params (`Deref`); `set_<param>` and [`swap`](Self::swap) change them and mark the nodes that read them, and [`apply`](Self::apply) updates those nodes, each once however many of its params changed. A guard dropped without `apply` leaves the changes to the executable's next launch, which applies them first: a change cannot be forgotten. An update that fails is the error of that `apply` or launch, naming the node (the launch launches nothing), and undoes the changes: the params and the nodes are as they were before them.

```text
let mut p = exec.params_mut();
p.set_n(n);                         // its readers are updated once,
p.set_scale(0.5);                   // even those reading both
p.swap(|p| (&mut p.x, &mut p.x_new))?;
p.apply()?;                         // or: the next exec.launch(&stream)
```*/
#[must_use = "changes made through the guard are applied by `apply`, or by the next launch"]
struct FlowParamsMut<'a> {
    exec: &'a mut FlowExec,
}
impl ::cudagraph_runtime::__private::Deref for FlowParamsMut<'_> {
    type Target = FlowParams;
    fn deref(&self) -> &FlowParams {
        &self.exec.parts.state.params
    }
}
#[allow(clippy::type_complexity)]
impl FlowParamsMut<'_> {
    ///Sets param `step`, and marks what reads it (nodes `bump`, `c1`) for the guard's [`apply`](Self::apply), or the executable's next launch. Returns the old value.
    #[inline]
    pub fn set_step(
        &mut self,
        value: Kernel<(ConditionalHandle, DevicePtrMut<u32>, u32)>,
    ) -> Kernel<(ConditionalHandle, DevicePtrMut<u32>, u32)> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.exec.parts.get_mut() }.state.params.step,
            value,
        );
        ::cudagraph_runtime::__private::stage(self.exec, 0usize);
        old
    }
    ///Sets param `put`, and marks what reads it (nodes `mark_odd`, `c0`) for the guard's [`apply`](Self::apply), or the executable's next launch. Returns the old value.
    #[inline]
    pub fn set_put(
        &mut self,
        value: Kernel<(u32, DevicePtrMut<u32>)>,
    ) -> Kernel<(u32, DevicePtrMut<u32>)> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.exec.parts.get_mut() }.state.params.put,
            value,
        );
        ::cudagraph_runtime::__private::stage(self.exec, 1usize);
        old
    }
    ///Sets param `pick`, and marks what reads it (nodes `decide`, `choose`) for the guard's [`apply`](Self::apply), or the executable's next launch. Returns the old value.
    #[inline]
    pub fn set_pick(
        &mut self,
        value: Kernel<(ConditionalHandle, DevicePtr<u32>)>,
    ) -> Kernel<(ConditionalHandle, DevicePtr<u32>)> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.exec.parts.get_mut() }.state.params.pick,
            value,
        );
        ::cudagraph_runtime::__private::stage(self.exec, 2usize);
        old
    }
    ///Sets param `counter`, and marks what reads it (nodes `reset`, `decide`, `bump`, `c1`) for the guard's [`apply`](Self::apply), or the executable's next launch. Returns the old value.
    #[inline]
    pub fn set_counter(&mut self, value: DeviceBuffer<u32>) -> DeviceBuffer<u32> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.exec.parts.get_mut() }.state.params.counter,
            value,
        );
        ::cudagraph_runtime::__private::stage(self.exec, 3usize);
        old
    }
    ///Sets param `out`, and marks what reads it (nodes `mark_odd`, `mark_even`, `c0`) for the guard's [`apply`](Self::apply), or the executable's next launch. Returns the old value.
    #[inline]
    pub fn set_out(&mut self, value: DeviceBuffer<u32>) -> DeviceBuffer<u32> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.exec.parts.get_mut() }.state.params.out,
            value,
        );
        ::cudagraph_runtime::__private::stage(self.exec, 4usize);
        old
    }
    ///Sets param `choice`, and marks what reads it (node `choose`) for the guard's [`apply`](Self::apply), or the executable's next launch. Returns the old value.
    #[inline]
    pub fn set_choice(&mut self, value: DeviceBuffer<u32>) -> DeviceBuffer<u32> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.exec.parts.get_mut() }.state.params.choice,
            value,
        );
        unsafe {
            ::cudagraph_runtime::__private::stage_sole_reader(self.exec, 5usize, 4usize)
        };
        old
    }
    ///Sets param `limit`, and marks what reads it (node `bump`) for the guard's [`apply`](Self::apply), or the executable's next launch. Returns the old value.
    #[inline]
    pub fn set_limit(&mut self, value: u32) -> u32 {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.exec.parts.get_mut() }.state.params.limit,
            value,
        );
        unsafe {
            ::cudagraph_runtime::__private::stage_sole_reader(self.exec, 6usize, 6usize)
        };
        old
    }
    /**Swaps two params of one type, named by `pick` (`p.swap(|p| (&mut p.x, &mut p.x_new))`), and marks the nodes that read them. `pick` is given the params' slots ([`FlowSlots`]), not their values: it names two params and changes none, so that the swap is the only change, and the tracker knows it. The slots of an array param are its elements' (`|p| (&mut p.w[0], &mut p.w[1])`); two arrays of slots (two array params, or runs of elements) are swapped element by element.

Never refused for slots of the struct `pick` is given (its signature allows no other).*/
    pub fn swap<S: ::cudagraph_runtime::__private::Pick>(
        &mut self,
        pick: impl FnOnce(&mut FlowSlots) -> (&mut S, &mut S),
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
impl ::cudagraph_runtime::__private::fmt::Debug for FlowParamsMut<'_> {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("FlowParamsMut").finish_non_exhaustive()
    }
}
/**Update handle of node `reset` of [`FlowExec`] (`memset(counter, 0u32)`): its destination and value can change (1-D only), and it can be enabled or disabled ([what CUDA allows](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#individual-node-update)).

Memory given through the handle is not judged by the race rule, which judges the declaration's params: it must not be memory that a node no edge orders with this one uses, one of them writing it (host memory that host code uses is checked: `Error::Hazard`). A change of a param the node reads, or `set_params`, sets the node back to its params.*/
struct FlowResetNode<'a> {
    exec: &'a mut FlowExec,
}
impl<'a> FlowResetNode<'a> {
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
                __cg_parts.nodes.reset,
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
        __cg_parts.exec.set_enabled(__cg_parts.nodes.reset, enabled)
    }
    /// Whether the node is enabled (`cuGraphNodeGetEnabled`).
    pub fn is_enabled(
        &self,
    ) -> ::cudagraph_runtime::__private::Result<::core::primitive::bool> {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.exec.is_enabled(__cg_parts.nodes.reset)
    }
    /// The node's runtime handle, for the runtime's own API.
    pub fn node(
        &self,
    ) -> ::cudagraph_runtime::__private::MemsetNode<
        <DeviceBuffer<u32> as ::cudagraph_runtime::__private::MemsetTarget>::Pattern,
    > {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.nodes.reset
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for FlowResetNode<'_> {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("FlowResetNode").field("index", &0usize).finish_non_exhaustive()
    }
}
///Update handle of node `count` of [`FlowExec`] (`while more(default = 1) { .. }`): nothing about it can change (CUDA updates a conditional node only through its bodies' nodes, which have handles of their own) ([what CUDA allows](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#individual-node-update)).
struct FlowCountNode<'a> {
    exec: &'a mut FlowExec,
}
impl<'a> FlowCountNode<'a> {
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
        __cg_parts.nodes.count
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for FlowCountNode<'_> {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("FlowCountNode").field("index", &1usize).finish_non_exhaustive()
    }
}
/**Update handle of node `decide` of [`FlowExec`] (`kernel pick<<<1, 32>>>(odd, counter)`): its arguments and launch configuration can change, and it can be enabled or disabled ([what CUDA allows](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#individual-node-update)).

Memory given through the handle is not judged by the race rule, which judges the declaration's params: it must not be memory that a node no edge orders with this one uses, one of them writing it (host memory that host code uses is checked: `Error::Hazard`). A change of a param the node reads, or `set_params`, sets the node back to its params.*/
struct FlowDecideNode<'a> {
    exec: &'a mut FlowExec,
}
impl<'a> FlowDecideNode<'a> {
    ///Sets the kernel's arguments for the next launches, keeping the node's launch configuration (`cuGraphExecKernelNodeSetParams`). Memory the node stops using is released once the launches that may use it are done.
    pub fn set(
        &mut self,
        odd: impl ::cudagraph_runtime::__private::KernelArg<'static, ConditionalHandle>,
        counter: impl ::cudagraph_runtime::__private::KernelArg<'static, DevicePtr<u32>>,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = self.exec.parts.get();
        let config = __cg_parts.state.launch.decide;
        self.set_launch(config, odd, counter)
    }
    ///Sets the launch configuration and the kernel's arguments for the next launches (`cuGraphExecKernelNodeSetParams`).
    pub fn set_launch(
        &mut self,
        config: ::cudagraph_runtime::__private::LaunchConfig,
        odd: impl ::cudagraph_runtime::__private::KernelArg<'static, ConditionalHandle>,
        counter: impl ::cudagraph_runtime::__private::KernelArg<'static, DevicePtr<u32>>,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.exec.parts.get_mut() };
        __cg_parts
            .exec
            .set_kernel_params(__cg_parts.nodes.decide, config, (odd, counter))?;
        __cg_parts.state.launch.decide = config;
        __cg_parts.tracker.set_by_handle(2usize);
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    /// The node's launch configuration now.
    pub fn launch_config(&self) -> ::cudagraph_runtime::__private::LaunchConfig {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.state.launch.decide
    }
    /// Enables or disables the node for the next launches (`cuGraphNodeSetEnabled`). A
    /// disabled node acts as an empty node; params set meanwhile apply once it is enabled.
    pub fn set_enabled(
        &mut self,
        enabled: ::core::primitive::bool,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.exec.parts.get_mut() };
        __cg_parts.exec.set_enabled(__cg_parts.nodes.decide, enabled)
    }
    /// Whether the node is enabled (`cuGraphNodeGetEnabled`).
    pub fn is_enabled(
        &self,
    ) -> ::cudagraph_runtime::__private::Result<::core::primitive::bool> {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.exec.is_enabled(__cg_parts.nodes.decide)
    }
    /// The node's runtime handle, for the runtime's own API.
    pub fn node(
        &self,
    ) -> ::cudagraph_runtime::__private::KernelNode<
        (ConditionalHandle, DevicePtr<u32>),
    > {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.nodes.decide
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for FlowDecideNode<'_> {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("FlowDecideNode").field("index", &2usize).finish_non_exhaustive()
    }
}
///Update handle of node `branch` of [`FlowExec`] (`if odd { .. } else { .. }`): nothing about it can change (CUDA updates a conditional node only through its bodies' nodes, which have handles of their own) ([what CUDA allows](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#individual-node-update)).
struct FlowBranchNode<'a> {
    exec: &'a mut FlowExec,
}
impl<'a> FlowBranchNode<'a> {
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
        __cg_parts.nodes.branch
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for FlowBranchNode<'_> {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("FlowBranchNode").field("index", &3usize).finish_non_exhaustive()
    }
}
/**Update handle of node `choose` of [`FlowExec`] (`kernel pick<<<1, 32>>>(case, choice)`): its arguments and launch configuration can change, and it can be enabled or disabled ([what CUDA allows](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#individual-node-update)).

Memory given through the handle is not judged by the race rule, which judges the declaration's params: it must not be memory that a node no edge orders with this one uses, one of them writing it (host memory that host code uses is checked: `Error::Hazard`). A change of a param the node reads, or `set_params`, sets the node back to its params.*/
struct FlowChooseNode<'a> {
    exec: &'a mut FlowExec,
}
impl<'a> FlowChooseNode<'a> {
    ///Sets the kernel's arguments for the next launches, keeping the node's launch configuration (`cuGraphExecKernelNodeSetParams`). Memory the node stops using is released once the launches that may use it are done.
    pub fn set(
        &mut self,
        case: impl ::cudagraph_runtime::__private::KernelArg<'static, ConditionalHandle>,
        choice: impl ::cudagraph_runtime::__private::KernelArg<'static, DevicePtr<u32>>,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = self.exec.parts.get();
        let config = __cg_parts.state.launch.choose;
        self.set_launch(config, case, choice)
    }
    ///Sets the launch configuration and the kernel's arguments for the next launches (`cuGraphExecKernelNodeSetParams`).
    pub fn set_launch(
        &mut self,
        config: ::cudagraph_runtime::__private::LaunchConfig,
        case: impl ::cudagraph_runtime::__private::KernelArg<'static, ConditionalHandle>,
        choice: impl ::cudagraph_runtime::__private::KernelArg<'static, DevicePtr<u32>>,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.exec.parts.get_mut() };
        __cg_parts
            .exec
            .set_kernel_params(__cg_parts.nodes.choose, config, (case, choice))?;
        __cg_parts.state.launch.choose = config;
        __cg_parts.tracker.set_by_handle(4usize);
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    /// The node's launch configuration now.
    pub fn launch_config(&self) -> ::cudagraph_runtime::__private::LaunchConfig {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.state.launch.choose
    }
    /// Enables or disables the node for the next launches (`cuGraphNodeSetEnabled`). A
    /// disabled node acts as an empty node; params set meanwhile apply once it is enabled.
    pub fn set_enabled(
        &mut self,
        enabled: ::core::primitive::bool,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.exec.parts.get_mut() };
        __cg_parts.exec.set_enabled(__cg_parts.nodes.choose, enabled)
    }
    /// Whether the node is enabled (`cuGraphNodeGetEnabled`).
    pub fn is_enabled(
        &self,
    ) -> ::cudagraph_runtime::__private::Result<::core::primitive::bool> {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.exec.is_enabled(__cg_parts.nodes.choose)
    }
    /// The node's runtime handle, for the runtime's own API.
    pub fn node(
        &self,
    ) -> ::cudagraph_runtime::__private::KernelNode<
        (ConditionalHandle, DevicePtr<u32>),
    > {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.nodes.choose
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for FlowChooseNode<'_> {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("FlowChooseNode").field("index", &4usize).finish_non_exhaustive()
    }
}
///Update handle of node `select` of [`FlowExec`] (`switch case { 2 cases }`): nothing about it can change (CUDA updates a conditional node only through its bodies' nodes, which have handles of their own) ([what CUDA allows](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#individual-node-update)).
struct FlowSelectNode<'a> {
    exec: &'a mut FlowExec,
}
impl<'a> FlowSelectNode<'a> {
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
        __cg_parts.nodes.select
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for FlowSelectNode<'_> {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("FlowSelectNode").field("index", &5usize).finish_non_exhaustive()
    }
}
/**Update handle of node `bump` of [`FlowExec`] (`kernel step<<<1, 32>>>(more, counter, limit)`): its arguments and launch configuration can change, and it can be enabled or disabled ([what CUDA allows](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#individual-node-update)).

Memory given through the handle is not judged by the race rule, which judges the declaration's params: it must not be memory that a node no edge orders with this one uses, one of them writing it (host memory that host code uses is checked: `Error::Hazard`). A change of a param the node reads, or `set_params`, sets the node back to its params.*/
struct FlowBumpNode<'a> {
    exec: &'a mut FlowExec,
}
impl<'a> FlowBumpNode<'a> {
    ///Sets the kernel's arguments for the next launches, keeping the node's launch configuration (`cuGraphExecKernelNodeSetParams`). Memory the node stops using is released once the launches that may use it are done.
    pub fn set(
        &mut self,
        more: impl ::cudagraph_runtime::__private::KernelArg<'static, ConditionalHandle>,
        counter: impl ::cudagraph_runtime::__private::KernelArg<
            'static,
            DevicePtrMut<u32>,
        >,
        limit: impl ::cudagraph_runtime::__private::KernelArg<'static, u32>,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = self.exec.parts.get();
        let config = __cg_parts.state.launch.bump;
        self.set_launch(config, more, counter, limit)
    }
    ///Sets the launch configuration and the kernel's arguments for the next launches (`cuGraphExecKernelNodeSetParams`).
    pub fn set_launch(
        &mut self,
        config: ::cudagraph_runtime::__private::LaunchConfig,
        more: impl ::cudagraph_runtime::__private::KernelArg<'static, ConditionalHandle>,
        counter: impl ::cudagraph_runtime::__private::KernelArg<
            'static,
            DevicePtrMut<u32>,
        >,
        limit: impl ::cudagraph_runtime::__private::KernelArg<'static, u32>,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.exec.parts.get_mut() };
        __cg_parts
            .exec
            .set_kernel_params(__cg_parts.nodes.bump, config, (more, counter, limit))?;
        __cg_parts.state.launch.bump = config;
        __cg_parts.tracker.set_by_handle(6usize);
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
    ) -> ::cudagraph_runtime::__private::KernelNode<
        (ConditionalHandle, DevicePtrMut<u32>, u32),
    > {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.nodes.bump
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for FlowBumpNode<'_> {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("FlowBumpNode").field("index", &6usize).finish_non_exhaustive()
    }
}
/**Update handle of node `mark_odd` of [`FlowExec`] (`kernel put<<<1, 32>>>(1, out)`): its arguments and launch configuration can change, and it can be enabled or disabled ([what CUDA allows](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#individual-node-update)).

Memory given through the handle is not judged by the race rule, which judges the declaration's params: it must not be memory that a node no edge orders with this one uses, one of them writing it (host memory that host code uses is checked: `Error::Hazard`). A change of a param the node reads, or `set_params`, sets the node back to its params.*/
struct FlowMarkOddNode<'a> {
    exec: &'a mut FlowExec,
}
impl<'a> FlowMarkOddNode<'a> {
    ///Sets the kernel's arguments for the next launches, keeping the node's launch configuration (`cuGraphExecKernelNodeSetParams`). Memory the node stops using is released once the launches that may use it are done.
    pub fn set(
        &mut self,
        arg0: impl ::cudagraph_runtime::__private::KernelArg<'static, u32>,
        out: impl ::cudagraph_runtime::__private::KernelArg<'static, DevicePtrMut<u32>>,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = self.exec.parts.get();
        let config = __cg_parts.state.launch.mark_odd;
        self.set_launch(config, arg0, out)
    }
    ///Sets the launch configuration and the kernel's arguments for the next launches (`cuGraphExecKernelNodeSetParams`).
    pub fn set_launch(
        &mut self,
        config: ::cudagraph_runtime::__private::LaunchConfig,
        arg0: impl ::cudagraph_runtime::__private::KernelArg<'static, u32>,
        out: impl ::cudagraph_runtime::__private::KernelArg<'static, DevicePtrMut<u32>>,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.exec.parts.get_mut() };
        __cg_parts
            .exec
            .set_kernel_params(__cg_parts.nodes.mark_odd, config, (arg0, out))?;
        __cg_parts.state.launch.mark_odd = config;
        __cg_parts.tracker.set_by_handle(7usize);
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    /// The node's launch configuration now.
    pub fn launch_config(&self) -> ::cudagraph_runtime::__private::LaunchConfig {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.state.launch.mark_odd
    }
    /// Enables or disables the node for the next launches (`cuGraphNodeSetEnabled`). A
    /// disabled node acts as an empty node; params set meanwhile apply once it is enabled.
    pub fn set_enabled(
        &mut self,
        enabled: ::core::primitive::bool,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.exec.parts.get_mut() };
        __cg_parts.exec.set_enabled(__cg_parts.nodes.mark_odd, enabled)
    }
    /// Whether the node is enabled (`cuGraphNodeGetEnabled`).
    pub fn is_enabled(
        &self,
    ) -> ::cudagraph_runtime::__private::Result<::core::primitive::bool> {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.exec.is_enabled(__cg_parts.nodes.mark_odd)
    }
    /// The node's runtime handle, for the runtime's own API.
    pub fn node(
        &self,
    ) -> ::cudagraph_runtime::__private::KernelNode<(u32, DevicePtrMut<u32>)> {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.nodes.mark_odd
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for FlowMarkOddNode<'_> {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("FlowMarkOddNode").field("index", &7usize).finish_non_exhaustive()
    }
}
/**Update handle of node `mark_even` of [`FlowExec`] (`memset(out, 0u32)`): its destination and value can change (1-D only), and it can be enabled or disabled ([what CUDA allows](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#individual-node-update)).

Memory given through the handle is not judged by the race rule, which judges the declaration's params: it must not be memory that a node no edge orders with this one uses, one of them writing it (host memory that host code uses is checked: `Error::Hazard`). A change of a param the node reads, or `set_params`, sets the node back to its params.*/
struct FlowMarkEvenNode<'a> {
    exec: &'a mut FlowExec,
}
impl<'a> FlowMarkEvenNode<'a> {
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
                __cg_parts.nodes.mark_even,
                ::cudagraph_runtime::__private::MemsetAs::memset_as(dst, value),
            )?;
        __cg_parts.tracker.set_by_handle(8usize);
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
        __cg_parts.exec.set_enabled(__cg_parts.nodes.mark_even, enabled)
    }
    /// Whether the node is enabled (`cuGraphNodeGetEnabled`).
    pub fn is_enabled(
        &self,
    ) -> ::cudagraph_runtime::__private::Result<::core::primitive::bool> {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.exec.is_enabled(__cg_parts.nodes.mark_even)
    }
    /// The node's runtime handle, for the runtime's own API.
    pub fn node(
        &self,
    ) -> ::cudagraph_runtime::__private::MemsetNode<
        <DeviceBuffer<u32> as ::cudagraph_runtime::__private::MemsetTarget>::Pattern,
    > {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.nodes.mark_even
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for FlowMarkEvenNode<'_> {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("FlowMarkEvenNode")
            .field("index", &8usize)
            .finish_non_exhaustive()
    }
}
/**Update handle of node `c0` of [`FlowExec`] (`kernel put<<<1, 32>>>(100, out)`): its arguments and launch configuration can change, and it can be enabled or disabled ([what CUDA allows](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#individual-node-update)).

Memory given through the handle is not judged by the race rule, which judges the declaration's params: it must not be memory that a node no edge orders with this one uses, one of them writing it (host memory that host code uses is checked: `Error::Hazard`). A change of a param the node reads, or `set_params`, sets the node back to its params.*/
struct FlowC0Node<'a> {
    exec: &'a mut FlowExec,
}
impl<'a> FlowC0Node<'a> {
    ///Sets the kernel's arguments for the next launches, keeping the node's launch configuration (`cuGraphExecKernelNodeSetParams`). Memory the node stops using is released once the launches that may use it are done.
    pub fn set(
        &mut self,
        arg0: impl ::cudagraph_runtime::__private::KernelArg<'static, u32>,
        out: impl ::cudagraph_runtime::__private::KernelArg<'static, DevicePtrMut<u32>>,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = self.exec.parts.get();
        let config = __cg_parts.state.launch.c0;
        self.set_launch(config, arg0, out)
    }
    ///Sets the launch configuration and the kernel's arguments for the next launches (`cuGraphExecKernelNodeSetParams`).
    pub fn set_launch(
        &mut self,
        config: ::cudagraph_runtime::__private::LaunchConfig,
        arg0: impl ::cudagraph_runtime::__private::KernelArg<'static, u32>,
        out: impl ::cudagraph_runtime::__private::KernelArg<'static, DevicePtrMut<u32>>,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.exec.parts.get_mut() };
        __cg_parts.exec.set_kernel_params(__cg_parts.nodes.c0, config, (arg0, out))?;
        __cg_parts.state.launch.c0 = config;
        __cg_parts.tracker.set_by_handle(9usize);
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    /// The node's launch configuration now.
    pub fn launch_config(&self) -> ::cudagraph_runtime::__private::LaunchConfig {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.state.launch.c0
    }
    /// Enables or disables the node for the next launches (`cuGraphNodeSetEnabled`). A
    /// disabled node acts as an empty node; params set meanwhile apply once it is enabled.
    pub fn set_enabled(
        &mut self,
        enabled: ::core::primitive::bool,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.exec.parts.get_mut() };
        __cg_parts.exec.set_enabled(__cg_parts.nodes.c0, enabled)
    }
    /// Whether the node is enabled (`cuGraphNodeGetEnabled`).
    pub fn is_enabled(
        &self,
    ) -> ::cudagraph_runtime::__private::Result<::core::primitive::bool> {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.exec.is_enabled(__cg_parts.nodes.c0)
    }
    /// The node's runtime handle, for the runtime's own API.
    pub fn node(
        &self,
    ) -> ::cudagraph_runtime::__private::KernelNode<(u32, DevicePtrMut<u32>)> {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.nodes.c0
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for FlowC0Node<'_> {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("FlowC0Node").field("index", &9usize).finish_non_exhaustive()
    }
}
///Update handle of node `inner` of [`FlowExec`] (`while again(default = 1) { .. }`): nothing about it can change (CUDA updates a conditional node only through its bodies' nodes, which have handles of their own) ([what CUDA allows](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#individual-node-update)).
struct FlowInnerNode<'a> {
    exec: &'a mut FlowExec,
}
impl<'a> FlowInnerNode<'a> {
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
        __cg_parts.nodes.inner
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for FlowInnerNode<'_> {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("FlowInnerNode").field("index", &10usize).finish_non_exhaustive()
    }
}
/**Update handle of node `c1` of [`FlowExec`] (`kernel step<<<1, 32>>>(again, counter, 7)`): its arguments and launch configuration can change, and it can be enabled or disabled ([what CUDA allows](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#individual-node-update)).

Memory given through the handle is not judged by the race rule, which judges the declaration's params: it must not be memory that a node no edge orders with this one uses, one of them writing it (host memory that host code uses is checked: `Error::Hazard`). A change of a param the node reads, or `set_params`, sets the node back to its params.*/
struct FlowC1Node<'a> {
    exec: &'a mut FlowExec,
}
impl<'a> FlowC1Node<'a> {
    ///Sets the kernel's arguments for the next launches, keeping the node's launch configuration (`cuGraphExecKernelNodeSetParams`). Memory the node stops using is released once the launches that may use it are done.
    pub fn set(
        &mut self,
        again: impl ::cudagraph_runtime::__private::KernelArg<
            'static,
            ConditionalHandle,
        >,
        counter: impl ::cudagraph_runtime::__private::KernelArg<
            'static,
            DevicePtrMut<u32>,
        >,
        arg2: impl ::cudagraph_runtime::__private::KernelArg<'static, u32>,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = self.exec.parts.get();
        let config = __cg_parts.state.launch.c1;
        self.set_launch(config, again, counter, arg2)
    }
    ///Sets the launch configuration and the kernel's arguments for the next launches (`cuGraphExecKernelNodeSetParams`).
    pub fn set_launch(
        &mut self,
        config: ::cudagraph_runtime::__private::LaunchConfig,
        again: impl ::cudagraph_runtime::__private::KernelArg<
            'static,
            ConditionalHandle,
        >,
        counter: impl ::cudagraph_runtime::__private::KernelArg<
            'static,
            DevicePtrMut<u32>,
        >,
        arg2: impl ::cudagraph_runtime::__private::KernelArg<'static, u32>,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.exec.parts.get_mut() };
        __cg_parts
            .exec
            .set_kernel_params(__cg_parts.nodes.c1, config, (again, counter, arg2))?;
        __cg_parts.state.launch.c1 = config;
        __cg_parts.tracker.set_by_handle(11usize);
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    /// The node's launch configuration now.
    pub fn launch_config(&self) -> ::cudagraph_runtime::__private::LaunchConfig {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.state.launch.c1
    }
    /// Enables or disables the node for the next launches (`cuGraphNodeSetEnabled`). A
    /// disabled node acts as an empty node; params set meanwhile apply once it is enabled.
    pub fn set_enabled(
        &mut self,
        enabled: ::core::primitive::bool,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.exec.parts.get_mut() };
        __cg_parts.exec.set_enabled(__cg_parts.nodes.c1, enabled)
    }
    /// Whether the node is enabled (`cuGraphNodeGetEnabled`).
    pub fn is_enabled(
        &self,
    ) -> ::cudagraph_runtime::__private::Result<::core::primitive::bool> {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.exec.is_enabled(__cg_parts.nodes.c1)
    }
    /// The node's runtime handle, for the runtime's own API.
    pub fn node(
        &self,
    ) -> ::cudagraph_runtime::__private::KernelNode<
        (ConditionalHandle, DevicePtrMut<u32>, u32),
    > {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.nodes.c1
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for FlowC1Node<'_> {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("FlowC1Node").field("index", &11usize).finish_non_exhaustive()
    }
}
fn main() {}
