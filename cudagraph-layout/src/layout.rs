//! Where every box and edge of a [`Picture`] goes, in integer pixels.
//!
//! A layered (Sugiyama-style) layout, top to bottom:
//! 1. each node's box is sized from its text, or, for a conditional node, from its bodies, which
//!    are laid out first, recursively;
//! 2. layers by longest path from the sources, so that every edge points down;
//! 3. an edge spanning several layers gets a zero-width waypoint in each layer it crosses, so
//!    that it is routed between the boxes instead of through them;
//! 4. the order within each layer comes from barycenter sweeps (each node moves to the mean
//!    position of its neighbours in the layer above, then below), keeping the order with the
//!    fewest crossings seen;
//! 5. x positions: each layer in turn is placed as close as possible (least squares) to the mean
//!    x of its neighbours, subject to the boxes keeping their order and gaps, which is an
//!    isotonic regression solved exactly by pooling adjacent violators.
//!
//! Everything is deterministic: no hashing, ties broken by node index.

use std::collections::BTreeSet;

use super::{Node, Picture};

/// Font size of node names and of conditional nodes' headers.
pub const FONT: i32 = 14;
/// Font size of node kinds and body labels.
pub const SMALL: i32 = 11;
/// Width of one monospace column in ems. Monospace fonts are 0.6 em wide (DejaVu Sans Mono,
/// Liberation Mono, Menlo, Consolas, Courier); the margin absorbs the rest.
const COLUMN_EM: f64 = 0.62;
/// Space between a box's border and its contents.
pub const PAD: i32 = 8;
/// Height of a plain node's box: its name over its kind.
pub const LEAF_H: i32 = 40;
/// Height of a conditional node's header (its name and kind) above its bodies.
pub const COND_HEAD: i32 = 24;
/// Height of a body's label above its graph.
pub const BODY_HEAD: i32 = 18;
/// Horizontal space between the bodies of a conditional node.
const BODY_GAP: i32 = 8;
/// Horizontal space between two boxes of a layer.
const NODE_GAP: i32 = 16;
/// Horizontal space beside an edge's waypoint.
const WAYPOINT_GAP: i32 = 8;
/// Vertical space between layers, where the edges run.
const LAYER_GAP: i32 = 32;
/// Rounds of ordering sweeps (one down, one up each); they stop early at zero crossings.
const ORDER_ROUNDS: usize = 8;
/// Rounds of x placement (one down, one up each).
const PLACE_ROUNDS: usize = 4;

/// An axis-aligned rectangle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rect {
    /// Left edge.
    pub x: i32,
    /// Top edge.
    pub y: i32,
    /// Width.
    pub w: i32,
    /// Height.
    pub h: i32,
}

// Used by the tests' invariants; the layout itself never needs to ask.
#[cfg(test)]
impl Rect {
    /// Whether the interiors of the two rectangles intersect (touching borders do not).
    pub fn overlaps(&self, o: &Rect) -> bool {
        self.x < o.x + o.w && o.x < self.x + self.w && self.y < o.y + o.h && o.y < self.y + self.h
    }

    /// Whether `o` lies inside `self`, borders included.
    pub fn contains(&self, o: &Rect) -> bool {
        o.x >= self.x
            && o.y >= self.y
            && o.x + o.w <= self.x + self.w
            && o.y + o.h <= self.y + self.h
    }
}

/// A laid-out [`Picture`]: boxes and routes with absolute coordinates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    /// The area its boxes and edges lie in.
    pub rect: Rect,
    /// The nodes' boxes, in the order of the picture's nodes.
    pub nodes: Vec<Placed>,
    /// The edges, each once, in the order of their first occurrence in the picture.
    pub edges: Vec<Route>,
}

/// One node's box.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placed {
    /// The box.
    pub rect: Rect,
    /// Its layer, from 0 at the top.
    pub layer: usize,
    /// A conditional node's bodies, side by side inside the box.
    pub bodies: Vec<PlacedBody>,
}

/// One body of a conditional node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlacedBody {
    /// The body's box, label included.
    pub rect: Rect,
    /// The body's graph, inside the box below the label.
    pub inner: Layout,
}

/// One edge, as a polyline from the bottom of its source's box to the top of its target's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Route {
    /// The source's index.
    pub from: usize,
    /// The target's index.
    pub to: usize,
    /// The polyline, at least two points; the last one is where the arrowhead points.
    pub points: Vec<(i32, i32)>,
}

