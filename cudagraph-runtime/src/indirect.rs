//! Indirect values: scalars that a graph's kernels read through a pointer, changed between
//! launches by a plain host write instead of a node update.
//!
//! A loop that changes a few numbers at every launch (a decode step, a time step, a scale) would
//! otherwise update a kernel node before each launch: one driver call
//! (`cuGraphExecKernelNodeSetParams`) of about 0.3 to 0.9 µs per node. An indirect value lives
//! in device memory instead, and kernels take a pointer to it:
//!
//! ```no_run
//! use cudagraph_runtime::prelude::*;
//! # fn main() -> cudagraph_runtime::Result<()> {
//! # let func: cudarc::driver::CudaFunction = todo!();
//! # let ctx = cudagraph_runtime::open_device(0)?; let stream = ctx.new_stream()?;
//! // extern "C" __global__ void decode(const unsigned* step, float* out) { ... out[*step] ... }
//! // SAFETY: `decode` takes `(const unsigned*, float*)`.
//! let decode: Kernel<(DevicePtr<u32>, DevicePtrMut<f32>)> = unsafe { Kernel::new(func) };
//! let out = DeviceBuffer::<f32>::zeros(&stream, 4096)?;
//!
//! let mut graph = Graph::new(&ctx)?;
//! let step = graph.add_indirect(0u32)?; // an `Indirect<u32>`: a key, and a `const unsigned*`
//! graph.add_kernel(&decode, LaunchConfig::for_num_elems(1), (step, &out), &[])?;
//! let mut exec = graph.instantiate()?;
//! for s in 0..4096u32 {
//!     exec.set_indirect(&step, s)?; // a plain write into host memory: no driver call
//!     exec.launch(&stream)?;         // this launch reads `s`, whatever runs or waits meanwhile
//! }
//! # Ok(()) }
//! ```
//!
//! In CUDA C the parameter is a pointer to const, read with a plain load: `const unsigned* step`,
//! then `*step` (the value does not change while a launch runs, so `__ldg(step)` is fine too).
//! Several values of different types share one block; each is aligned to its type.
//!
//! # How it works
//!
//! ```text
//!  host                                         device (one launch)
//!  ----                                         -------------------
//!  set_indirect: writes the staged copy         [fetch] reads its counter c, copies slot c % S
//!  launch #k: waits until launch #k-S fetched,          into the current block, counter = c+1,
//!             copies staged -> slot k % S,              then tells the host "k fetched"
//!             cuGraphLaunch                       │
//!  (ring of S slots in page-locked memory        ▼
//!   the device reads over the bus)              [your kernels] read the current block
//! ```
//!
//! - The graph's block has a *current* copy in device memory, which the kernels read, and a
//!   *staged* copy in host memory, which [`GraphExec::set_indirect`](crate::GraphExec::set_indirect)
//!   writes.
//! - [`GraphExec::launch`](crate::GraphExec::launch) copies the staged block into slot `k % S` of
//!   a ring of `S` slots in page-locked host memory that the device can read
//!   (`cuMemHostAlloc` with `CU_MEMHOSTALLOC_DEVICEMAP`), then launches.
//! - The graph's first node, added with the first value, is a small *fetch* kernel (one block,
//!   PTX that this crate loads once per context, no NVRTC needed). It reads the executable's
//!   launch counter from device memory, copies slot `counter % S` into the current block,
//!   increments the counter and publishes it to a word of host memory.
//! - CUDA orders each launch of an executable after its previous launches ([`cuGraphLaunch`]),
//!   so the device's counter counts exactly the launch calls that succeeded, as the host does:
//!   launch `k` fetches slot `k % S`. Before the host writes a slot again, it checks (one load
//!   from host memory, no driver call) that the launch which used it last has fetched it; if
//!   not (more than `S` launches queued and not started), `launch` waits, spinning briefly and
//!   then sleeping, and asks the driver every millisecond whether the launches have failed.
//! - Every node that reads an indirect value is ordered after the fetch node: a kernel or copy
//!   given one gets the edge from the fetch node added to its dependencies when they do not
//!   already order it. A launch's fetch runs only after the previous launch has completed, so no
//!   kernel ever sees the current block change under it.
//!
//! # Costs, and when to prefer node updates
//!
//! | | node update + launch | indirect value + launch |
//! |---|---|---|
//! | host, per changed value | one driver call per node (~0.3-0.9 µs) | one store (a few ns) |
//! | host, per launch | the launch | the launch, `cuStreamIsCapturing`, a copy of the used bytes of the block, and now and then one load of the word the device writes |
//! | device, per launch | nothing | one more kernel node before the first reader starts: a one-block kernel whose copy waits for one round trip across the bus to host memory (expected around 1-2 µs; `tests/benches/indirect.rs` measures it) |
//! | memory | none | `capacity + 16` bytes of device memory, about `S × capacity + 64` bytes of page-locked host memory ([`IndirectLayout`]) |
//!
//! Prefer indirect values when several values change at every launch, or when one value is
//! read by many nodes (one write reaches them all, where updates would touch every node), and
//! when the host is the bottleneck (small graphs launched back to back). Prefer node updates when
//! values change rarely (then nothing is paid per launch), when the graph is so short that the
//! fetch node's latency matters on the device, or when a value decides something the driver
//! reads (a launch configuration, a copy's size): those cannot be indirect.
//!
//! # Rules
//!
//! - A key ([`Indirect<T>`]) belongs to the graph that made it, and to its executable: giving it
//!   to another graph or executable is an [`Error::Invalid`].
//! - A graph with indirect values is instantiated once (instantiation consumes it), and cannot
//!   be cloned, embedded as a child graph, updated as a whole (`cuGraphExecUpdate` would point
//!   the executable's nodes at the other graph's block, which their fetch node does not fill),
//!   or instantiated for device launch (a launch from the device would not go through
//!   [`GraphExec::launch`](crate::GraphExec::launch)).
//!   [`GraphExec::reinstantiate`](crate::GraphExec::reinstantiate) keeps the block and its count
//!   (the new instantiation's first launch waits for the old one's launches, as for any
//!   re-instantiation); [`GraphExec::reinstantiate_from`](crate::GraphExec::reinstantiate_from)
//!   takes the other graph's block and keys, and the old block lives until the old launches are
//!   done.
//! - Kernels in the bodies of a conditional node may read the graph's values when the
//!   conditional node is ordered after the fetch node ([`Graph::indirect_fetch`](crate::Graph::indirect_fetch)).
//! - The block, the ring and the counters are freed only after the last launch that may use them
//!   has completed, as the crate's memory model frees any memory a graph uses.
//! - The fetch node is an ordinary kernel node, reachable only through `unsafe` calls
//!   ([`GraphExec::set_enabled_unchecked`](crate::GraphExec::set_enabled_unchecked)): disabling it,
//!   or launching the raw executable with `cuGraphLaunch` yourself, breaks the count. A launch
//!   that then waits for a fetch that never comes returns an error once the driver says every
//!   launch is over.
//!
//! [`cuGraphLaunch`]: https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__GRAPH.html

