// Rationale (a driver fault, not a rule of CUDA's documentation): two conditional nodes that may
// run at the same time, one of them a WHILE loop (or holding one in a body), make NVIDIA's
// driver fail launches at random ("unspecified launch failure", which ends the CUDA context for
// the whole process). Seen with driver 580.159.04 on H100 and H200 from the runtime API alone:
// a WHILE beside an IF, IF/ELSE, SWITCH, another WHILE or an IF holding a WHILE fails within a
// few hundred launches; the same graphs with an edge ordering the two run clean, and a WHILE
// beside plain kernels does too. The declaration fixes the topology, so the pair is reported
// here, at the second node, with the edge that orders them.

use super::Ctxt;
use crate::model::Model;
use crate::parse::{CondKind, NodeOp};

pub fn check(model: &Model, cx: &mut Ctxt) {
    let conditionals: Vec<usize> = (0..model.nodes.len())
        .filter(|&i| matches!(model.nodes[i].op, NodeOp::Conditional(_)))
        .collect();
    if conditionals.len() < 2 {
        return;
    }
    let loops = holds_loop(model);
    let reach = model.reachability();
    for (k, &b) in conditionals.iter().enumerate() {
        for &a in &conditionals[..k] {
            let unordered =
                model.scopes[a] == model.scopes[b] && !reach.get(a, b) && !reach.get(b, a);
            if !unordered || !(loops[a] || loops[b]) {
                continue;
            }
            let looping = if loops[a] { a } else { b };
            let name = |i: usize| &model.nodes[i].written;
            let what = match &model.nodes[looping].op {
                NodeOp::Conditional(c) if c.kind == CondKind::While => "is a WHILE loop",
                _ => "holds a WHILE loop in a body",
            };
            // The edge from the earlier node, unless the declaration's edges forbid it.
            let edge = match model.edge_legal(a, b, reach) {
                true => (name(a), name(b)),
                false => (name(b), name(a)),
            };
            cx.error(
                model.nodes[b].decl.name.span(),
                format!(
                    "conditional nodes `{}` and `{}` may run at the same time, and `{}` {what}: \
                     NVIDIA's driver (seen with 580) then fails launches at random with \
                     \"unspecified launch failure\", which ends the CUDA context; order them, \
                     e.g. with the edge `{} -> {}`",
                    name(a),
                    name(b),
                    name(looping),
                    edge.0,
                    edge.1,
                ),
            );
        }
    }
}

/// `holds[i]`: whether node `i` is a WHILE node or holds one in a body, at any depth.
fn holds_loop(model: &Model) -> Vec<bool> {
    let mut holds = vec![false; model.nodes.len()];
    for (i, node) in model.nodes.iter().enumerate() {
        if matches!(&node.op, NodeOp::Conditional(c) if c.kind == CondKind::While) {
            holds[i] = true;
            for (owner, _) in model.enclosing(i) {
                holds[owner] = true;
            }
        }
    }
    holds
}