impl Layout {
    /// Moves everything by `(dx, dy)`.
    pub fn translate(&mut self, dx: i32, dy: i32) {
        self.rect.x += dx;
        self.rect.y += dy;
        for node in &mut self.nodes {
            node.rect.x += dx;
            node.rect.y += dy;
            for body in &mut node.bodies {
                body.rect.x += dx;
                body.rect.y += dy;
                body.inner.translate(dx, dy);
            }
        }
        for edge in &mut self.edges {
            for p in &mut edge.points {
                p.0 += dx;
                p.1 += dy;
            }
        }
    }
}

/// How many monospace columns `s` takes: East Asian wide characters take two.
fn columns(s: &str) -> usize {
    s.chars()
        .map(|c| {
            let c = c as u32;
            let wide = matches!(c,
                0x1100..=0x115F | 0x2E80..=0xA4CF | 0xAC00..=0xD7A3 | 0xF900..=0xFAFF
                | 0xFE30..=0xFE4F | 0xFF00..=0xFF60 | 0xFFE0..=0xFFE6 | 0x1F300..=0x1F64F
                | 0x1F900..=0x1F9FF | 0x20000..=0x3FFFD);
            if wide {
                2
            } else {
                1
            }
        })
        .sum()
}

/// The width of `s` at font size `font`, in pixels, rounded up.
pub fn text_width(s: &str, font: i32) -> i32 {
    (columns(s) as f64 * f64::from(font) * COLUMN_EM).ceil() as i32
}

/// The text of a conditional node's header.
fn cond_header(node: &Node) -> String {
    format!("{}: {}", node.label, node.kind)
}

/// `w` rounded up to even: a box of even width has an integer centre, so that an edge between
/// two boxes placed one above the other is vertical.
fn even(w: i32) -> i32 {
    w + (w & 1)
}

/// A node's box size and, for a conditional node, its laid-out bodies relative to the box.
fn measure(node: &Node) -> (i32, i32, Vec<PlacedBody>) {
    if node.bodies.is_empty() {
        let w = text_width(&node.label, FONT).max(text_width(&node.kind, SMALL)) + 2 * PAD;
        return (even(w), LEAF_H, Vec::new());
    }
    let mut bodies: Vec<PlacedBody> = node
        .bodies
        .iter()
        .map(|b| {
            let inner = layout(&b.picture);
            let w = (inner.rect.w + 2 * PAD).max(text_width(&b.label, SMALL) + 2 * PAD);
            let h = BODY_HEAD + inner.rect.h + PAD;
            PlacedBody {
                rect: Rect { x: 0, y: 0, w, h },
                inner,
            }
        })
        .collect();
    let inner_w: i32 =
        bodies.iter().map(|b| b.rect.w).sum::<i32>() + BODY_GAP * (bodies.len() as i32 - 1);
    let w = even((inner_w + 2 * PAD).max(text_width(&cond_header(node), FONT) + 2 * PAD));
    let body_h = bodies.iter().map(|b| b.rect.h).max().unwrap_or(0);
    // Bodies share one height, and are centred when the header is wider than they are.
    let mut x = (w - inner_w) / 2;
    for body in &mut bodies {
        body.rect.x = x;
        body.rect.y = COND_HEAD;
        body.rect.h = body_h;
        let dx = x + (body.rect.w - body.inner.rect.w) / 2;
        body.inner.translate(dx, COND_HEAD + BODY_HEAD);
        x += body.rect.w + BODY_GAP;
    }
    (w, COND_HEAD + body_h + PAD, bodies)
}

/// A topological order of the nodes, smallest index first among the ready ones. Nodes on a
/// cycle are taken, smallest index first, once nothing else is ready, which breaks the cycle.
fn topological_order(n: usize, edges: &[(usize, usize)]) -> Vec<usize> {
    let mut indegree = vec![0usize; n];
    let mut succs = vec![Vec::new(); n];
    for &(a, b) in edges {
        indegree[b] += 1;
        succs[a].push(b);
    }
    let mut ready: BTreeSet<usize> = (0..n).filter(|&v| indegree[v] == 0).collect();
    let mut taken = vec![false; n];
    let mut order = Vec::with_capacity(n);
    while order.len() < n {
        let v = match ready.pop_first() {
            Some(v) => v,
            // A cycle: nothing is ready, take the first node left.
            None => match (0..n).find(|&v| !taken[v]) {
                Some(v) => v,
                None => break,
            },
        };
        if taken[v] {
            continue;
        }
        taken[v] = true;
        order.push(v);
        for &s in &succs[v] {
            indegree[s] = indegree[s].saturating_sub(1);
            if indegree[s] == 0 && !taken[s] {
                ready.insert(s);
            }
        }
    }
    order
}

