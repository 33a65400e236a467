//! An iterative solver whose loop runs on the GPU: a WHILE conditional node repeats a Jacobi
//! iteration until the change between iterates is below a tolerance, with no host round-trip per
//! iteration. Checked against the same iterations on the CPU, then timed against the same
//! solver driven from the host (one graph launch and one read-back per iteration).
//!
//! Run: `cargo run --release -p cudagraph-examples --example jacobi_while`

use std::process::ExitCode;
use std::time::Instant;

use cudagraph_examples::jacobi::{cpu_jacobi, Jacobi, NEVER};
use cudagraph_examples::{main_with, open_gpu, Failure};

fn main() -> ExitCode {
    main_with("jacobi_while", run)
}

fn run() -> Result<(), Failure> {
    let ctx = open_gpu()?;
    let stream = ctx.new_stream()?;
    let n = 1 << 16;
    let b: Vec<f32> = (0..n).map(|i| 1.0 + (i % 7) as f32 * 0.25).collect();
    let solver = Jacobi::new(&ctx, &stream, &b)?;

    // Solve to a tolerance: the GPU decides when to stop.
    let mut solve = solver.while_graph(1e-10, 10_000)?.instantiate()?;
    solve.launch(&stream)?;
    let iterations = solver.iterations.to_vec()?[0];
    let x = solver.x.to_vec()?;
    let cpu = cpu_jacobi(&b, iterations);
    let worst = x
        .iter()
        .zip(&cpu)
        .map(|(g, c)| (g - c).abs())
        .fold(0.0f32, f32::max);
    println!("converged in {iterations} iterations; largest difference from the CPU: {worst:e}");
    if worst > 1e-4 {
        return Err(Failure::Other(format!("differs from the CPU by {worst}")));
    }

    // The same work, fixed iteration counts: the loop on the GPU against the loop on the host.
    let mut step = solver.step_graph()?.instantiate()?;
    println!(
        "{:>10}  {:>12}  {:>12}  {:>8}",
        "iterations", "WHILE node", "host loop", "speedup"
    );
    for iterations in [10u32, 100, 1000] {
        let mut fixed = solver.while_graph(NEVER, iterations)?.instantiate()?;
        fixed.launch(&stream)?; // warm up
        stream.synchronize()?;
        let started = Instant::now();
        fixed.launch(&stream)?;
        stream.synchronize()?;
        let on_gpu = started.elapsed();
        assert_eq!(solver.iterations.to_vec()?[0], iterations);

        solver.solve_from_host(&mut step, &stream, NEVER, iterations)?; // warm up
        let started = Instant::now();
        let made = solver.solve_from_host(&mut step, &stream, NEVER, iterations)?;
        let from_host = started.elapsed();
        assert_eq!(made, iterations);
        println!(
            "{iterations:>10}  {:>9.1} µs  {:>9.1} µs  {:>7.2}x",
            on_gpu.as_secs_f64() * 1e6,
            from_host.as_secs_f64() * 1e6,
            from_host.as_secs_f64() / on_gpu.as_secs_f64()
        );
    }
    Ok(())
}
