//! In the declaring module, the executable's params and tracker are not fields of its own
//! (they are parts of its one `Guarded` field), and its helper that copies params into the
//! applied ones takes the runtime's key.
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

fn sneak(exec: &mut StepExec, y: DeviceBuffer<f32>) {
    exec.state.params.y = y;
    exec.tracker.clear();
    exec.__cg_sync_0(1, true);
}

fn main() {
    let _ = sneak;
}
