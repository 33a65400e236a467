//! Memcpy operands: into read-only memory, host to host, between element types.
use cudagraph_runtime::{cuda_graph, prelude::*};

cuda_graph! {
    graph Copies {
        params {
            x: DevicePtr<f32>,
            y: DevicePtrMut<f32>,
            host_in: HostPtr<f32>,
            host_out: HostPtrMut<f32>,
            ints: HostPtrMut<u32>,
        }
        a: memcpy(y -> x);
        b: memcpy(host_in -> host_out);
        c: memcpy(y -> ints);
    }
}

fn main() {}
