//! An element of an array param of length 0: there is none to use, and the message says so
//! (it used to ask for an index "below 0").
use cudagraph_runtime::cuda_graph;

cuda_graph! {
    graph Empty {
        params {
            w: [DeviceBuffer<f32>; 0],
        }
        a: memset(w[0], 0.0f32);
    }
}

fn main() {}
