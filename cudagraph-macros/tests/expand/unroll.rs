//! An unrolled WHILE: the body's nodes in each of its 4 copies (handles by copy), its check (the
//! kernel setting the loop's handle) in the last copy only, and the node after the check
//! depending on what the check depends on in the copies before the last.
use cudagraph_runtime::prelude::*;

cuda_graph! {
    graph Solve {
        params {
            sweep: Kernel<(u32, DevicePtr<f32>, DevicePtrMut<f32>)>,
            check: Kernel<(ConditionalHandle, DevicePtr<f32>, u32)>,
            x: DeviceBuffer<f32>,
            y: DeviceBuffer<f32>,
            n: u32,
        }
        start: memset(x, 0.0f32);
        solve: while more(default = 1, unroll = 4) {
            forward: kernel sweep<<<n.div_ceil(256), 256>>>(n, x, y);
            back: kernel sweep<<<n.div_ceil(256), 256>>>(n, y, x);
            done: kernel check<<<1, 32>>>(more, x, n);
            tail: memset(y, 0.0f32);
            forward -> back -> done -> tail;
        }
        start -> solve;
    }
}

fn main() {}
