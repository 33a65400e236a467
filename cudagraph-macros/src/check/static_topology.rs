// Rationale (T12): every graph built from a declaration must be created by the same sequence of
// driver calls, or whole-graph updates pair nodes wrongly (CUDA pairs nodes by creation order). Run-time control flow
// choosing or repeating nodes would make the topology depend on run-time values, so it is
// rejected where nodes and edges are declared, with the static alternatives named (among them
// conditional nodes, whose bodies are fixed and which choose or repeat on the GPU). Control flow
// *inside* a node's argument expressions is fine: it computes a value, not the shape.

use super::Ctxt;
use crate::model::Model;
use crate::parse::Item;

pub fn check(model: &Model, cx: &mut Ctxt) {
    for (item, _) in model.all_items() {
        if let Item::ControlFlow(flow) = item {
            let fix = match flow.keyword {
                "if" | "match" => {
                    "to choose on the GPU, declare a conditional node that runs or skips its body \
                     by a value a kernel sets (`name: if h { ... } else { ... }`, \
                     `name: switch h { 0 => { ... } 1 => { ... } }`); to choose on the host, \
                     switch kernel, memset or memcpy nodes on and off with \
                     `exec.<node>().set_enabled(..)`, or declare one `graph` per variant"
                }
                _ => {
                    "to repeat on the GPU, declare a `while` conditional node \
                     (`name: while h { ... }`, its body's kernels set `h` to 0 to stop); \
                     otherwise declare each node, or launch the graph several times"
                }
            };
            cx.error(
                flow.span,
                format!(
                    "`{}` cannot shape a graph at run time: a `cuda_graph!` topology is fixed at compile time; {fix}",
                    flow.keyword
                ),
            );
        }
    }
}
