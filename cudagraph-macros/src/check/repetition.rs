// Rationale (repetition): a `for` loop repeats nodes and edges a number of times fixed when the
// macro expands, so the topology stays fixed (T12) and every other rule judges the graph the loop
// makes, iteration by iteration (a cycle or a race across iterations is one like any other).
// Everything that picks a node or a buffer must therefore be known then: the loop's range, the
// index of a node instance (`attn[layer + 1]`), the index of an array param's element
// (`w[layer]`). The macro knows integer literals, the graph's consts and the loop variable, with
// `+ - * / %`; a const declared outside the graph is resolved by rustc after the macro ran, so it
// is named as such. An index that picks nothing (beyond the loop's range or the array's length)
// would be an edge to no node, or an out-of-bounds read: reported at its tokens, with the
// iteration where it does. Each problem of the tokens is reported once, at its first iteration.

use std::collections::BTreeSet;

use syn::spanned::Spanned;
use syn::{Expr, Ident};

use super::Ctxt;
use crate::model::{name_of, operand_name, Inst, Model, Rep};
use crate::parse::{Item, NodeOp, NodeRef};
use crate::repeat::{self, Why};

pub fn check(model: &Model, cx: &mut Ctxt) {
    consts(model, cx);
    loops(model, cx);
    declared_indices(model, cx);
    for edge in &model.edges {
        reference(model, edge.from, edge.rep, cx);
        reference(model, edge.to, edge.rep, cx);
    }
    for (i, node) in model.nodes.iter().enumerate() {
        if let NodeOp::Free(f) = &node.op {
            reference(model, &f.alloc, node.rep, cx);
        }
        if let NodeOp::Child(c) = &node.op {
            if model.first_of_decl(i) {
                child_element(model, c, cx);
            }
        }
        uses(model, node, cx);
    }
}

/// The graph's consts: at its top, `usize`, of a value the macro can compute, one name each,
/// not a param's.
fn consts(model: &Model, cx: &mut Ctxt) {
    let graph = &model.decl.name;
    for (item, _) in model.all_items() {
        if let Item::Const(c) = item {
            if !model.consts.iter().any(|top| std::ptr::eq(*top, &**c)) {
                cx.error(
                    c.ident.span(),
                    format!(
                        "const `{}` is declared inside a block: a graph's consts are declared at \
                         its top (`const LAYERS: usize = 32;`), beside its params",
                        c.ident
                    ),
                );
            }
        }
    }
    let (_, failed) = repeat::eval_consts(model.consts.iter().copied());
    let mut seen = BTreeSet::new();
    for (i, c) in model.consts.iter().enumerate() {
        let name = name_of(&c.ident);
        if name.starts_with("__cg") {
            cx.error(
                c.ident.span(),
                "names starting with `__cg` are reserved for the code `cuda_graph!` generates: rename this const",
            );
        }
        if !seen.insert(name.clone()) {
            cx.error(
                c.ident.span(),
                format!("const `{name}` is declared twice in graph `{graph}`: rename one"),
            );
        }
        if model.param(&c.ident).is_some() {
            cx.error(
                c.ident.span(),
                format!(
                    "`{name}` names both a const and a param of graph `{graph}`: node expressions \
                     could not tell them apart; rename one"
                ),
            );
        }
        if !crate::repeat::is_usize(&c.ty) {
            cx.error_spanned(
                &c.ty,
                format!(
                    "const `{name}` must be a `usize`: a graph's consts count repetitions and \
                     index array params (`const {name}: usize = ...;`)"
                ),
            );
        }
        for attr in c
            .attrs
            .iter()
            .filter(|a| a.path().is_ident("cfg") || a.path().is_ident("cfg_attr"))
        {
            cx.error_spanned(
                attr,
                "a graph's const cannot be conditional: the macro uses its value whatever the \
                 `cfg`; put `cfg` on the graph",
            );
        }
        if let Some((_, why)) = failed.iter().find(|(f, _)| std::ptr::eq(*f, *c)) {
            let later = match &why.why {
                Why::Name(n) => model.consts[i + 1..]
                    .iter()
                    .any(|later| name_of(&later.ident) == *n),
                _ => false,
            };
            let reason = match &why.why {
                Why::Name(n) if later => {
                    format!("const `{n}` is declared after it: declare `{n}` first")
                }
                _ => why.reason(&is_param(model)),
            };
            cx.error(
                why.span,
                format!("the macro cannot compute const `{name}`: {reason}"),
            );
        }
    }
}

