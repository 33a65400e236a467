//! T14: a node that reads a buffer and one that writes it, unordered, race (the reader may see
//! the old contents, the new ones, or a mix).
use cudagraph_runtime::{cuda_graph, prelude::*};

cuda_graph! {
    graph Race {
        params {
            scale: Kernel<(u32, DevicePtr<f32>, DevicePtrMut<f32>)>,
            x: DeviceBuffer<f32>,
            y: DeviceBuffer<f32>,
            host_x: HostBuffer<f32>,
            n: u32,
        }
        load: memcpy(host_x -> x);
        compute: kernel scale<<<n.div_ceil(256), 256>>>(n, x, y);
    }
}

fn main() {}
