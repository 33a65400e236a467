//! What differs between node kinds: the runtime handle type, the function computing a node's
//! inputs from the params, the call adding it and the call updating it.

use proc_macro2::{Delimiter, Group, Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Expr, Ident, Type};

use super::{local, private_at, Gen, NodeGen};
use crate::model::kernel_params;
use crate::parse::{KernelOp, NodeOp};

impl Gen<'_> {
    /// The declared type of the param an operand names (checked to be a param).
    pub(super) fn param_type(&self, operand: &Expr) -> Option<&Type> {
        let Expr::Path(path) = operand else {
            return None;
        };
        let index = self.model.param(path.path.get_ident()?)?;
        Some(&self.model.params[index].ty)
    }

    pub(super) fn param_ident<'e>(&self, operand: &'e Expr) -> Option<&'e Ident> {
        let Expr::Path(path) = operand else {
            return None;
        };
        path.path.get_ident()
    }

    /// `Kernel<A>`'s `A`: as declared when written out (`Kernel<(u32, f32)>`), else projected
    /// from the param's type, spanned at the kernel's name in the node.
    pub(super) fn kernel_args_type(&self, k: &KernelOp) -> TokenStream {
        let ty = self
            .model
            .param(&k.kernel)
            .map(|i| &self.model.params[i].ty);
        match ty.and_then(kernel_params) {
            Some(types) => quote!((#(#types,)*)),
            None => {
                let p = private_at(k.kernel.span());
                quote_spanned!(k.kernel.span()=> <#ty as #p::KernelType>::Args)
            }
        }
    }

    /// The runtime handle type of a node.
    pub(super) fn runtime_handle(&self, node: &NodeGen) -> TokenStream {
        let p = &self.p;
        match &node.decl.op {
            NodeOp::Kernel(k) => {
                let args = self.kernel_args_type(k);
                quote!(#p::KernelNode<#args>)
            }
            NodeOp::Memset(m) => {
                let ty = self.param_type(&m.dst);
                {
                    let p = private_at(m.dst.span());
                    quote_spanned!(m.dst.span()=> #p::MemsetNode<<#ty as #p::MemsetTarget>::Elem>)
                }
            }
            NodeOp::Memcpy(m) => {
                let dir = self.memcpy_direction(&m.src, &m.dst, m.arrow.span());
                quote!(#p::MemcpyNode<#dir>)
            }
            NodeOp::Host(_) => quote!(#p::HostNode),
            NodeOp::Child(_) => quote!(#p::ChildGraphNode),
            NodeOp::Empty(_) => quote!(#p::EmptyNode),
        }
    }

    /// The direction of a memcpy between two params, spanned at its arrow.
    pub(super) fn memcpy_direction(&self, src: &Expr, dst: &Expr, arrow: Span) -> TokenStream {
        let (src, dst, p) = (
            self.param_type(src),
            self.param_type(dst),
            private_at(arrow),
        );
        quote_spanned!(arrow=> <(#src, #dst) as #p::CopyPair>::Dir)
    }

    /// `NodeKind::...` of a node.
    pub(super) fn kind(&self, node: &NodeGen) -> TokenStream {
        let kind = match &node.decl.op {
            NodeOp::Kernel(_) => quote!(Kernel),
            NodeOp::Memset(_) => quote!(Memset),
            NodeOp::Memcpy(_) => quote!(Memcpy),
            NodeOp::Host(_) => quote!(Host),
            NodeOp::Child(_) => quote!(ChildGraph),
            NodeOp::Empty(_) => quote!(Empty),
        };
        {
            let p = private_at(node.decl.op.keyword_span());
            quote_spanned!(node.decl.op.keyword_span()=> #p::NodeKind::#kind)
        }
    }

    /// The function computing a node's inputs from the params (none for an empty node). It holds
    /// the only copy of the user's expressions, shared by `build` and `set_params`, so that each
    /// type error is reported once.
    pub(super) fn eval_fn(&self, node: &NodeGen) -> TokenStream {
        let p = &self.p;
        let params = local("params");
        let params_ty = &self.params_ty;
        let bindings = self.bindings(&params, &node.mentions);
        let eval = &node.eval;
        let (ret, body) = match &node.decl.op {
            NodeOp::Kernel(k) => {
                let args_ty = self.kernel_args_type(k);
                let config = self.launch_config(k);
                let args = k.args.iter();
                let mut tuple = Group::new(Delimiter::Parenthesis, quote!(#(#args,)*));
                tuple.set_span(k.paren.span.join());
                let kernel = &k.kernel;
                let (config_local, args_local) = (local("config"), local("args"));
                let kernel_ref = {
                    let p = private_at(kernel.span());
                    quote_spanned!(kernel.span()=> #p::kernel(&#params.#kernel))
                };
                (
                    quote!((&#p::Kernel<#args_ty>, #p::LaunchConfig, #args_ty)),
                    quote! {
                        let #config_local = #config;
                        let #args_local: #args_ty = #tuple;
                        (#kernel_ref, #config_local, #args_local)
                    },
                )
            }
            NodeOp::Memset(m) => {
                let ty = self.param_type(&m.dst);
                let (dst, value) = (&m.dst, &m.value);
                (
                    {
                        let p = private_at(m.dst.span());
                        quote_spanned!(m.dst.span()=> #p::Memset<<#ty as #p::MemsetTarget>::Elem>)
                    },
                    {
                        let p = private_at(m.dst.span());
                        quote_spanned!(m.dst.span()=> #p::memset(#dst, #value))
                    },
                )
            }
            NodeOp::Memcpy(m) => {
                let dir = self.memcpy_direction(&m.src, &m.dst, m.arrow.span());
                let (src, dst) = (&m.src, &m.dst);
                (quote!(#p::Memcpy<#dir>), {
                    let p = private_at(m.arrow.span());
                    quote_spanned!(m.arrow.span()=> #p::memcpy(#src, #dst))
                })
            }
            NodeOp::Host(h) => {
                let f = &h.f;
                (quote!(#p::HostFn), {
                    let p = private_at(h.f.span());
                    quote_spanned!(h.f.span()=> #p::host_fn(#f))
                })
            }
            NodeOp::Child(c) => {
                let graph = self.param_ident(&c.graph);
                (quote!(&#p::Graph), {
                    let p = private_at(c.graph.span());
                    quote_spanned!(c.graph.span()=> #p::child_graph(&#params.#graph))
                })
            }
            NodeOp::Empty(_) => return TokenStream::new(),
        };
        quote! {
            #[allow(non_snake_case, clippy::type_complexity)]
            fn #eval(#params: &#params_ty) -> #ret {
                #bindings
                #body
            }
        }
    }

    /// `<<<...>>>` as a `LaunchConfig` expression.
    fn launch_config(&self, k: &KernelOp) -> TokenStream {
        let p = &self.p;
        let c: Vec<&Expr> = k.config.iter().collect();
        match c.as_slice() {
            [config] => quote!(#p::launch_config(#config)),
            [grid, block] => quote!(#p::launch(#grid, #block, 0)),
            [grid, block, shared, ..] => quote!(#p::launch(#grid, #block, #shared)),
            [] => quote!(#p::launch_config(())),
        }
    }

    /// In `build`: adds the node to `graph` after `deps`, binding its handle to `node.local`.
    pub(super) fn add_node(&self, node: &NodeGen, graph: &Ident, params: &Ident) -> TokenStream {
        let graph_ty = self.graph;
        let (eval, handle) = (&node.eval, &node.local);
        let name = &node.name;
        let deps = node.deps.iter().map(|&d| &self.nodes[d].local);
        let deps = quote!(&[#(#deps.id()),*]);
        let add = match &node.decl.op {
            NodeOp::Kernel(_) => {
                let (kernel, config, args) = (local("kernel"), launch_local(node), local("args"));
                quote! {
                    let (#kernel, #config, #args) = #graph_ty::#eval(#params);
                    let #handle = #graph.add_kernel(#kernel, #config, #args, #deps)?;
                }
            }
            NodeOp::Memset(_) => {
                quote!(let #handle = #graph.add_memset(#graph_ty::#eval(#params), #deps)?;)
            }
            NodeOp::Memcpy(_) => {
                quote!(let #handle = #graph.add_memcpy(#graph_ty::#eval(#params), #deps)?;)
            }
            NodeOp::Host(_) => {
                quote!(let #handle = #graph.add_host(#graph_ty::#eval(#params), #deps)?;)
            }
            NodeOp::Child(_) => {
                quote!(let #handle = #graph.add_child_graph(#graph_ty::#eval(#params), #deps)?;)
            }
            NodeOp::Empty(_) => quote!(let #handle = #graph.add_empty(#deps)?;),
        };
        quote! {
            #graph.name_next(#name);
            #add
        }
    }

    /// In `set_params`: the single-node update of `node` from `params` (`self` is the executable).
    pub(super) fn update_node(&self, node: &NodeGen, params: &Ident) -> TokenStream {
        let graph_ty = self.graph;
        let eval = &node.eval;
        let field = &node.decl.name;
        match &node.decl.op {
            NodeOp::Kernel(_) => {
                let (config, args) = (local("config"), local("args"));
                quote! {
                    let (_, #config, #args) = #graph_ty::#eval(#params);
                    self.exec.set_kernel_params(self.nodes.#field, #config, #args)?;
                    self.state.launch.#field = #config;
                }
            }
            NodeOp::Memset(_) => {
                quote!(self.exec.set_memset_params(self.nodes.#field, #graph_ty::#eval(#params))?;)
            }
            NodeOp::Memcpy(_) => {
                quote!(self.exec.set_memcpy_params(self.nodes.#field, #graph_ty::#eval(#params))?;)
            }
            NodeOp::Host(_) => {
                quote!(self.exec.set_host_fn(self.nodes.#field, #graph_ty::#eval(#params))?;)
            }
            NodeOp::Child(_) => {
                quote!(self.exec.set_child_graph(self.nodes.#field, #graph_ty::#eval(#params))?;)
            }
            NodeOp::Empty(_) => TokenStream::new(),
        }
    }
}

/// The local holding a kernel node's launch configuration while building.
pub(super) fn launch_local(node: &NodeGen) -> Ident {
    local(&format!("launch_{}", node.name))
}
