//! The executable type: it owns the params it runs (`params`, and the setters and guard of
//! `tracked`), launches (bringing its nodes up to the params first), updates as a whole from
//! another graph of the declaration or from whole params (`set_params`), and has one handle
//! method per node.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote};

use super::owned::{child_copy, Base};
use super::{docs, indirect_key, local, params_at, parts_at, Gen, PER_FN};

pub fn exec_type(g: &Gen) -> TokenStream {
    let p = &g.p;
    let (vis, pass) = (&g.model.decl.vis, &g.pass);
    let (graph, params_ty, exec_ty, nodes_ty, state_ty) =
        (g.graph, &g.params_ty, &g.exec_ty, &g.nodes_ty, &g.state_ty);
    let (guard_ty, exec_parts_ty) = (&g.guard_ty, &g.exec_parts_ty);
    let parts = parts_at(Span::call_site());
    let (count, slot_count) = (g.nodes.len(), g.model.slot_count());
    let exec_name = exec_ty.to_string();
    let (params, stream, source) = (
        params_at(Span::call_site()),
        local("stream"),
        local("source"),
    );
    let same = local("__CgSame");

    // `set_params`: the params compared a few dozen per function (each comparison is inlined
    // code; one function comparing thousands would be beyond the optimizer), each that changed
    // copied in and its readers marked. Child graphs are compared and copied first: a copy may
    // fail, and then nothing has changed.
    let children = g.child_params();
    let child_copies = children.iter().map(|&i| {
        let (copy, unchanged, keep) = (child_copy(i), g.unchanged(i), g.keep(i, Base::Params));
        quote! {
            let #copy = if #unchanged { #p::Option::None } else { #p::Option::Some(#keep?) };
        }
    });
    // The child graphs are compared with the executable's own.
    let read_parts = (!children.is_empty()).then(|| quote!(let #parts = &self.parts;));
    let child_takes = children.iter().map(|&i| {
        let (copy, kept, slot) = (child_copy(i), g.kept(i), g.model.slots(i).start);
        quote! {
            if let #p::Option::Some(copy) = #copy {
                // SAFETY: the param's change is staged first (a panic in the old graph's drop
                // leaves it staged).
                let #parts = unsafe { self.parts.get_mut() };
                #p::stage_in::<Self>(&mut #parts.tracker, #slot);
                #kept = copy;
            }
        }
    });
    let others: Vec<usize> = (0..g.model.params.len())
        .filter(|i| !children.contains(i))
        .collect();
    let mut take_calls = Vec::new();
    let mut take_fns = Vec::new();
    for chunk in others.chunks(PER_FN) {
        let f = format_ident!("__cg_take_{}", chunk[0]);
        let takes = chunk.iter().map(|&i| {
            let slot = g.model.slots(i).start;
            if let Some(len) = g.slotted(i) {
                // An array param, element by element: each is a slot of its own, so that a
                // changed element marks only the nodes that read it.
                let k = local("k");
                let k_tokens = quote!(#k);
                let (unchanged, keep, kept) = (
                    g.unchanged_elem(i, &k_tokens),
                    g.keep_elem(i, Base::Params, &k_tokens),
                    g.kept(i),
                );
                return quote! {
                    for #k in 0..#len {
                        if !(#unchanged) {
                            let value = #keep;
                            #p::stage_in::<Self>(&mut #parts.tracker, #slot + #k);
                            #kept[#k] = value;
                        }
                    }
                };
            }
            let (unchanged, keep, kept) = (g.unchanged(i), g.keep(i, Base::Params), g.kept(i));
            // An `#[indirect]` param: a host write, no node to update.
            let write = g.model.is_indirect(i).then(|| {
                let key = indirect_key(&g.model.params[i].name);
                quote!(#p::write_indirect(&mut #parts.exec, &#parts.nodes.#key, #kept);)
            });
            quote! {
                if !(#unchanged) {
                    let value = #keep;
                    #p::stage_in::<Self>(&mut #parts.tracker, #slot);
                    #kept = value;
                    #write
                }
            }
        });
        take_fns.push(quote! {
            #[inline(never)]
            fn #f(&mut self, #params: &#params_ty) {
                // SAFETY: each param that differs is staged (its readers marked stale, and the
                // memory check due if it involves the param) before it is changed: the next
                // update brings the nodes to it, as a setter would.
                let #parts = unsafe { self.parts.get_mut() };
                #(#takes)*
            }
        });
        take_calls.push(quote!(self.#f(#params);));
    }
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
            pub fn #name(&mut self, #var: ::core::primitive::usize) -> #p::Result<#handle<'_>> {
                #p::instance(#node, #var, #count)?;
                #p::Result::Ok(#handle { exec: self, index: #var })
            }
        }
    });
    let doc = docs::exec_doc(g);
    let update_doc = format!(
        "Whole-graph update from a [`{graph}`] built with other params (`cuGraphExecUpdate`).\n\n\
         Only a graph of this declaration is accepted: it was built by the same sequence of calls, \
         so its nodes pair with this executable's ([whole-graph update](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#whole-graph-update)). \
         Afterwards the executable owns a copy of that graph's params (what [`params`](Self::params) \
         shows), and changes made to its own params and not applied yet are dropped."
    );
    let set_params_doc = format!(
        "Replaces the executable's params with `params` as a whole: each param that differs \
         from the executable's own is copied in, then the nodes that read a changed param (or \
         were set through their handle since) are updated, each once, with one single-node \
         update. Afterwards the nodes are what [`{graph}::build`] would make from `params`. \
         Returns how many nodes it updated. Enabled/disabled states are kept.\n\n\
         It compares every param, so its cost grows with the declaration: to change a few \
         params, set them (the setters `set_<param>`, [`params_mut`](Self::params_mut)), \
         which updates only their readers. A param is compared with `PartialEq`, a kernel by \
         function, a declared graph by identity; a runtime `Graph` counts as changed every time. \
         A kernel param may change function (same parameter list, same context): the node's \
         single-node update switches it.\n\n\
         Params under which two nodes that may run at the same time share memory, one writing it, \
         are refused as by [`{graph}::build`], with nothing changed. So is any update a node \
         refuses: the error names the node, and the params and the nodes updated before it are \
         set back to what they were."
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
                // Copied first (the params, and the applied params the nodes then agree with):
                // a copy that fails changes nothing.
                let params = #graph::__cg_own(&#source.parts.state.params)?;
                let applied = #graph::__cg_own(&#source.parts.state.params)?;
                // SAFETY: the whole-graph update makes every node what the source graph's
                // params (which passed the memory check when it was built) made it; the params
                // and the applied params become copies of those, the launch configurations the
                // source's, and then nothing disagrees: the tracker is cleared.
                let #parts = unsafe { self.parts.get_mut() };
                #parts.exec.update(&#source.parts.graph)?;
                // The old params are dropped last, once nothing disagrees: a param's own `Drop`
                // that panics leaves the executable whole.
                let replaced = (
                    #p::replace(&mut #parts.state.params, params),
                    #p::replace(&mut #parts.applied, applied),
                );
                *#parts.state.launch = *#source.parts.state.launch;
                #parts.tracker.clear();
                ::core::mem::drop(replaced);
                #p::Result::Ok(())
            }
        }
    };
    let (launch, outliving) = launch(g, &stream);
    let params_doc =
        "The params the executable runs: those it was built from, with every change made since \
         through the setters (`set_<param>`), [`params_mut`](Self::params_mut), \
         [`set_params`](Self::set_params) or [`update`](Self::update). \
         Host code reads the buffers among them as any buffer's holder does: \
         `exec.params().y.to_vec()` waits for the launches that may write `y`.";
    let params_mut_doc = format!(
        "A guard through which to change several params at once, or to swap two: \
         [`{guard_ty}`]'s `set_<param>` and [`swap`]({guard_ty}::swap) change the params (read \
         them through the guard) and mark the nodes that read them; [`{guard_ty}::apply`] \
         updates those nodes, each once however many of its params changed, and if the guard \
         is dropped instead, the next [`launch`](Self::launch) does. Either reports an update \
         the driver or a kernel's check refuses as an error naming the node, and undoes the \
         changes (the params and the nodes are as they were before them); nothing is lost \
         when the guard is dropped.\n\n\
         ```text\n\
         exec.params_mut().swap(|p| (&mut p.x, &mut p.x_new))?; // the ping-pong of a solver\n\
         exec.launch(&stream)?;                                 // updates x's and x_new's readers\n\
         ```"
    );

    quote! {
        #outliving

        #(#pass)*
        #[doc = #doc]
        #vis struct #exec_ty {
            // Every part, in one field that the code of the declaring module (which sees private
            // fields) can read but not change without `unsafe`: a param changed past the tracker
            // would leave its nodes running the old value, and the memory check judging the new
            // one (see `__private::Guarded`).
            parts: #p::Guarded<#exec_parts_ty>,
        }

        #(#pass)*
        #[doc(hidden)]
        #[allow(non_camel_case_types)]
        struct #exec_parts_ty {
            exec: #p::GraphExec<'static>,
            nodes: #p::Box<#p::ManuallyDrop<#nodes_ty>>,
            state: #state_ty,
            /// A copy of the params as the nodes were last updated from them: what a refused
            /// change puts back (see `__private::apply`).
            applied: #p::Box<#params_ty>,
            /// The nodes that disagree with the params (see `__private::Tracker`).
            tracker: #p::Tracker,
        }

        #(#pass)*
        impl #exec_ty {
            /// The executable of `exec`, instantiated from a graph with these nodes and state;
            /// `applied`, a copy of the state's params.
            ///
            /// # Safety
            ///
            /// `exec` was instantiated from the graph the nodes were added to, from the params
            /// kept in `state` (which passed the memory check); `applied` is a copy of them.
            unsafe fn __cg_new(
                exec: #p::GraphExec<'static>,
                nodes: #p::Box<#p::ManuallyDrop<#nodes_ty>>,
                state: #state_ty,
                applied: #p::Box<#params_ty>,
            ) -> Self {
                let tracker = #p::Tracker::new(#count, #slot_count);
                let #parts = #exec_parts_ty { exec, nodes, state, applied, tracker };
                // SAFETY: the caller's promise: every node agrees with the params, which are the
                // applied ones, so a tracker with nothing marked is right.
                Self { parts: unsafe { #p::Guarded::new(#parts) } }
            }

            #launch

            /// Uploads the executable ahead of its first launch.
            pub fn upload(&self, #stream: &#p::CudaStream) -> #p::Result<()> {
                self.parts.exec.upload(#stream)
            }

            #update

            #[doc = #set_params_doc]
            pub fn set_params(&mut self, #params: &#params_ty) -> #p::Result<::core::primitive::usize> {
                #graph::__cg_check_overlaps(#params)?;
                #read_parts
                #(#child_copies)*
                #(#take_calls)*
                #(#child_takes)*
                #p::set_all(self)
            }

            #[doc = #params_doc]
            pub fn params(&self) -> &#params_ty {
                &self.parts.state.params
            }

            #[doc = #params_mut_doc]
            pub fn params_mut(&mut self) -> #guard_ty<'_> {
                #guard_ty { exec: self }
            }

            /// The params, taking the executable apart (it is dropped; memory its launches may
            /// still use stays alive until they are done).
            pub fn into_params(self) -> #params_ty {
                *self.parts.into_inner().state.params
            }

            /// The runtime executable, for what the typed API does not cover (read-only).
            pub fn as_exec(&self) -> &#p::GraphExec<'static> {
                &self.parts.exec
            }

            #(#take_fns)*

            #(#accessors)*
        }

        #(#pass)*
        impl #p::fmt::Debug for #exec_ty {
            fn fmt(&self, f: &mut #p::fmt::Formatter<'_>) -> #p::fmt::Result {
                f.debug_struct(#exec_name).field("exec", &self.parts.exec).finish_non_exhaustive()
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
    // Nodes whose params changed are brought up to date first: no launch runs nodes that
    // disagree with the params (one load when nothing changed).
    let apply = quote! {
        if self.parts.tracker.is_dirty() {
            #p::apply(self)?;
        }
    };
    // SAFETY (for the launches below): a launch changes no param, node or tracker state.
    let exec_mut = quote!(unsafe { self.parts.get_mut() }.exec);
    let pending_doc = "Nodes whose params changed through [`params_mut`](Self::params_mut) and \
                       were not updated yet are updated first; an update that fails is the \
                       launch's error, naming the node, and nothing is launched: the changes are \
                       undone, so the next launch runs what ran before them.";
    if outliving.is_empty() {
        let launch = quote! {
            /// Launches the graph into `stream`.
            ///
            #[doc = #pending_doc]
            pub fn launch(&mut self, #stream: &#p::Arc<#p::CudaStream>) -> #p::Result<()> {
                #apply
                #exec_mut.launch(#stream)
            }
        };
        return (launch, TokenStream::new());
    }
    let (vis, pass, exec_ty) = (&g.model.decl.vis, &g.pass, &g.exec_ty);
    let allocs_ty = format_ident!(
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
            let read = format_ident!("read_{}", n.decl.name, span = n.decl.name.span());
            let take = format_ident!("take_{}", n.decl.name, span = n.decl.name.span());
            let crate::parse::NodeOp::Alloc(a) = &n.decl.op else {
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
            let take_doc = format!(
                "Takes allocation `{0}` out of the executable, as the launch left it: a \
                 `DeviceBuffer` from then on, yours to read, to give to cudarc or to other \
                 graphs (a free node of a later graph may free it), freed when its last clone \
                 is dropped and no launch uses it. Its work is ordered on the launch's stream.\n\n\
                 The executable's next launch would allocate the same addresses, so it is \
                 refused (`Error::Allocation`) until the buffer is gone. Refused when `{0}` \
                 was taken already.",
                doc_name
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
                        unsafe { #p::read_declared_allocation(&self.exec.parts.exec, &self.exec.parts.nodes.#name) }
                    }

                    #[doc = #take_doc]
                    pub fn #take(&mut self) -> #p::Result<#p::DeviceBuffer<#elem>> {
                        let alloc = self.exec.parts.nodes.#name;
                        // SAFETY: as for `read`: an element type valid for every bit pattern.
                        // Taking an allocation changes no param, node or tracker state.
                        unsafe { #p::take_declared_allocation(&mut self.exec.parts.get_mut().exec, &alloc) }
                    }

                    #[doc = #alloc_doc]
                    pub fn #name(&self) -> #ty {
                        self.exec.parts.nodes.#name
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
                pub fn #read(&self, #var: ::core::primitive::usize) -> #p::Result<#p::Vec<#elem>> {
                    #p::instance_left(#decl_name, #var, &[#(#live),*])?;
                    // SAFETY: the node was added with `add_mem_alloc::<#elem>`, which admits
                    // only element types valid for every bit pattern; the allocation is one a
                    // launch leaves (checked above).
                    unsafe { #p::read_declared_allocation(&self.exec.parts.exec, &self.exec.parts.nodes.#name[#var]) }
                }

                #[doc = #take_doc]
                pub fn #take(&mut self, #var: ::core::primitive::usize) -> #p::Result<#p::DeviceBuffer<#elem>> {
                    #p::instance_left(#decl_name, #var, &[#(#live),*])?;
                    let alloc = self.exec.parts.nodes.#name[#var];
                    // SAFETY: as for `read`: an element type valid for every bit pattern.
                    // Taking an allocation changes no param, node or tracker state.
                    unsafe { #p::take_declared_allocation(&mut self.exec.parts.get_mut().exec, &alloc) }
                }

                #[doc = #alloc_doc]
                pub fn #name(&self, #var: ::core::primitive::usize) -> #p::Result<#ty> {
                    #p::instance_left(#decl_name, #var, &[#(#live),*])?;
                    #p::Result::Ok(self.exec.parts.nodes.#name[#var])
                }
            }
        });
    let doc = format!(
        "What a launch of [`{exec_ty}`] leaves behind: the allocations the graph makes and does \
         not free. They live until the executable's next launch, which frees them (CUDA's \
         auto-free-on-launch); this value borrows the executable, so it cannot be launched again \
         while the allocations are being read. To keep an allocation beyond that, take it out \
         (`take_<allocation>`), copy it into a `DeviceBuffer` param with a memcpy node, or free \
         it in the graph."
    );
    let launch = quote! {
        /// Launches the graph into `stream`; the allocations it leaves live until the next launch,
        /// readable through the returned value (which borrows the executable).
        ///
        #[doc = #pending_doc]
        pub fn launch(&mut self, #stream: &#p::Arc<#p::CudaStream>) -> #p::Result<#allocs_ty<'_>> {
            #apply
            #exec_mut.launch(#stream)?;
            #p::Result::Ok(#allocs_ty { exec: self })
        }
    };
    let allocs = quote! {
        #(#pass)*
        #[doc = #doc]
        #vis struct #allocs_ty<'a> {
            exec: &'a mut #exec_ty,
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
