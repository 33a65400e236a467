//! The executable ([`GraphExec`]): made by instantiating a graph, and what its drop leaves to
//! the launches still running.

use std::sync::Arc;

use cudarc::driver::{sys, CudaStream};

use crate::ambient::must_defer_releases;
use crate::driver::{named, record_err, result};
use crate::error::{Error, Result};
use crate::function_set::FunctionSet;
use crate::graph::Graph;
use crate::indirect::IndirectBlock;
use crate::memory::holdings::Holdings;
use crate::memory::outliving::Outliving;
use crate::node::{HostCall, PanicSlot, PanicWatch};

/// Flags for instantiation (`CUgraphInstantiate_flags`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct InstantiateFlags(u64);

impl InstantiateFlags {
    /// No flag.
    pub const NONE: Self = Self(0);
    /// Free unfreed graph allocations before each relaunch.
    pub const AUTO_FREE_ON_LAUNCH: Self = Self(1);
    /// Upload during instantiation (set for you when an upload stream is given).
    pub const UPLOAD: Self = Self(2);
    /// Make the graph launchable from the device.
    pub const DEVICE_LAUNCH: Self = Self(4);
    /// Honour per-node priorities instead of the launch stream's.
    pub const USE_NODE_PRIORITY: Self = Self(8);

    /// The raw bits.
    pub const fn bits(self) -> u64 {
        self.0
    }
}

impl std::ops::BitOr for InstantiateFlags {
    type Output = Self;
    fn bitor(self, rhs: Self) -> Self {
        Self(self.0 | rhs.0)
    }
}

/// An instantiated graph (`CUgraphExec`), ready to launch any number of times.
///
/// It owns the graph it was made from: node handles from that graph address this executable's
/// nodes. Updates apply to launches made after them, never to launches already queued
/// ([`cuGraphExecUpdate`]).
///
/// The executable keeps the memory its nodes use alive until its last launch that may use it has
/// completed, also when that memory is replaced by an update or the executable is dropped while
/// launches run (see the crate docs, "Memory model"). `'a` is how long the memory its graph
/// borrows lives: the [`scope`](crate::scope) that lends it waits for the executable's launches
/// before it returns, whatever became of the executable.
///
/// `Send` but not `Sync`, like [`Graph`].
///
/// [`cuGraphExecUpdate`]: https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__GRAPH.html
pub struct GraphExec<'a> {
    pub(super) raw: sys::CUgraphExec,
    /// The graph's context (the graph keeps it alive): kept beside `raw` because kernel node
    /// updates pass it, and reaching it through the graph is one more memory access per node.
    pub(super) ctx: sys::CUcontext,
    pub(super) graph: Graph<'a>,
    /// Kernel modules of graphs this executable was updated from.
    pub(super) functions: FunctionSet,
    /// What each kernel node launches now (see `KernelContract`), by node index, once that
    /// differs from the graph's records: `set_kernel` switched a node's kernel, or a whole-graph
    /// update brought another graph's. `None` while the records say it. The records themselves
    /// keep describing the graph's own nodes, which a re-instantiation instantiates again and a
    /// clone of the graph (`graph().try_clone()`) or an update from it copies: were they changed
    /// to the executable's kernels, those would launch the graph's kernels under another
    /// kernel's check.
    pub(super) kernels: Option<Box<[crate::kernel::KernelContract]>>,
    /// Host calls installed by [`GraphExec::set_host_fn`] and in use, by node index. Boxed: the
    /// driver holds their addresses, which must not move when the Vec grows.
    #[allow(clippy::vec_box)]
    pub(super) host_calls: Vec<(usize, Box<HostCall>)>,
    /// The panic slots of the host closures this executable runs now; its own slot is for the
    /// closures installed by [`GraphExec::set_host_fn`].
    pub(super) panics: PanicWatch,
    /// For child-graph nodes set by [`GraphExec::set_child_graph`]: (node index, its slots).
    pub(super) child_panics: Vec<(usize, Vec<Arc<PanicSlot>>)>,
    /// The memory the nodes use now, kept alive as long as launches may use it.
    pub(super) memory: Holdings<'a>,
    /// The graph allocations a launch leaves live (none for most graphs).
    pub(super) outliving: Option<Box<Outliving>>,
    /// Whether free nodes free allocations of other graphs: the executable launches once.
    pub(super) frees_adopted: bool,
    /// What updates set on event and semaphore nodes (their events, their semaphores), by node
    /// index: kept while launches may use it (the graph keeps what the nodes were built with).
    pub(super) kept: Vec<(usize, Box<dyn std::any::Any + Send>)>,
    /// The block of indirect values the graph's kernels read (see `crate::indirect`), if any.
    pub(super) indirect: Option<Box<IndirectBlock>>,
    /// Made for a [`DeviceGraphExec`](crate::DeviceGraphExec), which alone launches and
    /// uploads it (ordered with the device launches of it).
    pub(crate) device_launch: bool,
    /// Room for the uses of a kernel node being updated with new memory, kept between updates.
    pub(super) scratch: Vec<crate::memory::operand::Use<'a>>,
    /// The communicators on which this executable runs collectives over symmetric buffers,
    /// which no other executable may then do (see the collective module's `owner`).
    #[cfg(feature = "nccl")]
    pub(super) symmetric: crate::collective::SymmetricOwner,
}

