//! Code in the module that declares the graph sees the private fields of the types
//! `cuda_graph!` generates. Their parts are in one `Guarded` field, which it can read but not
//! change: a param written there, the tracker cleared, or two executables' trackers swapped,
//! would leave nodes running values the params (and the memory check that judged them) do not
//! say.
use cudagraph_runtime::prelude::*;

cuda_graph! {
    graph Step {
        params {
            x: DeviceBuffer<f32>,
            y: DeviceBuffer<f32>,
        }
        w: memset(y, 7.0f32);
        r: memcpy(x -> y);
        w -> r;
    }
}

fn sneak(exec: &mut StepExec, other: &mut StepExec, graph: &mut Step, y: DeviceBuffer<f32>) {
    // Reading is harmless: the public API shows as much.
    let _ = exec.parts.tracker.is_dirty();
    exec.parts.state.params.y = y;
    exec.parts.tracker.clear();
    std::mem::swap(&mut exec.parts.tracker, &mut other.parts.tracker);
    graph.parts.build_id = 7;
}

fn main() {
    let _ = sneak;
}
