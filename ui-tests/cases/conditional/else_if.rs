//! CUDA has no `else if` node: nest an `if` in the `else` body, or use `switch`.
use cudagraph_runtime::prelude::*;

cuda_graph! {
    graph Chain {
        params {
            put: Kernel<(u32, DevicePtrMut<u32>)>,
            out: DeviceBuffer<u32>,
        }
        choose: if first {
            a: kernel put<<<1, 32>>>(1, out);
        } else if second {
            b: kernel put<<<1, 32>>>(2, out);
        }
    }
}

fn main() {}
