//! NVIDIA's CUDA samples that build graphs by stream capture, ported with no `unsafe` beyond
//! loading the kernels (`Kernel::new`):
//!
//! - `simpleCudaGraphs`, its capture half (`cudaGraphsUsingStreamCapture`): a copy to the device,
//!   two memsets on forked streams, a two-pass reduction, a copy back and a host function that
//!   reports the sum and resets it; the graph cloned, both launched three times;
//! - `graphMemoryNodes`, its stream-capture variant (`createNegateSquaresGraphWithStreamCapture`
//!   over `doNegateSquaresInStream`): allocations made and freed inside the capture on two
//!   streams, so that the graph owns its temporaries.
//!
//! Results are checked against the CPU as the samples check them.

use std::sync::{Arc, Mutex};

use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{Error, Mut};
use cudagraph_tests::{compile, function, gpu, Rng};

const THREADS_PER_BLOCK: u32 = 512;

const SIMPLE_CUDA_GRAPHS: &str = r#"
#define THREADS_PER_BLOCK 512
// Each block sums a grid-strided part of `input` and writes it to output[blockIdx.x].
extern "C" __global__ void reduce(const float* input, double* output, unsigned long long n,
                                  unsigned long long outputs) {
    __shared__ double part[THREADS_PER_BLOCK];
    double sum = 0.0;
    for (unsigned long long i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (unsigned long long)gridDim.x * blockDim.x) {
        sum += (double)input[i];
    }
    part[threadIdx.x] = sum;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0 && blockIdx.x < outputs) output[blockIdx.x] = part[0];
}
// One block sums `input[0..n]` into result[0].
extern "C" __global__ void reduceFinal(const double* input, double* result, unsigned long long n) {
    __shared__ double part[THREADS_PER_BLOCK];
    double sum = 0.0;
    for (unsigned long long i = threadIdx.x; i < n; i += blockDim.x) sum += input[i];
    part[threadIdx.x] = sum;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) result[0] = part[0];
}
"#;

type Reduce = Kernel<(DevicePtr<f32>, DevicePtrMut<f64>, u64, u64)>;
type ReduceFinal = Kernel<(DevicePtr<f64>, DevicePtrMut<f64>, u64)>;

/// A block size the reductions' shared arrays hold, and that halves down to one thread.
fn reduction_block(c: &LaunchConfig) -> bool {
    let threads = c.block_dim.0;
    threads <= THREADS_PER_BLOCK
        && threads.is_power_of_two()
        && c.block_dim.1 == 1
        && c.block_dim.2 == 1
}

