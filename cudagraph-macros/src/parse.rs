//! The syntax of `cuda_graph!`: one `impl Parse` per construct, every token kept for spans.
//!
//! Parsing is lenient inside a graph body: a statement that does not parse becomes
//! [`Item::Invalid`] and parsing goes on at the next `;`, so that one typo does not hide the other
//! errors of the declaration. Run-time control flow (`if`, `for`, ...) is kept as
//! [`Item::ControlFlow`] for the static-topology rule to reject with a useful message.

use proc_macro2::{Delimiter, Span, TokenStream, TokenTree};
use syn::parse::{Parse, ParseStream, Parser};
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{
    braced, bracketed, parenthesized, token, Attribute, Expr, Ident, Token, Type, Visibility,
};

/// The DSL's keywords. They are keywords only where a keyword is expected, so a node or param may
/// still be named `kernel`.
pub mod kw {
    syn::custom_keyword!(graph);
    syn::custom_keyword!(params);
    syn::custom_keyword!(kernel);
    syn::custom_keyword!(memset);
    syn::custom_keyword!(memcpy);
    syn::custom_keyword!(host);
    syn::custom_keyword!(child);
    syn::custom_keyword!(empty);
    syn::custom_keyword!(alloc);
    syn::custom_keyword!(free);
    syn::custom_keyword!(record);
    syn::custom_keyword!(wait);
    syn::custom_keyword!(switch);
    syn::custom_keyword!(capture);
    syn::custom_keyword!(default);
}

/// The whole macro input: one or more graph declarations.
pub struct Input {
    pub graphs: Vec<GraphDecl>,
}

/// `#[attrs] vis graph Name { items }`.
pub struct GraphDecl {
    pub attrs: Vec<Attribute>,
    pub vis: Visibility,
    pub name: Ident,
    pub items: Vec<Item>,
}

/// One statement of a graph body.
pub enum Item {
    Params(ParamsBlock),
    Node(Box<NodeDecl>),
    Edges(EdgeChain),
    /// `if`/`for`/`while`/`loop`/`match` where a node or edge was expected.
    ControlFlow(ControlFlow),
    /// A statement that did not parse, and what it seemed to declare.
    Invalid {
        error: syn::Error,
        declares: Declares,
    },
}

/// What an invalid statement seemed to declare, so that later rules do not report it missing.
pub enum Declares {
    Nothing,
    Node(Ident),
    Params,
}

/// `#[attrs] params { name: Type, ... }`.
pub struct ParamsBlock {
    pub attrs: Vec<Attribute>,
    pub token: kw::params,
    pub fields: Punctuated<ParamField, Token![,]>,
}

/// `#[attrs] name: Type`.
pub struct ParamField {
    pub attrs: Vec<Attribute>,
    pub name: Ident,
    pub ty: Type,
}

/// `#[doc] name: op;`.
pub struct NodeDecl {
    pub attrs: Vec<Attribute>,
    pub name: Ident,
    pub op: NodeOp,
}

/// What a node does.
pub enum NodeOp {
    Kernel(KernelOp),
    Memset(MemsetOp),
    Memcpy(MemcpyOp),
    Host(HostOp),
    Child(ChildOp),
    Empty(kw::empty),
    Alloc(AllocOp),
    Free(FreeOp),
    Record(RecordOp),
    Wait(WaitOp),
    Conditional(CondOp),
    Capture(CaptureOp),
}

/// `capture(work)`: records the `Capture` param `work` into a child graph.
pub struct CaptureOp {
    pub token: kw::capture,
    pub work: Expr,
}

/// A conditional node: `if h { ... }`, `if h { ... } else { ... }`, `while h { ... }` or
/// `switch h { 0 => { ... } 1 => { ... } }`, where `h` names the node's conditional handle
/// (`h(default = v)` to reset it to `v` at each launch). The bodies hold nodes and edges.
pub struct CondOp {
    pub kind: CondKind,
    /// The `if` / `while` / `switch` keyword.
    pub keyword: Span,
    /// The name of the node's conditional handle.
    pub handle: Ident,
    /// The value the handle is reset to at each launch, if any.
    pub default: Option<Expr>,
    pub bodies: Vec<Body>,
}

