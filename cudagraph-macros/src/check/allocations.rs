// Rationale (T7, graph memory nodes): CUDA backs an allocation with physical memory only between
// its alloc node and its free node in graph order, and may give the same physical memory to
// another allocation outside that span. A node that uses the allocation without being ordered
// after the alloc node and before the free node reads or writes memory that another allocation
// may own; the driver accepts such a graph without a word (a second free it refuses, when the
// graph is launched). The declaration shows every use, so each mistake is reported at the use,
// with the edge that fixes it.

use super::{suggest, Ctxt};
use crate::model::{name_of, Model};
use crate::parse::{Item, NodeOp};

/// The documentation of graph memory nodes, for the messages.
const DOCS: &str =
    "https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#graph-memory-nodes";

/// Names: an allocation does not share its name with a param, and a free names an allocation
/// (of this graph: `models` holds the call's other graphs, whose allocations `check_foreign`
/// reports).
pub fn check_names(models: &[Model], model: &Model, cx: &mut Ctxt) {
    let graph = &model.decl.name;
    for (item, _) in model.all_items() {
        let Item::Node(node) = item else { continue };
        match &node.op {
            NodeOp::Alloc(_) if model.param(&node.name).is_some() => cx.error(
                node.name.span(),
                format!(
                    "`{}` names both a param and an allocation of graph `{graph}`: node \
                     expressions could not tell them apart; rename one",
                    node.name
                ),
            ),
            NodeOp::Free(f)
                if !model.names_allocation(&f.alloc.name)
                    && owner(models, model, &f.alloc.name).is_none() =>
            {
                let (alloc, rule) = (
                    &f.alloc.name,
                    "`free(...)` names an alloc node of this graph",
                );
                let message = if model.param(alloc).is_some() {
                    format!(
                        "`{alloc}` is a param, not an allocation: {rule} (a param's memory is \
                         freed when its last handle is dropped, after the launches that use it)"
                    )
                } else if model.knows_node(alloc) {
                    format!("node `{alloc}` is not an alloc node: {rule}")
                } else {
                    // Allocations no free node frees yet: suggesting another would make a
                    // double free.
                    let allocs: Vec<String> = model
                        .outliving_allocations()
                        .into_iter()
                        .filter(|&i| model.nodes[i].rep.is_none())
                        .map(|i| model.nodes[i].written.clone())
                        .collect();
                    match suggest(&name_of(alloc), allocs.iter().map(String::as_str)) {
                        Some(close) => format!(
                            "graph `{graph}` has no allocation `{alloc}`: did you mean `{close}`?"
                        ),
                        None => format!(
                            "graph `{graph}` has no allocation `{alloc}`: {rule} \
                             (`{alloc}: alloc::<T>(len);`)"
                        ),
                    }
                };
                cx.error(alloc.span(), message);
            }
            _ => {}
        }
    }
}

