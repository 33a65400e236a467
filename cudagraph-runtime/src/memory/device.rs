//! [`DeviceBuffer`]: device memory that graphs share ownership of.

use std::mem::ManuallyDrop;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, TryLockError};

use cudarc::driver::{
    sys, CudaSlice, CudaStream, CudaView, CudaViewMut, DevicePtrMut as _, DeviceRepr,
    ValidAsZeroBits,
};

use super::adopted::Adopted;
use super::alloc::{AccessScope, AllocState, Allocation, Space};
use super::fence::{
    is_capturing, is_per_thread, per_thread_refused, refuse_capturing_stream, relaxed,
    without_stored_error,
};
use super::foreign::Foreign;
use super::operand::sealed::MemoryOperand;
use super::operand::{DeviceDst, DeviceSrc, Hold, MemKey, Use};
use super::shared::{owned_operand, range_methods, Shared};
use crate::ambient::{in_capture, in_host_node, in_warm_up, refuse_in_host_node, refuse_waiting};
use crate::error::{Error, Result};
use crate::reaper;

/// Device memory shared by reference counting: `T`s on the device, as one cudarc allocation or a
/// sub-range of one.
///
/// Clones are cheap and share the allocation. A graph that uses a buffer keeps a clone, and the
/// executables made from it keep the allocation until their last launch that may use it has
/// completed, so dropping a buffer, replacing it in a graph or dropping an executable while its
/// launches run never frees memory early. Host code reaches the memory through [`access`]
/// (or [`to_vec`], [`copy_from`]), which orders itself after those launches.
///
/// ```no_run
/// # use cudagraph_runtime::DeviceBuffer;
/// # fn f(stream: &std::sync::Arc<cudagraph_runtime::cudarc::driver::CudaStream>) -> cudagraph_runtime::Result<()> {
/// let x = DeviceBuffer::from_host(stream, &[1.0f32, 2.0, 3.0])?;
/// let y = DeviceBuffer::<f32>::zeros(stream, 3)?;
/// // ... a graph reads `x` and writes `y`; launch it ...
/// let result: Vec<f32> = y.to_vec()?; // after the launches queued so far
/// # Ok(()) }
/// ```
///
/// [`access`]: DeviceBuffer::access
/// [`to_vec`]: DeviceBuffer::to_vec
/// [`copy_from`]: DeviceBuffer::copy_from
pub struct DeviceBuffer<T: 'static> {
    shared: Shared<DeviceAlloc<T>>,
}

/// One cudarc allocation and the record of its users.
pub(crate) struct DeviceAlloc<T: 'static> {
    /// `None` only once the final release took it.
    slice: Mutex<Option<CudaSlice<T>>>,
    base: sys::CUdeviceptr,
    len: usize,
    /// The slice's own stream: cudarc frees it there, and orders its work there. (Taken by the
    /// drop, which moves it to where the memory is freed.)
    home: ManuallyDrop<Arc<CudaStream>>,
    state: AllocState,
    /// For a graph allocation (taken from an executable), which a free node of another graph
    /// may free: the flag set once the memory's free is made (enqueued on `home`), which the
    /// executable that made it waits for before it allocates the same addresses again
    /// (`memory::outliving`).
    graph_allocation: Option<Arc<AtomicBool>>,
    /// The owner of the memory, when it is not cudarc's (an import's mapping, NCCL's
    /// symmetric memory): then the final release hands it to that owner instead of cudarc's free.
    external: Option<Foreign>,
}

range_methods!(DeviceBuffer);

impl<T: 'static> std::fmt::Debug for DeviceBuffer<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "DeviceBuffer<{}>({:#x}, len {})",
            std::any::type_name::<T>(),
            self.addr(),
            self.len()
        )
    }
}

