//! What one capture records, shared by its scopes: its id, the streams forked into it, and what
//! its own calls recorded for its graph (nodes with their memory, allocations, host functions,
//! kernels, conditional bodies).

use std::any::Any;
use std::cell::{Cell, RefCell};
use std::sync::{Arc, Mutex};

use cudarc::driver::{sys, CudaContext, CudaStream, DriverError};

use super::alloc::AllocEntry;
use crate::driver::{named, record_err, result};
use crate::error::{Error, Result};
use crate::function_set::FunctionSet;
use crate::graph::Graph;
use crate::memory::operand::{Hold, Use};
use crate::node::PanicSlot;

/// Whether `stream` is the legacy default stream (null, or `CU_STREAM_LEGACY`), which CUDA does
/// not capture.
pub(super) fn is_legacy(stream: sys::CUstream) -> bool {
    stream.is_null() || stream as usize == 0x1
}

/// The streams a capture's work is on, which its views ([`CaptureView`](super::CaptureView),
/// [`CaptureViewMut`](super::CaptureViewMut)) check whenever cudarc asks them for their address
/// ([`CaptureStreams::admits`]).
///
/// A view hands cudarc an address without ordering anything (see `super::operands`): that is
/// sound only for work the capture records, which runs when the graph does, holding the memory.
/// cudarc's calls take the stream they enqueue on as their receiver, so a closure can give a view
/// to a stream outside the capture (`other.memset_zeros(&mut view)`): that work would run now,
/// ordered with nothing, on memory the capture holds only until it returns (a capture allocation's
/// address is not even backed yet), and a capture of someone else's (cudarc's
/// `CudaStream::begin_capture`) would record it into a graph that holds nothing.
#[derive(Debug)]
pub struct CaptureStreams {
    /// The capture's unique id (`cuStreamGetCaptureInfo`); 0 while the work runs eagerly.
    pub(crate) id: u64,
    /// The stream the capture was begun on: every fork is joined back into it at the end.
    pub(crate) origin: Arc<CudaStream>,
    /// The streams forked from another one now (inside [`CaptureScope::fork`] and
    /// [`CaptureScope::fork_all`]): while the work runs eagerly, those and the first stream are
    /// the ones ordered with the memory it is given.
    ///
    /// Raw stream handles as addresses, behind a mutex, so that views stay `Send` and `Sync` as
    /// cudarc's own views are.
    ///
    /// [`CaptureScope::fork`]: super::CaptureScope::fork
    /// [`CaptureScope::fork_all`]: super::CaptureScope::fork_all
    forking: Mutex<Vec<usize>>,
    /// Every stream forked into the capture so far, as raw handles: with the first stream, the
    /// streams its views may be used on while it records. A stream that joined the capture
    /// otherwise (cudarc's `CudaStream::join` on an event of it) is not joined back by the
    /// capture's own joins (before a free, at the end), so work there would be ordered with
    /// nothing that comes after it.
    forked_ever: Mutex<Vec<usize>>,
    /// The event that orders one stream of the capture after another ([`CaptureStreams::order`]:
    /// forks, joins, work after an allocation), made on first use (its address; 0 until then),
    /// destroyed with the capture's record, after the capture has ended. One event serves them
    /// all: a wait sees the event as last recorded when the wait is made, so each
    /// record-then-wait pair is independent of the others.
    event: Mutex<usize>,
}

impl Drop for CaptureStreams {
    fn drop(&mut self) {
        let event = *self.event.get_mut().unwrap_or_else(|e| e.into_inner());
        if event != 0 {
            record_err(
                self.origin.context(),
                named("cuCtxSetCurrent", self.origin.context().bind_to_thread()),
            );
            // SAFETY: our event, used by nothing any more (the capture's calls that recorded and
            // waited on it are over; CUDA keeps what pending work needs).
            record_err(
                self.origin.context(),
                named("cuEventDestroy", unsafe {
                    cudarc::driver::result::event::destroy(event as sys::CUevent)
                }),
            );
        }
    }
}

