//! The calls adding nodes: one node of each kind, a scope's nodes in the order `build` adds them
//! (loops as loops), and conditional nodes with their bodies.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned, ToTokens};
use syn::spanned::Spanned;
use syn::Ident;

use super::{
    at, device_node_key, graph_at, local, moved, params_at, private_at, Copies, Gen, NodeGen,
    PER_FN,
};
use crate::parse::{CaptureOp, CondKind, CondOp, EdgeKind, NodeOp};

use super::*;

impl Gen<'_> {
    /// In `build`: adds the node to the graph being built after its dependencies, writing its
    /// handle (and a kernel's launch configuration) into the structs being filled. Code for
    /// the nodes in a conditional node's bodies goes into `fns`. Located at the node's site
    /// (see [`NodeGen::site`]).
    ///
    /// An instance of a node declared in a loop is added by the loop's function (see
    /// [`Gen::add_scope`]), at index `index` of its declaration's instances: its dependencies
    /// come from the graph's table of them (`__CG_DEPS`), its name from `TOPOLOGY`. In a
    /// declaration with loops every node's id is kept by position (`ids`), for those tables.
    pub(super) fn add_node(&self, node: &NodeGen, fns: &mut Vec<TokenStream>) -> TokenStream {
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
        let copy = moved(&local("copy"), site);
        // Where the node's handle goes: `nodes.x`, `nodes.x[index]` for an instance, or
        // `nodes.x[copy]` for a node in each copy of an unrolled body. (A kernel's launch
        // configuration, the same in every copy, is kept once.)
        let slot = |base: &Ident, copied: bool| match (node.rep, node.copies) {
            (Some(_), _) => quote_spanned!(s=> #base.#field[#index]),
            (None, Some(Copies::Each(_))) if copied => quote_spanned!(s=> #base.#field[#copy]),
            _ => quote_spanned!(s=> #base.#field),
        };
        let (handle, name, deps, before) = match node.rep {
            Some(_) => (
                slot(&nodes, true),
                quote_spanned!(s=> #graph_ty::TOPOLOGY.nodes[#pos].0),
                quote_spanned!(s=> &#p::deps_at(#ids, #graph_ty::__CG_DEPS, #graph_ty::__CG_DEP_START)),
                quote_spanned!(s=> let #pos = #ids.len();),
            ),
            None => {
                let name = &node.name;
                let (deps, before) = self.node_deps(node);
                (slot(&nodes, true), quote!(#name), deps, before)
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
                let launch = slot(&launches_at(site), false);
                // `#[waits]`: the kernel must say so too (`Kernel::waits_for_dependency`), the
                // promise the graph's own memory checks rely on.
                let waits = waits_declared(node.decl)
                    .then(|| quote_spanned!(s=> #p::declared_waits(#k, #name)?;));
                let added = moved(&local("added"), site);
                // Edges with data join the node once it exists, in declared order (never a
                // loop's node: `check::repetition` refuses them there).
                let edge_list = |list: &[(usize, EdgeKind)]| -> TokenStream {
                    let edges = list.iter().map(|&(d, kind)| {
                        let dep = self.dep_id(d, site);
                        let kind = match kind {
                            EdgeKind::Programmatic => quote_spanned!(s=> Programmatic),
                            _ => quote_spanned!(s=> LaunchOrder),
                        };
                        quote_spanned! {s=>
                            #p::add_edge::<()>(#graph, #dep, #added.id(), #p::EdgeKind::#kind)?;
                        }
                    });
                    quote!(#(#edges)*)
                };
                // In the copies of an unrolled body before the last, an edge from a check is
                // none (its place is kept by plain edges, see `copy_deps`).
                let edges = match node.copies {
                    Some(Copies::Each(k)) if node.copy_deps.1 != node.data_deps => {
                        let (last, other) =
                            (edge_list(&node.data_deps), edge_list(&node.copy_deps.1));
                        quote_spanned!(s=> if #copy + 1 == #k { #last } else { #other })
                    }
                    _ => edge_list(&node.data_deps),
                };
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
                            #edges
                            #p::Result::Ok((#added, #dev, #c))
                        })?;
                        #record
                    };
                }
                // The launch configuration comes out too: the executable keeps it.
                let add = quote_spanned! {s=>
                    #before
                    (#handle, #launch) = #p::add_node(#graph, #name, |#graph| {
                        let (#kernel, #config, #args) = #graph_ty::#eval(#params #allocs);
                        #waits
                        let #added = #graph.add_kernel(#k, #c, #a, #deps)?;
                        #edges
                        #p::Result::Ok((#added, #c))
                    })?;
                    #record
                };
                return self.in_its_copies(node, add);
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
        let add = quote_spanned! {s=>
            #before
            #handle = #p::add_node(#graph, #name, |#graph| #add)?;
            #record
        };
        self.in_its_copies(node, add)
    }

    /// `add`, the code adding `node`, as the copies of an unrolled body run it: a check in the
    /// last copy only.
    fn in_its_copies(&self, node: &NodeGen, add: TokenStream) -> TokenStream {
        match node.copies {
            Some(Copies::Last(k)) => {
                let s = at(node.site);
                let copy = moved(&local("copy"), node.site);
                quote_spanned!(s=> if #copy + 1 == #k { #add })
            }
            _ => add,
        }
    }

    /// The id of the node at position `d`, for a dependency of a node added at `site`: an
    /// instance's by its index, a node in each copy of an unrolled body by the copy being added.
    fn dep_id(&self, d: usize, site: Span) -> TokenStream {
        let (s, nodes) = (at(site), nodes_at(site));
        let dep = &self.nodes[d];
        let field = moved(&dep.decl.name, site);
        match (dep.rep, dep.copies) {
            (Some(r), _) => {
                let k = r.index;
                quote_spanned!(s=> #nodes.#field[#k].id())
            }
            (None, Some(Copies::Each(_))) => {
                let copy = moved(&local("copy"), site);
                quote_spanned!(s=> #nodes.#field[#copy].id())
            }
            _ => quote_spanned!(s=> #nodes.#field.id()),
        }
    }

    /// The dependencies of `node` (not a loop's instance) as a `&[NodeId]` expression, and code
    /// to put before the node that computes them: in the copies of an unrolled body before the
    /// last, a node after a check depends on what the check depends on (see `copy_deps`).
    fn node_deps(&self, node: &NodeGen) -> (TokenStream, TokenStream) {
        let site = node.site;
        let s = at(site);
        let ids = |list: &[usize]| -> Vec<TokenStream> {
            list.iter().map(|&d| self.dep_id(d, site)).collect()
        };
        match node.copies {
            Some(Copies::Each(k)) if node.copy_deps.0 != node.deps => {
                let p = private_at(site);
                let (last, other) = (ids(&node.deps), ids(&node.copy_deps.0));
                let (n_last, n_other) = (last.len(), other.len());
                let (l, o, d, copy) = (
                    moved(&local("last_deps"), site),
                    moved(&local("copy_deps"), site),
                    moved(&local("deps"), site),
                    moved(&local("copy"), site),
                );
                // Only the copy's own list is computed (a check is not added before the last).
                let before = quote_spanned! {s=>
                    let (#l, #o): ([#p::NodeId; #n_last], [#p::NodeId; #n_other]);
                    let #d: &[#p::NodeId] = if #copy + 1 == #k {
                        #l = [#(#last),*];
                        &#l
                    } else {
                        #o = [#(#other),*];
                        &#o
                    };
                };
                (quote_spanned!(s=> #d), before)
            }
            _ => {
                let list = ids(&node.deps);
                (quote_spanned!(s=> &[#(#list),*]), TokenStream::new())
            }
        }
    }

    /// In `set_params`: the single-node update of `node` from the `&Params` argument (`self` is
    /// the executable). Located at the node's site.
    /// What a capture node's recorded work may use, as an `Option<&[DeclaredUse]>` expression:
    /// `None` when the node declares nothing (it counts as using every buffer), else its
    /// declared buffer params' memory, each with whether it may be written.
    pub(super) fn declared_capture_uses(&self, c: &CaptureOp) -> TokenStream {
        let p = &self.p;
        let Some(declared) = &c.uses else {
            return quote!(#p::Option::None);
        };
        let fallbacks = crate::expand::hazards::fallbacks(p);
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

    /// The nodes of `scope` (`None`: the graph's own), in build order.
    pub(in crate::expand) fn scope_nodes(
        &self,
        scope: Option<(usize, usize)>,
    ) -> Vec<&NodeGen<'_>> {
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
    pub(in crate::expand) fn add_scope(
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
        // In an unrolled body, every function also gets the copy it adds.
        let copy = moved(&local("copy"), here);
        let (copy_param, copy_arg) = if members.iter().any(|n| n.copies.is_some()) {
            (quote!(#copy: ::core::primitive::usize,), quote!(#copy,))
        } else {
            (TokenStream::new(), TokenStream::new())
        };
        let mut calls = Vec::new();
        let mut loop_fns: Vec<(Vec<*const crate::parse::NodeDecl>, Ident)> = Vec::new();
        let plain_fn = |chunk: &[&NodeGen],
                        fns: &mut Vec<TokenStream>,
                        calls: &mut Vec<TokenStream>| {
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
                    #copy_param
                ) -> #p::Result<()> {
                    #(#adds)*
                    #p::Result::Ok(())
                }
            });
            calls.push(quote!(Self::#f(#graph, #params, #nodes, #launches, #ids_arg #copy_arg)?;));
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
    pub(super) fn loop_fn(
        &self,
        f: &Ident,
        body: &[&NodeGen],
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
                #from: ::core::primitive::usize,
                #to: ::core::primitive::usize,
            ) -> #p::Result<()> {
                for #index in #from..#to {
                    // The loop variable, for what the nodes' operands index by it.
                    #[allow(unused_variables)]
                    let #var: ::core::primitive::usize = #index;
                    #(#adds)*
                }
                #p::Result::Ok(())
            }
        }
    }

    /// In `build`: adds conditional node `node`; the closure that gets its bodies adds their
    /// nodes.
    pub(super) fn add_conditional(
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
        let name = &node.name;
        // An unrolled WHILE: its body's nodes added once per copy (see `model::unroll`).
        let unroll = self
            .scope_nodes(Some((node.pos, 0)))
            .iter()
            .find_map(|n| n.copies)
            .map(Copies::count);
        if let Some(k) = unroll {
            let (body, unrolled, copy) = (local("body"), local("unrolled"), local("copy"));
            let k = proc_macro2::Literal::u32_unsuffixed(k as u32);
            let scope = self.add_scope(Some((node.pos, 0)), fns);
            return quote! {
                #needs
                #graph.name_next(#name);
                #nodes.#field = #graph
                    .add_unrolled_while(#nodes.#handle, #deps, #k, |#body, #unrolled| {
                        // SAFETY: the body is used in place, by the code below only.
                        let #graph = unsafe { #p::Body::as_graph_mut(#body) };
                        let #copy: ::core::primitive::usize = #unrolled.index() as ::core::primitive::usize;
                        #scope
                        #p::Result::Ok(())
                    })?
                    .0;
            };
        }
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
