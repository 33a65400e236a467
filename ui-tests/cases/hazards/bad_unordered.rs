//! `#[unordered(...)]` names buffer params the node uses.
use cudagraph_runtime::{cuda_graph, prelude::*};

cuda_graph! {
    graph Marks {
        params {
            fill: Kernel<(u32, DevicePtrMut<f32>)>,
            y: DeviceBuffer<f32>,
            z: DeviceBuffer<f32>,
            n: u32,
        }
        #[unordered(w)]
        a: kernel fill<<<1, 256>>>(n, y);
        #[unordered(z)]
        b: kernel fill<<<1, 256>>>(n, y);
        #[unordered(1 + 2)]
        c: empty;
    }
}

fn main() {}
