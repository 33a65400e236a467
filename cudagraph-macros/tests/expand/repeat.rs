//! Nodes and edges declared in `for` loops: each node's code once (its eval and update
//! functions, its handle), its instances added in a loop, their dependencies from a table.
use cudagraph_runtime::prelude::*;

cuda_graph! {
    graph Decode {
        const LAYERS: usize = 3;
        params {
            layer: Kernel<(u32, f32, DevicePtr<f32>, DevicePtrMut<f32>)>,
            w: [DeviceBuffer<f32>; LAYERS],
            x: DeviceBuffer<f32>,
            h: [DeviceBuffer<f32>; LAYERS],
            scale: [f32; LAYERS],
            n: u32,
        }
        embed: memset(x, 1.0f32);
        for l in 0..LAYERS {
            attn[l]: kernel layer<<<n.div_ceil(256), 256>>>(n, scale[l], x, h[l]);
            mlp[l]: kernel layer<<<n.div_ceil(256), 256>>>(n, 1.0, h[l], x);
            attn[l] -> mlp[l];
        }
        for l in 0..LAYERS - 1 {
            mlp[l] -> attn[l + 1];
        }
        head: memcpy(x -> w[0]);
        embed -> attn[0];
        mlp[LAYERS - 1] -> head;
    }

    /// Iterations no edge orders, each writing its own element, beside a node writing another
    /// buffer: the elements' memory checked all at once, the pairs with `other` from a table.
    graph Sides {
        params {
            scale: Kernel<(u32, f32, DevicePtrMut<f32>)>,
            g: [DeviceBuffer<f32>; 3],
            x: DeviceBuffer<f32>,
            n: u32,
        }
        for i in 0..3 {
            side[i]: kernel scale<<<1, 32>>>(n, 2.0, g[i]);
        }
        other: kernel scale<<<1, 32>>>(n, 0.5, x);
    }
}

fn main() {}
