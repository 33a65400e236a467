//! T14 with host code: a host node that reads a host buffer while a copy may write it.
use cudagraph_runtime::{cuda_graph, prelude::*};

fn report(values: &[f32]) {
    println!("{}", values[0]);
}

cuda_graph! {
    graph Report {
        params {
            y: DeviceBuffer<f32>,
            out: HostBuffer<f32>,
            show: fn(&[f32]),
        }
        back: memcpy(y -> out);
        print: host(show, out);
    }
}

fn main() {
    let _ = report;
}