/// One slot of a layer: a node's box or an edge's waypoint.
struct Item {
    layer: usize,
    /// Width of the box, 0 for a waypoint.
    w: i32,
    real: bool,
}

/// Lays out a picture with its top left corner at `(0, 0)`.
pub fn layout(p: &Picture) -> Layout {
    let n = p.nodes.len();
    let measured: Vec<(i32, i32, Vec<PlacedBody>)> = p.nodes.iter().map(measure).collect();

    // Each edge once, without self-loops or indices out of range.
    let mut seen = BTreeSet::new();
    let edges: Vec<(usize, usize)> = p
        .edges
        .iter()
        .copied()
        .filter(|&(a, b)| a < n && b < n && a != b && seen.insert((a, b)))
        .collect();

    // Longest-path layers, in topological order. An edge that closes a cycle is ignored here
    // and drawn straight.
    let order = topological_order(n, &edges);
    let mut rank = vec![usize::MAX; n];
    for (k, &v) in order.iter().enumerate() {
        rank[v] = k;
    }
    let mut preds = vec![Vec::new(); n];
    for &(a, b) in &edges {
        preds[b].push(a);
    }
    let mut layer = vec![0usize; n];
    for &v in &order {
        layer[v] = preds[v]
            .iter()
            .filter(|&&u| rank[u] < rank[v])
            .map(|&u| layer[u] + 1)
            .max()
            .unwrap_or(0);
    }
    // A node whose successors are all further down than the next layer moves down to just
    // above the first of them (a source used late, say an allocation): shorter edges. Its
    // predecessors stay above it, since it only moves down; the layer count does not change.
    let mut succs = vec![Vec::new(); n];
    for &(a, b) in &edges {
        if rank[a] < rank[b] {
            succs[a].push(b);
        }
    }
    for &v in order.iter().rev() {
        if let Some(first) = succs[v].iter().map(|&s| layer[s]).min() {
            layer[v] = layer[v].max(first.saturating_sub(1));
        }
    }
    let layers_n = layer.iter().map(|&l| l + 1).max().unwrap_or(0);

    // Items: the nodes first (item i is node i), then one waypoint per layer an edge crosses.
    let mut items: Vec<Item> = (0..n)
        .map(|v| Item {
            layer: layer[v],
            w: measured[v].0,
            real: true,
        })
        .collect();
    let mut chains: Vec<Vec<usize>> = Vec::with_capacity(edges.len());
    let mut up = vec![Vec::new(); n];
    let mut down = vec![Vec::new(); n];
    for &(a, b) in &edges {
        let mut chain = vec![a];
        if layer[b] > layer[a] {
            for l in layer[a] + 1..layer[b] {
                items.push(Item {
                    layer: l,
                    w: 0,
                    real: false,
                });
                up.push(Vec::new());
                down.push(Vec::new());
                chain.push(items.len() - 1);
            }
            chain.push(b);
            for pair in chain.windows(2) {
                down[pair[0]].push(pair[1]);
                up[pair[1]].push(pair[0]);
            }
        } else {
            chain.push(b);
        }
        chains.push(chain);
    }
    let mut layers: Vec<Vec<usize>> = vec![Vec::new(); layers_n];
    for (i, item) in items.iter().enumerate() {
        layers[item.layer].push(i);
    }

    order_layers(&mut layers, &up, &down);
    let (left, top, layer_h) = place(&items, &layers, &up, &down, &measured);

    // Boxes.
    let nodes: Vec<Placed> = measured
        .into_iter()
        .enumerate()
        .map(|(v, (w, h, mut bodies))| {
            let (x, y) = (left[v], top[layer[v]]);
            for body in &mut bodies {
                body.rect.x += x;
                body.rect.y += y;
                body.inner.translate(x, y);
            }
            Placed {
                rect: Rect { x, y, w, h },
                layer: layer[v],
                bodies,
            }
        })
        .collect();

    // Ports: a node's edges leave (enter) its box spread along its bottom (top) edge, in the
    // order of where they go next (come from), so that they do not cross at the box.
    let next_x = |chain: &Vec<usize>| left[chain[1]] + items[chain[1]].w / 2;
    let prev_x =
        |chain: &Vec<usize>| left[chain[chain.len() - 2]] + items[chain[chain.len() - 2]].w / 2;
    let mut out_port = vec![0; edges.len()];
    let mut in_port = vec![0; edges.len()];
    let mut outs = vec![Vec::new(); n];
    let mut ins = vec![Vec::new(); n];
    for (e, &(a, b)) in edges.iter().enumerate() {
        outs[a].push(e);
        ins[b].push(e);
    }
    let spread = |rect: Rect, i: usize, k: usize| rect.x + rect.w * (i as i32 + 1) / (k as i32 + 1);
    for (node, (outs, ins)) in nodes.iter().zip(outs.iter_mut().zip(&mut ins)) {
        outs.sort_by_key(|&e| (next_x(&chains[e]), e));
        for (i, &e) in outs.iter().enumerate() {
            out_port[e] = spread(node.rect, i, outs.len());
        }
        ins.sort_by_key(|&e| (prev_x(&chains[e]), e));
        for (i, &e) in ins.iter().enumerate() {
            in_port[e] = spread(node.rect, i, ins.len());
        }
    }

    let routes: Vec<Route> = edges
        .iter()
        .enumerate()
        .map(|(e, &(a, b))| {
            let (ra, rb) = (nodes[a].rect, nodes[b].rect);
            let mut points = vec![(out_port[e], ra.y + ra.h)];
            if layer[b] > layer[a] {
                // Down to the bottom of the source's layer first: a straight line from a short
                // box could cut through a taller neighbour.
                let bottom = top[layer[a]] + layer_h[layer[a]];
                if ra.y + ra.h < bottom {
                    points.push((out_port[e], bottom));
                }
                for &d in &chains[e][1..chains[e].len() - 1] {
                    let l = items[d].layer;
                    points.push((left[d], top[l]));
                    points.push((left[d], top[l] + layer_h[l]));
                }
            }
            points.push((in_port[e], rb.y));
            Route {
                from: a,
                to: b,
                points,
            }
        })
        .collect();

    let w = (0..items.len())
        .map(|i| left[i] + items[i].w)
        .max()
        .unwrap_or(0);
    let h = if layers_n == 0 {
        0
    } else {
        top[layers_n - 1] + layer_h[layers_n - 1]
    };
    Layout {
        rect: Rect { x: 0, y: 0, w, h },
        nodes,
        edges: routes,
    }
}