/// What a conditional node does with its handle's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CondKind {
    If,
    IfElse,
    While,
    Switch,
}

/// One body of a conditional node.
pub struct Body {
    pub items: Vec<Item>,
}

/// `kernel name<<<config>>>(args)`.
pub struct KernelOp {
    pub token: kw::kernel,
    pub kernel: Ident,
    /// The `<<<` tokens.
    pub open: Span,
    pub config: Punctuated<Expr, Token![,]>,
    pub paren: token::Paren,
    pub args: Punctuated<Expr, Token![,]>,
}

/// `memset(dst, value)`.
pub struct MemsetOp {
    pub token: kw::memset,
    pub dst: Expr,
    pub value: Expr,
}

/// `memcpy(src -> dst)`.
pub struct MemcpyOp {
    pub token: kw::memcpy,
    pub src: Expr,
    pub arrow: Token![->],
    pub dst: Expr,
}

/// `host(f)`, or `host(f, a, mut b, ...)` with the host buffers `f` reads (`a`) and writes
/// (`mut b`).
pub struct HostOp {
    pub token: kw::host,
    pub f: Expr,
    pub buffers: Vec<HostBufferArg>,
}

/// A host buffer a host node's closure gets: `name` (read) or `mut name` (written).
pub struct HostBufferArg {
    pub mutability: Option<Token![mut]>,
    pub name: Ident,
}

/// `child(graph)`.
pub struct ChildOp {
    pub token: kw::child,
    pub graph: Expr,
}

/// `alloc::<T>(len)`: a graph allocation of `len` elements of type `T`.
pub struct AllocOp {
    pub token: kw::alloc,
    pub elem: Type,
    pub len: Expr,
}

/// `free(allocation)`: frees the allocation made by the alloc node `allocation`.
pub struct FreeOp {
    pub token: kw::free,
    pub alloc: Ident,
}

/// `record(event)`: records the event param `event` when the node runs.
pub struct RecordOp {
    pub token: kw::record,
    pub event: Expr,
}

/// `wait(event)`: the nodes after this one wait for the last record of the event param `event`.
pub struct WaitOp {
    pub token: kw::wait,
    pub event: Expr,
}

/// `a -> [b, c] -> d;`: terms joined by arrows.
pub struct EdgeChain {
    pub terms: Vec<EdgeTerm>,
    pub arrows: Vec<Token![->]>,
}

/// One end of an arrow: a node name or a bracketed list of them.
pub enum EdgeTerm {
    One(Ident),
    Many(Punctuated<Ident, Token![,]>),
}

impl NodeOp {
    /// The span of the keyword saying what the node is.
    pub fn keyword_span(&self) -> Span {
        match self {
            Self::Kernel(k) => k.token.span,
            Self::Memset(m) => m.token.span,
            Self::Memcpy(m) => m.token.span,
            Self::Host(h) => h.token.span,
            Self::Child(c) => c.token.span,
            Self::Empty(e) => e.span,
            Self::Alloc(a) => a.token.span,
            Self::Free(f) => f.token.span,
            Self::Record(r) => r.token.span,
            Self::Wait(w) => w.token.span,
            Self::Conditional(c) => c.keyword,
            Self::Capture(c) => c.token.span,
        }
    }
}

impl EdgeTerm {
    pub fn names(&self) -> Vec<&Ident> {
        match self {
            Self::One(name) => vec![name],
            Self::Many(names) => names.iter().collect(),
        }
    }
}

/// Control flow at node level: `keyword` is `if`, `for`, `while`, `loop` or `match`.
pub struct ControlFlow {
    pub keyword: &'static str,
    pub span: Span,
}

impl Parse for Input {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        if input.is_empty() {
            return Err(syn::Error::new(
                Span::call_site(),
                "expected a graph declaration: `graph Name { params { ... } node: kernel k<<<grid, block>>>(args); ... }`",
            ));
        }
        let mut graphs = Vec::new();
        while !input.is_empty() {
            graphs.push(input.parse()?);
        }
        Ok(Self { graphs })
    }
}

