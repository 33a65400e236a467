//! A hot loop: a two-kernel solver step launched every iteration with a new time step, updated
//! first through the param's setter (`exec.set_dt(..)`, which updates the one node that reads
//! `dt`), then through the node's typed handle. The GPU's state is checked against a CPU
//! simulation at checkpoints.
//!
//! ```text
//! drift (x += dt * v) -> damp (v *= d)
//! ```
//!
//! Run with `cargo run --release -p cudagraph-examples --example hot_loop`.

use std::process::ExitCode;
use std::time::Instant;

use cudagraph_examples::{compile, main_with, open_gpu, Failure};
use cudagraph_runtime::cuda_graph;
use cudagraph_runtime::prelude::*;

const N: usize = 1 << 20;
const STEPS: usize = 400;
const CHECK_EVERY: usize = 100;

const SOURCE: &str = r#"
extern "C" __global__ void drift(unsigned n, float dt, const float* v, float* x) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] += dt * v[i];
}
extern "C" __global__ void damp(unsigned n, float d, float* v) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] *= d;
}
"#;

cuda_graph! {
    /// One step of a damped drift: positions move by `dt * v`, then velocities decay by `d`.
    graph SolverStep {
        params {
            /// `x[i] += dt * v[i]`.
            drift: Kernel<(u32, f32, DevicePtr<f32>, DevicePtrMut<f32>)>,
            /// `v[i] *= d`.
            damp: Kernel<(u32, f32, DevicePtrMut<f32>)>,
            x: DeviceBuffer<f32>,
            v: DeviceBuffer<f32>,
            n: u32,
            dt: f32,
            d: f32,
        }
        move_x: kernel drift<<<n.div_ceil(256), 256>>>(n, dt, v, x);
        slow_v: kernel damp<<<n.div_ceil(256), 256>>>(n, d, v);
        move_x -> slow_v;
    }
}

/// The time step of iteration `k`: it changes every iteration.
fn dt(k: usize) -> f32 {
    0.001 * (1 + k % 7) as f32
}

fn main() -> ExitCode {
    main_with("hot_loop", run)
}

fn run() -> Result<(), Failure> {
    let ctx = open_gpu()?;
    let stream = ctx.new_stream()?;
    let module = compile(&ctx, SOURCE)?;
    // SAFETY: `drift` takes (unsigned, float, const float*, float*), reads v[i] and reads and
    // writes x[i] for i < n only, and launches nothing; the check keeps n within v and x.
    let drift = unsafe { Kernel::new(module.load_function("drift")?) }
        .requires(|_, (n, _, v, x)| n as usize <= v && n as usize <= x);
    // SAFETY: `damp` takes (unsigned, float, float*), reads and writes v[i] for i < n only, and
    // launches nothing; the check keeps n within v.
    let damp = unsafe { Kernel::new(module.load_function("damp")?) }
        .requires(|_, (n, _, v)| n as usize <= v);

    // Initial state, on the CPU (the reference) and on the GPU.
    let mut cpu_x: Vec<f32> = (0..N).map(|i| (i % 1000) as f32 * 0.01).collect();
    let mut cpu_v: Vec<f32> = (0..N).map(|i| 1.0 + (i % 13) as f32 * 0.1).collect();
    let params = SolverStepParams {
        drift,
        damp,
        x: DeviceBuffer::from_host(&stream, &cpu_x)?,
        v: DeviceBuffer::from_host(&stream, &cpu_v)?,
        n: N as u32,
        dt: dt(0),
        d: 0.999,
    };
    let mut exec = SolverStep::build(&ctx, &params)?.instantiate()?;

    let start = Instant::now();
    let mut updated = 0;
    for k in 0..STEPS {
        if k < STEPS / 2 {
            // The param's setter: it updates `move_x`, the one node that reads `dt`.
            exec.set_dt(dt(k))?;
        } else {
            // The same change straight through the node's handle.
            exec.move_x().set(params.n, dt(k), &params.v, &params.x)?;
        }
        updated += 1;
        exec.launch(&stream)?;

        for (xi, vi) in cpu_x.iter_mut().zip(cpu_v.iter_mut()) {
            *xi += dt(k) * *vi;
            *vi *= params.d;
        }
        if (k + 1) % CHECK_EVERY == 0 {
            // Copies ordered after the launches so far, on the buffers' own stream.
            let p = exec.params();
            let (gx, gv) = (p.x.to_vec()?, p.v.to_vec()?);
            let worst = max_relative_error(&gx, &cpu_x).max(max_relative_error(&gv, &cpu_v));
            println!(
                "step {:>3}: x[7] = {:.5} (CPU {:.5}), worst relative error {worst:.2e}",
                k + 1,
                gx[7],
                cpu_x[7]
            );
            if worst.is_nan() || worst >= 1e-4 {
                return Err(Failure::Other(format!(
                    "GPU and CPU disagree after {} steps: {worst:e}",
                    k + 1
                )));
            }
        }
    }
    let per_step = start.elapsed() / STEPS as u32;
    // One node update per step, and the setter's change is the executable's.
    if exec.params().dt != dt(STEPS / 2 - 1) {
        return Err(Failure::Other(format!(
            "the executable's dt is {}, set to {}",
            exec.params().dt,
            dt(STEPS / 2 - 1)
        )));
    }
    println!("verified: {STEPS} steps of {N} elements, {updated} single-node updates, {per_step:?} per step (incl. checks)");
    Ok(())
}

/// Largest `|got - want| / max(|want|, 1)`; NaN counts as infinitely wrong.
fn max_relative_error(got: &[f32], want: &[f32]) -> f32 {
    got.iter()
        .zip(want)
        .map(|(g, w)| {
            let e = (g - w).abs() / w.abs().max(1.0);
            if e.is_nan() {
                f32::INFINITY
            } else {
                e
            }
        })
        .fold(0.0, f32::max)
}
