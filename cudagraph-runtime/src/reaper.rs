//! The runtime's deferred-release thread (the *reaper*).
//!
//! Some releases cannot happen where they are asked for:
//! - CUDA runs user-object destructors on a driver thread, where calling CUDA is illegal, and a
//!   value moved into a graph (a buffer, a host closure holding one) may call CUDA when dropped;
//! - inside a host node, for the same reason;
//! - memory whose last users' launches may still run, or whose own stream is being captured (a
//!   free enqueued there would be captured, and cudarc's free would invalidate the capture).
//!
//! Those go to this thread. Values are dropped as they arrive; jobs are retried about every
//! millisecond until they report that they are finished. The thread runs in CUDA's *relaxed*
//! stream-capture interaction mode, so that waiting for an event here never breaks a capture
//! another thread is making.

use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{channel, RecvTimeoutError, Sender};
use std::sync::OnceLock;
use std::time::Duration;

use cudarc::driver::sys;

/// A release to retry until it returns `true` (finished).
pub(crate) type Job = Box<dyn FnMut() -> bool + Send>;

enum Work {
    Drop(Box<dyn Any + Send>),
    Job(Job),
    /// Answer once every earlier value is dropped and every job finished.
    Flush(Sender<()>),
}

/// The reaper's inbox, or `None` if its thread could not be started.
fn inbox() -> Option<&'static Sender<Work>> {
    static INBOX: OnceLock<Option<Sender<Work>>> = OnceLock::new();
    INBOX
        .get_or_init(|| {
            let (tx, rx) = channel::<Work>();
            let spawned = std::thread::Builder::new()
                .name("cudagraph-reaper".into())
                .spawn(move || {
                    let mut mode = sys::CUstreamCaptureMode::CU_STREAM_CAPTURE_MODE_RELAXED;
                    // SAFETY: sets this thread's capture interaction mode; the old one is unused.
                    unsafe { sys::cuThreadExchangeStreamCaptureMode(&mut mode) };
                    let mut jobs: Vec<Job> = Vec::new();
                    let mut flushes: Vec<Sender<()>> = Vec::new();
                    // Work taken from the inbox before a flush was answered (see below).
                    let mut taken: Option<Work> = None;
                    loop {
                        let next = if let Some(work) = taken.take() {
                            Ok(work)
                        } else if jobs.is_empty() {
                            rx.recv().map_err(|_| RecvTimeoutError::Disconnected)
                        } else {
                            rx.recv_timeout(Duration::from_millis(1))
                        };
                        match next {
                            // A panicking destructor must not end the reaper; the value is gone.
                            Ok(Work::Drop(value)) => {
                                let _ = catch_unwind(AssertUnwindSafe(|| drop(value)));
                            }
                            Ok(Work::Job(job)) => jobs.push(job),
                            Ok(Work::Flush(done)) => flushes.push(done),
                            Err(RecvTimeoutError::Timeout) => {}
                            Err(RecvTimeoutError::Disconnected) if jobs.is_empty() => return,
                            Err(RecvTimeoutError::Disconnected) => {
                                std::thread::sleep(Duration::from_millis(1))
                            }
                        }
                        jobs.retain_mut(|job| !catch_unwind(AssertUnwindSafe(job)).unwrap_or(true));
                        if jobs.is_empty() && !flushes.is_empty() {
                            // What a value's drop or a job sent here while it ran (a release
                            // that must wait in turn) is still in the inbox: a flush is answered
                            // once that is done too.
                            if let Ok(work) = rx.try_recv() {
                                taken = Some(work);
                                continue;
                            }
                            for done in flushes.drain(..) {
                                let _ = done.send(());
                            }
                        }
                    }
                });
            let tx = spawned.ok().map(|_| tx)?;
            // SAFETY: registers a plain function, callable at any time, with the C library.
            unsafe { atexit(finish_at_exit) };
            Some(tx)
        })
        .as_ref()
}

unsafe extern "C" {
    /// The C library's `atexit`: `f` runs when the process exits normally (`main` returns, or
    /// `std::process::exit`), before what was registered earlier, the CUDA driver's teardown
    /// among it (the reaper starts after the driver is initialized).
    fn atexit(f: extern "C" fn()) -> std::ffi::c_int;
}

