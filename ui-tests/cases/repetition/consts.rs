//! A graph's consts are `usize` values the macro computes (from literals and the consts before
//! them), declared once, at the graph's top, not named like a param.
use cudagraph_runtime::cuda_graph;

cuda_graph! {
    graph Consts {
        const WIDE: u32 = 4;
        const BEFORE: usize = AFTER * 2;
        const AFTER: usize = 2;
        const UNKNOWN: usize = core::mem::size_of::<u64>();
        const n: usize = 1;
        const AFTER: usize = 3;
        params {
            k: Kernel<(u32,)>,
            n: u32,
        }
        for l in 0..AFTER {
            const INSIDE: usize = 1;
            a[l]: kernel k<<<1, 1>>>(n);
        }
    }
}

fn main() {}
