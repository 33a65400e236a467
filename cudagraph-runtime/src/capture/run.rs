//! Running a capture: begin it, run the closure on the capture's scope with the views of its
//! operands, join and free what the closure left, end it whatever happened; and what a capture's
//! own calls recorded, given to the graph that has its nodes.

use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::Arc;

use cudarc::driver::{sys, CudaStream};

use super::check;
use super::errors::explain;
use super::escape;
use super::operands::{self, CaptureOperands};
use super::scope::CaptureScope;
use super::sequence::{is_legacy, Sequence};
use super::witness::{self, Witness};
use crate::ambient::{in_host_node, InCapture};
use crate::driver::{named, result};
use crate::error::{Error, Result};
use crate::graph::Graph;
use crate::id::fresh_id;
use crate::memory::kept::Kept;
use crate::memory::operand::{Hold, Use};
use crate::memory::peer;
use crate::memory::registry::Registry;

/// How a capture went.
pub(super) struct Ended<'a> {
    /// The graph `cuStreamEndCapture` returned (null when none): for a capture into a new graph,
    /// the caller owns it, also when the capture failed; for a capture into a graph, that graph.
    pub(super) graph: sys::CUgraph,
    /// The outcome: the closure's error first, then the end's, capture errors explained.
    pub(super) outcome: Result<()>,
    /// The closure's panic, to resume once the caller has cleaned up.
    pub(super) panic: Option<Box<dyn std::any::Any + Send>>,
    /// What the capture's own calls recorded (`None` when the capture did not begin).
    pub(super) sequence: Option<Sequence<'a>>,
    /// The allocations of the graph captured into that no node of it frees, listed before the
    /// end (see `escape::unfreed_in`); none when the capture did not begin.
    pub(super) unfreed: Result<Vec<(sys::CUdeviceptr, usize)>>,
}

/// Runs a capture on `stream` for `call`, for a graph of family `scope`: `begin` begins it
/// (given the raw stream and the mode), `f` records work, allocations left are freed, forked
/// streams are joined, and the capture ends, whatever `f` did.
pub(super) fn run<'a>(
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
        unfreed: Ok(Vec::new()),
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
    // Made before the capture begins (see `witness`).
    let witness = match Witness::new(ctx) {
        Ok(witness) => witness,
        Err(e) => return not_begun(Err(e)),
    };
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
    // The graph being recorded into, for what a broken capture leaves (see `escape`).
    // SAFETY: a live stream.
    let recording = unsafe { result::stream::capture_state(stream.cu_stream()) }
        .ok()
        .flatten()
        .map(|(graph, _)| graph);
    let sequence = Sequence::new(stream, id, scope);
    // The witness joins the capture and records nothing: it stays in the capture, valid or
    // broken, until the capture ends, and so tells whether the closure ended it.
    // (Two live streams of the capture's context, as `order` asks.)
    let witnessed = info.and_then(|_| sequence.streams.order(stream.cu_stream(), witness.raw()));
    let witness = witnessed.is_ok().then_some(witness);
    let body = match witnessed {
        Err(e) => Ok(Err(e)),
        Ok(()) => {
            let _inside = InCapture::enter();
            let scope = CaptureScope::new(&sequence);
            // The panic is resumed by the caller, after the capture has ended and the graph is
            // cleaned up: nothing here is left half-done.
            catch_unwind(AssertUnwindSafe(|| f(&scope)))
        }
    };
    let ended_inside = || match &witness {
        Some(witness) => witness.saw_the_end(stream, id),
        // Not joined: the stream alone tells what it can.
        None => witness::stream_saw_the_end(stream, id),
    };
    if id != 0 && ended_inside() {
        // The closure ended the capture itself (cudarc's `CudaStream::end_capture` on the
        // stream): it holds a graph of what was recorded, which holds none of the memory, host
        // functions or kernels the work was recorded with (or holds the graph captured into,
        // which this crate owns too). Nothing can take it back.
        escape::ended_inside(call);
    }
    // Whatever happened, no forked stream is left out of the end, and no allocation of the
    // capture outlives its graph.
    let joined = sequence.join_forks();
    let freed = sequence.free_the_rest();
    // What the graph holds that nothing frees, listed before the end: a failed end (a broken
    // capture, a stream that joined the capture and was not joined back) destroys the graph
    // being recorded into, also one captured into, and its addresses go back to the driver.
    let unfreed = match recording {
        // SAFETY: the graph the capture records into; it has not ended.
        Some(graph) => unsafe { escape::unfreed_in(graph) },
        // Not known (the driver did not say which graph): what holds the graph's addresses
        // takes that as an escape.
        None => Err(Error::Invalid {
            node: call.into(),
            reason: "the graph being captured into could not be read (cuStreamGetCaptureInfo)"
                .into(),
        }),
    };
    // With the allocations that escaped into the bodies of the capture's conditional nodes,
    // which the graph holds too.
    let unfreed =
        unfreed.and_then(
            |mut unfreed| match sequence.escaped_in_bodies.borrow().clone() {
                Some(bodies) => {
                    unfreed.extend(bodies);
                    Ok(unfreed)
                }
                None => Err(escape::unknown_body()),
            },
        );
    // SAFETY: the capture begun above, on this stream and thread.
    let (graph, ended) = unsafe { result::stream::end_capture(stream.cu_stream()) };
    // Out of the capture now (the end takes every stream of a capture out of it).
    drop(witness);
    if ended.is_err() {
        match &unfreed {
            Ok(unfreed) => escape::quarantine(ctx.ordinal() as i32, unfreed),
            Err(e) => escape::quarantine_failed(e),
        }
    }
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
        unfreed,
    }
}

