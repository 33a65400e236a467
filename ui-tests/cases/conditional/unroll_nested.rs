//! An unrolled body holds no conditional node: each copy would need a handle of its own.
use cudagraph_runtime::prelude::*;

cuda_graph! {
    graph Nested {
        params {
            step: Kernel<(ConditionalHandle, DevicePtrMut<u32>, u32)>,
            put: Kernel<(u32, DevicePtrMut<u32>)>,
            counter: DeviceBuffer<u32>,
            inner_counter: DeviceBuffer<u32>,
            out: DeviceBuffer<u32>,
        }
        count: while more(default = 1, unroll = 4) {
            work: kernel put<<<1, 32>>>(1, out);
            inner: while again(default = 1) {
                bump: kernel step<<<1, 32>>>(again, inner_counter, 3);
            }
            check: kernel step<<<1, 32>>>(more, counter, 10);
            work -> inner -> check;
        }
    }
}

fn main() {}
