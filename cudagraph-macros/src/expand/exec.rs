//! The executable type: launch, whole-graph update (same declaration only), the `set_params`
//! fast path and one handle method per node.

use proc_macro2::{Span, TokenStream};
use quote::quote;

use quote::format_ident;

use super::{docs, indirect_key, local, params_at, relocated, updatable, update_fn, Gen, PER_FN};
use crate::parse::NodeOp;

pub fn exec_type(g: &Gen) -> TokenStream {
    let p = &g.p;
    let (vis, pass) = (&g.model.decl.vis, &g.pass);
    let (graph, params_ty, exec_ty, nodes_ty, state_ty) =
        (g.graph, &g.params_ty, &g.exec_ty, &g.nodes_ty, &g.state_ty);
    let count = g.nodes.len();
    let exec_name = exec_ty.to_string();
    let (params, stream, source, changed, updated) = (
        params_at(Span::call_site()),
        local("stream"),
        local("source"),
        local("changed"),
        local("updated"),
    );
    let same = local("__CgSame");

    // Which params changed: compared a few dozen per function (each param's comparison is
    // inlined code; one function comparing thousands would be beyond the optimizer). An array
    // param is compared element by element, in a loop: each element is a slot of its own (see
    // `Model::slots`), so that a changed element updates only the nodes that read it.
    let param_count = g.model.params.len();
    let slot_count = g.model.slot_count();
    let indices: Vec<usize> = (0..param_count).collect();
    let mut compare_calls = Vec::new();
    let mut compare_fns = Vec::new();
    for chunk in indices.chunks(PER_FN) {
        let f = format_ident!("__cg_changed_{}", chunk[0]);
        let sets = chunk.iter().map(|&i| {
            let slot = g.model.slots(i).start;
            match g.model.arrays[i] {
                Some((_, len)) => {
                    let k = local("k");
                    let unchanged = g.unchanged(i, Some(&quote!(#k)));
                    quote!(for #k in 0..#len { #changed[#slot + #k] = !(#unchanged); })
                }
                None => {
                    let unchanged = g.unchanged(i, None);
                    quote!(#changed[#slot] = !(#unchanged);)
                }
            }
        });
        compare_fns.push(quote! {
            #[inline(never)]
            fn #f(&self, #params: &#params_ty, #changed: &mut [bool; #slot_count]) {
                #(#sets)*
            }
        });
        compare_calls.push(quote!(self.#f(#params, &mut #changed);));
    }
    let index = local("index");
    // An allocation's length is checked before any node is updated: CUDA cannot change it, so
    // params that would change it are refused as a whole. (A repeated alloc node's instances
    // are checked in a loop, when a param any of them reads changed.)
    let alloc_checks = g
        .decl_nodes()
        .filter(|n| matches!(n.decl.op, NodeOp::Alloc(_)) && !n.mentions.is_empty())
        .map(|n| {
            let check = g.update_node(n);
            match n.rep {
                Some(r) => {
                    let count = r.count;
                    let inputs = n.mentions.iter().flat_map(|&i| g.model.slots(i));
                    let inputs = inputs.map(|i| quote!(#changed[#i]));
                    relocated(
                        quote!(if #(#inputs)||* { for #index in 0..#count { #check } }),
                        n.site,
                    )
                }
                None => {
                    let inputs = n.slots.iter().map(|i| quote!(#changed[#i]));
                    relocated(quote!(if #(#inputs)||* { #check }), n.site)
                }
            }
        });
    // Which nodes to update: per updatable node, its position, the slots its expressions read,
    // its update function and its index among its declaration's instances, as data walked by
    // one loop (not code per node).
    let reads = g.nodes.iter().filter(|n| updatable(&n.decl.op)).map(|n| {
        let (pos, slots, f) = (n.pos, &n.slots, update_fn(n.first));
        let index = n.rep.map_or(0, |r| r.index);
        quote!((#pos, &[#(#slots),*], #exec_ty::#f, #index))
    });
    let updates = quote! {
        #[allow(clippy::type_complexity)]
        const READS: &[(usize, &[usize], fn(&mut #exec_ty, &#params_ty, usize) -> #p::Result<()>, usize)] =
            &[#(#reads),*];
        for &(pos, reads, update, index) in READS {
            if self.dirty[pos] || reads.iter().any(|&i| #changed[i]) {
                // Dirty until the whole call succeeds: if a later node is refused, the next call
                // must set this one again (its params are not committed).
                self.dirty[pos] = true;
                update(self, #params, index)?;
                #updated += 1;
            }
        }
    };
    // Each changed param's new value is kept by its commit function (`set_params_only`'s table):
    // a param changed when one of its slots did.
    let commits = (param_count > 0).then(|| {
        if slot_count == param_count {
            return quote! {
                for (#changed, &(_, commit)) in #changed.iter().zip(Self::__CG_PARAMS) {
                    if *#changed {
                        commit(self, #params)?;
                    }
                }
            };
        }
        let starts = (0..=param_count).map(|i| {
            if i == param_count {
                slot_count
            } else {
                g.model.slots(i).start
            }
        });
        quote! {
            const SLOTS: [usize; #param_count + 1] = [#(#starts),*];
            for (param, &(_, commit)) in Self::__CG_PARAMS.iter().enumerate() {
                if #changed[SLOTS[param]..SLOTS[param + 1]].contains(&true) {
                    commit(self, #params)?;
                }
            }
        }
    });
    // One setter per `#[indirect]` param: the host write alone.
    let setters = (0..g.model.params.len())
        .filter(|&i| g.model.is_indirect(i))
        .map(|i| {
            let f = &g.model.params[i];
            let (name, ty, key) = (&f.name, &f.ty, indirect_key(&f.name));
            let setter = format_ident!("set_{}", crate::model::name_of(name));
            let doc = format!(
                "Sets `#[indirect]` param `{}` for the launches made from now on: a write into \
                 host memory, no driver call. Each launch reads the value set before it was made.",
                crate::model::name_of(name)
            );
            let kept = g.kept(i);
            quote! {
                #[doc = #doc]
                #[inline]
                pub fn #setter(&mut self, value: #ty) -> #p::Result<()> {
                    self.exec.set_indirect(&self.nodes.#key, value)?;
                    #kept = value;
                    #p::Result::Ok(())
                }
            }
        });
    let accessors = g.decl_nodes().map(|n| {
        let (name, handle) = (&n.decl.name, &n.handle);
        let doc = docs::accessor_doc(g, n);
        let Some(rep) = n.rep else {
            return quote! {
                #[doc = #doc]
                pub fn #name(&mut self) -> #handle<'_> {
                    #handle { exec: self }
                }
            };
        };
        // A repeated node's instance, by its index (the loop variable's value).
        let (var, count, node) = (rep.var, rep.count, crate::model::name_of(&n.decl.name));
        quote! {
            #[doc = #doc]
            pub fn #name(&mut self, #var: usize) -> #p::Result<#handle<'_>> {
                #p::instance(#node, #var, #count)?;
                #p::Result::Ok(#handle { exec: self, index: #var })
            }
        }
    });
    let doc = docs::exec_doc(g);
    let update_doc = format!(
        "Whole-graph update from a [`{graph}`] built with other params (`cuGraphExecUpdate`).\n\n\
         Only a graph of this declaration is accepted: it was built by the same sequence of calls, so \
         its nodes pair with this executable's ([whole-graph update](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#whole-graph-update)). Afterwards the executable runs that graph's \
         params, and [`set_params`](Self::set_params) compares with them."
    );
    let set_params_doc = format!(
        "Makes the executable's nodes what [`{graph}::build`] would make from `params`, with one \
         single-node update per node whose inputs changed since the last build, update or \
         `set_params` (or that was set through its handle since). Returns how many nodes it \
         updated. Enabled/disabled states are kept.\n\n\
         A param is compared with `PartialEq`, a kernel by function, a declared graph by identity; a \
         runtime `Graph` counts as changed every time. A kernel param may change function (same \
         parameter list, same context): the node's single-node update switches it."
    );

    let update = if g.model.has_memory_nodes() {
        // CUDA cannot update a graph with memory nodes as a whole: the method explains it.
        let life = syn::Lifetime::new("'__cg_u", Span::mixed_site());
        quote! {
            #[doc(hidden)]
            pub fn update<#life, #same>(&#life mut self, #source: &#same) -> #p::Result<()>
            where
                &#life (): #p::CanUpdateWholeWithMemoryNodes,
            {
                let _ = #source;
                match <&#life () as #p::CanUpdateWholeWithMemoryNodes>::NEVER {}
            }
        }
    } else {
        quote! {
            #[doc = #update_doc]
            pub fn update<#same: #p::SameDeclaration<#graph>>(&mut self, #source: &#same) -> #p::Result<()> {
                let #source: &#graph = #p::SameDeclaration::same(#source);
                self.exec.update(&#source.graph)?;
                self.state.params = #source.state.params.clone();
                *self.state.launch = *#source.state.launch;
                self.dirty = [false; #count];
                #p::Result::Ok(())
            }
        }
    };
    let (launch, outliving) = launch(g, &stream);

    quote! {
        #outliving

        #(#pass)*
        #[doc = #doc]
        #vis struct #exec_ty {
            exec: #p::GraphExec<'static>,
            nodes: #p::Box<#p::ManuallyDrop<#nodes_ty>>,
            state: #state_ty,
            /// Nodes set through their handles since the last `set_params`: it sets them again.
            dirty: [bool; #count],
            /// Per node, the number of the last `set_params_only` call naming several params that
            /// updated it (so that it updates each node once).
            stamps: #p::Box<[u32]>,
            /// The number of the last such call.
            generation: u32,
        }

        #(#pass)*
        impl #exec_ty {
            #launch

            /// Uploads the executable ahead of its first launch.
            pub fn upload(&self, #stream: &#p::CudaStream) -> #p::Result<()> {
                self.exec.upload(#stream)
            }

            #update

            #[doc = #set_params_doc]
            pub fn set_params(&mut self, #params: &#params_ty) -> #p::Result<usize> {
                #graph::__cg_check_overlaps(#params)?;
                #[allow(unused_mut)]
                let mut #changed = [false; #slot_count];
                #(#compare_calls)*
                #(#alloc_checks)*
                let mut #updated = 0usize;
                #updates
                #commits
                self.dirty = [false; #count];
                #p::Result::Ok(#updated)
            }

            /// The runtime executable, for what the typed API does not cover (read-only).
            pub fn as_exec(&self) -> &#p::GraphExec<'static> {
                &self.exec
            }

            #(#compare_fns)*

            #(#accessors)*

            #(#setters)*
        }

        #(#pass)*
        impl #p::fmt::Debug for #exec_ty {
            fn fmt(&self, f: &mut #p::fmt::Formatter<'_>) -> #p::fmt::Result {
                f.debug_struct(#exec_name).field("exec", &self.exec).finish_non_exhaustive()
            }
        }
    }
}

/// `launch`, and for a declaration whose allocations outlive the launch, the type through which
/// it hands them out: `<Graph>Allocations<'_>`, borrowing the executable, so that no launch
/// (which frees them: the executable is instantiated with auto-free-on-launch) can happen while
/// it is alive.
fn launch(g: &Gen, stream: &proc_macro2::Ident) -> (TokenStream, TokenStream) {
    let p = &g.p;
    let outliving = g.model.outliving_allocations();
    if outliving.is_empty() {
        let launch = quote! {
            /// Launches the graph into `stream`.
            pub fn launch(&mut self, #stream: &#p::Arc<#p::CudaStream>) -> #p::Result<()> {
                self.exec.launch(#stream)
            }
        };
        return (launch, TokenStream::new());
    }
    let (vis, pass, exec_ty) = (&g.model.decl.vis, &g.pass, &g.exec_ty);
    let allocs_ty = quote::format_ident!(
        "{}Allocations",
        crate::model::name_of(g.graph),
        span = g.graph.span()
    );
    let allocs_name = allocs_ty.to_string();
    // Per alloc node's declaration that a launch leaves allocations of: which of its instances
    // (a node outside loops is its only one).
    let mut left: std::collections::BTreeMap<*const crate::parse::NodeDecl, Vec<bool>> =
        Default::default();
    for &i in &outliving {
        let n = &g.nodes[g.position[i]];
        left.entry(n.decl)
            .or_insert_with(|| vec![false; n.rep.map_or(1, |r| r.count)])
            [n.rep.map_or(0, |r| r.index)] = true;
    }
    let methods = g
        .decl_nodes()
        .filter(|n| left.contains_key(&(n.decl as *const _)))
        .map(|n| {
            let (name, ty) = (&n.decl.name, g.alloc_type(n));
            let read = quote::format_ident!("read_{}", n.decl.name, span = n.decl.name.span());
            let NodeOp::Alloc(a) = &n.decl.op else {
                return TokenStream::new();
            };
            let elem = &a.elem;
            let decl_name = crate::model::name_of(&n.decl.name);
            let (which, doc_name) = match n.rep {
                Some(r) => (Some(r.var), format!("{decl_name}[{}]", r.var)),
                None => (None, decl_name.clone()),
            };
            let read_doc = format!(
                "A copy of allocation `{doc_name}` as the launch left it (copied on the launch's \
                 stream, after the launch; this call waits for the copy)."
            );
            let alloc_doc = format!(
                "Allocation `{doc_name}`: its address and length, for the runtime's own API. The \
                 memory is freed when the executable is launched again."
            );
            let Some(var) = which else {
                return quote! {
                    #[doc = #read_doc]
                    pub fn #read(&self) -> #p::Result<#p::Vec<#elem>> {
                        // SAFETY: the node was added with `add_mem_alloc::<#elem>`, which admits
                        // only element types valid for every bit pattern.
                        unsafe { #p::read_declared_allocation(&self.exec.exec, &self.exec.nodes.#name) }
                    }

                    #[doc = #alloc_doc]
                    pub fn #name(&self) -> #ty {
                        self.exec.nodes.#name
                    }
                };
            };
            // The instances a launch leaves (a free node frees the others: they are refused).
            let live = &left[&(n.decl as *const _)];
            let errors = "\n\n# Errors\n\n`Error::Invalid` for an index with no instance, or \
                          whose allocation the graph frees.";
            let (read_doc, alloc_doc) = (read_doc + errors, alloc_doc + errors);
            quote! {
                #[doc = #read_doc]
                pub fn #read(&self, #var: usize) -> #p::Result<#p::Vec<#elem>> {
                    #p::instance_left(#decl_name, #var, &[#(#live),*])?;
                    // SAFETY: the node was added with `add_mem_alloc::<#elem>`, which admits
                    // only element types valid for every bit pattern; the allocation is one a
                    // launch leaves (checked above).
                    unsafe { #p::read_declared_allocation(&self.exec.exec, &self.exec.nodes.#name[#var]) }
                }

                #[doc = #alloc_doc]
                pub fn #name(&self, #var: usize) -> #p::Result<#ty> {
                    #p::instance_left(#decl_name, #var, &[#(#live),*])?;
                    #p::Result::Ok(self.exec.nodes.#name[#var])
                }
            }
        });
    let doc = format!(
        "What a launch of [`{exec_ty}`] leaves behind: the allocations the graph makes and does \
         not free. They live until the executable's next launch, which frees them (CUDA's \
         auto-free-on-launch); this value borrows the executable, so it cannot be launched again \
         while the allocations are being read. To keep an allocation beyond that, copy it into \
         a `DeviceBuffer` param with a memcpy node, or free it in the graph."
    );
    let launch = quote! {
        /// Launches the graph into `stream`; the allocations it leaves live until the next launch,
        /// readable through the returned value (which borrows the executable).
        pub fn launch(&mut self, #stream: &#p::Arc<#p::CudaStream>) -> #p::Result<#allocs_ty<'_>> {
            self.exec.launch(#stream)?;
            #p::Result::Ok(#allocs_ty { exec: self })
        }
    };
    let allocs = quote! {
        #(#pass)*
        #[doc = #doc]
        #vis struct #allocs_ty<'a> {
            exec: &'a #exec_ty,
        }

        #(#pass)*
        impl #allocs_ty<'_> {
            #(#methods)*
        }

        #(#pass)*
        impl #p::fmt::Debug for #allocs_ty<'_> {
            fn fmt(&self, f: &mut #p::fmt::Formatter<'_>) -> #p::fmt::Result {
                f.debug_struct(#allocs_name).finish_non_exhaustive()
            }
        }
    };
    (launch, allocs)
}
