//! The params guard borrows the executable: while it is alive the executable is neither launched
//! nor changed another way (its changes are applied by its `apply` or by the next launch, so
//! none is made behind it). Through the guard the params are read, and written only by its
//! setters (a field written directly would not mark the nodes that read it); a swap picks two
//! distinct params.
use cudagraph_runtime::{cuda_graph, prelude::*};

cuda_graph! {
    graph Step {
        params {
            scale: Kernel<(u32, f32, DevicePtr<f32>, DevicePtrMut<f32>)>,
            x: DeviceBuffer<f32>,
            x_new: DeviceBuffer<f32>,
            n: u32,
            alpha: f32,
        }
        run: kernel scale<<<1, 32>>>(n, alpha, x, x_new);
    }
}

fn misuse(exec: &mut StepExec, stream: &std::sync::Arc<cudagraph_runtime::cudarc::driver::CudaStream>) {
    let mut guard = exec.params_mut();
    guard.set_n(8);
    let _ = exec.launch(stream);
    let _ = exec.set_alpha(0.5);
    guard.n = 4;
    let _ = guard.swap(|p| (&mut p.x, &mut p.x));
    let _ = guard.apply();
}

fn main() {}
