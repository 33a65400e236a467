//! A `#[device_updatable]` kernel node of a `#[device_launch]` declaration, and a kernel after it
//! taking its device handle (`device_node(bump)`) and the offset of its value parameter
//! (`param_offset(bump, 0)`); also with the kernels' types behind aliases, where the offset is
//! checked by the type checker.
use cudagraph_runtime::device_launch::DeviceNode;
use cudagraph_runtime::prelude::*;

type Bump = Kernel<(u32, DevicePtrMut<u32>)>;
type Steer = Kernel<(DeviceNode, u64, DevicePtrMut<u32>)>;

cuda_graph! {
    #[device_launch]
    pub graph Steered {
        params {
            bump_k: Kernel<(u32, DevicePtrMut<u32>)>,
            steer_k: Kernel<(DeviceNode, u64, DevicePtrMut<u32>)>,
            k: u32,
            y: DeviceBuffer<u32>,
            launches: DeviceBuffer<u32>,
        }
        /// Adds `k` to `y[0]`; `steer` changes `k` and whether it runs.
        #[device_updatable]
        bump: kernel bump_k<<<1, 32>>>(k, y);
        steer: kernel steer_k<<<1, 32>>>(device_node(bump), param_offset(bump, 0), launches);
        bump -> steer;
    }
}

cuda_graph! {
    #[device_launch]
    graph Aliased {
        params {
            bump_k: Bump,
            steer_k: Steer,
            k: u32,
            y: DeviceBuffer<u32>,
            launches: DeviceBuffer<u32>,
        }
        #[device_updatable]
        bump: kernel bump_k<<<1, 32>>>(k, y);
        mid: empty;
        steer: kernel steer_k<<<1, 32>>>(device_node(bump), param_offset(bump, 0), launches);
        bump -> mid -> steer;
    }
}

fn main() {
    let _ = |g: Steered,
             s: &std::sync::Arc<cudagraph_runtime::cudarc::driver::CudaStream>|
     -> cudagraph_runtime::Result<DeviceGraphExec> { g.instantiate_for_device_launch(s) };
    let _ = |g: Aliased,
             s: &std::sync::Arc<cudagraph_runtime::cudarc::driver::CudaStream>|
     -> cudagraph_runtime::Result<DeviceGraphExec> { g.instantiate_for_device_launch(s) };
}