/// The number of crossings between the edge segments of adjacent layers, for the order `pos`.
fn crossings(layers: &[Vec<usize>], down: &[Vec<usize>], pos: &[usize]) -> usize {
    let mut total = 0;
    for layer in layers {
        let mut segs: Vec<(usize, usize)> = layer
            .iter()
            .flat_map(|&a| down[a].iter().map(move |&b| (pos[a], pos[b])))
            .collect();
        segs.sort_unstable();
        // Sorted by source, two segments cross when their targets are inverted.
        for i in 0..segs.len() {
            total += segs[i + 1..].iter().filter(|s| s.1 < segs[i].1).count();
        }
    }
    total
}

/// Orders each layer by barycenter sweeps, keeping the order with the fewest crossings.
fn order_layers(layers: &mut [Vec<usize>], up: &[Vec<usize>], down: &[Vec<usize>]) {
    let mut pos = vec![0usize; up.len()];
    let index = |layers: &[Vec<usize>], pos: &mut [usize]| {
        for layer in layers {
            for (i, &it) in layer.iter().enumerate() {
                pos[it] = i;
            }
        }
    };
    index(layers, &mut pos);
    let mut best = layers.to_vec();
    let mut best_crossings = crossings(layers, down, &pos);
    // One layer to the mean position of its neighbours in the layer just placed; a slot with
    // no neighbour there keeps its own position as its key. The sort is stable: ties keep
    // their order.
    let sweep = |layer: &mut Vec<usize>, nbrs: &[Vec<usize>], pos: &mut [usize]| {
        let mut keyed: Vec<(f64, usize)> = layer
            .iter()
            .enumerate()
            .map(|(i, &it)| {
                let ns = &nbrs[it];
                let key = if ns.is_empty() {
                    i as f64
                } else {
                    ns.iter().map(|&m| pos[m] as f64).sum::<f64>() / ns.len() as f64
                };
                (key, it)
            })
            .collect();
        keyed.sort_by(|a, b| a.0.total_cmp(&b.0));
        for (i, &(_, it)) in keyed.iter().enumerate() {
            layer[i] = it;
            pos[it] = i;
        }
    };
    for _ in 0..ORDER_ROUNDS {
        if best_crossings == 0 {
            break;
        }
        for layer in layers.iter_mut().skip(1) {
            sweep(layer, up, &mut pos);
        }
        let c = crossings(layers, down, &pos);
        if c < best_crossings {
            best_crossings = c;
            best = layers.to_vec();
        }
        let below = layers.len().saturating_sub(1);
        for layer in layers[..below].iter_mut().rev() {
            sweep(layer, down, &mut pos);
        }
        let c = crossings(layers, down, &pos);
        if c < best_crossings {
            best_crossings = c;
            best = layers.to_vec();
        }
    }
    layers.clone_from_slice(&best);
}

