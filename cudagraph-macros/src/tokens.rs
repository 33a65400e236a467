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
    each_mention_where(tokens, false, &mut |ident, next, _| f(ident, next));
}

/// [`each_mention_then`], telling `f` too whether the identifier is in a macro call's input
/// (`m!(w[0])`, see [`macro_input`]; `in_macro` for all of `tokens`), whose meaning the macro
/// cannot know: the called macro may rewrite it.
pub fn each_mention_where(
    tokens: TokenStream,
    in_macro: bool,
    f: &mut dyn FnMut(&Ident, Option<&TokenTree>, bool),
) {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    // `name!(...)`, or `macro_rules! name {...}`.
    let is_input =
        |i: usize| (2..=3).any(|back| i >= back && macro_input(&tokens, i - back) == Some(i));
    for (i, tt) in tokens.iter().enumerate() {
        match tt {
            TokenTree::Group(g) => each_mention_where(g.stream(), in_macro || is_input(i), f),
            TokenTree::Ident(ident) => {
                if may_be_local(&tokens, i) {
                    f(ident, tokens.get(i + 1), in_macro);
                }
            }
            // `format!("{n}")` reads `n` too: inline format arguments count as mentions.
            TokenTree::Literal(lit) => {
                for name in format_args_of(&lit.to_string()) {
                    f(&Ident::new(name, lit.span()), None, in_macro);
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

/// What in an expression can give a name another meaning than the one outside it, so that an
/// index written with it (`w[K]`, `w[layer]`) may pick another element than the macro computes
/// from the graph's consts and the loop variable.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Binders {
    /// An item (`const K: usize = 1;`, `use m::*;`, a `fn`, a type, a module, ...) or a macro
    /// call. An item hides a name in its whole block, before it too, and may not write the name
    /// (a glob import); a macro may expand to items (those of `macro_rules!` are not hygienic)
    /// or rewrite its input. Any name an index uses may then be another.
    pub items: bool,
    /// A pattern: `let`, a match arm, a `for` loop, a closure's parameters. It binds the names
    /// it writes, and only in the code after it or inside it.
    pub patterns: bool,
    /// A macro call (also counted in `items`). Besides hiding names, it may read any element
    /// of an array the expression names, without the tokens writing the index: `include!`
    /// pastes a file's tokens, and a procedural macro may give its output the call site's
    /// hygiene, so either reads the caller's locals (`scale[0] + include!("s.rs")` with `s.rs`
    /// holding `scale[1]`). Beside one, no index says which elements are read.
    pub macros: bool,
}

impl Binders {
    /// What `tokens` hold that can bind a name.
    pub fn of(tokens: TokenStream) -> Binders {
        let mut found = Binders::default();
        find_binders(tokens, &mut found);
        found
    }
}

/// Keywords that introduce an item, which may hide a name in its block.
const ITEMS: [&str; 14] = [
    "const",
    "static",
    "fn",
    "use",
    "struct",
    "enum",
    "union",
    "type",
    "mod",
    "impl",
    "trait",
    "extern",
    "macro_rules",
    "macro",
];

/// Keywords that introduce a pattern, which binds the names it writes.
const PATTERNS: [&str; 3] = ["let", "match", "for"];

fn find_binders(tokens: TokenStream, found: &mut Binders) {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    let punct = |at: usize| match tokens.get(at) {
        Some(TokenTree::Punct(p)) => Some((p.as_char(), p.spacing())),
        _ => None,
    };
    for (i, tt) in tokens.iter().enumerate() {
        match tt {
            TokenTree::Group(g) => find_binders(g.stream(), found),
            TokenTree::Ident(ident) => {
                let word = ident.to_string();
                let call = macro_input(&tokens, i).is_some();
                found.items |= ITEMS.contains(&word.as_str()) || call;
                found.macros |= call;
                found.patterns |= PATTERNS.contains(&word.as_str());
            }
            // A closure's parameter list opens with `|`; `||` (no parameters, or a logical
            // or) and `|=` do not.
            TokenTree::Punct(p) if p.as_char() == '|' => {
                let joint_to_next = p.spacing() == proc_macro2::Spacing::Joint
                    && punct(i + 1).is_some_and(|(c, _)| c == '|' || c == '=');
                let second_of_pair = i >= 1
                    && punct(i - 1)
                        .is_some_and(|(c, s)| c == '|' && s == proc_macro2::Spacing::Joint);
                found.patterns |= !joint_to_next && !second_of_pair;
            }
            _ => {}
        }
    }
}

/// Where the input of a macro call whose name is `tokens[i]` is: `name!(...)` (any delimiter,
/// any path before the name) or `macro_rules! name { ... }`. A keyword is no macro's name
/// (`if !(a)` is no call).
pub fn macro_input(tokens: &[TokenTree], i: usize) -> Option<usize> {
    let TokenTree::Ident(ident) = &tokens[i] else {
        return None;
    };
    if !matches!(tokens.get(i + 1), Some(TokenTree::Punct(p)) if p.as_char() == '!') {
        return None;
    }
    let input = match (tokens.get(i + 2), tokens.get(i + 3)) {
        (Some(TokenTree::Group(_)), _) => i + 2,
        (Some(TokenTree::Ident(_)), Some(TokenTree::Group(_))) if ident == "macro_rules" => i + 3,
        _ => return None,
    };
    // (Parsed last: this runs on every identifier of a declaration.)
    syn::parse_str::<Ident>(&ident.to_string()).ok()?;
    Some(input)
}

/// Whether the names an index group uses (`[layer + K]`) may not be those the macro knows (the
/// graph's consts, the loop variable) in `tokens`, the expressions it is written in: an item or
/// a macro call there ([`Binders::items`]) may hide any of them, a pattern one it writes outside
/// indices (`{ let i = 0; w[i] }`; a pattern never writes a name in an index, `w[i]`, where it
/// is read). An index without names (`w[0]`) means what it says here (beside a macro call, the
/// caller takes any element: see [`Binders::macros`]). A false "may" only costs precision: the
/// caller then takes any element.
pub fn index_may_be_hidden(tokens: &TokenStream, binders: Binders, index: &TokenStream) -> bool {
    if binders == Binders::default() {
        return false;
    }
    let mut names = Vec::new();
    collect_mentions(index.clone(), &mut |ident| {
        let name = name_of(ident);
        // A keyword (`as`) names nothing a binding could hide.
        if syn::parse_str::<Ident>(&ident.to_string()).is_ok() && !names.contains(&name) {
            names.push(name);
        }
    });
    !names.is_empty()
        && (binders.items
            || (binders.patterns
                && names
                    .iter()
                    .any(|name| named_outside_indices(tokens.clone(), name))))
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
