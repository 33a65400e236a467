//! The fetch kernel (its PTX, loaded once per context) and the kernel node that launches it
//! at the start of each launch.

use std::ffi::CStr;
use std::marker::PhantomData;
use std::sync::{Arc, Mutex, Weak};

use cudarc::driver::{sys, CudaContext};

use super::staged::Staged;
use crate::driver::{named, result};
use crate::error::Result;
use crate::node::{NodeKind, NodeParams};

/// The ring's fetch kernel, `cudagraph_indirect_fetch(ring, current, counter, consumed, slots,
/// stride, words)`, one block: see [`FETCH_PTX`].
macro_rules! ring_fetch_entry {
    () => {
        "
// Publishes how many launches came before this one, copies slot (counter % slots) of the ring
// into the current block, then counts the launch.
.visible .entry cudagraph_indirect_fetch(
	.param .u64 ring,      // mapped page-locked host memory: `slots` slots of `stride` bytes
	.param .u64 current,   // device memory: the block the graph's kernels read
	.param .u64 counter,   // device memory: u64, how many launches fetched so far
	.param .u64 consumed,  // mapped page-locked host memory: u64, launches known complete
	.param .u32 slots,     // slots in the ring, at least 2
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
	// *consumed = c, by thread 0, before anything else: the c launches before this one have
	// completed (this one started after them), so their fetches' reads of the ring are over and
	// their slots are free. Publishing the earlier launches, not this one, needs no fence (a
	// system-scope fence after the reads cost about 0.4 us per launch on an H200), and the
	// store runs beside the copy instead of after it.
	mov.u32 	%r6, %tid.x;
	setp.ne.u32 	%p2, %r6, 0;
	@!%p2 st.volatile.global.u64 	[%rd4], %rd5;
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
	@%p2 bra 	DONE;                       // thread 0 alone:
	add.u64 	%rd15, %rd5, 1;
	st.global.u64 	[%rd3], %rd15;           // *counter = c + 1, for the next launch
DONE:
	ret;
}
"
    };
}

/// A put kernel, `cudagraph_indirect_put_<bytes>(current, words, values)`, one block: copies
/// the first `words` 8-byte words of its parameter `values` (`bytes` bytes) into the current
/// block. One entry per size of parameter, since a kernel's parameters have fixed sizes and the
/// driver copies all of them at every update: a launch sends only the class of bytes in use.
macro_rules! put_entry {
    ($bytes:literal) => {
        concat!(
            "
.visible .entry cudagraph_indirect_put_",
            stringify!($bytes),
            "(
	.param .u64 current,   // device memory: the block the graph's kernels read
	.param .u32 words,     // 8-byte words to copy
	.param .align 16 .b8 values[",
            stringify!($bytes),
            "]
)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<4>;
	.reg .b64 	%rd<8>;

	ld.param.u64 	%rd1, [current];
	ld.param.u32 	%r1, [words];
	cvta.to.global.u64 	%rd1, %rd1;
	mov.u64 	%rd2, values;                // the parameter's address in the .param space
	mov.u32 	%r2, %tid.x;                 // i = threadIdx.x
	mov.u32 	%r3, %ntid.x;                // step = blockDim.x
COPY:
	setp.ge.u32 	%p1, %r2, %r1;
	@%p1 bra 	DONE;                       // while (i < words)
	mul.wide.u32 	%rd3, %r2, 8;           // byte offset of word i
	add.u64 	%rd4, %rd2, %rd3;
	ld.param.u64 	%rd5, [%rd4];
	add.u64 	%rd6, %rd1, %rd3;
	st.global.u64 	[%rd6], %rd5;            // current[i] = values[i]
	add.u32 	%r2, %r2, %r3;               // i += step
	bra 	COPY;
DONE:
	ret;
}
"
        )
    };
}

/// The put kernel of blocks of at most 8 bytes in use, the common case (a step number, a
/// scale): `cudagraph_indirect_put_8(current, values)`, one thread, one store. Its 16 bytes of
/// parameters (a general put kernel's take 32) and its straight-line code cost the GPU about
/// 0.2 µs less per launch with the parameter updated (H200, CUDA C probe).
macro_rules! put_8_entry {
    () => {
        "
.visible .entry cudagraph_indirect_put_8(
	.param .u64 current,   // device memory: the block the graph's kernels read
	.param .align 8 .b8 values[8]
)
{
	.reg .b64 	%rd<3>;

	ld.param.u64 	%rd1, [current];
	cvta.to.global.u64 	%rd1, %rd1;
	ld.param.u64 	%rd2, [values];
	st.global.u64 	[%rd1], %rd2;            // current[0] = values[0]
	ret;
}
"
    };
}

