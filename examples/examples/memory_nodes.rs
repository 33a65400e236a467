//! Temporaries as graph allocations: a three-stage pipeline built once per batch size, whose
//! intermediate tensors are allocated and freed by the graph itself (declared with `alloc` and
//! `free` nodes). CUDA backs them with
//! physical memory only while they live in graph order, so the stages reuse each other's memory,
//! and the executables of all batch sizes, launched into one stream, share one pool, instead of
//! holding a static buffer per tensor per shape.
//!
//! `h1 = 2x - 1; h2 = relu(h1); h3 = h2 / 2 + 1/4; y = h3 + x`, checked against the CPU.
//!
//! Run: `cargo run --release --example memory_nodes`

use std::sync::Arc;

use cudagraph_runtime::cudarc::driver::CudaStream;
use cudagraph_runtime::cudarc::nvrtc::compile_ptx;
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{cuda_graph, Error, GraphMemory};

const KERNELS: &str = r#"
extern "C" __global__ void affine(unsigned n, float a, float b, const float* x, float* y) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + b;
}
extern "C" __global__ void relu(unsigned n, const float* x, float* y) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = fmaxf(x[i], 0.0f);
}
extern "C" __global__ void add(unsigned n, const float* x, const float* y, float* out) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = x[i] + y[i];
}
"#;

/// Features per row of a batch: a batch of 16 rows has 64 MiB temporaries.
const WIDTH: usize = 1 << 20;

cuda_graph! {
    /// The pipeline for one batch: `x` in, `y` out, its three temporaries allocated by the graph.
    /// `h1` is dead after stage 2: it is freed before `h3` is allocated, so `h3` can take its
    /// memory.
    graph Pipeline {
        params {
            affine: Kernel<(u32, f32, f32, DevicePtr<f32>, DevicePtrMut<f32>)>,
            relu: Kernel<(u32, DevicePtr<f32>, DevicePtrMut<f32>)>,
            add: Kernel<(u32, DevicePtr<f32>, DevicePtr<f32>, DevicePtrMut<f32>)>,
            x: DeviceBuffer<f32>,
            y: DeviceBuffer<f32>,
            n: u32,
        }
        h1: alloc::<f32>(n as usize);
        h2: alloc::<f32>(n as usize);
        h3: alloc::<f32>(n as usize);
        stage1: kernel affine<<<n.div_ceil(256), 256>>>(n, 2.0, -1.0, x, h1);
        stage2: kernel relu<<<n.div_ceil(256), 256>>>(n, h1, h2);
        stage3: kernel affine<<<n.div_ceil(256), 256>>>(n, 0.5, 0.25, h2, h3);
        stage4: kernel add<<<n.div_ceil(256), 256>>>(n, h3, x, y);
        free_h1: free(h1);
        free_h2: free(h2);
        free_h3: free(h3);
        h1 -> stage1 -> stage2 -> free_h1 -> h3 -> stage3 -> stage4 -> free_h3;
        h2 -> stage2 -> stage3 -> free_h2;
    }
}

fn main() -> Result<(), Error> {
    let ctx = match cudagraph_runtime::open_device(0) {
        Ok(ctx) => ctx,
        Err(e) => {
            eprintln!("memory_nodes needs an NVIDIA GPU with a CUDA driver: {e}");
            std::process::exit(2);
        }
    };
    let stream: Arc<CudaStream> = ctx.new_stream()?;
    let module = ctx.load_module(compile_ptx(KERNELS).expect("NVRTC compiles the kernels"))?;
    // SAFETY: the parameter lists of the kernels of these names in `KERNELS`.
    let (affine, relu, add) = unsafe {
        (
            Kernel::new(module.load_function("affine")?),
            Kernel::new(module.load_function("relu")?),
            Kernel::new(module.load_function("add")?),
        )
    };
    println!("device: {}", ctx.name()?);
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
            y: DeviceBuffer::zeros(&stream, n)?,
            n: n as u32,
        };
        let exec = Pipeline::build(&ctx, &params)?.instantiate()?;
        temporaries += 3 * (n * 4) as u64;
        shapes.push((batch, host, params.y, exec));
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
            .filter(|(&x, &y)| y != (2.0 * x - 1.0).max(0.0) * 0.5 + 0.25 + x)
            .count();
        println!(
            "batch {batch:>2}: {} values, {wrong} differ from the CPU",
            got.len()
        );
        assert_eq!(wrong, 0, "batch {batch}: results differ from the CPU");
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
