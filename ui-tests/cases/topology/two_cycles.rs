//! T2: two cycles sharing a node, declared with bracketed lists; edges off the cycles are fine.
use cudagraph_runtime::cuda_graph;

cuda_graph! {
    graph Knot {
        a: empty;
        b: empty;
        c: empty;
        d: empty;
        a -> [b, c] -> a;
        c -> d;
    }
}

fn main() {}
