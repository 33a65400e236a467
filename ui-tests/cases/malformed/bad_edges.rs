//! Edges that do not parse.
use cudagraph_runtime::cuda_graph;

cuda_graph! {
    graph Step {
        a: empty;
        b: empty;
        a b;
        a ->;
        a -> [];
        [a, 3] -> b;
        #[doc = "no"] a -> b;
        a => b;
        a -> b
    }
}

fn main() {}
