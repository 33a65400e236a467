//! A collective's communicator and buffers are params; its reduction is one NCCL has.
use cudagraph_runtime::prelude::*;

cuda_graph! {
    graph Wrong {
        params {
            comm: cudagraph_runtime::Communicator,
            grads: DeviceBuffer<f32>,
            out: DeviceBuffer<f32>,
        }
        scratch: alloc::<f32>(16);
        unknown: all_reduce(com, grads, Sum);
        allocated: all_gather(comm, scratch -> out);
        typo: all_reduce(comm, grads, Summ);
    }
}

cuda_graph! {
    graph Shapes {
        params {
            comm: cudagraph_runtime::Communicator,
            grads: DeviceBuffer<f32>,
            out: DeviceBuffer<f32>,
        }
        one_buffer: all_gather(comm, grads);
        two_buffers: send(comm, grads -> out, 1);
    }
}

fn main() {}