/// How long the process may wait, as it exits, for the releases still under way.
const AT_EXIT: Duration = Duration::from_secs(5);

/// Lets the reaper finish what it holds before the process exits: a release running while the
/// driver is torn down (its `atexit` handler, right after this one) would crash the process.
/// Bounded, as a program's exit must be: what is left after [`AT_EXIT`] is abandoned, which
/// leaks nothing the process's end does not reclaim.
extern "C" fn finish_at_exit() {
    let _ = catch_unwind(|| flush(AT_EXIT));
}

/// Waits, at most `timeout`, until the reaper has dropped every value sent to it and finished
/// every job; whether it has.
fn flush(timeout: Duration) -> bool {
    let (done, answer) = channel();
    match inbox() {
        Some(inbox) if inbox.send(Work::Flush(done)).is_ok() => {
            answer.recv_timeout(timeout).is_ok()
        }
        _ => true, // no release thread: nothing was left to it
    }
}

/// Starts the reaper if it is not running; `false` if its thread cannot be started. Call it
/// before handing CUDA something that will need the reaper later, so that a failure shows as an
/// error where it can still be returned.
pub(crate) fn start() -> bool {
    inbox().is_some()
}

fn send(work: Work) {
    match inbox() {
        Some(inbox) => {
            let sent = inbox.send(work);
            // The receiver lives as long as the process; should it ever be gone, leaking the
            // value is safe, dropping it here may not be.
            if let Err(unsent) = sent {
                std::mem::forget(unsent);
            }
        }
        None => std::mem::forget(work),
    }
}

/// Waits, at most `timeout`, until every release this crate put off is done: every value moved
/// into a graph (host closures, captured work's closures, [`UserObject`](crate::UserObject)s)
/// dropped, memory released behind the launches that used it freed, executables and graphs
/// destroyed where the driver could not be called. Returns whether all are (`false` on timeout,
/// which is what a graph or user object still alive, holding a value, leads to).
///
/// Nothing needs this for soundness. It is for a program (or a test) that wants everything
/// released before it exits: a release still under way when the process ends may find the
/// driver torn down. Call it once the graphs, executables and user objects are dropped (the
/// driver hands a value back, asynchronously, once no graph or launch holds it). Inside a host
/// node or a capture closure, where it could wait forever, it returns `false` at once.
pub fn wait_for_releases(timeout: Duration) -> bool {
    if crate::ambient::must_defer_releases() {
        return false;
    }
    let deadline = std::time::Instant::now() + timeout;
    loop {
        let flushed = flush(deadline.saturating_duration_since(std::time::Instant::now()));
        if flushed && values_held() == 0 {
            return true;
        }
        if std::time::Instant::now() >= deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// A value a user object owns; counted while it lives (see [`values_held`]).
pub(crate) struct Payload(#[allow(dead_code)] Box<dyn Any + Send>);

/// How many values user objects own that are not dropped yet.
static HELD: AtomicUsize = AtomicUsize::new(0);

impl Payload {
    /// `value`, counted until it is dropped (on this thread, once the driver gives it back).
    pub(crate) fn new(value: Box<dyn Any + Send>) -> Self {
        HELD.fetch_add(1, Ordering::AcqRel);
        Self(value)
    }
}

impl Drop for Payload {
    fn drop(&mut self) {
        HELD.fetch_sub(1, Ordering::AcqRel);
    }
}

/// How many values moved into user objects (graphs) are not dropped yet.
fn values_held() -> usize {
    HELD.load(Ordering::Acquire)
}

/// Drops `value` on the reaper thread.
pub(crate) fn drop_later(value: Box<dyn Any + Send>) {
    send(Work::Drop(value));
}

/// Drops `value` now, or on the reaper thread when this thread may not call the driver (a host
/// node, a capture closure: see `crate::ambient`): for values whose drop may call it (a cudarc
/// event, stream, module or context whose last reference this is).
#[inline]
pub(crate) fn release<T: Send + 'static>(value: T) {
    if crate::ambient::must_defer_releases() {
        drop_later(Box::new(value));
    } else {
        drop(value);
    }
}

/// Runs `job` on the reaper thread until it reports that it is finished.
pub(crate) fn run_later(job: Job) {
    send(Work::Job(job));
}
