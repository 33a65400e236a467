//! T14: two nodes that write one buffer with no edge between them race.
use cudagraph_runtime::{cuda_graph, prelude::*};

cuda_graph! {
    graph Race {
        params {
            fill: Kernel<(u32, DevicePtrMut<f32>)>,
            y: DeviceBuffer<f32>,
            n: u32,
        }
        zero: memset(y, 0.0f32);
        write: kernel fill<<<n.div_ceil(256), 256>>>(n, y);
    }
}

fn main() {}