impl CaptureStreams {
    /// Whether work on `stream` is the capture's own: recorded by this capture, or, while the
    /// work runs eagerly (a warm-up, ordered like a launch on the first stream), enqueued on the
    /// first stream or on one forked from it now.
    pub(crate) fn admits(&self, stream: &CudaStream) -> bool {
        if self.id == 0 {
            let raw = stream.cu_stream();
            return raw == self.origin.cu_stream() || self.forks().contains(&(raw as usize));
        }
        // SAFETY: a live stream.
        let info = unsafe { result::stream::capture_info(stream.cu_stream()) };
        use sys::CUresult::{
            CUDA_ERROR_STREAM_CAPTURE_IMPLICIT, CUDA_ERROR_STREAM_CAPTURE_INVALIDATED,
        };
        match info {
            // Recorded by this capture, on a stream it joins.
            Ok(Some((id, _))) if id == self.id => {
                let raw = stream.cu_stream();
                raw == self.origin.cu_stream()
                    || self
                        .forked_ever
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .contains(&(raw as usize))
            }
            // The driver refuses any work on a stream whose capture is invalidated (an earlier
            // call broke it, which the capture reports as its error), and on the legacy stream
            // beside a capturing blocking stream: nothing would run, so the call may go on and
            // fail there.
            Ok(Some((_, false))) => true,
            Err(Error::Driver { source, .. })
                if source.0 == CUDA_ERROR_STREAM_CAPTURE_INVALIDATED
                    || source.0 == CUDA_ERROR_STREAM_CAPTURE_IMPLICIT =>
            {
                true
            }
            _ => false,
        }
    }

    /// Runs `f` with `sides` counted as forked now (see [`CaptureStreams::admits`]).
    pub(super) fn forking<R>(&self, sides: &[&Arc<CudaStream>], f: impl FnOnce() -> R) -> R {
        let before = {
            let mut forks = self.forks();
            let before = forks.len();
            forks.extend(sides.iter().map(|s| s.cu_stream() as usize));
            before
        };
        // Restored also when `f` panics: the closure may catch the panic and go on with its
        // views, and the side stream is no longer ordered with the first one then.
        struct Restore<'s>(&'s CaptureStreams, usize);
        impl Drop for Restore<'_> {
            fn drop(&mut self) {
                self.0.forks().truncate(self.1);
            }
        }
        let _restore = Restore(self, before);
        f()
    }

    /// The streams forked now (never poisoned: nothing panics while it is held).
    fn forks(&self) -> std::sync::MutexGuard<'_, Vec<usize>> {
        self.forking.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Makes `to`'s later work wait for the work enqueued on `from` so far: in a capture, `to`'s
    /// next nodes depend on `from`'s last ones, and `to` joins the capture if it was not in it.
    /// Both are live streams of the capture's context.
    pub(crate) fn order(&self, from: sys::CUstream, to: sys::CUstream) -> Result<()> {
        let mut event = self.event.lock().unwrap_or_else(|e| e.into_inner());
        if *event == 0 {
            // The closure may have made another context current: the event must be this one's.
            // SAFETY: a live context.
            unsafe { cudarc::driver::result::ctx::set_current(self.origin.context().cu_ctx()) }
                .map_err(|source| Error::Driver {
                    call: "cuCtxSetCurrent",
                    source,
                })?;
            // In the capture's context, made current above.
            let flags = sys::CUevent_flags::CU_EVENT_DISABLE_TIMING;
            *event = named(
                "cuEventCreate",
                cudarc::driver::result::event::create(flags),
            )? as usize;
        }
        let event = *event as sys::CUevent;
        // SAFETY: our live event, and two live streams of its context (the caller's promise).
        named("cuEventRecord", unsafe {
            cudarc::driver::result::event::record(event, from)
        })?;
        let wait = sys::CUevent_wait_flags::CU_EVENT_WAIT_DEFAULT;
        // SAFETY: as above.
        named("cuStreamWaitEvent", unsafe {
            cudarc::driver::result::stream::wait_event(to, event, wait)
        })
    }

    /// Makes `stream`'s next work (cudarc's, on a view of a capture allocation) wait for the
    /// work recorded so far on `maker`, the stream that made the allocation (raw handle as an
    /// address; 0, or `stream` itself: nothing to do): that work follows the alloc node, before
    /// which the address is not the allocation's. In a capture the wait is an edge, eagerly a
    /// real wait. cudarc asks for the address where no error can be returned: a failed driver
    /// call panics (inside the capture closure, which the capture reports after its end).
    #[track_caller]
    pub(crate) fn order_after_maker(&self, maker: usize, stream: &CudaStream) {
        if maker == 0 || maker == stream.cu_stream() as usize {
            return;
        }
        // `maker` made an allocation of the capture, which the view borrows, and `stream` was
        // admitted: both live streams of the capture's context.
        if let Err(e) = self.order(maker as sys::CUstream, stream.cu_stream()) {
            panic!(
                "ordering cudarc's work on a capture allocation's view after the allocation \
                 failed: {e}"
            );
        }
    }
}

