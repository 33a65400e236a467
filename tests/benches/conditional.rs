//! A solver loop on the GPU against the same loop on the host: the Jacobi solver of
//! `cudagraph_examples::jacobi` as one graph whose WHILE conditional node repeats the iteration,
//! against a graph of one iteration launched by the host with a read-back of the change after
//! each (what a solver without conditional nodes does), for 10, 100 and 1000 iterations, in one
//! A/B run (each sample: one solve, ended by a stream wait). Also: the launch of a conditional
//! node whose body runs once, against the same body as a plain graph.
//!
//! Without a GPU, prints one skip line.

use cudagraph_examples::jacobi::{Jacobi, NEVER};
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::Condition;
use cudagraph_tests::bench::{RatioTable, Samples};
use cudagraph_tests::gpu;

const SAMPLE_SIZE: usize = 30;

fn main() {
    let Some(gpu) = gpu("bench conditional") else {
        return;
    };
    gpu.ctx.bind_to_thread().expect("binding the context");
    let device = gpu.ctx.name().unwrap_or_else(|e| format!("<unnamed: {e}>"));
    let stream = &gpu.stream;
    let n = 1 << 16;
    let b: Vec<f32> = (0..n).map(|i| 1.0 + (i % 7) as f32 * 0.25).collect();
    let solver = Jacobi::new(&gpu.ctx, stream, &b).expect("solver");
    let mut step = solver
        .step_graph()
        .expect("step")
        .instantiate()
        .expect("instantiate");
    let samples = Samples::new(SAMPLE_SIZE);
    let mut table = RatioTable::new(format!(
        "Jacobi solve, WHILE node on the GPU / host loop, on {device} (median over {SAMPLE_SIZE} A/B samples)"
    ));
    for iterations in [10u32, 100, 1000] {
        let mut on_gpu = solver
            .while_graph(NEVER, iterations)
            .expect("while graph")
            .instantiate()
            .expect("instantiate");
        let ids = (format!("while/{iterations}"), format!("host/{iterations}"));
        samples.interleaved(
            (&ids.0, &ids.1),
            1,
            2,
            || {
                on_gpu.launch(stream).expect("launch");
                stream.synchronize().expect("sync");
            },
            || {
                let made = solver
                    .solve_from_host(&mut step, stream, NEVER, iterations)
                    .expect("host loop");
                assert_eq!(made, iterations);
            },
        );
        assert_eq!(solver.iterations.to_vec().expect("read")[0], iterations);
        table.compare(
            &samples,
            "solve: WHILE node / host loop",
            iterations,
            (&ids.0, &ids.1),
            None,
            "host loop: one launch and one read-back per iteration",
        );
    }

    // What a conditional node costs: IF with its body taken once, against the body alone.
    let k = cudagraph_tests::Kernels::load(&gpu.ctx);
    let y = cudagraph_tests::zeros::<f32>(&gpu, 1024);
    let cfg = cudagraph_tests::cfg(1024);
    let mut plain = Graph::new(&gpu.ctx).unwrap();
    plain
        .add_kernel(&k.scale, cfg, (1024u32, 1.0f32, &y), &[])
        .unwrap();
    let mut plain = plain.instantiate().unwrap();
    let mut cond = Graph::new(&gpu.ctx).unwrap();
    let handle = cond.conditional_handle(Some(1)).unwrap();
    cond.add_conditional(handle, Condition::If, &[], |body| {
        body[0]
            .add_kernel(&k.scale, cfg, (1024u32, 1.0f32, &y), &[])
            .map(drop)
    })
    .unwrap();
    let mut cond = cond.instantiate().unwrap();
    samples.interleaved_blocks(
        ("launch/if", "launch/plain"),
        200,
        3,
        |count| {
            for _ in 0..count {
                cond.launch(stream).unwrap();
            }
            stream.synchronize().unwrap();
        },
        |count| {
            for _ in 0..count {
                plain.launch(stream).unwrap();
            }
            stream.synchronize().unwrap();
        },
    );
    table.compare(
        &samples,
        "launch: IF node / plain graph",
        1,
        ("launch/if", "launch/plain"),
        None,
        "one kernel, taken through an IF node or not; blocks of 200 launches",
    );
    println!("\n{table}");
}
