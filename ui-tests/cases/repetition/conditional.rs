//! T10 across iterations: an edge from a loop's node into a conditional body crosses the body,
//! in every iteration (reported once); a loop's kernel sets only handles it may set.
use cudagraph_runtime::cuda_graph;

cuda_graph! {
    graph Bodies {
        params {
            set: Kernel<(ConditionalHandle,)>,
            k: Kernel<(u32,)>,
            n: u32,
        }
        outer: if go {
            inner: if deep {
                leaf: kernel k<<<1, 1>>>(n);
            }
        }
        for l in 0..2 {
            step[l]: kernel set<<<1, 1>>>(deep);
            step[l] -> leaf;
        }
    }
}

fn main() {}
