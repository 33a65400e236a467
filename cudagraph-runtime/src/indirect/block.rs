//! [`IndirectBlock`]: a graph's (then its executable's) block of indirect values.

use std::marker::PhantomData;
use std::sync::Arc;

use cudarc::driver::{sys, CudaContext, CudaStream, DeviceRepr};

use super::fetch::{bind, fetch_function, FetchArgs, FetchParams};
use super::key::Indirect;
use super::layout::{layout, ring_slots, IndirectLayout, IndirectOptions};
use super::ring::{consumed_offset, BlockMemory, Ring};
use crate::driver::{named, result};
use crate::error::{Error, Result};
use crate::id::fresh_id;
use crate::memory::fence::is_capturing;
use crate::reaper;

/// A graph's block of indirect values: its memory, the fetch kernel, and the host's side of the
/// protocol (see the module docs). Made by the graph, moved into its executable.
pub(crate) struct IndirectBlock {
    id: u64,
    /// `None` only once `Drop` has handed it away.
    memory: Option<BlockMemory>,
    /// Over `memory.host`.
    ring: Ring,
    /// The device address of the ring (the host memory's mapping).
    ring_device: sys::CUdeviceptr,
    fetch: sys::CUfunction,
}

// SAFETY: `BlockMemory` is `Send`; the ring's pointer is into that memory, which the block owns
// and reaches only through `&mut self` (the device reads it under the module's protocol); the
// rest are numbers and a function handle.
unsafe impl Send for IndirectBlock {}

impl std::fmt::Debug for IndirectBlock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("IndirectBlock")
            .field("layout", &self.ring.layout)
            .field("launches", &self.ring.seq)
            .finish_non_exhaustive()
    }
}

impl IndirectBlock {
    /// A block for `options` in `ctx`: memory allocated and zeroed, the fetch kernel loaded.
    pub(crate) fn new(ctx: &Arc<CudaContext>, options: IndirectOptions) -> Result<Self> {
        let layout = layout(options)?;
        let fetch = fetch_function(ctx)?;
        bind(ctx)?;
        let mut memory = BlockMemory {
            ctx: ctx.clone(),
            device: 0,
            host: std::ptr::null_mut(),
        };
        // Page-locked (cacheable, not write-combined), reachable by kernels of `ctx`.
        let mapped = sys::CU_MEMHOSTALLOC_DEVICEMAP;
        // SAFETY: `ctx` is current on this thread.
        let host = unsafe { cudarc::driver::result::malloc_host(layout.host_bytes, mapped) };
        memory.host = named("cuMemHostAlloc", host)?.cast();
        // SAFETY: `host_bytes` bytes of fresh memory, nothing else refers to them yet. Zero: the
        // consumed word starts at 0, as the device's counter does.
        unsafe { std::ptr::write_bytes(memory.host, 0, layout.host_bytes) };
        // SAFETY: `memory.host` was just allocated in `ctx`, which is current.
        let ring_device = unsafe { result::alloc::device_address_of(memory.host) }?;
        // SAFETY: `ctx` is current on this thread.
        memory.device = named("cuMemAlloc", unsafe {
            cudarc::driver::result::malloc_sync(layout.device_bytes)
        })?;
        // The counter must start at zero: copied from the zeroed host memory (at least as large),
        // and complete on return, before any launch can read it.
        debug_assert!(layout.host_bytes >= layout.device_bytes);
        // SAFETY: the host memory holds `host_bytes >= device_bytes` bytes, zeroed above, that
        // nothing else refers to.
        let zeros = unsafe { std::slice::from_raw_parts(memory.host, layout.device_bytes) };
        // SAFETY: both hold `device_bytes` bytes; the device memory is new; `ctx` is current.
        named("cuMemcpyHtoD", unsafe {
            cudarc::driver::result::memcpy_htod_sync(memory.device, zeros)
        })?;
        Ok(Self {
            id: fresh_id(),
            ring: Ring::new(memory.host, layout),
            memory: Some(memory),
            ring_device,
            fetch,
        })
    }

