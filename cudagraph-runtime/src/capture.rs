//! Stream capture: work enqueued on a stream is recorded as graph nodes instead of run
//! (`cuStreamBeginCapture` / `cuStreamBeginCaptureToGraph` ... `cuStreamEndCapture`), into a new
//! graph, into an existing one, or as a child-graph node; the [`CaptureScope`] a capture closure
//! gets, with fork/join over several streams; and the errors that say what broke a capture. The
//! crate docs ("Stream capture") describe it for users.

use std::any::Any;
use std::cell::{Cell, RefCell};
use std::ops::Deref;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::Arc;

use cudarc::driver::{sys, CudaContext, CudaStream, DriverError};

use crate::ambient::{in_capture, in_host_node, InCapture};
use crate::driver::{record_err, result};
use crate::error::{Error, Result};
use crate::graph::Graph;
use crate::memory::fence::is_capturing;
use crate::node::{ChildGraphNode, NodeId, NodeKind};

/// Refuses `call`, which waits on the host for the GPU or may synchronize the device, inside a
/// capture closure.
#[inline]
pub(crate) fn refuse_waiting_in_capture(call: &str) -> Result<()> {
    if in_capture() {
        return Err(waiting_in_capture(call));
    }
    Ok(())
}

#[cold]
fn waiting_in_capture(call: &str) -> Error {
    Error::Capturing {
        what: format!(
            "{call} inside a capture closure: it waits on the host for the GPU (or may \
             synchronize the device), which CUDA forbids on the capturing thread, and it could \
             not see the captured work, which runs only when the graph is launched; do it before \
             or after the capture"
        ),
    }
}

/// Refuses `call` when `stream` is being captured: what it would enqueue there (`effect`) would
/// be recorded into the capture instead of run.
pub(crate) fn refuse_capturing_stream(stream: &CudaStream, call: &str, effect: &str) -> Result<()> {
    if is_capturing(stream)? {
        return Err(Error::Capturing {
            what: format!("{call} on a stream being captured: {effect}"),
        });
    }
    Ok(())
}

/// Whether `stream` is the legacy default stream (null, or `CU_STREAM_LEGACY`), which CUDA does
/// not capture.
fn is_legacy(stream: sys::CUstream) -> bool {
    stream.is_null() || stream as usize == 0x1
}

/// A stream being captured, lent to a capture closure: dereferences to the `Arc<CudaStream>`
/// for cudarc's calls, and forks the capture onto other streams.
///
/// It exists only inside the closure it is given to (its lifetime cannot leave the closure), and
/// only on the capturing thread (it is neither `Send` nor `Sync`), so every stream it forks is
/// joined before the capture ends.
///
/// ```compile_fail
/// # use cudagraph_runtime::{CaptureScope, Graph};
/// # fn f(stream: &std::sync::Arc<cudagraph_runtime::cudarc::driver::CudaStream>) {
/// let mut kept = None;
/// // SAFETY: nothing is captured.
/// let _ = unsafe {
///     Graph::capture(stream, |s: &CaptureScope<'_>| {
///         kept = Some(s); // the scope cannot outlive its closure
///         Ok::<(), cudagraph_runtime::Error>(())
///     })
/// };
/// # }
/// ```
///
/// ```compile_fail
/// # use cudagraph_runtime::{CaptureScope, Graph};
/// # fn f(stream: &std::sync::Arc<cudagraph_runtime::cudarc::driver::CudaStream>) {
/// // SAFETY: nothing is captured.
/// let _ = unsafe {
///     Graph::capture(stream, |s: &CaptureScope<'_>| {
///         // A scope stays on the capturing thread.
///         std::thread::scope(|t| {
///             t.spawn(|| s.stream().synchronize());
///         });
///         Ok::<(), cudagraph_runtime::Error>(())
///     })
/// };
/// # }
/// ```
pub struct CaptureScope<'s> {
    stream: &'s Arc<CudaStream>,
    sequence: &'s Sequence,
}

impl std::fmt::Debug for CaptureScope<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CaptureScope")
            .field("stream", &self.stream.cu_stream())
            .field("capture", &self.sequence.id)
            .finish()
    }
}

impl Deref for CaptureScope<'_> {
    type Target = Arc<CudaStream>;

    fn deref(&self) -> &Arc<CudaStream> {
        self.stream
    }
}

