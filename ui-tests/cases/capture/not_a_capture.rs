//! A capture node records a `Capture` param, not a buffer.
use cudagraph_runtime::prelude::*;

cuda_graph! {
    graph Recorded {
        params {
            y: DeviceBuffer<f32>,
        }
        wrong_type: capture(y);
    }
}

fn main() {}
