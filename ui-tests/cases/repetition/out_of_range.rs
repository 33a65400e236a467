//! Indices that pick no node or no element, in some iteration: each reported at its tokens, with
//! the iteration where it does.
use cudagraph_runtime::cuda_graph;

cuda_graph! {
    graph Layers {
        const LAYERS: usize = 4;
        params {
            k: Kernel<(u32, DevicePtr<f32>, DevicePtrMut<f32>)>,
            w: [DeviceBuffer<f32>; LAYERS],
            x: DeviceBuffer<f32>,
            n: u32,
        }
        embed: memset(x, 0.0f32);
        for layer in 0..LAYERS {
            attn[layer]: kernel k<<<1, 32>>>(n, w[layer + 1], x);
            // The last iteration has no next one.
            attn[layer] -> attn[layer + 1];
        }
        head: memset(w[LAYERS], 1.0f32);
        embed -> attn[0];
        attn[LAYERS] -> head;
    }
}

fn main() {}