impl<T: DeviceRepr + 'static> From<CudaSlice<T>> for DeviceBuffer<T> {
    /// Takes over a cudarc allocation. Work cudarc ordered on the slice (on any stream, with
    /// cudarc's event tracking) comes before every use by a graph.
    ///
    /// When the slice's stream is being captured (by another thread, or with cudarc's
    /// `begin_capture`), that ordering cannot be enqueued there: this waits on the host, on a
    /// stream of its own, for the work cudarc tracks on the slice.
    ///
    /// A slice of the per-thread default stream (`CudaContext::per_thread_stream`), whose handle
    /// names another stream on each thread, is moved to a new stream of its context, which
    /// becomes the buffer's own ([`DeviceBuffer::stream`]): the memory model waits for the tail
    /// of a buffer's stream from whichever thread launches a graph using it.
    ///
    /// # Panics
    ///
    /// In those cases, when that stream cannot be created (the context is unusable); and for a
    /// slice whose bytes overflow a `usize` (cudarc's `alloc_zeros` with such a length, in a
    /// release build, allocates a wrapped size: a few bytes that the length, which kernel checks
    /// trust, overstates).
    fn from(slice: CudaSlice<T>) -> Self {
        let len = slice.len();
        if let Err(e) = super::check_alloc_size::<T>(len, "DeviceBuffer::from(CudaSlice)") {
            panic!("{e}");
        }
        let (mut slice, home) = on_a_stream_of_its_own(slice);
        let base = adopt_tracked(&mut slice, &home);
        let alloc = DeviceAlloc {
            slice: Mutex::new(Some(slice)),
            base,
            len,
            home: ManuallyDrop::new(home),
            state: AllocState::default(),
            graph_allocation: None,
            external: None,
        };
        Self {
            shared: Shared::new(alloc, len),
        }
    }
}

/// `slice` and the stream it is kept on: its own, unless that is the per-thread default stream
/// (see `From<CudaSlice>`); then a new stream of its context, after the work cudarc tracks on
/// the slice, the slice moved there (so that its free is enqueued there too).
fn on_a_stream_of_its_own<T>(mut slice: CudaSlice<T>) -> (CudaSlice<T>, Arc<CudaStream>) {
    if !is_per_thread(slice.stream()) {
        let home = slice.stream().clone();
        return (slice, home);
    }
    let ctx = slice.stream().context().clone();
    let home = without_stored_error(&ctx, || {
        ctx.new_stream()
            .expect("creating a stream for a cudarc slice of the per-thread default stream")
    });
    join_slice(&mut slice, &home);
    let len = slice.len();
    let ptr = slice.leak();
    // SAFETY: `ptr` is the allocation of `len` elements of `T` that `slice` owned and gave up
    // (`leak`), its contents the slice's values; the new slice frees it, on `home`, after the
    // work `home` was just ordered after.
    let slice = unsafe { home.upgrade_device_ptr(ptr, len) };
    (slice, home)
}

/// The address of `slice`, taken so that the work cudarc tracks on it with events (its uses on
/// other streams) comes before everything enqueued on `home`, its own stream, from now on: the
/// home stream's tail then covers all earlier work on the memory, which is what launches and
/// host accesses order themselves after.
fn adopt_tracked<T>(slice: &mut CudaSlice<T>, home: &Arc<CudaStream>) -> sys::CUdeviceptr {
    if !matches!(is_capturing(home), Ok(true)) {
        // (On error the stream and its context are unusable: nothing runs any more.)
        return join_slice(slice, home);
    }
    // Joined on `home`, the wait would be recorded into the capture, not made (and cudarc's
    // event recorded there, a captured event its later waits fail on): launches, which wait for
    // the home stream, would run ahead of cudarc's work on other streams. The wait is made on a
    // stream of this call's own instead, and waited for on the host (relaxed: allowed while any
    // thread captures), so that the work is over before the memory is handed out.
    let (side, base) = without_stored_error(home.context(), || {
        let side = home.context().new_stream().expect(
            "creating a stream to wait for a cudarc slice's work (its own stream is being captured)",
        );
        let (base, sync) = slice.device_ptr_mut(&side);
        drop(sync);
        (side, base)
    });
    // SAFETY: a live stream of this context. (Not cudarc's `synchronize`, which would return an
    // error stored earlier instead of waiting.) On error the context is unusable: nothing runs.
    let _ = relaxed(|| unsafe { cudarc::driver::result::stream::synchronize(side.cu_stream()) });
    // Destroyed on the release thread (relaxed mode): never a call that could touch the capture.
    reaper::drop_later(Box::new(side));
    base
}

