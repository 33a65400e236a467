//! `#[device_updatable]` in a declaration that is not `#[device_launch]`: a graph with
//! device-updatable nodes is instantiated only for device launch.
use cudagraph_runtime::prelude::*;

cuda_graph! {
    graph HostLaunched {
        params {
            bump_k: Kernel<(u32, DevicePtrMut<u32>)>,
            k: u32,
            y: DeviceBuffer<u32>,
        }
        #[device_updatable]
        bump: kernel bump_k<<<1, 32>>>(k, y);
    }
}

fn main() {}
