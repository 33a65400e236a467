//! Slot tokens exist only inside a swap: a `Slot` cannot be made by user code (nor defaulted,
//! cloned or taken out of a graph's slots: `copy_slots`).
use std::marker::PhantomData;
use std::mem::MaybeUninit;

use cudagraph_runtime::__private::Slot;

fn make() -> Slot<f32> {
    Slot { _place: MaybeUninit::uninit(), _value: PhantomData }
}

fn main() {
    let _ = make;
}
