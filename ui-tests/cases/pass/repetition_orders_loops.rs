//! T10b across iterations: a WHILE node and an IF node ordered only through a loop's chain of
//! nodes (edges between iterations) are ordered, and accepted.
use cudagraph_runtime::{cuda_graph, prelude::*};

cuda_graph! {
    graph Loops {
        params {
            k: Kernel<(u32,)>,
            n: u32,
        }
        spin: while go {
            tick: kernel k<<<1, 1>>>(n);
        }
        once: if maybe {
            tock: kernel k<<<1, 1>>>(n);
        }
        for i in 0..3 {
            step[i]: kernel k<<<1, 1>>>(n);
        }
        for i in 0..2 {
            step[i] -> step[i + 1];
        }
        spin -> step[0];
        step[2] -> once;
    }
}

fn main() {}
