//! One update handle type per node, with exactly the updates CUDA allows for its kind (the
//! Programming Guide's "Individual node update" and its limits).
//!
//! A forbidden update is not merely missing: where a user would plausibly try it (`set_enabled`
//! on a host node, `set_2d` on a memset), a hidden method exists whose bound can never hold, so
//! the compiler explains the rule instead of only saying that no such method exists.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::ext::IdentExt;
use syn::spanned::Spanned;
use syn::{Expr, Ident};

use super::{at, docs, local, moved, parts_at, private_at, relocated, Copies, Gen, NodeGen};
use crate::model::kernel_params;
use crate::parse::{KernelOp, NodeOp};

pub fn handle(g: &Gen, node: &NodeGen) -> TokenStream {
    let p = &g.p;
    let (vis, pass, exec_ty, handle) = (&g.model.decl.vis, &g.pass, &g.exec_ty, &node.handle);
    let pos = position(node);
    let node_ref = node_ref(node);
    let runtime = g.runtime_handle(node);
    let (parts, parts_mut, parts_ref) = (parts_at(Span::call_site()), parts_mut(), parts_ref());
    let methods = match &node.decl.op {
        NodeOp::Kernel(k) => {
            let mut m = kernel_methods(g, node, k);
            m.extend(switch_methods(g, node));
            m
        }
        NodeOp::Memset(set) => {
            let mut m = memset_methods(g, node, &set.dst);
            m.extend(switch_methods(g, node));
            m
        }
        NodeOp::Memcpy(copy) => {
            let mut m = memcpy_methods(g, node, &copy.src, &copy.dst, copy.arrow.spans[0]);
            m.extend(switch_methods(g, node));
            m
        }
        NodeOp::Host(_) => {
            let (f, buffers, pos) = (local("f"), local("buffers"), position(node));
            let v = format_ident!("__CgViews");
            let mut m = quote! {
                /// Replaces the closure the node runs, for the next launches
                /// (`cuGraphExecHostNodeSetParams`). The old closure lives until the launches that
                /// may call it are done. The node gets no host buffers from then on.
                pub fn set(&mut self, #f: impl #p::HostCallable) -> #p::Result<()> {
                    #parts_mut
                    let set = #p::set_host(&mut #parts.exec, #node_ref, #p::host_plain(#f));
                    // The handle's values stand once set (see `Tracker::set_by_handle`).
                    set.map(|()| #parts.tracker.set_by_handle(#pos))
                }

                /// Replaces the closure the node runs and the host buffers it gets (`&buffer` to
                /// read, `&mut buffer` to write, or a tuple of them), for the next launches. The
                /// node must stay ordered with every other node that uses those buffers.
                pub fn set_with<#v: #p::HostViews>(
                    &mut self,
                    #buffers: #v,
                    #f: impl for<'v> FnMut(#v::Views<'v>) + Send + 'static,
                ) -> #p::Result<()> {
                    #parts_mut
                    let set = #p::set_host(&mut #parts.exec, #node_ref, #p::host_with(#buffers, #f));
                    // The handle's values stand once set (see `Tracker::set_by_handle`).
                    set.map(|()| #parts.tracker.set_by_handle(#pos))
                }
            };
            m.extend(forbidden_switch(g));
            m
        }
        NodeOp::Child(c) => {
            let (graph, pos) = (plain("graph"), position(node));
            let ty = g.param_type(&c.graph);
            let span = at(ty.map_or_else(proc_macro2::Span::call_site, |t| t.span()));
            let ps = private_at(span);
            let graph_at = plain_at("graph", span);
            let embedded = quote_spanned!(span=> <#ty as #ps::ChildGraph>::graph(#graph_at));
            let set = set_each(
                g,
                node,
                quote!(#parts.exec.set_child_graph(#node_ref, #embedded)),
                &pos,
            );
            let mut m = quote! {
                /// Replaces the embedded graph's contents with `graph`'s, for the next launches
                /// (`cuGraphExecChildGraphNodeSetParams`); it must have the embedded graph's
                /// topology.
                pub fn set(&mut self, #graph: &#ty) -> #p::Result<()> {
                    #parts_mut
                    #set
                }
            };
            m.extend(forbidden_switch(g));
            m
        }
        NodeOp::Capture(c) => {
            let (work, pos) = (plain("work"), position(node));
            let declared = c.uses.is_some();
            let set = set_each(
                g,
                node,
                quote!(#p::set_capture_by_handle(&mut #parts.exec, #node_ref, #work, #declared)),
                &pos,
            );
            let mut m = quote! {
                /// Records `work` and makes the node run it, for the next launches
                /// (`cuGraphExecChildGraphNodeSetParams`); the recorded graph must have the
                /// topology of the node's current one. When the node declares the memory its
                /// work uses, the new work may use only what the current work uses, as it uses
                /// it (to use other declared memory, change the params and `set_params`).
                pub fn set(&mut self, #work: &#p::Capture) -> #p::Result<()> {
                    #parts_mut
                    #set
                }
            };
            m.extend(forbidden_switch(g));
            m
        }
        // A conditional node has nothing CUDA updates (its bodies' nodes have handles).
        // A collective node has nothing CUDA updates (its NCCL work is fixed when it is built).
        NodeOp::Empty(_) | NodeOp::Conditional(_) | NodeOp::Collective(_) => forbidden_switch(g),
        NodeOp::Record(_) | NodeOp::Wait(_) => {
            let (event, pos) = (plain("event"), position(node));
            let (setter, doc) = if matches!(node.decl.op, NodeOp::Record(_)) {
                (
                    quote!(set_event_record),
                    "Sets the event the node records, for the next launches \
                     (`cuGraphExecEventRecordNodeSetEvent`). The replaced event lives until the \
                     launches that may record it are done.",
                )
            } else {
                (
                    quote!(set_event_wait),
                    "Sets the event the node waits for, for the next launches \
                     (`cuGraphExecEventWaitNodeSetEvent`). The replaced event lives until the \
                     launches that may wait for it are done.",
                )
            };
            let mut m = quote! {
                #[doc = #doc]
                pub fn set(&mut self, #event: &#p::Event) -> #p::Result<()> {
                    #parts_mut
                    let set = #parts.exec.#setter(#node_ref, #event);
                    // The handle's values stand once set (see `Tracker::set_by_handle`).
                    set.map(|()| #parts.tracker.set_by_handle(#pos))
                }
            };
            m.extend(forbidden_switch(g));
            m
        }
        NodeOp::SemaphoreSignal(sem) | NodeOp::SemaphoreWait(sem) => {
            let (sems, pos) = (plain("sems"), node.pos);
            let n = proc_macro2::Literal::usize_unsuffixed(sem.sems.len());
            let count = sem.sems.len();
            let (them, each, exactly) = match count {
                1 => ("semaphore".to_owned(), "it", "One semaphore"),
                _ => (format!("{count} semaphores"), "each", "Exactly that many"),
            };
            let (setter, doc) = if matches!(node.decl.op, NodeOp::SemaphoreSignal(_)) {
                (
                    quote!(set_semaphore_signal),
                    format!(
                        "Sets the {them} the node signals and the value {each} is set to, for the \
                         next launches (`cuGraphExecExternalSemaphoresSignalNodeSetParams`). \
                         {exactly}: CUDA cannot change how many semaphores a node signals. The \
                         replaced semaphores stay imported until the launches that may signal \
                         them are done."
                    ),
                )
            } else {
                (
                    quote!(set_semaphore_wait),
                    format!(
                        "Sets the {them} the node waits for and the value {each} must reach, for \
                         the next launches (`cuGraphExecExternalSemaphoresWaitNodeSetParams`). \
                         {exactly}: CUDA cannot change how many semaphores a node waits for. The \
                         replaced semaphores stay imported until the launches that may wait for \
                         them are done."
                    ),
                )
            };
            let mut m = quote! {
                #[doc = #doc]
                pub fn set(&mut self, #sems: [(&#p::ExternalSemaphore, ::core::primitive::u64); #n]) -> #p::Result<()> {
                    #parts_mut
                    let set = #parts.exec.#setter(#node_ref, #sems);
                    set.map(|()| #parts.tracker.set_by_handle(#pos))
                }
            };
            m.extend(forbidden_switch(g));
            m
        }
        NodeOp::Alloc(_) | NodeOp::Free(_) => {
            let mut m = forbidden_memory_update(g);
            m.extend(forbidden_switch(g));
            m
        }
    };
    let node_accessor = match node.copies {
        Some(Copies::Each(k)) => {
            let field = &node.decl.name;
            quote! {
                /// The runtime handles of the node's copies, one per copy of the unrolled body
                /// (in the order they run), for the runtime's own API.
                pub fn node(&self) -> [#runtime; #k] {
                    self.exec.parts.nodes.#field
                }
            }
        }
        _ => quote! {
            /// The node's runtime handle, for the runtime's own API.
            pub fn node(&self) -> #runtime {
                #parts_ref
                #node_ref
            }
        },
    };
    let doc = docs::handle_doc(g, node);
    let handle_name = handle.to_string();
    let body = relocated(
        quote! {
            #methods

            #node_accessor
        },
        node.site,
    );
    // An instance of a repeated node: its index, and its declaration's instances' positions.
    let (index, positions) = match node.rep {
        Some(r) => {
            let (count, positions) = (r.count, g.positions(node));
            (
                quote!(index: ::core::primitive::usize,),
                quote! {
                    const __CG_POSITIONS: [::core::primitive::usize; #count] = [#(#positions),*];
                },
            )
        }
        None => (TokenStream::new(), TokenStream::new()),
    };
    quote! {
        #(#pass)*
        #[doc = #doc]
        #vis struct #handle<'a> {
            exec: &'a mut #exec_ty,
            #index
        }

        #(#pass)*
        impl<'a> #handle<'a> {
            #positions

            #body
        }

        #(#pass)*
        impl #p::fmt::Debug for #handle<'_> {
            fn fmt(&self, f: &mut #p::fmt::Formatter<'_>) -> #p::fmt::Result {
                f.debug_struct(#handle_name).field("index", &#pos).finish_non_exhaustive()
            }
        }
    }
}

fn kernel_methods(g: &Gen, node: &NodeGen, k: &KernelOp) -> TokenStream {
    let node_ref = node_ref(node);
    let p = &g.p;
    let (pos, launch) = (position(node), launch_ref(node));
    let (parts, parts_mut, parts_ref) = (parts_at(Span::call_site()), parts_mut(), parts_ref());
    let args_ty = g.kernel_args_type(k);
    let config = local("config");
    // Arguments one by one when the parameter tuple is written out; else the tuple itself (its
    // arity is only known to the type checker, which reports a mismatch at the declaration).
    let declared = g.kernel_type(k).and_then(kernel_params);
    // A node in each copy of an unrolled body gets the arguments once per copy: cloned.
    let copied = matches!(node.copies, Some(Copies::Each(_)));
    let clone_bound = copied.then(|| quote!(+ #p::Clone));
    let given = |arg: &Ident| match copied {
        true => quote!(#p::Clone::clone(&#arg)),
        false => quote!(#arg),
    };
    let (params, tuple, forward, doc) = match &declared {
        Some(types) if types.len() == k.args.len() => {
            let names = arg_names(&k.args.iter().collect::<Vec<_>>());
            let values = names.iter().map(given);
            (
                quote!(#(#names: impl #p::KernelArg<'static, #types> #clone_bound),*),
                quote!((#(#values,)*)),
                quote!(#(#names),*),
                "the kernel's arguments",
            )
        }
        _ => {
            let args = local("args");
            (
                quote!(#args: impl #p::KernelArgValues<'static, #args_ty> #clone_bound),
                given(&args),
                quote!(#args),
                "the kernel's arguments (as a tuple)",
            )
        }
    };
    // The configuration is the node's once every copy took it.
    let send = set_with(
        g,
        node,
        quote!(#parts.exec.set_kernel_params(#node_ref, #config, #tuple)),
        &pos,
        quote!(#launch = #config;),
    );
    let set_doc = format!("Sets {doc} for the next launches, keeping the node's launch configuration (`cuGraphExecKernelNodeSetParams`). Memory the node stops using is released once the launches that may use it are done.");
    let set_launch_doc = format!("Sets the launch configuration and {doc} for the next launches (`cuGraphExecKernelNodeSetParams`).");
    quote! {
        #[doc = #set_doc]
        pub fn set(&mut self, #params) -> #p::Result<()> {
            #parts_ref
            let #config = #launch;
            self.set_launch(#config, #forward)
        }

        #[doc = #set_launch_doc]
        pub fn set_launch(&mut self, #config: #p::LaunchConfig, #params) -> #p::Result<()> {
            #parts_mut
            #send
        }

        /// The node's launch configuration now.
        pub fn launch_config(&self) -> #p::LaunchConfig {
            #parts_ref
            #launch
        }
    }
}

/// `__cg_parts.nodes.<node>` (`[self.index]` for an instance of a repeated node, `[copy]` for a
/// node in each copy of an unrolled body, in the code [`each_copy`] repeats), located at the
/// node's site (see `NodeGen::site`). The method around binds the executable's parts
/// ([`parts_mut`], [`parts_ref`]).
fn node_ref(node: &NodeGen) -> TokenStream {
    let (s, field) = (at(node.site), moved(&node.decl.name, node.site));
    let parts = parts_at(node.site);
    match (node.rep, node.copies) {
        (Some(_), _) => quote_spanned!(s=> #parts.nodes.#field[self.index]),
        (None, Some(Copies::Each(_))) => {
            let copy = moved(&local("copy"), node.site);
            quote_spanned!(s=> #parts.nodes.#field[#copy])
        }
        _ => quote_spanned!(s=> #parts.nodes.#field),
    }
}

/// The first statement of a handle method that changes the node: the executable's parts, bound
/// to change.
fn parts_mut() -> TokenStream {
    let parts = parts_at(Span::call_site());
    // SAFETY: the methods that bind the parts so set the node through the driver and then tell
    // the tracker (`set_by_handle`; `set_back` when some copies of the node took the change and
    // one refused), or switch the node on or off, which no param, node parameter or tracker
    // state is about.
    quote!(let #parts = unsafe { self.exec.parts.get_mut() };)
}

/// The first statement of a handle method that reads the node: the executable's parts, bound
/// to read.
fn parts_ref() -> TokenStream {
    let parts = parts_at(Span::call_site());
    quote!(let #parts = self.exec.parts.get();)
}

/// `code` (which names the node by [`node_ref`]) once per copy of the node, in order: a node in
/// each copy of an unrolled body is all its copies, which share their params.
fn each_copy(node: &NodeGen, code: TokenStream) -> TokenStream {
    match node.copies {
        Some(Copies::Each(k)) => {
            let copy = moved(&local("copy"), node.site);
            quote!(for #copy in 0..#k { #code })
        }
        _ => code,
    }
}

/// The body of a handle's `set`: `call` (a `Result<()>` expression naming the node by
/// [`node_ref`]) for every copy of the node, then the handle's values stand (see
/// `Tracker::set_by_handle`). A copy that refuses stops it, with its error; if copies before it
/// took the new values, the node goes back to its params, all copies, at the next update (the
/// next launch, or `apply`), as `set_params` would set it (`Tracker::set_back`).
fn set_each(g: &Gen, node: &NodeGen, call: TokenStream, pos: &TokenStream) -> TokenStream {
    set_with(g, node, call, pos, TokenStream::new())
}

/// [`set_each`], running `done` (statements) once every copy took the new values, before they
/// stand.
fn set_with(
    g: &Gen,
    node: &NodeGen,
    call: TokenStream,
    pos: &TokenStream,
    done: TokenStream,
) -> TokenStream {
    let (p, parts) = (&g.p, parts_at(Span::call_site()));
    match node.copies {
        Some(Copies::Each(_)) => {
            let (copy, error) = (moved(&local("copy"), node.site), local("error"));
            let calls = each_copy(
                node,
                quote! {
                    if let #p::Result::Err(#error) = #call {
                        if #copy > 0 {
                            #parts.tracker.set_back(#pos);
                        }
                        return #p::Result::Err(#error);
                    }
                },
            );
            quote! {
                #calls
                #done
                #parts.tracker.set_by_handle(#pos);
                #p::Result::Ok(())
            }
        }
        _ => quote! {
            #call?;
            #done
            // The handle's values stand once set (see `Tracker::set_by_handle`).
            #parts.tracker.set_by_handle(#pos);
            #p::Result::Ok(())
        },
    }
}

/// `__cg_parts.state.launch.<node>`: the launch configuration a kernel node's handle keeps (as
/// [`node_ref`], the method around binds the parts).
fn launch_ref(node: &NodeGen) -> TokenStream {
    let (field, parts) = (&node.decl.name, parts_at(Span::call_site()));
    match node.rep {
        Some(_) => quote!(#parts.state.launch.#field[self.index]),
        None => quote!(#parts.state.launch.#field),
    }
}

/// The node's position in the graph (an instance's, by the handle's index), for the
/// executable's per-node state.
fn position(node: &NodeGen) -> TokenStream {
    match node.rep {
        Some(_) => quote!(Self::__CG_POSITIONS[self.index]),
        None => {
            let pos = node.pos;
            quote!(#pos)
        }
    }
}

/// A handle method's parameter: a plain name, for the docs (no user expression is in scope
/// there, so hygiene has nothing to protect).
fn plain(name: &str) -> Ident {
    Ident::new(name, proc_macro2::Span::call_site())
}

/// The same name, located at `span` for a call whose errors belong there.
fn plain_at(name: &str, span: proc_macro2::Span) -> Ident {
    Ident::new(name, span)
}

/// Names for a kernel handle's arguments: the argument's own name where it is one, else `argN`.
fn arg_names(args: &[&Expr]) -> Vec<Ident> {
    let mut names: Vec<Ident> = Vec::new();
    for (i, arg) in args.iter().enumerate() {
        let own = match arg {
            Expr::Path(path) => path.path.get_ident(),
            _ => None,
        };
        let name = match own {
            // The ident itself (raw if it was: `r#type` stays valid), with the handle's hygiene.
            Some(id)
                if id.unraw() != "config" && !names.iter().any(|n| n.unraw() == id.unraw()) =>
            {
                let mut id = id.clone();
                id.set_span(proc_macro2::Span::call_site());
                id
            }
            _ => plain(&format!("arg{i}")),
        };
        names.push(name);
    }
    names
}

fn memset_methods(g: &Gen, node: &NodeGen, dst_operand: &Expr) -> TokenStream {
    let node_ref = node_ref(node);
    let p = &g.p;
    let pos = position(node);
    let ty = g.param_type(dst_operand);
    let pattern = g.memset_pattern(dst_operand);
    let (dst, value) = (plain("dst"), plain("value"));
    let span = at(ty.map_or_else(|| dst_operand.span(), |t| t.span()));
    let ps = private_at(span);
    let (dst_at, value_at) = (plain_at("dst", span), plain_at("value", span));
    // A node in each copy of an unrolled body gets the destination once per copy: cloned.
    let copied = matches!(node.copies, Some(Copies::Each(_)));
    let (clone_bound, dst_given) = match copied {
        true => (
            quote!(+ #p::Clone),
            quote_spanned!(span=> #ps::Clone::clone(&#dst_at)),
        ),
        false => (TokenStream::new(), quote!(#dst_at)),
    };
    let parts = parts_at(span);
    let set = quote_spanned! {span=>
        #parts.exec.set_memset_params(#node_ref, #ps::MemsetAs::memset_as(#dst_given, #value_at))
    };
    let set = set_each(g, node, set, &pos);
    let parts_mut = parts_mut();
    let (pitch, width, height) = (local("pitch"), local("width"), local("height"));
    let (d, v) = (format_ident!("__CgDst"), format_ident!("__CgValue"));
    quote! {
        /// Sets the destination and the pattern written, for the next launches
        /// (`cuGraphExecMemsetNodeSetParams`): device memory the node's pattern type fills, such as
        /// a `&DeviceBuffer<T>`. Memory the node stops using is released once the launches that
        /// may use it are done.
        pub fn set(&mut self, #dst: impl #p::MemsetAs<#pattern> #clone_bound, #value: #pattern) -> #p::Result<()> {
            #parts_mut
            #set
        }

        #[doc(hidden)]
        pub fn set_2d<#d, #v>(
            &mut self,
            #dst: #d,
            #pitch: ::core::primitive::usize,
            #value: #v,
            #width: ::core::primitive::usize,
            #height: ::core::primitive::usize,
        ) -> #p::Result<()>
        where
            &'a (): #p::CanUpdate2D,
        {
            let _ = (#dst, #pitch, #value, #width, #height);
            match <&'a () as #p::CanUpdate2D>::NEVER {}
        }
    }
}

fn memcpy_methods(
    g: &Gen,
    node: &NodeGen,
    src_operand: &Expr,
    dst_operand: &Expr,
    arrow: proc_macro2::Span,
) -> TokenStream {
    let node_ref = node_ref(node);
    let p = &g.p;
    let pos = position(node);
    let dir = g.memcpy_direction(src_operand, dst_operand, arrow);
    let (src, dst) = (local("src"), local("dst"));
    let (src_pitch, dst_pitch, width, height) = (
        local("src_pitch"),
        local("dst_pitch"),
        local("width"),
        local("height"),
    );
    let (s, d, t) = (
        format_ident!("__CgSrc"),
        format_ident!("__CgDst"),
        format_ident!("__CgElem"),
    );
    let (at_arrow, pa) = (at(arrow), private_at(arrow));
    let bound = quote_spanned!(at_arrow=> (#s, #d): #pa::CopyAs<#dir, #t>,);
    // A node in each copy of an unrolled body gets the operands once per copy: cloned.
    let (bound, operands) = match node.copies {
        Some(Copies::Each(_)) => (
            quote!(#bound #s: #p::Clone, #d: #p::Clone,),
            quote!(#p::Clone::clone(&#src), #p::Clone::clone(&#dst)),
        ),
        _ => (bound, quote!(#src, #dst)),
    };
    let parts = parts_at(Span::call_site());
    let set = set_each(
        g,
        node,
        quote!(#parts.exec.set_memcpy_params(#node_ref, #p::memcpy_as(#operands))),
        &pos,
    );
    let parts_mut = parts_mut();
    quote! {
        /// Sets the source and the destination for the next launches
        /// (`cuGraphExecMemcpyNodeSetParams`). They copy in the node's direction (CUDA cannot
        /// change it), between buffers of equal length: `&DeviceBuffer<T>` and `&HostBuffer<T>`
        /// as the direction says. Memory the node stops using is released once the launches that
        /// may use it are done.
        pub fn set<#t, #s, #d>(&mut self, #src: #s, #dst: #d) -> #p::Result<()>
        where
            #bound
        {
            #parts_mut
            #set
        }

        #[doc(hidden)]
        pub fn set_2d<#s, #d>(
            &mut self,
            #src: #s,
            #src_pitch: ::core::primitive::usize,
            #dst: #d,
            #dst_pitch: ::core::primitive::usize,
            #width: ::core::primitive::usize,
            #height: ::core::primitive::usize,
        ) -> #p::Result<()>
        where
            &'a (): #p::CanUpdate2D,
        {
            let _ = (#src, #src_pitch, #dst, #dst_pitch, #width, #height);
            match <&'a () as #p::CanUpdate2D>::NEVER {}
        }
    }
}

/// Enable/disable, for the kinds CUDA allows it on (kernel, memset, memcpy).
/// A node in each copy of an unrolled body: all its copies, which it enables and disables
/// together (the first tells whether they are enabled).
fn switch_methods(g: &Gen, node: &NodeGen) -> TokenStream {
    let node_ref = node_ref(node);
    let (p, parts) = (&g.p, parts_at(Span::call_site()));
    let (parts_mut, parts_ref) = (parts_mut(), parts_ref());
    let enabled = local("enabled");
    let (set, first) = match node.copies {
        Some(Copies::Each(_)) => {
            // A copy that refuses: the copies before it are switched back.
            let (was, done, error) = (local("was"), local("done"), local("error"));
            let copy = moved(&local("copy"), node.site);
            let field = moved(&node.decl.name, node.site);
            let set = each_copy(
                node,
                quote! {
                    if let #p::Result::Err(#error) = #parts.exec.set_enabled(#node_ref, #enabled) {
                        for #done in 0..#copy {
                            let _ = #parts.exec.set_enabled(#parts.nodes.#field[#done], #was);
                        }
                        return #p::Result::Err(#error);
                    }
                },
            );
            (
                quote! {
                    let #was = #parts.exec.is_enabled(#parts.nodes.#field[0])?;
                    #set
                    #p::Result::Ok(())
                },
                quote!(#parts.nodes.#field[0]),
            )
        }
        _ => (
            quote!(#parts.exec.set_enabled(#node_ref, #enabled)),
            node_ref.clone(),
        ),
    };
    quote! {
        /// Enables or disables the node for the next launches (`cuGraphNodeSetEnabled`). A
        /// disabled node acts as an empty node; params set meanwhile apply once it is enabled.
        pub fn set_enabled(&mut self, #enabled: ::core::primitive::bool) -> #p::Result<()> {
            #parts_mut
            #set
        }

        /// Whether the node is enabled (`cuGraphNodeGetEnabled`).
        pub fn is_enabled(&self) -> #p::Result<::core::primitive::bool> {
            #parts_ref
            #parts.exec.is_enabled(#first)
        }
    }
}

/// `set` on an alloc or free node: a bound that never holds, so a call explains the rule.
fn forbidden_memory_update(g: &Gen) -> TokenStream {
    let p = &g.p;
    let (params, any) = (local("params"), format_ident!("__CgAny"));
    quote! {
        #[doc(hidden)]
        pub fn set<#any>(&mut self, #params: #any) -> #p::Result<()>
        where
            &'a (): #p::CanUpdateMemoryNode,
        {
            let _ = #params;
            match <&'a () as #p::CanUpdateMemoryNode>::NEVER {}
        }
    }
}

/// Enable/disable for the other kinds: bounds that never hold, so a call explains the rule.
fn forbidden_switch(g: &Gen) -> TokenStream {
    let p = &g.p;
    let enabled = local("enabled");
    quote! {
        #[doc(hidden)]
        pub fn set_enabled(&mut self, #enabled: ::core::primitive::bool) -> #p::Result<()>
        where
            &'a (): #p::CanEnableDisable,
        {
            let _ = #enabled;
            match <&'a () as #p::CanEnableDisable>::NEVER {}
        }

        #[doc(hidden)]
        pub fn is_enabled(&self) -> #p::Result<::core::primitive::bool>
        where
            &'a (): #p::CanEnableDisable,
        {
            match <&'a () as #p::CanEnableDisable>::NEVER {}
        }
    }
}
