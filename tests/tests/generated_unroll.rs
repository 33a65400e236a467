//! An unrolled WHILE loop declared with `cuda_graph!` (`while more(default = 1, unroll = 4)`):
//! each pass runs the body 4 times, its check once (the last copy), so the loop ends on whole
//! passes: checked against the CPU model of `cudagraph_tests::unroll`, overshoot included. Updates
//! reach every copy of a repeated node (`set_params`, a setter, the node's handle, enabling), and a
//! whole-graph update pairs the copies.

use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{cuda_graph, KernelNode, NodeKind};
use cudagraph_tests::unroll::{kernels, model, Bump, Note, Outcome, StopAt, CAPACITY};
use cudagraph_tests::{gpu, read_back, zeros, Gpu};

cuda_graph! {
    /// Counts by `by` in passes of `UNROLL` copies until a check sees `limit`, noting each value.
    graph Unrolled {
        const UNROLL: usize = 4;
        params {
            bump: Bump,
            stop_at: StopAt,
            note: Note,
            counter: DeviceBuffer<u32>,
            checks: DeviceBuffer<u32>,
            log: DeviceBuffer<u32>,
            by: u32,
            limit: u32,
            capacity: u32,
        }
        reset: memset(counter, 0u32);
        reset_checks: memset(checks, 0u32);
        reset_log: memset(log, 0u32);
        count: while more(default = 1, unroll = UNROLL) {
            add: kernel bump<<<1, 32>>>(counter, by);
            check: kernel stop_at<<<1, 32>>>(more, counter, checks, limit);
            after: kernel note<<<1, 32>>>(counter, log, capacity);
            add -> check -> after;
        }
        [reset, reset_checks, reset_log] -> count;
    }
}

fn params(gpu: &Gpu, by: u32, limit: u32) -> UnrolledParams {
    let k = kernels(gpu);
    UnrolledParams {
        bump: k.bump,
        stop_at: k.stop_at,
        note: k.note,
        counter: zeros(gpu, 1),
        checks: zeros(gpu, 1),
        log: zeros(gpu, CAPACITY as usize + 1),
        by,
        limit,
        capacity: CAPACITY,
    }
}

/// Launches `exec` and reads what it left.
fn run(gpu: &Gpu, exec: &mut UnrolledExec) -> Outcome {
    exec.launch(&gpu.stream).unwrap();
    let p = exec.params();
    Outcome::read(
        &read_back(&gpu.stream, &p.counter),
        &read_back(&gpu.stream, &p.checks),
        &read_back(&gpu.stream, &p.log),
    )
}

#[test]
fn an_unrolled_loop_runs_whole_passes_on_the_gpu() {
    let Some(gpu) = gpu("an_unrolled_loop_runs_whole_passes_on_the_gpu") else {
        return;
    };
    assert_eq!(UNROLL, 4);
    let mut exec = Unrolled::build(&gpu.ctx, &params(&gpu, 1, 1))
        .unwrap()
        .instantiate()
        .unwrap();
    // The loop stops on whole passes: the counter is the first multiple of 4 at or over the
    // limit, with one check per pass (`set_limit` updates the check, in the last copy only).
    for limit in [1, 3, 4, 5, 8, 9, 13, 40] {
        exec.set_limit(limit).unwrap();
        let want = model(4, 1, limit, true);
        assert_eq!(run(&gpu, &mut exec), want, "limit {limit}");
        assert_eq!(want.counter, limit.div_ceil(4) * 4);
    }
}

#[test]
fn updates_reach_every_copy_of_an_unrolled_body() {
    let Some(gpu) = gpu("updates_reach_every_copy_of_an_unrolled_body") else {
        return;
    };
    let mut p = params(&gpu, 1, 9);
    let mut exec = Unrolled::build(&gpu.ctx, &p)
        .unwrap()
        .instantiate()
        .unwrap();
    assert_eq!(run(&gpu, &mut exec), model(4, 1, 9, true));

    // A setter: `by` is read by `add`, in each of the 4 copies, one update function for all.
    assert_eq!(exec.set_by(2).unwrap(), 1);
    assert_eq!(run(&gpu, &mut exec), model(4, 2, 9, true));

    // The node's handle: all of its copies, and their runtime handles.
    let counter = exec.params().counter.clone();
    exec.add().set((&counter, 3u32)).unwrap();
    assert_eq!(run(&gpu, &mut exec), model(4, 3, 9, true));
    let copies: [KernelNode<(DevicePtrMut<u32>, u32)>; 4] = exec.add().node();
    for (i, a) in copies.iter().enumerate() {
        assert!(copies[..i].iter().all(|b| b.id() != a.id()), "copy {i}");
    }
    // The check is one node, in the last copy.
    let _: KernelNode<_> = exec.check().node();

    // Disabled, every copy of `after` is off: nothing noted, the loop unchanged.
    exec.after().set_enabled(false).unwrap();
    assert!(!exec.after().is_enabled().unwrap());
    assert_eq!(run(&gpu, &mut exec), model(4, 3, 9, false));
    exec.after().set_enabled(true).unwrap();
    assert_eq!(run(&gpu, &mut exec), model(4, 3, 9, true));

    // `set_params` brings every copy back to the params (the handle's values replaced).
    p.by = 1;
    p.limit = 5;
    exec.set_params(&p).unwrap();
    assert_eq!(run(&gpu, &mut exec), model(4, 1, 5, true));

    // A whole-graph update from another build pairs every copy.
    let other = params(&gpu, 2, 17);
    exec.update(&Unrolled::build(&gpu.ctx, &other).unwrap())
        .unwrap();
    assert_eq!(run(&gpu, &mut exec), model(4, 2, 17, true));
}

#[test]
fn the_declared_shape_lists_an_unrolled_body_once() {
    let t = Unrolled::TOPOLOGY;
    let names: Vec<&str> = t.nodes.iter().map(|n| n.0).collect();
    assert_eq!(
        names,
        [
            "reset",
            "reset_checks",
            "reset_log",
            "count",
            "add",
            "check",
            "after"
        ]
    );
    assert_eq!(t.nodes[3].1, NodeKind::Conditional);
    let svg = Unrolled::topology_svg();
    assert!(svg.contains(">body ×4</text>"), "{svg}");
}
