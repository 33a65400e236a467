//! T1: a node that depends on itself.
use cudagraph_runtime::cuda_graph;

cuda_graph! {
    graph Selfish {
        a: empty;
        b: empty;
        a -> b -> b;
    }
}

fn main() {}
