//! The resolved graph of one declaration: params and nodes by index, edges between indices, and
//! the canonical order in which the generated code adds the nodes.
//!
//! A node declared in a `for` loop is one node per iteration here (`attn[0]`, `attn[1]`, ...),
//! and so is an edge written in one: every rule judges the graph the declaration makes, across
//! iterations. (The generated code adds them in loops: see `expand`.)
//!
//! The model is built leniently (names that do not resolve are kept as written) so that the
//! rules in `check/` can report every problem; expansion runs only on a model that passed them.
//!
//! Here: the model, its construction and lookups; in `order`, the order edges make (canonical
//! order, reachability, paths, cycles); in `mentions`, what a node's expressions name; in
//! `memory`, the memory a node uses and how a param's type spells it; in `pointer_args`, the forms
//! a kernel argument that gives memory may take; in `device_update`, the device-updatable kernel
//! nodes and the kernel arguments that reach them; in `unroll`, the copies of an unrolled WHILE
//! body.

use std::collections::BTreeMap;
use std::ops::Range;

use proc_macro2::TokenStream;
use syn::{Attribute, Ident, Type};

use crate::parse::{
    Declares, EdgeChain, EdgeData, EdgeKind, GraphDecl, Index, Item, NodeDecl, NodeOp, NodeRef,
    ParamField, ParamsBlock, Repeat,
};
use crate::reach::Reach;
use crate::repeat::{self, Env};

mod device_update;
pub mod hazards;
mod memory;
mod mentions;
mod order;
mod pointer_args;
mod unroll;

pub use crate::tokens::{each_ident, may_be_local, name_of, written};
pub use device_update::{device_arg, DeviceArg};
pub use memory::{spelled, spelled_slot, Access, Buffer, Mem, MemUse, Opaque, Spelled};
pub use mentions::{kernel_params, last_segment, operand_name};
pub use order::cycle_edges;
pub use pointer_args::{pointer_arg, FORMS as POINTER_FORMS};
pub use unroll::MAX_UNROLL;

/// Nodes added, params compared and params kept per generated function, and fields per struct
/// of kept params. The optimizer's time grows faster than linearly with a function's size and
/// with the fields of a value it builds: a 10,000-node declaration made into one function (or
/// one struct value) of each did not compile. In pieces of this size everything grows linearly,
/// and a call per piece costs nothing next to the driver calls they make.
pub(crate) const PER_FN: usize = 64;

/// Where a node or edge is declared: at the top of the graph (`None`), or in body `b` of the
/// conditional node `c` (`Some((c, b))`, node indices).
pub type Scope = Option<(usize, usize)>;

/// One iteration of a `for` loop: the loop (its index in [`Model::loops`]) and the value of its
/// variable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rep {
    pub lp: usize,
    pub value: usize,
}

/// A node of the graph: a declared node, or one iteration's instance of a node declared in a
/// loop. It derefs to its declaration; `name` is how messages name it (`attn[3]`).
pub struct Inst<'a> {
    pub decl: &'a NodeDecl,
    /// The iteration it is of, for a node declared in a loop.
    pub rep: Option<Rep>,
    /// The declared name, with the iteration's index for a repeated node: `attn[3]`; unraw
    /// (`match` for `r#match`), as the runtime names the node.
    pub name: String,
    /// [`Inst::name`] as the user must write it (`r#match[3]`): for messages that quote it in
    /// Rust syntax, such as an edge to add.
    pub written: String,
}

impl std::ops::Deref for Inst<'_> {
    type Target = NodeDecl;
    fn deref(&self) -> &NodeDecl {
        self.decl
    }
}

