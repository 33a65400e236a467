//! Semaphore nodes around a kernel on memory shared with another API: the count of semaphores in
//! the handle types, the values computed from params in the eval functions.
use cudagraph_runtime::cuda_graph;

cuda_graph! {
    graph Frame {
        params {
            step: Kernel<(u32, DevicePtrMut<u32>)>,
            #[external]
            image: DeviceBuffer<u32>,
            n: u32,
            frame: u64,
            sem: ExternalSemaphore,
        }
        ready: wait(sem = 2 * frame + 1);
        run: kernel step<<<n.div_ceil(256), 256>>>(n, image);
        done: signal(sem = 2 * frame + 2);
        ready -> run -> done;
    }
}

fn main() {}
