//! Graph allocations freed by another graph: a buffer taken from the executable whose launch
//! allocated it ([`GraphExec::take_allocation`]) and given to a later graph's free node
//! ([`Graph::add_mem_free_buffer`]).
//!
//! The buffer's memory then belongs to the later graph: its first launch frees it, so its
//! executable launches once (a second launch would free it again). The executable that made the
//! allocation launches again only once the memory is freed (a flag shared with it, see
//! `memory::outliving`): set after that launch, once the buffer's home stream is ordered after
//! it, which is what that executable orders its relaunch after. A graph or executable dropped
//! before that launch frees the memory itself, stream-ordered, and sets the flag once that free
//! is enqueued.
//!
//! [`GraphExec::take_allocation`]: crate::GraphExec::take_allocation
//! [`Graph::add_mem_free_buffer`]: crate::Graph::add_mem_free_buffer

use std::mem::ManuallyDrop;
use std::sync::atomic::{AtomicBool, Ordering};
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
    /// Set once the free is made (see the module docs): shared with the executable that made
    /// the allocation.
    freed_flag: Arc<AtomicBool>,
}

impl Adopted {
    /// Takes over the memory at `addr`, whose buffer record is `record` and whose work is
    /// ordered on `home`. Nothing may free it but this graph's free node (or this value's drop),
    /// which set `freed_flag` once the free is made.
    pub(crate) fn new(
        addr: sys::CUdeviceptr,
        home: Arc<CudaStream>,
        record: Arc<dyn Allocation>,
        freed_flag: Arc<AtomicBool>,
    ) -> Self {
        Self {
            addr,
            home: ManuallyDrop::new(home),
            record: Some(record),
            freed_flag,
        }
    }

    /// The memory's address.
    pub(crate) fn addr(&self) -> sys::CUdeviceptr {
        self.addr
    }

    /// Whether a launch has freed it.
    pub(crate) fn freed(&self) -> bool {
        self.record.is_none()
    }

    /// After the launch on `stream` that freed it: orders the buffer's home stream after that
    /// launch, then lets the buffer's record go and sets the flag.
    pub(crate) fn after_launch(&mut self, stream: &Arc<CudaStream>) -> Result<()> {
        // The launch freed the memory: taken first, so that nothing frees it again (another
        // launch, this value's drop) even if the ordering below fails.
        let Some(record) = self.record.take() else {
            return Ok(());
        };
        if !Arc::ptr_eq(stream, &self.home) {
            // On failure the flag stays unset: the executable that made the allocation never
            // launches again, rather than allocate the addresses unordered after this launch.
            let marker = EventCell::default();
            marker.record(stream)?;
            marker.order_before(&self.home)?;
        }
        self.freed_flag.store(true, Ordering::Release);
        drop(record);
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
        if self.freed() {
            // Freed by a launch; the stream goes where a driver call is allowed.
            reaper::release(home);
            return;
        }
        // `home` is this value's own reference, moved: with a clone sent to the release thread,
        // the last drop of the stream could happen here, inside a host node.
        let (addr, freed_flag) = (self.addr, self.freed_flag.clone());
        let free = move || -> bool {
            match is_capturing(&home) {
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
            let freed = unsafe { cudarc::driver::result::free_async(addr, home.cu_stream()) };
            // Only now, with the free enqueued, may the executable that made the allocation
            // launch again (after it, on the home stream): not when this drop began.
            if freed.is_ok() {
                freed_flag.store(true, Ordering::Release);
            }
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