    /// The block's identity, which its keys carry.
    #[inline(always)]
    pub(crate) fn id(&self) -> u64 {
        self.id
    }

    pub(crate) fn layout(&self) -> IndirectLayout {
        self.ring.layout
    }

    fn memory(&self) -> &BlockMemory {
        self.memory.as_ref().expect("taken only by Drop")
    }

    /// Room for a `T` holding `initial`: its key. The fetch node must then copy more words: the
    /// caller re-sends its parameters ([`IndirectBlock::fetch_params`]).
    pub(crate) fn add<T: DeviceRepr + Copy>(&mut self, initial: T) -> Result<Indirect<T>> {
        let offset = self.ring.place::<T>()?;
        let key = Indirect {
            block: self.id,
            offset: offset as u32,
            addr: self.memory().device + offset as u64,
            _value: PhantomData,
        };
        self.set(&key, initial);
        Ok(key)
    }

    /// Writes `value` into the staged copy: the next launch publishes it. The caller has
    /// checked that the key is this block's.
    #[inline(always)]
    pub(crate) fn set<T: Copy>(&mut self, key: &Indirect<T>, value: T) {
        debug_assert_eq!(key.block, self.id);
        // SAFETY: the key was made by this block (`add`), at an offset `place` gave for a `T`.
        unsafe { self.ring.set(key.offset as usize, value) }
    }

    /// The staged value: what the next launch will read. The caller has checked that the key is
    /// this block's.
    #[inline(always)]
    pub(crate) fn get<T: Copy>(&self, key: &Indirect<T>) -> T {
        debug_assert_eq!(key.block, self.id);
        // SAFETY: as in `set`.
        unsafe { self.ring.get(key.offset as usize) }
    }

    /// See [`Ring::publish`].
    #[inline]
    pub(crate) fn publish(&mut self, all_done: impl FnMut() -> Result<bool>) -> Result<()> {
        self.ring.publish(all_done)
    }

    /// See [`Ring::launched`].
    #[inline]
    pub(crate) fn launched(&mut self) {
        self.ring.launched()
    }

    /// The fetch node's parameters: its function and the addresses and sizes it copies with.
    pub(crate) fn fetch_params(&self, ctx: sys::CUcontext) -> FetchParams {
        let memory = self.memory();
        let layout = &self.ring.layout;
        FetchParams {
            func: self.fetch,
            ctx,
            args: FetchArgs {
                ring: self.ring_device,
                current: memory.device,
                counter: memory.device + layout.capacity as u64,
                consumed: self.ring_device + consumed_offset(layout) as u64,
                slots: ring_slots(layout),
                stride: layout.capacity as u32,
                words: (layout.used / 8) as u32,
            },
        }
    }
}

impl Drop for IndirectBlock {
    fn drop(&mut self) {
        // Freeing calls CUDA, which a host node (or a capture closure) must not: the reaper
        // does it there.
        if let Some(memory) = self.memory.take() {
            reaper::release(memory);
        }
    }
}

/// Refuses a launch of an executable with indirect values into `stream` while it is being
/// captured: the device counts the launches, and a captured one would run later, from another
/// executable, out of that count. The crate's memory model counts on CUDA refusing such a
/// launch itself (the `runtime_indirect` tests witness what the driver does); indirect values
/// check it here as well, for one `cuStreamIsCapturing` per launch, since a launch counted wrong
/// would make later launches read the wrong slots. (A capture another thread begins on the same
/// stream between this check and the launch is left to the driver's refusal.)
pub(crate) fn check_not_capturing(stream: &CudaStream) -> Result<()> {
    if is_capturing(stream)? {
        return Err(Error::Capturing {
            what: "launching an executable with indirect values (its launches are counted \
                   by the device, and a captured launch would run later, elsewhere)"
                .into(),
        });
    }
    Ok(())
}
