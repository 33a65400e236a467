// Rationale: a declaration expands to items named after the user's names: `<Graph>Params`,
// `<Graph>Exec`, `<Graph>ParamsMut`, `<Graph>Slots`, one handle type `<Graph><Node>Node` per node,
// one executable method per node, `set_<param>` per param, `read_<allocation>` and
// `take_<allocation>` per allocation a launch leaves. Two of them with one name would be rustc's
// E0428 or E0592 at the macro call, a cascade the user cannot trace to a name; a derived name that
// is not an identifier (`_1` makes the variant `1`) would stop the expansion. So every name the
// expansion derives is made here, checked to be an identifier, and checked against every other item
// of its namespace in the whole call; a clash is reported at the user's token that made the later
// item, naming what it clashes with.

use std::collections::BTreeMap;

use proc_macro2::Span;

use super::Ctxt;
use crate::model::{name_of, Model};
use crate::parse::NodeOp;
use crate::text::camel;

/// Methods every executable has (besides one per node and one per param).
pub const EXEC_METHODS: [&str; 9] = [
    "launch",
    "upload",
    "update",
    "set_params",
    "params",
    "params_mut",
    "into_params",
    "as_exec",
    "swap",
];

/// One item the expansion makes: its name, the user's token it comes from, and what it is (for
/// messages: "the executable type `StepExec` of graph `Step`").
struct Made {
    span: Span,
    what: String,
    /// What to rename to resolve a clash.
    fix: String,
}

/// Items of one namespace, by name, in the order they are made.
#[derive(Default)]
struct Namespace(BTreeMap<String, Vec<Made>>);

impl Namespace {
    fn add(&mut self, name: String, span: Span, what: String, fix: String) {
        self.0
            .entry(name)
            .or_default()
            .push(Made { span, what, fix });
    }

    /// Every item after the first of its name, reported at its token.
    fn report(self, cx: &mut Ctxt) {
        for made in self.0.into_values() {
            let Some((first, rest)) = made.split_first() else {
                continue;
            };
            for later in rest {
                cx.error(
                    later.span,
                    format!("{} clashes with {}: {}", later.what, first.what, later.fix),
                );
            }
        }
    }
}

/// Whether `name` is an identifier (`Ident::new` accepts it).
pub fn is_ident(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c == '_' || unicode_ident::is_xid_start(c))
        && chars.all(unicode_ident::is_xid_continue)
}

/// The type name of node `node`'s handle in graph `graph`.
pub fn handle_type(graph: &str, node: &str) -> String {
    format!("{graph}{}Node", camel(node))
}

pub fn check(models: &[Model], cx: &mut Ctxt) {
    // Graphs declared twice are reported by themselves; their items would only repeat it.
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for model in models {
        *counts.entry(name_of(&model.decl.name)).or_default() += 1;
    }
    let mut types = Namespace::default();
    for model in models {
        // rustc passes on a name it could not lex as an identifier (`a😀`), after reporting it:
        // no item is derived from such a name.
        if !user_names_are_idents(model, cx) {
            continue;
        }
        let graph = name_of(&model.decl.name);
        if counts[&graph] > 1 {
            continue;
        }
        let span = model.decl.name.span();
        let fix = format!("rename graph `{graph}`");
        types.add(graph.clone(), span, format!("graph `{graph}`"), fix.clone());
        let mut made = |name: String, what: &str| {
            let what = format!("the {what} `{name}` that graph `{graph}` generates");
            types.add(name, span, what, fix.clone());
        };
        made(format!("{graph}Params"), "params struct");
        made(format!("{graph}Exec"), "executable type");
        made(format!("{graph}ParamsMut"), "params guard");
        made(
            format!("{graph}Slots"),
            "slots struct of the params guard's `swap`",
        );
        if !model.outliving_allocations().is_empty() {
            made(format!("{graph}Allocations"), "allocations type");
        }
        for suffix in ["Nodes", "State", "Launch"] {
            made(format!("__{graph}{suffix}"), "hidden type");
        }
        for node in decls(model) {
            let name = handle_type(&graph, &name_of(&node.name));
            let what = format!("the handle type `{name}` of node `{}`", node.name);
            if !is_ident(&name) {
                cx.error(
                    node.name.span(),
                    format!("{what} would not be a Rust identifier: rename the node"),
                );
                continue;
            }
            let fix = format!("rename node `{}`", node.name);
            types.add(name, node.name.span(), what, fix);
        }
        methods(model, cx);
    }
    types.report(cx);
}

