//! A solver loop on the GPU against the same loop on the host: the Jacobi solver of
//! `cudagraph_examples::jacobi` as one graph whose WHILE conditional node repeats the iteration,
//! against a graph of one iteration launched by the host with a read-back of the change after
//! each (what a solver without conditional nodes does), for 10, 100 and 1000 iterations, in one
//! A/B run (each sample: one solve, ended by a stream wait). Then per iteration, at 1000
//! iterations: the WHILE node unrolled (`Graph::add_unrolled_while`, 4 and 8 iterations per pass,
//! the check once per pass) and plain, each against the host loop (target for the unrolled
//! loop: 4x faster, a ratio of 0.25 or less).
//!
//! Also, against the raw driver: a WHILE iteration whose body is one kernel (`step`: count, go on
//! below the limit), ours (`Graph::add_conditional`) and raw (`cuGraphConditionalHandleCreate`,
//! `cuGraphAddNode` of a conditional node, `cuGraphAddKernelNode` into its body), per iteration
//! of 1000-iteration launches (target 1.05x); and the launch of a conditional node whose body runs
//! once, against the same body as a plain graph.
//!
//! Without a GPU, prints one skip line.

use std::ffi::c_void;
use std::ptr::null_mut;

use cudagraph_examples::jacobi::{Jacobi, NEVER};
use cudagraph_runtime::cudarc::driver::sys;
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::Condition;
use cudagraph_tests::bench::{ok, RatioTable, Samples};
use cudagraph_tests::conditional::{kernels, one, Step};
use cudagraph_tests::raw::{add_conditional, kernel_node_params};
use cudagraph_tests::{gpu, read_back, zeros, Gpu};

const SAMPLE_SIZE: usize = 30;
/// The iterations of a solve timed per iteration (a multiple of every unroll count).
const PER_ITERATION: u32 = 1000;
/// Iterations of each launch of the one-kernel WHILE loop.
const LOOP: u32 = 1000;
/// Our WHILE iteration against the raw driver's.
const FLOOR_TARGET: f64 = 1.05;
/// The unrolled solve's time per iteration against the host loop's: 4x faster.
const UNROLL_TARGET: f64 = 0.25;

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
        "Conditional nodes on {device}: ours / the reference each row names (host loop, raw driver, plain graph), median over {SAMPLE_SIZE} A/B samples"
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

    // Per iteration: the WHILE node plain and unrolled, against the host loop. One call runs a
    // whole solve: recorded as its iterations, so the table is per iteration.
    for unroll in [1u32, 4, 8] {
        let mut on_gpu = solver
            .unrolled_graph(NEVER, PER_ITERATION, unroll)
            .expect("unrolled graph")
            .instantiate()
            .expect("instantiate");
        let ids = (
            format!("per iteration/unroll {unroll}"),
            format!("per iteration/host for unroll {unroll}"),
        );
        samples.interleaved_blocks(
            (&ids.0, &ids.1),
            u64::from(PER_ITERATION),
            1,
            |_| {
                on_gpu.launch(stream).expect("launch");
                stream.synchronize().expect("sync");
            },
            |_| {
                let made = solver
                    .solve_from_host(&mut step, stream, NEVER, PER_ITERATION)
                    .expect("host loop");
                assert_eq!(made, PER_ITERATION);
            },
        );
        assert_eq!(
            solver.iterations.to_vec().expect("read")[0],
            PER_ITERATION,
            "unroll {unroll}: whole passes"
        );
        let (bench, target) = match unroll {
            1 => ("per iteration: WHILE node / host loop".to_owned(), None),
            k => (
                format!("per iteration: WHILE unroll {k} / host loop"),
                Some(UNROLL_TARGET),
            ),
        };
        table.compare(
            &samples,
            &bench,
            PER_ITERATION,
            (&ids.0, &ids.1),
            target,
            format!("{unroll} iteration(s) per pass of the WHILE node, one check per pass"),
        );
    }

    while_floor(&gpu, &samples, &mut table);

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

