//! [`CaptureScope`]: a stream being captured, lent to a capture closure, with the capture's own
//! calls (kernels, copies, memsets, host functions, allocations, conditional nodes), forks onto
//! other streams, and what they record for the graph the capture makes ([`Sequence`]).

use std::ops::Deref;
#[cfg(not(feature = "cuda-12020"))]
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::Arc;

use cudarc::driver::{CudaStream, DeviceRepr};

use super::alloc::{AllocEntry, CaptureAlloc};
use super::sequence::{CaptureStreams, Sequence};
use crate::driver::{named, result};
use crate::error::{Error, Result};
#[cfg(not(feature = "cuda-12020"))]
use crate::graph::{Body, Graph};
use crate::kernel::{launch_refused, Kernel, KernelArgValues, KernelArgs, LaunchConfig};
use crate::memory::operand::Use;
use crate::memory::peer;
use crate::node::{
    check_views_apart, with_views, Direction, HostCall, HostParams, HostViews, Memcpy, Memset,
    MemsetValue,
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
            .field("capture", &self.sequence.streams.id)
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
            stream: &sequence.streams.origin,
            sequence,
        }
    }

    /// The stream being captured: enqueue the work to record on it.
    pub fn stream(&self) -> &Arc<CudaStream> {
        self.stream
    }

    /// The capture's streams, for its views.
    pub(crate) fn streams(&self) -> &'s CaptureStreams {
        &self.sequence.streams
    }

    /// Whether the work is being recorded (`false` while [`Replay`](super::Replay) runs the
    /// closure eagerly to warm up).
    pub fn is_capturing(&self) -> bool {
        self.sequence.streams.id != 0
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
        let body = self
            .sequence
            .streams
            .forking(&[side], || {
                f(&CaptureScope {
                    stream: side,
                    sequence: self.sequence,
                })
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
        let body = forked.and_then(|()| {
            let streams: Vec<&Arc<CudaStream>> = scopes.iter().map(|s| s.stream).collect();
            let sequence = &self.sequence.streams;
            sequence
                .forking(&streams, || f(&scopes))
                .map_err(Error::from)
        });
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
        let what = || "memory the kernel uses".to_string();
        peer::check_uses(&self.sequence.ctx, &uses, &what, &name)?;
        // A capture allocation made on another stream: the kernel runs after its alloc node.
        self.sequence.order_after_allocs(self.stream, &uses)?;
        self.sequence
            .functions
            .borrow_mut()
            .insert(kernel.function());
        let stream = self.stream.cu_stream();
        let before = self.sequence.deps_before(self.stream)?;
        A::with_reprs(&mut reprs, |params| {
            // SAFETY: a live kernel of the capture's context (the kernel keeps its module
            // loaded, and the graph keeps the function), with its parameter list's arguments;
            // the memory they point to is held as `uses` says.
            unsafe { result::enqueue::kernel(kernel.cu_function(), &config, stream, params) }
        })?;
        self.sequence.recorded(self.stream, before, uses)
    }

    /// Copies `copy` on this scope's stream (a memcpy node of the graph), as
    /// [`Graph::add_memcpy`] adds one.
    pub fn memcpy<D: Direction>(&self, copy: Memcpy<'a, D>) -> Result<()> {
        let ctx = &self.sequence.ctx;
        let name = || self.sequence.name("memcpy");
        let (src, dst, params) = copy.into_parts(ctx, name)?;
        let uses = vec![src, dst];
        self.sequence.admit(&uses, &name)?;
        self.sequence.order_after_allocs(self.stream, &uses)?;
        let before = self.sequence.deps_before(self.stream)?;
        // SAFETY: the copy's memory is held as `uses` says.
        unsafe { result::enqueue::copy(&params.copy, self.stream.cu_stream()) }?;
        self.sequence.recorded(self.stream, before, uses)
    }

    /// Sets memory with `set` on this scope's stream (a memset node of the graph), as
    /// [`Graph::add_memset`] adds one.
    pub fn memset<V: MemsetValue>(&self, set: Memset<'a, V>) -> Result<()> {
        let name = || self.sequence.name("memset");
        let (dst, params) = set.into_parts(self.sequence.ctx.cu_ctx(), name)?;
        let uses = vec![dst];
        self.sequence.admit(&uses, &name)?;
        let what = || "the memset's destination".to_string();
        peer::check_uses(&self.sequence.ctx, &uses, &what, &name)?;
        self.sequence.order_after_allocs(self.stream, &uses)?;
        let before = self.sequence.deps_before(self.stream)?;
        // SAFETY: the memset's memory is held as `uses` says.
        unsafe { result::enqueue::memset(&params.set, self.stream.cu_stream()) }?;
        self.sequence.recorded(self.stream, before, uses)
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
        let (f, data) = params.call();
        let before = self.sequence.deps_before(self.stream)?;
        // SAFETY: `params` points to the call, which `kept` keeps alive; the graph takes `kept`.
        named("cuLaunchHostFunc", unsafe {
            cudarc::driver::result::stream::launch_host_function(self.stream.cu_stream(), f, data)
        })?;
        self.sequence.kept.borrow_mut().push(Box::new(kept));
        self.sequence.recorded(self.stream, before, uses)
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
        let addr = named("cuMemAllocAsync", unsafe {
            cudarc::driver::result::malloc_async(self.stream.cu_stream(), bytes)
        })?;
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
            &self.sequence.streams,
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
        named("cuMemFreeAsync", unsafe {
            cudarc::driver::result::free_async(alloc.addr, self.stream.cu_stream())
        })?;
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
    /// [`Graph::add_conditional`]; if it fails, the node is removed and its error returned. A
    /// handle drives a single conditional node (CUDA's rule): one that drives a node already, or
    /// that this capture did not make, is refused with [`Error::Invalid`].
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
        if !self.sequence.idle_handles.borrow().contains(&handle.raw) {
            return Err(Error::Invalid {
                node: name(),
                reason: "the conditional handle already drives a conditional node, or was not \
                         made by this capture, and CUDA ties a handle to a single conditional \
                         node: make a handle for each node with \
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
                Some(self.sequence.streams.id),
            )
        };
        let mut lent: Vec<&mut Body<'a>> = bodies.iter_mut().map(Body::lend).collect();
        // A panic in `build` is caught so that the node goes as it goes on an error (the closure
        // may catch the panic and go on with the capture).
        let built = catch_unwind(AssertUnwindSafe(|| build(&mut lent)));
        drop(lent);
        if bodies.iter().any(|b| b.keeps_driver_graph()) {
            // A capture into a body refused an allocation that escaped its closure and keeps the
            // body's driver graph for good (see `capture::escape`): the node owns that graph,
            // so the node stays, and the capture's graph is kept too when it ends.
            super::escape::note_escaped_in_bodies(&self.sequence.escaped_in_bodies, &bodies);
            drop(bodies);
            if let Err(panic) = built {
                resume_unwind(panic);
            }
            return Err(Error::Invalid {
                node: name(),
                reason: "a capture into a body kept an allocation past its closure (see the \
                         capture's error): the capture keeps the body, and its graph is refused"
                    .into(),
            });
        }
        let built = match built {
            Ok(built) => built,
            Err(panic) => {
                self.remove_failed_conditional(node, bodies);
                resume_unwind(panic);
            }
        };
        // The capture allocations the bodies use: the node runs after their alloc nodes, and a
        // later free waits for it (the node was added with this stream's dependencies, which
        // need not follow an allocation made on another stream).
        let body_uses: Vec<_> = bodies.iter().flat_map(|b| b.all_uses()).collect();
        let placed = built
            .and_then(|()| self.after_allocs(graph, node, &deps, &body_uses))
            .and_then(|()| {
                // SAFETY: the stream is being captured into `graph`, whose node `node` is.
                unsafe {
                    result::stream::set_capture_dependencies(self.stream.cu_stream(), &[node])
                }
            });
        if let Err(e) = placed {
            self.remove_failed_conditional(node, bodies);
            return Err(e.at_node(name));
        }
        self.sequence.note_alloc_uses(self.stream, &body_uses);
        self.sequence
            .idle_handles
            .borrow_mut()
            .retain(|&h| h != handle.raw);
        self.sequence
            .bodies
            .borrow_mut()
            .push(super::sequence::AddedConditional {
                node,
                looping: matches!(condition, Condition::While),
                bodies,
            });
        Ok(())
    }

    /// Makes the conditional node `node` (added to `graph` after `deps`, not yet placed on this
    /// scope's stream) depend on the work recorded so far on the streams that made the capture
    /// allocations among `uses` that this stream is not ordered after: that work follows their
    /// alloc nodes.
    #[cfg(not(feature = "cuda-12020"))]
    fn after_allocs(
        &self,
        graph: cudarc::driver::sys::CUgraph,
        node: cudarc::driver::sys::CUgraphNode,
        deps: &[cudarc::driver::sys::CUgraphNode],
        uses: &[Use<'a>],
    ) -> Result<()> {
        let mut added: Vec<cudarc::driver::sys::CUgraphNode> = deps.to_vec();
        for maker in self.sequence.unordered_allocs(self.stream, uses) {
            // SAFETY: a live stream.
            let Some((_, tail)) = (unsafe { result::stream::capture_state(maker.cu_stream()) })?
            else {
                continue;
            };
            for from in tail {
                if added.contains(&from) {
                    continue;
                }
                // SAFETY: `graph` is the live graph the capture records into; `from` is a node
                // of it (a stream's next dependency) and `node` too. `from` cannot depend on
                // `node`, which no stream's work follows yet: no cycle.
                unsafe {
                    result::graph::add_dependency(
                        graph,
                        from,
                        node,
                        &crate::EdgeKind::Default.data(),
                    )
                }?;
                added.push(from);
            }
        }
        Ok(())
    }

    /// Removes the conditional node `node` whose bodies `bodies` failed to build. Should CUDA
    /// keep it (it removes no node from a graph with memory nodes, and the capture has them
    /// once it allocated), the capture fails at its end whatever the closure makes of the
    /// error: the node would run bodies whose memory nothing holds (their nodes' records go
    /// with `bodies`).
    #[cfg(not(feature = "cuda-12020"))]
    fn remove_failed_conditional(
        &self,
        node: cudarc::driver::sys::CUgraphNode,
        bodies: Vec<Graph<'a>>,
    ) {
        // SAFETY: the node was just added and nothing refers to it.
        let removed = unsafe { result::graph::destroy_node(node) };
        drop(bodies);
        match removed {
            Ok(()) => self.sequence.removed_nodes.set(true),
            Err(_) => self.sequence.refused_work.set(true),
        }
    }
}
