//! T3: more arguments than the kernel's declared parameters.
use cudagraph_runtime::cuda_graph;

cuda_graph! {
    graph Step {
        params {
            scale: Kernel<(u32, DevicePtrMut<f32>)>,
            y: DevicePtrMut<f32>,
            n: u32,
        }
        run: kernel scale<<<1, 256>>>(n, y, 2.0f32);
    }
}

fn main() {}
