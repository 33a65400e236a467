//! A loop of `usize::MAX` iterations after other nodes is refused like any loop too large (the
//! macro's total of nodes overflowed: it panicked, or in a release build ran out of memory).
use cudagraph_runtime::cuda_graph;

cuda_graph! {
    graph Huge {
        first: empty;
        for i in 0..18446744073709551615 {
            step[i]: empty;
        }
        first -> step[0];
    }
}

fn main() {}
