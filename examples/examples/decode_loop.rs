//! A decode loop people recognise: a 2-layer MLP applied 1,000 times, each step feeding its
//! output back as the next input with a position term that changes every step. The two GEMMs
//! are cuBLASLt calls recorded by stream capture (`capture(...)` nodes, each declaring the buffer
//! params its work reads and writes, `[w1, x, b1, mut h]`, which the race check uses and the
//! recorded work is checked against), the first with its bias and ReLU fused; the position
//! kernel and the bias and tanh kernel are our own.
//! Three ways to run the same 1,000 steps, each checked against the CPU:
//!
//! - eager: every step's four operations launched one by one on a stream;
//! - a graph whose step number is a plain param: its setter updates one kernel node per step;
//! - a graph whose step number is `#[indirect]`: `set_step` is a host write, no driver call, and
//!   each launch sends it to the device by updating one node, the graph's fetch node.
//!
//! Run: `cargo run --release -p cudagraph-examples --example decode_loop`

use std::process::ExitCode;

use cudagraph_examples::decode::{
    checksum, BiasTanh, Decoder, Position, PositionAt, Table, Weights, BATCH, DIM, HIDDEN, STEPS,
    TOLERANCE,
};
use cudagraph_examples::{main_with, open_gpu, Failure};
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::Capture;

cuda_graph! {
    /// One decode step; the step number is a plain param (its setter updates `pos`).
    graph Step {
        params {
            position: Position,
            bias_tanh: BiasTanh,
            layer1: Capture,
            layer2: Capture,
            w1: DeviceBuffer<f32>,
            w2: DeviceBuffer<f32>,
            x: DeviceBuffer<f32>,
            h: DeviceBuffer<f32>,
            y: DeviceBuffer<f32>,
            b1: DeviceBuffer<f32>,
            b2: DeviceBuffer<f32>,
            step: u32,
        }
        pos: kernel position<<<(BATCH * DIM).div_ceil(256) as u32, 256>>>((BATCH * DIM) as u32, DIM as u32, step, x);
        gemm1: capture(layer1, [w1, x, b1, mut h]);
        gemm2: capture(layer2, [w2, h, mut y]);
        out: kernel bias_tanh<<<(BATCH * DIM).div_ceil(256) as u32, 256>>>((BATCH * DIM) as u32, DIM as u32, b2, y, x);
        pos -> gemm1 -> gemm2 -> out;
    }

    /// The same step with the step number `#[indirect]`: read by `pos` from device memory.
    graph IndirectStep {
        params {
            position: PositionAt,
            bias_tanh: BiasTanh,
            layer1: Capture,
            layer2: Capture,
            w1: DeviceBuffer<f32>,
            w2: DeviceBuffer<f32>,
            x: DeviceBuffer<f32>,
            h: DeviceBuffer<f32>,
            y: DeviceBuffer<f32>,
            b1: DeviceBuffer<f32>,
            b2: DeviceBuffer<f32>,
            #[indirect]
            step: u32,
        }
        pos: kernel position<<<(BATCH * DIM).div_ceil(256) as u32, 256>>>((BATCH * DIM) as u32, DIM as u32, step, x);
        gemm1: capture(layer1, [w1, x, b1, mut h]);
        gemm2: capture(layer2, [w2, h, mut y]);
        out: kernel bias_tanh<<<(BATCH * DIM).div_ceil(256) as u32, 256>>>((BATCH * DIM) as u32, DIM as u32, b2, y, x);
        pos -> gemm1 -> gemm2 -> out;
    }
}

fn main() -> ExitCode {
    main_with("decode_loop", run)
}

fn run() -> Result<(), Failure> {
    let ctx = open_gpu()?;
    let gpu = Decoder::new(&ctx)?;
    let weights = Weights::new(1);
    let layer = gpu.upload(&weights.layers[0])?;
    let want = weights.on_cpu();
    let k = &gpu.kernels;

    println!(
        "{STEPS} decode steps, batch {BATCH}, {DIM} -> {HIDDEN} -> {DIM}, \
         results checked against the CPU (tolerance {TOLERANCE:e}):"
    );
    let eager = gpu.measure("eager", &weights.x0, &want, |step| {
        gpu.eager_position(step)?;
        gpu.eager_layer(&layer)
    })?;
    let table = Table::new(eager);
    table.row("eager stream launches", eager);

    // The graph with the step number set through its setter.
    let params = StepParams {
        position: k.position.clone(),
        bias_tanh: k.bias_tanh.clone(),
        layer1: gpu.up(&layer),
        layer2: gpu.down(&layer),
        w1: layer.w1.clone(),
        w2: layer.w2.clone(),
        x: gpu.x.clone(),
        h: gpu.h.clone(),
        y: gpu.y.clone(),
        b1: layer.b1.clone(),
        b2: layer.b2.clone(),
        step: 0,
    };
    let mut step_exec = Step::build(&ctx, &params)?.instantiate()?;
    let with_setter = gpu.measure("graph + set_step", &weights.x0, &want, |step| {
        step_exec.set_step(step)?;
        step_exec.launch(&gpu.stream)?;
        Ok(())
    })?;
    table.row("graph, step updated by set_step", with_setter);

    // The graph with the step #[indirect].
    let indirect_params = IndirectStepParams {
        position: k.position_at.clone(),
        bias_tanh: k.bias_tanh.clone(),
        layer1: gpu.up(&layer),
        layer2: gpu.down(&layer),
        w1: layer.w1.clone(),
        w2: layer.w2.clone(),
        x: gpu.x.clone(),
        h: gpu.h.clone(),
        y: gpu.y.clone(),
        b1: layer.b1.clone(),
        b2: layer.b2.clone(),
        step: 0,
    };
    let mut indirect_exec = IndirectStep::build(&ctx, &indirect_params)?.instantiate()?;
    let with_indirect = gpu.measure("graph + indirect step", &weights.x0, &want, |step| {
        indirect_exec.set_step(step)?;
        indirect_exec.launch(&gpu.stream)?;
        Ok(())
    })?;
    table.row("graph, step #[indirect]", with_indirect);
    println!(
        "checksum (sum of x after {STEPS} steps): {:.4}",
        checksum(&want)
    );
    Ok(())
}
