//! T5: a memcpy node cannot change direction or memory types.
use cudagraph_runtime::{cuda_graph, prelude::*};

cuda_graph! {
    graph Readback {
        params {
            y: DevicePtrMut<f32>,
            host_y: HostPtrMut<f32>,
        }
        back: memcpy(y -> host_y);
    }
}


fn retarget_exec(exec: &mut ReadbackExec, dev: DevicePtrMut<f32>, host: HostPtr<f32>, out: HostPtrMut<f32>) {
    let _ = exec.back().set(dev, out); // fine: device to host
    let _ = exec.back().set(host, dev); // host to device
    let _ = exec.back().set(dev, dev); // device to device
}

fn main() {}
