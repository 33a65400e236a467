//! Stream capture: work enqueued on a stream is recorded as graph nodes instead of run
//! (`cuStreamBeginCapture` / `cuStreamBeginCaptureToGraph` ... `cuStreamEndCapture`), into a new
//! graph, into an existing one, or as a child-graph node. The crate docs ("Stream capture")
//! describe it for users.
//!
//! - `scope`: the [`CaptureScope`] a capture closure gets (this crate's own calls, forks) and
//!   what the capture records ([`scope::Sequence`]);
//! - `operands`: the memory given to a capture, and the views its closure works on;
//! - `check`: what the capture recorded beyond its own calls, checked against that memory;
//! - `errors`: what breaks a capture, explained;
//! - `work`: [`Capture`], work to record again and again;
//! - `replay`: [`Replay`], warm up, capture once, replay.

mod check;
mod errors;
mod operands;
mod replay;
mod scope;
mod work;

use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::Arc;

use cudarc::driver::{sys, CudaStream};

use errors::not_in_body;
pub(crate) use errors::{explain, is_capture_code, raw_allowed_in_body, raw_kind_name};
pub use operands::{
    CaptureAlloc, CaptureOperand, CaptureOperands, CaptureView, CaptureViewMut, Mut,
};
pub use replay::Replay;
pub use scope::CaptureScope;
use scope::Sequence;
pub(crate) use work::uses_within;
pub use work::Capture;

use crate::ambient::{in_capture, in_host_node, InCapture};
use crate::body::Body;
use crate::driver::result;
use crate::error::{Error, Result};
use crate::graph::Graph;
use crate::id::fresh_id;
use crate::memory::fence::is_capturing;
use crate::memory::operand::{Hold, Use};
use crate::node::{ChildGraphNode, NodeId, NodeKind};
use crate::scope::{Registry, Scope};

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

/// How a capture went.
struct Ended<'a> {
    /// The graph `cuStreamEndCapture` returned (null when none): for a capture into a new graph,
    /// the caller owns it, also when the capture failed; for a capture into a graph, that graph.
    graph: sys::CUgraph,
    /// The outcome: the closure's error first, then the end's, capture errors explained.
    outcome: Result<()>,
    /// The closure's panic, to resume once the caller has cleaned up.
    panic: Option<Box<dyn std::any::Any + Send>>,
    /// What the capture's own calls recorded (`None` when the capture did not begin).
    sequence: Option<Sequence<'a>>,
}

/// Runs a capture on `stream` for `call`, for a graph of family `scope`: `begin` begins it
/// (given the raw stream and the mode), `f` records work, allocations left are freed, forked
/// streams are joined, and the capture ends, whatever `f` did.
fn run<'a>(
    call: &'static str,
    stream: &Arc<CudaStream>,
    scope: u64,
    begin: impl FnOnce(sys::CUstream, sys::CUstreamCaptureMode) -> Result<()>,
    f: impl FnOnce(&CaptureScope<'_, 'a>) -> Result<()>,
) -> Ended<'a> {
    let not_begun = |outcome| Ended {
        graph: std::ptr::null_mut(),
        outcome,
        panic: None,
        sequence: None,
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
    if let Err(e) = crate::version::CAPTURE.require() {
        return not_begun(Err(e));
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
    let id = info
        .as_ref()
        .ok()
        .copied()
        .flatten()
        .map_or(0, |(id, _)| id);
    let sequence = Sequence::new(stream, id, scope);
    let body = match info {
        Err(e) => Ok(Err(e)),
        Ok(_) => {
            let _inside = InCapture::enter();
            let scope = CaptureScope::new(&sequence);
            // The panic is resumed by the caller, after the capture has ended and the graph is
            // cleaned up: nothing here is left half-done.
            catch_unwind(AssertUnwindSafe(|| f(&scope)))
        }
    };
    // Whatever happened, no forked stream is left out of the end, and no allocation of the
    // capture outlives its graph.
    let joined = sequence.join_forks();
    let freed = sequence.free_the_rest();
    // SAFETY: the capture begun above, on this stream and thread.
    let (graph, ended) = unsafe { result::stream::end_capture(stream.cu_stream()) };
    let (body, panic) = match body {
        Ok(body) => (body.and(joined).and(freed), None),
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
        sequence: Some(sequence),
    }
}

/// The memory `operands` gives a capture, as uses, checked to be apart where one is written.
/// Taken before the capture begins: taking a cudarc borrow makes its stream wait for the
/// borrowed memory's earlier uses, which inside the capture would break it.
fn given<'a, O: CaptureOperands<'a>>(operands: O) -> Result<Vec<Use<'a>>> {
    let mut uses = Vec::new();
    operands.into_uses(&mut uses)?;
    operands::check_apart(&uses)?;
    Ok(uses)
}

