//! T14 in an unrolled WHILE body: the copies run one after the other, but within a copy two
//! unordered kernels that write one buffer still race, as in the body declared.
use cudagraph_runtime::prelude::*;

cuda_graph! {
    graph Racy {
        params {
            step: Kernel<(ConditionalHandle, DevicePtrMut<u32>, u32)>,
            put: Kernel<(u32, DevicePtrMut<u32>)>,
            counter: DeviceBuffer<u32>,
            out: DeviceBuffer<u32>,
        }
        count: while more(default = 1, unroll = 4) {
            first: kernel put<<<1, 32>>>(1, out);
            second: kernel put<<<1, 32>>>(2, out);
            check: kernel step<<<1, 32>>>(more, counter, 10);
            [first, second] -> check;
        }
    }
}

fn main() {}
