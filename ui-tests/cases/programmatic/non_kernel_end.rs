//! T11: an edge with data (`->(programmatic)`, `->(launch_order)`) joins two kernel nodes; CUDA
//! refuses one from or to any other node kind when the graph is built.
use cudagraph_runtime::{cuda_graph, prelude::*};

cuda_graph! {
    graph Pdl {
        params {
            fill: Kernel<(u32, DevicePtrMut<f32>)>,
            x: DeviceBuffer<f32>,
            y: DeviceBuffer<f32>,
            n: u32,
        }
        zero: memset(x, 0.0f32);
        #[waits]
        a: kernel fill<<<1, 32>>>(n, x);
        b: kernel fill<<<1, 32>>>(n, y);
        done: empty;
        zero ->(programmatic) a;
        a -> b ->(launch_order) done;
    }
}

fn main() {}
