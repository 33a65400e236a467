//! T10: no collective in a conditional body (a rank could skip it while its peers wait).
use cudagraph_runtime::prelude::*;

cuda_graph! {
    graph Maybe {
        params {
            comm: cudagraph_runtime::Communicator,
            decide: Kernel<(ConditionalHandle,)>,
            grads: DeviceBuffer<f32>,
        }
        pick: kernel decide<<<1, 1>>>(go);
        gate: if go {
            reduce: all_reduce(comm, grads, Sum);
        }
        pick -> gate;
    }
}

fn main() {}