impl Parse for GraphDecl {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let attrs = input.call(Attribute::parse_outer)?;
        let vis: Visibility = input.parse()?;
        if !input.peek(kw::graph) {
            return Err(input.error("expected `graph Name { ... }`"));
        }
        input.parse::<kw::graph>()?;
        let name: Ident = input
            .parse()
            .map_err(|e| syn::Error::new(e.span(), "expected the graph's name after `graph`"))?;
        if input.peek(Token![<]) {
            return Err(input.error(
                "a graph declaration cannot be generic: its node types are fixed by its params",
            ));
        }
        if !input.peek(token::Brace) {
            return Err(input.error(format!("expected `{{` after `graph {name}`")));
        }
        let body;
        braced!(body in input);
        let mut items = Vec::new();
        while !body.is_empty() {
            items.push(parse_item(&body));
        }
        Ok(Self {
            attrs,
            vis,
            name,
            items,
        })
    }
}

/// One item of a graph body; never fails: what does not parse becomes [`Item::Invalid`], and
/// the stream always advances.
fn parse_item(input: ParseStream) -> Item {
    if let Some(flow) = control_flow(input) {
        return Item::ControlFlow(flow);
    }
    if starts_conditional_node(input) {
        let declares = take_conditional_node(input);
        let name = declared_name(&declares).map_or(Declares::Nothing, Declares::Node);
        return match Parser::parse2(parse_conditional_node, declares) {
            Ok(item) => item,
            Err(error) => Item::Invalid {
                error,
                declares: name,
            },
        };
    }
    if starts_params_block(input) {
        // Parsed from its own tokens: an error inside must not leave the body half-read.
        let parsed =
            take_params_block(input).and_then(|tokens| Parser::parse2(ParamsBlock::parse, tokens));
        return match parsed {
            Ok(block) => Item::Params(block),
            Err(error) => Item::Invalid {
                error,
                declares: Declares::Params,
            },
        };
    }
    let (tokens, semi) = match take_statement(input) {
        Ok(taken) => taken,
        Err(error) => {
            return Item::Invalid {
                error,
                declares: Declares::Nothing,
            }
        }
    };
    let declares = declared_name(&tokens).map_or(Declares::Nothing, Declares::Node);
    let Some(semi) = semi else {
        let last = tokens
            .clone()
            .into_iter()
            .last()
            .map_or_else(Span::call_site, |t| t.span());
        let error = syn::Error::new(last, "expected `;` after this statement");
        return Item::Invalid { error, declares };
    };
    let mut stmt = tokens;
    stmt.extend(std::iter::once(TokenTree::Punct(semi)));
    match Parser::parse2(parse_statement, stmt) {
        Ok(item) => item,
        Err(error) => Item::Invalid { error, declares },
    }
}

/// `name: if` / `name: while` / `name: switch` (after optional attributes)?
fn starts_conditional_node(input: ParseStream) -> bool {
    let fork = input.fork();
    fork.call(Attribute::parse_outer).is_ok()
        && fork.parse::<Ident>().is_ok()
        && fork.peek(Token![:])
        && !fork.peek(Token![::])
        && fork.parse::<Token![:]>().is_ok()
        && (fork.peek(Token![if]) || fork.peek(Token![while]) || fork.peek(kw::switch))
}

/// The tokens of a conditional node: up to its first braced block, then `else` and its block if
/// there is one, then the `;` if written (optional after a block).
fn take_conditional_node(input: ParseStream) -> TokenStream {
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
fn parse_conditional_node(input: ParseStream) -> syn::Result<Item> {
    let attrs = input.call(Attribute::parse_outer)?;
    let name: Ident = input.parse()?;
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
    let default = if input.peek(token::Paren) {
        let content;
        parenthesized!(content in input);
        content.parse::<kw::default>().map_err(|e| {
            syn::Error::new(
                e.span(),
                "expected `default = value`: the value the handle is reset to at each launch",
            )
        })?;
        content.parse::<Token![=]>()?;
        let value: Expr = content.parse()?;
        if !content.is_empty() {
            return Err(content.error("expected `)` after the default value"));
        }
        Some(value)
    } else {
        None
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
        op: NodeOp::Conditional(CondOp {
            kind,
            keyword,
            handle,
            default,
            bodies,
        }),
    })))
}

