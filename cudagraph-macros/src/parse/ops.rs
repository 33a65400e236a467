//! The operations of the plain node kinds: kernel launches (`kernel k<<<grid, block>>>(args)`),
//! memset, memcpy, host, capture, child, alloc and free.

use proc_macro2::{Delimiter, Group, Span, TokenStream, TokenTree};
use syn::parse::{Parse, ParseStream, Parser};
use syn::punctuated::Punctuated;
use syn::{bracketed, parenthesized, token, Expr, Ident, Token, Type};

use super::*;

impl Parse for KernelOp {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let token: kw::kernel = input.parse()?;
        let kernel = Ident::parse(input).map_err(|e| {
            syn::Error::new(
                e.span(),
                "expected the name of a `Kernel` param after `kernel`",
            )
        })?;
        let open = input.span();
        if !three_puncts(input.cursor(), '<') {
            return Err(input.error(format!(
                "expected `<<<grid, block>>>` after `kernel {kernel}`, then the arguments in parentheses"
            )));
        }
        let launch = take_launch(input, open)?;
        let config: Punctuated<Expr, Token![,]> =
            parse_detached(Punctuated::parse_terminated, launch.config, launch.close)?;
        let config = config.into_pairs().map(|pair| {
            let (expr, comma) = pair.into_tuple();
            syn::punctuated::Pair::new(name_operand(expr), comma)
        });
        let config = config.collect();
        let Some(args) = launch.args else {
            return Err(syn::Error::new(
                launch.after,
                format!(
                    "expected the arguments of `{kernel}` in parentheses after `>>>`: `(a, b, ...)`"
                ),
            ));
        };
        let (paren, args) = Parser::parse2(
            |input: ParseStream| {
                let content;
                let paren = parenthesized!(content in input);
                let args = content.parse_terminated(Expr::parse, Token![,])?;
                Ok((paren, args))
            },
            TokenStream::from(TokenTree::Group(args)),
        )?;
        Ok(Self {
            token,
            kernel,
            open,
            config,
            paren,
            args,
        })
    }
}

/// A kernel launch's tokens after its name, split.
pub(super) struct Launch {
    /// Between `<<<` and `>>>`.
    config: TokenStream,
    /// The first `>` of the closing `>>>`.
    close: Span,
    /// The arguments' parenthesized group, when one follows `>>>`.
    args: Option<Group>,
    /// The token after `>>>` (or the last `>`), for an error about missing arguments.
    after: Span,
}

/// Whether three `c` punctuation tokens start at `cursor`. Their spacing is not looked at: a
/// declaration that `macro_rules!` passes on comes with the spacing the calling macro gave its
/// tokens (`>>` `>` may arrive apart), and it must parse as it does when written out.
pub(super) fn three_puncts(cursor: syn::buffer::Cursor, c: char) -> bool {
    let mut rest = cursor;
    for _ in 0..3 {
        match rest.punct() {
            Some((p, next)) if p.as_char() == c => rest = next,
            _ => return false,
        }
    }
    true
}

/// Consumes `<<< config >>> (args)` (the `<<<` is at the cursor). The launch configuration ends
/// at the `>>>` right before the argument list that ends the node, so that expressions with
/// generics (`size_of::<Vec<u32>>()`, whose `>>>` is not the end) may appear in it; when the
/// node does not end that way, at the first `>>>`.
pub(super) fn take_launch(input: ParseStream, open: Span) -> syn::Result<Launch> {
    input.step(|cursor| {
        let mut rest = *cursor;
        for _ in 0..3 {
            if let Some((_, next)) = rest.punct() {
                rest = next;
            }
        }
        // The rest of the node: up to its `;`, each token with the cursor after it.
        let mut tokens: Vec<(TokenTree, syn::buffer::Cursor)> = Vec::new();
        let mut scan = rest;
        while let Some((tt, next)) = scan.token_tree() {
            if matches!(&tt, TokenTree::Punct(p) if p.as_char() == ';') {
                break;
            }
            tokens.push((tt, next));
            scan = next;
        }
        let is_gt = |i: usize| {
            matches!(tokens.get(i), Some((TokenTree::Punct(p), _)) if p.as_char() == '>')
        };
        let closes_at = |i: usize| is_gt(i) && is_gt(i + 1) && is_gt(i + 2);
        let n = tokens.len();
        let ends_with_args = n >= 4
            && closes_at(n - 4)
            && matches!(&tokens[n - 1].0, TokenTree::Group(g) if g.delimiter() == Delimiter::Parenthesis);
        let close = if ends_with_args {
            n - 4
        } else {
            match (0..n).find(|&i| closes_at(i)) {
                Some(i) => i,
                None => {
                    return Err(syn::Error::new(
                        open,
                        "expected `>>>` to close this launch configuration",
                    ))
                }
            }
        };
        let config: TokenStream = tokens[..close].iter().map(|(tt, _)| tt.clone()).collect();
        let close_span = tokens[close].0.span();
        let mut end = tokens[close + 2].1;
        let args = match tokens.get(close + 3) {
            Some((TokenTree::Group(g), next)) if g.delimiter() == Delimiter::Parenthesis => {
                end = *next;
                Some(g.clone())
            }
            _ => None,
        };
        // The token after `>>>`: the next one, or the `;` that ends the node.
        let after = tokens[close + 2].1.span();
        Ok((
            Launch {
                config,
                close: close_span,
                args,
                after,
            },
            end,
        ))
    })
}

