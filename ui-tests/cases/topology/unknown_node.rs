//! T1: edges to nodes that are not declared (a typo, and a missing node).
use cudagraph_runtime::cuda_graph;

cuda_graph! {
    graph Typos {
        scale: empty;
        finish: empty;
        scael -> finish;
        scale -> output;
    }
}

fn main() {}
