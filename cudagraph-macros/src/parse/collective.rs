//! The syntax of NCCL collective nodes: `all_reduce(comm, buf, Sum)` and its kin.

use super::*;

/// An NCCL collective over a `Communicator` param: `all_reduce(comm, buf, Sum)` (in place) or
/// `all_reduce(comm, src -> dst, Sum)`, `all_gather(comm, src -> dst)`,
/// `reduce_scatter(comm, src -> dst, Sum)`, `broadcast(comm, buf, root)`, `send(comm, buf, peer)`,
/// `recv(comm, buf, peer)`, `send_recv(comm, src -> dst, to, from)`.
pub struct CollectiveOp {
    /// The keyword.
    pub token: Ident,
    pub kind: CollectiveKind,
    pub comm: Ident,
    /// The buffer (in place, or the one buffer of a broadcast, send or receive) or the source.
    pub src: Ident,
    /// The destination, after `->`.
    pub dst: Option<Ident>,
    /// The reduction (`Sum`, `Prod`, `Max`, `Min`, `Avg`).
    pub reduce: Option<Ident>,
    /// The root, the peer, or the ranks sent to and received from: expressions over the params.
    pub ranks: Vec<Expr>,
}

/// Which collective.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CollectiveKind {
    AllReduce,
    AllGather,
    ReduceScatter,
    Broadcast,
    Send,
    Recv,
    SendRecv,
}

impl CollectiveKind {
    /// Its keyword, its usage, whether it goes from a source to a destination (`Some(true)`:
    /// always, `None`: either), whether it takes a reduction, and how many ranks it names.
    pub fn syntax(self) -> (&'static str, &'static str, Option<bool>, bool, usize) {
        match self {
            Self::AllReduce => (
                "all_reduce",
                "an all-reduce node is written `all_reduce(comm, buf, Sum)` (in place) or \
                 `all_reduce(comm, src -> dst, Sum)`, with `comm` a `Communicator` param, the \
                 buffers `DeviceBuffer<T>` params, and the reduction `Sum`, `Prod`, `Max`, `Min` \
                 or `Avg`",
                None,
                true,
                0,
            ),
            Self::AllGather => (
                "all_gather",
                "an all-gather node is written `all_gather(comm, src -> dst)`, with `comm` a \
                 `Communicator` param and the buffers `DeviceBuffer<T>` params",
                Some(true),
                false,
                0,
            ),
            Self::ReduceScatter => (
                "reduce_scatter",
                "a reduce-scatter node is written `reduce_scatter(comm, src -> dst, Sum)`, with \
                 `comm` a `Communicator` param, the buffers `DeviceBuffer<T>` params, and the \
                 reduction `Sum`, `Prod`, `Max`, `Min` or `Avg`",
                Some(true),
                true,
                0,
            ),
            Self::Broadcast => (
                "broadcast",
                "a broadcast node is written `broadcast(comm, buf, root)`, with `comm` a \
                 `Communicator` param, `buf` a `DeviceBuffer<T>` param and `root` the rank whose \
                 `buf` every rank gets",
                Some(false),
                false,
                1,
            ),
            Self::Send => (
                "send",
                "a send node is written `send(comm, buf, peer)`, with `comm` a `Communicator` \
                 param, `buf` a `DeviceBuffer<T>` param and `peer` the rank it goes to",
                Some(false),
                false,
                1,
            ),
            Self::Recv => (
                "recv",
                "a receive node is written `recv(comm, buf, peer)`, with `comm` a `Communicator` \
                 param, `buf` a `DeviceBuffer<T>` param and `peer` the rank it comes from",
                Some(false),
                false,
                1,
            ),
            Self::SendRecv => (
                "send_recv",
                "a send-receive node is written `send_recv(comm, src -> dst, to, from)`, with \
                 `comm` a `Communicator` param, the buffers `DeviceBuffer<T>` params, `to` the \
                 rank `src` goes to and `from` the rank `dst` comes from",
                Some(true),
                false,
                2,
            ),
        }
    }
}

/// The reductions a collective node may name.
pub const REDUCTIONS: [&str; 5] = ["Sum", "Prod", "Max", "Min", "Avg"];

