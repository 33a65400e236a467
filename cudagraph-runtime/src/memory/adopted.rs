//! Graph allocations freed by another graph: a buffer taken from the executable whose launch
//! allocated it ([`GraphExec::take_allocation`]) and given to a later graph's free node
//! ([`Graph::add_mem_free_buffer`]).
//!
//! The buffer's memory then belongs to the later graph: its first launch frees it, so its
//! executable launches once (a second launch would free it again). Until that launch the
//! buffer's record stays alive, so the executable that made the allocation, which launches again
//! only once the allocation is gone, keeps waiting; after it, the buffer's home stream is ordered
//! after the launch that freed it, which is what that executable orders its relaunch after. A
//! graph or executable dropped before that launch frees the memory itself, stream-ordered.
//!
//! [`GraphExec::take_allocation`]: crate::GraphExec::take_allocation
//! [`Graph::add_mem_free_buffer`]: crate::Graph::add_mem_free_buffer

use std::mem::ManuallyDrop;
use std::sync::Arc;

use cudarc::driver::{sys, CudaStream};

use super::alloc::Allocation;
use super::fence::{is_capturing, EventCell};
use crate::ambient::must_defer_releases;
use crate::error::Result;
use crate::reaper;

/// One allocation a free node of this graph frees, taken over from a buffer.
pub(crate) struct Adopted {
    addr: sys::CUdeviceptr,
    /// The stream the buffer's work was ordered on (taken by the drop, which moves it to where
    /// the free is made).
    home: ManuallyDrop<Arc<CudaStream>>,
    /// The buffer's record, alive until a launch has freed the memory.
    record: Option<Arc<dyn Allocation>>,
}

impl Adopted {
    /// Takes over the memory at `addr`, whose buffer record is `record` and whose work is
    /// ordered on `home`. Nothing may free it but this graph's free node (or this value's drop).
    pub(crate) fn new(
        addr: sys::CUdeviceptr,
        home: Arc<CudaStream>,
        record: Arc<dyn Allocation>,
    ) -> Self {
        Self {
            addr,
            home: ManuallyDrop::new(home),
            record: Some(record),
        }
    }

    /// Whether a launch has freed it.
    pub(crate) fn freed(&self) -> bool {
        self.record.is_none()
    }

    /// After the launch on `stream` that freed it: orders the buffer's home stream after that
    /// launch, then lets the buffer's record go.
    ///
    /// The launch is made, so the memory counts as freed whatever happens here: a failure to
    /// order the home stream (an error stored in the context makes cudarc's next call on it
    /// fail) must not leave it unfreed in our books, or a second launch of the executable, or
    /// this value's drop, would free it again, possibly while another allocation holds those
    /// addresses. The record is then leaked instead: the executable that made the allocation
    /// never launches again, since its relaunch could not be ordered after this free.
    pub(crate) fn after_launch(&mut self, stream: &Arc<CudaStream>) -> Result<()> {
        let Some(record) = self.record.take() else {
            return Ok(());
        };
        if !Arc::ptr_eq(stream, &self.home) {
            let marker = EventCell::default();
            let ordered = marker
                .record(stream)
                .and_then(|()| marker.order_before(&self.home));
            if let Err(e) = ordered {
                std::mem::forget(record);
                return Err(e);
            }
        }
        record.state().mark_freed_by_graph();
        Ok(())
    }
}

impl std::fmt::Debug for Adopted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Adopted({:#x}, freed: {})", self.addr, self.freed())
    }
}

impl Drop for Adopted {
    /// Frees the memory if no launch did (`cuMemFreeAsync` on its home stream); when that stream
    /// is being captured, or inside a host node, on the crate's own thread.
    fn drop(&mut self) {
        // SAFETY: taken once, here; nothing reads `self.home` afterwards.
        let home = unsafe { ManuallyDrop::take(&mut self.home) };
        // The record goes with the free, not before it: while it lives, the executable that
        // made the allocation refuses to launch again. Dropped here while the free waits on the
        // release thread (inside a host node or a capture closure, or with the home stream
        // being captured), it would let that executable allocate the same addresses again
        // (with `AUTO_FREE_ON_LAUNCH` its launch frees the unfreed allocation itself), and the
        // late free would then free the new allocation under it.
        let Some(record) = self.record.take() else {
            // Freed by a launch; the stream goes where a driver call is allowed.
            reaper::release(home);
            return;
        };
        let addr = self.addr;
        // `home` and `record` are this value's own references, moved: with clones sent to the
        // release thread, the last drop of the stream could happen here, inside a host node.
        let held = (home, record);
        let free = move || -> bool {
            let (home, _record) = &held;
            match is_capturing(home) {
                Ok(false) => {}
                Ok(true) => return false,
                Err(_) => return true, // the stream is unusable: leak rather than guess
            }
            // The graph may have been dropped on a thread with no current context (or this is
            // the release thread): the stream's context is made current for the free.
            if home.context().bind_to_thread().is_err() {
                return true; // the context is unusable: leak rather than guess
            }
            // SAFETY: the memory is a live allocation that nothing uses after the work on its
            // home stream (no launch freed it, and the graph that would is gone).
            let _ = unsafe { cudarc::driver::result::free_async(addr, home.cu_stream()) };
            true
        };
        if must_defer_releases() || !free() {
            reaper::run_later(Box::new(free));
        }
    }
}

/// The allocations a graph's free nodes take over, in its table. A graph with memory nodes is
/// never cloned (CUDA refuses), so a clone of the table (made only for graphs without them)
/// starts empty.
#[derive(Debug, Default)]
pub(crate) struct AdoptedList(pub(crate) Vec<Adopted>);

impl Clone for AdoptedList {
    fn clone(&self) -> Self {
        debug_assert!(self.0.is_empty(), "graphs with memory nodes are not cloned");
        Self(Vec::new())
    }
}
