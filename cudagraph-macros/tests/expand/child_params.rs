//! Params of every role an executable copies into its applied params and back when a change is
//! refused: a child graph (whose copies may fail: made all before any is stored), a kernel, a
//! buffer, a value.
use cudagraph_runtime::{cuda_graph, prelude::*};

cuda_graph! {
    /// `y *= s` over `n` elements.
    graph Inner {
        params {
            scale: Kernel<(u32, f32, DevicePtrMut<f32>)>,
            y: DeviceBuffer<f32>,
            n: u32,
            s: f32,
        }
        mul: kernel scale<<<n.div_ceil(256), 256>>>(n, s, y);
    }

    /// Two `Inner` children, then a zeroed `z`.
    graph Outer {
        params {
            first: Inner,
            second: Inner,
            z: DeviceBuffer<f32>,
        }
        a: child(first);
        b: child(second);
        clear: memset(z, 0.0f32);
        a -> b -> clear;
    }
}

fn main() {}
