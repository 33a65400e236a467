//! What an executable shares with the memory its launches use: a gate that keeps launches out
//! while host code accesses that memory, the stream of its latest launch, and an event that marks
//! the completion of its launches.
//!
//! Launches of one executable run in order (CUDA orders each launch of a `CUgraphExec` after the
//! previous one), so "every launch so far has completed" is one event recorded on the stream of
//! the latest launch. Nothing is recorded per launch: the event is recorded only when someone
//! needs it (memory released by the executable, a host access), so a launch costs what the raw
//! driver call costs plus a few plain loads and stores.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use cudarc::driver::{sys, CudaContext, CudaEvent, CudaStream};

use crate::ambient::refuse_in_host_node;
use crate::driver::named;
use crate::error::{Error, Result};

/// An event shared by whoever must wait for it, recorded again as the work it marks grows.
///
/// A wait (`cuStreamWaitEvent`, `cuEventSynchronize`) sees the event as last recorded when the
/// wait is made; recording it again later only makes later waits wait longer. Shared markers
/// therefore stay correct however often they are re-recorded, as long as each record follows
/// everything the earlier ones followed.
#[derive(Debug, Default)]
pub(crate) struct EventCell(Mutex<Option<CudaEvent>>);

impl EventCell {
    fn lock(&self) -> MutexGuard<'_, Option<CudaEvent>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Records the event on `stream`, creating it on first use.
    ///
    /// [`Error::Capturing`] when `stream` is being captured once the event is recorded: the
    /// record may have gone into the capture (another thread's, begun after the caller checked
    /// the stream), and marks nothing that runs. A wait on such an event fails
    /// (`CUDA_ERROR_CAPTURED_EVENT`) once the capture is over; while it goes on, a stream's wait
    /// would join the capture instead of waiting, which this refusal keeps from happening.
    pub(crate) fn record(&self, stream: &CudaStream) -> Result<()> {
        let mut event = self.lock();
        if event.is_none() {
            let flags = Some(sys::CUevent_flags::CU_EVENT_DISABLE_TIMING);
            *event = Some(
                stream
                    .context()
                    .new_event(flags)
                    .map_err(|source| Error::Driver {
                        call: "cuEventCreate",
                        source,
                    })?,
            );
        }
        let event = event.as_ref().expect("created above");
        event.record(stream).map_err(|source| Error::Driver {
            call: "cuEventRecord",
            source,
        })?;
        if is_capturing(stream)? {
            return Err(Error::Capturing {
                what: "a completion marker recorded on a stream that another thread began to \
                       capture meanwhile"
                    .into(),
            });
        }
        Ok(())
    }

    /// Makes `stream`'s later work wait for the event as recorded now (nothing if never recorded).
    pub(crate) fn order_before(&self, stream: &CudaStream) -> Result<()> {
        match &*self.lock() {
            Some(event) => stream.wait(event).map_err(|source| Error::Driver {
                call: "cuStreamWaitEvent",
                source,
            }),
            None => Ok(()),
        }
    }

    /// Blocks until the work the event marks has completed (at once if never recorded).
    ///
    /// Not under the lock: a record of this marker, or a stream's wait on it (another thread's
    /// launch or update), must not wait behind this wait, whose work may need that thread to go
    /// on (a collective's peer launched by it, say). The event itself lives as long as `self`,
    /// and a record made meanwhile only makes this wait longer.
    pub(crate) fn wait_host(&self) -> Result<()> {
        let (ctx, raw) = match &*self.lock() {
            Some(event) => (event.context().clone(), event.cu_event()),
            None => return Ok(()),
        };
        ctx.bind_to_thread().map_err(|source| Error::Driver {
            call: "cuCtxSetCurrent",
            source,
        })?;
        relaxed(|| {
            // SAFETY: a live event (`self` owns it, and the caller holds `self`).
            unsafe { cudarc::driver::result::event::synchronize(raw) }.map_err(|source| {
                Error::Driver {
                    call: "cuEventSynchronize",
                    source,
                }
            })
        })
    }

    /// Whether the work the event marks has completed, without waiting.
    pub(crate) fn is_complete(&self) -> Result<bool> {
        let event = self.lock();
        let Some(event) = &*event else {
            return Ok(true);
        };
        relaxed(|| {
            event.try_is_complete().map_err(|source| Error::Driver {
                call: "cuEventQuery",
                source,
            })
        })
    }
}

