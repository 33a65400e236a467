//! Code generation: one declaration becomes a params struct, a graph type, an executable type and
//! one handle type per node, over `::cudagraph_runtime::__private`.
//!
//! Hygiene: the generated code's own locals use `Span::mixed_site()`, so they can neither capture
//! nor be captured by the user's expressions; params are bound under the user's own identifiers,
//! so the user's expressions see exactly the params. Helpers are called with the user's tokens as
//! arguments (and spans), so type errors land on those tokens.

mod device_launch;
mod docs;
mod exec;
mod graph;
mod handles;
mod hazards;
mod node;
mod owned;
mod tracked;

use proc_macro2::{Group, Span, TokenStream, TokenTree};
use quote::{format_ident, quote, quote_spanned, ToTokens};
use syn::{Attribute, Ident};

use crate::check::{self, Ctxt};
use crate::model::{name_of, Model};
use crate::parse::{EdgeKind, Input, NodeDecl, NodeOp};

/// Checks every declaration of the call, then generates the code of each.
pub fn expand(input: Input) -> syn::Result<TokenStream> {
    let models: Vec<Model> = input.graphs.iter().map(Model::new).collect();
    let mut cx = Ctxt::default();
    check::check(&models, &mut cx);
    cx.finish()?;
    let mut out = TokenStream::new();
    for model in &models {
        // The graph's consts, as written: the params' array types and the user's code name them.
        // The macro uses their values itself (a count, an index), so Rust may see no use.
        for c in &model.consts {
            out.extend(quote!(#[allow(dead_code)]));
            c.to_tokens(&mut out);
        }
        out.extend(Gen::new(model)?.expand());
    }
    Ok(out)
}

/// The generated code's own hygiene, at the location of the user's token `span`: errors land
/// there, while names still resolve as in the rest of the generated code.
fn at(span: Span) -> Span {
    Span::call_site().located_at(span)
}

/// `::cudagraph_runtime::__private` at the location of `span`.
fn private_at(span: Span) -> TokenStream {
    let span = at(span);
    quote_spanned!(span=> ::cudagraph_runtime::__private)
}

/// The `&<Graph>Params` argument of generated functions, at the location of `span`. A call-site
/// name (not mixed-site) so that it can be located at user tokens without breaking spans; the
/// user's expressions never see it, since params are bound under their own names.
fn params_at(span: Span) -> Ident {
    Ident::new("__cg_params", at(span))
}

/// The parts of the graph or executable (see `__private::Guarded`) that a generated method
/// bound, at the location of `span` (call-site, as [`params_at`]).
fn parts_at(span: Span) -> Ident {
    Ident::new("__cg_parts", at(span))
}

/// The graph being built in `build`, at the location of `span` (call-site, as [`params_at`]).
fn graph_at(span: Span) -> Ident {
    Ident::new("__cg_graph", at(span))
}

/// `ident`, with its own hygiene, at the location of `span`.
fn moved(ident: &Ident, span: Span) -> Ident {
    let mut ident = ident.clone();
    ident.set_span(ident.span().located_at(span));
    ident
}

/// `tokens`, every one at the location of `span` with its own hygiene: for code about one node
/// whose type errors, wherever met, belong at the node's site.
fn relocated(tokens: TokenStream, span: Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|tt| match tt {
            TokenTree::Group(g) => {
                let mut moved = Group::new(g.delimiter(), relocated(g.stream(), span));
                moved.set_span(g.span().located_at(span));
                TokenTree::Group(moved)
            }
            mut other => {
                other.set_span(other.span().located_at(span));
                other
            }
        })
        .collect()
}

/// See [`NodeGen::site`].
fn site_of(op: &NodeOp) -> Span {
    use syn::spanned::Spanned;
    match op {
        NodeOp::Kernel(k) => k.kernel.span(),
        NodeOp::Memset(m) => m.dst.span(),
        NodeOp::Memcpy(m) => m.arrow.spans[0],
        NodeOp::Host(h) => h.f.span(),
        NodeOp::Child(c) => c.graph.span(),
        NodeOp::Empty(e) => e.span,
        NodeOp::Alloc(a) => a.elem.span(),
        NodeOp::Free(f) => f.alloc.name.span(),
        NodeOp::Record(r) => r.event.span(),
        NodeOp::Wait(w) => w.event.span(),
        NodeOp::Conditional(c) => c.handle.span(),
        NodeOp::Capture(c) => c.work.span(),
        // The first semaphore (a node has at least one).
        NodeOp::SemaphoreSignal(s) | NodeOp::SemaphoreWait(s) => {
            s.sems.first().map_or(s.keyword, |(sem, _)| sem.span())
        }
        // At its (first) buffer, which fixes its element type.
        NodeOp::Collective(c) => c.src.span(),
    }
}

/// The order the generated code numbers nodes in (as the runtime numbers them in an
/// executable): the graph's own nodes in topological order, then each conditional node's bodies
/// in turn, each body's own nodes followed by its nested bodies (depth first).
fn build_order(model: &Model, topological: &[usize]) -> Vec<usize> {
    fn visit(
        model: &Model,
        topological: &[usize],
        scope: Option<(usize, usize)>,
        out: &mut Vec<usize>,
    ) {
        let members = model.in_scope(topological, scope);
        out.extend(&members);
        for c in members {
            if let NodeOp::Conditional(cond) = &model.nodes[c].op {
                for b in 0..cond.bodies.len() {
                    visit(model, topological, Some((c, b)), out);
                }
            }
        }
    }
    let mut out = Vec::with_capacity(topological.len());
    visit(model, topological, None, &mut out);
    out
}

/// The field of the executable's node struct (and the local in `build`) holding the key of
/// `#[indirect]` param `name`.
fn indirect_key(name: &Ident) -> Ident {
    format_ident!("__cg_indirect_{}", name_of(name))
}

/// The field (of the nodes struct) and eval-function parameter holding the device handle of the
/// `#[device_updatable]` kernel node `name`.
fn device_node_key(name: &Ident) -> Ident {
    format_ident!("__cg_device_node_{}", name_of(name))
}

/// The executable's method that makes the single-node update of the node at `pos` from the
/// params it keeps (see `tracked`).
fn update_fn(pos: usize) -> Ident {
    format_ident!("__cg_update_node_{}", pos)
}

/// Whether a node of this kind has a single-node update, and so an [`update_fn`] (alloc and
/// collective nodes are only checked, see [`checked_only`]).
fn updatable(op: &NodeOp) -> bool {
    op.kind().updatable
}

pub(crate) use crate::model::PER_FN;

/// Whether a node of this kind is only checked by `set_params` (its `update_node` refuses a
/// change instead of making one): alloc nodes (CUDA fixes an allocation's size) and collective
/// nodes (NCCL fixes a collective's communicator and buffers). The checks run before any node is
/// updated, so a refused change leaves the executable as it was.
fn checked_only(op: &NodeOp) -> bool {
    matches!(op, NodeOp::Alloc(_) | NodeOp::Collective(_))
}

/// An identifier only the generated code can see.
pub(crate) fn local(name: &str) -> Ident {
    Ident::new(name, Span::mixed_site())
}

pub use crate::text::camel;

/// Everything one declaration's generated code refers to.
struct Gen<'a> {
    model: &'a Model<'a>,
    /// `::cudagraph_runtime::__private`.
    p: TokenStream,
    graph: &'a Ident,
    params_ty: Ident,
    exec_ty: Ident,
    /// `<Graph>ParamsMut`, the guard of `params_mut()`.
    guard_ty: Ident,
    /// `<Graph>Slots`, the slot tokens the guard's `swap` lends its `pick`.
    slots_ty: Ident,
    nodes_ty: Ident,
    state_ty: Ident,
    launch_ty: Ident,
    /// The parts of the graph type, in its one `Guarded` field (see `__private::Guarded`).
    parts_ty: Ident,
    /// The parts of the executable type, likewise.
    exec_parts_ty: Ident,
    /// Attributes every generated item gets (`cfg`, lints).
    pass: Vec<&'a Attribute>,
    /// The graph's doc comments.
    docs: Vec<&'a Attribute>,
    /// The nodes in the order they are added (a node declared in a loop once per iteration).
    nodes: Vec<NodeGen<'a>>,
    /// The declarations, each with code of its own: the position of each one's first instance
    /// (a node outside loops is its only one), in build order.
    decls: Vec<usize>,
    /// Whether the declaration has `for` loops: `build` adds their nodes in loops, and keeps the
    /// ids of the nodes added, by position, for their dependencies.
    repeats: bool,
    /// Per declaration (by its first instance's position), its instances' positions, by index.
    instances: std::collections::BTreeMap<usize, Vec<usize>>,
    /// Each model node's position (by its index in `Model::nodes`).
    position: Vec<usize>,
    /// `(dependency, dependent)` positions, per node in order, dependencies in declared order.
    edges: Vec<(usize, usize)>,
    /// What each param is to the nodes: how it is copied and compared (see `owned`).
    roles: Vec<Role>,
    /// What the hazard rule leaves to the types and to the values.
    analysis: &'a crate::model::hazards::Analysis,
}

