// Rationale: a declaration expands to several items (params struct, graph, executable, node
// handles, impls). Doc comments go to the graph type; `cfg` and lint attributes must go to every
// item or the expansion would be inconsistent; any other attribute has no single item to go to,
// so it is rejected with where to put it instead, also inside a `cfg_attr` (which rustc evaluates
// after the macro ran, applying what it holds to every item). Nodes take doc comments (they become the
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

/// Why an attribute named `name` (as messages write it) cannot be applied to a graph.
fn not_for_a_graph(name: &str) -> String {
    format!(
        "{name} cannot be applied to a graph declaration: only doc comments, `cfg` and lint attributes \
         (`allow`, `warn`, ...) apply to the items it generates, `#[programmatic]` to its edges, \
         and `#[device_launch]` makes its executables launchable from the device; \
         attributes for the params struct go on the `params` block"
    )
}

/// `#[cfg_attr(predicate, attrs...)]` on a graph: rustc applies `attrs` to every generated item
/// once the macro has run, so each is judged as if written plainly. The macro reads
/// `#[programmatic]` and `#[device_launch]` itself, from the tokens, before any `cfg_attr` is
/// evaluated: it cannot tell whether one inside is on, so they cannot be conditional.
fn conditional_graph_attribute(meta: &syn::Meta, cx: &mut Ctxt) {
    let parsed = meta.require_list().and_then(|list| {
        list.parse_args_with(|input: syn::parse::ParseStream| {
            input.parse::<syn::Meta>()?;
            input.parse::<syn::Token![,]>()?;
            syn::punctuated::Punctuated::<syn::Meta, syn::Token![,]>::parse_terminated(input)
        })
    });
    let inner = match parsed {
        Ok(inner) => inner,
        Err(_) => {
            cx.error_spanned(
                meta,
                "expected `cfg_attr(predicate, attribute, ...)`: a predicate, then the \
                 attributes it applies",
            );
            return;
        }
    };
    for meta in &inner {
        let path = meta.path();
        let name = path
            .get_ident()
            .map_or_else(|| "this attribute".to_owned(), |i| format!("`#[{i}]`"));
        if path.is_ident("cfg_attr") {
            conditional_graph_attribute(meta, cx);
        } else if path.is_ident("programmatic") || path.is_ident("device_launch") {
            cx.error_spanned(
                meta,
                format!(
                    "{name} cannot be conditional: `cuda_graph!` reads it from the declaration \
                     before `cfg_attr` is evaluated, so it cannot know whether the graph has it; \
                     write it plainly, or declare the graph twice, each under a `cfg`"
                ),
            );
        } else if !["doc", "cfg"].iter().any(|n| path.is_ident(n))
            && !LINTS.iter().any(|n| path.is_ident(n))
        {
            cx.error_spanned(meta, not_for_a_graph(&name));
        }
    }
}

pub fn check(model: &Model, cx: &mut Ctxt) {
    for attr in &model.decl.attrs {
        if attr.path().is_ident("device_launch") {
            if !matches!(attr.meta, syn::Meta::Path(_)) {
                cx.error_spanned(attr, "`#[device_launch]` takes no arguments");
            }
            continue;
        }
        if attr.path().is_ident("cfg_attr") {
            conditional_graph_attribute(&attr.meta, cx);
        } else if !is_any(attr, &["doc", "cfg", "programmatic"]) && !is_any(attr, &LINTS) {
            cx.error_spanned(attr, not_for_a_graph(&name(attr)));
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
