//! The ways to capture: into a new graph ([`Graph::capture`], [`Scope::capture`]), as a
//! child-graph node ([`Graph::add_captured`]), into a graph being built ([`Graph::capture_into`]),
//! and into a conditional body; and the nodes a capture recorded into a graph ([`Captured`]).

#[cfg(not(feature = "cuda-12020"))]
use std::panic::resume_unwind;
use std::sync::Arc;

use cudarc::driver::{sys, CudaStream};

use super::errors::not_in_body;
#[cfg(not(feature = "cuda-12020"))]
use super::escape;
use super::operands::CaptureOperands;
use super::run::capture_new;
#[cfg(not(feature = "cuda-12020"))]
use super::run::{finish, given, run, with_views};
use super::scope::CaptureScope;
use crate::driver::result;
use crate::error::{Error, Result};
use crate::graph::{Body, Graph};
#[cfg(any(feature = "nccl", not(feature = "cuda-12020")))]
use crate::memory::kept::Kept;
use crate::node::kind::{raw_allowed_in_body, raw_kind_name};
use crate::node::{ChildGraphNode, NodeId, NodeKind};
use crate::scope::Scope;

impl Graph<'static> {
    /// Records the work `f` enqueues on `stream` as a new graph (`cuStreamBeginCapture` in
    /// thread-local mode ... `cuStreamEndCapture`), with the memory `operands` gives it.
    ///
    /// `operands` is the memory the work uses: [`DeviceBuffer`](crate::DeviceBuffer)s, `&buffer`
    /// (or `buffer`) to read, `&mut buffer` (or [`Mut(buffer)`](crate::Mut)) to write, one or a
    /// tuple of up to eight (see [`CaptureOperand`](crate::CaptureOperand)). The graph keeps them
    /// alive as any graph keeps its nodes' memory. `f` gets a [`CaptureScope`] and a view of
    /// each operand ([`CaptureView`](crate::CaptureView),
    /// [`CaptureViewMut`](crate::CaptureViewMut)):
    ///
    /// - the scope's own calls record kernels ([`CaptureScope::launch`]), copies, memsets, host
    ///   functions, allocations and conditional nodes, each with the memory it uses, checked as
    ///   [`Graph`]'s adders check theirs;
    /// - the scope dereferences to the stream: cudarc's calls and cuBLAS work on it, with the
    ///   views as their buffers (on a stream outside the capture a view panics: that work would
    ///   run at once, ordered with nothing; so it does on a stream that joined the capture
    ///   through cudarc instead of [`CaptureScope::fork`], which the capture does not join
    ///   back). Every copy and memset recorded that way is checked to touch
    ///   only memory given to the capture (to write, for what it writes) or allocated in it; a
    ///   buffer that was not given breaks the capture through cudarc's event tracking, or is
    ///   refused by that check ([`Error::Invalid`] naming the node).
    ///
    /// The graph keeps `f` too (it owns what the work needs: a cuBLAS handle, kernels) for as
    /// long as it and its executables may run. Capture always ends, also when `f` fails or
    /// panics; `f`'s error comes first, and a capture broken by a call inside it is reported as
    /// [`Error::CaptureBroken`] naming that call where it can be known (see the crate docs,
    /// "Stream capture"). `f` may not end the capture itself (cudarc's
    /// `CudaStream::end_capture` on the stream): the graph that gives it holds none of what its
    /// work uses, so the process is aborted when `f` returns.
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
        let child = self.capture_child("Graph::add_captured", stream, deps, operands, f);
        self.embed_captured(child, deps)
    }

    /// The capture of a child-graph node of this graph, for `call`: `stream` of the graph's
    /// context and `deps` its nodes (checked), then the work `f` enqueues recorded into a new
    /// graph.
    fn capture_child<O, F, E>(
        &mut self,
        call: &'static str,
        stream: &Arc<CudaStream>,
        deps: &[NodeId],
        operands: O,
        f: F,
    ) -> Result<Graph<'a>>
    where
        O: CaptureOperands<'a>,
        F: FnMut(&CaptureScope<'_, 'a>, O::Views<'_>) -> std::result::Result<(), E>
            + Send
            + 'static,
        Error: From<E>,
    {
        let checked = self.check_capture(call, stream, deps);
        self.or_forget_name(checked)?;
        capture_new(call, stream, operands, self.scope_registry(), f)
    }

    /// Embeds `child`, a captured graph, as a child-graph node after `deps`: refused when it has
    /// memory nodes, or, in a conditional body, a node kind a body may not hold.
    pub(super) fn embed_captured<'c: 'a>(
        &mut self,
        child: Result<Graph<'c>>,
        deps: &[NodeId],
    ) -> Result<ChildGraphNode> {
        let child = self.or_forget_name(child)?;
        self.check_captured_child(&child)?;
        self.add_child_graph(&child, deps)
    }

    /// [`Graph::add_captured`] of work that a library records with user objects of its own
    /// (NCCL does, keeping each captured collective's plan alive), with `keep` kept too. The node
    /// embeds a copy of the recorded nodes that holds none of them (see `bare`): its uses hold
    /// the captured graph, with the library's user objects and `f`, and `keep`, as long as
    /// launches may run it (see `memory::kept`). When the nodes cannot be copied, the node
    /// embeds the captured graph itself, as [`Graph::add_captured`] does.
    #[cfg(feature = "nccl")]
    pub(crate) fn add_captured_keeping<O, F, E>(
        &mut self,
        call: &'static str,
        stream: &Arc<CudaStream>,
        deps: &[NodeId],
        operands: O,
        keep: impl Send + 'static,
        f: F,
    ) -> Result<ChildGraphNode>
    where
        O: CaptureOperands<'a>,
        F: FnMut(&CaptureScope<'_, 'a>, O::Views<'_>) -> std::result::Result<(), E>
            + Send
            + 'static,
        Error: From<E>,
    {
        let child = self.capture_child(call, stream, deps, operands, f);
        let child = self.or_forget_name(child)?;
        self.check_captured_child(&child)?;
        let ctx = self.context().clone();
        // SAFETY: the captured graph is live, of the graph's context (checked), its capture over.
        let copy = unsafe { super::bare::copy_nodes(child.raw(), &ctx) };
        let copy = self.or_forget_name(copy)?;
        let kept = match &copy {
            Some(_) => {
                // The captured graph, with what its user objects keep: its own clone, since
                // `child` (which may borrow for `'a`) is dropped here.
                // SAFETY: a live graph.
                let whole = unsafe { result::graph::clone(child.raw()) };
                let whole = self.or_forget_name(whole)?;
                // SAFETY: the clone is new and ours.
                let whole = unsafe { Graph::from_raw_parts(whole, ctx, Vec::new()) };
                Kept::new((whole, keep))
            }
            None => Kept::new(keep),
        };
        let embedded = copy.as_ref().map_or(child.raw(), |c| c.raw());
        // SAFETY: `embedded` is `child`'s graph or its copy, which does the same work.
        unsafe { self.embed_child(&child, embedded, Some(Kept::use_of(kept)), deps) }
    }

    /// Refuses to embed `child`, a captured graph, when it has memory nodes, or, in a conditional
    /// body, a node kind a body may not hold.
    fn check_captured_child(&mut self, child: &Graph<'_>) -> Result<()> {
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
        Ok(())
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
        let given = given(stream, operands)?;
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
        let broken = matches!(ended.outcome, Err(Error::CaptureBroken { .. }));
        // Whatever else happened: an escaped allocation keeps this graph (see `escape`). (A
        // broken capture left nothing to ask.)
        // (Listed once: the escape check and the node table both need the recorded nodes.)
        let recorded = (!broken).then(|| self.recorded_nodes());
        let escaped = match &recorded {
            Some(listed) => {
                escape::refuse_escaped(self, listed.as_deref().ok(), ended.sequence.as_ref())
            }
            None => Ok(()),
        };
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
        escaped?;
        // From here on the capture recorded work into this graph: whatever fails leaves no
        // node the table does not account for (removed, or the graph unusable).
        let recorded = match recorded.unwrap_or_else(|| self.recorded_nodes()) {
            Ok(recorded) => recorded,
            Err(e) => {
                self.mark_refused_work();
                return Err(e);
            }
        };
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
        let learned = match self.learn_recorded(recorded) {
            Ok(learned) => learned,
            Err(e) => {
                // Some recorded nodes may be left unlisted: nothing accounts for their memory.
                self.roll_back(mark);
                self.mark_refused_work();
                return Err(e);
            }
        };
        let sequence = ended.sequence.expect("a capture that ended began");
        // The closure owns what the recorded work needs (a cuBLAS handle, kernels, buffers): the
        // recorded nodes hold it as they hold their memory (see `memory::kept`).
        let closure = Kept::use_of(Kept::new(f));
        if let Err(e) = finish(self, learned.clone(), sequence, given, closure) {
            self.roll_back(mark);
            return Err(e);
        }
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
    pub(super) fn check_capture(
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
