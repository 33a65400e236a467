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
/**The params of [`Decode`]: what its nodes are built from ([`Decode::build`]). Its executable owns a copy ([`DecodeExec::params`]), changed through the executable (`set_<param>`, [`DecodeExec::params_mut`], [`DecodeExec::set_params`]), which updates exactly the nodes that read what changed:

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
    parts: ::cudagraph_runtime::__private::Guarded<__DecodeParts>,
}
#[doc(hidden)]
#[allow(non_camel_case_types)]
struct __DecodeParts {
    graph: ::cudagraph_runtime::__private::Graph<'static>,
    nodes: ::cudagraph_runtime::__private::Box<
        ::cudagraph_runtime::__private::ManuallyDrop<__DecodeNodes>,
    >,
    state: __DecodeState,
    build_id: ::core::primitive::u64,
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
    params: ::cudagraph_runtime::__private::Box<DecodeParams>,
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
    pub const fn topology_svg() -> &'static ::core::primitive::str {
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
        let __cg_parts = __DecodeParts {
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
        __cg_params: &DecodeParams,
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
        ::cudagraph_runtime::__private::built(&__cg_parts.graph, "Decode");
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
        __cg_params: &DecodeParams,
    ) -> ::cudagraph_runtime::__private::Result<
        (
            ::cudagraph_runtime::__private::Box<
                ::cudagraph_runtime::__private::ManuallyDrop<__DecodeNodes>,
            >,
            __DecodeState,
        ),
    > {
        let owned = Self::__cg_own(__cg_params)?;
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
                params: owned,
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
        from: ::core::primitive::usize,
        to: ::core::primitive::usize,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        for index in from..to {
            #[allow(unused_variables)]
            let l: ::core::primitive::usize = index;
            let pos = ids.len();
            (nodes.attn[index], launches.attn[index]) = ::cudagraph_runtime::__private::add_node(
                __cg_graph,
                Decode::TOPOLOGY.nodes[pos].0,
                |__cg_graph| {
                    let (kernel, config, args) = Decode::__cg_eval_attn(
                        __cg_params,
                        index,
                    );
                    let added = __cg_graph
                        .add_kernel(
                            kernel,
                            config,
                            args,
                            &::cudagraph_runtime::__private::deps_at(
                                ids,
                                Decode::__CG_DEPS,
                                Decode::__CG_DEP_START,
                            ),
                        )?;
                    ::cudagraph_runtime::__private::Result::Ok((added, config))
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
                    let added = __cg_graph
                        .add_kernel(
                            kernel,
                            config,
                            args,
                            &::cudagraph_runtime::__private::deps_at(
                                ids,
                                Decode::__CG_DEPS,
                                Decode::__CG_DEP_START,
                            ),
                        )?;
                    ::cudagraph_runtime::__private::Result::Ok((added, config))
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
    const __CG_DEPS: &'static [::core::primitive::u32] = &[
        0u32, 1u32, 2u32, 3u32, 4u32, 5u32, 6u32,
    ];
    #[doc(hidden)]
    const __CG_DEP_START: &'static [::core::primitive::u32] = &[
        0u32, 0u32, 1u32, 2u32, 3u32, 4u32, 5u32, 6u32, 7u32,
    ];
    /// The runtime graph.
    pub fn graph(&self) -> &::cudagraph_runtime::__private::Graph<'static> {
        &self.parts.graph
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
        let __cg_parts = self.parts.into_inner();
        let applied = Self::__cg_own(&__cg_parts.state.params)?;
        let exec = __cg_parts.graph.instantiate_with(flags, upload)?;
        ::cudagraph_runtime::__private::Result::Ok(unsafe {
            DecodeExec::__cg_new(exec, __cg_parts.nodes, __cg_parts.state, applied)
        })
    }
    ///Instantiates the graph as an executable *bound to* `stream`: it launches there only (`launch` refuses another stream). The launches of executables bound to one stream never overlap, so they may share host memory that their host nodes write, which two executables launched anywhere may not (`Error::BufferInUse` when the second is made).
    pub fn instantiate_on(
        self,
        stream: &::cudagraph_runtime::__private::Arc<
            ::cudagraph_runtime::__private::CudaStream,
        >,
    ) -> ::cudagraph_runtime::__private::Result<DecodeExec> {
        let flags = ::cudagraph_runtime::__private::InstantiateFlags::NONE;
        let __cg_parts = self.parts.into_inner();
        let applied = Self::__cg_own(&__cg_parts.state.params)?;
        let exec = __cg_parts.graph.instantiate_on(stream, flags)?;
        ::cudagraph_runtime::__private::Result::Ok(unsafe {
            DecodeExec::__cg_new(exec, __cg_parts.nodes, __cg_parts.state, applied)
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
        index: ::core::primitive::usize,
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
        let l: ::core::primitive::usize = index;
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
        index: ::core::primitive::usize,
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
        let l: ::core::primitive::usize = index;
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
        f.debug_struct("Decode")
            .field("graph", &self.parts.graph)
            .finish_non_exhaustive()
    }
}
impl ::cudagraph_runtime::__private::BodyRules for Decode {
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
unsafe impl ::cudagraph_runtime::__private::ChildGraph for Decode {
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
impl ::cudagraph_runtime::__private::SameDeclaration<Decode> for Decode {
    fn same(&self) -> &Decode {
        self
    }
}
/**[`Decode`], instantiated, with the [`DecodeParams`] it runs, which it owns ([`params`](Self::params)).

Change a param with its setter (`exec.set_alpha(0.5)?`, one per param: it updates the nodes that read it, and returns the old value), several at once or two swapped through [`params_mut`](Self::params_mut) ([`DecodeParamsMut`], whose changes the next launch applies if its `apply` did not), all of them by [`set_params`](Self::set_params); or update it from another [`Decode`] ([`update`](Self::update)), or one node through its handle. Which node reads which param is known when the macro runs: a change updates the nodes that read it, each once, with nothing else compared.

A change is made whole or not at all. One that a node refuses (the driver or a kernel's check, params that would make two nodes race, or a change CUDA cannot make, such as an allocation's length) is the error of the setter, `apply`, `set_params` or launch that tried it, naming the node, and is undone: every param changed since the last update gets back the value the nodes were last updated from (the executable keeps a copy of those), the nodes updated before the refusal are set back, and nothing stays pending, so the next launch runs what ran before. A panic in your code that a change runs (a node expression, a param's `Clone`, `PartialEq` or `Drop`) may stop it part way: caught, it leaves the executable refusing updates and launches (`Error::Invalid`) until a whole-graph update. Memory the executable stops using is released once the launches that may use it are done.

Nodes:

- [`embed()`](Self::embed): memset node
- [`attn(l)`](Self::attn): kernel node, one per iteration (3 instances)
- [`mlp(l)`](Self::mlp): kernel node, one per iteration (3 instances)
- [`head()`](Self::head): memcpy node
*/
struct DecodeExec {
    parts: ::cudagraph_runtime::__private::Guarded<__DecodeExecParts>,
}
#[doc(hidden)]
#[allow(non_camel_case_types)]
struct __DecodeExecParts {
    exec: ::cudagraph_runtime::__private::GraphExec<'static>,
    nodes: ::cudagraph_runtime::__private::Box<
        ::cudagraph_runtime::__private::ManuallyDrop<__DecodeNodes>,
    >,
    state: __DecodeState,
    /// A copy of the params as the nodes were last updated from them: what a refused
    /// change puts back (see `__private::apply`).
    applied: ::cudagraph_runtime::__private::Box<DecodeParams>,
    /// The nodes that disagree with the params (see `__private::Tracker`).
    tracker: ::cudagraph_runtime::__private::Tracker,
}
impl DecodeExec {
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
            ::cudagraph_runtime::__private::ManuallyDrop<__DecodeNodes>,
        >,
        state: __DecodeState,
        applied: ::cudagraph_runtime::__private::Box<DecodeParams>,
    ) -> Self {
        let tracker = ::cudagraph_runtime::__private::Tracker::new(8usize, 12usize);
        let __cg_parts = __DecodeExecParts {
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
    /**Whole-graph update from a [`Decode`] built with other params (`cuGraphExecUpdate`).

Only a graph of this declaration is accepted: it was built by the same sequence of calls, so its nodes pair with this executable's ([whole-graph update](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#whole-graph-update)). Afterwards the executable owns a copy of that graph's params (what [`params`](Self::params) shows), and changes made to its own params and not applied yet are dropped.*/
    pub fn update<__CgSame: ::cudagraph_runtime::__private::SameDeclaration<Decode>>(
        &mut self,
        source: &__CgSame,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let source: &Decode = ::cudagraph_runtime::__private::SameDeclaration::same(
            source,
        );
        let params = Decode::__cg_own(&source.parts.state.params)?;
        let applied = Decode::__cg_own(&source.parts.state.params)?;
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
    /**Replaces the executable's params with `params` as a whole: each param that differs from the executable's own is copied in, then the nodes that read a changed param (or were set through their handle since) are updated, each once, with one single-node update. Afterwards the nodes are what [`Decode::build`] would make from `params`. Returns how many nodes it updated. Enabled/disabled states are kept.

It compares every param, so its cost grows with the declaration: to change a few params, set them (the setters `set_<param>`, [`params_mut`](Self::params_mut)), which updates only their readers. A param is compared with `PartialEq`, a kernel by function, a declared graph by identity; a runtime `Graph` counts as changed every time. A kernel param may change function (same parameter list, same context): the node's single-node update switches it.

Params under which two nodes that may run at the same time share memory, one writing it, are refused as by [`Decode::build`], with nothing changed. So is any update a node refuses: the error names the node, and the params and the nodes updated before it are set back to what they were.*/
    pub fn set_params(
        &mut self,
        __cg_params: &DecodeParams,
    ) -> ::cudagraph_runtime::__private::Result<::core::primitive::usize> {
        Decode::__cg_check_overlaps(__cg_params)?;
        self.__cg_take_0(__cg_params);
        ::cudagraph_runtime::__private::set_all(self)
    }
    ///The params the executable runs: those it was built from, with every change made since through the setters (`set_<param>`), [`params_mut`](Self::params_mut), [`set_params`](Self::set_params) or [`update`](Self::update). Host code reads the buffers among them as any buffer's holder does: `exec.params().y.to_vec()` waits for the launches that may write `y`.
    pub fn params(&self) -> &DecodeParams {
        &self.parts.state.params
    }
    /**A guard through which to change several params at once, or to swap two: [`DecodeParamsMut`]'s `set_<param>` and [`swap`](DecodeParamsMut::swap) change the params (read them through the guard) and mark the nodes that read them; [`DecodeParamsMut::apply`] updates those nodes, each once however many of its params changed, and if the guard is dropped instead, the next [`launch`](Self::launch) does. Either reports an update the driver or a kernel's check refuses as an error naming the node, and undoes the changes (the params and the nodes are as they were before them); nothing is lost when the guard is dropped.

```text
exec.params_mut().swap(|p| (&mut p.x, &mut p.x_new))?; // the ping-pong of a solver
exec.launch(&stream)?;                                 // updates x's and x_new's readers
```*/
    pub fn params_mut(&mut self) -> DecodeParamsMut<'_> {
        DecodeParamsMut { exec: self }
    }
    /// The params, taking the executable apart (it is dropped; memory its launches may
    /// still use stays alive until they are done).
    pub fn into_params(self) -> DecodeParams {
        *self.parts.into_inner().state.params
    }
    /// The runtime executable, for what the typed API does not cover (read-only).
    pub fn as_exec(&self) -> &::cudagraph_runtime::__private::GraphExec<'static> {
        &self.parts.exec
    }
    #[inline(never)]
    fn __cg_take_0(&mut self, __cg_params: &DecodeParams) {
        let __cg_parts = unsafe { self.parts.get_mut() };
        if !(<Kernel<
            (u32, f32, DevicePtr<f32>, DevicePtrMut<f32>),
        > as ::cudagraph_runtime::__private::KernelType>::function_id(&__cg_params.layer)
            == <Kernel<
                (u32, f32, DevicePtr<f32>, DevicePtrMut<f32>),
            > as ::cudagraph_runtime::__private::KernelType>::function_id(
                &__cg_parts.state.params.layer,
            ))
        {
            let value = <Kernel<
                (u32, f32, DevicePtr<f32>, DevicePtrMut<f32>),
            > as ::cudagraph_runtime::__private::KernelType>::keep(&__cg_params.layer);
            ::cudagraph_runtime::__private::stage_in::<
                Self,
            >(&mut __cg_parts.tracker, 0usize);
            __cg_parts.state.params.layer = value;
        }
        for k in 0..3usize {
            if !(<DeviceBuffer<
                f32,
            > as ::cudagraph_runtime::__private::ParamValue>::same(
                &__cg_params.w[k],
                &__cg_parts.state.params.w[k],
            )) {
                let value = <DeviceBuffer<
                    f32,
                > as ::cudagraph_runtime::__private::ParamValue>::keep(
                    &__cg_params.w[k],
                );
                ::cudagraph_runtime::__private::stage_in::<
                    Self,
                >(&mut __cg_parts.tracker, 1usize + k);
                __cg_parts.state.params.w[k] = value;
            }
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
            >(&mut __cg_parts.tracker, 4usize);
            __cg_parts.state.params.x = value;
        }
        for k in 0..3usize {
            if !(<DeviceBuffer<
                f32,
            > as ::cudagraph_runtime::__private::ParamValue>::same(
                &__cg_params.h[k],
                &__cg_parts.state.params.h[k],
            )) {
                let value = <DeviceBuffer<
                    f32,
                > as ::cudagraph_runtime::__private::ParamValue>::keep(
                    &__cg_params.h[k],
                );
                ::cudagraph_runtime::__private::stage_in::<
                    Self,
                >(&mut __cg_parts.tracker, 5usize + k);
                __cg_parts.state.params.h[k] = value;
            }
        }
        for k in 0..3usize {
            if !(<f32 as ::cudagraph_runtime::__private::ParamValue>::same(
                &__cg_params.scale[k],
                &__cg_parts.state.params.scale[k],
            )) {
                let value = <f32 as ::cudagraph_runtime::__private::ParamValue>::keep(
                    &__cg_params.scale[k],
                );
                ::cudagraph_runtime::__private::stage_in::<
                    Self,
                >(&mut __cg_parts.tracker, 8usize + k);
                __cg_parts.state.params.scale[k] = value;
            }
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
            >(&mut __cg_parts.tracker, 11usize);
            __cg_parts.state.params.n = value;
        }
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
        l: ::core::primitive::usize,
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
        l: ::core::primitive::usize,
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
        f.debug_struct("DecodeExec")
            .field("exec", &self.parts.exec)
            .finish_non_exhaustive()
    }
}
impl Decode {
    /// A copy of `params`, for the graph and then its executable to keep: made field by
    /// field in place on the heap, a few dozen fields per function.
    #[allow(unused_variables, unused_unsafe)]
    fn __cg_own(
        __cg_params: &DecodeParams,
    ) -> ::cudagraph_runtime::__private::Result<
        ::cudagraph_runtime::__private::Box<DecodeParams>,
    > {
        let mut out = ::cudagraph_runtime::__private::Box::<DecodeParams>::new_uninit();
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
    unsafe fn __cg_own_0(__cg_params: &DecodeParams, dst: *mut DecodeParams) {
        unsafe {
            (&raw mut (*dst).layer)
                .write(
                    <Kernel<
                        (u32, f32, DevicePtr<f32>, DevicePtrMut<f32>),
                    > as ::cudagraph_runtime::__private::KernelType>::keep(
                        &__cg_params.layer,
                    ),
                );
            (&raw mut (*dst).w)
                .write(
                    <[DeviceBuffer<
                        f32,
                    >; LAYERS] as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_params.w,
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
            (&raw mut (*dst).h)
                .write(
                    <[DeviceBuffer<
                        f32,
                    >; LAYERS] as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_params.h,
                    ),
                );
            (&raw mut (*dst).scale)
                .write(
                    <[f32; LAYERS] as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_params.scale,
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
///The params of a [`DecodeParams`] as [`DecodeParamsMut::swap`] names them: a field per param, of the same name, holding no value (a `Slot` per param, an array of them per array param whose elements are params of their own). Given to `swap`'s `pick` instead of the params, so that it names the two to swap and cannot change any: `|p| (&mut p.x, &mut p.x_new)`. None can be made outside `swap`.
#[repr(C)]
#[allow(clippy::type_complexity)]
struct DecodeSlots {
    ///Param [`layer`](DecodeParams::layer), to swap.
    pub layer: ::cudagraph_runtime::__private::Slot<
        Kernel<(u32, f32, DevicePtr<f32>, DevicePtrMut<f32>)>,
    >,
    ///Param [`w`](DecodeParams::w), to swap.
    pub w: [::cudagraph_runtime::__private::Slot<DeviceBuffer<f32>>; LAYERS],
    ///Param [`x`](DecodeParams::x), to swap.
    pub x: ::cudagraph_runtime::__private::Slot<DeviceBuffer<f32>>,
    ///Param [`h`](DecodeParams::h), to swap.
    pub h: [::cudagraph_runtime::__private::Slot<DeviceBuffer<f32>>; LAYERS],
    ///Param [`scale`](DecodeParams::scale), to swap.
    pub scale: [::cudagraph_runtime::__private::Slot<f32>; LAYERS],
    ///Param [`n`](DecodeParams::n), to swap.
    pub n: ::cudagraph_runtime::__private::Slot<u32>,
}
const _: () = {
    ::core::assert!(
        ::cudagraph_runtime::__private::offset_of!(DecodeSlots, layer) == 0usize
    );
    ::core::assert!(
        ::cudagraph_runtime::__private::offset_of!(DecodeSlots, w) == 1usize
    );
    ::core::assert!(
        ::cudagraph_runtime::__private::offset_of!(DecodeSlots, x) == 4usize
    );
    ::core::assert!(
        ::cudagraph_runtime::__private::offset_of!(DecodeSlots, h) == 5usize
    );
    ::core::assert!(
        ::cudagraph_runtime::__private::offset_of!(DecodeSlots, scale) == 8usize
    );
    ::core::assert!(
        ::cudagraph_runtime::__private::offset_of!(DecodeSlots, n) == 11usize
    );
    ::core::assert!(
        ::cudagraph_runtime::__private::size_of:: < DecodeSlots > () == 12usize
    );
};
const _: fn(&DecodeSlots, &DecodeParams) = |slots, params| {
    ::cudagraph_runtime::__private::slot_of(&slots.layer, &params.layer);
    ::cudagraph_runtime::__private::slots_of(&slots.w, &params.w);
    ::cudagraph_runtime::__private::slot_of(&slots.x, &params.x);
    ::cudagraph_runtime::__private::slots_of(&slots.h, &params.h);
    ::cudagraph_runtime::__private::slots_of(&slots.scale, &params.scale);
    ::cudagraph_runtime::__private::slot_of(&slots.n, &params.n);
};
impl ::cudagraph_runtime::__private::fmt::Debug for DecodeSlots {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("DecodeSlots").finish_non_exhaustive()
    }
}
unsafe impl ::cudagraph_runtime::__private::Tracked for DecodeExec {
    type Params = DecodeParams;
    type Slots = DecodeSlots;
    const NAME: &'static ::core::primitive::str = "DecodeExec";
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
        (Self::__cg_update_node_1, 1u32),
        (Self::__cg_update_node_2, 1u32),
        (Self::__cg_update_node_1, 2u32),
        (Self::__cg_update_node_2, 2u32),
        (Self::__cg_update_node_7, 0u32),
    ];
    const READERS: &'static [(
        &'static [::core::primitive::u32],
        ::core::primitive::bool,
        ::core::primitive::bool,
    )] = &[
        (&[1u32, 2u32, 3u32, 4u32, 5u32, 6u32], false, false),
        (&[7u32], false, false),
        (&[], false, false),
        (&[], false, false),
        (&[0u32, 1u32, 2u32, 3u32, 4u32, 5u32, 6u32, 7u32], false, false),
        (&[1u32, 2u32], false, false),
        (&[3u32, 4u32], false, false),
        (&[5u32, 6u32], false, false),
        (&[1u32], false, false),
        (&[3u32], false, false),
        (&[5u32], false, false),
        (&[1u32, 2u32, 3u32, 4u32, 5u32, 6u32], false, false),
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
    ) -> &mut DecodeParams {
        &mut unsafe { self.parts.get_mut() }.state.params
    }
    #[inline(always)]
    fn applied_mut(
        &mut self,
        _: ::cudagraph_runtime::__private::Internal,
    ) -> &mut DecodeParams {
        &mut unsafe { self.parts.get_mut() }.applied
    }
    fn check(&self) -> ::cudagraph_runtime::__private::Result<()> {
        Decode::__cg_check_overlaps(&self.parts.state.params)
    }
    #[inline]
    fn slot_offset(slot: ::core::primitive::usize) -> ::core::primitive::usize {
        match slot {
            0usize..12usize => Self::__cg_slot_offset_0(slot),
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
            0usize..12usize => self.__cg_sync_0(param, commit, key),
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
impl DecodeExec {
    /**Sets param `layer` and updates what reads it (nodes `attn[0]`, `mlp[0]`, `attn[1]`, `mlp[1]`, `attn[2]`, `mlp[2]`), one single-node update each. Returns the old value; on error, naming the node, nothing changes: the param keeps its old value and the nodes their updates (see [`DecodeExec`]).
*/
    pub fn set_layer(
        &mut self,
        value: Kernel<(u32, f32, DevicePtr<f32>, DevicePtrMut<f32>)>,
    ) -> ::cudagraph_runtime::__private::Result<
        Kernel<(u32, f32, DevicePtr<f32>, DevicePtrMut<f32>)>,
    > {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.parts.get_mut() }.state.params.layer,
            value,
        );
        ::cudagraph_runtime::__private::set_param(self, 0usize).map(|_| old)
    }
    /**Sets element `index` of array param `w` and updates the nodes that read that element (of node `head`), one single-node update each: the other elements' readers are left alone. Returns the old value; `Error::Invalid` for an index beyond the array. On error, naming the node, nothing changes: the element keeps its old value and the nodes their updates (see [`DecodeExec`]).
*/
    pub fn set_w(
        &mut self,
        index: ::core::primitive::usize,
        value: DeviceBuffer<f32>,
    ) -> ::cudagraph_runtime::__private::Result<DeviceBuffer<f32>> {
        ::cudagraph_runtime::__private::element("w", index, 3usize)?;
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.parts.get_mut() }.state.params.w[index],
            value,
        );
        ::cudagraph_runtime::__private::set_param(self, 1usize + index).map(|_| old)
    }
    /**Sets param `x` and updates what reads it (nodes `embed`, `attn[0]`, `mlp[0]`, `attn[1]`, `mlp[1]`, `attn[2]`, `mlp[2]`, `head`), one single-node update each. Returns the old value; on error, naming the node, nothing changes: the param keeps its old value and the nodes their updates (see [`DecodeExec`]).
*/
    pub fn set_x(
        &mut self,
        value: DeviceBuffer<f32>,
    ) -> ::cudagraph_runtime::__private::Result<DeviceBuffer<f32>> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.parts.get_mut() }.state.params.x,
            value,
        );
        ::cudagraph_runtime::__private::set_param(self, 4usize).map(|_| old)
    }
    /**Sets element `index` of array param `h` and updates the nodes that read that element (of nodes `attn[l]`, `mlp[l]`), one single-node update each: the other elements' readers are left alone. Returns the old value; `Error::Invalid` for an index beyond the array. On error, naming the node, nothing changes: the element keeps its old value and the nodes their updates (see [`DecodeExec`]).
*/
    pub fn set_h(
        &mut self,
        index: ::core::primitive::usize,
        value: DeviceBuffer<f32>,
    ) -> ::cudagraph_runtime::__private::Result<DeviceBuffer<f32>> {
        ::cudagraph_runtime::__private::element("h", index, 3usize)?;
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.parts.get_mut() }.state.params.h[index],
            value,
        );
        ::cudagraph_runtime::__private::set_param(self, 5usize + index).map(|_| old)
    }
    /**Sets element `index` of array param `scale` and updates the nodes that read that element (of node `attn[l]`), one single-node update each: the other elements' readers are left alone. Returns the old value; `Error::Invalid` for an index beyond the array. On error, naming the node, nothing changes: the element keeps its old value and the nodes their updates (see [`DecodeExec`]).
*/
    pub fn set_scale(
        &mut self,
        index: ::core::primitive::usize,
        value: f32,
    ) -> ::cudagraph_runtime::__private::Result<f32> {
        ::cudagraph_runtime::__private::element("scale", index, 3usize)?;
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.parts.get_mut() }.state.params.scale[index],
            value,
        );
        {
            let commit = |exec: &mut Self| {
                let __cg_parts = unsafe { exec.parts.get_mut() };
                __cg_parts.applied.scale[index] = <f32 as ::cudagraph_runtime::__private::ParamValue>::keep(
                    &__cg_parts.state.params.scale[index],
                );
            };
            unsafe {
                ::cudagraph_runtime::__private::set_sole_reader(
                    self,
                    8usize + index,
                    1usize + index * 2usize,
                    (Self::__cg_update_node_1, index),
                    commit,
                )
            }
        }
            .map(|_| old)
    }
    /**Sets param `n` and updates what reads it (nodes `attn[0]`, `mlp[0]`, `attn[1]`, `mlp[1]`, `attn[2]`, `mlp[2]`), one single-node update each. Returns the old value; on error, naming the node, nothing changes: the param keeps its old value and the nodes their updates (see [`DecodeExec`]).
*/
    pub fn set_n(&mut self, value: u32) -> ::cudagraph_runtime::__private::Result<u32> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.parts.get_mut() }.state.params.n,
            value,
        );
        ::cudagraph_runtime::__private::set_param(self, 11usize).map(|_| old)
    }
    /**Swaps two params of one type, named by `pick` (`exec.swap(|p| (&mut p.x, &mut p.x_new))?`), and updates the nodes that read them, each once, before it returns: the ping-pong buffers of an iteration swapped between launches in one call. Returns how many nodes it updated. `pick` is given the params' slots ([`DecodeSlots`]), not their values: it names two params and changes none. As [`DecodeParamsMut::swap`] followed by `apply`: all or nothing (a refused update is reported, naming its node, and the swap undone), any other change pending applied with it.

Swapping two buffers the executable holds (a ping-pong) registers and releases nothing: the swap costs its readers' driver calls and the update of their records of memory.

# Errors

The error of the update that refused the swap, naming its node (a kernel's launch check, a driver error, two nodes that would race): the swap is undone.*/
    pub fn swap<S: ::cudagraph_runtime::__private::Pick>(
        &mut self,
        pick: impl FnOnce(&mut DecodeSlots) -> (&mut S, &mut S),
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
        let __cg_params: &DecodeParams = &__cg_parts.state.params;
        __cg_parts
            .exec
            .set_memset_params(
                __cg_parts.nodes.embed,
                Decode::__cg_eval_embed(__cg_params),
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
        let __cg_params: &DecodeParams = &__cg_parts.state.params;
        #[allow(unused_variables)]
        let l: ::core::primitive::usize = index;
        let (kernel, config, args) = Decode::__cg_eval_attn(__cg_params, index);
        __cg_parts.exec.set_kernel(__cg_parts.nodes.attn[index], kernel, config, args)?;
        __cg_parts.state.launch.attn[index] = config;
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
        let __cg_params: &DecodeParams = &__cg_parts.state.params;
        #[allow(unused_variables)]
        let l: ::core::primitive::usize = index;
        let (kernel, config, args) = Decode::__cg_eval_mlp(__cg_params, index);
        __cg_parts.exec.set_kernel(__cg_parts.nodes.mlp[index], kernel, config, args)?;
        __cg_parts.state.launch.mlp[index] = config;
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
        let __cg_params: &DecodeParams = &__cg_parts.state.params;
        __cg_parts
            .exec
            .set_memcpy_params(
                __cg_parts.nodes.head,
                Decode::__cg_eval_head(__cg_params),
            )?;
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline]
    fn __cg_slot_offset_0(slot: ::core::primitive::usize) -> ::core::primitive::usize {
        match slot {
            0usize => ::cudagraph_runtime::__private::offset_of!(DecodeParams, layer),
            1usize..4usize => {
                ::cudagraph_runtime::__private::offset_of!(DecodeParams, w)
                    + (slot - 1usize)
                        * ::cudagraph_runtime::__private::size_of::<DeviceBuffer<f32>>()
            }
            4usize => ::cudagraph_runtime::__private::offset_of!(DecodeParams, x),
            5usize..8usize => {
                ::cudagraph_runtime::__private::offset_of!(DecodeParams, h)
                    + (slot - 5usize)
                        * ::cudagraph_runtime::__private::size_of::<DeviceBuffer<f32>>()
            }
            8usize..11usize => {
                ::cudagraph_runtime::__private::offset_of!(DecodeParams, scale)
                    + (slot - 8usize) * ::cudagraph_runtime::__private::size_of::<f32>()
            }
            11usize => ::cudagraph_runtime::__private::offset_of!(DecodeParams, n),
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
                    __cg_parts.applied.layer = <Kernel<
                        (u32, f32, DevicePtr<f32>, DevicePtrMut<f32>),
                    > as ::cudagraph_runtime::__private::KernelType>::keep(
                        &__cg_parts.state.params.layer,
                    );
                } else {
                    __cg_parts.state.params.layer = <Kernel<
                        (u32, f32, DevicePtr<f32>, DevicePtrMut<f32>),
                    > as ::cudagraph_runtime::__private::KernelType>::keep(
                        &__cg_parts.applied.layer,
                    );
                }
            }
            1usize..4usize => {
                if commit {
                    __cg_parts.applied.w[param - 1usize] = <DeviceBuffer<
                        f32,
                    > as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_parts.state.params.w[param - 1usize],
                    );
                } else {
                    __cg_parts.state.params.w[param - 1usize] = <DeviceBuffer<
                        f32,
                    > as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_parts.applied.w[param - 1usize],
                    );
                }
            }
            4usize => {
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
            5usize..8usize => {
                if commit {
                    __cg_parts.applied.h[param - 5usize] = <DeviceBuffer<
                        f32,
                    > as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_parts.state.params.h[param - 5usize],
                    );
                } else {
                    __cg_parts.state.params.h[param - 5usize] = <DeviceBuffer<
                        f32,
                    > as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_parts.applied.h[param - 5usize],
                    );
                }
            }
            8usize..11usize => {
                if commit {
                    __cg_parts.applied.scale[param - 8usize] = <f32 as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_parts.state.params.scale[param - 8usize],
                    );
                } else {
                    __cg_parts.state.params.scale[param - 8usize] = <f32 as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_parts.applied.scale[param - 8usize],
                    );
                }
            }
            11usize => {
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
/**Changes to the params of a [`DecodeExec`], several at once ([`DecodeExec::params_mut`]). It reads as the params (`Deref`); `set_<param>` and [`swap`](Self::swap) change them and mark the nodes that read them, and [`apply`](Self::apply) updates those nodes, each once however many of its params changed. A guard dropped without `apply` leaves the changes to the executable's next launch, which applies them first: a change cannot be forgotten. An update that fails is the error of that `apply` or launch, naming the node (the launch launches nothing), and undoes the changes: the params and the nodes are as they were before them.

```text
let mut p = exec.params_mut();
p.set_n(n);                         // its readers are updated once,
p.set_scale(0.5);                   // even those reading both
p.swap(|p| (&mut p.x, &mut p.x_new))?;
p.apply()?;                         // or: the next exec.launch(&stream)
```*/
#[must_use = "changes made through the guard are applied by `apply`, or by the next launch"]
struct DecodeParamsMut<'a> {
    exec: &'a mut DecodeExec,
}
impl ::cudagraph_runtime::__private::Deref for DecodeParamsMut<'_> {
    type Target = DecodeParams;
    fn deref(&self) -> &DecodeParams {
        &self.exec.parts.state.params
    }
}
#[allow(clippy::type_complexity)]
impl DecodeParamsMut<'_> {
    ///Sets param `layer`, and marks what reads it (nodes `attn[0]`, `mlp[0]`, `attn[1]`, `mlp[1]`, `attn[2]`, `mlp[2]`) for the guard's [`apply`](Self::apply), or the executable's next launch. Returns the old value.
    #[inline]
    pub fn set_layer(
        &mut self,
        value: Kernel<(u32, f32, DevicePtr<f32>, DevicePtrMut<f32>)>,
    ) -> Kernel<(u32, f32, DevicePtr<f32>, DevicePtrMut<f32>)> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.exec.parts.get_mut() }.state.params.layer,
            value,
        );
        ::cudagraph_runtime::__private::stage(self.exec, 0usize);
        old
    }
    ///Sets element `index` of array param `w`, and marks the nodes that read that element (of node `head`) for the guard's [`apply`](Self::apply), or the executable's next launch. Returns the old value; `Error::Invalid` for an index beyond the array, with nothing changed.
    #[inline]
    pub fn set_w(
        &mut self,
        index: ::core::primitive::usize,
        value: DeviceBuffer<f32>,
    ) -> ::cudagraph_runtime::__private::Result<DeviceBuffer<f32>> {
        ::cudagraph_runtime::__private::element("w", index, 3usize)?;
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.exec.parts.get_mut() }.state.params.w[index],
            value,
        );
        ::cudagraph_runtime::__private::stage(self.exec, 1usize + index);
        ::cudagraph_runtime::__private::Result::Ok(old)
    }
    ///Sets param `x`, and marks what reads it (nodes `embed`, `attn[0]`, `mlp[0]`, `attn[1]`, `mlp[1]`, `attn[2]`, `mlp[2]`, `head`) for the guard's [`apply`](Self::apply), or the executable's next launch. Returns the old value.
    #[inline]
    pub fn set_x(&mut self, value: DeviceBuffer<f32>) -> DeviceBuffer<f32> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.exec.parts.get_mut() }.state.params.x,
            value,
        );
        ::cudagraph_runtime::__private::stage(self.exec, 4usize);
        old
    }
    ///Sets element `index` of array param `h`, and marks the nodes that read that element (of nodes `attn[l]`, `mlp[l]`) for the guard's [`apply`](Self::apply), or the executable's next launch. Returns the old value; `Error::Invalid` for an index beyond the array, with nothing changed.
    #[inline]
    pub fn set_h(
        &mut self,
        index: ::core::primitive::usize,
        value: DeviceBuffer<f32>,
    ) -> ::cudagraph_runtime::__private::Result<DeviceBuffer<f32>> {
        ::cudagraph_runtime::__private::element("h", index, 3usize)?;
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.exec.parts.get_mut() }.state.params.h[index],
            value,
        );
        ::cudagraph_runtime::__private::stage(self.exec, 5usize + index);
        ::cudagraph_runtime::__private::Result::Ok(old)
    }
    ///Sets element `index` of array param `scale`, and marks the nodes that read that element (of node `attn[l]`) for the guard's [`apply`](Self::apply), or the executable's next launch. Returns the old value; `Error::Invalid` for an index beyond the array, with nothing changed.
    #[inline]
    pub fn set_scale(
        &mut self,
        index: ::core::primitive::usize,
        value: f32,
    ) -> ::cudagraph_runtime::__private::Result<f32> {
        ::cudagraph_runtime::__private::element("scale", index, 3usize)?;
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.exec.parts.get_mut() }.state.params.scale[index],
            value,
        );
        unsafe {
            ::cudagraph_runtime::__private::stage_sole_reader(
                self.exec,
                8usize + index,
                1usize + index * 2usize,
            )
        };
        ::cudagraph_runtime::__private::Result::Ok(old)
    }
    ///Sets param `n`, and marks what reads it (nodes `attn[0]`, `mlp[0]`, `attn[1]`, `mlp[1]`, `attn[2]`, `mlp[2]`) for the guard's [`apply`](Self::apply), or the executable's next launch. Returns the old value.
    #[inline]
    pub fn set_n(&mut self, value: u32) -> u32 {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.exec.parts.get_mut() }.state.params.n,
            value,
        );
        ::cudagraph_runtime::__private::stage(self.exec, 11usize);
        old
    }
    /**Swaps two params of one type, named by `pick` (`p.swap(|p| (&mut p.x, &mut p.x_new))`), and marks the nodes that read them. `pick` is given the params' slots ([`DecodeSlots`]), not their values: it names two params and changes none, so that the swap is the only change, and the tracker knows it. The slots of an array param are its elements' (`|p| (&mut p.w[0], &mut p.w[1])`); two arrays of slots (two array params, or runs of elements) are swapped element by element.

Never refused for slots of the struct `pick` is given (its signature allows no other).*/
    pub fn swap<S: ::cudagraph_runtime::__private::Pick>(
        &mut self,
        pick: impl FnOnce(&mut DecodeSlots) -> (&mut S, &mut S),
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
impl ::cudagraph_runtime::__private::fmt::Debug for DecodeParamsMut<'_> {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("DecodeParamsMut").finish_non_exhaustive()
    }
}
/**Update handle of node `embed` of [`DecodeExec`] (`memset(x, 1.0f32)`): its destination and value can change (1-D only), and it can be enabled or disabled ([what CUDA allows](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#individual-node-update)).

Memory given through the handle is not judged by the race rule, which judges the declaration's params: it must not be memory that a node no edge orders with this one uses, one of them writing it (host memory that host code uses is checked: `Error::Hazard`). A change of a param the node reads, or `set_params`, sets the node back to its params.*/
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
        let __cg_parts = unsafe { self.exec.parts.get_mut() };
        __cg_parts
            .exec
            .set_memset_params(
                __cg_parts.nodes.embed,
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
        __cg_parts.exec.set_enabled(__cg_parts.nodes.embed, enabled)
    }
    /// Whether the node is enabled (`cuGraphNodeGetEnabled`).
    pub fn is_enabled(
        &self,
    ) -> ::cudagraph_runtime::__private::Result<::core::primitive::bool> {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.exec.is_enabled(__cg_parts.nodes.embed)
    }
    /// The node's runtime handle, for the runtime's own API.
    pub fn node(
        &self,
    ) -> ::cudagraph_runtime::__private::MemsetNode<
        <DeviceBuffer<f32> as ::cudagraph_runtime::__private::MemsetTarget>::Pattern,
    > {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.nodes.embed
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
/**Update handle of node `attn[l]` of [`DecodeExec`] (`kernel layer<<<n.div_ceil(256), 256>>>(n, scale[l], x, h[l])`): its arguments and launch configuration can change, and it can be enabled or disabled ([what CUDA allows](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#individual-node-update)).

Memory given through the handle is not judged by the race rule, which judges the declaration's params: it must not be memory that a node no edge orders with this one uses, one of them writing it (host memory that host code uses is checked: `Error::Hazard`). A change of a param the node reads, or `set_params`, sets the node back to its params.*/
struct DecodeAttnNode<'a> {
    exec: &'a mut DecodeExec,
    index: ::core::primitive::usize,
}
impl<'a> DecodeAttnNode<'a> {
    const __CG_POSITIONS: [::core::primitive::usize; 3usize] = [1usize, 3usize, 5usize];
    ///Sets the kernel's arguments for the next launches, keeping the node's launch configuration (`cuGraphExecKernelNodeSetParams`). Memory the node stops using is released once the launches that may use it are done.
    pub fn set(
        &mut self,
        n: impl ::cudagraph_runtime::__private::KernelArg<'static, u32>,
        arg1: impl ::cudagraph_runtime::__private::KernelArg<'static, f32>,
        x: impl ::cudagraph_runtime::__private::KernelArg<'static, DevicePtr<f32>>,
        arg3: impl ::cudagraph_runtime::__private::KernelArg<'static, DevicePtrMut<f32>>,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = self.exec.parts.get();
        let config = __cg_parts.state.launch.attn[self.index];
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
        let __cg_parts = unsafe { self.exec.parts.get_mut() };
        __cg_parts
            .exec
            .set_kernel_params(
                __cg_parts.nodes.attn[self.index],
                config,
                (n, arg1, x, arg3),
            )?;
        __cg_parts.state.launch.attn[self.index] = config;
        __cg_parts.tracker.set_by_handle(Self::__CG_POSITIONS[self.index]);
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    /// The node's launch configuration now.
    pub fn launch_config(&self) -> ::cudagraph_runtime::__private::LaunchConfig {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.state.launch.attn[self.index]
    }
    /// Enables or disables the node for the next launches (`cuGraphNodeSetEnabled`). A
    /// disabled node acts as an empty node; params set meanwhile apply once it is enabled.
    pub fn set_enabled(
        &mut self,
        enabled: ::core::primitive::bool,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.exec.parts.get_mut() };
        __cg_parts.exec.set_enabled(__cg_parts.nodes.attn[self.index], enabled)
    }
    /// Whether the node is enabled (`cuGraphNodeGetEnabled`).
    pub fn is_enabled(
        &self,
    ) -> ::cudagraph_runtime::__private::Result<::core::primitive::bool> {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.exec.is_enabled(__cg_parts.nodes.attn[self.index])
    }
    /// The node's runtime handle, for the runtime's own API.
    pub fn node(
        &self,
    ) -> ::cudagraph_runtime::__private::KernelNode<
        (u32, f32, DevicePtr<f32>, DevicePtrMut<f32>),
    > {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.nodes.attn[self.index]
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
/**Update handle of node `mlp[l]` of [`DecodeExec`] (`kernel layer<<<n.div_ceil(256), 256>>>(n, 1.0, h[l], x)`): its arguments and launch configuration can change, and it can be enabled or disabled ([what CUDA allows](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#individual-node-update)).

Memory given through the handle is not judged by the race rule, which judges the declaration's params: it must not be memory that a node no edge orders with this one uses, one of them writing it (host memory that host code uses is checked: `Error::Hazard`). A change of a param the node reads, or `set_params`, sets the node back to its params.*/
struct DecodeMlpNode<'a> {
    exec: &'a mut DecodeExec,
    index: ::core::primitive::usize,
}
impl<'a> DecodeMlpNode<'a> {
    const __CG_POSITIONS: [::core::primitive::usize; 3usize] = [2usize, 4usize, 6usize];
    ///Sets the kernel's arguments for the next launches, keeping the node's launch configuration (`cuGraphExecKernelNodeSetParams`). Memory the node stops using is released once the launches that may use it are done.
    pub fn set(
        &mut self,
        n: impl ::cudagraph_runtime::__private::KernelArg<'static, u32>,
        arg1: impl ::cudagraph_runtime::__private::KernelArg<'static, f32>,
        arg2: impl ::cudagraph_runtime::__private::KernelArg<'static, DevicePtr<f32>>,
        x: impl ::cudagraph_runtime::__private::KernelArg<'static, DevicePtrMut<f32>>,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = self.exec.parts.get();
        let config = __cg_parts.state.launch.mlp[self.index];
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
        let __cg_parts = unsafe { self.exec.parts.get_mut() };
        __cg_parts
            .exec
            .set_kernel_params(
                __cg_parts.nodes.mlp[self.index],
                config,
                (n, arg1, arg2, x),
            )?;
        __cg_parts.state.launch.mlp[self.index] = config;
        __cg_parts.tracker.set_by_handle(Self::__CG_POSITIONS[self.index]);
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    /// The node's launch configuration now.
    pub fn launch_config(&self) -> ::cudagraph_runtime::__private::LaunchConfig {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.state.launch.mlp[self.index]
    }
    /// Enables or disables the node for the next launches (`cuGraphNodeSetEnabled`). A
    /// disabled node acts as an empty node; params set meanwhile apply once it is enabled.
    pub fn set_enabled(
        &mut self,
        enabled: ::core::primitive::bool,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.exec.parts.get_mut() };
        __cg_parts.exec.set_enabled(__cg_parts.nodes.mlp[self.index], enabled)
    }
    /// Whether the node is enabled (`cuGraphNodeGetEnabled`).
    pub fn is_enabled(
        &self,
    ) -> ::cudagraph_runtime::__private::Result<::core::primitive::bool> {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.exec.is_enabled(__cg_parts.nodes.mlp[self.index])
    }
    /// The node's runtime handle, for the runtime's own API.
    pub fn node(
        &self,
    ) -> ::cudagraph_runtime::__private::KernelNode<
        (u32, f32, DevicePtr<f32>, DevicePtrMut<f32>),
    > {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.nodes.mlp[self.index]
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
/**Update handle of node `head` of [`DecodeExec`] (`memcpy(x -> w[0])`): its source and destination can change (same direction, 1-D only), and it can be enabled or disabled ([what CUDA allows](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#individual-node-update)).

Memory given through the handle is not judged by the race rule, which judges the declaration's params: it must not be memory that a node no edge orders with this one uses, one of them writing it (host memory that host code uses is checked: `Error::Hazard`). A change of a param the node reads, or `set_params`, sets the node back to its params.*/
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
        let __cg_parts = unsafe { self.exec.parts.get_mut() };
        __cg_parts
            .exec
            .set_memcpy_params(
                __cg_parts.nodes.head,
                ::cudagraph_runtime::__private::memcpy_as(src, dst),
            )?;
        __cg_parts.tracker.set_by_handle(7usize);
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
        __cg_parts.exec.set_enabled(__cg_parts.nodes.head, enabled)
    }
    /// Whether the node is enabled (`cuGraphNodeGetEnabled`).
    pub fn is_enabled(
        &self,
    ) -> ::cudagraph_runtime::__private::Result<::core::primitive::bool> {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.exec.is_enabled(__cg_parts.nodes.head)
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
        let __cg_parts = self.exec.parts.get();
        __cg_parts.nodes.head
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
    if ({
        use ::cudagraph_runtime::__private::SameFallback as _;
        !<::cudagraph_runtime::__private::SameProbe<f32, ::core::primitive::f32>>::SAME
    }) {
        ::cudagraph_runtime::__private::fail(
            "`f32` here is not the primitive `f32`: `cuda_graph!` takes a type written `f32` for that primitive, a plain value that holds no memory, and an alias or import that gives the name to another type would hide the memory it holds from the data-race rule; give that type another name",
        )
    }
};
/**The params of [`Sides`]: what its nodes are built from ([`Sides::build`]). Its executable owns a copy ([`SidesExec::params`]), changed through the executable (`set_<param>`, [`SidesExec::params_mut`], [`SidesExec::set_params`]), which updates exactly the nodes that read what changed:

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
    parts: ::cudagraph_runtime::__private::Guarded<__SidesParts>,
}
#[doc(hidden)]
#[allow(non_camel_case_types)]
struct __SidesParts {
    graph: ::cudagraph_runtime::__private::Graph<'static>,
    nodes: ::cudagraph_runtime::__private::Box<
        ::cudagraph_runtime::__private::ManuallyDrop<__SidesNodes>,
    >,
    state: __SidesState,
    build_id: ::core::primitive::u64,
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
    params: ::cudagraph_runtime::__private::Box<SidesParams>,
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
    pub const fn topology_svg() -> &'static ::core::primitive::str {
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
        let __cg_parts = __SidesParts {
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
        __cg_params: &SidesParams,
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
        ::cudagraph_runtime::__private::built(&__cg_parts.graph, "Sides");
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
        __cg_params: &SidesParams,
    ) -> ::cudagraph_runtime::__private::Result<
        (
            ::cudagraph_runtime::__private::Box<
                ::cudagraph_runtime::__private::ManuallyDrop<__SidesNodes>,
            >,
            __SidesState,
        ),
    > {
        let owned = Self::__cg_own(__cg_params)?;
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
                params: owned,
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
        from: ::core::primitive::usize,
        to: ::core::primitive::usize,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        for index in from..to {
            #[allow(unused_variables)]
            let i: ::core::primitive::usize = index;
            let pos = ids.len();
            (nodes.side[index], launches.side[index]) = ::cudagraph_runtime::__private::add_node(
                __cg_graph,
                Sides::TOPOLOGY.nodes[pos].0,
                |__cg_graph| {
                    let (kernel, config, args) = Sides::__cg_eval_side(
                        __cg_params,
                        index,
                    );
                    let added = __cg_graph
                        .add_kernel(
                            kernel,
                            config,
                            args,
                            &::cudagraph_runtime::__private::deps_at(
                                ids,
                                Sides::__CG_DEPS,
                                Sides::__CG_DEP_START,
                            ),
                        )?;
                    ::cudagraph_runtime::__private::Result::Ok((added, config))
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
                let added = __cg_graph.add_kernel(kernel, config, args, &[])?;
                ::cudagraph_runtime::__private::Result::Ok((added, config))
            },
        )?;
        ids.push(nodes.other.id());
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    /// The dependencies of every node, by position: those of the node at position
    /// `p` are `__CG_DEPS[__CG_DEP_START[p]..__CG_DEP_START[p + 1]]`.
    #[doc(hidden)]
    const __CG_DEPS: &'static [::core::primitive::u32] = &[];
    #[doc(hidden)]
    const __CG_DEP_START: &'static [::core::primitive::u32] = &[
        0u32, 0u32, 0u32, 0u32, 0u32,
    ];
    /// The runtime graph.
    pub fn graph(&self) -> &::cudagraph_runtime::__private::Graph<'static> {
        &self.parts.graph
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
            const FIRST: &[(
                ::core::primitive::usize,
                ::core::primitive::usize,
                ::core::primitive::usize,
            )] = &[
                (0usize, 0usize, 0usize),
                (1usize, 1usize, 1usize),
                (2usize, 2usize, 2usize),
            ];
            let first: ::cudagraph_runtime::__private::Vec<_> = FIRST
                .iter()
                .map(|&(node, _, k)| (
                    node,
                    <::cudagraph_runtime::__private::ParamProbe<
                        DeviceBuffer<f32>,
                    >>::bytes(&__cg_params.g[k]),
                ))
                .collect();
            if let ::cudagraph_runtime::__private::Option::Some((i, j)) = ::cudagraph_runtime::__private::first_overlap_between(
                &first,
                &first,
            ) {
                let (first, second) = (FIRST[i], FIRST[j]);
                let (a, b) = (
                    &::std::format!("g[{}]", FIRST[i].2),
                    &::std::format!("g[{}]", FIRST[j].2),
                );
                return ::cudagraph_runtime::__private::Result::Err(
                    if first.0 < second.0 {
                        ::cudagraph_runtime::__private::overlap_error(
                            Self::TOPOLOGY.nodes[first.1].0,
                            a,
                            Self::TOPOLOGY.nodes[second.1].0,
                            b,
                        )
                    } else {
                        ::cudagraph_runtime::__private::overlap_error(
                            Self::TOPOLOGY.nodes[second.1].0,
                            b,
                            Self::TOPOLOGY.nodes[first.1].0,
                            a,
                        )
                    },
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
            const PAIRS: &[(
                ::core::primitive::usize,
                ::core::primitive::usize,
                ::core::primitive::usize,
                ::core::primitive::usize,
            )] = &[
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
        let __cg_parts = self.parts.into_inner();
        let applied = Self::__cg_own(&__cg_parts.state.params)?;
        let exec = __cg_parts.graph.instantiate_with(flags, upload)?;
        ::cudagraph_runtime::__private::Result::Ok(unsafe {
            SidesExec::__cg_new(exec, __cg_parts.nodes, __cg_parts.state, applied)
        })
    }
    ///Instantiates the graph as an executable *bound to* `stream`: it launches there only (`launch` refuses another stream). The launches of executables bound to one stream never overlap, so they may share host memory that their host nodes write, which two executables launched anywhere may not (`Error::BufferInUse` when the second is made).
    pub fn instantiate_on(
        self,
        stream: &::cudagraph_runtime::__private::Arc<
            ::cudagraph_runtime::__private::CudaStream,
        >,
    ) -> ::cudagraph_runtime::__private::Result<SidesExec> {
        let flags = ::cudagraph_runtime::__private::InstantiateFlags::NONE;
        let __cg_parts = self.parts.into_inner();
        let applied = Self::__cg_own(&__cg_parts.state.params)?;
        let exec = __cg_parts.graph.instantiate_on(stream, flags)?;
        ::cudagraph_runtime::__private::Result::Ok(unsafe {
            SidesExec::__cg_new(exec, __cg_parts.nodes, __cg_parts.state, applied)
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
        index: ::core::primitive::usize,
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
        let i: ::core::primitive::usize = index;
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
        f.debug_struct("Sides").field("graph", &self.parts.graph).finish_non_exhaustive()
    }
}
impl ::cudagraph_runtime::__private::BodyRules for Sides {
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
unsafe impl ::cudagraph_runtime::__private::ChildGraph for Sides {
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
impl ::cudagraph_runtime::__private::SameDeclaration<Sides> for Sides {
    fn same(&self) -> &Sides {
        self
    }
}
/**[`Sides`], instantiated, with the [`SidesParams`] it runs, which it owns ([`params`](Self::params)).

Change a param with its setter (`exec.set_alpha(0.5)?`, one per param: it updates the nodes that read it, and returns the old value), several at once or two swapped through [`params_mut`](Self::params_mut) ([`SidesParamsMut`], whose changes the next launch applies if its `apply` did not), all of them by [`set_params`](Self::set_params); or update it from another [`Sides`] ([`update`](Self::update)), or one node through its handle. Which node reads which param is known when the macro runs: a change updates the nodes that read it, each once, with nothing else compared.

A change is made whole or not at all. One that a node refuses (the driver or a kernel's check, params that would make two nodes race, or a change CUDA cannot make, such as an allocation's length) is the error of the setter, `apply`, `set_params` or launch that tried it, naming the node, and is undone: every param changed since the last update gets back the value the nodes were last updated from (the executable keeps a copy of those), the nodes updated before the refusal are set back, and nothing stays pending, so the next launch runs what ran before. A panic in your code that a change runs (a node expression, a param's `Clone`, `PartialEq` or `Drop`) may stop it part way: caught, it leaves the executable refusing updates and launches (`Error::Invalid`) until a whole-graph update. Memory the executable stops using is released once the launches that may use it are done.

Nodes:

- [`side(i)`](Self::side): kernel node, one per iteration (3 instances)
- [`other()`](Self::other): kernel node
*/
struct SidesExec {
    parts: ::cudagraph_runtime::__private::Guarded<__SidesExecParts>,
}
#[doc(hidden)]
#[allow(non_camel_case_types)]
struct __SidesExecParts {
    exec: ::cudagraph_runtime::__private::GraphExec<'static>,
    nodes: ::cudagraph_runtime::__private::Box<
        ::cudagraph_runtime::__private::ManuallyDrop<__SidesNodes>,
    >,
    state: __SidesState,
    /// A copy of the params as the nodes were last updated from them: what a refused
    /// change puts back (see `__private::apply`).
    applied: ::cudagraph_runtime::__private::Box<SidesParams>,
    /// The nodes that disagree with the params (see `__private::Tracker`).
    tracker: ::cudagraph_runtime::__private::Tracker,
}
impl SidesExec {
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
            ::cudagraph_runtime::__private::ManuallyDrop<__SidesNodes>,
        >,
        state: __SidesState,
        applied: ::cudagraph_runtime::__private::Box<SidesParams>,
    ) -> Self {
        let tracker = ::cudagraph_runtime::__private::Tracker::new(4usize, 6usize);
        let __cg_parts = __SidesExecParts {
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
    /**Whole-graph update from a [`Sides`] built with other params (`cuGraphExecUpdate`).

Only a graph of this declaration is accepted: it was built by the same sequence of calls, so its nodes pair with this executable's ([whole-graph update](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#whole-graph-update)). Afterwards the executable owns a copy of that graph's params (what [`params`](Self::params) shows), and changes made to its own params and not applied yet are dropped.*/
    pub fn update<__CgSame: ::cudagraph_runtime::__private::SameDeclaration<Sides>>(
        &mut self,
        source: &__CgSame,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let source: &Sides = ::cudagraph_runtime::__private::SameDeclaration::same(
            source,
        );
        let params = Sides::__cg_own(&source.parts.state.params)?;
        let applied = Sides::__cg_own(&source.parts.state.params)?;
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
    /**Replaces the executable's params with `params` as a whole: each param that differs from the executable's own is copied in, then the nodes that read a changed param (or were set through their handle since) are updated, each once, with one single-node update. Afterwards the nodes are what [`Sides::build`] would make from `params`. Returns how many nodes it updated. Enabled/disabled states are kept.

It compares every param, so its cost grows with the declaration: to change a few params, set them (the setters `set_<param>`, [`params_mut`](Self::params_mut)), which updates only their readers. A param is compared with `PartialEq`, a kernel by function, a declared graph by identity; a runtime `Graph` counts as changed every time. A kernel param may change function (same parameter list, same context): the node's single-node update switches it.

Params under which two nodes that may run at the same time share memory, one writing it, are refused as by [`Sides::build`], with nothing changed. So is any update a node refuses: the error names the node, and the params and the nodes updated before it are set back to what they were.*/
    pub fn set_params(
        &mut self,
        __cg_params: &SidesParams,
    ) -> ::cudagraph_runtime::__private::Result<::core::primitive::usize> {
        Sides::__cg_check_overlaps(__cg_params)?;
        self.__cg_take_0(__cg_params);
        ::cudagraph_runtime::__private::set_all(self)
    }
    ///The params the executable runs: those it was built from, with every change made since through the setters (`set_<param>`), [`params_mut`](Self::params_mut), [`set_params`](Self::set_params) or [`update`](Self::update). Host code reads the buffers among them as any buffer's holder does: `exec.params().y.to_vec()` waits for the launches that may write `y`.
    pub fn params(&self) -> &SidesParams {
        &self.parts.state.params
    }
    /**A guard through which to change several params at once, or to swap two: [`SidesParamsMut`]'s `set_<param>` and [`swap`](SidesParamsMut::swap) change the params (read them through the guard) and mark the nodes that read them; [`SidesParamsMut::apply`] updates those nodes, each once however many of its params changed, and if the guard is dropped instead, the next [`launch`](Self::launch) does. Either reports an update the driver or a kernel's check refuses as an error naming the node, and undoes the changes (the params and the nodes are as they were before them); nothing is lost when the guard is dropped.

```text
exec.params_mut().swap(|p| (&mut p.x, &mut p.x_new))?; // the ping-pong of a solver
exec.launch(&stream)?;                                 // updates x's and x_new's readers
```*/
    pub fn params_mut(&mut self) -> SidesParamsMut<'_> {
        SidesParamsMut { exec: self }
    }
    /// The params, taking the executable apart (it is dropped; memory its launches may
    /// still use stays alive until they are done).
    pub fn into_params(self) -> SidesParams {
        *self.parts.into_inner().state.params
    }
    /// The runtime executable, for what the typed API does not cover (read-only).
    pub fn as_exec(&self) -> &::cudagraph_runtime::__private::GraphExec<'static> {
        &self.parts.exec
    }
    #[inline(never)]
    fn __cg_take_0(&mut self, __cg_params: &SidesParams) {
        let __cg_parts = unsafe { self.parts.get_mut() };
        if !(<Kernel<
            (u32, f32, DevicePtrMut<f32>),
        > as ::cudagraph_runtime::__private::KernelType>::function_id(&__cg_params.scale)
            == <Kernel<
                (u32, f32, DevicePtrMut<f32>),
            > as ::cudagraph_runtime::__private::KernelType>::function_id(
                &__cg_parts.state.params.scale,
            ))
        {
            let value = <Kernel<
                (u32, f32, DevicePtrMut<f32>),
            > as ::cudagraph_runtime::__private::KernelType>::keep(&__cg_params.scale);
            ::cudagraph_runtime::__private::stage_in::<
                Self,
            >(&mut __cg_parts.tracker, 0usize);
            __cg_parts.state.params.scale = value;
        }
        for k in 0..3usize {
            if !(<DeviceBuffer<
                f32,
            > as ::cudagraph_runtime::__private::ParamValue>::same(
                &__cg_params.g[k],
                &__cg_parts.state.params.g[k],
            )) {
                let value = <DeviceBuffer<
                    f32,
                > as ::cudagraph_runtime::__private::ParamValue>::keep(
                    &__cg_params.g[k],
                );
                ::cudagraph_runtime::__private::stage_in::<
                    Self,
                >(&mut __cg_parts.tracker, 1usize + k);
                __cg_parts.state.params.g[k] = value;
            }
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
            >(&mut __cg_parts.tracker, 4usize);
            __cg_parts.state.params.x = value;
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
            >(&mut __cg_parts.tracker, 5usize);
            __cg_parts.state.params.n = value;
        }
    }
    /**Node `side[i]` (`kernel scale<<<1, 32>>>(n, 2.0, g[i])`): its update handle.

The node is declared in a `for` loop: this is the handle of its instance of iteration `i` (`i` below 3).

# Errors

`Error::Invalid` when `i` is 3 or more.*/
    pub fn side(
        &mut self,
        i: ::core::primitive::usize,
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
        f.debug_struct("SidesExec")
            .field("exec", &self.parts.exec)
            .finish_non_exhaustive()
    }
}
impl Sides {
    /// A copy of `params`, for the graph and then its executable to keep: made field by
    /// field in place on the heap, a few dozen fields per function.
    #[allow(unused_variables, unused_unsafe)]
    fn __cg_own(
        __cg_params: &SidesParams,
    ) -> ::cudagraph_runtime::__private::Result<
        ::cudagraph_runtime::__private::Box<SidesParams>,
    > {
        let mut out = ::cudagraph_runtime::__private::Box::<SidesParams>::new_uninit();
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
    unsafe fn __cg_own_0(__cg_params: &SidesParams, dst: *mut SidesParams) {
        unsafe {
            (&raw mut (*dst).scale)
                .write(
                    <Kernel<
                        (u32, f32, DevicePtrMut<f32>),
                    > as ::cudagraph_runtime::__private::KernelType>::keep(
                        &__cg_params.scale,
                    ),
                );
            (&raw mut (*dst).g)
                .write(
                    <[DeviceBuffer<
                        f32,
                    >; 3] as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_params.g,
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
            (&raw mut (*dst).n)
                .write(
                    <u32 as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_params.n,
                    ),
                );
        }
    }
}
///The params of a [`SidesParams`] as [`SidesParamsMut::swap`] names them: a field per param, of the same name, holding no value (a `Slot` per param, an array of them per array param whose elements are params of their own). Given to `swap`'s `pick` instead of the params, so that it names the two to swap and cannot change any: `|p| (&mut p.x, &mut p.x_new)`. None can be made outside `swap`.
#[repr(C)]
#[allow(clippy::type_complexity)]
struct SidesSlots {
    ///Param [`scale`](SidesParams::scale), to swap.
    pub scale: ::cudagraph_runtime::__private::Slot<
        Kernel<(u32, f32, DevicePtrMut<f32>)>,
    >,
    ///Param [`g`](SidesParams::g), to swap.
    pub g: [::cudagraph_runtime::__private::Slot<DeviceBuffer<f32>>; 3],
    ///Param [`x`](SidesParams::x), to swap.
    pub x: ::cudagraph_runtime::__private::Slot<DeviceBuffer<f32>>,
    ///Param [`n`](SidesParams::n), to swap.
    pub n: ::cudagraph_runtime::__private::Slot<u32>,
}
const _: () = {
    ::core::assert!(
        ::cudagraph_runtime::__private::offset_of!(SidesSlots, scale) == 0usize
    );
    ::core::assert!(::cudagraph_runtime::__private::offset_of!(SidesSlots, g) == 1usize);
    ::core::assert!(::cudagraph_runtime::__private::offset_of!(SidesSlots, x) == 4usize);
    ::core::assert!(::cudagraph_runtime::__private::offset_of!(SidesSlots, n) == 5usize);
    ::core::assert!(
        ::cudagraph_runtime::__private::size_of:: < SidesSlots > () == 6usize
    );
};
const _: fn(&SidesSlots, &SidesParams) = |slots, params| {
    ::cudagraph_runtime::__private::slot_of(&slots.scale, &params.scale);
    ::cudagraph_runtime::__private::slots_of(&slots.g, &params.g);
    ::cudagraph_runtime::__private::slot_of(&slots.x, &params.x);
    ::cudagraph_runtime::__private::slot_of(&slots.n, &params.n);
};
impl ::cudagraph_runtime::__private::fmt::Debug for SidesSlots {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("SidesSlots").finish_non_exhaustive()
    }
}
unsafe impl ::cudagraph_runtime::__private::Tracked for SidesExec {
    type Params = SidesParams;
    type Slots = SidesSlots;
    const NAME: &'static ::core::primitive::str = "SidesExec";
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
        (Self::__cg_update_node_0, 1u32),
        (Self::__cg_update_node_0, 2u32),
        (Self::__cg_update_node_3, 0u32),
    ];
    const READERS: &'static [(
        &'static [::core::primitive::u32],
        ::core::primitive::bool,
        ::core::primitive::bool,
    )] = &[
        (&[0u32, 1u32, 2u32, 3u32], false, false),
        (&[0u32], true, false),
        (&[1u32], true, false),
        (&[2u32], true, false),
        (&[3u32], true, false),
        (&[0u32, 1u32, 2u32, 3u32], false, false),
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
    ) -> &mut SidesParams {
        &mut unsafe { self.parts.get_mut() }.state.params
    }
    #[inline(always)]
    fn applied_mut(
        &mut self,
        _: ::cudagraph_runtime::__private::Internal,
    ) -> &mut SidesParams {
        &mut unsafe { self.parts.get_mut() }.applied
    }
    fn check(&self) -> ::cudagraph_runtime::__private::Result<()> {
        Sides::__cg_check_overlaps(&self.parts.state.params)
    }
    #[inline]
    fn slot_offset(slot: ::core::primitive::usize) -> ::core::primitive::usize {
        match slot {
            0usize..6usize => Self::__cg_slot_offset_0(slot),
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
            0usize..6usize => self.__cg_sync_0(param, commit, key),
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
impl SidesExec {
    /**Sets param `scale` and updates what reads it (nodes `side[0]`, `side[1]`, `side[2]`, `other`), one single-node update each. Returns the old value; on error, naming the node, nothing changes: the param keeps its old value and the nodes their updates (see [`SidesExec`]).
*/
    pub fn set_scale(
        &mut self,
        value: Kernel<(u32, f32, DevicePtrMut<f32>)>,
    ) -> ::cudagraph_runtime::__private::Result<Kernel<(u32, f32, DevicePtrMut<f32>)>> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.parts.get_mut() }.state.params.scale,
            value,
        );
        ::cudagraph_runtime::__private::set_param(self, 0usize).map(|_| old)
    }
    /**Sets element `index` of array param `g` and updates the nodes that read that element (of node `side[i]`), one single-node update each: the other elements' readers are left alone. Returns the old value; `Error::Invalid` for an index beyond the array. On error, naming the node, nothing changes: the element keeps its old value and the nodes their updates (see [`SidesExec`]).
*/
    pub fn set_g(
        &mut self,
        index: ::core::primitive::usize,
        value: DeviceBuffer<f32>,
    ) -> ::cudagraph_runtime::__private::Result<DeviceBuffer<f32>> {
        ::cudagraph_runtime::__private::element("g", index, 3usize)?;
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.parts.get_mut() }.state.params.g[index],
            value,
        );
        ::cudagraph_runtime::__private::set_param(self, 1usize + index).map(|_| old)
    }
    /**Sets param `x` and updates what reads it (node `other`), one single-node update each. Returns the old value; on error, naming the node, nothing changes: the param keeps its old value and the nodes their updates (see [`SidesExec`]).
*/
    pub fn set_x(
        &mut self,
        value: DeviceBuffer<f32>,
    ) -> ::cudagraph_runtime::__private::Result<DeviceBuffer<f32>> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.parts.get_mut() }.state.params.x,
            value,
        );
        ::cudagraph_runtime::__private::set_param(self, 4usize).map(|_| old)
    }
    /**Sets param `n` and updates what reads it (nodes `side[0]`, `side[1]`, `side[2]`, `other`), one single-node update each. Returns the old value; on error, naming the node, nothing changes: the param keeps its old value and the nodes their updates (see [`SidesExec`]).
*/
    pub fn set_n(&mut self, value: u32) -> ::cudagraph_runtime::__private::Result<u32> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.parts.get_mut() }.state.params.n,
            value,
        );
        ::cudagraph_runtime::__private::set_param(self, 5usize).map(|_| old)
    }
    /**Swaps two params of one type, named by `pick` (`exec.swap(|p| (&mut p.x, &mut p.x_new))?`), and updates the nodes that read them, each once, before it returns: the ping-pong buffers of an iteration swapped between launches in one call. Returns how many nodes it updated. `pick` is given the params' slots ([`SidesSlots`]), not their values: it names two params and changes none. As [`SidesParamsMut::swap`] followed by `apply`: all or nothing (a refused update is reported, naming its node, and the swap undone), any other change pending applied with it.

Swapping two buffers the executable holds (a ping-pong) registers and releases nothing: the swap costs its readers' driver calls and the update of their records of memory.

# Errors

The error of the update that refused the swap, naming its node (a kernel's launch check, a driver error, two nodes that would race): the swap is undone.*/
    pub fn swap<S: ::cudagraph_runtime::__private::Pick>(
        &mut self,
        pick: impl FnOnce(&mut SidesSlots) -> (&mut S, &mut S),
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
        let __cg_params: &SidesParams = &__cg_parts.state.params;
        #[allow(unused_variables)]
        let i: ::core::primitive::usize = index;
        let (kernel, config, args) = Sides::__cg_eval_side(__cg_params, index);
        __cg_parts.exec.set_kernel(__cg_parts.nodes.side[index], kernel, config, args)?;
        __cg_parts.state.launch.side[index] = config;
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
        let __cg_params: &SidesParams = &__cg_parts.state.params;
        let (kernel, config, args) = Sides::__cg_eval_other(__cg_params);
        __cg_parts.exec.set_kernel(__cg_parts.nodes.other, kernel, config, args)?;
        __cg_parts.state.launch.other = config;
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline]
    fn __cg_slot_offset_0(slot: ::core::primitive::usize) -> ::core::primitive::usize {
        match slot {
            0usize => ::cudagraph_runtime::__private::offset_of!(SidesParams, scale),
            1usize..4usize => {
                ::cudagraph_runtime::__private::offset_of!(SidesParams, g)
                    + (slot - 1usize)
                        * ::cudagraph_runtime::__private::size_of::<DeviceBuffer<f32>>()
            }
            4usize => ::cudagraph_runtime::__private::offset_of!(SidesParams, x),
            5usize => ::cudagraph_runtime::__private::offset_of!(SidesParams, n),
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
                    __cg_parts.applied.scale = <Kernel<
                        (u32, f32, DevicePtrMut<f32>),
                    > as ::cudagraph_runtime::__private::KernelType>::keep(
                        &__cg_parts.state.params.scale,
                    );
                } else {
                    __cg_parts.state.params.scale = <Kernel<
                        (u32, f32, DevicePtrMut<f32>),
                    > as ::cudagraph_runtime::__private::KernelType>::keep(
                        &__cg_parts.applied.scale,
                    );
                }
            }
            1usize..4usize => {
                if commit {
                    __cg_parts.applied.g[param - 1usize] = <DeviceBuffer<
                        f32,
                    > as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_parts.state.params.g[param - 1usize],
                    );
                } else {
                    __cg_parts.state.params.g[param - 1usize] = <DeviceBuffer<
                        f32,
                    > as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_parts.applied.g[param - 1usize],
                    );
                }
            }
            4usize => {
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
            5usize => {
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
/**Changes to the params of a [`SidesExec`], several at once ([`SidesExec::params_mut`]). It reads as the params (`Deref`); `set_<param>` and [`swap`](Self::swap) change them and mark the nodes that read them, and [`apply`](Self::apply) updates those nodes, each once however many of its params changed. A guard dropped without `apply` leaves the changes to the executable's next launch, which applies them first: a change cannot be forgotten. An update that fails is the error of that `apply` or launch, naming the node (the launch launches nothing), and undoes the changes: the params and the nodes are as they were before them.

```text
let mut p = exec.params_mut();
p.set_n(n);                         // its readers are updated once,
p.set_scale(0.5);                   // even those reading both
p.swap(|p| (&mut p.x, &mut p.x_new))?;
p.apply()?;                         // or: the next exec.launch(&stream)
```*/
#[must_use = "changes made through the guard are applied by `apply`, or by the next launch"]
struct SidesParamsMut<'a> {
    exec: &'a mut SidesExec,
}
impl ::cudagraph_runtime::__private::Deref for SidesParamsMut<'_> {
    type Target = SidesParams;
    fn deref(&self) -> &SidesParams {
        &self.exec.parts.state.params
    }
}
#[allow(clippy::type_complexity)]
impl SidesParamsMut<'_> {
    ///Sets param `scale`, and marks what reads it (nodes `side[0]`, `side[1]`, `side[2]`, `other`) for the guard's [`apply`](Self::apply), or the executable's next launch. Returns the old value.
    #[inline]
    pub fn set_scale(
        &mut self,
        value: Kernel<(u32, f32, DevicePtrMut<f32>)>,
    ) -> Kernel<(u32, f32, DevicePtrMut<f32>)> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.exec.parts.get_mut() }.state.params.scale,
            value,
        );
        ::cudagraph_runtime::__private::stage(self.exec, 0usize);
        old
    }
    ///Sets element `index` of array param `g`, and marks the nodes that read that element (of node `side[i]`) for the guard's [`apply`](Self::apply), or the executable's next launch. Returns the old value; `Error::Invalid` for an index beyond the array, with nothing changed.
    #[inline]
    pub fn set_g(
        &mut self,
        index: ::core::primitive::usize,
        value: DeviceBuffer<f32>,
    ) -> ::cudagraph_runtime::__private::Result<DeviceBuffer<f32>> {
        ::cudagraph_runtime::__private::element("g", index, 3usize)?;
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.exec.parts.get_mut() }.state.params.g[index],
            value,
        );
        ::cudagraph_runtime::__private::stage(self.exec, 1usize + index);
        ::cudagraph_runtime::__private::Result::Ok(old)
    }
    ///Sets param `x`, and marks what reads it (node `other`) for the guard's [`apply`](Self::apply), or the executable's next launch. Returns the old value.
    #[inline]
    pub fn set_x(&mut self, value: DeviceBuffer<f32>) -> DeviceBuffer<f32> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.exec.parts.get_mut() }.state.params.x,
            value,
        );
        ::cudagraph_runtime::__private::stage(self.exec, 4usize);
        old
    }
    ///Sets param `n`, and marks what reads it (nodes `side[0]`, `side[1]`, `side[2]`, `other`) for the guard's [`apply`](Self::apply), or the executable's next launch. Returns the old value.
    #[inline]
    pub fn set_n(&mut self, value: u32) -> u32 {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.exec.parts.get_mut() }.state.params.n,
            value,
        );
        ::cudagraph_runtime::__private::stage(self.exec, 5usize);
        old
    }
    /**Swaps two params of one type, named by `pick` (`p.swap(|p| (&mut p.x, &mut p.x_new))`), and marks the nodes that read them. `pick` is given the params' slots ([`SidesSlots`]), not their values: it names two params and changes none, so that the swap is the only change, and the tracker knows it. The slots of an array param are its elements' (`|p| (&mut p.w[0], &mut p.w[1])`); two arrays of slots (two array params, or runs of elements) are swapped element by element.

Never refused for slots of the struct `pick` is given (its signature allows no other).*/
    pub fn swap<S: ::cudagraph_runtime::__private::Pick>(
        &mut self,
        pick: impl FnOnce(&mut SidesSlots) -> (&mut S, &mut S),
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
impl ::cudagraph_runtime::__private::fmt::Debug for SidesParamsMut<'_> {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("SidesParamsMut").finish_non_exhaustive()
    }
}
/**Update handle of node `side[i]` of [`SidesExec`] (`kernel scale<<<1, 32>>>(n, 2.0, g[i])`): its arguments and launch configuration can change, and it can be enabled or disabled ([what CUDA allows](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#individual-node-update)).

Memory given through the handle is not judged by the race rule, which judges the declaration's params: it must not be memory that a node no edge orders with this one uses, one of them writing it (host memory that host code uses is checked: `Error::Hazard`). A change of a param the node reads, or `set_params`, sets the node back to its params.*/
struct SidesSideNode<'a> {
    exec: &'a mut SidesExec,
    index: ::core::primitive::usize,
}
impl<'a> SidesSideNode<'a> {
    const __CG_POSITIONS: [::core::primitive::usize; 3usize] = [0usize, 1usize, 2usize];
    ///Sets the kernel's arguments for the next launches, keeping the node's launch configuration (`cuGraphExecKernelNodeSetParams`). Memory the node stops using is released once the launches that may use it are done.
    pub fn set(
        &mut self,
        n: impl ::cudagraph_runtime::__private::KernelArg<'static, u32>,
        arg1: impl ::cudagraph_runtime::__private::KernelArg<'static, f32>,
        arg2: impl ::cudagraph_runtime::__private::KernelArg<'static, DevicePtrMut<f32>>,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = self.exec.parts.get();
        let config = __cg_parts.state.launch.side[self.index];
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
        let __cg_parts = unsafe { self.exec.parts.get_mut() };
        __cg_parts
            .exec
            .set_kernel_params(
                __cg_parts.nodes.side[self.index],
                config,
                (n, arg1, arg2),
            )?;
        __cg_parts.state.launch.side[self.index] = config;
        __cg_parts.tracker.set_by_handle(Self::__CG_POSITIONS[self.index]);
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    /// The node's launch configuration now.
    pub fn launch_config(&self) -> ::cudagraph_runtime::__private::LaunchConfig {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.state.launch.side[self.index]
    }
    /// Enables or disables the node for the next launches (`cuGraphNodeSetEnabled`). A
    /// disabled node acts as an empty node; params set meanwhile apply once it is enabled.
    pub fn set_enabled(
        &mut self,
        enabled: ::core::primitive::bool,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.exec.parts.get_mut() };
        __cg_parts.exec.set_enabled(__cg_parts.nodes.side[self.index], enabled)
    }
    /// Whether the node is enabled (`cuGraphNodeGetEnabled`).
    pub fn is_enabled(
        &self,
    ) -> ::cudagraph_runtime::__private::Result<::core::primitive::bool> {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.exec.is_enabled(__cg_parts.nodes.side[self.index])
    }
    /// The node's runtime handle, for the runtime's own API.
    pub fn node(
        &self,
    ) -> ::cudagraph_runtime::__private::KernelNode<(u32, f32, DevicePtrMut<f32>)> {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.nodes.side[self.index]
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
/**Update handle of node `other` of [`SidesExec`] (`kernel scale<<<1, 32>>>(n, 0.5, x)`): its arguments and launch configuration can change, and it can be enabled or disabled ([what CUDA allows](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#individual-node-update)).

Memory given through the handle is not judged by the race rule, which judges the declaration's params: it must not be memory that a node no edge orders with this one uses, one of them writing it (host memory that host code uses is checked: `Error::Hazard`). A change of a param the node reads, or `set_params`, sets the node back to its params.*/
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
        let __cg_parts = self.exec.parts.get();
        let config = __cg_parts.state.launch.other;
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
        let __cg_parts = unsafe { self.exec.parts.get_mut() };
        __cg_parts.exec.set_kernel_params(__cg_parts.nodes.other, config, (n, arg1, x))?;
        __cg_parts.state.launch.other = config;
        __cg_parts.tracker.set_by_handle(3usize);
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    /// The node's launch configuration now.
    pub fn launch_config(&self) -> ::cudagraph_runtime::__private::LaunchConfig {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.state.launch.other
    }
    /// Enables or disables the node for the next launches (`cuGraphNodeSetEnabled`). A
    /// disabled node acts as an empty node; params set meanwhile apply once it is enabled.
    pub fn set_enabled(
        &mut self,
        enabled: ::core::primitive::bool,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.exec.parts.get_mut() };
        __cg_parts.exec.set_enabled(__cg_parts.nodes.other, enabled)
    }
    /// Whether the node is enabled (`cuGraphNodeGetEnabled`).
    pub fn is_enabled(
        &self,
    ) -> ::cudagraph_runtime::__private::Result<::core::primitive::bool> {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.exec.is_enabled(__cg_parts.nodes.other)
    }
    /// The node's runtime handle, for the runtime's own API.
    pub fn node(
        &self,
    ) -> ::cudagraph_runtime::__private::KernelNode<(u32, f32, DevicePtrMut<f32>)> {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.nodes.other
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
