//! [`Capture`]: work to record by stream capture, kept as a value and recorded again whenever a
//! graph needs it.

use std::mem::ManuallyDrop;
use std::sync::Arc;

use cudarc::driver::CudaStream;

use super::operands::CaptureOperands;
use super::scope::CaptureScope;
use crate::error::{Error, Result};
use crate::exec::GraphExec;
use crate::graph::Graph;
use crate::memory::operand::DeclaredUse;
use crate::node::{ChildGraphNode, NodeId, NodeKind};

/// Records the work into a new graph on the stream given.
type Record = dyn Fn(&Arc<CudaStream>) -> Result<Graph<'static>> + Send + Sync;

/// Work to record by stream capture, kept as a value: a closure that enqueues work, the memory
/// it works on, and the stream to capture it on. [`Graph::add_capture`] records it into a
/// child-graph node, [`GraphExec::set_capture`](crate::GraphExec::set_capture) records it again
/// for an executable's node, and a `cuda_graph!` declaration takes it as the param of a
/// `capture(c)` node (compared by identity: a clone is the same work, another `Capture` is new).
///
/// The closure runs at each recording, not at each launch: what it enqueues is recorded with the
/// values and addresses it sees then. Each recording is a [`Graph::capture`] with the same
/// operands (clones of them: [`DeviceBuffer`](crate::DeviceBuffer)s, `Mut(buffer)` for those
/// written), so every graph recorded from it holds that memory, and the closure, alive.
///
/// ```no_run
/// # use cudagraph_runtime::prelude::*;
/// # use cudagraph_runtime::{Capture, Mut};
/// # fn f(stream: &std::sync::Arc<cudarc::driver::CudaStream>, x: DeviceBuffer<f32>,
/// #      y: DeviceBuffer<f32>) {
/// // y = x, recorded by cudarc's copy on the views of the two buffers.
/// let copy = Capture::new(stream, (x, Mut(y)), |s, (x, mut y)| s.memcpy_dtod(&x, &mut y));
/// # }
/// ```
#[derive(Clone)]
pub struct Capture {
    stream: ManuallyDrop<Arc<CudaStream>>,
    record: ManuallyDrop<Arc<Record>>,
}

impl std::fmt::Debug for Capture {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Capture")
            .field("stream", &self.stream.cu_stream())
            .finish_non_exhaustive()
    }
}

impl Drop for Capture {
    /// The work's closure may own cudarc values, and the stream may be the last reference to
    /// itself (dropping either may call the driver): not inside a host node or a capture closure,
    /// where the release thread drops them.
    fn drop(&mut self) {
        // Moved, not cloned: with clones sent to the release thread and these references
        // dropped here, the release thread may drop its clones first, and these drops would
        // then be the last ones, inside a host node after all.
        // SAFETY: neither field is used again (this is the value's drop).
        let parts = unsafe {
            (
                ManuallyDrop::take(&mut self.stream),
                ManuallyDrop::take(&mut self.record),
            )
        };
        crate::reaper::release(parts);
    }
}

impl PartialEq for Capture {
    /// The same work: clones of one `Capture`.
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.record, &other.record) && Arc::ptr_eq(&self.stream, &other.stream)
    }
}

impl Capture {
    /// Work `work` enqueues on `stream` (a stream of the context the graphs are built in, and
    /// not one other threads use while a recording runs), on the memory `operands` gives it
    /// (see [`Graph::capture`]).
    pub fn new<O, F, E>(stream: &Arc<CudaStream>, operands: O, work: F) -> Self
    where
        O: CaptureOperands<'static> + Clone + Send + Sync + 'static,
        F: Fn(&CaptureScope<'_, 'static>, O::Views<'_>) -> std::result::Result<(), E>
            + Send
            + Sync
            + 'static,
        Error: From<E>,
    {
        let work = Arc::new(work);
        let record = move |stream: &Arc<CudaStream>| {
            let work = work.clone();
            Graph::capture(stream, operands.clone(), move |s, views| work(s, views))
        };
        Self {
            stream: ManuallyDrop::new(stream.clone()),
            record: ManuallyDrop::new(Arc::new(record)),
        }
    }

    /// The stream the work is recorded on.
    pub fn stream(&self) -> &Arc<CudaStream> {
        &self.stream
    }

    /// Records the work into a new graph.
    pub fn graph(&self) -> Result<Graph<'static>> {
        (self.record)(&self.stream)
    }
}

impl<'a> Graph<'a> {
    /// Records `capture`'s work into a child-graph node of this graph, after `deps` (as
    /// [`Graph::add_captured`] records a closure's).
    pub fn add_capture(&mut self, capture: &Capture, deps: &[NodeId]) -> Result<ChildGraphNode> {
        self.add_capture_within(capture, None, deps)
    }

    /// [`Graph::add_capture`], refused when the recorded work uses memory outside `within`
    /// (memory, and whether it may be written), when given.
    pub(crate) fn add_capture_within(
        &mut self,
        capture: &Capture,
        within: Option<&[DeclaredUse]>,
        deps: &[NodeId],
    ) -> Result<ChildGraphNode> {
        let checked = self.check_capture("Graph::add_capture", capture.stream(), deps);
        self.or_forget_name(checked)?;
        let child = capture.graph().and_then(|child| match within {
            Some(within) => {
                let node = self.pending_name(NodeKind::ChildGraph);
                uses_within(&child, within, &node).map(|()| child)
            }
            None => Ok(child),
        });
        self.embed_captured(child, deps)
    }
}

impl<'a> GraphExec<'a> {
    /// Records `capture`'s work again and makes the child-graph node `node` run it, for the
    /// next launches (`cuGraphExecChildGraphNodeSetParams`): the recorded graph must have the
    /// node's topology, as for [`GraphExec::set_child_graph`].
    pub fn set_capture(&mut self, node: ChildGraphNode, capture: &Capture) -> Result<()> {
        self.set_capture_within(node, capture, None)
    }

    /// [`GraphExec::set_capture`], refused when the recorded work uses memory outside `within`
    /// (memory, and whether it may be written), when given.
    pub(crate) fn set_capture_within(
        &mut self,
        node: ChildGraphNode,
        capture: &Capture,
        within: Option<&[DeclaredUse]>,
    ) -> Result<()> {
        let recorded = capture.graph()?;
        if let Some(within) = within {
            let (index, _) = self.node(node.id)?;
            uses_within(&recorded, within, &self.graph().name_of(index))?;
        }
        self.set_child_graph(node, &recorded)
    }
}

/// Refuses recorded work (`recorded`, for node `node`) that uses memory outside `within`: every
/// use must lie in one piece of declared memory, and a write in one declared written.
pub(crate) fn uses_within(recorded: &Graph<'_>, within: &[DeclaredUse], node: &str) -> Result<()> {
    let outside = recorded.all_uses().into_iter().find(|u| {
        u.end > u.start
            && !within.iter().any(|&(bytes, write)| {
                bytes.is_some_and(|(space, start, end)| {
                    space == u.space && start <= u.start && u.end <= end && (write || !u.write)
                })
            })
    });
    match outside {
        None => Ok(()),
        Some(u) => Err(Error::Invalid {
            node: node.to_owned(),
            reason: format!(
                "the captured work {} {} bytes of {} memory that the node's declared uses do \
                 not {}: list the buffer param it {} in `capture(work, [...])`{}",
                if u.write { "writes" } else { "reads" },
                u.end - u.start,
                u.space.name(),
                if u.write { "let it write" } else { "include" },
                if u.write { "writes" } else { "reads" },
                if u.write { " with `mut`" } else { "" },
            ),
        }),
    }
}