/// The collective a node's keyword names, if it names one.
pub(super) fn collective_kind(lookahead: &syn::parse::Lookahead1) -> Option<CollectiveKind> {
    let kinds = [
        (lookahead.peek(kw::all_reduce), CollectiveKind::AllReduce),
        (lookahead.peek(kw::all_gather), CollectiveKind::AllGather),
        (
            lookahead.peek(kw::reduce_scatter),
            CollectiveKind::ReduceScatter,
        ),
        (lookahead.peek(kw::broadcast), CollectiveKind::Broadcast),
        (lookahead.peek(kw::send_recv), CollectiveKind::SendRecv),
        (lookahead.peek(kw::send), CollectiveKind::Send),
        (lookahead.peek(kw::recv), CollectiveKind::Recv),
    ];
    kinds
        .into_iter()
        .find(|(found, _)| *found)
        .map(|(_, kind)| kind)
}

/// A collective node of kind `kind`, from its keyword on.
pub(super) fn collective(input: ParseStream, kind: CollectiveKind) -> syn::Result<CollectiveOp> {
    let token = Ident::parse_any(input)?;
    let (_, usage, arrow, reduces, ranks) = kind.syntax();
    if !input.peek(token::Paren) {
        return Err(input.error(usage));
    }
    let content;
    let paren = parenthesized!(content in input);
    let name = |content: ParseStream, what: &str| {
        Ident::parse(content)
            .map_err(|e| syn::Error::new(e.span(), format!("{usage}: expected {what}")))
    };
    if content.is_empty() {
        return Err(syn::Error::new(paren.span.join(), usage));
    }
    let comm = name(&content, "the name of the `Communicator` param")?;
    let comma = |content: ParseStream, what: &str| {
        content
            .parse::<Token![,]>()
            .map(drop)
            .map_err(|e| syn::Error::new(e.span(), format!("{usage}: expected `,` and {what}")))
    };
    comma(&content, "the buffer")?;
    let src = name(&content, "the name of a `DeviceBuffer<T>` param")?;
    let dst = if content.peek(Token![->]) {
        let arrow_token: Token![->] = content.parse()?;
        if arrow == Some(false) {
            return Err(syn::Error::new(
                arrow_token.spans[0],
                format!("{usage}: it uses one buffer, not `src -> dst`"),
            ));
        }
        Some(name(
            &content,
            "the name of the destination, a `DeviceBuffer<T>` param",
        )?)
    } else {
        if arrow == Some(true) {
            return Err(syn::Error::new(
                src.span(),
                format!("{usage}: expected `->` and the destination after the source"),
            ));
        }
        None
    };
    let reduce = if reduces {
        comma(&content, "the reduction")?;
        let op = name(
            &content,
            "the reduction: `Sum`, `Prod`, `Max`, `Min` or `Avg`",
        )?;
        if !REDUCTIONS.iter().any(|r| op == r) {
            let hint = crate::text::suggest(&op.to_string(), REDUCTIONS.iter().copied())
                .map(|r| format!(" (did you mean `{r}`?)"))
                .unwrap_or_default();
            return Err(syn::Error::new(
                op.span(),
                format!(
                    "`{op}` is not a reduction{hint}: NCCL reduces with `Sum`, `Prod`, `Max`, \
                     `Min` or `Avg`"
                ),
            ));
        }
        Some(op)
    } else {
        None
    };
    let mut rank_exprs = Vec::new();
    for i in 0..ranks {
        let what = match (kind, i) {
            (CollectiveKind::Broadcast, _) => "the root rank",
            (CollectiveKind::SendRecv, 0) => "the rank sent to",
            (CollectiveKind::SendRecv, _) => "the rank received from",
            _ => "the peer rank",
        };
        comma(&content, what)?;
        if content.is_empty() {
            return Err(content.error(format!("{usage}: expected {what}")));
        }
        rank_exprs.push(content.parse::<Expr>()?);
    }
    if content.peek(Token![,]) {
        content.parse::<Token![,]>()?;
    }
    if !content.is_empty() {
        return Err(content.error(format!("{usage}: unexpected tokens here")));
    }
    Ok(CollectiveOp {
        token,
        kind,
        comm,
        src,
        dst,
        reduce,
        ranks: rank_exprs,
    })
}
