use cudagraph_runtime::cuda_graph;

cuda_graph! {
    graph {
        a: empty;
    }
}

fn main() {}
