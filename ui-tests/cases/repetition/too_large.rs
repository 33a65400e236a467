//! A loop that would make more nodes than the rules judge is refused before it is made.
use cudagraph_runtime::cuda_graph;

cuda_graph! {
    graph Huge {
        const STEPS: usize = 100_000;
        for i in 0..STEPS {
            step[i]: empty;
        }
        for i in 0..STEPS - 1 {
            step[i] -> step[i + 1];
        }
    }
}

fn main() {}
