//! A swap's slots live only as long as its `pick` runs: `pick` can neither keep them (they
//! would name params outside a swap) nor return the slots of another swap around it.
use cudagraph_runtime::prelude::*;

cuda_graph! {
    graph Step {
        params {
            x: DeviceBuffer<f32>,
            y: DeviceBuffer<f32>,
            z: DeviceBuffer<f32>,
            v1: f32,
            v2: f32,
        }
        w: memset(y, 7.0f32);
        r: memcpy(x -> z);
        w1: memset(z, v1);
        w2: memset(z, v2);
        w -> w1 -> w2;
        r -> w1;
    }
}

fn sneak(exec: &mut StepExec, other: &mut StepExec) {
    let mut guard = exec.params_mut();
    let mut kept = None;
    let _ = guard.swap(|p| {
        kept = Some(&mut *p);
        (&mut p.v1, &mut p.v2)
    });
    let _ = guard.swap(|p| {
        let _ = other.params_mut().swap(|_| (&mut p.x, &mut p.y));
        (&mut p.v1, &mut p.v2)
    });
}

fn main() {
    let _ = sneak;
}
