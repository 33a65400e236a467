//! Repetition: `for i in 0..N { ... }` blocks of nodes and edges, and the `const` items their
//! counts may name.

use proc_macro2::{Delimiter, TokenStream, TokenTree};
use syn::parse::{Parse, ParseStream, Parser};
use syn::{Attribute, Ident, Token, Visibility};

use super::*;

/// `for` (after optional attributes): a repetition, unless a label comes first (run-time
/// control flow, which the static-topology rule reports).
pub(super) fn starts_repetition(input: ParseStream) -> bool {
    let fork = input.fork();
    fork.call(Attribute::parse_outer).is_ok() && fork.peek(Token![for])
}

/// A `for` loop: its header up to the braced body, the body's items, and a `;` if one follows.
/// Never fails: a header that does not parse is kept as the loop's error, and the body is read
/// all the same.
pub(super) fn take_repetition(input: ParseStream) -> Item {
    let attrs = input.call(Attribute::parse_outer).unwrap_or_default();
    let for_token: Token![for] = match input.parse() {
        Ok(token) => token,
        Err(error) => {
            return Item::Invalid {
                error,
                declares: Declares::Nothing,
            }
        }
    };
    // The header's tokens, up to the body (or a `;`, when the body is missing).
    let taken = input.step(|cursor| {
        let mut rest = *cursor;
        let mut header = TokenStream::new();
        while let Some((tt, next)) = rest.token_tree() {
            match &tt {
                TokenTree::Group(g) if g.delimiter() == Delimiter::Brace => {
                    return Ok(((header, Some(g.clone())), next));
                }
                TokenTree::Punct(p) if p.as_char() == ';' => break,
                _ => {}
            }
            header.extend(std::iter::once(tt));
            rest = next;
        }
        Ok(((header, None), rest))
    });
    let (header_tokens, body) = taken.unwrap_or_default();
    if input.peek(Token![;]) {
        let _ = input.parse::<Token![;]>();
    }
    let usage = "a repetition is written `for layer in 0..LAYERS { ... }`, with a count the macro \
                 knows: integer literals and consts declared in the graph";
    let end = body
        .as_ref()
        .map_or_else(|| last_span(&header_tokens), |b| b.span_open());
    let mut header = parse_detached(
        |input: ParseStream| {
            let var = Ident::parse(input).map_err(|e| {
                syn::Error::new(
                    e.span(),
                    format!("expected the loop variable after `for`, one name: {usage}"),
                )
            })?;
            input.parse::<Token![in]>().map_err(|e| {
                syn::Error::new(
                    e.span(),
                    format!("expected `in` after `for {var}`: {usage}"),
                )
            })?;
            if input.is_empty() {
                return Err(input.error(format!("expected the range after `in`: {usage}")));
            }
            let range = input.parse()?;
            Ok(RepeatHeader { var, range })
        },
        header_tokens,
        end,
    );
    let items = match body {
        Some(body) => {
            let close = body.span_close();
            parse_detached(
                |input: ParseStream| {
                    let mut items = Vec::new();
                    while !input.is_empty() {
                        items.push(parse_item(input));
                    }
                    Ok(items)
                },
                body.stream(),
                close,
            )
            .unwrap_or_default()
        }
        None => {
            if header.is_ok() {
                header = Err(syn::Error::new(
                    end,
                    format!("expected the repeated nodes and edges in braces: {usage}"),
                ));
            }
            Vec::new()
        }
    };
    Item::Repeat(Box::new(Repeat {
        attrs,
        for_token,
        header,
        items,
    }))
}

/// Whether a statement is a `const` item (after optional attributes and visibility).
pub(super) fn starts_const(tokens: &TokenStream) -> bool {
    let parser = |input: ParseStream| {
        input.call(Attribute::parse_outer)?;
        input.parse::<Visibility>()?;
        if input.peek(Token![const]) {
            let _: TokenStream = input.parse()?;
            Ok(())
        } else {
            Err(input.error("not a const"))
        }
    };
    parser.parse2(tokens.clone()).is_ok()
}

/// `#[attrs] vis const NAME: Type = value;`.
pub(super) fn parse_const(input: ParseStream) -> syn::Result<syn::ItemConst> {
    input.parse::<syn::ItemConst>().map_err(|e| {
        syn::Error::new(
            e.span(),
            format!("{e}: a graph's const is written `const LAYERS: usize = 32;`"),
        )
    })
}