/// What is wrong with the loops themselves: their place, range, variable and items.
fn loops(model: &Model, cx: &mut Ctxt) {
    let graph = &model.decl.name;
    for lp in &model.loops {
        let repeat = lp.decl;
        let for_span = repeat.for_token.span;
        if let Some(attr) = repeat.attrs.first() {
            cx.error_spanned(
                attr,
                "attributes cannot be applied to a `for` loop of a graph: document its nodes \
                 instead",
            );
        }
        if !lp.top {
            cx.error(
                for_span,
                "a `for` loop repeats nodes at the top of a graph, not in a conditional body \
                 nor in another loop: declare it at the graph's top level (one loop may hold \
                 all of an iteration's nodes and edges)",
            );
            continue;
        }
        let Ok(header) = &repeat.header else {
            continue; // the syntax rule reports it
        };
        let declares = repeat.items.iter().any(|i| matches!(i, Item::Node(_)));
        if lp.too_large {
            cx.error(
                header.range.span(),
                format!(
                    "this loop would make graph `{graph}` larger than `cuda_graph!` checks: a \
                     declaration with loops has at most {} nodes and {} edges (every rule \
                     judges every pair of nodes); split the work over several graphs, launched \
                     one after the other or embedded as child graphs",
                    repeat::grouped(crate::model::MAX_NODES),
                    repeat::grouped(crate::model::MAX_EDGES)
                ),
            );
            continue;
        }
        match (
            &lp.range,
            repeat::eval_range(&header.range, &model.const_values),
        ) {
            (_, Err(why)) => {
                let message = match &why.why {
                    Why::Name(n) if is_param(model)(n) => {
                        format!(
                            "`for` cannot repeat nodes a number of times known only at run time: \
                             `{n}` is a param; a `cuda_graph!` topology is fixed at compile \
                             time, so the count is an integer literal or a const declared in the \
                             graph (`const STEPS: usize = 8;`, `for i in 0..STEPS`); to repeat \
                             on the GPU, declare a `while` conditional node (`name: while h {{ \
                             ... }}`)"
                        )
                    }
                    Why::Unsupported if !matches!(header.range, Expr::Range(_)) => format!(
                        "a `for` loop of a graph runs over a range, `start..end` or \
                         `start..=end`, of values the macro knows ({})",
                        repeat::WHAT_IS_KNOWN
                    ),
                    _ => format!(
                        "the macro cannot compute the range of this loop: {}",
                        why.reason(&is_param(model))
                    ),
                };
                cx.error(why.span, message);
            }
            (Some(range), Ok(_)) if declares && range.start != 0 => {
                let start = match &header.range {
                    Expr::Range(r) => r.start.as_ref().map_or(header.range.span(), |s| s.span()),
                    other => other.span(),
                };
                cx.error(
                    start,
                    format!(
                        "a loop that declares nodes counts from 0 (its nodes are `name[0]`, \
                         `name[1]`, ...): write `0..{}`; a loop over other values may declare \
                         edges only",
                        range.end
                    ),
                );
            }
            (Some(range), Ok(_)) if declares && range.is_empty() => cx.error(
                header.range.span(),
                "this loop declares nodes but runs no iteration: a repeated node has at least \
                 one instance; remove the loop or give it a count of 1 or more",
            ),
            _ => {}
        }
        let var = &header.var;
        let clash = if model.param(var).is_some() {
            Some("a param")
        } else if model
            .consts
            .iter()
            .any(|c| name_of(&c.ident) == name_of(var))
        {
            Some("a const")
        } else if model.names_allocation(var) {
            Some("an allocation")
        } else if model.handle(var).is_some() {
            Some("a conditional handle")
        } else {
            None
        };
        if let Some(what) = clash {
            cx.error(
                var.span(),
                format!(
                    "loop variable `{var}` has the name of {what} of graph `{graph}`: node \
                     expressions could not tell them apart; give the variable a name of its own"
                ),
            );
        }
        for item in &repeat.items {
            match item {
                Item::Params(block) => cx.error(
                    block.token.span,
                    format!(
                        "params are declared once, at the top of graph `{graph}`: move this block \
                         out of the loop (array params give each iteration its own value: \
                         `w: [DeviceBuffer<f32>; LAYERS]`, read as `w[{var}]`)"
                    ),
                ),
                Item::Node(node) if !repeats(&node.op) => cx.error(
                    node.op.keyword_span(),
                    format!(
                        "{} node `{}` cannot be declared in a `for` loop: a loop repeats \
                         kernel, memset, memcpy, host, child, empty, alloc, free, event and \
                         capture nodes; declare `{}` outside the loop",
                        node.op.kind().name.replace('_', " "),
                        node.name,
                        node.name
                    ),
                ),

                _ => {}
            }
        }
    }
}

