// Rationale: params become the fields of one generated struct and the locals that node
// expressions read, so a graph has one `params` block and each name once; a second declaration
// is reported at its own token so the user sees which one to remove. A runtime `Graph` has a
// lifetime (the memory it borrows): as a param it can only be `Graph<'static>`, and rustc's own
// error for the bare name would suggest making the declaration generic, which it cannot be. A
// kernel param no node launches would be compared by value in `set_params`, which a kernel
// cannot be: the real mistake is the missing launch (or the leftover param), said as such.

use std::collections::BTreeSet;

use syn::spanned::Spanned;
use syn::{PathArguments, Type};

use super::Ctxt;
use crate::model::{name_of, Model};
use crate::parse::{Item, NodeOp};

pub fn check(model: &Model, cx: &mut Ctxt) {
    let graph = &model.decl.name;
    let mut blocks = 0;
    let mut seen = BTreeSet::new();
    for (item, _) in model.all_items() {
        let Item::Params(block) = item else { continue };
        // A block in a loop is the repetition rule's to report.
        if model.loop_params.iter().any(|b| std::ptr::eq(*b, block)) {
            continue;
        }
        blocks += 1;
        if blocks > 1 {
            cx.error(
                block.token.span,
                format!(
                    "graph `{graph}` has a second `params` block: declare all params in one block"
                ),
            );
            continue;
        }
        for field in &block.fields {
            if name_of(&field.name).starts_with("__cg") {
                cx.error(
                    field.name.span(),
                    "names starting with `__cg` are reserved for the code `cuda_graph!` generates: rename this param",
                );
            }
            if is_bare_graph(&field.ty) {
                cx.error(
                    field.ty.span(),
                    format!(
                        "a runtime graph param is written `Graph<'static>`: the params of a declared \
                         graph own what its nodes use, so they borrow nothing (change the type of `{}`)",
                        field.name
                    ),
                );
            }
            if !seen.insert(name_of(&field.name)) {
                cx.error(
                    field.name.span(),
                    format!(
                        "param `{}` is declared twice: rename or remove one of them",
                        field.name
                    ),
                );
            }
        }
    }
}

/// Kernel params that no node launches. Run on an otherwise sound declaration: a kernel node
/// that did not parse, or that names its kernel with a typo, is the real error there.
pub fn check_launched(model: &Model, cx: &mut Ctxt) {
    let graph = &model.decl.name;
    for field in &model.params {
        if is_kernel(&field.ty) && !launched(model, &field.name) {
            cx.error(
                field.name.span(),
                format!(
                    "kernel param `{}` is not launched by any node of graph `{graph}`: launch it \
                     (`name: kernel {}<<<grid, block>>>(args);`) or remove the param",
                    field.name, field.name
                ),
            );
        }
    }
}

/// `Kernel<...>` (or `path::Kernel<...>`): the runtime's `Kernel<A>` always takes its parameter
/// tuple, so a `Kernel` without one is another type of that name (the user's own), whatever its
/// path.
fn is_kernel(ty: &Type) -> bool {
    let Type::Path(path) = ty else { return false };
    path.path.segments.last().is_some_and(|s| {
        s.ident == "Kernel" && matches!(s.arguments, PathArguments::AngleBracketed(_))
    })
}

/// Whether a kernel node launches the param `name`.
fn launched(model: &Model, name: &syn::Ident) -> bool {
    model.nodes.iter().any(|n| match &n.op {
        NodeOp::Kernel(k) => name_of(&k.kernel) == name_of(name),
        _ => false,
    })
}

/// `Graph` (or `path::Graph`) without its lifetime.
fn is_bare_graph(ty: &Type) -> bool {
    let Type::Path(path) = ty else { return false };
    path.path
        .segments
        .last()
        .is_some_and(|s| s.ident == "Graph" && matches!(s.arguments, PathArguments::None))
}
