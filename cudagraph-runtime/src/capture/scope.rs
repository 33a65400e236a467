//! [`CaptureScope`]: a stream being captured, lent to a capture closure, with the capture's own
//! calls (kernels, copies, memsets, host functions, allocations, conditional nodes), forks onto
//! other streams, and what they record for the graph the capture makes ([`Sequence`]).

use std::any::Any;
use std::cell::{Cell, RefCell};
use std::ops::Deref;
use std::sync::Arc;

use cudarc::driver::{sys, CudaContext, CudaStream, DeviceRepr};

use super::operands::CaptureAlloc;
#[cfg(not(feature = "cuda-12020"))]
use crate::body::Body;
use crate::driver::{record_err, result};
use crate::error::{Error, Result};
use crate::function_set::FunctionSet;
use crate::graph::{launch_refused, Graph};
use crate::kernel::{Kernel, KernelArgValues, KernelArgs, LaunchConfig};
use crate::memory::operand::{Hold, Use};
use crate::node::{
    check_views_apart, with_views, Direction, HostCall, HostParams, HostViews, Memcpy, Memset,
    MemsetValue, PanicSlot,
};
#[cfg(not(feature = "cuda-12020"))]
use crate::node::{Condition, ConditionalHandle, ConditionalParams, NodeParams};
use crate::user_object::UserObject;

/// A stream being captured, lent to a capture closure ([`Graph::capture`] and the other capture
/// calls): dereferences to the `Arc<CudaStream>` for cudarc's calls and cuBLAS, records this
/// crate's own work (kernels, copies, memsets, host functions, allocations, conditional nodes)
/// with the memory each uses, and forks the capture onto other streams.
///
/// It exists only inside the closure it is given to (its lifetime cannot leave the closure), and
/// only on the capturing thread (it is neither `Send` nor `Sync`), so every stream it forks is
/// joined before the capture ends. `'a` is how long the captured graph may borrow memory, as for
/// [`Graph<'a>`](Graph).
///
/// ```compile_fail
/// # use cudagraph_runtime::{CaptureScope, Graph};
/// # fn f(stream: &std::sync::Arc<cudagraph_runtime::cudarc::driver::CudaStream>) {
/// let mut kept = None;
/// let _ = Graph::capture(stream, (), move |s: &CaptureScope<'_, 'static>, ()| {
///     kept = Some(s); // the scope cannot outlive its closure
///     Ok::<(), cudagraph_runtime::Error>(())
/// });
/// # }
/// ```
///
/// ```compile_fail
/// # use cudagraph_runtime::{CaptureScope, Graph};
/// # fn f(stream: &std::sync::Arc<cudagraph_runtime::cudarc::driver::CudaStream>) {
/// let _ = Graph::capture(stream, (), |s: &CaptureScope<'_, 'static>, ()| {
///     // A scope stays on the capturing thread.
///     std::thread::scope(|t| {
///         t.spawn(|| s.stream().synchronize());
///     });
///     Ok::<(), cudagraph_runtime::Error>(())
/// });
/// # }
/// ```
pub struct CaptureScope<'s, 'a> {
    stream: &'s Arc<CudaStream>,
    sequence: &'s Sequence<'a>,
}

impl std::fmt::Debug for CaptureScope<'_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CaptureScope")
            .field("stream", &self.stream.cu_stream())
            .field("capture", &self.sequence.id)
            .finish()
    }
}

impl Deref for CaptureScope<'_, '_> {
    type Target = Arc<CudaStream>;

    fn deref(&self) -> &Arc<CudaStream> {
        self.stream
    }
}

impl<'s, 'a> CaptureScope<'s, 'a> {
    /// The scope of `sequence` on its first stream.
    pub(crate) fn new(sequence: &'s Sequence<'a>) -> Self {
        Self {
            stream: &sequence.origin,
            sequence,
        }
    }

    /// The stream being captured: enqueue the work to record on it.
    pub fn stream(&self) -> &Arc<CudaStream> {
        self.stream
    }

