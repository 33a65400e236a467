//! Quickstart: declare a CUDA graph, launch it, change one parameter, launch again, and read the
//! result on the host. The README shows the same program; the declaration and the kernel are in
//! `src/quickstart.rs`, where the tests check the README against them.
//!
//! ```text
//! copy_in (input -> x) -> scale (y = a * x + i) -> copy_out (y -> output)
//! ```
//!
//! Run with `cargo run -p cudagraph-examples --example quickstart`. Without a GPU it prints one
//! line saying what is missing and exits with a failure.

use std::process::ExitCode;

use cudagraph_examples::quickstart::{Quickstart, QuickstartParams, AFFINE};
use cudagraph_examples::{compile, main_with, open_gpu, Failure};
use cudagraph_runtime::prelude::*;

fn main() -> ExitCode {
    main_with("quickstart", run)
}

fn run() -> Result<(), Failure> {
    let ctx = open_gpu()?;
    let stream = ctx.new_stream()?;
    let module = compile(&ctx, AFFINE)?;
    let func = module.load_function("affine")?;
    // SAFETY: `affine` takes (unsigned, float, const float*, float*) and touches x[i] and y[i]
    // for i < n only; the check keeps n within x and y at every add and update.
    let affine = unsafe { Kernel::<(u32, f32, DevicePtr<f32>, DevicePtrMut<f32>)>::new(func) }
        .requires(|_, (n, _, x, y)| n as usize <= x.min(y));
    let n = 1 << 16;
    // The executable keeps a copy of these params (the buffers are shared, and live as long as
    // a launch may use them).
    let params = QuickstartParams {
        affine,
        input: HostBuffer::from_slice(&ctx, &vec![1.0; n])?,
        x: DeviceBuffer::zeros(&stream, n)?,
        y: DeviceBuffer::zeros(&stream, n)?,
        output: HostBuffer::zeroed(&ctx, n)?,
        n: n as u32,
        a: 2.0,
    };

    let mut exec = Quickstart::build(&ctx, &params)?.instantiate()?;
    for a in [2.0, -0.5] {
        exec.set_a(a)?; // updates `scale`, the one node that reads `a`
        exec.launch(&stream)?;
        let y = exec.params().output.read()?; // waits for the launch, then reads on the host
        let wrong = (0..n).filter(|&i| y[i] != a + i as f32).count();
        println!(
            "a = {a:>4}: y[{}] = {}, {wrong} of {n} wrong",
            n - 1,
            y[n - 1]
        );
        if wrong != 0 {
            return Err(Failure::Other(format!("{wrong} values wrong with a = {a}")));
        }
    }
    Ok(())
}