/// The memory `operands` gives a capture on `stream`, as uses, checked to be apart where one is
/// written, and memory of another device made reachable by the stream's (see `memory::peer`).
/// Taken before the capture begins: taking a cudarc borrow makes its stream wait for the
/// borrowed memory's earlier uses, which inside the capture would break it.
pub(super) fn given<'a, O: CaptureOperands<'a>>(
    stream: &Arc<CudaStream>,
    operands: O,
) -> Result<Vec<Use<'a>>> {
    let mut uses = Vec::new();
    operands.into_uses(&mut uses)?;
    operands::check_apart(&uses)?;
    let what = || "memory given to the capture".to_string();
    let call = || "the capture".to_string();
    peer::check_uses(stream.context(), &uses, &what, &call)?;
    Ok(uses)
}

/// Runs `f` in a capture on its scope with the views of `given` (the memory of operands `O`).
pub(super) fn with_views<'g, 'a, O, F, E>(
    given: &'g [Use<'a>],
    f: &'g mut F,
) -> impl FnOnce(&CaptureScope<'_, 'a>) -> Result<()> + 'g
where
    O: CaptureOperands<'a>,
    F: FnMut(&CaptureScope<'_, 'a>, O::Views<'_>) -> std::result::Result<(), E>,
    Error: From<E>,
{
    move |s| {
        let views = O::views(given, s.streams());
        f(s, views).map_err(Error::from)
    }
}

/// Records `f`'s work on `stream` with the memory of `operands` as a new graph of family
/// `family` (in the scope `registry`, for a scope's graph), for `call`.
pub(super) fn capture_new<'a, O, F, E>(
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
    let given = given(stream, operands)?;
    let family = fresh_id();
    let ended = run(
        call,
        stream,
        family,
        |s, mode| {
            // SAFETY: a live stream (not the legacy one: `run` refuses it) of the context `run`
            // made current.
            named("cuStreamBeginCapture", unsafe {
                cudarc::driver::result::stream::begin_capture(s, mode)
            })
        },
        with_views::<O, F, E>(&given, &mut f),
    );
    let mut graph = (!ended.graph.is_null()).then(|| {
        // SAFETY: the captured graph is new and ours, also when the capture failed.
        unsafe { Graph::captured(ended.graph, stream.context().clone(), family, registry) }
    });
    // An allocation that another thread made on the captured stream after `run` listed them,
    // before the end, is in the graph too: listed again from the graph the capture made.
    let unfreed = match (&graph, ended.unfreed) {
        (Some(graph), Ok(mut before)) => {
            // SAFETY: the graph is ours, its capture over: nothing else modifies it.
            unsafe { escape::unfreed_in(graph.raw()) }.map(|after| {
                before.extend(after);
                before
            })
        }
        (_, unfreed) => unfreed,
    };
    // Before anything can drop the graph: an escaped allocation keeps it (see `escape`).
    let escaped = graph
        .as_mut()
        .map_or(Ok(()), |graph| escape::refuse_unfreed(graph, unfreed));
    if let Some(panic) = ended.panic {
        drop(graph);
        resume_unwind(panic);
    }
    ended.outcome?;
    escaped?;
    let mut graph = graph.ok_or_else(|| Error::Invalid {
        node: call.into(),
        reason: "the capture produced no graph".into(),
    })?;
    let recorded = graph.recorded_nodes()?;
    let learned = graph.learn_recorded(recorded)?;
    let sequence = ended.sequence.expect("a capture that ended began");
    // The closure keeps what the recorded work needs (a cuBLAS handle, kernel modules, buffers
    // it owns): the recorded nodes hold it as they hold the memory given to the capture, as long
    // as the graph and the launches that may run them (see `memory::kept`).
    finish(
        &mut graph,
        learned,
        sequence,
        given,
        Kept::use_of(Kept::new(f)),
    )?;
    crate::trace::event!(debug, nodes = graph.all_records().count(), "graph captured");
    Ok(graph)
}

