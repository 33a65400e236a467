//! T14 through fan-out: both branches after `start` write `y`, and nothing orders them with each
//! other; `done` joins them too late.
use cudagraph_runtime::{cuda_graph, prelude::*};

cuda_graph! {
    graph Branches {
        params {
            fill: Kernel<(u32, f32, DevicePtrMut<f32>)>,
            y: DeviceBuffer<f32>,
            n: u32,
        }
        start: empty;
        left: kernel fill<<<n.div_ceil(256), 256>>>(n, 1.0, y);
        right: kernel fill<<<n.div_ceil(256), 256>>>(n, 2.0, y);
        done: empty;
        start -> [left, right] -> done;
    }
}

fn main() {}
