//! The smallest declaration: no params, one empty node.
use cudagraph_runtime::cuda_graph;

cuda_graph! {
    graph Nothing {
        only: empty;
    }
}

fn main() {}