/// `{ items }`: a conditional node's body.
fn parse_body(input: ParseStream) -> syn::Result<Body> {
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

/// `params {` (after optional attributes)?
fn starts_params_block(input: ParseStream) -> bool {
    let fork = input.fork();
    fork.call(Attribute::parse_outer).is_ok() && fork.peek(kw::params) && fork.peek2(token::Brace)
}

/// The tokens of a params block: its attributes, `params` and the braced group.
fn take_params_block(input: ParseStream) -> syn::Result<TokenStream> {
    input.step(|cursor| {
        let mut rest = *cursor;
        let mut tokens = TokenStream::new();
        while let Some((tt, next)) = rest.token_tree() {
            rest = next;
            let done = matches!(&tt, TokenTree::Group(g) if g.delimiter() == Delimiter::Brace);
            tokens.extend(std::iter::once(tt));
            if done {
                break;
            }
        }
        Ok((tokens, rest))
    })
}

/// Run-time control flow where a statement was expected: consumes it (up to its last block, and
/// any `else` branches) and says which keyword it was.
fn control_flow(input: ParseStream) -> Option<ControlFlow> {
    let keyword = if input.peek(Token![if]) {
        "if"
    } else if input.peek(Token![for]) {
        "for"
    } else if input.peek(Token![while]) {
        "while"
    } else if input.peek(Token![loop]) {
        "loop"
    } else if input.peek(Token![match]) {
        "match"
    } else {
        return None;
    };
    let span = input.span();
    let _ = input.step(|cursor| {
        let mut rest = *cursor;
        // Up to and including the first top-level block, then `else` / `else if` chains.
        loop {
            match rest.token_tree() {
                Some((TokenTree::Group(g), next)) if g.delimiter() == Delimiter::Brace => {
                    rest = next;
                    match rest.ident() {
                        Some((ident, next)) if ident == "else" => rest = next,
                        _ => break,
                    }
                }
                Some((TokenTree::Punct(p), next)) if p.as_char() == ';' => {
                    rest = next;
                    break;
                }
                Some((_, next)) => rest = next,
                None => break,
            }
        }
        if let Some((p, next)) = rest.punct() {
            if p.as_char() == ';' {
                rest = next;
            }
        }
        Ok(((), rest))
    });
    Some(ControlFlow { keyword, span })
}

/// The tokens up to the next top-level `;` (excluded), and that `;` if there is one.
fn take_statement(input: ParseStream) -> syn::Result<(TokenStream, Option<proc_macro2::Punct>)> {
    input.step(|cursor| {
        let mut rest = *cursor;
        let mut tokens = TokenStream::new();
        while let Some((tt, next)) = rest.token_tree() {
            rest = next;
            if let TokenTree::Punct(p) = &tt {
                if p.as_char() == ';' {
                    return Ok(((tokens, Some(p.clone())), rest));
                }
            }
            tokens.extend(std::iter::once(tt));
        }
        Ok(((tokens, None), rest))
    })
}

/// The node a statement declares (`name :` after attributes), to keep it known when the rest of
/// the statement is invalid.
fn declared_name(tokens: &TokenStream) -> Option<Ident> {
    let parser = |input: ParseStream| {
        input.call(Attribute::parse_outer)?;
        let name: Ident = input.parse()?;
        if input.peek(Token![:]) && !input.peek(Token![::]) {
            let _: TokenStream = input.parse()?;
            Ok(name)
        } else {
            Err(input.error("not a node declaration"))
        }
    };
    parser.parse2(tokens.clone()).ok()
}

fn parse_statement(input: ParseStream) -> syn::Result<Item> {
    let attrs = input.call(Attribute::parse_outer)?;
    if input.peek(Ident) && input.peek2(Token![:]) && !input.peek2(Token![::]) {
        let name: Ident = input.parse()?;
        input.parse::<Token![:]>()?;
        let op = input.parse()?;
        input.parse::<Token![;]>()?;
        return Ok(Item::Node(Box::new(NodeDecl { attrs, name, op })));
    }
    if input.peek(Ident) || input.peek(token::Bracket) {
        if let Some(attr) = attrs.first() {
            return Err(syn::Error::new(
                attr.span(),
                "attributes are not allowed on edges",
            ));
        }
        let chain = input.parse()?;
        input.parse::<Token![;]>()?;
        return Ok(Item::Edges(chain));
    }
    Err(input.error(
        "expected a node (`name: kernel k<<<grid, block>>>(args);`), an edge (`a -> b;`) or `params { ... }`",
    ))
}

impl Parse for ParamsBlock {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let attrs = input.call(Attribute::parse_outer)?;
        let token = input.parse()?;
        let content;
        braced!(content in input);
        let fields = content.parse_terminated(ParamField::parse, Token![,])?;
        Ok(Self {
            attrs,
            token,
            fields,
        })
    }
}

