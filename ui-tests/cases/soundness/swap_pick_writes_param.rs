//! A swap's `pick` names the two params to swap and can change none: it is given their slots
//! (`StepSlots`), not their values, so writing a param inside it does not compile (a param
//! changed there would be one no node is updated for). (Keeping the slots, or returning another
//! swap's: `swap_pick_keeps_slots`.)
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

fn sneak(exec: &mut StepExec, buffer: DeviceBuffer<f32>) {
    let mut guard = exec.params_mut();
    let _ = guard.swap(move |p| {
        p.y = buffer;
        (&mut p.v1, &mut p.v2)
    });
    let _ = guard.swap(|p| {
        p.v1 += 1.0;
        (&mut p.v1, &mut p.v2)
    });
}

fn main() {
    let _ = sneak;
}
