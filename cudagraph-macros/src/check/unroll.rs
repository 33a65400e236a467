// Rationale (unrolled WHILE loops): `while h(unroll = k) { ... }` runs `k` copies of the body per
// pass of the loop, with the body's checks (its nodes that name `h`) in the last copy only
// (`model::unroll`), so that a pass costs the WHILE node's per-pass time once for `k` iterations.
// The count fixes how many nodes the graph has, so the macro must know it (an integer literal, or
// a const of the graph); it is at least 1 (1 is the plain loop) and at most `MAX_UNROLL`. Only a
// WHILE node repeats its body. In an unrolled body (more than one copy):
// - no conditional node: each copy would need a handle of its own (CUDA ties a handle to a single
//   conditional node), which the kernels of each copy could not be given by name;
// - something besides the checks: with checks only, the copies before the last would be empty
//   and the loop would run as if `unroll` were not written.
// The other rules judge the body as declared: the copies run one after the other, so they race
// with nothing, and a copy without its checks keeps the order the declaration gives the rest.

use super::Ctxt;
use crate::model::{name_of, Model, MAX_UNROLL};
use crate::parse::{CondKind, NodeOp};

pub fn check(model: &Model, cx: &mut Ctxt) {
    let is_param = |name: &str| model.params.iter().any(|p| name_of(&p.name) == name);
    for (c, node) in model.nodes.iter().enumerate() {
        let NodeOp::Conditional(cond) = &node.op else {
            continue;
        };
        let Some(unroll) = &cond.unroll else {
            continue;
        };
        let name = &node.name;
        if cond.kind != CondKind::While {
            let kind = match cond.kind {
                CondKind::Switch => "a `switch`",
                _ => "an `if`",
            };
            cx.error(
                unroll.key.span,
                format!(
                    "`unroll` repeats the body of a `while` node, and `{name}` is {kind} node, \
                     whose bodies run at most once per launch: remove `unroll`"
                ),
            );
            continue;
        }
        let k = match model.unroll_value(c) {
            Some(Ok(k)) => k,
            Some(Err(why)) => {
                cx.error(
                    why.span,
                    format!(
                        "the macro cannot compute the `unroll` of `{name}`: {}",
                        why.reason(&is_param)
                    ),
                );
                continue;
            }
            None => continue,
        };
        let count = &unroll.count;
        if k == 0 {
            cx.error_spanned(
                count,
                format!(
                    "`unroll = 0` runs no copy of the body: `unroll` is how many copies of the \
                     body of `{name}` a pass of the loop runs, at least 1 (`unroll = 1` is the \
                     plain loop)"
                ),
            );
            continue;
        }
        if k > MAX_UNROLL {
            cx.error_spanned(
                count,
                format!(
                    "`unroll = {k}` is more than {MAX_UNROLL} copies of the body of `{name}`: \
                     each copy adds the body's nodes to the graph and to every update of them, \
                     and past a few dozen copies the loop's per-pass cost is already small next \
                     to the body's work; use at most {MAX_UNROLL}"
                ),
            );
            continue;
        }
        if k == 1 {
            continue;
        }
        let members: Vec<usize> = (0..model.nodes.len())
            .filter(|&i| model.scopes[i] == Some((c, 0)))
            .collect();
        for &i in &members {
            if let NodeOp::Conditional(_) = &model.nodes[i].op {
                let inner = &model.nodes[i].written;
                cx.error(
                    model.nodes[i].op.keyword_span(),
                    format!(
                        "`{inner}` is a conditional node in the body of `{name}`, which `unroll = \
                         {k}` repeats: each copy would need a conditional handle of its own, and \
                         CUDA ties a handle to a single conditional node; move `{inner}` out of \
                         `{name}`, or remove `unroll`"
                    ),
                );
            }
        }
        if members.iter().all(|&i| model.is_unroll_check(i)) {
            cx.error(
                unroll.key.span,
                format!(
                    "`unroll = {k}` would repeat nothing: every node of the body of `{name}` sets \
                     its handle `{}`, and a node that sets the loop's handle runs in the last \
                     copy only (once per pass, where the loop reads the handle); declare the \
                     iteration's work in nodes of their own, before a check that sets `{}`",
                    cond.handle, cond.handle
                ),
            );
        }
    }
}
