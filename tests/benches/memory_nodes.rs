//! Graph memory nodes against static buffers, on a three-stage pipeline whose temporaries are
//! either graph allocations (alloc before the first use, free after the last) or one static
//! buffer each (`cudagraph_tests::pipeline`), in the same run:
//!
//! - `launch`: launches of the two graphs, in alternating blocks of launches each followed by a
//!   wait for the stream (an A/B run). Target: memory nodes at most 1.05x static buffers.
//! - `build + instantiate`: building the graph and instantiating it, both ways (reported).
//! - memory: the graph memory reserved by one launch of the memory-node graph (after a trim,
//!   peaks reset) against the bytes of the static buffers (reported; expected well below 1).
//!
//! Each size is checked against the CPU before it is timed. Without a GPU, prints one skip line.

use cudagraph_runtime::{DeviceBuffer, GraphMemory};
use cudagraph_tests::bench::{RatioTable, Samples};
use cudagraph_tests::pipeline::{self, Allocated, PipelineKernels, Static};
use cudagraph_tests::{gpu, read_back, upload, zeros, Gpu};

const SAMPLE_SIZE: usize = 30;
/// Elements per temporary: 64 KiB of floats (a small graph, where memory nodes' own cost shows),
/// then the example's batches of 1, 4 and 16 rows of 2^20 floats (4, 16 and 64 MiB).
const SIZES: [usize; 4] = [1 << 14, 1 << 20, 1 << 22, 1 << 24];
/// Sizes below this are reported without a target: the target is for the example's sizes.
const EXAMPLE_SIZES_FROM: usize = 1 << 20;

fn main() {
    let Some(gpu) = gpu("bench memory_nodes") else {
        return;
    };
    gpu.ctx.bind_to_thread().expect("binding the context");
    let device = gpu.ctx.name().unwrap_or_else(|e| format!("<unnamed: {e}>"));
    let k = PipelineKernels::load(&gpu.ctx).expect("loading the pipeline's kernels");
    let samples = Samples::new(SAMPLE_SIZE);
    let mut table = RatioTable::new(format!(
        "graph memory nodes / static buffers on {device} (median over {SAMPLE_SIZE} A/B samples)"
    ));
    let mut memory = Vec::new();
    for n in SIZES {
        memory.push(run(&gpu, &k, &samples, n));
        table.compare(
            &samples,
            "launch A/B",
            n,
            (&format!("launch/alloc/{n}"), &format!("launch/static/{n}")),
            (n >= EXAMPLE_SIZES_FROM).then_some(1.05),
            if n >= EXAMPLE_SIZES_FROM {
                "blocks of launches, each ended by a stream wait"
            } else {
                "small graph, not the example's: what the alloc and free nodes cost on the GPU"
            },
        );
        table.compare(
            &samples,
            "build + instantiate A/B",
            n,
            (&format!("build/alloc/{n}"), &format!("build/static/{n}")),
            None,
            "",
        );
    }
    println!("\n{table}");
    println!("\nreserved graph memory vs static buffers (one launch, after a trim)");
    println!(
        "{:>10}  {:>14}  {:>14}  {:>7}",
        "N", "reserved", "static", "ratio"
    );
    for (n, reserved, fixed) in memory {
        println!(
            "{n:>10}  {:>12} B  {:>12} B  {:>6.3}x",
            reserved,
            fixed,
            reserved as f64 / fixed as f64
        );
    }
}

/// Checks, times and measures the pipeline of `n` elements; returns (n, reserved, static bytes).
fn run(gpu: &Gpu, k: &PipelineKernels, samples: &Samples, n: usize) -> (usize, u64, u64) {
    let host: Vec<f32> = (0..n).map(|i| (i % 1000) as f32 / 250.0 - 2.0).collect();
    let x = upload(gpu, &host);
    let (out_a, out_s) = (zeros::<f32>(gpu, n), zeros::<f32>(gpu, n));
    let statics: [DeviceBuffer<f32>; 3] = std::array::from_fn(|_| zeros(gpu, n));
    let stream = &gpu.stream;

    // Memory: one launch of the memory-node graph from a trimmed pool.
    stream.synchronize().expect("sync");
    GraphMemory::trim(&gpu.ctx).expect("trim");
    GraphMemory::reset_peaks(&gpu.ctx).expect("reset");
    let mut alloc = pipeline::build(&gpu.ctx, k, &x, &out_a, Allocated)
        .instantiate()
        .expect("instantiate");
    let mut fixed = pipeline::build(&gpu.ctx, k, &x, &out_s, Static(&statics))
        .instantiate()
        .expect("instantiate");
    alloc.launch(stream).expect("launch");
    fixed.launch(stream).expect("launch");
    stream.synchronize().expect("sync");
    let reserved = GraphMemory::of(&gpu.ctx)
        .expect("graph memory")
        .reserved_peak;
    let want: Vec<f32> = host.iter().map(|&v| pipeline::expected(v)).collect();
    assert_eq!(read_back(stream, &out_a), want, "memory nodes, n = {n}");
    assert_eq!(read_back(stream, &out_s), want, "static buffers, n = {n}");

    let block = if n < 1 << 20 {
        200
    } else if n < 1 << 24 {
        20
    } else {
        5
    };
    samples.interleaved_blocks(
        (&format!("launch/alloc/{n}"), &format!("launch/static/{n}")),
        block,
        3,
        |b| {
            for _ in 0..b {
                alloc.launch(stream).expect("launch");
            }
            stream.synchronize().expect("sync");
        },
        |b| {
            for _ in 0..b {
                fixed.launch(stream).expect("launch");
            }
            stream.synchronize().expect("sync");
        },
    );
    drop((alloc, fixed));
    stream.synchronize().expect("sync");
    samples.interleaved(
        (&format!("build/alloc/{n}"), &format!("build/static/{n}")),
        20,
        2,
        || {
            let exec = pipeline::build(&gpu.ctx, k, &x, &out_a, Allocated).instantiate();
            drop(exec.expect("instantiate"));
        },
        || {
            let exec = pipeline::build(&gpu.ctx, k, &x, &out_s, Static(&statics)).instantiate();
            drop(exec.expect("instantiate"));
        },
    );
    stream.synchronize().expect("sync");
    (n, reserved, 3 * (n * 4) as u64)
}