/// Parses `tokens`, cut out of the input, with `parser`, as if a token at `end` followed them:
/// an error at their end is reported there, not at the macro call (where syn puts the end of
/// a stream parsed on its own).
pub(super) fn parse_detached<T>(
    parser: impl FnOnce(ParseStream) -> syn::Result<T>,
    tokens: TokenStream,
    end: Span,
) -> syn::Result<T> {
    let mut group = Group::new(Delimiter::Parenthesis, tokens);
    group.set_span(end);
    let within = |input: ParseStream| {
        let content;
        parenthesized!(content in input);
        let value = parser(&content)?;
        if !content.is_empty() {
            return Err(content.error("unexpected token"));
        }
        Ok(value)
    };
    within.parse2(TokenStream::from(TokenTree::Group(group)))
}

impl Parse for MemsetOp {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let token = input.parse()?;
        let usage = "a memset is written `memset(dst, value)`";
        if !input.peek(token::Paren) {
            return Err(input.error(usage));
        }
        let content;
        let paren = parenthesized!(content in input);
        let exprs = content.parse_terminated(Expr::parse, Token![,])?;
        if exprs.len() != 2 {
            return Err(syn::Error::new(
                paren.span.join(),
                format!("{usage}: a destination and a value, {} given", exprs.len()),
            ));
        }
        let mut exprs = exprs.into_iter();
        match (exprs.next(), exprs.next()) {
            (Some(dst), Some(value)) => Ok(Self {
                token,
                dst: name_operand(dst),
                value,
            }),
            _ => Err(syn::Error::new(paren.span.join(), usage)),
        }
    }
}

impl Parse for MemcpyOp {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let token = input.parse()?;
        let usage = "a memcpy is written `memcpy(src -> dst)`";
        if !input.peek(token::Paren) {
            return Err(input.error(usage));
        }
        let content;
        let paren = parenthesized!(content in input);
        // Up to the `->` (`-` then `>`, whatever their spacing: see `three_puncts`).
        let (src_tokens, arrow) = content.step(|cursor| {
            let mut rest = *cursor;
            let mut tokens = TokenStream::new();
            while let Some((tt, next)) = rest.token_tree() {
                if let TokenTree::Punct(minus) = &tt {
                    if minus.as_char() == '-' {
                        if let Some((gt, after)) = next.punct() {
                            if gt.as_char() == '>' {
                                let arrow = Token![->]([minus.span(), gt.span()]);
                                return Ok(((tokens, arrow), after));
                            }
                        }
                    }
                }
                tokens.extend(std::iter::once(tt));
                rest = next;
            }
            Err(syn::Error::new(
                paren.span.join(),
                format!("{usage}: expected `->` between the source and the destination"),
            ))
        })?;
        if src_tokens.is_empty() {
            return Err(syn::Error::new(
                arrow.spans[0],
                format!("{usage}: expected the source before `->`"),
            ));
        }
        if content.is_empty() {
            return Err(syn::Error::new(
                arrow.spans[1],
                format!("{usage}: expected the destination after `->`"),
            ));
        }
        let src = name_operand(parse_detached(Expr::parse, src_tokens, arrow.spans[0])?);
        let dst = name_operand(content.parse()?);
        if !content.is_empty() {
            return Err(content.error(format!("{usage}: unexpected tokens after the destination")));
        }
        Ok(Self {
            token,
            src,
            arrow,
            dst,
        })
    }
}

/// A name as an operand, unwrapped from the invisible group a `macro_rules!` fragment arrives in
/// (`$dst:expr` given `y` is a group holding `y`): it names a param as written out does. Other
/// expressions stay as they are.
pub(super) fn name_operand(expr: Expr) -> Expr {
    match expr {
        Expr::Group(group) if matches!(*group.expr, Expr::Path(_) | Expr::Group(_)) => {
            match name_operand(*group.expr) {
                named @ Expr::Path(_) => named,
                other => Expr::Group(syn::ExprGroup {
                    attrs: group.attrs,
                    group_token: group.group_token,
                    expr: Box::new(other),
                }),
            }
        }
        other => other,
    }
}