#[test]
fn simple_cuda_graphs_stream_capture() {
    let Some(gpu) = gpu("simple_cuda_graphs_stream_capture") else {
        return;
    };
    let module = compile(&gpu.ctx, SIMPLE_CUDA_GRAPHS);
    // SAFETY: `reduce` takes (const float*, double*, unsigned long long, unsigned long long),
    // reads input[i] for i < n only, writes output[b] for blocks b < outputs only, and launches
    // nothing; its shared array holds one double per thread of a block of at most 512 (also
    // indexed at threadIdx.x + s < blockDim.x). The check keeps n within input, outputs within
    // output, and the block a power of two of at most 512 threads in x alone.
    let reduce = unsafe { Reduce::new(function(&module, "reduce")) }.requires(
        |c, (input, output, n, outputs)| {
            reduction_block(c) && n as usize <= input && outputs as usize <= output
        },
    );
    // SAFETY: `reduceFinal` takes (const double*, double*, unsigned long long), reads input[i]
    // for i < n only, writes result[0] only, and launches nothing; its shared array as
    // `reduce`'s. The check keeps n within input, result non-empty, and the block as `reduce`'s.
    let reduce_final = unsafe { ReduceFinal::new(function(&module, "reduceFinal")) }
        .requires(|c, (input, result, n)| reduction_block(c) && n as usize <= input && result >= 1);
    let mut rng = Rng::new("simple_cuda_graphs_stream_capture");
    let input_size = 1usize << 20;
    let blocks = 512usize;
    let input: Vec<f32> = (0..input_size).map(|_| (rng.f32() + 1.0) / 2.0).collect();
    let want: f64 = input.iter().map(|&v| v as f64).sum();

    let input_h = HostBuffer::from_slice(&gpu.ctx, &input).unwrap();
    let input_d = DeviceBuffer::<f32>::zeros(&gpu.stream, input_size).unwrap();
    let output_d = DeviceBuffer::<f64>::zeros(&gpu.stream, blocks).unwrap();
    let result_d = DeviceBuffer::<f64>::zeros(&gpu.stream, 1).unwrap();
    let mut result_h = HostBuffer::<f64>::zeroed(&gpu.ctx, 1).unwrap();
    let reported = Arc::new(Mutex::new(Vec::<f64>::new()));
    let (stream2, stream3) = (gpu.ctx.new_stream().unwrap(), gpu.ctx.new_stream().unwrap());
    let for_graph = gpu.ctx.new_stream().unwrap();

    let operands = (Mut(input_d), Mut(output_d), Mut(result_d));
    let report = reported.clone();
    let graph = Graph::capture(
        &gpu.stream,
        operands,
        move |s, (input_d, output_d, result_d)| {
            // stream1: the input to the device; stream2 and stream3, forked: the memsets.
            s.fork(&stream3, |t3| {
                t3.memset(Memset::new(&result_d, 0u32))?;
                s.fork(&stream2, |t2| {
                    t2.memset(Memset::new(&output_d, 0u32))?;
                    s.memcpy(Memcpy::htod(&input_h, &input_d))
                })?; // stream1 waits for the first memset...
                let grid = LaunchConfig {
                    grid_dim: (blocks as u32, 1, 1),
                    block_dim: (THREADS_PER_BLOCK, 1, 1),
                    shared_mem_bytes: 0,
                };
                s.launch(
                    &reduce,
                    grid,
                    (&input_d, &output_d, input_size as u64, blocks as u64),
                )
            })?; // ...and for the second
            let one = LaunchConfig {
                grid_dim: (1, 1, 1),
                block_dim: (THREADS_PER_BLOCK, 1, 1),
                shared_mem_bytes: 0,
            };
            s.launch(&reduce_final, one, (&output_d, &result_d, blocks as u64))?;
            s.memcpy(Memcpy::dtoh(&result_d, &result_h))?;
            let report = report.clone();
            s.host(&mut result_h, move |result: &mut [f64]| {
                report.lock().unwrap().push(result[0]);
                result[0] = 0.0; // reset, as the sample's callback does
            })?;
            Ok::<(), Error>(())
        },
    )
    .unwrap();
    let cloned = graph.try_clone().unwrap();
    let unbound = graph.try_clone().unwrap();
    // The clone's host function writes the same host buffer. As the sample does, both
    // executables are launched into one stream, and bound to it they may both be alive: their
    // launches never overlap.
    let mut exec = graph
        .instantiate_on(&for_graph, InstantiateFlags::NONE)
        .unwrap();
    let mut cloned_exec = cloned
        .instantiate_on(&for_graph, InstantiateFlags::NONE)
        .unwrap();
    // One launched anywhere could run while they do: refused.
    assert!(matches!(
        unbound.instantiate(),
        Err(Error::BufferInUse { .. })
    ));
    for _ in 0..3 {
        exec.launch(&for_graph).unwrap();
        cloned_exec.launch(&for_graph).unwrap();
    }
    drop(exec);
    for_graph.synchronize().unwrap();
    let reported = reported.lock().unwrap().clone();
    assert_eq!(reported.len(), 6, "one host callback per launch");
    for (i, sum) in reported.iter().enumerate() {
        assert!(
            ((sum - want) / want).abs() < 1e-9,
            "launch {i}: the graph summed {sum}, the CPU {want}"
        );
    }
    all_released(cloned_exec);
}

const GRAPH_MEMORY_NODES: &str = r#"
extern "C" __global__ void squareArray(const float* input, float* square, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) square[i] = input[i] * input[i];
}
extern "C" __global__ void negateArray(const float* square, float* negSquare, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) negSquare[i] = square[i] * -1;
}
"#;

type Elementwise = Kernel<(DevicePtr<f32>, DevicePtrMut<f32>, i32)>;

