//! What the soundness programs (`tests/soundness/`) share: their kernels, a sentinel buffer that
//! shows whether a launch wrote memory it no longer owned, and raw driver graphs, the control each
//! program runs to show the attack it guards against still corrupts memory when nothing stops it.

use std::ffi::c_void;
use std::sync::Arc;

use cudagraph_runtime::cudarc::driver::{sys, CudaContext, CudaSlice, CudaStream, DevicePtr as _};
use cudagraph_runtime::{DevicePtr, DevicePtrMut, Kernel, KernelArgs, LaunchConfig};

use crate::{compile, function, read_back, Gpu};

/// The kernels the attacks launch (CUDA C, compiled with NVRTC).
pub const SRC: &str = r#"
extern "C" __global__ void late_fill(unsigned n, unsigned long long spin, unsigned value, unsigned* y) {
    long long start = clock64();
    while (clock64() - start < (long long)spin) {}
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = value;
}
extern "C" __global__ void fill_n(unsigned n, unsigned value, unsigned* y) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = value;
}
extern "C" __global__ void first_of_n(unsigned n, unsigned value, unsigned* y) {
    if (blockIdx.x == 0 && threadIdx.x == 0) y[0] = value;
}
extern "C" __global__ void value_first(unsigned long long v, unsigned* y) { y[0] = (unsigned)v; }
extern "C" __global__ void pointer_first(unsigned* y, unsigned long long v) { y[0] = (unsigned)v; }
extern "C" __global__ void copy_u32(unsigned n, const unsigned* x, unsigned* y) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i];
}
"#;

/// Elements of the buffers the attacks write.
pub const N: usize = 1024;
/// Clock cycles `late_fill` spins before it writes: long enough (about 0.1 s) that the host
/// frees the memory and hands it out again while the launch is still running.
pub const SPIN: u64 = 200_000_000;
/// What a sentinel buffer holds until something writes it.
pub const SENTINEL: u32 = 0x5e57_1e15;

/// `late_fill(n, spin, value, y)`: after `spin` cycles, `y[i] = value` for `i < n`.
pub type LateFill = Kernel<(u32, u64, u32, DevicePtrMut<u32>)>;
/// `fill_n(n, value, y)`: `y[i] = value` for `i < n`.
pub type FillN = Kernel<(u32, u32, DevicePtrMut<u32>)>;
/// `value_first(v, y)`: `y[0] = v`.
pub type ValueFirst = Kernel<(u64, DevicePtrMut<u32>)>;
/// `pointer_first(y, v)`: `y[0] = v`.
pub type PointerFirst = Kernel<(DevicePtrMut<u32>, u64)>;
/// `copy_u32(n, x, y)`: `y[i] = x[i]` for `i < n`.
pub type CopyU32 = Kernel<(u32, DevicePtr<u32>, DevicePtrMut<u32>)>;

/// The attacks' kernels, loaded. Each states what it may touch with [`Kernel::requires`]: the
/// attacks use them as a careful kernel author would, so what still goes wrong is the library's.
#[derive(Debug)]
pub struct Kernels {
    /// `late_fill`, `n` within `y`.
    pub late: LateFill,
    /// `fill_n`, `n` within `y`.
    pub fill: FillN,
    /// `first_of_n(n, value, y)`: `y[0] = value` whatever `n`; `y` at least one element. The
    /// parameter list of `fill_n`, with a check that rightly lets any `n` through.
    pub first: FillN,
    /// `value_first`, `y` at least one element.
    pub value_first: ValueFirst,
    /// `pointer_first`, `y` at least one element.
    pub pointer_first: PointerFirst,
    /// `copy_u32`, `n` within `x` and `y`.
    pub copy: CopyU32,
}

