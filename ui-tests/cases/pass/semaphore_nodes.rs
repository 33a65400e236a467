//! External semaphore signal and wait nodes: one semaphore or several, timeline values computed
//! from params, a node handle setting new semaphores and values, and an event wait beside them.
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{cuda_graph, ExternalSemaphore};

cuda_graph! {
    /// One frame of work shared with another API.
    pub graph Frame {
        params {
            step: Kernel<(u32, DevicePtrMut<u32>)>,
            #[external]
            image: DeviceBuffer<u32>,
            n: u32,
            frame: u64,
            sem: ExternalSemaphore,
            other: ExternalSemaphore,
            done: Event,
        }
        ready: wait(sem = 2 * frame + 1);
        run: kernel step<<<n.div_ceil(256), 256>>>(n, image);
        release: signal(sem = 2 * frame + 2, other = frame);
        after: wait(done);
        ready -> run -> release;
        after -> run;
    }
}

fn main() {
    let _ = Frame::TOPOLOGY.to_dot();
    fn _use(exec: &mut FrameExec, p: &FrameParams) -> cudagraph_runtime::Result<()> {
        exec.set_params(p)?;
        exec.ready().set([(&p.sem, 7)])?;
        exec.release().set([(&p.sem, 8), (&p.other, 1)])?;
        let _: cudagraph_runtime::SemaphoreSignalNode<2> = exec.release().node();
        let _: cudagraph_runtime::SemaphoreWaitNode<1> = exec.ready().node();
        exec.after().set(&p.done)?;
        Ok(())
    }
}
