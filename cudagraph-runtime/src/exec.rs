//! Executable graphs: instantiation, launch and updates.

use std::sync::Arc;

use cudarc::driver::{sys, CudaFunction, CudaStream};

use crate::ambient::{in_capture, in_host_node, must_defer_releases};
use crate::capture::{refuse_capturing_stream, refuse_waiting_in_capture};
use crate::driver::record_err;
use crate::driver::result::{self, exec::UpdateResultInfo};
use crate::error::{Error, Result, UpdateFailure};
use crate::function_set::FunctionSet;
use crate::graph::{foreign_key, launch_refused, refuse_captured, Graph};
use crate::indirect::{check_not_capturing, Indirect, IndirectBlock, IndirectLayout};
use crate::kernel::{Kernel, KernelArgValues, KernelArgs, KernelContract, LaunchConfig};
use crate::memory::alloc::Space;
use crate::memory::fence::is_capturing;
use crate::memory::hazard::{host_code_conflict, reaches};
use crate::memory::holdings::Holdings;
use crate::memory::operand::Use;
use crate::memory::outliving::Outliving;
use crate::memory::DeviceBuffer;
use crate::node::{
    check_views_apart, with_views, ChildGraphNode, ChildParams, Direction, Event, EventParams,
    EventRecordNode, EventWaitNode, GraphAlloc, HostCall, HostNode, HostParams, HostViews,
    KernelLaunch, KernelNode, KernelParams, Memcpy, MemcpyNode, Memset, MemsetNode, MemsetValue,
    NodeId, NodeUpdate, PanicSlot, PanicWatch, Switchable,
};

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
/// borrows lives: dropping an executable that borrows memory waits for its launches.
///
/// `Send` but not `Sync`, like [`Graph`].
///
/// [`cuGraphExecUpdate`]: https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__GRAPH.html
pub struct GraphExec<'a> {
    raw: sys::CUgraphExec,
    /// The graph's context (the graph keeps it alive): kept beside `raw` because kernel node
    /// updates pass it, and reaching it through the graph is one more memory access per node.
    ctx: sys::CUcontext,
    graph: Graph<'a>,
    /// Kernel modules of graphs this executable was updated from.
    functions: FunctionSet,
    /// Host calls installed by [`GraphExec::set_host_fn`] and in use, by node index. Boxed: the
    /// driver holds their addresses, which must not move when the Vec grows.
    #[allow(clippy::vec_box)]
    host_calls: Vec<(usize, Box<HostCall>)>,
    /// The panic slots of the host closures this executable runs now; its own slot is for the
    /// closures installed by [`GraphExec::set_host_fn`].
    panics: PanicWatch,
    /// For child-graph nodes set by [`GraphExec::set_child_graph`]: (node index, its slots).
    child_panics: Vec<(usize, Vec<Arc<PanicSlot>>)>,
    /// The memory the nodes use now, kept alive as long as launches may use it.
    memory: Holdings<'a>,
    /// The graph allocations a launch leaves live (none for most graphs).
    outliving: Option<Box<Outliving>>,
    /// Whether free nodes free allocations of other graphs: the executable launches once.
    frees_adopted: bool,
    /// Events set on event nodes by updates, by node index (the graph keeps the first ones).
    events: Vec<(usize, Event)>,
    /// The block of indirect values the graph's kernels read (see `crate::indirect`), if any.
    indirect: Option<Box<IndirectBlock>>,
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

fn instantiate_raw(
    graph: &Graph<'_>,
    flags: InstantiateFlags,
    upload: Option<&CudaStream>,
) -> Result<sys::CUgraphExec> {
    graph.check_not_broken()?;
    graph.check_handles_used()?;
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
        GraphExec::instantiate(self, flags, upload)
    }
}