/// The fetch kernels: the ring's, and a put kernel per size of parameter ([`PUT_BYTES`]).
/// PTX ISA 7.0 for `sm_70`: the driver compiles it for the GPU at hand (PTX for an older target
/// runs on every later GPU), so nothing but the driver is needed. Checked with `ptxas` of CUDA
/// 13 for `sm_80`, `sm_90`, `sm_100` and `sm_120`.
const FETCH_PTX: &CStr = match CStr::from_bytes_with_nul(
    concat!(
        ".version 7.0\n.target sm_70\n.address_size 64\n",
        ring_fetch_entry!(),
        put_8_entry!(),
        put_entry!(16),
        put_entry!(32),
        put_entry!(64),
        put_entry!(128),
        put_entry!(256),
        put_entry!(512),
        put_entry!(1024),
        put_entry!(2048),
        "\0"
    )
    .as_bytes(),
) {
    Ok(ptx) => ptx,
    Err(_) => panic!("the PTX holds no NUL before its end"),
};

/// The sizes of the put kernels' `values` parameter, smallest first: powers of two from 8 to
/// [`MAX_PARAMETER_CAPACITY`].
const PUT_BYTES: [usize; 9] = [8, 16, 32, 64, 128, 256, 512, 1024, 2048];

/// The kernels' names in [`FETCH_PTX`]: the ring's fetch, then the put kernels of [`PUT_BYTES`].
const NAMES: [&CStr; 10] = [
    c"cudagraph_indirect_fetch",
    c"cudagraph_indirect_put_8",
    c"cudagraph_indirect_put_16",
    c"cudagraph_indirect_put_32",
    c"cudagraph_indirect_put_64",
    c"cudagraph_indirect_put_128",
    c"cudagraph_indirect_put_256",
    c"cudagraph_indirect_put_512",
    c"cudagraph_indirect_put_1024",
    c"cudagraph_indirect_put_2048",
];

/// Threads of the ring fetch's one block: with the default capacity (32 words), every thread
/// copies at most one word.
const FETCH_THREADS: u32 = 128;

/// The fetch kernels of one context.
#[derive(Debug, Clone, Copy)]
pub(super) struct FetchFunctions {
    /// `cudagraph_indirect_fetch`.
    ring: sys::CUfunction,
    /// `cudagraph_indirect_put_<PUT_BYTES[i]>`.
    put: [sys::CUfunction; PUT_BYTES.len()],
}

impl FetchFunctions {
    /// The put kernel whose parameter holds `used` bytes (at most
    /// [`MAX_PARAMETER_CAPACITY`]), and the size of that parameter: the smallest that fits.
    fn put_for(&self, used: usize) -> (sys::CUfunction, usize) {
        let class = PUT_BYTES
            .iter()
            .position(|&b| b >= used)
            .expect("blocks delivered as parameters hold at most MAX_PARAMETER_CAPACITY bytes");
        (self.put[class], PUT_BYTES[class])
    }
}

/// The fetch kernels loaded in one context, kept loaded for as long as the context lives.
struct LoadedFetch {
    /// The context (a weak reference: its address identifies it while any `Weak` is alive).
    ctx: Weak<CudaContext>,
    funcs: FetchFunctions,
}

// SAFETY: a function handle is an address, usable from any thread of the process.
unsafe impl Send for LoadedFetch {}

/// The fetch kernels in `ctx`, loaded on first use (`cuModuleLoadData`, a JIT compilation of a
/// few milliseconds at most) and kept for the life of the context: the driver unloads them with
/// the context, and entries of contexts that are gone are dropped here.
pub(super) fn fetch_functions(ctx: &Arc<CudaContext>) -> Result<FetchFunctions> {
    static LOADED: Mutex<Vec<LoadedFetch>> = Mutex::new(Vec::new());
    let mut loaded = LOADED.lock().unwrap_or_else(|e| e.into_inner());
    loaded.retain(|l| l.ctx.strong_count() > 0);
    let weak = Arc::downgrade(ctx);
    if let Some(l) = loaded.iter().find(|l| Weak::ptr_eq(&l.ctx, &weak)) {
        return Ok(l.funcs);
    }
    named("cuCtxSetCurrent", ctx.bind_to_thread())?;
    // SAFETY: `ctx` is current on this thread; the module stays loaded until the context goes.
    let (_module, [ring, put @ ..]) = unsafe { result::module::load_ptx(FETCH_PTX, NAMES) }?;
    let funcs = FetchFunctions { ring, put };
    loaded.push(LoadedFetch { ctx: weak, funcs });
    Ok(funcs)
}

