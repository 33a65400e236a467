//! What a `for` loop of a graph may be: one variable over a range the macro can compute, at the
//! top of the graph, holding nodes and edges.
use cudagraph_runtime::cuda_graph;

const OUTSIDE: usize = 3;

cuda_graph! {
    graph Loops {
        params {
            k: Kernel<(u32,)>,
            n: u32,
        }
        first: empty;
        for (a, b) in 0..2 {
            x[a]: empty;
        }
        for i in 0.. {
            y[i]: empty;
        }
        for i in 0..n {
            z[i]: kernel k<<<1, 1>>>(n);
        }
        for i in 0..OUTSIDE {
            u[i]: empty;
        }
        for i in 1..3 {
            v[i]: empty;
        }
        /// Each layer.
        for i in 0..2 {
            params { m: u32 }
            for j in 0..2 {
                inner[j]: empty;
            }
            branch[i]: if go { yes: empty; }
        }
        body: if other {
            for j in 0..2 {
                deep[j]: empty;
            }
        }
        for n in 0..2 {
            clash[n]: empty;
        }
    }
}

fn main() {}
