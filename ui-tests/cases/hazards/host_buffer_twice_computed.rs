//! A host node given one element of an array param twice, written at least once, through indices
//! spelled differently (a graph const, the loop variable): the closure would get a `&mut` slice
//! aliasing another slice of it. The element is what the index computes, not how it is spelled.
use cudagraph_runtime::{cuda_graph, HostBuffer};

cuda_graph! {
    graph Twice {
        const K: usize = 0;
        params {
            parts: [HostBuffer<f32>; 2],
            copy: fn((&[f32], &mut [f32])),
        }
        by_const: host(copy, parts[0], mut parts[K]);
        for i in 0..2 {
            by_loop[i]: host(copy, parts[i], mut parts[1]);
        }
        apart: host(copy, parts[K], mut parts[K + 1]);
        by_const -> by_loop[0] -> by_loop[1] -> apart;
    }
}

fn main() {}
