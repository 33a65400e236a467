//! T1: a node name declared twice.
use cudagraph_runtime::cuda_graph;

cuda_graph! {
    graph Twice {
        join: empty;
        join: empty;
    }
}

fn main() {}
