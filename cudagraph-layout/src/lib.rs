//! Pictures of CUDA graphs: a layered layout drawn as one line of SVG, with no script and no
//! dependency, so that it can be inlined into rustdoc's HTML (offline and on docs.rs) or saved.
//!
//! Shared by the two crates of `cudagraph`: the `cuda_graph!` macro lays out each declared graph
//! at compile time for the generated type's docs, and the runtime draws any graph, built at run
//! time or captured, with `Graph::to_svg()`. Both describe their graph as a [`Picture`].
//!
//! The input ([`Picture`]) is independent of either crate's model, so that any graph-like shape
//! can be drawn, including conditional nodes whose bodies are graphs of their own, nested to any
//! depth: such a node is drawn as a larger box holding its bodies side by side.
//!
//! The layout places the boxes (layers by longest path, order within a layer by barycenter
//! sweeps, positions by least-squares placement under the no-overlap constraint); the SVG writer
//! draws them, themed for light and dark pages alike. Everything is deterministic: the same
//! picture gives the same bytes.
//!
//! ```
//! use cudagraph_layout::{render_svg, Node, Picture};
//!
//! let picture = Picture {
//!     nodes: vec![Node::new("zero", "memset"), Node::new("scale", "kernel")],
//!     edges: vec![(0, 1)],
//! };
//! let svg = render_svg(&picture);
//! assert!(svg.starts_with("<svg") && svg.contains("Graph topology: 2 nodes, 1 edge"));
//! ```
#![deny(missing_docs)]

mod layout;
mod svg;

/// A graph to draw: its nodes and the edges between them.
#[derive(Debug, Clone, Default)]
pub struct Picture {
    /// The nodes, in the order that breaks ties in the layout (build order for the macro).
    pub nodes: Vec<Node>,
    /// `(from, to)` indices into `nodes`: `to` runs after `from`. Indices out of range and
    /// self-loops are ignored; a cycle is drawn, but not as a layered picture.
    pub edges: Vec<(usize, usize)>,
}

/// One node of a [`Picture`].
#[derive(Debug, Clone, Default)]
pub struct Node {
    /// The node's name, written in its box.
    pub label: String,
    /// Its kind (`"kernel"`, `"memcpy"`, `"while"`, ...), written under the name and choosing
    /// the box's colours.
    pub kind: String,
    /// The bodies of a conditional node (IF, IF/ELSE, WHILE, SWITCH), drawn inside its box side
    /// by side; empty for every other node.
    pub bodies: Vec<Body>,
}

impl Node {
    /// A node without bodies: `label` in its box over `kind`.
    pub fn new(label: impl Into<String>, kind: impl Into<String>) -> Self {
        Self {
            label: label.into(),
            kind: kind.into(),
            bodies: Vec::new(),
        }
    }
}

/// One body of a conditional node: a labelled graph of its own.
#[derive(Debug, Clone, Default)]
pub struct Body {
    /// The body's label (`"body"`, `"then"`, `"else"`, `"case 0"`, ...).
    pub label: String,
    /// The body's graph.
    pub picture: Picture,
}

/// The picture as one line of SVG, titled "Graph topology".
pub fn render_svg(p: &Picture) -> String {
    render_svg_titled(p, "Graph topology")
}

/// The picture as one line of SVG with `title` as its accessible name (`<title>`), completed
/// with the number of nodes and edges.
pub fn render_svg_titled(p: &Picture, title: &str) -> String {
    let mut laid = layout::layout(p);
    laid.translate(svg::MARGIN, svg::MARGIN);
    svg::render(&laid, p, title)
}

/// The number of nodes in the picture, bodies included: what its size grows with.
pub fn node_count(p: &Picture) -> usize {
    p.nodes
        .iter()
        .map(|n| {
            1 + n
                .bodies
                .iter()
                .map(|b| node_count(&b.picture))
                .sum::<usize>()
        })
        .sum()
}

#[cfg(test)]
mod tests;
