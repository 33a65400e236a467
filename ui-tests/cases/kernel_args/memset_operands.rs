//! Memset operands: a read-only destination, a value of another type, an element type a memset
//! cannot write.
use cudagraph_runtime::{cuda_graph, prelude::*};

cuda_graph! {
    graph Fill {
        params {
            read_only: DevicePtr<f32>,
            y: DevicePtrMut<f32>,
            wide: DevicePtrMut<f64>,
        }
        a: memset(read_only, 0.0f32);
        b: memset(y, 1u32);
        c: memset(wide, 0.0f64);
    }
}

fn main() {}
