//! Every form a kernel argument that gives memory may take (the race rule judges it as what it
//! names): a param or allocation by name; an element of an array param or of a repeated
//! allocation at an index the macro knows; a `DeviceBuffer` param's `.slice(range)` (of an
//! element too), the range any expression. A parameter behind an alias that takes a value takes
//! any expression.
use cudagraph_runtime::{cuda_graph, prelude::*};

type Buf = DeviceBuffer<f32>;
type Out = DevicePtrMut<f32>;
type Scale = f32;
type Fill = Kernel<(u32, Scale, Out)>;

fn half_of(n: u32) -> usize {
    n as usize / 2
}

cuda_graph! {
    graph Forms {
        const LAYERS: usize = 2;
        params {
            fill: Kernel<(u32, f32, DevicePtrMut<f32>)>,
            copy: Kernel<(u32, DevicePtr<f32>, DevicePtrMut<f32>)>,
            aliased: Kernel<(u32, Scale, Out)>,
            whole: Fill,
            x: DeviceBuffer<f32>,
            y: Buf,
            raw: DevicePtrMut<f32>,
            w: [DeviceBuffer<f32>; LAYERS],
            n: u32,
            flag: bool,
        }
        // By name: a param, a raw pointer param, an allocation.
        named: kernel fill<<<1, 32>>>(n, 1.0, x);
        pointer: kernel fill<<<1, 32>>>(n, 1.0, raw);
        t: alloc::<f32>(n as usize);
        into_t: kernel copy<<<1, 32>>>(n, x, t);
        free_t: free(t);
        // Parts of a buffer, the ranges any expression.
        #[unordered(y)] lo: kernel fill<<<1, 32>>>(n, 1.0, y.slice(..half_of(n)));
        #[unordered(y)] hi: kernel fill<<<1, 32>>>(n, 2.0, y.slice({ let h = half_of(n); h.. }));
        // Through aliases: the pointer as a name, the value as any expression.
        through: kernel aliased<<<1, 32>>>(n, if flag { 0.5 } else { x.len() as f32 }, x);
        all_alias: kernel whole<<<1, 32>>>(n / 2, 2.0, y.slice(1..));
        for layer in 0..LAYERS {
            // Elements at indices the macro knows, whole or in part.
            step[layer]: kernel copy<<<1, 32>>>(n, w[layer], w[(layer + 1) % LAYERS].slice(..1));
            tmp[layer]: alloc::<f32>(n as usize);
            use_tmp[layer]: kernel fill<<<1, 32>>>(n, 0.0, tmp[layer]);
            done[layer]: free(tmp[layer]);
            tmp[layer] -> use_tmp[layer] -> done[layer];
        }
        named -> pointer -> t -> into_t -> free_t -> through;
        [lo, hi] -> all_alias -> through;
        step[0] -> step[1];
    }
}

fn main() {
    let _ = Forms::TOPOLOGY;
}