/// A `for` loop of the declaration.
pub struct Loop<'a> {
    pub decl: &'a Repeat,
    /// The values its variable takes, when the macro could evaluate the range.
    pub range: Option<Range<usize>>,
    /// Whether it is at the top of the graph (loops in conditional bodies and in other loops are
    /// refused: their nodes are known by name, but not made).
    pub top: bool,
    /// The loop variable's name, if the loop's header parsed.
    pub var: Option<String>,
    /// Whether its iterations would make the declaration larger than the macro checks
    /// ([`MAX_NODES`], [`MAX_EDGES`]): refused, its nodes known by name only.
    pub too_large: bool,
}

/// The most nodes a declaration with loops may have: the rules judge every pair of nodes (the
/// paths between them, kept as bits both ways, take 25 MB at 10,000 nodes and 100 MB at 20,000).
pub const MAX_NODES: usize = 20_000;

/// The most edges a declaration with loops may have.
pub const MAX_EDGES: usize = 200_000;

impl Loop<'_> {
    /// The loop variable as written, if the loop's header parsed.
    pub fn var_ident(&self) -> Option<&Ident> {
        self.decl.header.as_ref().ok().map(|h| &h.var)
    }
}

/// The instances of a node declared in a loop: the instance of value `v` is node
/// `first + (v - start) * stride`.
#[derive(Debug, Clone, Copy)]
pub struct Repeated {
    pub first: usize,
    pub stride: usize,
    pub start: usize,
    pub count: usize,
}

impl Repeated {
    /// The node of value `value`, if the loop takes it.
    pub fn at(&self, value: usize) -> Option<usize> {
        (self.start..self.start + self.count)
            .contains(&value)
            .then(|| self.first + (value - self.start) * self.stride)
    }
}

/// One declaration, resolved.
pub struct Model<'a> {
    pub decl: &'a GraphDecl,
    /// The first `params` block.
    pub params_block: Option<&'a ParamsBlock>,
    /// Params in declared order (the first declaration of each name).
    pub params: Vec<&'a ParamField>,
    /// Per param, its element type and length when it is an array whose length the macro knows
    /// (`[T; 4]`, `[T; LAYERS]` with `LAYERS` a const of the graph): `w[i]` is then one of its
    /// elements, to the rules and to `set_params`.
    pub arrays: Vec<Option<(&'a Type, usize)>>,
    /// Where each param's slots start (see [`Model::slots`]), and the number of slots last.
    slot_start: Vec<usize>,
    /// Whether some param may be missing (a `params` block did not parse).
    pub params_incomplete: bool,
    /// The graph's consts (`const LAYERS: usize = 32;` at its top), in declared order.
    pub consts: Vec<&'a syn::ItemConst>,
    /// The values of the consts the macro could evaluate.
    pub const_values: BTreeMap<String, usize>,
    /// The `for` loops, in declared order.
    pub loops: Vec<Loop<'a>>,
    /// Nodes in declared order (the first declaration of each name), those of conditional
    /// bodies included (after their conditional node, in the order of their bodies); a loop's
    /// nodes in its place, iteration by iteration.
    pub nodes: Vec<Inst<'a>>,
    /// Where each node is declared.
    pub scopes: Vec<Scope>,
    /// Params blocks written inside a conditional body (refused).
    pub misplaced_params: Vec<&'a ParamsBlock>,
    /// Params blocks written inside a loop (refused by the repetition rule).
    pub loop_params: Vec<&'a ParamsBlock>,
    /// Names of nodes whose declaration did not parse, or that a refused loop declares: known,
    /// but not usable.
    pub broken_nodes: Vec<String>,
    /// Every edge as written, in declared order (left to right, bracketed lists in order); an
    /// edge written in a loop once per iteration.
    pub edges: Vec<Edge<'a>>,
    param_index: BTreeMap<String, usize>,
    node_index: BTreeMap<String, usize>,
    /// Nodes declared in loops, by name.
    repeated: BTreeMap<String, Repeated>,
    /// Conditional handles by name: the conditional node declaring each.
    handle_index: BTreeMap<String, usize>,
    /// [`Model::resolved_edges`], as a set.
    edge_set: std::collections::BTreeSet<(usize, usize)>,
    /// The edges whose (first) writing carries data, and what.
    written_kinds: BTreeMap<(usize, usize), EdgeKind>,
    /// [`Model::reachability`], once computed.
    reach: std::cell::OnceCell<Reach>,
    /// [`Model::memory_reachability`], once computed (when it differs from `reach`).
    memory_reach: std::cell::OnceCell<Option<Reach>>,
    /// [`Model::hazards`], once computed.
    hazards: std::cell::OnceCell<hazards::Analysis>,
}

