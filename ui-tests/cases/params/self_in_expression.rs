//! `self` has no meaning in a declaration: node arguments are expressions over the params.
use cudagraph_runtime::cuda_graph;

cuda_graph! {
    graph Selfless {
        params {
            k: Kernel<(u32,)>,
        }
        a: kernel k<<<1, 1>>>(self.n);
        b: host(Self::tick);
    }
}

fn main() {}
