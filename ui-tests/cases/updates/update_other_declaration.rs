//! T4: a whole-graph update takes only a graph of the same declaration (CUDA pairs nodes by creation order),
//! even one with the same shape, and not a runtime `Graph`.
use cudagraph_runtime::{cuda_graph, prelude::*};

cuda_graph! {
    graph First {
        params { y: DevicePtrMut<u32> }
        clear: memset(y, 0u32);
    }

    graph Second {
        params { y: DevicePtrMut<u32> }
        clear: memset(y, 0u32);
    }
}

fn update(exec: &mut FirstExec, second: &Second, raw: &Graph) {
    let _ = exec.update(second);
    let _ = exec.update(raw);
}

fn main() {}
