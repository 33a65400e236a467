//! The compile-time rules the macro enforces itself, one module per rule (the catalogue is in the
//! crate docs, "Rules checked at compile time").
//!
//! Every rule reports into one [`Ctxt`], so a declaration with several problems gets all of them
//! in one compile, in a stable order (rule by rule, each in declaration order). Rules that the
//! type checker enforces better (argument types, update limits) are left to the generated code's
//! types and to `cudagraph_runtime::__private`'s `on_unimplemented` messages.

mod allocations;
mod attributes;
mod concurrent_loops;
mod conditionals;
mod cycles;
mod device_launch;
mod device_update;
pub mod generated;
pub mod hazards;
mod names;
mod operands;
mod params;
pub mod programmatic;
mod repetition;
mod static_topology;
mod syntax;
mod unroll;

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
        unroll::check(model, cx);
        programmatic::check(model, cx);
        device_launch::check(model, cx);
        device_update::check(model, cx);
        // Graph order and data races are judged on a declaration that is otherwise sound: on a broken one (a
        // cycle, an operand that is no param) they would only add noise, or mislead.
        if cx.errors.len() == before {
            params::check_launched(model, cx);
            allocations::check_order(model, cx);
            operands::check_pointer_args(model, cx);
            hazards::check(model, cx);
            concurrent_loops::check(model, cx);
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

pub use crate::text::suggest;
