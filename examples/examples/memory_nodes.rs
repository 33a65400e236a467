//! Temporaries as graph allocations: a three-stage pipeline built once per batch size, whose
//! intermediate tensors are allocated and freed by the graph itself. CUDA backs them with
//! physical memory only while they live in graph order, so the stages reuse each other's memory,
//! and the executables of all batch sizes, launched into one stream, share one pool, instead of
//! holding a static buffer per tensor per shape.
//!
//! `h1 = 2x - 1; h2 = relu(h1); h3 = h2 / 2 + 1/4; y = h3 + x`, checked against the CPU.
//!
//! Run: `cargo run --release --example memory_nodes`

use std::sync::Arc;

use cudagraph_runtime::cudarc::driver::{CudaContext, CudaStream};
use cudagraph_runtime::cudarc::nvrtc::compile_ptx;
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{Error, GraphMemory};

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

/// Features per row of a batch.
const WIDTH: usize = 1 << 16;

/// `affine(n, a, b, x, y)`: `y = a * x + b`.
type Affine = (u32, f32, f32, DevicePtr<f32>, DevicePtrMut<f32>);
/// `add(n, x, y, out)`: `out = x + y`.
type Add = (u32, DevicePtr<f32>, DevicePtr<f32>, DevicePtrMut<f32>);

struct Kernels {
    affine: Kernel<Affine>,
    relu: Kernel<(u32, DevicePtr<f32>, DevicePtrMut<f32>)>,
    add: Kernel<Add>,
}

/// The pipeline for one batch: `x` in, `y` out, three temporaries allocated by the graph.
fn pipeline(
    ctx: &Arc<CudaContext>,
    k: &Kernels,
    x: &DeviceBuffer<f32>,
    y: &DeviceBuffer<f32>,
) -> Result<Graph<'static>, Error> {
    let n = x.len();
    let (cfg, n32) = (LaunchConfig::for_num_elems(n as u32), n as u32);
    let mut g = Graph::new(ctx)?;
    g.name_next("h1");
    let h1 = g.add_mem_alloc::<f32>(n, &[])?;
    let s1 = g.add_kernel(&k.affine, cfg, (n32, 2.0, -1.0, x, h1), &[h1.id()])?;
    g.name_next("h2");
    let h2 = g.add_mem_alloc::<f32>(n, &[])?;
    let s2 = g.add_kernel(&k.relu, cfg, (n32, h1, h2), &[s1.id(), h2.id()])?;
    // h1 is dead after stage 2: freeing it before h3 is allocated lets h3 take its memory.
    let free_h1 = g.add_mem_free(&h1, &[s2.id()])?;
    g.name_next("h3");
    let h3 = g.add_mem_alloc::<f32>(n, &[free_h1.id()])?;
    let s3 = g.add_kernel(&k.affine, cfg, (n32, 0.5, 0.25, h2, h3), &[h3.id()])?;
    g.add_mem_free(&h2, &[s3.id()])?;
    let s4 = g.add_kernel(&k.add, cfg, (n32, h3, x, y), &[s3.id()])?;
    g.add_mem_free(&h3, &[s4.id()])?;
    Ok(g)
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
    let k = unsafe {
        Kernels {
            affine: Kernel::new(module.load_function("affine")?),
            relu: Kernel::new(module.load_function("relu")?),
            add: Kernel::new(module.load_function("add")?),
        }
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
        let x = DeviceBuffer::from_host(&stream, &host)?;
        let y = DeviceBuffer::<f32>::zeros(&stream, n)?;
        let exec = pipeline(&ctx, &k, &x, &y)?.instantiate()?;
        temporaries += 3 * (n * 4) as u64;
        shapes.push((batch, host, y, exec));
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