impl<T: DeviceRepr + 'static> DeviceBuffer<T> {
    /// A graph allocation that an executable's launch left live, taken over as a buffer, which
    /// sets `freed` once its memory's free is made.
    pub(crate) fn from_graph_allocation(slice: CudaSlice<T>, freed: Arc<AtomicBool>) -> Self {
        let mut buffer = Self::from(slice);
        if let Some(alloc) = Arc::get_mut(&mut buffer.shared.alloc) {
            alloc.graph_allocation = Some(freed);
        }
        buffer
    }

    /// Memory of another owner (`slice`, which must never free it), released by `owner`.
    pub(crate) fn from_foreign(slice: CudaSlice<T>, owner: Foreign) -> Self {
        let mut buffer = Self::from(slice);
        if let Some(alloc) = Arc::get_mut(&mut buffer.shared.alloc) {
            alloc.external = Some(owner);
        }
        buffer
    }

    /// Why the memory cannot go to a free node of a graph whose uses hold `held_by_graph`
    /// references to it, if it cannot: it must be a whole graph allocation that nothing else
    /// shares.
    pub(crate) fn why_not_adoptable(&self, held_by_graph: usize) -> Option<&'static str> {
        let alloc = &self.shared.alloc;
        if alloc.graph_allocation.is_none() {
            Some(
                "a free node frees graph allocations only: this buffer was not taken from an \
                  executable (`GraphExec::take_allocation`); drop it instead",
            )
        } else if self.shared.offset != 0 || self.shared.len != alloc.len {
            Some("the buffer is a part of its allocation: give the whole buffer")
        } else if Arc::strong_count(alloc) != 1 + held_by_graph {
            Some(
                "other handles to the buffer (clones, or other graphs and executables that use \
                  it) are still alive: a free node frees memory that only its own graph still \
                  uses",
            )
        } else {
            None
        }
    }

    /// Gives the memory to a free node (checked with [`Self::why_not_adoptable`]): waits for
    /// the work queued on it so far, and takes the memory out of the buffer, so that only the
    /// free node frees it. Returns what the free node's graph keeps of it.
    pub(crate) fn adopt_for_free(self) -> Result<Adopted> {
        // Everything queued on the memory so far completes before the graph can free it.
        drop(self.access()?);
        let alloc = &self.shared.alloc;
        alloc.home.synchronize().map_err(|source| Error::Driver {
            call: "cuStreamSynchronize",
            source,
        })?;
        let slice = alloc.slice.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(slice) = slice {
            // From now on the graph's free node frees it, not cudarc.
            slice.leak();
        }
        let record: Arc<dyn Allocation> = alloc.clone();
        // (Always a graph allocation here: checked by `why_not_adoptable`.)
        let freed = alloc.graph_allocation.clone().unwrap_or_default();
        Ok(Adopted::new(
            alloc.base,
            Arc::clone(&alloc.home),
            record,
            freed,
        ))
    }

    /// The buffer's allocation record, for counting a graph's holds of it.
    pub(crate) fn record_ptr(&self) -> *const () {
        Arc::as_ptr(&self.shared.alloc).cast()
    }
}

impl<T: DeviceRepr + ValidAsZeroBits + 'static> DeviceBuffer<T> {
    /// `len` zeros, allocated on `stream` (which orders the buffer's own work from then on).
    ///
    /// Refused ([`Error::Capturing`]) on a stream being captured: the allocation would be
    /// recorded as a graph allocation, valid only while the graph runs; ([`Error::Invalid`])
    /// when `len` elements take more bytes than an `isize` holds; and ([`Error::Invalid`]) on
    /// the per-thread default stream (`CudaContext::per_thread_stream`), whose handle names
    /// another stream on each thread, while launches on any thread wait for the tail of the
    /// buffer's own stream.
    pub fn zeros(stream: &Arc<CudaStream>, len: usize) -> Result<Self> {
        if is_per_thread(stream) {
            return Err(per_thread_refused("DeviceBuffer::zeros"));
        }
        refuse_capturing_stream(stream, "DeviceBuffer::zeros", RECORDED_ALLOCATION)?;
        super::check_alloc_size::<T>(len, "DeviceBuffer::zeros")?;
        Ok(stream.alloc_zeros(len)?.into())
    }
}

