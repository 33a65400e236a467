//! `param_offset(x, i)` of a pointer parameter, or past the last one, when `x`'s kernel type is
//! behind an alias: the macro cannot see the parameter types, and a constant fails where the
//! declaration compiles, at the index, naming the node, the kernel param and what to do.
use cudagraph_runtime::device_launch::DeviceNode;
use cudagraph_runtime::prelude::*;

type Bump = Kernel<(u32, DevicePtrMut<u32>)>;

cuda_graph! {
    #[device_launch]
    graph Aliased {
        params {
            bump_k: Bump,
            steer_k: Kernel<(DeviceNode, u64, DevicePtrMut<u32>)>,
            k: u32,
            y: DeviceBuffer<u32>,
            launches: DeviceBuffer<u32>,
        }
        #[device_updatable]
        bump: kernel bump_k<<<1, 32>>>(k, y);
        steer: kernel steer_k<<<1, 32>>>(device_node(bump), param_offset(bump, 1), launches);
        bump -> steer;
    }
}

cuda_graph! {
    #[device_launch]
    graph PastEnd {
        params {
            bump_k: Bump,
            steer_k: Kernel<(DeviceNode, u64)>,
            k: u32,
            y: DeviceBuffer<u32>,
        }
        #[device_updatable]
        bump: kernel bump_k<<<1, 32>>>(k, y);
        steer: kernel steer_k<<<1, 32>>>(device_node(bump), param_offset(bump, 2));
        bump -> steer;
    }
}

fn main() {}