/// Whether a node of this kind may be declared in a `for` loop. Conditional nodes hold bodies,
/// which a loop would have to repeat too; semaphore nodes order another API's work and
/// collective nodes NCCL's, one by one, and their checks (`#[external]` memory, a rank's
/// operations in one order) are written for nodes outside loops.
fn repeats(op: &NodeOp) -> bool {
    !matches!(
        op,
        NodeOp::Conditional(_)
            | NodeOp::SemaphoreSignal(_)
            | NodeOp::SemaphoreWait(_)
            | NodeOp::Collective(_)
    )
}

/// A child node's graph is a param of its own: an element of an array param (`g[layer]`) is
/// refused (a child graph is copied, and compared, as one value; an array of them is not taken
/// element by element).
fn child_element(model: &Model, c: &crate::parse::ChildOp, cx: &mut Ctxt) {
    let Some((ident, Some(_))) = crate::model::operand_name(&c.graph) else {
        return;
    };
    if model.param(ident).is_some() {
        cx.error(
            c.graph.span(),
            format!(
                "a child node embeds a graph param of its own, not an element of an array param \
                 (`{ident}[..]`): declare one param per embedded graph, or one graph param that \
                 every iteration embeds"
            ),
        );
    }
}

/// A node declared in a loop is named `name[var]`; a node outside loops has no index.
fn declared_indices(model: &Model, cx: &mut Ctxt) {
    for item in &model.decl.items {
        match item {
            Item::Repeat(repeat) => {
                let Some(lp) = model.loops.iter().find(|l| std::ptr::eq(l.decl, &**repeat)) else {
                    continue;
                };
                // (A loop the macro cannot make has its error; its nodes are not judged.)
                let (Some(var), true, true) = (lp.var_ident(), lp.top, lp.range.is_some()) else {
                    continue;
                };
                for item in &repeat.items {
                    let Item::Node(node) = item else { continue };
                    if matches!(node.op, NodeOp::Conditional(_)) {
                        continue; // reported by `loops`
                    }
                    let name = &node.name;
                    match &node.index {
                        None => cx.error(
                            name.span(),
                            format!(
                                "node `{name}` is declared in a `for` loop, so it has one \
                                 instance per iteration: name it by the loop variable, \
                                 `{name}[{var}]: ...`"
                            ),
                        ),
                        Some(index) if !is_var(&index.expr, var) => cx.error_spanned(
                            &index.expr,
                            format!(
                                "a repeated node is indexed by its loop's variable: write \
                                 `{name}[{var}]` (its instances are `{name}[0]`, `{name}[1]`, \
                                 ...); edges order the instances: `{name}[{var}] -> \
                                 other[{var} + 1];`"
                            ),
                        ),
                        Some(_) => {}
                    }
                }
            }
            Item::Node(node) => {
                let mut outside = vec![&**node];
                if let NodeOp::Conditional(c) = &node.op {
                    for body in &c.bodies {
                        collect_nodes(&body.items, &mut outside);
                    }
                }
                for node in outside {
                    if let Some(index) = &node.index {
                        cx.error_spanned(
                            &index.expr,
                            format!(
                                "only a node declared in a `for` loop has an index: remove it \
                                 (`{}: ...`), or declare the node in a loop",
                                node.name
                            ),
                        );
                    }
                }
            }
            _ => {}
        }
    }
}

/// The nodes `items` declare, those of conditional bodies too.
fn collect_nodes<'a>(items: &'a [Item], out: &mut Vec<&'a crate::parse::NodeDecl>) {
    for item in items {
        if let Item::Node(node) = item {
            out.push(node);
            if let NodeOp::Conditional(c) = &node.op {
                for body in &c.bodies {
                    collect_nodes(&body.items, out);
                }
            }
        }
    }
}

/// Whether a name is one of the graph's params (for the reasons an index is not known).
fn is_param<'m>(model: &'m Model) -> impl Fn(&str) -> bool + 'm {
    |name: &str| model.params.iter().any(|p| name_of(&p.name) == name)
}

/// Whether `expr` is the loop variable `var`.
fn is_var(expr: &Expr, var: &Ident) -> bool {
    match expr {
        Expr::Path(p) => p
            .path
            .get_ident()
            .is_some_and(|i| name_of(i) == name_of(var)),
        Expr::Group(g) => is_var(&g.expr, var),
        _ => false,
    }
}

