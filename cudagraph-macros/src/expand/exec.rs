//! The executable type: launch, whole-graph update (same declaration only), the `set_params`
//! fast path and one handle method per node.

use proc_macro2::{Span, TokenStream};
use quote::quote;

use quote::format_ident;

use super::{
    checked_only, docs, indirect_key, local, params_at, relocated, updatable, update_fn, Gen,
    PER_FN,
};
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
    // inlined code; one function comparing thousands would be beyond the optimizer).
    let param_count = g.model.params.len();
    let indices: Vec<usize> = (0..param_count).collect();
    let mut compare_calls = Vec::new();
    let mut compare_fns = Vec::new();
    for chunk in indices.chunks(PER_FN) {
        let f = format_ident!("__cg_changed_{}", chunk[0]);
        let sets = chunk.iter().map(|&i| {
            let unchanged = g.unchanged(i);
            quote!(#changed[#i] = !(#unchanged);)
        });
        compare_fns.push(quote! {
            #[inline(never)]
            fn #f(&self, #params: &#params_ty, #changed: &mut [bool; #param_count]) {
                #(#sets)*
            }
        });
        compare_calls.push(quote!(self.#f(#params, &mut #changed);));
    }
    // An allocation's length is checked before any node is updated: CUDA cannot change it, so
    // params that would change it are refused as a whole.
    let fixed_checks = g
        .nodes
        .iter()
        .filter(|n| checked_only(&n.decl.op) && !n.mentions.is_empty())
        .map(|n| {
            let inputs = n.mentions.iter().map(|i| quote!(#changed[#i]));
            let check = g.update_node(n);
            relocated(quote!(if #(#inputs)||* { #check }), n.site)
        });
    // Which nodes to update: per updatable node, its position, the params its expressions read
    // and its update function, as data walked by one loop (not code per node).
    let reads = g.nodes.iter().filter(|n| updatable(&n.decl.op)).map(|n| {
        let (pos, mentions, f) = (n.pos, &n.mentions, update_fn(n.pos));
        quote!((#pos, &[#(#mentions),*], #exec_ty::#f))
    });
    let updates = quote! {
        #[allow(clippy::type_complexity)]
        const READS: &[(usize, &[usize], fn(&mut #exec_ty, &#params_ty) -> #p::Result<()>)] =
            &[#(#reads),*];
        for &(pos, reads, update) in READS {
            if self.dirty[pos] || reads.iter().any(|&i| #changed[i]) {
                // Dirty until the whole call succeeds: if a later node is refused, the next call
                // must set this one again (its params are not committed).
                self.dirty[pos] = true;
                update(self, #params)?;
                #updated += 1;
            }
        }
    };
    // Each changed param's new value is kept by its commit function (`set_params_only`'s table).
    let commits = (param_count > 0).then(|| {
        quote! {
            for (#changed, &(_, commit)) in #changed.iter().zip(Self::__CG_PARAMS) {
                if *#changed {
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
    let accessors = g.nodes.iter().map(|n| {
        let (name, handle) = (&n.decl.name, &n.handle);
        let doc = docs::accessor_doc(g, n);
        quote! {
            #[doc = #doc]
            pub fn #name(&mut self) -> #handle<'_> {
                #handle { exec: self }
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
                let mut #changed = [false; #param_count];
                #(#compare_calls)*
                #(#fixed_checks)*
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
    let methods = g
        .nodes
        .iter()
        .filter(|n| {
            outliving
                .iter()
                .any(|&i| std::ptr::eq(g.model.nodes[i], n.decl))
        })
        .map(|n| {
            let (name, ty) = (&n.decl.name, g.alloc_type(n));
            let read = quote::format_ident!("read_{}", n.name, span = n.decl.name.span());
            let NodeOp::Alloc(a) = &n.decl.op else {
                return TokenStream::new();
            };
            let elem = &a.elem;
            let read_doc = format!(
                "A copy of allocation `{}` as the launch left it (copied on the launch's stream, \
                 after the launch; this call waits for the copy).",
                n.name
            );
            let alloc_doc = format!(
                "Allocation `{}`: its address and length, for the runtime's own API. The memory \
                 is freed when the executable is launched again.",
                n.name
            );
            quote! {
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
