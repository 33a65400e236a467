//! T2: a dependency cycle; every edge of it is reported, each at its arrow.
use cudagraph_runtime::cuda_graph;

cuda_graph! {
    graph Loop {
        load: empty;
        compute: empty;
        store: empty;
        done: empty;
        load -> compute -> store;
        store -> load;
        store -> done;
    }
}

fn main() {}
