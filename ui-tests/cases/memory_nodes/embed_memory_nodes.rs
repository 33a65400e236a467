//! CUDA refuses to embed a graph with memory nodes as a child graph.
use cudagraph_runtime::cuda_graph;

cuda_graph! {
    graph Scratch {
        params {
            n: u32,
        }
        tmp: alloc::<f32>(n as usize);
        zero: memset(tmp, 0.0f32);
        done: free(tmp);
        tmp -> zero -> done;
    }

    graph Outer {
        params {
            inner: Scratch,
        }
        run: child(inner);
    }
}

fn main() {}
