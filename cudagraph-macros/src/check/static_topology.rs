// Rationale (T12): every graph built from a declaration must be created by the same sequence of
// driver calls, or whole-graph updates pair nodes wrongly (CUDA pairs nodes by creation order). Run-time control flow
// choosing or repeating nodes would make the topology depend on run-time values, so it is
// rejected where nodes and edges are declared, with the static alternatives named (among them
// conditional nodes, whose bodies are fixed and which choose or repeat on the GPU). Control flow
// *inside* a node's argument expressions is fine: it computes a value, not the shape. The shape
// is recognised whatever comes before it (doc comments, attributes, a loop label), and so are
// the other Rust statements a user may try where nodes go (blocks, `let`, macro calls), each
// with what to write instead.

use super::Ctxt;
use crate::model::Model;
use crate::parse::Item;

pub fn check(model: &Model, cx: &mut Ctxt) {
    for (item, _) in model.all_items() {
        if let Item::ControlFlow(flow) = item {
            let statement = match flow.keyword {
                "block" => Some(
                    "a block `{ ... }` cannot group nodes in a graph declaration: declare its \
                     nodes and edges directly in the graph (a conditional node has bodies of its \
                     own: `name: if h { ... }`)",
                ),
                "let" => Some(
                    "`let` cannot appear in a graph declaration: node expressions read the params \
                     only; compute the value in the node's arguments (`kernel k<<<g, b>>>(n * 2)`) \
                     or make it a param",
                ),
                "macro" => Some(
                    "a macro call cannot declare nodes inside `cuda_graph!`, which sees its tokens \
                     unexpanded: to make a declaration with a macro, generate the whole \
                     `cuda_graph! { ... }` call from it",
                ),
                _ => None,
            };
            if let Some(message) = statement {
                cx.error(flow.span, message);
                continue;
            }
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
