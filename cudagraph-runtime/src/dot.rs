//! Text renderings of a graph's shape: Graphviz DOT and Mermaid.

use std::fmt::Write;

use crate::node::NodeKind;

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Where each node is: `None` for the graph's own nodes, `Some((c, b))` for body `b` of the
/// conditional node `c`. An empty slice: every node is the graph's own.
pub type Bodies<'a> = &'a [Option<(usize, u32)>];

/// The nodes of one scope and the bodies directly inside it.
fn scope_members(bodies: Bodies<'_>, count: usize, scope: Option<(usize, u32)>) -> Vec<usize> {
    (0..count)
        .filter(|&i| bodies.get(i).copied().flatten() == scope)
        .collect()
}

/// The bodies of conditional node `c` that hold nodes, in order.
fn bodies_of(bodies: Bodies<'_>, c: usize) -> Vec<u32> {
    let mut out: Vec<u32> = bodies
        .iter()
        .filter_map(|s| s.filter(|&(owner, _)| owner == c).map(|(_, b)| b))
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// The nodes of a body that no node of the body precedes: where its conditional node's dashed
/// edge points.
fn body_roots(
    bodies: Bodies<'_>,
    count: usize,
    scope: (usize, u32),
    edges: &[(usize, usize)],
) -> Vec<usize> {
    scope_members(bodies, count, Some(scope))
        .into_iter()
        .filter(|&n| !edges.iter().any(|&(_, to)| to == n))
        .collect()
}

/// How one text format writes the parts of a graph: node lines, a body's opening and closing
/// lines (one string each, `\n` between lines), the dashed link from a conditional node to a
/// root of its body, and an edge.
struct Syntax {
    node: fn(usize, &str, NodeKind) -> String,
    open_body: fn(usize, u32, &str) -> String,
    close_body: &'static str,
    body_link: fn(usize, usize) -> String,
    edge: fn(usize, usize) -> String,
}

const DOT: Syntax = Syntax {
    node: |i, name, kind| {
        format!(
            "n{i} [label=\"{}\\n{}\", shape={}];",
            escape(name),
            kind.name(),
            kind.facts().dot_shape
        )
    },
    open_body: |i, b, name| {
        format!(
            "subgraph cluster_{i}_{b} {{\n    label=\"{} body {b}\";\n    style=dashed;",
            escape(name)
        )
    },
    close_body: "}",
    body_link: |i, root| format!("n{i} -> n{root} [style=dashed];"),
    edge: |from, to| format!("n{from} -> n{to};"),
};

const MERMAID: Syntax = Syntax {
    node: |i, name, kind| format!("n{i}[\"{}: {}\"]", mermaid_label(name), kind.name()),
    open_body: |i, b, name| format!("subgraph b{i}_{b}[\"{} body {b}\"]", mermaid_label(name)),
    close_body: "end",
    body_link: |i, root| format!("n{i} -.-> n{root}"),
    edge: |from, to| format!("n{from} --> n{to}"),
};

fn mermaid_label(name: &str) -> String {
    name.replace('"', "#quot;")
}

/// DOT text for nodes `(name, kind)` (identified by position) and edges `(from, to)`; conditional
/// bodies (`bodies`) are drawn as nested clusters, each reached from its conditional node by a
/// dashed edge.
pub fn to_dot<'a>(
    title: &str,
    nodes: impl IntoIterator<Item = (&'a str, NodeKind)>,
    edges: impl IntoIterator<Item = (usize, usize)>,
    bodies: Bodies<'_>,
) -> String {
    let mut out = format!("digraph \"{}\" {{\n    rankdir=TB;\n", escape(title));
    write_graph(&mut out, nodes, edges, bodies, &DOT);
    out.push_str("}\n");
    out
}

/// Mermaid flowchart text, same inputs as [`to_dot`] (bodies as nested subgraphs).
pub fn to_mermaid<'a>(
    nodes: impl IntoIterator<Item = (&'a str, NodeKind)>,
    edges: impl IntoIterator<Item = (usize, usize)>,
    bodies: Bodies<'_>,
) -> String {
    let mut out = String::from("flowchart TD\n");
    write_graph(&mut out, nodes, edges, bodies, &MERMAID);
    out
}

/// The nodes, scope by scope, then every edge.
fn write_graph<'a>(
    out: &mut String,
    nodes: impl IntoIterator<Item = (&'a str, NodeKind)>,
    edges: impl IntoIterator<Item = (usize, usize)>,
    bodies: Bodies<'_>,
    syntax: &Syntax,
) {
    let nodes: Vec<(&str, NodeKind)> = nodes.into_iter().collect();
    let edges: Vec<(usize, usize)> = edges.into_iter().collect();
    write_scope(out, &nodes, &edges, bodies, None, 1, syntax);
    for &(from, to) in &edges {
        let _ = writeln!(out, "    {}", (syntax.edge)(from, to));
    }
}

/// The nodes of `scope`, each conditional node followed by its bodies, nested one level deeper.
fn write_scope(
    out: &mut String,
    nodes: &[(&str, NodeKind)],
    edges: &[(usize, usize)],
    bodies: Bodies<'_>,
    scope: Option<(usize, u32)>,
    depth: usize,
    syntax: &Syntax,
) {
    let pad = "    ".repeat(depth);
    let line = |text: &str, out: &mut String| {
        for l in text.lines() {
            let _ = writeln!(out, "{pad}{l}");
        }
    };
    for i in scope_members(bodies, nodes.len(), scope) {
        let (name, kind) = nodes[i];
        line(&(syntax.node)(i, name, kind), out);
        for b in bodies_of(bodies, i) {
            line(&(syntax.open_body)(i, b, name), out);
            write_scope(out, nodes, edges, bodies, Some((i, b)), depth + 1, syntax);
            line(syntax.close_body, out);
            for root in body_roots(bodies, nodes.len(), (i, b), edges) {
                line(&(syntax.body_link)(i, root), out);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dot_lists_nodes_and_edges() {
        let dot = to_dot(
            "g",
            [("zero", NodeKind::Memset), ("scale", NodeKind::Kernel)],
            [(0, 1)],
            &[],
        );
        assert!(
            dot.contains("n0 [label=\"zero\\nmemset\", shape=parallelogram];"),
            "{dot}"
        );
        assert!(
            dot.contains("n1 [label=\"scale\\nkernel\", shape=box];"),
            "{dot}"
        );
        assert!(dot.contains("n0 -> n1;"), "{dot}");
        let mermaid = to_mermaid([("a\"b", NodeKind::Host)], [], &[]);
        assert_eq!(mermaid, "flowchart TD\n    n0[\"a#quot;b: host\"]\n");
    }

    #[test]
    fn bodies_are_nested_clusters_reached_by_dashed_edges() {
        let nodes = [
            ("zero", NodeKind::Memset),
            ("solve", NodeKind::Conditional),
            ("step", NodeKind::Kernel),
            ("check", NodeKind::Kernel),
        ];
        let bodies = [None, None, Some((1, 0)), Some((1, 0))];
        let dot = to_dot("g", nodes, [(0, 1), (2, 3)], &bodies);
        assert!(dot.contains("subgraph cluster_1_0 {"), "{dot}");
        assert!(dot.contains("n1 -> n2 [style=dashed];"), "{dot}");
        assert!(!dot.contains("n1 -> n3 [style=dashed];"), "{dot}");
        let cluster = dot.find("subgraph cluster_1_0").unwrap();
        assert!(dot.find("n3 [label").unwrap() > cluster, "{dot}");
        let mermaid = to_mermaid(nodes, [(0, 1), (2, 3)], &bodies);
        assert!(
            mermaid.contains("    subgraph b1_0[\"solve body 0\"]\n        n2[\"step: kernel\"]"),
            "{mermaid}"
        );
        assert!(mermaid.contains("n1 -.-> n2"), "{mermaid}");
    }
}
