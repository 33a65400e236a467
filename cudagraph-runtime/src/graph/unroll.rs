//! Unrolled WHILE loops: `unroll` copies of the body per iteration of the WHILE node, each copy
//! after the first behind an IF node on the same handle, so that the loop still stops right
//! after the copy whose set-condition kernel cleared the handle.
//!
//! ```text
//! WHILE h { copy 0 ; IF h { copy 1 ; IF h { copy 2 ; ... } } }
//! ```
//!
//! The WHILE node tests its handle once per iteration, between the last copy and the first; each
//! IF node tests it after the copy before it (the IF depends on every node of that copy). A copy
//! that clears the handle therefore ends the loop exactly where the plain loop would have ended:
//! the copies after it are skipped by their IF nodes, and the WHILE node sees zero. The
//! iterations made, and every value the body computes, are those of the plain loop; only the
//! number of times the loop goes back to its start changes (once per `unroll` body copies).
//! CUDA allows a handle to drive conditional nodes in the bodies of the graph it was made for
//! ([`cuGraphConditionalHandleCreate`]), and conditional nodes in conditional bodies.
//!
//! [`cuGraphConditionalHandleCreate`]: https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__GRAPH.html

use super::body::Body;
use super::definition::Graph;
use crate::error::{Error, Result};
use crate::node::{Condition, ConditionalHandle, ConditionalNode, NodeId, NodeKind};

impl<'a> Graph<'a> {
    /// Adds a WHILE node on `handle` after `deps` whose body runs `unroll` copies of what
    /// `build` adds per iteration: `build(body, copy)` is called for copies `0..unroll`, each
    /// into its own body, and must add the same work each time, ending with the kernel that sets
    /// `handle` (the convergence check: once per copy). Copies after the first run only while
    /// the handle is non-zero (an IF node on `handle` before each, after every node of the copy
    /// before it):
    ///
    /// ```text
    /// WHILE h { copy 0 ; IF h { copy 1 ; IF h { copy 2 ; ... } } }
    /// ```
    ///
    /// so the loop makes the same iterations as a plain WHILE node with one copy, stopping right
    /// after the copy that clears the handle, and goes back to its start once per `unroll` of
    /// them. The body's kernels need no change: a copy after convergence is skipped, not run.
    ///
    /// `unroll` is at least 1 (1 is a plain WHILE node); [`Error::Invalid`] otherwise. CUDA 12.4
    /// or newer, as for any conditional node.
    ///
    /// Node handles of the copies are what `build` returns to its caller (each copy's are its
    /// own: an update must change every copy).
    pub fn add_while_unrolled(
        &mut self,
        handle: ConditionalHandle,
        unroll: u32,
        deps: &[NodeId],
        mut build: impl FnMut(&mut Body<'a>, u32) -> Result<()>,
    ) -> Result<ConditionalNode> {
        if unroll == 0 {
            let node = self.pending_name(NodeKind::Conditional);
            return self.or_forget_name(Err(Error::Invalid {
                node,
                reason: "a WHILE node runs its body at least once per iteration: unroll by 1 \
                         or more"
                    .into(),
            }));
        }
        self.add_conditional(handle, Condition::While, deps, |bodies| {
            copies(&mut *bodies[0], handle, 0, unroll, &mut build)
        })
    }
}

/// Adds copy `copy` of the body into `body`, then, while copies are left, an IF node on `handle`
/// after all of them whose body holds the next copies.
fn copies<'a>(
    body: &mut Body<'a>,
    handle: ConditionalHandle,
    copy: u32,
    unroll: u32,
    build: &mut dyn FnMut(&mut Body<'a>, u32) -> Result<()>,
) -> Result<()> {
    let before = body.len();
    build(body, copy)?;
    if copy + 1 == unroll {
        return Ok(());
    }
    // The IF waits for every node of this copy, the set-condition kernel among them.
    let family = body.family;
    let deps: Vec<NodeId> = (before..body.len())
        .map(|index| NodeId {
            family,
            index: index as u32,
        })
        .collect();
    // The handle was made for the graph the WHILE node is in; CUDA lets it drive conditional
    // nodes of that graph's bodies too, so the nested IF takes it as made for this body.
    // SAFETY: used in place (the body stays where it is); not moved out of.
    let graph = unsafe { body.as_graph_mut() };
    let nested = ConditionalHandle {
        made_for: graph.raw as usize,
        ..handle
    };
    graph
        .add_conditional(nested, Condition::If, &deps, |inner| {
            copies(&mut *inner[0], handle, copy + 1, unroll, build)
        })
        .map(drop)
}
