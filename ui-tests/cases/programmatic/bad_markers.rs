//! `#[waits]` marks kernel nodes only and takes no arguments; `->(...)` takes `programmatic` or
//! `launch_order`; `#[programmatic]` takes no arguments.
use cudagraph_runtime::{cuda_graph, prelude::*};

cuda_graph! {
    #[programmatic(all)]
    graph Pdl {
        params {
            fill: Kernel<(u32, DevicePtrMut<f32>)>,
            x: DeviceBuffer<f32>,
            n: u32,
        }
        #[waits]
        zero: memset(x, 0.0f32);
        #[waits(always)]
        a: kernel fill<<<1, 32>>>(n, x);
        zero -> a;
    }
    graph Typo {
        params {
            fill: Kernel<(u32, DevicePtrMut<f32>)>,
            x: DeviceBuffer<f32>,
            n: u32,
        }
        a: kernel fill<<<1, 32>>>(n, x);
        b: kernel fill<<<1, 32>>>(n, x);
        a ->(programatic) b;
    }
}

fn main() {}