impl Kernels {
    /// Compiles [`SRC`] into `ctx` and loads its kernels.
    pub fn load(ctx: &Arc<CudaContext>) -> Self {
        let module = compile(ctx, SRC);
        // SAFETY: `late_fill` in `SRC` takes (unsigned, unsigned long long, unsigned, unsigned*),
        // writes y[i] for i < n only, and launches nothing; the check keeps n within y.
        let late = unsafe { LateFill::new(function(&module, "late_fill")) }
            .requires(|_, (n, _, _, y)| n as usize <= y);
        // SAFETY: `fill_n` takes (unsigned, unsigned, unsigned*), writes y[i] for i < n only,
        // and launches nothing; the check keeps n within y.
        let fill = unsafe { FillN::new(function(&module, "fill_n")) }
            .requires(|_, (n, _, y)| n as usize <= y);
        // SAFETY: `first_of_n` takes (unsigned, unsigned, unsigned*), writes y[0] only, and
        // launches nothing; the check keeps y non-empty.
        let first =
            unsafe { FillN::new(function(&module, "first_of_n")) }.requires(|_, (_, _, y)| y >= 1);
        // SAFETY: `value_first` takes (unsigned long long, unsigned*), writes y[0] only, and
        // launches nothing; the check keeps y non-empty.
        let value_first = unsafe { ValueFirst::new(function(&module, "value_first")) }
            .requires(|_, (_, y)| y >= 1);
        // SAFETY: `pointer_first` takes (unsigned*, unsigned long long), writes y[0] only, and
        // launches nothing; the check keeps y non-empty.
        let pointer_first = unsafe { PointerFirst::new(function(&module, "pointer_first")) }
            .requires(|_, (y, _)| y >= 1);
        // SAFETY: `copy_u32` takes (unsigned, const unsigned*, unsigned*), reads x[i] and writes
        // y[i] for i < n only, and launches nothing; the check keeps n within x and y.
        let copy = unsafe { CopyU32::new(function(&module, "copy_u32")) }
            .requires(|_, (n, x, y)| n as usize <= x.min(y));
        Self {
            late,
            fill,
            first,
            value_first,
            pointer_first,
            copy,
        }
    }
}

/// `n` elements of [`SENTINEL`] on `stream`: allocated after the memory an attack freed, so the
/// pool hands the attack's memory out again as (part of) this buffer.
pub fn sentinel(stream: &Arc<CudaStream>, n: usize) -> CudaSlice<u32> {
    stream
        .clone_htod(&vec![SENTINEL; n])
        .expect("allocating the sentinel")
}

/// How many elements of `s` something other than its upload wrote, once the device is idle.
pub fn overwritten(stream: &Arc<CudaStream>, s: &CudaSlice<u32>) -> usize {
    stream.context().synchronize().expect("synchronizing");
    read_back(stream, s)
        .iter()
        .filter(|&&v| v != SENTINEL)
        .count()
}

/// The device address of a cudarc slice, as a kernel argument takes it.
pub fn addr(stream: &Arc<CudaStream>, s: &CudaSlice<u32>) -> sys::CUdeviceptr {
    let (p, _sync) = s.device_ptr(stream);
    p
}

/// Panics naming `call` unless `r` is success.
fn ok(call: &str, r: sys::CUresult) {
    assert_eq!(r, sys::CUresult::CUDA_SUCCESS, "{call}");
}

/// A kernel argument of the raw path: the value the kernel's parameter holds.
#[derive(Debug, Clone, Copy)]
pub enum Arg {
    /// A 4-byte parameter (`unsigned`).
    U32(u32),
    /// An 8-byte parameter (`unsigned long long`, or a pointer).
    U64(u64),
}

/// Each argument in an 8-byte slot.
fn arg_values(args: &[Arg]) -> Vec<u64> {
    args.iter()
        .map(|a| match *a {
            Arg::U32(v) => u64::from(v),
            Arg::U64(v) => v,
        })
        .collect()
}

/// The kernel-parameter array for `values`: a 4-byte parameter reads the low half of its slot
/// (these are little-endian machines).
fn arg_pointers(values: &mut [u64]) -> Vec<*mut c_void> {
    values.iter_mut().map(|v| (v as *mut u64).cast()).collect()
}

/// A node of a [`RawGraph`].
#[derive(Debug, Clone, Copy)]
#[repr(transparent)]
pub struct RawNode(sys::CUgraphNode);

/// A CUDA graph made and launched with raw driver calls only: nothing keeps what its nodes use
/// alive, nothing orders it after other work, nothing checks its arguments.
#[derive(Debug)]
pub struct RawGraph {
    graph: sys::CUgraph,
    exec: sys::CUgraphExec,
    ctx: Arc<CudaContext>,
}

impl RawGraph {
    /// An empty graph in `gpu`'s context.
    pub fn new(gpu: &Gpu) -> Self {
        gpu.ctx.bind_to_thread().expect("binding the context");
        let mut graph = std::ptr::null_mut();
        // SAFETY: a valid out-pointer; flags must be 0.
        ok("cuGraphCreate", unsafe {
            sys::cuGraphCreate(&mut graph, 0)
        });
        Self {
            graph,
            exec: std::ptr::null_mut(),
            ctx: gpu.ctx.clone(),
        }
    }

    /// The raw graph.
    pub fn raw(&self) -> sys::CUgraph {
        self.graph
    }