    /// The capture's id (0 while the work runs eagerly).
    pub(crate) fn capture_id(&self) -> u64 {
        self.sequence.id
    }

    /// Whether the work is being recorded (`false` while [`Replay`](super::Replay) runs the
    /// closure eagerly to warm up).
    pub fn is_capturing(&self) -> bool {
        self.sequence.id != 0
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
    /// # use cudagraph_runtime::prelude::*;
    /// # use cudagraph_runtime::{Error, Mut};
    /// # use std::sync::Arc;
    /// # fn f(stream: &Arc<cudarc::driver::CudaStream>, side: Arc<cudarc::driver::CudaStream>,
    /// #      a: DeviceBuffer<f32>, b: DeviceBuffer<f32>) -> Result<(), Error> {
    /// let graph = Graph::capture(stream, (Mut(a), Mut(b)), move |s, (mut a, mut b)| {
    ///     s.fork(&side, |t| {
    ///         t.memset_zeros(&mut a)?; // on `side`
    ///         s.memset_zeros(&mut b)?; // on `stream`, in parallel
    ///         Ok::<(), Error>(())
    ///     })
    ///     // here `stream` waits for `side`
    /// })?;
    /// # Ok(()) }
    /// ```
    pub fn fork<R, E>(
        &self,
        side: &Arc<CudaStream>,
        f: impl FnOnce(&CaptureScope<'_, 'a>) -> std::result::Result<R, E>,
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
        f: impl FnOnce(&[CaptureScope<'_, 'a>]) -> std::result::Result<R, E>,
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

    /// Launches `kernel` with `config` and `args` on this scope's stream (a kernel node of the
    /// graph), as [`Graph::add_kernel`] adds one: the arguments checked by the kernel's
    /// parameter list and its launch check ([`Kernel::requires`]), the memory they point to
    /// held by the graph (a `DeviceBuffer`, memory borrowed for `'a`, a view of memory given to
    /// the capture, an allocation made in it).
    pub fn launch<A: KernelArgs>(
        &self,
        kernel: &Kernel<A>,
        config: LaunchConfig,
        args: impl KernelArgValues<'a, A>,
    ) -> Result<()> {
        let name = || self.sequence.name("kernel");
        if !kernel.admits(&config, &args) {
            return Err(launch_refused(name(), &config));
        }
        let mut uses = Vec::new();
        let mut reprs = args.into_parts(&mut uses)?;
        self.sequence.admit(&uses, &name)?;
        self.sequence
            .functions
            .borrow_mut()
            .insert(kernel.function());
        let stream = self.stream.cu_stream();
        A::with_reprs(&mut reprs, |params| {
            // SAFETY: a live kernel of the capture's context (the kernel keeps its module
            // loaded, and the graph keeps the function), with its parameter list's arguments;
            // the memory they point to is held as `uses` says.
            unsafe { result::enqueue::kernel(kernel.cu_function(), &config, stream, params) }
        })?;
        self.sequence.recorded(self.stream, uses)
    }

    /// Copies `copy` on this scope's stream (a memcpy node of the graph), as
    /// [`Graph::add_memcpy`] adds one.
    pub fn memcpy<D: Direction>(&self, copy: Memcpy<'a, D>) -> Result<()> {
        let ctx = self.sequence.ctx.cu_ctx();
        let name = || self.sequence.name("memcpy");
        let (src, dst, params) = copy.into_parts(ctx, name)?;
        let uses = vec![src, dst];
        self.sequence.admit(&uses, &name)?;
        // SAFETY: the copy's memory is held as `uses` says.
        unsafe { result::enqueue::copy(&params.copy, self.stream.cu_stream()) }?;
        self.sequence.recorded(self.stream, uses)
    }

    /// Sets memory with `set` on this scope's stream (a memset node of the graph), as
    /// [`Graph::add_memset`] adds one.
    pub fn memset<V: MemsetValue>(&self, set: Memset<'a, V>) -> Result<()> {
        let name = || self.sequence.name("memset");
        let (dst, params) = set.into_parts(self.sequence.ctx.cu_ctx(), name)?;
        let uses = vec![dst];
        self.sequence.admit(&uses, &name)?;
        // SAFETY: the memset's memory is held as `uses` says.
        unsafe { result::enqueue::memset(&params.set, self.stream.cu_stream()) }?;
        self.sequence.recorded(self.stream, uses)
    }

    /// Runs `f` on a CPU thread when the graph reaches this point of this scope's stream (a host
    /// node, `cuLaunchHostFunc`), as [`Graph::add_host`] adds one: it must not call CUDA (this
    /// crate's calls refuse there), a panic in it is reported by the next launch
    /// ([`Error::HostPanicked`]), and the graph keeps it alive.
    pub fn host_fn(&self, f: impl FnMut() + Send + 'static) -> Result<()> {
        self.push_host(Box::new(f), Vec::new())
    }

    /// Runs `f` with host buffers on a CPU thread when the graph reaches this point of this
    /// scope's stream, as [`Graph::add_host_with`] adds one: `&HostBuffer` to read, `&mut
    /// HostBuffer` to write (see [`HostViews`]). The capture orders it with the copies of those
    /// buffers recorded before and after it on this stream.
    pub fn host<V: HostViews>(
        &self,
        buffers: V,
        f: impl for<'v> FnMut(V::Views<'v>) + Send + 'static,
    ) -> Result<()> {
        let mut uses = Vec::new();
        let f = with_views(buffers, f, &mut uses);
        check_views_apart(&uses, || self.sequence.name("host"))?;
        self.push_host(f, uses)
    }

    fn push_host(&self, f: crate::node::HostFn, uses: Vec<Use<'static>>) -> Result<()> {
        let name = self.sequence.name("host");
        if !self.is_capturing() {
            return Err(Error::Invalid {
                node: name,
                reason: "a host function runs in the captured graph only: while the work runs \
                         eagerly (a warm-up, `CaptureScope::is_capturing` is false), leave it out"
                    .into(),
            });
        }
        let uses: Vec<Use<'a>> = uses;
        self.sequence.admit(&uses, &|| name.clone())?;
        let call = HostCall::new(f, name, self.sequence.panics.clone());
        let params = HostParams::of(&call);
        // The call's address is stable (boxed); the graph keeps it as long as it may run.
        let kept = UserObject::new(call)?;
        // SAFETY: `params` points to the call, which `kept` keeps alive; the graph takes `kept`.
        unsafe { result::enqueue::host(params.raw(), self.stream.cu_stream()) }?;
        self.sequence.kept.borrow_mut().push(Box::new(kept));
        self.sequence.recorded(self.stream, uses)
    }

    /// Allocates `len` `T`s of device memory on this scope's stream (`cuMemAllocAsync`, an
    /// alloc node of the graph): a graph allocation, made each time the graph runs, freed by
    /// [`CaptureScope::free`] or at the end of the capture. The memory is uninitialized, so
    /// `T` is valid for every bit pattern ([`bytemuck::AnyBitPattern`]).
    ///
    /// Refused outside a capture (while [`Replay`](super::Replay) warms up, allocate before it).
    pub fn alloc<T: DeviceRepr + bytemuck::AnyBitPattern>(
        &self,
        len: usize,
    ) -> Result<CaptureAlloc<'s, T>> {
        let bytes = len
            .checked_mul(std::mem::size_of::<T>())
            .filter(|&b| b > 0)
            .ok_or_else(|| Error::Invalid {
                node: self.sequence.name("mem_alloc"),
                reason: format!(
                    "an allocation of {len} elements of {} bytes: it must hold at least one byte \
                     and fit in memory",
                    std::mem::size_of::<T>()
                ),
            })?;
        if !self.is_capturing() {
            return Err(Error::Invalid {
                node: self.sequence.name("mem_alloc"),
                reason: "an allocation made by the capture exists only in its graph: outside a \
                         capture (a warm-up), give the work memory allocated beforehand"
                    .into(),
            });
        }
        // SAFETY: a live stream being captured: the allocation is recorded as an alloc node.
        let addr = unsafe { result::enqueue::alloc(bytes, self.stream.cu_stream()) }?;
        let index = self.sequence.allocs.borrow().len();
        self.sequence.allocs.borrow_mut().push(AllocEntry {
            range: addr..addr + bytes as u64,
            streams: vec![self.stream.clone()],
            viewed: false,
            freed: false,
        });
        Ok(CaptureAlloc::new(
            addr,
            len,
            self.sequence.id,
            self.stream,
            (&self.sequence.allocs, index),
        ))
    }

