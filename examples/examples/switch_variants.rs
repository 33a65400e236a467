//! A SWITCH conditional node picks one of three kernel variants per launch: the host says which
//! in one scalar param, whose setter (`exec.set_variant(..)`) updates the one node that reads it,
//! and the GPU runs only the chosen body. Each launch's output is checked against the CPU.
//!
//! Run: `cargo run --release -p cudagraph-examples --example switch_variants`

use std::process::ExitCode;

use cudagraph_examples::{compile, main_with, open_gpu, Failure};
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::SET_CONDITIONAL_DECLARATION;

type Choose = Kernel<(ConditionalHandle, u32)>;
type Map = Kernel<(u32, f32, DevicePtr<f32>, DevicePtrMut<f32>)>;

cuda_graph! {
    /// `y = f(x)` with `f` chosen per launch: `variant` 0 scales, 1 squares, 2 clamps to
    /// `[-a, a]`; any other value leaves `y` zeroed.
    graph Variants {
        params {
            choose: Choose,
            scale: Map,
            square: Map,
            clamp: Map,
            x: DeviceBuffer<f32>,
            y: DeviceBuffer<f32>,
            n: u32,
            a: f32,
            variant: u32,
        }
        zero: memset(y, 0.0f32);
        pick: kernel choose<<<1, 32>>>(which, variant);
        apply: switch which {
            0 => { scaled: kernel scale<<<n.div_ceil(256), 256>>>(n, a, x, y); }
            1 => { squared: kernel square<<<n.div_ceil(256), 256>>>(n, a, x, y); }
            2 => { clamped: kernel clamp<<<n.div_ceil(256), 256>>>(n, a, x, y); }
        }
        [zero, pick] -> apply;
    }
}

const SRC: &str = r#"
extern "C" __global__ void choose(unsigned long long h, unsigned variant) {
    if (threadIdx.x == 0 && blockIdx.x == 0) cudaGraphSetConditional(h, variant);
}
extern "C" __global__ void scale(unsigned n, float a, const float* x, float* y) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i];
}
extern "C" __global__ void square(unsigned n, float a, const float* x, float* y) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] * x[i];
}
extern "C" __global__ void clamp(unsigned n, float a, const float* x, float* y) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = fminf(fmaxf(x[i], -a), a);
}
"#;

/// What the GPU should compute for `variant`.
fn on_cpu(variant: u32, a: f32, x: &[f32]) -> Vec<f32> {
    x.iter()
        .map(|&v| match variant {
            0 => a * v,
            1 => v * v,
            2 => v.clamp(-a, a),
            _ => 0.0,
        })
        .collect()
}

fn main() -> ExitCode {
    main_with("switch_variants", run)
}

fn run() -> Result<(), Failure> {
    let ctx = open_gpu()?;
    let stream = ctx.new_stream()?;
    let module = compile(&ctx, &format!("{SET_CONDITIONAL_DECLARATION}{SRC}"))?;
    let n = 1 << 20;
    let x_host: Vec<f32> = (0..n)
        .map(|i| ((i % 1000) as f32 - 500.0) / 100.0)
        .collect();
    // SAFETY: `choose` takes (unsigned long long, unsigned), a conditional handle being an
    // `unsigned long long`; it touches no memory, sets only its handle and launches nothing, so
    // it needs no check.
    let choose: Choose = unsafe { Kernel::new(module.load_function("choose")?) };
    // The maps' check: each reads x[i] and writes y[i] for i < n only.
    let fits = |_: &LaunchConfig, (n, _, x, y): (u32, f32, usize, usize)| n as usize <= x.min(y);
    // SAFETY: `scale` takes (unsigned, float, const float*, float*), reads x[i] and writes y[i]
    // for i < n only, and launches nothing; `fits` keeps n within x and y.
    let scale: Map = unsafe { Kernel::new(module.load_function("scale")?) }.requires(fits);
    // SAFETY: `square`: the parameter list and accesses of `scale`; `fits` bounds them.
    let square: Map = unsafe { Kernel::new(module.load_function("square")?) }.requires(fits);
    // SAFETY: `clamp`: the parameter list and accesses of `scale`; `fits` bounds them.
    let clamp: Map = unsafe { Kernel::new(module.load_function("clamp")?) }.requires(fits);
    let x = DeviceBuffer::from_host(&stream, &x_host)?;
    let params = VariantsParams {
        choose,
        scale,
        square,
        clamp,
        x,
        y: DeviceBuffer::zeros(&stream, n)?,
        n: n as u32,
        a: 2.5,
        variant: 0,
    };
    let mut exec = Variants::build(&ctx, &params)?.instantiate()?;
    for (launch, variant) in [0u32, 1, 2, 1, 0, 7, 2].into_iter().enumerate() {
        exec.set_variant(variant)?; // updates `pick`, the one node that reads `variant`
        exec.launch(&stream)?;
        let y = exec.params().y.to_vec()?;
        let want = on_cpu(variant, exec.params().a, &x_host);
        let wrong = y.iter().zip(&want).filter(|(g, w)| g != w).count();
        println!("launch {launch}: variant {variant}, {wrong} of {n} values differ from the CPU");
        if wrong != 0 {
            return Err(Failure::Other(format!(
                "variant {variant}: {wrong} values differ from the CPU"
            )));
        }
    }
    println!("every launch ran the variant it was given");
    Ok(())
}
