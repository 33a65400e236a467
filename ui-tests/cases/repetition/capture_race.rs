//! T14 with capture nodes repeated in a loop (a decode step's per-layer GEMMs): each capture's
//! declared uses are judged across iterations. Without the edge from one layer to the next, the
//! second layer's GEMM reads `x` while the first layer's output kernel writes it, and the GEMMs
//! of two layers write `h` unordered. Each layer's own weights (`w[l]`) race with nothing.
use cudagraph_runtime::{cuda_graph, prelude::*, Capture};

cuda_graph! {
    graph Layers {
        const LAYERS: usize = 2;
        params {
            act: Kernel<(u32, DevicePtr<f32>, DevicePtrMut<f32>)>,
            gemm: [Capture; LAYERS],
            w: [DeviceBuffer<f32>; LAYERS],
            x: DeviceBuffer<f32>,
            h: DeviceBuffer<f32>,
            n: u32,
        }
        for l in 0..LAYERS {
            up[l]: capture(gemm[l], [w[l], x, mut h]);
            out[l]: kernel act<<<1, 32>>>(n, h, x);
            up[l] -> out[l];
        }
        // Missing: `for l in 0..LAYERS - 1 { out[l] -> up[l + 1]; }`
    }
}

fn main() {}
