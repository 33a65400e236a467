//! Slot tokens exist only inside a swap: a `Slot` cannot be cloned or defaulted, so none can be
//! taken out of the slots a swap lends, and a graph's slots struct cannot be cloned.
use cudagraph_runtime::__private::Slot;
use cudagraph_runtime::prelude::*;

cuda_graph! {
    graph Step {
        params {
            x: DeviceBuffer<f32>,
            v: f32,
        }
        w: memset(x, v);
    }
}

fn copy(slot: &Slot<f32>, slots: &mut StepSlots) -> (Slot<f32>, StepSlots, Slot<f32>) {
    (slot.clone(), slots.clone(), std::mem::take(&mut slots.v))
}

fn main() {
    let _ = copy;
}
