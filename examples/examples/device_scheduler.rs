//! A loop that the GPU drives and ends by itself, with device graph launch: a
//! `#[device_launch]` graph relaxes a vector one step (`x = x / 2 + 1`, which converges to 2)
//! and then decides, on the device, whether to run again: while the residual `|x - 2|` is above
//! a tolerance (and a step budget is left) its last kernel tail-launches the graph it runs in
//! (`cudaGraphLaunch(cudaGetCurrentGraphExec(), cudaStreamGraphTailLaunch)`), the scheduler
//! pattern of NVIDIA's device graph launch. The host launches it once and waits; the step count,
//! the residual of every step and the result are checked against the CPU.
//!
//! Needs the CUDA toolkit's `libcudadevrt.a` (device-side `cudaGraphLaunch` lives there):
//! found under `$CUDA_HOME/lib64`, `$CUDA_PATH/lib64` or `/usr/local/cuda/lib64`, or named by
//! `$CUDAGRAPH_CUDADEVRT`.
//!
//! Run: `cargo run --release -p cudagraph-examples --example device_scheduler`

use std::process::ExitCode;
use std::time::Instant;

use cudagraph_examples::device_runtime::compile_with_device_runtime;
use cudagraph_examples::{main_with, open_gpu, Failure};
use cudagraph_runtime::prelude::*;

/// Elements of the vector.
const N: u32 = 1 << 14;
/// The most steps the loop may take.
const MAX_STEPS: u32 = 64;
/// The residual below which it stops.
const TOL: f32 = 1e-5;

const SRC: &str = r#"
extern "C" __global__ void relax(unsigned n, float* x) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = 0.5f * x[i] + 1.0f;
}
extern "C" __global__ void decide(const float* x, unsigned* steps, float* residuals,
                                  unsigned max_steps, float tol) {
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        unsigned s = steps[0];
        if (s >= max_steps) return;
        float r = fabsf(x[0] - 2.0f);
        residuals[s] = r;
        steps[0] = s + 1;
        if (r > tol && s + 1 < max_steps) {
            cudaGraphLaunch(cudaGetCurrentGraphExec(), cudaStreamGraphTailLaunch);
        }
    }
}
"#;

cuda_graph! {
    /// One step of the loop, then the decision to run another: launched from the device.
    #[device_launch]
    graph Relax {
        params {
            step: Kernel<(u32, DevicePtrMut<f32>)>,
            decide: Kernel<(DevicePtr<f32>, DevicePtrMut<u32>, DevicePtrMut<f32>, u32, f32)>,
            x: DeviceBuffer<f32>,
            steps: DeviceBuffer<u32>,
            residuals: DeviceBuffer<f32>,
            n: u32,
            max_steps: u32,
            tol: f32,
        }
        advance: kernel step<<<n.div_ceil(256), 256>>>(n, x);
        check: kernel decide<<<1, 32>>>(x, steps, residuals, max_steps, tol);
        advance -> check;
    }
}

fn main() -> ExitCode {
    main_with("device_scheduler", run)
}

fn run() -> Result<(), Failure> {
    let ctx = open_gpu()?;
    let stream = ctx.new_stream()?;
    let module = compile_with_device_runtime(&ctx, SRC)?;
    // SAFETY: `relax` writes x[i] for i < n only, and its check keeps n within `x`; `decide`
    // reads x[0], writes steps[0] and residuals[s] for s < max_steps only, and its check keeps
    // those within the buffers; it launches only the graph it runs in.
    let (step, decide) = unsafe {
        (
            Kernel::new(module.load_function("relax")?).requires(|_, (n, x)| n as usize <= x),
            Kernel::new(module.load_function("decide")?).requires(
                |_, (x, steps, residuals, max_steps, _)| {
                    x >= 1 && steps >= 1 && residuals >= max_steps as usize
                },
            ),
        )
    };
    let x = DeviceBuffer::<f32>::zeros(&stream, N as usize)?;
    let steps = DeviceBuffer::<u32>::zeros(&stream, 1)?;
    let residuals = DeviceBuffer::<f32>::zeros(&stream, MAX_STEPS as usize)?;
    let params = RelaxParams {
        step,
        decide,
        x: x.clone(),
        steps: steps.clone(),
        residuals: residuals.clone(),
        n: N,
        max_steps: MAX_STEPS,
        tol: TOL,
    };
    let mut lp = Relax::build(&ctx, &params)?.instantiate_for_device_launch(&stream)?;

    let started = Instant::now();
    lp.launch(&stream)?; // one host launch: the GPU runs every step
    let taken = steps.to_vec()?[0];
    let elapsed = started.elapsed();

    // The CPU: the same steps, the same arithmetic.
    let (mut cpu_x, mut cpu_residuals) = (0.0f32, Vec::new());
    loop {
        cpu_x = 0.5 * cpu_x + 1.0;
        let r = (cpu_x - 2.0).abs();
        cpu_residuals.push(r);
        if r <= TOL || cpu_residuals.len() as u32 >= MAX_STEPS {
            break;
        }
    }
    let gpu_residuals = residuals.to_vec()?;
    let gpu_x = x.to_vec()?;
    println!(
        "the GPU ran {taken} steps in {:.1} µs ({:.2} µs a step), stopping at residual {:e}",
        elapsed.as_secs_f64() * 1e6,
        elapsed.as_secs_f64() * 1e6 / f64::from(taken.max(1)),
        gpu_residuals[taken.saturating_sub(1) as usize]
    );
    if taken as usize != cpu_residuals.len() {
        return Err(Failure::Other(format!(
            "the GPU took {taken} steps, the CPU {}",
            cpu_residuals.len()
        )));
    }
    if gpu_residuals[..cpu_residuals.len()] != cpu_residuals[..] {
        return Err(Failure::Other("the residuals differ from the CPU's".into()));
    }
    if gpu_x.iter().any(|&v| v != cpu_x) {
        return Err(Failure::Other(format!("x differs from the CPU's {cpu_x}")));
    }
    println!("steps, residuals and result match the CPU");
    Ok(())
}
