//! The params struct, the graph type (`build`, `instantiate`, `TOPOLOGY`) and the private
//! structs both the graph and its executable keep.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::punctuated::Punctuated;
use syn::{Path, Token};

use super::node::{handle_name, ids_at, launches_at, nodes_at};
use super::{
    device_node_key, docs, graph_at, indirect_key, local, params_at, parts_at, Copies, Gen,
};
use crate::parse::NodeOp;
use syn::spanned::Spanned;

/// `<Graph>Params`: a plain struct of the params, `pub` fields.
pub fn params_struct(g: &Gen) -> TokenStream {
    let p = &g.p;
    let (vis, pass, params_ty) = (&g.model.decl.vis, &g.pass, &g.params_ty);
    let attrs = g
        .model
        .params_block
        .map(|b| b.attrs.as_slice())
        .unwrap_or_default();
    let fields = g.model.params.iter().enumerate().map(|(i, f)| {
        let (name, ty) = (&f.name, &f.ty);
        // `#[indirect]` and `#[external]` are the macro's; the rest (docs, lints) go on the field.
        let attrs: Vec<_> = f
            .attrs
            .iter()
            .filter(|a| !a.path().is_ident("indirect") && !a.path().is_ident("external"))
            .collect();
        // Undocumented params get a line saying who reads them (and no `missing_docs` warning).
        let doc = (!attrs.iter().any(|a| a.path().is_ident("doc"))).then(|| {
            let doc = docs::param_doc(g, i);
            quote!(#[doc = #doc])
        });
        let vis = quote_spanned!(name.span()=> pub);
        quote!(#(#attrs)* #doc #vis #name: #ty,)
    });
    let doc = docs::params_doc(g);
    let derives_debug = attrs.iter().any(|a| {
        a.path().is_ident("derive")
            && a.parse_args_with(Punctuated::<Path, Token![,]>::parse_terminated)
                .is_ok_and(|paths| {
                    paths
                        .iter()
                        .any(|p| p.segments.last().is_some_and(|s| s.ident == "Debug"))
                })
    });
    // Not every param type is `Debug`; without the user's own derive, an opaque one.
    let debug = (!derives_debug).then(|| {
        let name = params_ty.to_string();
        quote! {
            #(#pass)*
            impl #p::fmt::Debug for #params_ty {
                fn fmt(&self, f: &mut #p::fmt::Formatter<'_>) -> #p::fmt::Result {
                    f.debug_struct(#name).finish_non_exhaustive()
                }
            }
        }
    });
    quote! {
        #(#pass)*
        #[doc = #doc]
        #(#attrs)*
        // Kernel params spell out their parameter tuples (the hazard rule reads them there).
        #[allow(clippy::type_complexity)]
        #vis struct #params_ty {
            #(#fields)*
        }
        #debug
    }
}

/// The graph type, its private state structs and its impls.
pub fn graph_type(g: &Gen) -> TokenStream {
    let p = &g.p;
    let (vis, pass, user_docs) = (&g.model.decl.vis, &g.pass, &g.docs);
    let (graph, params_ty, exec_ty) = (g.graph, &g.params_ty, &g.exec_ty);
    let (nodes_ty, state_ty, launch_ty) = (&g.nodes_ty, &g.state_ty, &g.launch_ty);
    let (parts_ty, parts) = (&g.parts_ty, parts_at(Span::call_site()));
    let graph_name = graph.to_string();

    // A repeated node's handles: an array, one per instance; a node in each copy of an
    // unrolled body: one per copy.
    let node_fields = g.decl_nodes().map(|n| {
        let (name, ty) = (&n.decl.name, g.runtime_handle(n));
        match (n.rep, n.copies) {
            (Some(r), _) => {
                let count = r.count;
                quote!(#name: [#ty; #count],)
            }
            (None, Some(Copies::Each(count))) => quote!(#name: [#ty; #count],),
            _ => quote!(#name: #ty,),
        }
    });
    // Conditional nodes' handles, which kernels take as arguments.
    let conditionals: Vec<_> = g
        .nodes
        .iter()
        .filter(|n| matches!(n.decl.op, NodeOp::Conditional(_)))
        .collect();
    let handle_fields = conditionals.iter().map(|n| {
        let name = handle_name(n);
        quote!(#name: #p::ConditionalHandle,)
    });
    // `#[device_updatable]` kernel nodes' device handles, which kernels take as arguments
    // (`device_node(x)`).
    let device_node_fields = g.nodes.iter().filter(|n| n.device_updatable).map(|n| {
        let (key, ty) = (device_node_key(&n.decl.name), g.device_node_type(n));
        quote!(#key: #ty,)
    });
    // `#[indirect]` params: their keys, made before any node (the runtime adds the fetch node
    // that fills them at the start of each launch, and orders their readers after it).
    let indirect: Vec<usize> = (0..g.model.params.len())
        .filter(|&i| g.model.is_indirect(i))
        .collect();
    let key_fields = indirect.iter().map(|&i| {
        let (key, ty) = (indirect_key(&g.model.params[i].name), &g.model.params[i].ty);
        quote!(#key: #p::Indirect<#ty>,)
    });
    // The nodes added again by `rebuild`: through `Graph::rebuild`, which reuses the driver's
    // kernel nodes, when the declaration adds nothing but what `Rebuild` offers (kernel,
    // memset, memcpy and empty nodes with plain dependencies); else into the cleared graph.
    let params = params_at(Span::call_site());
    let rebuild_nodes = if indirect.is_empty() && g.nodes.iter().all(rebuilt_in_place) {
        let rebuild = local("rebuild");
        quote! {
            let (nodes, state) = #parts.graph.rebuild(|#rebuild| {
                // SAFETY: the declaration's nodes are kernel, memset, memcpy and empty nodes
                // with plain dependencies, and no `#[indirect]` param: the code adding them
                // names the next node and calls those four adders, what `Rebuild` offers.
                Self::__cg_add_nodes(unsafe { #p::Rebuild::as_graph_mut(#rebuild) }, #params)
            })?;
        }
    } else {
        quote! {
            #parts.graph.clear()?;
            let (nodes, state) = Self::__cg_add_nodes(&mut #parts.graph, #params)?;
        }
    };
    let key_adds = indirect.iter().map(|&i| {
        let f = &g.model.params[i];
        let (key, name, ty) = (indirect_key(&f.name), &f.name, &f.ty);
        let (graph, params, nodes) = (
            graph_at(ty.span()),
            params_at(ty.span()),
            nodes_at(ty.span()),
        );
        let s = super::at(ty.span());
        quote_spanned!(s=> #nodes.#key = #graph.add_indirect::<#ty>(#params.#name)?;)
    });
    let kernels: Vec<_> = g
        .decl_nodes()
        .filter(|n| matches!(n.decl.op, NodeOp::Kernel(_)))
        .collect();
    let launch_fields = kernels.iter().map(|n| {
        let name = &n.decl.name;
        match n.rep {
            Some(r) => {
                let count = r.count;
                quote!(#name: [#p::LaunchConfig; #count],)
            }
            None => quote!(#name: #p::LaunchConfig,),
        }
    });

    // A graph whose kernels may launch device graphs checks what they use again once its
    // executable exists (and holds their handles, so that an update may no longer widen what
    // they use: `DeviceGraphExec::update`): one may have been updated since `build`.
    let recheck = (!g.model.hazards().launchers.is_empty()).then(|| {
        let parts = parts_at(Span::call_site());
        quote!(Self::__cg_check_overlaps(&#parts.state.params)?;)
    });
    // `#[device_launch]`: the executable kernels launch (the declaration was checked against
    // CUDA's rules for device graphs, `check::device_launch`).
    let device_launch = g.model.device_launch().map(|_| {
        let (upload, parts) = (local("upload"), parts_at(Span::call_site()));
        let body = match &recheck {
            Some(recheck) => quote! {
                let #parts = self.parts.into_inner();
                let exec = #parts.graph.instantiate_for_device_launch(#upload)?;
                #recheck
                #p::Result::Ok(exec)
            },
            None => quote!(self.parts.into_inner().graph.instantiate_for_device_launch(#upload)),
        };
        quote! {
            /// Instantiates the graph for launch from the device and uploads it on `upload`
            /// (see `cudagraph_runtime::device_launch`): kernels launch it through its
            /// `DeviceGraphExec::handle`, given for a kernel parameter of type `DeviceGraph`.
            pub fn instantiate_for_device_launch(
                self,
                #upload: &#p::Arc<#p::CudaStream>,
            ) -> #p::Result<#p::DeviceGraphExec> {
                #body
            }
        }
    });
    let (ctx, params, graph_local) = (
        local("ctx"),
        params_at(Span::call_site()),
        graph_at(Span::call_site()),
    );
    let count = g.nodes.len();
    let mut add_fns = Vec::new();
    let adds = g.add_scope(None, &mut add_fns);
    let (nodes, launches) = (nodes_at(Span::call_site()), launches_at(Span::call_site()));
    let (boxed, configs, owned) = (local("boxed"), local("configs"), local("owned"));
    let evals = g.decl_nodes().map(|n| g.eval_fn(n));
    // With loops: the ids of the nodes added, by position, and each node's dependencies by
    // position (what a loop's function reads its instances' dependencies from).
    let ids = ids_at(Span::call_site());
    let (ids_local, dep_tables) = if g.repeats {
        let mut list: Vec<u32> = Vec::new();
        let mut starts: Vec<u32> = vec![0];
        for n in &g.nodes {
            list.extend(n.deps.iter().map(|&d| d as u32));
            starts.push(list.len() as u32);
        }
        (
            quote!(let #ids = &mut #p::Vec::with_capacity(#count);),
            quote! {
                /// The dependencies of every node, by position: those of the node at position
                /// `p` are `__CG_DEPS[__CG_DEP_START[p]..__CG_DEP_START[p + 1]]`.
                #[doc(hidden)]
                const __CG_DEPS: &'static [::core::primitive::u32] = &[#(#list),*];
                #[doc(hidden)]
                const __CG_DEP_START: &'static [::core::primitive::u32] = &[#(#starts),*];
            },
        )
    } else {
        (TokenStream::new(), TokenStream::new())
    };
    let overlaps = super::hazards::overlap_check(g, g.analysis);

    let topo_nodes = g.nodes.iter().map(|n| {
        let (name, kind) = (&n.name, g.kind(n));
        quote!((#name, #kind))
    });
    let topo_edges = g.edges.iter().map(|(a, b)| quote!((#a, #b)));
    let topo_bodies = g.nodes.iter().map(|n| match n.scope {
        Some((c, b)) => {
            let b = b as u32;
            quote!(#p::Option::Some((#c, #b)))
        }
        None => quote!(#p::Option::None),
    });
    let topo_bodies = if conditionals.is_empty() {
        quote!(&[])
    } else {
        quote!(&[#(#topo_bodies),*])
    };
    // (Said only where it applies: the other declarations' docs stay as they were.)
    let unrolled_doc = g.nodes.iter().any(|n| n.copies.is_some()).then(|| {
        quote! {
            #[doc = ""]
            #[doc = " The nodes of an unrolled WHILE body are listed once, though the graph holds \
                     them once per copy: the indices in the graph of that body's nodes, and of \
                     the bodies after it, are not the positions here."]
        }
    });
    let svg = docs::topology_svg(g);
    let doc = docs::graph_doc(g, &svg);
    let (flags, upload, stream) = (local("flags"), local("upload"), local("stream"));
    let instantiate_on_doc = format!(
        "Instantiates the graph as an executable *bound to* `stream`: it launches there only \
         (`launch` refuses another stream). The launches of executables bound to one stream \
         never overlap, so they may share host memory that their host nodes write, which two \
         executables launched anywhere may not (`Error::BufferInUse` when the second is \
         made).{}",
        if !g.model.outliving_allocations().is_empty() {
            " With auto-free-on-launch, as [`Self::instantiate`]."
        } else {
            ""
        }
    );
    // T8: allocations the graph does not free outlive the launch; CUDA relaunches such a graph
    // only once they are freed, so its executables always free them at the next launch.
    let outliving = !g.model.outliving_allocations().is_empty();
    let (instantiate_doc, instantiate_with_doc, auto_free) = if outliving {
        (
            "Instantiates the graph, with auto-free-on-launch: the allocations the graph does not \
             free live until the next launch.",
            "Instantiates the graph with `flags` and auto-free-on-launch (the graph leaves \
             allocations unfreed, which CUDA frees at the next launch), uploading it to `upload` \
             when given.",
            quote!(let #flags = #flags | #p::InstantiateFlags::AUTO_FREE_ON_LAUNCH;),
        )
    } else {
        (
            "Instantiates the graph with default flags.",
            "Instantiates the graph with `flags`, uploading it to `upload` when given.",
            TokenStream::new(),
        )
    };
    // A graph with memory nodes cannot be a child graph (CUDA refuses to embed one), nor one
    // with conditional nodes (CUDA cannot clone them, and embedding clones).
    let embeddable = (!g.model.has_memory_nodes() && conditionals.is_empty()).then(|| {
        let body_rules = super::hazards::body_rules(g);
        quote! {
            #body_rules

            #(#pass)*
            // SAFETY: `graph` is the graph's own, which only a `rebuild` (taking `&mut self`)
            // replaces, giving it a new identity with it: one identity is one build, of this
            // declaration's nodes on the memory of the params kept with it; `duplicate` builds
            // the same params again and keeps the identity.
            unsafe impl #p::ChildGraph for #graph {
                fn graph(&self) -> &#p::Graph<'static> {
                    &self.parts.graph
                }
                fn identity(&self) -> #p::Option<::core::primitive::u64> {
                    #p::Option::Some(self.parts.build_id)
                }
                fn duplicate(&self) -> #p::Result<Self> {
                    let #parts = &self.parts;
                    let mut copy = Self::build(#parts.graph.context(), &#parts.state.params)?;
                    // SAFETY: the same params make the same graph: built again from them, the
                    // copy is the same build, so it keeps the identity (nothing else changes).
                    unsafe { copy.parts.get_mut() }.build_id = #parts.build_id;
                    #p::Result::Ok(copy)
                }
            }
        }
    });

    quote! {
        #(#pass)*
        #(#user_docs)*
        #[doc = #doc]
        #vis struct #graph {
            // Every part, in one field that the code of the declaring module (which sees private
            // fields) can read but not change without `unsafe`: a part changed on its own would
            // make the nodes disagree with the params kept with them (see `__private::Guarded`).
            parts: #p::Guarded<#parts_ty>,
        }

        #(#pass)*
        #[doc(hidden)]
        #[allow(non_camel_case_types)]
        struct #parts_ty {
            graph: #p::Graph<'static>,
            // The handles' types are projections from the user's types. Boxed, the graph is
            // `Sized` without them; in `ManuallyDrop` (handles are `Copy`: nothing to drop), its
            // drop glue does not need them: a bad param type is reported at its own tokens only,
            // not at every function that moves or drops a graph.
            nodes: #p::Box<#p::ManuallyDrop<#nodes_ty>>,
            state: #state_ty,
            build_id: ::core::primitive::u64,
        }

        #(#pass)*
        #[doc(hidden)]
        #[allow(non_camel_case_types, dead_code, clippy::type_complexity)]
        struct #nodes_ty {
            #(#node_fields)*
            #(#handle_fields)*
            #(#device_node_fields)*
            #(#key_fields)*
        }

        // SAFETY: node handles, conditional handles, device-updatable nodes' device handles and
        // `#[indirect]` keys, all `Unbuilt`.
        #(#pass)*
        unsafe impl #p::Unbuilt for #nodes_ty {}

        #(#pass)*
        #[doc(hidden)]
        #[allow(non_camel_case_types, non_snake_case, dead_code)]
        #[derive(Clone, Copy)]
        struct #launch_ty {
            #(#launch_fields)*
        }

        // SAFETY: launch configurations, `Unbuilt` themselves.
        #(#pass)*
        unsafe impl #p::Unbuilt for #launch_ty {}

        #(#pass)*
        #[doc(hidden)]
        #[allow(non_camel_case_types)]
        struct #state_ty {
            // The params the graph was built from (see `__cg_own`), which its executable owns.
            params: #p::Box<#params_ty>,
            // Boxed: made zeroed on the heap (see `__cg_add_nodes`).
            launch: #p::Box<#launch_ty>,
        }

        #(#pass)*
        impl #graph {
            /// The declared shape: nodes in build order (their indices in the graph; one more
            /// with `#[indirect]` params, whose fetch node comes first), kinds and edges. Its
            /// `to_dot()` and `to_mermaid()` draw it.
            #unrolled_doc
            pub const TOPOLOGY: #p::Topology = #p::Topology {
                name: #graph_name,
                nodes: &[#(#topo_nodes),*],
                edges: &[#(#topo_edges),*],
                bodies: #topo_bodies,
            };

            /// [`TOPOLOGY`](Self::TOPOLOGY) drawn as a standalone SVG image, laid out when the
            /// macro ran: the picture in this type's docs. Write it to a `.svg` file or put it
            /// in an HTML page; its lines and labels take the text colour of the page around it
            /// (black in a file of its own). It is in the binary only if the program calls this.
            pub const fn topology_svg() -> &'static ::core::primitive::str {
                // A function rather than a constant: rustdoc prints a constant's value.
                #svg
            }

            /// Builds the graph from `params` on `ctx`'s device.
            ///
            /// Nodes are added in one fixed order (a topological order of the declaration, ties
            /// broken by declaration order) with dependencies in declared order, so every graph
            /// built here pairs node for node with every executable of this declaration.
            pub fn build(#ctx: &#p::Arc<#p::CudaContext>, #params: &#params_ty) -> #p::Result<Self> {
                Self::__cg_check_overlaps(#params)?;
                let mut #graph_local = #p::Graph::with_capacity(#ctx, #count)?;
                let (nodes, state) = Self::__cg_add_nodes(&mut #graph_local, #params)?;
                #p::built(&#graph_local, #graph_name);
                let #parts = #parts_ty {
                    graph: #graph_local,
                    nodes,
                    state,
                    build_id: #p::next_build_id(),
                };
                // SAFETY: the nodes were just added to the graph from the params kept in `state`
                // (a copy of `params`), which passed the memory check; a new build, a new identity.
                #p::Result::Ok(Self { parts: unsafe { #p::Guarded::new(#parts) } })
            }

            /// Builds the graph again from `params`, in place: the driver calls of [`Self::build`],
            /// reusing the runtime graph's bookkeeping and references (see `Graph::clear`), and,
            /// when the declaration has kernel, memset, memcpy and empty nodes only, the driver's
            /// kernel nodes, each set to its new arguments in place (see `Graph::rebuild`). The
            /// cheap way to rebuild for a whole-graph update in a loop.
            ///
            /// On error the graph is left empty or partly built: rebuild it before using it
            /// again (an update from it is refused).
            pub fn rebuild(&mut self, #params: &#params_ty) -> #p::Result<()> {
                Self::__cg_check_overlaps(#params)?;
                // SAFETY: the graph is built anew: a new identity first, then the graph cleared,
                // its nodes added from `params` (which passed the memory check), and the nodes
                // and the state they were built from stored together. (On error the graph is
                // empty or part built, of a new node family: the old handles are refused.)
                let #parts = unsafe { self.parts.get_mut() };
                // Whatever happens below, this is no longer the graph its state describes.
                #parts.build_id = #p::next_build_id();
                #rebuild_nodes
                #p::built(&#parts.graph, #graph_name);
                #parts.nodes = nodes;
                #parts.state = state;
                #p::Result::Ok(())
            }

            /// Adds every node to the empty `graph`, in the canonical order; returns their handles
            /// and the state they were built from. (The handles come boxed for the reason given
            /// at the `nodes` field: a signature naming their struct by value would repeat each
            /// bad param type's error at the macro call.)
            fn __cg_add_nodes(
                #graph_local: &mut #p::Graph<'static>,
                #params: &#params_ty,
            ) -> #p::Result<(#p::Box<#p::ManuallyDrop<#nodes_ty>>, #state_ty)> {
                // The copy of the params first: one that fails (a child graph's) leaves the graph
                // as it is, where after the nodes it would leave a whole graph of the new params
                // with the old ones kept as its state, which `update` would then pair.
                let #owned = Self::__cg_own(#params)?;
                // Every handle starts as one of zeros, overwritten as its node is added: the
                // structs are made zeroed on the heap, not field by field (see `Unbuilt`).
                let mut #boxed = #p::unbuilt_box::<#p::ManuallyDrop<#nodes_ty>>();
                let mut #configs = #p::unbuilt_box::<#launch_ty>();
                {
                    let #nodes: &mut #nodes_ty = &mut #boxed;
                    #[allow(unused_variables)]
                    let #launches: &mut #launch_ty = &mut #configs;
                    #ids_local
                    #(#key_adds)*
                    #adds
                }
                #p::Result::Ok((
                    #boxed,
                    #state_ty {
                        params: #owned,
                        launch: #configs,
                    },
                ))
            }

            #(#add_fns)*

            #dep_tables

            /// The runtime graph.
            pub fn graph(&self) -> &#p::Graph<'static> {
                &self.parts.graph
            }

            #overlaps

            #[doc = #instantiate_doc]
            pub fn instantiate(self) -> #p::Result<#exec_ty> {
                self.instantiate_with(#p::InstantiateFlags::NONE, #p::Option::None)
            }

            #[doc = #instantiate_with_doc]
            pub fn instantiate_with(
                self,
                #flags: #p::InstantiateFlags,
                #upload: #p::Option<&#p::CudaStream>,
            ) -> #p::Result<#exec_ty> {
                #auto_free
                let #parts = self.parts.into_inner();
                // The executable's copy of the params its nodes are built from (see `applied`).
                let applied = Self::__cg_own(&#parts.state.params)?;
                let exec = #parts.graph.instantiate_with(#flags, #upload)?;
                #recheck
                // SAFETY: the executable of this graph, its nodes and the state they were built
                // from; `applied` is a copy of those params.
                #p::Result::Ok(unsafe { #exec_ty::__cg_new(exec, #parts.nodes, #parts.state, applied) })
            }

            #[doc = #instantiate_on_doc]
            pub fn instantiate_on(self, #stream: &#p::Arc<#p::CudaStream>) -> #p::Result<#exec_ty> {
                let #flags = #p::InstantiateFlags::NONE;
                #auto_free
                let #parts = self.parts.into_inner();
                let applied = Self::__cg_own(&#parts.state.params)?;
                let exec = #parts.graph.instantiate_on(#stream, #flags)?;
                #recheck
                // SAFETY: as in `instantiate_with`.
                #p::Result::Ok(unsafe { #exec_ty::__cg_new(exec, #parts.nodes, #parts.state, applied) })
            }

            #device_launch

            #(#evals)*
        }

        #(#pass)*
        impl #p::fmt::Debug for #graph {
            fn fmt(&self, f: &mut #p::fmt::Formatter<'_>) -> #p::fmt::Result {
                f.debug_struct(#graph_name).field("graph", &self.parts.graph).finish_non_exhaustive()
            }
        }

        #embeddable

        #(#pass)*
        impl #p::SameDeclaration<#graph> for #graph {
            fn same(&self) -> &#graph {
                self
            }
        }
    }
}

/// Whether `build` adds `node` with an adder `Rebuild` offers (see `rebuild_nodes`): a kernel,
/// memset, memcpy or empty node at the top of the graph, with plain dependencies only, that
/// names no allocation, conditional handle or device-updatable node, and is not
/// device-updatable itself.
fn rebuilt_in_place(node: &super::NodeGen) -> bool {
    matches!(
        node.decl.op,
        NodeOp::Kernel(_) | NodeOp::Memset(_) | NodeOp::Memcpy(_) | NodeOp::Empty(_)
    ) && node.scope.is_none()
        && node.copies.is_none()
        && node.data_deps.is_empty()
        && !node.device_updatable
        && node.dev_nodes.is_empty()
        && node.allocs.is_empty()
        && node.handles.is_empty()
}
