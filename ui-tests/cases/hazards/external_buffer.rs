//! T14 with another API: a node using memory another API shares (`#[external]`) must come after a
//! semaphore wait node and before a semaphore signal node, or it may run while the other API uses
//! the memory. Only buffer params can be `#[external]`.
use cudagraph_runtime::prelude::*;

cuda_graph! {
    graph Frame {
        params {
            step: Kernel<(u32, DevicePtrMut<u32>)>,
            look: Kernel<(u32, DevicePtr<u32>)>,
            #[external]
            image: DeviceBuffer<u32>,
            #[external]
            n: u32,
            frame: u64,
            sem: cudagraph_runtime::ExternalSemaphore,
        }
        early: kernel look<<<1, 256>>>(n, image);
        ready: wait(sem = 2 * frame + 1);
        run: kernel step<<<1, 256>>>(n, image);
        late: kernel look<<<1, 256>>>(n, image);
        release: signal(sem = 2 * frame + 2);
        early -> ready -> run -> release;
        run -> late;
    }

    graph NoSemaphores {
        params {
            step: Kernel<(u32, DevicePtrMut<u32>)>,
            #[external]
            image: DeviceBuffer<u32>,
        }
        run: kernel step<<<1, 256>>>(256, image);
    }
}

fn main() {}