use std::ffi::CStr;
use std::marker::PhantomData;
use std::mem::MaybeUninit;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

use cudarc::driver::{sys, CudaContext, CudaStream, DeviceRepr};

use crate::driver::{named, record_err, result};
use crate::error::{Error, Result};
use crate::id::fresh_id;
use crate::memory::alloc::Space;
use crate::memory::fence::is_capturing;
use crate::memory::operand::sealed::MemoryOperand;
use crate::memory::operand::{DeviceSrc, Hold, MemKey, Use};
use crate::node::{NodeKind, NodeParams};
use crate::reaper;

/// The largest alignment a value may need: slots, the staged copy and the current block are
/// aligned to it.
const MAX_ALIGN: usize = 16;

/// The fetch kernel: `cudagraph_indirect_fetch(ring, current, counter, consumed, slots, stride,
/// words)`, one block. PTX ISA 7.0 for `sm_70`: the driver compiles it for the GPU at hand
/// (PTX for an older target runs on every later GPU), so nothing but the driver is needed.
/// Checked with `ptxas` of CUDA 13.5 for `sm_80`, `sm_90`, `sm_100` and `sm_120`.
const FETCH_PTX: &CStr = c"
.version 7.0
.target sm_70
.address_size 64

// Copies slot (counter % slots) of the ring into the current block, then counts the launch.
.visible .entry cudagraph_indirect_fetch(
	.param .u64 ring,      // mapped page-locked host memory: `slots` slots of `stride` bytes
	.param .u64 current,   // device memory: the block the graph's kernels read
	.param .u64 counter,   // device memory: u64, how many launches fetched so far
	.param .u64 consumed,  // mapped page-locked host memory: u64, the host's copy of `counter`
	.param .u32 slots,     // S, at least 1
	.param .u32 stride,    // bytes from one slot to the next
	.param .u32 words      // 8-byte words to copy
)
{
	.reg .pred 	%p<3>;
	.reg .b32 	%r<8>;
	.reg .b64 	%rd<16>;

	ld.param.u64 	%rd1, [ring];
	ld.param.u64 	%rd2, [current];
	ld.param.u64 	%rd3, [counter];
	ld.param.u64 	%rd4, [consumed];
	ld.param.u32 	%r1, [slots];
	ld.param.u32 	%r2, [stride];
	ld.param.u32 	%r3, [words];
	cvta.to.global.u64 	%rd1, %rd1;     // the four addresses as global addresses
	cvta.to.global.u64 	%rd2, %rd2;
	cvta.to.global.u64 	%rd3, %rd3;
	cvta.to.global.u64 	%rd4, %rd4;
	// c = *counter: written by the previous launch's fetch, which completed before this launch
	// started (launches of one executable are ordered), so a plain load sees it.
	ld.global.u64 	%rd5, [%rd3];
	cvt.u64.u32 	%rd6, %r1;
	rem.u64 	%rd7, %rd5, %rd6;            // c % slots
	cvt.u64.u32 	%rd8, %r2;
	mul.lo.u64 	%rd9, %rd7, %rd8;        // its byte offset in the ring
	add.u64 	%rd10, %rd1, %rd9;           // src = ring + (c % slots) * stride
	mov.u32 	%r4, %tid.x;                 // i = threadIdx.x
	mov.u32 	%r5, %ntid.x;                // step = blockDim.x
COPY:
	setp.ge.u32 	%p1, %r4, %r3;
	@%p1 bra 	COPIED;                     // while (i < words)
	mul.wide.u32 	%rd11, %r4, 8;          // byte offset of word i
	add.u64 	%rd12, %rd10, %rd11;
	// Volatile: read host memory itself, never a copy an earlier launch left in a cache.
	ld.volatile.global.u64 	%rd13, [%rd12];
	add.u64 	%rd14, %rd2, %rd11;
	st.global.u64 	[%rd14], %rd13;          // current[i] = src[i]
	add.u32 	%r4, %r4, %r5;               // i += step
	bra 	COPY;
COPIED:
	bar.sync 	0;                          // every thread has read its words of the slot
	mov.u32 	%r6, %tid.x;
	setp.ne.u32 	%p2, %r6, 0;
	@%p2 bra 	DONE;                       // thread 0 alone:
	add.u64 	%rd15, %rd5, 1;
	st.global.u64 	[%rd3], %rd15;           // *counter = c + 1, for the next launch
	// A system-scope fence (`__threadfence_system()`): the slot's reads above, ordered before it
	// by the barrier, come before the store below as the host sees it. The host writes the
	// slot again only after it has seen that store.
	membar.sys;
	st.volatile.global.u64 	[%rd4], %rd15;  // *consumed = c + 1: slot c % slots is free
DONE:
	ret;
}
";

