//! T3: arguments whose types do not match the kernel's parameters, each reported at the argument.
use cudagraph_runtime::{cuda_graph, prelude::*};

cuda_graph! {
    graph Step {
        params {
            saxpy: Kernel<(u32, f32, DevicePtr<f32>, DevicePtrMut<f32>)>,
            x: DevicePtr<f32>,
            y: DevicePtrMut<f32>,
            n: u32,
            alpha: f64,
        }
        scale: kernel saxpy<<<1, 256>>>(n, alpha, y, x);
    }
}

fn main() {}
