//! The graph of the README's example and of `examples/quickstart.rs`: a copy to the device, one
//! kernel, a copy back. It lives here so that the tests can check that the README shows this very
//! declaration and that its picture, `examples/pictures/quickstart.svg`, is the one the macro
//! draws today.
//!
//! ```text
//! copy_in (input -> x) -> scale (y = a * x + i) -> copy_out (y -> output)
//! ```

use cudagraph_runtime::prelude::*;

cuda_graph! {
    /// Copy `input` to the device, compute `y = a * x + i`, copy `y` back into `output`.
    pub graph Quickstart {
        params {
            affine: Kernel<(u32, f32, DevicePtr<f32>, DevicePtrMut<f32>)>,
            input: HostBuffer<f32>,
            x: DeviceBuffer<f32>,
            y: DeviceBuffer<f32>,
            output: HostBuffer<f32>,
            n: u32,
            a: f32,
        }
        copy_in: memcpy(input -> x);
        scale: kernel affine<<<n.div_ceil(256), 256>>>(n, a, x, y);
        copy_out: memcpy(y -> output);
        copy_in -> scale -> copy_out;
    }
}

/// The kernel `scale` launches, in CUDA C (compiled at run time with NVRTC): `y[i] = a * x[i] + i`
/// for every `i < n`, and nothing past `n`.
pub const AFFINE: &str = r#"
extern "C" __global__ void affine(unsigned n, float a, const float* x, float* y) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + (float)i;
}"#;