/// The gap required between two adjacent slots of a layer.
fn gap(a: &Item, b: &Item) -> i32 {
    if a.real && b.real {
        NODE_GAP
    } else {
        WAYPOINT_GAP
    }
}

/// Places the slots of one layer, in their order, as close as possible to `want` (their
/// desired centres) in least squares without overlapping: with `c` the centres of the layer
/// packed tight, the centres are `c + y` for a nondecreasing `y` nearest to `want - c`, which
/// pooling adjacent violators finds exactly.
fn place_layer(layer: &[usize], items: &[Item], want: &[f64], x: &mut [f64]) {
    let mut c = vec![0.0; layer.len()];
    for i in 1..layer.len() {
        let (a, b) = (&items[layer[i - 1]], &items[layer[i]]);
        c[i] = c[i - 1] + f64::from(a.w + b.w) / 2.0 + f64::from(gap(a, b));
    }
    // Blocks of pooled slots: (sum of targets, count).
    let mut blocks: Vec<(f64, usize)> = Vec::with_capacity(layer.len());
    for i in 0..layer.len() {
        blocks.push((want[i] - c[i], 1));
        while blocks.len() >= 2 {
            let (s2, n2) = blocks[blocks.len() - 1];
            let (s1, n1) = blocks[blocks.len() - 2];
            if s1 / n1 as f64 > s2 / n2 as f64 {
                blocks.pop();
                let last = blocks.len() - 1;
                blocks[last] = (s1 + s2, n1 + n2);
            } else {
                break;
            }
        }
    }
    let mut i = 0;
    for (s, count) in blocks {
        let y = s / count as f64;
        for _ in 0..count {
            x[layer[i]] = c[i] + y;
            i += 1;
        }
    }
}

/// The left edge of every slot, the top of every layer and the height of every layer.
fn place(
    items: &[Item],
    layers: &[Vec<usize>],
    up: &[Vec<usize>],
    down: &[Vec<usize>],
    measured: &[(i32, i32, Vec<PlacedBody>)],
) -> (Vec<i32>, Vec<i32>, Vec<i32>) {
    // Centres, starting with every layer packed and centred on 0.
    let mut x = vec![0.0f64; items.len()];
    for layer in layers {
        let want = vec![0.0; layer.len()];
        place_layer(layer, items, &want, &mut x);
    }
    let mean = |nbrs: &[usize], x: &[f64]| -> Option<f64> {
        if nbrs.is_empty() {
            None
        } else {
            Some(nbrs.iter().map(|&m| x[m]).sum::<f64>() / nbrs.len() as f64)
        }
    };
    let pass = |l: usize, x: &mut [f64], towards: &dyn Fn(usize, &[f64]) -> Option<f64>| {
        let want: Vec<f64> = layers[l]
            .iter()
            .map(|&it| towards(it, x).unwrap_or(x[it]))
            .collect();
        place_layer(&layers[l], items, &want, x);
    };
    let to_up = |it: usize, x: &[f64]| mean(&up[it], x);
    let to_down = |it: usize, x: &[f64]| mean(&down[it], x);
    let to_both = |it: usize, x: &[f64]| {
        let all: Vec<usize> = up[it].iter().chain(&down[it]).copied().collect();
        mean(&all, x)
    };
    for _ in 0..PLACE_ROUNDS {
        for l in 1..layers.len() {
            pass(l, &mut x, &to_up);
        }
        for l in (0..layers.len().saturating_sub(1)).rev() {
            pass(l, &mut x, &to_down);
        }
    }
    for l in 0..layers.len() {
        pass(l, &mut x, &to_both);
    }

    // Integers, keeping the gaps that rounding may have eaten, then from 0.
    let mut left: Vec<i32> = (0..items.len())
        .map(|i| (x[i] - f64::from(items[i].w) / 2.0).round() as i32)
        .collect();
    for layer in layers {
        for pair in layer.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            let min = left[a] + items[a].w + gap(&items[a], &items[b]);
            if left[b] < min {
                left[b] = min;
            }
        }
    }
    let min = left.iter().copied().min().unwrap_or(0);
    for l in &mut left {
        *l -= min;
    }

    let layer_h: Vec<i32> = layers
        .iter()
        .map(|layer| {
            layer
                .iter()
                .filter(|&&it| items[it].real)
                .map(|&it| measured[it].1)
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut top = Vec::with_capacity(layers.len());
    let mut y = 0;
    for &h in &layer_h {
        top.push(y);
        y += h + LAYER_GAP;
    }
    (left, top, layer_h)
}