    /// Frees `alloc` on this scope's stream (a free node of the graph), after every use of it
    /// recorded so far: the capture orders this stream after the streams that made and used it
    /// (after every stream of the capture, once cudarc's calls had a view of it, which this
    /// crate does not follow).
    pub fn free<T>(&self, alloc: CaptureAlloc<'s, T>) -> Result<()> {
        let entry = self.sequence.allocs.borrow()[alloc.index].clone();
        if entry.viewed {
            self.sequence.join_all_into(self.stream)?;
        } else {
            let mine = self.stream.cu_stream();
            for user in entry.streams.iter().filter(|s| s.cu_stream() != mine) {
                self.sequence.order(user, self.stream)?;
            }
        }
        // SAFETY: an allocation of this capture that nothing recorded after this point uses (it
        // is consumed), ordered after every use recorded so far.
        unsafe { result::memory::free_async(alloc.addr, self.stream.cu_stream()) }?;
        self.sequence.allocs.borrow_mut()[alloc.index].freed = true;
        Ok(())
    }

    /// Makes a conditional handle for a conditional node of the capture's graph
    /// (`cuGraphConditionalHandleCreate`), reset to `default` at each launch when given (see
    /// [`Graph::conditional_handle`]). Kernels the capture launches set it
    /// ([`CaptureScope::launch`] with a [`ConditionalHandle`] argument).
    #[cfg(not(feature = "cuda-12020"))]
    pub fn conditional_handle(&self, default: Option<u32>) -> Result<ConditionalHandle> {
        let (graph, _) = self
            .sequence
            .state(self.stream, "CaptureScope::conditional_handle")?;
        let ctx = self.sequence.ctx.cu_ctx();
        // SAFETY: the live graph the capture records into, of this context.
        let raw = unsafe { result::graph::conditional_handle(graph, ctx, default) }?;
        self.sequence.idle_handles.borrow_mut().push(raw);
        Ok(ConditionalHandle {
            raw,
            scope: self.sequence.scope,
            made_for: graph as usize,
        })
    }

