//! `#[device_updatable]` where it cannot go: with arguments, on a node that is no kernel, and on
//! a node of a `for` loop.
use cudagraph_runtime::prelude::*;

cuda_graph! {
    #[device_launch]
    graph Misplaced {
        params {
            bump_k: Kernel<(u32, DevicePtrMut<u32>)>,
            k: u32,
            y: DeviceBuffer<u32>,
        }
        #[device_updatable(grid)]
        a: kernel bump_k<<<1, 32>>>(k, y);
        #[device_updatable]
        clear: memset(y, 0u32);
        for i in 0..2 {
            #[device_updatable]
            b[i]: kernel bump_k<<<1, 32>>>(k, y);
        }
        clear -> a -> b[0] -> b[1];
    }
}

fn main() {}
