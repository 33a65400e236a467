//! `unroll` repeats the body of a `while` node: an `if` or `switch` body runs at most once per
//! launch.
use cudagraph_runtime::prelude::*;

cuda_graph! {
    graph Branches {
        params {
            pick: Kernel<(ConditionalHandle, DevicePtr<u32>)>,
            put: Kernel<(u32, DevicePtrMut<u32>)>,
            flag: DeviceBuffer<u32>,
            out: DeviceBuffer<u32>,
        }
        decide: kernel pick<<<1, 32>>>(odd, flag);
        branch: if odd(unroll = 2) {
            mark: kernel put<<<1, 32>>>(1, out);
        }
        choose: kernel pick<<<1, 32>>>(case, flag);
        select: switch case(default = 0, unroll = 4) {
            0 => { c0: kernel put<<<1, 32>>>(0, out); }
        }
        decide -> branch -> choose -> select;
    }
}

fn main() {}
