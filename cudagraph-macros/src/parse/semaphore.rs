//! The syntax of external semaphore nodes: `signal(sem = value, ...)` and `wait(sem = value, ...)`.

use super::*;

/// `signal(sem = value, ...)` or `wait(sem = value, ...)`: signals the external semaphore params
/// (`sem`), setting each to its value, or waits until each reaches its value. How many there are
/// is fixed by the declaration (CUDA cannot change it in an update).
pub struct SemaphoreOp {
    /// The `signal` or `wait` keyword.
    pub keyword: Span,
    /// Each semaphore operand and its value (a `u64` expression), as written.
    pub sems: Vec<(Expr, Expr)>,
}

/// Whether parenthesized arguments follow whose first is `name = value`: a semaphore node's.
pub(super) fn semaphore_form(input: ParseStream) -> bool {
    let fork = input.fork();
    let args = |input: ParseStream| {
        let content;
        parenthesized!(content in input);
        content.parse::<Expr>()
    };
    matches!(args(&fork), Ok(Expr::Assign(_)))
}

impl SemaphoreOp {
    /// `(sem = value, ...)` after the `keyword` (`signal` or `wait`) at `span`.
    pub(super) fn parse(input: ParseStream, keyword: Span, word: &str) -> syn::Result<Self> {
        let usage = format!(
            "a semaphore {word} node is written `{word}(sem = value)`, or `{word}(a = 1, b = 2)` \
             for several: each an `ExternalSemaphore` param and its `u64` value (0 for a binary \
             semaphore)"
        );
        if !input.peek(token::Paren) {
            return Err(input.error(usage));
        }
        let content;
        let paren = parenthesized!(content in input);
        let args = content.parse_terminated(Expr::parse, Token![,])?;
        if args.is_empty() {
            return Err(syn::Error::new(paren.span.join(), usage));
        }
        let mut sems = Vec::with_capacity(args.len());
        for arg in args {
            match arg {
                Expr::Assign(assign) => sems.push((name_operand(*assign.left), *assign.right)),
                other => {
                    return Err(syn::Error::new_spanned(
                        other,
                        format!("{usage}: expected `sem = value` here"),
                    ))
                }
            }
        }
        Ok(Self { keyword, sems })
    }
}
