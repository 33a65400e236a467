//! The race rule sees a node's memory through the params and allocations it names: a pointer
//! argument reaching memory another way (here a `static`, through a function) would let two
//! unordered nodes write it unchecked, so it must be a param (or allocation) by name, element or
//! part (`hazards/pointer_arg_forms` has the other forms refused).
use std::sync::OnceLock;

use cudagraph_runtime::{cuda_graph, prelude::*};

static SHARED: OnceLock<DeviceBuffer<f32>> = OnceLock::new();

fn shared() -> &'static DeviceBuffer<f32> {
    SHARED.get().expect("set before the graph is built")
}

cuda_graph! {
    graph Hidden {
        params {
            k: Kernel<(u32, DevicePtrMut<f32>)>,
            n: u32,
        }
        a: kernel k<<<1, 32>>>(n, shared());
        b: kernel k<<<1, 32>>>(n, shared());
    }
}

fn main() {}