impl CaptureScope<'_> {
    /// The stream being captured: enqueue the work to record on it.
    pub fn stream(&self) -> &Arc<CudaStream> {
        self.stream
    }

    /// Runs `f` with `side` forked from this scope's stream: `side` first waits for the work
    /// recorded on this stream so far, `f` records work on it (parallel to what this stream
    /// records meanwhile), and then this stream waits for `side`, also when `f` fails. Returns
    /// `f`'s value.
    ///
    /// The work recorded on `side` becomes a parallel branch of the graph. `f` may record work
    /// on this scope's stream too (keep its scope at hand), and fork further.
    ///
    /// Refused ([`Error::Invalid`]) for `side` being this stream, the legacy default stream,
    /// a stream of another context, or a stream in another capture. (cudarc's own
    /// `CudaStream::fork`, `s.stream().fork()`, makes a stream that nothing joins back: the end
    /// of the capture then fails with `CUDA_ERROR_STREAM_CAPTURE_UNJOINED`.)
    ///
    /// ```no_run
    /// # use cudagraph_runtime::{CaptureScope, Graph, Error};
    /// # use cudagraph_runtime::cudarc::driver::CudaStream;
    /// # use std::sync::Arc;
    /// # fn f(stream: &Arc<CudaStream>, side: &Arc<CudaStream>,
    /// #      a: &mut cudagraph_runtime::cudarc::driver::CudaSlice<f32>,
    /// #      b: &mut cudagraph_runtime::cudarc::driver::CudaSlice<f32>) -> Result<(), Error> {
    /// // SAFETY: `a` and `b` outlive the graph and its executables.
    /// let graph = unsafe {
    ///     Graph::capture(stream, |s| {
    ///         s.fork(side, |t| {
    ///             t.memset_zeros(&mut *a)?; // on `side`
    ///             s.memset_zeros(&mut *b)?; // on `stream`, in parallel
    ///             Ok::<(), Error>(())
    ///         })
    ///         // here `stream` waits for `side`
    ///     })
    /// }?;
    /// # Ok(()) }
    /// ```
    pub fn fork<R, E>(
        &self,
        side: &Arc<CudaStream>,
        f: impl FnOnce(&CaptureScope<'_>) -> Result<R, E>,
    ) -> Result<R>
    where
        Error: From<E>,
    {
        self.sequence.check_side(self.stream, side)?;
        self.sequence.order(self.stream, side)?;
        self.sequence.note_forked(side);
        let body = f(&CaptureScope {
            stream: side,
            sequence: self.sequence,
        })
        .map_err(Error::from);
        let joined = self.sequence.order(side, self.stream);
        let value = body?;
        joined?;
        Ok(value)
    }

    /// Like [`CaptureScope::fork`] for several streams at once: each of `sides` waits for this
    /// stream, `f` gets one scope per stream (in the order given), and this stream then waits for
    /// every one of them, also when `f` fails.
    pub fn fork_all<R, E>(
        &self,
        sides: &[&Arc<CudaStream>],
        f: impl FnOnce(&[CaptureScope<'_>]) -> Result<R, E>,
    ) -> Result<R>
    where
        Error: From<E>,
    {
        for (i, side) in sides.iter().enumerate() {
            self.sequence.check_side(self.stream, side)?;
            if sides[..i].iter().any(|s| s.cu_stream() == side.cu_stream()) {
                return Err(Error::Invalid {
                    node: "CaptureScope::fork_all".into(),
                    reason: format!("stream {i} is listed twice: give each stream once"),
                });
            }
        }
        let mut scopes = Vec::with_capacity(sides.len());
        let mut forked = Ok(());
        for &side in sides {
            forked = self.sequence.order(self.stream, side);
            if forked.is_err() {
                break;
            }
            self.sequence.note_forked(side);
            scopes.push(CaptureScope {
                stream: side,
                sequence: self.sequence,
            });
        }
        let body = forked.and_then(|()| f(&scopes).map_err(Error::from));
        // Every stream that was forked is joined, whatever happened.
        let mut joined = Ok(());
        for scope in &scopes {
            let join = self.sequence.order(scope.stream, self.stream);
            joined = joined.and(join);
        }
        let value = body?;
        joined?;
        Ok(value)
    }
}

/// What the scopes of one capture share: its id, the streams forked into it, and the event that
/// forks and joins are made with.
struct Sequence {
    ctx: Arc<CudaContext>,
    /// The capture's unique id (`cuStreamGetCaptureInfo`).
    id: u64,
    /// The stream the capture was begun on: every fork is joined back into it at the end.
    origin: Arc<CudaStream>,
    forked: RefCell<Vec<Arc<CudaStream>>>,
    /// Made on the first fork; destroyed after the capture has ended.
    event: Cell<sys::CUevent>,
}

impl Sequence {
    /// The event forks and joins are ordered with. One event serves them all: a wait sees the
    /// event as last recorded when the wait is made, so each record-then-wait pair is
    /// independent of the others.
    fn event(&self) -> Result<sys::CUevent> {
        let event = self.event.get();
        if !event.is_null() {
            return Ok(event);
        }
        // The closure may have made another context current: the event must be this one's.
        // SAFETY: a live context.
        unsafe { cudarc::driver::result::ctx::set_current(self.ctx.cu_ctx()) }.map_err(
            |source| Error::Driver {
                call: "cuCtxSetCurrent",
                source,
            },
        )?;
        // SAFETY: the capture's context was made current above.
        let event = unsafe { result::event::create() }?;
        self.event.set(event);
        Ok(event)
    }

    /// Makes `to`'s later work wait for the work enqueued on `from` so far: in a capture, `to`'s
    /// next nodes depend on `from`'s last ones, and `to` joins the capture if it was not in it.
    fn order(&self, from: &CudaStream, to: &CudaStream) -> Result<()> {
        let event = self.event()?;
        // SAFETY: the event and both streams are live, of this capture's context (checked for a
        // forked stream by `check_side`).
        unsafe { result::event::record(event, from.cu_stream()) }?;
        // SAFETY: as above.
        unsafe { result::stream::wait_event(to.cu_stream(), event) }
    }

    /// Refuses a stream that cannot be forked from `own`.
    fn check_side(&self, own: &CudaStream, side: &CudaStream) -> Result<()> {
        let refuse = |reason: &str| {
            Err(Error::Invalid {
                node: "CaptureScope::fork".into(),
                reason: reason.into(),
            })
        };
        if is_legacy(side.cu_stream()) {
            return refuse(
                "the legacy default stream (`CudaContext::default_stream`) cannot take part in a \
                 capture (CUDA does not capture it): fork a stream made by \
                 `CudaContext::new_stream`",
            );
        }
        if side.cu_stream() == own.cu_stream() {
            return refuse("a stream cannot be forked from itself: give another stream");
        }
        if side.context().cu_ctx() != self.ctx.cu_ctx() {
            return refuse(
                "the stream belongs to another context than the stream being captured: a \
                 capture records the work of one context",
            );
        }
        // SAFETY: a live stream.
        match unsafe { result::stream::capture_info(side.cu_stream()) }? {
            Some((id, _)) if id != self.id => refuse(
                "the stream is being captured by another capture, which CUDA would merge with \
                 this one (CUDA_ERROR_STREAM_CAPTURE_MERGE): fork a stream that is not being \
                 captured",
            ),
            _ => Ok(()),
        }
    }

    /// Remembers `side` for the final join ([`Sequence::join_forks`]).
    fn note_forked(&self, side: &Arc<CudaStream>) {
        let mut forked = self.forked.borrow_mut();
        if !forked.iter().any(|s| s.cu_stream() == side.cu_stream()) {
            forked.push(side.clone());
        }
    }

    /// Joins every stream forked into the capture back into its stream, so that work enqueued on
    /// one after its fork returned cannot leave the capture unjoined.
    fn join_forks(&self) -> Result<()> {
        let forked = std::mem::take(&mut *self.forked.borrow_mut());
        let mut joined = Ok(());
        for side in &forked {
            // Only a stream still in this capture: one that left it (by an error) has nothing
            // to join.
            // SAFETY: a live stream.
            match unsafe { result::stream::capture_info(side.cu_stream()) } {
                Ok(Some((id, true))) if id == self.id => {}
                _ => continue,
            }
            joined = joined.and(self.order(side, &self.origin));
        }
        joined
    }
}

impl Drop for Sequence {
    fn drop(&mut self) {
        let event = self.event.get();
        if !event.is_null() {
            // SAFETY: our event; the capture that used it has ended.
            record_err(&self.ctx, unsafe { result::event::destroy(event) });
        }
    }
}

/// How a capture went.
pub(crate) struct Ended {
    /// The graph `cuStreamEndCapture` returned (null when none): for a capture into a new graph,
    /// the caller owns it, also when the capture failed; for a capture into a graph, that graph.
    pub(crate) graph: sys::CUgraph,
    /// The outcome: the closure's error first, then the end's, capture errors explained.
    pub(crate) outcome: Result<()>,
    /// The closure's panic, to resume once the caller has cleaned up.
    pub(crate) panic: Option<Box<dyn Any + Send>>,
}

/// Runs a capture on `stream` for `call`: `begin` begins it (given the raw stream and the mode),
/// `f` records work, forked streams are joined, and the capture ends, whatever `f` did.
pub(crate) fn run<E>(
    call: &'static str,
    stream: &Arc<CudaStream>,
    begin: impl FnOnce(sys::CUstream, sys::CUstreamCaptureMode) -> Result<()>,
    f: impl FnOnce(&CaptureScope<'_>) -> Result<(), E>,
) -> Ended
where
    Error: From<E>,
{
    let not_begun = |outcome| Ended {
        graph: std::ptr::null_mut(),
        outcome,
        panic: None,
    };
    if in_host_node() {
        return not_begun(Err(Error::InHostNode { what: call }));
    }
    if is_legacy(stream.cu_stream()) {
        return not_begun(Err(Error::Invalid {
            node: call.into(),
            reason: "the legacy default stream (`CudaContext::default_stream`) cannot be \
                     captured (CUDA refuses it): capture a stream made by \
                     `CudaContext::new_stream`"
                .into(),
        }));
    }
    let ctx = stream.context();
    if let Err(source) = ctx.bind_to_thread() {
        return not_begun(Err(Error::Driver {
            call: "cuCtxSetCurrent",
            source,
        }));
    }
    // Thread-local: only this thread's synchronizing calls break the capture; other threads
    // go on as they are.
    let mode = sys::CUstreamCaptureMode::CU_STREAM_CAPTURE_MODE_THREAD_LOCAL;
    if let Err(e) = begin(stream.cu_stream(), mode) {
        return not_begun(Err(e));
    }
    // SAFETY: a live stream.
    let info = unsafe { result::stream::capture_info(stream.cu_stream()) };
    let sequence = Sequence {
        ctx: ctx.clone(),
        id: info
            .as_ref()
            .ok()
            .copied()
            .flatten()
            .map_or(0, |(id, _)| id),
        origin: stream.clone(),
        forked: RefCell::new(Vec::new()),
        event: Cell::new(std::ptr::null_mut()),
    };
    let body = match info {
        Err(e) => Ok(Err(e)),
        Ok(_) => {
            let _inside = InCapture::enter();
            let scope = CaptureScope {
                stream,
                sequence: &sequence,
            };
            // The panic is resumed by the caller, after the capture has ended and the graph is
            // cleaned up: nothing here is left half-done.
            catch_unwind(AssertUnwindSafe(|| f(&scope).map_err(Error::from)))
        }
    };
    // Whatever happened, no forked stream is left out of the end.
    let _ = sequence.join_forks();
    // SAFETY: the capture begun above, on this stream and thread.
    let (graph, ended) = unsafe { result::stream::end_capture(stream.cu_stream()) };
    drop(sequence);
    let (body, panic) = match body {
        Ok(body) => (body, None),
        Err(panic) => (Ok(()), Some(panic)),
    };
    let outcome = match (body, ended) {
        (Ok(()), Ok(())) => Ok(()),
        (Err(e), ended) => Err(explain(e, ended.is_err(), ctx, None)),
        (Ok(()), Err(e)) => Err(explain(
            e,
            true,
            ctx,
            Some("the end of the capture (cuStreamEndCapture)"),
        )),
    };
    Ended {
        graph,
        outcome,
        panic,
    }
}

/// Whether `code` is one of the driver's stream-capture errors.
pub(crate) fn is_capture_code(code: sys::CUresult) -> bool {
    use sys::CUresult::*;
    matches!(
        code,
        CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED
            | CUDA_ERROR_STREAM_CAPTURE_INVALIDATED
            | CUDA_ERROR_STREAM_CAPTURE_MERGE
            | CUDA_ERROR_STREAM_CAPTURE_UNMATCHED
            | CUDA_ERROR_STREAM_CAPTURE_UNJOINED
            | CUDA_ERROR_STREAM_CAPTURE_ISOLATION
            | CUDA_ERROR_STREAM_CAPTURE_IMPLICIT
            | CUDA_ERROR_CAPTURED_EVENT
            | CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD
    )
}

/// What cudarc recorded for later during a broken capture, if it is a capture error: taken out
/// of the context (it concerns the capture, and would fail the caller's next cudarc call), while
/// any other recorded error is put back.
fn take_recorded(ctx: &CudaContext) -> Option<DriverError> {
    match ctx.check_err() {
        Ok(()) => None,
        Err(e) if is_capture_code(e.0) => Some(e),
        Err(e) => {
            ctx.record_err(Err::<(), _>(e));
            None
        }
    }
}

/// A capture's failure, explained: a driver error with a capture code becomes
/// [`Error::CaptureBroken`] naming the failed call (`end` names the end of the capture when the
/// error is the end's), or the call whose error cudarc recorded for later when the failure is
/// only the invalidation that followed it. Other errors are returned as they are. `broken` says
/// whether the capture was broken (its end failed): then cudarc's recorded capture errors are
/// taken out of the context.
pub(crate) fn explain(
    error: Error,
    broken: bool,
    ctx: &CudaContext,
    end: Option<&'static str>,
) -> Error {
    let failed = match &error {
        Error::Driver { call, source } if is_capture_code(source.0) => Some((
            end.map_or_else(|| format!("{call} inside the capture"), str::to_owned),
            *source,
        )),
        Error::Node { call, node, source } if is_capture_code(source.0) => Some((
            format!("{call} on node `{node}` inside the capture"),
            *source,
        )),
        _ => None,
    };
    let recorded = if broken || failed.is_some() {
        take_recorded(ctx)
    } else {
        None
    };
    let Some((call, code)) = failed else {
        return error;
    };
    let tracking = ctx.is_managing_stream_synchronization();
    let invalidated = sys::CUresult::CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
    match recorded {
        // The invalidation followed an earlier failure, which cudarc recorded: that one says
        // what broke the capture.
        Some(first) if code.0 == invalidated && first.0 != invalidated => capture_broken(
            "a cudarc call inside the capture that records its errors for later (the wait of \
             cudarc's event tracking before a buffer is used, or a drop)"
                .into(),
            first,
            tracking,
        ),
        _ => capture_broken(call, code, tracking),
    }
}

/// [`Error::CaptureBroken`] for `call` failing with `code`; `tracking` says whether cudarc's
/// event tracking is on (it explains some codes).
pub(crate) fn capture_broken(call: String, code: DriverError, tracking: bool) -> Error {
    Error::CaptureBroken {
        call,
        code,
        hint: hint(code.0, tracking),
    }
}

/// What makes the driver return `code` during a capture, and what to do instead.
fn hint(code: sys::CUresult, tracking: bool) -> &'static str {
    use sys::CUresult::*;
    match code {
        CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED => {
            "a call that synchronizes or waits on the host is not allowed while a stream is \
             being captured (e.g. `CudaStream::synchronize`, `CudaContext::synchronize`, \
             `CudaEvent::synchronize`, a copy to or from pageable host memory such as \
             `clone_dtoh` or `memcpy_dtov`, `cuMemAlloc`, `cuMemFreeHost`); make it before or \
             after the capture, and read results after launching the graph"
        }
        CUDA_ERROR_STREAM_CAPTURE_INVALIDATED if tracking => {
            "an earlier call broke the capture and its error was not returned by the capture \
             closure (ignored, or recorded by cudarc for later). cudarc's event tracking is on: \
             a buffer last used outside the capture makes cudarc wait on an event recorded \
             outside it, which breaks the capture; call `unsafe { ctx.disable_event_tracking() \
             }` before capturing and order the streams yourself. Otherwise look for a call that \
             synchronizes (`synchronize`, a blocking copy to the host)"
        }
        CUDA_ERROR_STREAM_CAPTURE_INVALIDATED => {
            "an earlier call broke the capture and its error was not returned by the capture \
             closure (ignored with `let _ =` or `.ok()`, or recorded by cudarc for later): \
             typically a call that synchronizes (`synchronize`, a blocking copy to the host), or \
             a wait on an event recorded outside the capture; return errors from the closure \
             with `?` to see which"
        }
        CUDA_ERROR_STREAM_CAPTURE_MERGE => {
            "two separate captures were joined: a stream being captured waited on an event \
             recorded in another capture"
        }
        CUDA_ERROR_STREAM_CAPTURE_UNMATCHED => "the capture was not begun on this stream",
        CUDA_ERROR_STREAM_CAPTURE_UNJOINED => {
            "a stream joined the capture (it waited on an event recorded in it: cudarc's \
             `CudaStream::fork` or `join`, `CudaStream::wait`, or cudarc's event tracking) and \
             was not joined back into the captured stream before the capture ended; fork \
             streams with `CaptureScope::fork`, which always joins them"
        }
        CUDA_ERROR_STREAM_CAPTURE_ISOLATION if tracking => {
            "the capture would depend on work outside it: a stream being captured waited on an \
             event recorded outside the capture. cudarc's event tracking is on, and does this \
             when a buffer was last used outside the capture: call `unsafe { \
             ctx.disable_event_tracking() }` before capturing and order the streams yourself"
        }
        CUDA_ERROR_STREAM_CAPTURE_ISOLATION => {
            "the capture would depend on work outside it: a stream being captured waited on an \
             event recorded outside the capture (order such work before the capture begins)"
        }
        CUDA_ERROR_STREAM_CAPTURE_IMPLICIT => {
            "the legacy default stream (`CudaContext::default_stream`, stream 0) was used while \
             a blocking stream was being captured, which would make it wait on the capture; use \
             streams made by `CudaContext::new_stream` (non-blocking)"
        }
        CUDA_ERROR_CAPTURED_EVENT => {
            "an event last recorded inside the capture was queried or waited for on the host \
             (`CudaEvent::synchronize`, `is_complete`, `elapsed_ms`) or by a stream outside the \
             capture: such an event only orders captured work. cudarc records such events for \
             its buffers when event tracking is on (see `CudaContext::disable_event_tracking`)"
        }
        CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD => {
            "a call that belongs to the capturing thread was made on another thread (captures of \
             this crate are thread-local: keep the capture's work on the capturing thread)"
        }
        _ => "see the CUDA driver API documentation of this error code",
    }
}

/// The name of a raw node type (`CUgraphNodeType`), as in default node names.
pub(crate) fn raw_kind_name(code: u32) -> &'static str {
    use sys::CUgraphNodeType::*;
    const KINDS: &[(sys::CUgraphNodeType, &str)] = &[
        (CU_GRAPH_NODE_TYPE_KERNEL, "kernel"),
        (CU_GRAPH_NODE_TYPE_MEMCPY, "memcpy"),
        (CU_GRAPH_NODE_TYPE_MEMSET, "memset"),
        (CU_GRAPH_NODE_TYPE_HOST, "host"),
        (CU_GRAPH_NODE_TYPE_GRAPH, "child_graph"),
        (CU_GRAPH_NODE_TYPE_EMPTY, "empty"),
        (CU_GRAPH_NODE_TYPE_WAIT_EVENT, "event_wait"),
        (CU_GRAPH_NODE_TYPE_EVENT_RECORD, "event_record"),
        (CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL, "semaphore_signal"),
        (CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT, "semaphore_wait"),
        (CU_GRAPH_NODE_TYPE_MEM_ALLOC, "mem_alloc"),
        (CU_GRAPH_NODE_TYPE_MEM_FREE, "mem_free"),
        (CU_GRAPH_NODE_TYPE_BATCH_MEM_OP, "batch_mem_op"),
        #[cfg(not(feature = "cuda-12020"))]
        (CU_GRAPH_NODE_TYPE_CONDITIONAL, "conditional"),
    ];
    KINDS
        .iter()
        .find(|(kind, _)| *kind as u32 == code)
        .map_or("node", |(_, name)| name)
}

/// Whether CUDA allows a node of raw type `code` in a conditional body (kernel, empty,
/// child-graph, memset, memcpy and conditional nodes: [conditional graph nodes]).
///
/// [conditional graph nodes]: https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#conditional-graph-nodes
pub(crate) fn raw_allowed_in_body(code: u32) -> bool {
    use sys::CUgraphNodeType::*;
    [
        CU_GRAPH_NODE_TYPE_KERNEL,
        CU_GRAPH_NODE_TYPE_EMPTY,
        CU_GRAPH_NODE_TYPE_GRAPH,
        CU_GRAPH_NODE_TYPE_MEMSET,
        CU_GRAPH_NODE_TYPE_MEMCPY,
        #[cfg(not(feature = "cuda-12020"))]
        CU_GRAPH_NODE_TYPE_CONDITIONAL,
    ]
    .iter()
    .any(|&kind| kind as u32 == code)
}

/// The error for a captured node of raw type `code` that a conditional body may not hold.
fn not_in_body(node: String, code: u32) -> Error {
    Error::Invalid {
        node,
        reason: format!(
            "the capture recorded a {} node, and CUDA allows only kernel, empty, child-graph, \
             memset, memcpy and conditional nodes in a conditional body (host functions, event \
             records and waits with external events, stream-ordered allocations and frees are \
             not): enqueue that work before or after the conditional node",
            raw_kind_name(code)
        ),
    }
}

/// The nodes [`Graph::capture_into`] recorded into a graph.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Captured {
    nodes: Vec<NodeId>,
    sinks: Vec<NodeId>,
}

