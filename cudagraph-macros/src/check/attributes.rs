// Rationale: a declaration expands to several items (params struct, graph, executable, node
// handles, impls). Doc comments go to the graph type; `cfg` and lint attributes must go to every
// item or the expansion would be inconsistent; any other attribute has no single item to go to,
// so it is rejected with where to put it instead. Nodes take doc comments (they become the
// handles' docs), `#[unordered(...)]` (the hazard rule's opt-out), `#[waits]` and
// `#[device_updatable]`; params take `#[indirect]`
// and `#[external]` (memory another API shares: see `hazards`), and may not be conditional, since
// the nodes read them.

use syn::Attribute;

use super::Ctxt;
use crate::model::Model;
use crate::parse::Item;

const LINTS: [&str; 5] = ["allow", "warn", "deny", "forbid", "expect"];

fn name(attr: &Attribute) -> String {
    attr.path()
        .get_ident()
        .map_or_else(|| "this attribute".to_owned(), |i| format!("`#[{i}]`"))
}

fn is_any(attr: &Attribute, names: &[&str]) -> bool {
    names.iter().any(|n| attr.path().is_ident(n))
}

pub fn check(model: &Model, cx: &mut Ctxt) {
    for attr in &model.decl.attrs {
        if attr.path().is_ident("device_launch") {
            if !matches!(attr.meta, syn::Meta::Path(_)) {
                cx.error_spanned(attr, "`#[device_launch]` takes no arguments");
            }
            continue;
        }
        if !is_any(attr, &["doc", "cfg", "cfg_attr", "programmatic"]) && !is_any(attr, &LINTS) {
            cx.error_spanned(
                attr,
                format!(
                    "{} cannot be applied to a graph declaration: only doc comments, `cfg` and lint attributes \
                     (`allow`, `warn`, ...) apply to the items it generates, `#[programmatic]` to its edges, \
                     and `#[device_launch]` makes its executables launchable from the device; \
                     attributes for the params struct go on the `params` block",
                    name(attr)
                ),
            );
        }
    }
    for (item, _) in model.all_items() {
        match item {
            Item::Node(node) => {
                for attr in node
                    .attrs
                    .iter()
                    .filter(|a| !is_any(a, &["doc", "unordered", "waits", "device_updatable"]))
                {
                    cx.error_spanned(
                        attr,
                        format!(
                            "{} cannot be applied to a node: only doc comments, \
                             `#[unordered(buffer, ...)]`, `#[waits]` and \
                             `#[device_updatable]` can",
                            name(attr)
                        ),
                    );
                }
            }
            Item::Params(block) => {
                for attr in block
                    .attrs
                    .iter()
                    .filter(|a| is_any(a, &["cfg", "cfg_attr"]))
                {
                    cx.error_spanned(
                        attr,
                        "the params of a graph cannot be conditional: put `cfg` on the graph",
                    );
                }
                for field in &block.fields {
                    for attr in field.attrs.iter().filter(|a| {
                        !is_any(a, &["doc", "indirect", "external"]) && !is_any(a, &LINTS)
                    }) {
                        cx.error_spanned(
                            attr,
                            format!("{} cannot be applied to a param: only doc comments, lint attributes, `#[indirect]` and `#[external]` can", name(attr)),
                        );
                    }
                    for attr in field
                        .attrs
                        .iter()
                        .filter(|a| is_any(a, &["indirect", "external"]))
                    {
                        if !matches!(attr.meta, syn::Meta::Path(_)) {
                            cx.error_spanned(attr, format!("{} takes no arguments", name(attr)));
                        }
                    }
                }
            }
            _ => {}
        }
    }
}
