//! A kernel argument for a `DeviceGraph` parameter must name a param: the race rule checks what
//! the launched graph uses through it. Here a `static` handle, which the rule could not see,
//! is refused at the argument (written out, and behind an alias of the kernel's parameters).
use std::sync::OnceLock;

use cudagraph_runtime::{cuda_graph, prelude::*};

static WORKER: OnceLock<SharedDeviceGraph> = OnceLock::new();

fn worker() -> &'static SharedDeviceGraph {
    WORKER.get().expect("set before the graph is built")
}

type LaunchArgs = (DeviceGraph, u32);

cuda_graph! {
    graph Hidden {
        params {
            launch: Kernel<(DeviceGraph, u32)>,
            aliased: Kernel<LaunchArgs>,
            n: u32,
        }
        go: kernel launch<<<1, 1>>>(worker(), n);
        again: kernel aliased<<<1, 1>>>(worker(), n);
    }
}

fn main() {}
