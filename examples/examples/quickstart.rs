//! Quickstart: declare a CUDA graph, launch it, change one parameter, launch again, and read the
//! result on the host.
//!
//! ```text
//! copy_in (input -> x) -> scale (y = a * x + i) -> copy_out (y -> output)
//! ```
//!
//! Run with `cargo run -p cudagraph-examples --example quickstart`.

use std::process::ExitCode;

use cudagraph_examples::{compile, main_with, open_gpu, Failure};
use cudagraph_runtime::prelude::*;

const N: usize = 1 << 16;

const SOURCE: &str = r#"
extern "C" __global__ void affine(unsigned n, float a, const float* x, float* y) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + (float)i;
}
"#;

cuda_graph! {
    /// Copy `input` to the device, compute `y = a * x + i`, copy `y` back into `output`.
    graph Quickstart {
        params {
            affine: Kernel<(u32, f32, DevicePtr<f32>, DevicePtrMut<f32>)>,
            input: HostBuffer<f32>,
            x: DeviceBuffer<f32>,
            y: DeviceBuffer<f32>,
            output: HostBuffer<f32>,
            n: u32,
            a: f32,
        }
        copy_in: memcpy(input -> x);
        scale: kernel affine<<<n.div_ceil(256), 256>>>(n, a, x, y);
        copy_out: memcpy(y -> output);
        copy_in -> scale -> copy_out;
    }
}

fn main() -> ExitCode {
    main_with("quickstart", run)
}

fn run() -> Result<(), Failure> {
    let ctx = open_gpu()?;
    let stream = ctx.new_stream()?;
    let module = compile(&ctx, SOURCE)?;
    // SAFETY: `affine` is `void affine(unsigned n, float a, const float* x, float* y)`.
    let affine = unsafe { Kernel::new(module.load_function("affine")?) };

    // The executable keeps a copy of these params (the buffers are shared, and live as long as
    // a launch may use them).
    let params = QuickstartParams {
        affine,
        input: HostBuffer::from_slice(&ctx, &vec![1.0; N])?,
        x: DeviceBuffer::zeros(&stream, N)?,
        y: DeviceBuffer::zeros(&stream, N)?,
        output: HostBuffer::zeroed(&ctx, N)?,
        n: N as u32,
        a: 2.0,
    };
    let mut exec = Quickstart::build(&ctx, &params)?.instantiate()?;

    for a in [2.0, -0.5] {
        exec.set_a(a)?; // updates `scale`, the one node that reads `a`
        exec.launch(&stream)?;
        let y = exec.params().output.read()?; // waits for the launch, then reads on the host
        let wrong = (0..N).filter(|&i| y[i] != a + i as f32).count();
        println!(
            "a = {a:>4}: y[{}] = {}, {wrong} of {N} wrong",
            N - 1,
            y[N - 1]
        );
        if wrong != 0 {
            return Err(Failure::Other(format!("{wrong} values wrong with a = {a}")));
        }
    }
    Ok(())
}
