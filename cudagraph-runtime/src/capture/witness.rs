//! The witness of a capture ([`Witness`]): a stream of the crate's own that joins a capture right
//! after it begins and records nothing, to tell a capture the closure ended from one it broke.
//!
//! A capture broken by a call inside its closure (a synchronizing call, a wait on an event
//! recorded outside it) reads as invalidated *without its id* on its stream (driver 580 reports
//! the id 0), so the stream alone cannot tell it from a capture the closure ended itself
//! (cudarc's `CudaStream::end_capture`, keeping the graph) and then began again and broke. The
//! witness can: it stays in the capture until the capture ends, valid or broken, and leaves it
//! only with that end, whoever ends it (a capture's streams leave it with its end,
//! [`cuStreamEndCapture`]). A stream that joined a capture and recorded nothing does not fail its
//! end (`CUDA_ERROR_STREAM_CAPTURE_UNJOINED` is for recorded work not joined back), so the
//! witness needs no join.
//!
//! Making and destroying a stream costs about 9 µs (H200, driver 580), four times an empty
//! capture, so witnesses are kept for the next capture of the thread: a small pool per thread,
//! each entry for one context (a witness in one capture cannot join another, and captures nest).
//!
//! [`cuStreamEndCapture`]: https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__STREAM.html

use std::cell::RefCell;
use std::sync::{Arc, Weak};

use cudarc::driver::{sys, CudaContext, CudaStream};

use crate::driver::result;
use crate::error::{Error, Result};

/// How many idle witnesses a thread keeps (past that, one is destroyed when its capture ends).
const KEPT: usize = 4;

/// A raw stream made for witnessing captures in the context that `ctx` names.
struct Idle {
    /// The context: a stream lives as long as its context, so a witness whose context is gone is
    /// gone too (and is forgotten, not destroyed).
    ctx: Weak<CudaContext>,
    stream: usize,
}

impl Drop for Idle {
    fn drop(&mut self) {
        if let Some(ctx) = self.ctx.upgrade() {
            if ctx.bind_to_thread().is_ok() {
                // SAFETY: our stream, of this live context, in no capture and used by nothing
                // (a witness records no work), destroyed once, here.
                let _ = unsafe {
                    cudarc::driver::result::stream::destroy(self.stream as sys::CUstream)
                };
            }
        }
    }
}

thread_local! {
    /// The thread's idle witnesses.
    static IDLE: RefCell<Vec<Idle>> = const { RefCell::new(Vec::new()) };
}

/// A stream that witnesses one capture; back to its thread's pool when dropped.
pub(super) struct Witness(Option<Idle>);

impl Witness {
    /// A witness for a capture in `ctx`, which is current on this thread; made before the capture
    /// begins (a stream is not made inside one).
    pub(super) fn new(ctx: &Arc<CudaContext>) -> Result<Self> {
        let kept = IDLE.with(|idle| {
            let mut idle = idle.borrow_mut();
            // A context dropped since leaves its entries behind: forgotten here.
            idle.retain(|w| w.ctx.strong_count() > 0);
            let at = idle
                .iter()
                .position(|w| std::ptr::eq(w.ctx.as_ptr(), Arc::as_ptr(ctx)))?;
            Some(idle.swap_remove(at))
        });
        if let Some(kept) = kept {
            return Ok(Witness(Some(kept)));
        }
        let kind = cudarc::driver::result::stream::StreamKind::NonBlocking;
        let stream =
            cudarc::driver::result::stream::create(kind).map_err(|source| Error::Driver {
                call: "cuStreamCreate",
                source,
            })?;
        Ok(Witness(Some(Idle {
            ctx: Arc::downgrade(ctx),
            stream: stream as usize,
        })))
    }

    /// The raw stream.
    pub(super) fn raw(&self) -> sys::CUstream {
        self.0
            .as_ref()
            .map_or(std::ptr::null_mut(), |w| w.stream as sys::CUstream)
    }

    /// Whether the capture `id` on `stream`, which the witness joined, was ended before this
    /// call, as the witness and `stream` tell. (A query that fails says nothing either way.)
    pub(super) fn saw_the_end(&self, stream: &CudaStream, id: u64) -> bool {
        // SAFETY: a live stream.
        let seen = unsafe { result::stream::capture_info(self.raw()) };
        // The witness out of the capture: ended.
        matches!(seen, Ok(None)) || stream_saw_the_end(stream, id)
    }
}

/// Whether the capture `id` on `stream` was ended, as far as `stream` alone tells: it is not
/// capturing, or records another capture (begun by the closure after it ended this one). A
/// capture ended, begun again and broken reads as a broken one: only a [`Witness`] tells that.
pub(super) fn stream_saw_the_end(stream: &CudaStream, id: u64) -> bool {
    // SAFETY: a live stream.
    let now = unsafe { result::stream::capture_info(stream.cu_stream()) };
    matches!(now, Ok(None)) || matches!(now, Ok(Some((other, true))) if other != id)
}

impl Drop for Witness {
    fn drop(&mut self) {
        let Some(idle) = self.0.take() else { return };
        // Kept only out of every capture (it is, once the capture it joined has ended); a stream
        // that cannot say is destroyed.
        // SAFETY: a live stream (its context is: the capture that used it was of that context,
        // and has just ended on this thread).
        let free = matches!(
            unsafe { result::stream::capture_info(idle.stream as _) },
            Ok(None)
        );
        if free {
            // During thread teardown the pool may be gone: the witness is destroyed then.
            let _ = IDLE.try_with(|pool| {
                let mut pool = pool.borrow_mut();
                if pool.len() < KEPT {
                    pool.push(idle);
                }
            });
        }
    }
}
