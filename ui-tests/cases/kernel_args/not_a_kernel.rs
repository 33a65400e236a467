//! A kernel node must launch a `Kernel<...>` param.
use cudagraph_runtime::cuda_graph;

cuda_graph! {
    graph Step {
        params {
            saxpy: u32,
        }
        scale: kernel saxpy<<<1, 256>>>(1);
    }
}

fn main() {}
