//! The syntax of `cuda_graph!`: one `impl Parse` per construct, every token kept for spans.
//!
//! Parsing is lenient inside a graph body: a statement that does not parse becomes
//! [`Item::Invalid`] and parsing goes on at the next `;`, so that one typo does not hide the other
//! errors of the declaration. Run-time control flow (`if`, `while`, ...) is kept as
//! [`Item::ControlFlow`] for the static-topology rule to reject with a useful message; a `for`
//! loop is a repetition ([`Repeat`]), whose count the model evaluates.

use proc_macro2::{Delimiter, Group, Span, TokenStream, TokenTree};
use syn::ext::IdentExt;
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
    syn::custom_keyword!(signal);
    syn::custom_keyword!(switch);
    syn::custom_keyword!(capture);
    syn::custom_keyword!(default);
    syn::custom_keyword!(all_reduce);
    syn::custom_keyword!(all_gather);
    syn::custom_keyword!(reduce_scatter);
    syn::custom_keyword!(broadcast);
    syn::custom_keyword!(send);
    syn::custom_keyword!(recv);
    syn::custom_keyword!(send_recv);
}

mod collective;
mod semaphore;

use collective::{collective, collective_kind};
pub use collective::{CollectiveKind, CollectiveOp};
use semaphore::semaphore_form;
pub use semaphore::SemaphoreOp;

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
    /// `const NAME: usize = value;`: a count or index the macro evaluates, emitted as written.
    Const(Box<syn::ItemConst>),
    /// `for var in start..end { ... }`: nodes and edges repeated a fixed number of times.
    Repeat(Box<Repeat>),
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

/// `#[doc] name: op;`, or `name[var]: op;` in a `for` loop.
pub struct NodeDecl {
    pub attrs: Vec<Attribute>,
    pub name: Ident,
    /// `[var]` after the name: the node is repeated by the loop of variable `var`.
    pub index: Option<Index>,
    pub op: NodeOp,
}

/// `[index]` after a name: one instance of a repeated node, or one element of an array param.
/// The index is an expression the macro evaluates (integer literals, the loop variable and the
/// graph's consts, with `+ - * / %`).
pub struct Index {
    pub bracket: token::Bracket,
    pub expr: Expr,
}

/// A node as edges and free nodes name it: `name`, or `name[index]` for one instance of a
/// repeated node.
pub struct NodeRef {
    pub name: Ident,
    pub index: Option<Index>,
}

/// `for var in start..end { items }`: the nodes and edges of `items` repeated for each value of
/// `var`. The range is kept as written; the model checks that the macro can evaluate it.
pub struct Repeat {
    pub attrs: Vec<Attribute>,
    pub for_token: Token![for],
    /// `var in range`, or why it did not parse (the body is read either way, so that its nodes
    /// stay known).
    pub header: Result<RepeatHeader, syn::Error>,
    pub items: Vec<Item>,
}

/// `var in start..end` of a `for` loop.
pub struct RepeatHeader {
    pub var: Ident,
    pub range: Expr,
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
    SemaphoreSignal(SemaphoreOp),
    SemaphoreWait(SemaphoreOp),
    Collective(CollectiveOp),
}

/// `capture(work)` or `capture(work, [a, mut b])`: records the `Capture` param `work` into a
/// child graph; the list, when written, declares the buffer params the recorded work reads (`a`)
/// and writes (`mut b`).
pub struct CaptureOp {
    pub token: kw::capture,
    pub work: Expr,
    /// The declared uses: `None` when not written (the work may use any memory).
    pub uses: Option<DeclaredUses>,
}

/// `[a, mut b]`: buffer params some work reads (`a`) and writes (`mut b`).
pub struct DeclaredUses {
    pub buffers: Vec<BufferArg>,
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
    pub buffers: Vec<BufferArg>,
}

