//! The `unroll` of a `while` node: a count the macro knows (an integer literal or a const of the
//! graph), at least 1 and at most 64.
use cudagraph_runtime::prelude::*;

cuda_graph! {
    graph FromParam {
        params {
            step: Kernel<(ConditionalHandle, DevicePtrMut<u32>, u32)>,
            put: Kernel<(u32, DevicePtrMut<u32>)>,
            counter: DeviceBuffer<u32>,
            out: DeviceBuffer<u32>,
            copies: usize,
        }
        count: while more(default = 1, unroll = copies) {
            work: kernel put<<<1, 32>>>(1, out);
            check: kernel step<<<1, 32>>>(more, counter, 10);
            work -> check;
        }
    }

    graph Zero {
        params {
            step: Kernel<(ConditionalHandle, DevicePtrMut<u32>, u32)>,
            put: Kernel<(u32, DevicePtrMut<u32>)>,
            counter: DeviceBuffer<u32>,
            out: DeviceBuffer<u32>,
        }
        count: while more(default = 1, unroll = 0) {
            work: kernel put<<<1, 32>>>(1, out);
            check: kernel step<<<1, 32>>>(more, counter, 10);
            work -> check;
        }
    }

    graph TooMany {
        const COPIES: usize = 40;
        params {
            step: Kernel<(ConditionalHandle, DevicePtrMut<u32>, u32)>,
            put: Kernel<(u32, DevicePtrMut<u32>)>,
            counter: DeviceBuffer<u32>,
            out: DeviceBuffer<u32>,
        }
        count: while more(default = 1, unroll = COPIES * 2) {
            work: kernel put<<<1, 32>>>(1, out);
            check: kernel step<<<1, 32>>>(more, counter, 10);
            work -> check;
        }
    }
}

fn main() {}
