//! T9: a `#[device_launch]` graph copies only device memory and device-mapped page-locked host
//! memory: a memcpy operand whose type the macro cannot tell to be one (an alias) is refused at
//! the operand; `#[indirect]` params (published by host launches) are refused; the attribute takes
//! no arguments.
use cudagraph_runtime::prelude::*;

type Staging = DeviceBuffer<f32>;

cuda_graph! {
    #[device_launch]
    graph Copier {
        params {
            from: Staging,
            to: DeviceBuffer<f32>,
            back: HostBuffer<f32>,
            #[indirect]
            scale: f32,
        }
        there: memcpy(from -> to);
        home: memcpy(to -> back);
        there -> home;
    }
}

cuda_graph! {
    #[device_launch(tail)]
    graph Tagged {
        only: empty;
    }
}

fn main() {}
