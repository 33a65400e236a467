// Rationale (T3 and node operands): the operands that fix a node's type (the kernel launched,
// a memset's destination, a memcpy's two ends, an embedded graph) must be params, so that the
// generated handles can name their types and an update can only keep them. Argument expressions
// are free Rust over the params; their types are checked by rustc against the kernel's declared
// parameter tuple. When that tuple is written out (`Kernel<(u32, f32)>`) the argument count is
// checked here, with a message that lists the parameters; otherwise rustc checks it.

use proc_macro2::{TokenStream, TokenTree};
use quote::ToTokens;
use syn::{Expr, Ident};

use super::{suggest, Ctxt};
use crate::model::{
    kernel_params, name_of, pointer_arg, Access, Buffer, Model, Spelled, POINTER_FORMS,
};
use crate::parse::{Item, NodeOp, RecordOp, WaitOp};
use crate::text::pretty;

pub fn check(model: &Model, cx: &mut Ctxt) {
    host_elements_apart(model, cx);
    for (item, _) in model.all_items() {
        let Item::Node(node) = item else { continue };
        let name = &node.name;
        match &node.op {
            NodeOp::Kernel(k) => {
                if let Some(index) = param(
                    model,
                    cx,
                    &k.kernel,
                    "a kernel node launches a param of type `Kernel<(...)>`",
                ) {
                    if let Some(params) = kernel_params(&model.params[index].ty) {
                        if params.len() != k.args.len() {
                            let listed: Vec<String> =
                                params.iter().map(|t| pretty(t.to_token_stream())).collect();
                            cx.error(
                                k.paren.span.join(),
                                format!(
                                    "kernel `{}` takes {} argument{} ({}) but {} {} given",
                                    k.kernel,
                                    params.len(),
                                    if params.len() == 1 { "" } else { "s" },
                                    listed.join(", "),
                                    k.args.len(),
                                    if k.args.len() == 1 { "is" } else { "are" },
                                ),
                            );
                        }
                    }
                }
                let shapes = "a launch configuration is `<<<grid, block>>>`, `<<<grid, block, shared_mem_bytes>>>` \
                              or `<<<config>>>` (a `LaunchConfig`)";
                match k.config.len() {
                    0 => cx.error(
                        k.open,
                        format!("node `{name}` has an empty launch configuration: {shapes}"),
                    ),
                    1..=3 => {}
                    _ => {
                        let extra: Vec<&Expr> = k.config.iter().skip(3).collect();
                        cx.error_spanned(
                            quote::quote!(#(#extra)*),
                            format!("too many launch parameters: {shapes}"),
                        )
                    }
                }
                for expr in k.config.iter().chain(&k.args) {
                    no_self(expr.to_token_stream(), cx);
                }
            }
            NodeOp::Memset(m) => {
                operand(
                    model,
                    cx,
                    &m.dst,
                    "the destination of a memset",
                    "a `DeviceBuffer<T>` param or an allocation",
                    true,
                );
                no_self(m.value.to_token_stream(), cx);
            }
            NodeOp::Memcpy(m) => {
                operand(
                    model,
                    cx,
                    &m.src,
                    "the source of a memcpy",
                    "a `DeviceBuffer<T>` or `HostBuffer<T>` param, or an allocation",
                    true,
                );
                operand(
                    model,
                    cx,
                    &m.dst,
                    "the destination of a memcpy",
                    "a `DeviceBuffer<T>` or `HostBuffer<T>` param, or an allocation",
                    true,
                );
            }
            NodeOp::Host(h) => {
                no_self(h.f.to_token_stream(), cx);
                host_buffers_apart(name, &h.buffers, cx);
                for b in &h.buffers {
                    param(
                        model,
                        cx,
                        &b.name,
                        "a host node's buffers are `HostBuffer<T>` params (or elements of an \
                         array param)",
                    );
                }
            }
            NodeOp::Child(c) => {
                operand(
                    model,
                    cx,
                    &c.graph,
                    "the graph of a child node",
                    "a param (a `Graph` or a declared graph)",
                    false,
                );
            }
            NodeOp::Alloc(a) => no_self(a.len.to_token_stream(), cx),
            NodeOp::Record(RecordOp { event, .. }) | NodeOp::Wait(WaitOp { event, .. }) => {
                operand(
                    model,
                    cx,
                    event,
                    "the event of an event node",
                    "a param (an `Event`)",
                    false,
                );
            }
            NodeOp::Capture(c) => {
                operand(
                    model,
                    cx,
                    &c.work,
                    "the work of a capture node",
                    "a param (a `Capture`)",
                    false,
                );
                declared_uses(model, cx, name, c.uses.iter().flat_map(|u| &u.buffers));
            }
            NodeOp::Collective(c) => {
                param(
                    model,
                    cx,
                    &c.comm,
                    "a collective node runs over a `Communicator` param",
                );
                for b in std::iter::once(&c.src).chain(&c.dst) {
                    if model.param(b).is_none() && model.allocation(b).is_some() {
                        cx.error(
                            b.span(),
                            format!(
                                "`{b}` is an allocation: a collective's NCCL work is recorded when \
                                 the graph is built, before the graph makes its allocations, so it \
                                 cannot use one; give the memory as a `DeviceBuffer<T>` param"
                            ),
                        );
                    } else {
                        param(
                            model,
                            cx,
                            b,
                            "a collective node's buffers are `DeviceBuffer<T>` params",
                        );
                    }
                }
                for rank in &c.ranks {
                    no_self(rank.to_token_stream(), cx);
                }
            }
            NodeOp::Conditional(c) => {
                if let Some(default) = &c.default {
                    no_self(default.to_token_stream(), cx);
                }
            }
            NodeOp::SemaphoreSignal(s) | NodeOp::SemaphoreWait(s) => {
                // Params, so that `set_params` sees when one changes.
                let why = "a semaphore node signals or waits for `ExternalSemaphore` params";
                for (sem, value) in &s.sems {
                    match sem {
                        Expr::Path(p) if p.qself.is_none() && p.path.get_ident().is_some() => {
                            if let Some(ident) = p.path.get_ident() {
                                param(model, cx, ident, why);
                            }
                        }
                        _ => cx.error_spanned(
                            sem,
                            format!("{why}, named: write the param's name, not an expression"),
                        ),
                    }
                    no_self(value.to_token_stream(), cx);
                }
            }
            // The allocation rule checks what a free names.
            NodeOp::Empty(_) | NodeOp::Free(_) => {}
        }
    }
}

/// A host node's closure gets its buffers as slices, `&mut [T]` for those marked `mut`: one
/// buffer named twice with a `mut` would be a `&mut` slice aliasing another slice of it. (Written
/// forms are compared; elements whose indices differ only as written, `b[i]` and `b[i + 0]`,
/// are refused when the node is added, by the runtime's overlap check.)
fn host_buffers_apart(node: &Ident, buffers: &[crate::parse::BufferArg], cx: &mut Ctxt) {
    let written = |b: &crate::parse::BufferArg| {
        crate::text::pretty_expr(crate::parse::indexed(&b.name, b.index.as_ref()))
    };
    for (i, b) in buffers.iter().enumerate() {
        let same = buffers[..i]
            .iter()
            .find(|earlier| written(earlier) == written(b));
        if let Some(earlier) = same {
            if earlier.mutability.is_some() || b.mutability.is_some() {
                cx.error(
                    b.name.span(),
                    format!(
                        "`{}` is given twice to host node `{node}`, written at least once: the \
                         closure would get a `&mut` slice aliasing another slice of the same \
                         buffer. Give it once (`mut {}` to read and write it)",
                        written(b),
                        written(b)
                    ),
                );
            }
        }
    }
}

/// [`host_buffers_apart`] by the element each index computes, in each instance: `parts[0]` and
/// `mut parts[K]` (the graph's `K` being 0), or `parts[i]` and `mut parts[1]` in iteration 1, are
/// one buffer spelled two ways. (Spelled alike, [`host_buffers_apart`] reports them.)
fn host_elements_apart(model: &Model, cx: &mut Ctxt) {
    let written = |b: &crate::parse::BufferArg| {
        crate::text::pretty_expr(crate::parse::indexed(&b.name, b.index.as_ref()))
    };
    for node in &model.nodes {
        let NodeOp::Host(h) = &node.op else { continue };
        let buffers: Vec<_> = h
            .buffers
            .iter()
            .map(|b| model.buffer(&b.name, b.index.as_ref().map(|i| &i.expr), node.rep))
            .collect();
        for (i, b) in h.buffers.iter().enumerate() {
            let Some(Buffer::Param(param, Some(k))) = buffers[i] else {
                continue;
            };
            let same = (0..i).find(|&j| {
                buffers[j] == Some(Buffer::Param(param, Some(k)))
                    && written(&h.buffers[j]) != written(b)
                    && (h.buffers[j].mutability.is_some() || b.mutability.is_some())
            });
            let Some(j) = same else { continue };
            let element = model.buffer_name(Buffer::Param(param, Some(k)));
            let (first, second) = (written(&h.buffers[j]), written(b));
            let when = match node.rep {
                Some(_) => format!(" in `{}`", node.written),
                None => String::new(),
            };
            cx.error_once(
                format!("host element {} {second}", node.decl.name),
                b.name.span(),
                format!(
                    "`{first}` and `{second}` are both `{element}`{when}, given twice to host \
                     node `{}`, written at least once: the closure would get a `&mut` slice \
                     aliasing another slice of the same buffer. Give the element once, `mut` to \
                     read and write it",
                    node.decl.name
                ),
            );
        }
    }
}

/// A capture node's declared uses name buffer params, each once: the recorded work is made before
/// the graph's allocations exist, so it cannot use one.
fn declared_uses<'a>(
    model: &Model,
    cx: &mut Ctxt,
    node: &Ident,
    buffers: impl Iterator<Item = &'a crate::parse::BufferArg>,
) {
    let mut seen: Vec<String> = Vec::new();
    for b in buffers {
        let name = &b.name;
        let written = crate::text::pretty_expr(crate::parse::indexed(name, b.index.as_ref()));
        if seen.contains(&written) {
            cx.error(
                name.span(),
                format!(
                    "`{name}` is declared twice in the uses of capture node `{node}`: list each \
                     buffer once, `mut` if the work writes it"
                ),
            );
            continue;
        }
        seen.push(written);
        match model.param(name) {
            Some(i) if model.param_spelled(i) == Spelled::Plain => cx.error(
                name.span(),
                format!(
                    "`{name}` is not a buffer param: a capture node declares the buffer params \
                     (`DeviceBuffer<T>`, `HostBuffer<T>`, raw pointers) its work reads and writes"
                ),
            ),
            Some(_) => {}
            None if model.names_allocation(name) => cx.error(
                name.span(),
                format!(
                    "`{name}` is an allocation: a capture's work is recorded before the graph \
                     makes its allocations, so it cannot use one; declare buffer params only"
                ),
            ),
            None => {
                param(
                    model,
                    cx,
                    name,
                    "a capture node declares the buffer params its work reads and writes",
                );
            }
        }
    }
}

