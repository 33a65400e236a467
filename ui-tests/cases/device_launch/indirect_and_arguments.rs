//! T9: `#[indirect]` params of a `#[device_launch]` graph (published by host launches) are
//! refused at the param; the attribute takes no arguments.
use cudagraph_runtime::prelude::*;

cuda_graph! {
    #[device_launch]
    graph Scaler {
        params {
            step: Kernel<(f32, DevicePtrMut<f32>)>,
            to: DeviceBuffer<f32>,
            #[indirect]
            scale: f32,
        }
        run: kernel step<<<1, 32>>>(scale, to);
    }
}

cuda_graph! {
    #[device_launch(tail)]
    graph Tagged {
        only: empty;
    }
}

fn main() {}