impl Drop for EventCell {
    /// Destroying the event calls the driver: not inside a host node or a capture closure.
    fn drop(&mut self) {
        let event = self.0.get_mut().unwrap_or_else(|e| e.into_inner()).take();
        crate::reaper::release(event);
    }
}

/// Runs `f` with this thread's stream-capture interaction mode set to relaxed.
///
/// Waiting for an event is one of the "potentially unsafe" calls CUDA forbids, in the default
/// mode, while any thread captures a stream in global mode; a forbidden call fails *and
/// invalidates that other thread's capture*. The waits this crate makes concern work enqueued
/// outside any capture, which relaxed mode allows (measured: event queries and waits succeed and
/// leave a global capture on another thread intact).
pub(crate) fn relaxed<R>(f: impl FnOnce() -> R) -> R {
    let mut mode = sys::CUstreamCaptureMode::CU_STREAM_CAPTURE_MODE_RELAXED;
    // SAFETY: exchanges this thread's mode with a valid one; restored below.
    let exchanged = unsafe { sys::cuThreadExchangeStreamCaptureMode(&mut mode) };
    let out = f();
    if exchanged == sys::CUresult::CUDA_SUCCESS {
        // SAFETY: puts back the mode read above.
        unsafe { sys::cuThreadExchangeStreamCaptureMode(&mut mode) };
    }
    out
}

/// Runs `f`, a join made through cudarc's event tracking (`device_ptr(_mut)`), with no error
/// stored in `ctx`, and stores that error again afterwards (unless `f` stored a newer one).
///
/// cudarc's `CudaStream::wait` first hands out an error an earlier call stored in the context
/// (`CudaContext::record_err`, which anyone may call) and then returns without waiting, and its
/// event tracking drops that error back in the context: the join would be skipped silently, and
/// launches, which wait for the memory's own stream, would run ahead of the joined work.
pub(crate) fn without_stored_error<R>(ctx: &CudaContext, f: impl FnOnce() -> R) -> R {
    let stored = ctx.check_err();
    let out = f();
    let newer = ctx.check_err();
    ctx.record_err(newer.and(stored));
    out
}

/// Whether work enqueued on `stream` now would be captured instead of run.
pub(crate) fn is_capturing(stream: &CudaStream) -> Result<bool> {
    // SAFETY: a live stream. Allowed during any capture.
    let status = unsafe { cudarc::driver::result::stream::is_capturing(stream.cu_stream()) };
    let status = named("cuStreamIsCapturing", status)?;
    Ok(status != sys::CUstreamCaptureStatus::CU_STREAM_CAPTURE_STATUS_NONE)
}

/// Refuses `call` when `stream` is being captured: what it would enqueue there (`effect`) would
/// be recorded into the capture instead of run.
pub(crate) fn refuse_capturing_stream(
    stream: &CudaStream,
    call: &'static str,
    effect: &str,
) -> Result<()> {
    // Asking the driver is itself a driver call, which a host node may not make.
    refuse_in_host_node(call)?;
    if is_capturing(stream)? {
        return Err(Error::Capturing {
            what: format!("{call} on a stream being captured: {effect}"),
        });
    }
    Ok(())
}

/// The handle of the per-thread default stream (`CU_STREAM_PER_THREAD`,
/// `CudaContext::per_thread_stream`): one handle that names another stream on each thread.
const PER_THREAD_STREAM: usize = 0x2;

/// Whether `stream` is the per-thread default stream. The memory model keeps streams to record
/// events on later, from whichever thread then needs them (the completion of an executable's
/// launches, the tail of a buffer's own stream): recorded on this handle from another thread,
/// such an event would mark that thread's stream, not the one the work went to.
#[inline]
pub(crate) fn is_per_thread(stream: &CudaStream) -> bool {
    stream.cu_stream() as usize == PER_THREAD_STREAM
}

/// The refusal of the per-thread default stream for `call` (see [`is_per_thread`]).
#[cold]
#[inline(never)]
pub(crate) fn per_thread_refused(call: &str) -> Error {
    Error::Invalid {
        node: call.into(),
        reason: "the per-thread default stream (`CudaContext::per_thread_stream`) is another \
                 stream on each thread, so what was enqueued on it cannot be waited for from \
                 another thread: use a stream of its own (`CudaContext::new_stream`)"
            .into(),
    }
}

