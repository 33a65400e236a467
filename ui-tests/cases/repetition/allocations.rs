//! T7 across iterations: each iteration's allocation is used after its alloc node and before its
//! free node; a use of another iteration's allocation must be ordered with that one.
use cudagraph_runtime::cuda_graph;

cuda_graph! {
    graph Scratch {
        params {
            fill: Kernel<(u32, DevicePtrMut<f32>)>,
            n: u32,
        }
        for l in 0..3 {
            t[l]: alloc::<f32>(n as usize);
            use_t[l]: kernel fill<<<1, 32>>>(n, t[l]);
            f[l]: free(t[l]);
            t[l] -> use_t[l] -> f[l];
        }
        for l in 0..2 {
            // Not ordered after `t[l + 1]`, nor before its free.
            peek[l]: kernel fill<<<1, 32>>>(n, t[l + 1]);
            use_t[l] -> peek[l];
        }
        again: free(t[0]);
        f[0] -> again;
    }
}

fn main() {}
