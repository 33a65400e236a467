//! A [`Layout`] as one line of SVG, for inlining into rustdoc's HTML.
//!
//! Rustdoc's markdown ends a raw HTML block at a blank line and reads a line indented by four
//! spaces as code, so the SVG is written on one line. It is themed for rustdoc's light and dark
//! themes alike: edges, conditional boxes and their labels are drawn in `currentColor` (the
//! page's text colour), plain nodes in light colours with explicit dark text.

use std::fmt::Write;

use super::layout::{Layout, Rect, Route, BODY_HEAD, FONT, LEAF_H, PAD, SMALL};
use super::{Node, Picture};

/// Space around the picture, so that borders and arrowheads are not clipped.
pub const MARGIN: i32 = 8;

/// `s` escaped for XML text and attribute values. Control characters, which XML 1.0 does not
/// allow even escaped, become spaces, so that the SVG also stays on one line.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// The fill and stroke of a plain node of kind `kind`: light fills, so that the dark text
/// reads in both themes, and a darker border of the same hue.
fn palette(kind: &str) -> (&'static str, &'static str) {
    match kind {
        "kernel" => ("#dbeafe", "#1d4ed8"),
        "memcpy" => ("#dcfce7", "#15803d"),
        "memset" => ("#ccfbf1", "#0f766e"),
        "host" => ("#fef3c7", "#b45309"),
        "child_graph" => ("#ede9fe", "#6d28d9"),
        "mem_alloc" => ("#fee2e2", "#b91c1c"),
        "mem_free" => ("#ffe4e6", "#be123c"),
        "event_record" | "event_wait" => ("#fce7f3", "#be185d"),
        "conditional" | "if" | "if_else" | "while" | "switch" => ("#ffedd5", "#c2410c"),
        _ => ("#f3f4f6", "#4b5563"),
    }
}

/// `1 node`, `2 nodes`.
fn count(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

/// The number of edges drawn, bodies included.
fn edge_count(l: &Layout) -> usize {
    l.edges.len()
        + l.nodes
            .iter()
            .flat_map(|n| &n.bodies)
            .map(|b| edge_count(&b.inner))
            .sum::<usize>()
}

/// FNV-1a: a stable hash, to name the arrowhead marker after the picture. Ids are shared by
/// the whole HTML page, and a page may hold several pictures.
fn fnv1a(s: &str) -> u32 {
    s.bytes().fold(0x811c_9dc5, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    })
}

/// The SVG of layout `l` of picture `p`, whose top left corner is at `(MARGIN, MARGIN)`.
pub fn render(l: &Layout, p: &Picture, title: &str) -> String {
    let mut boxes = String::new();
    conditional_boxes(&mut boxes, l, p);
    let mut edges = String::new();
    routes(&mut edges, l, p);
    let mut leaves = String::new();
    plain_boxes(&mut leaves, l, p);

    let (w, h) = (l.rect.w + 2 * MARGIN, l.rect.h + 2 * MARGIN);
    let id = format!("cg{:08x}", fnv1a(&format!("{boxes}{edges}{leaves}")));
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" width=\"{w}\" height=\"{h}\" \
         viewBox=\"0 0 {w} {h}\" font-family=\"monospace\" \
         font-size=\"{FONT}\" text-anchor=\"middle\" fill=\"currentColor\"><title>{}: {}, {}\
         </title>",
        escape(title),
        count(super::node_count(p), "node"),
        count(edge_count(l), "edge"),
    );
    if !edges.is_empty() {
        // The marker inherits the svg's fill: the page's text colour, like the edges.
        let _ = write!(
            out,
            "<defs><marker id=\"{id}\" viewBox=\"0 0 8 8\" refX=\"8\" refY=\"4\" \
             markerWidth=\"8\" markerHeight=\"8\" orient=\"auto\"><path d=\"M0 0L8 4L0 8z\"/>\
             </marker></defs>"
        );
    }
    out.push_str(&boxes);
    if !edges.is_empty() {
        let _ = write!(
            out,
            "<g fill=\"none\" stroke=\"currentColor\" marker-end=\"url(#{id})\">{edges}</g>"
        );
    }
    out.push_str(&leaves);
    out.push_str("</svg>");
    out
}

