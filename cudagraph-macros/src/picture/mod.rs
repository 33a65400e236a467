//! Pictures of graphs for rustdoc: a layered layout computed at compile time, drawn as an SVG
//! that is inlined into the generated docs, so it shows offline and on docs.rs with no script.
//!
//! The input ([`Picture`]) is independent of the macro's model, so that any graph-like shape can
//! be drawn, including conditional nodes whose bodies are graphs of their own, nested to any
//! depth: such a node is drawn as a larger box holding its bodies side by side.
//!
//! [`layout`] places the boxes (layers by longest path, order within a layer by barycenter
//! sweeps, positions by least-squares placement under the no-overlap constraint); [`svg`] writes
//! them out.

mod layout;
mod svg;

/// A graph to draw: its nodes and the edges between them.
#[derive(Debug, Clone, Default)]
pub struct Picture {
    /// The nodes, in the order that breaks ties in the layout (build order for the macro).
    pub nodes: Vec<PNode>,
    /// `(from, to)` indices into `nodes`: `to` runs after `from`. Indices out of range and
    /// self-loops are ignored; a cycle is drawn, but not as a layered picture.
    pub edges: Vec<(usize, usize)>,
}

/// One node of a [`Picture`].
#[derive(Debug, Clone, Default)]
pub struct PNode {
    /// The node's name, written in its box.
    pub label: String,
    /// Its kind (`"kernel"`, `"memcpy"`, `"while"`, ...), written under the name and choosing
    /// the box's colours.
    pub kind: String,
    /// The bodies of a conditional node (IF, IF/ELSE, WHILE, SWITCH), drawn inside its box side
    /// by side; empty for every other node.
    pub bodies: Vec<Body>,
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
// The macro names its pictures (`render_svg_titled`); this is for callers without a name.
#[cfg_attr(not(test), allow(dead_code))]
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