    /// Adds a conditional node reading `handle` at this point of this scope's stream
    /// (`cuStreamGetCaptureInfo`, the node, then `cuStreamUpdateCaptureDependencies`): the work
    /// recorded on this stream afterwards runs after it. `build` builds its bodies, as for
    /// [`Graph::add_conditional`]; if it fails, the node is removed and its error returned.
    #[cfg(not(feature = "cuda-12020"))]
    pub fn add_conditional(
        &self,
        handle: ConditionalHandle,
        condition: Condition,
        build: impl FnOnce(&mut [&mut Body<'a>]) -> Result<()>,
    ) -> Result<()> {
        let name = || self.sequence.name("conditional");
        let (graph, deps) = self
            .sequence
            .state(self.stream, "CaptureScope::add_conditional")?;
        if handle.scope != self.sequence.scope || handle.made_for != graph as usize {
            return Err(Error::Invalid {
                node: name(),
                reason: "the conditional handle was not made for this capture: make it with \
                         `CaptureScope::conditional_handle`"
                    .into(),
            });
        }
        #[cfg(not(any(
            feature = "cuda-12030",
            feature = "cuda-12040",
            feature = "cuda-12050",
            feature = "cuda-12060"
        )))]
        if let Condition::Switch(0) = condition {
            return Err(Error::Invalid {
                node: name(),
                reason: "a switch has at least one body".into(),
            });
        }
        let mut params = ConditionalParams {
            handle: handle.raw,
            condition,
            ctx: self.sequence.ctx.cu_ctx(),
            bodies: std::ptr::null_mut(),
        };
        // SAFETY: the live graph the capture records into, and its nodes the stream's next work
        // depends on.
        let node = unsafe { params.add_to(graph, &deps) }.map_err(|e| e.at_node(name))?;
        // SAFETY: the node was just added with `params`.
        let mut bodies = unsafe {
            Graph::bodies_of(
                &params,
                &self.sequence.ctx,
                self.sequence.scope,
                None,
                Some(self.sequence.id),
            )
        };
        let mut lent: Vec<&mut Body<'a>> = bodies.iter_mut().map(Body::lend).collect();
        let built = build(&mut lent);
        drop(lent);
        let placed = built.and_then(|()| {
            // SAFETY: the stream is being captured into `graph`, whose node `node` is.
            unsafe { result::stream::set_capture_dependencies(self.stream.cu_stream(), &[node]) }
        });
        if let Err(e) = placed {
            // SAFETY: the node was just added and nothing refers to it. Should CUDA keep it (it
            // removes no node from a graph with memory nodes), the error below fails the
            // capture, and its graph goes with it.
            let _ = unsafe { result::graph::destroy_node(node) };
            drop(bodies);
            return Err(e.at_node(name));
        }
        self.sequence
            .idle_handles
            .borrow_mut()
            .retain(|&h| h != handle.raw);
        self.sequence.bodies.borrow_mut().push((node, bodies));
        Ok(())
    }
}

