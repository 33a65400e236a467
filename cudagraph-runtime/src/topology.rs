//! The shape of a graph declared with `cuda_graph!`, known at compile time.

use crate::node::NodeKind;

/// The shape of a declared graph: its nodes in build order and its edges, known at compile time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Topology {
    /// The graph's declared name.
    pub name: &'static str,
    /// Each node's declared name and kind, in the order the nodes are added: their indices in
    /// the graph, but for a declaration with `#[indirect]` params, whose graph starts with the
    /// node fetching them ([`Graph::indirect_fetch`](crate::Graph::indirect_fetch)):
    /// one more.
    pub nodes: &'static [(&'static str, NodeKind)],
    /// `(dependency, dependent)` pairs: for each node in order, its dependencies in declared order.
    pub edges: &'static [(usize, usize)],
    /// Where each node is: `None` for the graph's own nodes, `Some((c, b))` for body `b` of the
    /// conditional node `c` (empty when the graph has no conditional node). A body's nodes come
    /// after the graph's own, in the order an executable numbers them.
    pub bodies: &'static [Option<(usize, u32)>],
}

impl Topology {
    /// The index of the node named `name`.
    pub fn node(&self, name: &str) -> Option<usize> {
        self.nodes.iter().position(|(n, _)| *n == name)
    }

    /// The nodes `node` depends on, in declared order.
    pub fn dependencies(&self, node: usize) -> impl Iterator<Item = usize> + '_ {
        self.edges.iter().filter(move |e| e.1 == node).map(|e| e.0)
    }

    /// The graph in Graphviz DOT (the format of [`Graph::to_dot`](crate::Graph::to_dot)).
    pub fn to_dot(&self) -> String {
        crate::dot::to_dot(
            self.name,
            self.nodes.iter().copied(),
            self.edges.iter().copied(),
            self.bodies,
        )
    }

    /// The graph as a Mermaid flowchart.
    pub fn to_mermaid(&self) -> String {
        crate::dot::to_mermaid(
            self.nodes.iter().copied(),
            self.edges.iter().copied(),
            self.bodies,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn topology_renders_like_the_runtime() {
        const T: Topology = Topology {
            name: "g",
            nodes: &[("zero", NodeKind::Memset), ("scale", NodeKind::Kernel)],
            edges: &[(0, 1)],
            bodies: &[],
        };
        assert!(T.to_dot().contains("n0 -> n1;"));
        assert!(T.to_mermaid().contains("n0 --> n1"));
        assert_eq!(T.node("scale"), Some(1));
        assert_eq!(T.dependencies(1).collect::<Vec<_>>(), [0]);
    }
}
