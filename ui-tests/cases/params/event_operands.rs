//! Event nodes take an `Event` param; CUDA cannot enable or disable them.
use cudagraph_runtime::{cuda_graph, prelude::*};

cuda_graph! {
    graph Signals {
        params {
            n: u32,
            done: Event,
        }
        signal: record(n);
        hold: wait(done);
        hold -> signal;
    }
}

fn disable(exec: &mut SignalsExec) -> cudagraph_runtime::Result<()> {
    exec.hold().set_enabled(false)
}

fn main() {
    let _ = disable;
}