/// The race rule (T14) sees the memory of a node through the params and allocations it names,
/// so a kernel argument passed to a pointer parameter (written `DevicePtr<T>` /
/// `DevicePtrMut<T>`) must be one of the forms whose memory is what they name
/// (`model::pointer_args`): memory reached another way (a `static`, a function's result, an `if`
/// choosing between a param and something else) would be used by unordered nodes unchecked. An
/// index in those forms picks memory, so the macro must know it, as an operand's. (A parameter
/// whose type is behind an alias is asked of the type system: `expand::hazards`.) Run on an
/// otherwise sound declaration, so that an operand already reported (an allocation of another
/// graph) is not reported twice.
pub fn check_pointer_args(model: &Model, cx: &mut Ctxt) {
    for node in &model.nodes {
        let NodeOp::Kernel(k) = &node.op else {
            continue;
        };
        for (arg, expr) in k.args.iter().enumerate() {
            let Some(Access::Read | Access::Write) = model.slot_access(k, arg) else {
                continue;
            };
            let slot = model
                .param(&k.kernel)
                .and_then(|i| kernel_params(&model.params[i].ty))
                .and_then(|types| types.get(arg).map(|t| pretty(t.to_token_stream())))
                .unwrap_or_default();
            let written = pretty(expr.to_token_stream());
            // Once per argument as written, not once per iteration of a loop.
            let key = format!("pointer argument {:p} {arg}", node.decl);
            let Some(form) = pointer_arg(expr) else {
                cx.error_spanned_once(
                    key,
                    expr,
                    format!(
                        "kernel argument `{written}` is passed to a `{slot}` parameter, but it \
                         is not one of the forms whose memory `cuda_graph!` can see: \
                         {POINTER_FORMS}. The data-race rule judges a node by the memory its \
                         arguments name, and any other expression may compute memory the rule \
                         would not see; declare the memory as a param (`name: DeviceBuffer<T>`) \
                         and pass the param here"
                    ),
                );
                continue;
            };
            let name = form.name;
            let param = model.param(name);
            if param.is_none() && !model.names_allocation(name) {
                cx.error_spanned_once(
                    key,
                    expr,
                    format!(
                        "kernel argument `{written}` is passed to a `{slot}` parameter, but \
                         `{name}` is no param or allocation of graph `{}`: `cuda_graph!` finds \
                         data races between nodes through the params and allocations they use, \
                         so memory reached another way would escape that check; declare the \
                         memory as a param (`name: DeviceBuffer<T>`) and pass the param here",
                        model.decl.name
                    ),
                );
                continue;
            }
            super::repetition::indexed(model, node, name, form.index, true, cx);
            let Some(slice) = form.slice else { continue };
            let what = match param {
                None => "an allocation",
                Some(i) if model.is_indirect(i) => "an `#[indirect]` param, read through its key",
                Some(_) => continue,
            };
            cx.error_once(
                key,
                slice.span(),
                format!(
                    "`{name}` is {what}, which has no `slice`: a kernel argument takes part of a \
                     `DeviceBuffer<T>` or `HostBuffer<T>` param only (`y.slice(..half)`); pass \
                     `{name}` whole"
                ),
            );
        }
    }
}