impl<'a> GraphExec<'a> {
    pub(crate) fn instantiate(
        graph: Graph<'a>,
        flags: InstantiateFlags,
        upload: Option<&CudaStream>,
    ) -> Result<Self> {
        let mut graph = graph;
        refuse_device_launch(&graph, flags)?;
        let indirect = graph.take_indirect_block()?;
        let memory = Holdings::new(graph.uses_by_node(), &|i| graph.name_of(i))?;
        let raw = instantiate_raw(&graph, flags, upload)?;
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
            host_calls: Vec::new(),
            child_panics: Vec::new(),
            memory,
            outliving,
            frees_adopted,
            events: Vec::new(),
            indirect,
        })
    }

    /// The graph this executable was instantiated from.
    pub fn graph(&self) -> &Graph<'a> {
        &self.graph
    }

    /// The raw driver handle, for calls this crate does not wrap. Do not destroy it.
    pub fn raw(&self) -> sys::CUgraphExec {
        self.raw
    }

    /// Launches the graph into `stream` (`cuGraphLaunch`).
    ///
    /// Reports first a panic caught in one of the graph's host nodes since the last report
    /// ([`Error::HostPanicked`]); the launch is then not made. Refused with
    /// [`Error::BufferInUse`] while host code accesses memory the graph uses through a guard
    /// ([`HostBuffer::read`](crate::HostBuffer::read) and the like).
    ///
    /// Refused with [`Error::Capturing`] into a stream being captured: CUDA does not record graph
    /// launches in a capture (embed the graph with [`Graph::add_child_graph`] instead), and a
    /// launch that does not run would break the completion markers of the memory model.
    ///
    /// With [indirect values](crate::indirect), the launch reads the values set so far
    /// ([`GraphExec::set_indirect`]); when as many launches as the block has ring slots are
    /// queued and none of them has started, it first waits for the oldest to start. A launch
    /// into a stream being captured is refused, as above.
    #[inline]
    pub fn launch(&mut self, stream: &Arc<CudaStream>) -> Result<()> {
        self.check_host_panics()?;
        if in_capture() {
            refuse_capturing_stream(stream, "GraphExec::launch", LAUNCH_IN_CAPTURE)?;
        }
        let launched = if self.outliving.is_some() || self.frees_adopted {
            self.launch_with_outliving(stream)
        } else {
            self.launch_raw(stream)
        };
        match launched {
            Ok(()) => Ok(()),
            Err(e) => Err(failed_in_capture(e, stream, "GraphExec::launch")),
        }
    }

    /// A launch of a graph that leaves allocations live (see `memory::outliving`).
    /// (Also the launch of a graph that frees allocations of other graphs: see
    /// `memory::adopted`.)
    #[cold]
    fn launch_with_outliving(&mut self, stream: &Arc<CudaStream>) -> Result<()> {
        if self.graph.adopted_mut().iter().any(|a| a.freed()) {
            return Err(Error::Allocation {
                node: "launch".into(),
                allocation: "the buffers its free nodes free".into(),
                reason: "the first launch of this executable freed them, and another launch \
                         would free them again: instantiate a new graph"
                    .into(),
            });
        }
        if let Some(outliving) = self.outliving.as_mut() {
            let graph = &self.graph;
            outliving.before_launch(stream, &|i| graph.name_of(i))?;
        }
        self.launch_raw(stream)?;
        if let Some(outliving) = &mut self.outliving {
            outliving.after_launch(stream);
        }
        for adopted in self.graph.adopted_mut() {
            adopted.after_launch(stream)?;
        }
        Ok(())
    }

    #[inline]
    fn launch_raw(&mut self, stream: &Arc<CudaStream>) -> Result<()> {
        if self.indirect.is_some() {
            return self.launch_indirect(stream);
        }
        let raw = self.raw;
        self.memory.launch(stream, || {
            // SAFETY: live executable and stream.
            unsafe { result::exec::launch(raw, stream.cu_stream()) }
        })
    }

    /// A launch of an executable with indirect values: the staged values are published into the
    /// launch's slot first, and the launch is counted when the driver took it (see
    /// `crate::indirect`), whatever fails after that.
    #[inline(never)]
    fn launch_indirect(&mut self, stream: &Arc<CudaStream>) -> Result<()> {
        // A host node holds up its stream: waiting there for a slot could wait forever.
        if in_host_node() {
            return Err(Error::InHostNode {
                what: "GraphExec::launch",
            });
        }
        check_not_capturing(stream)?;
        let raw = self.raw;
        let memory = &mut self.memory;
        let block = self.indirect.as_deref_mut().expect("checked by the caller");
        block.publish(|| memory.launches_complete())?;
        let mut made = false;
        let result = memory.launch(stream, || {
            // SAFETY: live executable and stream.
            let launched = unsafe { result::exec::launch(raw, stream.cu_stream()) };
            made = launched.is_ok();
            launched
        });
        if made {
            block.launched();
        }
        result
    }

    /// Sets the value that the next launches read for `key` (a key of this executable's graph):
    /// a write into host memory, published by [`GraphExec::launch`]. Launches already made keep
    /// the values they were launched with.
    #[inline]
    pub fn set_indirect<T: Copy>(&mut self, key: &Indirect<T>, value: T) -> Result<()> {
        match self.indirect.as_deref_mut() {
            Some(block) if block.id() == key.block_id() => {
                block.set(key, value);
                Ok(())
            }
            _ => Err(foreign_key("set_indirect")),
        }
    }

    /// The value the next launch reads for `key` (the last one set).
    #[inline]
    pub fn indirect<T: Copy>(&self, key: &Indirect<T>) -> Result<T> {
        match self.indirect.as_deref() {
            Some(block) if block.id() == key.block_id() => Ok(block.get(key)),
            _ => Err(foreign_key("indirect")),
        }
    }

    /// The size of the executable's block of indirect values and the memory it takes, if it
    /// has one.
    pub fn indirect_layout(&self) -> Option<IndirectLayout> {
        self.indirect.as_deref().map(IndirectBlock::layout)
    }

    /// Takes the allocation `alloc` (an allocation the graph makes and does not free) that the
    /// last launch left live, as a [`DeviceBuffer`]: it is then yours, to read, to give to other
    /// graphs or to cudarc, and it is freed (`cuMemFreeAsync`) when the last clone is dropped
    /// and no launch uses it any more. Its work is ordered on the stream of the launch that made
    /// it.
    ///
    /// CUDA launches the executable again only once the allocation is freed: until the buffer is
    /// gone, [`GraphExec::launch`] refuses with [`Error::Allocation`]. (An executable
    /// instantiated with [`InstantiateFlags::AUTO_FREE_ON_LAUNCH`] frees it at its next launch
    /// instead; read it with [`GraphExec::read_allocation`] there.)
    pub fn take_allocation<T: cudarc::driver::DeviceRepr + bytemuck::AnyBitPattern>(
        &mut self,
        alloc: &GraphAlloc<T>,
    ) -> Result<DeviceBuffer<T>> {
        let node = self.graph.check_node(alloc.id())?;
        let graph = &self.graph;
        let name_of = |i| graph.name_of(i);
        let Some(outliving) = self.outliving.as_mut() else {
            return Err(Error::Allocation {
                node: "take_allocation".into(),
                allocation: format!("`{}`", name_of(node)),
                reason: "the graph frees this allocation itself, so it does not outlive a launch"
                    .into(),
            });
        };
        let len = alloc.len();
        outliving.take(node, &name_of, |addr, stream| {
            // SAFETY: `addr` is a live allocation of `len` `T`s that the last launch made on
            // `stream`; from here on the slice owns it (the executable no longer frees it), and
            // cudarc frees it with `cuMemFreeAsync`, a valid free of a graph allocation.
            let slice = unsafe { stream.upgrade_device_ptr::<T>(addr, len) };
            let buffer = DeviceBuffer::from_graph_allocation(slice);
            let weak = buffer.weak_allocation();
            (buffer, weak)
        })
    }

    /// A copy of the allocation `alloc` (one the graph does not free) as the last launch left
    /// it, copied on that launch's stream after it. The allocation stays the executable's.
    pub fn read_allocation<T: cudarc::driver::DeviceRepr + bytemuck::AnyBitPattern>(
        &self,
        alloc: &GraphAlloc<T>,
    ) -> Result<Vec<T>> {
        // SAFETY: `T: AnyBitPattern`.
        unsafe { self.copy_allocation(alloc) }
    }

    /// [`GraphExec::read_allocation`] for any element type.
    ///
    /// # Safety
    /// Every bit pattern is a valid `T` (the allocation may hold any bytes).
    pub(crate) unsafe fn copy_allocation<T: cudarc::driver::DeviceRepr>(
        &self,
        alloc: &GraphAlloc<T>,
    ) -> Result<Vec<T>> {
        let node = self.graph.check_node(alloc.id())?;
        let graph = &self.graph;
        let name_of = |i| graph.name_of(i);
        let Some(outliving) = self.outliving.as_ref() else {
            return Err(Error::Allocation {
                node: "read_allocation".into(),
                allocation: format!("`{}`", name_of(node)),
                reason: "the graph frees this allocation itself: copy what you need out of it \
                         with a memcpy node before the free"
                    .into(),
            });
        };
        let (addr, stream) = outliving.live(node, &name_of)?;
        // The copy is waited for on the host.
        refuse_waiting_in_capture("GraphExec::read_allocation")?;
        refuse_capturing_stream(
            stream,
            "GraphExec::read_allocation",
            "the copy would be recorded into the capture, not run",
        )?;
        let mut out = Vec::<T>::with_capacity(alloc.len());
        // SAFETY: `addr` holds `len` `T`s (a live allocation, which no launch can free while
        // `self` is borrowed); `out` has room for them; the copy follows the launch on `stream`,
        // and the synchronize below ends it before `out` is used.
        unsafe {
            result::memory::copy_dtoh_async(
                out.as_mut_ptr().cast(),
                addr,
                alloc.bytes(),
                stream.cu_stream(),
            )
        }?;
        stream.synchronize().map_err(|source| Error::Driver {
            call: "cuStreamSynchronize",
            source,
        })?;
        // SAFETY: the copy above wrote all `len` elements, and any bytes are a valid `T` (the
        // caller's promise).
        unsafe { out.set_len(alloc.len()) };
        Ok(out)
    }

    /// Uploads the executable's resources ahead of its first launch (`cuGraphUpload`). Refused
    /// with [`Error::Capturing`] on a stream being captured.
    pub fn upload(&self, stream: &CudaStream) -> Result<()> {
        if in_capture() {
            refuse_capturing_stream(stream, "GraphExec::upload", LAUNCH_IN_CAPTURE)?;
        }
        // SAFETY: live executable and stream.
        unsafe { result::exec::upload(self.raw, stream.cu_stream()) }
            .map_err(|e| failed_in_capture(e, stream, "GraphExec::upload"))
    }

    /// The first host-node panic caught since the last report, as an error.
    #[inline]
    pub fn check_host_panics(&self) -> Result<()> {
        match self.panics.take_first() {
            Some((node, message)) => Err(Error::HostPanicked { node, message }),
            None => Ok(()),
        }
    }

    /// Destroys the executable and instantiates the graph it was made from again (parameter
    /// changes made since are lost). To fall back from a refused update, use
    /// [`GraphExec::reinstantiate_from`] with the new graph.
    pub fn reinstantiate(&mut self, flags: InstantiateFlags) -> Result<()> {
        refuse_memory_nodes(&self.graph, &self.graph, "reinstantiate")?;
        // With indirect values: the same block, whose count goes on (the next launch waits for
        // the old executable's launches, see `before_reinstantiation`).
        refuse_device_launch(&self.graph, flags)?;
        let uses: Vec<_> = self.graph.uses_by_node().map(<[_]>::to_vec).collect();
        self.memory.before_reinstantiation()?;
        let changes = uses.into_iter().enumerate().collect();
        let graph = &self.graph;
        let mut fresh = None;
        self.memory.replace(changes, &|i| graph.name_of(i), || {
            fresh = Some(instantiate_raw(graph, flags, None)?);
            Ok(())
        })?;
        let old = std::mem::replace(&mut self.raw, fresh.expect("set by the replacement"));
        self.retire_host_calls();
        // SAFETY: `old` was ours; launches already queued keep what they need (CUDA defers it).
        unsafe { result::exec::destroy(old) }
    }

    /// Replaces the executable with a fresh instantiation of `graph`: the usual fallback when
    /// [`GraphExec::update`] is refused. Node handles of the old graph keep working when `graph`
    /// was built by the same calls in the same order (as every graph of one `cuda_graph!`
    /// declaration is); otherwise use `graph`'s own handles. On error nothing changes.
    pub fn reinstantiate_from(
        &mut self,
        mut graph: Graph<'a>,
        flags: InstantiateFlags,
    ) -> Result<()> {
        refuse_memory_nodes(&self.graph, &graph, "reinstantiate_from")?;
        refuse_device_launch(&graph, flags)?;
        // The new graph's block of indirect values, if any (dropped unused if this fails).
        let incoming = graph.take_indirect_block()?;
        self.memory.before_reinstantiation()?;
        let changes = graph
            .uses_by_node()
            .map(<[_]>::to_vec)
            .enumerate()
            .collect();
        let mut fresh = None;
        self.memory.replace(changes, &|i| graph.name_of(i), || {
            fresh = Some(instantiate_raw(&graph, flags, None)?);
            Ok(())
        })?;
        let old = std::mem::replace(&mut self.raw, fresh.expect("set by the replacement"));
        graph.join_family_of(&self.graph);
        self.panics.watch_instead(graph.panics.slots());
        self.child_panics.clear();
        self.retire_host_calls();
        // The new graph's block and keys replace the old ones, which the launches made so far
        // may still use; the next launch waits for those (`before_reinstantiation`), so the new
        // block's count starts with it.
        if let Some(old) = std::mem::replace(&mut self.indirect, incoming) {
            self.memory.drop_after_launches(old);
        }
        // The old graph goes only after its executable: `old` may still reference its nodes.
        let old_graph = std::mem::replace(&mut self.graph, graph);
        self.ctx = self.graph.context().cu_ctx();
        // SAFETY: `old` was ours; launches already queued keep what they need (CUDA defers it).
        let destroyed = unsafe { result::exec::destroy(old) };
        drop(old_graph);
        crate::trace::event!(
            info,
            nodes = self.graph.all_records().count(),
            "executable re-instantiated"
        );
        destroyed
    }

    /// Whole-graph update (`cuGraphExecUpdate`): takes every node's parameters from `graph`,
    /// which must have the same topology, built by the same calls in the same order.
    ///
    /// On refusal, the error names the node of `graph` the driver blamed and why; the executable
    /// is unchanged then and may still be launched. Memory the executable no longer uses
    /// afterwards is released once the launches that may use it have completed.
    pub fn update(&mut self, graph: &Graph<'a>) -> Result<()> {
        refuse_memory_nodes(&self.graph, graph, "update")?;
        if !self.graph.same_bodies_as(graph) {
            // The driver would refuse too; checked first since node uses are paired by position.
            crate::trace::event!(
                info,
                reason = "the bodies differ",
                "whole-graph update refused"
            );
            return Err(Error::UpdateRejected {
                node: "<graph>".into(),
                reason: UpdateFailure::TopologyChanged,
            });
        }
        if self.graph.has_indirect() || graph.has_indirect() {
            return Err(Error::Invalid {
                node: "update".into(),
                reason: "a graph with indirect values cannot be updated as a whole: the \
                         executable's nodes would read the other graph's block, which its \
                         own fetch node does not fill; set the values with `set_indirect`, \
                         update nodes one by one, or re-instantiate from the new graph"
                    .into(),
            });
        }
        let raw = self.raw;
        // Only the nodes whose memory changes: a rebuild with the same buffers copies nothing.
        let (table, ranges) = graph.use_table();
        let changes = self.memory.changes_from(table, ranges);
        self.memory
            .replace(changes, &|i| graph.name_of(i), || update_raw(raw, graph))?;
        self.adopt(graph);
        Ok(())
    }

    /// Keeps alive and watches what an update's source graph brought in.
    ///
    /// Each step is skipped when it has nothing to do: a rebuild-and-update loop over graphs
    /// without host nodes pays for none of them.
    fn adopt(&mut self, graph: &Graph<'_>) {
        self.keep_functions(graph);
        // Every host node now runs `graph`'s closure: the ones installed here are replaced.
        self.retire_host_calls();
        // Kernel nodes may have switched function (same context): later single-node updates
        // must re-send the new one.
        self.graph.take_kernels_of(graph);
        // Host closures of `graph` are kept alive by its user objects, which the update retained.
        // The executable now runs `graph`'s closures: watch their slots instead of the old ones
        // (a slot with an unreported panic stays until it is reported, so the list never grows).
        self.panics.watch_instead(graph.panics.slots());
    }

    /// Host calls installed by [`GraphExec::set_host_fn`] no longer run: they are freed once the
    /// launches that may still call them have completed.
    fn retire_host_calls(&mut self) {
        if !self.host_calls.is_empty() {
            let replaced = std::mem::take(&mut self.host_calls);
            self.memory.drop_after_launches(Box::new(replaced));
        }
    }

    /// Keeps the modules of `graph`'s kernels loaded.
    #[inline]
    fn keep_functions(&mut self, graph: &Graph<'_>) {
        for f in graph.functions().iter() {
            if !self.graph.functions().contains(f.cu_function()) {
                self.functions.insert(f);
            }
        }
    }

    /// The index of `node` (one of the graph's nodes) and its driver handle.
    #[inline]
    fn node(&self, node: NodeId) -> Result<(usize, sys::CUgraphNode)> {
        self.kernel_node(node)
            .map(|(index, raw_node, _)| (index, raw_node))
    }

    /// Like [`GraphExec::node`], with what a kernel node keeps of its kernel (one lookup, for
    /// the single-node update's hot path).
    #[inline(always)]
    fn kernel_node(&self, node: NodeId) -> Result<(usize, sys::CUgraphNode, KernelContract)> {
        let (index, record) = self.graph.any_record(node)?;
        Ok((index, record.raw, record.kernel))
    }

    /// The error for a `KernelNode<A>` handle of node `index`, which launches a kernel of
    /// another parameter list now.
    #[cold]
    #[inline(never)]
    fn stale_handle<A>(&self, index: usize) -> Error {
        Error::Invalid {
            node: self.graph.name_of(index),
            reason: format!(
                "the handle is a `KernelNode<{}>`, but the node launches a kernel with another \
                 parameter list now (a whole-graph update or a re-instantiation changed it, or \
                 the node is not a kernel node): use the handle from the graph it was updated \
                 from",
                std::any::type_name::<A>()
            ),
        }
    }

    /// The error for a kernel launch of node `index` that its kernel's check refuses.
    #[cold]
    #[inline(never)]
    fn refused_launch(&self, index: usize, config: &LaunchConfig) -> Error {
        launch_refused(self.graph.name_of(index), config)
    }

    /// A failed driver call about node `index`, as an error naming the node.
    #[cold]
    fn at_node(&self, error: Error, index: usize) -> Error {
        error.at_node(|| self.graph.name_of(index))
    }

    /// Makes node `index` use `uses` instead of its current memory around `apply` (the driver
    /// call, whose failure is reported as one about the node), after checking that host code in
    /// the graph cannot race with the new uses.
    fn replace_uses(
        &mut self,
        index: usize,
        uses: Vec<Use<'a>>,
        apply: impl FnOnce() -> Result<()>,
    ) -> Result<()> {
        self.check_host_code(index, &uses)?;
        refuse_captured(&uses, None, &|| self.graph.name_of(index))?;
        self.graph
            .check_handles(&uses, &|| self.graph.name_of(index))?;
        self.graph.check_indirect_uses_of(index, &uses)?;
        self.graph.check_alloc_uses_of(index, &uses)?;
        let graph = &self.graph;
        let apply = || apply().map_err(|e| e.at_node(|| graph.name_of(index)));
        self.memory
            .replace(vec![(index, uses)], &|i| graph.name_of(i), apply)
    }

    /// Sends `params` to node `index` (`raw_node`), which then uses `uses`: the single-node
    /// update of every kind but kernels, whose hot path has its own.
    fn update_node(
        &mut self,
        index: usize,
        raw_node: sys::CUgraphNode,
        uses: Vec<Use<'a>>,
        mut params: impl NodeUpdate,
    ) -> Result<()> {
        let raw = self.raw;
        self.replace_uses(index, uses, || {
            // SAFETY: live executable; `raw_node` is a node of its graph, of the kind `params` is
            // for (the handle's type says so).
            unsafe { params.update(raw, raw_node) }
        })
    }

    /// A node of the graph that node `index` would race with if it used `uses` (see
    /// `memory::hazard`), as an error.
    fn check_host_code(&self, index: usize, uses: &[Use<'a>]) -> Result<()> {
        if !uses.iter().any(|u| u.space == Space::Host) {
            return Ok(());
        }
        let others = self.memory.all_uses().filter(|(i, _)| *i != index);
        let graph = &self.graph;
        let ordered = |other: usize| {
            let (from, to) = (other.min(index), other.max(index));
            reaches(from, to, |n| graph.deps_of(n))
        };
        match host_code_conflict(uses, others, ordered) {
            None => Ok(()),
            Some(other) => Err(Error::Hazard {
                first: graph.name_of(other),
                second: graph.name_of(index),
                reason: "after this update both would use the same host memory, one writing it, \
                         with host code (a host node's buffers) involved and no edge between them"
                    .into(),
            }),
        }
    }

    /// Sets a kernel node's launch configuration and arguments (`cuGraphExecKernelNodeSetParams`).
    ///
    /// Memory the node stops using is released once the launches that may use it have
    /// completed; when the memory stays the same, this is one driver call.
    // Always inlined, as `set_kernel` is (see there): left to the optimizer, it was called out of
    // line where a program updates several nodes, with its arguments copied through memory.
    #[inline(always)]
    pub fn set_kernel_params<A: KernelArgs>(
        &mut self,
        node: KernelNode<A>,
        config: LaunchConfig,
        args: impl KernelArgValues<'a, A>,
    ) -> Result<()> {
        let (index, raw_node, kernel) = self.kernel_node(node.id)?;
        if !kernel.takes::<A>() {
            return Err(self.stale_handle::<A>(index));
        }
        self.send_kernel_params(index, raw_node, kernel, &config, args)
    }

    /// Like [`GraphExec::set_kernel_params`], and switches the node to `kernel`, another function
    /// with the same parameter list in the same context (CUDA allows that; a function that uses
    /// dynamic parallelism it refuses).
    // Only the common update (same memory, same function) is here: the node lookup, the
    // argument array and the driver call; the rest is out of line. Always inlined, into each of
    // the update functions `cuda_graph!` generates per node: there the arguments are values the
    // optimizer sees (their bits and memory read straight from the params, the memory check a
    // few comparisons); called, they are a struct in memory copied field by field. That cuts
    // our instructions per updated node from about 340 to 200 (against a null driver), which
    // shows in the hot loop's ratio to the raw call, for a larger update function per node (and
    // a longer compile of large declarations).
    #[inline(always)]
    pub fn set_kernel<A: KernelArgs>(
        &mut self,
        node: KernelNode<A>,
        kernel: &Kernel<A>,
        config: LaunchConfig,
        args: impl KernelArgValues<'a, A>,
    ) -> Result<()> {
        let (index, raw_node, current) = self.kernel_node(node.id)?;
        if !current.takes::<A>() {
            return Err(self.stale_handle::<A>(index));
        }
        let new = kernel.contract();
        self.send_kernel_params(index, raw_node, new, &config, args)?;
        if !current.same(&new) {
            self.switch_kernel(index, kernel.function(), new);
        }
        Ok(())
    }

    /// Records that kernel node `index` now launches `func` with the contract `kernel` (its
    /// update succeeded), keeping the function's module loaded for as long as the executable.
    #[cold]
    #[inline(never)]
    fn switch_kernel(&mut self, index: usize, func: &CudaFunction, kernel: KernelContract) {
        self.graph.set_kernel(index, kernel);
        if !self.graph.functions().contains(kernel.func) {
            self.functions.insert(func);
        }
    }

    /// Sends a kernel node (`index`, `raw_node`, launching a kernel of parameter list `A` as
    /// `kernel` describes) its new configuration and arguments, once the kernel's check admits
    /// them.
    #[inline(always)]
    fn send_kernel_params<A: KernelArgs>(
        &mut self,
        index: usize,
        raw_node: sys::CUgraphNode,
        kernel: KernelContract,
        config: &LaunchConfig,
        args: impl KernelArgValues<'a, A>,
    ) -> Result<()> {
        if !kernel.admits::<A>(config, || args.checked()) {
            return Err(self.refused_launch(index, config));
        }
        let launch = KernelLaunch {
            func: kernel.func,
            ctx: self.ctx,
            config: *config,
        };
        let raw = self.raw;
        if args.same_memory(self.memory.node_uses(index)) {
            // The hot path: the same memory, new values; nothing to keep or release.
            let result = args.with_params(|params| {
                // SAFETY: live executable; `raw_node` is a kernel node of its graph; `params`
                // holds the arguments of its parameter list `A`.
                unsafe { launch.update(raw, raw_node, params) }
            });
            return result.map_err(|e| self.at_node(e, index));
        }
        self.send_kernel_params_new_memory(index, raw_node, launch, args)
    }

    /// [`GraphExec::send_kernel_params`] when the arguments point to other memory than the node
    /// uses now: the new memory is taken, the old released after the launches that may use it.
    #[inline(never)]
    fn send_kernel_params_new_memory<A: KernelArgs>(
        &mut self,
        index: usize,
        raw_node: sys::CUgraphNode,
        launch: KernelLaunch,
        args: impl KernelArgValues<'a, A>,
    ) -> Result<()> {
        let mut uses = Vec::new();
        let reprs = args.into_parts(&mut uses)?;
        // (What the node keeps of its kernel is the caller's to record.)
        let params = KernelParams::<A> {
            launch,
            reprs,
            kernel: KernelContract::NONE,
        };
        self.update_node(index, raw_node, uses, params)
    }

    /// Sets a memcpy node's source and destination (`cuGraphExecMemcpyNodeSetParams`). The
    /// direction is fixed by the handle's type, as CUDA requires. Memory the node stops using is
    /// released once the launches that may use it have completed.
    pub fn set_memcpy_params<D: Direction>(
        &mut self,
        node: MemcpyNode<D>,
        copy: Memcpy<'a, D>,
    ) -> Result<()> {
        let (index, raw_node) = self.node(node.id)?;
        let ctx = self.ctx;
        let (src, dst, params) = copy.into_parts(ctx, || self.graph.name_of(index))?;
        self.update_node(index, raw_node, vec![src, dst], params)
    }

    /// Sets a memset node's destination and value (`cuGraphExecMemsetNodeSetParams`). Memory the
    /// node stops using is released once the launches that may use it have completed.
    pub fn set_memset_params<V: MemsetValue>(
        &mut self,
        node: MemsetNode<V>,
        set: Memset<'a, V>,
    ) -> Result<()> {
        let (index, raw_node) = self.node(node.id)?;
        let (dst, params) = set.into_parts(self.ctx, || self.graph.name_of(index))?;
        self.update_node(index, raw_node, vec![dst], params)
    }

    /// Replaces a host node's closure (`cuGraphExecHostNodeSetParams`). The old closure stays
    /// alive until launches that may still call it are done.
    pub fn set_host_fn(&mut self, node: HostNode, f: impl FnMut() + Send + 'static) -> Result<()> {
        self.install_host_call(node, Box::new(f), Vec::new())
    }

    /// Replaces a host node's closure and the host buffers it gets (see
    /// [`Graph::add_host_with`]). The old closure stays alive until launches that may still call
    /// it are done.
    pub fn set_host_with<V: HostViews>(
        &mut self,
        node: HostNode,
        buffers: V,
        f: impl for<'v> FnMut(V::Views<'v>) + Send + 'static,
    ) -> Result<()> {
        let mut uses = Vec::new();
        let f = with_views(buffers, f, &mut uses);
        self.install_host_call(node, f, uses)
    }

    /// Sets the event an event record node records, for the next launches
    /// (`cuGraphExecEventRecordNodeSetEvent`). The executable keeps it alive; the one it
    /// replaces lives until the launches that may record it are done.
    pub fn set_event_record(&mut self, node: EventRecordNode, event: &Event) -> Result<()> {
        self.set_event::<true>(node.id, event)
    }

    /// Sets the event an event wait node waits for, for the next launches
    /// (`cuGraphExecEventWaitNodeSetEvent`); as [`GraphExec::set_event_record`].
    pub fn set_event_wait(&mut self, node: EventWaitNode, event: &Event) -> Result<()> {
        self.set_event::<false>(node.id, event)
    }

    fn set_event<const RECORD: bool>(&mut self, node: NodeId, event: &Event) -> Result<()> {
        let (index, raw_node) = self.node(node)?;
        let mut params = EventParams::<RECORD> { event: event.raw() };
        // SAFETY: a live executable; `raw_node` is an event node of the kind `RECORD` says (the
        // handle's type); the event is kept alive below.
        unsafe { params.update(self.raw, raw_node) }.map_err(|e| self.at_node(e, index))?;
        let slot = self.events.iter().position(|(i, _)| *i == index);
        let old = match slot {
            Some(slot) => Some(std::mem::replace(&mut self.events[slot].1, event.clone())),
            None => {
                self.events.push((index, event.clone()));
                None
            }
        };
        if let Some(old) = old {
            self.memory.drop_after_launches(Box::new(old));
        }
        Ok(())
    }

    pub(crate) fn install_host_call(
        &mut self,
        node: HostNode,
        f: crate::node::HostFn,
        uses: Vec<Use<'static>>,
    ) -> Result<()> {
        let (index, raw_node) = self.node(node.id)?;
        let name = self.graph.name_of(index);
        check_views_apart(&uses, || name.clone())?;
        let call = HostCall::new(f, name, self.panics.own_slot());
        // `params` points into `call`, which `self.host_calls` keeps until no launch may call it
        // any more.
        let params = HostParams::of(&call);
        self.update_node(index, raw_node, uses, params)?;
        if let Some(slot) = self.host_calls.iter().position(|(i, _)| *i == index) {
            let (_, old) = self.host_calls.swap_remove(slot);
            self.memory.drop_after_launches(Box::new(old));
        }
        self.host_calls.push((index, call));
        Ok(())
    }

    /// Records `capture`'s work again and makes the child-graph node `node` run it, for the
    /// next launches (`cuGraphExecChildGraphNodeSetParams`): the recorded graph must have the
    /// node's topology, as for [`GraphExec::set_child_graph`].
    pub fn set_capture(&mut self, node: ChildGraphNode, capture: &crate::Capture) -> Result<()> {
        self.set_capture_within(node, capture, None)
    }

    /// [`GraphExec::set_capture`], refused when the recorded work uses memory outside `within`
    /// (memory, and whether it may be written), when given.
    pub(crate) fn set_capture_within(
        &mut self,
        node: ChildGraphNode,
        capture: &crate::Capture,
        within: Option<&[crate::param_class::DeclaredUse]>,
    ) -> Result<()> {
        let recorded = capture.graph()?;
        if let Some(within) = within {
            let (index, _) = self.node(node.id)?;
            crate::capture::uses_within(&recorded, within, &self.graph.name_of(index))?;
        }
        self.set_child_graph(node, &recorded)
    }

    /// The memory child-graph node `node`'s graph uses now, as declared uses: what a
    /// replacement may use at most.
    pub(crate) fn child_uses(
        &self,
        node: ChildGraphNode,
    ) -> Result<Vec<crate::param_class::DeclaredUse>> {
        let (index, _) = self.node(node.id)?;
        Ok(self
            .graph
            .node_uses(index)
            .iter()
            .map(|u| (Some((u.space, u.start, u.end)), u.write))
            .collect())
    }

    /// Replaces a child-graph node's contents with `child`'s (`cuGraphExecChildGraphNodeSetParams`);
    /// `child` must have the topology of the embedded graph. Memory the node stops using is
    /// released once the launches that may use it have completed.
    pub fn set_child_graph<'c: 'a>(
        &mut self,
        node: ChildGraphNode,
        child: &Graph<'c>,
    ) -> Result<()> {
        let (index, raw_node) = self.node(node.id)?;
        if child.has_indirect() {
            return Err(Error::Invalid {
                node: self.graph.name_of(index),
                reason: "the child graph has indirect values (or reads another graph's), which \
                         only an executable of its own graph can set"
                    .into(),
            });
        }
        let params = ChildParams { graph: child.raw() };
        self.update_node(index, raw_node, child.all_uses(), params)?;
        self.keep_functions(child);
        // Stop watching what this node's previous child reported to (unless a panic is pending).
        let slot = self.child_panics.iter().position(|(i, _)| *i == index);
        let old = slot
            .map(|s| self.child_panics.swap_remove(s).1)
            .unwrap_or_default();
        self.panics
            .unwatch(|s| old.iter().any(|o| Arc::ptr_eq(o, s)));
        self.panics.watch(child.panics.slots());
        self.child_panics
            .push((index, child.panics.slots().to_vec()));
        Ok(())
    }

    /// Enables or disables a kernel, memcpy or memset node (`cuGraphNodeSetEnabled`). A disabled
    /// node acts as an empty node; parameter updates made meanwhile apply when it is re-enabled.
    pub fn set_enabled(&mut self, node: impl Switchable, enabled: bool) -> Result<()> {
        // SAFETY: `Switchable` is implemented only for the node kinds CUDA allows.
        unsafe { self.set_enabled_unchecked(node.into(), enabled) }
    }

    /// Whether a kernel, memcpy or memset node is enabled (`cuGraphNodeGetEnabled`).
    pub fn is_enabled(&self, node: impl Switchable) -> Result<bool> {
        let (index, raw_node) = self.node(node.into())?;
        // SAFETY: live executable; a switchable node of its graph.
        let enabled = unsafe { result::exec::node_get_enabled(self.raw, raw_node) };
        enabled.map_err(|e| self.at_node(e, index))
    }

    /// [`GraphExec::set_enabled`] for any node: the driver decides. Exists so tests can show the
    /// driver refusing what the typed API does not offer.
    ///
    /// # Safety
    /// None beyond the driver's own checks; marked `unsafe` because it bypasses the typed API's
    /// promise that only kernel, memcpy and memset nodes are switched.
    pub unsafe fn set_enabled_unchecked(&mut self, node: NodeId, enabled: bool) -> Result<()> {
        let (index, raw_node) = self.node(node)?;
        // SAFETY: live executable; `raw_node` is a node of its graph.
        let set = unsafe { result::exec::node_set_enabled(self.raw, raw_node, enabled) };
        set.map_err(|e| self.at_node(e, index))
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
            // SAFETY: we own the executable; CUDA keeps what queued launches need until they
            // complete.
            record_err(&ctx, unsafe { result::exec::destroy(raw.get()) });
            if let Some(outliving) = &mut outliving {
                record_err(&ctx, outliving.free_live());
            }
            true
        };
        // CUDA forbids destroying an executable inside a host node, and on a thread that is
        // capturing (the capture would break): the release thread does it then, and takes the
        // kernel modules this executable holds (unloading the last reference calls the driver).
        if must_defer_releases() || !release() {
            crate::reaper::run_later(Box::new(release));
        }
        crate::reaper::release(std::mem::take(&mut self.functions));
        // The block of indirect values, read and written by the launches until they are done.
        if let Some(block) = self.indirect.take() {
            self.memory.drop_after_launches(block);
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

/// Why a launch into a stream being captured is refused.
const LAUNCH_IN_CAPTURE: &str = "CUDA does not record graph launches in a capture; launch \
     before or after the capture, or embed the graph in the captured one with \
     `Graph::add_child_graph`";

/// A failed launch or upload into `stream`, as [`Error::Capturing`] when the stream is being
/// captured (by a capture this crate did not begin: its own are refused before the call).
#[cold]
fn failed_in_capture(error: Error, stream: &CudaStream, call: &str) -> Error {
    match (&error, is_capturing(stream)) {
        (Error::Driver { .. } | Error::Node { .. }, Ok(true)) => Error::Capturing {
            what: format!("{call} on a stream being captured ({error}): {LAUNCH_IN_CAPTURE}"),
        },
        _ => error,
    }
}

/// Refuses `call` when either graph has memory nodes: CUDA accepts a whole-graph update of such
/// a graph from another one, but the other graph's allocations live at other addresses, which the
/// executable's alloc nodes do not back; and it allows one executable of such a graph at a time.
fn refuse_memory_nodes(mine: &Graph<'_>, other: &Graph<'_>, call: &str) -> Result<()> {
    if mine.has_memory_nodes() || other.has_memory_nodes() {
        return Err(Error::Invalid {
            node: call.into(),
            reason: "a graph with memory nodes (alloc or free) cannot be updated or \
                     re-instantiated as a whole: update its nodes one by one (their \
                     allocations stay where they are), or drop the executable and instantiate \
                     the new graph"
                .into(),
        });
    }
    Ok(())
}

/// Refuses device launch for a graph with indirect values: a launch from the device would not go
/// through [`GraphExec::launch`], which publishes the values and counts the launches.
fn refuse_device_launch(graph: &Graph<'_>, flags: InstantiateFlags) -> Result<()> {
    if graph.has_indirect() && flags.bits() & InstantiateFlags::DEVICE_LAUNCH.bits() != 0 {
        return Err(Error::Invalid {
            node: "instantiate".into(),
            reason: "a graph with indirect values cannot be instantiated for device launch: \
                     its values are published by the host's launch calls"
                .into(),
        });
    }
    Ok(())
}

/// `cuGraphExecUpdate` of `raw` from `graph`, with the driver's verdict as an error.
fn update_raw(raw: sys::CUgraphExec, graph: &Graph<'_>) -> Result<()> {
    let mut info = UpdateResultInfo {
        result: 0,
        error_node: std::ptr::null_mut(),
        error_from_node: std::ptr::null_mut(),
    };
    // SAFETY: live executable and graph.
    let Err(error) = (unsafe { result::exec::update(raw, graph.raw(), &mut info) }) else {
        return Ok(());
    };
    let reason = match info.result {
        0 | 1 => UpdateFailure::Unspecified,
        2 => UpdateFailure::TopologyChanged,
        3 => UpdateFailure::NodeTypeChanged,
        4 => UpdateFailure::FunctionChanged,
        5 => UpdateFailure::ParametersChanged,
        6 => UpdateFailure::NotSupported,
        7 => UpdateFailure::UnsupportedFunctionChange,
        8 => UpdateFailure::AttributesChanged,
        code => UpdateFailure::Other(code),
    };
    let node = graph
        .all_records()
        .position(|r| r.raw == info.error_node)
        .map_or_else(|| "<graph>".to_owned(), |i| graph.name_of(i));
    if info.result <= 1 && info.error_node.is_null() {
        // Not a pairing verdict: report the driver's code itself.
        return Err(error);
    }
    crate::trace::event!(info, node = %node, reason = %reason, "whole-graph update refused");
    Err(Error::UpdateRejected { node, reason })
}
