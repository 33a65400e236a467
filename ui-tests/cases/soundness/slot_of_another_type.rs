//! The generated code asserts that each param's slot token (what a swap's `pick` names) stands
//! for the param's own type, with `__private::slot_of`: the swaps move values by the slot's
//! type, and a macro in a param's type could expand to another type the second time it is
//! written. `slot_of` compiles only where the two types are one.
use cudagraph_runtime::__private::slot_of;
use cudagraph_runtime::prelude::*;

cuda_graph! {
    graph Step {
        params {
            y: DeviceBuffer<f32>,
        }
        w: memset(y, 7.0f32);
    }
}

fn check(exec: &mut StepExec) {
    let mut guard = exec.params_mut();
    let _ = guard.swap(|s| {
        slot_of(&s.y, &0u32);
        (&mut s.y, &mut s.y)
    });
}

fn main() {
    let _ = check;
}