// SAFETY: as for `Graph`: usable from any thread, never from two at once (`!Sync`).
unsafe impl Send for GraphExec<'_> {}

impl std::fmt::Debug for GraphExec<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GraphExec")
            .field("raw", &self.raw)
            .field("graph", &self.graph)
            .finish()
    }
}

/// What [`GraphExec::make_parts`] makes.
type Parts<'a> = (Option<Box<IndirectBlock>>, Holdings<'a>, sys::CUgraphExec);

/// `made` (this rank's executable, or why it could not be made), once every rank of each
/// communicator on which `graph`'s collectives run over symmetric buffers agrees (see
/// `Graph::check_collective_order`: an exchange, for such graphs only). Refused, what was made
/// goes to `undo`, and this rank's own error comes before the refusal.
#[cfg(feature = "nccl")]
pub(super) fn agreed<T>(graph: &Graph<'_>, made: Result<T>, undo: impl FnOnce(T)) -> Result<T> {
    match graph.agree_on_instantiation(made.is_ok()) {
        Ok(()) => made,
        Err(refused) => {
            undo(made?);
            Err(refused)
        }
    }
}

/// Destroys `raw`, an executable just instantiated that the ranks refused (see [`agreed`]).
#[cfg(feature = "nccl")]
pub(super) fn destroy_unlaunched(raw: sys::CUgraphExec) {
    // SAFETY: made by `instantiate_raw` and handed to nothing else: never launched, destroyed
    // once. Its upload, if any, is stream work CUDA lets finish (it defers the destruction).
    let _ = unsafe { cudarc::driver::result::graph::exec_destroy(raw) };
}

pub(super) fn instantiate_raw(
    graph: &Graph<'_>,
    flags: InstantiateFlags,
    upload: Option<&CudaStream>,
) -> Result<sys::CUgraphExec> {
    graph.check_not_broken()?;
    graph.check_handles_used()?;
    graph.check_concurrent_loops()?;
    graph
        .context()
        .bind_to_thread()
        .map_err(|source| Error::Driver {
            call: "cuCtxSetCurrent",
            source,
        })?;
    let flags = match upload {
        Some(_) => flags | InstantiateFlags::UPLOAD,
        None => flags,
    };
    let mut params = sys::CUDA_GRAPH_INSTANTIATE_PARAMS {
        flags: flags.bits(),
        hUploadStream: upload.map_or(std::ptr::null_mut(), |s| s.cu_stream()),
        hErrNode_out: std::ptr::null_mut(),
        result_out: sys::CUgraphInstantiateResult::CUDA_GRAPH_INSTANTIATE_SUCCESS,
    };
    // SAFETY: a live graph whose context was made current above; `params` names a live upload
    // stream or none.
    let instantiated = unsafe { result::exec::instantiate(graph.raw(), &mut params) };
    instantiated.map_err(|e| {
        let blamed = graph
            .all_records()
            .position(|r| r.raw == params.hErrNode_out);
        match blamed {
            Some(index) => e.at_node(|| graph.name_of(index)),
            None => e,
        }
    })
}

