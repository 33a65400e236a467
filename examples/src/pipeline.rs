//! The three-stage pipeline the memory-node examples (and tests) run: `t1 = 2x - 1;
//! t2 = relu(t1); t3 = t2 / 2 + 1/4; out = t3 + x`, its temporaries allocated and freed by the graph itself
//! (`alloc` and `free` nodes), so CUDA backs them with physical memory only while they live.

use std::sync::Arc;

use cudagraph_runtime::cudarc::driver::CudaContext;
use cudagraph_runtime::prelude::*;

use crate::{compile, Failure};

/// The pipeline's kernels, in CUDA C.
pub const KERNELS: &str = r#"
extern "C" __global__ void affine(unsigned n, float a, float b, const float* x, float* y) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + b;
}
extern "C" __global__ void relu(unsigned n, const float* x, float* y) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = fmaxf(x[i], 0.0f);
}
extern "C" __global__ void add(unsigned n, const float* x, const float* y, float* out) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = x[i] + y[i];
}
"#;

/// Arguments of `affine`: `(n, a, b, x, y)`.
pub type AffineArgs = (u32, f32, f32, DevicePtr<f32>, DevicePtrMut<f32>);
/// Arguments of `relu`: `(n, x, y)`.
pub type ReluArgs = (u32, DevicePtr<f32>, DevicePtrMut<f32>);
/// Arguments of `add`: `(n, x, y, out)`.
pub type AddArgs = (u32, DevicePtr<f32>, DevicePtr<f32>, DevicePtrMut<f32>);

/// The pipeline's kernels, compiled from [`KERNELS`] and typed, each with the check that keeps
/// its `n` within the buffers it is given.
#[derive(Debug, Clone)]
pub struct PipelineKernels {
    /// `affine(n, a, b, x, y)`: `y = a * x + b`.
    pub affine: Kernel<AffineArgs>,
    /// `relu(n, x, y)`: `y = max(x, 0)`.
    pub relu: Kernel<ReluArgs>,
    /// `add(n, x, y, out)`: `out = x + y`.
    pub add: Kernel<AddArgs>,
}

impl PipelineKernels {
    /// Compiles [`KERNELS`] with NVRTC and loads its kernels into `ctx`.
    pub fn load(ctx: &Arc<CudaContext>) -> Result<Self, Failure> {
        let module = compile(ctx, KERNELS)?;
        // SAFETY: `affine` in `KERNELS` takes (unsigned, float, float, const float*, float*),
        // reads x[i] and writes y[i] for i < n only, and launches nothing; the check keeps n
        // within x and y.
        let affine = unsafe { Kernel::<AffineArgs>::new(module.load_function("affine")?) }
            .requires(|_, (n, _, _, x, y)| n as usize <= x.min(y));
        // SAFETY: `relu` takes (unsigned, const float*, float*), reads x[i] and writes y[i] for
        // i < n only, and launches nothing; the check keeps n within x and y.
        let relu = unsafe { Kernel::<ReluArgs>::new(module.load_function("relu")?) }
            .requires(|_, (n, x, y)| n as usize <= x.min(y));
        // SAFETY: `add` takes (unsigned, const float*, const float*, float*), reads x[i] and
        // y[i] and writes out[i] for i < n only, and launches nothing; the check keeps n within
        // all three.
        let add = unsafe { Kernel::<AddArgs>::new(module.load_function("add")?) }
            .requires(|_, (n, x, y, out)| n as usize <= x.min(y).min(out));
        Ok(Self { affine, relu, add })
    }
}

/// Temporaries per executable.
pub const TEMPORARIES: usize = 3;

cuda_graph! {
    /// The pipeline for one batch: `x` in, `out` out, its three temporaries allocated by the graph.
    /// `t1` is dead after stage 2: it is freed before `t3` is allocated, so `t3` can take its
    /// memory.
    pub graph Pipeline {
        params {
            affine: Kernel<(u32, f32, f32, DevicePtr<f32>, DevicePtrMut<f32>)>,
            relu: Kernel<(u32, DevicePtr<f32>, DevicePtrMut<f32>)>,
            add: Kernel<(u32, DevicePtr<f32>, DevicePtr<f32>, DevicePtrMut<f32>)>,
            x: DeviceBuffer<f32>,
            out: DeviceBuffer<f32>,
            n: u32,
        }
        t1: alloc::<f32>(n as usize);
        t2: alloc::<f32>(n as usize);
        t3: alloc::<f32>(n as usize);
        stage1: kernel affine<<<n.div_ceil(256), 256>>>(n, 2.0, -1.0, x, t1);
        stage2: kernel relu<<<n.div_ceil(256), 256>>>(n, t1, t2);
        stage3: kernel affine<<<n.div_ceil(256), 256>>>(n, 0.5, 0.25, t2, t3);
        stage4: kernel add<<<n.div_ceil(256), 256>>>(n, t3, x, out);
        free1: free(t1);
        free2: free(t2);
        free3: free(t3);
        t1 -> stage1 -> stage2 -> free1 -> t3 -> stage3 -> stage4 -> free3;
        t2 -> stage2 -> stage3 -> free2;
    }
}

/// What the pipeline computes for one element.
pub fn expected(x: f32) -> f32 {
    (2.0 * x - 1.0).max(0.0) * 0.5 + 0.25 + x
}
