//! Quickstart through the runtime API alone (no macro): build a small CUDA graph, launch it,
//! update one kernel parameter, launch again.
//!
//! ```text
//! fill (memset y = 1.0) -> affine (kernel y = a*y + i) -> back (memcpy y -> host) -> check (host)
//! ```
//!
//! The host node reads what `back` copied, on a CPU thread while the graph runs, and sends what it
//! found to `main`. Run with `cargo run -p cudagraph-examples --example runtime_quickstart`.

use std::process::ExitCode;
use std::sync::mpsc;

use cudagraph_examples::{compile, main_with, open_gpu, Failure};
use cudagraph_runtime::prelude::*;

const N: usize = 1 << 16;

const SOURCE: &str = r#"
extern "C" __global__ void affine(unsigned n, float a, float* y) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * y[i] + (float)i;
}
"#;

fn main() -> ExitCode {
    main_with("runtime_quickstart", run)
}

fn run() -> Result<(), Failure> {
    let ctx = open_gpu()?;
    let stream = ctx.new_stream()?;
    let module = compile(&ctx, SOURCE)?;
    // SAFETY: `affine` takes (unsigned, float, float*), reads and writes y[i] for i < n only,
    // and launches nothing; the check keeps n within y at every add and update.
    let affine: Kernel<(u32, f32, DevicePtrMut<f32>)> =
        unsafe { Kernel::new(module.load_function("affine")?) }
            .requires(|_, (n, _, y)| n as usize <= y);

    // Owned buffers: the graph and its executable keep them alive as long as launches use them.
    let y = DeviceBuffer::<f32>::zeros(&stream, N)?;
    let host = HostBuffer::<f32>::zeroed(&ctx, N)?;

    let cfg = LaunchConfig::for_num_elems(N as u32);
    let mut graph = Graph::new(&ctx)?;
    let fill = graph
        .name_next("fill")
        .add_memset(Memset::new(&y, 1.0f32), &[])?;
    let kernel =
        graph
            .name_next("affine")
            .add_kernel(&affine, cfg, (N as u32, 2.0, &y), &[fill.id()])?;
    let back = graph
        .name_next("back")
        .add_memcpy(Memcpy::dtoh(&y, &host), &[kernel.id()])?;
    // After `back`, the host node reads the copy; it reports the range of `y[i] - i`, which is `a`.
    let (found, seen) = mpsc::channel();
    graph.name_next("check").add_host_with(
        &host,
        move |y: &[f32]| {
            let offsets = y.iter().enumerate().map(|(i, &v)| v - i as f32);
            let range = offsets.fold((f32::MAX, f32::MIN), |(lo, hi), d| (lo.min(d), hi.max(d)));
            let _ = found.send(range);
        },
        &[back.id()],
    )?;
    print!("{}", graph.to_dot());

    let mut exec = graph.instantiate_with(InstantiateFlags::NONE, Some(&stream))?;
    for a in [2.0f32, -0.5] {
        if a != 2.0 {
            // Single-node update: only the kernel's argument changes, for the next launch.
            exec.set_kernel_params(kernel, cfg, (N as u32, a, &y))?;
        }
        exec.launch(&stream)?;
        let (lo, hi) = seen.recv()?;
        exec.check_host_panics()?;
        println!("a = {a:>4}: y[i] - i ranges over [{lo}, {hi}]");
        if (lo, hi) != (a, a) {
            return Err(Failure::Other(format!(
                "expected y[i] - i = {a} everywhere"
            )));
        }
    }
    // The same result, read by host code through the buffer's guard (it waits for the launch).
    let last = host.read()?[N - 1];
    println!("verified: 2 launches of {N} values; y[{}] = {last}", N - 1);
    Ok(())
}
