//! Punctuation, literals and groups where statements belong.
use cudagraph_runtime::cuda_graph;

cuda_graph! {
    graph Step {
        a: empty;
        (a, b);
        { a -> b }
        a: : empty;
        "text";
        b: empty;
    }
}

fn main() {}