impl<'a> Graph<'a> {
    /// Instantiates the graph with default flags. The executable owns the graph from then on: its
    /// node handles keep working with it.
    pub fn instantiate(self) -> Result<GraphExec<'a>> {
        self.instantiate_with(InstantiateFlags::NONE, None)
    }

    /// Instantiates with `flags`, uploading to `upload` when given (`CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD`).
    pub fn instantiate_with(
        self,
        flags: InstantiateFlags,
        upload: Option<&CudaStream>,
    ) -> Result<GraphExec<'a>> {
        GraphExec::instantiate(self, flags, upload, None)
    }

    /// Instantiates with `flags` an executable *bound to* `stream`: it launches into `stream`
    /// only ([`GraphExec::launch`] refuses another stream with [`Error::Invalid`]).
    ///
    /// CUDA runs the work of one stream in order, a graph launch as a whole, so the launches of
    /// executables bound to one stream never overlap. That is what lets such executables share
    /// host memory that their host nodes write (a graph and its clone, both launched into one
    /// stream, as NVIDIA's `simpleCudaGraphs` does), which two executables launched anywhere
    /// may not: their launches could run at the same time, a host node's writes racing with
    /// the other's reads ([`Error::BufferInUse`] when the second is made).
    ///
    /// Refused for the per-thread default stream (`CudaContext::per_thread_stream`), whose
    /// handle names another stream on each thread.
    pub fn instantiate_on(
        self,
        stream: &Arc<CudaStream>,
        flags: InstantiateFlags,
    ) -> Result<GraphExec<'a>> {
        if crate::memory::fence::is_per_thread(stream) {
            return Err(crate::memory::fence::per_thread_refused("instantiate_on"));
        }
        GraphExec::instantiate(self, flags, None, Some(stream.clone()))
    }
}

impl<'a> GraphExec<'a> {
    pub(crate) fn instantiate(
        graph: Graph<'a>,
        flags: InstantiateFlags,
        upload: Option<&CudaStream>,
        bound: Option<Arc<CudaStream>>,
    ) -> Result<Self> {
        refuse_device_launch(&graph, flags)?;
        Self::instantiate_checked(graph, flags, upload, bound)
    }

    /// Instantiates a graph for device launch, device-updatable nodes allowed: the path of
    /// `Graph::instantiate_for_device_launch`, whose executable uploads itself again after
    /// each host-side update, as CUDA requires of a graph with such nodes.
    pub(crate) fn instantiate_for_device(graph: Graph<'a>, upload: &CudaStream) -> Result<Self> {
        let flags = InstantiateFlags::DEVICE_LAUNCH;
        refuse_indirect_device_launch(&graph, flags)?;
        Self::instantiate_checked(graph, flags, Some(upload), None)
    }

