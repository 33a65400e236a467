// Rationale (T2): a CUDA graph is a DAG. Nodes are added after their dependencies, so a cycle
// could not even be built, and no run-time error could say which declared edges form it. Every
// edge on a cycle is reported, each at its own tokens with the whole cycle spelled out, because
// any one of them may be the edge to remove.

use std::collections::BTreeSet;

use super::Ctxt;
use crate::model::{cycle_edges, name_of, Model};

pub fn check(model: &Model, cx: &mut Ctxt) {
    // Edges between distinct declared nodes, first occurrence only (the rest are T1 errors).
    let mut seen = BTreeSet::new();
    let mut edges = Vec::new();
    let mut arrows = Vec::new();
    for edge in &model.edges {
        if let (Some(from), Some(to)) = (model.node(edge.from), model.node(edge.to)) {
            if from != to && seen.insert((from, to)) {
                edges.push((from, to));
                arrows.push(edge.tokens());
            }
        }
    }
    for (index, cycle) in cycle_edges(model.nodes.len(), &edges) {
        let mut text: Vec<String> = cycle
            .iter()
            .map(|&v| name_of(&model.nodes[v].name))
            .collect();
        text.extend(text.first().cloned());
        let (from, to) = edges[index];
        cx.error_spanned(
            &arrows[index],
            format!(
                "the edge `{} -> {}` is part of the dependency cycle `{}`: a CUDA graph must be acyclic, remove one edge of the cycle",
                name_of(&model.nodes[from].name),
                name_of(&model.nodes[to].name),
                text.join(" -> ")
            ),
        );
    }
}
