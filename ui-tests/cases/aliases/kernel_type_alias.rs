//! T14 with a kernel whose parameter tuple is behind an alias: the type system says which
//! buffers it reads and which it writes. Two kernels that only read `x` do not race; two that
//! write `out` do.
use cudagraph_runtime::{cuda_graph, prelude::*};

type Sum = (u32, DevicePtr<f32>, DevicePtrMut<f32>);

cuda_graph! {
    graph Sums {
        params {
            sum: Kernel<Sum>,
            x: DeviceBuffer<f32>,
            a: DeviceBuffer<f32>,
            out: DeviceBuffer<f32>,
            n: u32,
        }
        first: kernel sum<<<1, 256>>>(n, x, a);
        second: kernel sum<<<1, 256>>>(n, x, out);
        third: kernel sum<<<1, 256>>>(n, a, out);
        first -> third;
    }
}

fn main() {}
