//! T5 and T6 for semaphore nodes: CUDA cannot change how many semaphores a node signals or waits
//! for (`numExtSems`), so the count is part of the handle's type: an update with another count is
//! a type error at the user's array, through the generated handle and through the runtime's own
//! API. Nor can CUDA enable or disable a semaphore node.
use cudagraph_runtime::{cuda_graph, prelude::*, ExternalSemaphore};

cuda_graph! {
    graph Frame {
        params {
            sem: ExternalSemaphore,
            other: ExternalSemaphore,
            frame: u64,
        }
        ready: wait(sem = 2 * frame + 1);
        done: signal(sem = 2 * frame + 2, other = frame);
        ready -> done;
    }
}

fn update(exec: &mut FrameExec, p: &FrameParams) {
    let _ = exec.ready().set([(&p.sem, 3), (&p.other, 1)]);
    let _ = exec.done().set([(&p.sem, 4)]);
    let _ = exec.done().set_enabled(false);
}

fn runtime(exec: &mut GraphExec, node: cudagraph_runtime::SemaphoreSignalNode<2>, sem: &ExternalSemaphore) {
    let _ = exec.set_semaphore_signal(node, [(sem, 1)]);
}

fn main() {}
