//! A collective runs over a `Communicator` on `DeviceBuffer`s of an NCCL element type, with ranks
//! as `usize`.
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::Communicator;

cuda_graph! {
    graph Typed {
        params {
            comm: Communicator,
            not_comm: u32,
            flags: DeviceBuffer<bool>,
            host: HostBuffer<f32>,
            grads: DeviceBuffer<f32>,
            more: DeviceBuffer<f32>,
        }
        a: all_reduce(not_comm, grads, Sum);
        b: all_reduce(comm, flags, Sum);
        c: send(comm, host, 1);
        d: recv(comm, more, 1.5);
    }
}

fn main() {}
