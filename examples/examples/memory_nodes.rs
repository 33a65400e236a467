//! Temporaries as graph allocations: a three-stage pipeline built once per batch size, whose
//! intermediate tensors are allocated and freed by the graph itself (declared with `alloc` and
//! `free` nodes). CUDA backs them with
//! physical memory only while they live in graph order, so the stages reuse each other's memory,
//! and the executables of all batch sizes, launched into one stream, share one pool, instead of
//! holding a static buffer per tensor per shape.
//!
//! `t1 = 2x - 1; t2 = relu(t1); t3 = t2 / 2 + 1/4; out = t3 + x`, checked against the CPU.
//!
//! Run: `cargo run --release -p cudagraph-examples --example memory_nodes`

use std::process::ExitCode;

use cudagraph_examples::pipeline::{
    expected, Pipeline, PipelineKernels, PipelineParams, TEMPORARIES,
};
use cudagraph_examples::{main_with, open_gpu, Failure};
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::GraphMemory;

/// Features per row of a batch: a batch of 16 rows has 64 MiB temporaries.
const WIDTH: usize = 1 << 20;

fn main() -> ExitCode {
    main_with("memory_nodes", run)
}

fn run() -> Result<(), Failure> {
    let ctx = open_gpu()?;
    let stream = ctx.new_stream()?;
    let PipelineKernels { affine, relu, add } = PipelineKernels::load(&ctx)?;
    GraphMemory::trim(&ctx)?;
    GraphMemory::reset_peaks(&ctx)?;

    // One executable per batch size, all launched into one stream.
    let mut temporaries = 0u64;
    let mut shapes = Vec::new();
    for batch in [1, 4, 16] {
        let n = batch * WIDTH;
        let host: Vec<f32> = (0..n).map(|i| (i % 997) as f32 / 250.0 - 2.0).collect();
        let params = PipelineParams {
            affine: affine.clone(),
            relu: relu.clone(),
            add: add.clone(),
            x: DeviceBuffer::from_host(&stream, &host)?,
            out: DeviceBuffer::zeros(&stream, n)?,
            n: n as u32,
        };
        let exec = Pipeline::build(&ctx, &params)?.instantiate()?;
        temporaries += (TEMPORARIES * n * 4) as u64;
        shapes.push((batch, host, params.out, exec));
    }
    for _step in 0..10 {
        for (_, _, _, exec) in &mut shapes {
            exec.launch(&stream)?;
        }
    }
    for (batch, host, y, _) in &shapes {
        let got = y.to_vec()?;
        let wrong = host
            .iter()
            .zip(&got)
            .filter(|(&x, &y)| y != expected(x))
            .count();
        println!(
            "batch {batch:>2}: {} values, {wrong} differ from the CPU",
            got.len()
        );
        if wrong != 0 {
            return Err(Failure::Other(format!(
                "batch {batch}: {wrong} results differ from the CPU"
            )));
        }
    }
    let memory = GraphMemory::of(&ctx)?;
    println!("{memory}");
    println!(
        "temporaries: {} MiB in all (one static buffer per tensor per shape); reserved at peak: \
         {} MiB ({:.2}x)",
        temporaries >> 20,
        memory.reserved_peak >> 20,
        memory.reserved_peak as f64 / temporaries as f64
    );
    Ok(())
}