/// One executable's side of the memory model (see the module docs).
#[derive(Debug)]
pub(crate) struct Fence {
    /// Set while a launch is being enqueued.
    launching: AtomicBool,
    /// Host-access guards that keep launches out.
    accessing: AtomicUsize,
    /// The stream of the latest launch; `None` before the first. Written by the launching thread
    /// inside the gate, read by guards once launches are held off.
    last_stream: Mutex<Option<Arc<CudaStream>>>,
    /// Marks the completion of every launch enqueued before it was last recorded. Shared with
    /// the executables that take over memory this one released.
    done: Arc<EventCell>,
    /// What the next launch must wait for first (host accesses, earlier users of memory taken
    /// over), and whether there is any (one load on the launch path).
    pending: Mutex<Vec<PendingWait>>,
    has_pending: AtomicBool,
    /// The one stream the executable launches into, when it is bound to one
    /// ([`Graph::instantiate_on`](crate::Graph::instantiate_on)): its launches and those of the
    /// other executables bound there run one after the other.
    bound: Option<Arc<CudaStream>>,
}

/// Something the next launch of an executable waits for before it runs.
#[derive(Debug, Clone)]
pub(crate) enum PendingWait {
    /// The completion of work marked by an event (another executable's launches).
    Event(Arc<EventCell>),
    /// Everything enqueued so far on a buffer's own stream: nothing to do when the launch goes
    /// into that stream, else `scratch` is recorded there and waited for.
    StreamTail {
        stream: Arc<CudaStream>,
        scratch: Arc<EventCell>,
    },
}

impl PendingWait {
    fn same(&self, other: &PendingWait) -> bool {
        match (self, other) {
            (PendingWait::Event(a), PendingWait::Event(b)) => Arc::ptr_eq(a, b),
            // One wait for a stream's tail serves every memory whose own work is ordered there.
            (
                PendingWait::StreamTail { stream: a, .. },
                PendingWait::StreamTail { stream: b, .. },
            ) => Arc::ptr_eq(a, b) || **a == **b,
            _ => false,
        }
    }

    fn order_before(&self, stream: &Arc<CudaStream>) -> Result<()> {
        match self {
            PendingWait::Event(event) => event.order_before(stream),
            PendingWait::StreamTail { stream: own, .. }
                if Arc::ptr_eq(own, stream) || **own == **stream =>
            {
                Ok(())
            }
            PendingWait::StreamTail {
                stream: own,
                scratch,
            } => {
                if is_capturing(own)? {
                    return Err(Error::Capturing {
                        what: "ordering a launch after work on a buffer's own stream".into(),
                    });
                }
                scratch.record(own)?;
                scratch.order_before(stream)
            }
        }
    }
}

impl Drop for Fence {
    /// The last reference to the latest launch's stream destroys it (a driver call): not inside
    /// a host node or a capture closure.
    fn drop(&mut self) {
        let stream = self
            .last_stream
            .get_mut()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        crate::reaper::release(stream);
        crate::reaper::release(self.bound.take());
    }
}

impl Default for Fence {
    fn default() -> Self {
        Self::bound_to(None)
    }
}

impl Fence {
    /// The fence of an executable bound to `stream` (see [`Fence::bound`]).
    pub(crate) fn bound_to(stream: Option<Arc<CudaStream>>) -> Self {
        Self {
            launching: AtomicBool::new(false),
            accessing: AtomicUsize::new(0),
            last_stream: Mutex::new(None),
            done: Arc::default(),
            pending: Mutex::new(Vec::new()),
            has_pending: AtomicBool::new(false),
            bound: stream,
        }
    }

    /// The stream the executable is bound to, if any.
    #[inline]
    pub(crate) fn bound(&self) -> Option<&Arc<CudaStream>> {
        self.bound.as_ref()
    }

    /// Whether the launches of this executable and of `other`'s run one after the other: both
    /// are bound to one stream (CUDA runs the work of a stream in order, a graph launch as a
    /// whole).
    pub(crate) fn serialized_with(&self, other: &Fence) -> bool {
        matches!((&self.bound, &other.bound), (Some(a), Some(b)) if Arc::ptr_eq(a, b) || **a == **b)
    }