/// One `from -> to` as written (in one iteration, for an edge written in a loop).
pub struct Edge<'a> {
    pub from: &'a NodeRef,
    pub to: &'a NodeRef,
    pub arrow: &'a syn::Token![->],
    /// `(programmatic)` or `(launch_order)` after the arrow, when written.
    pub data: Option<&'a EdgeData>,
    /// The iteration, for an edge written in a loop.
    pub rep: Option<Rep>,
    /// The nodes it joins, as far as they resolve.
    pub ends: (End, End),
}

/// What one end of an edge names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum End {
    Node(usize),
    /// No node of that name: the names rule says so.
    Unknown,
    /// A node the checks cannot use (its declaration is broken, or the index does not pick an
    /// instance): reported by the rule that found it, or not at all.
    Bad,
}

impl End {
    pub fn node(self) -> Option<usize> {
        match self {
            End::Node(i) => Some(i),
            End::Unknown | End::Bad => None,
        }
    }
}

impl Edge<'_> {
    /// The edge's tokens, for an error covering `from -> to`.
    pub fn tokens(&self) -> TokenStream {
        let (from, arrow, to) = (self.from.tokens(), self.arrow, self.to.tokens());
        quote::quote!(#from #arrow #to)
    }

    /// Which edge as written it is: the same for every iteration of an edge written in a loop
    /// (so that a rule reports it once).
    pub fn site(&self) -> (usize, usize) {
        (
            self.from as *const NodeRef as usize,
            self.to as *const NodeRef as usize,
        )
    }
}

impl<'a> Model<'a> {
    pub fn new(decl: &'a GraphDecl) -> Self {
        let consts: Vec<&syn::ItemConst> = decl
            .items
            .iter()
            .filter_map(|item| match item {
                Item::Const(c) => Some(&**c),
                _ => None,
            })
            .collect();
        let (const_values, _) = repeat::eval_consts(consts.iter().copied());
        let mut model = Self {
            decl,
            params_block: None,
            params: Vec::new(),
            arrays: Vec::new(),
            slot_start: Vec::new(),
            params_incomplete: false,
            consts,
            const_values,
            loops: Vec::new(),
            nodes: Vec::new(),
            scopes: Vec::new(),
            misplaced_params: Vec::new(),
            loop_params: Vec::new(),
            broken_nodes: Vec::new(),
            edges: Vec::new(),
            param_index: BTreeMap::new(),
            node_index: BTreeMap::new(),
            repeated: BTreeMap::new(),
            handle_index: BTreeMap::new(),
            edge_set: Default::default(),
            written_kinds: BTreeMap::new(),
            reach: Default::default(),
            memory_reach: Default::default(),
            hazards: Default::default(),
        };
        model.take_items(&decl.items, None);
        // (An `#[indirect]` param is one value the launches read through its key: never taken
        // element by element.)
        model.arrays = (0..model.params.len())
            .map(|i| {
                repeat::array_of(&model.params[i].ty, &model.const_values)
                    .filter(|_| !model.is_indirect(i))
            })
            .collect();
        let mut next = 0;
        model.slot_start = std::iter::once(0)
            .chain(model.arrays.iter().map(|array| {
                next += array.map_or(1, |(_, len)| len);
                next
            }))
            .collect();
        let ends: Vec<(End, End)> = model
            .edges
            .iter()
            .map(|e| (model.resolve(e.from, e.rep), model.resolve(e.to, e.rep)))
            .collect();
        for (edge, ends) in model.edges.iter_mut().zip(ends) {
            edge.ends = ends;
        }
        model.edge_set = model.resolved_edges().into_iter().collect();
        // The first writing of an edge says what it carries (a repeated edge is an error).
        let mut first = BTreeMap::new();
        for edge in &model.edges {
            if let (Some(from), Some(to)) = (edge.ends.0.node(), edge.ends.1.node()) {
                first.entry((from, to)).or_insert(edge.data.map(|d| d.kind));
            }
        }
        model.written_kinds = first
            .into_iter()
            .filter_map(|(edge, kind)| Some((edge, kind?)))
            .collect();
        model
    }