/// An allocation made by [`CaptureScope::alloc`]: its bytes, the streams that made and used it
/// through this crate's calls, whether a view of it went to cudarc, whether it was freed.
#[derive(Debug, Clone)]
pub(crate) struct AllocEntry {
    range: std::ops::Range<sys::CUdeviceptr>,
    streams: Vec<Arc<CudaStream>>,
    pub(crate) viewed: bool,
    freed: bool,
}

/// What the scopes of one capture share: its id, the streams forked into it and the event that
/// forks and joins are made with, and what the capture's own calls recorded for its graph.
pub(crate) struct Sequence<'a> {
    pub(crate) ctx: Arc<CudaContext>,
    /// The capture's unique id (`cuStreamGetCaptureInfo`); 0 while the work runs eagerly.
    pub(crate) id: u64,
    /// The stream the capture was begun on: every fork is joined back into it at the end.
    pub(crate) origin: Arc<CudaStream>,
    forked: RefCell<Vec<Arc<CudaStream>>>,
    /// Made on the first fork; destroyed after the capture has ended.
    event: Cell<sys::CUevent>,
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
    pub(crate) bodies: RefCell<Vec<(sys::CUgraphNode, Vec<Graph<'a>>)>>,
    /// Conditional handles made that drive no conditional node yet.
    pub(crate) idle_handles: RefCell<Vec<crate::node::RawConditionalHandle>>,
    /// Counts the capture's own nodes, for their names in errors.
    calls: Cell<u32>,
}

impl<'a> Sequence<'a> {
    /// The sequence of a capture `id` (0: none, the work runs eagerly) begun on `origin`, for a
    /// graph of family `scope`.
    pub(crate) fn new(origin: &Arc<CudaStream>, id: u64, scope: u64) -> Self {
        Self {
            ctx: origin.context().clone(),
            id,
            origin: origin.clone(),
            forked: RefCell::new(Vec::new()),
            event: Cell::new(std::ptr::null_mut()),
            scope,
            nodes: RefCell::new(Vec::new()),
            allocs: RefCell::new(Vec::new()),
            kept: RefCell::new(Vec::new()),
            functions: RefCell::new(FunctionSet::default()),
            panics: Arc::new(PanicSlot::default()),
            bodies: RefCell::new(Vec::new()),
            idle_handles: RefCell::new(Vec::new()),
            calls: Cell::new(0),
        }
    }

