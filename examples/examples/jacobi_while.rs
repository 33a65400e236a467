//! An iterative solver whose loop runs on the GPU: a WHILE conditional node repeats a Jacobi
//! iteration until the change between iterates is below a tolerance, with no host round-trip per
//! iteration; unrolled, each pass of the loop runs 8 iterations and checks the change once.
//! Checked against the same iterations on the CPU, then timed per iteration against the same
//! solver driven from the host (one graph launch and one read-back per iteration).
//!
//! Run: `cargo run --release -p cudagraph-examples --example jacobi_while`

use std::process::ExitCode;
use std::time::{Duration, Instant};

use cudagraph_examples::jacobi::{cpu_jacobi, Jacobi, NEVER};
use cudagraph_examples::{main_with, open_gpu, Failure};

/// The unroll counts timed (1: the plain WHILE loop).
const UNROLLS: [u32; 3] = [1, 4, 8];

fn main() -> ExitCode {
    main_with("jacobi_while", run)
}

fn run() -> Result<(), Failure> {
    let ctx = open_gpu()?;
    let stream = ctx.new_stream()?;
    let n = 1 << 16;
    let b: Vec<f32> = (0..n).map(|i| 1.0 + (i % 7) as f32 * 0.25).collect();
    let solver = Jacobi::new(&ctx, &stream, &b)?;

    // Solve to a tolerance: the GPU decides when to stop, after each iteration, or after each
    // pass of 8 (a multiple of 8 iterations, and the change summed over the pass).
    for unroll in [1, 8] {
        let mut solve = solver
            .unrolled_graph(1e-10, 10_000, unroll)?
            .instantiate()?;
        solve.launch(&stream)?;
        let iterations = solver.iterations.to_vec()?[0];
        let x = solver.x.to_vec()?;
        let cpu = cpu_jacobi(&b, iterations);
        let worst = x
            .iter()
            .zip(&cpu)
            .map(|(g, c)| (g - c).abs())
            .fold(0.0f32, f32::max);
        println!(
            "unroll {unroll}: converged in {iterations} iterations; largest difference from the \
             CPU: {worst:e}"
        );
        if worst > 1e-4 {
            return Err(Failure::Other(format!(
                "unroll {unroll}: differs from the CPU by {worst}"
            )));
        }
        if iterations % unroll != 0 {
            return Err(Failure::Other(format!(
                "unroll {unroll}: {iterations} iterations, not whole passes"
            )));
        }
    }

    // The same work, fixed iteration counts (multiples of 8): time per iteration of the loop on
    // the GPU, plain and unrolled, against the loop on the host.
    let mut step = solver.step_graph()?.instantiate()?;
    print!("{:>10}  {:>12}", "iterations", "host loop");
    for unroll in UNROLLS {
        print!("  {:>22}", format!("WHILE, unroll {unroll}"));
    }
    println!("   (µs per iteration; faster than the host loop by)");
    for iterations in [40u32, 200, 1000] {
        solver.solve_from_host(&mut step, &stream, NEVER, iterations)?; // warm up
        let started = Instant::now();
        let made = solver.solve_from_host(&mut step, &stream, NEVER, iterations)?;
        let from_host = started.elapsed();
        assert_eq!(made, iterations);
        print!(
            "{iterations:>10}  {:>12.2}",
            per_iteration(from_host, iterations)
        );
        for unroll in UNROLLS {
            let mut fixed = solver
                .unrolled_graph(NEVER, iterations, unroll)?
                .instantiate()?;
            fixed.launch(&stream)?; // warm up
            stream.synchronize()?;
            let started = Instant::now();
            fixed.launch(&stream)?;
            stream.synchronize()?;
            let on_gpu = started.elapsed();
            assert_eq!(solver.iterations.to_vec()?[0], iterations);
            print!(
                "  {:>12.2} ({:>5.2}x)",
                per_iteration(on_gpu, iterations),
                from_host.as_secs_f64() / on_gpu.as_secs_f64()
            );
        }
        println!();
    }
    Ok(())
}

/// Microseconds per iteration.
fn per_iteration(elapsed: Duration, iterations: u32) -> f64 {
    elapsed.as_secs_f64() * 1e6 / f64::from(iterations)
}
