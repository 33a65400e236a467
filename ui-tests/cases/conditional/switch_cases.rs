//! A switch's cases are its handle's values 0, 1, 2, ... in order.
use cudagraph_runtime::prelude::*;

cuda_graph! {
    graph Pick {
        params {
            put: Kernel<(u32, DevicePtrMut<u32>)>,
            out: DeviceBuffer<u32>,
        }
        choose: switch which {
            0 => { a: kernel put<<<1, 32>>>(0, out); }
            2 => { b: kernel put<<<1, 32>>>(2, out); }
        }
    }
}

fn main() {}
