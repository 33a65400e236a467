//! Layout invariants, escaping and one snapshot of the SVG.

use super::layout::{layout, Layout, Rect, BODY_HEAD};
use super::svg::escape;
use super::{render_svg, Body, Node, Picture};

fn node(label: &str, kind: &str) -> Node {
    Node {
        label: label.to_owned(),
        kind: kind.to_owned(),
        bodies: Vec::new(),
    }
}

fn cond(label: &str, kind: &str, bodies: Vec<(&str, Picture)>) -> Node {
    Node {
        label: label.to_owned(),
        kind: kind.to_owned(),
        bodies: bodies
            .into_iter()
            .map(|(label, picture)| Body {
                label: label.to_owned(),
                picture,
            })
            .collect(),
    }
}

fn pic(nodes: Vec<Node>, edges: &[(usize, usize)]) -> Picture {
    Picture {
        nodes,
        edges: edges.to_vec(),
    }
}

/// `zero -> scale -> [back, sub] -> log`, the shape of the macro's doc example.
fn flat() -> Picture {
    pic(
        vec![
            node("zero", "memset"),
            node("scale", "kernel"),
            node("back", "memcpy"),
            node("sub", "child_graph"),
            node("log", "host"),
            node("join", "empty"),
        ],
        &[(0, 1), (1, 2), (1, 3), (2, 4), (3, 4), (4, 5), (0, 5)],
    )
}

/// Conditional nodes two levels deep: a WHILE whose body holds an IF/ELSE.
fn nested() -> Picture {
    let branch = pic(vec![node("fix", "kernel"), node("note", "host")], &[(0, 1)]);
    let ifelse = cond(
        "check",
        "if_else",
        vec![
            ("then", branch),
            ("else", pic(vec![node("skip", "empty")], &[])),
        ],
    );
    let body = pic(
        vec![node("sweep", "kernel"), ifelse, node("norm", "kernel")],
        &[(0, 1), (1, 2), (0, 2)],
    );
    pic(
        vec![
            node("init", "memset"),
            cond("iterate", "while", vec![("body", body)]),
            node("back", "memcpy"),
            node("log", "host"),
        ],
        &[(0, 1), (1, 2), (2, 3), (0, 3)],
    )
}

/// Every box of a layout, bodies included, with its depth, checking along the way that each
/// body lies inside its node, below the node's header, and each inner node inside its body,
/// below the body's label.
fn boxes(l: &Layout, depth: usize, out: &mut Vec<(Rect, usize)>) {
    for n in &l.nodes {
        out.push((n.rect, depth));
        for b in &n.bodies {
            assert!(n.rect.contains(&b.rect), "body {b:?} outside {:?}", n.rect);
            assert!(b.rect.y > n.rect.y, "body over its node's header");
            for inner in &b.inner.nodes {
                assert!(b.rect.contains(&inner.rect), "{inner:?} outside {b:?}");
                assert!(
                    inner.rect.y >= b.rect.y + BODY_HEAD,
                    "node over its body's label"
                );
            }
            boxes(&b.inner, depth + 1, out);
        }
    }
}

/// Checks the invariants of one level of a layout and of its bodies.
fn check(l: &Layout) {
    // No two boxes of a level overlap, nor two bodies of a node.
    for (i, a) in l.nodes.iter().enumerate() {
        assert!(l.rect.contains(&a.rect), "{a:?} outside {:?}", l.rect);
        for b in &l.nodes[i + 1..] {
            assert!(!a.rect.overlaps(&b.rect), "{a:?} overlaps {b:?}");
        }
        for (j, x) in a.bodies.iter().enumerate() {
            for y in &a.bodies[j + 1..] {
                assert!(!x.rect.overlaps(&y.rect), "bodies overlap");
            }
            check(&x.inner);
        }
    }
    for e in &l.edges {
        let (from, to) = (&l.nodes[e.from], &l.nodes[e.to]);
        // Down from a lower layer to a higher one ...
        assert!(from.layer < to.layer, "edge {e:?} not downwards");
        // ... from the bottom of the source's box to the top of the target's ...
        let (first, last) = (e.points[0], e.points[e.points.len() - 1]);
        assert_eq!(first.1, from.rect.y + from.rect.h);
        assert!(first.0 > from.rect.x && first.0 < from.rect.x + from.rect.w);
        assert_eq!(last.1, to.rect.y);
        assert!(last.0 > to.rect.x && last.0 < to.rect.x + to.rect.w);
        // ... always going down, and never through another box of its level.
        for seg in e.points.windows(2) {
            assert!(seg[1].1 >= seg[0].1, "edge {e:?} goes up");
            for step in 0..=16 {
                let t = f64::from(step) / 16.0;
                let x = f64::from(seg[0].0) + t * f64::from(seg[1].0 - seg[0].0);
                let y = f64::from(seg[0].1) + t * f64::from(seg[1].1 - seg[0].1);
                for (k, n) in l.nodes.iter().enumerate() {
                    let r = n.rect;
                    let inside = x > f64::from(r.x)
                        && x < f64::from(r.x + r.w)
                        && y > f64::from(r.y)
                        && y < f64::from(r.y + r.h);
                    assert!(!inside, "edge {e:?} crosses node {k}");
                }
            }
        }
    }
}

