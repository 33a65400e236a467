// Rationale (T1): nodes are addressed by name (edges, handle methods, error messages), so each
// name is declared once, every edge names declared nodes, and no node depends on itself. A
// repeated edge would list a dependency twice in the driver call. A node name also becomes a
// method of the generated executable, so it must not shadow the executable's own methods.

use std::collections::BTreeSet;

use super::{suggest, Ctxt};
use crate::model::{name_of, Model};
use crate::parse::Item;

/// Methods of the generated `<Graph>Exec` that a node's handle method would clash with.
pub const RESERVED: [&str; 5] = ["launch", "upload", "update", "set_params", "as_exec"];

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
        } else if RESERVED.contains(&name.as_str()) {
            cx.error(
                node.name.span(),
                format!(
                    "node name `{name}` clashes with the method `{graph}Exec::{name}` of the generated executable: rename the node"
                ),
            );
        }
    }

    // Handle types are named `<Graph><CamelNode>Node`: `foo_bar` and `fooBar` would clash.
    let mut handles = std::collections::BTreeMap::new();
    for node in &model.nodes {
        let name = name_of(&node.name);
        if let Some(first) = handles.insert(crate::expand::camel(&name), name.clone()) {
            cx.error(
                node.name.span(),
                format!(
                    "nodes `{first}` and `{name}` would both have the handle type `{graph}{}Node`: rename one",
                    crate::expand::camel(&name)
                ),
            );
        }
    }

    let names: Vec<String> = model.nodes.iter().map(|n| name_of(&n.name)).collect();
    let mut edges = BTreeSet::new();
    for edge in &model.edges {
        let mut resolved = true;
        for end in [edge.from, edge.to] {
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
                let hint = match suggest(&name_of(end), names.iter().map(String::as_str)) {
                    Some(close) => format!("did you mean `{close}`?"),
                    None => format!("declare it first, e.g. `{end}: empty;`"),
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
