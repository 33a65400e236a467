//! A node named like a method of the generated executable.
use cudagraph_runtime::cuda_graph;

cuda_graph! {
    graph Clash {
        launch: empty;
        update: empty;
        swap: empty;
        launch -> update -> swap;
    }
}

fn main() {}
