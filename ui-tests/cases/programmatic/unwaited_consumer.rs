//! A programmatic edge lets its consumer run before the producer has finished: a consumer that
//! reads what the producer writes must wait (`#[waits]`), or the edge must be plain.
use cudagraph_runtime::{cuda_graph, prelude::*};

cuda_graph! {
    graph Pdl {
        params {
            fill: Kernel<(u32, DevicePtrMut<f32>)>,
            scale: Kernel<(u32, DevicePtr<f32>, DevicePtrMut<f32>)>,
            x: DeviceBuffer<f32>,
            y: DeviceBuffer<f32>,
            n: u32,
        }
        produce: kernel fill<<<1, 32>>>(n, x);
        consume: kernel scale<<<1, 32>>>(n, x, y);
        produce ->(programmatic) consume;
    }
}

fn main() {}
