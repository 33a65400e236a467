//! Memcpys missing an end: each error is at the `->`, not at the macro call.
use cudagraph_runtime::{cuda_graph, prelude::*};

cuda_graph! {
    graph Copies {
        params {
            x: DeviceBuffer<f32>,
            y: DeviceBuffer<f32>,
        }
        a: memcpy(-> y);
        b: memcpy(x ->);
        c: memcpy(x y);
        d: memcpy(x -> y z);
    }
}

fn main() {}
