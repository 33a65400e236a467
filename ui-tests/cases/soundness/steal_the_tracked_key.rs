//! The setters `cuda_graph!` generates for a param of one reader call that node's update
//! themselves (`__private::set_sole_reader`), which hands the update the runtime's key to the
//! executable's keyed methods. A function of the user's own in its place would get the key, and
//! with it change the params without the tracker knowing, on any executable: so the call is
//! `unsafe`, and safe code cannot make it.
use cudagraph_runtime::__private::{set_sole_reader, Internal, Tracked};
use cudagraph_runtime::prelude::*;

cuda_graph! {
    graph Step {
        params {
            y: DeviceBuffer<f32>,
        }
        w: memset(y, 7.0f32);
    }
}

fn thief(exec: &mut StepExec, _: usize, key: Internal) -> cudagraph_runtime::Result<()> {
    Tracked::tracker(exec, key).clear();
    Ok(())
}

fn steal(exec: &mut StepExec) {
    let _ = set_sole_reader(exec, 0, 0, (thief, 0), |_| {});
}

fn main() {
    let _ = steal;
}