/// The fetch kernel's name in [`FETCH_PTX`].
const FETCH_NAME: &CStr = c"cudagraph_indirect_fetch";

/// Threads of the fetch kernel's one block: with the default capacity (32 words), every thread
/// copies at most one word.
const FETCH_THREADS: u32 = 128;

/// The fetch kernel loaded in one context, kept loaded for as long as the context lives.
struct LoadedFetch {
    /// The context (a weak reference: its address identifies it while any `Weak` is alive).
    ctx: Weak<CudaContext>,
    func: sys::CUfunction,
}

// SAFETY: a function handle is an address, usable from any thread of the process.
unsafe impl Send for LoadedFetch {}

/// The fetch kernel in `ctx`, loaded on first use (`cuModuleLoadData`, a JIT compilation of a
/// few milliseconds at most) and kept for the life of the context: the driver unloads it with
/// the context, and entries of contexts that are gone are dropped here.
fn fetch_function(ctx: &Arc<CudaContext>) -> Result<sys::CUfunction> {
    static LOADED: Mutex<Vec<LoadedFetch>> = Mutex::new(Vec::new());
    let mut loaded = LOADED.lock().unwrap_or_else(|e| e.into_inner());
    loaded.retain(|l| l.ctx.strong_count() > 0);
    let weak = Arc::downgrade(ctx);
    if let Some(l) = loaded.iter().find(|l| Weak::ptr_eq(&l.ctx, &weak)) {
        return Ok(l.func);
    }
    bind(ctx)?;
    // SAFETY: `ctx` is current on this thread; the module stays loaded until the context goes.
    let (_module, func) = unsafe { result::module::load_ptx(FETCH_PTX, FETCH_NAME) }?;
    loaded.push(LoadedFetch { ctx: weak, func });
    Ok(func)
}

fn bind(ctx: &CudaContext) -> Result<()> {
    ctx.bind_to_thread().map_err(|source| Error::Driver {
        call: "cuCtxSetCurrent",
        source,
    })
}

/// How a graph's block of indirect values is sized: what [`Graph::add_indirect_block`](crate::Graph::add_indirect_block)
/// takes (the first [`Graph::add_indirect`](crate::Graph::add_indirect) uses the default).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IndirectOptions {
    capacity: usize,
    slots: u32,
}

impl Default for IndirectOptions {
    /// 256 bytes (64 `u32`s), 64 slots.
    fn default() -> Self {
        Self {
            capacity: 256,
            slots: 64,
        }
    }
}

impl IndirectOptions {
    /// The bytes the block holds, all values together with their alignment padding (rounded up
    /// to 16). The fetch copies only the bytes in use.
    pub fn with_capacity(self, bytes: usize) -> Self {
        Self {
            capacity: bytes,
            ..self
        }
    }

    /// The number of ring slots `S`: how many launches may be queued without having started
    /// before [`GraphExec::launch`](crate::GraphExec::launch) waits for the oldest one to start.
    /// Each slot costs `capacity` bytes of page-locked memory.
    pub fn with_slots(self, slots: u32) -> Self {
        Self { slots, ..self }
    }

    /// The capacity asked for.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// The number of ring slots asked for.
    pub fn slots(&self) -> u32 {
        self.slots
    }
}

/// The size of a graph's block of indirect values and the memory it takes
/// ([`Graph::indirect_layout`](crate::Graph::indirect_layout),
/// [`GraphExec::indirect_layout`](crate::GraphExec::indirect_layout)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IndirectLayout {
    /// Bytes the block can hold.
    pub capacity: usize,
    /// Bytes in use (values and their padding), which each launch copies, rounded up to 8.
    pub used: usize,
    /// Ring slots.
    pub slots: u32,
    /// Device memory: the current block, then the launch counter.
    pub device_bytes: usize,
    /// Page-locked host memory: the ring, then the word the device publishes its count in.
    pub host_bytes: usize,
}

