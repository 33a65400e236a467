//! T9: a `#[device_launch]` graph holds only kernel, memcpy, memset, empty and child-graph nodes
//! (CUDA's rules for graphs launched from the device): host, event, memory and conditional nodes
//! are refused at their keyword.
use cudagraph_runtime::prelude::*;

cuda_graph! {
    #[device_launch]
    graph Worker {
        params {
            step: Kernel<(ConditionalHandle, DevicePtrMut<u32>)>,
            counter: DeviceBuffer<u32>,
            done: Event,
            log: HostBuffer<u32>,
        }
        bump: kernel step<<<1, 32>>>(more, counter);
        report: host(|_: &[u32]| {}, log);
        signal: record(done);
        block: wait(done);
        scratch: alloc::<u32>(16);
        release: free(scratch);
        repeat: while more(default = 1) {
            again: kernel step<<<1, 32>>>(more, counter);
        }
        bump -> report -> signal -> block -> scratch -> release -> repeat;
    }
}

fn main() {}