impl<T: DeviceRepr + 'static> DeviceBuffer<T> {
    /// A copy of `data`, allocated on `stream`. Refused on a stream being captured and on the
    /// per-thread default stream, as [`DeviceBuffer::zeros`] is.
    pub fn from_host(stream: &Arc<CudaStream>, data: &[T]) -> Result<Self> {
        if is_per_thread(stream) {
            return Err(per_thread_refused("DeviceBuffer::from_host"));
        }
        refuse_capturing_stream(stream, "DeviceBuffer::from_host", RECORDED_ALLOCATION)?;
        Ok(stream.clone_htod(data)?.into())
    }
}

/// Why an allocation on a stream being captured is refused.
const RECORDED_ALLOCATION: &str = "the allocation would be recorded into the capture as a graph \
     allocation, valid only while the graph runs; allocate before the capture";

impl<T: 'static> DeviceBuffer<T> {
    /// The device address of the first element.
    pub fn addr(&self) -> sys::CUdeviceptr {
        self.shared.alloc.base + (self.shared.offset * std::mem::size_of::<T>()) as u64
    }

    /// The stream the buffer's own work is ordered on (the one cudarc allocated it on, and frees
    /// it on).
    pub fn stream(&self) -> &Arc<CudaStream> {
        &self.shared.alloc.home
    }
}

impl<T: DeviceRepr + 'static> DeviceBuffer<T> {
    /// Host access to the memory: the cudarc slice, to use with cudarc's stream calls.
    ///
    /// The access is ordered after every launch enqueued so far that may use the buffer, and
    /// launches enqueued later (by any executable that uses it) wait for the work enqueued
    /// through the guard; nothing blocks on the host. While the guard is alive, those executables
    /// refuse to launch ([`Error::BufferInUse`]) and no executable can start using the buffer.
    ///
    /// Enqueue the work on [`DeviceAccess::stream`]; on another stream it is ordered only when
    /// cudarc tracks the slice's uses with events (its default), by joining it into the
    /// buffer's own stream when the guard is dropped. A guard dropped while that stream is
    /// being captured (by another thread, or by cudarc's `begin_capture`) cannot join it there:
    /// the access then ends on this crate's release thread once the capture is over, and until
    /// then those executables still refuse to launch.
    ///
    /// One guard at a time per allocation (every clone and part of the buffer shares it): while
    /// one is alive, on this thread or another, `access`, [`to_vec`](Self::to_vec) and
    /// [`copy_from`](Self::copy_from) fail with [`Error::BufferInUse`] rather than wait.
    ///
    /// Refused with [`Error::Capturing`] while the buffer's own stream is being captured, and
    /// inside a [`Replay`](crate::Replay)'s warm-up (which holds the memory given to it as a
    /// launch does: the access would wait for the warm-up running it).
    pub fn access(&self) -> Result<DeviceAccess<'_, T>> {
        refuse_in_host_node("DeviceBuffer::access")?;
        if in_warm_up() {
            return Err(Error::Capturing {
                what: "DeviceBuffer::access inside a warm-up (`Replay::new` running the work \
                       eagerly): the warm-up holds the memory given to it as a launch does, so \
                       an access to it would wait for the warm-up itself; access buffers before \
                       or after"
                    .into(),
            });
        }
        let alloc = &self.shared.alloc;
        let home = &alloc.home;
        refuse_capturing_stream(
            home,
            "DeviceBuffer::access",
            "the buffer's own stream, where the access is ordered, is being captured, so the \
             access would be recorded into the capture, not made now",
        )?;
        // Refused rather than waited for, as `HostBuffer`'s guards are: a second guard on the
        // thread that holds the first would wait for itself forever. Taken before the access
        // begins: an access begun and then refused here would stay open for good (nothing ends
        // it), and the executables using the buffer would refuse every launch from then on.
        let slice = match alloc.slice.try_lock() {
            Ok(slice) => slice,
            Err(TryLockError::Poisoned(e)) => e.into_inner(),
            Err(TryLockError::WouldBlock) => {
                return Err(Error::BufferInUse {
                    buffer: format!("{self:?}"),
                    reason: "it is being accessed through another guard (`DeviceBuffer::access`, \
                             `to_vec` or `copy_from`, on this thread or another): drop that \
                             guard first"
                        .into(),
                })
            }
        };
        let scope = alloc.state.begin_access()?;
        let mut guard = DeviceAccess {
            buffer: self,
            slice,
            scope: Some(scope),
        };
        let scope = guard.scope.as_ref().expect("set above");
        for fence in &scope.wait_for {
            fence.done().order_before(home)?;
        }
        // cudarc's own record: work on other streams waits for the home stream from here.
        join_tracked(&mut guard.slice, home);
        Ok(guard)
    }

    /// The contents, copied to the host after every launch enqueued so far that may write them.
    /// Refused ([`Error::Capturing`]) inside a capture closure: it waits for the copy.
    pub fn to_vec(&self) -> Result<Vec<T>> {
        refuse_waiting("DeviceBuffer::to_vec")?;
        let guard = self.access()?;
        let stream = guard.stream().clone();
        let out = stream.clone_dtoh(&guard.view())?;
        relaxed(|| stream.synchronize())?;
        Ok(out)
    }

    /// Overwrites the contents with `src` (of the same length), after every launch enqueued so far
    /// that may use them, and before every launch enqueued later. Refused ([`Error::Capturing`])
    /// inside a capture closure: a copy from pageable memory may wait on the host.
    pub fn copy_from(&self, src: &[T]) -> Result<()> {
        refuse_waiting("DeviceBuffer::copy_from")?;
        if src.len() != self.len() {
            return Err(Error::Invalid {
                node: "DeviceBuffer::copy_from".into(),
                reason: format!(
                    "copy of {} elements into a buffer of {}",
                    src.len(),
                    self.len()
                ),
            });
        }
        let mut guard = self.access()?;
        let stream = guard.stream().clone();
        stream.memcpy_htod(src, &mut guard.view_mut())?;
        Ok(())
    }
}