    /// Takes in the items of the graph (`scope` is `None`) or of a conditional body.
    fn take_items(&mut self, items: &'a [Item], scope: Scope) {
        for item in items {
            match item {
                Item::Params(block) if scope.is_some() => self.misplaced_params.push(block),
                Item::Params(block) => {
                    if self.params_block.is_some() {
                        continue;
                    }
                    self.params_block = Some(block);
                    for field in &block.fields {
                        let index = self.params.len();
                        if let std::collections::btree_map::Entry::Vacant(e) =
                            self.param_index.entry(name_of(&field.name))
                        {
                            e.insert(index);
                            self.params.push(field);
                        }
                    }
                }
                Item::Node(node) => {
                    if self.node(&node.name).is_some() || self.repeated(&node.name).is_some() {
                        continue;
                    }
                    let index = self.nodes.len();
                    self.node_index.insert(name_of(&node.name), index);
                    self.nodes.push(Inst {
                        decl: node,
                        rep: None,
                        name: name_of(&node.name),
                        written: written(&node.name),
                    });
                    self.scopes.push(scope);
                    if let NodeOp::Conditional(c) = &node.op {
                        self.handle_index.entry(name_of(&c.handle)).or_insert(index);
                        for (b, body) in c.bodies.iter().enumerate() {
                            self.take_items(&body.items, Some((index, b)));
                        }
                    }
                }
                Item::Edges(chain) => self.edges.extend(chain_edges(chain, None)),
                Item::Repeat(repeat) => self.take_loop(repeat, scope.is_none()),
                Item::Invalid {
                    declares: Declares::Node(name),
                    ..
                } => self.broken_nodes.push(name_of(name)),
                Item::Invalid {
                    declares: Declares::Params,
                    ..
                } => self.params_incomplete = true,
                Item::Invalid {
                    declares: Declares::Nothing,
                    ..
                }
                | Item::Const(_)
                | Item::ControlFlow(_) => {}
            }
        }
    }

