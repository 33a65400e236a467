//! What a node's expressions name: params, elements of array params, allocations, handles.

use std::ops::Range;

use proc_macro2::{Span, TokenStream};
use quote::ToTokens;
use syn::{GenericArgument, Ident, PathArguments, Type};

use crate::parse::{NodeDecl, NodeOp};
use crate::repeat;

use super::*;
use crate::tokens::collect_mentions;

impl<'a> Model<'a> {
    /// The tokens of a node's expressions: everything but the names of its node kind.
    fn expression_tokens(node: &NodeDecl) -> TokenStream {
        match &node.op {
            NodeOp::Kernel(k) => {
                let (kernel, config, args) = (&k.kernel, &k.config, &k.args);
                quote::quote!(#kernel #config #args)
            }
            NodeOp::Memset(m) => {
                let (dst, value) = (&m.dst, &m.value);
                quote::quote!(#dst #value)
            }
            NodeOp::Memcpy(m) => {
                let (src, dst) = (&m.src, &m.dst);
                quote::quote!(#src #dst)
            }
            NodeOp::Host(h) => {
                let f = &h.f;
                let buffers = h
                    .buffers
                    .iter()
                    .map(|b| crate::parse::indexed(&b.name, b.index.as_ref()));
                quote::quote!(#f #(#buffers)*)
            }
            NodeOp::Child(c) => c.graph.to_token_stream(),
            NodeOp::Alloc(a) => a.len.to_token_stream(),
            NodeOp::Record(r) => r.event.to_token_stream(),
            NodeOp::Wait(w) => w.event.to_token_stream(),
            NodeOp::Conditional(c) => c.default.to_token_stream(),
            NodeOp::Capture(c) => c.work.to_token_stream(),
            NodeOp::SemaphoreSignal(s) | NodeOp::SemaphoreWait(s) => {
                let (sems, values) = (
                    s.sems.iter().map(|(sem, _)| sem),
                    s.sems.iter().map(|(_, v)| v),
                );
                quote::quote!(#(#sems)* #(#values)*)
            }
            NodeOp::Collective(c) => {
                let (comm, src, dst, ranks) = (&c.comm, &c.src, &c.dst, &c.ranks);
                quote::quote!(#comm #src #dst #(#ranks)*)
            }
            // A free's operand is the allocation it frees, not a use of it (see `freed`).
            NodeOp::Empty(_) | NodeOp::Free(_) => TokenStream::new(),
        }
    }

    /// [`Model::expression_tokens`], and the buffer params a capture node declares (`[x, mut
    /// h]`): what the node's update depends on. A declared use is no expression of the node,
    /// but its update checks the recorded work against the params' memory, so a change of `h`
    /// must reach it, or the node would go on using the old memory while the race rule judges
    /// the new (the recorded work uses what its `Capture` was given, not the params).
    fn read_tokens(node: &NodeDecl) -> TokenStream {
        let mut tokens = Self::expression_tokens(node);
        if let NodeOp::Capture(c) = &node.op {
            for b in c.uses.iter().flat_map(|u| &u.buffers) {
                tokens.extend(crate::parse::indexed(&b.name, b.index.as_ref()));
            }
        }
        tokens
    }

    /// Calls `f` on every name a node's expressions may read.
    pub fn each_mention(&self, node: &NodeDecl, f: &mut dyn FnMut(&Ident)) {
        collect_mentions(Self::expression_tokens(node), f);
    }

    /// Calls `f` on every name a node's expressions may read, with the index written after it
    /// (`w[layer]`), if any.
    pub fn each_indexed_mention(
        &self,
        node: &NodeDecl,
        f: &mut dyn FnMut(&Ident, Option<&proc_macro2::Group>),
    ) {
        repeat::each_indexed(Self::expression_tokens(node), f);
    }

    /// Whether param `index` is `#[indirect]`: kept in device memory that kernels read through
    /// a pointer, set by a host write instead of node updates.
    pub fn is_indirect(&self, index: usize) -> bool {
        self.params[index]
            .attrs
            .iter()
            .any(|a| a.path().is_ident("indirect"))
    }

    /// The `#[indirect]` params a node's expressions name (their keys are the node's inputs, not
    /// their values), by index, in declared order.
    pub fn indirect_mentions(&self, node: &NodeDecl) -> Vec<usize> {
        let mut found = Vec::new();
        collect_mentions(Self::expression_tokens(node), &mut |ident| {
            if let Some(index) = self.param(ident).filter(|&i| self.is_indirect(i)) {
                if !found.contains(&index) {
                    found.push(index);
                }
            }
        });
        found.sort_unstable();
        found
    }

    /// The params a node's expressions may read, and the buffers a capture node declares, by
    /// index, in declared order (`#[indirect]` params apart: a node reads their keys, which
    /// never change).
    pub fn mentions(&self, node: &NodeDecl) -> Vec<usize> {
        let mut found = Vec::new();
        collect_mentions(Self::read_tokens(node), &mut |ident| {
            if let Some(index) = self.param(ident).filter(|&i| !self.is_indirect(i)) {
                if !found.contains(&index) {
                    found.push(index);
                }
            }
        });
        found.sort_unstable();
        found
    }

    /// The slots of param `param`: one per element of an array param (see [`Model::arrays`]),
    /// else one. Slots number the params' values as `set_params` compares them, so that a
    /// changed element updates only the nodes that read it.
    pub fn slots(&self, param: usize) -> Range<usize> {
        self.slot_start[param]..self.slot_start[param + 1]
    }

    /// The number of slots of all params.
    pub fn slot_count(&self) -> usize {
        self.slot_start.last().copied().unwrap_or(0)
    }

    /// The element of array param `param` that `index` picks in iteration `rep`, when the macro
    /// can tell (`None` also for a param that is no array the macro knows).
    pub fn element(&self, param: usize, index: &syn::Expr, rep: Option<Rep>) -> Option<usize> {
        let (_, len) = self.arrays[param]?;
        repeat::eval(index, self.env(rep)).ok().filter(|&k| k < len)
    }

    /// [`Model::element`] of an index group as written after a name (`[layer]`).
    fn element_at(
        &self,
        param: usize,
        index: Option<&proc_macro2::Group>,
        rep: Option<Rep>,
    ) -> Option<usize> {
        self.element(param, &repeat::index_expr(index?)?, rep)
    }

    /// The slots node `node` reads (see [`Model::slots`]), with the buffers a capture node
    /// declares, sorted: an element of an array param when its index is known (`w[layer]`), else
    /// every slot of the param.
    ///
    /// An index is computed from the graph's consts and the iteration's value of the loop
    /// variable only where nothing in the node's expressions can give its names other values
    /// (see [`repeat::each_indexed_where`]): an item or a macro call hides any name (`{ const K:
    /// usize = 1; w[K] }` reads `w[1]` whatever the graph's `K`), a pattern the names it writes
    /// (`{ let i = 0; w[i] }` reads `w[0]` in every iteration), and a macro may rewrite an index
    /// it is given (`next!(w[0])`). There the element is not known.
    pub fn slot_mentions(&self, node: &Inst) -> Vec<usize> {
        let mut found = Vec::new();
        repeat::each_indexed_where(Self::read_tokens(node.decl), &mut |ident, index, hidden| {
            let Some(param) = self.param(ident).filter(|&i| !self.is_indirect(i)) else {
                return;
            };
            let slots = self.slots(param);
            match self.element_at(param, index.filter(|_| !hidden), node.rep) {
                Some(k) => found.push(slots.start + k),
                None => found.extend(slots),
            }
        });
        found.sort_unstable();
        found.dedup();
        found
    }

    /// The allocations a node's expressions name (node indices of alloc nodes, with the first
    /// token naming each), in the order first named: `t`, or `t[i]` of a repeated alloc node. A
    /// param of the same name hides the allocation (the names rule reports the clash).
    pub fn alloc_mentions(&self, node: &Inst) -> Vec<(usize, Span)> {
        let mut found: Vec<(usize, Span)> = Vec::new();
        self.each_indexed_mention(node.decl, &mut |ident, index| {
            if self.param(ident).is_some() {
                return;
            }
            let picked = match self.repeated(ident) {
                Some(r) if matches!(self.nodes[r.first].op, NodeOp::Alloc(_)) => index
                    .and_then(repeat::index_expr)
                    .and_then(|e| repeat::eval(&e, self.env(node.rep)).ok())
                    .and_then(|v| r.at(v)),
                _ => self.allocation(ident),
            };
            if let Some(index) = picked {
                if !found.iter().any(|&(i, _)| i == index) {
                    found.push((index, ident.span()));
                }
            }
        });
        found
    }

    /// The conditional nodes whose handles a node's expressions name (node indices, with the
    /// first token naming each), in the order first named. A param or allocation of the same
    /// name hides the handle (the names rule reports the clash).
    pub fn handle_mentions(&self, node: &NodeDecl) -> Vec<(usize, Span)> {
        let mut found: Vec<(usize, Span)> = Vec::new();
        collect_mentions(Self::expression_tokens(node), &mut |ident| {
            if self.param(ident).is_some() || self.names_allocation(ident) {
                return;
            }
            if let Some(index) = self.handle(ident) {
                if !found.iter().any(|&(i, _)| i == index) {
                    found.push((index, ident.span()));
                }
            }
        });
        found
    }
}

impl Model<'_> {
    /// The types that the indices of node expressions cast to as `usize` (`w[layer as usize]`),
    /// once per declared node: the generated code computes those indices again, and asserts
    /// that each such type is the primitive `usize` (an alias of the name would truncate).
    pub fn index_casts(&self) -> Vec<Type> {
        let mut casts = Vec::new();
        let mut seen: Vec<*const NodeDecl> = Vec::new();
        for node in &self.nodes {
            if seen.contains(&(node.decl as *const _)) {
                continue;
            }
            seen.push(node.decl);
            self.each_indexed_mention(node.decl, &mut |_, index| {
                if let Some(expr) = index.and_then(repeat::index_expr) {
                    repeat::usize_casts(&expr, &mut casts);
                }
            });
            if let NodeOp::Capture(c) = &node.decl.op {
                for b in c.uses.iter().flat_map(|u| &u.buffers) {
                    if let Some(index) = &b.index {
                        repeat::usize_casts(&index.expr, &mut casts);
                    }
                }
            }
        }
        casts
    }
}

/// The name an operand gives, with its index: `y` or `y[layer]` (an element of an array param,
/// or an instance of a repeated alloc node).
pub fn operand_name(expr: &syn::Expr) -> Option<(&Ident, Option<&syn::Expr>)> {
    match expr {
        syn::Expr::Path(p) if p.qself.is_none() => Some((p.path.get_ident()?, None)),
        syn::Expr::Index(i) => match &*i.expr {
            syn::Expr::Path(p) if p.qself.is_none() => Some((p.path.get_ident()?, Some(&*i.index))),
            _ => None,
        },
        _ => None,
    }
}

/// The last path segment's name of `ty`.
pub fn last_segment(ty: &Type) -> Option<String> {
    let Type::Path(path) = ty else { return None };
    path.path.segments.last().map(|s| s.ident.to_string())
}

/// The parameter types of `Kernel<(A, B, ...)>` when written out as a tuple.
pub fn kernel_params(ty: &Type) -> Option<Vec<&Type>> {
    let Type::Path(path) = ty else { return None };
    let last = path.path.segments.last()?;
    if last.ident != "Kernel" {
        return None;
    }
    let PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    match args.args.first()? {
        GenericArgument::Type(Type::Tuple(tuple)) if args.args.len() == 1 => {
            Some(tuple.elems.iter().collect())
        }
        _ => None,
    }
}
