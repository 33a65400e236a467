//! A param that `set_params` cannot compare with its last value.
use std::sync::atomic::AtomicU32;
use std::sync::Arc;

use cudagraph_runtime::cuda_graph;

cuda_graph! {
    graph Counting {
        params {
            counter: Arc<AtomicU32>,
        }
        count: empty;
    }
}

fn main() {}
