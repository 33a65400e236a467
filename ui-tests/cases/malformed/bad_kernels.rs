//! Kernel nodes that do not parse.
use cudagraph_runtime::cuda_graph;

cuda_graph! {
    graph Step {
        params {
            k: Kernel<(u32,)>,
        }
        a: kernel k(1);
        b: kernel <<<1, 1>>>(1);
        c: kernel k<<<1, 1>>>;
        d: kernel k<<<1, 1(1);
        e: kernel k<<<1 1>>>(1);
        f: kernel k<<<1, 1>>>(1 2);
        g: kernel 3<<<1, 1>>>(1);
    }
}

fn main() {}
