//! Nodes whose index of `scale` may pick another element than its tokens say (a macro call, an
//! item hiding a graph const or the loop variable; see `tests/tests/generated_hidden_reads.rs`):
//! each reads every element of `scale`, in `READERS` and the setters' docs.
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
            yd: DeviceBuffer<f32>,
        }
        a: kernel scale_k<<<1, 32>>>(n, next!(scale[0]), ya);
        b: kernel scale_k<<<1, 32>>>(n, { const K: usize = 1; scale[K] }, yb);
        for l in 0..2 {
            c[l]: kernel scale_k<<<1, 32>>>(n, { zero_l!(); scale[l] }, yc[l]);
        }
        // Written plainly: `scale[0]` alone.
        d: kernel scale_k<<<1, 32>>>(n, scale[K], yd);
    }
}

fn main() {}