    /// The name of the capture's next node of `kind`, for errors.
    fn name(&self, kind: &str) -> String {
        let n = self.calls.get();
        self.calls.set(n + 1);
        format!("{kind} #{n} of the capture")
    }

    /// Refuses memory the capture's own work may not use: another capture's, a graph's
    /// allocations or indirect values (which its own nodes use), another graph's conditional
    /// handles. While the work runs eagerly (a warm-up) only the views of the memory given to
    /// it: that memory is what the warm-up holds and orders like a launch.
    fn admit(&self, uses: &[Use<'a>], node: &dyn Fn() -> String) -> Result<()> {
        for u in uses {
            let why = match u.hold {
                Hold::Captured { capture } if capture != self.id => {
                    "memory of another capture (or of a capture that has ended)"
                }
                Hold::Captured { .. } => continue,
                _ if self.id == 0 => {
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

    /// Notes that the work just enqueued on `stream` uses `uses`: the node it recorded is the
    /// one the stream's next work depends on, and the allocations of the capture among them
    /// are used on `stream`.
    fn recorded(&self, stream: &Arc<CudaStream>, uses: Vec<Use<'a>>) -> Result<()> {
        if self.id == 0 {
            return Ok(());
        }
        for entry in self.allocs.borrow_mut().iter_mut() {
            let used = uses.iter().any(|u| {
                matches!(u.hold, Hold::Captured { .. })
                    && u.start < entry.range.end
                    && entry.range.start < u.end
            });
            if used
                && !entry
                    .streams
                    .iter()
                    .any(|s| s.cu_stream() == stream.cu_stream())
            {
                entry.streams.push(stream.clone());
            }
        }
        // SAFETY: a live stream.
        if let Some((_, deps)) = unsafe { result::stream::capture_state(stream.cu_stream()) }? {
            let mut nodes = self.nodes.borrow_mut();
            for node in deps {
                nodes.push((node, uses.clone()));
            }
        }
        Ok(())
    }

    /// The graph the capture records into, and the nodes `stream`'s next work depends on, for
    /// `call`; refused while the work runs eagerly.
    fn state(
        &self,
        stream: &CudaStream,
        call: &str,
    ) -> Result<(sys::CUgraph, Vec<sys::CUgraphNode>)> {
        // SAFETY: a live stream.
        match unsafe { result::stream::capture_state(stream.cu_stream()) }? {
            Some(state) if self.id != 0 => Ok(state),
            _ => Err(Error::Invalid {
                node: call.into(),
                reason: "only a capture records conditional nodes; outside one (a warm-up, \
                         `CaptureScope::is_capturing` is false) decide on the host"
                    .into(),
            }),
        }
    }

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
        if super::is_legacy(side.cu_stream()) {
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

    /// The streams forked into the capture that are still in it (one that left it, by an error,
    /// has nothing to join).
    fn forks_in_capture(&self) -> Vec<Arc<CudaStream>> {
        let forked = self.forked.borrow();
        forked
            .iter()
            .filter(|side| {
                // SAFETY: a live stream.
                let info = unsafe { result::stream::capture_info(side.cu_stream()) };
                matches!(info, Ok(Some((id, true))) if id == self.id)
            })
            .cloned()
            .collect()
    }

    /// Makes `to` wait for everything the capture recorded so far on its other streams.
    fn join_all_into(&self, to: &Arc<CudaStream>) -> Result<()> {
        let mut joined = Ok(());
        let others = std::iter::once(self.origin.clone()).chain(self.forks_in_capture());
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
            joined = joined.and(self.order(&side, &self.origin));
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
            let done = unsafe { result::memory::free_async(addr, self.origin.cu_stream()) };
            freed = freed.and(done);
            entry.freed = true;
        }
        freed
    }
}

impl Drop for Sequence<'_> {
    fn drop(&mut self) {
        let event = self.event.get();
        if !event.is_null() {
            // SAFETY: our event; the capture that used it has ended.
            record_err(&self.ctx, unsafe { result::event::destroy(event) });
        }
    }
}
