//! A param declared twice, and a second params block.
use cudagraph_runtime::cuda_graph;

cuda_graph! {
    graph Params {
        params {
            n: u32,
            y: DevicePtrMut<u32>,
            n: u64,
        }
        params {
            m: u32,
        }
        fill: memset(y, n);
    }
}

fn main() {}
