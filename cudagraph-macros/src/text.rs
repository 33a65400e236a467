//! Tokens as a person writes them, for messages and generated docs: `DevicePtr<f32>`, not the
//! `DevicePtr < f32 >` of `TokenStream::to_string`.

use proc_macro2::{Delimiter, Spacing, TokenStream, TokenTree};

/// A type as written.
pub fn pretty(tokens: TokenStream) -> String {
    print(tokens, true)
}

/// An expression as written.
pub fn pretty_expr(tokens: TokenStream) -> String {
    print(tokens, false)
}

fn print(tokens: TokenStream, ty: bool) -> String {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    let mut out = String::new();
    for (i, tt) in tokens.iter().enumerate() {
        if i > 0 && space_between(&tokens[i - 1], tt, i.checked_sub(2).map(|j| &tokens[j]), ty) {
            out.push(' ');
        }
        match tt {
            TokenTree::Group(g) => {
                let inner = print(g.stream(), ty);
                let (open, close) = match g.delimiter() {
                    Delimiter::Parenthesis => ("(", ")"),
                    Delimiter::Bracket => ("[", "]"),
                    Delimiter::Brace if inner.is_empty() => ("{", "}"),
                    Delimiter::Brace => ("{ ", " }"),
                    Delimiter::None => ("", ""),
                };
                out.push_str(open);
                out.push_str(&inner);
                out.push_str(close);
            }
            other => out.push_str(&other.to_string()),
        }
    }
    out
}

fn punct(tt: &TokenTree) -> Option<char> {
    match tt {
        TokenTree::Punct(p) => Some(p.as_char()),
        _ => None,
    }
}

fn space_between(
    prev: &TokenTree,
    next: &TokenTree,
    before_prev: Option<&TokenTree>,
    ty: bool,
) -> bool {
    if let TokenTree::Punct(p) = prev {
        if p.spacing() == Spacing::Joint
            && !matches!(next, TokenTree::Group(_))
            && p.as_char() != '\''
        {
            return false; // the halves of `->`, `::`, `..`, `<=`, ...
        }
        if p.as_char() == '\'' {
            return false; // a lifetime
        }
    }
    let (prev_c, next_c) = (punct(prev), punct(next));
    let word = |tt: &TokenTree| matches!(tt, TokenTree::Ident(_) | TokenTree::Literal(_));
    match (prev_c, next_c) {
        (_, Some(',' | ';' | '.' | '?')) | (Some('.' | '&' | '!' | '#'), _) => false,
        (Some(':'), _) if before_prev.and_then(punct) == Some(':') => false,
        (_, Some(':')) if matches!(next, TokenTree::Punct(p) if p.spacing() == Spacing::Joint) => {
            false
        }
        (Some('<'), _) | (_, Some('<' | '>')) if ty => false,
        // A minus is binary after an operand, unary (no space after it) otherwise.
        (Some('-'), _) => before_prev.is_some_and(|b| word(b) || matches!(b, TokenTree::Group(_))),
        _ => {
            let call = matches!(next, TokenTree::Group(g) if g.delimiter() != Delimiter::Brace)
                && (word(prev) || prev_c == Some('>'));
            let lifetime = before_prev.and_then(punct) == Some('\'');
            !call || lifetime
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

/// `snake_case` to `CamelCase`.
pub fn camel(name: &str) -> String {
    name.split('_')
        .filter(|part| !part.is_empty())
        .map(|part| {
            let mut chars = part.chars();
            chars
                .next()
                .map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::{quote, ToTokens};
    use syn::Type;

    #[test]
    fn types_print_as_written() {
        let ty: Type = syn::parse_quote!(Kernel<(u32, DevicePtr<f32>, &'static [u8])>);
        assert_eq!(
            pretty(ty.to_token_stream()),
            "Kernel<(u32, DevicePtr<f32>, &'static [u8])>"
        );
        let ty: Type = syn::parse_quote!(std::sync::Arc<dyn Fn() -> u32>);
        assert_eq!(
            pretty(ty.to_token_stream()),
            "std::sync::Arc<dyn Fn() -> u32>"
        );
    }

    #[test]
    fn expressions_print_as_written() {
        assert_eq!(
            pretty_expr(quote!((n + 255) / 256, 256)),
            "(n + 255) / 256, 256"
        );
        assert_eq!(
            pretty_expr(quote!(x.try_slice(..n).unwrap(), -1, a - 1)),
            "x.try_slice(..n).unwrap(), -1, a - 1"
        );
        assert_eq!(
            pretty_expr(quote!(LaunchConfig::for_num_elems(n as u32))),
            "LaunchConfig::for_num_elems(n as u32)"
        );
        assert_eq!(
            pretty_expr(quote!(move || report(n), &x, a < b)),
            "move || report(n), &x, a < b"
        );
    }

    #[test]
    fn suggestions_catch_typos_only() {
        assert_eq!(suggest("scael", ["zero", "scale", "back"]), Some("scale"));
        assert_eq!(suggest("x", ["y"]), Some("y"));
        assert_eq!(suggest("output", ["zero", "scale"]), None);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }
}
