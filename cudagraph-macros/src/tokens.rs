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

/// A name as the user must write it in the declaration (`r#match`, `step`): what messages quote
/// in Rust syntax (an edge to add, a name to write), so that it parses when pasted. (The runtime
/// names nodes by [`name_of`].)
pub fn written(ident: &Ident) -> String {
    let name = name_of(ident);
    // A keyword (strict or reserved) is no identifier unless raw.
    if syn::parse_str::<Ident>(&name).is_ok() {
        name
    } else {
        format!("r#{name}")
    }
}

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

/// The identifiers a string literal would capture as inline format arguments: the argument of
/// a placeholder (`{n}`, `{x:?}`, `{ñ}`) and the width and precision parameters of its spec
/// (`{:>w$}`, `{:.p$}`, `{0:w$.p$}`), which `format!` reads as variables too. Any string literal
/// is scanned: a false positive only costs an unneeded update (names are filtered to params).
pub fn format_args_of(literal: &str) -> Vec<&str> {
    if !(literal.starts_with('"') || literal.starts_with('r')) {
        return Vec::new();
    }
    let mut names = Vec::new();
    let mut rest = literal;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        if let Some(escaped) = after.strip_prefix('{') {
            rest = escaped;
            continue;
        }
        // The placeholder, up to its `}` (none: not a format string, nothing more to find).
        let Some(close) = after.find('}') else {
            break;
        };
        let placeholder = &after[..close];
        rest = &after[close + 1..];
        let (argument, spec) = placeholder.split_once(':').unwrap_or((placeholder, ""));
        names.extend(identifier(argument.trim()));
        // `name$`: a width or precision taken from a variable (the fill character before an
        // alignment may be a letter too, and flags may be digits: the name is what precedes
        // `$` back to the first character that cannot start one).
        let mut spec_rest = spec;
        while let Some(dollar) = spec_rest.find('$') {
            let before = &spec_rest[..dollar];
            let word_start = before
                .char_indices()
                .rev()
                .take_while(|&(_, c)| unicode_ident::is_xid_continue(c))
                .last()
                .map_or(dollar, |(i, _)| i);
            let word = &before[word_start..];
            // `0w$` is the `0` flag, then width `w`: skip what cannot start a name.
            let start = word
                .char_indices()
                .find(|&(_, c)| c == '_' || unicode_ident::is_xid_start(c))
                .map_or(word.len(), |(i, _)| i);
            names.extend(identifier(&word[start..]));
            spec_rest = &spec_rest[dollar + 1..];
        }
    }
    names
}

/// `text`, if it is an identifier a format string can name (`_` alone is none).
fn identifier(text: &str) -> Option<&str> {
    let mut chars = text.chars();
    let first = chars.next()?;
    ((first == '_' || unicode_ident::is_xid_start(first))
        && chars.all(unicode_ident::is_xid_continue)
        && text != "_")
        .then_some(text)
}

/// Whether `tokens` may bind `name` again, so that a `name` in them may not be the one outside:
/// they hold something that can introduce a name (`let`, a match arm, a `for` pattern, a
/// closure's parameters, an item such as a `const` or a `fn`, a macro, which may expand to any
/// of these), and `name` is written somewhere other than in an index (`w[name]`), where such a
/// binding would have to write it. A false "may" only costs precision: the caller then takes any
/// value of `name`.
pub fn may_rebind(tokens: TokenStream, name: &str) -> bool {
    has_binder(tokens.clone()) && named_outside_indices(tokens, name)
}

/// Keywords that introduce a name, as a binding or an item.
const BINDERS: [&str; 11] = [
    "let",
    "match",
    "for",
    "fn",
    "const",
    "static",
    "use",
    "struct",
    "enum",
    "union",
    "macro_rules",
];

fn has_binder(tokens: TokenStream) -> bool {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    let punct = |at: usize| match tokens.get(at) {
        Some(TokenTree::Punct(p)) => Some((p.as_char(), p.spacing())),
        _ => None,
    };
    for (i, tt) in tokens.iter().enumerate() {
        match tt {
            TokenTree::Group(g) if has_binder(g.stream()) => return true,
            TokenTree::Group(_) => {}
            TokenTree::Ident(ident) => {
                let word = ident.to_string();
                if BINDERS.contains(&word.as_str()) {
                    return true;
                }
                // A macro call: `name!(...)`.
                if punct(i + 1).is_some_and(|(c, _)| c == '!')
                    && matches!(tokens.get(i + 2), Some(TokenTree::Group(_)))
                {
                    return true;
                }
            }
            // A closure's parameter list opens with `|`; `||` (no parameters, or a logical
            // or) and `|=` do not.
            TokenTree::Punct(p) if p.as_char() == '|' => {
                let joint_to_next = p.spacing() == proc_macro2::Spacing::Joint
                    && punct(i + 1).is_some_and(|(c, _)| c == '|' || c == '=');
                let second_of_pair = i >= 1
                    && punct(i - 1)
                        .is_some_and(|(c, s)| c == '|' && s == proc_macro2::Spacing::Joint);
                if !joint_to_next && !second_of_pair {
                    return true;
                }
            }
            _ => {}
        }
    }
    false
}

/// Whether `name` is written in `tokens` other than inside an index (`[...]` after a name that
/// is not a keyword: `let [a, b] = ..` is a pattern).
fn named_outside_indices(tokens: TokenStream, name: &str) -> bool {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    for (i, tt) in tokens.iter().enumerate() {
        match tt {
            TokenTree::Ident(ident) if name_of(ident) == name => return true,
            TokenTree::Group(g) => {
                let index = g.delimiter() == proc_macro2::Delimiter::Bracket
                    && i >= 1
                    && matches!(&tokens[i - 1], TokenTree::Ident(before)
                        if syn::parse_str::<Ident>(&before.to_string()).is_ok());
                if !index && named_outside_indices(g.stream(), name) {
                    return true;
                }
            }
            _ => {}
        }
    }
    false
}