impl Captured {
    /// What later nodes depend on to come after the captured work: the captured nodes that no
    /// other captured node depends on. For a capture that recorded nothing, the dependencies the
    /// capture was given, so that "after the capture" still means after them.
    pub fn sinks(&self) -> &[NodeId] {
        &self.sinks
    }

    /// Every captured node, in graph order (each after its dependencies).
    pub fn nodes(&self) -> &[NodeId] {
        &self.nodes
    }

    /// How many nodes the capture recorded.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the capture recorded nothing.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }
}

/// Captures `f`'s work on `stream` into a new graph, for `call`.
fn capture_new<'a, E>(
    call: &'static str,
    stream: &Arc<CudaStream>,
    f: impl FnOnce(&CaptureScope<'_>) -> Result<(), E>,
) -> Result<Graph<'a>>
where
    Error: From<E>,
{
    let ended = run(
        call,
        stream,
        // SAFETY: a live stream (not the legacy one: `run` refuses it) of the context `run`
        // made current.
        |s, mode| unsafe { result::stream::begin_capture(s, mode) },
        f,
    );
    let graph = (!ended.graph.is_null()).then(|| {
        // SAFETY: the captured graph is new and ours, also when the capture failed.
        unsafe { Graph::from_raw_parts(ended.graph, stream.context().clone(), Vec::new()) }
    });
    if let Some(panic) = ended.panic {
        drop(graph);
        resume_unwind(panic);
    }
    ended.outcome?;
    let mut graph = graph.ok_or_else(|| Error::Invalid {
        node: call.into(),
        reason: "the capture produced no graph".into(),
    })?;
    let recorded = graph.recorded_nodes()?;
    graph.learn_recorded(recorded)?;
    Ok(graph)
}

