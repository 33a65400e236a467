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
    syn::custom_keyword!(unroll);
    syn::custom_keyword!(all_reduce);
    syn::custom_keyword!(all_gather);
    syn::custom_keyword!(reduce_scatter);
    syn::custom_keyword!(broadcast);
    syn::custom_keyword!(send);
    syn::custom_keyword!(recv);
    syn::custom_keyword!(send_recv);
}

mod collective;
mod conditional;
mod ops;
mod repeat;
mod semaphore;

use conditional::*;
use ops::*;
use repeat::*;

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
    /// `unroll = k`: for a `while` node, `k` copies of the body per pass of the loop.
    pub unroll: Option<Unroll>,
    pub bodies: Vec<Body>,
}

/// `unroll = k` after a `while` node's handle: the body runs `k` times per pass of the loop,
/// its check once (see `model::unroll`).
pub struct Unroll {
    /// The `unroll` keyword.
    pub key: kw::unroll,
    /// The count as written (a value the macro evaluates, `check::unroll`).
    pub count: Expr,
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
