//! A `#[device_updatable]` kernel node of a `#[device_launch]` declaration: it is added with its
//! device handle, which the nodes struct keeps; a later kernel takes it (`device_node(bump)`) and
//! the offset of its first parameter (`param_offset(bump, 0)`, a constant checked where the
//! declaration compiles).
use cudagraph_runtime::device_launch::DeviceNode;
use cudagraph_runtime::prelude::*;

cuda_graph! {
    #[device_launch]
    graph Steered {
        params {
            bump_k: Kernel<(u32, DevicePtrMut<u32>)>,
            steer_k: Kernel<(DeviceNode, u64, DevicePtrMut<u32>)>,
            k: u32,
            y: DeviceBuffer<u32>,
            launches: DeviceBuffer<u32>,
        }
        #[device_updatable]
        bump: kernel bump_k<<<1, 32>>>(k, y);
        steer: kernel steer_k<<<1, 32>>>(device_node(bump), param_offset(bump, 0), launches);
        bump -> steer;
    }
}

fn main() {}