/// A minimal XML well-formedness check: tags balance, attribute values are quoted, text and
/// values hold no raw `<` and only known entities.
fn well_formed(svg: &str) {
    let mut stack: Vec<String> = Vec::new();
    let mut rest = svg;
    let check_text = |text: &str| {
        assert!(!text.contains('>'), "raw > in {text:?}");
        let mut parts = text.split('&');
        parts.next();
        for part in parts {
            assert!(
                ["amp;", "lt;", "gt;", "quot;", "apos;"]
                    .iter()
                    .any(|e| part.starts_with(e)),
                "bad entity in {text:?}"
            );
        }
    };
    while let Some(start) = rest.find('<') {
        check_text(&rest[..start]);
        let end = start + rest[start..].find('>').expect("unclosed tag");
        let tag = &rest[start + 1..end];
        let quotes = tag.matches('"').count();
        assert_eq!(quotes % 2, 0, "unbalanced quotes in <{tag}>");
        for value in tag.split('"').skip(1).step_by(2) {
            assert!(!value.contains('<'));
            check_text(value);
        }
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(stack.pop().as_deref(), Some(name), "mismatched </{name}>");
        } else if !tag.ends_with('/') {
            stack.push(tag.split(' ').next().unwrap_or("").to_owned());
        }
        rest = &rest[end + 1..];
        if stack.is_empty() {
            assert!(rest.is_empty(), "text after the root element");
        }
    }
    assert!(stack.is_empty(), "unclosed {stack:?}");
}

#[test]
fn flat_layout_invariants() {
    let l = layout(&flat());
    check(&l);
    let layers: Vec<usize> = l.nodes.iter().map(|n| n.layer).collect();
    // Longest path: `join` waits for `log`, below everything.
    assert_eq!(layers, [0, 1, 2, 2, 3, 4]);
}

#[test]
fn nested_layout_invariants() {
    let p = nested();
    let l = layout(&p);
    check(&l);
    let mut all = Vec::new();
    boxes(&l, 0, &mut all);
    assert_eq!(all.len(), super::node_count(&p));
    // Boxes at one depth never overlap, whichever body they are in.
    for (i, (a, da)) in all.iter().enumerate() {
        for (b, db) in &all[i + 1..] {
            if da == db {
                assert!(!a.overlaps(b), "{a:?} overlaps {b:?}");
            }
        }
    }
    well_formed(&render_svg(&p));
}

#[test]
fn long_edges_bend_around_boxes() {
    // `a -> d` spans two layers beside the chain `a -> b -> c -> d`: it gets waypoints.
    let p = pic(
        vec![
            node("a", "kernel"),
            node("b", "kernel"),
            node("c", "kernel"),
            node("d", "kernel"),
        ],
        &[(0, 1), (1, 2), (2, 3), (0, 3)],
    );
    let l = layout(&p);
    check(&l);
    let long = l.edges.iter().find(|e| (e.from, e.to) == (0, 3)).unwrap();
    assert!(long.points.len() > 2, "{long:?}");
}

#[test]
fn sweeps_remove_a_crossing() {
    // In index order, `a -> d` and `b -> c` cross; swapping `c` and `d` uncrosses them.
    let p = pic(
        vec![
            node("a", "kernel"),
            node("b", "kernel"),
            node("c", "kernel"),
            node("d", "kernel"),
        ],
        &[(0, 3), (1, 2)],
    );
    let l = layout(&p);
    check(&l);
    let x = |i: usize| l.nodes[i].rect.x;
    assert_eq!(x(0) < x(1), x(3) < x(2), "the edges cross: {l:?}");
}

#[test]
fn bad_edges_are_ignored_or_drawn_without_panicking() {
    let mut p = flat();
    p.edges.extend([(5, 0), (2, 2), (0, 99), (0, 1)]);
    let svg = render_svg(&p);
    well_formed(&svg);
    // The duplicate and the self-loop are dropped, the back edge is kept.
    assert!(svg.contains(", 8 edges</title>"), "{svg}");
}

#[test]
fn empty_pictures_render() {
    let svg = render_svg(&Picture::default());
    well_formed(&svg);
    assert!(svg.contains("<title>Graph topology: 0 nodes, 0 edges</title>"));
    let p = pic(
        vec![cond("loop", "while", vec![("body", Picture::default())])],
        &[],
    );
    let l = layout(&p);
    check(&l);
    well_formed(&render_svg(&p));
}