/// What a param is to the nodes, which decides how the graph and its executable copy it and how
/// `set_params` tells whether it changed.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    /// A value: cloned, compared with `PartialEq` (`Clone + PartialEq`).
    Value,
    /// A kernel node's kernel: cloned, compared by function.
    Kernel,
    /// A child node's graph: duplicated (`ChildGraph::duplicate`), compared by identity.
    Child,
    /// A kernel node's whole launch configuration (`<<<cfg>>>`): copied, compared by its sizes
    /// (cudarc's `LaunchConfig` has no `PartialEq`).
    Config,
}

/// One node, as the generated code sees it.
struct NodeGen<'a> {
    decl: &'a NodeDecl,
    /// Position in the build order: the node's index in the runtime graph.
    pos: usize,
    /// The declared name, without `r#`.
    name: String,
    /// `<Graph><Node>Node`, the update handle.
    handle: Ident,
    /// The function computing the node's inputs from the params.
    eval: Ident,
    /// Positions of the node's dependencies through plain edges, in declared order.
    deps: Vec<usize>,
    /// Positions of the node's dependencies through edges with data (`->(programmatic)`,
    /// `->(launch_order)`, or `#[programmatic]`'s), in declared order: added after the node.
    data_deps: Vec<(usize, EdgeKind)>,
    /// Indices of the params its expressions read.
    mentions: Vec<usize>,
    /// Positions of the alloc nodes whose allocations its expressions name.
    allocs: Vec<usize>,
    /// Positions of the conditional nodes whose handles its expressions name.
    handles: Vec<usize>,
    /// Positions of the device-updatable kernel nodes whose device handles its kernel takes
    /// (`device_node(x)` arguments), in the order first named.
    dev_nodes: Vec<usize>,
    /// Whether it is a `#[device_updatable]` kernel node: added with its device handle, which
    /// the nodes struct keeps for the kernels that take it.
    device_updatable: bool,
    /// Indices of the `#[indirect]` params its expressions name (it gets their keys).
    indirects: Vec<usize>,
    /// Where the node is: `None` at the top of the graph, else the position of its conditional
    /// node and the body's index.
    scope: Option<(usize, usize)>,
    /// The user's token that fixes the node's types (the kernel's name, a memset's
    /// destination, a memcpy's arrow, ...): code using those types is located there, so that a
    /// type error is reported there whichever use of the type meets it.
    site: Span,
    /// The slots (see `Model::slots`) its expressions read, sorted.
    slots: Vec<usize>,
    /// For an instance of a node declared in a loop: which one, and how many there are.
    rep: Option<RepGen<'a>>,
    /// The position of its declaration's first instance (its own, outside loops): the node
    /// whose name the declaration's code (eval and update functions, handle) is made from.
    first: usize,
    /// For a node directly in an unrolled WHILE body: whether it is in each copy or in the last
    /// only (see `model::unroll`).
    copies: Option<Copies>,
    /// For a node in each copy of an unrolled body, its dependencies in the copies before the
    /// last (where the checks are missing): plain, then with data (see [`copy_deps`]).
    copy_deps: (Vec<usize>, Vec<(usize, EdgeKind)>),
}

