use cudagraph_runtime::cuda_graph;

cuda_graph! {
    graph Step<T> {
        a: empty;
    }
}

fn main() {}