/// Sizes for `options`, or why they cannot be used.
fn layout(options: IndirectOptions) -> Result<IndirectLayout> {
    let invalid = |reason: String| Error::Invalid {
        node: "add_indirect_block".into(),
        reason,
    };
    if options.slots == 0 {
        return Err(invalid("a ring needs at least one slot".into()));
    }
    let capacity = options
        .capacity
        .max(1)
        .checked_next_multiple_of(MAX_ALIGN)
        .filter(|&c| u32::try_from(c).is_ok())
        .ok_or_else(|| invalid(format!("a capacity of {} bytes", options.capacity)))?;
    let ring = capacity
        .checked_mul(options.slots as usize)
        .filter(|&r| u32::try_from(r).is_ok() && r < isize::MAX as usize / 2)
        .ok_or_else(|| {
            invalid(format!(
                "{} slots of {capacity} bytes: the ring must stay under 4 GiB",
                options.slots
            ))
        })?;
    Ok(IndirectLayout {
        capacity,
        used: 0,
        slots: options.slots,
        device_bytes: capacity + COUNTER_BYTES,
        host_bytes: ring.next_multiple_of(CONSUMED_ALIGN) + CONSUMED_ALIGN,
    })
}

/// Bytes after the current block: the device's launch counter (8, padded).
const COUNTER_BYTES: usize = 16;
/// The host word the device publishes its count in sits on a cache line of its own, after the
/// ring, so that the device's writes to it do not evict the slots the host is writing.
const CONSUMED_ALIGN: usize = 64;

/// Where a value of `size` bytes aligned to `align` goes in a block whose first `used` bytes are
/// taken: its offset, and the bytes taken after it. `None` when it does not fit in `capacity`.
fn place(used: usize, size: usize, align: usize, capacity: usize) -> Option<(usize, usize)> {
    let offset = used.checked_next_multiple_of(align)?;
    let end = offset.checked_add(size)?;
    (end <= capacity).then_some((offset, end))
}

/// The key of one indirect value of type `T`: made by [`Graph::add_indirect`](crate::Graph::add_indirect),
/// written with [`GraphExec::set_indirect`](crate::GraphExec::set_indirect), and given (by value
/// or reference) for a kernel parameter of type [`DevicePtr<T>`](crate::DevicePtr) (`const T*` in
/// CUDA C) or as the source of a copy.
///
/// It belongs to the graph that made it and to that graph's executable.
pub struct Indirect<T> {
    block: u64,
    offset: u32,
    addr: sys::CUdeviceptr,
    _value: PhantomData<fn() -> T>,
}

impl<T> Clone for Indirect<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Indirect<T> {}
impl<T> PartialEq for Indirect<T> {
    fn eq(&self, other: &Self) -> bool {
        self.block == other.block && self.offset == other.offset
    }
}
impl<T> Eq for Indirect<T> {}

impl<T> std::fmt::Debug for Indirect<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Indirect<{}>(offset {}, {:#x})",
            std::any::type_name::<T>(),
            self.offset,
            self.addr
        )
    }
}

// SAFETY: integers (block 0 is no graph's: ids start at 1) and a `PhantomData`.
unsafe impl<T> crate::node::unbuilt::Unbuilt for Indirect<T> {}

impl<T> Indirect<T> {
    /// The device address kernels read the value at (the same for every launch).
    pub fn addr(&self) -> sys::CUdeviceptr {
        self.addr
    }

    /// The value's offset in its block.
    pub fn offset(&self) -> usize {
        self.offset as usize
    }

    /// The identity of the block the key belongs to.
    pub(crate) fn block_id(&self) -> u64 {
        self.block
    }

    fn key(&self) -> MemKey {
        MemKey {
            start: self.addr,
            end: self.addr + std::mem::size_of::<T>() as u64,
            owner: std::ptr::null(),
        }
    }

    fn into_use<'a>(self) -> Use<'a> {
        Use {
            space: Space::Device,
            start: self.addr,
            end: self.addr + std::mem::size_of::<T>() as u64,
            write: false,
            host_code: false,
            hold: Hold::Indirect { block: self.block },
        }
    }
}

// As memory operands: the value in the current block, read only. The graph checks that the key
// is its own and orders the node after the fetch node.

impl<'a, T> MemoryOperand<'a> for Indirect<T> {
    type Elem = T;
    fn key(&self) -> MemKey {
        Indirect::key(self)
    }
    fn len(&self) -> usize {
        1
    }
    fn into_use(self, _write: bool) -> Result<Use<'a>> {
        Ok(Indirect::into_use(self))
    }
}
#[diagnostic::do_not_recommend]
impl<'a, T> DeviceSrc<'a, T> for Indirect<T> {}

impl<'a, T> MemoryOperand<'a> for &Indirect<T> {
    type Elem = T;
    fn key(&self) -> MemKey {
        Indirect::key(self)
    }
    fn len(&self) -> usize {
        1
    }
    fn into_use(self, _write: bool) -> Result<Use<'a>> {
        Ok(Indirect::into_use(*self))
    }
}
#[diagnostic::do_not_recommend]
impl<'a, T> DeviceSrc<'a, T> for &Indirect<T> {}

/// 16 bytes of the staged copy, aligned as the most demanding value. Bytes, possibly
/// uninitialized: a value's padding is copied as it is, never read as a number.
#[derive(Clone, Copy)]
#[repr(C, align(16))]
struct Chunk([MaybeUninit<u8>; MAX_ALIGN]);