/// The param `ident` names, or an error saying it must be one.
fn param(model: &Model, cx: &mut Ctxt, ident: &Ident, why: &str) -> Option<usize> {
    let found = model.param(ident);
    if found.is_none() && !model.params_incomplete {
        // Only params that can be such an operand are suggested: no primitive is one, no
        // `#[indirect]` param either (it is read through a key).
        let names: Vec<String> = (0..model.params.len())
            .filter(|&i| model.param_spelled(i) != Spelled::Plain && !model.is_indirect(i))
            .map(|i| name_of(&model.params[i].name))
            .collect();
        let hint = match suggest(&name_of(ident), names.iter().map(String::as_str)) {
            Some(close) => format!("did you mean `{close}`?"),
            None => "declare it in `params { }`".to_owned(),
        };
        cx.error(
            ident.span(),
            format!(
                "`{ident}` is not a param of graph `{}`: {why}; {hint}",
                model.decl.name
            ),
        );
    }
    found
}

/// An operand that fixes a node's type: it must be a param's name, or an allocation's where
/// `allocations` allows.
/// `name[i]` names an element of an array param, or the allocation of one iteration of a
/// repeated alloc node (`check::repetition` judges the index).
fn operand(model: &Model, cx: &mut Ctxt, expr: &Expr, what: &str, ty: &str, allocations: bool) {
    match crate::model::operand_name(expr) {
        Some((ident, _)) => {
            if !(allocations && model.names_allocation(ident)) {
                param(model, cx, ident, &format!("{what} must be {ty}, it fixes the node's type"));
            }
        }
        None => cx.error_spanned(
            expr,
            format!("{what} must be the name of {ty}, or an element of an array param (`name[i]`): it fixes the node's type, so it cannot be an expression"),
        ),
    }
}

