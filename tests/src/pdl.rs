//! Kernels for programmatic dependent launch (`->(programmatic)` edges): each triggers its
//! dependents' launch first (`griddepcontrol.launch_dependents`,
//! `cudaTriggerProgrammaticLaunchCompletion()`), then waits for the kernels it depends on
//! (`griddepcontrol.wait`, `cudaGridDependencySynchronize()`) before it touches memory, so a
//! chain of them overlaps each launch with the previous kernel's tail and still runs in order.
//! Written as inline PTX (NVRTC needs no header for it), compiled for `compute_90`: Hopper is
//! the first architecture with the instructions.

use std::sync::Arc;

use cudagraph_runtime::cudarc::driver::{CudaContext, CudaModule};
use cudagraph_runtime::cudarc::nvrtc;
use cudagraph_runtime::{DevicePtrMut, Kernel};

use crate::function;

/// The kernels' CUDA C source.
pub const PDL_KERNELS: &str = r#"
extern "C" __global__ void pdl_add(unsigned n, unsigned k, unsigned* y) {
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
    asm volatile("griddepcontrol.wait;" ::: "memory");
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] += k;
}
extern "C" __global__ void pdl_double(unsigned n, unsigned* y) {
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
    asm volatile("griddepcontrol.wait;" ::: "memory");
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] *= 2u;
}
"#;

/// `pdl_add(n, k, y)`: its parameter list.
pub type PdlAddArgs = (u32, u32, DevicePtrMut<u32>);
/// `pdl_double(n, y)`.
pub type PdlDoubleArgs = (u32, DevicePtrMut<u32>);

/// The kernels of [`PDL_KERNELS`], loaded, typed and declared to wait.
#[derive(Debug)]
pub struct PdlKernels {
    /// `y[i] += k`, after waiting.
    pub add: Kernel<PdlAddArgs>,
    /// `y[i] *= 2`, after waiting.
    pub double: Kernel<PdlDoubleArgs>,
    /// `pdl_add` again, not declared to wait (for the memory checks' tests).
    pub add_unmarked: Kernel<PdlAddArgs>,
}

/// Compiles [`PDL_KERNELS`] for `compute_90` and loads it into `ctx`.
pub fn compile_pdl(ctx: &Arc<CudaContext>) -> Arc<CudaModule> {
    let options = nvrtc::CompileOptions {
        arch: Some("compute_90"),
        ..Default::default()
    };
    let ptx = nvrtc::compile_ptx_with_opts(PDL_KERNELS, options)
        .unwrap_or_else(|e| panic!("NVRTC failed: {e:?}"));
    ctx.load_module(ptx).expect("loading the PTX module")
}

impl PdlKernels {
    /// Compiles and loads the kernels.
    pub fn load(ctx: &Arc<CudaContext>) -> Self {
        let module = compile_pdl(ctx);
        // SAFETY: each type is the C parameter list of the kernel of that name (`unsigned` =
        // u32, `unsigned*` = DevicePtrMut<u32>); each touches `y[i]` only for `i < n`, and the
        // check keeps `n` within `y`. Every block of both kernels executes `griddepcontrol.wait`
        // unconditionally, before it touches memory (`waits_for_dependency`).
        unsafe {
            Self {
                add: Kernel::new(function(&module, "pdl_add"))
                    .requires(|_, (n, _, y)| n as usize <= y)
                    .waits_for_dependency(),
                double: Kernel::new(function(&module, "pdl_double"))
                    .requires(|_, (n, y)| n as usize <= y)
                    .waits_for_dependency(),
                add_unmarked: Kernel::new(function(&module, "pdl_add"))
                    .requires(|_, (n, _, y)| n as usize <= y),
            }
        }
    }
}
