// Rationale (T2): a CUDA graph is a DAG. Nodes are added after their dependencies, so a cycle
// could not even be built, and no run-time error could say which declared edges form it. Every
// edge on a cycle is reported, each at its own tokens with the whole cycle spelled out, because
// any one of them may be the edge to remove. A cycle through the iterations of a loop is one too:
// it is spelled with the instances it goes through (`attn[1] -> mlp[1] -> attn[1]`), and an edge
// written in a loop is reported once, at the first iteration that closes a cycle.

use std::collections::BTreeSet;

use super::Ctxt;
use crate::model::{cycle_edges, Model};

pub fn check(model: &Model, cx: &mut Ctxt) {
    // Most graphs have no cycle: tell so in linear time before looking for every edge's cycle.
    if model.canonical_order().is_some() {
        return;
    }
    // Edges between distinct declared nodes, first occurrence only (the rest are T1 errors).
    let mut seen = BTreeSet::new();
    let mut edges = Vec::new();
    let mut written = Vec::new();
    for edge in &model.edges {
        if let (Some(from), Some(to)) = (edge.ends.0.node(), edge.ends.1.node()) {
            if from != to && seen.insert((from, to)) {
                edges.push((from, to));
                written.push(edge);
            }
        }
    }
    let mut reported = BTreeSet::new();
    for (index, cycle) in cycle_edges(model.nodes.len(), &edges) {
        let edge = written[index];
        if !reported.insert(edge.site()) {
            continue;
        }
        let mut text: Vec<&str> = cycle
            .iter()
            .map(|&v| model.nodes[v].written.as_str())
            .collect();
        text.extend(text.first().copied());
        let (from, to) = edges[index];
        let (from, to) = (&model.nodes[from].written, &model.nodes[to].written);
        // An edge written in a loop (or with an index) is named as it is in this iteration.
        let written = format!("{} -> {}", edge.from, edge.to);
        let as_written = if written == format!("{from} -> {to}") {
            String::new()
        } else {
            format!(" (`{written}` here)")
        };
        cx.error_spanned(
            edge.tokens(),
            format!(
                "the edge `{from} -> {to}`{as_written} is part of the dependency cycle `{}`: a CUDA graph must be acyclic, remove one edge of the cycle",
                text.join(" -> ")
            ),
        );
    }
}
