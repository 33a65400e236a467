//! Launching an executable: the launch itself (with its memory gate, allocations it leaves live
//! and indirect values), upload, host-node panics, and reading what launches leave behind.

use std::sync::Arc;

use cudarc::driver::CudaStream;

use super::instantiate::GraphExec;
use crate::ambient::{in_capture, in_host_node, must_defer_releases, refuse_waiting};
use crate::driver::{named, result};
use crate::error::{Error, Result};
use crate::indirect::{check_not_capturing, foreign_key, Indirect, IndirectBlock, IndirectLayout};
use crate::memory::fence::{
    is_capturing, is_per_thread, per_thread_refused, refuse_capturing_stream,
};
use crate::memory::DeviceBuffer;
use crate::node::GraphAlloc;

/// Why a launch into a stream being captured is refused.
const LAUNCH_IN_CAPTURE: &str = "CUDA does not record graph launches in a capture; launch \
     before or after the capture, or embed the graph in the captured one with \
     `Graph::add_child_graph`";

impl<'a> GraphExec<'a> {
    /// Launches the graph into `stream` (`cuGraphLaunch`).
    ///
    /// Reports first a panic caught in one of the graph's host nodes since the last report
    /// ([`Error::HostPanicked`]); the launch is then not made. Refused with
    /// [`Error::BufferInUse`] while host code accesses memory the graph uses through a guard
    /// ([`HostBuffer::read`](crate::HostBuffer::read) and the like).
    ///
    /// Refused with [`Error::Invalid`] into the per-thread default stream
    /// (`CudaContext::per_thread_stream`): its handle names another stream on each thread, and
    /// the completion of the launch is marked later, possibly from another thread, on the
    /// stream the launch went to.
    ///
    /// Refused with [`Error::Capturing`] into a stream being captured: CUDA does not record graph
    /// launches in a capture (embed the graph with
    /// [`Graph::add_child_graph`](crate::Graph::add_child_graph) instead), and a launch that does
    /// not run would break the completion markers of the memory model.
    ///
    /// With [indirect values](crate::indirect), the launch reads the values set so far
    /// ([`GraphExec::set_indirect`]): delivered as parameters, it first updates the fetch node
    /// if a value changed (one driver call); through a ring, when as many launches as the ring
    /// has slots are queued and none of them has started, it first waits for the oldest to
    /// start. A launch into a stream being captured is refused, as above.
    ///
    /// An executable bound to a stream ([`Graph::instantiate_on`](crate::Graph::instantiate_on))
    /// launches there only: another stream is refused with [`Error::Invalid`].
    #[inline]
    pub fn launch(&mut self, stream: &Arc<CudaStream>) -> Result<()> {
        self.check_host_panics()?;
        if is_per_thread(stream) {
            return Err(per_thread_refused("GraphExec::launch"));
        }
        if let Some(bound) = self.memory.fence().bound() {
            if !Arc::ptr_eq(bound, stream) && **bound != **stream {
                return Err(elsewhere());
            }
        }
        // One read of the thread's state: neither in a host node nor in a capture closure.
        if must_defer_releases() {
            refuse_here(stream, "GraphExec::launch")?;
        }
        #[cfg(feature = "nccl")]
        if let Some(collectives) = self.graph.collectives() {
            // One reference count: `launch_unordered` borrows `self` mutably.
            let comms = collectives.launch_order().clone();
            return crate::collective::launch_ordered(&comms, stream, || {
                self.launch_unordered(stream)
            });
        }
        self.launch_unordered(stream)
    }

