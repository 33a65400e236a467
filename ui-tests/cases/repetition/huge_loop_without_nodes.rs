//! A loop that declares no node and no edge is not walked iteration by iteration, whatever its
//! count: the macro ran 2^64 empty iterations (the build never ended) before reporting the
//! statement that does not parse.
use cudagraph_runtime::cuda_graph;

cuda_graph! {
    graph Huge {
        first: empty;
        for i in 0..18446744073709551615 {
            first;
        }
    }
}

fn main() {}
