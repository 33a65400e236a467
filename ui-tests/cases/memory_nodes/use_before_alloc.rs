//! T7 with a use ordered *before* its alloc node: the edge `t -> early` would close a cycle, so
//! the message names the path to change instead of suggesting it.
use cudagraph_runtime::{cuda_graph, prelude::*};

cuda_graph! {
    graph Early {
        params {
            fill: Kernel<(u32, DevicePtrMut<f32>)>,
            n: u32,
        }
        early: kernel fill<<<1, 32>>>(n, t);
        between: empty;
        t: alloc::<f32>(n as usize);
        done: free(t);
        early -> between -> t -> done;
    }
}

fn main() {}
