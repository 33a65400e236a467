//! T1: the same dependency declared twice (directly, and through a bracketed list).
use cudagraph_runtime::cuda_graph;

cuda_graph! {
    graph Again {
        a: empty;
        b: empty;
        c: empty;
        a -> b;
        [a, c] -> b;
    }
}

fn main() {}
