//! The fetch kernel (its PTX, loaded once per context) and the kernel node that launches it
//! at the start of each launch.

use std::ffi::CStr;
use std::sync::{Arc, Mutex, Weak};

use cudarc::driver::{sys, CudaContext};

use crate::driver::result;
use crate::error::{Error, Result};
use crate::node::{NodeKind, NodeParams};

/// The fetch kernel: `cudagraph_indirect_fetch(ring, current, counter, consumed, slots, stride,
/// words)`, one block. PTX ISA 7.0 for `sm_70`: the driver compiles it for the GPU at hand
/// (PTX for an older target runs on every later GPU), so nothing but the driver is needed.
/// Checked with `ptxas` of CUDA 13 for `sm_80`, `sm_90`, `sm_100` and `sm_120`.
const FETCH_PTX: &CStr = c"
.version 7.0
.target sm_70
.address_size 64

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
pub(super) fn fetch_function(ctx: &Arc<CudaContext>) -> Result<sys::CUfunction> {
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

pub(super) fn bind(ctx: &CudaContext) -> Result<()> {
    ctx.bind_to_thread().map_err(|source| Error::Driver {
        call: "cuCtxSetCurrent",
        source,
    })
}

/// The fetch kernel's arguments, in its parameter order.
#[derive(Debug, Clone, Copy)]
pub(crate) struct FetchArgs {
    pub(super) ring: sys::CUdeviceptr,
    pub(super) current: sys::CUdeviceptr,
    pub(super) counter: sys::CUdeviceptr,
    pub(super) consumed: sys::CUdeviceptr,
    pub(super) slots: u32,
    pub(super) stride: u32,
    pub(super) words: u32,
}

/// The fetch node's parameters (a kernel node).
#[derive(Debug, Clone, Copy)]
pub(crate) struct FetchParams {
    pub(super) func: sys::CUfunction,
    pub(super) ctx: sys::CUcontext,
    pub(super) args: FetchArgs,
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

#[cfg(test)]
mod tests {
    use super::*;

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
