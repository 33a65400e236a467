//! Unrolled WHILE loops through the runtime API (`Graph::add_unrolled_while`): the builder adds
//! each copy of the body, the check in the last copy only; copies run one after the other, and
//! the loop ends on whole passes. Checked against the CPU model of `cudagraph_tests::unroll`
//! (overshoot included) for several unroll counts and limits.

use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{Error, UnrolledCopy};
use cudagraph_tests::conditional::one;
use cudagraph_tests::unroll::{kernels, model, Kernels, Outcome, CAPACITY};
use cudagraph_tests::{gpu, read_back, zeros, Gpu};

/// The buffers a launch writes.
struct Buffers {
    counter: DeviceBuffer<u32>,
    checks: DeviceBuffer<u32>,
    log: DeviceBuffer<u32>,
}

impl Buffers {
    fn new(gpu: &Gpu) -> Self {
        Self {
            counter: zeros(gpu, 1),
            checks: zeros(gpu, 1),
            log: zeros(gpu, CAPACITY as usize + 1),
        }
    }

    fn read(&self, gpu: &Gpu) -> Outcome {
        Outcome::read(
            &read_back(&gpu.stream, &self.counter),
            &read_back(&gpu.stream, &self.checks),
            &read_back(&gpu.stream, &self.log),
        )
    }
}

/// The loop of the model with `unroll` copies: the buffers cleared, then the WHILE node, each
/// copy `bump` then (last copy) the check, then `note`. Returns the graph and the ids of each
/// copy's `bump` and `note`.
fn unrolled(
    gpu: &Gpu,
    k: &Kernels,
    b: &Buffers,
    unroll: u32,
    limit: u32,
) -> (Graph<'static>, Vec<(NodeId, NodeId)>) {
    let mut g = Graph::new(&gpu.ctx).unwrap();
    let start = [
        g.add_memset(Memset::new(&b.counter, 0u32), &[])
            .unwrap()
            .id(),
        g.add_memset(Memset::new(&b.checks, 0u32), &[])
            .unwrap()
            .id(),
        g.add_memset(Memset::new(&b.log, 0u32), &[]).unwrap().id(),
    ];
    let more = g.conditional_handle(Some(1)).unwrap();
    let mut seen: Vec<(NodeId, NodeId)> = Vec::new();
    let (_, copies) = g
        .add_unrolled_while(more, &start, unroll, |body, copy: UnrolledCopy| {
            assert_eq!(copy.count(), unroll);
            assert_eq!(copy.index() as usize, seen.len());
            // The copies before this one are chained: each one's first node after the last
            // node of the one before it (the edges are there once a copy is added).
            for pair in seen.windows(2) {
                let (first, _) = pair[1];
                let (_, last) = pair[0];
                let deps = body.nodes().nth(first.index()).unwrap().deps;
                assert_eq!(deps, [last.index() as u32], "copy {}", copy.index());
            }
            let add = body.add_kernel(&k.bump, one(), (&b.counter, 1u32), &[])?;
            let mut after = add.id();
            if copy.is_last() {
                let check = body.add_kernel(
                    &k.stop_at,
                    one(),
                    (more, &b.counter, &b.checks, limit),
                    &[add.id()],
                )?;
                after = check.id();
            }
            let note = body.add_kernel(&k.note, one(), (&b.counter, &b.log, CAPACITY), &[after])?;
            seen.push((add.id(), note.id()));
            Ok((add.id(), note.id()))
        })
        .unwrap();
    assert_eq!(copies, seen, "one result per copy, in order");
    (g, copies)
}

#[test]
fn the_runtime_unrolls_a_while_body() {
    let Some(gpu) = gpu("the_runtime_unrolls_a_while_body") else {
        return;
    };
    let k = kernels(&gpu);
    let b = Buffers::new(&gpu);
    for unroll in [1, 2, 3, 4, 8] {
        for limit in [1, 5, 8, 9, 30] {
            let (g, copies) = unrolled(&gpu, &k, &b, unroll, limit);
            assert_eq!(copies.len(), unroll as usize);
            let mut exec = g.instantiate().unwrap();
            exec.launch(&gpu.stream).unwrap();
            assert_eq!(
                b.read(&gpu),
                model(unroll, 1, limit, true),
                "unroll {unroll}, limit {limit}"
            );
        }
    }
}

#[test]
fn copies_that_add_nothing_are_skipped_and_zero_copies_are_refused() {
    let Some(gpu) = gpu("copies_that_add_nothing_are_skipped_and_zero_copies_are_refused") else {
        return;
    };
    let k = kernels(&gpu);
    let b = Buffers::new(&gpu);
    let mut g = Graph::new(&gpu.ctx).unwrap();
    let start = [
        g.add_memset(Memset::new(&b.counter, 0u32), &[])
            .unwrap()
            .id(),
        g.add_memset(Memset::new(&b.checks, 0u32), &[])
            .unwrap()
            .id(),
        g.add_memset(Memset::new(&b.log, 0u32), &[]).unwrap().id(),
    ];
    let more = g.conditional_handle(Some(1)).unwrap();
    let zero = g.add_unrolled_while(more, &start, 0, |_, _| Ok(()));
    assert!(
        matches!(&zero, Err(Error::Invalid { reason, .. }) if reason.contains("at least one copy")),
        "{zero:?}"
    );
    // Only the last of 5 copies adds nodes: the plain loop.
    g.add_unrolled_while(more, &start, 5, |body, copy| {
        if !copy.is_last() {
            return Ok(());
        }
        let add = body.add_kernel(&k.bump, one(), (&b.counter, 1u32), &[])?;
        let check = body.add_kernel(
            &k.stop_at,
            one(),
            (more, &b.counter, &b.checks, 6u32),
            &[add.id()],
        )?;
        body.add_kernel(
            &k.note,
            one(),
            (&b.counter, &b.log, CAPACITY),
            &[check.id()],
        )?;
        Ok(())
    })
    .unwrap();
    let mut exec = g.instantiate().unwrap();
    exec.launch(&gpu.stream).unwrap();
    assert_eq!(b.read(&gpu), model(1, 1, 6, true));
}

/// An unroll count near `u32::MAX`, with a builder that fails on the first copy, returns the
/// builder's error: the loop used to reserve room for every copy's result before calling the
/// builder (here 4 KiB each, 16 TiB in all), and the process aborted when that allocation failed.
#[test]
fn a_huge_unroll_count_reserves_nothing_before_the_builder_runs() {
    let Some(gpu) = gpu("a_huge_unroll_count_reserves_nothing_before_the_builder_runs") else {
        return;
    };
    let mut g = Graph::new(&gpu.ctx).unwrap();
    let more = g.conditional_handle(Some(1)).unwrap();
    let failed = g.add_unrolled_while(more, &[], u32::MAX, |_, copy| -> Result<[u8; 4096], _> {
        Err(Error::Invalid {
            node: format!("copy {}", copy.index()),
            reason: "the builder refuses".into(),
        })
    });
    assert!(
        matches!(&failed, Err(Error::Invalid { reason, .. }) if reason == "the builder refuses"),
        "{failed:?}"
    );
}
