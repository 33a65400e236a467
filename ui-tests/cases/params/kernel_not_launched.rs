//! A kernel param that no node launches: a leftover, or a missing node.
use cudagraph_runtime::cuda_graph;

cuda_graph! {
    graph Forgotten {
        params {
            scale: Kernel<(u32, f32, DevicePtrMut<f32>)>,
            y: DeviceBuffer<f32>,
        }
        zero: memset(y, 0.0f32);
    }
}

fn main() {}
