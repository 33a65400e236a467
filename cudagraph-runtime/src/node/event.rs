//! Event record and event wait nodes: a graph records a CUDA event when the node runs, or waits
//! for the event's last record before the nodes after it run, so graphs launched into different
//! streams, and streams outside graphs, can order their work with each other. An update sets
//! another event ([event nodes]).
//!
//! [event nodes]: https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#cuda-graphs

use std::mem::ManuallyDrop;
use std::sync::Arc;

use cudarc::driver::{sys, CudaContext, CudaEvent};

use super::{node_params, NodeKind, NodeParams, NodeUpdate};
use crate::driver::result;
use crate::error::{Error, Result};
use crate::memory::kept::Kept;
use crate::memory::operand::Use;

handle!(
    /// An event record node.
    EventRecordNode
);
handle!(
    /// An event wait node.
    EventWaitNode
);

/// A CUDA event that graphs record and wait on: shared (a clone is the same event, and graphs
/// and executables that use it keep it alive until their launches are done), compared by
/// identity.
#[derive(Clone)]
pub struct Event {
    event: ManuallyDrop<Arc<CudaEvent>>,
    /// What the event nodes using this event hold (see `memory::kept`): one for the event and
    /// its clones, so that a graph rebuilt with the same event hands its executables the same
    /// use, which an update finds unchanged.
    kept: Arc<Kept>,
}

impl Event {
    /// A new event of `ctx`, without timing (the cheapest kind to record and wait on).
    pub fn new(ctx: &Arc<CudaContext>) -> Result<Self> {
        crate::ambient::refuse_in_host_node("Event::new")?;
        let flags = sys::CUevent_flags::CU_EVENT_DISABLE_TIMING;
        ctx.new_event(Some(flags))
            .map(Self::from)
            .map_err(|source| Error::Driver {
                call: "cuEventCreate",
                source,
            })
    }

    /// The cudarc event: record it on a stream, wait for it, synchronize with it.
    pub fn cuda(&self) -> &CudaEvent {
        &self.event
    }

    pub(crate) fn raw(&self) -> sys::CUevent {
        self.event.cu_event()
    }

    /// The use by which an event node keeps this event alive while launches may run it.
    pub(crate) fn kept_use<'a>(&self) -> Use<'a> {
        Kept::use_of(self.kept.clone())
    }

    /// Refuses this event for an event node (`node` names it) of a graph of `ctx` when the event
    /// is of another context. CUDA's rules are not the same everywhere: `cuEventRecord` refuses
    /// a stream and an event of two contexts, and so do `cuGraphExecEventRecordNodeSetEvent` and
    /// `cuGraphExecEventWaitNodeSetEvent`, while `cuGraphAddEventRecordNode` and
    /// `cuGraphAddEventWaitNode` take such an event and launch what no update could set. One rule
    /// for both: a graph's event nodes use events of its own context.
    pub(crate) fn check_context(
        &self,
        ctx: sys::CUcontext,
        node: impl FnOnce() -> String,
    ) -> Result<()> {
        if self.event.context().cu_ctx() == ctx {
            return Ok(());
        }
        Err(Error::Invalid {
            node: node(),
            reason: format!(
                "the event is of device {}'s context, not the graph's: CUDA records an event \
                 only on streams of its own context and sets an executable's event node only to \
                 an event of the executable's context; make the event with the graph's context \
                 (to order work on two devices, record an event of each device's own context)",
                self.event.context().ordinal()
            ),
        })
    }
}

impl From<CudaEvent> for Event {
    fn from(event: CudaEvent) -> Self {
        Self::from(Arc::new(event))
    }
}

impl From<Arc<CudaEvent>> for Event {
    fn from(event: Arc<CudaEvent>) -> Self {
        Self {
            kept: Kept::new(event.clone()),
            event: ManuallyDrop::new(event),
        }
    }
}

impl Drop for Event {
    /// The last reference destroys the event (a driver call): not inside a host node or a
    /// capture closure, where the release thread does it.
    fn drop(&mut self) {
        // Moved, not cloned: with a clone sent to the release thread and this reference dropped
        // here, the release thread may drop its clone first, and this drop would then be the last
        // one, destroying the event inside a host node after all.
        // SAFETY: `self.event` is not used again (this is the value's drop).
        let event = unsafe { ManuallyDrop::take(&mut self.event) };
        crate::reaper::release(event);
    }
}

/// Two events are equal when they are the same event.
impl PartialEq for Event {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.event, &other.event)
    }
}
impl Eq for Event {}

impl std::fmt::Debug for Event {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Event({:p})", self.raw())
    }
}

/// An event node's parameters: the event; `RECORD` says whether the node records it or waits for
/// it.
#[derive(Debug)]
pub(crate) struct EventParams<const RECORD: bool> {
    pub(crate) event: sys::CUevent,
}

impl<const RECORD: bool> NodeParams for EventParams<RECORD> {
    const KIND: NodeKind = if RECORD {
        NodeKind::EventRecord
    } else {
        NodeKind::EventWait
    };

    #[inline]
    fn with_raw<R>(&mut self, f: impl FnOnce(&mut sys::CUgraphNodeParams) -> R) -> R {
        let mut p;
        if RECORD {
            p = node_params(sys::CUgraphNodeType::CU_GRAPH_NODE_TYPE_EVENT_RECORD);
            p.__bindgen_anon_1.eventRecord.event = self.event;
        } else {
            p = node_params(sys::CUgraphNodeType::CU_GRAPH_NODE_TYPE_WAIT_EVENT);
            p.__bindgen_anon_1.eventWait.event = self.event;
        }
        f(&mut p)
    }
}

impl<const RECORD: bool> NodeUpdate for EventParams<RECORD> {
    #[inline]
    unsafe fn update(&mut self, exec: sys::CUgraphExec, node: sys::CUgraphNode) -> Result<()> {
        // SAFETY: the caller's promise; `self.event` is live (the caller keeps it alive).
        unsafe { result::exec::event_node_set_event(exec, node, self.event, RECORD) }
    }
}
