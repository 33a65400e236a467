//! Fork and join inside a stream capture: `CaptureScope::fork` and `fork_all` record parallel
//! branches on two and three streams, always joined back (also for work enqueued on a forked
//! stream after its fork returned, and when a branch fails); the graphs have the expected
//! parallel branches, and compute what the CPU computes over several launches.
//!
//! Each capture is given the `DeviceBuffer`s its work uses, and its closure works on views of
//! them, which carry no cudarc event: cudarc's event tracking stays on (its default), and no test
//! needs to switch it off. Kernels are launched through cudarc's launch builder on the views'
//! addresses (`cudagraph_tests::capture`), on the scopes' streams (and, once, on a forked stream
//! itself).

use cudagraph_runtime::cudarc::driver::sys;
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{Error, Mut, NodeInfo, NodeKind};
use cudagraph_tests::capture::{axpy_out_on, reaches, saxpy_on, scale_on};
use cudagraph_tests::{assert_read_close, cfg, read_back, zeros, Kernels, Rng};

/// Asserts that no node among `branches` reaches another: they may run in parallel.
#[track_caller]
fn assert_parallel(nodes: &[NodeInfo<'_>], branches: &[usize]) {
    for &a in branches {
        for &b in branches {
            if a != b {
                assert!(!reaches(nodes, a, b), "node {a} is ordered before node {b}");
            }
        }
    }
}

#[test]
fn a_fork_records_two_parallel_branches_joined_before_the_next_node() {
    let Some(gpu) =
        cudagraph_tests::gpu("a_fork_records_two_parallel_branches_joined_before_the_next_node")
    else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new("a_fork_records_two_parallel_branches_joined_before_the_next_node");
    let n = rng.len_in(1000, 50_000);
    let (p, q) = (rng.f32(), rng.f32());
    let side = gpu.ctx.new_stream().unwrap();
    let [x, u, v, w] = [(); 4].map(|()| zeros::<f32>(&gpu, n));

    // u = x (origin); then in parallel: u *= p (side), v = q x + x (origin); then w = u + v.
    let k2 = k.clone();
    let graph = Graph::capture(
        &gpu.stream,
        (&x, Mut(&u), Mut(&v), Mut(&w)),
        move |s, (x, u, v, w)| {
            axpy_out_on(s, &k2, 0.0, (&x, &x, &u))?; // u = 0 x + x
            s.fork(&side, |t| {
                scale_on(t, &k2, p, &u)?; // on `side`
                axpy_out_on(s, &k2, q, (&x, &x, &v))?; // on the capture's stream meanwhile
                Ok::<(), Error>(())
            })?;
            // After the join: w = u + v.
            axpy_out_on(s, &k2, 1.0, (&u.as_view(), &v.as_view(), &w))?;
            Ok::<(), Error>(())
        },
    )
    .unwrap();

    let nodes: Vec<NodeInfo<'_>> = graph.nodes().collect();
    assert_eq!(nodes.len(), 4, "{}", graph.to_dot());
    assert!(nodes.iter().all(|node| node.kind == NodeKind::Other));
    // One root, two branches after it, one node after both.
    let root = nodes.iter().position(|n| n.deps.is_empty()).unwrap();
    let branches: Vec<usize> = (0..4).filter(|&i| nodes[i].deps == [root as u32]).collect();
    assert_eq!(branches.len(), 2, "{}", graph.to_dot());
    assert_parallel(&nodes, &branches);
    let join = (0..4).find(|&i| nodes[i].deps.len() == 2).unwrap();
    let mut joined: Vec<u32> = nodes[join].deps.to_vec();
    joined.sort_unstable();
    assert_eq!(joined, [branches[0] as u32, branches[1] as u32]);

    let mut exec = graph.instantiate().unwrap();
    for launch in 0..3 {
        let x_host = rng.f32s(n);
        x.copy_from(&x_host).unwrap();
        exec.launch(&gpu.stream).unwrap();
        let want: Vec<f32> = x_host.iter().map(|x| p * x + (q * x + x)).collect();
        assert_read_close(&gpu.stream, &format!("launch {launch}: w"), &w, &want);
    }
}

#[test]
fn fork_all_records_three_streams_in_parallel() {
    let Some(gpu) = cudagraph_tests::gpu("fork_all_records_three_streams_in_parallel") else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new("fork_all_records_three_streams_in_parallel");
    let n = rng.len_in(1000, 50_000);
    let c = [rng.f32(), rng.f32(), rng.f32()];
    let (s1, s2) = (gpu.ctx.new_stream().unwrap(), gpu.ctx.new_stream().unwrap());
    let [x, y0, y1, y2, y3] = [(); 5].map(|()| zeros::<f32>(&gpu, n));

    // y0 = x; then on three streams: y1 = c0 x + y0, y2 = c1 x + y0, y3 = c2 x + y0 (each reads
    // y0 and x, writes its own); then y1 += y2, y1 += y3.
    let (k2, t1, t2) = (k.clone(), s1.clone(), s2.clone());
    let graph = Graph::capture(
        &gpu.stream,
        (&x, Mut(&y0), Mut(&y1), Mut(&y2), Mut(&y3)),
        move |s, (x, y0, y1, y2, y3)| {
            axpy_out_on(s, &k2, 0.0, (&x, &x, &y0))?;
            let y0 = y0.as_view();
            s.fork_all(&[&t1, &t2], |branches| {
                axpy_out_on(&branches[0], &k2, c[0], (&x, &y0, &y1))?;
                axpy_out_on(&branches[1], &k2, c[1], (&x, &y0, &y2))?;
                axpy_out_on(s, &k2, c[2], (&x, &y0, &y3))?;
                Ok::<(), Error>(())
            })?;
            saxpy_on(s, &k2, 1.0, &y2.as_view(), &y1)?;
            saxpy_on(s, &k2, 1.0, &y3.as_view(), &y1)?;
            Ok::<(), Error>(())
        },
    )
    .unwrap();

    let nodes: Vec<NodeInfo<'_>> = graph.nodes().collect();
    assert_eq!(nodes.len(), 6, "{}", graph.to_dot());
    let root = nodes.iter().position(|n| n.deps.is_empty()).unwrap();
    let branches: Vec<usize> = (0..6).filter(|&i| nodes[i].deps == [root as u32]).collect();
    assert_eq!(
        branches.len(),
        3,
        "three parallel branches:\n{}",
        graph.to_dot()
    );
    assert_parallel(&nodes, &branches);
    let join = (0..6).find(|&i| nodes[i].deps.len() == 3).unwrap();
    for &b in &branches {
        assert!(nodes[join].deps.contains(&(b as u32)), "{}", graph.to_dot());
    }
    let last = (0..6).find(|&i| nodes[i].deps == [join as u32]).unwrap();
    assert!(
        (0..6).all(|i| !nodes[i].deps.contains(&(last as u32))),
        "one sink"
    );

    let mut exec = graph.instantiate().unwrap();
    for launch in 0..3 {
        let x_host = rng.f32s(n);
        x.copy_from(&x_host).unwrap();
        exec.launch(&gpu.stream).unwrap();
        let want: Vec<f32> = x_host
            .iter()
            .map(|x| (c[0] * x + x) + (c[1] * x + x) + (c[2] * x + x))
            .collect();
        assert_read_close(&gpu.stream, &format!("launch {launch}: y1"), &y1, &want);
    }
    // Neither side stream is left in the capture.
    for side in [&s1, &s2] {
        assert_eq!(
            side.capture_status().unwrap(),
            sys::CUstreamCaptureStatus::CU_STREAM_CAPTURE_STATUS_NONE
        );
    }
}

#[test]
fn work_on_a_forked_stream_after_its_fork_is_still_joined() {
    let Some(gpu) = cudagraph_tests::gpu("work_on_a_forked_stream_after_its_fork_is_still_joined")
    else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new("work_on_a_forked_stream_after_its_fork_is_still_joined");
    let n = rng.len_in(1000, 50_000);
    let (p, q, r) = (rng.f32(), rng.f32(), rng.f32());
    let (s1, s2) = (gpu.ctx.new_stream().unwrap(), gpu.ctx.new_stream().unwrap());
    let [u, v] = [(); 2].map(|()| zeros::<f32>(&gpu, n));

    // Nested forks (s1 from the capture's stream, s2 from s1), then more work on s1 through the
    // stream itself, after its fork returned: without the final join the end of the capture
    // would fail (CUDA_ERROR_STREAM_CAPTURE_UNJOINED).
    let k2 = k.clone();
    let graph = Graph::capture(&gpu.stream, (Mut(&u), Mut(&v)), move |s, (u, v)| {
        s.fork(&s1, |t| {
            scale_on(t, &k2, p, &u)?; // u *= p on s1
            t.fork(&s2, |w| scale_on(w, &k2, q, &v)) // v *= q on s2
        })?;
        scale_on(&s1, &k2, r, &u)?; // u *= r on s1, no scope
        Ok::<(), Error>(())
    })
    .expect("every forked stream is joined before the capture ends");
    assert_eq!(graph.len(), 3, "{}", graph.to_dot());

    let mut exec = graph.instantiate().unwrap();
    for launch in 0..3 {
        let (u_host, v_host) = (rng.f32s(n), rng.f32s(n));
        u.copy_from(&u_host).unwrap();
        v.copy_from(&v_host).unwrap();
        exec.launch(&gpu.stream).unwrap();
        let want_u: Vec<f32> = u_host.iter().map(|u| r * (p * u)).collect();
        let want_v: Vec<f32> = v_host.iter().map(|v| q * v).collect();
        assert_read_close(&gpu.stream, &format!("launch {launch}: u"), &u, &want_u);
        assert_read_close(&gpu.stream, &format!("launch {launch}: v"), &v, &want_v);
    }
}

#[test]
fn a_failing_branch_is_joined_and_its_error_returned() {
    let Some(gpu) = cudagraph_tests::gpu("a_failing_branch_is_joined_and_its_error_returned")
    else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let n = 4096;
    let side = gpu.ctx.new_stream().unwrap();
    let y = zeros::<f32>(&gpu, n);
    y.copy_from(&vec![2.0; n]).unwrap();

    let (k2, t) = (k.clone(), side.clone());
    let outcome = Graph::capture(&gpu.stream, Mut(&y), move |s, y| {
        s.fork(&t, |t| {
            scale_on(t, &k2, 10.0, &y)?;
            Err::<(), _>(Error::Invalid {
                node: "<branch>".into(),
                reason: "the branch gave up".into(),
            })
        })
    });
    match outcome {
        Err(Error::Invalid { node, reason }) => {
            assert_eq!(node, "<branch>");
            assert_eq!(reason, "the branch gave up");
        }
        other => panic!("expected the branch's error, got {other:?}"),
    }
    // Both streams are out of capture mode and run work; the recorded kernel never ran.
    for stream in [&gpu.stream, &side] {
        assert_eq!(
            stream.capture_status().unwrap(),
            sys::CUstreamCaptureStatus::CU_STREAM_CAPTURE_STATUS_NONE
        );
    }
    assert_eq!(
        read_back(&gpu.stream, &y),
        vec![2.0f32; n],
        "captured, not run"
    );
    let mut graph = Graph::new(&gpu.ctx).unwrap();
    graph
        .add_kernel(&k.offset, cfg(n), (n as u32, 1.0f32, &y), &[])
        .unwrap();
    let mut exec = graph.instantiate().unwrap();
    exec.launch(&side).unwrap();
    side.synchronize().unwrap();
    assert_eq!(read_back(&gpu.stream, &y), vec![3.0f32; n]);
}

#[test]
fn forks_that_cannot_be_made_are_refused_and_the_capture_goes_on() {
    let Some(gpu) =
        cudagraph_tests::gpu("forks_that_cannot_be_made_are_refused_and_the_capture_goes_on")
    else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let n = 4096;
    let side = gpu.ctx.new_stream().unwrap();
    let legacy = gpu.ctx.default_stream();
    let y = zeros::<f32>(&gpu, n);
    y.copy_from(&vec![2.0; n]).unwrap();

    let refused = |outcome: Result<(), Error>, what: &str| match outcome {
        Err(Error::Invalid { node, reason }) => {
            assert!(node.starts_with("CaptureScope::fork"), "{what}: {node}");
            reason
        }
        other => panic!("{what}: expected Error::Invalid, got {other:?}"),
    };
    // The closure's assertions panic inside the capture: the capture ends, and the panic goes on.
    let k2 = k.clone();
    let graph = Graph::capture(&gpu.stream, Mut(&y), move |s, y| {
        let own = refused(
            s.fork(s.stream(), |_| Ok::<(), Error>(())),
            "its own stream",
        );
        assert!(own.contains("itself"), "{own}");
        let old = refused(
            s.fork(&legacy, |_| Ok::<(), Error>(())),
            "the legacy stream",
        );
        assert!(old.contains("legacy default stream"), "{old}");
        let twice = refused(
            s.fork_all(&[&side, &side], |_| Ok::<(), Error>(())),
            "twice",
        );
        assert!(twice.contains("twice"), "{twice}");
        scale_on(s, &k2, 3.0, &y)
    })
    .expect("refused forks leave the capture intact");
    assert_eq!(graph.len(), 1);
    let mut exec = graph.instantiate().unwrap();
    exec.launch(&gpu.stream).unwrap();
    assert_eq!(read_back(&gpu.stream, &y), vec![6.0f32; n]);
}

#[test]
fn capture_into_with_a_fork_gives_both_branches_as_sinks() {
    let Some(gpu) = cudagraph_tests::gpu("capture_into_with_a_fork_gives_both_branches_as_sinks")
    else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new("capture_into_with_a_fork_gives_both_branches_as_sinks");
    let n = rng.len_in(1000, 50_000);
    let (p, q) = (rng.f32(), rng.f32());
    let side = gpu.ctx.new_stream().unwrap();
    let [u, v, w] = [(); 3].map(|()| zeros::<f32>(&gpu, n));

    // memsets u = 1, v = 2 -> captured in parallel: u *= p (side), v *= q -> w = u + v
    let mut graph = Graph::new(&gpu.ctx).unwrap();
    let mu = graph.add_memset(Memset::new(&u, 1.0f32), &[]).unwrap();
    let mv = graph.add_memset(Memset::new(&v, 2.0f32), &[]).unwrap();
    let k2 = k.clone();
    let captured = graph
        .capture_into(
            &gpu.stream,
            &[mu.id(), mv.id()],
            (Mut(&u), Mut(&v)),
            move |s, (u, v)| {
                s.fork(&side, |t| {
                    scale_on(t, &k2, p, &u)?;
                    scale_on(s, &k2, q, &v)?;
                    Ok::<(), Error>(())
                })
            },
        )
        .unwrap();
    assert_eq!(captured.len(), 2);
    assert_eq!(captured.sinks().len(), 2, "two branches, both sinks");
    let sum = graph
        .add_kernel(
            &k.axpy_out,
            cfg(n),
            (n as u32, 1.0f32, &u, &v, &w),
            captured.sinks(),
        )
        .unwrap();
    let nodes: Vec<NodeInfo<'_>> = graph.nodes().collect();
    assert_eq!(nodes.len(), 5);
    let branches: Vec<usize> = captured.nodes().iter().map(|id| id.index()).collect();
    assert_parallel(&nodes, &branches);
    for &b in &branches {
        let mut deps = nodes[b].deps.to_vec();
        deps.sort_unstable();
        assert_eq!(deps, [0, 1], "each branch comes after both memsets");
        assert!(reaches(&nodes, b, sum.id().index()));
    }

    let mut exec = graph.instantiate().unwrap();
    for launch in 0..3 {
        exec.launch(&gpu.stream).unwrap();
        assert_read_close(
            &gpu.stream,
            &format!("launch {launch}: w"),
            &w,
            &vec![p + 2.0 * q; n],
        );
    }
}
