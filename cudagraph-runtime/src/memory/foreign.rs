//! [`Foreign`]: memory that another owner frees, held by a [`DeviceBuffer`](super::DeviceBuffer)
//! as any other allocation: a mapping of imported memory (`external`), NCCL's symmetric memory
//! (the `collective` module's `symmetric`).
//!
//! Its final release waits, as cudarc's free of an ordinary allocation does, for the work
//! queued on the buffer's home stream (which includes the waits for the launches that may use
//! it), and only then hands the memory to its owner's release, on the release thread.

use std::sync::Arc;

use cudarc::driver::{sys, CudaContext, CudaSlice, CudaStream};

use crate::driver::{named, record_err};
use crate::reaper;

/// What frees foreign memory at `base` once nothing uses it.
type Release = Box<dyn FnOnce(sys::CUdeviceptr) + Send + Sync>;

/// The owner's release of a buffer's foreign memory.
///
/// Dropped without being run (a release that gave up: the memory's last users could not be
/// waited for), it leaks what the release holds rather than drop it: that may free the memory
/// too (an import's `cuDestroyExternalMemory`, the last handle of a communicator whose windows
/// hold NCCL's memory), and a launch may still use it.
pub(crate) struct Foreign {
    ctx: Arc<CudaContext>,
    /// `None` once run.
    release: Option<Release>,
}

impl Drop for Foreign {
    fn drop(&mut self) {
        std::mem::forget(self.release.take());
    }
}

impl Foreign {
    /// Memory of `ctx` that `release` frees, given its address once unused.
    pub(crate) fn new(
        ctx: &Arc<CudaContext>,
        release: impl FnOnce(sys::CUdeviceptr) + Send + Sync + 'static,
    ) -> Self {
        Self {
            ctx: ctx.clone(),
            release: Some(Box::new(release)),
        }
    }

    /// The final release of the buffer `slice` (its memory), after the work queued on `home` so
    /// far: takes the memory out of the slice, and, on the release thread once that work is
    /// done, runs the owner's release. Leaks the memory when the work cannot be waited for.
    pub(crate) fn free_after<T>(self, slice: CudaSlice<T>, home: &Arc<CudaStream>) {
        // Queues cudarc's own waits for the slice's uses on home, and forgets the slice.
        let base = slice.leak();
        let Ok(done) = home.record_event(None) else {
            // Nothing tells when the memory is unused: leaking it (dropping `self` unrun) is the
            // safe choice.
            return;
        };
        let mut owner = self;
        reaper::run_later(Box::new(move || {
            match done.try_is_complete() {
                Ok(false) => return false,
                Ok(true) => {
                    if let Some(release) = owner.release.take() {
                        let ctx = &owner.ctx;
                        record_err(ctx, named("cuCtxSetCurrent", ctx.bind_to_thread()));
                        release(base);
                    }
                }
                // The context is unusable: leak rather than free memory that may be in use
                // (`owner` is dropped unrun).
                Err(_) => {}
            }
            true
        }));
    }
}
