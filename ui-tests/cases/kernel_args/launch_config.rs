//! Launch configurations that are not sizes, or have too many or no parts.
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
        c: kernel k<<<1, 256, 0, 0>>>(n);
        d: kernel k<<<>>>(n);
        e: kernel k<<<n>>>(n);
    }
}

fn main() {}
