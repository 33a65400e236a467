//! The three-stage pipeline the memory-node examples run: `h1 = 2x - 1; h2 = relu(h1);
//! h3 = h2 / 2 + 1/4; y = h3 + x`, its temporaries allocated and freed by the graph itself
//! (`alloc` and `free` nodes), so CUDA backs them with physical memory only while they live.

use cudagraph_runtime::prelude::*;

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

/// Temporaries per executable.
pub const TEMPORARIES: usize = 3;

cuda_graph! {
    /// The pipeline for one batch: `x` in, `y` out, its three temporaries allocated by the graph.
    /// `h1` is dead after stage 2: it is freed before `h3` is allocated, so `h3` can take its
    /// memory.
    pub graph Pipeline {
        params {
            affine: Kernel<(u32, f32, f32, DevicePtr<f32>, DevicePtrMut<f32>)>,
            relu: Kernel<(u32, DevicePtr<f32>, DevicePtrMut<f32>)>,
            add: Kernel<(u32, DevicePtr<f32>, DevicePtr<f32>, DevicePtrMut<f32>)>,
            x: DeviceBuffer<f32>,
            y: DeviceBuffer<f32>,
            n: u32,
        }
        h1: alloc::<f32>(n as usize);
        h2: alloc::<f32>(n as usize);
        h3: alloc::<f32>(n as usize);
        stage1: kernel affine<<<n.div_ceil(256), 256>>>(n, 2.0, -1.0, x, h1);
        stage2: kernel relu<<<n.div_ceil(256), 256>>>(n, h1, h2);
        stage3: kernel affine<<<n.div_ceil(256), 256>>>(n, 0.5, 0.25, h2, h3);
        stage4: kernel add<<<n.div_ceil(256), 256>>>(n, h3, x, y);
        free_h1: free(h1);
        free_h2: free(h2);
        free_h3: free(h3);
        h1 -> stage1 -> stage2 -> free_h1 -> h3 -> stage3 -> stage4 -> free_h3;
        h2 -> stage2 -> stage3 -> free_h2;
    }
}

/// What the pipeline computes for one element.
pub fn expected(x: f32) -> f32 {
    (2.0 * x - 1.0).max(0.0) * 0.5 + 0.25 + x
}
