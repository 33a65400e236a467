//! An all-reduce between two kernels, over a `Communicator` param (feature `nccl`).
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::Communicator;

cuda_graph! {
    graph Step {
        params {
            comm: Communicator,
            grad: Kernel<(u32, DevicePtrMut<f32>)>,
            update: Kernel<(u32, DevicePtr<f32>)>,
            grads: DeviceBuffer<f32>,
            n: u32,
        }
        local: kernel grad<<<n.div_ceil(256), 256>>>(n, grads);
        average: all_reduce(comm, grads, Avg);
        step: kernel update<<<n.div_ceil(256), 256>>>(n, grads);
        local -> average -> step;
    }
}

fn main() {}