/// The panic of a view handed to work outside its capture (see [`CaptureStreams`]). cudarc asks
/// for the address where no error can be returned, and giving it would let that work run on
/// memory nothing orders or holds.
#[cold]
#[track_caller]
pub(super) fn outside_capture(stream: &CudaStream) -> ! {
    panic!(
        "a capture view (or capture allocation) was used on stream {:?}, which is not one of \
         its capture's streams: a view is for the capture's own work only (the capture scope's \
         stream, or a stream forked with `CaptureScope::fork`); work enqueued elsewhere would \
         run now, or, on a stream that joined the capture through cudarc, after nothing the \
         capture orders (it does not join such a stream back), on memory that nothing orders \
         with it or keeps alive for it",
        stream.cu_stream()
    )
}

/// A conditional node added to a capture, with its bodies.
pub(crate) struct AddedConditional<'a> {
    pub(crate) node: sys::CUgraphNode,
    /// Whether it is a WHILE node (see `graph::loops`).
    pub(crate) looping: bool,
    pub(crate) bodies: Vec<Graph<'a>>,
}

/// What the scopes of one capture share: its id, the streams forked into it and the event that
/// forks and joins are made with, and what the capture's own calls recorded for its graph.
pub(crate) struct Sequence<'a> {
    pub(crate) ctx: Arc<CudaContext>,
    /// The capture's id, its first stream and the streams forked now: where its views may be
    /// used.
    pub(crate) streams: CaptureStreams,
    forked: RefCell<Vec<Arc<CudaStream>>>,
    /// The scope of the conditional handles the capture's kernels may set: the family of the
    /// graph it makes or records into.
    pub(crate) scope: u64,
    /// The capture's own calls: each node they recorded, with the memory it uses.
    pub(crate) nodes: RefCell<Vec<(sys::CUgraphNode, Vec<Use<'a>>)>>,
    /// Allocations made by [`CaptureScope::alloc`].
    pub(crate) allocs: RefCell<Vec<AllocEntry>>,
    /// Values the graph keeps as long as it and its launches live (host functions).
    pub(crate) kept: RefCell<Vec<Box<dyn Any + Send>>>,
    /// The kernels launched: their modules stay loaded with the graph.
    pub(crate) functions: RefCell<FunctionSet>,
    /// Where the capture's host functions report panics.
    pub(crate) panics: Arc<PanicSlot>,
    /// The conditional nodes added, with their bodies.
    pub(crate) bodies: RefCell<Vec<AddedConditional<'a>>>,
    /// Conditional handles made that drive no conditional node yet.
    pub(crate) idle_handles: RefCell<Vec<crate::node::RawConditionalHandle>>,
    /// Counts the capture's own nodes, for their names in errors.
    calls: Cell<u32>,
    /// A node the capture's own calls added could not be removed after it was refused (a
    /// conditional node whose bodies failed to build): the capture fails at its end, whatever
    /// the closure did with the error (see [`Sequence::check_accounted`]).
    pub(crate) refused_work: Cell<bool>,
    /// Another thread's work was recorded on a stream of the capture between a call of the
    /// capture's own and this crate's look at what it recorded (see [`Sequence::recorded`]):
    /// the capture fails at its end.
    pub(crate) interleaved: Cell<bool>,
    /// A node the capture's own calls added was removed again (CUDA's order of the graph's
    /// sinks may have changed: see `graph::pairing`).
    pub(crate) removed_nodes: Cell<bool>,
    /// Allocations that escaped a capture into a body of a conditional node the capture's own
    /// calls added (the body keeps its driver graph, so the node and the capture's graph stay:
    /// see `capture::escape`); `None` once one such body's could not be listed.
    pub(crate) escaped_in_bodies: RefCell<Option<Vec<(sys::CUdeviceptr, usize)>>>,
}

