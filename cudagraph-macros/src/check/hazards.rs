// Rationale (T14, a data race the driver does not catch): CUDA runs two nodes with no path between
// them in any order, or at the same time. If both use one buffer param and one of them writes it
// (a `DevicePtrMut` kernel argument, a memset or memcpy destination, a host node's `mut` buffer),
// the result depends on the schedule: a race, which CUDA accepts without a word. The declaration
// shows every use, so the race is reported here, at both uses, with the edge that fixes it. When
// the concurrency is intended (disjoint parts of the buffer, atomics), both nodes say so with
// `#[unordered(buffer)]`. Two *different* params that turn out to share memory are only known at
// run time: the generated `build` and `set_params` check those pairs (see `overlap_candidates`).

use super::Ctxt;
use crate::model::{Access, Buffer, MemUse, Model};
use crate::parse::NodeDecl;

pub fn check(model: &Model, cx: &mut Ctxt) {
    let reach = model.reachability();
    let uses: Vec<Vec<MemUse>> = model.nodes.iter().map(|n| model.memory_uses(n)).collect();
    let unordered: Vec<Vec<Buffer>> = model.nodes.iter().map(|n| opted_out(model, n)).collect();
    check_attributes(model, &uses, cx);
    for (b, b_uses) in uses.iter().enumerate() {
        for a in 0..b {
            if reach[a][b] || reach[b][a] {
                continue;
            }
            let mut reported = Vec::new();
            for ub in b_uses {
                if reported.contains(&ub.buffer) {
                    continue;
                }
                let Some(ua) = uses[a].iter().find(|ua| {
                    ua.buffer == ub.buffer && (ua.access.writes() || ub.access.writes())
                }) else {
                    continue;
                };
                if unordered[a].contains(&ub.buffer) && unordered[b].contains(&ub.buffer) {
                    continue;
                }
                reported.push(ub.buffer);
                report(model, (a, ua), (b, ub), cx);
            }
        }
    }
}

/// The buffers a node opted out of the rule for.
fn opted_out(model: &Model, node: &NodeDecl) -> Vec<Buffer> {
    model
        .unordered_buffers(node)
        .into_iter()
        .filter_map(|(_, p)| p)
        .collect()
}

fn report(model: &Model, (a, ua): (usize, &MemUse), (b, ub): (usize, &MemUse), cx: &mut Ctxt) {
    let (na, nb) = (&model.nodes[a].name, &model.nodes[b].name);
    let buffer = model.buffer_name(ub.buffer);
    let verb = |access: Access, plural: bool| match (access, plural) {
        (Access::Read, false) => "reads",
        (Access::Read, true) => "read",
        (Access::Write, false) => "writes",
        (Access::Write, true) => "write",
        (Access::MayWrite, _) => "may write",
    };
    let who = if ua.access == ub.access {
        format!("both {} it", verb(ua.access, true))
    } else {
        format!(
            "`{na}` {} it and `{nb}` {} it",
            verb(ua.access, false),
            verb(ub.access, false)
        )
    };
    let unknown = if ua.access == Access::MayWrite || ub.access == Access::MayWrite {
        " A kernel whose parameter types are behind an alias (`Kernel<Alias>`) counts as writing \
         every buffer it gets: write `Kernel<(...)>` out to let the macro tell reads from writes."
    } else {
        ""
    };
    cx.error(
        ub.span,
        format!(
            "nodes `{na}` and `{nb}` both use buffer `{buffer}` and {who}, but no edge orders them: \
             CUDA may run the two at the same time (a data race).{unknown} Add the edge \
             `{na} -> {nb};` (or `{nb} -> {na};`), or, if they use disjoint parts of `{buffer}` or \
             only atomics, mark both nodes `#[unordered({buffer})]`"
        ),
    );
    cx.error(ua.span, format!("`{na}` uses `{buffer}` here"));
}

/// `#[unordered(...)]` names buffers its node uses.
fn check_attributes(model: &Model, uses: &[Vec<MemUse>], cx: &mut Ctxt) {
    for (index, node) in model.nodes.iter().enumerate() {
        for (ident, buffer) in model.unordered_buffers(node) {
            match buffer {
                None => cx.error(
                    ident.span(),
                    format!(
                        "`{ident}` is not a buffer of graph `{}`: `#[unordered(...)]` names the \
                         buffer params and allocations the node may use at the same time as other \
                         nodes",
                        model.decl.name
                    ),
                ),
                Some(b) if !uses[index].iter().any(|u| u.buffer == b) => cx.error(
                    ident.span(),
                    format!(
                        "node `{}` does not use `{ident}` as memory: `#[unordered(...)]` names \
                         buffers the node reads or writes",
                        node.name
                    ),
                ),
                Some(_) => {}
            }
        }
        for attr in node.attrs.iter().filter(|a| a.path().is_ident("unordered")) {
            if attr
                .parse_args_with(
                    syn::punctuated::Punctuated::<syn::Ident, syn::Token![,]>::parse_terminated,
                )
                .is_err()
            {
                cx.error_spanned(attr, "expected buffer params: `#[unordered(buffer, ...)]`");
            }
        }
    }
}

/// Pairs of nodes with no path between them that use two *different* params of one memory space,
/// one writing: `(first node, its param, second node, its param)` by declared index. Whether the
/// two params share memory is known only at run time; the generated code checks.
pub fn overlap_candidates(model: &Model) -> Vec<(usize, usize, usize, usize)> {
    let reach = model.reachability();
    let uses: Vec<Vec<MemUse>> = model.nodes.iter().map(|n| model.memory_uses(n)).collect();
    let unordered: Vec<Vec<Buffer>> = model.nodes.iter().map(|n| opted_out(model, n)).collect();
    let mut out = Vec::new();
    for b in 0..uses.len() {
        for a in 0..b {
            if reach[a][b] || reach[b][a] {
                continue;
            }
            for ua in &uses[a] {
                for ub in &uses[b] {
                    // Allocations have addresses of their own: only params can share memory.
                    let (Buffer::Param(pa), Buffer::Param(pb)) = (ua.buffer, ub.buffer) else {
                        continue;
                    };
                    let pair = (a, pa, b, pb);
                    let conflict = pa != pb
                        && (ua.access.writes() || ub.access.writes())
                        && model.param_space(pa) == model.param_space(pb)
                        && !(unordered[a].contains(&ua.buffer)
                            && unordered[b].contains(&ub.buffer));
                    if conflict && !out.contains(&pair) {
                        out.push(pair);
                    }
                }
            }
        }
    }
    out
}
