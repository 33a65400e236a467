//! A `#[device_launch]` graph of the kinds CUDA allows in a device graph compiles, and its graph
//! type instantiates for device launch; a kernel of another graph takes its handle as a
//! `DeviceGraph` argument, from a `SharedDeviceGraph` param. A memcpy operand's type may be an
//! alias of a buffer: the rule asks the type, not its spelling.
use cudagraph_runtime::prelude::*;

/// A buffer under another name.
type Mirror = HostBuffer<u32>;

cuda_graph! {
    /// The graph the launcher's kernel launches.
    #[device_launch]
    pub graph Worker {
        params {
            step: Kernel<(u32, DevicePtrMut<u32>)>,
            counter: DeviceBuffer<u32>,
            mirror: Mirror,
            n: u32,
        }
        clear: memset(counter, 0u32);
        bump: kernel step<<<1, 32>>>(n, counter);
        copy: memcpy(counter -> mirror);
        join: empty;
        clear -> bump -> copy -> join;
    }
}

cuda_graph! {
    graph Launcher {
        params {
            launch: Kernel<(DeviceGraph, u32)>,
            worker: SharedDeviceGraph,
            times: u32,
        }
        go: kernel launch<<<1, 1>>>(worker, times);
    }
}

fn main() {
    let _ = |w: Worker,
             s: &std::sync::Arc<cudagraph_runtime::cudarc::driver::CudaStream>|
     -> cudagraph_runtime::Result<DeviceGraphExec> { w.instantiate_for_device_launch(s) };
    let _ = |exec: &mut LauncherExec| exec.go().node();
}
