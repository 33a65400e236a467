//! Walking a declaration's tokens: the names an expression mentions (as variables, not as
//! fields, methods or paths), inline format arguments included, and a name as the generated code
//! sees it.

use proc_macro2::{TokenStream, TokenTree};
use quote::ToTokens;
use syn::ext::IdentExt;
use syn::Ident;

/// A name as the generated code sees it (`r#type` and `type` are one name).
pub fn name_of(ident: &Ident) -> String {
    ident.unraw().to_string()
}

/// Calls `f` on every identifier of `tokens` that may be a local variable: all but field and
/// method names (`x.name`) and path segments after `::`. An over-approximation is safe (a node is
/// then updated when it need not be); missing a use would not be.
/// Calls `f` on every identifier of `tokens` that may be a local variable (see
/// `collect_mentions`).
pub fn each_ident(tokens: &impl ToTokens, f: &mut dyn FnMut(&Ident)) {
    collect_mentions(tokens.to_token_stream(), f);
}

pub fn collect_mentions(tokens: TokenStream, f: &mut dyn FnMut(&Ident)) {
    each_mention_then(tokens, &mut |ident, _| f(ident));
}

/// [`collect_mentions`], giving `f` the token after each identifier at its level too (the
/// `[i]` of `w[i]`); an inline format argument has none.
pub fn each_mention_then(tokens: TokenStream, f: &mut dyn FnMut(&Ident, Option<&TokenTree>)) {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    for (i, tt) in tokens.iter().enumerate() {
        match tt {
            TokenTree::Group(g) => each_mention_then(g.stream(), f),
            TokenTree::Ident(ident) => {
                if may_be_local(&tokens, i) {
                    f(ident, tokens.get(i + 1));
                }
            }
            // `format!("{n}")` reads `n` too: inline format arguments count as mentions.
            TokenTree::Literal(lit) => {
                for name in format_args_of(&lit.to_string()) {
                    f(&Ident::new(name, lit.span()), None);
                }
            }
            TokenTree::Punct(_) => {}
        }
    }
}

/// Whether the identifier at `tokens[i]` may be a local variable: not a field or method name
/// (`x.name`, but `0..name` is a range) nor a path segment after `::`.
pub fn may_be_local(tokens: &[TokenTree], i: usize) -> bool {
    let punct = |at: usize| match tokens.get(at) {
        Some(TokenTree::Punct(p)) => Some((p.as_char(), p.spacing())),
        _ => None,
    };
    let after_dot = i >= 1
        && punct(i - 1).is_some_and(|(c, _)| c == '.')
        && !(i >= 2
            && punct(i - 2).is_some_and(|(c, s)| c == '.' && s == proc_macro2::Spacing::Joint));
    let after_path = i >= 2
        && punct(i - 1).is_some_and(|(c, _)| c == ':')
        && punct(i - 2).is_some_and(|(c, s)| c == ':' && s == proc_macro2::Spacing::Joint);
    !after_dot && !after_path
}

/// The identifiers a string literal would capture as inline format arguments (`{n}`, `{x:?}`).
/// Any string literal is scanned: a false positive only costs an unneeded update.
pub fn format_args_of(literal: &str) -> Vec<&str> {
    if !(literal.starts_with('"') || literal.starts_with('r')) {
        return Vec::new();
    }
    let bytes = literal.as_bytes();
    let mut names = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'{' {
            if bytes.get(i + 1) == Some(&b'{') {
                i += 2;
                continue;
            }
            let start = i + 1;
            let mut end = start;
            while end < bytes.len() && (bytes[end].is_ascii_alphanumeric() || bytes[end] == b'_') {
                end += 1;
            }
            let starts_like_ident = bytes
                .get(start)
                .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_');
            if end > start && starts_like_ident {
                if let Some(name) = literal.get(start..end) {
                    if name != "_" {
                        names.push(name);
                    }
                }
            }
            i = end;
        } else {
            i += 1;
        }
    }
    names
}