    /// Takes in a `for` loop: at the top of the graph, with a range the macro knows, its nodes
    /// and edges once per iteration (iteration by iteration); otherwise (refused) its nodes'
    /// names only.
    fn take_loop(&mut self, repeat: &'a Repeat, top: bool) {
        let lp = self.loops.len();
        let range = repeat
            .header
            .as_ref()
            .ok()
            .and_then(|h| repeat::eval_range(&h.range, &self.const_values).ok())
            .map(|(start, end)| start..end);
        // What the iterations would add, to refuse a loop too large before making it.
        let per_iteration = repeat
            .items
            .iter()
            .map(|item| match item {
                Item::Node(_) => (1, 0),
                Item::Edges(chain) => (0, chain_edges(chain, None).len()),
                _ => (0, 0),
            })
            .fold((0, 0), |(n, e), (dn, de)| (n + dn, e + de));
        let count = range.as_ref().map_or(0, |r| r.len());
        // Saturating: a count near `usize::MAX` after nodes declared before the loop overflowed
        // (a panic in a debug build of the macro, a wrapped small total and a loop of 2^64
        // iterations made in a release one).
        let too_large = count
            .saturating_mul(per_iteration.0)
            .saturating_add(self.nodes.len())
            > MAX_NODES
            || count
                .saturating_mul(per_iteration.1)
                .saturating_add(self.edges.len())
                > MAX_EDGES;
        let range = range.filter(|_| !too_large);
        self.loops.push(Loop {
            decl: repeat,
            range: range.clone(),
            top,
            var: repeat.header.as_ref().ok().map(|h| name_of(&h.var)),
            too_large,
        });
        // Its node declarations (the first of each name), in order; conditional nodes and nested
        // loops are refused (their nodes are known by name only).
        let mut decls: Vec<&'a NodeDecl> = Vec::new();
        for item in &repeat.items {
            match item {
                Item::Node(node)
                    if self.node(&node.name).is_none() && self.repeated(&node.name).is_none() =>
                {
                    // (A loop of no iteration makes no node: its nodes are known by name.)
                    let usable = top
                        && range.as_ref().is_some_and(|r| !r.is_empty())
                        && !matches!(node.op, NodeOp::Conditional(_));
                    if !usable {
                        self.break_names(std::slice::from_ref(item));
                    } else if !decls
                        .iter()
                        .any(|d| name_of(&d.name) == name_of(&node.name))
                    {
                        decls.push(node);
                    }
                }
                Item::Repeat(inner) => {
                    self.take_loop(inner, false);
                }
                Item::Params(block) => self.loop_params.push(block),
                Item::Invalid {
                    declares: Declares::Node(name),
                    ..
                } => self.broken_nodes.push(name_of(name)),
                _ => {}
            }
        }
        let Some(range) = range.filter(|_| top) else {
            return;
        };
        // A loop that adds no node and no edge is not walked: the limit above does not bound its
        // count (`for i in 0..18446744073709551615 {}` ran 2^64 empty iterations).
        if decls.is_empty() && per_iteration.1 == 0 {
            return;
        }
        let first = self.nodes.len();
        for (d, decl) in decls.iter().enumerate() {
            self.repeated.insert(
                name_of(&decl.name),
                Repeated {
                    first: first + d,
                    stride: decls.len(),
                    start: range.start,
                    count: range.len(),
                },
            );
        }
        for value in range {
            let rep = Some(Rep { lp, value });
            for decl in &decls {
                self.nodes.push(Inst {
                    decl,
                    rep,
                    name: format!("{}[{value}]", name_of(&decl.name)),
                    written: format!("{}[{value}]", written(&decl.name)),
                });
                self.scopes.push(None);
            }
            for item in &repeat.items {
                if let Item::Edges(chain) = item {
                    self.edges.extend(chain_edges(chain, rep));
                }
            }
        }
    }

    /// Marks the nodes that `items` declare (in conditional bodies and loops too) known by name
    /// only.
    fn break_names(&mut self, items: &'a [Item]) {
        for item in items {
            match item {
                Item::Node(node) => {
                    self.broken_nodes.push(name_of(&node.name));
                    if let NodeOp::Conditional(c) = &node.op {
                        for body in &c.bodies {
                            self.break_names(&body.items);
                        }
                    }
                }
                Item::Repeat(inner) => self.break_names(&inner.items),
                _ => {}
            }
        }
    }

    /// Every item of the declaration, those of conditional bodies and loops included, with where
    /// each is.
    pub fn all_items(&self) -> Vec<(&'a Item, Scope)> {
        fn walk<'a>(
            items: &'a [Item],
            scope: Scope,
            model: &Model<'a>,
            out: &mut Vec<(&'a Item, Scope)>,
        ) {
            for item in items {
                out.push((item, scope));
                match item {
                    Item::Node(node) => {
                        if let (NodeOp::Conditional(c), Some(index)) =
                            (&node.op, model.node(&node.name))
                        {
                            if std::ptr::eq(model.nodes[index].decl, &**node) {
                                for (b, body) in c.bodies.iter().enumerate() {
                                    walk(&body.items, Some((index, b)), model, out);
                                }
                            }
                        }
                    }
                    Item::Repeat(repeat) => walk(&repeat.items, scope, model, out),
                    _ => {}
                }
            }
        }
        let mut out = Vec::new();
        walk(&self.decl.items, None, self, &mut out);
        out
    }