/// How a node of an unrolled WHILE body is added (see `model::unroll`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Copies {
    /// In each of the body's `k` copies: its handle is an array of `k`, by copy.
    Each(usize),
    /// A check (it sets the loop's handle): in the last of the body's `k` copies only.
    Last(usize),
}

impl Copies {
    /// The body's number of copies.
    fn count(self) -> usize {
        match self {
            Copies::Each(k) | Copies::Last(k) => k,
        }
    }
}

/// The dependencies of node `n` (a node in each copy of an unrolled body) in the copies before
/// the last, where the checks are missing: a check stands for what it depends on, through
/// every edge (an edge with data from a check becomes plain there: ordering more is safe), so
/// the nodes keep the order the declaration gives them. Plain dependencies, then with data, each
/// once, in declared order.
fn copy_deps(nodes: &[NodeGen], n: usize) -> (Vec<usize>, Vec<(usize, EdgeKind)>) {
    fn through_checks(nodes: &[NodeGen], d: usize, out: &mut Vec<usize>) {
        if !matches!(nodes[d].copies, Some(Copies::Last(_))) {
            if !out.contains(&d) {
                out.push(d);
            }
            return;
        }
        let node = &nodes[d];
        for &dep in node
            .deps
            .iter()
            .chain(node.data_deps.iter().map(|(d, _)| d))
        {
            through_checks(nodes, dep, out);
        }
    }
    let node = &nodes[n];
    let mut plain = Vec::new();
    for &d in &node.deps {
        through_checks(nodes, d, &mut plain);
    }
    let mut data = Vec::new();
    for &(d, kind) in &node.data_deps {
        if matches!(nodes[d].copies, Some(Copies::Last(_))) {
            through_checks(nodes, d, &mut plain);
        } else {
            data.push((d, kind));
        }
    }
    (plain, data)
}

