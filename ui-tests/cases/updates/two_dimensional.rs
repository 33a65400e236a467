//! T5: only 1-D memset and memcpy nodes can be updated.
use cudagraph_runtime::{cuda_graph, prelude::*};

cuda_graph! {
    graph Planes {
        params {
            y: DevicePtrMut<u32>,
            host_y: HostPtrMut<u32>,
        }
        clear: memset(y, 0u32);
        back: memcpy(y -> host_y);
        clear -> back;
    }
}

fn widen(exec: &mut PlanesExec, y: DevicePtrMut<u32>, host_y: HostPtrMut<u32>) {
    let _ = exec.clear().set_2d(y, 256, 7u32, 64, 64);
    let _ = exec.back().set_2d(y, 256, host_y, 256, 64, 64);
}

fn main() {}
