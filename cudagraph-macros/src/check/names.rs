// Rationale (T1): nodes are addressed by name (edges, handle methods, error messages), so each
// name is declared once, every edge names declared nodes, and no node depends on itself. A
// repeated edge would list a dependency twice in the driver call. (A node name also names
// generated items, a method and a handle type: `generated` checks those.)

use std::collections::BTreeSet;

use quote::ToTokens;

use super::{suggest, Ctxt};
use crate::model::{name_of, written, End, Model};
use crate::parse::{Item, NodeRef};

pub fn check(model: &Model, cx: &mut Ctxt) {
    let graph = &model.decl.name;
    let mut seen = BTreeSet::new();
    for (item, _) in model.all_items() {
        let Item::Node(node) = item else { continue };
        let name = name_of(&node.name);
        if !seen.insert(name.clone()) {
            cx.error(
                node.name.span(),
                format!("node `{name}` is declared twice in graph `{graph}`: node names must be unique, rename one"),
            );
        } else if name.starts_with("__cg") {
            cx.error(
                node.name.span(),
                "names starting with `__cg` are reserved for the code `cuda_graph!` generates: rename this node",
            );
        }
        if let crate::parse::NodeOp::Conditional(c) = &node.op {
            if name_of(&c.handle).starts_with("__cg") {
                cx.error(
                    c.handle.span(),
                    "names starting with `__cg` are reserved for the code `cuda_graph!` generates: rename this handle",
                );
            }
        }
    }

    // The first edge as written (see `Edge::site`) joining each pair of nodes.
    let mut edges = std::collections::BTreeMap::new();
    // An edge written in a loop is judged in every iteration, reported once: unknown names by
    // their token, self and repeated edges by the edge as written.
    let mut reported = BTreeSet::new();
    let mut sites = BTreeSet::new();
    for edge in &model.edges {
        let mut resolved = true;
        for (end, found, other, end_is_from) in [
            (edge.from, edge.ends.0, edge.ends.1, true),
            (edge.to, edge.ends.1, edge.ends.0, false),
        ] {
            match found {
                End::Node(_) => continue,
                // A name the checks cannot use: reported where it is (a broken declaration,
                // an index that picks no instance).
                End::Bad => {
                    resolved = false;
                    continue;
                }
                End::Unknown => resolved = false,
            }
            if !reported.insert(end as *const NodeRef) {
                continue;
            }
            let name = &end.name;
            if let Some(param) = model.param(name) {
                let mut readers: Vec<String> = Vec::new();
                for n in &model.nodes {
                    let reader = format!("`{}`", n.decl.name);
                    if model.mentions(n).contains(&param) && !readers.contains(&reader) {
                        readers.push(reader);
                    }
                }
                let hint = match readers.as_slice() {
                    [] => "name the nodes to order".to_owned(),
                    [one] => format!("the node that uses it is {one}"),
                    many => format!("the nodes that use it are {}", many.join(", ")),
                };
                cx.error(
                    name.span(),
                    format!(
                        "`{name}` is a param of graph `{graph}`, not a node: an edge orders two \
                         nodes (`a -> b;`); {hint}"
                    ),
                );
                continue;
            }
            if let Some(c) = model.handle(name) {
                let cond = &model.nodes[c].written;
                cx.error(
                    name.span(),
                    format!(
                        "`{name}` is the handle of conditional node `{cond}`, not a node: an \
                         edge orders two nodes; to order the conditional node, name it \
                         (`{cond}`)"
                    ),
                );
                continue;
            }
            // Only names that make a legal edge in this place are suggested: a node, or the
            // instance of a repeated node that the written index picks.
            let other = other.node();
            // Paths between nodes: computed for the first suggestion, then kept.
            let reach = model.reachability();
            let value = end
                .index
                .as_ref()
                .and_then(|index| model.index_value(index, edge.rep).ok());
            let mut candidates: Vec<(String, usize)> = Vec::new();
            for (i, node) in model.nodes.iter().enumerate() {
                let written = match (node.rep, value, &end.index) {
                    (None, _, None) => written(&node.decl.name),
                    (Some(rep), Some(v), Some(index)) if rep.value == v => format!(
                        "{}[{}]",
                        written(&node.decl.name),
                        crate::text::pretty_expr(index.expr.to_token_stream())
                    ),
                    _ => continue,
                };
                candidates.push((written, i));
            }
            let candidates: Vec<String> = candidates
                .into_iter()
                .filter(|&(_, i)| match other {
                    Some(o) if end_is_from => model.edge_legal(i, o, reach),
                    Some(o) => model.edge_legal(o, i, reach),
                    None => true,
                })
                .map(|(written, _)| written)
                .collect();
            let written = end.to_string();
            let fresh = {
                let name = name_of(name);
                end.index.is_none()
                    && !name.starts_with("__cg")
                    && !crate::check::generated::EXEC_METHODS.contains(&name.as_str())
                    && crate::check::generated::is_ident(&crate::check::generated::handle_type(
                        &name_of(graph),
                        &name,
                    ))
            };
            let hint = match suggest(&written, candidates.iter().map(String::as_str)) {
                Some(close) => format!("did you mean `{close}`?"),
                None if fresh => format!("declare it first, e.g. `{name}: empty;`"),
                None => "declare the node first".to_owned(),
            };
            cx.error(
                name.span(),
                format!("graph `{graph}` has no node named `{name}`: {hint}"),
            );
        }
        if !resolved {
            continue;
        }
        let (Some(from), Some(to)) = (edge.ends.0.node(), edge.ends.1.node()) else {
            continue;
        };
        let (from_name, to_name) = (&model.nodes[from].written, &model.nodes[to].written);
        let site = edge.site();
        if from == to {
            if sites.insert(site) {
                cx.error_spanned(
                    edge.tokens(),
                    format!(
                        "node `{from_name}` cannot depend on itself: remove the edge `{} -> {}`",
                        edge.from, edge.to
                    ),
                );
            }
            continue;
        }
        match edges.entry((from, to)) {
            std::collections::btree_map::Entry::Vacant(e) => {
                e.insert(site);
            }
            std::collections::btree_map::Entry::Occupied(first) => {
                let message = if *first.get() == site {
                    format!(
                        "edge `{from_name} -> {to_name}` is declared in every iteration of its \
                         loop: index it by the loop variable, or move it out of the loop"
                    )
                } else {
                    format!("edge `{from_name} -> {to_name}` is declared twice: remove one of them")
                };
                if sites.insert(site) {
                    cx.error_spanned(edge.tokens(), message);
                }
            }
        }
    }
}
