//! `device_node(x)` and `param_offset(x, i)` that do not name what they must: an unknown node, a
//! node that is not device-updatable, the node itself, a node not ordered before the kernel, a
//! pointer parameter, an index past the last parameter, an index that is no literal, and a
//! malformed form.
use cudagraph_runtime::prelude::*;

cuda_graph! {
    #[device_launch]
    graph Arguments {
        params {
            bump_k: Kernel<(u32, DevicePtrMut<u32>)>,
            steer_k: Kernel<(cudagraph_runtime::device_launch::DeviceNode, u64, DevicePtrMut<u32>)>,
            k: u32,
            y: DeviceBuffer<u32>,
            z: DeviceBuffer<u32>,
            launches: DeviceBuffer<u32>,
        }
        #[device_updatable]
        bump: kernel bump_k<<<1, 32>>>(k, y);
        plain: kernel bump_k<<<1, 32>>>(k, z);
        unknown: kernel steer_k<<<1, 32>>>(device_node(nowhere), 0u64, launches);
        not_updatable: kernel steer_k<<<1, 32>>>(device_node(plain), param_offset(plain, 0), launches);
        #[device_updatable]
        itself: kernel steer_k<<<1, 32>>>(device_node(itself), 0u64, launches);
        unordered: kernel steer_k<<<1, 32>>>(device_node(bump), param_offset(bump, 1), launches);
        past: kernel steer_k<<<1, 32>>>(device_node(bump), param_offset(bump, 2), launches);
        const I: usize = 0;
        not_literal: kernel steer_k<<<1, 32>>>(device_node(bump), param_offset(bump, I), launches);
        malformed: kernel steer_k<<<1, 32>>>(device_node(bump, 1), param_offset(bump), launches);
        bump -> [past, not_literal, malformed];
        plain -> not_updatable;
        unknown -> not_updatable -> itself -> unordered;
    }
}

fn main() {}
