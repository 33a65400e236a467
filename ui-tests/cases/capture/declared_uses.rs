//! A capture node's declared uses name buffer params, each once (an allocation cannot be one:
//! the work is recorded before the graph makes it).
use cudagraph_runtime::{cuda_graph, prelude::*, Capture};

cuda_graph! {
    graph Declared {
        params {
            work: Capture,
            x: DeviceBuffer<f32>,
            n: u32,
        }
        t: alloc::<f32>(n as usize);
        bad: capture(work, [n, x, mut x, missing, t]);
        worse: capture(work, x);
        t -> bad -> worse;
    }
}

fn main() {}