#[test]
fn graph_memory_nodes_stream_capture() {
    let Some(gpu) = gpu("graph_memory_nodes_stream_capture") else {
        return;
    };
    let module = compile(&gpu.ctx, GRAPH_MEMORY_NODES);
    // The index is an `int` made from the grid: a grid of more than 2^31 threads would make
    // negative ones, which `i < n` lets through.
    let fits = |c: &LaunchConfig, (a, b, n): (usize, usize, i32)| {
        u64::from(c.grid_dim.0) * u64::from(c.block_dim.0) <= 1 << 31
            && n >= 0
            && n as usize <= a.min(b)
    };
    // SAFETY: `squareArray` takes (const float*, float*, int), reads input[i] and writes
    // square[i] for 0 <= i < n only (`fits` keeps i non-negative), and launches nothing; `fits`
    // keeps n within both arrays.
    let square = unsafe { Elementwise::new(function(&module, "squareArray")) }.requires(fits);
    // SAFETY: `negateArray`: the parameter list of `squareArray`, reading square[i] and writing
    // negSquare[i] for 0 <= i < n only; `fits` bounds them as for `squareArray`.
    let negate = unsafe { Elementwise::new(function(&module, "negateArray")) }.requires(fits);
    let mut rng = Rng::new("graph_memory_nodes_stream_capture");
    let n = 8_000_000usize;
    let input: Vec<f32> = (0..n).map(|_| rng.f32()).collect();
    let input_h = HostBuffer::from_slice(&gpu.ctx, &input).unwrap();
    let square_h = HostBuffer::from_slice(&gpu.ctx, &vec![f32::NAN; n]).unwrap();
    let neg_square_h = HostBuffer::from_slice(&gpu.ctx, &vec![f32::NAN; n]).unwrap();
    let stream2 = gpu.ctx.new_stream().unwrap();
    let cfg = LaunchConfig::for_num_elems(n as u32);
    let (sq, neg) = (square_h.clone(), neg_square_h.clone());

    // doNegateSquaresInStream, recorded: stream1 and stream2 as in the sample's diagram.
    let graph = Graph::capture(&gpu.stream, (), move |s, ()| {
        let d_input = s.alloc::<f32>(n)?;
        let d_square = s.alloc::<f32>(n)?;
        s.memcpy(Memcpy::htod(&input_h, &d_input))?;
        s.launch(&square, cfg, (&d_input, &d_square, n as i32))?;
        s.fork(&stream2, |t| {
            // stream2, after the square kernel: d_square to the host.
            t.memcpy(Memcpy::dtoh(&d_square, &sq))?;
            // stream1 meanwhile: d_input freed (its one reader is the square kernel, on this
            // stream), d_negSquare allocated (CUDA may give it d_input's memory), negated.
            s.free(d_input)?;
            let d_neg_square = s.alloc::<f32>(n)?;
            s.launch(&negate, cfg, (&d_square, &d_neg_square, n as i32))?;
            s.memcpy(Memcpy::dtoh(&d_neg_square, &neg))?;
            s.free(d_neg_square)?;
            // stream2, after the negate kernel on stream1 (the capture orders it): d_square freed.
            t.free(d_square)
        }) // stream1 waits for stream2: the sample's squareFreeEvent
    })
    .unwrap();
    assert!(graph.has_memory_nodes(), "the graph owns its temporaries");
    let mut exec = graph.instantiate().unwrap();
    for launch in 0..2 {
        exec.launch(&gpu.stream).unwrap();
        let (got_square, got_neg) = (square_h.to_vec().unwrap(), neg_square_h.to_vec().unwrap());
        // validateHost: squared relative difference at most 1e-6.
        for (i, &x) in input.iter().enumerate() {
            let (want_sq, want_neg) = (x * x, -(x * x));
            for (what, got, want) in [
                ("square", got_square[i], want_sq),
                ("negSquare", got_neg[i], want_neg),
            ] {
                let diff = got - want;
                assert!(
                    want == 0.0 && got == 0.0 || diff * diff / (want * want) <= 1e-6,
                    "launch {launch}, {what}[{i}]: got {got}, want {want}"
                );
            }
        }
    }
    all_released((exec, square_h, neg_square_h));
}

/// Drops `values` (an executable, buffers) and waits until everything they held is released:
/// the sample's own clean-up, which compute-sanitizer checks.
fn all_released<T>(values: T) {
    drop(values);
    assert!(
        cudagraph_runtime::wait_for_releases(std::time::Duration::from_secs(10)),
        "everything the graphs held is released"
    );
}