impl Parse for ParamField {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let attrs = input.call(Attribute::parse_outer)?;
        if input.peek(Token![pub]) {
            return Err(input.error("param fields are always `pub`: remove the visibility"));
        }
        let name: Ident = input
            .parse()
            .map_err(|e| syn::Error::new(e.span(), "expected a param: `name: Type`"))?;
        input.parse::<Token![:]>().map_err(|e| {
            syn::Error::new(
                e.span(),
                format!("expected `:` and the type of param `{name}`"),
            )
        })?;
        let ty = input.parse()?;
        Ok(Self { attrs, name, ty })
    }
}

impl Parse for NodeOp {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let lookahead = input.lookahead1();
        if lookahead.peek(kw::kernel) {
            input.parse().map(Self::Kernel)
        } else if lookahead.peek(kw::memset) {
            input.parse().map(Self::Memset)
        } else if lookahead.peek(kw::memcpy) {
            input.parse().map(Self::Memcpy)
        } else if lookahead.peek(kw::host) {
            input.parse().map(Self::Host)
        } else if lookahead.peek(kw::child) {
            input.parse().map(Self::Child)
        } else if lookahead.peek(kw::empty) {
            let token = input.parse()?;
            if input.peek(token::Paren) {
                return Err(input.error("an empty node takes no arguments: write `name: empty;`"));
            }
            Ok(Self::Empty(token))
        } else if lookahead.peek(kw::alloc) {
            input.parse().map(Self::Alloc)
        } else if lookahead.peek(kw::free) {
            input.parse().map(Self::Free)
        } else if lookahead.peek(kw::record) {
            let token = input.parse()?;
            let event = single_argument(input, "an event record node is written `record(event)`")?;
            Ok(Self::Record(RecordOp { token, event }))
        } else if lookahead.peek(kw::capture) {
            let token = input.parse()?;
            let work = single_argument(
                input,
                "a capture node is written `capture(work)`, with `work` a `Capture` param",
            )?;
            Ok(Self::Capture(CaptureOp { token, work }))
        } else if lookahead.peek(kw::wait) {
            let token = input.parse()?;
            let event = single_argument(input, "an event wait node is written `wait(event)`")?;
            Ok(Self::Wait(WaitOp { token, event }))
        } else if input.peek(Ident) && input.fork().parse::<Ident>().is_ok_and(|i| i == "launch") {
            Err(input.error("a kernel node is written `name: kernel k<<<grid, block>>>(args);`"))
        } else {
            Err(lookahead.error())
        }
    }
}

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
        if !(input.peek(Token![<<]) && input.peek3(Token![<])) {
            return Err(input.error(format!(
                "expected `<<<grid, block>>>` after `kernel {kernel}`, then the arguments in parentheses"
            )));
        }
        input.parse::<Token![<<]>()?;
        input.parse::<Token![<]>()?;
        let tokens = take_launch_config(input, open)?;
        let config = Punctuated::parse_terminated.parse2(tokens)?;
        if !input.peek(token::Paren) {
            return Err(input.error(format!(
                "expected the arguments of `{kernel}` in parentheses after `>>>`: `(a, b, ...)`"
            )));
        }
        let content;
        let paren = parenthesized!(content in input);
        let args = content.parse_terminated(Expr::parse, Token![,])?;
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

