//! The collectives over NCCL's symmetric memory (buffers from `Communicator::alloc_symmetric`,
//! and other memory from `ncclMemAlloc`): captured and replayed on one rank and on two GPUs,
//! refused at other offsets of the window, kept by `set_params`, one owning executable per
//! communicator, made on every rank or none. A module of the `collectives` program.

use super::*;

#[test]
fn one_rank_symmetric_buffers_hold_collectives_and_outlive_their_launches() {
    let test = "one_rank_symmetric_buffers_hold_collectives_and_outlive_their_launches";
    let Some((gpu, _)) = nccl_gpus(test, 1) else {
        return;
    };
    let comm = one_rank(&gpu);
    let s = &gpu.stream;
    let n = 256;
    let mut buf = comm.alloc_symmetric::<f32>(n).unwrap();
    assert_eq!(
        buf.to_vec().unwrap(),
        vec![0.0; n],
        "a new symmetric buffer is zeroed"
    );
    buf.copy_from(&ramp(n, 1.0)).unwrap();
    let mut out = comm.alloc_symmetric::<f32>(n).unwrap();
    let mut graph = Graph::new(&gpu.ctx).unwrap();
    let sum = graph
        .add_all_reduce(&comm, &buf, &mut out, ReduceOp::Sum, &[])
        .unwrap();
    graph
        .add_all_reduce_in_place(&comm, &mut buf, ReduceOp::Max, &[sum.id()])
        .unwrap();
    let mut exec = graph.instantiate().unwrap();
    for _ in 0..3 {
        exec.launch(s).unwrap();
    }
    assert_eq!(
        out.to_vec().unwrap(),
        ramp(n, 1.0),
        "all-reduce of one rank"
    );
    assert_eq!(buf.to_vec().unwrap(), ramp(n, 1.0), "in place");
    match comm.alloc_symmetric::<f32>(0) {
        Err(Error::Invalid { node, reason }) => {
            assert_eq!(node, "Communicator::alloc_symmetric");
            assert!(reason.contains("at least one byte"), "{reason}");
        }
        other => panic!("expected a refusal, got {other:?}"),
    }

    // Every handle dropped while a launch still writes the buffer: its memory (NCCL's, mapped
    // by NCCL's allocator) must stay mapped until the launch is done, or the write faults.
    let k = cudagraph_tests::soundness::Kernels::load(&gpu.ctx);
    let (n, spin) = (
        cudagraph_tests::soundness::N,
        cudagraph_tests::soundness::SPIN,
    );
    let late = one_rank(&gpu);
    let mut y = late.alloc_symmetric::<u32>(n).unwrap();
    let mut graph = Graph::new(&gpu.ctx).unwrap();
    let fill = graph
        .add_kernel(&k.late, cfg(n), (n as u32, spin, 7u32, &y), &[])
        .unwrap();
    graph
        .add_all_reduce_in_place(&late, &mut y, ReduceOp::Sum, &[fill.id()])
        .unwrap();
    let mut exec = graph.instantiate().unwrap();
    exec.launch(s).unwrap();
    drop((exec, y, late));
    s.synchronize()
        .expect("the launch ran to its end on memory still mapped");
    // The context is still usable: the first communicator's buffers read as before.
    assert_eq!(out.to_vec().unwrap(), ramp(256, 1.0));
}

