//! Conditional nodes: WHILE with a default, IF/ELSE, SWITCH with a nested WHILE.
use cudagraph_runtime::prelude::*;

cuda_graph! {
    graph Flow {
        params {
            step: Kernel<(ConditionalHandle, DevicePtrMut<u32>, u32)>,
            put: Kernel<(u32, DevicePtrMut<u32>)>,
            pick: Kernel<(ConditionalHandle, DevicePtr<u32>)>,
            counter: DeviceBuffer<u32>,
            out: DeviceBuffer<u32>,
            choice: DeviceBuffer<u32>,
            limit: u32,
        }
        reset: memset(counter, 0u32);
        count: while more(default = 1) {
            bump: kernel step<<<1, 32>>>(more, counter, limit);
        }
        decide: kernel pick<<<1, 32>>>(odd, counter);
        branch: if odd {
            mark_odd: kernel put<<<1, 32>>>(1, out);
        } else {
            mark_even: memset(out, 0u32);
        }
        choose: kernel pick<<<1, 32>>>(case, choice);
        select: switch case {
            0 => { c0: kernel put<<<1, 32>>>(100, out); }
            1 => {
                inner: while again(default = 1) {
                    c1: kernel step<<<1, 32>>>(again, counter, 7);
                }
            }
        };
        reset -> count -> decide -> branch -> choose -> select;
    }
}

fn main() {}
