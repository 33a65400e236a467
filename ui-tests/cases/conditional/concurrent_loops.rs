//! A WHILE loop may not run beside another conditional node (NVIDIA's driver fails such
//! launches): a WHILE beside a SWITCH, and an IF holding a WHILE beside an IF, each reported at
//! the second node with the edge that orders them; the ordered pair compiles.
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::ConditionalHandle;

cuda_graph! {
    graph Beside {
        params {
            step: Kernel<(ConditionalHandle, DevicePtrMut<u32>, u32)>,
            set: Kernel<(ConditionalHandle, DevicePtr<u32>)>,
            put: Kernel<(u32, DevicePtrMut<u32>)>,
            counter: DeviceBuffer<u32>,
            choice: DeviceBuffer<u32>,
            out: DeviceBuffer<u32>,
        }
        count: while more(default = 1) {
            bump: kernel step<<<1, 32>>>(more, counter, 5);
        }
        pick: kernel set<<<1, 32>>>(which, choice);
        select: switch which {
            0 => { a: kernel put<<<1, 32>>>(0, out); }
        }
        pick -> select;
    }
}

cuda_graph! {
    graph Nested {
        params {
            step: Kernel<(ConditionalHandle, DevicePtrMut<u32>, u32)>,
            set: Kernel<(ConditionalHandle, DevicePtr<u32>)>,
            put: Kernel<(u32, DevicePtrMut<u32>)>,
            counter: DeviceBuffer<u32>,
            choice: DeviceBuffer<u32>,
            out: DeviceBuffer<u32>,
        }
        outer: if always(default = 1) {
            inner: while more(default = 1) {
                bump: kernel step<<<1, 32>>>(more, counter, 5);
            }
        }
        pick: kernel set<<<1, 32>>>(flag, choice);
        other: if flag {
            a: kernel put<<<1, 32>>>(0, out);
        }
        pick -> other;
    }
}

cuda_graph! {
    graph Ordered {
        params {
            step: Kernel<(ConditionalHandle, DevicePtrMut<u32>, u32)>,
            set: Kernel<(ConditionalHandle, DevicePtr<u32>)>,
            put: Kernel<(u32, DevicePtrMut<u32>)>,
            counter: DeviceBuffer<u32>,
            choice: DeviceBuffer<u32>,
            out: DeviceBuffer<u32>,
        }
        count: while more(default = 1) {
            bump: kernel step<<<1, 32>>>(more, counter, 5);
        }
        pick: kernel set<<<1, 32>>>(which, choice);
        select: switch which {
            0 => { a: kernel put<<<1, 32>>>(0, out); }
        }
        count -> pick -> select;
    }
}

fn main() {}