#[test]
fn two_gpus_all_reduce_symmetric_buffers_and_refuse_them_at_other_offsets() {
    let test = "two_gpus_all_reduce_symmetric_buffers_and_refuse_them_at_other_offsets";
    let Some((gpu, more)) = nccl_gpus(test, 2) else {
        return;
    };
    let _watch = watch(test);
    let comms = Communicator::init_all(&[gpu.ctx.clone(), more[0].clone()]).unwrap();
    std::thread::scope(|s| {
        let ranks: Vec<_> = comms
            .into_iter()
            .map(|comm| {
                s.spawn(move || {
                    let r = comm.rank();
                    let st = stream(comm.context());
                    // Messages of 1 and 1024 floats, each rank's values r * 1000 + i.
                    for n in [1, 1024] {
                        let mine = ramp(n, r as f32 * 1000.0);
                        let src = comm.alloc_symmetric::<f32>(n).unwrap();
                        src.copy_from(&mine).unwrap();
                        let mut summed = comm.alloc_symmetric::<f32>(n).unwrap();
                        let mut in_place = comm.alloc_symmetric::<f32>(n).unwrap();
                        in_place.copy_from(&mine).unwrap();
                        let mut graph = Graph::new(comm.context()).unwrap();
                        graph
                            .add_all_reduce(&comm, &src, &mut summed, ReduceOp::Sum, &[])
                            .unwrap();
                        graph
                            .add_all_reduce_in_place(&comm, &mut in_place, ReduceOp::Sum, &[])
                            .unwrap();
                        let mut exec = graph.instantiate().unwrap();
                        for launch in 1..=3u32 {
                            exec.launch(&st).unwrap();
                            let sum: Vec<f32> = (0..n).map(|i| 1000.0 + 2.0 * i as f32).collect();
                            assert_eq!(summed.to_vec().unwrap(), sum, "rank {r}, {n} floats");
                            // In place, each launch sums the previous launch's sums.
                            let twice: Vec<f32> = sum
                                .iter()
                                .map(|v| v * 2f32.powi(launch as i32 - 1))
                                .collect();
                            assert_eq!(in_place.to_vec().unwrap(), twice, "rank {r}, in place");
                        }
                    }
                    // One buffer, each rank all-reducing another part of it: NCCL's symmetric
                    // kernels need the same offset on every rank, so the order check refuses.
                    let whole = comm.alloc_symmetric::<f32>(64).unwrap();
                    let mut part = whole.slice(r * 16..r * 16 + 16);
                    let mut graph = Graph::new(comm.context()).unwrap();
                    graph.name_next("part");
                    graph
                        .add_all_reduce_in_place(&comm, &mut part, ReduceOp::Sum, &[])
                        .unwrap();
                    match graph.instantiate() {
                        Err(Error::CollectiveMismatch { node, reason }) => {
                            assert_eq!(node, "part");
                            assert!(reason.contains("byte 0 of symmetric buffer"), "{reason}");
                            assert!(reason.contains("byte 64 of symmetric buffer"), "{reason}");
                        }
                        other => panic!("rank {r}: expected a mismatch, got {other:?}"),
                    }
                })
            })
            .collect();
        for r in ranks {
            r.join().unwrap();
        }
    });
}

#[test]
fn set_params_keeps_a_declarations_symmetric_buffers() {
    let test = "set_params_keeps_a_declarations_symmetric_buffers";
    let Some((gpu, _)) = nccl_gpus(test, 1) else {
        return;
    };
    let comm = one_rank(&gpu);
    let k = Kernels::load(&gpu.ctx);
    let n = 256;
    let s = &gpu.stream;
    let p = BumpAndReduceParams {
        comm: comm.clone(),
        offset: k.offset.clone(),
        x: comm.alloc_symmetric::<f32>(n).unwrap(),
        y: comm.alloc_symmetric::<f32>(n).unwrap(),
        n: n as u32,
        a: 1.0,
    };
    let mut exec = BumpAndReduce::build(&gpu.ctx, &p)
        .unwrap()
        .instantiate()
        .unwrap();
    exec.launch(s).unwrap();
    assert_eq!(p.y.to_vec().unwrap(), vec![1.0; n]);
    // The same buffers set again (their nodes are updated, the collective only checked): the
    // collective still issues what it was built with.
    exec.set_x(p.x.clone()).unwrap();
    exec.set_y(p.y.clone()).unwrap();
    exec.set_comm(comm.clone()).unwrap();
    exec.launch(s).unwrap();
    assert_eq!(p.y.to_vec().unwrap(), vec![2.0; n]);
    // Another symmetric buffer: refused, as any other buffer.
    match exec.set_y(comm.alloc_symmetric::<f32>(n).unwrap()) {
        Err(Error::Invalid { node, reason }) => {
            assert_eq!(node, "reduce");
            assert!(reason.contains("build the graph again"), "{reason}");
        }
        other => panic!(
            "expected the new buffer to be refused, got {:?}",
            other.map(drop)
        ),
    }
}

