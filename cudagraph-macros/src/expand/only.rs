//! `set_params_only`: the update path whose cost grows with what changed. The caller names the
//! params it changed (a generated `<Graph>Param` enum); the executable updates the nodes whose
//! expressions read them, and nothing else: no comparison of every param, no walk over every
//! node. Which node reads which param is known here, at compile time.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote};

use super::{camel, local, params_at, relocated, updatable, update_fn, Base, Gen, NodeGen};
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
    let (params, changed, updated, pos) = (
        params_at(Span::call_site()),
        local("changed"),
        local("updated"),
        local("pos"),
    );

    // A node's update (with its index among its declaration's instances, for a node declared
    // in a loop) and a param's commit, as the tables below hold them.
    let update_ty = quote!(fn(&mut Self, &#params_ty, usize) -> #p::Result<()>);
    let fn_ty = quote!(fn(&mut Self, &#params_ty) -> #p::Result<()>);
    // Per param (in the enum's order): the nodes whose expressions read it (alloc nodes apart:
    // they are checked, not updated), each with its update function, and the function that
    // keeps the param's new value. Data, not code: a call walks only the entries it names.
    // The nodes reading each param, in one pass over the nodes (a large declaration has
    // thousands of both).
    let mut readers: Vec<Vec<&NodeGen>> = vec![Vec::new(); g.model.params.len()];
    for n in &g.nodes {
        for &i in &n.mentions {
            readers[i].push(n);
        }
    }
    let entries: Vec<TokenStream> = readers
        .iter()
        .enumerate()
        .map(|(i, nodes)| {
            let updates = nodes.iter().filter(|n| updatable(&n.decl.op)).map(|n| {
                let (pos, f, index) = (n.pos, update_fn(n.first), n.rep.map_or(0, |r| r.index));
                quote!((#pos, Self::#f, #index))
            });
            let commit = commit_fn(i);
            quote!((&[#(#updates),*], Self::#commit))
        })
        .collect();
    let index = local("index");
    let alloc_checks = readers.iter().enumerate().map(|(i, nodes)| {
        let v = &variants[i];
        // A repeated alloc node's instances are checked once each: the first one stands for
        // its declaration, the others are skipped.
        let checks = nodes
            .iter()
            .filter(|n| matches!(n.decl.op, NodeOp::Alloc(_)) && n.first == n.pos)
            .map(|n| {
                let check = relocated(g.update_node(n), n.site);
                match n.rep {
                    Some(r) => {
                        let count = r.count;
                        quote!(for #index in 0..#count { #check })
                    }
                    None => check,
                }
            });
        quote!(#enum_ty::#v => { #(#checks)* })
    });
    // One function per param keeping its value (an indirect param: setting it), and one per
    // node making its single-node update: each small and of its own, so that a call runs the
    // code of what it names only (one function dispatching over every param or node would also
    // have a stack frame as large as all of them together, probed page by page at each call).
    let commit_fns = g.model.params.iter().enumerate().map(|(i, f)| {
        let (name, take, commit, kept) =
            (&f.name, g.keep(i, Base::Params), commit_fn(i), g.kept(i));
        // An `#[indirect]` param: a host write, no node to update.
        let write = g.model.is_indirect(i).then(|| {
            let key = super::indirect_key(name);
            quote!(self.exec.set_indirect(&self.nodes.#key, #params.#name)?;)
        });
        quote! {
            #[inline(never)]
            fn #commit(&mut self, #params: &#params_ty) -> #p::Result<()> {
                #write
                #kept = #take;
                #p::Result::Ok(())
            }
        }
    });
    // (One per declaration: a repeated node's instances share it, by their index.)
    let node_fns = g.decl_nodes().filter(|n| updatable(&n.decl.op)).map(|n| {
        let f = update_fn(n.pos);
        let update = relocated(g.update_node(n), n.site);
        quote! {
            #[inline(never)]
            #[allow(unused_variables)]
            fn #f(&mut self, #params: &#params_ty, #index: usize) -> #p::Result<()> {
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
                let (readers, commit) = Self::__CG_PARAMS[*__cg_param as usize];
                for &(_, update, index) in readers {
                    update(self, #params, index)?;
                    #updated += 1;
                }
                commit(self, #params)?;
                return #p::Result::Ok(#updated);
            }
            // A node read by several named params is updated once: it is stamped with this
            // call's number when it is (no clearing afterwards, whatever happens: the next call
            // has another number).
            self.generation = self.generation.wrapping_add(1);
            if self.generation == 0 {
                self.stamps.fill(0);
                self.generation = 1;
            }
            let stamp = self.generation;
            for &__cg_param in #changed {
                for &(#pos, update, index) in Self::__CG_PARAMS[__cg_param as usize].0 {
                    if self.stamps[#pos] != stamp {
                        self.stamps[#pos] = stamp;
                        update(self, #params, index)?;
                        #updated += 1;
                    }
                }
            }
            for &__cg_param in #changed {
                (Self::__CG_PARAMS[__cg_param as usize].1)(self, #params)?;
            }
            #p::Result::Ok(#updated)
        }
    };
    // Indexed by `<Graph>Param as usize`. Without params there is no table (nothing to name).
    let table = (!g.model.params.is_empty()).then(|| {
        quote! {
            #[allow(clippy::type_complexity)]
            const __CG_PARAMS: &'static [(&'static [(usize, #update_ty, usize)], #fn_ty)] = &[#(#entries),*];
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

            #table

            #(#commit_fns)*

            #(#node_fns)*
        }
    }
}

/// `<Graph>Param`.
pub fn param_enum(g: &Gen) -> proc_macro2::Ident {
    format_ident!("{}Param", name_of(g.graph), span = g.graph.span())
}

/// The function keeping the new value of param `i` (see `set_params_only`).
fn commit_fn(i: usize) -> proc_macro2::Ident {
    format_ident!("__cg_commit_{}", i)
}