    /// The names an index may use in iteration `rep` (outside loops: the consts only).
    pub fn env(&self, rep: Option<Rep>) -> Env<'_> {
        Env {
            consts: &self.const_values,
            var: rep.and_then(|r| Some((self.loops[r.lp].var.as_deref()?, r.value))),
        }
    }

    /// Whether node `index` is its declaration's first instance (a node outside loops is its
    /// only one): the node a rule about the declaration itself, not about one iteration, looks at.
    pub fn first_of_decl(&self, index: usize) -> bool {
        match self.nodes[index].rep {
            None => true,
            Some(rep) => self.loops[rep.lp]
                .range
                .as_ref()
                .is_some_and(|r| r.start == rep.value),
        }
    }

    /// Whether `edge` is its writing's first iteration (an edge outside loops is its only one):
    /// the edge a rule about the edge as written reports at.
    pub fn first_of_edge(&self, edge: &Edge) -> bool {
        match edge.rep {
            None => true,
            Some(rep) => self.loops[rep.lp]
                .range
                .as_ref()
                .is_some_and(|r| r.start == rep.value),
        }
    }

    /// The conditional node whose handle is named `name`.
    pub fn handle(&self, name: &Ident) -> Option<usize> {
        self.handle_index.get(&name_of(name)).copied()
    }

    /// The conditional nodes enclosing node `index`, innermost first, with the body it is in.
    pub fn enclosing(&self, index: usize) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        let mut scope = self.scopes[index];
        while let Some((c, b)) = scope {
            out.push((c, b));
            scope = self.scopes[c];
        }
        out
    }

    /// Whether a conditional node's handle may be set by node `index`: a node of the scope the
    /// conditional node is in, or of any body within that scope (at any depth).
    pub fn may_set(&self, index: usize, conditional: usize) -> bool {
        match self.scopes[conditional] {
            None => true,
            Some(home) => self.enclosing(index).contains(&home),
        }
    }

    /// The nodes of `scope`, as `index` orders them (`order`: all nodes, in some order).
    pub fn in_scope(&self, order: &[usize], scope: Scope) -> Vec<usize> {
        order
            .iter()
            .copied()
            .filter(|&i| self.scopes[i] == scope)
            .collect()
    }

    /// For two nodes, the nodes standing for them in the innermost scope holding both (the
    /// nodes themselves, or the conditional nodes whose bodies hold them); `None` when they are
    /// in different bodies of one conditional node, which never run at the same time.
    pub fn in_common_scope(&self, a: usize, b: usize) -> Option<(usize, usize)> {
        // Each node's representatives, innermost scope first.
        let chain = |i: usize| {
            let mut chain = vec![(self.scopes[i], i)];
            while let Some((c, _)) = chain.last().unwrap().0 {
                chain.push((self.scopes[c], c));
            }
            chain
        };
        let (ca, cb) = (chain(a), chain(b));
        let (node_a, node_b) = ca.iter().find_map(|&(scope, node_a)| {
            cb.iter()
                .find(|&&(s, _)| s == scope)
                .map(|&(_, node_b)| (node_a, node_b))
        })?;
        // One conditional node standing for both: they are in different bodies of it (or one
        // is the node itself), which never run at the same time.
        (node_a != node_b).then_some((node_a, node_b))
    }

    /// The index of the node named `name`, if it is not declared in a loop (see
    /// [`Model::repeated`]).
    pub fn node(&self, name: &Ident) -> Option<usize> {
        self.node_index.get(&name_of(name)).copied()
    }

    /// The instances of the node named `name`, if it is declared in a loop.
    pub fn repeated(&self, name: &Ident) -> Option<Repeated> {
        self.repeated.get(&name_of(name)).copied()
    }

    /// The index of the param named `name`.
    pub fn param(&self, name: &Ident) -> Option<usize> {
        self.param_index.get(&name_of(name)).copied()
    }

    /// Whether `name` names a node, even one whose declaration did not parse.
    pub fn knows_node(&self, name: &Ident) -> bool {
        self.node(name).is_some()
            || self.repeated(name).is_some()
            || self.broken_nodes.contains(&name_of(name))
    }

    /// The value of an index in iteration `rep`, if the macro can evaluate it.
    pub fn index_value(&self, index: &Index, rep: Option<Rep>) -> Result<usize, repeat::Unknown> {
        repeat::eval(&index.expr, self.env(rep))
    }

    /// The node `r` names in iteration `rep` (see [`End`]; `check::repetition` reports the
    /// indices that pick no instance).
    pub fn resolve(&self, r: &NodeRef, rep: Option<Rep>) -> End {
        if let Some(i) = self.node(&r.name) {
            return if r.index.is_none() {
                End::Node(i)
            } else {
                End::Bad
            };
        }
        if let Some(repeated) = self.repeated(&r.name) {
            let picked = r
                .index
                .as_ref()
                .and_then(|index| self.index_value(index, rep).ok())
                .and_then(|value| repeated.at(value));
            return picked.map_or(End::Bad, End::Node);
        }
        if self.broken_nodes.contains(&name_of(&r.name)) {
            End::Bad
        } else {
            End::Unknown
        }
    }

    /// The edges between declared nodes as `(from, to)` node indices, in declared order: self
    /// edges, repeated edges and edges to unknown nodes (all rejected by the checks) left out.
    pub fn resolved_edges(&self) -> Vec<(usize, usize)> {
        let mut out: Vec<(usize, usize)> = Vec::new();
        let mut seen = std::collections::BTreeSet::new();
        for edge in &self.edges {
            if let (Some(from), Some(to)) = (edge.ends.0.node(), edge.ends.1.node()) {
                if from != to && seen.insert((from, to)) {
                    out.push((from, to));
                }
            }
        }
        out
    }

    /// What the edge `from -> to` (node indices, an edge of [`Model::resolved_edges`]) carries:
    /// what its first writing says after its arrow, else, under the graph's
    /// `#[programmatic]`, programmatic when that changes nothing the declaration relies on
    /// ([`Model::programmatic_eligible`]), else plain.
    pub fn edge_kind(&self, from: usize, to: usize) -> EdgeKind {
        match self.written_kinds.get(&(from, to)) {
            Some(&kind) => kind,
            None if self.programmatic_mode().is_some() && self.programmatic_eligible(from, to) => {
                EdgeKind::Programmatic
            }
            None => EdgeKind::Plain,
        }
    }

    /// Whether `#[programmatic]` turns the plain edge `from -> to` into a programmatic one: both
    /// ends kernel nodes, and the consumer waits (`#[waits]`), so the edge still orders memory
    /// (and every path through it still orders what it did).
    /// (Never an edge of a `for` loop's node: a loop's nodes are joined by plain edges.)
    pub fn programmatic_eligible(&self, from: usize, to: usize) -> bool {
        self.is_kernel(from)
            && self.is_kernel(to)
            && self.waits(to)
            && self.nodes[from].rep.is_none()
            && self.nodes[to].rep.is_none()
    }

    /// The graph's `#[programmatic]` attribute: every eligible edge is programmatic.
    pub fn programmatic_mode(&self) -> Option<&'a Attribute> {
        self.decl
            .attrs
            .iter()
            .find(|a| a.path().is_ident("programmatic"))
    }

    /// Whether node `index` is a kernel node.
    pub fn is_kernel(&self, index: usize) -> bool {
        matches!(self.nodes[index].op, NodeOp::Kernel(_))
    }

    /// Whether node `index` is a kernel node declared `#[waits]`: its kernel waits for the
    /// kernels it depends on (`griddepcontrol.wait`) before it touches memory.
    pub fn waits(&self, index: usize) -> bool {
        self.is_kernel(index) && self.waits_attr(index).is_some()
    }

    /// The `#[waits]` attribute of node `index`.
    pub fn waits_attr(&self, index: usize) -> Option<&'a Attribute> {
        self.nodes[index]
            .decl
            .attrs
            .iter()
            .find(|a| a.path().is_ident("waits"))
    }

    /// The alloc node named `name`, by index (not one declared in a loop: see
    /// [`Model::names_allocation`]).
    pub fn allocation(&self, name: &Ident) -> Option<usize> {
        self.node(name)
            .filter(|&i| matches!(self.nodes[i].op, NodeOp::Alloc(_)))
    }

    /// Whether `name` names an alloc node, declared in a loop or not.
    pub fn names_allocation(&self, name: &Ident) -> bool {
        self.allocation(name).is_some()
            || self
                .repeated(name)
                .is_some_and(|r| matches!(self.nodes[r.first].op, NodeOp::Alloc(_)))
    }

    /// The allocation a free node frees (its alloc node's index), if it names one.
    pub fn freed(&self, node: &Inst) -> Option<usize> {
        match &node.op {
            NodeOp::Free(f) => self
                .resolve(&f.alloc, node.rep)
                .node()
                .filter(|&i| matches!(self.nodes[i].op, NodeOp::Alloc(_))),
            _ => None,
        }
    }

    /// Per alloc node (by index), the free nodes that free it, in declared order.
    pub fn frees(&self) -> BTreeMap<usize, Vec<usize>> {
        let mut out: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        for (f, node) in self.nodes.iter().enumerate() {
            if let Some(a) = self.freed(node) {
                out.entry(a).or_default().push(f);
            }
        }
        out
    }

    /// Whether the declaration has memory nodes (alloc or free).
    pub fn has_memory_nodes(&self) -> bool {
        self.nodes
            .iter()
            .any(|n| matches!(n.op, NodeOp::Alloc(_) | NodeOp::Free(_)))
    }

    /// The alloc nodes that no free node frees: their allocations outlive each launch.
    pub fn outliving_allocations(&self) -> Vec<usize> {
        let frees = self.frees();
        (0..self.nodes.len())
            .filter(|&i| matches!(self.nodes[i].op, NodeOp::Alloc(_)))
            .filter(|i| !frees.contains_key(i))
            .collect()
    }

    /// The graph's non-doc attributes (applied to every generated item) and its doc attributes.
    /// (`#[device_launch]` is the macro's own: it goes to no item.)
    pub fn split_attrs(&self) -> (Vec<&'a Attribute>, Vec<&'a Attribute>) {
        self.decl
            .attrs
            .iter()
            .filter(|a| !a.path().is_ident("programmatic") && !a.path().is_ident("device_launch"))
            .partition(|a| !a.path().is_ident("doc"))
    }

    /// The `#[device_launch]` attribute of the declaration, if it has one: its executables are
    /// launched from the device (CUDA's rules for device graphs apply, `check::device_launch`).
    pub fn device_launch(&self) -> Option<&'a Attribute> {
        self.decl
            .attrs
            .iter()
            .find(|a| a.path().is_ident("device_launch"))
    }
}

/// The edges of `a -> [b, c] -> d`: every name of a term to every name of the next.
/// (In iteration `rep`, for a chain written in a loop; resolved once every node is known.)
fn chain_edges(chain: &EdgeChain, rep: Option<Rep>) -> Vec<Edge<'_>> {
    let mut edges = Vec::new();
    for ((pair, arrow), data) in chain.terms.windows(2).zip(&chain.arrows).zip(&chain.data) {
        for from in pair[0].names() {
            for to in pair[1].names() {
                edges.push(Edge {
                    from,
                    to,
                    arrow,
                    data: data.as_ref(),
                    rep,
                    ends: (End::Unknown, End::Unknown),
                });
            }
        }
    }
    edges
}

#[cfg(test)]
mod tests;
