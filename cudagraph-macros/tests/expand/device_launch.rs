//! A `#[device_launch]` declaration: the graph type gains `instantiate_for_device_launch`, and the
//! attribute goes to no generated item. A kernel given its handle as a param: what the launched
//! graph uses is checked against the nodes not ordered before the launching kernel. The params a
//! memcpy copies are asked whether they are buffers a device graph may copy.
use cudagraph_runtime::prelude::*;

cuda_graph! {
    #[device_launch]
    graph Worker {
        params {
            step: Kernel<(u32, DevicePtrMut<u32>)>,
            counter: DeviceBuffer<u32>,
            mirror: HostBuffer<u32>,
            n: u32,
        }
        clear: memset(counter, 0u32);
        bump: kernel step<<<1, 32>>>(n, counter);
        copy: memcpy(counter -> mirror);
        clear -> bump -> copy;
    }
}

cuda_graph! {
    graph Launcher {
        params {
            launch: Kernel<(DeviceGraph, u32)>,
            bump: Kernel<(u32, DevicePtrMut<u32>)>,
            worker: SharedDeviceGraph,
            counter: DeviceBuffer<u32>,
            n: u32,
        }
        before: kernel bump<<<1, 32>>>(n, counter);
        go: kernel launch<<<1, 1>>>(worker, n);
        after: kernel bump<<<1, 32>>>(n, counter);
        before -> go -> after;
    }
}

fn main() {}
