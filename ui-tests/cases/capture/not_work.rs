//! A capture node records a `Capture` param, named as it is: not an expression.
use cudagraph_runtime::prelude::*;

cuda_graph! {
    graph Recorded {
        params {
            work: cudagraph_runtime::Capture,
        }
        not_a_param: capture(work.clone());
    }
}

fn main() {}
