//! A node using memory another API shares (`#[external]`) must be done before a semaphore signal
//! node tells that API it may use the memory. An edge with data into a kernel that does not wait
//! orders launches only: past `run ->(programmatic) tail`, the signal after `tail` may come while
//! `run` still writes `image`. Refused, as the race rule refuses two nodes ordered only so; with
//! `tail` waiting (`#[waits]`), the same chain is accepted.
use cudagraph_runtime::{cuda_graph, prelude::*, ExternalSemaphore};

cuda_graph! {
    graph Early {
        params {
            step: Kernel<(u32, DevicePtrMut<u32>)>,
            #[external]
            image: DeviceBuffer<u32>,
            scratch: DeviceBuffer<u32>,
            sem: ExternalSemaphore,
            n: u32,
        }
        ready: wait(sem = 1);
        run: kernel step<<<1, 32>>>(n, image);
        tail: kernel step<<<1, 32>>>(n, scratch);
        done: signal(sem = 2);
        ready -> run ->(programmatic) tail -> done;
    }
}

cuda_graph! {
    graph Waited {
        params {
            step: Kernel<(u32, DevicePtrMut<u32>)>,
            #[external]
            image: DeviceBuffer<u32>,
            scratch: DeviceBuffer<u32>,
            sem: ExternalSemaphore,
            n: u32,
        }
        ready: wait(sem = 1);
        run: kernel step<<<1, 32>>>(n, image);
        #[waits]
        tail: kernel step<<<1, 32>>>(n, scratch);
        done: signal(sem = 2);
        ready -> run ->(programmatic) tail -> done;
    }
}

fn main() {}
