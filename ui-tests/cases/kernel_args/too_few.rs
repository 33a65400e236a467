//! T3: fewer arguments than the kernel's declared parameters.
use cudagraph_runtime::cuda_graph;

cuda_graph! {
    graph Step {
        params {
            saxpy: Kernel<(u32, f32, DevicePtr<f32>, DevicePtrMut<f32>)>,
            x: DevicePtr<f32>,
            n: u32,
        }
        scale: kernel saxpy<<<n.div_ceil(256), 256>>>(n, 2.0, x);
    }
}

fn main() {}