#[test]
fn output_is_deterministic_and_on_one_line() {
    let a = render_svg(&nested());
    assert_eq!(a, render_svg(&nested()));
    assert!(!a.contains('\n') && !a.contains("  "), "{a}");
    assert!(a.starts_with("<svg ") && a.contains(" role=\"img\" ") && a.contains("viewBox=\"0 0 "));
}

#[test]
fn labels_are_escaped() {
    assert_eq!(escape("a<b>&\"c'\nd"), "a&lt;b&gt;&amp;&quot;c&apos; d");
    let p = pic(
        vec![
            node("<script>&amp;", "kernel\"x"),
            cond(
                "a&b",
                "if",
                vec![("case <0>", pic(vec![node("x'y", "host")], &[]))],
            ),
        ],
        &[(0, 1)],
    );
    let svg = super::render_svg_titled(&p, "Topology of <G>");
    well_formed(&svg);
    assert!(!svg.contains("<script>") && !svg.contains("<G>") && !svg.contains("<0>"));
    assert!(svg.contains("&lt;script&gt;&amp;amp;"));
    assert!(svg.contains("<title>Topology of &lt;G&gt;: 3 nodes, 1 edge</title>"));
}

#[test]
fn ten_nodes_stay_small() {
    // A diamond-rich 10-node graph of the kinds the macro declares.
    let kinds = [
        "memset",
        "kernel",
        "kernel",
        "memcpy",
        "kernel",
        "host",
        "mem_alloc",
        "kernel",
        "mem_free",
        "event_record",
    ];
    let nodes = kinds
        .iter()
        .enumerate()
        .map(|(i, k)| node(&format!("node_{i}"), k))
        .collect();
    let p = pic(
        nodes,
        &[
            (0, 1),
            (0, 2),
            (1, 3),
            (2, 3),
            (3, 4),
            (4, 5),
            (6, 7),
            (7, 8),
            (8, 9),
            (5, 9),
            (1, 4),
        ],
    );
    check(&layout(&p));
    let svg = render_svg(&p);
    well_formed(&svg);
    assert!(svg.len() < 4096, "{} bytes", svg.len());
}

/// The whole SVG of a 3-node chain. A change here is a change of every generated graph's docs:
/// look at the picture (`rsvg-convert`, a browser) before updating it.
#[test]
fn three_node_snapshot() {
    let p = pic(
        vec![
            node("zero", "memset"),
            node("scale", "kernel"),
            node("back", "memcpy"),
        ],
        &[(0, 1), (1, 2)],
    );
    let expected = concat!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" width=\"76\" height=\"200\" ",
        "viewBox=\"0 0 76 200\" font-family=\"monospace\" font-size=\"14\" text-anchor=\"middle\" ",
        "fill=\"currentColor\">",
        "<title>Topology of Step: 3 nodes, 2 edges</title><defs>",
        "<marker id=\"cg9c6c0c3d\" viewBox=\"0 0 8 8\" refX=\"8\" refY=\"4\" markerWidth=\"8\" ",
        "markerHeight=\"8\" orient=\"auto\">",
        "<path d=\"M0 0L8 4L0 8z\"/></marker></defs>",
        "<g fill=\"none\" stroke=\"currentColor\" marker-end=\"url(#cg9c6c0c3d)\"><path d=\"M38 48V80\"/>",
        "<path d=\"M38 120V152\"/></g>",
        "<rect x=\"9\" y=\"8\" width=\"58\" height=\"40\" rx=\"4\" fill=\"#ccfbf1\" stroke=\"#0f766e\"/>",
        "<text x=\"38\" y=\"25\" fill=\"#111\">zero</text>",
        "<text x=\"38\" y=\"41\" font-size=\"11\" fill=\"#374151\">memset</text>",
        "<rect x=\"8\" y=\"80\" width=\"60\" height=\"40\" rx=\"4\" fill=\"#dbeafe\" stroke=\"#1d4ed8\"/>",
        "<text x=\"38\" y=\"97\" fill=\"#111\">scale</text>",
        "<text x=\"38\" y=\"113\" font-size=\"11\" fill=\"#374151\">kernel</text>",
        "<rect x=\"9\" y=\"152\" width=\"58\" height=\"40\" rx=\"4\" fill=\"#dcfce7\" stroke=\"#15803d\"/>",
        "<text x=\"38\" y=\"169\" fill=\"#111\">back</text>",
        "<text x=\"38\" y=\"185\" font-size=\"11\" fill=\"#374151\">memcpy</text></svg>",
    );
    assert_eq!(super::render_svg_titled(&p, "Topology of Step"), expected);
}
