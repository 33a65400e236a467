//! T14 with a kernel whose parameter types are behind an alias: the macro cannot tell which
//! buffers it writes, so it counts them all as written.
use cudagraph_runtime::{cuda_graph, prelude::*};

type Sum = (u32, DevicePtr<f32>, DevicePtrMut<f32>);

cuda_graph! {
    graph Sums {
        params {
            sum: Kernel<Sum>,
            x: DeviceBuffer<f32>,
            a: DeviceBuffer<f32>,
            b: DeviceBuffer<f32>,
            n: u32,
        }
        first: kernel sum<<<1, 256>>>(n, x, a);
        second: kernel sum<<<1, 256>>>(n, x, b);
    }
}

fn main() {}