/// Our WHILE iteration against the raw driver's: a memset clearing a counter, then a WHILE node
/// whose body is one kernel, `step` (count; go on while below `LOOP`); one launch runs `LOOP`
/// iterations. Each side has its own counter.
fn while_floor(gpu: &Gpu, samples: &Samples, table: &mut RatioTable) {
    let stream = &gpu.stream;
    let k = kernels(gpu);
    let (counter, raw_counter) = (zeros::<u32>(gpu, 1), zeros::<u32>(gpu, 1));

    let mut g = Graph::new(&gpu.ctx).unwrap();
    let reset = g.add_memset(Memset::new(&counter, 0u32), &[]).unwrap();
    let more = g.conditional_handle(Some(1)).unwrap();
    g.add_conditional(more, Condition::While, &[reset.id()], |body| {
        body[0]
            .add_kernel(&k.step, one(), (more, &counter, LOOP), &[])
            .map(drop)
    })
    .unwrap();
    let mut ours = g.instantiate().unwrap();

    let (raw_graph, raw_exec) = raw_while(gpu, &k.step, raw_counter.addr());
    let raw_stream = stream.cu_stream();
    let ids = ("while floor/ours", "while floor/raw");
    samples.interleaved_blocks(
        ids,
        u64::from(LOOP),
        3,
        |_| {
            ours.launch(stream).unwrap();
            stream.synchronize().unwrap();
        },
        |_| {
            // SAFETY: the raw side's executable, on the stream of its context.
            ok("cuGraphLaunch", unsafe {
                sys::cuGraphLaunch(raw_exec, raw_stream)
            });
            stream.synchronize().unwrap();
        },
    );
    assert_eq!(read_back(stream, &counter), vec![LOOP]);
    assert_eq!(read_back(stream, &raw_counter), vec![LOOP]);
    table.compare(
        samples,
        "WHILE iteration, one-kernel body: ours / raw",
        LOOP,
        ids,
        Some(FLOOR_TARGET),
        "per iteration; one launch (a memset, then the loop) per sample",
    );
    // SAFETY: ours, and idle (the stream was synchronized).
    unsafe {
        ok("cuGraphExecDestroy", sys::cuGraphExecDestroy(raw_exec));
        ok("cuGraphDestroy", sys::cuGraphDestroy(raw_graph));
    }
}

/// The raw side of [`while_floor`]: its graph built and instantiated with driver calls alone,
/// the counter at `counter`.
fn raw_while(
    gpu: &Gpu,
    step: &Step,
    counter: sys::CUdeviceptr,
) -> (sys::CUgraph, sys::CUgraphExec) {
    gpu.ctx.bind_to_thread().expect("binding the context");
    let ctx = gpu.ctx.cu_ctx();
    let (mut graph, mut memset, mut node, mut exec) =
        (null_mut(), null_mut(), null_mut(), null_mut());
    // SAFETY: valid out-pointers; a live context.
    ok("cuGraphCreate", unsafe {
        sys::cuGraphCreate(&mut graph, 0)
    });
    let clear = sys::CUDA_MEMSET_NODE_PARAMS {
        dst: counter,
        pitch: 0,
        value: 0,
        elementSize: 4,
        width: 1,
        height: 1,
    };
    // SAFETY: a live graph; `clear` fills one 4-byte word of the counter's allocation.
    ok("cuGraphAddMemsetNode", unsafe {
        sys::cuGraphAddMemsetNode(&mut memset, graph, std::ptr::null(), 0, &clear, ctx)
    });
    let while_ = sys::CUgraphConditionalNodeType::CU_GRAPH_COND_TYPE_WHILE;
    // SAFETY: the graph made above, of the context bound to this thread, and its memset node.
    let (mut handle, body) = unsafe { add_conditional(graph, ctx, &[memset], while_, 1) };
    let (mut c, mut limit) = (counter, LOOP);
    let mut args = [
        (&mut handle as *mut u64).cast::<c_void>(),
        (&mut c as *mut u64).cast(),
        (&mut limit as *mut u32).cast(),
    ];
    let p = kernel_node_params(step.cu_function(), &one(), args.as_mut_ptr(), null_mut());
    // SAFETY: the body graph the conditional node owns; `p` and the arguments it points to are
    // live during the call (the driver copies them) and match `step(unsigned long long,
    // unsigned*, unsigned)`, which touches counter[0] only.
    ok("cuGraphAddKernelNode_v2", unsafe {
        sys::cuGraphAddKernelNode_v2(&mut node, body, std::ptr::null(), 0, &p)
    });
    // SAFETY: a live graph and a valid out-pointer.
    ok("cuGraphInstantiateWithFlags", unsafe {
        sys::cuGraphInstantiateWithFlags(&mut exec, graph, 0)
    });
    (graph, exec)
}
