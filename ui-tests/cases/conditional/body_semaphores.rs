//! T10: CUDA refuses semaphore signal and wait nodes in a conditional body.
use cudagraph_runtime::prelude::*;

cuda_graph! {
    graph Loop {
        params {
            step: Kernel<(ConditionalHandle, DevicePtrMut<u32>)>,
            counter: DeviceBuffer<u32>,
            sem: cudagraph_runtime::ExternalSemaphore,
            frame: u64,
        }
        repeat: while more(default = 1) {
            ready: wait(sem = frame);
            bump: kernel step<<<1, 32>>>(more, counter);
            done: signal(sem = frame + 1);
            ready -> bump -> done;
        }
    }
}

fn main() {}
