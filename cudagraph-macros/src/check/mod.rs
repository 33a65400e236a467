//! The compile-time rules the macro enforces itself, one module per rule (the catalogue is in the
//! crate docs, "Rules checked at compile time").
//!
//! Every rule reports into one [`Ctxt`], so a declaration with several problems gets all of them
//! in one compile, in a stable order (rule by rule, each in declaration order). Rules that the
//! type checker enforces better (argument types, update limits) are left to the generated code's
//! types and to `cudagraph_runtime::__private`'s `on_unimplemented` messages.

mod allocations;
mod attributes;
mod conditionals;
mod cycles;
pub mod generated;
pub mod hazards;
mod names;
mod operands;
mod params;
mod repetition;
mod static_topology;
mod syntax;

use std::collections::BTreeMap;
use std::fmt::Display;

use proc_macro2::Span;

use crate::model::{name_of, Model};

/// Where the rules put their errors.
#[derive(Default)]
pub struct Ctxt {
    errors: Vec<syn::Error>,
    /// The keys of [`Ctxt::error_once`]'s errors.
    once: std::collections::BTreeSet<String>,
}

impl Ctxt {
    /// Records an error at `span`.
    pub fn error(&mut self, span: Span, message: impl Display) {
        self.errors.push(syn::Error::new(span, message));
    }

    /// Records an error covering all of `tokens` (from its first token to its last).
    pub fn error_spanned(&mut self, tokens: impl quote::ToTokens, message: impl Display) {
        self.errors.push(syn::Error::new_spanned(tokens, message));
    }

    /// Records an error at `span` unless one of the same `key` was recorded: a rule that judges
    /// every iteration of a loop reports what is wrong with the tokens once (the first iteration
    /// found), not once per iteration.
    pub fn error_once(&mut self, key: String, span: Span, message: impl Display) {
        if self.once.insert(key) {
            self.error(span, message);
        }
    }

    /// Whether `key` is new (see [`Ctxt::error_once`]): for a rule that makes its message only
    /// when it reports it.
    pub fn first(&mut self, key: String) -> bool {
        self.once.insert(key)
    }

    /// [`Ctxt::error_once`], covering all of `tokens`.
    pub fn error_spanned_once(
        &mut self,
        key: String,
        tokens: impl quote::ToTokens,
        message: impl Display,
    ) {
        if self.once.insert(key) {
            self.error_spanned(tokens, message);
        }
    }

    /// Records an error made elsewhere (by the parser).
    pub fn push(&mut self, error: syn::Error) {
        self.errors.push(error);
    }

    /// `Ok` if no rule complained, else every error, combined in the order recorded.
    pub fn finish(self) -> syn::Result<()> {
        let mut errors = self.errors.into_iter();
        match errors.next() {
            None => Ok(()),
            Some(mut first) => {
                first.extend(errors);
                Err(first)
            }
        }
    }
}

/// Runs every rule on every declaration of one macro call.
pub fn check(models: &[Model], cx: &mut Ctxt) {
    unique_graph_names(models, cx);
    generated::check(models, cx);
    for model in models {
        let before = cx.errors.len();
        syntax::check(model, cx);
        repetition::check(model, cx);
        static_topology::check(model, cx);
        attributes::check(model, cx);
        params::check(model, cx);
        names::check(model, cx);
        cycles::check(model, cx);
        operands::check(model, cx);
        allocations::check_names(models, model, cx);
        allocations::check_foreign(models, model, cx);
        conditionals::check(models, model, cx);
        // Graph order and data races are judged on a declaration that is otherwise sound: on a broken one (a
        // cycle, an operand that is no param) they would only add noise, or mislead.
        if cx.errors.len() == before {
            params::check_launched(model, cx);
            allocations::check_order(model, cx);
            hazards::check(model, cx);
        }
    }
}

// Two declarations of one name in one call would generate the same types twice; rustc would
// report it too, but at the macro call rather than at the second name.
fn unique_graph_names(models: &[Model], cx: &mut Ctxt) {
    let mut seen = BTreeMap::new();
    for model in models {
        let name = &model.decl.name;
        if seen.insert(name_of(name), ()).is_some() {
            cx.error(
                name.span(),
                format!("graph `{name}` is declared twice: rename one of them"),
            );
        }
    }
}

/// The closest of `candidates` to `name`, if close enough to be a likely typo.
pub fn suggest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (name.chars().count() / 3).max(1);
    candidates
        .into_iter()
        .map(|c| (edit_distance(name, c), c))
        .filter(|&(d, _)| d <= limit)
        .min_by_key(|&(d, _)| d)
        .map(|(_, c)| c)
}

/// Edit distance counting a swap of two neighbours as one edit (optimal string alignment).
fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions_catch_typos_only() {
        assert_eq!(suggest("scael", ["zero", "scale", "back"]), Some("scale"));
        assert_eq!(suggest("x", ["y"]), Some("y"));
        assert_eq!(suggest("output", ["zero", "scale"]), None);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }
}