    /// [`GraphExec::instantiate`] once the flags are known to suit the graph.
    fn instantiate_checked(
        graph: Graph<'a>,
        flags: InstantiateFlags,
        upload: Option<&CudaStream>,
        bound: Option<Arc<CudaStream>>,
    ) -> Result<Self> {
        crate::ambient::refuse_in_host_node("Graph::instantiate")?;
        let mut graph = graph;
        #[cfg(feature = "nccl")]
        graph.check_collective_order()?;
        #[cfg(feature = "nccl")]
        let mut symmetric = crate::collective::SymmetricOwner::default();
        let made = Self::make_parts(
            &mut graph,
            flags,
            upload,
            bound,
            #[cfg(feature = "nccl")]
            &mut symmetric,
        );
        // Every rank instantiating a graph with collectives over symmetric buffers succeeds, or
        // none does (what this rank made is dropped then, and `symmetric` with it).
        #[cfg(feature = "nccl")]
        let made = agreed(&graph, made, |(_, _, raw)| destroy_unlaunched(raw));
        let (indirect, memory, raw) = made?;
        crate::trace::event!(
            debug,
            nodes = graph.all_records().count(),
            flags = flags.bits(),
            "graph instantiated"
        );
        if let Some(scope) = graph.scope_registry() {
            // The memory the graph borrows is borrowed until the scope ends, which waits for
            // this executable's launches then, whatever becomes of the executable.
            scope.enlist(memory.fence());
        }
        let auto_free = flags.bits() & InstantiateFlags::AUTO_FREE_ON_LAUNCH.bits() != 0;
        let outliving = Outliving::new(graph.unfreed_allocations(), auto_free);
        let mut panics = PanicWatch::default();
        panics.watch(graph.panics.slots());
        let frees_adopted = !graph.adopted_mut().is_empty();
        Ok(Self {
            raw,
            ctx: graph.context().cu_ctx(),
            panics,
            graph,
            functions: FunctionSet::default(),
            kernels: None,
            host_calls: Vec::new(),
            child_panics: Vec::new(),
            memory,
            outliving,
            frees_adopted,
            kept: Vec::new(),
            indirect,
            device_launch: false,
            scratch: Vec::new(),
            #[cfg(feature = "nccl")]
            symmetric,
        })
    }

    /// The steps of [`GraphExec::instantiate`] that may fail: the claim of the communicators on
    /// which the graph's collectives run over symmetric buffers (see `collective::owner`), the
    /// graph's indirect block, its memory and the executable.
    fn make_parts(
        graph: &mut Graph<'a>,
        flags: InstantiateFlags,
        upload: Option<&CudaStream>,
        bound: Option<Arc<CudaStream>>,
        #[cfg(feature = "nccl")] symmetric: &mut crate::collective::SymmetricOwner,
    ) -> Result<Parts<'a>> {
        #[cfg(feature = "nccl")]
        symmetric.claim(graph.collectives(), &|i| graph.name_of(i))?;
        let indirect = graph.take_indirect_block()?;
        let memory = Holdings::bound(graph.uses_by_node(), &|i| graph.name_of(i), bound)?;
        let raw = instantiate_raw(graph, flags, upload)?;
        Ok((indirect, memory, raw))
    }

    /// The graph this executable was instantiated from.
    pub fn graph(&self) -> &Graph<'a> {
        &self.graph
    }

    /// The owned memory the nodes use now (what executables launching this one from the device
    /// use through it).
    pub(crate) fn memory_dependents(&self) -> Vec<crate::memory::alloc::Dependent> {
        self.memory.dependents()
    }

    /// Every use of memory the nodes make now (what a launch of this executable uses).
    pub(crate) fn uses(&self) -> impl Iterator<Item = &crate::memory::operand::Use<'a>> + '_ {
        self.memory.all_uses().map(|(_, u)| u)
    }

    /// The raw driver handle, for calls this crate does not wrap. Do not destroy it.
    pub fn raw(&self) -> sys::CUgraphExec {
        self.raw
    }

    /// The stream the executable is bound to ([`Graph::instantiate_on`]), if any.
    pub fn bound_stream(&self) -> Option<&Arc<CudaStream>> {
        self.memory.fence().bound()
    }
}