impl<'a> Sequence<'a> {
    /// The sequence of a capture `id` (0: none, the work runs eagerly) begun on `origin`, for a
    /// graph of family `scope`.
    pub(crate) fn new(origin: &Arc<CudaStream>, id: u64, scope: u64) -> Self {
        Self {
            ctx: origin.context().clone(),
            streams: CaptureStreams {
                id,
                origin: origin.clone(),
                forking: Mutex::new(Vec::new()),
                forked_ever: Mutex::new(Vec::new()),
                event: Mutex::new(0),
            },
            forked: RefCell::new(Vec::new()),
            scope,
            nodes: RefCell::new(Vec::new()),
            allocs: RefCell::new(Vec::new()),
            kept: RefCell::new(Vec::new()),
            functions: RefCell::new(FunctionSet::default()),
            panics: Arc::new(PanicSlot::default()),
            bodies: RefCell::new(Vec::new()),
            idle_handles: RefCell::new(Vec::new()),
            calls: Cell::new(0),
            refused_work: Cell::new(false),
            interleaved: Cell::new(false),
            removed_nodes: Cell::new(false),
            escaped_in_bodies: RefCell::new(Some(Vec::new())),
        }
    }

    /// Refuses what the capture recorded when a node its own calls refused could not be removed
    /// ([`Sequence::refused_work`]).
    pub(crate) fn check_accounted(&self) -> Result<()> {
        if self.interleaved.get() {
            return Err(Error::Invalid {
                node: "<capture>".into(),
                reason: "another thread enqueued work on a stream of the capture while one of \
                         the capture's own calls recorded its node: that work cannot be told \
                         from the call's, and the capture fails; enqueue on a captured stream \
                         from the capturing thread only"
                    .into(),
            });
        }
        if !self.refused_work.get() {
            return Ok(());
        }
        Err(Error::Invalid {
            node: "<capture>".into(),
            reason: "a conditional node of the capture whose bodies failed to build could not be \
                     removed (CUDA removes no node from a graph with memory nodes), and its \
                     bodies' memory is held by nothing: the capture fails"
                .into(),
        })
    }

    /// The name of the capture's next node of `kind`, for errors.
    pub(super) fn name(&self, kind: &str) -> String {
        let n = self.calls.get();
        self.calls.set(n + 1);
        format!("{kind} #{n} of the capture")
    }

