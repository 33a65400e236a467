//! A `#[device_launch]` declaration: the graph type gains `instantiate_for_device_launch`, and the
//! attribute goes to no generated item.
use cudagraph_runtime::prelude::*;

cuda_graph! {
    #[device_launch]
    graph Worker {
        params {
            step: Kernel<(u32, DevicePtrMut<u32>)>,
            counter: DeviceBuffer<u32>,
            n: u32,
        }
        clear: memset(counter, 0u32);
        bump: kernel step<<<1, 32>>>(n, counter);
        clear -> bump;
    }
}

fn main() {}
