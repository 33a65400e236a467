//! Several mistakes in one declaration: all are reported, in a stable order.
use cudagraph_runtime::cuda_graph;

cuda_graph! {
    graph Messy {
        params {
            y: DevicePtrMut<u32>,
            again: bool,
        }
        clear: memset(y, 0u32);
        clear: empty;
        work: empty;
        done: empty;
        if again {
            extra: empty;
        }
        clear -> work -> clear;
        work -> dne;
        done -> done;
    }
}

fn main() {}
