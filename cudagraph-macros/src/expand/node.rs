//! What differs between node kinds: the runtime handle type, the function computing a node's
//! inputs from the params, the call adding it and the call updating it.
//!
//! Calls whose bounds concern a user's type are written `<UserType as Trait>::method(..)` and
//! located at a user token, so that an unmet bound is reported there (the qualified path is the
//! span rustc reports).

use proc_macro2::{Delimiter, Group, Span, TokenStream};
use quote::{format_ident, quote, quote_spanned, ToTokens};
use syn::spanned::Spanned;
use syn::{Expr, Ident, Type};

use super::{
    at, device_node_key, graph_at, indirect_key, local, moved, params_at, private_at, Gen, NodeGen,
    PER_FN,
};
use crate::model::{device_arg, kernel_params, operand_name, DeviceArg};
use crate::parse::{
    CaptureOp, CollectiveKind, CollectiveOp, CondKind, CondOp, EdgeKind, KernelOp, NodeDecl,
    NodeOp, RecordOp, WaitOp,
};

impl Gen<'_> {
    /// The declared type of the param an operand names (checked to be a param), or of its
    /// elements when the operand is one (`w[i]`).
    pub(super) fn param_type(&self, operand: &Expr) -> Option<&Type> {
        let (ident, index) = operand_name(operand)?;
        let param = self.model.param(ident)?;
        Some(match index {
            Some(_) => self.model.value_type(param),
            None => &self.model.params[param].ty,
        })
    }

    /// The param (or allocation) an operand names (checked to be one), without its index.
    pub(super) fn param_ident<'e>(&self, operand: &'e Expr) -> Option<&'e Ident> {
        operand_name(operand).map(|(ident, _)| ident)
    }

    /// `<params>.<operand>`, or `<params>.<operand>[<index>]` for an element (the index as
    /// written: the eval function binds the loop variable), at the location of `span`.
    pub(super) fn operand_place(&self, operand: &Expr, params: &Ident, span: Span) -> TokenStream {
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
    fn eval_args(&self, node: &NodeGen, handles: &TokenStream, index: &Ident) -> TokenStream {
        let allocs = self.handle_args(node, handles);
        match node.rep {
            Some(_) => quote!(, #index #allocs),
            None => allocs,
        }
    }

    /// The declared type of a kernel node's kernel param.
    pub(super) fn kernel_type(&self, k: &KernelOp) -> Option<&Type> {
        self.model
            .param(&k.kernel)
            .map(|i| &self.model.params[i].ty)
    }

    /// `Kernel<A>`'s `A`: as declared when written out (`Kernel<(u32, f32)>`), else projected
    /// from the param's type, located at the kernel's name in the node.
    pub(super) fn kernel_args_type(&self, k: &KernelOp) -> TokenStream {
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
    fn operand_alloc(&self, operand: &Expr) -> Option<&NodeGen<'_>> {
        let ident = self.param_ident(operand)?;
        if self.model.param(ident).is_some() || !self.model.names_allocation(ident) {
            return None;
        }
        self.decl_nodes()
            .find(|n| crate::model::name_of(&n.decl.name) == crate::model::name_of(ident))
    }

    /// The type of a memory operand: its param's declared type, or `GraphAlloc<T>` for an
    /// allocation.
    pub(super) fn operand_type(&self, operand: &Expr) -> TokenStream {
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
    fn operand_ref(&self, operand: &Expr, params: &Ident, span: Span) -> TokenStream {
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
    pub(super) fn alloc_type(&self, alloc: &NodeGen) -> TokenStream {
        let NodeOp::Alloc(a) = &alloc.decl.op else {
            return quote!(());
        };
        let elem = &a.elem;
        let (s, p) = (at(elem.span()), private_at(elem.span()));
        quote_spanned!(s=> #p::GraphAlloc<#elem>)
    }

    /// The pattern type a memset node writes, located at its destination.
    pub(super) fn memset_pattern(&self, dst: &Expr) -> TokenStream {
        let ty = self.operand_type(dst);
        let (s, p) = (at(dst.span()), private_at(dst.span()));
        quote_spanned!(s=> <#ty as #p::MemsetTarget>::Pattern)
    }

    /// The direction of a memcpy between two operands, located at its arrow.
    pub(super) fn memcpy_direction(&self, src: &Expr, dst: &Expr, arrow: Span) -> TokenStream {
        let (src, dst) = (self.operand_type(src), self.operand_type(dst));
        let (s, p) = (at(arrow), private_at(arrow));
        quote_spanned!(s=> <(#src, #dst) as #p::CopyPair>::Dir)
    }

    /// The allocations a node names, as eval-function parameters (`h: GraphAlloc<T>`, under the
    /// user's own names, so the user's expressions see them).
    ///
    /// A repeated alloc node's allocations come as an array, by reference: the expression
    /// indexes it (`t[layer]`).
    fn alloc_params(&self, node: &NodeGen) -> TokenStream {
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
    fn handle_params(&self, node: &NodeGen) -> TokenStream {
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
    pub(super) fn device_node_type(&self, node: &NodeGen) -> TokenStream {
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
    fn kernel_arg(&self, arg: &Expr) -> TokenStream {
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
                let args = match target(x).map(|n| &n.decl.op) {
                    Some(NodeOp::Kernel(k)) => self.kernel_args_type(k),
                    _ => quote!(()),
                };
                let (s, p) = (at(arg.span()), private_at(arg.span()));
                quote_spanned!(s=> const { #p::device_param_offset::<#args>(#i) })
            }
            _ => self.user(arg.to_token_stream()),
        }
    }

    /// The allocations, conditional handles and `#[indirect]` keys a node names, as arguments of
    /// its eval function: fields of `handles`, the struct of the graph's handles (`self.nodes` in
    /// the executable, the struct being filled in `build`).
    fn handle_args(&self, node: &NodeGen, handles: &TokenStream) -> TokenStream {
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
    pub(super) fn runtime_handle(&self, node: &NodeGen) -> TokenStream {
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
    pub(super) fn kind(&self, node: &NodeGen) -> TokenStream {
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
    pub(super) fn eval_fn(&self, node: &NodeGen) -> TokenStream {
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
                (quote!(usize), quote_spanned!(s=> #ps::alloc_len(#len)))
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
                    quote!([(&#life #p::ExternalSemaphore, u64); #n]),
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
        let index = node.rep.map(|_| quote!(#index: usize,));
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
    fn kernel_arg_values(&self, k: &KernelOp) -> TokenStream {
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
    fn kernel_args_return(&self, k: &KernelOp, life: &syn::Lifetime) -> TokenStream {
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
    fn launch_config(&self, k: &KernelOp) -> TokenStream {
        let (s, p) = (at(k.open), private_at(k.open));
        let c: Vec<&Expr> = k.config.iter().collect();
        match c.as_slice() {
            [config] => quote_spanned!(s=> #p::launch_config(#config)),
            [grid, block] => quote_spanned!(s=> #p::launch(#grid, #block, 0)),
            [grid, block, shared, ..] => quote_spanned!(s=> #p::launch(#grid, #block, #shared)),
            [] => quote_spanned!(s=> #p::launch_config(())),
        }
    }

    /// In `build`: adds the node to the graph being built after its dependencies, writing its
    /// handle (and a kernel's launch configuration) into the structs being filled. Code for
    /// the nodes in a conditional node's bodies goes into `fns`. Located at the node's site
    /// (see [`NodeGen::site`]).
    ///
    /// An instance of a node declared in a loop is added by the loop's function (see
    /// [`Gen::add_scope`]), at index `index` of its declaration's instances: its dependencies
    /// come from the graph's table of them (`__CG_DEPS`), its name from `TOPOLOGY`. In a
    /// declaration with loops every node's id is kept by position (`ids`), for those tables.
    fn add_node(&self, node: &NodeGen, fns: &mut Vec<TokenStream>) -> TokenStream {
        let site = node.site;
        let s = at(site);
        let (graph, params, nodes) = (graph_at(site), params_at(site), nodes_at(site));
        let (graph_ty, eval, field) = (
            moved(self.graph, site),
            moved(&node.eval, site),
            moved(&node.decl.name, site),
        );
        let (index, ids, pos) = (
            moved(&local("index"), site),
            ids_at(site),
            moved(&local("pos"), site),
        );
        let p = private_at(site);
        // Where the node's handle goes: `nodes.x`, or `nodes.x[index]` for an instance.
        let slot = |base: &Ident| match node.rep {
            Some(_) => quote_spanned!(s=> #base.#field[#index]),
            None => quote_spanned!(s=> #base.#field),
        };
        let (handle, name, deps, before) = match node.rep {
            Some(_) => (
                slot(&nodes),
                quote_spanned!(s=> #graph_ty::TOPOLOGY.nodes[#pos].0),
                quote_spanned!(s=> &#p::deps_at(#ids, #graph_ty::__CG_DEPS, #graph_ty::__CG_DEP_START)),
                quote_spanned!(s=> let #pos = #ids.len();),
            ),
            None => {
                let name = &node.name;
                let deps = node.deps.iter().map(|&d| {
                    let dep = &self.nodes[d];
                    let field = moved(&dep.decl.name, site);
                    match dep.rep {
                        Some(r) => {
                            let k = r.index;
                            quote_spanned!(s=> #nodes.#field[#k].id())
                        }
                        None => quote_spanned!(s=> #nodes.#field.id()),
                    }
                });
                (
                    slot(&nodes),
                    quote!(#name),
                    quote_spanned!(s=> &[#(#deps),*]),
                    TokenStream::new(),
                )
            }
        };
        // The node's id, by position, for the loops' dependencies (top-level nodes only: a loop
        // is never in a body, nor depends on a body's node).
        let record = (self.repeats && node.scope.is_none())
            .then(|| quote_spanned!(s=> #ids.push(#handle.id());));
        let allocs = self.eval_args(node, &nodes.to_token_stream(), &index);
        let add = match &node.decl.op {
            NodeOp::Kernel(_) => {
                let (k, c, a) = (
                    moved(&local("kernel"), site),
                    moved(&local("config"), site),
                    moved(&local("args"), site),
                );
                let (kernel, config, args) = (&k, &c, &a);
                let p = private_at(site);
                let launch = slot(&launches_at(site));
                // `#[waits]`: the kernel must say so too (`Kernel::waits_for_dependency`), the
                // promise the graph's own memory checks rely on.
                let waits = waits_declared(node.decl)
                    .then(|| quote_spanned!(s=> #p::declared_waits(#k, #name)?;));
                let added = moved(&local("added"), site);
                // Edges with data join the node once it exists, in declared order (never a
                // loop's node: `check::repetition` refuses them there).
                let edges = node.data_deps.iter().map(|&(d, kind)| {
                    let dep = moved(&self.nodes[d].decl.name, site);
                    let kind = match kind {
                        EdgeKind::Programmatic => quote_spanned!(s=> Programmatic),
                        _ => quote_spanned!(s=> LaunchOrder),
                    };
                    quote_spanned! {s=>
                        #p::add_edge::<()>(#graph, #nodes.#dep.id(), #added.id(), #p::EdgeKind::#kind)?;
                    }
                });
                // `#[device_updatable]` (checked: a kernel at the top of the graph, in no loop):
                // its device handle goes beside its handle, for the kernels that take it.
                if node.device_updatable {
                    let dev = moved(&local("device_node"), site);
                    let key = moved(&device_node_key(&node.decl.name), site);
                    return quote_spanned! {s=>
                        (#handle, #nodes.#key, #launch) = #p::add_node(#graph, #name, |#graph| {
                            let (#kernel, #config, #args) = #graph_ty::#eval(#params #allocs);
                            #waits
                            let (#added, #dev) = #graph.add_device_updatable_kernel(#k, #c, #a, #deps)?;
                            #(#edges)*
                            #p::Result::Ok((#added, #dev, #c))
                        })?;
                        #record
                    };
                }
                // The launch configuration comes out too: the executable keeps it.
                return quote_spanned! {s=>
                    #before
                    (#handle, #launch) = #p::add_node(#graph, #name, |#graph| {
                        let (#kernel, #config, #args) = #graph_ty::#eval(#params #allocs);
                        #waits
                        let #added = #graph.add_kernel(#k, #c, #a, #deps)?;
                        #(#edges)*
                        #p::Result::Ok((#added, #c))
                    })?;
                    #record
                };
            }
            NodeOp::Memset(_) => {
                quote_spanned!(s=> #graph.add_memset(#graph_ty::#eval(#params #allocs), #deps))
            }
            NodeOp::Memcpy(_) => {
                quote_spanned!(s=> #graph.add_memcpy(#graph_ty::#eval(#params #allocs), #deps))
            }
            NodeOp::Host(_) => {
                quote_spanned!(s=> #p::add_host(#graph, #graph_ty::#eval(#params #allocs), #deps))
            }
            NodeOp::Child(_) => {
                quote_spanned!(s=> #graph.add_child_graph(#graph_ty::#eval(#params #allocs), #deps))
            }
            NodeOp::Empty(_) => quote_spanned!(s=> #graph.add_empty(#deps)),
            NodeOp::Alloc(a) => {
                let elem = &a.elem;
                quote_spanned!(s=> #graph.add_mem_alloc::<#elem>(#graph_ty::#eval(#params #allocs), #deps))
            }
            NodeOp::Record(_) => {
                quote_spanned!(s=> #graph.add_event_record(#graph_ty::#eval(#params #allocs), #deps))
            }
            NodeOp::Wait(_) => {
                quote_spanned!(s=> #graph.add_event_wait(#graph_ty::#eval(#params #allocs), #deps))
            }
            NodeOp::SemaphoreSignal(_) => {
                quote_spanned!(s=> #graph.add_semaphore_signal(#graph_ty::#eval(#params #allocs), #deps))
            }
            NodeOp::SemaphoreWait(_) => {
                quote_spanned!(s=> #graph.add_semaphore_wait(#graph_ty::#eval(#params #allocs), #deps))
            }
            NodeOp::Free(f) => {
                let alloc = moved(&f.alloc.name, site);
                match &f.alloc.index {
                    Some(i) => {
                        let i = &i.expr;
                        quote_spanned!(s=> #graph.add_mem_free(&#nodes.#alloc[#i], #deps))
                    }
                    None => quote_spanned!(s=> #graph.add_mem_free(&#nodes.#alloc, #deps)),
                }
            }
            NodeOp::Conditional(c) => {
                let add = self.add_conditional(node, c, deps, fns);
                return quote!(#add #record);
            }
            NodeOp::Capture(c) => {
                let declared = self.declared_capture_uses(c);
                quote_spanned!(s=> #p::add_declared_capture(#graph, #graph_ty::#eval(#params #allocs), #declared, #deps))
            }
            NodeOp::Collective(_) => {
                let p = private_at(site);
                quote_spanned!(s=> #p::add_collective(#graph, #graph_ty::#eval(#params #allocs), #deps))
            }
        };
        quote_spanned! {s=>
            #before
            #handle = #p::add_node(#graph, #name, |#graph| #add)?;
            #record
        }
    }

    /// In `set_params`: the single-node update of `node` from the `&Params` argument (`self` is
    /// the executable). Located at the node's site.
    /// What a capture node's recorded work may use, as an `Option<&[DeclaredUse]>` expression:
    /// `None` when the node declares nothing (it counts as using every buffer), else its
    /// declared buffer params' memory, each with whether it may be written.
    fn declared_capture_uses(&self, c: &CaptureOp) -> TokenStream {
        let p = &self.p;
        let Some(declared) = &c.uses else {
            return quote!(#p::Option::None);
        };
        let fallbacks = super::hazards::fallbacks(p);
        let uses = declared.buffers.iter().filter_map(|b| {
            let i = self.model.param(&b.name)?;
            let access = if b.mutability.is_some() {
                quote!(#p::WRITE)
            } else {
                quote!(#p::READ)
            };
            let bytes = self.bytes_expr(i, b.index.as_ref().map(|i| i.expr.to_token_stream()));
            Some(quote!(#p::declared_use(#access, #bytes)))
        });
        // A `Vec` (built at each recording, next to which it costs nothing): a borrowed array
        // would not outlive this block in a crate of the 2024 edition.
        quote!({
            #fallbacks
            #p::Option::Some(#p::Vec::from([#(#uses),*]))
        }.as_deref())
    }

    ///
    /// For an instance of a node declared in a loop, `index` (an argument of the code around)
    /// says which; the loop variable is bound to it for the operands that name it.
    pub(super) fn update_node(&self, node: &NodeGen) -> TokenStream {
        let site = node.site;
        let s = at(site);
        let params = params_at(site);
        let index = local("index");
        let (graph_ty, eval, field) = (
            moved(self.graph, site),
            moved(&node.eval, site),
            moved(&node.decl.name, site),
        );
        let allocs = self.eval_args(node, &quote_spanned!(at(site)=> self.nodes), &index);
        // The node's handle and launch configuration: an instance's, by its index.
        let (own, launch) = match node.rep {
            Some(_) => (
                quote_spanned!(s=> self.nodes.#field[#index]),
                quote_spanned!(s=> self.state.launch.#field[#index]),
            ),
            None => (
                quote_spanned!(s=> self.nodes.#field),
                quote_spanned!(s=> self.state.launch.#field),
            ),
        };
        let update = self.update_call(node, &allocs, &params, (&graph_ty, &eval), (&own, &launch));
        let Some(rep) = node.rep else {
            return update;
        };
        let var = rep.var;
        quote_spanned! {s=>
            #[allow(unused_variables)]
            let #var: usize = #index;
            #update
        }
    }

    /// [`Gen::update_node`]'s driver call.
    /// (`own` and `launch`: the node's handle and launch configuration in the executable.)
    fn update_call(
        &self,
        node: &NodeGen,
        allocs: &TokenStream,
        params: &Ident,
        (graph_ty, eval): (&Ident, &Ident),
        (own, launch): (&TokenStream, &TokenStream),
    ) -> TokenStream {
        let site = node.site;
        let s = at(site);
        match &node.decl.op {
            NodeOp::Kernel(_) => {
                let (kernel, config, args) = (local("kernel"), local("config"), local("args"));
                let (k, c, a) = (
                    moved(&kernel, site),
                    moved(&config, site),
                    moved(&args, site),
                );
                quote_spanned! {s=>
                    let (#kernel, #config, #args) = #graph_ty::#eval(#params #allocs);
                    // `set_kernel`: the kernel param may now hold another function.
                    self.exec.set_kernel(#own, #k, #c, #a)?;
                    #launch = #c;
                }
            }
            NodeOp::Memset(_) => {
                quote_spanned!(s=> self.exec.set_memset_params(#own, #graph_ty::#eval(#params #allocs))?;)
            }
            NodeOp::Memcpy(_) => {
                quote_spanned!(s=> self.exec.set_memcpy_params(#own, #graph_ty::#eval(#params #allocs))?;)
            }
            NodeOp::Host(_) => {
                let p = private_at(site);
                quote_spanned!(s=> #p::set_host(&mut self.exec, #own, #graph_ty::#eval(#params #allocs))?;)
            }
            NodeOp::Child(_) => {
                quote_spanned!(s=> self.exec.set_child_graph(#own, #graph_ty::#eval(#params #allocs))?;)
            }
            // CUDA fixes an allocation when the graph is built: a new length is refused.
            NodeOp::Alloc(_) => {
                let p = private_at(site);
                let name = match node.rep {
                    Some(_) => {
                        let (name, index) = (format!("{}[{{}}]", node.decl.name), local("index"));
                        quote_spanned!(s=> &::std::format!(#name, #index))
                    }
                    None => {
                        let name = &node.name;
                        quote!(#name)
                    }
                };
                quote_spanned!(s=> #p::same_alloc_len(&#own, #graph_ty::#eval(#params #allocs), #name)?;)
            }
            NodeOp::Record(_) => {
                quote_spanned!(s=> self.exec.set_event_record(#own, #graph_ty::#eval(#params #allocs))?;)
            }
            NodeOp::Wait(_) => {
                quote_spanned!(s=> self.exec.set_event_wait(#own, #graph_ty::#eval(#params #allocs))?;)
            }
            NodeOp::SemaphoreSignal(_) => {
                quote_spanned!(s=> self.exec.set_semaphore_signal(#own, #graph_ty::#eval(#params #allocs))?;)
            }
            NodeOp::SemaphoreWait(_) => {
                quote_spanned!(s=> self.exec.set_semaphore_wait(#own, #graph_ty::#eval(#params #allocs))?;)
            }
            NodeOp::Capture(c) => {
                let (p, declared) = (private_at(site), self.declared_capture_uses(c));
                quote_spanned!(s=> #p::set_declared_capture(&mut self.exec, #own, #graph_ty::#eval(#params #allocs), #declared)?;)
            }
            // Nothing to update: a changed communicator, buffer, root or peer is refused.
            NodeOp::Collective(_) => {
                let (p, name) = (private_at(site), &node.name);
                quote_spanned!(s=> #p::same_collective(&self.exec, #own, #graph_ty::#eval(#params #allocs), #name)?;)
            }
            NodeOp::Empty(_) | NodeOp::Free(_) | NodeOp::Conditional(_) => TokenStream::new(),
        }
    }

    /// A collective node's eval-function return type and body: its `CollectiveCall` (the
    /// communicator, the operation with its reduction and ranks, the buffers), each part located
    /// at the user's token for it.
    fn collective_call(
        &self,
        c: &CollectiveOp,
        life: &syn::Lifetime,
    ) -> (TokenStream, TokenStream) {
        let (comm, src) = (&c.comm, &c.src);
        let (s, ps, params) = (
            at(src.span()),
            private_at(src.span()),
            params_at(src.span()),
        );
        let src_ty = self.model.param(src).map(|i| &self.model.params[i].ty);
        let reduce = c.reduce.as_ref().map(|r| {
            let (rs, rp) = (at(r.span()), private_at(r.span()));
            quote_spanned!(rs=> #rp::ReduceOp::#r)
        });
        let ranks = &c.ranks;
        let (ks, kp) = (at(c.token.span()), private_at(c.token.span()));
        let op = match c.kind {
            CollectiveKind::AllReduce => quote_spanned!(ks=> #kp::CollectiveOp::AllReduce(#reduce)),
            CollectiveKind::AllGather => quote_spanned!(ks=> #kp::CollectiveOp::AllGather),
            CollectiveKind::ReduceScatter => {
                quote_spanned!(ks=> #kp::CollectiveOp::ReduceScatter(#reduce))
            }
            CollectiveKind::Broadcast => {
                quote_spanned!(ks=> #kp::CollectiveOp::Broadcast(#(#ranks),*))
            }
            CollectiveKind::Send => quote_spanned!(ks=> #kp::CollectiveOp::Send(#(#ranks),*)),
            CollectiveKind::Recv => quote_spanned!(ks=> #kp::CollectiveOp::Recv(#(#ranks),*)),
            CollectiveKind::SendRecv => {
                quote_spanned!(ks=> #kp::CollectiveOp::SendRecv(#(#ranks),*))
            }
        };
        let comm_ref = {
            let (cs, cp, cparams) = (
                at(comm.span()),
                private_at(comm.span()),
                params_at(comm.span()),
            );
            quote_spanned!(cs=> #cp::communicator(&#cparams.#comm))
        };
        // Both buffers through the source's type: the destination must have the same.
        let src_ref = quote_spanned!(s=> #ps::collective_buffer(&#params.#src));
        let body = match &c.dst {
            Some(dst) => {
                let dst_ref = {
                    let (ds, dp, dparams) = (
                        at(dst.span()),
                        private_at(dst.span()),
                        params_at(dst.span()),
                    );
                    quote_spanned!(ds=> #dp::collective_buffer(&#dparams.#dst))
                };
                quote_spanned!(s=> #ps::collective_to(#comm_ref, #op, #src_ref, #dst_ref))
            }
            None => quote_spanned!(s=> #ps::collective(#comm_ref, #op, #src_ref)),
        };
        (
            quote_spanned!(s=> #ps::CollectiveCall<#life, <#src_ty as #ps::CollectiveBuffer>::Elem>),
            body,
        )
    }

    /// The nodes of `scope` (`None`: the graph's own), in build order.
    pub(super) fn scope_nodes(&self, scope: Option<(usize, usize)>) -> Vec<&NodeGen<'_>> {
        self.nodes.iter().filter(|n| n.scope == scope).collect()
    }

    /// In `build`: adds the nodes of `scope` to the graph being built (`graph_at`), the handles
    /// of its conditional nodes first (kernels before a conditional node set its handle).
    ///
    /// The nodes are added by functions of [`PER_FN`] nodes each, pushed onto `fns`; the
    /// code returned makes the handles and calls those functions, so that no function grows
    /// with the declaration. The functions write each node's handle into the struct being
    /// filled (`nodes_at`), and read their dependencies' handles from it.
    ///
    /// A loop's nodes are added by a function of their own that adds one iteration's nodes in
    /// a loop (see [`runs`]): its code is the size of the loop's body, whatever the count.
    pub(super) fn add_scope(
        &self,
        scope: Option<(usize, usize)>,
        fns: &mut Vec<TokenStream>,
    ) -> TokenStream {
        let p = &self.p;
        let here = Span::call_site();
        let (graph, params, nodes, launches, ids) = (
            graph_at(here),
            params_at(here),
            nodes_at(here),
            launches_at(here),
            ids_at(here),
        );
        let (params_ty, nodes_ty, launch_ty) = (&self.params_ty, &self.nodes_ty, &self.launch_ty);
        let members = self.scope_nodes(scope);
        let handles = members.iter().filter_map(|n| {
            let NodeOp::Conditional(c) = &n.decl.op else {
                return None;
            };
            let field = &c.handle;
            let default = match &c.default {
                Some(value) => {
                    let (s, p) = (at(value.span()), private_at(value.span()));
                    quote_spanned!(s=> #p::Option::Some(#value))
                }
                None => quote!(#p::Option::None),
            };
            Some(quote!(#nodes.#field = #graph.conditional_handle(#default)?;))
        });
        let handles: Vec<_> = handles.collect();
        // In a declaration with loops, every function also gets the ids added so far.
        let (ids_param, ids_arg) = if self.repeats {
            (quote!(#ids: &mut #p::Vec<#p::NodeId>,), quote!(#ids,))
        } else {
            (TokenStream::new(), TokenStream::new())
        };
        let mut calls = Vec::new();
        let mut loop_fns: Vec<(Vec<*const crate::parse::NodeDecl>, Ident)> = Vec::new();
        let plain_fn =
            |chunk: &[&NodeGen], fns: &mut Vec<TokenStream>, calls: &mut Vec<TokenStream>| {
                let f = format_ident!("__cg_add_{}", chunk[0].pos);
                let adds: Vec<_> = chunk.iter().map(|n| self.add_node(n, fns)).collect();
                fns.push(quote! {
                    #[inline(never)]
                    fn #f(
                        #graph: &mut #p::Graph<'static>,
                        #params: &#params_ty,
                        #nodes: &mut #nodes_ty,
                        #launches: &mut #launch_ty,
                        #ids_param
                    ) -> #p::Result<()> {
                        #(#adds)*
                        #p::Result::Ok(())
                    }
                });
                calls.push(quote!(Self::#f(#graph, #params, #nodes, #launches, #ids_arg)?;));
            };
        for run in runs(&members) {
            match run {
                Run::Plain(plain) => {
                    for chunk in plain.chunks(PER_FN) {
                        plain_fn(chunk, fns, &mut calls);
                    }
                }
                Run::Loop { body, from, to } => {
                    let signature: Vec<_> = body.iter().map(|n| n.decl as *const _).collect();
                    let known = loop_fns.iter().find(|(s, _)| *s == signature);
                    let f = match known {
                        Some((_, f)) => f.clone(),
                        None => {
                            let f = format_ident!("__cg_add_loop_{}", body[0].pos);
                            let code = self.loop_fn(&f, &body, fns);
                            fns.push(code);
                            loop_fns.push((signature, f.clone()));
                            f
                        }
                    };
                    calls.push(
                        quote!(Self::#f(#graph, #params, #nodes, #launches, #ids_arg #from, #to)?;),
                    );
                }
            }
        }
        quote! {
            #(#handles)*
            #(#calls)*
        }
    }

    /// The function adding the nodes of iterations `from..to` of a loop, `body` (one
    /// iteration's instances, in the order they are added) in each.
    fn loop_fn(&self, f: &Ident, body: &[&NodeGen], fns: &mut Vec<TokenStream>) -> TokenStream {
        let p = &self.p;
        let here = Span::call_site();
        let (graph, params, nodes, launches, ids) = (
            graph_at(here),
            params_at(here),
            nodes_at(here),
            launches_at(here),
            ids_at(here),
        );
        let (params_ty, nodes_ty, launch_ty) = (&self.params_ty, &self.nodes_ty, &self.launch_ty);
        let (index, from, to) = (local("index"), local("from"), local("to"));
        let var = body[0].rep.map(|r| r.var);
        let adds: Vec<_> = body.iter().map(|n| self.add_node(n, fns)).collect();
        quote! {
            #[inline(never)]
            fn #f(
                #graph: &mut #p::Graph<'static>,
                #params: &#params_ty,
                #nodes: &mut #nodes_ty,
                #launches: &mut #launch_ty,
                #ids: &mut #p::Vec<#p::NodeId>,
                #from: usize,
                #to: usize,
            ) -> #p::Result<()> {
                for #index in #from..#to {
                    // The loop variable, for what the nodes' operands index by it.
                    #[allow(unused_variables)]
                    let #var: usize = #index;
                    #(#adds)*
                }
                #p::Result::Ok(())
            }
        }
    }

    /// In `build`: adds conditional node `node`; the closure that gets its bodies adds their
    /// nodes.
    fn add_conditional(
        &self,
        node: &NodeGen,
        c: &CondOp,
        deps: TokenStream,
        fns: &mut Vec<TokenStream>,
    ) -> TokenStream {
        let (p, s) = (private_at(c.keyword), at(c.keyword));
        let here = Span::call_site();
        let (graph, nodes) = (graph_at(here), nodes_at(here));
        let (field, handle) = (&node.decl.name, &c.handle);
        let condition = match c.kind {
            CondKind::If => quote_spanned!(s=> #p::Condition::If),
            CondKind::IfElse => quote_spanned!(s=> #p::Condition::IfElse),
            CondKind::While => quote_spanned!(s=> #p::Condition::While),
            // Through a trait that only CUDA 12.8 bindings implement: an older binding makes this
            // an error at the `switch` keyword saying so.
            CondKind::Switch => {
                let n = c.bodies.len() as u32;
                quote_spanned!(s=> <() as #p::CudaHasSwitchNodes>::switch(#n))
            }
        };
        // Conditional nodes need CUDA 12.3 bindings: an error at the keyword otherwise.
        let needs = quote_spanned!(s=> #p::needs_conditional_nodes::<()>(););
        let bodies = local("bodies");
        let built: Vec<_> = (0..c.bodies.len())
            .map(|b| {
                let scope = self.add_scope(Some((node.pos, b)), fns);
                quote! {
                    {
                        // SAFETY: the body is used in place, by the code below only.
                        let #graph = unsafe { #p::Body::as_graph_mut(&mut *#bodies[#b]) };
                        #scope
                    }
                }
            })
            .collect();
        let name = &node.name;
        quote! {
            #needs
            #graph.name_next(#name);
            #nodes.#field = #graph
                .add_conditional_with(#nodes.#handle, #condition, #deps, |#bodies| {
                    #(#built)*
                    #p::Result::Ok(())
                })?
                .0;
        }
    }
}

/// A stretch of a scope's nodes, as `build` adds them: nodes declared outside loops, or
/// consecutive iterations of one loop that add the same nodes in the same order.
enum Run<'n, 'a> {
    Plain(Vec<&'n NodeGen<'a>>),
    Loop {
        /// The first iteration's instances, in the order added.
        body: Vec<&'n NodeGen<'a>>,
        /// The iterations (instance indices).
        from: usize,
        to: usize,
    },
}

/// The runs of `members` (nodes in build order). The build order is a topological order of the
/// graph the loops make, ties broken by declaration order, so it is most often whole loops one
/// iteration after the other; any other order is followed as it is, in more runs.
fn runs<'n, 'a>(members: &[&'n NodeGen<'a>]) -> Vec<Run<'n, 'a>> {
    let mut out: Vec<Run> = Vec::new();
    let mut i = 0;
    while i < members.len() {
        let Some(rep) = members[i].rep else {
            match out.last_mut() {
                Some(Run::Plain(plain)) => plain.push(members[i]),
                _ => out.push(Run::Plain(vec![members[i]])),
            }
            i += 1;
            continue;
        };
        // One iteration's block: consecutive instances of one loop and index, each node once.
        let mut block = vec![members[i]];
        let mut j = i + 1;
        while let Some(next) = members.get(j) {
            let same = next
                .rep
                .is_some_and(|r| r.lp == rep.lp && r.index == rep.index);
            if !same || block.iter().any(|b| std::ptr::eq(b.decl, next.decl)) {
                break;
            }
            block.push(next);
            j += 1;
        }
        let extends = match out.last_mut() {
            Some(Run::Loop { body, to, .. }) => {
                let same_body = body.len() == block.len()
                    && body
                        .iter()
                        .zip(&block)
                        .all(|(a, b)| std::ptr::eq(a.decl, b.decl))
                    && body[0].rep.is_some_and(|r| r.lp == rep.lp);
                if same_body && *to == rep.index {
                    *to += 1;
                    true
                } else {
                    false
                }
            }
            _ => false,
        };
        if !extends {
            out.push(Run::Loop {
                body: block,
                from: rep.index,
                to: rep.index + 1,
            });
        }
        i = j;
    }
    out
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
