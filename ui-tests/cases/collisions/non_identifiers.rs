//! Names the expansion cannot derive items from: a node name that rustc could not lex as an
//! identifier (it reports it, and passes it on). Params named `_1` and `__` are fine: their
//! setters are `set__1` and `set___`.
use cudagraph_runtime::{cuda_graph, prelude::*};

cuda_graph! {
    graph Odd {
        params {
            fill: Kernel<(u32, DevicePtrMut<f32>)>,
            _1: u32,
            __: u32,
            y: DeviceBuffer<f32>,
        }
        ñode: kernel fill<<<1, 32>>>(_1 + __, y);
    }

    graph Emoji {
        stop🛑: empty;
    }
}

fn main() {}
