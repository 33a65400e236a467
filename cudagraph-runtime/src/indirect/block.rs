//! [`IndirectBlock`]: a graph's (then its executable's) block of indirect values.

use std::marker::PhantomData;
use std::sync::Arc;

use cudarc::driver::{sys, CudaContext, CudaStream, DeviceRepr};

use super::fetch::{fetch_functions, FetchFunctions, FetchParams, RingArgs};
use super::key::Indirect;
use super::layout::{layout, ring_slots, IndirectDelivery, IndirectLayout, IndirectOptions};
use super::ring::{consumed_offset, BlockMemory, Ring};
use super::staged::Staged;
use crate::driver::{named, result};
use crate::error::{Error, Result};
use crate::id::fresh_id;
use crate::memory::fence::is_capturing;
use crate::reaper;

/// A graph's block of indirect values: its memory, the fetch kernels, the staged values and
/// how they reach the device (see the module docs). Made by the graph, moved into its
/// executable.
pub(crate) struct IndirectBlock {
    id: u64,
    /// `None` only once `Drop` has handed it away.
    memory: Option<BlockMemory>,
    /// The block's size; `used` grows as values are added.
    layout: IndirectLayout,
    /// The values the next launch reads.
    staged: Staged,
    delivery: Delivery,
    funcs: FetchFunctions,
}

/// How a block's values reach the device, with the state that needs.
enum Delivery {
    /// Over `memory.host`; `device` is the address the device reads it at.
    Ring {
        ring: Ring,
        device: sys::CUdeviceptr,
    },
    /// As the fetch node's parameters.
    Parameters {
        /// The fetch node in the graph (null until it is added), which names it in the
        /// executable too.
        node: sys::CUgraphNode,
        /// Whether the executable's fetch node may hold other values than the staged ones: set
        /// by every change, and by a new instantiation (which takes the definition graph's).
        stale: bool,
    },
}

// SAFETY: `BlockMemory` is `Send`; the ring's pointer is into that memory, which the block owns
// and reaches only through `&mut self` (the device reads it under the module's protocol); the
// node handle is used only through `&mut self` too, by the executable that owns the block; the
// rest are numbers, an owned copy and function handles.
unsafe impl Send for IndirectBlock {}

impl std::fmt::Debug for IndirectBlock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut d = f.debug_struct("IndirectBlock");
        d.field("layout", &self.layout);
        if let Delivery::Ring { ring, .. } = &self.delivery {
            d.field("launches", &ring.seq);
        }
        d.finish_non_exhaustive()
    }
}

impl IndirectBlock {
    /// A block for `options` in `ctx`: memory allocated and zeroed, the fetch kernels loaded.
    pub(crate) fn new(ctx: &Arc<CudaContext>, options: IndirectOptions) -> Result<Self> {
        let layout = layout(options)?;
        let funcs = fetch_functions(ctx)?;
        named("cuCtxSetCurrent", ctx.bind_to_thread())?;
        let mut memory = BlockMemory {
            ctx: ctx.clone(),
            device: 0,
            host: std::ptr::null_mut(),
        };
        // SAFETY: `ctx` is current on this thread.
        memory.device = named("cuMemAlloc", unsafe {
            cudarc::driver::result::malloc_sync(layout.device_bytes)
        })?;
        let delivery = match layout.delivery {
            // Nothing to zero: each launch's fetch writes the used bytes before any node reads
            // them.
            IndirectDelivery::Parameters => Delivery::Parameters {
                node: std::ptr::null_mut(),
                stale: true,
            },
            IndirectDelivery::Ring => {
                // Page-locked (cacheable, not write-combined), reachable by kernels of `ctx`.
                let mapped = sys::CU_MEMHOSTALLOC_DEVICEMAP;
                // SAFETY: `ctx` is current on this thread.
                let host =
                    unsafe { cudarc::driver::result::malloc_host(layout.host_bytes, mapped) };
                memory.host = named("cuMemHostAlloc", host)?.cast();
                // SAFETY: `host_bytes` bytes of fresh memory, nothing else refers to them yet.
                // Zero: the consumed word starts at 0, as the device's counter does.
                unsafe { std::ptr::write_bytes(memory.host, 0, layout.host_bytes) };
                // SAFETY: `memory.host` was just allocated in `ctx`, which is current.
                let device = unsafe { result::alloc::device_address_of(memory.host) }?;
                // The counter must start at zero: copied from the zeroed host memory (at least
                // as large), and complete on return (a copy from page-locked memory), before
                // any launch can read it.
                debug_assert!(layout.host_bytes >= layout.device_bytes);
                // SAFETY: the host memory holds `host_bytes >= device_bytes` bytes, zeroed
                // above, that nothing else refers to.
                let zeros = unsafe { std::slice::from_raw_parts(memory.host, layout.device_bytes) };
                // SAFETY: both hold `device_bytes` bytes; the device memory is new; `ctx` is
                // current.
                named("cuMemcpyHtoD", unsafe {
                    cudarc::driver::result::memcpy_htod_sync(memory.device, zeros)
                })?;
                Delivery::Ring {
                    ring: Ring::new(memory.host, layout),
                    device,
                }
            }
        };
        Ok(Self {
            id: fresh_id(),
            staged: Staged::new(layout.capacity),
            layout,
            memory: Some(memory),
            delivery,
            funcs,
        })
    }

    /// The block's identity, which its keys carry.
    #[inline(always)]
    pub(crate) fn id(&self) -> u64 {
        self.id
    }

    pub(crate) fn layout(&self) -> IndirectLayout {
        self.layout
    }