/// Host access to a [`DeviceBuffer`]'s memory (see [`DeviceBuffer::access`]).
pub struct DeviceAccess<'b, T: DeviceRepr + 'static> {
    buffer: &'b DeviceBuffer<T>,
    slice: MutexGuard<'b, Option<CudaSlice<T>>>,
    /// `None` only while the guard is being dismantled.
    scope: Option<AccessScope>,
}

impl<T: DeviceRepr + 'static> std::fmt::Debug for DeviceAccess<'_, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DeviceAccess")
            .field("buffer", self.buffer)
            .finish_non_exhaustive()
    }
}

impl<T: DeviceRepr + 'static> DeviceAccess<'_, T> {
    /// The stream to enqueue the access's work on (the buffer's own).
    pub fn stream(&self) -> &Arc<CudaStream> {
        self.buffer.stream()
    }

    fn whole(&self) -> &CudaSlice<T> {
        self.slice
            .as_ref()
            .expect("present until the final release")
    }

    /// The buffer's elements, to read with cudarc.
    pub fn view(&self) -> CudaView<'_, T> {
        let (offset, len) = (self.buffer.shared.offset, self.buffer.shared.len);
        self.whole().slice(offset..offset + len)
    }

    /// The buffer's elements, to write with cudarc.
    pub fn view_mut(&mut self) -> CudaViewMut<'_, T> {
        let (offset, len) = (self.buffer.shared.offset, self.buffer.shared.len);
        self.slice
            .as_mut()
            .expect("present until the final release")
            .slice_mut(offset..offset + len)
    }
}

impl<T: DeviceRepr + 'static> Drop for DeviceAccess<'_, T> {
    fn drop(&mut self) {
        let Some(scope) = self.scope.take() else {
            return;
        };
        let alloc = &self.buffer.shared.alloc;
        match is_capturing(&alloc.home) {
            // The join would be recorded into the capture (another thread's, or cudarc's
            // `begin_capture`), not made, and launches, which wait for the home stream, would
            // not wait for work enqueued through the guard on other streams: the access stays
            // open (launches refused) until the capture is over and the join is made.
            Ok(true) => {
                let alloc = alloc.clone();
                let mut scope = Some(scope);
                reaper::run_later(Box::new(move || alloc.end_access_later(&mut scope)));
            }
            captured => {
                if captured.is_ok() {
                    // Joins cudarc-tracked work on other streams into the home stream.
                    join_tracked(&mut self.slice, &alloc.home);
                }
                // (Else the stream and its context are unusable: nothing runs any more.)
                alloc.state.end_access(scope, Some(&*alloc.home));
            }
        }
    }
}

