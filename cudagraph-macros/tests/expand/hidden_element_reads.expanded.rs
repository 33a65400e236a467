//! Nodes whose index of `scale` may pick another element than its tokens say (a macro call, an
//! item hiding a graph const or the loop variable; see `tests/tests/generated_hidden_reads.rs`):
//! each reads every element of `scale`, in `READERS` and the setters' docs.
use cudagraph_runtime::prelude::*;
#[allow(dead_code)]
const K: usize = 0;
const _: () = {
    #[allow(unused_imports)]
    use ::cudagraph_runtime::__private::{
        ArgsFallback as _, BodyFallback as _, ParamFallback as _, SlotFallback as _,
    };
    if <::cudagraph_runtime::__private::ParamProbe<
        Kernel<(u32, f32, DevicePtrMut<f32>)>,
    >>::IS_HANDLE {
        ::cudagraph_runtime::__private::fail(
            "param `scale_k` is a `ConditionalHandle`: a handle is made by the conditional node that reads it (`name: while scale_k { ... }`), since one made for another graph would be set where no node reads it",
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
/**The params of [`Hidden`]: what its nodes are built from ([`Hidden::build`]). Its executable owns a copy ([`HiddenExec::params`]), changed through the executable (`set_<param>`, [`HiddenExec::params_mut`], [`HiddenExec::set_params`]), which updates exactly the nodes that read what changed:

- node `a` reads `scale_k`, `scale`, `n`, `ya`
- node `b` reads `scale_k`, `scale`, `n`, `yb`
- node `c[l]` reads `scale_k`, `scale`, `n`, `yc`
- node `d` reads `scale_k`, `scale`, `n`, `yd`
*/
#[allow(clippy::type_complexity)]
struct HiddenParams {
    ///Param `scale_k`, read by nodes `a`, `b`, `c[l]`, `d`.
    pub scale_k: Kernel<(u32, f32, DevicePtrMut<f32>)>,
    ///Param `scale`, read by nodes `a`, `b`, `c[l]`, `d`.
    pub scale: [f32; 2],
    ///Param `n`, read by nodes `a`, `b`, `c[l]`, `d`.
    pub n: u32,
    ///Param `ya`, read by node `a`.
    pub ya: DeviceBuffer<f32>,
    ///Param `yb`, read by node `b`.
    pub yb: DeviceBuffer<f32>,
    ///Param `yc`, read by node `c[l]`.
    pub yc: [DeviceBuffer<f32>; 2],
    ///Param `yd`, read by node `d`.
    pub yd: DeviceBuffer<f32>,
}
impl ::cudagraph_runtime::__private::fmt::Debug for HiddenParams {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("HiddenParams").finish_non_exhaustive()
    }
}
/**A CUDA graph declared with `cuda_graph!`: [`Hidden::build`] builds it from a [`HiddenParams`], [`Hidden::instantiate`] makes it a [`HiddenExec`].

# Nodes

In build order (a node's position is its index in the graph):

0. `a`: `kernel scale_k<<<1, 32>>>(n, next !(scale[0]), ya)`
1. `b`: `kernel scale_k<<<1, 32>>>(n, { const K : usize = 1; scale[K] }, yb)`
2. `c[0]`: `kernel scale_k<<<1, 32>>>(n, { zero_l !(); scale[l] }, yc[l])`
3. `c[1]`: `kernel scale_k<<<1, 32>>>(n, { zero_l !(); scale[l] }, yc[l])`
4. `d`: `kernel scale_k<<<1, 32>>>(n, scale[K], yd)`

# Topology

<div style="overflow-x:auto"><svg xmlns="http://www.w3.org/2000/svg" role="img" width="370" height="56" viewBox="0 0 370 56" font-family="monospace" font-size="14" text-anchor="middle" fill="currentColor"><title>Topology of Hidden: 5 nodes, 0 edges</title><rect x="8" y="8" width="58" height="40" rx="4" fill="#dbeafe" stroke="#1d4ed8"/><text x="37" y="25" fill="#111">a</text><text x="37" y="41" font-size="11" fill="#374151">kernel</text><rect x="82" y="8" width="58" height="40" rx="4" fill="#dbeafe" stroke="#1d4ed8"/><text x="111" y="25" fill="#111">b</text><text x="111" y="41" font-size="11" fill="#374151">kernel</text><rect x="156" y="8" width="58" height="40" rx="4" fill="#dbeafe" stroke="#1d4ed8"/><text x="185" y="25" fill="#111">c[0]</text><text x="185" y="41" font-size="11" fill="#374151">kernel</text><rect x="230" y="8" width="58" height="40" rx="4" fill="#dbeafe" stroke="#1d4ed8"/><text x="259" y="25" fill="#111">c[1]</text><text x="259" y="41" font-size="11" fill="#374151">kernel</text><rect x="304" y="8" width="58" height="40" rx="4" fill="#dbeafe" stroke="#1d4ed8"/><text x="333" y="25" fill="#111">d</text><text x="333" y="41" font-size="11" fill="#374151">kernel</text></svg></div>

As text: `Hidden::TOPOLOGY.to_mermaid()` (Mermaid) or `.to_dot()` (Graphviz).
*/
struct Hidden {
    parts: ::cudagraph_runtime::__private::Guarded<__HiddenParts>,
}
#[doc(hidden)]
#[allow(non_camel_case_types)]
struct __HiddenParts {
    graph: ::cudagraph_runtime::__private::Graph<'static>,
    nodes: ::cudagraph_runtime::__private::Box<
        ::cudagraph_runtime::__private::ManuallyDrop<__HiddenNodes>,
    >,
    state: __HiddenState,
    build_id: ::core::primitive::u64,
}
#[doc(hidden)]
#[allow(non_camel_case_types, dead_code, clippy::type_complexity)]
struct __HiddenNodes {
    a: ::cudagraph_runtime::__private::KernelNode<(u32, f32, DevicePtrMut<f32>)>,
    b: ::cudagraph_runtime::__private::KernelNode<(u32, f32, DevicePtrMut<f32>)>,
    c: [::cudagraph_runtime::__private::KernelNode<
        (u32, f32, DevicePtrMut<f32>),
    >; 2usize],
    d: ::cudagraph_runtime::__private::KernelNode<(u32, f32, DevicePtrMut<f32>)>,
}
unsafe impl ::cudagraph_runtime::__private::Unbuilt for __HiddenNodes {}
#[doc(hidden)]
#[allow(non_camel_case_types, non_snake_case, dead_code)]
#[derive(Clone, Copy)]
struct __HiddenLaunch {
    a: ::cudagraph_runtime::__private::LaunchConfig,
    b: ::cudagraph_runtime::__private::LaunchConfig,
    c: [::cudagraph_runtime::__private::LaunchConfig; 2usize],
    d: ::cudagraph_runtime::__private::LaunchConfig,
}
unsafe impl ::cudagraph_runtime::__private::Unbuilt for __HiddenLaunch {}
#[doc(hidden)]
#[allow(non_camel_case_types)]
struct __HiddenState {
    params: ::cudagraph_runtime::__private::Box<HiddenParams>,
    launch: ::cudagraph_runtime::__private::Box<__HiddenLaunch>,
}
impl Hidden {
    /// The declared shape: nodes in build order (their indices in the graph; one more
    /// with `#[indirect]` params, whose fetch node comes first), kinds and edges. Its
    /// `to_dot()` and `to_mermaid()` draw it.
    pub const TOPOLOGY: ::cudagraph_runtime::__private::Topology = ::cudagraph_runtime::__private::Topology {
        name: "Hidden",
        nodes: &[
            ("a", ::cudagraph_runtime::__private::NodeKind::Kernel),
            ("b", ::cudagraph_runtime::__private::NodeKind::Kernel),
            ("c[0]", ::cudagraph_runtime::__private::NodeKind::Kernel),
            ("c[1]", ::cudagraph_runtime::__private::NodeKind::Kernel),
            ("d", ::cudagraph_runtime::__private::NodeKind::Kernel),
        ],
        edges: &[],
        bodies: &[],
    };
    /// [`TOPOLOGY`](Self::TOPOLOGY) drawn as a standalone SVG image, laid out when the
    /// macro ran: the picture in this type's docs. Write it to a `.svg` file or put it
    /// in an HTML page; its lines and labels take the text colour of the page around it
    /// (black in a file of its own). It is in the binary only if the program calls this.
    pub const fn topology_svg() -> &'static ::core::primitive::str {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" width=\"370\" height=\"56\" viewBox=\"0 0 370 56\" font-family=\"monospace\" font-size=\"14\" text-anchor=\"middle\" fill=\"currentColor\"><title>Topology of Hidden: 5 nodes, 0 edges</title><rect x=\"8\" y=\"8\" width=\"58\" height=\"40\" rx=\"4\" fill=\"#dbeafe\" stroke=\"#1d4ed8\"/><text x=\"37\" y=\"25\" fill=\"#111\">a</text><text x=\"37\" y=\"41\" font-size=\"11\" fill=\"#374151\">kernel</text><rect x=\"82\" y=\"8\" width=\"58\" height=\"40\" rx=\"4\" fill=\"#dbeafe\" stroke=\"#1d4ed8\"/><text x=\"111\" y=\"25\" fill=\"#111\">b</text><text x=\"111\" y=\"41\" font-size=\"11\" fill=\"#374151\">kernel</text><rect x=\"156\" y=\"8\" width=\"58\" height=\"40\" rx=\"4\" fill=\"#dbeafe\" stroke=\"#1d4ed8\"/><text x=\"185\" y=\"25\" fill=\"#111\">c[0]</text><text x=\"185\" y=\"41\" font-size=\"11\" fill=\"#374151\">kernel</text><rect x=\"230\" y=\"8\" width=\"58\" height=\"40\" rx=\"4\" fill=\"#dbeafe\" stroke=\"#1d4ed8\"/><text x=\"259\" y=\"25\" fill=\"#111\">c[1]</text><text x=\"259\" y=\"41\" font-size=\"11\" fill=\"#374151\">kernel</text><rect x=\"304\" y=\"8\" width=\"58\" height=\"40\" rx=\"4\" fill=\"#dbeafe\" stroke=\"#1d4ed8\"/><text x=\"333\" y=\"25\" fill=\"#111\">d</text><text x=\"333\" y=\"41\" font-size=\"11\" fill=\"#374151\">kernel</text></svg>"
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
        __cg_params: &HiddenParams,
    ) -> ::cudagraph_runtime::__private::Result<Self> {
        Self::__cg_check_overlaps(__cg_params)?;
        let mut __cg_graph = ::cudagraph_runtime::__private::Graph::with_capacity(
            ctx,
            5usize,
        )?;
        let (nodes, state) = Self::__cg_add_nodes(&mut __cg_graph, __cg_params)?;
        ::cudagraph_runtime::__private::built(&__cg_graph, "Hidden");
        let __cg_parts = __HiddenParts {
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
        __cg_params: &HiddenParams,
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
        ::cudagraph_runtime::__private::built(&__cg_parts.graph, "Hidden");
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
        __cg_params: &HiddenParams,
    ) -> ::cudagraph_runtime::__private::Result<
        (
            ::cudagraph_runtime::__private::Box<
                ::cudagraph_runtime::__private::ManuallyDrop<__HiddenNodes>,
            >,
            __HiddenState,
        ),
    > {
        let owned = Self::__cg_own(__cg_params)?;
        let mut boxed = ::cudagraph_runtime::__private::unbuilt_box::<
            ::cudagraph_runtime::__private::ManuallyDrop<__HiddenNodes>,
        >();
        let mut configs = ::cudagraph_runtime::__private::unbuilt_box::<
            __HiddenLaunch,
        >();
        {
            let nodes: &mut __HiddenNodes = &mut boxed;
            #[allow(unused_variables)]
            let launches: &mut __HiddenLaunch = &mut configs;
            let ids = &mut ::cudagraph_runtime::__private::Vec::with_capacity(5usize);
            Self::__cg_add_0(__cg_graph, __cg_params, nodes, launches, ids)?;
            Self::__cg_add_loop_2(
                __cg_graph,
                __cg_params,
                nodes,
                launches,
                ids,
                0usize,
                2usize,
            )?;
            Self::__cg_add_4(__cg_graph, __cg_params, nodes, launches, ids)?;
        }
        ::cudagraph_runtime::__private::Result::Ok((
            boxed,
            __HiddenState {
                params: owned,
                launch: configs,
            },
        ))
    }
    #[inline(never)]
    fn __cg_add_0(
        __cg_graph: &mut ::cudagraph_runtime::__private::Graph<'static>,
        __cg_params: &HiddenParams,
        nodes: &mut __HiddenNodes,
        launches: &mut __HiddenLaunch,
        ids: &mut ::cudagraph_runtime::__private::Vec<
            ::cudagraph_runtime::__private::NodeId,
        >,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        (nodes.a, launches.a) = ::cudagraph_runtime::__private::add_node(
            __cg_graph,
            "a",
            |__cg_graph| {
                let (kernel, config, args) = Hidden::__cg_eval_a(__cg_params);
                let added = __cg_graph.add_kernel(kernel, config, args, &[])?;
                ::cudagraph_runtime::__private::Result::Ok((added, config))
            },
        )?;
        ids.push(nodes.a.id());
        (nodes.b, launches.b) = ::cudagraph_runtime::__private::add_node(
            __cg_graph,
            "b",
            |__cg_graph| {
                let (kernel, config, args) = Hidden::__cg_eval_b(__cg_params);
                let added = __cg_graph.add_kernel(kernel, config, args, &[])?;
                ::cudagraph_runtime::__private::Result::Ok((added, config))
            },
        )?;
        ids.push(nodes.b.id());
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline(never)]
    fn __cg_add_loop_2(
        __cg_graph: &mut ::cudagraph_runtime::__private::Graph<'static>,
        __cg_params: &HiddenParams,
        nodes: &mut __HiddenNodes,
        launches: &mut __HiddenLaunch,
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
            (nodes.c[index], launches.c[index]) = ::cudagraph_runtime::__private::add_node(
                __cg_graph,
                Hidden::TOPOLOGY.nodes[pos].0,
                |__cg_graph| {
                    let (kernel, config, args) = Hidden::__cg_eval_c(__cg_params, index);
                    let added = __cg_graph
                        .add_kernel(
                            kernel,
                            config,
                            args,
                            &::cudagraph_runtime::__private::deps_at(
                                ids,
                                Hidden::__CG_DEPS,
                                Hidden::__CG_DEP_START,
                            ),
                        )?;
                    ::cudagraph_runtime::__private::Result::Ok((added, config))
                },
            )?;
            ids.push(nodes.c[index].id());
        }
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline(never)]
    fn __cg_add_4(
        __cg_graph: &mut ::cudagraph_runtime::__private::Graph<'static>,
        __cg_params: &HiddenParams,
        nodes: &mut __HiddenNodes,
        launches: &mut __HiddenLaunch,
        ids: &mut ::cudagraph_runtime::__private::Vec<
            ::cudagraph_runtime::__private::NodeId,
        >,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        (nodes.d, launches.d) = ::cudagraph_runtime::__private::add_node(
            __cg_graph,
            "d",
            |__cg_graph| {
                let (kernel, config, args) = Hidden::__cg_eval_d(__cg_params);
                let added = __cg_graph.add_kernel(kernel, config, args, &[])?;
                ::cudagraph_runtime::__private::Result::Ok((added, config))
            },
        )?;
        ids.push(nodes.d.id());
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    /// The dependencies of every node, by position: those of the node at position
    /// `p` are `__CG_DEPS[__CG_DEP_START[p]..__CG_DEP_START[p + 1]]`.
    #[doc(hidden)]
    const __CG_DEPS: &'static [::core::primitive::u32] = &[];
    #[doc(hidden)]
    const __CG_DEP_START: &'static [::core::primitive::u32] = &[
        0u32, 0u32, 0u32, 0u32, 0u32, 0u32,
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
        __cg_params: &HiddenParams,
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
        )
            && ::cudagraph_runtime::__private::overlap_bytes(
                <::cudagraph_runtime::__private::ParamProbe<
                    DeviceBuffer<f32>,
                >>::bytes(&__cg_params.ya),
                <::cudagraph_runtime::__private::ParamProbe<
                    DeviceBuffer<f32>,
                >>::bytes(&__cg_params.yb),
            )
        {
            return ::cudagraph_runtime::__private::Result::Err(
                ::cudagraph_runtime::__private::overlap_error("a", "ya", "b", "yb"),
            );
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
            )] = &[(0usize, 0usize, 2usize, 0usize), (0usize, 0usize, 3usize, 1usize)];
            for &(a, ka, b, kb) in PAIRS {
                let (x, y) = (
                    [
                        <::cudagraph_runtime::__private::ParamProbe<
                            DeviceBuffer<f32>,
                        >>::bytes(&__cg_params.ya),
                    ],
                    [
                        <::cudagraph_runtime::__private::ParamProbe<
                            DeviceBuffer<f32>,
                        >>::bytes(&__cg_params.yc[kb]),
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
                            "ya",
                            Self::TOPOLOGY.nodes[b].0,
                            &::std::format!("yc[{}]", kb),
                        ),
                    );
                }
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
            )] = &[(1usize, 0usize, 2usize, 0usize), (1usize, 0usize, 3usize, 1usize)];
            for &(a, ka, b, kb) in PAIRS {
                let (x, y) = (
                    [
                        <::cudagraph_runtime::__private::ParamProbe<
                            DeviceBuffer<f32>,
                        >>::bytes(&__cg_params.yb),
                    ],
                    [
                        <::cudagraph_runtime::__private::ParamProbe<
                            DeviceBuffer<f32>,
                        >>::bytes(&__cg_params.yc[kb]),
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
                            "yb",
                            Self::TOPOLOGY.nodes[b].0,
                            &::std::format!("yc[{}]", kb),
                        ),
                    );
                }
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
            )] = &[(2usize, 0usize, 3usize, 1usize)];
            for &(a, ka, b, kb) in PAIRS {
                let (x, y) = (
                    [
                        <::cudagraph_runtime::__private::ParamProbe<
                            DeviceBuffer<f32>,
                        >>::bytes(&__cg_params.yc[ka]),
                    ],
                    [
                        <::cudagraph_runtime::__private::ParamProbe<
                            DeviceBuffer<f32>,
                        >>::bytes(&__cg_params.yc[kb]),
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
                            &::std::format!("yc[{}]", ka),
                            Self::TOPOLOGY.nodes[b].0,
                            &::std::format!("yc[{}]", kb),
                        ),
                    );
                }
            }
        }
        if ::cudagraph_runtime::__private::races(
            ::cudagraph_runtime::__private::access_max(
                &[::cudagraph_runtime::__private::WRITE],
            ),
            ::cudagraph_runtime::__private::access_max(
                &[::cudagraph_runtime::__private::WRITE],
            ),
        )
            && ::cudagraph_runtime::__private::overlap_bytes(
                <::cudagraph_runtime::__private::ParamProbe<
                    DeviceBuffer<f32>,
                >>::bytes(&__cg_params.ya),
                <::cudagraph_runtime::__private::ParamProbe<
                    DeviceBuffer<f32>,
                >>::bytes(&__cg_params.yd),
            )
        {
            return ::cudagraph_runtime::__private::Result::Err(
                ::cudagraph_runtime::__private::overlap_error("a", "ya", "d", "yd"),
            );
        }
        if ::cudagraph_runtime::__private::races(
            ::cudagraph_runtime::__private::access_max(
                &[::cudagraph_runtime::__private::WRITE],
            ),
            ::cudagraph_runtime::__private::access_max(
                &[::cudagraph_runtime::__private::WRITE],
            ),
        )
            && ::cudagraph_runtime::__private::overlap_bytes(
                <::cudagraph_runtime::__private::ParamProbe<
                    DeviceBuffer<f32>,
                >>::bytes(&__cg_params.yb),
                <::cudagraph_runtime::__private::ParamProbe<
                    DeviceBuffer<f32>,
                >>::bytes(&__cg_params.yd),
            )
        {
            return ::cudagraph_runtime::__private::Result::Err(
                ::cudagraph_runtime::__private::overlap_error("b", "yb", "d", "yd"),
            );
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
            )] = &[(2usize, 0usize, 4usize, 0usize), (3usize, 1usize, 4usize, 0usize)];
            for &(a, ka, b, kb) in PAIRS {
                let (x, y) = (
                    [
                        <::cudagraph_runtime::__private::ParamProbe<
                            DeviceBuffer<f32>,
                        >>::bytes(&__cg_params.yc[ka]),
                    ],
                    [
                        <::cudagraph_runtime::__private::ParamProbe<
                            DeviceBuffer<f32>,
                        >>::bytes(&__cg_params.yd),
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
                            &::std::format!("yc[{}]", ka),
                            Self::TOPOLOGY.nodes[b].0,
                            "yd",
                        ),
                    );
                }
            }
        }
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    ///Instantiates the graph with default flags.
    pub fn instantiate(self) -> ::cudagraph_runtime::__private::Result<HiddenExec> {
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
    ) -> ::cudagraph_runtime::__private::Result<HiddenExec> {
        let __cg_parts = self.parts.into_inner();
        let applied = Self::__cg_own(&__cg_parts.state.params)?;
        let exec = __cg_parts.graph.instantiate_with(flags, upload)?;
        ::cudagraph_runtime::__private::Result::Ok(unsafe {
            HiddenExec::__cg_new(exec, __cg_parts.nodes, __cg_parts.state, applied)
        })
    }
    ///Instantiates the graph as an executable *bound to* `stream`: it launches there only (`launch` refuses another stream). The launches of executables bound to one stream never overlap, so they may share host memory that their host nodes write, which two executables launched anywhere may not (`Error::BufferInUse` when the second is made).
    pub fn instantiate_on(
        self,
        stream: &::cudagraph_runtime::__private::Arc<
            ::cudagraph_runtime::__private::CudaStream,
        >,
    ) -> ::cudagraph_runtime::__private::Result<HiddenExec> {
        let flags = ::cudagraph_runtime::__private::InstantiateFlags::NONE;
        let __cg_parts = self.parts.into_inner();
        let applied = Self::__cg_own(&__cg_parts.state.params)?;
        let exec = __cg_parts.graph.instantiate_on(stream, flags)?;
        ::cudagraph_runtime::__private::Result::Ok(unsafe {
            HiddenExec::__cg_new(exec, __cg_parts.nodes, __cg_parts.state, applied)
        })
    }
    #[allow(
        non_snake_case,
        unused_variables,
        clippy::type_complexity,
        clippy::needless_lifetimes
    )]
    fn __cg_eval_a<'__cg_p>(
        __cg_params: &'__cg_p HiddenParams,
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
        let scale_k = (&::cudagraph_runtime::__private::Bind(&__cg_params.scale_k))
            .__cg_bind();
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let n = (&::cudagraph_runtime::__private::Bind(&__cg_params.n)).__cg_bind();
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let scale = (&::cudagraph_runtime::__private::Bind(&__cg_params.scale))
            .__cg_bind();
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let ya = (&::cudagraph_runtime::__private::Bind(&__cg_params.ya)).__cg_bind();
        let config = ::cudagraph_runtime::__private::launch(1, 32, 0);
        let args = (
            ::cudagraph_runtime::__private::KernelArgPart::<'static, u32, _>::new(n),
            ::cudagraph_runtime::__private::KernelArgPart::<
                'static,
                f32,
                _,
            >::new(
                next!((& ::cudagraph_runtime::__private::Bind(& scale[0])).__cg_bind()),
            ),
            ::cudagraph_runtime::__private::KernelArgPart::<
                'static,
                DevicePtrMut<f32>,
                _,
            >::new(ya),
        );
        (
            <Kernel<
                (u32, f32, DevicePtrMut<f32>),
            > as ::cudagraph_runtime::__private::KernelType>::as_kernel(
                &__cg_params.scale_k,
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
    fn __cg_eval_b<'__cg_p>(
        __cg_params: &'__cg_p HiddenParams,
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
        let scale_k = (&::cudagraph_runtime::__private::Bind(&__cg_params.scale_k))
            .__cg_bind();
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let n = (&::cudagraph_runtime::__private::Bind(&__cg_params.n)).__cg_bind();
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let scale = (&::cudagraph_runtime::__private::Bind(&__cg_params.scale))
            .__cg_bind();
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let yb = (&::cudagraph_runtime::__private::Bind(&__cg_params.yb)).__cg_bind();
        let config = ::cudagraph_runtime::__private::launch(1, 32, 0);
        let args = (
            ::cudagraph_runtime::__private::KernelArgPart::<'static, u32, _>::new(n),
            ::cudagraph_runtime::__private::KernelArgPart::<
                'static,
                f32,
                _,
            >::new({
                const K: usize = 1;
                (&::cudagraph_runtime::__private::Bind(&scale[K])).__cg_bind()
            }),
            ::cudagraph_runtime::__private::KernelArgPart::<
                'static,
                DevicePtrMut<f32>,
                _,
            >::new(yb),
        );
        (
            <Kernel<
                (u32, f32, DevicePtrMut<f32>),
            > as ::cudagraph_runtime::__private::KernelType>::as_kernel(
                &__cg_params.scale_k,
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
    fn __cg_eval_c<'__cg_p>(
        __cg_params: &'__cg_p HiddenParams,
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
        let scale_k = (&::cudagraph_runtime::__private::Bind(&__cg_params.scale_k))
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
        let yc = (&::cudagraph_runtime::__private::Bind(&__cg_params.yc)).__cg_bind();
        let config = ::cudagraph_runtime::__private::launch(1, 32, 0);
        let args = (
            ::cudagraph_runtime::__private::KernelArgPart::<'static, u32, _>::new(n),
            ::cudagraph_runtime::__private::KernelArgPart::<
                'static,
                f32,
                _,
            >::new({
                zero_l!();
                (&::cudagraph_runtime::__private::Bind(&scale[l])).__cg_bind()
            }),
            ::cudagraph_runtime::__private::KernelArgPart::<
                'static,
                DevicePtrMut<f32>,
                _,
            >::new((&::cudagraph_runtime::__private::Bind(&yc[l])).__cg_bind()),
        );
        (
            <Kernel<
                (u32, f32, DevicePtrMut<f32>),
            > as ::cudagraph_runtime::__private::KernelType>::as_kernel(
                &__cg_params.scale_k,
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
    fn __cg_eval_d<'__cg_p>(
        __cg_params: &'__cg_p HiddenParams,
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
        let scale_k = (&::cudagraph_runtime::__private::Bind(&__cg_params.scale_k))
            .__cg_bind();
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let n = (&::cudagraph_runtime::__private::Bind(&__cg_params.n)).__cg_bind();
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let scale = (&::cudagraph_runtime::__private::Bind(&__cg_params.scale))
            .__cg_bind();
        #[allow(unused_variables, clippy::redundant_locals)]
        #[allow(clippy::needless_borrow)]
        let yd = (&::cudagraph_runtime::__private::Bind(&__cg_params.yd)).__cg_bind();
        let config = ::cudagraph_runtime::__private::launch(1, 32, 0);
        let args = (
            ::cudagraph_runtime::__private::KernelArgPart::<'static, u32, _>::new(n),
            ::cudagraph_runtime::__private::KernelArgPart::<
                'static,
                f32,
                _,
            >::new((&::cudagraph_runtime::__private::Bind(&scale[K])).__cg_bind()),
            ::cudagraph_runtime::__private::KernelArgPart::<
                'static,
                DevicePtrMut<f32>,
                _,
            >::new(yd),
        );
        (
            <Kernel<
                (u32, f32, DevicePtrMut<f32>),
            > as ::cudagraph_runtime::__private::KernelType>::as_kernel(
                &__cg_params.scale_k,
            ),
            config,
            args,
        )
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for Hidden {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("Hidden")
            .field("graph", &self.parts.graph)
            .finish_non_exhaustive()
    }
}
impl ::cudagraph_runtime::__private::BodyRules for Hidden {
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
unsafe impl ::cudagraph_runtime::__private::ChildGraph for Hidden {
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
impl ::cudagraph_runtime::__private::SameDeclaration<Hidden> for Hidden {
    fn same(&self) -> &Hidden {
        self
    }
}
/**[`Hidden`], instantiated, with the [`HiddenParams`] it runs, which it owns ([`params`](Self::params)).

Change a param with its setter (`exec.set_alpha(0.5)?`, one per param: it updates the nodes that read it, and returns the old value), several at once or two swapped through [`params_mut`](Self::params_mut) ([`HiddenParamsMut`], whose changes the next launch applies if its `apply` did not), all of them by [`set_params`](Self::set_params); or update it from another [`Hidden`] ([`update`](Self::update)), or one node through its handle. Which node reads which param is known when the macro runs: a change updates the nodes that read it, each once, with nothing else compared.

A change is made whole or not at all. One that a node refuses (the driver or a kernel's check, params that would make two nodes race, or a change CUDA cannot make, such as an allocation's length) is the error of the setter, `apply`, `set_params` or launch that tried it, naming the node, and is undone: every param changed since the last update gets back the value the nodes were last updated from (the executable keeps a copy of those), the nodes updated before the refusal are set back, and nothing stays pending, so the next launch runs what ran before. A panic in your code that a change runs (a node expression, a param's `Clone`, `PartialEq` or `Drop`) may stop it part way: caught, it leaves the executable refusing updates and launches (`Error::Invalid`) until a whole-graph update. Memory the executable stops using is released once the launches that may use it are done.

Nodes:

- [`a()`](Self::a): kernel node
- [`b()`](Self::b): kernel node
- [`c(l)`](Self::c): kernel node, one per iteration (2 instances)
- [`d()`](Self::d): kernel node
*/
struct HiddenExec {
    parts: ::cudagraph_runtime::__private::Guarded<__HiddenExecParts>,
}
#[doc(hidden)]
#[allow(non_camel_case_types)]
struct __HiddenExecParts {
    exec: ::cudagraph_runtime::__private::GraphExec<'static>,
    nodes: ::cudagraph_runtime::__private::Box<
        ::cudagraph_runtime::__private::ManuallyDrop<__HiddenNodes>,
    >,
    state: __HiddenState,
    /// A copy of the params as the nodes were last updated from them: what a refused
    /// change puts back (see `__private::apply`).
    applied: ::cudagraph_runtime::__private::Box<HiddenParams>,
    /// The nodes that disagree with the params (see `__private::Tracker`).
    tracker: ::cudagraph_runtime::__private::Tracker,
}
impl HiddenExec {
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
            ::cudagraph_runtime::__private::ManuallyDrop<__HiddenNodes>,
        >,
        state: __HiddenState,
        applied: ::cudagraph_runtime::__private::Box<HiddenParams>,
    ) -> Self {
        let tracker = ::cudagraph_runtime::__private::Tracker::new(5usize, 9usize);
        let __cg_parts = __HiddenExecParts {
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
    /**Whole-graph update from a [`Hidden`] built with other params (`cuGraphExecUpdate`).

Only a graph of this declaration is accepted: it was built by the same sequence of calls, so its nodes pair with this executable's ([whole-graph update](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#whole-graph-update)). Afterwards the executable owns a copy of that graph's params (what [`params`](Self::params) shows), and changes made to its own params and not applied yet are dropped.*/
    pub fn update<__CgSame: ::cudagraph_runtime::__private::SameDeclaration<Hidden>>(
        &mut self,
        source: &__CgSame,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let source: &Hidden = ::cudagraph_runtime::__private::SameDeclaration::same(
            source,
        );
        let params = Hidden::__cg_own(&source.parts.state.params)?;
        let applied = Hidden::__cg_own(&source.parts.state.params)?;
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
    /**Replaces the executable's params with `params` as a whole: each param that differs from the executable's own is copied in, then the nodes that read a changed param (or were set through their handle since) are updated, each once, with one single-node update. Afterwards the nodes are what [`Hidden::build`] would make from `params`. Returns how many nodes it updated. Enabled/disabled states are kept.

It compares every param, so its cost grows with the declaration: to change a few params, set them (the setters `set_<param>`, [`params_mut`](Self::params_mut)), which updates only their readers. A param is compared with `PartialEq`, a kernel by function, a declared graph by identity; a runtime `Graph` counts as changed every time. A kernel param may change function (same parameter list, same context): the node's single-node update switches it.

Params under which two nodes that may run at the same time share memory, one writing it, are refused as by [`Hidden::build`], with nothing changed. So is any update a node refuses: the error names the node, and the params and the nodes updated before it are set back to what they were.*/
    pub fn set_params(
        &mut self,
        __cg_params: &HiddenParams,
    ) -> ::cudagraph_runtime::__private::Result<::core::primitive::usize> {
        Hidden::__cg_check_overlaps(__cg_params)?;
        self.__cg_take_0(__cg_params);
        ::cudagraph_runtime::__private::set_all(self)
    }
    ///The params the executable runs: those it was built from, with every change made since through the setters (`set_<param>`), [`params_mut`](Self::params_mut), [`set_params`](Self::set_params) or [`update`](Self::update). Host code reads the buffers among them as any buffer's holder does: `exec.params().y.to_vec()` waits for the launches that may write `y`.
    pub fn params(&self) -> &HiddenParams {
        &self.parts.state.params
    }
    /**A guard through which to change several params at once, or to swap two: [`HiddenParamsMut`]'s `set_<param>` and [`swap`](HiddenParamsMut::swap) change the params (read them through the guard) and mark the nodes that read them; [`HiddenParamsMut::apply`] updates those nodes, each once however many of its params changed, and if the guard is dropped instead, the next [`launch`](Self::launch) does. Either reports an update the driver or a kernel's check refuses as an error naming the node, and undoes the changes (the params and the nodes are as they were before them); nothing is lost when the guard is dropped.

```text
exec.params_mut().swap(|p| (&mut p.x, &mut p.x_new))?; // the ping-pong of a solver
exec.launch(&stream)?;                                 // updates x's and x_new's readers
```*/
    pub fn params_mut(&mut self) -> HiddenParamsMut<'_> {
        HiddenParamsMut { exec: self }
    }
    /// The params, taking the executable apart (it is dropped; memory its launches may
    /// still use stays alive until they are done).
    pub fn into_params(self) -> HiddenParams {
        *self.parts.into_inner().state.params
    }
    /// The runtime executable, for what the typed API does not cover (read-only).
    pub fn as_exec(&self) -> &::cudagraph_runtime::__private::GraphExec<'static> {
        &self.parts.exec
    }
    #[inline(never)]
    fn __cg_take_0(&mut self, __cg_params: &HiddenParams) {
        let __cg_parts = unsafe { self.parts.get_mut() };
        if !(<Kernel<
            (u32, f32, DevicePtrMut<f32>),
        > as ::cudagraph_runtime::__private::KernelType>::function_id(
            &__cg_params.scale_k,
        )
            == <Kernel<
                (u32, f32, DevicePtrMut<f32>),
            > as ::cudagraph_runtime::__private::KernelType>::function_id(
                &__cg_parts.state.params.scale_k,
            ))
        {
            let value = <Kernel<
                (u32, f32, DevicePtrMut<f32>),
            > as ::cudagraph_runtime::__private::KernelType>::keep(&__cg_params.scale_k);
            ::cudagraph_runtime::__private::stage_in::<
                Self,
            >(&mut __cg_parts.tracker, 0usize);
            __cg_parts.state.params.scale_k = value;
        }
        for k in 0..2usize {
            if !(<f32 as ::cudagraph_runtime::__private::ParamValue>::same(
                &__cg_params.scale[k],
                &__cg_parts.state.params.scale[k],
            )) {
                let value = <f32 as ::cudagraph_runtime::__private::ParamValue>::keep(
                    &__cg_params.scale[k],
                );
                ::cudagraph_runtime::__private::stage_in::<
                    Self,
                >(&mut __cg_parts.tracker, 1usize + k);
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
            >(&mut __cg_parts.tracker, 3usize);
            __cg_parts.state.params.n = value;
        }
        if !(<DeviceBuffer<
            f32,
        > as ::cudagraph_runtime::__private::ParamValue>::same(
            &__cg_params.ya,
            &__cg_parts.state.params.ya,
        )) {
            let value = <DeviceBuffer<
                f32,
            > as ::cudagraph_runtime::__private::ParamValue>::keep(&__cg_params.ya);
            ::cudagraph_runtime::__private::stage_in::<
                Self,
            >(&mut __cg_parts.tracker, 4usize);
            __cg_parts.state.params.ya = value;
        }
        if !(<DeviceBuffer<
            f32,
        > as ::cudagraph_runtime::__private::ParamValue>::same(
            &__cg_params.yb,
            &__cg_parts.state.params.yb,
        )) {
            let value = <DeviceBuffer<
                f32,
            > as ::cudagraph_runtime::__private::ParamValue>::keep(&__cg_params.yb);
            ::cudagraph_runtime::__private::stage_in::<
                Self,
            >(&mut __cg_parts.tracker, 5usize);
            __cg_parts.state.params.yb = value;
        }
        for k in 0..2usize {
            if !(<DeviceBuffer<
                f32,
            > as ::cudagraph_runtime::__private::ParamValue>::same(
                &__cg_params.yc[k],
                &__cg_parts.state.params.yc[k],
            )) {
                let value = <DeviceBuffer<
                    f32,
                > as ::cudagraph_runtime::__private::ParamValue>::keep(
                    &__cg_params.yc[k],
                );
                ::cudagraph_runtime::__private::stage_in::<
                    Self,
                >(&mut __cg_parts.tracker, 6usize + k);
                __cg_parts.state.params.yc[k] = value;
            }
        }
        if !(<DeviceBuffer<
            f32,
        > as ::cudagraph_runtime::__private::ParamValue>::same(
            &__cg_params.yd,
            &__cg_parts.state.params.yd,
        )) {
            let value = <DeviceBuffer<
                f32,
            > as ::cudagraph_runtime::__private::ParamValue>::keep(&__cg_params.yd);
            ::cudagraph_runtime::__private::stage_in::<
                Self,
            >(&mut __cg_parts.tracker, 8usize);
            __cg_parts.state.params.yd = value;
        }
    }
    ///Node `a` (`kernel scale_k<<<1, 32>>>(n, next !(scale[0]), ya)`): its update handle.
    pub fn a(&mut self) -> HiddenANode<'_> {
        HiddenANode { exec: self }
    }
    ///Node `b` (`kernel scale_k<<<1, 32>>>(n, { const K : usize = 1; scale[K] }, yb)`): its update handle.
    pub fn b(&mut self) -> HiddenBNode<'_> {
        HiddenBNode { exec: self }
    }
    /**Node `c[l]` (`kernel scale_k<<<1, 32>>>(n, { zero_l !(); scale[l] }, yc[l])`): its update handle.

The node is declared in a `for` loop: this is the handle of its instance of iteration `l` (`l` below 2).

# Errors

`Error::Invalid` when `l` is 2 or more.*/
    pub fn c(
        &mut self,
        l: ::core::primitive::usize,
    ) -> ::cudagraph_runtime::__private::Result<HiddenCNode<'_>> {
        ::cudagraph_runtime::__private::instance("c", l, 2usize)?;
        ::cudagraph_runtime::__private::Result::Ok(HiddenCNode {
            exec: self,
            index: l,
        })
    }
    ///Node `d` (`kernel scale_k<<<1, 32>>>(n, scale[K], yd)`): its update handle.
    pub fn d(&mut self) -> HiddenDNode<'_> {
        HiddenDNode { exec: self }
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for HiddenExec {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("HiddenExec")
            .field("exec", &self.parts.exec)
            .finish_non_exhaustive()
    }
}
impl Hidden {
    /// A copy of `params`, for the graph and then its executable to keep: made field by
    /// field in place on the heap, a few dozen fields per function.
    #[allow(unused_variables, unused_unsafe)]
    fn __cg_own(
        __cg_params: &HiddenParams,
    ) -> ::cudagraph_runtime::__private::Result<
        ::cudagraph_runtime::__private::Box<HiddenParams>,
    > {
        let mut out = ::cudagraph_runtime::__private::Box::<HiddenParams>::new_uninit();
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
    unsafe fn __cg_own_0(__cg_params: &HiddenParams, dst: *mut HiddenParams) {
        unsafe {
            (&raw mut (*dst).scale_k)
                .write(
                    <Kernel<
                        (u32, f32, DevicePtrMut<f32>),
                    > as ::cudagraph_runtime::__private::KernelType>::keep(
                        &__cg_params.scale_k,
                    ),
                );
            (&raw mut (*dst).scale)
                .write(
                    <[f32; 2] as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_params.scale,
                    ),
                );
            (&raw mut (*dst).n)
                .write(
                    <u32 as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_params.n,
                    ),
                );
            (&raw mut (*dst).ya)
                .write(
                    <DeviceBuffer<
                        f32,
                    > as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_params.ya,
                    ),
                );
            (&raw mut (*dst).yb)
                .write(
                    <DeviceBuffer<
                        f32,
                    > as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_params.yb,
                    ),
                );
            (&raw mut (*dst).yc)
                .write(
                    <[DeviceBuffer<
                        f32,
                    >; 2] as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_params.yc,
                    ),
                );
            (&raw mut (*dst).yd)
                .write(
                    <DeviceBuffer<
                        f32,
                    > as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_params.yd,
                    ),
                );
        }
    }
}
///The params of a [`HiddenParams`] as [`HiddenParamsMut::swap`] names them: a field per param, of the same name, holding no value (a `Slot` per param, an array of them per array param whose elements are params of their own). Given to `swap`'s `pick` instead of the params, so that it names the two to swap and cannot change any: `|p| (&mut p.x, &mut p.x_new)`. None can be made outside `swap`.
#[repr(C)]
#[allow(clippy::type_complexity)]
struct HiddenSlots {
    ///Param [`scale_k`](HiddenParams::scale_k), to swap.
    pub scale_k: ::cudagraph_runtime::__private::Slot<
        Kernel<(u32, f32, DevicePtrMut<f32>)>,
    >,
    ///Param [`scale`](HiddenParams::scale), to swap.
    pub scale: [::cudagraph_runtime::__private::Slot<f32>; 2],
    ///Param [`n`](HiddenParams::n), to swap.
    pub n: ::cudagraph_runtime::__private::Slot<u32>,
    ///Param [`ya`](HiddenParams::ya), to swap.
    pub ya: ::cudagraph_runtime::__private::Slot<DeviceBuffer<f32>>,
    ///Param [`yb`](HiddenParams::yb), to swap.
    pub yb: ::cudagraph_runtime::__private::Slot<DeviceBuffer<f32>>,
    ///Param [`yc`](HiddenParams::yc), to swap.
    pub yc: [::cudagraph_runtime::__private::Slot<DeviceBuffer<f32>>; 2],
    ///Param [`yd`](HiddenParams::yd), to swap.
    pub yd: ::cudagraph_runtime::__private::Slot<DeviceBuffer<f32>>,
}
const _: () = {
    ::core::assert!(
        ::cudagraph_runtime::__private::offset_of!(HiddenSlots, scale_k) == 0usize
    );
    ::core::assert!(
        ::cudagraph_runtime::__private::offset_of!(HiddenSlots, scale) == 1usize
    );
    ::core::assert!(
        ::cudagraph_runtime::__private::offset_of!(HiddenSlots, n) == 3usize
    );
    ::core::assert!(
        ::cudagraph_runtime::__private::offset_of!(HiddenSlots, ya) == 4usize
    );
    ::core::assert!(
        ::cudagraph_runtime::__private::offset_of!(HiddenSlots, yb) == 5usize
    );
    ::core::assert!(
        ::cudagraph_runtime::__private::offset_of!(HiddenSlots, yc) == 6usize
    );
    ::core::assert!(
        ::cudagraph_runtime::__private::offset_of!(HiddenSlots, yd) == 8usize
    );
    ::core::assert!(
        ::cudagraph_runtime::__private::size_of:: < HiddenSlots > () == 9usize
    );
};
const _: fn(&HiddenSlots, &HiddenParams) = |slots, params| {
    ::cudagraph_runtime::__private::slot_of(&slots.scale_k, &params.scale_k);
    ::cudagraph_runtime::__private::slots_of(&slots.scale, &params.scale);
    ::cudagraph_runtime::__private::slot_of(&slots.n, &params.n);
    ::cudagraph_runtime::__private::slot_of(&slots.ya, &params.ya);
    ::cudagraph_runtime::__private::slot_of(&slots.yb, &params.yb);
    ::cudagraph_runtime::__private::slots_of(&slots.yc, &params.yc);
    ::cudagraph_runtime::__private::slot_of(&slots.yd, &params.yd);
};
impl ::cudagraph_runtime::__private::fmt::Debug for HiddenSlots {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("HiddenSlots").finish_non_exhaustive()
    }
}
unsafe impl ::cudagraph_runtime::__private::Tracked for HiddenExec {
    type Params = HiddenParams;
    type Slots = HiddenSlots;
    const NAME: &'static ::core::primitive::str = "HiddenExec";
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
        (Self::__cg_update_node_2, 1u32),
        (Self::__cg_update_node_4, 0u32),
    ];
    const READERS: &'static [(
        &'static [::core::primitive::u32],
        ::core::primitive::bool,
        ::core::primitive::bool,
    )] = &[
        (&[0u32, 1u32, 2u32, 3u32, 4u32], false, false),
        (&[0u32, 1u32, 2u32, 3u32, 4u32], false, false),
        (&[0u32, 1u32, 2u32, 3u32], false, false),
        (&[0u32, 1u32, 2u32, 3u32, 4u32], false, false),
        (&[0u32], true, false),
        (&[1u32], true, false),
        (&[2u32, 3u32], true, false),
        (&[2u32, 3u32], true, false),
        (&[4u32], true, false),
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
    ) -> &mut HiddenParams {
        &mut unsafe { self.parts.get_mut() }.state.params
    }
    #[inline(always)]
    fn applied_mut(
        &mut self,
        _: ::cudagraph_runtime::__private::Internal,
    ) -> &mut HiddenParams {
        &mut unsafe { self.parts.get_mut() }.applied
    }
    fn check(&self) -> ::cudagraph_runtime::__private::Result<()> {
        Hidden::__cg_check_overlaps(&self.parts.state.params)
    }
    #[inline]
    fn slot_offset(slot: ::core::primitive::usize) -> ::core::primitive::usize {
        match slot {
            0usize..9usize => Self::__cg_slot_offset_0(slot),
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
            0usize..9usize => self.__cg_sync_0(param, commit, key),
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
impl HiddenExec {
    /**Sets param `scale_k` and updates what reads it (nodes `a`, `b`, `c[0]`, `c[1]`, `d`), one single-node update each. Returns the old value; on error, naming the node, nothing changes: the param keeps its old value and the nodes their updates (see [`HiddenExec`]).
*/
    pub fn set_scale_k(
        &mut self,
        value: Kernel<(u32, f32, DevicePtrMut<f32>)>,
    ) -> ::cudagraph_runtime::__private::Result<Kernel<(u32, f32, DevicePtrMut<f32>)>> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.parts.get_mut() }.state.params.scale_k,
            value,
        );
        ::cudagraph_runtime::__private::set_param(self, 0usize).map(|_| old)
    }
    /**Sets element `index` of array param `scale` and updates the nodes that read that element (of nodes `a`, `b`, `c[l]`, `d`), one single-node update each: the other elements' readers are left alone. Returns the old value; `Error::Invalid` for an index beyond the array. On error, naming the node, nothing changes: the element keeps its old value and the nodes their updates (see [`HiddenExec`]).
*/
    pub fn set_scale(
        &mut self,
        index: ::core::primitive::usize,
        value: f32,
    ) -> ::cudagraph_runtime::__private::Result<f32> {
        ::cudagraph_runtime::__private::element("scale", index, 2usize)?;
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.parts.get_mut() }.state.params.scale[index],
            value,
        );
        ::cudagraph_runtime::__private::set_param(self, 1usize + index).map(|_| old)
    }
    /**Sets param `n` and updates what reads it (nodes `a`, `b`, `c[0]`, `c[1]`, `d`), one single-node update each. Returns the old value; on error, naming the node, nothing changes: the param keeps its old value and the nodes their updates (see [`HiddenExec`]).
*/
    pub fn set_n(&mut self, value: u32) -> ::cudagraph_runtime::__private::Result<u32> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.parts.get_mut() }.state.params.n,
            value,
        );
        ::cudagraph_runtime::__private::set_param(self, 3usize).map(|_| old)
    }
    /**Sets param `ya` and updates what reads it (node `a`), one single-node update each. Returns the old value; on error, naming the node, nothing changes: the param keeps its old value and the nodes their updates (see [`HiddenExec`]).
*/
    pub fn set_ya(
        &mut self,
        value: DeviceBuffer<f32>,
    ) -> ::cudagraph_runtime::__private::Result<DeviceBuffer<f32>> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.parts.get_mut() }.state.params.ya,
            value,
        );
        ::cudagraph_runtime::__private::set_param(self, 4usize).map(|_| old)
    }
    /**Sets param `yb` and updates what reads it (node `b`), one single-node update each. Returns the old value; on error, naming the node, nothing changes: the param keeps its old value and the nodes their updates (see [`HiddenExec`]).
*/
    pub fn set_yb(
        &mut self,
        value: DeviceBuffer<f32>,
    ) -> ::cudagraph_runtime::__private::Result<DeviceBuffer<f32>> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.parts.get_mut() }.state.params.yb,
            value,
        );
        ::cudagraph_runtime::__private::set_param(self, 5usize).map(|_| old)
    }
    /**Sets element `index` of array param `yc` and updates the nodes that read that element (of node `c[l]`), one single-node update each: the other elements' readers are left alone. Returns the old value; `Error::Invalid` for an index beyond the array. On error, naming the node, nothing changes: the element keeps its old value and the nodes their updates (see [`HiddenExec`]).
*/
    pub fn set_yc(
        &mut self,
        index: ::core::primitive::usize,
        value: DeviceBuffer<f32>,
    ) -> ::cudagraph_runtime::__private::Result<DeviceBuffer<f32>> {
        ::cudagraph_runtime::__private::element("yc", index, 2usize)?;
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.parts.get_mut() }.state.params.yc[index],
            value,
        );
        ::cudagraph_runtime::__private::set_param(self, 6usize + index).map(|_| old)
    }
    /**Sets param `yd` and updates what reads it (node `d`), one single-node update each. Returns the old value; on error, naming the node, nothing changes: the param keeps its old value and the nodes their updates (see [`HiddenExec`]).
*/
    pub fn set_yd(
        &mut self,
        value: DeviceBuffer<f32>,
    ) -> ::cudagraph_runtime::__private::Result<DeviceBuffer<f32>> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.parts.get_mut() }.state.params.yd,
            value,
        );
        ::cudagraph_runtime::__private::set_param(self, 8usize).map(|_| old)
    }
    /**Swaps two params of one type, named by `pick` (`exec.swap(|p| (&mut p.x, &mut p.x_new))?`), and updates the nodes that read them, each once, before it returns: the ping-pong buffers of an iteration swapped between launches in one call. Returns how many nodes it updated. `pick` is given the params' slots ([`HiddenSlots`]), not their values: it names two params and changes none. As [`HiddenParamsMut::swap`] followed by `apply`: all or nothing (a refused update is reported, naming its node, and the swap undone), any other change pending applied with it.

Swapping two buffers the executable holds (a ping-pong) registers and releases nothing: the swap costs its readers' driver calls and the update of their records of memory.

# Errors

The error of the update that refused the swap, naming its node (a kernel's launch check, a driver error, two nodes that would race): the swap is undone.*/
    pub fn swap<S: ::cudagraph_runtime::__private::Pick>(
        &mut self,
        pick: impl FnOnce(&mut HiddenSlots) -> (&mut S, &mut S),
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
        let __cg_params: &HiddenParams = &__cg_parts.state.params;
        let (kernel, config, args) = Hidden::__cg_eval_a(__cg_params);
        __cg_parts.exec.set_kernel(__cg_parts.nodes.a, kernel, config, args)?;
        __cg_parts.state.launch.a = config;
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
        let __cg_params: &HiddenParams = &__cg_parts.state.params;
        let (kernel, config, args) = Hidden::__cg_eval_b(__cg_params);
        __cg_parts.exec.set_kernel(__cg_parts.nodes.b, kernel, config, args)?;
        __cg_parts.state.launch.b = config;
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
        let __cg_params: &HiddenParams = &__cg_parts.state.params;
        #[allow(unused_variables)]
        let l: ::core::primitive::usize = index;
        let (kernel, config, args) = Hidden::__cg_eval_c(__cg_params, index);
        __cg_parts.exec.set_kernel(__cg_parts.nodes.c[index], kernel, config, args)?;
        __cg_parts.state.launch.c[index] = config;
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
        let __cg_params: &HiddenParams = &__cg_parts.state.params;
        let (kernel, config, args) = Hidden::__cg_eval_d(__cg_params);
        __cg_parts.exec.set_kernel(__cg_parts.nodes.d, kernel, config, args)?;
        __cg_parts.state.launch.d = config;
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    #[inline]
    fn __cg_slot_offset_0(slot: ::core::primitive::usize) -> ::core::primitive::usize {
        match slot {
            0usize => ::cudagraph_runtime::__private::offset_of!(HiddenParams, scale_k),
            1usize..3usize => {
                ::cudagraph_runtime::__private::offset_of!(HiddenParams, scale)
                    + (slot - 1usize) * ::cudagraph_runtime::__private::size_of::<f32>()
            }
            3usize => ::cudagraph_runtime::__private::offset_of!(HiddenParams, n),
            4usize => ::cudagraph_runtime::__private::offset_of!(HiddenParams, ya),
            5usize => ::cudagraph_runtime::__private::offset_of!(HiddenParams, yb),
            6usize..8usize => {
                ::cudagraph_runtime::__private::offset_of!(HiddenParams, yc)
                    + (slot - 6usize)
                        * ::cudagraph_runtime::__private::size_of::<DeviceBuffer<f32>>()
            }
            8usize => ::cudagraph_runtime::__private::offset_of!(HiddenParams, yd),
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
                    __cg_parts.applied.scale_k = <Kernel<
                        (u32, f32, DevicePtrMut<f32>),
                    > as ::cudagraph_runtime::__private::KernelType>::keep(
                        &__cg_parts.state.params.scale_k,
                    );
                } else {
                    __cg_parts.state.params.scale_k = <Kernel<
                        (u32, f32, DevicePtrMut<f32>),
                    > as ::cudagraph_runtime::__private::KernelType>::keep(
                        &__cg_parts.applied.scale_k,
                    );
                }
            }
            1usize..3usize => {
                if commit {
                    __cg_parts.applied.scale[param - 1usize] = <f32 as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_parts.state.params.scale[param - 1usize],
                    );
                } else {
                    __cg_parts.state.params.scale[param - 1usize] = <f32 as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_parts.applied.scale[param - 1usize],
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
            4usize => {
                if commit {
                    __cg_parts.applied.ya = <DeviceBuffer<
                        f32,
                    > as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_parts.state.params.ya,
                    );
                } else {
                    __cg_parts.state.params.ya = <DeviceBuffer<
                        f32,
                    > as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_parts.applied.ya,
                    );
                }
            }
            5usize => {
                if commit {
                    __cg_parts.applied.yb = <DeviceBuffer<
                        f32,
                    > as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_parts.state.params.yb,
                    );
                } else {
                    __cg_parts.state.params.yb = <DeviceBuffer<
                        f32,
                    > as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_parts.applied.yb,
                    );
                }
            }
            6usize..8usize => {
                if commit {
                    __cg_parts.applied.yc[param - 6usize] = <DeviceBuffer<
                        f32,
                    > as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_parts.state.params.yc[param - 6usize],
                    );
                } else {
                    __cg_parts.state.params.yc[param - 6usize] = <DeviceBuffer<
                        f32,
                    > as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_parts.applied.yc[param - 6usize],
                    );
                }
            }
            8usize => {
                if commit {
                    __cg_parts.applied.yd = <DeviceBuffer<
                        f32,
                    > as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_parts.state.params.yd,
                    );
                } else {
                    __cg_parts.state.params.yd = <DeviceBuffer<
                        f32,
                    > as ::cudagraph_runtime::__private::ParamValue>::keep(
                        &__cg_parts.applied.yd,
                    );
                }
            }
            _ => {}
        }
    }
}
/**Changes to the params of a [`HiddenExec`], several at once ([`HiddenExec::params_mut`]). It reads as the params (`Deref`); `set_<param>` and [`swap`](Self::swap) change them and mark the nodes that read them, and [`apply`](Self::apply) updates those nodes, each once however many of its params changed. A guard dropped without `apply` leaves the changes to the executable's next launch, which applies them first: a change cannot be forgotten. An update that fails is the error of that `apply` or launch, naming the node (the launch launches nothing), and undoes the changes: the params and the nodes are as they were before them.

```text
let mut p = exec.params_mut();
p.set_n(n);                         // its readers are updated once,
p.set_scale(0.5);                   // even those reading both
p.swap(|p| (&mut p.x, &mut p.x_new))?;
p.apply()?;                         // or: the next exec.launch(&stream)
```*/
#[must_use = "changes made through the guard are applied by `apply`, or by the next launch"]
struct HiddenParamsMut<'a> {
    exec: &'a mut HiddenExec,
}
impl ::cudagraph_runtime::__private::Deref for HiddenParamsMut<'_> {
    type Target = HiddenParams;
    fn deref(&self) -> &HiddenParams {
        &self.exec.parts.state.params
    }
}
#[allow(clippy::type_complexity)]
impl HiddenParamsMut<'_> {
    ///Sets param `scale_k`, and marks what reads it (nodes `a`, `b`, `c[0]`, `c[1]`, `d`) for the guard's [`apply`](Self::apply), or the executable's next launch. Returns the old value.
    #[inline]
    pub fn set_scale_k(
        &mut self,
        value: Kernel<(u32, f32, DevicePtrMut<f32>)>,
    ) -> Kernel<(u32, f32, DevicePtrMut<f32>)> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.exec.parts.get_mut() }.state.params.scale_k,
            value,
        );
        ::cudagraph_runtime::__private::stage(self.exec, 0usize);
        old
    }
    ///Sets element `index` of array param `scale`, and marks the nodes that read that element (of nodes `a`, `b`, `c[l]`, `d`) for the guard's [`apply`](Self::apply), or the executable's next launch. Returns the old value; `Error::Invalid` for an index beyond the array, with nothing changed.
    #[inline]
    pub fn set_scale(
        &mut self,
        index: ::core::primitive::usize,
        value: f32,
    ) -> ::cudagraph_runtime::__private::Result<f32> {
        ::cudagraph_runtime::__private::element("scale", index, 2usize)?;
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.exec.parts.get_mut() }.state.params.scale[index],
            value,
        );
        ::cudagraph_runtime::__private::stage(self.exec, 1usize + index);
        ::cudagraph_runtime::__private::Result::Ok(old)
    }
    ///Sets param `n`, and marks what reads it (nodes `a`, `b`, `c[0]`, `c[1]`, `d`) for the guard's [`apply`](Self::apply), or the executable's next launch. Returns the old value.
    #[inline]
    pub fn set_n(&mut self, value: u32) -> u32 {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.exec.parts.get_mut() }.state.params.n,
            value,
        );
        ::cudagraph_runtime::__private::stage(self.exec, 3usize);
        old
    }
    ///Sets param `ya`, and marks what reads it (node `a`) for the guard's [`apply`](Self::apply), or the executable's next launch. Returns the old value.
    #[inline]
    pub fn set_ya(&mut self, value: DeviceBuffer<f32>) -> DeviceBuffer<f32> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.exec.parts.get_mut() }.state.params.ya,
            value,
        );
        ::cudagraph_runtime::__private::stage(self.exec, 4usize);
        old
    }
    ///Sets param `yb`, and marks what reads it (node `b`) for the guard's [`apply`](Self::apply), or the executable's next launch. Returns the old value.
    #[inline]
    pub fn set_yb(&mut self, value: DeviceBuffer<f32>) -> DeviceBuffer<f32> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.exec.parts.get_mut() }.state.params.yb,
            value,
        );
        ::cudagraph_runtime::__private::stage(self.exec, 5usize);
        old
    }
    ///Sets element `index` of array param `yc`, and marks the nodes that read that element (of node `c[l]`) for the guard's [`apply`](Self::apply), or the executable's next launch. Returns the old value; `Error::Invalid` for an index beyond the array, with nothing changed.
    #[inline]
    pub fn set_yc(
        &mut self,
        index: ::core::primitive::usize,
        value: DeviceBuffer<f32>,
    ) -> ::cudagraph_runtime::__private::Result<DeviceBuffer<f32>> {
        ::cudagraph_runtime::__private::element("yc", index, 2usize)?;
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.exec.parts.get_mut() }.state.params.yc[index],
            value,
        );
        ::cudagraph_runtime::__private::stage(self.exec, 6usize + index);
        ::cudagraph_runtime::__private::Result::Ok(old)
    }
    ///Sets param `yd`, and marks what reads it (node `d`) for the guard's [`apply`](Self::apply), or the executable's next launch. Returns the old value.
    #[inline]
    pub fn set_yd(&mut self, value: DeviceBuffer<f32>) -> DeviceBuffer<f32> {
        let old = ::cudagraph_runtime::__private::replace(
            &mut unsafe { self.exec.parts.get_mut() }.state.params.yd,
            value,
        );
        ::cudagraph_runtime::__private::stage(self.exec, 8usize);
        old
    }
    /**Swaps two params of one type, named by `pick` (`p.swap(|p| (&mut p.x, &mut p.x_new))`), and marks the nodes that read them. `pick` is given the params' slots ([`HiddenSlots`]), not their values: it names two params and changes none, so that the swap is the only change, and the tracker knows it. The slots of an array param are its elements' (`|p| (&mut p.w[0], &mut p.w[1])`); two arrays of slots (two array params, or runs of elements) are swapped element by element.

Never refused for slots of the struct `pick` is given (its signature allows no other).*/
    pub fn swap<S: ::cudagraph_runtime::__private::Pick>(
        &mut self,
        pick: impl FnOnce(&mut HiddenSlots) -> (&mut S, &mut S),
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
impl ::cudagraph_runtime::__private::fmt::Debug for HiddenParamsMut<'_> {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("HiddenParamsMut").finish_non_exhaustive()
    }
}
/**Update handle of node `a` of [`HiddenExec`] (`kernel scale_k<<<1, 32>>>(n, next !(scale[0]), ya)`): its arguments and launch configuration can change, and it can be enabled or disabled ([what CUDA allows](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#individual-node-update)).

Memory given through the handle is not judged by the race rule, which judges the declaration's params: it must not be memory that a node no edge orders with this one uses, one of them writing it (host memory that host code uses is checked: `Error::Hazard`). A change of a param the node reads, or `set_params`, sets the node back to its params.*/
struct HiddenANode<'a> {
    exec: &'a mut HiddenExec,
}
impl<'a> HiddenANode<'a> {
    ///Sets the kernel's arguments for the next launches, keeping the node's launch configuration (`cuGraphExecKernelNodeSetParams`). Memory the node stops using is released once the launches that may use it are done.
    pub fn set(
        &mut self,
        n: impl ::cudagraph_runtime::__private::KernelArg<'static, u32>,
        arg1: impl ::cudagraph_runtime::__private::KernelArg<'static, f32>,
        ya: impl ::cudagraph_runtime::__private::KernelArg<'static, DevicePtrMut<f32>>,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = self.exec.parts.get();
        let config = __cg_parts.state.launch.a;
        self.set_launch(config, n, arg1, ya)
    }
    ///Sets the launch configuration and the kernel's arguments for the next launches (`cuGraphExecKernelNodeSetParams`).
    pub fn set_launch(
        &mut self,
        config: ::cudagraph_runtime::__private::LaunchConfig,
        n: impl ::cudagraph_runtime::__private::KernelArg<'static, u32>,
        arg1: impl ::cudagraph_runtime::__private::KernelArg<'static, f32>,
        ya: impl ::cudagraph_runtime::__private::KernelArg<'static, DevicePtrMut<f32>>,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.exec.parts.get_mut() };
        __cg_parts.exec.set_kernel_params(__cg_parts.nodes.a, config, (n, arg1, ya))?;
        __cg_parts.state.launch.a = config;
        __cg_parts.tracker.set_by_handle(0usize);
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    /// The node's launch configuration now.
    pub fn launch_config(&self) -> ::cudagraph_runtime::__private::LaunchConfig {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.state.launch.a
    }
    /// Enables or disables the node for the next launches (`cuGraphNodeSetEnabled`). A
    /// disabled node acts as an empty node; params set meanwhile apply once it is enabled.
    pub fn set_enabled(
        &mut self,
        enabled: ::core::primitive::bool,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.exec.parts.get_mut() };
        __cg_parts.exec.set_enabled(__cg_parts.nodes.a, enabled)
    }
    /// Whether the node is enabled (`cuGraphNodeGetEnabled`).
    pub fn is_enabled(
        &self,
    ) -> ::cudagraph_runtime::__private::Result<::core::primitive::bool> {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.exec.is_enabled(__cg_parts.nodes.a)
    }
    /// The node's runtime handle, for the runtime's own API.
    pub fn node(
        &self,
    ) -> ::cudagraph_runtime::__private::KernelNode<(u32, f32, DevicePtrMut<f32>)> {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.nodes.a
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for HiddenANode<'_> {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("HiddenANode").field("index", &0usize).finish_non_exhaustive()
    }
}
/**Update handle of node `b` of [`HiddenExec`] (`kernel scale_k<<<1, 32>>>(n, { const K : usize = 1; scale[K] }, yb)`): its arguments and launch configuration can change, and it can be enabled or disabled ([what CUDA allows](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#individual-node-update)).

Memory given through the handle is not judged by the race rule, which judges the declaration's params: it must not be memory that a node no edge orders with this one uses, one of them writing it (host memory that host code uses is checked: `Error::Hazard`). A change of a param the node reads, or `set_params`, sets the node back to its params.*/
struct HiddenBNode<'a> {
    exec: &'a mut HiddenExec,
}
impl<'a> HiddenBNode<'a> {
    ///Sets the kernel's arguments for the next launches, keeping the node's launch configuration (`cuGraphExecKernelNodeSetParams`). Memory the node stops using is released once the launches that may use it are done.
    pub fn set(
        &mut self,
        n: impl ::cudagraph_runtime::__private::KernelArg<'static, u32>,
        arg1: impl ::cudagraph_runtime::__private::KernelArg<'static, f32>,
        yb: impl ::cudagraph_runtime::__private::KernelArg<'static, DevicePtrMut<f32>>,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = self.exec.parts.get();
        let config = __cg_parts.state.launch.b;
        self.set_launch(config, n, arg1, yb)
    }
    ///Sets the launch configuration and the kernel's arguments for the next launches (`cuGraphExecKernelNodeSetParams`).
    pub fn set_launch(
        &mut self,
        config: ::cudagraph_runtime::__private::LaunchConfig,
        n: impl ::cudagraph_runtime::__private::KernelArg<'static, u32>,
        arg1: impl ::cudagraph_runtime::__private::KernelArg<'static, f32>,
        yb: impl ::cudagraph_runtime::__private::KernelArg<'static, DevicePtrMut<f32>>,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.exec.parts.get_mut() };
        __cg_parts.exec.set_kernel_params(__cg_parts.nodes.b, config, (n, arg1, yb))?;
        __cg_parts.state.launch.b = config;
        __cg_parts.tracker.set_by_handle(1usize);
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    /// The node's launch configuration now.
    pub fn launch_config(&self) -> ::cudagraph_runtime::__private::LaunchConfig {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.state.launch.b
    }
    /// Enables or disables the node for the next launches (`cuGraphNodeSetEnabled`). A
    /// disabled node acts as an empty node; params set meanwhile apply once it is enabled.
    pub fn set_enabled(
        &mut self,
        enabled: ::core::primitive::bool,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.exec.parts.get_mut() };
        __cg_parts.exec.set_enabled(__cg_parts.nodes.b, enabled)
    }
    /// Whether the node is enabled (`cuGraphNodeGetEnabled`).
    pub fn is_enabled(
        &self,
    ) -> ::cudagraph_runtime::__private::Result<::core::primitive::bool> {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.exec.is_enabled(__cg_parts.nodes.b)
    }
    /// The node's runtime handle, for the runtime's own API.
    pub fn node(
        &self,
    ) -> ::cudagraph_runtime::__private::KernelNode<(u32, f32, DevicePtrMut<f32>)> {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.nodes.b
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for HiddenBNode<'_> {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("HiddenBNode").field("index", &1usize).finish_non_exhaustive()
    }
}
/**Update handle of node `c[l]` of [`HiddenExec`] (`kernel scale_k<<<1, 32>>>(n, { zero_l !(); scale[l] }, yc[l])`): its arguments and launch configuration can change, and it can be enabled or disabled ([what CUDA allows](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#individual-node-update)).

Memory given through the handle is not judged by the race rule, which judges the declaration's params: it must not be memory that a node no edge orders with this one uses, one of them writing it (host memory that host code uses is checked: `Error::Hazard`). A change of a param the node reads, or `set_params`, sets the node back to its params.*/
struct HiddenCNode<'a> {
    exec: &'a mut HiddenExec,
    index: ::core::primitive::usize,
}
impl<'a> HiddenCNode<'a> {
    const __CG_POSITIONS: [::core::primitive::usize; 2usize] = [2usize, 3usize];
    ///Sets the kernel's arguments for the next launches, keeping the node's launch configuration (`cuGraphExecKernelNodeSetParams`). Memory the node stops using is released once the launches that may use it are done.
    pub fn set(
        &mut self,
        n: impl ::cudagraph_runtime::__private::KernelArg<'static, u32>,
        arg1: impl ::cudagraph_runtime::__private::KernelArg<'static, f32>,
        arg2: impl ::cudagraph_runtime::__private::KernelArg<'static, DevicePtrMut<f32>>,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = self.exec.parts.get();
        let config = __cg_parts.state.launch.c[self.index];
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
            .set_kernel_params(__cg_parts.nodes.c[self.index], config, (n, arg1, arg2))?;
        __cg_parts.state.launch.c[self.index] = config;
        __cg_parts.tracker.set_by_handle(Self::__CG_POSITIONS[self.index]);
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    /// The node's launch configuration now.
    pub fn launch_config(&self) -> ::cudagraph_runtime::__private::LaunchConfig {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.state.launch.c[self.index]
    }
    /// Enables or disables the node for the next launches (`cuGraphNodeSetEnabled`). A
    /// disabled node acts as an empty node; params set meanwhile apply once it is enabled.
    pub fn set_enabled(
        &mut self,
        enabled: ::core::primitive::bool,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.exec.parts.get_mut() };
        __cg_parts.exec.set_enabled(__cg_parts.nodes.c[self.index], enabled)
    }
    /// Whether the node is enabled (`cuGraphNodeGetEnabled`).
    pub fn is_enabled(
        &self,
    ) -> ::cudagraph_runtime::__private::Result<::core::primitive::bool> {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.exec.is_enabled(__cg_parts.nodes.c[self.index])
    }
    /// The node's runtime handle, for the runtime's own API.
    pub fn node(
        &self,
    ) -> ::cudagraph_runtime::__private::KernelNode<(u32, f32, DevicePtrMut<f32>)> {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.nodes.c[self.index]
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for HiddenCNode<'_> {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("HiddenCNode")
            .field("index", &Self::__CG_POSITIONS[self.index])
            .finish_non_exhaustive()
    }
}
/**Update handle of node `d` of [`HiddenExec`] (`kernel scale_k<<<1, 32>>>(n, scale[K], yd)`): its arguments and launch configuration can change, and it can be enabled or disabled ([what CUDA allows](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#individual-node-update)).

Memory given through the handle is not judged by the race rule, which judges the declaration's params: it must not be memory that a node no edge orders with this one uses, one of them writing it (host memory that host code uses is checked: `Error::Hazard`). A change of a param the node reads, or `set_params`, sets the node back to its params.*/
struct HiddenDNode<'a> {
    exec: &'a mut HiddenExec,
}
impl<'a> HiddenDNode<'a> {
    ///Sets the kernel's arguments for the next launches, keeping the node's launch configuration (`cuGraphExecKernelNodeSetParams`). Memory the node stops using is released once the launches that may use it are done.
    pub fn set(
        &mut self,
        n: impl ::cudagraph_runtime::__private::KernelArg<'static, u32>,
        arg1: impl ::cudagraph_runtime::__private::KernelArg<'static, f32>,
        yd: impl ::cudagraph_runtime::__private::KernelArg<'static, DevicePtrMut<f32>>,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = self.exec.parts.get();
        let config = __cg_parts.state.launch.d;
        self.set_launch(config, n, arg1, yd)
    }
    ///Sets the launch configuration and the kernel's arguments for the next launches (`cuGraphExecKernelNodeSetParams`).
    pub fn set_launch(
        &mut self,
        config: ::cudagraph_runtime::__private::LaunchConfig,
        n: impl ::cudagraph_runtime::__private::KernelArg<'static, u32>,
        arg1: impl ::cudagraph_runtime::__private::KernelArg<'static, f32>,
        yd: impl ::cudagraph_runtime::__private::KernelArg<'static, DevicePtrMut<f32>>,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.exec.parts.get_mut() };
        __cg_parts.exec.set_kernel_params(__cg_parts.nodes.d, config, (n, arg1, yd))?;
        __cg_parts.state.launch.d = config;
        __cg_parts.tracker.set_by_handle(4usize);
        ::cudagraph_runtime::__private::Result::Ok(())
    }
    /// The node's launch configuration now.
    pub fn launch_config(&self) -> ::cudagraph_runtime::__private::LaunchConfig {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.state.launch.d
    }
    /// Enables or disables the node for the next launches (`cuGraphNodeSetEnabled`). A
    /// disabled node acts as an empty node; params set meanwhile apply once it is enabled.
    pub fn set_enabled(
        &mut self,
        enabled: ::core::primitive::bool,
    ) -> ::cudagraph_runtime::__private::Result<()> {
        let __cg_parts = unsafe { self.exec.parts.get_mut() };
        __cg_parts.exec.set_enabled(__cg_parts.nodes.d, enabled)
    }
    /// Whether the node is enabled (`cuGraphNodeGetEnabled`).
    pub fn is_enabled(
        &self,
    ) -> ::cudagraph_runtime::__private::Result<::core::primitive::bool> {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.exec.is_enabled(__cg_parts.nodes.d)
    }
    /// The node's runtime handle, for the runtime's own API.
    pub fn node(
        &self,
    ) -> ::cudagraph_runtime::__private::KernelNode<(u32, f32, DevicePtrMut<f32>)> {
        let __cg_parts = self.exec.parts.get();
        __cg_parts.nodes.d
    }
}
impl ::cudagraph_runtime::__private::fmt::Debug for HiddenDNode<'_> {
    fn fmt(
        &self,
        f: &mut ::cudagraph_runtime::__private::fmt::Formatter<'_>,
    ) -> ::cudagraph_runtime::__private::fmt::Result {
        f.debug_struct("HiddenDNode").field("index", &4usize).finish_non_exhaustive()
    }
}
fn main() {}