/// The ring fetch's arguments, in its parameter order.
#[derive(Debug, Clone, Copy)]
pub(crate) struct RingArgs {
    pub(super) ring: sys::CUdeviceptr,
    pub(super) current: sys::CUdeviceptr,
    pub(super) counter: sys::CUdeviceptr,
    pub(super) consumed: sys::CUdeviceptr,
    pub(super) slots: u32,
    pub(super) stride: u32,
    pub(super) words: u32,
}

/// A put kernel's arguments, in its parameter order (the 8-byte kernel's: `current`, `values`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct PutArgs {
    pub(super) current: sys::CUdeviceptr,
    pub(super) words: u32,
    /// The size of the kernel's `values` parameter.
    pub(super) bytes: usize,
    /// The staged values: at least as many bytes as the kernel's `values` parameter, 16-byte
    /// aligned, borrowed for as long as the [`FetchParams`] holding these arguments.
    pub(super) values: *const u8,
}

/// The arguments of the fetch kernel a block's delivery uses.
#[derive(Debug, Clone, Copy)]
pub(crate) enum FetchArgs {
    Ring(RingArgs),
    Put(PutArgs),
}

/// The fetch node's parameters (a kernel node). A put kernel's point at the staged values,
/// which they borrow (`'s`): the driver reads the values wherever these are sent.
#[derive(Debug, Clone, Copy)]
pub(crate) struct FetchParams<'s> {
    func: sys::CUfunction,
    threads: u32,
    ctx: sys::CUcontext,
    args: FetchArgs,
    staged: PhantomData<&'s Staged>,
}

