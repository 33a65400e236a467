//! T2 across iterations: the cycle is spelled with the instances it goes through, each edge
//! that closes it reported once, at the tokens written (in the loop or not).
use cudagraph_runtime::cuda_graph;

cuda_graph! {
    graph Ring {
        params {
            k: Kernel<(u32,)>,
            n: u32,
        }
        for l in 0..3 {
            a[l]: kernel k<<<1, 32>>>(n);
            b[l]: kernel k<<<1, 32>>>(n);
            a[l] -> b[l];
        }
        for l in 0..2 {
            b[l] -> a[l + 1];
        }
        b[2] -> a[0];
    }
}

fn main() {}