/// The memory of a block, freed when dropped: its owner drops it only once no launch may use it.
struct BlockMemory {
    ctx: Arc<CudaContext>,
    /// Device memory: the current block (`capacity` bytes), then the launch counter.
    device: sys::CUdeviceptr,
    /// Mapped page-locked host memory: `slots` slots of `capacity` bytes, then the consumed word.
    host: *mut u8,
}

// SAFETY: addresses of memory this value owns; the host memory is written only through `&mut`
// of the block that owns it (and read by the device, with the protocol of the module docs).
unsafe impl Send for BlockMemory {}

impl Drop for BlockMemory {
    fn drop(&mut self) {
        if self.device == 0 && self.host.is_null() {
            return;
        }
        if bind(&self.ctx).is_err() {
            return; // the context is gone, and its memory with it
        }
        if self.device != 0 {
            // SAFETY: allocated by `cuMemAlloc` in this context; the owner drops this only
            // once no launch may use it.
            record_err(
                &self.ctx,
                named("cuMemFree", unsafe {
                    cudarc::driver::result::free_sync(self.device)
                }),
            );
        }
        if !self.host.is_null() {
            // SAFETY: allocated by `cuMemHostAlloc`; as above.
            record_err(
                &self.ctx,
                named("cuMemFreeHost", unsafe {
                    cudarc::driver::result::free_host(self.host.cast())
                }),
            );
        }
    }
}

/// The host's side of a block (see the module docs): the staged copy, the ring it publishes
/// into, and the count of launches. It knows nothing of CUDA, so the protocol can be run against
/// a simulated device (see the tests).
struct Ring {
    /// `slots` slots of `capacity` bytes, then the consumed word (see [`consumed_offset`]);
    /// owned by the block.
    host: *mut u8,
    layout: IndirectLayout,
    staged: Box<[Chunk]>,
    /// Bytes taken by values so far (not rounded).
    used_end: usize,
    /// Launch calls that succeeded: the device's counter once they have all fetched.
    seq: u64,
    /// The slot the next launch publishes into: `seq % slots`.
    next_slot: u32,
    /// The consumed word as last read: launches that have fetched their slot.
    consumed_seen: u64,
}

/// Where the consumed word is in the host memory of a block of `layout`.
fn consumed_offset(layout: &IndirectLayout) -> usize {
    (layout.slots as usize * layout.capacity).next_multiple_of(CONSUMED_ALIGN)
}

impl Ring {
    /// A ring over `host`, which holds `layout.host_bytes` zeroed bytes and outlives it.
    fn new(host: *mut u8, layout: IndirectLayout) -> Self {
        let chunks = layout.capacity / MAX_ALIGN;
        Self {
            host,
            layout,
            staged: vec![Chunk([MaybeUninit::new(0); MAX_ALIGN]); chunks].into_boxed_slice(),
            used_end: 0,
            seq: 0,
            next_slot: 0,
            consumed_seen: 0,
        }
    }

    /// Room for a `T`: its offset, or why there is none.
    fn place<T>(&mut self) -> Result<usize> {
        let (size, align) = (std::mem::size_of::<T>(), std::mem::align_of::<T>());
        let invalid = |reason: String| Error::Invalid {
            node: "add_indirect".into(),
            reason,
        };
        if size == 0 {
            return Err(invalid("an indirect value of a zero-sized type".into()));
        }
        if align > MAX_ALIGN {
            return Err(invalid(format!(
                "`{}` needs {align}-byte alignment; indirect values may need at most {MAX_ALIGN}",
                std::any::type_name::<T>()
            )));
        }
        let used = self.used_end;
        let (offset, end) = place(used, size, align, self.layout.capacity).ok_or_else(|| {
            invalid(format!(
                "the block is full: {used} of {} bytes used, and a `{}` needs {size} more (with \
                 alignment); make the block larger with `Graph::add_indirect_block` before the \
                 first value",
                self.layout.capacity,
                std::any::type_name::<T>()
            ))
        })?;
        self.used_end = end;
        self.layout.used = end.next_multiple_of(8);
        Ok(offset)
    }

    /// Writes `value` at `offset` of the staged copy: the next launch publishes it.
    ///
    /// # Safety
    /// `offset` was returned by [`Ring::place`] for a `T`.
    #[inline(always)]
    unsafe fn set<T: Copy>(&mut self, offset: usize, value: T) {
        debug_assert!(offset + std::mem::size_of::<T>() <= self.layout.used);
        // SAFETY: the caller's promise: `offset` and the size of `T` lie within the staged copy.
        unsafe {
            self.staged
                .as_mut_ptr()
                .cast::<u8>()
                .add(offset)
                .cast::<T>()
                .write_unaligned(value)
        }
    }

    /// The staged `T` at `offset`.
    ///
    /// # Safety
    /// `offset` was returned by [`Ring::place`] for a `T`.
    #[inline(always)]
    unsafe fn get<T: Copy>(&self, offset: usize) -> T {
        // SAFETY: as in `set`; the bytes there were written as a `T` (by `set`, which `add`
        // calls with the initial value).
        unsafe {
            self.staged
                .as_ptr()
                .cast::<u8>()
                .add(offset)
                .cast::<T>()
                .read_unaligned()
        }
    }