/// Graph order: every use after the alloc node and before the free node, one free at most.
/// Runs on an acyclic declaration (it needs the paths between nodes).
pub fn check_order(model: &Model, cx: &mut Ctxt) {
    // Ordered for memory (an edge with data into a kernel that does not wait orders launches
    // only); the suggested edges are checked against every edge (no cycle).
    let reach = model.memory_reachability();
    let full = model.reachability();
    let fix = |from: usize, to: usize| {
        super::programmatic::unwaited_note(model, from, to)
            .unwrap_or_else(|| add_edge(model, full, from, to))
    };
    let node = |i: usize| model.nodes[i].written.clone();
    let frees = model.frees();
    let no_frees = Vec::new();
    let free_token = |f: usize| match &model.nodes[f].op {
        NodeOp::Free(op) => op.alloc.name.span(),
        _ => model.nodes[f].decl.name.span(),
    };
    // Each mistake of the tokens once (a loop makes it in every iteration): by the kind of
    // mistake and the declarations involved.
    let key = |what: &str, nodes: &[usize]| {
        let decls: Vec<String> = nodes
            .iter()
            .map(|&i| format!("{:p}", model.nodes[i].decl))
            .collect();
        format!("{what} {}", decls.join(" "))
    };
    for (&a, frees) in &frees {
        let alloc = node(a);
        for &f in frees.iter().skip(1) {
            cx.error_once(
                key("freed twice", &[a, f]),
                free_token(f),
                format!(
                    "allocation `{alloc}` is freed twice, by `{}` and by `{}`: CUDA frees an \
                     allocation once (a second free fails when the graph is launched); remove one \
                     of the free nodes",
                    node(frees[0]),
                    node(f)
                ),
            );
        }
        for &f in frees {
            if !reach.get(a, f) {
                let fix = fix(a, f);
                cx.error_once(
                    key("free before alloc", &[a, f]),
                    free_token(f),
                    format!(
                        "free node `{}` is not ordered after the alloc node `{alloc}` that it \
                         frees: {fix}",
                        node(f),
                    ),
                );
            }
        }
    }
    for (u, user) in model.nodes.iter().enumerate() {
        for (a, span) in model.alloc_mentions(user) {
            let (use_, alloc) = (node(u), node(a));
            if !reach.get(a, u) {
                let fix = fix(a, u);
                cx.error_once(
                    key("use before alloc", &[a, u]),
                    span,
                    format!(
                        "node `{use_}` uses allocation `{alloc}` but is not ordered after the \
                         alloc node `{alloc}`: CUDA backs an allocation with memory only from its \
                         alloc node on, in graph order ({DOCS}); {fix}"
                    ),
                );
            }
            for &f in frees.get(&a).unwrap_or(&no_frees) {
                let free = node(f);
                if reach.get(f, u) {
                    let fix = fix(u, f);
                    cx.error_once(
                        key("use after free", &[a, u, f]),
                        span,
                        format!(
                            "node `{use_}` uses allocation `{alloc}` after `{free}` frees it: the \
                             memory may already belong to another allocation ({DOCS}); order \
                             `{use_}` before `{free}` instead: {fix}"
                        ),
                    );
                } else if !reach.get(u, f) {
                    let fix = fix(u, f);
                    cx.error_once(
                        key("use not before free", &[a, u, f]),
                        span,
                        format!(
                            "node `{use_}` uses allocation `{alloc}` but is not ordered before \
                             `{free}`, which frees it: CUDA may free the memory while `{use_}` \
                             runs ({DOCS}); {fix}"
                        ),
                    );
                }
            }
        }
    }
}

/// How to order `from` before `to`: the edge `from -> to`, when adding it is legal; else the
/// path that orders them the other way, which has to change first (adding the edge would close
/// a cycle).
fn add_edge(model: &Model, reach: &crate::reach::Reach, from: usize, to: usize) -> String {
    let (f, t) = (&model.nodes[from].written, &model.nodes[to].written);
    if model.edge_legal(from, to, reach) {
        return format!("add the edge `{f} -> {t};`");
    }
    match model.path(to, from) {
        Some(path) => format!(
            "the {} `{}` {} `{f}` after `{t}`, so the edge `{f} -> {t};` would close a cycle: \
             change that first",
            if path.len() == 2 { "edge" } else { "edges" },
            model.path_text(&path),
            if path.len() == 2 { "orders" } else { "order" },
        ),
        None => format!("order `{f}` before `{t}`"),
    }
}

/// The graph, other than `model`'s, among `models` that has an allocation named `ident`.
fn owner<'m>(models: &'m [Model], model: &Model, ident: &syn::Ident) -> Option<&'m syn::Ident> {
    models
        .iter()
        .filter(|other| !std::ptr::eq(*other, model))
        .find(|other| other.names_allocation(ident))
        .map(|other| &other.decl.name)
}

/// An allocation of one graph named in another graph of the same call: allocations belong to
/// the graph that makes them (an address of another graph's allocation is backed by memory only
/// during that graph's launch, and CUDA refuses to embed a graph with memory nodes).
pub fn check_foreign(models: &[Model], model: &Model, cx: &mut Ctxt) {
    for (item, _) in model.all_items() {
        let Item::Node(node) = item else { continue };
        let mut report = |ident: &syn::Ident| {
            if model.param(ident).is_some() || model.names_allocation(ident) {
                return;
            }
            if let Some(graph) = owner(models, model, ident) {
                cx.error(
                    ident.span(),
                    format!(
                        "`{ident}` is an allocation of graph `{graph}`, not of `{}`: an allocation \
                         is used and freed only by nodes of the graph that makes it; declare an \
                         allocation in `{}`, or pass memory between graphs as a `DeviceBuffer<T>` \
                         param",
                        model.decl.name, model.decl.name
                    ),
                );
            }
        };
        if let NodeOp::Free(f) = &node.op {
            report(&f.alloc.name);
        }
        model.each_mention(node, &mut report);
    }
}
