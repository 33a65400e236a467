//! A param of the user's own type whose name is `Kernel` (not the runtime's `Kernel<A>`, which
//! always takes its parameter tuple) is a plain value that no node has to launch.
use cudagraph_runtime::{cuda_graph, prelude::*};

mod user {
    /// Which variant of the computation to run: a plain value.
    #[derive(Clone, Copy, PartialEq, Debug)]
    pub enum Kernel {
        Fast,
        Exact,
    }
}

cuda_graph! {
    graph Modes {
        params {
            k: Kernel<(u32, DevicePtrMut<f32>)>,
            y: DeviceBuffer<f32>,
            mode: user::Kernel,
        }
        a: kernel k<<<1, 256>>>(if mode == user::Kernel::Fast { 2 } else { 1 }, y);
    }
}

fn main() {
    let _ = user::Kernel::Exact;
}
