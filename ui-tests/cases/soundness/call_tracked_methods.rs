//! The methods of `__private::Tracked` that change the params or the tracker without the tracker
//! knowing (the executable's own implementation of a public trait) take a key only the runtime
//! makes: user code cannot call them.
use cudagraph_runtime::__private::{Internal, Tracked};
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

fn sneak(exec: &mut StepExec, other: DeviceBuffer<f32>) {
    Tracked::params_mut(exec).y = other;
    Tracked::tracker(exec).clear();
    let key = Internal(());
    let _ = <StepExec as Tracked>::UPDATES[0].0(exec, 0, key);
}

fn main() {
    let _ = sneak;
}
