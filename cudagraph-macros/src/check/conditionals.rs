// Rationale (T10, conditional nodes): CUDA accepts a conditional body with a node it cannot run
// there, or a handle that no node of the graph may set, when the graph is built, and reports it
// only when the graph is instantiated or launched, far from the declaration. The declaration
// shows all of it, so it is reported here, at the user's tokens:
// - a body holds only kernel, empty, child-graph, memset, memcpy and conditional nodes (host,
//   event and memory nodes are refused: CUDA Programming Guide, "Conditional Node Body Graph
//   Requirements");
// - an edge joins two nodes of one body (or two nodes outside every body): a body is a graph of
//   its own, ordered as a whole by its conditional node;
// - a handle belongs to its conditional node: kernels of the scope the node is in, or of the
//   bodies within it, set it; not a param (it would come from another graph), not a node of
//   another declaration, and its default is fixed when the graph is built (CUDA cannot update it).
// Pageable host memory, which CUDA refuses in a body's memcpy or memset, has no type a
// declaration can name (host buffers are `HostBuffer<T>`, pinned).

use super::Ctxt;
use crate::model::Model;
use crate::parse::NodeOp;

const BODY_KINDS: &str = "kernel, empty, child, memset, memcpy and conditional nodes";
const DOCS: &str = "https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#conditional-node-body-graph-requirements";

pub fn check(models: &[Model], model: &Model, cx: &mut Ctxt) {
    let graph = &model.decl.name;
    for block in &model.misplaced_params {
        cx.error(
            block.token.span,
            format!(
                "params are declared once, at the top of graph `{graph}`: move this block out of \
                 the conditional body (a body's nodes read the graph's params)"
            ),
        );
    }
    for (index, node) in model.nodes.iter().enumerate() {
        // What follows is about declarations (a loop's nodes are never in a body, and its
        // iterations mention the same handles).
        if !model.first_of_decl(index) {
            continue;
        }
        if let Some((c, _)) = model.scopes[index] {
            if let Some(kind) = node.op.kind().refused_in_body_node() {
                let cond = &model.nodes[c].written;
                cx.error(
                    node.op.keyword_span(),
                    format!(
                        "`{}` is {kind} in the body of conditional node `{cond}`: CUDA allows only \
                         {BODY_KINDS} in a conditional body ({DOCS}); declare `{}` before or after \
                         `{cond}`",
                        node.name, node.name
                    ),
                );
            }
            if let NodeOp::Collective(collective) = &node.op {
                let cond = &model.nodes[c].written;
                cx.error(
                    collective.token.span(),
                    format!(
                        "`{}` is a collective node in the body of conditional node `{cond}`: \
                         whether a body runs is decided on each device, so one rank could skip \
                         a collective its peers wait in, and hang them all; declare `{}` before \
                         or after `{cond}`, where every rank runs it",
                        node.name, node.name
                    ),
                );
            }
            for i in model.indirect_mentions(node) {
                cx.error(
                    node.decl.name.span(),
                    format!(
                        "node `{}` in the body of conditional node `{}` reads `#[indirect]` param \
                         `{}`: indirect params are read by nodes outside conditional bodies only; \
                         give the body's kernels the value as a plain param",
                        node.written, model.nodes[c].written, model.params[i].name
                    ),
                );
            }
            for (a, span) in model.alloc_mentions(node) {
                cx.error(
                    span,
                    format!(
                        "node `{}` in the body of conditional node `{}` uses allocation `{}`: \
                         allocations of a declaration are used by nodes outside conditional \
                         bodies only; pass the memory as a `DeviceBuffer<T>` param",
                        node.written, model.nodes[c].written, model.nodes[a].written
                    ),
                );
            }
        }
        if let NodeOp::Conditional(cond) = &node.op {
            handle_name(model, index, cx);
            if let Some(default) = &cond.default {
                let mut mentioned = Vec::new();
                crate::model::each_ident(default, &mut |ident| {
                    if model.param(ident).is_some() && !mentioned.contains(ident) {
                        mentioned.push(ident.clone());
                    }
                });
                for ident in mentioned {
                    cx.error(
                        ident.span(),
                        format!(
                            "the default of handle `{}` reads param `{ident}`: CUDA fixes a \
                             handle's default when the graph is built and cannot update it; use a \
                             constant, or set the handle from a kernel that takes `{ident}` and \
                             `{}` as arguments",
                            cond.handle, cond.handle
                        ),
                    );
                }
            }
        }
        for (c, span) in model.handle_mentions(node) {
            if !model.may_set(index, c) {
                let NodeOp::Conditional(cond) = &model.nodes[c].op else {
                    continue;
                };
                cx.error(
                    span,
                    format!(
                        "node `{}` cannot set handle `{}`: the handle belongs to conditional node \
                         `{}`, whose handle only nodes beside it and in its bodies may set; move \
                         `{}` there",
                        node.name, cond.handle, model.nodes[c].written, node.decl.name
                    ),
                );
            }
        }
        // A handle of another declaration of this call.
        model.each_mention(node, &mut |ident| {
            if model.param(ident).is_some()
                || model.names_allocation(ident)
                || model.handle(ident).is_some()
            {
                return;
            }
            let other = models
                .iter()
                .filter(|m| !std::ptr::eq(*m, model))
                .find(|m| m.handle(ident).is_some());
            if let Some(other) = other {
                cx.error(
                    ident.span(),
                    format!(
                        "`{ident}` is a conditional handle of graph `{}`, not of `{graph}`: a \
                         kernel sets only handles of its own graph (CUDA ties a handle to the \
                         graph it was made for); declare a conditional node in `{graph}`",
                        other.decl.name
                    ),
                );
            }
        });
    }
    let mut crossing = std::collections::BTreeSet::new();
    for edge in &model.edges {
        let (Some(from), Some(to)) = (edge.ends.0.node(), edge.ends.1.node()) else {
            continue;
        };
        if model.scopes[from] == model.scopes[to] || !crossing.insert(edge.site()) {
            continue;
        }
        let place = |i: usize| match model.scopes[i] {
            None => "outside every conditional body".to_owned(),
            Some((c, b)) => format!(
                "in {} of `{}`",
                body_name(model, c, b),
                model.nodes[c].written
            ),
        };
        cx.error_spanned(
            edge.tokens(),
            format!(
                "edge `{} -> {}` crosses a conditional body: `{}` is {}, `{}` is {}; a body is \
                 a graph of its own, ordered as a whole by its conditional node: order `{}` and \
                 `{}` with nodes of their own body, or with the conditional node",
                edge.from,
                edge.to,
                edge.from,
                place(from),
                edge.to,
                place(to),
                edge.from,
                edge.to
            ),
        );
    }
    for param in &model.params {
        if crate::model::last_segment(&param.ty).as_deref() == Some("ConditionalHandle") {
            cx.error(
                param.name.span(),
                format!(
                    "param `{}` is a `ConditionalHandle`: a handle is made by the conditional node \
                     that reads it (`name: while {} {{ ... }}`), since one made for another graph \
                     would be set where no node reads it",
                    param.name, param.name
                ),
            );
        }
    }
}