/// The declared nodes: each once, a loop's too (the items are named after declarations).
fn decls<'m>(model: &'m Model) -> impl Iterator<Item = &'m crate::parse::NodeDecl> {
    (0..model.nodes.len())
        .filter(|&i| model.first_of_decl(i))
        .map(|i| model.nodes[i].decl)
}

/// Whether every name the declaration gives (the graph's, its params', nodes' and handles') is
/// an identifier; each that is not is reported.
fn user_names_are_idents(model: &Model, cx: &mut Ctxt) -> bool {
    let mut names = vec![("graph", &model.decl.name)];
    names.extend(model.params.iter().map(|p| ("param", &p.name)));
    for node in decls(model) {
        names.push(("node", &node.name));
        if let NodeOp::Conditional(c) = &node.op {
            names.push(("handle", &c.handle));
        }
    }
    let mut all = true;
    for (what, ident) in names {
        if !is_ident(&name_of(ident)) {
            all = false;
            cx.error(
                ident.span(),
                format!(
                    "`{ident}` is not a Rust identifier, and `cuda_graph!` names generated items \
                     after its {what}s: rename the {what} (letters, digits and `_`)"
                ),
            );
        }
    }
    all
}

/// The executable's methods (one per node, `set_<param>` per param, the fixed ones) and the
/// methods of the type of the allocations a launch leaves.
fn methods(model: &Model, cx: &mut Ctxt) {
    let graph = name_of(&model.decl.name);
    let exec = format!("{graph}Exec");
    let mut methods = Namespace::default();
    for name in EXEC_METHODS {
        let what = format!("the method `{exec}::{name}` of the generated executable");
        methods.add(name.to_owned(), Span::call_site(), what, String::new());
    }
    for field in &model.params {
        let name = format!("set_{}", name_of(&field.name));
        let what = format!(
            "the method `{exec}::{name}` that sets param `{}`",
            field.name
        );
        let fix = format!("rename param `{}`", field.name);
        methods.add(name, field.name.span(), what, fix);
    }
    for node in decls(model) {
        let name = name_of(&node.name);
        let what =
            format!("node name `{name}` (each node is a method of `{exec}`, returning its handle)");
        methods.add(
            name,
            node.name.span(),
            what,
            format!("rename node `{}`", node.name),
        );
    }
    methods.report(cx);

    let allocs = format!("{graph}Allocations");
    let mut outliving = Namespace::default();
    for a in model.outliving_allocations() {
        if !model.first_of_decl(a) {
            continue;
        }
        let node = model.nodes[a].decl;
        let name = name_of(&node.name);
        if !matches!(node.op, NodeOp::Alloc(_)) {
            continue;
        }
        let fix = format!("rename allocation `{name}`");
        outliving.add(
            name.clone(),
            node.name.span(),
            format!("allocation `{name}` (its address is the method `{allocs}::{name}`)"),
            fix.clone(),
        );
        let read = format!("read_{name}");
        outliving.add(
            read.clone(),
            node.name.span(),
            format!("the method `{allocs}::{read}` that copies allocation `{name}` out"),
            fix.clone(),
        );
        let take = format!("take_{name}");
        outliving.add(
            take.clone(),
            node.name.span(),
            format!("the method `{allocs}::{take}` that takes allocation `{name}` out"),
            fix,
        );
    }
    outliving.report(cx);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_as_proc_macro2_takes_them() {
        for name in ["a", "_a", "ñode", "r", "type", "x1", "ʰ", "_1"] {
            assert!(is_ident(name), "{name}");
        }
        for name in ["", "1", "a😀", "a-b", "\u{300}x", "→"] {
            assert!(!is_ident(name), "{name}");
        }
    }
}
