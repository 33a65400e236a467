//! Collective nodes over a `Communicator` param: every operation, in place and from a source to
//! a destination, with ranks computed from the params.
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::Communicator;

cuda_graph! {
    graph Collectives {
        params {
            comm: Communicator,
            scale: Kernel<(u32, DevicePtrMut<f32>)>,
            grads: DeviceBuffer<f32>,
            summed: DeviceBuffer<f32>,
            gathered: DeviceBuffer<f32>,
            shard: DeviceBuffer<f32>,
            counts: DeviceBuffer<u64>,
            halo: DeviceBuffer<f64>,
            ghost: DeviceBuffer<f64>,
            rank: usize,
            size: usize,
        }
        local: kernel scale<<<1, 32>>>(32, grads);
        reduce: all_reduce(comm, grads -> summed, Sum);
        in_place: all_reduce(comm, counts, Max);
        gather: all_gather(comm, summed -> gathered);
        scatter: reduce_scatter(comm, gathered -> shard, Avg);
        share: broadcast(comm, counts, 0);
        ring: send_recv(comm, halo -> ghost, (rank + 1) % size, (rank + size - 1) % size);
        local -> reduce -> gather -> scatter;
        in_place -> share;
    }
}

fn main() {
    let _ = CollectivesExec::launch;
}