impl Drop for GraphExec<'_> {
    fn drop(&mut self) {
        // Closures installed by update live here, not in user objects: freed after the launches
        // that may call them. The memory the nodes use is released by `self.memory`, after this.
        self.retire_host_calls();
        let ctx = self.graph.context().clone();
        let raw = SendExec(self.raw);
        let mut outliving = self.outliving.take();
        let mut release = move || {
            // Allocations the last launch left live and nobody took are freed after that launch,
            // on its stream: not while that stream is being captured (the free would be
            // recorded, not made).
            if outliving
                .as_ref()
                .is_some_and(|o| o.live_on_capturing_stream())
            {
                return false;
            }
            // The executable may have moved to a thread with no current context (or this is
            // the release thread): its context is made current for the destroy and the frees.
            record_err(&ctx, named("cuCtxSetCurrent", ctx.bind_to_thread()));
            // SAFETY: we own the executable; CUDA keeps what queued launches need until they
            // complete.
            record_err(
                &ctx,
                named("cuGraphExecDestroy", unsafe {
                    cudarc::driver::result::graph::exec_destroy(raw.get())
                }),
            );
            if let Some(outliving) = &mut outliving {
                record_err(&ctx, outliving.free_live());
            }
            true
        };
        // CUDA forbids destroying an executable inside a host node, and on a thread that is
        // capturing (the capture would break): the release thread does it then.
        if must_defer_releases() || !release() {
            crate::reaper::run_later(Box::new(release));
        }
        // The kernels' modules (this executable's and its graph's references): unloading one is
        // not documented to wait for the kernels of it that launches still run, so they are
        // released once those launches are done (on the release thread, which may call the
        // driver).
        let functions = (
            std::mem::take(&mut self.functions),
            self.graph.take_functions(),
        );
        self.memory.drop_after_launches(Box::new(functions));
        // The block of indirect values, read and written by the launches until they are done.
        if let Some(block) = self.indirect.take() {
            self.memory.drop_after_launches(block);
        }
        // Events and semaphores set by updates: launches may still record, signal or wait on
        // them (CUDA requires a semaphore's signals and waits to be complete before it is
        // destroyed).
        if !self.kept.is_empty() {
            self.memory
                .drop_after_launches(Box::new(std::mem::take(&mut self.kept)));
        }
    }
}

/// An executable's handle on its way to the release thread.
struct SendExec(sys::CUgraphExec);

// SAFETY: a CUgraphExec may be used from any thread, one at a time; the handle moves to the
// release thread once its owner is gone, and nothing else uses it afterwards.
unsafe impl Send for SendExec {}

impl SendExec {
    /// The handle (a method, so that a closure captures the whole `Send` wrapper).
    fn get(&self) -> sys::CUgraphExec {
        self.0
    }
}

/// The refusal of every instantiation of a graph with device-updatable kernel nodes but
/// `Graph::instantiate_for_device_launch`'s, with flags `DEVICE_LAUNCH` or not: CUDA requires
/// such a graph to be uploaded again after host-side updates before its next launch, which only
/// that executable does for its user, and forbids instantiating it twice (a re-instantiation).
pub(super) fn device_updatable_refused() -> Error {
    Error::Invalid {
        node: "instantiate".into(),
        reason: "the graph has device-updatable kernel nodes: instantiate it with \
                 `Graph::instantiate_for_device_launch`, which uploads it (and uploads it \
                 again after host-side updates, as CUDA requires), once"
            .into(),
    }
}

/// Refuses every instantiation of a graph with device-updatable nodes outside
/// [`GraphExec::instantiate_for_device`] (see [`device_updatable_refused`]), and device launch for
/// a graph with indirect values ([`refuse_indirect_device_launch`]).
pub(super) fn refuse_device_launch(graph: &Graph<'_>, flags: InstantiateFlags) -> Result<()> {
    if graph.has_device_updatable_nodes() {
        return Err(device_updatable_refused());
    }
    refuse_indirect_device_launch(graph, flags)
}

/// Refuses device launch for a graph with indirect values: a launch from the device would not go
/// through [`GraphExec::launch`], which publishes the values and counts the launches.
fn refuse_indirect_device_launch(graph: &Graph<'_>, flags: InstantiateFlags) -> Result<()> {
    let device_launch = flags.bits() & InstantiateFlags::DEVICE_LAUNCH.bits() != 0;
    if graph.has_indirect() && device_launch {
        return Err(Error::Invalid {
            node: "instantiate".into(),
            reason: "a graph with indirect values cannot be instantiated for device launch: \
                     its values are published by the host's launch calls"
                .into(),
        });
    }
    Ok(())
}