/// Makes `home` wait for the uses of `slice` that cudarc tracks with events (its work on other
/// streams), and records that from now on work on other streams waits for `home`.
fn join_tracked<T>(slice: &mut Option<CudaSlice<T>>, home: &CudaStream) {
    if let Some(slice) = slice.as_mut() {
        join_slice(slice, home);
    }
}

/// [`join_tracked`] for a slice at hand; returns its address.
fn join_slice<T>(slice: &mut CudaSlice<T>, home: &CudaStream) -> sys::CUdeviceptr {
    without_stored_error(home.context(), || {
        let (base, sync) = slice.device_ptr_mut(home);
        drop(sync);
        base
    })
}

impl<T: DeviceRepr + 'static> DeviceAlloc<T> {
    /// Ends the access `scope` of a guard dropped while the home stream was being captured (see
    /// `Drop for DeviceAccess`), as a job of the release thread: `false` while the capture goes
    /// on; then joins the work enqueued through the guard into the home stream, and ends the
    /// access.
    fn end_access_later(&self, scope: &mut Option<AccessScope>) -> bool {
        match is_capturing(&self.home) {
            Ok(true) => return false,
            Ok(false) => match self.slice.try_lock() {
                Ok(mut slice) => join_tracked(&mut slice, &self.home),
                Err(TryLockError::Poisoned(e)) => join_tracked(&mut e.into_inner(), &self.home),
                // Another guard holds the slice: its `access`, begun after this guard was gone,
                // made this join when it began.
                Err(TryLockError::WouldBlock) => {}
            },
            // The stream and its context are unusable: nothing runs any more.
            Err(_) => {}
        }
        if let Some(scope) = scope.take() {
            self.state.end_access(scope, Some(&*self.home));
        }
        true
    }
}

impl<T: 'static> Allocation for DeviceAlloc<T> {
    fn state(&self) -> &AllocState {
        &self.state
    }
    fn space(&self) -> Space {
        Space::Device
    }
    fn home(&self) -> Option<&Arc<CudaStream>> {
        Some(&*self.home)
    }
    fn range(&self) -> (u64, u64) {
        (
            self.base,
            self.base + (self.len * std::mem::size_of::<T>()) as u64,
        )
    }
}

