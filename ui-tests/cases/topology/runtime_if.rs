//! T12: an `if` choosing nodes at run time.
use cudagraph_runtime::cuda_graph;

cuda_graph! {
    graph Branchy {
        params {
            y: DevicePtrMut<f32>,
            clear: bool,
        }
        start: empty;
        if clear {
            zero: memset(y, 0.0f32);
            start -> zero;
        } else {
            idle: empty;
        }
    }
}

fn main() {}