    /// Refuses memory the capture's own work may not use: another capture's, a graph's
    /// allocations or indirect values (which its own nodes use), another graph's conditional
    /// handles. While the work runs eagerly (a warm-up) only the views of the memory given to
    /// it: that memory is what the warm-up holds and orders like a launch.
    pub(super) fn admit(&self, uses: &[Use<'a>], node: &dyn Fn() -> String) -> Result<()> {
        for u in uses {
            let why = match u.hold {
                Hold::Captured { capture } if capture != self.streams.id => {
                    "memory of another capture (or of a capture that has ended)"
                }
                Hold::Captured { .. } => continue,
                _ if self.streams.id == 0 => {
                    "memory not given to the work: while it runs eagerly (a warm-up), the work \
                     uses only the views of the memory given to it, which the warm-up orders \
                     like a launch"
                }
                Hold::Handle { scope } if scope != self.scope => {
                    "a conditional handle of another graph: the capture's kernels set only the \
                     handles made with `CaptureScope::conditional_handle`"
                }
                Hold::Graph { .. } => {
                    "a graph allocation of a graph (`Graph::add_mem_alloc`), which only that \
                     graph's nodes use: allocate in the capture with `CaptureScope::alloc`"
                }
                Hold::Indirect { .. } => {
                    "an indirect value, which only nodes added to its graph read (after its \
                     fetch node)"
                }
                _ => continue,
            };
            return Err(Error::Invalid {
                node: node(),
                reason: why.into(),
            });
        }
        Ok(())
    }

    /// The streams that made the allocations of the capture among `uses` that no work on
    /// `stream` is ordered after yet (`stream` neither made nor used them): work about to be
    /// recorded on `stream` with `uses` would be beside the alloc node, and before it the
    /// address is not the allocation's (CUDA may back another graph allocation with it).
    pub(super) fn unordered_allocs(
        &self,
        stream: &CudaStream,
        uses: &[Use<'a>],
    ) -> Vec<Arc<CudaStream>> {
        let mut makers: Vec<Arc<CudaStream>> = Vec::new();
        for entry in self.allocs.borrow().iter().filter(|e| !e.freed) {
            if entry_used(entry, uses)
                && !entry
                    .streams
                    .iter()
                    .any(|s| s.cu_stream() == stream.cu_stream())
                && !makers
                    .iter()
                    .any(|m| m.cu_stream() == entry.streams[0].cu_stream())
            {
                makers.push(entry.streams[0].clone());
            }
        }
        makers
    }

    /// Orders `stream` after the allocations of the capture among `uses` (see
    /// [`Sequence::unordered_allocs`]): after the work recorded so far on the streams that made
    /// them, which follows their alloc nodes. Called before the work is enqueued.
    pub(super) fn order_after_allocs(&self, stream: &CudaStream, uses: &[Use<'a>]) -> Result<()> {
        if self.streams.id == 0 {
            return Ok(());
        }
        for maker in self.unordered_allocs(stream, uses) {
            self.order(&maker, stream)?;
        }
        Ok(())
    }

    /// Notes that the allocations of the capture among `uses` are used on `stream` (a later
    /// [`CaptureScope::free`](super::CaptureScope::free) on another stream waits for it).
    pub(super) fn note_alloc_uses(&self, stream: &Arc<CudaStream>, uses: &[Use<'a>]) {
        for entry in self.allocs.borrow_mut().iter_mut() {
            if entry_used(entry, uses)
                && !entry
                    .streams
                    .iter()
                    .any(|s| s.cu_stream() == stream.cu_stream())
            {
                entry.streams.push(stream.clone());
            }
        }
    }

    /// Notes that the work just enqueued on `stream` uses `uses`: the node it recorded is the
    /// one the stream's next work depends on, and the allocations of the capture among them
    /// are used on `stream`.
    ///
    /// `before` is what `stream`'s next work depended on right before the call enqueued
    /// ([`Sequence::deps_before`]): the node the call recorded depends on exactly those. A node
    /// found after it that does not is another thread's work on the stream, enqueued in between
    /// (it would be taken for the call's, with the call's memory, and its own memory left
    /// unchecked): the capture is refused at its end.
    pub(super) fn recorded(
        &self,
        stream: &Arc<CudaStream>,
        before: Option<Vec<sys::CUgraphNode>>,
        uses: Vec<Use<'a>>,
    ) -> Result<()> {
        if self.streams.id == 0 {
            return Ok(());
        }
        self.note_alloc_uses(stream, &uses);
        // SAFETY: a live stream.
        if let Some((_, deps)) = unsafe { result::stream::capture_state(stream.cu_stream()) }? {
            let mut before = before.unwrap_or_default();
            before.sort_unstable();
            for &node in &deps {
                // SAFETY: a node of the graph being captured into, read during the capture.
                let (mut after, _) = unsafe { result::graph::dependencies(node) }?;
                after.sort_unstable();
                if after != before {
                    self.interleaved.set(true);
                }
            }
            let mut nodes = self.nodes.borrow_mut();
            for node in deps {
                nodes.push((node, uses.clone()));
            }
        }
        Ok(())
    }

    /// What `stream`'s next work depends on now, in a capture (see [`Sequence::recorded`]).
    pub(super) fn deps_before(&self, stream: &CudaStream) -> Result<Option<Vec<sys::CUgraphNode>>> {
        if self.streams.id == 0 {
            return Ok(None);
        }
        // SAFETY: a live stream.
        let state = unsafe { result::stream::capture_state(stream.cu_stream()) }?;
        Ok(state.map(|(_, deps)| deps))
    }

    /// The graph the capture records into, and the nodes `stream`'s next work depends on, for
    /// `call`; refused while the work runs eagerly.
    pub(super) fn state(
        &self,
        stream: &CudaStream,
        call: &str,
    ) -> Result<(sys::CUgraph, Vec<sys::CUgraphNode>)> {
        // SAFETY: a live stream.
        match unsafe { result::stream::capture_state(stream.cu_stream()) }? {
            Some(state) if self.streams.id != 0 => Ok(state),
            // In a capture that the driver no longer records (an earlier call invalidated
            // it): say so, not that this is no capture.
            None if self.streams.id != 0 => Err(super::errors::capture_broken(
                call.into(),
                DriverError(sys::CUresult::CUDA_ERROR_STREAM_CAPTURE_INVALIDATED),
                self.ctx.is_managing_stream_synchronization(),
            )),
            _ => Err(Error::Invalid {
                node: call.into(),
                reason: "only a capture records conditional nodes; outside one (a warm-up, \
                         `CaptureScope::is_capturing` is false) decide on the host"
                    .into(),
            }),
        }
    }

    /// Makes `to`'s later work wait for the work enqueued on `from` so far (see
    /// [`CaptureStreams::order`]).
    pub(super) fn order(&self, from: &CudaStream, to: &CudaStream) -> Result<()> {
        // Both live, of this capture's context (checked for a forked stream by `check_side`).
        self.streams.order(from.cu_stream(), to.cu_stream())
    }

    /// Refuses a stream that cannot be forked from `own`.
    pub(super) fn check_side(&self, own: &CudaStream, side: &CudaStream) -> Result<()> {
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
            Some((id, _)) if id != self.streams.id => refuse(
                "the stream is being captured by another capture, which CUDA would merge with \
                 this one (CUDA_ERROR_STREAM_CAPTURE_MERGE): fork a stream that is not being \
                 captured",
            ),
            _ => Ok(()),
        }
    }

    /// Remembers `side` for the final join ([`Sequence::join_forks`]).
    pub(super) fn note_forked(&self, side: &Arc<CudaStream>) {
        let mut forked = self.forked.borrow_mut();
        if !forked.iter().any(|s| s.cu_stream() == side.cu_stream()) {
            forked.push(side.clone());
            let mut ever = self
                .streams
                .forked_ever
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            ever.push(side.cu_stream() as usize);
        }
    }

    /// Waits on the host for everything enqueued so far on the first stream and on every
    /// stream forked from it: the end of a warm-up that a panic leaves (its forks not joined
    /// back), before the memory it was given can go. Errors are ignored: a stream that cannot
    /// be waited for belongs to an unusable context, where nothing runs any more.
    pub(super) fn wait_for_all(&self) {
        let forked = self.forked.borrow().clone();
        for stream in std::iter::once(&self.streams.origin).chain(&forked) {
            // SAFETY: a live stream. (Not cudarc's `synchronize`, which returns an error stored
            // earlier instead of waiting.)
            let _ = crate::memory::fence::relaxed(|| unsafe {
                cudarc::driver::result::stream::synchronize(stream.cu_stream())
            });
        }
    }

    /// The streams forked into the capture that are still in it (one that left it, by an error,
    /// has nothing to join).
    fn forks_in_capture(&self) -> Vec<Arc<CudaStream>> {
        let forked = self.forked.borrow();
        forked
            .iter()
            .filter(|side| {
                // SAFETY: a live stream.
                let info = unsafe { result::stream::capture_info(side.cu_stream()) };
                matches!(info, Ok(Some((id, true))) if id == self.streams.id)
            })
            .cloned()
            .collect()
    }

    /// Makes `to` wait for everything the capture recorded so far on its other streams.
    pub(super) fn join_all_into(&self, to: &Arc<CudaStream>) -> Result<()> {
        let mut joined = Ok(());
        let others = std::iter::once(self.streams.origin.clone()).chain(self.forks_in_capture());
        for side in others.filter(|s| s.cu_stream() != to.cu_stream()) {
            joined = joined.and(self.order(&side, to));
        }
        joined
    }

    /// Joins every stream forked into the capture back into its first stream, so that work
    /// enqueued on one after its fork returned cannot leave the capture unjoined.
    pub(crate) fn join_forks(&self) -> Result<()> {
        let mut joined = Ok(());
        for side in self.forks_in_capture() {
            joined = joined.and(self.order(&side, &self.streams.origin));
        }
        self.forked.borrow_mut().clear();
        joined
    }

    /// Frees, at the end of the capture (after every stream is joined), the allocations
    /// [`CaptureScope::free`] did not free.
    pub(crate) fn free_the_rest(&self) -> Result<()> {
        let mut freed = Ok(());
        for entry in self.allocs.borrow_mut().iter_mut().filter(|e| !e.freed) {
            let addr = entry.range.start;
            // SAFETY: an allocation of this capture, after everything recorded (the streams are
            // joined into the first one).
            let done = named("cuMemFreeAsync", unsafe {
                cudarc::driver::result::free_async(addr, self.streams.origin.cu_stream())
            });
            freed = freed.and(done);
            entry.freed = true;
        }
        freed
    }
}

/// Whether `uses` touch the capture allocation `entry` (through a capture's view or the
/// allocation itself).
fn entry_used(entry: &AllocEntry, uses: &[Use<'_>]) -> bool {
    uses.iter().any(|u| {
        matches!(u.hold, Hold::Captured { .. })
            && u.start < entry.range.end
            && entry.range.start < u.end
    })
}