/// The name of body `b` of conditional node `c`, as messages say it.
pub fn body_name(model: &Model, c: usize, b: usize) -> String {
    match &model.nodes[c].op {
        NodeOp::Conditional(cond) => match (cond.kind, b) {
            (crate::parse::CondKind::IfElse, 1) => "the `else` body".to_owned(),
            (crate::parse::CondKind::Switch, b) => format!("case {b}"),
            _ => "the body".to_owned(),
        },
        _ => "the body".to_owned(),
    }
}

/// A conditional handle's name must not be a param's, a node's or another handle's.
fn handle_name(model: &Model, index: usize, cx: &mut Ctxt) {
    let NodeOp::Conditional(cond) = &model.nodes[index].op else {
        return;
    };
    let handle = &cond.handle;
    let clash = if model.param(handle).is_some() {
        Some("a param")
    } else if model.node(handle).is_some() || model.repeated(handle).is_some() {
        Some("a node")
    } else if model.handle(handle) != Some(index) {
        Some("the handle of another conditional node")
    } else {
        None
    };
    if let Some(what) = clash {
        cx.error(
            handle.span(),
            format!(
                "handle `{handle}` of conditional node `{}` has the name of {what}: a handle is a \
                 new name (kernels take it as an argument), so give it one of its own",
                model.nodes[index].written
            ),
        );
    }
}