    /// The consumed word: how many launches have fetched their slot.
    #[inline(always)]
    fn consumed(&self) -> u64 {
        // SAFETY: the word lies within the host memory (see `layout`), 64-byte aligned; the
        // device writes it with 8-byte stores and the host only reads it, atomically.
        let word = unsafe {
            AtomicU64::from_ptr(self.host.add(consumed_offset(&self.layout)).cast::<u64>())
        };
        // Acquire: the slot's reads by the device came before the store seen here (the fetch
        // kernel fences before it), so writing the slot after this load is safe.
        word.load(Ordering::Acquire)
    }

    /// Copies the staged block into the next launch's slot, after waiting, if needed, until the
    /// launch that used that slot last has fetched it. `all_done` tells whether every launch so
    /// far has completed (`Ok(false)` when it cannot tell); it is asked only while waiting.
    #[inline]
    fn publish(&mut self, all_done: impl FnMut() -> Result<bool>) -> Result<()> {
        let slots = self.layout.slots as u64;
        if self.seq >= slots {
            // Launch `seq - slots` used this slot; it and the launches before it must have
            // fetched: `seq - slots + 1` of them.
            let needed = self.seq - slots + 1;
            if self.consumed_seen < needed {
                self.consumed_seen = self.consumed();
                if self.consumed_seen < needed {
                    self.wait_consumed(needed, all_done)?;
                }
            }
        }
        let offset = self.next_slot as usize * self.layout.capacity;
        // SAFETY: the slot lies within the ring (`next_slot < slots`), and `used <= capacity`;
        // no launch reads it now (every launch that used it has fetched it, checked above; the
        // launch that will is made after this returns). Plain writes: the launch call that
        // follows is where the driver makes them visible to the device.
        unsafe {
            std::ptr::copy_nonoverlapping(
                self.staged.as_ptr().cast::<u8>(),
                self.host.add(offset),
                self.layout.used,
            )
        };
        std::sync::atomic::fence(Ordering::Release);
        Ok(())
    }

    /// Counts a launch whose launch call succeeded: the device will fetch the slot just written.
    #[inline]
    fn launched(&mut self) {
        self.seq += 1;
        self.next_slot += 1;
        if self.next_slot == self.layout.slots {
            self.next_slot = 0;
        }
    }

    /// Waits until `needed` launches have fetched (see [`Ring::publish`]).
    #[cold]
    #[inline(never)]
    fn wait_consumed(
        &mut self,
        needed: u64,
        mut all_done: impl FnMut() -> Result<bool>,
    ) -> Result<()> {
        let start = Instant::now();
        let mut next_check = Duration::from_micros(200);
        let mut round = 0u32;
        loop {
            // Spin first (the oldest launch is usually about to start), then give the CPU away.
            match round {
                0..64 => std::hint::spin_loop(),
                64..128 => std::thread::yield_now(),
                _ => std::thread::sleep(Duration::from_micros(20)),
            }
            round = round.saturating_add(1);
            let seen = self.consumed();
            if seen >= needed {
                self.consumed_seen = seen;
                return Ok(());
            }
            if start.elapsed() < next_check {
                continue;
            }
            next_check = start.elapsed() + Duration::from_millis(1);
            if all_done()? {
                // Every launch has completed, so every fetch has run: read again, after them.
                let seen = self.consumed();
                if seen >= needed {
                    self.consumed_seen = seen;
                    return Ok(());
                }
                return Err(Error::Invalid {
                    node: "launch".into(),
                    reason: format!(
                        "the executable's indirect values: {} launches were made but the device \
                         fetched values for {seen} only, though every launch has completed (was \
                         the fetch node disabled, or the raw executable launched directly?)",
                        self.seq
                    ),
                });
            }
        }
    }
}

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
                slots: layout.slots,
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

/// The fetch kernel's arguments, in its parameter order.
#[derive(Debug, Clone, Copy)]
pub(crate) struct FetchArgs {
    ring: sys::CUdeviceptr,
    current: sys::CUdeviceptr,
    counter: sys::CUdeviceptr,
    consumed: sys::CUdeviceptr,
    slots: u32,
    stride: u32,
    words: u32,
}

/// The fetch node's parameters (a kernel node).
#[derive(Debug, Clone, Copy)]
pub(crate) struct FetchParams {
    func: sys::CUfunction,
    ctx: sys::CUcontext,
    args: FetchArgs,
}

/// The driver's kernel node parameters of type `$ty` for `$params` (a `FetchParams`) with the
/// `kernelParams` array `$args`. (`CUDA_KERNEL_NODE_PARAMS_v2` and `_v3` have the same fields.)
macro_rules! fetch_launch {
    ($ty:ident, $params:expr, $args:expr) => {{
        let p: &FetchParams = $params;
        sys::$ty {
            func: p.func,
            gridDimX: 1,
            gridDimY: 1,
            gridDimZ: 1,
            blockDimX: FETCH_THREADS,
            blockDimY: 1,
            blockDimZ: 1,
            sharedMemBytes: 0,
            kernelParams: $args,
            extra: std::ptr::null_mut(),
            kern: std::ptr::null_mut(),
            ctx: p.ctx,
        }
    }};
}

