use cudagraph_runtime::cuda_graph;

cuda_graph! {
    graph Step {
        a: empty;
    }
    graph Step {
        b: empty;
    }
}

fn main() {}
