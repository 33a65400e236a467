//! The params an executable owns change through it, with their own types: a setter takes its
//! param's type (the error points at the argument), and a swap exchanges two params of one type.
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

fn misuse(exec: &mut StepExec) {
    let _ = exec.set_alpha(2u32);
    let _ = exec.set_x(exec.params().n);
    let _ = exec.params_mut().swap(|p| (&mut p.x, &mut p.n));
}

fn main() {}