/// The tokens between `<<<` (already consumed) and the next `>>>` (consumed).
fn take_launch_config(input: ParseStream, open: Span) -> syn::Result<TokenStream> {
    input.step(|cursor| {
        let mut rest = *cursor;
        let mut tokens = TokenStream::new();
        loop {
            if let Some(after) = triple_gt(rest) {
                return Ok((tokens, after));
            }
            match rest.token_tree() {
                Some((tt, next)) => {
                    tokens.extend(std::iter::once(tt));
                    rest = next;
                }
                None => {
                    return Err(syn::Error::new(
                        open,
                        "expected `>>>` to close this launch configuration",
                    ))
                }
            }
        }
    })
}

/// The cursor after `>>>` if it starts here.
fn triple_gt(cursor: syn::buffer::Cursor) -> Option<syn::buffer::Cursor> {
    let (a, rest) = cursor.punct()?;
    let (b, rest) = rest.punct()?;
    let (c, rest) = rest.punct()?;
    let joint = proc_macro2::Spacing::Joint;
    let all_gt = a.as_char() == '>' && b.as_char() == '>' && c.as_char() == '>';
    (all_gt && a.spacing() == joint && b.spacing() == joint).then_some(rest)
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
            (Some(dst), Some(value)) => Ok(Self { token, dst, value }),
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
        let src_tokens = content.step(|cursor| {
            let mut rest = *cursor;
            let mut tokens = TokenStream::new();
            while let Some((tt, next)) = rest.token_tree() {
                if let TokenTree::Punct(p) = &tt {
                    if p.as_char() == '-' && p.spacing() == proc_macro2::Spacing::Joint {
                        if let Some((gt, _)) = next.punct() {
                            if gt.as_char() == '>' {
                                return Ok((tokens, rest));
                            }
                        }
                    }
                }
                tokens.extend(std::iter::once(tt));
                rest = next;
            }
            Err(syn::Error::new(
                paren.span.join(),
                format!("{usage}: expected `->`"),
            ))
        })?;
        let src = Expr::parse.parse2(src_tokens)?;
        let arrow = content.parse()?;
        let dst = content.parse()?;
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

/// `( expr )` after a keyword: exactly one expression.
fn single_argument(input: ParseStream, usage: &str) -> syn::Result<Expr> {
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
            let mutability = content.parse()?;
            let name = Ident::parse(&content).map_err(|e| {
                syn::Error::new(
                    e.span(),
                    format!("{usage}: expected the name of a `HostBuffer` param"),
                )
            })?;
            buffers.push(HostBufferArg { mutability, name });
        }
        Ok(Self { token, f, buffers })
    }
}

impl Parse for ChildOp {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let token = input.parse()?;
        let graph = single_argument(input, "a child-graph node is written `child(graph_param)`")?;
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
        let usage = "a free node is written `free(allocation)`, naming an alloc node of this graph";
        let expr = single_argument(input, usage)?;
        match &expr {
            Expr::Path(p) if p.qself.is_none() => match p.path.get_ident() {
                Some(alloc) => Ok(Self {
                    token,
                    alloc: alloc.clone(),
                }),
                None => Err(syn::Error::new_spanned(&expr, usage)),
            },
            _ => Err(syn::Error::new_spanned(&expr, usage)),
        }
    }
}

impl Parse for EdgeChain {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let mut terms = vec![input.parse()?];
        let mut arrows = Vec::new();
        while input.peek(Token![->]) {
            arrows.push(input.parse()?);
            terms.push(input.parse()?);
        }
        if arrows.is_empty() {
            return Err(input.error(
                "expected `->`: an edge is written `a -> b;` (a node declaration is `name: kind(...);`)",
            ));
        }
        Ok(Self { terms, arrows })
    }
}

impl Parse for EdgeTerm {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        if input.peek(token::Bracket) {
            let content;
            let bracket = bracketed!(content in input);
            let name = |input: ParseStream| {
                Ident::parse(input).map_err(|e| syn::Error::new(e.span(), "expected a node name"))
            };
            let names: Punctuated<Ident, Token![,]> = content.parse_terminated(name, Token![,])?;
            if names.is_empty() {
                return Err(syn::Error::new(
                    bracket.span.join(),
                    "expected node names in the brackets: `[a, b]`",
                ));
            }
            Ok(Self::Many(names))
        } else {
            Ident::parse(input).map(Self::One).map_err(|e| {
                syn::Error::new(e.span(), "expected a node name or a list of them: `[a, b]`")
            })
        }
    }
}
