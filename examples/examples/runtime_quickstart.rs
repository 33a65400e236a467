//! Quickstart through the runtime API alone (no macro): build a small CUDA graph, launch it, update one kernel parameter, launch again.
//!
//! ```text
//! fill (memset y = 1.0) -> affine (kernel y = a*y + i) -> back (memcpy y -> host) -> check (host)
//! ```
//!
//! The host node checks the copied-back values on a CPU thread while the graph runs; `main`
//! then reports what it found. Run with `cargo run -p cudagraph-examples --example runtime_quickstart`.

use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use cudagraph_examples::{compile, main_with, open_gpu, Failure};
use cudagraph_runtime::prelude::*;

const N: usize = 1 << 16;

const SOURCE: &str = r#"
extern "C" __global__ void affine(unsigned n, float a, float* y) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * y[i] + (float)i;
}
"#;

/// What the host node saw on its last run: the `a` it expected and how many values were wrong.
#[derive(Debug, Default)]
struct Verdict {
    expected_a: Mutex<f32>,
    wrong: AtomicUsize,
    runs: AtomicUsize,
}

fn main() -> ExitCode {
    main_with("runtime_quickstart", run)
}

fn run() -> Result<(), Failure> {
    let ctx = open_gpu()?;
    let stream = ctx.new_stream()?;
    let module = compile(&ctx, SOURCE)?;
    // SAFETY: `affine` is `void affine(unsigned n, float a, float* y)`.
    let affine: Kernel<(u32, f32, DevicePtrMut<f32>)> =
        unsafe { Kernel::new(module.load_function("affine")?) };

    // Device and host buffers. The graph keeps their addresses, so they outlive the executable.
    let mut y = stream.alloc_zeros::<f32>(N)?;
    let y_ptr = DevicePtrMut::from(&mut y);
    let host = Arc::new(Mutex::new(vec![f32::NAN; N]));
    // The vector is never resized, so its address is stable; the lock is for the host node.
    let host_ptr = HostPtrMut::from(&mut host.lock().map_err(|e| e.to_string())?[..]);

    let verdict = Arc::new(Verdict::default());
    let check = {
        let (host, verdict) = (host.clone(), verdict.clone());
        move || {
            // Runs on a driver thread after `back` completed: the copy is in `host`.
            let a = *verdict.expected_a.lock().unwrap();
            let values = host.lock().unwrap();
            let wrong = values
                .iter()
                .enumerate()
                .filter(|&(i, &v)| v != a * 1.0 + i as f32)
                .count();
            verdict.wrong.store(wrong, Ordering::SeqCst);
            verdict.runs.fetch_add(1, Ordering::SeqCst);
        }
    };

    let cfg = LaunchConfig::for_num_elems(N as u32);
    let mut graph = Graph::new(&ctx)?;
    let fill = graph
        .name_next("fill")
        .add_memset(Memset::new(y_ptr, 1.0f32), &[])?;
    let kernel =
        graph
            .name_next("affine")
            .add_kernel(&affine, cfg, (N as u32, 2.0, y_ptr), &[fill.id()])?;
    let back = graph
        .name_next("back")
        .add_memcpy(Memcpy::dtoh(y_ptr.as_const(), host_ptr), &[kernel.id()])?;
    graph.name_next("check").add_host(check, &[back.id()])?;
    print!("{}", graph.to_dot());

    let mut exec = graph.instantiate_with(InstantiateFlags::NONE, Some(&stream))?;
    for a in [2.0f32, -0.5] {
        *verdict.expected_a.lock().map_err(|e| e.to_string())? = a;
        if a != 2.0 {
            // Single-node update: only the kernel's argument changes, for the next launch.
            exec.set_kernel_params(kernel, cfg, (N as u32, a, y_ptr))?;
        }
        exec.launch(&stream)?;
        stream.synchronize()?;
        exec.check_host_panics()?;
        let wrong = verdict.wrong.load(Ordering::SeqCst);
        let sample = host.lock().map_err(|e| e.to_string())?[N - 1];
        println!(
            "a = {a:>4}: y[{}] = {sample}, {wrong} of {N} values wrong",
            N - 1
        );
        if wrong != 0 {
            return Err(Failure::Other(format!("{wrong} values wrong with a = {a}")));
        }
    }
    let runs = verdict.runs.load(Ordering::SeqCst);
    if runs != 2 {
        return Err(Failure::Other(format!(
            "the host check ran {runs} times, not 2"
        )));
    }
    println!("verified: 2 launches, {N} values each, kernel parameter updated in place");
    Ok(())
}
