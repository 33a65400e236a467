//! `set_params_only`: the update path whose cost grows with what changed. The caller names the
//! params it changed (a generated `<Graph>Param` enum); the executable updates the nodes whose
//! expressions read them, and nothing else: no comparison of every param, no walk over every
//! node. Which node reads which param is known here, at compile time.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote};

use super::{camel, local, params_at, relocated, update_fn, Base, Gen};
use crate::model::name_of;
use crate::parse::NodeOp;

/// The `<Graph>Param` enum, and the executable's `set_params_only` with its per-node dispatch.
pub fn set_params_only(g: &Gen) -> TokenStream {
    let p = &g.p;
    let (vis, pass, graph, params_ty, exec_ty) = (
        &g.model.decl.vis,
        &g.pass,
        g.graph,
        &g.params_ty,
        &g.exec_ty,
    );
    let enum_ty = param_enum(g);
    let variants: Vec<_> = g
        .model
        .params
        .iter()
        .map(|f| format_ident!("{}", camel(&name_of(&f.name)), span = f.name.span()))
        .collect();
    let variant_docs = g
        .model
        .params
        .iter()
        .map(|f| format!("Param `{}`.", name_of(&f.name)));
    let words = g.nodes.len().div_ceil(64);
    let (params, changed, marked, updated, pos) = (
        params_at(Span::call_site()),
        local("changed"),
        local("marked"),
        local("updated"),
        local("pos"),
    );

    // Per param: the positions of the nodes that read it (alloc nodes apart: they are checked,
    // not updated), and the commit of its kept value.
    let readers: Vec<TokenStream> = g
        .model
        .params
        .iter()
        .enumerate()
        .map(|(i, _)| {
            let v = &variants[i];
            let nodes = g
                .nodes
                .iter()
                .filter(|n| n.mentions.contains(&i) && updatable(&n.decl.op))
                .map(|n| n.pos);
            quote!(#enum_ty::#v => &[#(#nodes),*],)
        })
        .collect();
    let readers_one: Vec<TokenStream> = readers.clone();
    let alloc_checks = g.model.params.iter().enumerate().map(|(i, _)| {
        let v = &variants[i];
        let checks = g
            .nodes
            .iter()
            .filter(|n| n.mentions.contains(&i) && matches!(n.decl.op, NodeOp::Alloc(_)))
            .map(|n| relocated(g.update_node(n), n.site));
        quote!(#enum_ty::#v => { #(#checks)* })
    });
    let commits: Vec<TokenStream> = g
        .model
        .params
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let (v, name, take) = (&variants[i], &f.name, g.keep(i, Base::Params));
            if g.model.is_indirect(i) {
                // An `#[indirect]` param: a host write, no node to update.
                let key = super::indirect_key(name);
                quote!(#enum_ty::#v => {
                    self.exec.set_indirect(&self.nodes.#key, #params.#name)?;
                    self.state.params.#name = #take;
                })
            } else {
                quote!(#enum_ty::#v => self.state.params.#name = #take,)
            }
        })
        .collect();
    // One small function per node, called from the dispatch: inlined into one `match`, the
    // updates of every node would give the dispatch a stack frame as large as all of them
    // together, probed page by page at each call, whichever node it updates.
    let updatable_nodes: Vec<_> = g.nodes.iter().filter(|n| updatable(&n.decl.op)).collect();
    let arms = updatable_nodes.iter().map(|n| {
        let (node_pos, f) = (n.pos, update_fn(n.pos));
        quote!(#node_pos => self.#f(#params)?,)
    });
    let node_fns = updatable_nodes.iter().map(|n| {
        let f = update_fn(n.pos);
        let update = relocated(g.update_node(n), n.site);
        quote! {
            #[inline(never)]
            #[allow(unused_variables)]
            fn #f(&mut self, #params: &#params_ty) -> #p::Result<()> {
                #update
                #p::Result::Ok(())
            }
        }
    });
    let enum_doc = format!(
        "The params of [`{params_ty}`], one variant each: what [`{exec_ty}::set_params_only`] is \
         told changed."
    );
    let only_doc = format!(
        "Like [`set_params`](Self::set_params), for callers that know what they changed: updates \
         the nodes whose expressions read a param in `changed` (each once), and only them, so its \
         cost grows with the nodes updated, not with the graph. Returns how many nodes it \
         updated.\n\n\
         A changed param missing from `changed` leaves its nodes as they were (the executable \
         keeps alive whatever memory they use); nodes set through their handles are not reset \
         (`set_params` does both). Params that share memory with another under nodes that may \
         run at the same time are refused as by [`{graph}::build`]."
    );
    // Without params there is nothing to name (and an empty enum's `match` is unreachable code).
    let body = if g.model.params.is_empty() {
        quote! {
            let _ = #changed;
            #graph::__cg_check_overlaps(#params)?;
            #p::Result::Ok(0)
        }
    } else {
        quote! {
            #graph::__cg_check_overlaps(#params)?;
            // CUDA cannot resize an allocation: refuse before updating anything.
            for &__cg_param in #changed {
                match __cg_param {
                    #(#alloc_checks)*
                }
            }
            let mut #updated = 0usize;
            if let [__cg_param] = #changed {
                // One param: its readers are distinct nodes, nothing to deduplicate.
                let readers: &[usize] = match __cg_param {
                    #(#readers_one)*
                };
                for &#pos in readers {
                    self.__cg_update_node(#params, #pos)?;
                    #updated += 1;
                }
                self.__cg_commit(#params, *__cg_param)?;
                return #p::Result::Ok(#updated);
            }
            // One bit per node: nodes read by several named params are updated once.
            let mut #marked = [0u64; #words];
            for &__cg_param in #changed {
                let readers: &[usize] = match __cg_param {
                    #(#readers)*
                };
                for &#pos in readers {
                    let bit = 1u64 << (#pos % 64);
                    if #marked[#pos / 64] & bit == 0 {
                        #marked[#pos / 64] |= bit;
                        self.__cg_update_node(#params, #pos)?;
                        #updated += 1;
                    }
                }
            }
            for &__cg_param in #changed {
                self.__cg_commit(#params, __cg_param)?;
            }
            #p::Result::Ok(#updated)
        }
    };
    // Keeping a named param's value: a function of its own, called once per named param. Inlined
    // into the loop over them, every arm's load from `params` would be hoisted before the loop,
    // all of them on every call. (Without params, there is nothing to keep.)
    let commit_fn = (!g.model.params.is_empty()).then(|| {
        quote! {
            /// Keeps the value of `param` from `params` (an indirect param: sets it).
            #[inline(never)]
            fn __cg_commit(&mut self, #params: &#params_ty, param: #enum_ty) -> #p::Result<()> {
                match param {
                    #(#commits)*
                }
                #p::Result::Ok(())
            }
        }
    });
    quote! {
        #(#pass)*
        #[doc = #enum_doc]
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        // A program names the params it changes, not necessarily all of them.
        #[allow(dead_code)]
        #vis enum #enum_ty {
            #(#[doc = #variant_docs] #variants,)*
        }

        #(#pass)*
        impl #exec_ty {
            #[doc = #only_doc]
            pub fn set_params_only(
                &mut self,
                #params: &#params_ty,
                #changed: &[#enum_ty],
            ) -> #p::Result<usize> {
                #body
            }

            #commit_fn

            /// The single-node update of node `pos` from `params`.
            #[allow(unused_variables, clippy::match_single_binding)]
            fn __cg_update_node(&mut self, #params: &#params_ty, #pos: usize) -> #p::Result<()> {
                match #pos {
                    #(#arms)*
                    _ => {}
                }
                #p::Result::Ok(())
            }

            #(#node_fns)*
        }
    }
}

/// `<Graph>Param`.
pub fn param_enum(g: &Gen) -> proc_macro2::Ident {
    format_ident!("{}Param", name_of(g.graph), span = g.graph.span())
}

/// Whether a node of this kind has a single-node update (alloc nodes are only checked).
fn updatable(op: &NodeOp) -> bool {
    !matches!(op, NodeOp::Empty(_) | NodeOp::Alloc(_) | NodeOp::Free(_))
}
