//! Semaphore nodes are written `signal(sem = value, ...)` and `wait(sem = value, ...)`: at least
//! one semaphore, each with its value.
use cudagraph_runtime::cuda_graph;

cuda_graph! {
    graph Frame {
        params {
            sem: cudagraph_runtime::ExternalSemaphore,
            other: cudagraph_runtime::ExternalSemaphore,
        }
        none: signal();
        bare: signal(sem);
        mixed: wait(sem = 1, other);
        no_parens: signal;
    }
}

fn main() {}
