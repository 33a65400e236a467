//! A semaphore node's semaphores are params, named: not expressions.
use cudagraph_runtime::cuda_graph;

cuda_graph! {
    graph Frame {
        params {
            sem: cudagraph_runtime::ExternalSemaphore,
        }
        a: signal(semaphore = 1);
        b: signal(sem.clone() = 1);
    }
}

fn main() {}