#[test]
fn one_executable_at_a_time_runs_collectives_over_symmetric_buffers_on_a_communicator() {
    let test = "one_executable_at_a_time_runs_collectives_over_symmetric_buffers_on_a_communicator";
    let Some((gpu, _)) = nccl_gpus(test, 1) else {
        return;
    };
    let comm = one_rank(&gpu);
    let s = &gpu.stream;
    let (mut a, mut b) = (
        comm.alloc_symmetric::<f32>(64).unwrap(),
        comm.alloc_symmetric::<f32>(64).unwrap(),
    );
    let mut plain = buffer(s, &[1.0; 64]);
    let graph_over = |buf: &mut DeviceBuffer<f32>, name: &'static str| {
        let mut graph = Graph::new(&gpu.ctx).unwrap();
        graph.name_next(name);
        graph
            .add_all_reduce_in_place(&comm, buf, ReduceOp::Sum, &[])
            .unwrap();
        graph
    };
    let mut first = graph_over(&mut a, "over_a").instantiate().unwrap();
    // A second executable with a symmetric collective on the same communicator is refused,
    // naming its node; one over a plain buffer is not.
    match graph_over(&mut b, "over_b").instantiate() {
        Err(Error::Invalid { node, reason }) => {
            assert_eq!(node, "over_b");
            assert!(reason.contains("one at a time"), "{reason}");
            assert!(
                reason.contains("drop the other executable first"),
                "{reason}"
            );
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
    let mut over_plain = graph_over(&mut plain, "over_plain").instantiate().unwrap();
    // The owner may move to another graph of symmetric collectives.
    first
        .reinstantiate_from(graph_over(&mut b, "over_b"), Default::default())
        .unwrap();
    first.launch(s).unwrap();
    over_plain.launch(s).unwrap();
    s.synchronize().unwrap();
    // Dropped, it lets another executable run them.
    drop(first);
    let mut second = graph_over(&mut a, "over_a").instantiate().unwrap();
    second.launch(s).unwrap();
    s.synchronize().unwrap();
}

/// Memory from `ncclMemAlloc` is held to the rule of symmetric buffers wherever a collective
/// uses it: NCCL registers the buffers of captured collectives where it can open them to the
/// peers (`NCCL_GRAPH_REGISTER`, on by default), which it can for such memory, and the peers'
/// kernels then write them at the places their graphs recorded. Here a symmetric buffer of
/// communicator `a` in an all-reduce on communicator `b` makes its executable `b`'s one owner:
/// another executable of symmetric collectives on `b` is refused until it is dropped (before,
/// the buffer counted as plain on `b`, and both were made). A plain buffer stays plain.
#[test]
fn another_communicators_symmetric_buffer_is_held_to_the_symmetric_rule() {
    let test = "another_communicators_symmetric_buffer_is_held_to_the_symmetric_rule";
    let Some((gpu, _)) = nccl_gpus(test, 1) else {
        return;
    };
    let (a, b) = (one_rank(&gpu), one_rank(&gpu));
    let s = &gpu.stream;
    let n = 64;
    let mut of_a = a.alloc_symmetric::<f32>(n).unwrap();
    let mut of_b = b.alloc_symmetric::<f32>(n).unwrap();
    let mut plain = buffer(s, &[1.0; 64]);
    let on_b = |buf: &mut DeviceBuffer<f32>, name: &'static str| {
        let mut graph = Graph::new(&gpu.ctx).unwrap();
        graph.name_next(name);
        graph
            .add_all_reduce_in_place(&b, buf, ReduceOp::Sum, &[])
            .unwrap();
        graph
    };
    let mut over_a = on_b(&mut of_a, "over_a").instantiate().unwrap();
    match on_b(&mut of_b, "over_b").instantiate() {
        Err(Error::Invalid { node, reason }) => {
            assert_eq!(node, "over_b");
            assert!(reason.contains("one at a time"), "{reason}");
        }
        other => panic!("expected a refusal while `over_a` owns `b`, got {other:?}"),
    }
    // A plain buffer claims nothing.
    let mut over_plain = on_b(&mut plain, "over_plain").instantiate().unwrap();
    of_a.copy_from(&ramp(n, 1.0)).unwrap();
    over_a.launch(s).unwrap();
    over_plain.launch(s).unwrap();
    assert_eq!(
        of_a.to_vec().unwrap(),
        ramp(n, 1.0),
        "an all-reduce of one rank"
    );
    drop(over_a);
    let mut over_b = on_b(&mut of_b, "over_b").instantiate().unwrap();
    over_b.launch(s).unwrap();
    s.synchronize().unwrap();
}

