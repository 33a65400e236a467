//! Quickstart: declare a CUDA graph with `cuda_graph!`, launch it, change one parameter, launch
//! again, and check the results on the CPU while the graph runs.
//!
//! ```text
//! fill (memset y = 1) -> scale (kernel y = a*y + i) -> back (memcpy y -> host) -> check (host)
//! ```
//!
//! Run with `cargo run -p cudagraph-examples --example quickstart`.

use std::process::ExitCode;
use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use cudagraph_examples::{compile, main_with, open_gpu, Failure};
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{cuda_graph, HostCallback};

const N: usize = 1 << 16;

const SOURCE: &str = r#"
extern "C" __global__ void affine(unsigned n, float a, float* y) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * y[i] + (float)i;
}
"#;

cuda_graph! {
    /// Fill `y`, transform it, copy it back and check it on the CPU.
    graph Quickstart {
        params {
            /// `y[i] = a * y[i] + i`.
            affine: Kernel<(u32, f32, DevicePtrMut<f32>)>,
            y: DevicePtrMut<f32>,
            host_y: HostPtrMut<f32>,
            n: u32,
            a: f32,
            verify: HostCallback,
        }
        fill: memset(y, 1.0f32);
        scale: kernel affine<<<n.div_ceil(256), 256>>>(n, a, y);
        back: memcpy(y -> host_y);
        check: host(verify);
        fill -> scale -> back -> check;
    }
}

/// What the host node found on its last run.
#[derive(Debug, Default)]
struct Verdict {
    /// The `a` the current launch uses, as f32 bits.
    a_bits: AtomicU32,
    wrong: AtomicUsize,
    runs: AtomicUsize,
}

fn main() -> ExitCode {
    main_with("quickstart", run)
}

fn run() -> Result<(), Failure> {
    let ctx = open_gpu()?;
    let stream = ctx.new_stream()?;
    let module = compile(&ctx, SOURCE)?;
    // SAFETY: `affine` is `void affine(unsigned n, float a, float* y)`.
    let affine = unsafe { Kernel::new(module.load_function("affine")?) };

    // The graph keeps the buffers' addresses: they live until the executable is gone.
    let mut y = stream.alloc_zeros::<f32>(N)?;
    let host = Arc::new(Mutex::new(vec![f32::NAN; N]));
    let host_y = HostPtrMut::from(&mut host.lock().map_err(|e| e.to_string())?[..]);

    let verdict = Arc::new(Verdict::default());
    let verify = {
        let (host, verdict) = (host.clone(), verdict.clone());
        HostCallback::new(move || {
            // On a driver thread, after `back` completed: the copy is in `host`.
            let a = f32::from_bits(verdict.a_bits.load(Ordering::SeqCst));
            let values = host.lock().unwrap_or_else(|e| e.into_inner());
            let wrong = values
                .iter()
                .enumerate()
                .filter(|&(i, &v)| v != a + i as f32)
                .count();
            verdict.wrong.store(wrong, Ordering::SeqCst);
            verdict.runs.fetch_add(1, Ordering::SeqCst);
        })
    };

    let mut params = QuickstartParams {
        affine,
        y: DevicePtrMut::from(&mut y),
        host_y,
        n: N as u32,
        a: 2.0,
        verify,
    };
    println!("{}", Quickstart::TOPOLOGY.to_mermaid());
    let mut exec = Quickstart::build(&ctx, &params)?.instantiate()?;

    for a in [2.0f32, -0.5, 3.25] {
        if a != params.a {
            params.a = a;
            // Only `scale` reads `a`: one single-node update, no rebuild.
            let updated = exec.set_params(&params)?;
            println!("set_params: {updated} node(s) updated");
            if updated != 1 {
                return Err(Failure::Other(format!(
                    "expected 1 node updated, not {updated}"
                )));
            }
        }
        verdict.a_bits.store(a.to_bits(), Ordering::SeqCst);
        exec.launch(&stream)?;
        stream.synchronize()?;
        let wrong = verdict.wrong.load(Ordering::SeqCst);
        let last = host.lock().map_err(|e| e.to_string())?[N - 1];
        println!(
            "a = {a:>5}: y[{}] = {last}, {wrong} of {N} values wrong",
            N - 1
        );
        if wrong != 0 {
            return Err(Failure::Other(format!("{wrong} values wrong with a = {a}")));
        }
    }
    // A panic in the host node, or a host node that never ran, would show here.
    exec.as_exec().check_host_panics()?;
    let runs = verdict.runs.load(Ordering::SeqCst);
    if runs != 3 {
        return Err(Failure::Other(format!(
            "the host check ran {runs} times, not 3"
        )));
    }
    println!("verified: 3 launches of {N} values, `a` changed twice through set_params");
    Ok(())
}
