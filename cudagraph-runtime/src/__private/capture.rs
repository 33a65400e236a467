//! Capture nodes: the work a declared capture node records, and the memory it may use.

use crate::memory::operand::DeclaredUse;
use crate::{Capture, ChildGraphNode, Graph, GraphExec, NodeId, Result};

// ---------------------------------------------------------------------------------------------
// Capture nodes.

/// The param of a capture node: a [`Capture`].
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not work to capture",
    label = "`capture(...)` takes a param of type `Capture`",
    note = "declare the param as `cudagraph_runtime::Capture`, made with `Capture::new(&stream, operands, |s, views| ...)`"
)]
pub trait CaptureParam {
    /// The work.
    fn capture(&self) -> &Capture;
}

impl CaptureParam for Capture {
    #[inline(always)]
    fn capture(&self) -> &Capture {
        self
    }
}

// ---------------------------------------------------------------------------------------------
// The declared shape of a graph.

/// Adds capture node `capture` to a declared graph: its recorded work may use only the memory
/// the node declares (`capture(work, [a, mut b])`), when it declares any (`None`: any memory,
/// which the declaration's race checks assume).
#[inline]
pub fn add_declared_capture(
    graph: &mut Graph<'static>,
    capture: &Capture,
    declared: Option<&[DeclaredUse]>,
    deps: &[NodeId],
) -> Result<ChildGraphNode> {
    graph.add_capture_within(capture, declared, deps)
}

/// Records `capture` again for a declared graph's capture node, as
/// [`add_declared_capture`] adds it.
#[inline]
pub fn set_declared_capture(
    exec: &mut GraphExec<'static>,
    node: ChildGraphNode,
    capture: &Capture,
    declared: Option<&[DeclaredUse]>,
) -> Result<()> {
    exec.set_capture_within(node, capture, declared)
}

/// Records `capture` again for a capture node through its handle, which knows no params: the
/// recorded work may use only memory the node's current work uses, as it uses it (what the
/// declaration's checks admitted), unless the node declares no uses.
#[inline]
pub fn set_capture_by_handle(
    exec: &mut GraphExec<'static>,
    node: ChildGraphNode,
    capture: &Capture,
    declared: bool,
) -> Result<()> {
    if !declared {
        return exec.set_capture(node, capture);
    }
    let current = exec.child_uses(node)?;
    exec.set_capture_within(node, capture, Some(&current))
}