/// Node expressions are evaluated in generated functions: `self` there would be the generated
/// code's, never what the user meant. So would a name of the generated code (`__cg_params`, the
/// params as a whole): an expression reading params through it names none of them, so the
/// executable would not know to update the node when they change (nor the rules that a node's
/// value depends on a param).
fn no_self(tokens: TokenStream, cx: &mut Ctxt) {
    for tt in tokens {
        match tt {
            TokenTree::Group(g) => no_self(g.stream(), cx),
            TokenTree::Ident(i) if i == "self" || i == "Self" => cx.error(
                i.span(),
                format!("`{i}` cannot be used in a graph declaration: node arguments are expressions over the params"),
            ),
            TokenTree::Ident(i) if name_of(&i).starts_with("__cg") => generated_name(&i.to_string(), i.span(), cx),
            // `format!("{__cg_params:?}")` reads it too.
            TokenTree::Literal(lit) => {
                for name in crate::tokens::format_args_of(&lit.to_string()) {
                    if name.starts_with("__cg") {
                        generated_name(name, lit.span(), cx);
                    }
                }
            }
            _ => {}
        }
    }
}

/// The error for a name of the generated code in a node expression.
fn generated_name(name: &str, span: proc_macro2::Span, cx: &mut Ctxt) {
    cx.error(
        span,
        format!(
            "`{name}` is a name of the code `cuda_graph!` generates (names starting with `__cg` \
             are reserved for it): a node expression reads params by their own names (`n`, \
             `w[layer]`), so that the executable knows which nodes to update when a param \
             changes"
        ),
    );
}
