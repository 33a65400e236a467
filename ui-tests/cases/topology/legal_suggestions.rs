//! Suggestions are checked before they are made: no "did you mean" that would close a cycle, and
//! a conditional handle named as a node is said to be one.
use cudagraph_runtime::{cuda_graph, prelude::*, ConditionalHandle};

cuda_graph! {
    graph Suggest {
        params {
            set: Kernel<(ConditionalHandle,)>,
        }
        load: empty;
        store: empty;
        decide: kernel set<<<1, 1>>>(go);
        branch: if go {
            inside: empty;
        }
        load -> store;
        // `load` is close, but `store -> load` would close a cycle: not suggested.
        store -> lod;
        // `go` is the handle of `branch`, not a node.
        decide -> go;
    }
}

fn main() {}