/// One executable per communicator (on each rank) may run collectives over symmetric buffers, so
/// that every rank's symmetric kernels meet their peers' at the same place of one checked
/// sequence. But the check was made once per graph and remembered, apart from instantiation: two
/// graphs checked together on every rank, then rank 0 instantiating one and rank 1 the other,
/// left each rank's owner running another place of the window, the state the order check
/// refuses in `two_gpus_all_reduce_symmetric_buffers_and_refuse_them_at_other_offsets`. Now a
/// graph with symmetric collectives exchanges at every instantiation (and re-instantiation),
/// and both ranks refuse; the same graph on both ranks is instantiated, and runs.
#[test]
fn two_gpus_symmetric_owners_cannot_differ_between_ranks() {
    let test = "two_gpus_symmetric_owners_cannot_differ_between_ranks";
    let Some((gpu, more)) = nccl_gpus(test, 2) else {
        return;
    };
    let _watch = watch(test);
    let comms = Communicator::init_all(&[gpu.ctx.clone(), more[0].clone()]).unwrap();
    std::thread::scope(|s| {
        let ranks: Vec<_> = comms
            .into_iter()
            .map(|comm| {
                s.spawn(move || {
                    let r = comm.rank();
                    let st = stream(comm.context());
                    let whole = comm.alloc_symmetric::<f32>(2048).unwrap();
                    whole.copy_from(&vec![r as f32 + 1.0; 2048]).unwrap();
                    // The same two graphs on every rank: the first half, and the second half.
                    let half = |h: usize| {
                        let mut part = whole.slice(h * 1024..h * 1024 + 1024);
                        let mut g = Graph::new(comm.context()).unwrap();
                        g.name_next("half");
                        g.add_all_reduce_in_place(&comm, &mut part, ReduceOp::Sum, &[])
                            .unwrap();
                        g
                    };
                    let refused_at_other_offsets =
                        |outcome: Result<(), Error>, what: &str| match outcome {
                            Err(Error::CollectiveMismatch { node, reason }) => {
                                assert_eq!(node, "half", "rank {r}, {what}");
                                assert!(
                                    reason.contains("byte 0 of symmetric buffer #1"),
                                    "rank {r}, {what}: {reason}"
                                );
                                assert!(
                                    reason.contains("byte 4096 of symmetric buffer #1"),
                                    "rank {r}, {what}: {reason}"
                                );
                            }
                            other => panic!("rank {r}, {what}: expected a mismatch, got {other:?}"),
                        };
                    let (mut first, mut second) = (half(0), half(1));
                    // Checked together: every rank agrees on each.
                    first.check_collective_order().unwrap();
                    second.check_collective_order().unwrap();
                    // Rank 0 instantiates the first half, rank 1 the second: both refuse.
                    let mine = if r == 0 { first } else { second };
                    refused_at_other_offsets(mine.instantiate().map(drop), "instantiate");
                    // Both the first half: instantiated, and run (1 + 2 there, the rest as it was).
                    let mut exec = half(0).instantiate().unwrap();
                    exec.launch(&st).unwrap();
                    st.synchronize().unwrap();
                    let mut expected = [vec![3.0; 1024], vec![r as f32 + 1.0; 1024]].concat();
                    assert_eq!(whole.to_vec().unwrap(), expected, "rank {r}");
                    // Moved by re-instantiation, rank 0 to the first half and rank 1 to the
                    // second (each checked on both ranks first): both refuse, and the executable
                    // stays as it was.
                    let (mut first, mut second) = (half(0), half(1));
                    first.check_collective_order().unwrap();
                    second.check_collective_order().unwrap();
                    let mine = if r == 0 { first } else { second };
                    refused_at_other_offsets(
                        exec.reinstantiate_from(mine, Default::default()),
                        "reinstantiate_from",
                    );
                    exec.launch(&st).unwrap();
                    st.synchronize().unwrap();
                    expected[..1024].fill(6.0);
                    assert_eq!(
                        whole.to_vec().unwrap(),
                        expected,
                        "rank {r}, launched again"
                    );
                })
            })
            .collect();
        for r in ranks {
            r.join().unwrap();
        }
    });
}