    fn memory(&self) -> &BlockMemory {
        self.memory.as_ref().expect("taken only by Drop")
    }

    /// Room for a `T` holding `initial`: its key. The fetch node must then copy more words: the
    /// caller re-sends its parameters ([`IndirectBlock::fetch_params`]).
    pub(crate) fn add<T: DeviceRepr + Copy>(&mut self, initial: T) -> Result<Indirect<T>> {
        let offset = self.staged.place::<T>()?;
        self.layout.used = self.staged.used();
        let key = Indirect {
            block: self.id,
            offset: offset as u32,
            addr: self.memory().device + offset as u64,
            _value: PhantomData,
        };
        self.set(&key, initial);
        Ok(key)
    }

    /// Writes `value` into the staged copy: the next launch reads it. The caller has checked
    /// that the key is this block's.
    #[inline(always)]
    pub(crate) fn set<T: Copy>(&mut self, key: &Indirect<T>, value: T) {
        debug_assert_eq!(key.block, self.id);
        // SAFETY: the key was made by this block (`add`), at an offset `place` gave for a `T`.
        unsafe { self.staged.set(key.offset as usize, value) };
        if let Delivery::Parameters { stale, .. } = &mut self.delivery {
            *stale = true;
        }
    }

    /// The staged value: what the next launch will read. The caller has checked that the key is
    /// this block's.
    #[inline(always)]
    pub(crate) fn get<T: Copy>(&self, key: &Indirect<T>) -> T {
        debug_assert_eq!(key.block, self.id);
        // SAFETY: as in `set`.
        unsafe { self.staged.get(key.offset as usize) }
    }

    /// Makes the staged values the ones the next launch of `exec` (the executable this block
    /// belongs to) reads: with a ring, publishes them into the launch's slot ([`Ring::publish`],
    /// which may wait, asking `all_done`); as parameters, updates the executable's fetch node
    /// when a value changed since the last update.
    #[inline]
    pub(crate) fn before_launch(
        &mut self,
        exec: sys::CUgraphExec,
        ctx: sys::CUcontext,
        all_done: impl FnMut() -> Result<bool>,
    ) -> Result<()> {
        match &mut self.delivery {
            Delivery::Ring { ring, .. } => ring.publish(&self.staged, all_done),
            Delivery::Parameters { stale: false, .. } => Ok(()),
            Delivery::Parameters { node, .. } => {
                let node = *node;
                debug_assert!(
                    !node.is_null(),
                    "recorded when the graph added the fetch node"
                );
                let params = self.put_params(ctx);
                // SAFETY: `exec` is live and was instantiated from the graph whose fetch node
                // is `node` (the caller's executable, which owns this block), launching a put
                // kernel of this block's context.
                unsafe { params.set_on_exec(exec, node) }?;
                if let Delivery::Parameters { stale, .. } = &mut self.delivery {
                    *stale = false;
                }
                Ok(())
            }
        }
    }

    /// Counts a launch whose launch call succeeded (see [`Ring::launched`]).
    #[inline]
    pub(crate) fn launched(&mut self) {
        if let Delivery::Ring { ring, .. } = &mut self.delivery {
            ring.launched();
        }
    }

    /// The executable was instantiated again from its graph, whose fetch node holds the values
    /// of the graph's last change: the next launch sends the staged ones.
    pub(crate) fn reinstantiated(&mut self) {
        if let Delivery::Parameters { stale, .. } = &mut self.delivery {
            *stale = true;
        }
    }

    /// Records `node`, the fetch node just added to the graph (see [`IndirectBlock::fetch_params`]).
    pub(crate) fn fetch_node_added(&mut self, added: sys::CUgraphNode) {
        if let Delivery::Parameters { node, .. } = &mut self.delivery {
            *node = added;
        }
    }

    /// The put kernel's parameters for the staged values, which they borrow.
    fn put_params(&self, ctx: sys::CUcontext) -> FetchParams<'_> {
        FetchParams::put(
            &self.funcs,
            ctx,
            self.memory().device,
            self.layout.used,
            &self.staged,
        )
    }

    /// The fetch node's parameters: its function and the addresses and sizes it copies with
    /// (for a put kernel, the staged values, which they borrow).
    pub(crate) fn fetch_params(&self, ctx: sys::CUcontext) -> FetchParams<'_> {
        let layout = &self.layout;
        match &self.delivery {
            Delivery::Parameters { .. } => self.put_params(ctx),
            Delivery::Ring { ring, device } => FetchParams::ring(
                &self.funcs,
                ctx,
                RingArgs {
                    ring: *device,
                    current: self.memory().device,
                    counter: self.memory().device + layout.capacity as u64,
                    consumed: *device + consumed_offset(&ring.layout) as u64,
                    slots: ring_slots(layout),
                    stride: layout.capacity as u32,
                    words: (layout.used / 8) as u32,
                },
            ),
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
/// captured: a captured launch would run later, from another executable, with the values of
/// whenever that runs (and, through a ring, out of the device's count of launches). The crate's
/// memory model counts on CUDA refusing such a launch itself (the `runtime_indirect` tests
/// witness what the driver does); indirect values check it here as well, for one
/// `cuStreamIsCapturing` per launch, since with a ring a launch counted wrong would make later
/// launches read the wrong slots. (A capture another thread begins on the same
/// stream between this check and the launch is left to the driver's refusal.)
pub(crate) fn check_not_capturing(stream: &CudaStream) -> Result<()> {
    if is_capturing(stream)? {
        return Err(Error::Capturing {
            what: "launching an executable with indirect values (a captured launch would run \
                   later, elsewhere, without the values set before it)"
                .into(),
        });
    }
    Ok(())
}