impl Graph<'static> {
    /// Records the work `f` enqueues on `stream` as a new graph (`cuStreamBeginCapture` in
    /// thread-local mode ... `cuStreamEndCapture`). Capture always ends, also when `f` fails or
    /// panics; `f`'s error comes first, and a capture broken by a call inside it is reported as
    /// [`Error::CaptureBroken`] naming that call where it can be known (see the crate docs,
    /// "Stream capture").
    ///
    /// `f` gets a [`CaptureScope`]: the stream (it dereferences to `Arc<CudaStream>`), and
    /// [`CaptureScope::fork`] to record parallel branches on other streams, which are always
    /// joined back. The captured nodes are listed as [`NodeKind::Other`] (allocations, frees,
    /// event nodes and conditional nodes by their kind), with their edges; embed the graph in a
    /// built graph with [`Graph::add_child_graph`] (or capture straight into one with
    /// [`Graph::capture_into`] or [`Graph::add_captured`]), or instantiate it as it is.
    ///
    /// cudarc orders each buffer's uses across streams with events, and waiting inside a capture
    /// on an event recorded outside it breaks the capture: with several streams in play, call
    /// `unsafe { ctx.disable_event_tracking() }` (cudarc) before capturing, as cudarc's own
    /// capture tests do, and order the streams yourself.
    ///
    /// # Safety
    /// The captured nodes keep the raw addresses of the memory `f`'s work uses, and nothing tells
    /// this crate which memory that is. It must stay allocated, and host code must not access it
    /// while a launch may use it, for as long as the graph, graphs that embed it and the
    /// executables made from them may run: keep the buffers alive beyond those executables, or
    /// hand them to the graph with [`Graph::retain`]. The same holds for the modules of the
    /// kernels `f` launches (keep the `CudaModule`s alive).
    pub unsafe fn capture<E>(
        stream: &Arc<CudaStream>,
        f: impl FnOnce(&CaptureScope<'_>) -> Result<(), E>,
    ) -> Result<Graph<'static>>
    where
        Error: From<E>,
    {
        capture_new("Graph::capture", stream, f)
    }
}

