//! Launch configurations whose parts are not sizes.
use cudagraph_runtime::{cuda_graph, prelude::*};

cuda_graph! {
    graph Step {
        params {
            k: Kernel<(u32,)>,
            n: u32,
            width: f32,
        }
        a: kernel k<<<width, 256>>>(n);
        b: kernel k<<<1, (16, 16, 1, 1)>>>(n);
        c: kernel k<<<n>>>(n);
        d: kernel k<<<1, 2, 3u64>>>(n);
    }
}

fn main() {}
