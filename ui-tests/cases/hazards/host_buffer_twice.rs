//! A host node given one buffer twice, written at least once: the closure would get a `&mut`
//! slice aliasing another slice of it. Distinct elements of an array param are fine.
use cudagraph_runtime::{cuda_graph, prelude::*};

cuda_graph! {
    graph Twice {
        params {
            out: HostBuffer<f32>,
            parts: [HostBuffer<f32>; 2],
            copy: fn((&[f32], &mut [f32])),
        }
        whole: host(copy, out, mut out);
        element: host(copy, parts[0], mut parts[0]);
        apart: host(copy, parts[0], mut parts[1]);
        whole -> element -> apart;
    }
}

fn main() {}