/// Runs `f` in a capture on its scope with the views of `given` (the memory of operands `O`).
fn with_views<'g, 'a, O, F, E>(
    given: &'g [Use<'a>],
    f: &'g mut F,
) -> impl FnOnce(&CaptureScope<'_, 'a>) -> Result<()> + 'g
where
    O: CaptureOperands<'a>,
    F: FnMut(&CaptureScope<'_, 'a>, O::Views<'_>) -> std::result::Result<(), E>,
    Error: From<E>,
{
    move |s| {
        let views = O::views(given, s.capture_id(), s.stream());
        f(s, views).map_err(Error::from)
    }
}

/// Records `f`'s work on `stream` with the memory of `operands` as a new graph of family
/// `family` (in the scope `registry`, for a scope's graph), for `call`.
fn capture_new<'a, O, F, E>(
    call: &'static str,
    stream: &Arc<CudaStream>,
    operands: O,
    registry: Option<&'a Registry>,
    mut f: F,
) -> Result<Graph<'a>>
where
    O: CaptureOperands<'a>,
    F: FnMut(&CaptureScope<'_, 'a>, O::Views<'_>) -> std::result::Result<(), E> + Send + 'static,
    Error: From<E>,
{
    let given = given(operands)?;
    let family = fresh_id();
    let ended = run(
        call,
        stream,
        family,
        // SAFETY: a live stream (not the legacy one: `run` refuses it) of the context `run`
        // made current.
        |s, mode| unsafe { result::stream::begin_capture(s, mode) },
        with_views::<O, F, E>(&given, &mut f),
    );
    let graph = (!ended.graph.is_null()).then(|| {
        // SAFETY: the captured graph is new and ours, also when the capture failed.
        unsafe { Graph::captured(ended.graph, stream.context().clone(), family, registry) }
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
    let learned = graph.learn_recorded(recorded)?;
    let sequence = ended.sequence.expect("a capture that ended began");
    finish(&mut graph, learned, sequence, given)?;
    crate::trace::event!(debug, nodes = graph.all_records().count(), "graph captured");
    // The closure keeps what the recorded work needs (a cuBLAS handle, kernel modules, buffers
    // it owns): it lives as long as the graph and its launches.
    graph.retain(f)?;
    Ok(graph)
}

/// What a capture's own calls recorded, given to the graph that has its nodes (`learned`):
/// each node's memory (its own call's, and all the memory given to the capture for the work
/// the crate did not see), the conditional nodes' bodies, the kernels' modules, the host
/// functions. Checks first what the capture recorded beyond its own calls ([`check`]) and that
/// no host function could race with the capture's other work.
fn finish<'a>(
    graph: &mut Graph<'a>,
    learned: Range<usize>,
    sequence: Sequence<'a>,
    given: Vec<Use<'a>>,
) -> Result<()> {
    let mut own: HashMap<sys::CUgraphNode, Vec<Use<'a>>> = HashMap::new();
    for (node, uses) in sequence.nodes.take() {
        own.entry(node).or_default().extend(uses);
    }
    let ours: HashSet<sys::CUgraphNode> = own.keys().copied().collect();
    check::recorded_memory(graph, learned.clone(), &ours, &given)?;
    for index in learned.clone() {
        let Some(raw) = graph.record(index).map(|r| r.raw) else {
            continue;
        };
        // A view's or a capture allocation's use only said, in the capture, that the memory was
        // the capture's: what keeps it alive is the memory given to the capture.
        let mut uses: Vec<Use<'a>> = own
            .remove(&raw)
            .unwrap_or_default()
            .into_iter()
            .filter(|u| !matches!(u.hold, Hold::Captured { .. }))
            .collect();
        uses.extend(given.iter().cloned());
        graph.attach_uses(index, uses);
    }
    if let Some((first, second)) = graph.host_code_race_among(learned.clone()) {
        return Err(Error::Hazard {
            first: graph.name_of(first),
            second: graph.name_of(second),
            reason: "a host function of the capture and other captured work use the same host \
                     memory, one writing it, on streams the capture did not order with each \
                     other: record them on one stream, or join the streams in between"
                .into(),
        });
    }
    for (node, mut bodies) in sequence.bodies.take() {
        let Some(owner) = learned
            .clone()
            .find(|&i| graph.record(i).is_some_and(|r| r.raw == node))
        else {
            continue;
        };
        for body in &mut bodies {
            graph.adopt_resources_of(body);
            graph.absorb_body(body, owner as u32);
        }
    }
    graph.take_from_capture(
        &sequence.functions.borrow(),
        &sequence.panics,
        sequence.idle_handles.take(),
    );
    for kept in sequence.kept.take() {
        graph.retain(kept)?;
    }
    Ok(())
}

impl Graph<'static> {
    /// Records the work `f` enqueues on `stream` as a new graph (`cuStreamBeginCapture` in
    /// thread-local mode ... `cuStreamEndCapture`), with the memory `operands` gives it.
    ///
    /// `operands` is the memory the work uses: [`DeviceBuffer`](crate::DeviceBuffer)s, `&buffer`
    /// (or `buffer`) to read, `&mut buffer` (or [`Mut(buffer)`](Mut)) to write, one or a tuple of
    /// up to eight (see [`CaptureOperand`]). The graph keeps them alive as any graph keeps its
    /// nodes' memory. `f` gets a [`CaptureScope`] and a view of each operand
    /// ([`CaptureView`], [`CaptureViewMut`]):
    ///
    /// - the scope's own calls record kernels ([`CaptureScope::launch`]), copies, memsets, host
    ///   functions, allocations and conditional nodes, each with the memory it uses, checked as
    ///   [`Graph`]'s adders check theirs;
    /// - the scope dereferences to the stream: cudarc's calls and cuBLAS work on it, with the
    ///   views as their buffers. Every copy and memset recorded that way is checked to touch
    ///   only memory given to the capture (to write, for what it writes) or allocated in it; a
    ///   buffer that was not given breaks the capture through cudarc's event tracking, or is
    ///   refused by that check ([`Error::Invalid`] naming the node).
    ///
    /// The graph keeps `f` too (it owns what the work needs: a cuBLAS handle, kernels) for as
    /// long as it and its executables may run. Capture always ends, also when `f` fails or
    /// panics; `f`'s error comes first, and a capture broken by a call inside it is reported as
    /// [`Error::CaptureBroken`] naming that call where it can be known (see the crate docs,
    /// "Stream capture").
    ///
    /// To capture memory borrowed from cudarc, capture in a [`scope`](crate::scope)
    /// ([`Scope::capture`]).
    pub fn capture<O, F, E>(stream: &Arc<CudaStream>, operands: O, f: F) -> Result<Graph<'static>>
    where
        O: CaptureOperands<'static>,
        F: FnMut(&CaptureScope<'_, 'static>, O::Views<'_>) -> std::result::Result<(), E>
            + Send
            + 'static,
        Error: From<E>,
    {
        capture_new("Graph::capture", stream, operands, None, f)
    }
}

impl<'scope> Scope<'scope, '_> {
    /// Records the work `f` enqueues on `stream` as a new graph of the scope, with the memory
    /// `operands` gives it: [`Graph::capture`], where the operands may also be cudarc memory
    /// borrowed for the scope (`&CudaSlice` to read, `&mut CudaSlice` to write, views).
    pub fn capture<O, F, E>(
        &'scope self,
        stream: &Arc<CudaStream>,
        operands: O,
        f: F,
    ) -> Result<Graph<'scope>>
    where
        O: CaptureOperands<'scope>,
        F: FnMut(&CaptureScope<'_, 'scope>, O::Views<'_>) -> std::result::Result<(), E>
            + Send
            + 'static,
        Error: From<E>,
    {
        capture_new("Scope::capture", stream, operands, Some(self.registry()), f)
    }
}

impl<'a> Graph<'a> {
    /// Records the work `f` enqueues on `stream` as a child-graph node of this graph, after
    /// `deps`: a capture into a new graph ([`Graph::capture`]), embedded with
    /// [`Graph::add_child_graph`]. The node takes the name given with [`Graph::name_next`].
    ///
    /// Refused when the captured work allocates or frees memory (allocations become memory
    /// nodes, which CUDA embeds only by moving the graph; use [`Graph::capture_into`]), and, in
    /// a conditional body, when it recorded a node CUDA does not allow there (see
    /// [`Graph::add_conditional`]).
    pub fn add_captured<O, F, E>(
        &mut self,
        stream: &Arc<CudaStream>,
        deps: &[NodeId],
        operands: O,
        f: F,
    ) -> Result<ChildGraphNode>
    where
        O: CaptureOperands<'a>,
        F: FnMut(&CaptureScope<'_, 'a>, O::Views<'_>) -> std::result::Result<(), E>
            + Send
            + 'static,
        Error: From<E>,
    {
        let checked = self.check_capture("Graph::add_captured", stream, deps);
        self.or_forget_name(checked)?;
        let child = capture_new(
            "Graph::add_captured",
            stream,
            operands,
            self.scope_registry(),
            f,
        );
        self.embed_captured(child, deps)
    }

    /// Embeds `child`, a captured graph, as a child-graph node after `deps`: refused when it has
    /// memory nodes, or, in a conditional body, a node kind a body may not hold.
    fn embed_captured<'c: 'a>(
        &mut self,
        child: Result<Graph<'c>>,
        deps: &[NodeId],
    ) -> Result<ChildGraphNode> {
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
    /// (`cuStreamBeginCaptureToGraph` in thread-local mode, CUDA 12.3 or newer), with the memory
    /// `operands` gives it (as for [`Graph::capture`]): the nodes are this graph's, listed by
    /// [`Graph::nodes`] and [`Graph::to_dot`] and usable as dependencies of nodes added later;
    /// [`Captured::sinks`] are the ones to depend on to come after the captured work.
    ///
    /// ```no_run
    /// # use cudagraph_runtime::prelude::*;
    /// # use cudagraph_runtime::{Captured, Error};
    /// # fn f(graph: &mut Graph, stream: &std::sync::Arc<cudagraph_runtime::cudarc::driver::CudaStream>,
    /// #      x: &DeviceBuffer<f32>, y: &DeviceBuffer<f32>, k: &Kernel<(u32, DevicePtrMut<f32>)>)
    /// #      -> Result<(), Error> {
    /// let zero = graph.add_memset(Memset::new(y, 0.0f32), &[])?;
    /// let captured = graph.capture_into(stream, &[zero.id()], (x.clone(), Mut(y.clone())),
    ///     |s, (x, mut y)| s.memcpy_dtod(&x, &mut y))?;
    /// let cfg = LaunchConfig::for_num_elems(1024);
    /// graph.add_kernel(k, cfg, (1024, y), captured.sinks())?;
    /// # Ok(()) }
    /// ```
    ///
    /// The capture always ends; when it fails (`f`'s error first, then a broken capture as
    /// [`Error::CaptureBroken`], then the check of what it recorded) or `f` panics, the nodes it
    /// recorded are removed again, and the graph is as it was (CUDA cannot remove nodes from a
    /// graph with memory nodes: then the graph refuses to be instantiated, since it holds
    /// unchecked work).
    ///
    /// Into a conditional body (a [`Body`], [`Body::capture_into`]), CUDA's body rule applies:
    /// a captured node of a kind a body may not hold (a host function, an event node, an
    /// allocation or free) is refused, naming it, and the recorded nodes are removed.
    #[cfg(not(feature = "cuda-12020"))]
    pub fn capture_into<O, F, E>(
        &mut self,
        stream: &Arc<CudaStream>,
        deps: &[NodeId],
        operands: O,
        mut f: F,
    ) -> Result<Captured>
    where
        O: CaptureOperands<'a>,
        F: FnMut(&CaptureScope<'_, 'a>, O::Views<'_>) -> std::result::Result<(), E>
            + Send
            + 'static,
        Error: From<E>,
    {
        let raw_deps = self.check_capture("Graph::capture_into", stream, deps)?;
        let given = given(operands)?;
        let graph = self.raw();
        let ended = run(
            "Graph::capture_into",
            stream,
            self.scope(),
            // SAFETY: a live stream of the context `run` made current; `graph` is this live
            // graph, which `&mut self` keeps from any other use until the capture ends, and
            // `raw_deps` are its nodes.
            |s, mode| unsafe { result::stream::begin_capture_to_graph(s, graph, &raw_deps, mode) },
            with_views::<O, F, E>(&given, &mut f),
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
        let mark = self.mark();
        let learned = self.learn_recorded(recorded)?;
        let sequence = ended.sequence.expect("a capture that ended began");
        if let Err(e) = finish(self, learned.clone(), sequence, given) {
            self.roll_back(mark);
            return Err(e);
        }
        self.retain(f)?;
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

impl<'a> Body<'a> {
    /// Records the work `f` enqueues on `stream` into this body, after `deps` (see
    /// [`Graph::capture_into`]); a captured node of a kind a body may not hold is refused.
    #[cfg(not(feature = "cuda-12020"))]
    pub fn capture_into<O, F, E>(
        &mut self,
        stream: &Arc<CudaStream>,
        deps: &[NodeId],
        operands: O,
        f: F,
    ) -> Result<Captured>
    where
        O: CaptureOperands<'a>,
        F: FnMut(&CaptureScope<'_, 'a>, O::Views<'_>) -> std::result::Result<(), E>
            + Send
            + 'static,
        Error: From<E>,
    {
        // SAFETY: used in place, for this call only.
        unsafe { self.as_graph_mut() }.capture_into(stream, deps, operands, f)
    }

    /// Records the work `f` enqueues on `stream` as a child-graph node of this body, after
    /// `deps` (see [`Graph::add_captured`]).
    pub fn add_captured<O, F, E>(
        &mut self,
        stream: &Arc<CudaStream>,
        deps: &[NodeId],
        operands: O,
        f: F,
    ) -> Result<ChildGraphNode>
    where
        O: CaptureOperands<'a>,
        F: FnMut(&CaptureScope<'_, 'a>, O::Views<'_>) -> std::result::Result<(), E>
            + Send
            + 'static,
        Error: From<E>,
    {
        // SAFETY: used in place, for this call only.
        unsafe { self.as_graph_mut() }.add_captured(stream, deps, operands, f)
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
