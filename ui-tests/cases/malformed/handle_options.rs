//! The parentheses after a conditional handle hold `default = value` and `unroll = k`, each once.
use cudagraph_runtime::prelude::*;

cuda_graph! {
    graph Twice {
        params {
            step: Kernel<(ConditionalHandle, DevicePtrMut<u32>, u32)>,
            counter: DeviceBuffer<u32>,
        }
        count: while more(unroll = 2, unroll = 4) {
            bump: kernel step<<<1, 32>>>(more, counter, 10);
        }
    }

    graph Unknown {
        params {
            step: Kernel<(ConditionalHandle, DevicePtrMut<u32>, u32)>,
            counter: DeviceBuffer<u32>,
        }
        count: while more(default = 1, repeat = 2) {
            bump: kernel step<<<1, 32>>>(more, counter, 10);
        }
    }
}

fn main() {}