impl FetchParams {
    /// Calls `f` with the `kernelParams` array of the arguments, valid during the call.
    fn with_args<R>(&mut self, f: impl FnOnce(&Self, *mut *mut std::ffi::c_void) -> R) -> R {
        let mut a = self.args;
        let mut ptrs: [*mut std::ffi::c_void; 7] = [
            (&mut a.ring as *mut u64).cast(),
            (&mut a.current as *mut u64).cast(),
            (&mut a.counter as *mut u64).cast(),
            (&mut a.consumed as *mut u64).cast(),
            (&mut a.slots as *mut u32).cast(),
            (&mut a.stride as *mut u32).cast(),
            (&mut a.words as *mut u32).cast(),
        ];
        f(self, ptrs.as_mut_ptr())
    }

    /// Sends these parameters to `node`, the fetch node of a definition graph.
    ///
    /// # Safety
    /// `node` is a live kernel node launching the fetch kernel.
    pub(crate) unsafe fn set_on(mut self, node: sys::CUgraphNode) -> Result<()> {
        self.with_args(|p, args| {
            let raw = fetch_launch!(CUDA_KERNEL_NODE_PARAMS_v2, p, args);
            // SAFETY: the caller's promise; `raw` and its argument array are valid for the call.
            unsafe { result::graph::kernel_node_set_params(node, &raw) }
        })
    }
}

impl NodeParams for FetchParams {
    const KIND: NodeKind = NodeKind::Kernel;

    fn kernel(&self) -> crate::kernel::KernelContract {
        // No typed handle updates the fetch node.
        crate::kernel::KernelContract::untyped(self.func)
    }

    fn with_raw<R>(&mut self, f: impl FnOnce(&mut sys::CUgraphNodeParams) -> R) -> R {
        self.with_args(|p, args| {
            let mut raw = crate::node::node_params(sys::CUgraphNodeType::CU_GRAPH_NODE_TYPE_KERNEL);
            raw.__bindgen_anon_1.kernel = fetch_launch!(CUDA_KERNEL_NODE_PARAMS_v3, p, args);
            f(&mut raw)
        })
    }

    unsafe fn add_to(
        &mut self,
        graph: sys::CUgraph,
        deps: &[sys::CUgraphNode],
    ) -> Result<sys::CUgraphNode> {
        self.with_args(|p, args| {
            let raw = fetch_launch!(CUDA_KERNEL_NODE_PARAMS_v2, p, args);
            // SAFETY: the caller's promise; `raw` and its argument array are valid for the call.
            unsafe { result::graph::add_kernel_node(graph, deps, &raw) }
        })
    }
}

/// Where a graph's nodes may read indirect values from: the block `block`, after the fetch node
/// `fetch` (`None` in a conditional body whose conditional node is ordered after it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct IndirectScope {
    pub(crate) block: u64,
    pub(crate) fetch: Option<u32>,
}

/// Why a use of an indirect value of block `block` is refused in a graph of scope `scope`, if
/// it is.
pub(crate) fn foreign_block(scope: Option<IndirectScope>, block: u64) -> Option<&'static str> {
    match scope {
        Some(s) if s.block == block => None,
        Some(_) => Some(
            "an indirect value of another graph: a key works only in the graph that made it \
             (and in that graph's conditional bodies)",
        ),
        None => Some(
            "an indirect value of another graph: this graph has no indirect values (a key works \
             only in the graph that made it)",
        ),
    }
}

