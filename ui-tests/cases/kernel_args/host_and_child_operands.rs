//! A host node needs a closure; a child node needs a graph.
use cudagraph_runtime::{cuda_graph, prelude::*};

cuda_graph! {
    graph Odd {
        params {
            n: u32,
            y: DevicePtrMut<f32>,
        }
        a: host(n);
        b: child(y);
    }
}

fn main() {}
