//! A semaphore node's semaphores are `ExternalSemaphore` params and its values `u64`s; a
//! semaphore is waited for with `wait(sem = value)`, not as an event.
use cudagraph_runtime::{cuda_graph, prelude::*, ExternalSemaphore};

cuda_graph! {
    graph Frame {
        params {
            sem: ExternalSemaphore,
            done: Event,
            frame: u32,
        }
        a: signal(done = 1);
        b: wait(sem = frame);
        c: wait(sem);
    }
}

fn main() {}
