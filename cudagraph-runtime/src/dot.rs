//! Text renderings of a graph's shape: Graphviz DOT and Mermaid.

use std::fmt::Write;

use crate::node::NodeKind;

fn shape(kind: NodeKind) -> &'static str {
    match kind {
        NodeKind::Kernel => "box",
        NodeKind::Memcpy | NodeKind::Memset => "parallelogram",
        NodeKind::Empty => "point",
        NodeKind::Host => "house",
        NodeKind::ChildGraph => "box3d",
        NodeKind::MemAlloc => "invtrapezium",
        NodeKind::MemFree => "trapezium",
        NodeKind::EventRecord | NodeKind::EventWait => "cds",
        NodeKind::Conditional => "diamond",
        NodeKind::Other => "ellipse",
    }
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// DOT text for nodes `(name, kind)` (identified by position) and edges `(from, to)`.
pub fn to_dot<'a>(
    title: &str,
    nodes: impl IntoIterator<Item = (&'a str, NodeKind)>,
    edges: impl IntoIterator<Item = (usize, usize)>,
) -> String {
    let mut out = format!("digraph \"{}\" {{\n    rankdir=TB;\n", escape(title));
    for (i, (name, kind)) in nodes.into_iter().enumerate() {
        let _ = writeln!(
            out,
            "    n{i} [label=\"{}\\n{}\", shape={}];",
            escape(name),
            kind.name(),
            shape(kind)
        );
    }
    for (from, to) in edges {
        let _ = writeln!(out, "    n{from} -> n{to};");
    }
    out.push_str("}\n");
    out
}

/// Mermaid flowchart text, same inputs as [`to_dot`].
pub fn to_mermaid<'a>(
    nodes: impl IntoIterator<Item = (&'a str, NodeKind)>,
    edges: impl IntoIterator<Item = (usize, usize)>,
) -> String {
    let mut out = String::from("flowchart TD\n");
    for (i, (name, kind)) in nodes.into_iter().enumerate() {
        let _ = writeln!(
            out,
            "    n{i}[\"{}: {}\"]",
            name.replace('"', "#quot;"),
            kind.name()
        );
    }
    for (from, to) in edges {
        let _ = writeln!(out, "    n{from} --> n{to}");
    }
    out
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
        let mermaid = to_mermaid([("a\"b", NodeKind::Host)], []);
        assert_eq!(mermaid, "flowchart TD\n    n0[\"a#quot;b: host\"]\n");
    }
}
