//! T10: an edge joins two nodes of one body, or two nodes outside every body.
use cudagraph_runtime::prelude::*;

cuda_graph! {
    graph Branch {
        params {
            put: Kernel<(u32, DevicePtrMut<u32>)>,
            pick: Kernel<(ConditionalHandle, DevicePtr<u32>)>,
            flag: DeviceBuffer<u32>,
            out: DeviceBuffer<u32>,
        }
        decide: kernel pick<<<1, 32>>>(taken, flag);
        choose: if taken {
            yes: kernel put<<<1, 32>>>(1, out);
        } else {
            no: kernel put<<<1, 32>>>(2, out);
        }
        after: empty;
        decide -> choose;
        yes -> after;
        yes -> no;
    }
}

fn main() {}