/// The driver's kernel node parameters of type `$ty` for `$params` (a `FetchParams`) with the
/// `kernelParams` array `$args`. (`CUDA_KERNEL_NODE_PARAMS_v2` and `_v3` have the same fields.)
macro_rules! fetch_launch {
    ($ty:ident, $params:expr, $args:expr) => {{
        let p: &FetchParams<'_> = $params;
        sys::$ty {
            func: p.func,
            gridDimX: 1,
            gridDimY: 1,
            gridDimZ: 1,
            blockDimX: p.threads,
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

impl<'s> FetchParams<'s> {
    /// The ring fetch's parameters.
    pub(super) fn ring(funcs: &FetchFunctions, ctx: sys::CUcontext, args: RingArgs) -> Self {
        Self {
            func: funcs.ring,
            threads: FETCH_THREADS,
            ctx,
            args: FetchArgs::Ring(args),
            staged: PhantomData,
        }
    }

    /// The parameters of the put kernel that copies the `used` bytes of `staged` (a multiple of
    /// 8, at most [`MAX_PARAMETER_CAPACITY`]) into `current`.
    ///
    /// Panics if `staged` holds fewer bytes than the kernel's parameter (the smallest size of
    /// [`PUT_BYTES`] that holds `used`), which the driver reads whole: a block's layout makes its
    /// capacity a power of two that holds `used` (see `layout`).
    pub(super) fn put(
        funcs: &FetchFunctions,
        ctx: sys::CUcontext,
        current: sys::CUdeviceptr,
        used: usize,
        staged: &'s Staged,
    ) -> Self {
        let (func, bytes) = funcs.put_for(used);
        assert!(
            bytes <= staged.capacity(),
            "a put kernel's parameter of {bytes} bytes from a staged copy of {}",
            staged.capacity()
        );
        // One thread per word in use, up to four warps (a thread per word measured cheaper than
        // a whole warp for a few words).
        let threads = (used / 8).clamp(1, 128) as u32;
        Self {
            func,
            threads,
            ctx,
            args: FetchArgs::Put(PutArgs {
                current,
                words: (used / 8) as u32,
                bytes,
                // 16-byte aligned, and at least `bytes` long (checked above).
                values: staged.as_ptr(),
            }),
            staged: PhantomData,
        }
    }

    /// Calls `f` with the `kernelParams` array of the arguments, valid during the call.
    fn with_args<R>(&mut self, f: impl FnOnce(&Self, *mut *mut std::ffi::c_void) -> R) -> R {
        match self.args {
            FetchArgs::Ring(mut a) => {
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
            FetchArgs::Put(mut a) => {
                // The driver reads the parameter's `bytes` bytes where `values` points: the
                // staged copy, borrowed by `self` and at least that long (`put`). The 8-byte put
                // kernel takes no word count.
                let mut ptrs: [*mut std::ffi::c_void; 3] = [
                    (&mut a.current as *mut u64).cast(),
                    (&mut a.words as *mut u32).cast(),
                    a.values.cast_mut().cast(),
                ];
                if a.bytes == 8 {
                    // `(current, values)`: the driver reads the first two entries only.
                    ptrs[1] = ptrs[2];
                }
                f(self, ptrs.as_mut_ptr())
            }
        }
    }

    /// Sends these parameters to `node`, the fetch node of a definition graph.
    ///
    /// # Safety
    /// `node` is a live kernel node launching a fetch kernel.
    pub(crate) unsafe fn set_on(mut self, node: sys::CUgraphNode) -> Result<()> {
        self.with_args(|p, args| {
            let raw = fetch_launch!(CUDA_KERNEL_NODE_PARAMS_v2, p, args);
            // SAFETY: the caller's promise; `raw` and its argument array are valid for the call.
            unsafe { result::graph::kernel_node_set_params(node, &raw) }
        })
    }

    /// Sends these parameters to `node` of the executable `exec`, for its next launches.
    ///
    /// # Safety
    /// `exec` is live and `node` is its graph's fetch node, launching a fetch kernel (CUDA lets
    /// an update switch the node to another function of the same context, such as the put
    /// kernel of another size).
    pub(crate) unsafe fn set_on_exec(
        mut self,
        exec: sys::CUgraphExec,
        node: sys::CUgraphNode,
    ) -> Result<()> {
        self.with_args(|p, args| {
            let raw = fetch_launch!(CUDA_KERNEL_NODE_PARAMS_v2, p, args);
            // SAFETY: the caller's promise; `raw` and its argument array are valid for the call.
            unsafe { result::exec::kernel_node_set_params(exec, node, &raw) }
        })
    }
}

impl NodeParams for FetchParams<'_> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::indirect::layout::MAX_PARAMETER_CAPACITY;

    /// The `.param` lines of the entry `name` in the PTX, in order: their types.
    fn params_of(name: &CStr) -> Vec<String> {
        let ptx = FETCH_PTX.to_str().unwrap();
        let start = ptx
            .find(&format!(".visible .entry {}(", name.to_str().unwrap()))
            .unwrap_or_else(|| panic!("{name:?} is not in the PTX"));
        ptx[start..]
            .lines()
            .skip(1)
            .take_while(|l| l.trim() != ")")
            .filter_map(|l| l.trim().strip_prefix(".param "))
            .map(|p| p.split_whitespace().next().unwrap().to_owned())
            .collect()
    }

    #[test]
    fn the_fetch_kernels_are_named_and_typed_as_their_ptx_says() {
        // The ring fetch: seven parameters, in the order `RingArgs` passes them.
        assert_eq!(
            params_of(NAMES[0]),
            [".u64", ".u64", ".u64", ".u64", ".u32", ".u32", ".u32"]
        );
        assert_eq!(std::mem::size_of::<RingArgs>(), 4 * 8 + 3 * 4 + 4);
        // The put kernels: (current, words, values[bytes]), one per size, named by it; the
        // 8-byte one takes no word count.
        for (name, bytes) in NAMES[1..].iter().zip(PUT_BYTES) {
            assert!(name.to_str().unwrap().ends_with(&format!("_{bytes}")));
            let want: &[&str] = match bytes {
                8 => &[".u64", ".align"],
                _ => &[".u64", ".u32", ".align"],
            };
            assert_eq!(params_of(name), want);
            let ptx = FETCH_PTX.to_str().unwrap();
            let entry = &ptx[ptx.find(name.to_str().unwrap()).unwrap()..];
            assert!(entry.contains(&format!(".b8 values[{bytes}]")), "{name:?}");
        }
        assert_eq!(PUT_BYTES.last(), Some(&MAX_PARAMETER_CAPACITY));
        assert!(PUT_BYTES.windows(2).all(|w| w[1] == 2 * w[0]));
    }

    #[test]
    fn a_block_is_put_with_the_smallest_parameter_that_holds_it() {
        let f = |i: usize| (i + 1) as sys::CUfunction;
        let funcs = fake_functions();
        for (used, bytes) in [(0, 8), (8, 8), (16, 16), (24, 32), (256, 256), (264, 512)] {
            let (func, got) = funcs.put_for(used);
            assert_eq!(got, bytes, "{used} bytes");
            assert_eq!(func, f(PUT_BYTES.iter().position(|&b| b == bytes).unwrap()));
        }
        assert_eq!(
            funcs.put_for(MAX_PARAMETER_CAPACITY).1,
            MAX_PARAMETER_CAPACITY
        );
    }

    fn fake_functions() -> FetchFunctions {
        let f = |i: usize| (i + 1) as sys::CUfunction;
        FetchFunctions {
            ring: f(100),
            put: std::array::from_fn(f),
        }
    }

    /// What the driver reads from the `kernelParams` array of `p`, a put kernel's of `n`
    /// parameters: `current`, the word count (for `n == 3`), and where the values are.
    fn put_args(p: &mut FetchParams<'_>, n: usize) -> (u64, Option<u32>, *const u8) {
        p.with_args(|_, args| {
            // SAFETY: `with_args` passes an array of (at least) the kernel's `n` parameters,
            // pointing at a u64, then for three a u32, then the values, valid during the call.
            unsafe {
                let args = std::slice::from_raw_parts(args, n);
                let words = (n == 3).then(|| *args[1].cast::<u32>());
                (
                    *args[0].cast::<u64>(),
                    words,
                    args[n - 1].cast_const().cast(),
                )
            }
        })
    }

    #[test]
    fn put_parameters_send_the_staged_copy_in_the_kernel_s_order() {
        let funcs = fake_functions();
        let staged = Staged::new(64);
        let values = staged.as_ptr();
        let null = std::ptr::null_mut();
        // 24 bytes in use: the 32-byte kernel, (current, words, values), a thread per word.
        let mut p = FetchParams::put(&funcs, null, 0x1000, 24, &staged);
        assert_eq!((p.func, p.threads), (funcs.put[2], 3));
        assert_eq!(put_args(&mut p, 3), (0x1000, Some(3), values));
        // At most 8 bytes: the 8-byte kernel, (current, values), one thread.
        for used in [0, 8] {
            let mut p = FetchParams::put(&funcs, null, 0x1000, used, &staged);
            assert_eq!((p.func, p.threads), (funcs.put[0], 1), "{used} bytes");
            assert_eq!(put_args(&mut p, 2), (0x1000, None, values), "{used} bytes");
        }
        // The largest block: 256 words, four warps looping.
        let full = Staged::new(MAX_PARAMETER_CAPACITY);
        let mut p = FetchParams::put(&funcs, null, 0x2000, MAX_PARAMETER_CAPACITY, &full);
        assert_eq!((p.func, p.threads), (funcs.put[8], 128));
        assert_eq!(put_args(&mut p, 3), (0x2000, Some(256), full.as_ptr()));
    }

    /// Every block delivered as parameters is staged in a copy that holds the parameter of the
    /// put kernel of any number of bytes it may have in use: `put` never refuses one.
    #[test]
    fn every_parameter_layout_holds_the_parameter_of_its_bytes_in_use() {
        use crate::indirect::layout::{layout, IndirectOptions};
        let funcs = fake_functions();
        for asked in 0..=MAX_PARAMETER_CAPACITY {
            let l = layout(IndirectOptions::default().with_capacity(asked)).unwrap();
            for used in (0..=l.capacity).step_by(8) {
                let (_, bytes) = funcs.put_for(used);
                assert!(
                    bytes <= l.capacity,
                    "{asked} asked, {used} used: {bytes} bytes"
                );
            }
        }
    }

    /// The driver reads the whole parameter: a staged copy shorter than it is refused, not read
    /// past its end.
    #[test]
    #[should_panic(expected = "a put kernel's parameter of 32 bytes from a staged copy of 16")]
    fn a_staged_copy_shorter_than_the_parameter_is_refused() {
        let staged = Staged::new(16);
        let _ = FetchParams::put(&fake_functions(), std::ptr::null_mut(), 0, 24, &staged);
    }
}