/// What an instance of a repeated node knows of its declaration.
#[derive(Clone, Copy)]
struct RepGen<'a> {
    /// Its index among the declaration's instances (the loop variable's value: a loop that
    /// declares nodes counts from 0).
    index: usize,
    /// The number of instances.
    count: usize,
    /// The loop's variable, as written.
    var: &'a Ident,
    /// The loop, by index in `Model::loops`.
    lp: usize,
}

impl<'a> Gen<'a> {
    fn new(model: &'a Model<'a>) -> syn::Result<Self> {
        let graph = &model.decl.name;
        let topological = model.canonical_order().ok_or_else(|| {
            // The cycle rule has reported this already; never reached after a clean check.
            syn::Error::new(graph.span(), "the graph has a dependency cycle")
        })?;
        let order = build_order(model, &topological);
        let mut pos = vec![0; order.len()];
        for (p, &decl) in order.iter().enumerate() {
            pos[decl] = p;
        }
        let mut deps: Vec<Vec<usize>> = vec![Vec::new(); order.len()];
        let mut data_deps: Vec<Vec<(usize, EdgeKind)>> = vec![Vec::new(); order.len()];
        for (from, to) in model.resolved_edges() {
            match model.edge_kind(from, to) {
                EdgeKind::Plain => deps[to].push(pos[from]),
                kind => data_deps[to].push((pos[from], kind)),
            }
        }
        // Each alloc node's declaration, by its first instance (a repeated node's eval function
        // gets all the instances' allocations, and its expression indexes them).
        let first_of = |i: usize| {
            let inst = &model.nodes[i];
            match (inst.rep, model.repeated(&inst.decl.name)) {
                (Some(rep), Some(r)) => r
                    .at(model.loops[rep.lp].range.as_ref().map_or(0, |r| r.start))
                    .unwrap_or(i),
                _ => i,
            }
        };
        let nodes: Vec<NodeGen> = order
            .iter()
            .enumerate()
            .map(|(p, &index)| {
                let inst = &model.nodes[index];
                let node = inst.decl;
                let name = name_of(&node.name);
                let mut allocs: Vec<usize> = Vec::new();
                for (a, _) in model.alloc_mentions(inst) {
                    let a = pos[first_of(a)];
                    if !allocs.contains(&a) {
                        allocs.push(a);
                    }
                }
                let rep = inst.rep.and_then(|rep| {
                    let lp = &model.loops[rep.lp];
                    let r = model.repeated(&node.name)?;
                    Some(RepGen {
                        index: rep.value - r.start,
                        count: r.count,
                        var: lp.var_ident()?,
                        lp: rep.lp,
                    })
                });
                NodeGen {
                    decl: node,
                    pos: p,
                    first: p,
                    handle: format_ident!(
                        "{}{}Node",
                        name_of(graph),
                        camel(&name),
                        span = node.name.span()
                    ),
                    eval: format_ident!("__cg_eval_{}", name),
                    deps: deps[index].clone(),
                    data_deps: data_deps[index].clone(),
                    mentions: model.mentions(node),
                    allocs,
                    handles: model
                        .handle_mentions(node)
                        .into_iter()
                        .map(|(c, _)| pos[c])
                        .collect(),
                    dev_nodes: {
                        let mut found: Vec<usize> = Vec::new();
                        for arg in model.device_args(index) {
                            if let crate::model::DeviceArg::Node(x) = arg {
                                if let Some(t) = model.node(x).map(|t| pos[t]) {
                                    if !found.contains(&t) {
                                        found.push(t);
                                    }
                                }
                            }
                        }
                        found
                    },
                    device_updatable: model.is_device_updatable(index),
                    scope: model.scopes[index].map(|(c, b)| (pos[c], b)),
                    indirects: model.indirect_mentions(node),
                    site: site_of(&node.op),
                    slots: model.slot_mentions(inst),
                    rep,
                    name: inst.name.clone(),
                    copies: model.unrolled_in(index).map(|(_, k)| {
                        if model.is_unroll_check(index) {
                            Copies::Last(k)
                        } else {
                            Copies::Each(k)
                        }
                    }),
                    copy_deps: Default::default(),
                }
            })
            .collect();
        let mut nodes = nodes;
        for n in 0..nodes.len() {
            if let Some(Copies::Each(_)) = nodes[n].copies {
                nodes[n].copy_deps = copy_deps(&nodes, n);
            }
        }
        let decls: Vec<usize> = (0..nodes.len())
            .filter(|&p| model.first_of_decl(order[p]))
            .collect();
        // Each declaration's instances, by index (one pass: a declaration may have thousands
        // of nodes, or be one of thousands).
        let mut by_decl: std::collections::BTreeMap<*const NodeDecl, Vec<(usize, usize)>> =
            Default::default();
        for n in &nodes {
            by_decl
                .entry(n.decl)
                .or_default()
                .push((n.rep.map_or(0, |r| r.index), n.pos));
        }
        let mut instances: std::collections::BTreeMap<usize, Vec<usize>> = Default::default();
        for &d in &decls {
            let mut found = by_decl
                .remove(&(nodes[d].decl as *const _))
                .unwrap_or_default();
            found.sort_unstable();
            for &(_, pos) in &found {
                nodes[pos].first = d;
            }
            instances.insert(d, found.into_iter().map(|(_, pos)| pos).collect());
        }
        let edges = nodes
            .iter()
            .flat_map(|n| {
                let data = n.data_deps.iter().map(|&(d, _)| d);
                n.deps.iter().copied().chain(data).map(move |d| (d, n.pos))
            })
            .collect();
        let mut roles = vec![Role::Value; model.params.len()];
        let param_of = |expr: &syn::Expr| match expr {
            syn::Expr::Path(path) => path.path.get_ident().and_then(|id| model.param(id)),
            _ => None,
        };
        // (A child node's graph may be an element of an array param, its role the elements'.)
        let operand_param =
            |expr: &syn::Expr| crate::model::operand_name(expr).and_then(|(id, _)| model.param(id));
        for node in &model.nodes {
            match &node.op {
                NodeOp::Kernel(k) => {
                    if let Some(i) = model.param(&k.kernel) {
                        if roles[i] == Role::Value {
                            roles[i] = Role::Kernel;
                        }
                    }
                    // `<<<cfg>>>`: a launch configuration given as a param.
                    if let (1, Some(i)) = (k.config.len(), k.config.first().and_then(param_of)) {
                        if roles[i] == Role::Value {
                            roles[i] = Role::Config;
                        }
                    }
                }
                NodeOp::Child(c) => {
                    if let Some(i) = operand_param(&c.graph) {
                        roles[i] = Role::Child;
                    }
                }
                _ => {}
            }
        }
        let (pass, docs) = model.split_attrs();
        let base = name_of(graph);
        let hidden = |suffix: &str| format_ident!("__{}{}", base, suffix);
        Ok(Self {
            model,
            p: quote!(::cudagraph_runtime::__private),
            graph,
            params_ty: format_ident!("{}Params", base, span = graph.span()),
            exec_ty: format_ident!("{}Exec", base, span = graph.span()),
            guard_ty: format_ident!("{}ParamsMut", base, span = graph.span()),
            slots_ty: format_ident!("{}Slots", base, span = graph.span()),
            nodes_ty: hidden("Nodes"),
            state_ty: hidden("State"),
            launch_ty: hidden("Launch"),
            parts_ty: hidden("Parts"),
            exec_parts_ty: hidden("ExecParts"),
            pass,
            docs,
            nodes,
            decls,
            instances,
            position: pos,
            repeats: model.loops.iter().any(|l| l.top),
            edges,
            roles,
            analysis: model.hazards(),
        })
    }

