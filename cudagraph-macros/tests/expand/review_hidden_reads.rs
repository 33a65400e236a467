//! REVIEW (rev-macro): nodes that read another element of `scale` than their tokens name (see
//! `tests/tests/review_hidden_reads.rs`): the readers of each element, in `READERS` and the
//! setters' docs, leave them out.
use cudagraph_runtime::prelude::*;

cuda_graph! {
    graph Hidden {
        const K: usize = 0;
        params {
            scale_k: Kernel<(u32, f32, DevicePtrMut<f32>)>,
            scale: [f32; 2],
            n: u32,
            ya: DeviceBuffer<f32>,
            yb: DeviceBuffer<f32>,
            yc: [DeviceBuffer<f32>; 2],
        }
        a: kernel scale_k<<<1, 32>>>(n, next!(scale[0]), ya);
        b: kernel scale_k<<<1, 32>>>(n, { const K: usize = 1; scale[K] }, yb);
        for l in 0..2 {
            c[l]: kernel scale_k<<<1, 32>>>(n, { zero_l!(); scale[l] }, yc[l]);
        }
    }
}

fn main() {}
