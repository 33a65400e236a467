//! Nodes and edges declared in `for` loops: each node's code once (its eval and update
//! functions, its handle), its instances added in a loop, their dependencies from a table.
use cudagraph_runtime::prelude::*;
#[allow(dead_code)]
const LAYERS: usize = 3;
const _: () = {
    #[allow(unused_imports)]
    use ::cudagraph_runtime::__private::{
        ArgsFallback as _, BodyFallback as _, ParamFallback as _, SlotFallback as _,
    };
    if <::cudagraph_runtime::__private::ParamProbe<
        Kernel<(u32, f32, DevicePtr<f32>, DevicePtrMut<f32>)>,
    >>::IS_HANDLE {
        ::cudagraph_runtime::__private::fail(
            "param `layer` is a `ConditionalHandle`: a handle is made by the conditional node that reads it (`name: while layer { ... }`), since one made for another graph would be set where no node reads it",
        )
    }
};
/**The params of [`Decode`]: what its nodes are built from ([`Decode::build`]), and what [`DecodeExec::set_params`] compares to update only the nodes whose inputs changed.

- node `embed` reads `x`
- node `attn[l]` reads `layer`, `x`, `h`, `scale`, `n`
- node `mlp[l]` reads `layer`, `x`, `h`, `n`
- node `head` reads `w`, `x`
*/
#[allow(clippy::type_complexity)]
struct DecodeParams {
    ///Param `layer`, read by nodes `attn[l]`, `mlp[l]`.
    pub layer: Kernel<(u32, f32, DevicePtr<f32>, DevicePtrMut<f32>)>,
    ///Param `w`, read by node `head`.
    pub w: [DeviceBuffer<f32>; LAYERS],
    ///Param `x`, read by nodes `embed`, `attn[l]`, `mlp[l]`, `head`.
    pub x: DeviceBuffer<f32>,
    ///Param `h`, read by nodes `attn[l]`, `mlp[l]`.
    pub h: [DeviceBuffer<f32>; LAYERS],
    ///Param `scale`, read by node `attn[l]`.
    pub scale: [f32; LAYERS],
    ///Param `n`, read by nodes `attn[l]`, `mlp[l]`.
    pub n: u32,
}
impl ::cudagraph_runtime::__private::fmt::Debug for DecodeParams {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("DecodeParams").finish_non_exhaustive()
    }
}
/**A CUDA graph declared with `cuda_graph!`: [`Decode::build`] builds it from a [`DecodeParams`], [`Decode::instantiate`] makes it a [`DecodeExec`].

# Nodes

In build order (a node's position is its index in the graph):

0. `embed`: `memset(x, 1.0f32)`
1. `attn[0]`: `kernel layer<<<n.div_ceil(256), 256>>>(n, scale[l], x, h[l])`, after `embed`
2. `mlp[0]`: `kernel layer<<<n.div_ceil(256), 256>>>(n, 1.0, h[l], x)`, after `attn[0]`
3. `attn[1]`: `kernel layer<<<n.div_ceil(256), 256>>>(n, scale[l], x, h[l])`, after `mlp[0]`
4. `mlp[1]`: `kernel layer<<<n.div_ceil(256), 256>>>(n, 1.0, h[l], x)`, after `attn[1]`
5. `attn[2]`: `kernel layer<<<n.div_ceil(256), 256>>>(n, scale[l], x, h[l])`, after `mlp[1]`
6. `mlp[2]`: `kernel layer<<<n.div_ceil(256), 256>>>(n, 1.0, h[l], x)`, after `attn[2]`
7. `head`: `memcpy(x -> w[0])`, after `mlp[2]`

# Topology

<div style="overflow-x:auto"><svg xmlns="http://www.w3.org/2000/svg" role="img" width="94" height="560" viewBox="0 0 94 560" font-family="monospace" font-size="14" text-anchor="middle" fill="currentColor"><title>Topology of Decode: 8 nodes, 7 edges</title><defs><marker id="cg9c77e377" viewBox="0 0 8 8" refX="8" refY="4" markerWidth="8" markerHeight="8" orient="auto"><path d="M0 0L8 4L0 8z"/></marker></defs><g fill="none" stroke="currentColor" marker-end="url(#cg9c77e377)"><path d="M47 48V80"/><path d="M47 120V152"/><path d="M47 192V224"/><path d="M47 264V296"/><path d="M47 336V368"/><path d="M47 408V440"/><path d="M47 480V512"/></g><rect x="17" y="8" width="60" height="40" rx="4" fill="#ccfbf1" stroke="#0f766e"/><text x="47" y="25" fill="#111">embed</text><text x="47" y="41" font-size="11" fill="#374151">memset</text><rect x="8" y="80" width="78" height="40" rx="4" fill="#dbeafe" stroke="#1d4ed8"/><text x="47" y="97" fill="#111">attn[0]</text><text x="47" y="113" font-size="11" fill="#374151">kernel</text><rect x="12" y="152" width="70" height="40" rx="4" fill="#dbeafe" stroke="#1d4ed8"/><text x="47" y="169" fill="#111">mlp[0]</text><text x="47" y="185" font-size="11" fill="#374151">kernel</text><rect x="8" y="224" width="78" height="40" rx="4" fill="#dbeafe" stroke="#1d4ed8"/><text x="47" y="241" fill="#111">attn[1]</text><text x="47" y="257" font-size="11" fill="#374151">kernel</text><rect x="12" y="296" width="70" height="40" rx="4" fill="#dbeafe" stroke="#1d4ed8"/><text x="47" y="313" fill="#111">mlp[1]</text><text x="47" y="329" font-size="11" fill="#374151">kernel</text><rect x="8" y="368" width="78" height="40" rx="4" fill="#dbeafe" stroke="#1d4ed8"/><text x="47" y="385" fill="#111">attn[2]</text><text x="47" y="401" font-size="11" fill="#374151">kernel</text><rect x="12" y="440" width="70" height="40" rx="4" fill="#dbeafe" stroke="#1d4ed8"/><text x="47" y="457" fill="#111">mlp[2]</text><text x="47" y="473" font-size="11" fill="#374151">kernel</text><rect x="18" y="512" width="58" height="40" rx="4" fill="#dcfce7" stroke="#15803d"/><text x="47" y="529" fill="#111">head</text><text x="47" y="545" font-size="11" fill="#374151">memcpy</text></svg></div>

As text: `Decode::TOPOLOGY.to_mermaid()` (Mermaid) or `.to_dot()` (Graphviz).
*/
struct Decode {
    graph: ::cudagraph_runtime::__private::Graph<'static>,
    nodes: ::cudagraph_runtime::__private::Box<
        ::cudagraph_runtime::__private::ManuallyDrop<__DecodeNodes>,
    >,
    state: __DecodeState,
    build_id: u64,
}
#[doc(hidden)]
#[allow(non_camel_case_types, dead_code, clippy::type_complexity)]
struct __DecodeNodes {
    embed: ::cudagraph_runtime::__private::MemsetNode<
        <DeviceBuffer<f32> as ::cudagraph_runtime::__private::MemsetTarget>::Pattern,
    >,
    attn: [::cudagraph_runtime::__private::KernelNode<
        (u32, f32, DevicePtr<f32>, DevicePtrMut<f32>),
    >; 3usize],
    mlp: [::cudagraph_runtime::__private::KernelNode<
        (u32, f32, DevicePtr<f32>, DevicePtrMut<f32>),
    >; 3usize],
    head: ::cudagraph_runtime::__private::MemcpyNode<
        <(
            DeviceBuffer<f32>,
            DeviceBuffer<f32>,
        ) as ::cudagraph_runtime::__private::CopyPair>::Dir,
    >,
}
unsafe impl ::cudagraph_runtime::__private::Unbuilt for __DecodeNodes {}
#[doc(hidden)]
#[allow(non_camel_case_types, non_snake_case, dead_code, clippy::type_complexity)]
struct __DecodeSnapshot0 {
    layer: usize,
    w: [DeviceBuffer<f32>; LAYERS],
    x: DeviceBuffer<f32>,
    h: [DeviceBuffer<f32>; LAYERS],
    scale: [f32; LAYERS],
    n: u32,
}
impl __DecodeSnapshot0 {
    #[inline(never)]
    fn __cg_keep(__cg_params: &DecodeParams) -> Self {
        Self {
            layer: <Kernel<
                (u32, f32, DevicePtr<f32>, DevicePtrMut<f32>),
            > as ::cudagraph_runtime::__private::KernelType>::function_id(
                &__cg_params.layer,
            ),
            w: <[DeviceBuffer<
                f32,
            >; LAYERS] as ::cudagraph_runtime::__private::ParamValue>::keep(
                &__cg_params.w,
            ),
            x: <DeviceBuffer<
                f32,
            > as ::cudagraph_runtime::__private::ParamValue>::keep(&__cg_params.x),
            h: <[DeviceBuffer<
                f32,
            >; LAYERS] as ::cudagraph_runtime::__private::ParamValue>::keep(
                &__cg_params.h,
            ),
            scale: <[f32; LAYERS] as ::cudagraph_runtime::__private::ParamValue>::keep(
                &__cg_params.scale,
            ),
            n: <u32 as ::cudagraph_runtime::__private::ParamValue>::keep(&__cg_params.n),
        }
    }
}
impl ::cudagraph_runtime::__private::Clone for __DecodeSnapshot0 {
    #[inline(never)]
    fn clone(&self) -> Self {
        Self {
            layer: self.layer,
            w: <[DeviceBuffer<
                f32,
            >; LAYERS] as ::cudagraph_runtime::__private::ParamValue>::keep(&self.w),
            x: <DeviceBuffer<
                f32,
            > as ::cudagraph_runtime::__private::ParamValue>::keep(&self.x),
            h: <[DeviceBuffer<
                f32,
            >; LAYERS] as ::cudagraph_runtime::__private::ParamValue>::keep(&self.h),
            scale: <[f32; LAYERS] as ::cudagraph_runtime::__private::ParamValue>::keep(
                &self.scale,
            ),
            n: <u32 as ::cudagraph_runtime::__private::ParamValue>::keep(&self.n),
        }
    }
}
#[doc(hidden)]
#[allow(non_camel_case_types)]
struct __DecodeSnapshot {
    __cg_kept_0: __DecodeSnapshot0,
}
impl __DecodeSnapshot {
    /// What the executable keeps of `params`.
    #[allow(unused_variables)]
    fn __cg_keep(__cg_params: &DecodeParams) -> Self {
        Self {
            __cg_kept_0: __DecodeSnapshot0::__cg_keep(__cg_params),
        }
    }
}
impl ::cudagraph_runtime::__private::Clone for __DecodeSnapshot {
    fn clone(&self) -> Self {
        Self {
            __cg_kept_0: ::cudagraph_runtime::__private::Clone::clone(&self.__cg_kept_0),
        }
    }
}
#[doc(hidden)]
#[allow(non_camel_case_types, non_snake_case, dead_code)]
#[derive(Clone, Copy)]
struct __DecodeLaunch {
    attn: [::cudagraph_runtime::__private::LaunchConfig; 3usize],
    mlp: [::cudagraph_runtime::__private::LaunchConfig; 3usize],
}
unsafe impl ::cudagraph_runtime::__private::Unbuilt for __DecodeLaunch {}
#[doc(hidden)]
#[allow(non_camel_case_types)]
struct __DecodeState {
    params: __DecodeSnapshot,
    launch: ::cudagraph_runtime::__private::Box<__DecodeLaunch>,
}
impl Decode {
    /// The declared shape: nodes in build order (their indices in the graph; one more
    /// with `#[indirect]` params, whose fetch node comes first), kinds and edges. Its
    /// `to_dot()` and `to_mermaid()` draw it.
    pub const TOPOLOGY: ::cudagraph_runtime::__private::Topology = ::cudagraph_runtime::__private::Topology {
        name: "Decode",
        nodes: &[
            ("embed", ::cudagraph_runtime::__private::NodeKind::Memset),
            ("attn[0]", ::cudagraph_runtime::__private::NodeKind::Kernel),
            ("mlp[0]", ::cudagraph_runtime::__private::NodeKind::Kernel),
            ("attn[1]", ::cudagraph_runtime::__private::NodeKind::Kernel),
            ("mlp[1]", ::cudagraph_runtime::__private::NodeKind::Kernel),
            ("attn[2]", ::cudagraph_runtime::__private::NodeKind::Kernel),
            ("mlp[2]", ::cudagraph_runtime::__private::NodeKind::Kernel),
            ("head", ::cudagraph_runtime::__private::NodeKind::Memcpy),
        ],
        edges: &[
            (0usize, 1usize),
            (1usize, 2usize),
            (2usize, 3usize),
            (3usize, 4usize),
            (4usize, 5usize),
            (5usize, 6usize),
            (6usize, 7usize),
        ],
        bodies: &[],
    };
    /// [`TOPOLOGY`](Self::TOPOLOGY) drawn as a standalone SVG image, laid out when the
    /// macro ran: the picture in this type's docs. Write it to a `.svg` file or put it
    /// in an HTML page; its lines and labels take the text colour of the page around it
    /// (black in a file of its own). It is in the binary only if the program calls this.
    pub const fn topology_svg() -> &'static str {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" width=\"94\" height=\"560\" viewBox=\"0 0 94 560\" font-family=\"monospace\" font-size=\"14\" text-anchor=\"middle\" fill=\"currentColor\"><title>Topology of Decode: 8 nodes, 7 edges</title><defs><marker id=\"cg9c77e377\" viewBox=\"0 0 8 8\" refX=\"8\" refY=\"4\" markerWidth=\"8\" markerHeight=\"8\" orient=\"auto\"><path d=\"M0 0L8 4L0 8z\"/></marker></defs><g fill=\"none\" stroke=\"currentColor\" marker-end=\"url(#cg9c77e377)\"><path d=\"M47 48V80\"/><path d=\"M47 120V152\"/><path d=\"M47 192V224\"/><path d=\"M47 264V296\"/><path d=\"M47 336V368\"/><path d=\"M47 408V440\"/><path d=\"M47 480V512\"/></g><rect x=\"17\" y=\"8\" width=\"60\" height=\"40\" rx=\"4\" fill=\"#ccfbf1\" stroke=\"#0f766e\"/><text x=\"47\" y=\"25\" fill=\"#111\">embed</text><text x=\"47\" y=\"41\" font-size=\"11\" fill=\"#374151\">memset</text><rect x=\"8\" y=\"80\" width=\"78\" height=\"40\" rx=\"4\" fill=\"#dbeafe\" stroke=\"#1d4ed8\"/><text x=\"47\" y=\"97\" fill=\"#111\">attn[0]</text><text x=\"47\" y=\"113\" font-size=\"11\" fill=\"#374151\">kernel</text><rect x=\"12\" y=\"152\" width=\"70\" height=\"40\" rx=\"4\" fill=\"#dbeafe\" stroke=\"#1d4ed8\"/><text x=\"47\" y=\"169\" fill=\"#111\">mlp[0]</text><text x=\"47\" y=\"185\" font-size=\"11\" fill=\"#374151\">kernel</text><rect x=\"8\" y=\"224\" width=\"78\" height=\"40\" rx=\"4\" fill=\"#dbeafe\" stroke=\"#1d4ed8\"/><text x=\"47\" y=\"241\" fill=\"#111\">attn[1]</text><text x=\"47\" y=\"257\" font-size=\"11\" fill=\"#374151\">kernel</text><rect x=\"12\" y=\"296\" width=\"70\" height=\"40\" rx=\"4\" fill=\"#dbeafe\" stroke=\"#1d4ed8\"/><text x=\"47\" y=\"313\" fill=\"#111\">mlp[1]</text><text x=\"47\" y=\"329\" font-size=\"11\" fill=\"#374151\">kernel</text><rect x=\"8\" y=\"368\" width=\"78\" height=\"40\" rx=\"4\" fill=\"#dbeafe\" stroke=\"#1d4ed8\"/><text x=\"47\" y=\"385\" fill=\"#111\">attn[2]</text><text x=\"47\" y=\"401\" font-size=\"11\" fill=\"#374151\">kernel</text><rect x=\"12\" y=\"440\" width=\"70\" height=\"40\" rx=\"4\" fill=\"#dbeafe\" stroke=\"#1d4ed8\"/><text x=\"47\" y=\"457\" fill=\"#111\">mlp[2]</text><text x=\"47\" y=\"473\" font-size=\"11\" fill=\"#374151\">kernel</text><rect x=\"18\" y=\"512\" width=\"58\" height=\"40\" rx=\"4\" fill=\"#dcfce7\" stroke=\"#15803d\"/><text x=\"47\" y=\"529\" fill=\"#111\">head</text><text x=\"47\" y=\"545\" font-size=\"11\" fill=\"#374151\">memcpy</text></svg>"
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
        __cg_params: &DecodeParams,
    ) -> ::cudagraph_runtime::__private::Result<Self> {
        Self::__cg_check_overlaps(__cg_params)?;
        let mut __cg_graph = ::cudagraph_runtime::__private::Graph::with_capacity(
            ctx,
            8usize,
        )?;
        let (nodes, state) = Self::__cg_add_nodes(&mut __cg_graph, __cg_params)?;
        ::cudagraph_runtime::__private::built(&__cg_graph, "Decode");
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
        __cg_params: &DecodeParams,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        Self::__cg_check_overlaps(__cg_params)?;
        self.build_id = ::cudagraph_runtime::__private::next_build_id();
        self.graph.clear()?;
        let (nodes, state) = Self::__cg_add_nodes(&mut self.graph, __cg_params)?;
        ::cudagraph_runtime::__private::built(&self.graph, "Decode");
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
        __cg_params: &DecodeParams,
    ) -> ::cudagraph_runtime::__private::Result<
        (
            ::cudagraph_runtime::__private::Box<
                ::cudagraph_runtime::__private::ManuallyDrop<__DecodeNodes>,
            >,
            __DecodeState,
        ),
    > {
        let mut boxed = ::cudagraph_runtime::__private::unbuilt_box::<
            ::cudagraph_runtime::__private::ManuallyDrop<__DecodeNodes>,
        >();
        let mut configs = ::cudagraph_runtime::__private::unbuilt_box::<
            __DecodeLaunch,
        >();
        {
            let nodes: &mut __DecodeNodes = &mut boxed;
            #[allow(unused_variables)]
            let launches: &mut __DecodeLaunch = &mut configs;
            let ids = &mut ::cudagraph_runtime::__private::Vec::with_capacity(8usize);
            Self::__cg_add_0(__cg_graph, __cg_params, nodes, launches, ids)?;
            Self::__cg_add_loop_1(
                __cg_graph,
                __cg_params,
                nodes,
                launches,
                ids,
                0usize,
                3usize,
            )?;
            Self::__cg_add_7(__cg_graph, __cg_params, nodes, launches, ids)?;
        }
        ::cudagraph_runtime::__private::Result::Ok((
            boxed,
            __DecodeState {
                params: __DecodeSnapshot::__cg_keep(__cg_params),
                launch: configs,
            },
        ))
    }
    #[inline(never)]
    fn __cg_add_0(
        __cg_graph: &mut ::cudagraph_runtime::__private::Graph<'static>,
        __cg_params: &DecodeParams,
        nodes: &mut __DecodeNodes,
        launches: &mut __DecodeLaunch,
        ids: &mut ::cudagraph_runtime::__private::Vec<
            ::cudagraph_runtime::__private::NodeId,
        >,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        nodes.embed = ::cudagraph_runtime::__private::add_node(
            __cg_graph,
            "embed",
            |__cg_graph| __cg_graph.add_memset(Decode::__cg_eval_embed(__cg_params), &[]),
        )?;
        ids.push(nodes.embed.id());
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline(never)]
    fn __cg_add_loop_1(
        __cg_graph: &mut ::cudagraph_runtime::__private::Graph<'static>,
        __cg_params: &DecodeParams,
        nodes: &mut __DecodeNodes,
        launches: &mut __DecodeLaunch,
        ids: &mut ::cudagraph_runtime::__private::Vec<
            ::cudagraph_runtime::__private::NodeId,
        >,
        from: usize,
        to: usize,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        for index in from..to {
            #[allow(unused_variables)]
            let l: usize = index;
            let pos = ids.len();
            (nodes.attn[index], launches.attn[index]) = ::cudagraph_runtime::__private::add_node(
                __cg_graph,
                Decode::TOPOLOGY.nodes[pos].0,
                |__cg_graph| {
                    let (kernel, config, args) = Decode::__cg_eval_attn(
                        __cg_params,
                        index,
                    );
                    ::cudagraph_runtime::__private::Result::Ok((
                        __cg_graph
                            .add_kernel(
                                kernel,
                                config,
                                args,
                                &::cudagraph_runtime::__private::deps_at(
                                    ids,
                                    Decode::__CG_DEPS,
                                    Decode::__CG_DEP_START,
                                ),
                            )?,
                        config,
                    ))
                },
            )?;
            ids.push(nodes.attn[index].id());
            let pos = ids.len();
            (nodes.mlp[index], launches.mlp[index]) = ::cudagraph_runtime::__private::add_node(
                __cg_graph,
                Decode::TOPOLOGY.nodes[pos].0,
                |__cg_graph| {
                    let (kernel, config, args) = Decode::__cg_eval_mlp(
                        __cg_params,
                        index,
                    );
                    ::cudagraph_runtime::__private::Result::Ok((
                        __cg_graph
                            .add_kernel(
                                kernel,
                                config,
                                args,
                                &::cudagraph_runtime::__private::deps_at(
                                    ids,
                                    Decode::__CG_DEPS,
                                    Decode::__CG_DEP_START,
                                ),
                            )?,
                        config,
                    ))
                },
            )?;
            ids.push(nodes.mlp[index].id());
        }
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline(never)]
    fn __cg_add_7(
        __cg_graph: &mut ::cudagraph_runtime::__private::Graph<'static>,
        __cg_params: &DecodeParams,
        nodes: &mut __DecodeNodes,
        launches: &mut __DecodeLaunch,
        ids: &mut ::cudagraph_runtime::__private::Vec<
            ::cudagraph_runtime::__private::NodeId,
        >,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        nodes.head = ::cudagraph_runtime::__private::add_node(
            __cg_graph,
            "head",
            |__cg_graph| {
                __cg_graph
                    .add_memcpy(
                        Decode::__cg_eval_head(__cg_params),
                        &[nodes.mlp[2usize].id()],
                    )
            },
        )?;
        ids.push(nodes.head.id());
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    /// The dependencies of every node, by position: those of the node at position
    /// `p` are `__CG_DEPS[__CG_DEP_START[p]..__CG_DEP_START[p + 1]]`.
    #[doc(hidden)]
    const __CG_DEPS: &'static [u32] = &[0u32, 1u32, 2u32, 3u32, 4u32, 5u32, 6u32];
    #[doc(hidden)]
    const __CG_DEP_START: &'static [u32] = &[
        0u32, 0u32, 1u32, 2u32, 3u32, 4u32, 5u32, 6u32, 7u32,
    ];
    /// The runtime graph.
    pub fn graph(&self) -> &::cudagraph_runtime::__private::Graph<'static> {
        &self.graph
    }
    /// Refuses params under which two nodes that may run at the same time share memory, one
    /// writing it.
    #[allow(unused_variables)]
    #[inline]
    fn __cg_check_overlaps(
        __cg_params: &DecodeParams,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        #[allow(unused_imports)]
        use ::cudagraph_runtime::__private::{
            ArgsFallback as _, BodyFallback as _, ParamFallback as _, SlotFallback as _,
        };
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    ///Instantiates the graph with default flags.
    pub fn instantiate(self) -> ::cudagraph_runtime::__private::Result<DecodeExec> {
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
    ) -> ::cudagraph_runtime::__private::Result<DecodeExec> {
        ::cudagraph_runtime::__private::Result::Ok(DecodeExec {
            exec: self.graph.instantiate_with(flags, upload)?,
            nodes: self.nodes,
            state: self.state,
            dirty: [false; 8usize],
            stamps: ::cudagraph_runtime::__private::zeros(8usize),
            generation: 0,
        })
    }
    #[allow(
        non_snake_case,
        unused_variables,
        clippy::type_complexity,
        clippy::needless_lifetimes
    )]
    fn __cg_eval_embed<'__cg_p>(
        __cg_params: &'__cg_p DecodeParams,
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
            1.0f32,
        )
    }
    #[allow(
        non_snake_case,
        unused_variables,
        clippy::type_complexity,
        clippy::needless_lifetimes
    )]
    fn __cg_eval_attn<'__cg_p>(
        __cg_params: &'__cg_p DecodeParams,
        index: usize,
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
        let layer = (&::cudagraph_runtime::__private::Bind(&__cg_params.layer))
            .__cg_bind();
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let n = (&::cudagraph_runtime::__private::Bind(&__cg_params.n)).__cg_bind();
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let scale = (&::cudagraph_runtime::__private::Bind(&__cg_params.scale))
            .__cg_bind();
        #[allow(unused_variables, clippy::redundant_locals)]
        let l: usize = index;
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let x = (&::cudagraph_runtime::__private::Bind(&__cg_params.x)).__cg_bind();
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let h = (&::cudagraph_runtime::__private::Bind(&__cg_params.h)).__cg_bind();
        let config = ::cudagraph_runtime::__private::launch(n.div_ceil(256), 256, 0);
        let args = (
            ::cudagraph_runtime::__private::KernelArgPart::<'static, u32, _>::new(n),
            ::cudagraph_runtime::__private::KernelArgPart::<
                'static,
                f32,
                _,
            >::new((&::cudagraph_runtime::__private::Bind(&scale[l])).__cg_bind()),
            ::cudagraph_runtime::__private::KernelArgPart::<
                'static,
                DevicePtr<f32>,
                _,
            >::new(x),
            ::cudagraph_runtime::__private::KernelArgPart::<
                'static,
                DevicePtrMut<f32>,
                _,
            >::new((&::cudagraph_runtime::__private::Bind(&h[l])).__cg_bind()),
        );
        (
            <Kernel<
                (u32, f32, DevicePtr<f32>, DevicePtrMut<f32>),
            > as ::cudagraph_runtime::__private::KernelType>::as_kernel(
                &__cg_params.layer,
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
    fn __cg_eval_mlp<'__cg_p>(
        __cg_params: &'__cg_p DecodeParams,
        index: usize,
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
        let layer = (&::cudagraph_runtime::__private::Bind(&__cg_params.layer))
            .__cg_bind();
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let n = (&::cudagraph_runtime::__private::Bind(&__cg_params.n)).__cg_bind();
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let h = (&::cudagraph_runtime::__private::Bind(&__cg_params.h)).__cg_bind();
        #[allow(unused_variables, clippy::redundant_locals)]
        let l: usize = index;
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let x = (&::cudagraph_runtime::__private::Bind(&__cg_params.x)).__cg_bind();
        let config = ::cudagraph_runtime::__private::launch(n.div_ceil(256), 256, 0);
        let args = (
            ::cudagraph_runtime::__private::KernelArgPart::<'static, u32, _>::new(n),
            ::cudagraph_runtime::__private::KernelArgPart::<'static, f32, _>::new(1.0),
            ::cudagraph_runtime::__private::KernelArgPart::<
                'static,
                DevicePtr<f32>,
                _,
            >::new((&::cudagraph_runtime::__private::Bind(&h[l])).__cg_bind()),
            ::cudagraph_runtime::__private::KernelArgPart::<
                'static,
                DevicePtrMut<f32>,
                _,
            >::new(x),
        );
        (
            <Kernel<
                (u32, f32, DevicePtr<f32>, DevicePtrMut<f32>),
            > as ::cudagraph_runtime::__private::KernelType>::as_kernel(
                &__cg_params.layer,
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
    fn __cg_eval_head<'__cg_p>(
        __cg_params: &'__cg_p DecodeParams,
    ) -> ::cudagraph_runtime::__private::Memcpy<
        'static,
        <(
            DeviceBuffer<f32>,
            DeviceBuffer<f32>,
        ) as ::cudagraph_runtime::__private::CopyPair>::Dir,
    > {
        #[allow(unused_imports)]
        use ::cudagraph_runtime::__private::{BindCopy as _, BindRef as _};
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let x = (&::cudagraph_runtime::__private::Bind(&__cg_params.x)).__cg_bind();
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let w = (&::cudagraph_runtime::__private::Bind(&__cg_params.w)).__cg_bind();
        <(
            DeviceBuffer<f32>,
            DeviceBuffer<f32>,
        ) as ::cudagraph_runtime::__private::CopyPair>::memcpy(
            &__cg_params.x,
            &__cg_params.w[0],
        )
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for Decode {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("Decode").field("graph", &self.graph).finish_non_exhaustive()
    }
}
impl ::cudagraph_runtime::__private::BodyRules for Decode {
    const FORBIDDEN_IN_BODY: ::cudagraph_runtime::__private::Option<&'static str> = {
        #[allow(unused_imports)]
        use ::cudagraph_runtime::__private::{
            ArgsFallback as _, BodyFallback as _, ParamFallback as _, SlotFallback as _,
        };
        ::cudagraph_runtime::__private::first_forbidden(&[])
    };
}
impl ::cudagraph_runtime::__private::ChildGraph for Decode {
    fn graph(&self) -> &::cudagraph_runtime::__private::Graph<'static> {
        &self.graph
    }
    fn identity(&self) -> ::cudagraph_runtime::__private::Option<u64> {
        ::cudagraph_runtime::__private::Option::Some(self.build_id)
    }
}
impl ::cudagraph_runtime::__private::SameDeclaration<Decode> for Decode {
    fn same(&self) -> &Decode {
        self
    }
}
/**[`Decode`], instantiated: launch it, update it from another [`Decode`] or with [`set_params`](Self::set_params), or update one node through its handle:

- [`embed()`](Self::embed): memset node
- [`attn(l)`](Self::attn): kernel node, one per iteration (3 instances)
- [`mlp(l)`](Self::mlp): kernel node, one per iteration (3 instances)
- [`head()`](Self::head): memcpy node
*/
struct DecodeExec {
    exec: ::cudagraph_runtime::__private::GraphExec<'static>,
    nodes: ::cudagraph_runtime::__private::Box<
        ::cudagraph_runtime::__private::ManuallyDrop<__DecodeNodes>,
    >,
    state: __DecodeState,
    /// Nodes set through their handles since the last `set_params`: it sets them again.
    dirty: [bool; 8usize],
    /// Per node, the number of the last `set_params_only` call naming several params that
    /// updated it (so that it updates each node once).
    stamps: ::cudagraph_runtime::__private::Box<[u32]>,
    /// The number of the last such call.
    generation: u32,
}
impl DecodeExec {
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
    /**Whole-graph update from a [`Decode`] built with other params (`cuGraphExecUpdate`).

Only a graph of this declaration is accepted: it was built by the same sequence of calls, so its nodes pair with this executable's ([whole-graph update](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#whole-graph-update)). Afterwards the executable runs that graph's params, and [`set_params`](Self::set_params) compares with them.*/
    pub fn update<__CgSame: ::cudagraph_runtime::__private::SameDeclaration<Decode>>(
        &mut self,
        source: &__CgSame,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let source: &Decode = ::cudagraph_runtime::__private::SameDeclaration::same(
            source,
        );
        self.exec.update(&source.graph)?;
        self.state.params = source.state.params.clone();
        *self.state.launch = *source.state.launch;
        self.dirty = [false; 8usize];
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    /**Makes the executable's nodes what [`Decode::build`] would make from `params`, with one single-node update per node whose inputs changed since the last build, update or `set_params` (or that was set through its handle since). Returns how many nodes it updated. Enabled/disabled states are kept.

A param is compared with `PartialEq`, a kernel by function, a declared graph by identity; a runtime `Graph` counts as changed every time. A kernel param may change function (same parameter list, same context): the node's single-node update switches it.*/
    pub fn set_params(
        &mut self,
        __cg_params: &DecodeParams,
    ) -> ::cudagraph_runtime::__private::Result<usize> {
        Decode::__cg_check_overlaps(__cg_params)?;
        #[allow(unused_mut)]
        let mut changed = [false; 12usize];
        self.__cg_changed_0(__cg_params, &mut changed);
        let mut updated = 0usize;
        #[allow(clippy::type_complexity)]
        const READS: &[(
            usize,
            &[usize],
            fn(
                &mut DecodeExec,
                &DecodeParams,
                usize,
            ) -> ::cudagraph_runtime::__private::Result<()>,
            usize,
        )] = &[
            (0usize, &[4usize], DecodeExec::__cg_update_node_0, 0usize),
            (
                1usize,
                &[0usize, 4usize, 5usize, 8usize, 11usize],
                DecodeExec::__cg_update_node_1,
                0usize,
            ),
            (
                2usize,
                &[0usize, 4usize, 5usize, 11usize],
                DecodeExec::__cg_update_node_2,
                0usize,
            ),
            (
                3usize,
                &[0usize, 4usize, 6usize, 9usize, 11usize],
                DecodeExec::__cg_update_node_1,
                1usize,
            ),
            (
                4usize,
                &[0usize, 4usize, 6usize, 11usize],
                DecodeExec::__cg_update_node_2,
                1usize,
            ),
            (
                5usize,
                &[0usize, 4usize, 7usize, 10usize, 11usize],
                DecodeExec::__cg_update_node_1,
                2usize,
            ),
            (
                6usize,
                &[0usize, 4usize, 7usize, 11usize],
                DecodeExec::__cg_update_node_2,
                2usize,
            ),
            (7usize, &[1usize, 4usize], DecodeExec::__cg_update_node_7, 0usize),
        ];
        for &(pos, reads, update, index) in READS {
            if self.dirty[pos] || reads.iter().any(|&i| changed[i]) {
                self.dirty[pos] = true;
                update(self, __cg_params, index)?;
                updated += 1;
            }
        }
        const SLOTS: [usize; 6usize + 1] = [
            0usize, 1usize, 4usize, 5usize, 8usize, 11usize, 12usize,
        ];
        for (param, &(_, commit)) in Self::__CG_PARAMS.iter().enumerate() {
            if changed[SLOTS[param]..SLOTS[param + 1]].contains(&true) {
                commit(self, __cg_params)?;
            }
        }
        self.dirty = [false; 8usize];
        ::cudagraph_runtime::__private::Result::Ok(updated)
    }
    /// The runtime executable, for what the typed API does not cover (read-only).
    pub fn as_exec(&self) -> &::cudagraph_runtime::__private::GraphExec<'static> {
        &self.exec
    }
    #[inline(never)]
    fn __cg_changed_0(&self, __cg_params: &DecodeParams, changed: &mut [bool; 12usize]) {
        changed[0usize] = !(<Kernel<
            (u32, f32, DevicePtr<f32>, DevicePtrMut<f32>),
        > as ::cudagraph_runtime::__private::KernelType>::function_id(&__cg_params.layer)
            == self.state.params.__cg_kept_0.layer);
        for k in 0..3usize {
            changed[1usize + k] = !(<DeviceBuffer<
                f32,
            > as ::cudagraph_runtime::__private::ParamValue>::same(
                &__cg_params.w[k],
                &self.state.params.__cg_kept_0.w[k],
            ));
        }
        changed[4usize] = !(<DeviceBuffer<
            f32,
        > as ::cudagraph_runtime::__private::ParamValue>::same(
            &__cg_params.x,
            &self.state.params.__cg_kept_0.x,
        ));
        for k in 0..3usize {
            changed[5usize + k] = !(<DeviceBuffer<
                f32,
            > as ::cudagraph_runtime::__private::ParamValue>::same(
                &__cg_params.h[k],
                &self.state.params.__cg_kept_0.h[k],
            ));
        }
        for k in 0..3usize {
            changed[8usize + k] = !(<f32 as ::cudagraph_runtime::__private::ParamValue>::same(
                &__cg_params.scale[k],
                &self.state.params.__cg_kept_0.scale[k],
            ));
        }
        changed[11usize] = !(<u32 as ::cudagraph_runtime::__private::ParamValue>::same(
            &__cg_params.n,
            &self.state.params.__cg_kept_0.n,
        ));
    }
    ///Node `embed` (`memset(x, 1.0f32)`): its update handle.
    pub fn embed(&mut self) -> DecodeEmbedNode<'_> {
        DecodeEmbedNode { exec: self }
    }
    /**Node `attn[l]` (`kernel layer<<<n.div_ceil(256), 256>>>(n, scale[l], x, h[l])`): its update handle.

The node is declared in a `for` loop: this is the handle of its instance of iteration `l` (`l` below 3).

# Errors

`Error::Invalid` when `l` is 3 or more.*/
    pub fn attn(
        &mut self,
        l: usize,
    ) -> ::cudagraph_runtime::__private::Result<DecodeAttnNode<'_>> {
        ::cudagraph_runtime::__private::instance("attn", l, 3usize)?;
        ::cudagraph_runtime::__private::Result::Ok(DecodeAttnNode {
            exec: self,
            index: l,
        })
    }
    /**Node `mlp[l]` (`kernel layer<<<n.div_ceil(256), 256>>>(n, 1.0, h[l], x)`): its update handle.

The node is declared in a `for` loop: this is the handle of its instance of iteration `l` (`l` below 3).

# Errors

`Error::Invalid` when `l` is 3 or more.*/
    pub fn mlp(
        &mut self,
        l: usize,
    ) -> ::cudagraph_runtime::__private::Result<DecodeMlpNode<'_>> {
        ::cudagraph_runtime::__private::instance("mlp", l, 3usize)?;
        ::cudagraph_runtime::__private::Result::Ok(DecodeMlpNode {
            exec: self,
            index: l,
        })
    }
    ///Node `head` (`memcpy(x -> w[0])`): its update handle.
    pub fn head(&mut self) -> DecodeHeadNode<'_> {
        DecodeHeadNode { exec: self }
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for DecodeExec {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("DecodeExec").field("exec", &self.exec).finish_non_exhaustive()
    }
}
///The params of [`DecodeParams`], one variant each: what [`DecodeExec::set_params_only`] is told changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(dead_code)]
enum DecodeParam {
    ///Param `layer`.
    Layer,
    ///Param `w`.
    W,
    ///Param `x`.
    X,
    ///Param `h`.
    H,
    ///Param `scale`.
    Scale,
    ///Param `n`.
    N,
}
impl DecodeExec {
    /**Like [`set_params`](Self::set_params), for callers that know what they changed: updates the nodes whose expressions read a param in `changed` (each once), and only them, so its cost grows with the nodes updated, not with the graph. Returns how many nodes it updated.

A changed param missing from `changed` leaves its nodes as they were (the executable keeps alive whatever memory they use); nodes set through their handles are not reset (`set_params` does both). Params that share memory with another under nodes that may run at the same time are refused as by [`Decode::build`].*/
    pub fn set_params_only(
        &mut self,
        __cg_params: &DecodeParams,
        changed: &[DecodeParam],
    ) -> ::cudagraph_runtime::__private::Result<usize> {
        Decode::__cg_check_overlaps(__cg_params)?;
        for &__cg_param in changed {
            match __cg_param {
                DecodeParam::Layer => {}
                DecodeParam::W => {}
                DecodeParam::X => {}
                DecodeParam::H => {}
                DecodeParam::Scale => {}
                DecodeParam::N => {}
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
                &DecodeParams,
                usize,
            ) -> ::cudagraph_runtime::__private::Result<()>,
            usize,
        )],
        fn(&mut Self, &DecodeParams) -> ::cudagraph_runtime::__private::Result<()>,
    )] = &[
        (
            &[
                (1usize, Self::__cg_update_node_1, 0usize),
                (2usize, Self::__cg_update_node_2, 0usize),
                (3usize, Self::__cg_update_node_1, 1usize),
                (4usize, Self::__cg_update_node_2, 1usize),
                (5usize, Self::__cg_update_node_1, 2usize),
                (6usize, Self::__cg_update_node_2, 2usize),
            ],
            Self::__cg_commit_0,
        ),
        (&[(7usize, Self::__cg_update_node_7, 0usize)], Self::__cg_commit_1),
        (
            &[
                (0usize, Self::__cg_update_node_0, 0usize),
                (1usize, Self::__cg_update_node_1, 0usize),
                (2usize, Self::__cg_update_node_2, 0usize),
                (3usize, Self::__cg_update_node_1, 1usize),
                (4usize, Self::__cg_update_node_2, 1usize),
                (5usize, Self::__cg_update_node_1, 2usize),
                (6usize, Self::__cg_update_node_2, 2usize),
                (7usize, Self::__cg_update_node_7, 0usize),
            ],
            Self::__cg_commit_2,
        ),
        (
            &[
                (1usize, Self::__cg_update_node_1, 0usize),
                (2usize, Self::__cg_update_node_2, 0usize),
                (3usize, Self::__cg_update_node_1, 1usize),
                (4usize, Self::__cg_update_node_2, 1usize),
                (5usize, Self::__cg_update_node_1, 2usize),
                (6usize, Self::__cg_update_node_2, 2usize),
            ],
            Self::__cg_commit_3,
        ),
        (
            &[
                (1usize, Self::__cg_update_node_1, 0usize),
                (3usize, Self::__cg_update_node_1, 1usize),
                (5usize, Self::__cg_update_node_1, 2usize),
            ],
            Self::__cg_commit_4,
        ),
        (
            &[
                (1usize, Self::__cg_update_node_1, 0usize),
                (2usize, Self::__cg_update_node_2, 0usize),
                (3usize, Self::__cg_update_node_1, 1usize),
                (4usize, Self::__cg_update_node_2, 1usize),
                (5usize, Self::__cg_update_node_1, 2usize),
                (6usize, Self::__cg_update_node_2, 2usize),
            ],
            Self::__cg_commit_5,
        ),
    ];
    #[inline(never)]
    fn __cg_commit_0(
        &mut self,
        __cg_params: &DecodeParams,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        self.state.params.__cg_kept_0.layer = <Kernel<
            (u32, f32, DevicePtr<f32>, DevicePtrMut<f32>),
        > as ::cudagraph_runtime::__private::KernelType>::function_id(
            &__cg_params.layer,
        );
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline(never)]
    fn __cg_commit_1(
        &mut self,
        __cg_params: &DecodeParams,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        self.state.params.__cg_kept_0.w = <[DeviceBuffer<
            f32,
        >; LAYERS] as ::cudagraph_runtime::__private::ParamValue>::keep(&__cg_params.w);
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline(never)]
    fn __cg_commit_2(
        &mut self,
        __cg_params: &DecodeParams,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        self.state.params.__cg_kept_0.x = <DeviceBuffer<
            f32,
        > as ::cudagraph_runtime::__private::ParamValue>::keep(&__cg_params.x);
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline(never)]
    fn __cg_commit_3(
        &mut self,
        __cg_params: &DecodeParams,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        self.state.params.__cg_kept_0.h = <[DeviceBuffer<
            f32,
        >; LAYERS] as ::cudagraph_runtime::__private::ParamValue>::keep(&__cg_params.h);
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline(never)]
    fn __cg_commit_4(
        &mut self,
        __cg_params: &DecodeParams,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        self.state.params.__cg_kept_0.scale = <[f32; LAYERS] as ::cudagraph_runtime::__private::ParamValue>::keep(
            &__cg_params.scale,
        );
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline(never)]
    fn __cg_commit_5(
        &mut self,
        __cg_params: &DecodeParams,
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
        __cg_params: &DecodeParams,
        index: usize,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        self.exec
            .set_memset_params(self.nodes.embed, Decode::__cg_eval_embed(__cg_params))?;
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline(never)]
    #[allow(unused_variables)]
    fn __cg_update_node_1(
        &mut self,
        __cg_params: &DecodeParams,
        index: usize,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        #[allow(unused_variables)]
        let l: usize = index;
        let (kernel, config, args) = Decode::__cg_eval_attn(__cg_params, index);
        self.exec.set_kernel(self.nodes.attn[index], kernel, config, args)?;
        self.state.launch.attn[index] = config;
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline(never)]
    #[allow(unused_variables)]
    fn __cg_update_node_2(
        &mut self,
        __cg_params: &DecodeParams,
        index: usize,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        #[allow(unused_variables)]
        let l: usize = index;
        let (kernel, config, args) = Decode::__cg_eval_mlp(__cg_params, index);
        self.exec.set_kernel(self.nodes.mlp[index], kernel, config, args)?;
        self.state.launch.mlp[index] = config;
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline(never)]
    #[allow(unused_variables)]
    fn __cg_update_node_7(
        &mut self,
        __cg_params: &DecodeParams,
        index: usize,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        self.exec
            .set_memcpy_params(self.nodes.head, Decode::__cg_eval_head(__cg_params))?;
        ::cudagraph_runtime::__private::Result::Ok(())
    }
}
///Update handle of node `embed` of [`DecodeExec`] (`memset(x, 1.0f32)`): its destination and value can change (1-D only), and it can be enabled or disabled ([what CUDA allows](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#individual-node-update)).
struct DecodeEmbedNode<'a> {
    exec: &'a mut DecodeExec,
}
impl<'a> DecodeEmbedNode<'a> {
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
        self.exec.dirty[0usize] = true;
        self.exec
            .exec
            .set_memset_params(
                self.exec.nodes.embed,
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
        self.exec.exec.set_enabled(self.exec.nodes.embed, enabled)
    }
    /// Whether the node is enabled (`cuGraphNodeGetEnabled`).
    pub fn is_enabled(&self) -> ::cudagraph_runtime::__private::Result<bool> {
        self.exec.exec.is_enabled(self.exec.nodes.embed)
    }
    /// The node's runtime handle, for the runtime's own API.
    pub fn node(
        &self,
    ) -> ::cudagraph_runtime::__private::MemsetNode<
        <DeviceBuffer<f32> as ::cudagraph_runtime::__private::MemsetTarget>::Pattern,
    > {
        self.exec.nodes.embed
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for DecodeEmbedNode<'_> {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("DecodeEmbedNode").field("index", &0usize).finish_non_exhaustive()
    }
}
///Update handle of node `attn[l]` of [`DecodeExec`] (`kernel layer<<<n.div_ceil(256), 256>>>(n, scale[l], x, h[l])`): its arguments and launch configuration can change, and it can be enabled or disabled ([what CUDA allows](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#individual-node-update)).
struct DecodeAttnNode<'a> {
    exec: &'a mut DecodeExec,
    index: usize,
}
impl<'a> DecodeAttnNode<'a> {
    const __CG_POSITIONS: [usize; 3usize] = [1usize, 3usize, 5usize];
    ///Sets the kernel's arguments for the next launches, keeping the node's launch configuration (`cuGraphExecKernelNodeSetParams`). Memory the node stops using is released once the launches that may use it are done.
    pub fn set(
        &mut self,
        n: impl ::cudagraph_runtime::__private::KernelArg<'static, u32>,
        arg1: impl ::cudagraph_runtime::__private::KernelArg<'static, f32>,
        x: impl ::cudagraph_runtime::__private::KernelArg<'static, DevicePtr<f32>>,
        arg3: impl ::cudagraph_runtime::__private::KernelArg<'static, DevicePtrMut<f32>>,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let config = self.exec.state.launch.attn[self.index];
        self.set_launch(config, n, arg1, x, arg3)
    }
    ///Sets the launch configuration and the kernel's arguments for the next launches (`cuGraphExecKernelNodeSetParams`).
    pub fn set_launch(
        &mut self,
        config: ::cudagraph_runtime::__private::LaunchConfig,
        n: impl ::cudagraph_runtime::__private::KernelArg<'static, u32>,
        arg1: impl ::cudagraph_runtime::__private::KernelArg<'static, f32>,
        x: impl ::cudagraph_runtime::__private::KernelArg<'static, DevicePtr<f32>>,
        arg3: impl ::cudagraph_runtime::__private::KernelArg<'static, DevicePtrMut<f32>>,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        self.exec.dirty[Self::__CG_POSITIONS[self.index]] = true;
        self.exec
            .exec
            .set_kernel_params(
                self.exec.nodes.attn[self.index],
                config,
                (n, arg1, x, arg3),
            )?;
        self.exec.state.launch.attn[self.index] = config;
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    /// The node's launch configuration now.
    pub fn launch_config(&self) -> ::cudagraph_runtime::__private::LaunchConfig {
        self.exec.state.launch.attn[self.index]
    }
    /// Enables or disables the node for the next launches (`cuGraphNodeSetEnabled`). A
    /// disabled node acts as an empty node; params set meanwhile apply once it is enabled.
    pub fn set_enabled(
        &mut self,
        enabled: bool,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        self.exec.exec.set_enabled(self.exec.nodes.attn[self.index], enabled)
    }
    /// Whether the node is enabled (`cuGraphNodeGetEnabled`).
    pub fn is_enabled(&self) -> ::cudagraph_runtime::__private::Result<bool> {
        self.exec.exec.is_enabled(self.exec.nodes.attn[self.index])
    }
    /// The node's runtime handle, for the runtime's own API.
    pub fn node(
        &self,
    ) -> ::cudagraph_runtime::__private::KernelNode<
        (u32, f32, DevicePtr<f32>, DevicePtrMut<f32>),
    > {
        self.exec.nodes.attn[self.index]
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for DecodeAttnNode<'_> {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("DecodeAttnNode")
            .field("index", &Self::__CG_POSITIONS[self.index])
            .finish_non_exhaustive()
    }
}
///Update handle of node `mlp[l]` of [`DecodeExec`] (`kernel layer<<<n.div_ceil(256), 256>>>(n, 1.0, h[l], x)`): its arguments and launch configuration can change, and it can be enabled or disabled ([what CUDA allows](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#individual-node-update)).
struct DecodeMlpNode<'a> {
    exec: &'a mut DecodeExec,
    index: usize,
}
impl<'a> DecodeMlpNode<'a> {
    const __CG_POSITIONS: [usize; 3usize] = [2usize, 4usize, 6usize];
    ///Sets the kernel's arguments for the next launches, keeping the node's launch configuration (`cuGraphExecKernelNodeSetParams`). Memory the node stops using is released once the launches that may use it are done.
    pub fn set(
        &mut self,
        n: impl ::cudagraph_runtime::__private::KernelArg<'static, u32>,
        arg1: impl ::cudagraph_runtime::__private::KernelArg<'static, f32>,
        arg2: impl ::cudagraph_runtime::__private::KernelArg<'static, DevicePtr<f32>>,
        x: impl ::cudagraph_runtime::__private::KernelArg<'static, DevicePtrMut<f32>>,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let config = self.exec.state.launch.mlp[self.index];
        self.set_launch(config, n, arg1, arg2, x)
    }
    ///Sets the launch configuration and the kernel's arguments for the next launches (`cuGraphExecKernelNodeSetParams`).
    pub fn set_launch(
        &mut self,
        config: ::cudagraph_runtime::__private::LaunchConfig,
        n: impl ::cudagraph_runtime::__private::KernelArg<'static, u32>,
        arg1: impl ::cudagraph_runtime::__private::KernelArg<'static, f32>,
        arg2: impl ::cudagraph_runtime::__private::KernelArg<'static, DevicePtr<f32>>,
        x: impl ::cudagraph_runtime::__private::KernelArg<'static, DevicePtrMut<f32>>,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        self.exec.dirty[Self::__CG_POSITIONS[self.index]] = true;
        self.exec
            .exec
            .set_kernel_params(
                self.exec.nodes.mlp[self.index],
                config,
                (n, arg1, arg2, x),
            )?;
        self.exec.state.launch.mlp[self.index] = config;
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    /// The node's launch configuration now.
    pub fn launch_config(&self) -> ::cudagraph_runtime::__private::LaunchConfig {
        self.exec.state.launch.mlp[self.index]
    }
    /// Enables or disables the node for the next launches (`cuGraphNodeSetEnabled`). A
    /// disabled node acts as an empty node; params set meanwhile apply once it is enabled.
    pub fn set_enabled(
        &mut self,
        enabled: bool,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        self.exec.exec.set_enabled(self.exec.nodes.mlp[self.index], enabled)
    }
    /// Whether the node is enabled (`cuGraphNodeGetEnabled`).
    pub fn is_enabled(&self) -> ::cudagraph_runtime::__private::Result<bool> {
        self.exec.exec.is_enabled(self.exec.nodes.mlp[self.index])
    }
    /// The node's runtime handle, for the runtime's own API.
    pub fn node(
        &self,
    ) -> ::cudagraph_runtime::__private::KernelNode<
        (u32, f32, DevicePtr<f32>, DevicePtrMut<f32>),
    > {
        self.exec.nodes.mlp[self.index]
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for DecodeMlpNode<'_> {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("DecodeMlpNode")
            .field("index", &Self::__CG_POSITIONS[self.index])
            .finish_non_exhaustive()
    }
}
///Update handle of node `head` of [`DecodeExec`] (`memcpy(x -> w[0])`): its source and destination can change (same direction, 1-D only), and it can be enabled or disabled ([what CUDA allows](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#individual-node-update)).
struct DecodeHeadNode<'a> {
    exec: &'a mut DecodeExec,
}
impl<'a> DecodeHeadNode<'a> {
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
                DeviceBuffer<f32>,
            ) as ::cudagraph_runtime::__private::CopyPair>::Dir,
            __CgElem,
        >,
    {
        self.exec.dirty[7usize] = true;
        self.exec
            .exec
            .set_memcpy_params(
                self.exec.nodes.head,
                ::cudagraph_runtime::__private::memcpy_as(src, dst),
            )
    }
    #[doc(hidden)]
    pub fn set_2d<__CgSrc, __CgDst>(
        &mut self,
        src: __CgSrc,
        src_pitch: usize,
        dst: __CgDst,
        dst_pitch: usize,
        width: usize,
        height: usize,
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
        enabled: bool,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        self.exec.exec.set_enabled(self.exec.nodes.head, enabled)
    }
    /// Whether the node is enabled (`cuGraphNodeGetEnabled`).
    pub fn is_enabled(&self) -> ::cudagraph_runtime::__private::Result<bool> {
        self.exec.exec.is_enabled(self.exec.nodes.head)
    }
    /// The node's runtime handle, for the runtime's own API.
    pub fn node(
        &self,
    ) -> ::cudagraph_runtime::__private::MemcpyNode<
        <(
            DeviceBuffer<f32>,
            DeviceBuffer<f32>,
        ) as ::cudagraph_runtime::__private::CopyPair>::Dir,
    > {
        self.exec.nodes.head
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for DecodeHeadNode<'_> {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("DecodeHeadNode").field("index", &7usize).finish_non_exhaustive()
    }
}
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
/**The params of [`Sides`]: what its nodes are built from ([`Sides::build`]), and what [`SidesExec::set_params`] compares to update only the nodes whose inputs changed.

- node `side[i]` reads `scale`, `g`, `n`
- node `other` reads `scale`, `x`, `n`
*/
#[allow(clippy::type_complexity)]
struct SidesParams {
    ///Param `scale`, read by nodes `side[i]`, `other`.
    pub scale: Kernel<(u32, f32, DevicePtrMut<f32>)>,
    ///Param `g`, read by node `side[i]`.
    pub g: [DeviceBuffer<f32>; 3],
    ///Param `x`, read by node `other`.
    pub x: DeviceBuffer<f32>,
    ///Param `n`, read by nodes `side[i]`, `other`.
    pub n: u32,
}
impl ::cudagraph_runtime::__private::fmt::Debug for SidesParams {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("SidesParams").finish_non_exhaustive()
    }
}
/// Iterations no edge orders, each writing its own element, beside a node writing another
/// buffer: the elements' memory checked all at once, the pairs with `other` from a table.
/**

A CUDA graph declared with `cuda_graph!`: [`Sides::build`] builds it from a [`SidesParams`], [`Sides::instantiate`] makes it a [`SidesExec`].

# Nodes

In build order (a node's position is its index in the graph):

0. `side[0]`: `kernel scale<<<1, 32>>>(n, 2.0, g[i])`
1. `side[1]`: `kernel scale<<<1, 32>>>(n, 2.0, g[i])`
2. `side[2]`: `kernel scale<<<1, 32>>>(n, 2.0, g[i])`
3. `other`: `kernel scale<<<1, 32>>>(n, 0.5, x)`

# Topology

<div style="overflow-x:auto"><svg xmlns="http://www.w3.org/2000/svg" role="img" width="358" height="56" viewBox="0 0 358 56" font-family="monospace" font-size="14" text-anchor="middle" fill="currentColor"><title>Topology of Sides: 4 nodes, 0 edges</title><rect x="8" y="8" width="78" height="40" rx="4" fill="#dbeafe" stroke="#1d4ed8"/><text x="47" y="25" fill="#111">side[0]</text><text x="47" y="41" font-size="11" fill="#374151">kernel</text><rect x="102" y="8" width="78" height="40" rx="4" fill="#dbeafe" stroke="#1d4ed8"/><text x="141" y="25" fill="#111">side[1]</text><text x="141" y="41" font-size="11" fill="#374151">kernel</text><rect x="196" y="8" width="78" height="40" rx="4" fill="#dbeafe" stroke="#1d4ed8"/><text x="235" y="25" fill="#111">side[2]</text><text x="235" y="41" font-size="11" fill="#374151">kernel</text><rect x="290" y="8" width="60" height="40" rx="4" fill="#dbeafe" stroke="#1d4ed8"/><text x="320" y="25" fill="#111">other</text><text x="320" y="41" font-size="11" fill="#374151">kernel</text></svg></div>

As text: `Sides::TOPOLOGY.to_mermaid()` (Mermaid) or `.to_dot()` (Graphviz).
*/
struct Sides {
    graph: ::cudagraph_runtime::__private::Graph<'static>,
    nodes: ::cudagraph_runtime::__private::Box<
        ::cudagraph_runtime::__private::ManuallyDrop<__SidesNodes>,
    >,
    state: __SidesState,
    build_id: u64,
}
#[doc(hidden)]
#[allow(non_camel_case_types, dead_code, clippy::type_complexity)]
struct __SidesNodes {
    side: [::cudagraph_runtime::__private::KernelNode<
        (u32, f32, DevicePtrMut<f32>),
    >; 3usize],
    other: ::cudagraph_runtime::__private::KernelNode<(u32, f32, DevicePtrMut<f32>)>,
}
unsafe impl ::cudagraph_runtime::__private::Unbuilt for __SidesNodes {}
#[doc(hidden)]
#[allow(non_camel_case_types, non_snake_case, dead_code, clippy::type_complexity)]
struct __SidesSnapshot0 {
    scale: usize,
    g: [DeviceBuffer<f32>; 3],
    x: DeviceBuffer<f32>,
    n: u32,
}
impl __SidesSnapshot0 {
    #[inline(never)]
    fn __cg_keep(__cg_params: &SidesParams) -> Self {
        Self {
            scale: <Kernel<
                (u32, f32, DevicePtrMut<f32>),
            > as ::cudagraph_runtime::__private::KernelType>::function_id(
                &__cg_params.scale,
            ),
            g: <[DeviceBuffer<
                f32,
            >; 3] as ::cudagraph_runtime::__private::ParamValue>::keep(&__cg_params.g),
            x: <DeviceBuffer<
                f32,
            > as ::cudagraph_runtime::__private::ParamValue>::keep(&__cg_params.x),
            n: <u32 as ::cudagraph_runtime::__private::ParamValue>::keep(&__cg_params.n),
        }
    }
}
impl ::cudagraph_runtime::__private::Clone for __SidesSnapshot0 {
    #[inline(never)]
    fn clone(&self) -> Self {
        Self {
            scale: self.scale,
            g: <[DeviceBuffer<
                f32,
            >; 3] as ::cudagraph_runtime::__private::ParamValue>::keep(&self.g),
            x: <DeviceBuffer<
                f32,
            > as ::cudagraph_runtime::__private::ParamValue>::keep(&self.x),
            n: <u32 as ::cudagraph_runtime::__private::ParamValue>::keep(&self.n),
        }
    }
}
#[doc(hidden)]
#[allow(non_camel_case_types)]
struct __SidesSnapshot {
    __cg_kept_0: __SidesSnapshot0,
}
impl __SidesSnapshot {
    /// What the executable keeps of `params`.
    #[allow(unused_variables)]
    fn __cg_keep(__cg_params: &SidesParams) -> Self {
        Self {
            __cg_kept_0: __SidesSnapshot0::__cg_keep(__cg_params),
        }
    }
}
impl ::cudagraph_runtime::__private::Clone for __SidesSnapshot {
    fn clone(&self) -> Self {
        Self {
            __cg_kept_0: ::cudagraph_runtime::__private::Clone::clone(&self.__cg_kept_0),
        }
    }
}
#[doc(hidden)]
#[allow(non_camel_case_types, non_snake_case, dead_code)]
#[derive(Clone, Copy)]
struct __SidesLaunch {
    side: [::cudagraph_runtime::__private::LaunchConfig; 3usize],
    other: ::cudagraph_runtime::__private::LaunchConfig,
}
unsafe impl ::cudagraph_runtime::__private::Unbuilt for __SidesLaunch {}
#[doc(hidden)]
#[allow(non_camel_case_types)]
struct __SidesState {
    params: __SidesSnapshot,
    launch: ::cudagraph_runtime::__private::Box<__SidesLaunch>,
}
impl Sides {
    /// The declared shape: nodes in build order (their indices in the graph; one more
    /// with `#[indirect]` params, whose fetch node comes first), kinds and edges. Its
    /// `to_dot()` and `to_mermaid()` draw it.
    pub const TOPOLOGY: ::cudagraph_runtime::__private::Topology = ::cudagraph_runtime::__private::Topology {
        name: "Sides",
        nodes: &[
            ("side[0]", ::cudagraph_runtime::__private::NodeKind::Kernel),
            ("side[1]", ::cudagraph_runtime::__private::NodeKind::Kernel),
            ("side[2]", ::cudagraph_runtime::__private::NodeKind::Kernel),
            ("other", ::cudagraph_runtime::__private::NodeKind::Kernel),
        ],
        edges: &[],
        bodies: &[],
    };
    /// [`TOPOLOGY`](Self::TOPOLOGY) drawn as a standalone SVG image, laid out when the
    /// macro ran: the picture in this type's docs. Write it to a `.svg` file or put it
    /// in an HTML page; its lines and labels take the text colour of the page around it
    /// (black in a file of its own). It is in the binary only if the program calls this.
    pub const fn topology_svg() -> &'static str {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" width=\"358\" height=\"56\" viewBox=\"0 0 358 56\" font-family=\"monospace\" font-size=\"14\" text-anchor=\"middle\" fill=\"currentColor\"><title>Topology of Sides: 4 nodes, 0 edges</title><rect x=\"8\" y=\"8\" width=\"78\" height=\"40\" rx=\"4\" fill=\"#dbeafe\" stroke=\"#1d4ed8\"/><text x=\"47\" y=\"25\" fill=\"#111\">side[0]</text><text x=\"47\" y=\"41\" font-size=\"11\" fill=\"#374151\">kernel</text><rect x=\"102\" y=\"8\" width=\"78\" height=\"40\" rx=\"4\" fill=\"#dbeafe\" stroke=\"#1d4ed8\"/><text x=\"141\" y=\"25\" fill=\"#111\">side[1]</text><text x=\"141\" y=\"41\" font-size=\"11\" fill=\"#374151\">kernel</text><rect x=\"196\" y=\"8\" width=\"78\" height=\"40\" rx=\"4\" fill=\"#dbeafe\" stroke=\"#1d4ed8\"/><text x=\"235\" y=\"25\" fill=\"#111\">side[2]</text><text x=\"235\" y=\"41\" font-size=\"11\" fill=\"#374151\">kernel</text><rect x=\"290\" y=\"8\" width=\"60\" height=\"40\" rx=\"4\" fill=\"#dbeafe\" stroke=\"#1d4ed8\"/><text x=\"320\" y=\"25\" fill=\"#111\">other</text><text x=\"320\" y=\"41\" font-size=\"11\" fill=\"#374151\">kernel</text></svg>"
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
        __cg_params: &SidesParams,
    ) -> ::cudagraph_runtime::__private::Result<Self> {
        Self::__cg_check_overlaps(__cg_params)?;
        let mut __cg_graph = ::cudagraph_runtime::__private::Graph::with_capacity(
            ctx,
            4usize,
        )?;
        let (nodes, state) = Self::__cg_add_nodes(&mut __cg_graph, __cg_params)?;
        ::cudagraph_runtime::__private::built(&__cg_graph, "Sides");
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
        __cg_params: &SidesParams,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        Self::__cg_check_overlaps(__cg_params)?;
        self.build_id = ::cudagraph_runtime::__private::next_build_id();
        self.graph.clear()?;
        let (nodes, state) = Self::__cg_add_nodes(&mut self.graph, __cg_params)?;
        ::cudagraph_runtime::__private::built(&self.graph, "Sides");
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
        __cg_params: &SidesParams,
    ) -> ::cudagraph_runtime::__private::Result<
        (
            ::cudagraph_runtime::__private::Box<
                ::cudagraph_runtime::__private::ManuallyDrop<__SidesNodes>,
            >,
            __SidesState,
        ),
    > {
        let mut boxed = ::cudagraph_runtime::__private::unbuilt_box::<
            ::cudagraph_runtime::__private::ManuallyDrop<__SidesNodes>,
        >();
        let mut configs = ::cudagraph_runtime::__private::unbuilt_box::<__SidesLaunch>();
        {
            let nodes: &mut __SidesNodes = &mut boxed;
            #[allow(unused_variables)]
            let launches: &mut __SidesLaunch = &mut configs;
            let ids = &mut ::cudagraph_runtime::__private::Vec::with_capacity(4usize);
            Self::__cg_add_loop_0(
                __cg_graph,
                __cg_params,
                nodes,
                launches,
                ids,
                0usize,
                3usize,
            )?;
            Self::__cg_add_3(__cg_graph, __cg_params, nodes, launches, ids)?;
        }
        ::cudagraph_runtime::__private::Result::Ok((
            boxed,
            __SidesState {
                params: __SidesSnapshot::__cg_keep(__cg_params),
                launch: configs,
            },
        ))
    }
    #[inline(never)]
    fn __cg_add_loop_0(
        __cg_graph: &mut ::cudagraph_runtime::__private::Graph<'static>,
        __cg_params: &SidesParams,
        nodes: &mut __SidesNodes,
        launches: &mut __SidesLaunch,
        ids: &mut ::cudagraph_runtime::__private::Vec<
            ::cudagraph_runtime::__private::NodeId,
        >,
        from: usize,
        to: usize,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        for index in from..to {
            #[allow(unused_variables)]
            let i: usize = index;
            let pos = ids.len();
            (nodes.side[index], launches.side[index]) = ::cudagraph_runtime::__private::add_node(
                __cg_graph,
                Sides::TOPOLOGY.nodes[pos].0,
                |__cg_graph| {
                    let (kernel, config, args) = Sides::__cg_eval_side(
                        __cg_params,
                        index,
                    );
                    ::cudagraph_runtime::__private::Result::Ok((
                        __cg_graph
                            .add_kernel(
                                kernel,
                                config,
                                args,
                                &::cudagraph_runtime::__private::deps_at(
                                    ids,
                                    Sides::__CG_DEPS,
                                    Sides::__CG_DEP_START,
                                ),
                            )?,
                        config,
                    ))
                },
            )?;
            ids.push(nodes.side[index].id());
        }
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline(never)]
    fn __cg_add_3(
        __cg_graph: &mut ::cudagraph_runtime::__private::Graph<'static>,
        __cg_params: &SidesParams,
        nodes: &mut __SidesNodes,
        launches: &mut __SidesLaunch,
        ids: &mut ::cudagraph_runtime::__private::Vec<
            ::cudagraph_runtime::__private::NodeId,
        >,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        (nodes.other, launches.other) = ::cudagraph_runtime::__private::add_node(
            __cg_graph,
            "other",
            |__cg_graph| {
                let (kernel, config, args) = Sides::__cg_eval_other(__cg_params);
                ::cudagraph_runtime::__private::Result::Ok((
                    __cg_graph.add_kernel(kernel, config, args, &[])?,
                    config,
                ))
            },
        )?;
        ids.push(nodes.other.id());
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    /// The dependencies of every node, by position: those of the node at position
    /// `p` are `__CG_DEPS[__CG_DEP_START[p]..__CG_DEP_START[p + 1]]`.
    #[doc(hidden)]
    const __CG_DEPS: &'static [u32] = &[];
    #[doc(hidden)]
    const __CG_DEP_START: &'static [u32] = &[0u32, 0u32, 0u32, 0u32, 0u32];
    /// The runtime graph.
    pub fn graph(&self) -> &::cudagraph_runtime::__private::Graph<'static> {
        &self.graph
    }
    /// Refuses params under which two nodes that may run at the same time share memory, one
    /// writing it.
    #[allow(unused_variables)]
    #[inline]
    fn __cg_check_overlaps(
        __cg_params: &SidesParams,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        #[allow(unused_imports)]
        use ::cudagraph_runtime::__private::{
            ArgsFallback as _, BodyFallback as _, ParamFallback as _, SlotFallback as _,
        };
        if ::cudagraph_runtime::__private::races(
            ::cudagraph_runtime::__private::access_max(
                &[::cudagraph_runtime::__private::WRITE],
            ),
            ::cudagraph_runtime::__private::access_max(
                &[::cudagraph_runtime::__private::WRITE],
            ),
        ) {
            const ELEMENTS: &[(usize, usize)] = &[
                (0usize, 0usize),
                (1usize, 1usize),
                (2usize, 2usize),
            ];
            let memories: ::cudagraph_runtime::__private::Vec<_> = ELEMENTS
                .iter()
                .map(|&(k, _)| <::cudagraph_runtime::__private::ParamProbe<
                    DeviceBuffer<f32>,
                >>::bytes(&__cg_params.g[k]))
                .collect();
            if let ::cudagraph_runtime::__private::Option::Some((i, j)) = ::cudagraph_runtime::__private::first_overlap(
                &memories,
            ) {
                let ((ki, ni), (kj, nj)) = (ELEMENTS[i], ELEMENTS[j]);
                return ::cudagraph_runtime::__private::Result::Err(
                    ::cudagraph_runtime::__private::overlap_error(
                        Self::TOPOLOGY.nodes[ni].0,
                        &::std::format!("g[{}]", ki),
                        Self::TOPOLOGY.nodes[nj].0,
                        &::std::format!("g[{}]", kj),
                    ),
                );
            }
        }
        if ::cudagraph_runtime::__private::races(
            ::cudagraph_runtime::__private::access_max(
                &[::cudagraph_runtime::__private::WRITE],
            ),
            ::cudagraph_runtime::__private::access_max(
                &[::cudagraph_runtime::__private::WRITE],
            ),
        ) {
            const PAIRS: &[(usize, usize, usize, usize)] = &[
                (0usize, 0usize, 3usize, 0usize),
                (1usize, 1usize, 3usize, 0usize),
                (2usize, 2usize, 3usize, 0usize),
            ];
            for &(a, ka, b, kb) in PAIRS {
                let (x, y) = (
                    [
                        <::cudagraph_runtime::__private::ParamProbe<
                            DeviceBuffer<f32>,
                        >>::bytes(&__cg_params.g[ka]),
                    ],
                    [
                        <::cudagraph_runtime::__private::ParamProbe<
                            DeviceBuffer<f32>,
                        >>::bytes(&__cg_params.x),
                    ],
                );
                if x
                    .iter()
                    .any(|x| {
                        y
                            .iter()
                            .any(|y| ::cudagraph_runtime::__private::overlap_bytes(
                                *x,
                                *y,
                            ))
                    })
                {
                    return ::cudagraph_runtime::__private::Result::Err(
                        ::cudagraph_runtime::__private::overlap_error(
                            Self::TOPOLOGY.nodes[a].0,
                            &::std::format!("g[{}]", ka),
                            Self::TOPOLOGY.nodes[b].0,
                            "x",
                        ),
                    );
                }
            }
        }
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    ///Instantiates the graph with default flags.
    pub fn instantiate(self) -> ::cudagraph_runtime::__private::Result<SidesExec> {
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
    ) -> ::cudagraph_runtime::__private::Result<SidesExec> {
        ::cudagraph_runtime::__private::Result::Ok(SidesExec {
            exec: self.graph.instantiate_with(flags, upload)?,
            nodes: self.nodes,
            state: self.state,
            dirty: [false; 4usize],
            stamps: ::cudagraph_runtime::__private::zeros(4usize),
            generation: 0,
        })
    }
    #[allow(
        non_snake_case,
        unused_variables,
        clippy::type_complexity,
        clippy::needless_lifetimes
    )]
    fn __cg_eval_side<'__cg_p>(
        __cg_params: &'__cg_p SidesParams,
        index: usize,
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
        let g = (&::cudagraph_runtime::__private::Bind(&__cg_params.g)).__cg_bind();
        #[allow(unused_variables, clippy::redundant_locals)]
        let i: usize = index;
        let config = ::cudagraph_runtime::__private::launch(1, 32, 0);
        let args = (
            ::cudagraph_runtime::__private::KernelArgPart::<'static, u32, _>::new(n),
            ::cudagraph_runtime::__private::KernelArgPart::<'static, f32, _>::new(2.0),
            ::cudagraph_runtime::__private::KernelArgPart::<
                'static,
                DevicePtrMut<f32>,
                _,
            >::new((&::cudagraph_runtime::__private::Bind(&g[i])).__cg_bind()),
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
    #[allow(
        non_snake_case,
        unused_variables,
        clippy::type_complexity,
        clippy::needless_lifetimes
    )]
    fn __cg_eval_other<'__cg_p>(
        __cg_params: &'__cg_p SidesParams,
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
        let x = (&::cudagraph_runtime::__private::Bind(&__cg_params.x)).__cg_bind();
        let config = ::cudagraph_runtime::__private::launch(1, 32, 0);
        let args = (
            ::cudagraph_runtime::__private::KernelArgPart::<'static, u32, _>::new(n),
            ::cudagraph_runtime::__private::KernelArgPart::<'static, f32, _>::new(0.5),
            ::cudagraph_runtime::__private::KernelArgPart::<
                'static,
                DevicePtrMut<f32>,
                _,
            >::new(x),
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
impl ::cudagraph_runtime::__private::fmt::Debug for Sides {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("Sides").field("graph", &self.graph).finish_non_exhaustive()
    }
}
impl ::cudagraph_runtime::__private::BodyRules for Sides {
    const FORBIDDEN_IN_BODY: ::cudagraph_runtime::__private::Option<&'static str> = {
        #[allow(unused_imports)]
        use ::cudagraph_runtime::__private::{
            ArgsFallback as _, BodyFallback as _, ParamFallback as _, SlotFallback as _,
        };
        ::cudagraph_runtime::__private::first_forbidden(&[])
    };
}
impl ::cudagraph_runtime::__private::ChildGraph for Sides {
    fn graph(&self) -> &::cudagraph_runtime::__private::Graph<'static> {
        &self.graph
    }
    fn identity(&self) -> ::cudagraph_runtime::__private::Option<u64> {
        ::cudagraph_runtime::__private::Option::Some(self.build_id)
    }
}
impl ::cudagraph_runtime::__private::SameDeclaration<Sides> for Sides {
    fn same(&self) -> &Sides {
        self
    }
}
/**[`Sides`], instantiated: launch it, update it from another [`Sides`] or with [`set_params`](Self::set_params), or update one node through its handle:

- [`side(i)`](Self::side): kernel node, one per iteration (3 instances)
- [`other()`](Self::other): kernel node
*/
struct SidesExec {
    exec: ::cudagraph_runtime::__private::GraphExec<'static>,
    nodes: ::cudagraph_runtime::__private::Box<
        ::cudagraph_runtime::__private::ManuallyDrop<__SidesNodes>,
    >,
    state: __SidesState,
    /// Nodes set through their handles since the last `set_params`: it sets them again.
    dirty: [bool; 4usize],
    /// Per node, the number of the last `set_params_only` call naming several params that
    /// updated it (so that it updates each node once).
    stamps: ::cudagraph_runtime::__private::Box<[u32]>,
    /// The number of the last such call.
    generation: u32,
}
impl SidesExec {
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
    /**Whole-graph update from a [`Sides`] built with other params (`cuGraphExecUpdate`).

Only a graph of this declaration is accepted: it was built by the same sequence of calls, so its nodes pair with this executable's ([whole-graph update](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#whole-graph-update)). Afterwards the executable runs that graph's params, and [`set_params`](Self::set_params) compares with them.*/
    pub fn update<__CgSame: ::cudagraph_runtime::__private::SameDeclaration<Sides>>(
        &mut self,
        source: &__CgSame,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let source: &Sides = ::cudagraph_runtime::__private::SameDeclaration::same(
            source,
        );
        self.exec.update(&source.graph)?;
        self.state.params = source.state.params.clone();
        *self.state.launch = *source.state.launch;
        self.dirty = [false; 4usize];
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    /**Makes the executable's nodes what [`Sides::build`] would make from `params`, with one single-node update per node whose inputs changed since the last build, update or `set_params` (or that was set through its handle since). Returns how many nodes it updated. Enabled/disabled states are kept.

A param is compared with `PartialEq`, a kernel by function, a declared graph by identity; a runtime `Graph` counts as changed every time. A kernel param may change function (same parameter list, same context): the node's single-node update switches it.*/
    pub fn set_params(
        &mut self,
        __cg_params: &SidesParams,
    ) -> ::cudagraph_runtime::__private::Result<usize> {
        Sides::__cg_check_overlaps(__cg_params)?;
        #[allow(unused_mut)]
        let mut changed = [false; 6usize];
        self.__cg_changed_0(__cg_params, &mut changed);
        let mut updated = 0usize;
        #[allow(clippy::type_complexity)]
        const READS: &[(
            usize,
            &[usize],
            fn(
                &mut SidesExec,
                &SidesParams,
                usize,
            ) -> ::cudagraph_runtime::__private::Result<()>,
            usize,
        )] = &[
            (0usize, &[0usize, 1usize, 5usize], SidesExec::__cg_update_node_0, 0usize),
            (1usize, &[0usize, 2usize, 5usize], SidesExec::__cg_update_node_0, 1usize),
            (2usize, &[0usize, 3usize, 5usize], SidesExec::__cg_update_node_0, 2usize),
            (3usize, &[0usize, 4usize, 5usize], SidesExec::__cg_update_node_3, 0usize),
        ];
        for &(pos, reads, update, index) in READS {
            if self.dirty[pos] || reads.iter().any(|&i| changed[i]) {
                self.dirty[pos] = true;
                update(self, __cg_params, index)?;
                updated += 1;
            }
        }
        const SLOTS: [usize; 4usize + 1] = [0usize, 1usize, 4usize, 5usize, 6usize];
        for (param, &(_, commit)) in Self::__CG_PARAMS.iter().enumerate() {
            if changed[SLOTS[param]..SLOTS[param + 1]].contains(&true) {
                commit(self, __cg_params)?;
            }
        }
        self.dirty = [false; 4usize];
        ::cudagraph_runtime::__private::Result::Ok(updated)
    }
    /// The runtime executable, for what the typed API does not cover (read-only).
    pub fn as_exec(&self) -> &::cudagraph_runtime::__private::GraphExec<'static> {
        &self.exec
    }
    #[inline(never)]
    fn __cg_changed_0(&self, __cg_params: &SidesParams, changed: &mut [bool; 6usize]) {
        changed[0usize] = !(<Kernel<
            (u32, f32, DevicePtrMut<f32>),
        > as ::cudagraph_runtime::__private::KernelType>::function_id(&__cg_params.scale)
            == self.state.params.__cg_kept_0.scale);
        for k in 0..3usize {
            changed[1usize + k] = !(<DeviceBuffer<
                f32,
            > as ::cudagraph_runtime::__private::ParamValue>::same(
                &__cg_params.g[k],
                &self.state.params.__cg_kept_0.g[k],
            ));
        }
        changed[4usize] = !(<DeviceBuffer<
            f32,
        > as ::cudagraph_runtime::__private::ParamValue>::same(
            &__cg_params.x,
            &self.state.params.__cg_kept_0.x,
        ));
        changed[5usize] = !(<u32 as ::cudagraph_runtime::__private::ParamValue>::same(
            &__cg_params.n,
            &self.state.params.__cg_kept_0.n,
        ));
    }
    /**Node `side[i]` (`kernel scale<<<1, 32>>>(n, 2.0, g[i])`): its update handle.

The node is declared in a `for` loop: this is the handle of its instance of iteration `i` (`i` below 3).

# Errors

`Error::Invalid` when `i` is 3 or more.*/
    pub fn side(
        &mut self,
        i: usize,
    ) -> ::cudagraph_runtime::__private::Result<SidesSideNode<'_>> {
        ::cudagraph_runtime::__private::instance("side", i, 3usize)?;
        ::cudagraph_runtime::__private::Result::Ok(SidesSideNode {
            exec: self,
            index: i,
        })
    }
    ///Node `other` (`kernel scale<<<1, 32>>>(n, 0.5, x)`): its update handle.
    pub fn other(&mut self) -> SidesOtherNode<'_> {
        SidesOtherNode { exec: self }
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for SidesExec {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("SidesExec").field("exec", &self.exec).finish_non_exhaustive()
    }
}
///The params of [`SidesParams`], one variant each: what [`SidesExec::set_params_only`] is told changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(dead_code)]
enum SidesParam {
    ///Param `scale`.
    Scale,
    ///Param `g`.
    G,
    ///Param `x`.
    X,
    ///Param `n`.
    N,
}
impl SidesExec {
    /**Like [`set_params`](Self::set_params), for callers that know what they changed: updates the nodes whose expressions read a param in `changed` (each once), and only them, so its cost grows with the nodes updated, not with the graph. Returns how many nodes it updated.

A changed param missing from `changed` leaves its nodes as they were (the executable keeps alive whatever memory they use); nodes set through their handles are not reset (`set_params` does both). Params that share memory with another under nodes that may run at the same time are refused as by [`Sides::build`].*/
    pub fn set_params_only(
        &mut self,
        __cg_params: &SidesParams,
        changed: &[SidesParam],
    ) -> ::cudagraph_runtime::__private::Result<usize> {
        Sides::__cg_check_overlaps(__cg_params)?;
        for &__cg_param in changed {
            match __cg_param {
                SidesParam::Scale => {}
                SidesParam::G => {}
                SidesParam::X => {}
                SidesParam::N => {}
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
                &SidesParams,
                usize,
            ) -> ::cudagraph_runtime::__private::Result<()>,
            usize,
        )],
        fn(&mut Self, &SidesParams) -> ::cudagraph_runtime::__private::Result<()>,
    )] = &[
        (
            &[
                (0usize, Self::__cg_update_node_0, 0usize),
                (1usize, Self::__cg_update_node_0, 1usize),
                (2usize, Self::__cg_update_node_0, 2usize),
                (3usize, Self::__cg_update_node_3, 0usize),
            ],
            Self::__cg_commit_0,
        ),
        (
            &[
                (0usize, Self::__cg_update_node_0, 0usize),
                (1usize, Self::__cg_update_node_0, 1usize),
                (2usize, Self::__cg_update_node_0, 2usize),
            ],
            Self::__cg_commit_1,
        ),
        (&[(3usize, Self::__cg_update_node_3, 0usize)], Self::__cg_commit_2),
        (
            &[
                (0usize, Self::__cg_update_node_0, 0usize),
                (1usize, Self::__cg_update_node_0, 1usize),
                (2usize, Self::__cg_update_node_0, 2usize),
                (3usize, Self::__cg_update_node_3, 0usize),
            ],
            Self::__cg_commit_3,
        ),
    ];
    #[inline(never)]
    fn __cg_commit_0(
        &mut self,
        __cg_params: &SidesParams,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        self.state.params.__cg_kept_0.scale = <Kernel<
            (u32, f32, DevicePtrMut<f32>),
        > as ::cudagraph_runtime::__private::KernelType>::function_id(
            &__cg_params.scale,
        );
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline(never)]
    fn __cg_commit_1(
        &mut self,
        __cg_params: &SidesParams,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        self.state.params.__cg_kept_0.g = <[DeviceBuffer<
            f32,
        >; 3] as ::cudagraph_runtime::__private::ParamValue>::keep(&__cg_params.g);
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline(never)]
    fn __cg_commit_2(
        &mut self,
        __cg_params: &SidesParams,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        self.state.params.__cg_kept_0.x = <DeviceBuffer<
            f32,
        > as ::cudagraph_runtime::__private::ParamValue>::keep(&__cg_params.x);
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline(never)]
    fn __cg_commit_3(
        &mut self,
        __cg_params: &SidesParams,
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
        __cg_params: &SidesParams,
        index: usize,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        #[allow(unused_variables)]
        let i: usize = index;
        let (kernel, config, args) = Sides::__cg_eval_side(__cg_params, index);
        self.exec.set_kernel(self.nodes.side[index], kernel, config, args)?;
        self.state.launch.side[index] = config;
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline(never)]
    #[allow(unused_variables)]
    fn __cg_update_node_3(
        &mut self,
        __cg_params: &SidesParams,
        index: usize,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let (kernel, config, args) = Sides::__cg_eval_other(__cg_params);
        self.exec.set_kernel(self.nodes.other, kernel, config, args)?;
        self.state.launch.other = config;
        ::cudagraph_runtime::__private::Result::Ok(())
    }
}
///Update handle of node `side[i]` of [`SidesExec`] (`kernel scale<<<1, 32>>>(n, 2.0, g[i])`): its arguments and launch configuration can change, and it can be enabled or disabled ([what CUDA allows](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#individual-node-update)).
struct SidesSideNode<'a> {
    exec: &'a mut SidesExec,
    index: usize,
}
impl<'a> SidesSideNode<'a> {
    const __CG_POSITIONS: [usize; 3usize] = [0usize, 1usize, 2usize];
    ///Sets the kernel's arguments for the next launches, keeping the node's launch configuration (`cuGraphExecKernelNodeSetParams`). Memory the node stops using is released once the launches that may use it are done.
    pub fn set(
        &mut self,
        n: impl ::cudagraph_runtime::__private::KernelArg<'static, u32>,
        arg1: impl ::cudagraph_runtime::__private::KernelArg<'static, f32>,
        arg2: impl ::cudagraph_runtime::__private::KernelArg<'static, DevicePtrMut<f32>>,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let config = self.exec.state.launch.side[self.index];
        self.set_launch(config, n, arg1, arg2)
    }
    ///Sets the launch configuration and the kernel's arguments for the next launches (`cuGraphExecKernelNodeSetParams`).
    pub fn set_launch(
        &mut self,
        config: ::cudagraph_runtime::__private::LaunchConfig,
        n: impl ::cudagraph_runtime::__private::KernelArg<'static, u32>,
        arg1: impl ::cudagraph_runtime::__private::KernelArg<'static, f32>,
        arg2: impl ::cudagraph_runtime::__private::KernelArg<'static, DevicePtrMut<f32>>,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        self.exec.dirty[Self::__CG_POSITIONS[self.index]] = true;
        self.exec
            .exec
            .set_kernel_params(
                self.exec.nodes.side[self.index],
                config,
                (n, arg1, arg2),
            )?;
        self.exec.state.launch.side[self.index] = config;
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    /// The node's launch configuration now.
    pub fn launch_config(&self) -> ::cudagraph_runtime::__private::LaunchConfig {
        self.exec.state.launch.side[self.index]
    }
    /// Enables or disables the node for the next launches (`cuGraphNodeSetEnabled`). A
    /// disabled node acts as an empty node; params set meanwhile apply once it is enabled.
    pub fn set_enabled(
        &mut self,
        enabled: bool,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        self.exec.exec.set_enabled(self.exec.nodes.side[self.index], enabled)
    }
    /// Whether the node is enabled (`cuGraphNodeGetEnabled`).
    pub fn is_enabled(&self) -> ::cudagraph_runtime::__private::Result<bool> {
        self.exec.exec.is_enabled(self.exec.nodes.side[self.index])
    }
    /// The node's runtime handle, for the runtime's own API.
    pub fn node(
        &self,
    ) -> ::cudagraph_runtime::__private::KernelNode<(u32, f32, DevicePtrMut<f32>)> {
        self.exec.nodes.side[self.index]
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for SidesSideNode<'_> {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("SidesSideNode")
            .field("index", &Self::__CG_POSITIONS[self.index])
            .finish_non_exhaustive()
    }
}
///Update handle of node `other` of [`SidesExec`] (`kernel scale<<<1, 32>>>(n, 0.5, x)`): its arguments and launch configuration can change, and it can be enabled or disabled ([what CUDA allows](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#individual-node-update)).
struct SidesOtherNode<'a> {
    exec: &'a mut SidesExec,
}
impl<'a> SidesOtherNode<'a> {
    ///Sets the kernel's arguments for the next launches, keeping the node's launch configuration (`cuGraphExecKernelNodeSetParams`). Memory the node stops using is released once the launches that may use it are done.
    pub fn set(
        &mut self,
        n: impl ::cudagraph_runtime::__private::KernelArg<'static, u32>,
        arg1: impl ::cudagraph_runtime::__private::KernelArg<'static, f32>,
        x: impl ::cudagraph_runtime::__private::KernelArg<'static, DevicePtrMut<f32>>,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let config = self.exec.state.launch.other;
        self.set_launch(config, n, arg1, x)
    }
    ///Sets the launch configuration and the kernel's arguments for the next launches (`cuGraphExecKernelNodeSetParams`).
    pub fn set_launch(
        &mut self,
        config: ::cudagraph_runtime::__private::LaunchConfig,
        n: impl ::cudagraph_runtime::__private::KernelArg<'static, u32>,
        arg1: impl ::cudagraph_runtime::__private::KernelArg<'static, f32>,
        x: impl ::cudagraph_runtime::__private::KernelArg<'static, DevicePtrMut<f32>>,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        self.exec.dirty[3usize] = true;
        self.exec.exec.set_kernel_params(self.exec.nodes.other, config, (n, arg1, x))?;
        self.exec.state.launch.other = config;
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    /// The node's launch configuration now.
    pub fn launch_config(&self) -> ::cudagraph_runtime::__private::LaunchConfig {
        self.exec.state.launch.other
    }
    /// Enables or disables the node for the next launches (`cuGraphNodeSetEnabled`). A
    /// disabled node acts as an empty node; params set meanwhile apply once it is enabled.
    pub fn set_enabled(
        &mut self,
        enabled: bool,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        self.exec.exec.set_enabled(self.exec.nodes.other, enabled)
    }
    /// Whether the node is enabled (`cuGraphNodeGetEnabled`).
    pub fn is_enabled(&self) -> ::cudagraph_runtime::__private::Result<bool> {
        self.exec.exec.is_enabled(self.exec.nodes.other)
    }
    /// The node's runtime handle, for the runtime's own API.
    pub fn node(
        &self,
    ) -> ::cudagraph_runtime::__private::KernelNode<(u32, f32, DevicePtrMut<f32>)> {
        self.exec.nodes.other
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for SidesOtherNode<'_> {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("SidesOtherNode").field("index", &3usize).finish_non_exhaustive()
    }
}
fn main() {}