/// A key of another graph's (or executable's) indirect values, as an error of `call`.
#[cold]
pub(crate) fn foreign_key(call: &str) -> Error {
    Error::Invalid {
        node: call.into(),
        reason: "an indirect value of another graph: a key works only with the graph that made \
                 it and that graph's executable"
            .into(),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts_round_up_and_refuse_what_does_not_fit() {
        let l = layout(IndirectOptions::default()).unwrap();
        assert_eq!((l.capacity, l.slots, l.used), (256, 64, 0));
        assert_eq!(l.device_bytes, 256 + 16);
        assert_eq!(l.host_bytes, 64 * 256 + 64);
        let l = layout(IndirectOptions::default().with_capacity(1).with_slots(3)).unwrap();
        assert_eq!(l.capacity, 16);
        // 48 bytes of ring, the consumed word on the next cache line.
        assert_eq!(l.host_bytes, 128);
        assert!(l.host_bytes >= l.device_bytes);
        assert!(layout(IndirectOptions::default().with_slots(0)).is_err());
        assert!(layout(IndirectOptions::default().with_capacity(usize::MAX)).is_err());
        assert!(layout(
            IndirectOptions::default()
                .with_capacity(1 << 20)
                .with_slots(1 << 13)
        )
        .is_err());
    }

    #[test]
    fn values_are_placed_aligned_and_within_capacity() {
        // u8, then f64, then u32: padding before the f64 only.
        assert_eq!(place(0, 1, 1, 16), Some((0, 1)));
        assert_eq!(place(1, 8, 8, 16), Some((8, 16)));
        assert_eq!(place(16, 4, 4, 16), None);
        assert_eq!(place(16, 4, 4, 32), Some((16, 20)));
        assert_eq!(place(3, 16, 16, 32), Some((16, 32)));
        assert_eq!(place(usize::MAX - 1, 4, 4, usize::MAX), None);
    }

    /// The host's side of the protocol against a simulated device on another thread, which does
    /// what the fetch kernel does: waits for launch `c` to be made (the launch call), reads slot
    /// `c % slots`, publishes `consumed = c + 1`. It falls behind now and then, so the host
    /// waits for slots; every launch must read exactly the values set before it.
    #[test]
    fn a_simulated_device_reads_each_launch_s_own_values() {
        let hash = |c: u64| c.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x5555;
        for (slots, launches) in [(1u32, 3_000u64), (2, 3_000), (4, 10_000), (64, 20_000)] {
            let options = IndirectOptions::default()
                .with_capacity(32)
                .with_slots(slots);
            let layout = layout(options).unwrap();
            let mut host = vec![Chunk([MaybeUninit::new(0); MAX_ALIGN]); layout.host_bytes / 16];
            let base = host.as_mut_ptr().cast::<u8>();
            let mut ring = Ring::new(base, layout);
            let (a, b) = (ring.place::<u32>().unwrap(), ring.place::<u64>().unwrap());
            assert_eq!((a, b, ring.layout.used), (0, 8, 16));
            // What the launch call tells the device: how many launches were made.
            let made = AtomicU64::new(0);
            let (base_addr, capacity) = (base as usize, layout.capacity);
            let consumed_at = consumed_offset(&layout);
            std::thread::scope(|scope| {
                let device = scope.spawn(|| {
                    let base = base_addr as *mut u8;
                    let mut wrong = Vec::new();
                    for c in 0..launches {
                        while made.load(Ordering::Acquire) <= c {
                            std::hint::spin_loop();
                        }
                        if c % 97 == 0 {
                            // Fall behind: the host fills the ring and waits.
                            std::thread::sleep(Duration::from_micros(200));
                        }
                        let slot = (c % slots as u64) as usize * capacity;
                        // SAFETY: within the host memory; the host wrote this slot before the
                        // launch was made (ordered by `made`), and writes it again only after
                        // the store to `consumed` below.
                        let (got_a, got_b) = unsafe {
                            (
                                base.add(slot + a).cast::<u32>().read(),
                                base.add(slot + b).cast::<u64>().read(),
                            )
                        };
                        if (got_a, got_b) != (c as u32, hash(c)) {
                            wrong.push(c);
                        }
                        // SAFETY: the consumed word, 8-byte aligned, only ever accessed
                        // atomically while the threads run.
                        let consumed =
                            unsafe { AtomicU64::from_ptr(base.add(consumed_at).cast::<u64>()) };
                        consumed.store(c + 1, Ordering::Release);
                    }
                    wrong
                });
                for c in 0..launches {
                    // SAFETY: offsets `place` gave for a u32 and a u64.
                    unsafe {
                        ring.set(a, c as u32);
                        ring.set(b, hash(c));
                    }
                    ring.publish(|| Ok(false)).unwrap();
                    ring.launched();
                    made.store(c + 1, Ordering::Release);
                }
                let wrong = device.join().unwrap();
                assert!(
                    wrong.is_empty(),
                    "{slots} slots: {} launches read other values, first {:?}",
                    wrong.len(),
                    wrong.first()
                );
            });
            assert_eq!(ring.seq, launches);
            drop(host);
        }
    }

    #[test]
    fn a_wait_for_a_fetch_that_never_comes_ends_in_an_error_once_all_is_done() {
        let layout = layout(IndirectOptions::default().with_slots(2)).unwrap();
        let mut host = vec![Chunk([MaybeUninit::new(0); MAX_ALIGN]); layout.host_bytes / 16];
        let mut ring = Ring::new(host.as_mut_ptr().cast(), layout);
        ring.place::<u32>().unwrap();
        for _ in 0..2 {
            ring.publish(|| Ok(false)).unwrap();
            ring.launched();
        }
        // Two launches made, none fetched (a device that never runs the fetch): the third
        // launch needs slot 0 back, and the driver says every launch is over.
        let mut asked = 0;
        let third = ring.publish(|| {
            asked += 1;
            Ok(asked > 2)
        });
        assert!(matches!(third, Err(Error::Invalid { .. })), "{third:?}");
        assert_eq!(asked, 3);
        // An error from the driver ends the wait with that error.
        let failed = ring.publish(|| {
            Err(Error::Capturing {
                what: "the test".into(),
            })
        });
        assert!(matches!(failed, Err(Error::Capturing { .. })), "{failed:?}");
        drop(host);
    }

    #[test]
    fn the_fetch_kernel_is_named_as_its_ptx_says() {
        let ptx = FETCH_PTX.to_str().unwrap();
        let name = FETCH_NAME.to_str().unwrap();
        assert!(ptx.contains(&format!(".visible .entry {name}(")));
        // Seven parameters, in the order `FetchParams` passes them.
        let params: Vec<&str> = ptx
            .lines()
            .filter_map(|l| l.trim().strip_prefix(".param "))
            .collect();
        assert_eq!(
            params
                .iter()
                .map(|p| p.split_whitespace().next().unwrap())
                .collect::<Vec<_>>(),
            [".u64", ".u64", ".u64", ".u64", ".u32", ".u32", ".u32"]
        );
        assert_eq!(std::mem::size_of::<FetchArgs>(), 4 * 8 + 3 * 4 + 4);
    }
}
