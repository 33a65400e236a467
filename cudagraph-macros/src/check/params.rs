// Rationale: params become the fields of one generated struct and the locals that node
// expressions read, so a graph has one `params` block and each name once; a second declaration
// is reported at its own token so the user sees which one to remove. A runtime `Graph` has a
// lifetime (the memory it borrows): as a param it can only be `Graph<'static>`, and rustc's own
// error for the bare name would suggest making the declaration generic, which it cannot be.

use std::collections::BTreeSet;

use syn::spanned::Spanned;
use syn::{PathArguments, Type};

use super::Ctxt;
use crate::model::{name_of, Model};
use crate::parse::Item;

pub fn check(model: &Model, cx: &mut Ctxt) {
    let graph = &model.decl.name;
    let mut blocks = 0;
    let mut seen = BTreeSet::new();
    for item in &model.decl.items {
        let Item::Params(block) = item else { continue };
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

/// `Graph` (or `path::Graph`) without its lifetime.
fn is_bare_graph(ty: &Type) -> bool {
    let Type::Path(path) = ty else { return false };
    path.path
        .segments
        .last()
        .is_some_and(|s| s.ident == "Graph" && matches!(s.arguments, PathArguments::None))
}