    /// The declared nodes, each once (by its first instance), in build order.
    fn decl_nodes(&self) -> impl Iterator<Item = &NodeGen<'a>> {
        self.decls.iter().map(|&p| &self.nodes[p])
    }

    /// The positions of a declaration's instances, by index (`node`: any of them; a node outside
    /// loops is its only instance).
    fn positions(&self, node: &NodeGen) -> &[usize] {
        &self.instances[&node.first]
    }

    fn expand(&self) -> TokenStream {
        let params = graph::params_struct(self);
        let graph = graph::graph_type(self);
        let exec = exec::exec_type(self);
        let owned = owned::owned(self);
        let tracked = tracked::tracked(self);
        let handles = self.decl_nodes().map(|n| handles::handle(self, n));
        let assertions = hazards::assertions(self, self.analysis);
        let device_copies = device_launch::memcpy_assertions(self);
        quote! {
            #assertions
            #device_copies
            #params
            #graph
            #exec
            #owned
            #tracked
            #(#handles)*
        }
    }

    /// The bindings a node's expressions read: its params as locals (by value when `Copy`), and
    /// again the allocations, conditional handles and `#[indirect]` keys its eval function gets.
    ///
    /// Each name is bound under every token that names it in the node, with that token's
    /// hygiene: a declaration that `macro_rules!` makes from its own tokens and its caller's
    /// (`n` declared in the macro, `n` given by the caller) is resolved as written out.
    ///
    /// In a node declared in a loop, the loop variable is bound too, to the instance's index
    /// (`var`: the variable, `index` the eval function's argument).
    fn bindings(
        &self,
        params: &Ident,
        node: &NodeDecl,
        var: Option<(&Ident, &Ident)>,
    ) -> TokenStream {
        let p = &self.p;
        let mut seen = std::collections::BTreeSet::new();
        let mut lets = Vec::new();
        self.model.each_mention(node, &mut |ident| {
            if !seen.insert((name_of(ident), format!("{:?}", ident.span()))) {
                return;
            }
            if let Some((var, index)) = var {
                if name_of(ident) == name_of(var) {
                    lets.push(quote!(let #ident: ::core::primitive::usize = #index;));
                    return;
                }
            }
            let alone = || {
                self.model.param(ident).is_none()
                    && (self.model.names_allocation(ident) || self.model.handle(ident).is_some())
            };
            match self.model.param(ident) {
                Some(i) if self.model.is_indirect(i) => {
                    let name = &self.model.params[i].name;
                    lets.push(quote!(let #ident = #name;));
                }
                Some(i) => {
                    let name = &self.model.params[i].name;
                    lets.push(quote! {
                        #[allow(clippy::needless_borrow)]
                        let #ident = (&#p::Bind(&#params.#name)).__cg_bind();
                    });
                }
                None if alone() => {
                    let alloc = self
                        .model
                        .allocation(ident)
                        .or_else(|| self.model.repeated(ident).map(|r| r.first));
                    let declared = match alloc {
                        Some(a) => &self.model.nodes[a].decl.name,
                        None => match self.model.handle(ident).map(|c| &self.model.nodes[c].op) {
                            Some(NodeOp::Conditional(c)) => &c.handle,
                            _ => return,
                        },
                    };
                    lets.push(quote!(let #ident = #declared;));
                }
                None => {}
            }
        });
        quote! {
            #[allow(unused_imports)]
            use #p::{BindCopy as _, BindRef as _};
            #(
                #[allow(unused_variables, clippy::redundant_locals)]
                #lets
            )*
        }
    }

    /// A user's expression as an eval function computes it: an element of an array param,
    /// `w[i]`, becomes what a param is there (a value when `Copy`, else a reference), so that
    /// `w[layer]` is an argument as `x` is. Other tokens are kept as written, with their spans.
    fn user(&self, tokens: TokenStream) -> TokenStream {
        if self.model.arrays.iter().all(Option::is_none) {
            return tokens;
        }
        let tokens: Vec<TokenTree> = tokens.into_iter().collect();
        let mut out = TokenStream::new();
        let mut i = 0;
        while i < tokens.len() {
            match &tokens[i] {
                TokenTree::Ident(ident) if crate::model::may_be_local(&tokens, i) => {
                    let array = self
                        .model
                        .param(ident)
                        .filter(|&param| self.model.arrays[param].is_some());
                    match (array, tokens.get(i + 1)) {
                        (Some(_), Some(TokenTree::Group(index)))
                            if index.delimiter() == proc_macro2::Delimiter::Bracket =>
                        {
                            let index = self.user_group(index);
                            let s = at(ident.span());
                            let p = private_at(ident.span());
                            out.extend(quote_spanned! {s=>
                                (&#p::Bind(&#ident #index)).__cg_bind()
                            });
                            i += 2;
                            continue;
                        }
                        _ => out.extend(std::iter::once(tokens[i].clone())),
                    }
                }
                TokenTree::Group(g) => {
                    out.extend(std::iter::once(TokenTree::Group(self.user_group(g))))
                }
                other => out.extend(std::iter::once(other.clone())),
            }
            i += 1;
        }
        out
    }

    /// [`Gen::user`] inside a group, which keeps its delimiter and span.
    fn user_group(&self, g: &Group) -> Group {
        let mut group = Group::new(g.delimiter(), self.user(g.stream()));
        group.set_span(g.span());
        group
    }
}
