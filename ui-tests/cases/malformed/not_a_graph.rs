use cudagraph_runtime::cuda_graph;

cuda_graph! {
    pub struct Step {
        a: empty;
    }
}

fn main() {}