    /// Adds a launch of `kernel` with `config` and `args` (unchecked) to `graph` (this graph, or a body graph
    /// of one of its conditional nodes) after `deps`.
    ///
    /// # Safety
    /// `graph` is live, and `deps` are its nodes.
    pub unsafe fn add_kernel_to<A: KernelArgs>(
        graph: sys::CUgraph,
        kernel: &Kernel<A>,
        config: &LaunchConfig,
        args: &[Arg],
        deps: &[RawNode],
    ) -> RawNode {
        let mut values = arg_values(args);
        let mut ptrs = arg_pointers(&mut values);
        let p = crate::raw::kernel_node_params(
            kernel.cu_function(),
            config,
            ptrs.as_mut_ptr(),
            std::ptr::null_mut(),
        );
        let mut node = std::ptr::null_mut();
        // SAFETY: a live graph and its nodes (the caller's promise); `p` and the values it
        // points to live through the call, which copies them.
        ok("cuGraphAddKernelNode", unsafe {
            sys::cuGraphAddKernelNode_v2(&mut node, graph, deps.as_ptr().cast(), deps.len(), &p)
        });
        RawNode(node)
    }

    /// Adds a launch of `kernel` with `config` and `args` (unchecked) after `deps`.
    pub fn add_kernel<A: KernelArgs>(
        &mut self,
        kernel: &Kernel<A>,
        config: &LaunchConfig,
        args: &[Arg],
        deps: &[RawNode],
    ) -> RawNode {
        // SAFETY: this value's live graph; `deps` are its nodes (made by the calls above).
        unsafe { Self::add_kernel_to(self.graph, kernel, config, args, deps) }
    }

    /// Adds an `if` conditional node whose handle defaults to 1 (the body runs at every launch)
    /// and returns its body graph, which the node owns.
    pub fn add_if(&mut self) -> sys::CUgraph {
        let ty = sys::CUgraphConditionalNodeType::CU_GRAPH_COND_TYPE_IF;
        // SAFETY: this value's live graph, of its live context.
        unsafe { crate::raw::add_conditional(self.graph, self.ctx.cu_ctx(), &[], ty, 1).1 }
    }

    /// Adds a host node calling `f(data)` after `deps`.
    pub fn add_host(
        &mut self,
        f: unsafe extern "C" fn(*mut c_void),
        data: *mut c_void,
        deps: &[RawNode],
    ) -> RawNode {
        let p = sys::CUDA_HOST_NODE_PARAMS {
            fn_: Some(f),
            userData: data,
        };
        let mut node = std::ptr::null_mut();
        // SAFETY: a live graph and its nodes; the caller keeps `data` valid for every launch.
        ok("cuGraphAddHostNode", unsafe {
            sys::cuGraphAddHostNode(&mut node, self.graph, deps.as_ptr().cast(), deps.len(), &p)
        });
        RawNode(node)
    }

    /// Sets the arguments of kernel node `node` of the executable to `kernel`, `config` and
    /// `args` (`cuGraphExecKernelNodeSetParams`), as the driver takes them: unchecked.
    pub fn set_kernel<A: KernelArgs>(
        &mut self,
        node: RawNode,
        kernel: &Kernel<A>,
        config: &LaunchConfig,
        args: &[Arg],
    ) -> sys::CUresult {
        let exec = self.instantiate();
        let mut values = arg_values(args);
        let mut ptrs = arg_pointers(&mut values);
        let p = crate::raw::kernel_node_params(
            kernel.cu_function(),
            config,
            ptrs.as_mut_ptr(),
            std::ptr::null_mut(),
        );
        // SAFETY: a live executable and its node (`RawNode`s come from this graph's adds);
        // `p` and the values it points to live through the call, which copies them.
        unsafe { sys::cuGraphExecKernelNodeSetParams_v2(exec, node.0, &p) }
    }

    /// Instantiates the graph (once).
    pub fn instantiate(&mut self) -> sys::CUgraphExec {
        if self.exec.is_null() {
            // SAFETY: a live graph and a valid out-pointer.
            ok("cuGraphInstantiate", unsafe {
                sys::cuGraphInstantiateWithFlags(&mut self.exec, self.graph, 0)
            });
        }
        self.exec
    }

    /// Launches the executable on `stream`.
    pub fn launch(&mut self, stream: &Arc<CudaStream>) {
        let exec = self.instantiate();
        // SAFETY: a live executable and stream of this context.
        ok("cuGraphLaunch", unsafe {
            sys::cuGraphLaunch(exec, stream.cu_stream())
        });
    }
}

impl Drop for RawGraph {
    fn drop(&mut self) {
        // Raw graphs are dropped on the test's thread, after their launches are waited for.
        let _ = self.ctx.synchronize();
        // SAFETY: the executable and graph this value made, destroyed once.
        unsafe {
            if !self.exec.is_null() {
                sys::cuGraphExecDestroy(self.exec);
            }
            sys::cuGraphDestroy(self.graph);
        }
    }
}
