//! A device graph's handle imported under a memory type's name: `cuda_graph!` takes a param
//! written `DeviceBuffer` for memory and would not check what the kernel given it may launch
//! (T14 through device graph launches), so the name is asserted to be memory.
use cudagraph_runtime::{cuda_graph, prelude::*};
use cudagraph_runtime::SharedDeviceGraph as DeviceBuffer;

cuda_graph! {
    graph Renamed {
        params {
            launch: Kernel<(DeviceGraph, u32)>,
            worker: DeviceBuffer,
            n: u32,
        }
        go: kernel launch<<<1, 1>>>(worker, n);
    }
}

fn main() {}
