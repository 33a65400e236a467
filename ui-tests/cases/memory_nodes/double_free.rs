//! T7: an allocation is freed once.
use cudagraph_runtime::cuda_graph;

cuda_graph! {
    graph Twice {
        params {
            n: u32,
        }
        tmp: alloc::<f32>(n as usize);
        zero: memset(tmp, 0.0f32);
        first: free(tmp);
        second: free(tmp);
        tmp -> zero -> first -> second;
    }
}

fn main() {}
