//! One declaration, one executable per shape: requests of varying batch sizes go through an
//! `ExecCache` that builds the executable of a batch size the first time it is seen and keeps
//! a bounded number of them. The pipeline's temporaries are graph memory nodes, so the cached
//! executables share one pool of physical memory instead of holding static buffers each.
//!
//! `t1 = 2x - 1; t2 = relu(t1); t3 = t2 / 2 + 1/4; out = t3 + x`, every request checked against the
//! CPU. Printed: graph memory reserved with 1, 4 and 16 shapes cached against the bytes of static
//! temporaries one executable per shape would hold; then batch sizes 1 to 16 bucketed to powers
//! of two through a cache smaller than the number of buckets.
//!
//! Run: `cargo run --release -p cudagraph-examples --example shape_cache`

use std::num::NonZeroUsize;
use std::process::ExitCode;
use std::sync::Arc;

use cudagraph_examples::pipeline::{
    expected, Pipeline, PipelineExec, PipelineKernels, PipelineParams, TEMPORARIES,
};
use cudagraph_examples::{main_with, open_gpu, Failure};
use cudagraph_runtime::cudarc::driver::CudaStream;
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{bucket_pow2, ExecCache, GraphMemory};

/// Floats per row of a batch: each temporary of a batch of `b` rows is `b` MiB.
const WIDTH: usize = 1 << 18;

/// One shape's executable and the buffers it reads and writes (`rows` rows of `WIDTH`).
struct Shape {
    exec: PipelineExec,
    x: DeviceBuffer<f32>,
    y: DeviceBuffer<f32>,
}

/// Runs request `id`, a batch of `rows` rows, through `shape` (of at least that many rows: the
/// rest is padding) and checks the result against the CPU.
fn serve(
    shape: &mut Shape,
    stream: &Arc<CudaStream>,
    id: usize,
    rows: usize,
) -> Result<(), Failure> {
    let n = rows * WIDTH;
    let mut input = vec![0.0f32; shape.x.len()];
    for (i, v) in input[..n].iter_mut().enumerate() {
        *v = ((i * 7 + id * 131) % 997) as f32 / 250.0 - 2.0;
    }
    // Ordered after the launches that may still read `x`, before the next one.
    shape.x.copy_from(&input)?;
    shape.exec.launch(stream)?;
    let got = shape.y.to_vec()?; // waits for the launch
    match (0..n).find(|&i| got[i] != expected(input[i])) {
        None => Ok(()),
        Some(i) => Err(Failure::Other(format!(
            "request {id} ({rows} rows): element {i} is {}, the CPU says {}",
            got[i],
            expected(input[i])
        ))),
    }
}

/// `bytes` in MiB, for the table.
fn mib(bytes: u64) -> String {
    format!("{} MiB", bytes >> 20)
}

fn main() -> ExitCode {
    main_with("shape_cache", run)
}

fn run() -> Result<(), Failure> {
    let ctx = open_gpu()?;
    let stream = ctx.new_stream()?;
    let PipelineKernels { affine, relu, add } = PipelineKernels::load(&ctx)?;
    // The executable for batches of `rows` rows, with its own input and output: what the cache
    // runs on a miss.
    let build = |rows: usize| -> Result<Shape, Failure> {
        let n = rows * WIDTH;
        let params = PipelineParams {
            affine: affine.clone(),
            relu: relu.clone(),
            add: add.clone(),
            x: DeviceBuffer::zeros(&stream, n)?,
            out: DeviceBuffer::zeros(&stream, n)?,
            n: u32::try_from(n)?,
        };
        let exec = Pipeline::build(&ctx, &params)?.instantiate()?;
        Ok(Shape {
            exec,
            x: params.x,
            y: params.out,
        })
    };

    println!(
        "temporaries per shape: {TEMPORARIES} of {} MiB per row; all launches into one stream",
        (WIDTH * 4) >> 20
    );
    println!("| shapes | batch sizes | requests | builds | static temporaries | graph memory reserved | reserved / static |");
    println!("|--------|-------------|----------|--------|--------------------|-----------------------|-------------------|");
    let mut requests = 0;
    for shapes in [1usize, 4, 16] {
        // Nothing left from the previous row: the figures are this row's alone.
        ctx.synchronize()?;
        GraphMemory::trim(&ctx)?;
        GraphMemory::reset_peaks(&ctx)?;
        let mut cache = ExecCache::new(NonZeroUsize::new(shapes).ok_or("a cache of no shapes")?);
        // Batch sizes 1 to `shapes`, each four times, in a scrambled order (7 is prime to 16).
        let order: Vec<usize> = (0..4 * shapes).map(|i| 1 + (i * 7) % shapes).collect();
        for &rows in &order {
            let shape = cache.get_or_build(&rows, |&rows| build(rows))?;
            serve(shape, &stream, requests, rows)?;
            requests += 1;
        }
        let reserved = GraphMemory::of(&ctx)?.reserved_peak;
        // What one executable per shape holding a static buffer per temporary would take.
        let statics: u64 = (1..=shapes)
            .map(|rows| (TEMPORARIES * rows * WIDTH * 4) as u64)
            .sum();
        println!(
            "| {shapes:>6} | {:<11} | {:>8} | {:>6} | {:>18} | {:>21} | {:>16.2}x |",
            if shapes == 1 {
                "1".to_string()
            } else {
                format!("1-{shapes}")
            },
            order.len(),
            cache.stats().misses,
            mib(statics),
            mib(reserved),
            reserved as f64 / statics as f64
        );
    }
    println!(
        "static: {TEMPORARIES} buffers of `rows` MiB per cached shape; reserved: the peak of the \
         device's graph memory pool while the row ran"
    );
    println!("every result matches the CPU ({requests} requests)");

    // Batch sizes 1 to 16 rounded up to a power of two (5 buckets, padded) through a cache of 4:
    // the least recently used bucket is dropped when a fifth comes.
    let mut cache = ExecCache::new(NonZeroUsize::new(4).ok_or("a cache of no shapes")?);
    let order: Vec<usize> = (0..48).map(|i| 1 + (i * 7) % 16).collect();
    for (id, &rows) in order.iter().enumerate() {
        let bucket = bucket_pow2(rows).ok_or("a batch beyond the largest bucket")?;
        let shape = cache.get_or_build(&bucket, |&bucket| build(bucket))?;
        serve(shape, &stream, requests + id, rows)?;
    }
    let stats = cache.stats();
    let mut kept: Vec<usize> = cache.keys().copied().collect();
    kept.sort_unstable();
    println!(
        "batch sizes 1-16 in power-of-two buckets, cache of 4: {} requests, {} builds, {} hits, \
         {} evictions, buckets kept {kept:?}; every result matches the CPU",
        order.len(),
        stats.misses,
        stats.hits,
        stats.evictions
    );
    Ok(())
}