    /// [`GraphExec::launch`] after its checks (and, for a graph with collectives, in the order
    /// of its communicators' launches).
    #[inline]
    fn launch_unordered(&mut self, stream: &Arc<CudaStream>) -> Result<()> {
        let launched = if self.outliving.is_some() || self.frees_adopted || self.device_launch {
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
    /// (And the refusal of a host launch of a device-launchable executable from here: see
    /// [`DeviceGraphExec::launch`](crate::DeviceGraphExec::launch).)
    #[cold]
    fn launch_with_outliving(&mut self, stream: &Arc<CudaStream>) -> Result<()> {
        if self.device_launch {
            return Err(device_exec_refuses("GraphExec::launch"));
        }
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
        // Every one of them, whatever fails: the launch freed them all, and one left unmarked
        // would be freed again (by another launch, or by its drop).
        let mut ordered = Ok(());
        for adopted in self.graph.adopted_mut() {
            ordered = ordered.and(adopted.after_launch(stream));
        }
        ordered
    }

    #[inline]
    fn launch_raw(&mut self, stream: &Arc<CudaStream>) -> Result<()> {
        if self.indirect.is_some() {
            return self.launch_indirect(stream);
        }
        let raw = self.raw;
        self.memory.launch(stream, || {
            // SAFETY: live executable and stream.
            named("cuGraphLaunch", unsafe {
                cudarc::driver::result::graph::launch(raw, stream.cu_stream())
            })
        })
    }

    /// A launch of an executable with indirect values: the staged values are sent first (the
    /// fetch node updated, or the launch's ring slot written), and the launch is counted when
    /// the driver took it (see `crate::indirect`), whatever fails after that.
    #[inline(never)]
    fn launch_indirect(&mut self, stream: &Arc<CudaStream>) -> Result<()> {
        // Never in a host node (refused by the callers): a host node holds up its stream, and
        // waiting there for a slot could wait forever.
        debug_assert!(!in_host_node());
        check_not_capturing(stream)?;
        let (raw, ctx) = (self.raw, self.ctx);
        let memory = &mut self.memory;
        let block = self.indirect.as_deref_mut().expect("checked by the caller");
        block.before_launch(raw, ctx, || memory.launches_complete())?;
        let mut made = false;
        let result = memory.launch(stream, || {
            // SAFETY: live executable and stream.
            let launched = named("cuGraphLaunch", unsafe {
                cudarc::driver::result::graph::launch(raw, stream.cu_stream())
            });
            made = launched.is_ok();
            launched
        });
        if made {
            block.launched();
        }
        result
    }

    /// Sets the value that the next launches read for `key` (a key of this executable's graph):
    /// a write into host memory, sent to the device by [`GraphExec::launch`]. Launches already
    /// made keep the values they were launched with.
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
    /// The next launch allocates the same addresses again, so until the buffer is gone (all its
    /// clones dropped, or freed by the free node of a graph it was given to) and its memory
    /// freed (a buffer dropped while its stream is being captured is freed on this crate's
    /// release thread once the capture is over), [`GraphExec::launch`] refuses with
    /// [`Error::Allocation`]; that holds also for an executable instantiated with
    /// [`InstantiateFlags::AUTO_FREE_ON_LAUNCH`](crate::InstantiateFlags::AUTO_FREE_ON_LAUNCH),
    /// whose launches free only the allocations nobody took.
    pub fn take_allocation<T: cudarc::driver::DeviceRepr + bytemuck::AnyBitPattern>(
        &mut self,
        alloc: &GraphAlloc<T>,
    ) -> Result<DeviceBuffer<T>> {
        // SAFETY: `T: AnyBitPattern`.
        unsafe { self.take_any_allocation(alloc) }
    }

    /// [`GraphExec::take_allocation`] for any element type.
    ///
    /// # Safety
    /// Every bit pattern is a valid `T` (the allocation may hold any bytes).
    pub(crate) unsafe fn take_any_allocation<T: cudarc::driver::DeviceRepr>(
        &mut self,
        alloc: &GraphAlloc<T>,
    ) -> Result<DeviceBuffer<T>> {
        let node = self.graph.alloc_node(alloc, "take_allocation")?;
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
        outliving.take(node, &name_of, |addr, stream, freed| {
            // SAFETY: `addr` is a live allocation of `len` `T`s that the last launch made on
            // `stream`; from here on the slice owns it (the executable no longer frees it), and
            // cudarc frees it with `cuMemFreeAsync`, a valid free of a graph allocation.
            let slice = unsafe { stream.upgrade_device_ptr::<T>(addr, len) };
            DeviceBuffer::from_graph_allocation(slice, freed)
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
        let node = self.graph.alloc_node(alloc, "read_allocation")?;
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
        refuse_waiting("GraphExec::read_allocation")?;
        refuse_capturing_stream(
            stream,
            "GraphExec::read_allocation",
            "the copy would be recorded into the capture, not run",
        )?;
        // The executable may have moved to a thread with no current context.
        named("cuCtxSetCurrent", self.graph.context().bind_to_thread())?;
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
        if self.device_launch {
            return Err(device_exec_refuses("GraphExec::upload"));
        }
        self.upload_device_exec(stream)
    }

    /// A launch of a device-launchable executable, which its [`DeviceGraphExec`] orders with the
    /// device launches of it.
    ///
    /// [`DeviceGraphExec`]: crate::DeviceGraphExec
    pub(crate) fn launch_device_exec(&mut self, stream: &Arc<CudaStream>) -> Result<()> {
        self.check_host_panics()?;
        if is_per_thread(stream) {
            return Err(per_thread_refused("DeviceGraphExec::launch"));
        }
        if must_defer_releases() {
            refuse_here(stream, "DeviceGraphExec::launch")?;
        }
        self.launch_raw(stream)
            .map_err(|e| failed_in_capture(e, stream, "DeviceGraphExec::launch"))
    }

    /// `cuGraphUpload`, for [`GraphExec::upload`] and a [`DeviceGraphExec`]'s re-uploads.
    ///
    /// [`DeviceGraphExec`]: crate::DeviceGraphExec
    pub(crate) fn upload_device_exec(&self, stream: &CudaStream) -> Result<()> {
        if must_defer_releases() {
            refuse_here(stream, "GraphExec::upload")?;
        }
        // SAFETY: live executable and stream.
        named("cuGraphUpload", unsafe {
            cudarc::driver::result::graph::upload(self.raw, stream.cu_stream())
        })
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
}

/// The refusal of a launch or upload of a device-launchable executable other than through its
/// [`DeviceGraphExec`](crate::DeviceGraphExec).
#[cold]
pub(super) fn device_exec_refuses(call: &str) -> Error {
    Error::Invalid {
        node: call.into(),
        reason: "this executable is launched from the device: launch and update it through its \
                 `DeviceGraphExec`, which orders host launches and re-uploads with the device \
                 launches of it (and kernels hold its handle, so it is never instantiated anew)"
            .into(),
    }
}

/// Refuses `call`, a launch or upload into `stream`, inside a host node ([`Error::InHostNode`])
/// or, into a stream being captured, inside a capture closure ([`Error::Capturing`]): the path
/// off the launch's one read of the thread's state.
#[cold]
#[inline(never)]
fn refuse_here(stream: &CudaStream, call: &'static str) -> Result<()> {
    crate::ambient::refuse_in_host_node(call)?;
    if in_capture() {
        refuse_capturing_stream(stream, call, LAUNCH_IN_CAPTURE)?;
    }
    Ok(())
}

/// The error for a launch of a bound executable into another stream.
#[cold]
fn elsewhere() -> Error {
    Error::Invalid {
        node: "launch".into(),
        reason: "the executable is bound to another stream (`instantiate_on`): it launches \
                 only there, which is what lets it share host memory with the other \
                 executables bound there"
            .into(),
    }
}

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