/// The claim of a communicator for an executable running collectives over symmetric buffers is
/// per rank: rank 1 still holding an earlier such executable (rank 0 dropped its own), rank 1's
/// claim is refused where rank 0's succeeds. The instantiation's exchange carries each rank's
/// outcome, so rank 0 refuses too, rather than owning an executable rank 1 does not have.
#[test]
fn two_gpus_symmetric_executables_are_made_on_every_rank_or_none() {
    let test = "two_gpus_symmetric_executables_are_made_on_every_rank_or_none";
    let Some((gpu, more)) = nccl_gpus(test, 2) else {
        return;
    };
    let _watch = watch(test);
    let comms = Communicator::init_all(&[gpu.ctx.clone(), more[0].clone()]).unwrap();
    std::thread::scope(|s| {
        let ranks: Vec<_> = comms
            .into_iter()
            .map(|comm| {
                s.spawn(move || {
                    let r = comm.rank();
                    let st = stream(comm.context());
                    let mut a = comm.alloc_symmetric::<f32>(256).unwrap();
                    let mut b = comm.alloc_symmetric::<f32>(256).unwrap();
                    b.copy_from(&[r as f32 + 1.0; 256]).unwrap();
                    let over = |buf: &mut DeviceBuffer<f32>, name: &'static str| {
                        let mut g = Graph::new(comm.context()).unwrap();
                        g.name_next(name);
                        g.add_all_reduce_in_place(&comm, buf, ReduceOp::Sum, &[])
                            .unwrap();
                        g
                    };
                    let held = over(&mut a, "over_a").instantiate().unwrap();
                    // Rank 0 drops its executable over `a`; rank 1 keeps it.
                    let held = if r == 0 {
                        drop(held);
                        None
                    } else {
                        Some(held)
                    };
                    match over(&mut b, "over_b").instantiate() {
                        Err(Error::Invalid { node, reason }) if r == 0 => {
                            assert_eq!(node, "over_b");
                            assert!(
                                reason.contains("rank 1 of the communicator could not instantiate"),
                                "rank 0: {reason}"
                            );
                        }
                        Err(Error::Invalid { node, reason }) => {
                            // Rank 1's own error: the claim.
                            assert_eq!(node, "over_b");
                            assert!(reason.contains("one at a time"), "rank 1: {reason}");
                        }
                        other => panic!("rank {r}: expected a refusal, got {other:?}"),
                    }
                    // Rank 1 drops its own too: both make one over `b`, and run it.
                    drop(held);
                    let mut exec = over(&mut b, "over_b").instantiate().unwrap();
                    exec.launch(&st).unwrap();
                    st.synchronize().unwrap();
                    assert_eq!(b.to_vec().unwrap(), vec![3.0; 256], "rank {r}");
                })
            })
            .collect();
        for r in ranks {
            r.join().unwrap();
        }
    });
}
