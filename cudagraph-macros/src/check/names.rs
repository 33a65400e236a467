// Rationale (T1): nodes are addressed by name (edges, handle methods, error messages), so each
// name is declared once, every edge names declared nodes, and no node depends on itself. A
// repeated edge would list a dependency twice in the driver call. (A node name also names
// generated items, a method and a handle type: `generated` checks those.)

use std::collections::BTreeSet;

use super::{suggest, Ctxt};
use crate::model::{name_of, Model};
use crate::parse::Item;

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

    // Paths between nodes, for the suggestions below: computed only when one is made.
    let mut reach: Option<Vec<Vec<bool>>> = None;
    let mut edges = BTreeSet::new();
    for edge in &model.edges {
        let mut resolved = true;
        for (end, other, end_is_from) in [(edge.from, edge.to, true), (edge.to, edge.from, false)] {
            if !model.knows_node(end) {
                resolved = false;
                if let Some(param) = model.param(end) {
                    let readers: Vec<String> = model
                        .nodes
                        .iter()
                        .filter(|n| model.mentions(n).contains(&param))
                        .map(|n| format!("`{}`", n.name))
                        .collect();
                    let hint = match readers.as_slice() {
                        [] => "name the nodes to order".to_owned(),
                        [one] => format!("the node that uses it is {one}"),
                        many => format!("the nodes that use it are {}", many.join(", ")),
                    };
                    cx.error(
                        end.span(),
                        format!(
                            "`{end}` is a param of graph `{graph}`, not a node: an edge orders two \
                             nodes (`a -> b;`); {hint}"
                        ),
                    );
                    continue;
                }
                if let Some(c) = model.handle(end) {
                    let cond = &model.nodes[c].name;
                    cx.error(
                        end.span(),
                        format!(
                            "`{end}` is the handle of conditional node `{cond}`, not a node: an \
                             edge orders two nodes; to order the conditional node, name it \
                             (`{cond}`)"
                        ),
                    );
                    continue;
                }
                // Only names that make a legal edge in this place are suggested.
                let other = model.node(other);
                let reach = reach.get_or_insert_with(|| model.reachability());
                let candidates: Vec<String> = (0..model.nodes.len())
                    .filter(|&i| match other {
                        Some(o) if end_is_from => model.edge_legal(i, o, reach),
                        Some(o) => model.edge_legal(o, i, reach),
                        None => true,
                    })
                    .map(|i| name_of(&model.nodes[i].name))
                    .collect();
                let fresh = {
                    let name = name_of(end);
                    !name.starts_with("__cg")
                        && !crate::check::generated::EXEC_METHODS.contains(&name.as_str())
                        && crate::check::generated::is_ident(&crate::check::generated::handle_type(
                            &name_of(graph),
                            &name,
                        ))
                };
                let hint = match suggest(&name_of(end), candidates.iter().map(String::as_str)) {
                    Some(close) => format!("did you mean `{close}`?"),
                    None if fresh => format!("declare it first, e.g. `{end}: empty;`"),
                    None => "declare the node first".to_owned(),
                };
                cx.error(
                    end.span(),
                    format!("graph `{graph}` has no node named `{end}`: {hint}"),
                );
            }
        }
        if !resolved {
            continue;
        }
        let (from, to) = (name_of(edge.from), name_of(edge.to));
        if from == to {
            cx.error_spanned(
                edge.tokens(),
                format!("node `{from}` cannot depend on itself: remove the edge `{from} -> {to}`"),
            );
        } else if !edges.insert((from.clone(), to.clone())) {
            cx.error_spanned(
                edge.tokens(),
                format!("edge `{from} -> {to}` is declared twice: remove one of them"),
            );
        }
    }
}
