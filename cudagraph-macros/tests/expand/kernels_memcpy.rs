//! Kernels and copies: the macro's doc example (memset, kernel, memcpy to the host, host node).
use cudagraph_runtime::{cuda_graph, prelude::*};

fn report(y: &[f32]) {
    println!("step done: y[0] = {}", y[0]);
}

cuda_graph! {
    /// One solver step: `y = alpha * x + y` on a zeroed `y`, copied back to the host.
    pub graph Step {
        params {
            saxpy: Kernel<(u32, f32, DevicePtr<f32>, DevicePtrMut<f32>)>,
            x: DeviceBuffer<f32>,
            y: DeviceBuffer<f32>,
            host_y: HostBuffer<f32>,
            n: u32,
            alpha: f32,
            done: fn(&[f32]),
        }
        zero:  memset(y, 0.0f32);
        scale: kernel saxpy<<<n.div_ceil(256), 256>>>(n, alpha, x, y);
        back:  memcpy(y -> host_y);
        log:   host(done, host_y);
        zero -> scale -> back -> log;
    }
}

fn main() {
    let _ = report;
}
