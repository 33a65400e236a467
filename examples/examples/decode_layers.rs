//! A decode step of 32 layers, declared once by repetition: `decode_loop`'s MLP layer (batch 4,
//! 128 -> 256 -> 128) repeated `for layer in 0..LAYERS`, each layer reading its own weights
//! (`w1[layer]`, `b1[layer]`, ...: array params) and feeding its output to the next. Each layer is
//! two cuBLASLt GEMMs recorded by stream capture (`capture(up[layer], [w1[layer], x, b1[layer],
//! mut h])`, the buffers declared so that the race check sees them across iterations), the first
//! adding its bias and applying the ReLU in its epilogue, then our bias and tanh kernel; a
//! position kernel adds the step's term first. The graph has 1 + 3 x 32 = 97 nodes; the macro
//! checks the graph the loop makes (the edges between layers are what keeps layer `l + 1` from
//! racing layer `l` on `x`, `h` and `y`).
//!
//! 1,000 steps, each step's output the next step's input, the step number set through the
//! generated setter (`set_step`, one kernel-node update per step), run two ways and checked
//! against the CPU (largest difference below 1e-3):
//!
//! - eager: every step's 97 operations launched one by one on a stream;
//! - the graph: one `set_step` and one launch per step.
//!
//! Run: `cargo run --release -p cudagraph-examples --example decode_layers`
//!
//! Against PyTorch: `python3 tests/benches/torch_decode.py` times `torch.cuda.graph` replay of the
//! same 32-layer step (same shapes and weights; PyTorch's ops one for one, with the bias folded
//! into `addmm`, and with the ReLU fused as ours), in the same session. Put the last
//! line this example prints (`decode_layers: ... graph N steps/s`) beside the script's
//! `torch_decode: ... replay N steps/s` lines; the two checksums match when both computed the
//! same steps.

use std::process::ExitCode;

use cudagraph_examples::decode::{
    checksum, BiasTanh, Decoder, Position, Table, Weights, BATCH, DIM, HIDDEN, STEPS, TOLERANCE,
};
use cudagraph_examples::{main_with, open_gpu, Failure};
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::Capture;

cuda_graph! {
    /// One decode step of `LAYERS` layers; the step number is a plain param (its setter
    /// updates `pos` alone).
    graph Layers {
        /// Layers of the step.
        pub const LAYERS: usize = 32;
        const LAST: usize = LAYERS - 1;
        params {
            position: Position,
            bias_tanh: BiasTanh,
            up: [Capture; LAYERS],
            down: [Capture; LAYERS],
            w1: [DeviceBuffer<f32>; LAYERS],
            w2: [DeviceBuffer<f32>; LAYERS],
            b1: [DeviceBuffer<f32>; LAYERS],
            b2: [DeviceBuffer<f32>; LAYERS],
            x: DeviceBuffer<f32>,
            h: DeviceBuffer<f32>,
            y: DeviceBuffer<f32>,
            step: u32,
        }
        pos: kernel position<<<(BATCH * DIM).div_ceil(256) as u32, 256>>>((BATCH * DIM) as u32, DIM as u32, step, x);
        for layer in 0..LAYERS {
            gemm1[layer]: capture(up[layer], [w1[layer], x, b1[layer], mut h]);
            gemm2[layer]: capture(down[layer], [w2[layer], h, mut y]);
            out[layer]: kernel bias_tanh<<<(BATCH * DIM).div_ceil(256) as u32, 256>>>((BATCH * DIM) as u32, DIM as u32, b2[layer], y, x);
            gemm1[layer] -> gemm2[layer] -> out[layer];
        }
        // Layer l's output is layer l + 1's input.
        for layer in 0..LAST {
            out[layer] -> gemm1[layer + 1];
        }
        pos -> gemm1[0];
    }
}

fn main() -> ExitCode {
    main_with("decode_layers", run)
}

fn run() -> Result<(), Failure> {
    let ctx = open_gpu()?;
    let gpu = Decoder::new(&ctx)?;
    let weights = Weights::new(LAYERS);
    let layers = weights
        .layers
        .iter()
        .map(|w| gpu.upload(w))
        .collect::<Result<Vec<_>, _>>()?;
    let want = weights.on_cpu();
    let k = &gpu.kernels;

    println!(
        "{STEPS} decode steps of {LAYERS} layers, batch {BATCH}, {DIM} -> {HIDDEN} -> {DIM} each, \
         results checked against the CPU (tolerance {TOLERANCE:e}):"
    );
    let eager = gpu.measure("eager", &weights.x0, &want, |step| {
        gpu.eager_position(step)?;
        layers.iter().try_for_each(|layer| gpu.eager_layer(layer))
    })?;
    let table = Table::new(eager);
    table.row("eager stream launches", eager);

    let params = LayersParams {
        position: k.position.clone(),
        bias_tanh: k.bias_tanh.clone(),
        up: std::array::from_fn(|l| gpu.up(&layers[l])),
        down: std::array::from_fn(|l| gpu.down(&layers[l])),
        w1: std::array::from_fn(|l| layers[l].w1.clone()),
        w2: std::array::from_fn(|l| layers[l].w2.clone()),
        b1: std::array::from_fn(|l| layers[l].b1.clone()),
        b2: std::array::from_fn(|l| layers[l].b2.clone()),
        x: gpu.x.clone(),
        h: gpu.h.clone(),
        y: gpu.y.clone(),
        step: 0,
    };
    let mut exec = Layers::build(&ctx, &params)?.instantiate()?;
    let graph = gpu.measure("graph", &weights.x0, &want, |step| {
        exec.set_step(step)?;
        exec.launch(&gpu.stream)?;
        Ok(())
    })?;
    table.row("graph, step updated by set_step", graph);

    println!(
        "checksum (sum of x after {STEPS} steps): {:.4}",
        checksum(&want)
    );
    println!(
        "decode_layers: {LAYERS} layers, batch {BATCH}, {DIM} -> {HIDDEN} -> {DIM}: \
         graph {:.0} steps/s, eager {:.0} steps/s",
        graph.steps_per_s, eager.steps_per_s
    );
    Ok(())
}
