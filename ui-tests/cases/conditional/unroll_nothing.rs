//! A node that sets the loop's handle runs in the last copy only: a body of such nodes alone
//! would repeat nothing.
use cudagraph_runtime::prelude::*;

cuda_graph! {
    graph Fused {
        params {
            step: Kernel<(ConditionalHandle, DevicePtrMut<u32>, u32)>,
            counter: DeviceBuffer<u32>,
        }
        count: while more(default = 1, unroll = 8) {
            sweep_and_check: kernel step<<<1, 32>>>(more, counter, 100);
        }
    }
}

fn main() {}