/// The boxes of conditional nodes and of their bodies, with their labels, recursively: drawn
/// first, as the background of everything inside.
fn conditional_boxes(out: &mut String, l: &Layout, p: &Picture) {
    for (placed, node) in l.nodes.iter().zip(&p.nodes) {
        if node.bodies.is_empty() {
            continue;
        }
        let r = placed.rect;
        let _ = write!(
            out,
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"6\" fill-opacity=\".07\" \
             stroke=\"currentColor\"/><text x=\"{}\" y=\"{}\" text-anchor=\"start\">\
             <tspan font-weight=\"bold\">{}</tspan>: {}</text>",
            r.x,
            r.y,
            r.w,
            r.h,
            r.x + PAD,
            r.y + 17,
            escape(&node.label),
            escape(&node.kind)
        );
        for (pb, body) in placed.bodies.iter().zip(&node.bodies) {
            let b = pb.rect;
            let _ = write!(
                out,
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"4\" fill=\"none\" \
                 stroke=\"currentColor\" stroke-dasharray=\"4 3\"/><text x=\"{}\" y=\"{}\" \
                 font-size=\"{SMALL}\" font-style=\"italic\" text-anchor=\"start\">{}</text>",
                b.x,
                b.y,
                b.w,
                b.h,
                b.x + 6,
                b.y + BODY_HEAD - 5,
                escape(&body.label)
            );
            conditional_boxes(out, &pb.inner, &body.picture);
        }
    }
}

/// Every edge as a path, recursively; the group around them gives the stroke and arrowhead.
fn routes(out: &mut String, l: &Layout, p: &Picture) {
    for Route { points, .. } in &l.edges {
        out.push_str("<path d=\"");
        let mut last: Option<(i32, i32)> = None;
        for &(x, y) in points {
            match last {
                None => {
                    let _ = write!(out, "M{x} {y}");
                }
                Some((lx, ly)) if (lx, ly) == (x, y) => {}
                Some((lx, _)) if lx == x => {
                    let _ = write!(out, "V{y}");
                }
                Some((_, ly)) if ly == y => {
                    let _ = write!(out, "H{x}");
                }
                Some(_) => {
                    let _ = write!(out, "L{x} {y}");
                }
            }
            last = Some((x, y));
        }
        out.push_str("\"/>");
    }
    for (placed, node) in l.nodes.iter().zip(&p.nodes) {
        for (pb, body) in placed.bodies.iter().zip(&node.bodies) {
            routes(out, &pb.inner, &body.picture);
        }
    }
}

/// Plain nodes: a box coloured by kind with the name over the kind, recursively.
fn plain_boxes(out: &mut String, l: &Layout, p: &Picture) {
    for (placed, node) in l.nodes.iter().zip(&p.nodes) {
        if !node.bodies.is_empty() {
            for (pb, body) in placed.bodies.iter().zip(&node.bodies) {
                plain_boxes(out, &pb.inner, &body.picture);
            }
            continue;
        }
        plain_box(out, placed.rect, node);
    }
}

/// One plain node's box and text.
fn plain_box(out: &mut String, r: Rect, node: &Node) {
    let (fill, stroke) = palette(&node.kind);
    let cx = r.x + r.w / 2;
    let _ = write!(
        out,
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"4\" fill=\"{fill}\" \
         stroke=\"{stroke}\"/>",
        r.x, r.y, r.w, r.h
    );
    if node.kind.is_empty() {
        let _ = write!(
            out,
            "<text x=\"{cx}\" y=\"{}\" fill=\"#111\">{}</text>",
            r.y + LEAF_H / 2 + 4,
            escape(&node.label)
        );
    } else {
        let _ = write!(
            out,
            "<text x=\"{cx}\" y=\"{}\" fill=\"#111\">{}</text><text x=\"{cx}\" y=\"{}\" \
             font-size=\"{SMALL}\" fill=\"#374151\">{}</text>",
            r.y + 17,
            escape(&node.label),
            r.y + 33,
            escape(&node.kind)
        );
    }
}