/// A buffer a node reads (`name`) or writes (`mut name`): a host node's closure gets it, a
/// capture node's work uses it.
pub struct BufferArg {
    pub mutability: Option<Token![mut]>,
    pub name: Ident,
    /// `[i]`: one element of an array param.
    pub index: Option<Index>,
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

/// `free(allocation)`: frees the allocation made by the alloc node `allocation` (or by one
/// instance of a repeated one, `free(t[i])`).
pub struct FreeOp {
    pub token: kw::free,
    pub alloc: NodeRef,
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
    /// Per arrow, its `(programmatic)` or `(launch_order)` when written (`a ->(programmatic) b`).
    pub data: Vec<Option<EdgeData>>,
}

/// What an edge carries, written in parentheses after its arrow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EdgeKind {
    /// `a -> b`: the consumer starts after the producer completes.
    Plain,
    /// `a ->(programmatic) b`: the consumer kernel may launch once the producer kernel triggers
    /// (`griddepcontrol.launch_dependents`) or completes.
    Programmatic,
    /// `a ->(launch_order) b`: the consumer kernel may launch once the producer kernel has begun.
    LaunchOrder,
}

impl EdgeKind {
    /// How the declaration writes it.
    pub fn keyword(self) -> &'static str {
        match self {
            EdgeKind::Plain => "",
            EdgeKind::Programmatic => "programmatic",
            EdgeKind::LaunchOrder => "launch_order",
        }
    }
}

/// `(programmatic)` or `(launch_order)` after an arrow.
pub struct EdgeData {
    pub ident: Ident,
    pub kind: EdgeKind,
}

/// One end of an arrow: a node or a bracketed list of them.
pub enum EdgeTerm {
    One(NodeRef),
    Many(Punctuated<NodeRef, Token![,]>),
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
            Self::SemaphoreSignal(s) | Self::SemaphoreWait(s) => s.keyword,
            Self::Collective(c) => c.token.span(),
        }
    }
}

impl EdgeTerm {
    pub fn names(&self) -> Vec<&NodeRef> {
        match self {
            Self::One(name) => vec![name],
            Self::Many(names) => names.iter().collect(),
        }
    }
}

/// Rust statements at node level: `keyword` is `if`, `for`, `while`, `loop` or `match` (control
/// flow), `block` (`{ ... }`, `unsafe { ... }`), `let` or `macro` (a macro call).
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
    if starts_repetition(input) {
        return take_repetition(input);
    }
    if let Some(flow) = control_flow(input) {
        return Item::ControlFlow(flow);
    }
    if starts_conditional_node(input) {
        let declares = take_conditional_node(input);
        let name = declared_name(&declares).map_or(Declares::Nothing, Declares::Node);
        let end = last_span(&declares);
        return match parse_detached(parse_conditional_node, declares, end) {
            Ok(item) => item,
            Err(error) => Item::Invalid {
                error,
                declares: name,
            },
        };
    }
    if starts_params_block(input) {
        // Parsed from its own tokens: an error inside must not leave the body half-read.
        let parsed = take_params_block(input).and_then(|tokens| {
            let end = last_span(&tokens);
            parse_detached(ParamsBlock::parse, tokens, end)
        });
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
    if starts_const(&tokens) {
        let Some(semi) = semi else {
            let error = syn::Error::new(last_span(&tokens), "expected `;` after this const");
            return Item::Invalid { error, declares };
        };
        let mut stmt = tokens;
        let end = semi.span();
        stmt.extend(std::iter::once(TokenTree::Punct(semi)));
        return match parse_detached(parse_const, stmt, end) {
            Ok(item) => Item::Const(Box::new(item)),
            Err(error) => Item::Invalid {
                error,
                declares: Declares::Nothing,
            },
        };
    }
    let Some(semi) = semi else {
        let error = syn::Error::new(last_span(&tokens), "expected `;` after this statement");
        return Item::Invalid { error, declares };
    };
    let mut stmt = tokens;
    let end = semi.span();
    stmt.extend(std::iter::once(TokenTree::Punct(semi)));
    match parse_detached(parse_statement, stmt, end) {
        Ok(item) => item,
        Err(error) => Item::Invalid { error, declares },
    }
}

