//! The generated code computes an index again, as written, in `usize` arithmetic: the macro
//! computes it the same way, so that the rules judge the element a node uses. A value below zero
//! on the way overflows there (a panic with overflow checks; without, `(layer - 3) % 3` wraps to
//! element 1 at `layer = 0`, which `other` writes unordered): refused. So is a cast to an alias
//! named `usize`, which would truncate (`(layer + 256) as usize` is element 0 as a `u8`).
use cudagraph_runtime::cuda_graph;

cuda_graph! {
    graph Wraps {
        params {
            k: Kernel<(u32, DevicePtrMut<f32>)>,
            w: [DeviceBuffer<f32>; 3],
            n: u32,
        }
        other: kernel k<<<1, 32>>>(n, w[1]);
        for layer in 0..1 {
            step[layer]: kernel k<<<1, 32>>>(n, w[(layer - 3) % 3]);
        }
    }
}

mod narrow {
    use cudagraph_runtime::{cuda_graph, prelude::*};

    #[allow(non_camel_case_types)]
    type usize = u8;

    cuda_graph! {
        graph Truncates {
            params {
                k: Kernel<(u32, DevicePtrMut<f32>)>,
                w: [DeviceBuffer<f32>; 300],
                n: u32,
            }
            other: kernel k<<<1, 32>>>(n, w[0]);
            for layer in 0..1 {
                step[layer]: kernel k<<<1, 32>>>(n, w[((layer + 256) as usize) as ::core::primitive::usize]);
            }
        }
    }
}

fn main() {}