/// `( expr )` after a keyword: exactly one expression.
pub(super) fn single_argument(input: ParseStream, usage: &str) -> syn::Result<Expr> {
    if !input.peek(token::Paren) {
        return Err(input.error(usage));
    }
    let content;
    let paren = parenthesized!(content in input);
    if content.is_empty() {
        return Err(syn::Error::new(paren.span.join(), usage));
    }
    let expr = content.parse()?;
    if !content.is_empty() {
        return Err(content.error(format!("{usage}: one argument only")));
    }
    Ok(expr)
}

impl Parse for HostOp {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let token = input.parse()?;
        let usage =
            "a host node is written `host(f)`, or `host(f, a, mut b)` with the host buffers \
                     `f` reads (`a`) and writes (`mut b`)";
        if !input.peek(token::Paren) {
            return Err(input.error(usage));
        }
        let content;
        let paren = parenthesized!(content in input);
        if content.is_empty() {
            return Err(syn::Error::new(paren.span.join(), usage));
        }
        let f = content.parse()?;
        let mut buffers = Vec::new();
        while !content.is_empty() {
            content.parse::<Token![,]>()?;
            if content.is_empty() {
                break;
            }
            buffers.push(buffer_arg(&content, usage, "a `HostBuffer` param")?);
        }
        Ok(Self { token, f, buffers })
    }
}

/// `name` or `mut name`: a buffer read or written.
pub(super) fn buffer_arg(input: ParseStream, usage: &str, what: &str) -> syn::Result<BufferArg> {
    let mutability = input.parse()?;
    let name = Ident::parse(input)
        .map_err(|e| syn::Error::new(e.span(), format!("{usage}: expected the name of {what}")))?;
    let index = optional_index(input)?;
    Ok(BufferArg {
        mutability,
        name,
        index,
    })
}

impl Parse for CaptureOp {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let token = input.parse()?;
        let usage = "a capture node is written `capture(work)`, with `work` a `Capture` param, or \
                     `capture(work, [a, mut b])`, declaring the buffer params the work reads \
                     (`a`) and writes (`mut b`)";
        if !input.peek(token::Paren) {
            return Err(input.error(usage));
        }
        let content;
        let paren = parenthesized!(content in input);
        if content.is_empty() {
            return Err(syn::Error::new(paren.span.join(), usage));
        }
        let work = name_operand(content.parse()?);
        let mut uses = None;
        if content.peek(Token![,]) {
            content.parse::<Token![,]>()?;
            if content.peek(token::Bracket) {
                let list;
                bracketed!(list in content);
                let mut buffers = Vec::new();
                while !list.is_empty() {
                    buffers.push(buffer_arg(&list, usage, "a buffer param")?);
                    if list.is_empty() {
                        break;
                    }
                    list.parse::<Token![,]>()?;
                }
                uses = Some(DeclaredUses { buffers });
            } else if !content.is_empty() {
                return Err(content.error(format!(
                    "{usage}: expected the declared uses in brackets, `[a, mut b]` (`[]` for none)"
                )));
            }
        }
        if !content.is_empty() {
            return Err(content.error(format!("{usage}: unexpected tokens after the uses")));
        }
        Ok(Self { token, work, uses })
    }
}

impl Parse for ChildOp {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let token = input.parse()?;
        let graph = name_operand(single_argument(
            input,
            "a child-graph node is written `child(graph_param)`",
        )?);
        Ok(Self { token, graph })
    }
}

impl Parse for AllocOp {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let token: kw::alloc = input.parse()?;
        let usage =
            "an allocation is written `alloc::<T>(len)`: the element type and the number of \
                     elements (a `usize` expression over the params)";
        if !(input.peek(Token![::]) && input.peek3(Token![<])) {
            return Err(syn::Error::new(token.span, usage));
        }
        input.parse::<Token![::]>()?;
        input.parse::<Token![<]>()?;
        let elem: Type = input.parse()?;
        input
            .parse::<Token![>]>()
            .map_err(|e| syn::Error::new(e.span(), usage))?;
        let len = single_argument(input, usage)?;
        Ok(Self { token, elem, len })
    }
}

impl Parse for FreeOp {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let token = input.parse()?;
        let usage =
            "a free node is written `free(allocation)`, naming an alloc node of this graph \
                     (`free(t[i])` for one instance of a repeated one)";
        let expr = name_operand(single_argument(input, usage)?);
        let (base, index) = match expr {
            Expr::Index(index) => (
                *index.expr,
                Some(Index {
                    bracket: index.bracket_token,
                    expr: *index.index,
                }),
            ),
            other => (other, None),
        };
        match &base {
            Expr::Path(p) if p.qself.is_none() => match p.path.get_ident() {
                Some(alloc) => Ok(Self {
                    token,
                    alloc: NodeRef {
                        name: alloc.clone(),
                        index,
                    },
                }),
                None => Err(syn::Error::new_spanned(&base, usage)),
            },
            _ => Err(syn::Error::new_spanned(&base, usage)),
        }
    }
}
