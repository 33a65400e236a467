use cudagraph_runtime::cuda_graph;

cuda_graph! {
    graph Step {
        a: empty;
    }
    42
}

fn main() {}
