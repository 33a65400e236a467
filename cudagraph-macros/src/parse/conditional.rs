//! Conditional nodes: `if h { ... } else { ... }`, `while h { ... }`, `switch h { 0 => { ... } }`,
//! and their bodies.

use proc_macro2::{Delimiter, Group, TokenStream, TokenTree};
use syn::parse::ParseStream;
use syn::{braced, parenthesized, token, Attribute, Expr, Ident, Token};

use super::*;

/// `name: if` / `name: while` / `name: switch` (after optional attributes)?
pub(super) fn starts_conditional_node(input: ParseStream) -> bool {
    let fork = input.fork();
    fork.call(Attribute::parse_outer).is_ok()
        && fork.parse::<Ident>().is_ok()
        && (!fork.peek(token::Bracket) || fork.parse::<Group>().is_ok())
        && fork.peek(Token![:])
        && !fork.peek(Token![::])
        && fork.parse::<Token![:]>().is_ok()
        && (fork.peek(Token![if]) || fork.peek(Token![while]) || fork.peek(kw::switch))
}

/// The tokens of a conditional node: up to its first braced block, then `else` and its block if
/// there is one, then the `;` if written (optional after a block).
pub(super) fn take_conditional_node(input: ParseStream) -> TokenStream {
    let taken = input.step(|cursor| {
        let mut rest = *cursor;
        let mut tokens = TokenStream::new();
        let mut blocks = 0;
        while let Some((tt, next)) = rest.token_tree() {
            let block = matches!(&tt, TokenTree::Group(g) if g.delimiter() == Delimiter::Brace);
            let semi = matches!(&tt, TokenTree::Punct(p) if p.as_char() == ';');
            if semi {
                rest = next;
                break;
            }
            tokens.extend(std::iter::once(tt));
            rest = next;
            if block {
                blocks += 1;
                match rest.ident() {
                    Some((ident, _)) if ident == "else" && blocks == 1 => {}
                    _ => {
                        if let Some((p, next)) = rest.punct() {
                            if p.as_char() == ';' {
                                rest = next;
                            }
                        }
                        break;
                    }
                }
            }
        }
        Ok((tokens, rest))
    });
    taken.unwrap_or_default()
}

/// `#[doc] name: if h { ... } else { ... }` and the other conditional nodes.
pub(super) fn parse_conditional_node(input: ParseStream) -> syn::Result<Item> {
    let attrs = input.call(Attribute::parse_outer)?;
    let name: Ident = input.parse()?;
    let index = optional_index(input)?;
    input.parse::<Token![:]>()?;
    let keyword = input.span();
    let kind = if input.peek(Token![if]) {
        input.parse::<Token![if]>()?;
        CondKind::If
    } else if input.peek(Token![while]) {
        input.parse::<Token![while]>()?;
        CondKind::While
    } else {
        input.parse::<kw::switch>()?;
        CondKind::Switch
    };
    let handle: Ident = input.parse().map_err(|e| {
        syn::Error::new(
            e.span(),
            "expected the name of the node's conditional handle (a new name, which kernels take              as an argument to set the value): `name: while h { ... }`",
        )
    })?;
    let (default, unroll) = if input.peek(token::Paren) {
        let content;
        parenthesized!(content in input);
        handle_options(&content)?
    } else {
        (None, None)
    };
    if !input.peek(token::Brace) {
        return Err(input.error(format!(
            "expected the body of `{name}` in braces: `{{ node: kernel k<<<grid, block>>>(args); ... }}`"
        )));
    }
    let mut bodies = Vec::new();
    let mut kind = kind;
    if kind == CondKind::Switch {
        let content;
        let brace = braced!(content in input);
        while !content.is_empty() {
            let case: syn::LitInt = content.parse().map_err(|e| {
                syn::Error::new(
                    e.span(),
                    "expected a case: `0 => { ... }` (the value of the handle that runs the body)",
                )
            })?;
            if case.base10_parse::<usize>().ok() != Some(bodies.len()) {
                return Err(syn::Error::new(
                    case.span(),
                    format!(
                        "the cases of a switch are its handle's values 0, 1, 2, ... in order: expected `{}` here",
                        bodies.len()
                    ),
                ));
            }
            content.parse::<Token![=>]>()?;
            bodies.push(parse_body(&content)?);
            if content.peek(Token![,]) {
                content.parse::<Token![,]>()?;
            }
        }
        if bodies.is_empty() {
            return Err(syn::Error::new(
                brace.span.join(),
                "a switch has at least one case: `0 => { ... }`",
            ));
        }
    } else {
        bodies.push(parse_body(input)?);
        if input.peek(Token![else]) {
            let token = input.parse::<Token![else]>()?;
            if kind != CondKind::If {
                return Err(syn::Error::new(
                    token.span,
                    "only an `if` node has an `else` body",
                ));
            }
            if input.peek(Token![if]) {
                return Err(input.error(
                    "`else if` is not a CUDA conditional node: nest an `if` node in the `else` body, or use `switch`",
                ));
            }
            bodies.push(parse_body(input)?);
            kind = CondKind::IfElse;
        }
    }
    if !input.is_empty() {
        return Err(input.error("expected `;` or the next statement after the conditional node"));
    }
    Ok(Item::Node(Box::new(NodeDecl {
        attrs,
        name,
        index,
        op: NodeOp::Conditional(CondOp {
            kind,
            keyword,
            handle,
            default,
            unroll,
            bodies,
        }),
    })))
}

/// What the parentheses after a handle's name say, in any order, each at most once:
/// `default = value` (the value the handle is reset to at each launch) and `unroll = k` (copies
/// of a `while` node's body per pass, `check::unroll`).
fn handle_options(content: ParseStream) -> syn::Result<(Option<Expr>, Option<Unroll>)> {
    let usage = "expected `default = value` (the value the handle is reset to at each launch) \
                 or, for a `while` node, `unroll = k` (copies of the body per pass of the loop)";
    let (mut default, mut unroll) = (None, None);
    while !content.is_empty() {
        if content.peek(kw::default) {
            let key = content.parse::<kw::default>()?;
            content.parse::<Token![=]>()?;
            let value: Expr = content.parse()?;
            if default.replace(value).is_some() {
                return Err(syn::Error::new(
                    key.span,
                    "`default` is given twice: keep one",
                ));
            }
        } else if content.peek(kw::unroll) {
            let key = content.parse::<kw::unroll>()?;
            content.parse::<Token![=]>()?;
            let count: Expr = content.parse()?;
            if unroll.replace(Unroll { key, count }).is_some() {
                return Err(syn::Error::new(
                    key.span,
                    "`unroll` is given twice: keep one",
                ));
            }
        } else {
            return Err(content.error(usage));
        }
        if content.is_empty() {
            break;
        }
        content
            .parse::<Token![,]>()
            .map_err(|e| syn::Error::new(e.span(), format!("expected `,` or `)`: {usage}")))?;
    }
    Ok((default, unroll))
}

/// `{ items }`: a conditional node's body.
pub(super) fn parse_body(input: ParseStream) -> syn::Result<Body> {
    if !input.peek(token::Brace) {
        return Err(input.error("expected a body in braces: `{ ... }`"));
    }
    let content;
    braced!(content in input);
    let mut items = Vec::new();
    while !content.is_empty() {
        items.push(parse_item(&content));
    }
    Ok(Body { items })
}
