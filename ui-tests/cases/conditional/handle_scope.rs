//! T10: a handle is set by nodes beside its conditional node or inside its bodies, not from
//! outside them, and not by another graph of the call.
use cudagraph_runtime::prelude::*;

cuda_graph! {
    graph Outer {
        params {
            pick: Kernel<(ConditionalHandle, DevicePtr<u32>)>,
            flag: DeviceBuffer<u32>,
        }
        early: kernel pick<<<1, 32>>>(inner_more, flag);
        outer: while more(default = 1) {
            body_step: kernel pick<<<1, 32>>>(more, flag);
            inner: while inner_more(default = 1) {
                inner_step: kernel pick<<<1, 32>>>(inner_more, flag);
            }
            body_step -> inner;
        }
        early -> outer;
    }

    graph Other {
        params {
            pick: Kernel<(ConditionalHandle, DevicePtr<u32>)>,
            flag: DeviceBuffer<u32>,
        }
        stranger: kernel pick<<<1, 32>>>(more, flag);
    }
}

fn main() {}
