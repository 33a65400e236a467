//! Declarations compiled against each CUDA binding of cudagraph-runtime (see Cargo.toml).
#![allow(dead_code)]

use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{cuda_graph, Event, ExternalSemaphore};

fn tick() {}

cuda_graph! {
    /// Every node kind every binding has.
    graph Plain {
        params {
            scale: Kernel<(u32, f32, DevicePtrMut<f32>)>,
            host_x: HostBuffer<f32>,
            x: DeviceBuffer<f32>,
            y: DeviceBuffer<f32>,
            done: Event,
            sem: ExternalSemaphore,
            frame: u64,
            n: u32,
            a: f32,
            tick_fn: fn(),
        }
        up: memcpy(host_x -> x);
        clear: memset(y, 0.0f32);
        t: alloc::<f32>(n as usize);
        fill_t: memset(t, 1.0f32);
        join: empty;
        run: kernel scale<<<n.div_ceil(256), 256>>>(n, a, x);
        back: memcpy(x -> y);
        free_t: free(t);
        beat: host(tick_fn);
        mark: record(done);
        ready: wait(sem = 2 * frame + 1);
        release: signal(sem = 2 * frame + 2);
        t -> fill_t -> free_t;
        [up, clear] -> join -> run -> back -> beat -> mark;
        ready -> run -> release;
    }
}

#[cfg(feature = "conditional")]
mod conditional {
    use cudagraph_runtime::prelude::*;
    use cudagraph_runtime::{cuda_graph, ConditionalHandle};

    cuda_graph! {
        /// IF/ELSE and WHILE nodes (CUDA 12.3 bindings).
        graph Branches {
            params {
                step: Kernel<(ConditionalHandle, DevicePtrMut<u32>)>,
                put: Kernel<(u32, DevicePtrMut<u32>)>,
                counter: DeviceBuffer<u32>,
                out: DeviceBuffer<u32>,
            }
            count: while more(default = 1) {
                bump: kernel step<<<1, 32>>>(more, counter);
            }
            parity: kernel step<<<1, 32>>>(odd, counter);
            branch: if odd {
                mark_odd: kernel put<<<1, 32>>>(1, out);
            } else {
                mark_even: kernel put<<<1, 32>>>(0, out);
            }
            count -> parity -> branch;
        }
    }
}

#[cfg(feature = "switch")]
mod switch {
    use cudagraph_runtime::prelude::*;
    use cudagraph_runtime::{cuda_graph, ConditionalHandle};

    cuda_graph! {
        /// A SWITCH node (CUDA 12.8 bindings).
        graph Pick {
            params {
                set_from: Kernel<(ConditionalHandle, DevicePtr<u32>)>,
                put: Kernel<(u32, DevicePtrMut<u32>)>,
                choice: DeviceBuffer<u32>,
                out: DeviceBuffer<u32>,
            }
            pick: kernel set_from<<<1, 32>>>(case, choice);
            select: switch case {
                0 => { c0: kernel put<<<1, 32>>>(100, out); }
                1 => { c1: kernel put<<<1, 32>>>(101, out); }
            }
            pick -> select;
        }
    }
}

#[cfg(feature = "programmatic")]
mod programmatic {
    use cudagraph_runtime::cuda_graph;
    use cudagraph_runtime::prelude::*;

    cuda_graph! {
        /// Programmatic and launch-order edges (CUDA 12.3 bindings).
        graph Chain {
            params {
                fill: Kernel<(u32, DevicePtrMut<f32>)>,
                x: DeviceBuffer<f32>,
                y: DeviceBuffer<f32>,
                n: u32,
            }
            a: kernel fill<<<1, 32>>>(n, x);
            #[waits]
            b: kernel fill<<<1, 32>>>(n, x);
            c: kernel fill<<<1, 32>>>(n, y);
            a ->(programmatic) b ->(launch_order) c;
        }
    }
}

/// Collective nodes (the `nccl` feature).
#[cfg(feature = "nccl")]
mod collectives {
    use cudagraph_runtime::prelude::*;
    use cudagraph_runtime::{cuda_graph, Communicator};

    cuda_graph! {
        graph Collectives {
            params {
                comm: Communicator,
                grads: DeviceBuffer<f32>,
                all: DeviceBuffer<f32>,
                peer: usize,
            }
            reduce: all_reduce(comm, grads, Avg);
            gather: all_gather(comm, grads -> all);
            share: broadcast(comm, all, peer);
            reduce -> gather -> share;
        }
    }
}