/// `at layer = 31` for a message, or nothing outside loops.
fn iteration(model: &Model, rep: Option<Rep>) -> String {
    match rep.and_then(|r| Some((model.loops[r.lp].var.as_deref()?, r.value))) {
        Some((var, value)) => format!(" when `{var}` is {value}"),
        None => String::new(),
    }
}

/// A node named by an edge or a free node, in iteration `rep`: a repeated node with an index
/// that picks one of its instances, any other node without one.
fn reference(model: &Model, r: &NodeRef, rep: Option<Rep>, cx: &mut Ctxt) {
    let key = format!("ref {:p}", r);
    let name = &r.name;
    if model.node(name).is_some() {
        if let Some(index) = &r.index {
            cx.error_spanned_once(
                key,
                &index.expr,
                format!(
                    "node `{name}` is not repeated (it is declared outside every `for` loop): \
                     name it without an index, `{name}`"
                ),
            );
        }
        return;
    }
    let Some(repeated) = model.repeated(name) else {
        return; // not a node: the names rule says so
    };
    let instances = format!(
        "`{name}` has {} instance{} (`{name}[{}]` to `{name}[{}]`)",
        repeated.count,
        if repeated.count == 1 { "" } else { "s" },
        repeated.start,
        repeated.start + repeated.count.saturating_sub(1)
    );
    let Some(index) = &r.index else {
        cx.error_once(
            key,
            name.span(),
            format!(
                "node `{name}` is repeated by a `for` loop: name one of its instances, \
                 `{name}[i]`; {instances}"
            ),
        );
        return;
    };
    match model.index_value(index, rep) {
        Err(why) => cx.error_once(
            key,
            why.span,
            format!(
                "the index of `{r}` picks a node, so the macro must know it{}: {}",
                iteration(model, rep),
                why.reason(&is_param(model))
            ),
        ),
        Ok(value) if repeated.at(value).is_none() => {
            // In a loop, the way to an edge between iterations.
            let hint = if rep.is_some() {
                " (an edge to the next iteration is written in a loop over one iteration less: \
                 `for i in 0..N - 1 { a[i] -> b[i + 1]; }`)"
            } else {
                ""
            };
            cx.error_spanned_once(
                key,
                &index.expr,
                format!(
                    "`{r}` is `{name}[{value}]`{}, which does not exist: {instances}; keep the \
                     index in that range{hint}",
                    iteration(model, rep)
                ),
            )
        }
        Ok(_) => {}
    }
}

