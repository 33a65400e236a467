//! T10: a conditional body holds only kernel, empty, child, memset, memcpy and conditional nodes.
use cudagraph_runtime::prelude::*;

cuda_graph! {
    graph Loop {
        params {
            step: Kernel<(ConditionalHandle, DevicePtrMut<u32>)>,
            counter: DeviceBuffer<u32>,
            done: Event,
            log: HostBuffer<u32>,
        }
        repeat: while more(default = 1) {
            bump: kernel step<<<1, 32>>>(more, counter);
            report: host(|_: &[u32]| {}, log);
            signal: record(done);
            scratch: alloc::<u32>(16);
            bump -> report;
            bump -> signal;
        }
    }
}

fn main() {}
