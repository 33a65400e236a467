//! Launch configurations with no part or too many parts.
use cudagraph_runtime::cuda_graph;

cuda_graph! {
    graph Step {
        params {
            k: Kernel<(u32,)>,
            n: u32,
        }
        c: kernel k<<<1, 256, 0, 0>>>(n);
        d: kernel k<<<>>>(n);
    }
}

fn main() {}