/// The indices in one node's operands and expressions, in its iteration: an operand (which
/// fixes the node's type and memory) names a param, one element of an array param, or an
/// allocation, each known to the macro; an expression's index of an array param that the macro
/// can compute stays within the array.
fn uses(model: &Model, node: &Inst, cx: &mut Ctxt) {
    let operands: Vec<(&Ident, Option<&Expr>)> = match &node.op {
        NodeOp::Memset(m) => operand_name(&m.dst).into_iter().collect(),
        NodeOp::Memcpy(m) => [&m.src, &m.dst]
            .into_iter()
            .filter_map(operand_name)
            .collect(),
        NodeOp::Child(c) => operand_name(&c.graph).into_iter().collect(),
        NodeOp::Record(r) => operand_name(&r.event).into_iter().collect(),
        NodeOp::Wait(w) => operand_name(&w.event).into_iter().collect(),
        NodeOp::Capture(c) => operand_name(&c.work)
            .into_iter()
            .chain(
                c.uses
                    .iter()
                    .flat_map(|u| &u.buffers)
                    .map(|b| (&b.name, b.index.as_ref().map(|i| &i.expr))),
            )
            .collect(),
        NodeOp::Host(h) => h
            .buffers
            .iter()
            .map(|b| (&b.name, b.index.as_ref().map(|i| &i.expr)))
            .collect(),
        _ => Vec::new(),
    };
    for (ident, index) in operands {
        indexed(model, node, ident, index, true, cx);
    }
    let expressions: Vec<proc_macro2::TokenStream> = match &node.op {
        NodeOp::Kernel(k) => {
            let (config, args) = (&k.config, &k.args);
            vec![quote::quote!(#config #args)]
        }
        NodeOp::Memset(m) => vec![quote::ToTokens::to_token_stream(&m.value)],
        NodeOp::Host(h) => vec![quote::ToTokens::to_token_stream(&h.f)],
        NodeOp::Alloc(a) => vec![quote::ToTokens::to_token_stream(&a.len)],
        _ => Vec::new(),
    };
    for tokens in expressions {
        repeat::each_indexed(tokens, &mut |ident, group| {
            let expr = group.and_then(repeat::index_expr);
            indexed(model, node, ident, expr.as_ref(), false, cx);
        });
    }
}

/// One name with the index after it (if any), as an operand or in an expression of `node`.
/// (A kernel argument for a pointer parameter is judged as an operand: `check::operands`.)
pub(super) fn indexed(
    model: &Model,
    node: &Inst,
    ident: &Ident,
    index: Option<&Expr>,
    operand: bool,
    cx: &mut Ctxt,
) {
    let key = |what: &str| format!("{what} {:p} {:?}", node.decl, ident.span());
    let rep = node.rep;
    if let Some(param) = model.param(ident) {
        let Some((_, len)) = model.arrays[param] else {
            if let (Some(index), true) = (index, operand) {
                cx.error_spanned_once(
                    key("not an array"),
                    index,
                    format!(
                        "`{ident}` is not an array param of a length the macro knows: an indexed \
                         operand is an element of a param `{ident}: [T; N]`, with `N` an \
                         integer literal or a const declared in the graph (at most {})",
                        repeat::grouped(repeat::MAX_ELEMENTS)
                    ),
                );
            }
            return;
        };
        let Some(index) = index else {
            if operand {
                cx.error_once(
                    key("whole array"),
                    ident.span(),
                    format!(
                        "`{ident}` is an array param: this operand is one of its elements, \
                         `{ident}[i]` (`i` below {len})"
                    ),
                );
            }
            return;
        };
        match repeat::eval(index, model.env(rep)) {
            Err(why) if operand => cx.error_once(
                key("unknown index"),
                why.span,
                format!(
                    "the index of `{ident}` picks the memory node `{}` uses, so the macro must \
                     know it{}: {}",
                    node.name,
                    iteration(model, rep),
                    why.reason(&is_param(model))
                ),
            ),
            Err(_) => {} // an element the macro cannot tell: the whole param, to the rules
            Ok(_) if len == 0 => cx.error_spanned_once(
                key("element out of range"),
                index,
                format!(
                    "`{ident}` has no elements (its length is 0), so `{ident}[{}]` names none: \
                     give the array param a length, or remove this use",
                    crate::text::pretty_expr(quote::ToTokens::to_token_stream(index)),
                ),
            ),
            Ok(k) if k >= len => cx.error_spanned_once(
                key("element out of range"),
                index,
                format!(
                    "`{ident}[{}]` is `{ident}[{k}]`{}, but `{ident}` has {len} element{}: keep \
                     the index below {len}",
                    crate::text::pretty_expr(quote::ToTokens::to_token_stream(index)),
                    iteration(model, rep),
                    if len == 1 { "" } else { "s" }
                ),
            ),
            Ok(_) => {}
        }
        return;
    }
    if let Some(repeated) = model.repeated(ident) {
        if !matches!(model.nodes[repeated.first].op, NodeOp::Alloc(_)) {
            return;
        }
        let Some(index) = index else {
            cx.error_once(
                key("whole allocation"),
                ident.span(),
                format!(
                    "alloc node `{ident}` is repeated by a `for` loop: name the allocation of one \
                     iteration, `{ident}[i]` (`{ident}[0]` to `{ident}[{}]`)",
                    repeated.count.saturating_sub(1)
                ),
            );
            return;
        };
        match repeat::eval(index, model.env(rep)) {
            Err(why) => cx.error_once(
                key("unknown allocation"),
                why.span,
                format!(
                    "the index of allocation `{ident}` picks the memory node `{}` uses, so the \
                     macro must know it{}: {}",
                    node.name,
                    iteration(model, rep),
                    why.reason(&is_param(model))
                ),
            ),
            Ok(v) if repeated.at(v).is_none() => cx.error_spanned_once(
                key("allocation out of range"),
                index,
                format!(
                    "`{ident}[{}]` is `{ident}[{v}]`{}, which does not exist: alloc node \
                     `{ident}` has {} instances (`{ident}[0]` to `{ident}[{}]`)",
                    crate::text::pretty_expr(quote::ToTokens::to_token_stream(index)),
                    iteration(model, rep),
                    repeated.count,
                    repeated.count.saturating_sub(1)
                ),
            ),
            Ok(_) => {}
        }
        return;
    }
    if let (Some(index), true) = (index, model.allocation(ident).is_some()) {
        cx.error_spanned_once(
            key("plain allocation"),
            index,
            format!(
                "allocation `{ident}` is not repeated (its alloc node is declared outside every \
                 `for` loop): name it without an index"
            ),
        );
    }
}
