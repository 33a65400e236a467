use cudagraph_runtime::cuda_graph;

cuda_graph! {
    graph Step;
}

fn main() {}