/// What a capture's own calls recorded, given to the graph that has its nodes (`learned`):
/// each node's memory (its own call's, and all the memory given to the capture for the work
/// the crate did not see), the conditional nodes' bodies, the kernels' modules, the host
/// functions; and `closure`, the capture closure's use (see `memory::kept`), to every node.
/// Checks first what the capture recorded beyond its own calls ([`check`]) and that no host
/// function could race with the capture's other work.
pub(super) fn finish<'a>(
    graph: &mut Graph<'a>,
    learned: Range<usize>,
    sequence: Sequence<'a>,
    given: Vec<Use<'a>>,
    closure: Use<'a>,
) -> Result<()> {
    sequence.check_accounted()?;
    if sequence.removed_nodes.get() {
        graph.note_removed_node();
    }
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
        uses.push(closure.clone());
        graph.attach_uses(index, uses);
    }
    if let Some((first, second, why)) = graph.host_code_race_among(learned.clone()) {
        return Err(Error::Hazard {
            first: graph.name_of(first),
            second: graph.name_of(second),
            reason: why.reason(true).unwrap_or_else(|| {
                "a host function of the capture and other captured work use the same host \
                 memory, one writing it, on streams the capture did not order with each other: \
                 record them on one stream, or join the streams in between"
                    .into()
            }),
        });
    }
    // Kept before the bodies are taken in: nothing fails after that, so a caller's roll-back
    // never finds body nodes it cannot remove from the table.
    for kept in sequence.kept.take() {
        graph.retain(kept)?;
    }
    for added in sequence.bodies.take() {
        let Some(owner) = learned
            .clone()
            .find(|&i| graph.record(i).is_some_and(|r| r.raw == added.node))
        else {
            continue;
        };
        if added.looping {
            graph.add_loop(owner as u32);
        }
        for mut body in added.bodies {
            graph.adopt_resources_of(&body);
            graph.absorb_body(&mut body, owner as u32);
        }
    }
    graph.take_from_capture(
        &sequence.functions.borrow(),
        &sequence.panics,
        sequence.idle_handles.take(),
    );
    Ok(())
}
