//! T14 across iterations: nodes of different iterations (or of one iteration) that no edge
//! orders race on one buffer, or on one element of an array param; the fix is an edge between
//! the instances, in the loop when they are of one iteration. Elements of an array param that
//! each iteration has for itself do not race.
use cudagraph_runtime::cuda_graph;

cuda_graph! {
    graph Racy {
        const N: usize = 4;
        params {
            write: Kernel<(u32, DevicePtrMut<f32>)>,
            read: Kernel<(u32, DevicePtr<f32>)>,
            x: DeviceBuffer<f32>,
            h: [DeviceBuffer<f32>; N],
            own: [DeviceBuffer<f32>; N],
            n: u32,
        }
        for i in 0..N {
            // Every iteration writes `x`, and no edge orders the iterations.
            acc[i]: kernel write<<<1, 32>>>(n, x);
            // Within one iteration: `use_h[i]` reads what `fill[i]` writes, unordered.
            fill[i]: kernel write<<<1, 32>>>(n, h[i]);
            use_h[i]: kernel read<<<1, 32>>>(n, h[i]);
            // Each iteration's own element: no race.
            mine[i]: kernel write<<<1, 32>>>(n, own[i]);
        }
        // Reads the first iteration's element while the loop writes it.
        peek: kernel read<<<1, 32>>>(n, h[0]);
    }
}

fn main() {}
