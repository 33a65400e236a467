//! An edge names a param instead of a node.
use cudagraph_runtime::cuda_graph;

cuda_graph! {
    graph Step {
        params {
            scale: Kernel<(u32, f32, DevicePtrMut<f32>)>,
            y: DeviceBuffer<f32>,
            n: u32,
        }
        zero: memset(y, 0.0f32);
        times: kernel scale<<<n.div_ceil(256), 256>>>(n, 2.0, y);
        zero -> y;
        n -> times;
    }
}

fn main() {}
