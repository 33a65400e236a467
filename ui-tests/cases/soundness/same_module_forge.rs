//! In the declaring module, an executable cannot be made from parts (another executable's
//! nodes beside these params), nor its parts borrowed to change, without `unsafe`.
use cudagraph_runtime::__private::Guarded;
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

fn forge(a: StepExec, b: StepExec) -> (StepExec, StepExec) {
    // Taking an executable apart is safe (nothing is left to disagree), putting one together
    // is not.
    let (a, b) = (a.parts.into_inner(), b.parts.into_inner());
    let mixed = StepExec {
        parts: Guarded::new(__StepExecParts { nodes: b.nodes, ..a }),
    };
    let built = StepExec::__cg_new(b.exec, a.nodes, b.state, b.applied);
    (mixed, built)
}

fn change(exec: &mut StepExec) {
    exec.parts.get_mut().tracker.clear();
}

fn main() {
    let _ = (forge, change);
}