/// The span of the last token of `tokens` (the macro call's for none).
fn last_span(tokens: &TokenStream) -> Span {
    tokens
        .clone()
        .into_iter()
        .last()
        .map_or_else(Span::call_site, |t| t.span())
}

/// `name: if` / `name: while` / `name: switch` (after optional attributes)?
fn starts_conditional_node(input: ParseStream) -> bool {
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
        index,
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

/// `for` (after optional attributes): a repetition, unless a label comes first (run-time
/// control flow, which the static-topology rule reports).
fn starts_repetition(input: ParseStream) -> bool {
    let fork = input.fork();
    fork.call(Attribute::parse_outer).is_ok() && fork.peek(Token![for])
}

/// A `for` loop: its header up to the braced body, the body's items, and a `;` if one follows.
/// Never fails: a header that does not parse is kept as the loop's error, and the body is read
/// all the same.
fn take_repetition(input: ParseStream) -> Item {
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
fn starts_const(tokens: &TokenStream) -> bool {
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
fn parse_const(input: ParseStream) -> syn::Result<syn::ItemConst> {
    input.parse::<syn::ItemConst>().map_err(|e| {
        syn::Error::new(
            e.span(),
            format!("{e}: a graph's const is written `const LAYERS: usize = 32;`"),
        )
    })
}

/// `name:` or `name[index]:` (not `name::`): a node declaration starts here.
fn starts_node(input: ParseStream) -> bool {
    if !input.peek(Ident) {
        return false;
    }
    if input.peek2(Token![:]) && !input.peek2(Token![::]) {
        return true;
    }
    let fork = input.fork();
    fork.parse::<Ident>().is_ok()
        && fork.peek(token::Bracket)
        && fork.parse::<Group>().is_ok()
        && fork.peek(Token![:])
        && !fork.peek(Token![::])
}

/// `[index]`, if the next token is a bracketed group.
fn optional_index(input: ParseStream) -> syn::Result<Option<Index>> {
    if input.peek(token::Bracket) {
        input.parse().map(Some)
    } else {
        Ok(None)
    }
}

impl Parse for Index {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let content;
        let bracket = bracketed!(content in input);
        let usage =
            "expected an index in the brackets: `name[layer]`, `name[layer + 1]`, `name[0]`";
        if content.is_empty() {
            return Err(syn::Error::new(bracket.span.join(), usage));
        }
        let expr = content
            .parse()
            .map_err(|e| syn::Error::new(e.span(), usage))?;
        if !content.is_empty() {
            return Err(content.error(usage));
        }
        Ok(Self { bracket, expr })
    }
}

/// `name` or `name[index]`; `expected` is the error when no name comes.
fn node_ref(input: ParseStream, expected: &str) -> syn::Result<NodeRef> {
    let name = Ident::parse(input).map_err(|e| syn::Error::new(e.span(), expected))?;
    let index = optional_index(input)?;
    Ok(NodeRef { name, index })
}

impl NodeRef {
    /// The tokens as written, for errors covering them.
    pub fn tokens(&self) -> TokenStream {
        indexed(&self.name, self.index.as_ref())
    }
}

/// `name` or `name[index]`, as tokens.
pub fn indexed(name: &Ident, index: Option<&Index>) -> TokenStream {
    match index {
        Some(index) => {
            let mut group = Group::new(
                Delimiter::Bracket,
                quote::ToTokens::to_token_stream(&index.expr),
            );
            group.set_span(index.bracket.span.join());
            quote::quote!(#name #group)
        }
        None => quote::quote!(#name),
    }
}

impl std::fmt::Display for NodeRef {
    /// As written: `attn[layer + 1]`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&crate::text::pretty_expr(self.tokens()))
    }
}

/// Run-time control flow (or another Rust statement that is not a node) where a node was
/// expected: consumes it (up to its last block, and any `else` branches, or to its `;`) and
/// says what it was. Attributes and doc comments before it, and a loop's label, are part of it.
fn control_flow(input: ParseStream) -> Option<ControlFlow> {
    let fork = input.fork();
    if fork.call(Attribute::parse_outer).is_err() {
        return None;
    }
    if fork.peek(syn::Lifetime) && fork.peek2(Token![:]) && !fork.peek2(Token![::]) {
        let _ = fork.parse::<syn::Lifetime>();
        let _ = fork.parse::<Token![:]>();
    }
    let span = fork.span();
    let keyword = if fork.peek(Token![if]) {
        "if"
    } else if fork.peek(Token![for]) {
        "for"
    } else if fork.peek(Token![while]) {
        "while"
    } else if fork.peek(Token![loop]) {
        "loop"
    } else if fork.peek(Token![match]) {
        "match"
    } else if fork.peek(token::Brace) || (fork.peek(Token![unsafe]) && fork.peek2(token::Brace)) {
        "block"
    } else if fork.peek(Token![let]) {
        "let"
    } else if fork.peek(Ident) && fork.peek2(Token![!]) && !fork.peek2(Token![!=]) {
        "macro"
    } else {
        return None;
    };
    // Statements that end at their `;`; blocks and control flow at their last block.
    let to_semicolon = keyword == "let";
    let _ = input.step(|cursor| {
        let mut rest = *cursor;
        loop {
            match rest.token_tree() {
                Some((TokenTree::Group(g), next))
                    if g.delimiter() == Delimiter::Brace && !to_semicolon =>
                {
                    rest = next;
                    match rest.ident() {
                        Some((ident, next)) if ident == "else" => rest = next,
                        _ => break,
                    }
                }
                Some((TokenTree::Punct(p), next)) if p.as_char() == ';' => {
                    rest = next;
                    return Ok(((), rest));
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
        if input.peek(token::Bracket) {
            input.parse::<Group>()?;
        }
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
    if starts_node(input) {
        let name: Ident = input.parse()?;
        let index = optional_index(input)?;
        input.parse::<Token![:]>()?;
        let op = input.parse()?;
        input.parse::<Token![;]>()?;
        return Ok(Item::Node(Box::new(NodeDecl {
            attrs,
            name,
            index,
            op,
        })));
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
            let event = name_operand(single_argument(
                input,
                "an event record node is written `record(event)`",
            )?);
            Ok(Self::Record(RecordOp { token, event }))
        } else if lookahead.peek(kw::capture) {
            input.parse().map(Self::Capture)
        } else if lookahead.peek(kw::signal) {
            let token: kw::signal = input.parse()?;
            SemaphoreOp::parse(input, token.span, "signal").map(Self::SemaphoreSignal)
        } else if let Some(kind) = collective_kind(&lookahead) {
            collective(input, kind).map(Self::Collective)
        } else if lookahead.peek(kw::wait) {
            let token: kw::wait = input.parse()?;
            // `wait(sem = value)` waits for a semaphore, `wait(event)` for an event.
            if semaphore_form(input) {
                return SemaphoreOp::parse(input, token.span, "wait").map(Self::SemaphoreWait);
            }
            let event = name_operand(single_argument(
                input,
                "an event wait node is written `wait(event)`; a semaphore wait node \
                 `wait(sem = value)`",
            )?);
            Ok(Self::Wait(WaitOp { token, event }))
        } else if input.peek(Ident) && input.fork().parse::<Ident>().is_ok_and(|i| i == "launch") {
            Err(input.error("a kernel node is written `name: kernel k<<<grid, block>>>(args);`"))
        } else {
            Err(unknown_kind(input))
        }
    }
}

/// The error for a node whose kind is not one of the DSL's, with a "did you mean" when the word
/// written is close to one.
fn unknown_kind(input: ParseStream) -> syn::Error {
    let written = input
        .fork()
        .call(Ident::parse_any)
        .ok()
        .map(|i| i.to_string());
    let hint = written
        .as_deref()
        .and_then(|w| crate::text::suggest(w, crate::kinds::keywords()))
        .map(|k| format!(": did you mean `{k}`?"))
        .unwrap_or_default();
    input.error(format!(
        "expected a node kind: {}{hint}",
        crate::kinds::listed()
    ))
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
struct Launch {
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
fn three_puncts(cursor: syn::buffer::Cursor, c: char) -> bool {
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
fn take_launch(input: ParseStream, open: Span) -> syn::Result<Launch> {
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
fn parse_detached<T>(
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
fn name_operand(expr: Expr) -> Expr {
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
            buffers.push(buffer_arg(&content, usage, "a `HostBuffer` param")?);
        }
        Ok(Self { token, f, buffers })
    }
}

/// `name` or `mut name`: a buffer read or written.
fn buffer_arg(input: ParseStream, usage: &str, what: &str) -> syn::Result<BufferArg> {
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

impl Parse for EdgeChain {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let mut terms = vec![input.parse()?];
        let mut arrows = Vec::new();
        let mut data = Vec::new();
        while input.peek(Token![->]) {
            arrows.push(input.parse()?);
            data.push(if input.peek(token::Paren) {
                Some(input.parse()?)
            } else {
                None
            });
            terms.push(input.parse()?);
        }
        if arrows.is_empty() {
            return Err(input.error(
                "expected `->`: an edge is written `a -> b;` (a node declaration is `name: kind(...);`)",
            ));
        }
        Ok(Self {
            terms,
            arrows,
            data,
        })
    }
}

impl Parse for EdgeData {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let content;
        let paren = parenthesized!(content in input);
        let usage = "expected `programmatic` or `launch_order` in the parentheses after an arrow: \
                     `a ->(programmatic) b;` lets kernel `b` launch once kernel `a` triggers it, \
                     `a ->(launch_order) b;` once `a` has begun";
        let ident: Ident = content
            .parse()
            .map_err(|_| syn::Error::new(paren.span.join(), usage))?;
        let kind = match ident.to_string().as_str() {
            "programmatic" => EdgeKind::Programmatic,
            "launch_order" => EdgeKind::LaunchOrder,
            _ => return Err(syn::Error::new(ident.span(), usage)),
        };
        if !content.is_empty() {
            return Err(content.error(usage));
        }
        Ok(Self { ident, kind })
    }
}

impl Parse for EdgeTerm {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        if input.peek(token::Bracket) {
            let content;
            let bracket = bracketed!(content in input);
            let name = |input: ParseStream| node_ref(input, "expected a node name");
            let names: Punctuated<NodeRef, Token![,]> =
                content.parse_terminated(name, Token![,])?;
            if names.is_empty() {
                return Err(syn::Error::new(
                    bracket.span.join(),
                    "expected node names in the brackets: `[a, b]`",
                ));
            }
            Ok(Self::Many(names))
        } else {
            node_ref(input, "expected a node name or a list of them: `[a, b]`").map(Self::One)
        }
    }
}

impl NodeOp {
    /// The node's kind: its row of [`KINDS`](crate::kinds::KINDS).
    pub fn kind(&self) -> &'static crate::kinds::Kind {
        let row = match self {
            Self::Kernel(_) => 0,
            Self::Memset(_) => 1,
            Self::Memcpy(_) => 2,
            Self::Host(_) => 3,
            Self::Child(_) => 4,
            Self::Empty(_) => 5,
            Self::Alloc(_) => 6,
            Self::Free(_) => 7,
            Self::Record(_) => 8,
            Self::Wait(_) => 9,
            Self::Capture(_) => 10,
            Self::SemaphoreSignal(_) => 11,
            Self::SemaphoreWait(_) => 12,
            Self::Collective(_) => 13,
            Self::Conditional(_) => 14,
        };
        &crate::kinds::KINDS[row]
    }
}
