//! T3: a kernel typed through an alias: the argument list is checked against the alias.
use cudagraph_runtime::{cuda_graph, prelude::*};

type ScaleArgs = (u32, f32, DevicePtrMut<f32>);

cuda_graph! {
    graph Step {
        params {
            scale: Kernel<ScaleArgs>,
            y: DevicePtrMut<f32>,
            n: u32,
        }
        short: kernel scale<<<1, 256>>>(n, y);
        typed: kernel scale<<<1, 256>>>(n, 2, y);
        short -> typed;
    }
}

fn main() {}
