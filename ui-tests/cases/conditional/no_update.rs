//! T5 for conditional nodes: CUDA updates nothing about the node itself (its bodies' nodes have
//! handles), and cannot enable or disable it; a declaration with conditional nodes cannot be
//! embedded as a child graph (CUDA cannot clone conditional nodes).
use cudagraph_runtime::prelude::*;

cuda_graph! {
    graph Loop {
        params {
            step: Kernel<(ConditionalHandle, DevicePtrMut<u32>)>,
            counter: DeviceBuffer<u32>,
        }
        repeat: while more(default = 1) {
            bump: kernel step<<<1, 32>>>(more, counter);
        }
    }

    graph Parent {
        params {
            inner: Loop,
        }
        embed: child(inner);
    }
}

fn disable(exec: &mut LoopExec) {
    exec.repeat().set_enabled(false).unwrap();
}

fn main() {}
