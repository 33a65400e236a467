//! What differs between node kinds: the runtime handle type, the function computing a node's
//! inputs from the params, the call adding it and the call updating it. The calls adding nodes
//! (and a scope's nodes, loops and conditional bodies) are in `add`, the calls updating them in
//! `update`.
//!
//! Calls whose bounds concern a user's type are written `<UserType as Trait>::method(..)` and
//! located at a user token, so that an unmet bound is reported there (the qualified path is the
//! span rustc reports).

use proc_macro2::{Delimiter, Group, Span, TokenStream};
use quote::{format_ident, quote, quote_spanned, ToTokens};
use syn::spanned::Spanned;
use syn::{Expr, Ident, Type};

use super::{
    at, device_node_key, graph_at, indirect_key, local, moved, params_at, parts_at, private_at,
    Copies, Gen, NodeGen, PER_FN,
};
use crate::model::{device_arg, kernel_params, operand_name, DeviceArg};
use crate::parse::{KernelOp, NodeDecl, NodeOp, RecordOp, WaitOp};
use crate::text::pretty;

mod add;
mod update;

impl Gen<'_> {
    /// The declared type of the param an operand names (checked to be a param), or of its
    /// elements when the operand is one (`w[i]`).
    pub(in crate::expand) fn param_type(&self, operand: &Expr) -> Option<&Type> {
        let (ident, index) = operand_name(operand)?;
        let param = self.model.param(ident)?;
        Some(match index {
            Some(_) => self.model.value_type(param),
            None => &self.model.params[param].ty,
        })
    }

    /// The param (or allocation) an operand names (checked to be one), without its index.
    pub(in crate::expand) fn param_ident<'e>(&self, operand: &'e Expr) -> Option<&'e Ident> {
        operand_name(operand).map(|(ident, _)| ident)
    }

    /// `<params>.<operand>`, or `<params>.<operand>[<index>]` for an element (the index as
    /// written: the eval function binds the loop variable), at the location of `span`.
    pub(in crate::expand) fn operand_place(
        &self,
        operand: &Expr,
        params: &Ident,
        span: Span,
    ) -> TokenStream {
        let s = at(span);
        match operand_name(operand) {
            Some((ident, None)) => quote_spanned!(s=> #params.#ident),
            Some((ident, Some(index))) => quote_spanned!(s=> #params.#ident[#index]),
            None => quote_spanned!(s=> #params.#operand),
        }
    }

    /// The arguments of a node's eval function after the params: its index among its
    /// declaration's instances (a node declared in a loop), then its allocations, conditional
    /// handles and `#[indirect]` keys, fields of `handles` (see [`Gen::handle_args`]).
    pub(super) fn eval_args(
        &self,
        node: &NodeGen,
        handles: &TokenStream,
        index: &Ident,
    ) -> TokenStream {
        let allocs = self.handle_args(node, handles);
        match node.rep {
            Some(_) => quote!(, #index #allocs),
            None => allocs,
        }
    }

    /// The declared type of a kernel node's kernel param.
    pub(in crate::expand) fn kernel_type(&self, k: &KernelOp) -> Option<&Type> {
        self.model
            .param(&k.kernel)
            .map(|i| &self.model.params[i].ty)
    }

    /// `Kernel<A>`'s `A`: as declared when written out (`Kernel<(u32, f32)>`), else projected
    /// from the param's type, located at the kernel's name in the node.
    pub(in crate::expand) fn kernel_args_type(&self, k: &KernelOp) -> TokenStream {
        let ty = self.kernel_type(k);
        match ty.and_then(kernel_params) {
            Some(types) => quote!((#(#types,)*)),
            None => {
                let (s, p) = (at(k.kernel.span()), private_at(k.kernel.span()));
                quote_spanned!(s=> <#ty as #p::KernelType>::Args)
            }
        }
    }

    /// The alloc node an operand names (checked to be a param or an allocation): its first
    /// instance, for a repeated one.
    pub(super) fn operand_alloc(&self, operand: &Expr) -> Option<&NodeGen<'_>> {
        let ident = self.param_ident(operand)?;
        if self.model.param(ident).is_some() || !self.model.names_allocation(ident) {
            return None;
        }
        self.decl_nodes()
            .find(|n| crate::model::name_of(&n.decl.name) == crate::model::name_of(ident))
    }

    /// The type of a memory operand: its param's declared type, or `GraphAlloc<T>` for an
    /// allocation.
    pub(in crate::expand) fn operand_type(&self, operand: &Expr) -> TokenStream {
        match self.operand_alloc(operand) {
            Some(alloc) => self.alloc_type(alloc),
            None => {
                let ty = self.param_type(operand);
                quote!(#ty)
            }
        }
    }

    /// `&<operand>` in an eval function: the param (from `params`) or the allocation (an
    /// argument), located at `span`.
    pub(super) fn operand_ref(&self, operand: &Expr, params: &Ident, span: Span) -> TokenStream {
        let s = at(span);
        match (self.operand_alloc(operand), operand_name(operand)) {
            (Some(_), Some((ident, None))) => quote_spanned!(s=> &#ident),
            (Some(_), Some((ident, Some(index)))) => quote_spanned!(s=> &#ident[#index]),
            _ => {
                let place = self.operand_place(operand, params, span);
                quote_spanned!(s=> &#place)
            }
        }
    }

    /// `GraphAlloc<T>` of an alloc node.
    pub(in crate::expand) fn alloc_type(&self, alloc: &NodeGen) -> TokenStream {
        let NodeOp::Alloc(a) = &alloc.decl.op else {
            return quote!(());
        };
        let elem = &a.elem;
        let (s, p) = (at(elem.span()), private_at(elem.span()));
        quote_spanned!(s=> #p::GraphAlloc<#elem>)
    }

    /// The pattern type a memset node writes, located at its destination.
    pub(in crate::expand) fn memset_pattern(&self, dst: &Expr) -> TokenStream {
        let ty = self.operand_type(dst);
        let (s, p) = (at(dst.span()), private_at(dst.span()));
        quote_spanned!(s=> <#ty as #p::MemsetTarget>::Pattern)
    }

    /// The direction of a memcpy between two operands, located at its arrow.
    pub(in crate::expand) fn memcpy_direction(
        &self,
        src: &Expr,
        dst: &Expr,
        arrow: Span,
    ) -> TokenStream {
        let (src, dst) = (self.operand_type(src), self.operand_type(dst));
        let (s, p) = (at(arrow), private_at(arrow));
        quote_spanned!(s=> <(#src, #dst) as #p::CopyPair>::Dir)
    }

    /// The allocations a node names, as eval-function parameters (`h: GraphAlloc<T>`, under the
    /// user's own names, so the user's expressions see them).
    ///
    /// A repeated alloc node's allocations come as an array, by reference: the expression
    /// indexes it (`t[layer]`).
    pub(super) fn alloc_params(&self, node: &NodeGen) -> TokenStream {
        let params = node.allocs.iter().map(|&pos| {
            let alloc = &self.nodes[pos];
            let (name, ty) = (&alloc.decl.name, self.alloc_type(alloc));
            match alloc.rep {
                Some(r) => {
                    let count = r.count;
                    quote!(#name: &[#ty; #count],)
                }
                None => quote!(#name: #ty,),
            }
        });
        quote!(#(#params)*)
    }

    /// The conditional handles a node names, as eval-function parameters (under the handles'
    /// declared names, so the user's expressions see them).
    pub(super) fn handle_params(&self, node: &NodeGen) -> TokenStream {
        let p = &self.p;
        let params = node.handles.iter().map(|&pos| {
            let name = handle_name(&self.nodes[pos]);
            quote!(#name: #p::ConditionalHandle,)
        });
        // `#[indirect]` params: the node gets their keys, under the params' names.
        let indirects = node.indirects.iter().map(|&i| {
            let (name, ty) = (&self.model.params[i].name, &self.model.params[i].ty);
            quote!(#name: #p::Indirect<#ty>,)
        });
        // `device_node(x)` arguments: the device handles of those nodes.
        let dev_nodes = node.dev_nodes.iter().map(|&pos| {
            let target = &self.nodes[pos];
            let (key, ty) = (
                device_node_key(&target.decl.name),
                self.device_node_type(target),
            );
            quote!(#key: #ty,)
        });
        quote!(#(#params)* #(#indirects)* #(#dev_nodes)*)
    }

    /// The type of a `#[device_updatable]` kernel node's device handle.
    pub(in crate::expand) fn device_node_type(&self, node: &NodeGen) -> TokenStream {
        let p = &self.p;
        match &node.decl.op {
            NodeOp::Kernel(k) => {
                let args = self.kernel_args_type(k);
                quote!(#p::device_launch::DeviceKernelNode<#args>)
            }
            _ => quote!(()),
        }
    }

    /// A kernel argument as the eval function computes it: `device_node(x)` is the handle it
    /// gets for `x`, `param_offset(x, i)` a constant (checked where the declaration compiles:
    /// a pointer or handle parameter fails the build), anything else the user's expression.
    pub(super) fn kernel_arg(&self, arg: &Expr) -> TokenStream {
        let target = |x: &Ident| {
            self.nodes
                .iter()
                .find(|n| crate::model::name_of(&n.decl.name) == crate::model::name_of(x))
        };
        match device_arg(arg) {
            Some(DeviceArg::Node(x)) => {
                let key = device_node_key(x);
                quote_spanned!(at(arg.span())=> #key)
            }
            Some(DeviceArg::Offset(x, i)) => {
                let Some(NodeOp::Kernel(k)) = target(x).map(|n| &n.decl.op) else {
                    let (s, p) = (at(arg.span()), private_at(arg.span()));
                    return quote_spanned!(s=> const { #p::device_param_offset::<()>(#i) });
                };
                let args = self.kernel_args_type(k);
                // Written out, the macro judged the parameter (`check::device_update`); behind an
                // alias, rustc does, at the user's index, naming the parameter.
                let (s, p) = (at(i.span()), private_at(i.span()));
                let kernel = match self.model.param(&k.kernel) {
                    Some(index) => format!(
                        "`{}: {}`",
                        self.model.params[index].name,
                        pretty(self.model.params[index].ty.to_token_stream())
                    ),
                    None => format!("`{}`", pretty(k.kernel.to_token_stream())),
                };
                let (node, n) = (crate::model::written(x), pretty(i.to_token_stream()));
                let past = format!(
                    "`param_offset({node}, {n})`: the kernel of node `{node}` ({kernel}) has no \
                     parameter {n} (indices count from 0); give the index of one of its value \
                     parameters"
                );
                let memory = format!(
                    "`param_offset({node}, {n})`: parameter {n} of the kernel of node `{node}` \
                     ({kernel}) is memory or a handle, which a device-side update may not \
                     change: `cudaGraphKernelNodeSetParam` changes value parameters only, and the \
                     memory a node uses stays what the host gave it; give the index of a value \
                     parameter (a number, `bool`, a `KernelParam` type), or change the memory \
                     from the host, with the executable's setters"
                );
                let (fail_past, fail_memory) = (
                    quote_spanned!(s=> #p::fail(#past)),
                    quote_spanned!(s=> #p::fail(#memory)),
                );
                quote_spanned!(s=> {
                    const _: () = if !#p::device_param_exists::<#args>(#i) {
                        #fail_past
                    } else if !#p::device_param_settable::<#args>(#i) {
                        #fail_memory
                    };
                    const { #p::device_param_offset::<#args>(#i) }
                })
            }
            _ => self.user(arg.to_token_stream()),
        }
    }

    /// The allocations, conditional handles and `#[indirect]` keys a node names, as arguments of
    /// its eval function: fields of `handles`, the struct of the graph's handles (`__cg_parts.nodes` in
    /// the executable, the struct being filled in `build`).
    pub(super) fn handle_args(&self, node: &NodeGen, handles: &TokenStream) -> TokenStream {
        let s = at(node.site);
        let allocs = node.allocs.iter().map(|&pos| {
            let alloc = &self.nodes[pos];
            let field = moved(&alloc.decl.name, node.site);
            match alloc.rep {
                Some(_) => quote_spanned!(s=> &#handles.#field),
                None => quote_spanned!(s=> #handles.#field),
            }
        });
        let fields = node
            .handles
            .iter()
            .map(|&pos| handle_name(&self.nodes[pos]))
            .cloned()
            .chain(
                node.indirects
                    .iter()
                    .map(|&i| indirect_key(&self.model.params[i].name)),
            )
            .chain(
                node.dev_nodes
                    .iter()
                    .map(|&pos| device_node_key(&self.nodes[pos].decl.name)),
            )
            .map(|field| {
                let field = moved(&field, node.site);
                quote_spanned!(s=> #handles.#field)
            });
        let fields = allocs.chain(fields);
        quote!(#(, #fields)*)
    }

    /// The runtime handle type of a node.
    /// (Located at the operand that fixes it, so that a type error about it is reported there.)
    pub(in crate::expand) fn runtime_handle(&self, node: &NodeGen) -> TokenStream {
        let p = &self.p;
        match &node.decl.op {
            NodeOp::Kernel(k) => {
                let (args, s, p) = (
                    self.kernel_args_type(k),
                    at(k.kernel.span()),
                    private_at(k.kernel.span()),
                );
                quote_spanned!(s=> #p::KernelNode<#args>)
            }
            NodeOp::Memset(m) => {
                let (pattern, s, p) = (
                    self.memset_pattern(&m.dst),
                    at(m.dst.span()),
                    private_at(m.dst.span()),
                );
                quote_spanned!(s=> #p::MemsetNode<#pattern>)
            }
            NodeOp::Memcpy(m) => {
                let dir = self.memcpy_direction(&m.src, &m.dst, m.arrow.span());
                let (s, p) = (at(m.arrow.span()), private_at(m.arrow.span()));
                quote_spanned!(s=> #p::MemcpyNode<#dir>)
            }
            NodeOp::Alloc(_) => self.alloc_type(node),
            // The count is part of the type: CUDA cannot change it in an update.
            NodeOp::SemaphoreSignal(sem) => {
                let n = proc_macro2::Literal::usize_unsuffixed(sem.sems.len());
                quote!(#p::SemaphoreSignalNode<#n>)
            }
            NodeOp::SemaphoreWait(sem) => {
                let n = proc_macro2::Literal::usize_unsuffixed(sem.sems.len());
                quote!(#p::SemaphoreWaitNode<#n>)
            }
            op => {
                let handle = op
                    .kind()
                    .handle
                    .expect("the other kinds' handles are untyped");
                let handle = format_ident!("{handle}");
                quote!(#p::#handle)
            }
        }
    }

    /// `NodeKind::...` of a node.
    pub(in crate::expand) fn kind(&self, node: &NodeGen) -> TokenStream {
        let kind = format_ident!("{}", node.decl.op.kind().node_kind);
        let (s, p) = (
            at(node.decl.op.keyword_span()),
            private_at(node.decl.op.keyword_span()),
        );
        quote_spanned!(s=> #p::NodeKind::#kind)
    }

    /// The function computing a node's inputs from the params (none for an empty node). It holds
    /// the only copy of the user's expressions, shared by `build` and `set_params`, so that each
    /// type error is reported once.
    ///
    /// A node declared in a loop has one eval function for all its instances, which takes the
    /// instance's index (the loop variable's value) after the params.
    pub(in crate::expand) fn eval_fn(&self, node: &NodeGen) -> TokenStream {
        let p = &self.p;
        let params = params_at(Span::call_site());
        let params_ty = &self.params_ty;
        let index = local("index");
        let bindings = self.bindings(&params, node.decl, node.rep.map(|r| (r.var, &index)));
        let eval = &node.eval;
        let life = syn::Lifetime::new("'__cg_p", Span::mixed_site());
        let (ret, body) = match &node.decl.op {
            NodeOp::Kernel(k) => {
                let args_ty = self.kernel_args_type(k);
                let config = self.user(self.launch_config(k));
                let mut tuple = Group::new(Delimiter::Parenthesis, self.kernel_arg_values(k));
                tuple.set_span(k.paren.span.join());
                let (kernel, ty) = (&k.kernel, self.kernel_type(k));
                let (s, ps, params) = (
                    at(kernel.span()),
                    private_at(kernel.span()),
                    params_at(kernel.span()),
                );
                let kernel_ref =
                    quote_spanned!(s=> <#ty as #ps::KernelType>::as_kernel(&#params.#kernel));
                let (config_local, args_local) = (local("config"), local("args"));
                let args_ret = self.kernel_args_return(k, &life);
                (
                    quote_spanned!(s=> (&#life #ps::Kernel<#args_ty>, #ps::LaunchConfig, #args_ret)),
                    quote! {
                        let #config_local = #config;
                        let #args_local = #tuple;
                        (#kernel_ref, #config_local, #args_local)
                    },
                )
            }
            NodeOp::Memset(m) => {
                let (ty, pattern) = (self.operand_type(&m.dst), self.memset_pattern(&m.dst));
                let (s, ps, params) = (
                    at(m.dst.span()),
                    private_at(m.dst.span()),
                    params_at(m.dst.span()),
                );
                let (dst, value) = (
                    self.operand_ref(&m.dst, &params, m.dst.span()),
                    self.user(m.value.to_token_stream()),
                );
                (
                    quote_spanned!(s=> #ps::Memset<'static, #pattern>),
                    quote_spanned!(s=> <#ty as #ps::MemsetTarget>::memset(#dst, #value)),
                )
            }
            NodeOp::Memcpy(m) => {
                let dir = self.memcpy_direction(&m.src, &m.dst, m.arrow.span());
                let (src_ty, dst_ty) = (self.operand_type(&m.src), self.operand_type(&m.dst));
                let (s, ps, params) = (
                    at(m.arrow.span()),
                    private_at(m.arrow.span()),
                    params_at(m.arrow.span()),
                );
                let (src, dst) = (
                    self.operand_ref(&m.src, &params, m.arrow.span()),
                    self.operand_ref(&m.dst, &params, m.arrow.span()),
                );
                (
                    quote_spanned!(s=> #ps::Memcpy<'static, #dir>),
                    quote_spanned!(s=> <(#src_ty, #dst_ty) as #ps::CopyPair>::memcpy(#src, #dst)),
                )
            }
            NodeOp::Host(h) => {
                let f = self.user(h.f.to_token_stream());
                let (s, ps) = (at(h.f.span()), private_at(h.f.span()));
                let body = if h.buffers.is_empty() {
                    quote_spanned!(s=> #ps::host_plain(#f))
                } else {
                    let views = h.buffers.iter().map(|b| {
                        let name = &b.name;
                        let (bs, bp, params) = (
                            at(name.span()),
                            private_at(name.span()),
                            params_at(name.span()),
                        );
                        let place = match &b.index {
                            Some(index) => {
                                let index = &index.expr;
                                quote_spanned!(bs=> #params.#name[#index])
                            }
                            None => quote_spanned!(bs=> #params.#name),
                        };
                        match b.mutability {
                            Some(_) => quote_spanned!(bs=> #bp::writes(&#place)),
                            None => quote_spanned!(bs=> &#place),
                        }
                    });
                    // One buffer goes alone (the closure gets a slice), several as a tuple.
                    let views: Vec<_> = views.collect();
                    match views.as_slice() {
                        [one] => quote_spanned!(s=> #ps::host_with(#one, #f)),
                        _ => quote_spanned!(s=> #ps::host_with((#(#views,)*), #f)),
                    }
                };
                (quote!(#p::HostWith), body)
            }
            NodeOp::Child(c) => {
                let (s, ps, params) = (
                    at(c.graph.span()),
                    private_at(c.graph.span()),
                    params_at(c.graph.span()),
                );
                let graph = self.operand_place(&c.graph, &params, c.graph.span());
                (
                    quote!(&#life #p::Graph<'static>),
                    quote_spanned!(s=> #ps::ChildGraph::graph(&#graph)),
                )
            }
            NodeOp::Capture(c) => {
                let (s, ps, params) = (
                    at(c.work.span()),
                    private_at(c.work.span()),
                    params_at(c.work.span()),
                );
                let work = self.operand_place(&c.work, &params, c.work.span());
                (
                    quote!(&#life #p::Capture),
                    quote_spanned!(s=> #ps::CaptureParam::capture(&#work)),
                )
            }
            NodeOp::Record(RecordOp { event, .. }) | NodeOp::Wait(WaitOp { event, .. }) => {
                let (s, ps, params) = (
                    at(event.span()),
                    private_at(event.span()),
                    params_at(event.span()),
                );
                let event = self.operand_place(event, &params, event.span());
                (
                    quote!(&#life #p::Event),
                    quote_spanned!(s=> #ps::EventParam::event(&#event)),
                )
            }
            NodeOp::Alloc(a) => {
                let (s, ps) = (at(a.len.span()), private_at(a.len.span()));
                let len = self.user(a.len.to_token_stream());
                (
                    quote!(::core::primitive::usize),
                    quote_spanned!(s=> #ps::alloc_len(#len)),
                )
            }
            NodeOp::SemaphoreSignal(sem) | NodeOp::SemaphoreWait(sem) => {
                let n = proc_macro2::Literal::usize_unsuffixed(sem.sems.len());
                let pairs = sem.sems.iter().map(|(operand, value)| {
                    let ident = self.param_ident(operand);
                    let (s, ps, params) = (
                        at(operand.span()),
                        private_at(operand.span()),
                        params_at(operand.span()),
                    );
                    let sem = quote_spanned!(s=> #ps::SemaphoreParam::semaphore(&#params.#ident));
                    let (s, ps) = (at(value.span()), private_at(value.span()));
                    let value = quote_spanned!(s=> #ps::semaphore_value(#value));
                    quote!((#sem, #value))
                });
                (
                    quote!([(&#life #p::ExternalSemaphore, ::core::primitive::u64); #n]),
                    quote!([#(#pairs),*]),
                )
            }
            NodeOp::Collective(c) => self.collective_call(c, &life),
            // A conditional node's one expression, its handle's default, reads no param.
            NodeOp::Empty(_) | NodeOp::Free(_) | NodeOp::Conditional(_) => {
                return TokenStream::new()
            }
        };
        let allocs = self.alloc_params(node);
        let handles = self.handle_params(node);
        let index = node.rep.map(|_| quote!(#index: ::core::primitive::usize,));
        quote! {
            #[allow(non_snake_case, unused_variables, clippy::type_complexity, clippy::needless_lifetimes)]
            fn #eval<#life>(#params: &#life #params_ty, #index #allocs #handles) -> #ret {
                #bindings
                #body
            }
        }
    }

    /// A kernel node's arguments as the eval function returns them. When the kernel's parameter
    /// tuple is written out, each argument is converted by its own call located at the argument,
    /// into a concrete type: a mismatch is reported there, once. Otherwise the tuple goes as
    /// written, and the type checker checks it as a whole at the kernel's name.
    pub(super) fn kernel_arg_values(&self, k: &KernelOp) -> TokenStream {
        match self.kernel_type(k).and_then(kernel_params) {
            Some(types) if types.len() == k.args.len() => {
                let args = k.args.iter().zip(types).map(|(arg, ty)| {
                    let (s, p) = (at(arg.span()), private_at(arg.span()));
                    let value = self.kernel_arg(arg);
                    quote_spanned!(s=> #p::KernelArgPart::<'static, #ty, _>::new(#value))
                });
                quote!(#(#args,)*)
            }
            _ => {
                let args = k.args.iter().map(|arg| self.kernel_arg(arg));
                quote!(#(#args,)*)
            }
        }
    }

    /// The type of a kernel node's arguments as its eval function returns them (see
    /// [`Gen::kernel_arg_values`]).
    pub(super) fn kernel_args_return(&self, k: &KernelOp, life: &syn::Lifetime) -> TokenStream {
        let p = &self.p;
        match self.kernel_type(k).and_then(kernel_params) {
            Some(types) if types.len() == k.args.len() => {
                quote!((#(impl #p::KernelArg<'static, #types> + #life,)*))
            }
            _ => {
                let args_ty = self.kernel_args_type(k);
                let (s, p) = (at(k.kernel.span()), private_at(k.kernel.span()));
                quote_spanned!(s=> impl #p::KernelArgValues<'static, #args_ty> + #life)
            }
        }
    }

    /// `<<<...>>>` as a `LaunchConfig` expression.
    /// (Located at the `<<<`.)
    pub(super) fn launch_config(&self, k: &KernelOp) -> TokenStream {
        let (s, p) = (at(k.open), private_at(k.open));
        let c: Vec<&Expr> = k.config.iter().collect();
        match c.as_slice() {
            [config] => quote_spanned!(s=> #p::launch_config(#config)),
            [grid, block] => quote_spanned!(s=> #p::launch(#grid, #block, 0)),
            [grid, block, shared, ..] => quote_spanned!(s=> #p::launch(#grid, #block, #shared)),
            [] => quote_spanned!(s=> #p::launch_config(())),
        }
    }
}

/// `&mut Vec<NodeId>`, the ids of the nodes `build` added, by position (in a declaration with
/// loops), at the location of `span`.
pub(super) fn ids_at(span: Span) -> Ident {
    moved(&local("ids"), span)
}

/// `&mut <Graph>Nodes`, the struct of node handles `build` fills, at the location of `span`.
pub(super) fn nodes_at(span: Span) -> Ident {
    moved(&local("nodes"), span)
}

/// `&mut <Graph>Launch`, the struct of kernels' launch configurations `build` fills, at the
/// location of `span`.
pub(super) fn launches_at(span: Span) -> Ident {
    moved(&local("launches"), span)
}

/// The name a conditional node's handle is declared under.
pub(super) fn handle_name<'n>(node: &'n NodeGen) -> &'n Ident {
    match &node.decl.op {
        NodeOp::Conditional(c) => &c.handle,
        _ => &node.decl.name,
    }
}

/// Whether a kernel node is declared `#[waits]` (checked to be a kernel node by the rules).
fn waits_declared(node: &NodeDecl) -> bool {
    matches!(node.op, NodeOp::Kernel(_)) && node.attrs.iter().any(|a| a.path().is_ident("waits"))
}
