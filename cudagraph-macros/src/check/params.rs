// Rationale: params become the fields of one generated struct and the locals that node
// expressions read, so a graph has one `params` block and each name once; a second declaration
// is reported at its own token so the user sees which one to remove.

use std::collections::BTreeSet;

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