    /// Enters the launch gate: `false` while a host-access guard holds launches off.
    ///
    /// Together with [`Fence::hold_off_launches`] this is Dekker's protocol: each side announces
    /// itself with a sequentially consistent store, then looks for the other, so at least one of
    /// them sees the other. A guard that sees a launch in progress waits for its enqueue to finish
    /// (and then orders itself after that launch); a launch that sees a guard is refused.
    #[inline]
    pub(crate) fn enter_launch(&self) -> bool {
        self.launching.store(true, Ordering::SeqCst);
        if self.accessing.load(Ordering::SeqCst) == 0 {
            return true;
        }
        self.launching.store(false, Ordering::Release);
        false
    }

    /// Leaves the launch gate.
    #[inline]
    pub(crate) fn exit_launch(&self) {
        self.launching.store(false, Ordering::Release);
    }

    /// Keeps new launches out (they fail) and waits for a launch being enqueued now to finish.
    pub(crate) fn hold_off_launches(&self) {
        self.accessing.fetch_add(1, Ordering::SeqCst);
        while self.launching.load(Ordering::SeqCst) {
            std::hint::spin_loop();
        }
    }

    /// Undoes one [`Fence::hold_off_launches`].
    pub(crate) fn allow_launches(&self) {
        self.accessing.fetch_sub(1, Ordering::Release);
    }

    /// Whether something waits for the next launch.
    #[inline]
    pub(crate) fn has_pending(&self) -> bool {
        self.has_pending.load(Ordering::Acquire)
    }

    /// Makes the next launch wait for `wait` first.
    pub(crate) fn wait_before_next_launch(&self, wait: PendingWait) {
        let mut pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        if !pending.iter().any(|p| p.same(&wait)) {
            pending.push(wait);
        }
        self.has_pending.store(true, Ordering::Release);
    }

    /// Makes `stream` wait for what is pending, and takes it out: the waits are returned, for
    /// [`Fence::restore_pending`] when the launch they were made for fails. On error everything
    /// stays pending (a wait made twice only waits for what it waited for already).
    ///
    /// A launch the driver refuses (into a stream being captured, say) still leaves `stream`
    /// waiting, but the next launch may go into another stream: it must wait again.
    #[cold]
    pub(crate) fn wait_pending(&self, stream: &Arc<CudaStream>) -> Result<Vec<PendingWait>> {
        let mut pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        for wait in pending.iter() {
            wait.order_before(stream)?;
        }
        self.has_pending.store(false, Ordering::Release);
        Ok(std::mem::take(&mut *pending))
    }

    /// Makes the next launch wait again for `waits`, taken by [`Fence::wait_pending`] for a
    /// launch that was not made.
    #[cold]
    pub(crate) fn restore_pending(&self, waits: Vec<PendingWait>) {
        for wait in waits {
            self.wait_before_next_launch(wait);
        }
    }

    /// Records the stream of the latest launch (called by the launching thread, in the gate).
    #[cold]
    pub(crate) fn set_last_stream(&self, stream: &Arc<CudaStream>) {
        *self.last_stream.lock().unwrap_or_else(|e| e.into_inner()) = Some(stream.clone());
    }

    /// Records the completion marker after every launch so far. `Ok(false)`: never launched,
    /// nothing to mark. [`Error::Capturing`] when the latest launch's stream is being captured
    /// (an event recorded there would be captured, not run).
    pub(crate) fn mark(&self) -> Result<bool> {
        let stream = self.last_stream.lock().unwrap_or_else(|e| e.into_inner());
        let Some(stream) = &*stream else {
            return Ok(false);
        };
        if is_capturing(stream)? {
            return Err(Error::Capturing {
                what: "an update, re-instantiation or release of an executable that releases \
                       memory (GraphExec::set_*, update, reinstantiate): the completion of its \
                       launches must be marked on the stream of its latest launch"
                    .into(),
            });
        }
        self.done.record(stream)?;
        Ok(true)
    }

    /// The completion marker as last recorded by [`Fence::mark`].
    pub(crate) fn done(&self) -> &Arc<EventCell> {
        &self.done
    }
}