impl<'a> Graph<'a> {
    /// Records the work `f` enqueues on `stream` as a child-graph node of this graph, after
    /// `deps`: a capture into a new graph ([`Graph::capture`]), embedded with
    /// [`Graph::add_child_graph`]. The node takes the name given with [`Graph::name_next`].
    ///
    /// Refused when the captured work allocates or frees memory (captured `cuMemAllocAsync` /
    /// `cuMemFreeAsync` become memory nodes, which CUDA embeds only by moving the graph; use
    /// [`Graph::capture_into`]), and, in a conditional body, when it recorded a node CUDA does
    /// not allow there (see [`Graph::add_conditional`](Graph::add_conditional)).
    ///
    /// # Safety
    /// As for [`Graph::capture`]: the memory and kernel modules the captured work uses must stay
    /// valid, and untouched by host code while a launch may use them, as long as this graph and
    /// its executables may run.
    pub unsafe fn add_captured<E>(
        &mut self,
        stream: &Arc<CudaStream>,
        deps: &[NodeId],
        f: impl FnOnce(&CaptureScope<'_>) -> Result<(), E>,
    ) -> Result<ChildGraphNode>
    where
        Error: From<E>,
    {
        let checked = self.check_capture("Graph::add_captured", stream, deps);
        self.or_forget_name(checked)?;
        let child: Result<Graph<'a>> = capture_new("Graph::add_captured", stream, f);
        let child = self.or_forget_name(child)?;
        if child.has_memory_nodes() {
            let node = self.pending_name(NodeKind::ChildGraph);
            return self.or_forget_name(Err(Error::Invalid {
                node,
                reason: "the captured work allocates or frees memory (stream-ordered \
                         allocations became memory nodes), and CUDA embeds a graph with memory \
                         nodes only by moving it: capture it with `Graph::capture_into`, or as a \
                         graph of its own"
                    .into(),
            }));
        }
        if self.is_body() {
            let bad = child.all_records().enumerate().find_map(|(i, record)| {
                // SAFETY: a node of the live child graph.
                match unsafe { result::graph::node_type(record.raw) } {
                    Ok(code) if raw_allowed_in_body(code) => None,
                    Ok(code) => Some(Ok((i, code))),
                    Err(e) => Some(Err(e)),
                }
            });
            if let Some(bad) = bad {
                let node = self.pending_name(NodeKind::ChildGraph);
                let error = bad.and_then(|(i, code)| {
                    Err(not_in_body(
                        format!("{node} (its node {}#{i})", raw_kind_name(code)),
                        code,
                    ))
                });
                return self.or_forget_name(error);
            }
        }
        self.add_child_graph(&child, deps)
    }

    /// Records the work `f` enqueues on `stream` into this graph, after `deps`
    /// (`cuStreamBeginCaptureToGraph` in thread-local mode, CUDA 12.3 or newer): the nodes are
    /// this graph's, listed by [`Graph::nodes`] and [`Graph::to_dot`] (as for [`Graph::capture`])
    /// and usable as dependencies of nodes added later; [`Captured::sinks`] are the ones to
    /// depend on to come after the captured work.
    ///
    /// ```no_run
    /// # use cudagraph_runtime::prelude::*;
    /// # use cudagraph_runtime::{Captured, Error};
    /// # fn f(graph: &mut Graph, stream: &std::sync::Arc<cudagraph_runtime::cudarc::driver::CudaStream>,
    /// #      y: &DeviceBuffer<f32>, k: &Kernel<(u32, DevicePtrMut<f32>)>,
    /// #      x: &mut cudagraph_runtime::cudarc::driver::CudaSlice<f32>) -> Result<(), Error> {
    /// let zero = graph.add_memset(Memset::new(y, 0.0f32), &[])?;
    /// // SAFETY: `x` outlives the graph and its executables.
    /// let captured = unsafe {
    ///     graph.capture_into(stream, &[zero.id()], |s| s.memset_zeros(&mut *x))
    /// }?;
    /// let cfg = LaunchConfig::for_num_elems(1024);
    /// graph.add_kernel(k, cfg, (1024, y), captured.sinks())?;
    /// # Ok(()) }
    /// ```
    ///
    /// The capture always ends; when it fails (`f`'s error first, then a broken capture as
    /// [`Error::CaptureBroken`]) or `f` panics, the nodes it recorded are removed again, and the
    /// graph is as it was (CUDA cannot remove nodes from a graph with memory nodes: such nodes
    /// stay, and are listed).
    ///
    /// Into a conditional body (a graph [`Graph::add_conditional`] gives its build closure), CUDA's
    /// body rule applies: a captured node of a kind a body may not hold (a host function, an event
    /// node, an allocation or free) is refused, naming it, and the recorded nodes are removed.
    ///
    /// # Safety
    /// As for [`Graph::capture`]: the memory and kernel modules the captured work uses must stay
    /// valid, and untouched by host code while a launch may use them, as long as this graph and
    /// its executables may run.
    #[cfg(not(feature = "cuda-12020"))]
    pub unsafe fn capture_into<E>(
        &mut self,
        stream: &Arc<CudaStream>,
        deps: &[NodeId],
        f: impl FnOnce(&CaptureScope<'_>) -> Result<(), E>,
    ) -> Result<Captured>
    where
        Error: From<E>,
    {
        let raw_deps = self.check_capture("Graph::capture_into", stream, deps)?;
        let graph = self.raw();
        let ended = run(
            "Graph::capture_into",
            stream,
            // SAFETY: a live stream of the context `run` made current; `graph` is this live
            // graph, which `&mut self` keeps from any other use until the capture ends, and
            // `raw_deps` are its nodes.
            |s, mode| unsafe { result::stream::begin_capture_to_graph(s, graph, &raw_deps, mode) },
            f,
        );
        // `ended.graph` is this graph (or null): nothing new to own.
        if ended.panic.is_some() || ended.outcome.is_err() {
            if let Err(broken @ Error::CaptureBroken { .. }) = ended.outcome {
                // The driver invalidated the capture, and with it the graph captured into
                // (every later call about the graph fails): nothing to remove, nothing to use.
                self.mark_broken_by_capture();
                if let Some(panic) = ended.panic {
                    resume_unwind(panic);
                }
                return Err(broken);
            }
            let discarded = self.discard_recorded();
            if let Some(panic) = ended.panic {
                resume_unwind(panic);
            }
            ended.outcome?;
            discarded?;
        }
        let recorded = self.recorded_nodes()?;
        let first = self.len();
        if self.is_body() {
            if let Some((i, code)) = recorded
                .iter()
                .enumerate()
                .find(|(_, n)| !raw_allowed_in_body(n.code))
                .map(|(i, n)| (i, n.code))
            {
                self.discard_recorded()?;
                return Err(not_in_body(
                    format!("{}#{}", raw_kind_name(code), first + i),
                    code,
                ));
            }
        }
        let learned = self.learn_recorded(recorded)?;
        let nodes: Vec<NodeId> = learned.clone().filter_map(|i| self.node_id(i)).collect();
        let mut has_dependent = vec![false; learned.len()];
        for index in learned.clone() {
            for &dep in self.deps_of(index) {
                if let Some(flag) = (dep as usize)
                    .checked_sub(first)
                    .and_then(|d| has_dependent.get_mut(d))
                {
                    *flag = true;
                }
            }
        }
        let sinks = if nodes.is_empty() {
            deps.to_vec()
        } else {
            nodes
                .iter()
                .zip(&has_dependent)
                .filter(|(_, &dependent)| !dependent)
                .map(|(&id, _)| id)
                .collect()
        };
        Ok(Captured { nodes, sinks })
    }

    /// Checks a capture into (or beside) this graph for `call`: `stream` of the graph's
    /// context, `deps` its nodes. Returns their raw handles.
    fn check_capture(
        &self,
        call: &str,
        stream: &CudaStream,
        deps: &[NodeId],
    ) -> Result<Vec<sys::CUgraphNode>> {
        if stream.context().cu_ctx() != self.context().cu_ctx() {
            return Err(Error::Invalid {
                node: call.into(),
                reason: "the stream belongs to another context than the graph: capture on a \
                         stream of the graph's context"
                    .into(),
            });
        }
        self.raw_deps(call, deps)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codes() -> [sys::CUresult; 9] {
        use sys::CUresult::*;
        [
            CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED,
            CUDA_ERROR_STREAM_CAPTURE_INVALIDATED,
            CUDA_ERROR_STREAM_CAPTURE_MERGE,
            CUDA_ERROR_STREAM_CAPTURE_UNMATCHED,
            CUDA_ERROR_STREAM_CAPTURE_UNJOINED,
            CUDA_ERROR_STREAM_CAPTURE_ISOLATION,
            CUDA_ERROR_STREAM_CAPTURE_IMPLICIT,
            CUDA_ERROR_CAPTURED_EVENT,
            CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD,
        ]
    }

    #[test]
    fn every_capture_code_has_its_own_hint() {
        for tracking in [false, true] {
            let hints: Vec<&str> = codes().iter().map(|&c| hint(c, tracking)).collect();
            for (i, h) in hints.iter().enumerate() {
                assert!(
                    !h.starts_with("see the CUDA"),
                    "{:?} has no hint",
                    codes()[i]
                );
                assert!(
                    !hints[..i].contains(h),
                    "{:?} shares its hint with an earlier code",
                    codes()[i]
                );
            }
        }
        assert!(!is_capture_code(sys::CUresult::CUDA_ERROR_INVALID_VALUE));
        assert!(codes().iter().all(|&c| is_capture_code(c)));
    }

    #[test]
    fn a_broken_capture_names_the_call_the_code_and_what_to_do() {
        let code = DriverError(sys::CUresult::CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
        let e = capture_broken(
            "a cudarc driver call inside the capture".into(),
            code,
            false,
        );
        let text = e.to_string();
        assert!(
            text.starts_with(
                "a cudarc driver call inside the capture failed with \
                 CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED: a call that synchronizes"
            ),
            "{text}"
        );
        assert!(text.contains("CudaStream::synchronize"), "{text}");
        match e {
            Error::CaptureBroken { call, code: c, .. } => {
                assert_eq!(call, "a cudarc driver call inside the capture");
                assert_eq!(c, code);
            }
            other => panic!("expected CaptureBroken, got {other:?}"),
        }
    }

    #[test]
    fn event_tracking_is_named_where_it_explains_the_code() {
        use sys::CUresult::*;
        for code in [
            CUDA_ERROR_STREAM_CAPTURE_ISOLATION,
            CUDA_ERROR_STREAM_CAPTURE_INVALIDATED,
        ] {
            assert!(
                hint(code, true).contains("disable_event_tracking"),
                "{code:?}"
            );
        }
        assert!(hint(CUDA_ERROR_STREAM_CAPTURE_UNJOINED, false).contains("CaptureScope::fork"));
        assert!(hint(CUDA_ERROR_STREAM_CAPTURE_IMPLICIT, false).contains("default_stream"));
    }

    #[test]
    fn waiting_is_refused_inside_a_capture_closure() {
        assert!(refuse_waiting_in_capture("HostBuffer::read").is_ok());
        let _inside = InCapture::enter();
        match refuse_waiting_in_capture("HostBuffer::read") {
            Err(Error::Capturing { what }) => {
                assert!(what.starts_with("HostBuffer::read inside a capture closure"))
            }
            other => panic!("expected Error::Capturing, got {other:?}"),
        }
    }

    #[test]
    fn raw_node_kinds_are_named_and_sorted_by_the_body_rule() {
        use sys::CUgraphNodeType::*;
        assert_eq!(raw_kind_name(CU_GRAPH_NODE_TYPE_HOST as u32), "host");
        assert_eq!(
            raw_kind_name(CU_GRAPH_NODE_TYPE_MEM_ALLOC as u32),
            "mem_alloc"
        );
        assert_eq!(raw_kind_name(1000), "node");
        for ok in [
            CU_GRAPH_NODE_TYPE_KERNEL,
            CU_GRAPH_NODE_TYPE_MEMCPY,
            CU_GRAPH_NODE_TYPE_MEMSET,
            CU_GRAPH_NODE_TYPE_EMPTY,
            CU_GRAPH_NODE_TYPE_GRAPH,
        ] {
            assert!(raw_allowed_in_body(ok as u32), "{ok:?}");
        }
        for refused in [
            CU_GRAPH_NODE_TYPE_HOST,
            CU_GRAPH_NODE_TYPE_EVENT_RECORD,
            CU_GRAPH_NODE_TYPE_WAIT_EVENT,
            CU_GRAPH_NODE_TYPE_MEM_ALLOC,
            CU_GRAPH_NODE_TYPE_MEM_FREE,
        ] {
            assert!(!raw_allowed_in_body(refused as u32), "{refused:?}");
        }
        // Agrees with the rule for added nodes.
        assert!(NodeKind::Kernel.allowed_in_body() && !NodeKind::Host.allowed_in_body());
    }
}

/// Work to record by stream capture, kept as a value: a closure that enqueues work on the stream
/// it is given, and the stream to capture it on. [`Graph::add_capture`] records it into a
/// child-graph node, [`GraphExec::set_capture`](crate::GraphExec::set_capture) records it again
/// for an executable's node, and a `cuda_graph!` declaration takes it as the param of a
/// `capture(c)` node (compared by identity: a clone is the same work, another `Capture` is new).
///
/// The closure runs at each recording, not at each launch: what it enqueues is recorded with the
/// values and addresses it sees then.
#[derive(Clone)]
pub struct Capture {
    stream: Arc<CudaStream>,
    #[allow(clippy::type_complexity)]
    record: Arc<dyn Fn(&CaptureScope<'_>) -> Result<()> + Send + Sync>,
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
        if crate::ambient::must_defer_releases() {
            crate::reaper::drop_later(Box::new((self.stream.clone(), self.record.clone())));
        }
    }
}

impl PartialEq for Capture {
    /// The same work: clones of one `Capture`.
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.record, &other.record) && Arc::ptr_eq(&self.stream, &other.stream)
    }
}

impl Capture {
    /// Work `record` enqueues on `stream` (a stream of the context the graphs are built in, and
    /// not one other threads use while a recording runs), to be recorded as graph nodes.
    ///
    /// # Safety
    /// As for [`Graph::capture`]: the recorded nodes keep the raw addresses of the memory the
    /// work uses. That memory, and the modules of the kernels it launches, must stay allocated,
    /// and untouched by host code while a launch may use them, for as long as any graph recorded
    /// from this `Capture` (and the executables made from those graphs) may run.
    pub unsafe fn new(
        stream: &Arc<CudaStream>,
        record: impl Fn(&CaptureScope<'_>) -> Result<()> + Send + Sync + 'static,
    ) -> Self {
        Self {
            stream: stream.clone(),
            record: Arc::new(record),
        }
    }

    /// The stream the work is recorded on.
    pub fn stream(&self) -> &Arc<CudaStream> {
        &self.stream
    }

    /// Records the work into a new graph.
    pub fn graph(&self) -> Result<Graph<'static>> {
        // SAFETY: the contract of `Capture::new` covers every graph recorded from it.
        unsafe { Graph::capture(&self.stream, |s| (self.record)(s)) }
    }
}

impl Graph<'_> {
    /// Records `capture`'s work into a child-graph node of this graph, after `deps`
    /// ([`Graph::add_captured`], whose contract `Capture::new` took on).
    pub fn add_capture(&mut self, capture: &Capture, deps: &[NodeId]) -> Result<ChildGraphNode> {
        // SAFETY: the contract of `Capture::new` covers every graph recorded from it.
        unsafe { self.add_captured(&capture.stream, deps, |s| (capture.record)(s)) }
    }
}
