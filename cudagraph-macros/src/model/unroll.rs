//! Unrolled WHILE bodies (`while h(unroll = k) { ... }`): how many copies of the body a pass of
//! the loop runs, and which of the body's nodes run in the last copy only.
//!
//! The body's nodes are repeated `k` times, one copy after the other, except its *checks*: the
//! nodes directly in the body that name the loop's handle (the kernel that sets it). They run in
//! the last copy only, so that the loop's handle is set once per pass, where the WHILE node reads
//! it. In the other copies a check's place in the order is kept: a node after a check depends on
//! what the check depends on. The rules judge one copy, the body as declared: copies run one
//! after the other (the runtime orders each copy's first nodes after the previous copy's last
//! ones), and a copy without its checks orders what remains as the declaration does.

use crate::parse::{CondKind, NodeOp};
use crate::repeat;

use super::Model;

/// The most copies of a body `unroll` may ask for: each copy is the body's nodes again, in the
/// graph and in every update of the nodes (past a few dozen, a pass costs the body's work and the
/// loop's per-pass cost no longer shows).
pub const MAX_UNROLL: usize = 64;

impl Model<'_> {
    /// The value of the `unroll` of conditional node `c` as written, if it has one: `Err` when
    /// the macro cannot compute it (`check::unroll` reports it).
    pub fn unroll_value(&self, c: usize) -> Option<Result<usize, repeat::Unknown>> {
        let NodeOp::Conditional(cond) = &self.nodes[c].op else {
            return None;
        };
        let unroll = cond.unroll.as_ref()?;
        Some(repeat::eval(&unroll.count, self.env(None)))
    }

    /// How many copies of its body a pass of conditional node `c` runs: its `unroll` for a
    /// WHILE node whose `unroll` the checks accept, else 1.
    pub fn unroll(&self, c: usize) -> usize {
        let is_while =
            matches!(&self.nodes[c].op, NodeOp::Conditional(cond) if cond.kind == CondKind::While);
        match self.unroll_value(c) {
            Some(Ok(k)) if is_while && (1..=MAX_UNROLL).contains(&k) => k,
            _ => 1,
        }
    }

    /// The unrolled WHILE node (with more than one copy) whose body node `index` is directly in,
    /// and its number of copies.
    pub fn unrolled_in(&self, index: usize) -> Option<(usize, usize)> {
        let (c, _) = self.scopes[index]?;
        let k = self.unroll(c);
        (k > 1).then_some((c, k))
    }

    /// Whether node `index` is a check of an unrolled body: directly in the body of an unrolled
    /// WHILE node, naming its handle; it runs in the body's last copy only.
    pub fn is_unroll_check(&self, index: usize) -> bool {
        self.unrolled_in(index).is_some_and(|(c, _)| {
            self.handle_mentions(self.nodes[index].decl)
                .iter()
                .any(|&(h, _)| h == c)
        })
    }
}