impl<T: 'static> Drop for DeviceAlloc<T> {
    /// Frees the memory once the executables that released it are done with it: their completion
    /// markers are waited for *on the home stream*, where cudarc's free is enqueued, so nothing
    /// blocks. When that stream is being captured (the free would be captured instead of run) or
    /// this runs inside a host node (no CUDA calls allowed), the reaper finishes the job.
    fn drop(&mut self) {
        let released = self.state.take_released();
        let slice = self
            .slice
            .get_mut()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        // SAFETY: taken once, here; nothing reads `self.home` afterwards.
        let home = unsafe { ManuallyDrop::take(&mut self.home) };
        // `home` is this allocation's own reference, moved into the release: with a clone there
        // and this one dropped here, this drop would be the last one (`cuStreamDestroy`, inside a
        // host node) whenever the release thread's went first.
        let Some(slice) = slice else {
            // The memory was taken (given to a free node): the stream goes where a driver call
            // is allowed.
            reaper::release(home);
            return;
        };
        let mut external = self.external.take();
        let graph_allocation = self.graph_allocation.take();
        let mut parts = Some((slice, released));
        let mut free = move || -> bool {
            match is_capturing(&home) {
                Ok(false) => {}
                Ok(true) => return false,
                // The stream (and its context) are unusable: nothing to order. Another owner's
                // memory is not cudarc's to free: it leaks with that owner's release.
                Err(_) => {
                    if external.is_some() {
                        std::mem::forget(parts.take());
                    }
                    return true;
                }
            }
            let Some((slice, released)) = parts.take() else {
                return true;
            };
            for fence in &released {
                if fence.done().order_before(&home).is_err() {
                    // Could not order the free after that executable: leak rather than free early.
                    std::mem::forget(slice);
                    return true;
                }
            }
            match external.take() {
                // Another owner's memory: not cudarc's to free.
                Some(owner) => owner.free_after(slice, &home),
                None => drop(slice),
            }
            // The free is enqueued on `home` only now, maybe on the release thread well after
            // the buffer went: the executable that made a graph allocation allocates the same
            // addresses again only after it (see `memory::outliving`).
            if let Some(freed) = &graph_allocation {
                freed.store(true, Ordering::Release);
            }
            true
        };
        // Inside a capture closure the free (and cudarc's waits before it) could break the
        // capture: the release thread makes it.
        if in_host_node() || in_capture() || !free() {
            reaper::run_later(Box::new(free));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// As a memory operand: the graph keeps a reference to the allocation.

impl<T: 'static> DeviceBuffer<T> {
    fn key_of(&self) -> MemKey {
        let start = self.addr();
        MemKey {
            start,
            end: start + self.num_bytes() as u64,
            owner: Arc::as_ptr(&self.shared.alloc).cast(),
        }
    }

    /// This buffer as a use by a node, written or not (`host_code` is for host memory only).
    fn use_of<'a>(&self, write: bool, host_code: bool) -> Use<'a> {
        let key = self.key_of();
        Use {
            space: Space::Device,
            start: key.start,
            end: key.end,
            write,
            host_code,
            hold: Hold::Owned(self.shared.alloc.clone()),
        }
    }
}

owned_operand!(DeviceBuffer, 'static);

// Only the source impls are `do_not_recommend`: a wrong-direction error then explains the
// direction, while a destination error lists the buffer type to use.
#[diagnostic::do_not_recommend]
impl<'a, T: 'static> DeviceSrc<'a, T> for &DeviceBuffer<T> {}
impl<T: 'static> crate::memory::operand::sealed::DeviceSrc for &DeviceBuffer<T> {}
impl<'a, T: 'static> DeviceDst<'a, T> for &DeviceBuffer<T> {}
impl<T: 'static> crate::memory::operand::sealed::DeviceDst for &DeviceBuffer<T> {}
#[diagnostic::do_not_recommend]
impl<'a, T: 'static> DeviceSrc<'a, T> for DeviceBuffer<T> {}
impl<T: 'static> crate::memory::operand::sealed::DeviceSrc for DeviceBuffer<T> {}
impl<'a, T: 'static> DeviceDst<'a, T> for DeviceBuffer<T> {}
impl<T: 'static> crate::memory::operand::sealed::DeviceDst for DeviceBuffer<T> {}

#[cfg(test)]
mod tests {
    use crate::node::Memset;
    use crate::{open_device, DeviceBuffer, Error, Graph};

    /// A second `access` refused while a guard is alive leaves nothing behind: once the first
    /// guard goes, the executables using the buffer launch again. (It used to begin the access
    /// before finding the guard, and to return with that access open for good: every launch of
    /// those executables was refused from then on.) Needs a driver to make the objects (the null
    /// driver will do); skipped without one.
    #[test]
    fn a_refused_second_access_leaves_the_launches_free() {
        let Ok(ctx) = open_device(0) else {
            eprintln!("skipped a_refused_second_access_leaves_the_launches_free: no driver");
            return;
        };
        let stream = ctx.new_stream().unwrap();
        let buf = DeviceBuffer::<u32>::zeros(&stream, 16).unwrap();
        let mut graph = Graph::new(&ctx).unwrap();
        graph.add_memset(Memset::new(&buf, 1u32), &[]).unwrap();
        let mut exec = graph.instantiate().unwrap();
        exec.launch(&stream).unwrap();
        let first = buf.access().unwrap();
        assert!(matches!(buf.access(), Err(Error::BufferInUse { .. })));
        assert!(matches!(
            exec.launch(&stream),
            Err(Error::BufferInUse { .. })
        ));
        drop(first);
        exec.launch(&stream).unwrap();
        // And a later access is not refused either.
        drop(buf.access().unwrap());
    }
}
