//! Stream capture (`cuStreamBeginCapture`): work enqueued inside `Graph::capture` is recorded, not
//! run; the captured graph runs as its own executable or embedded as a child of a built graph;
//! and a failing capture body still ends the capture, leaving the stream usable. Capture into a
//! graph being built (`Graph::capture_into`: between explicit nodes, and into a conditional body,
//! whose rule it keeps), removed again when it fails; and as one child-graph node
//! (`Graph::add_captured`).
//!
//! Each capture is given the memory its work uses (`DeviceBuffer`s, or cudarc memory borrowed in
//! a `cudagraph_runtime::scope`), and its closure works on views of it, which carry no cudarc
//! event: cudarc's event tracking stays on (its default), and no test needs to switch it off.
//! Kernels are launched through cudarc's launch builder on the views' addresses
//! (`cudagraph_tests::capture`), as work the crate does not see.

use cudagraph_runtime::cudarc::driver::{result, DriverError};
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{Condition, Error, Mut, NodeKind, Replay};
use cudagraph_tests::capture::{axpy_out_on, saxpy_on, scale_on};
use cudagraph_tests::{
    assert_close, assert_read_close, assert_read_untouched, cfg, fill_buffer, pinned, read_back,
    upload, zeros, Kernels, Rng, POISON,
};

#[test]
fn captured_work_is_recorded_then_runs_on_launch() {
    let Some(gpu) = cudagraph_tests::gpu("captured_work_is_recorded_then_runs_on_launch") else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new("captured_work_is_recorded_then_runs_on_launch");
    let n = rng.len_in(1000, 50_000);
    let a = rng.f32();
    let y_host = rng.f32s(n);
    // `DeviceBuffer`s (not cudarc slices, as before the capture API was safe): the graph holds a
    // share of them, so the host can write and read them between launches, which a graph that
    // borrows cudarc memory (in a scope) would forbid for as long as it lives.
    let x = zeros::<f32>(&gpu, n);
    let y = upload(&gpu, &y_host);
    let [out, copy, zeroed] = [(); 3].map(|()| zeros::<f32>(&gpu, n));
    for buf in [&out, &copy, &zeroed] {
        fill_buffer(buf, POISON);
    }

    // out = a * x + y; copy = out; zeroed = 0
    let k2 = k.clone();
    let graph = Graph::capture(
        &gpu.stream,
        (&x, &y, Mut(&out), Mut(&copy), Mut(&zeroed)),
        move |s, (x, y, out, mut copy, mut zeroed)| {
            axpy_out_on(s, &k2, a, (&x, &y, &out))?; // cudarc's launch builder
            s.memcpy_dtod(&out, &mut copy)?; // cudarc's copy, on the views
            s.memset_zeros(&mut zeroed)?; // cudarc's memset
            Ok::<(), DriverError>(())
        },
    )
    .unwrap();
    assert_eq!(graph.len(), 3);
    assert!(graph.nodes().all(|node| node.kind == NodeKind::Other));

    // Captured, not run.
    for (what, buf) in [("out", &out), ("copy", &copy), ("zeroed", &zeroed)] {
        assert_read_untouched(&gpu.stream, &format!("{what} after capture"), buf);
    }

    let mut exec = graph.instantiate().unwrap();
    for launch in 0..2 {
        let x_host = rng.f32s(n);
        x.copy_from(&x_host).unwrap();
        for buf in [&out, &copy, &zeroed] {
            fill_buffer(buf, POISON);
        }
        exec.launch(&gpu.stream).unwrap();
        let want: Vec<f32> = x_host.iter().zip(&y_host).map(|(x, y)| a * x + y).collect();
        assert_read_close(&gpu.stream, &format!("launch {launch}: out"), &out, &want);
        assert_read_close(&gpu.stream, &format!("launch {launch}: copy"), &copy, &want);
        assert_eq!(
            read_back(&gpu.stream, &zeroed),
            vec![0.0; n],
            "launch {launch}: zeroed"
        );
    }
}

#[test]
fn captured_graph_embeds_as_a_child() {
    let Some(gpu) = cudagraph_tests::gpu("captured_graph_embeds_as_a_child") else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new("captured_graph_embeds_as_a_child");
    let n = rng.len_in(1000, 50_000);
    let a = rng.f32();
    let src = HostBuffer::from_slice(&gpu.ctx, &vec![0.0f32; n]).unwrap();
    let dst = HostBuffer::from_slice(&gpu.ctx, &vec![POISON; n]).unwrap();
    let x = zeros::<f32>(&gpu, n);

    // A copy from page-locked memory by a raw driver call, as before the capture API was safe,
    // is now refused: host memory is not an operand of a capture, and the copy node it recorded
    // reads memory that was not given to it.
    let raw_src = pinned(&gpu.ctx, &vec![1.0f32; n]);
    let raw_addr = raw_src.as_ptr().unwrap() as usize;
    let refused = Graph::capture(&gpu.stream, Mut(&x), move |s, x| {
        // SAFETY: `raw_addr` is `raw_src`, n page-locked floats that outlive the capture (and
        // this closure: the failed capture drops it), and `x` is a view of n floats.
        unsafe {
            let host = std::slice::from_raw_parts(raw_addr as *const f32, n);
            result::memcpy_htod_async(x.addr(), host, s.cu_stream())
        }
    });
    match refused {
        Err(Error::Invalid { node, reason }) => {
            assert!(node.starts_with("memcpy"), "{node}");
            assert!(reason.contains("not given to the capture"), "{reason}");
        }
        other => panic!("expected the raw host copy to be refused, got {other:?}"),
    }
    drop(raw_src);

    // Captured: src -> x (the capture scope's copy from a `HostBuffer`, held by the graph), then
    // x *= a.
    let (k2, src2) = (k.clone(), src.clone());
    let child = Graph::capture(&gpu.stream, Mut(&x), move |s, x| {
        s.memcpy(Memcpy::htod(&src2, &x))?;
        scale_on(s, &k2, a, &x)?;
        Ok::<(), Error>(())
    })
    .unwrap();
    assert_eq!(child.len(), 2);

    // Built around it: child, then x -> dst.
    let mut graph = Graph::new(&gpu.ctx).unwrap();
    let inner = graph.add_child_graph(&child, &[]).unwrap();
    graph
        .add_memcpy(Memcpy::dtoh(&x, &dst), &[inner.id()])
        .unwrap();
    drop(child);
    let mut exec = graph.instantiate().unwrap();

    for launch in 0..2 {
        let data = rng.f32s(n);
        src.write().unwrap().copy_from_slice(&data);
        dst.write().unwrap().fill(POISON);
        fill_buffer(&x, POISON);
        exec.launch(&gpu.stream).unwrap();
        gpu.stream.synchronize().unwrap();
        let want: Vec<f32> = data.iter().map(|v| a * v).collect();
        assert_read_close(&gpu.stream, &format!("launch {launch}: x"), &x, &want);
        assert_close(
            &format!("launch {launch}: copied out"),
            &dst.read().unwrap(),
            &want,
            1e-6,
        );
    }
}

/// The error of a capture refused for a copy between overlapping memory.
#[track_caller]
fn assert_overlapping_copy_refused(outcome: Result<Graph<'static>, Error>, what: &str) {
    match outcome {
        Err(Error::Invalid { node, reason }) => {
            assert!(node.starts_with("memcpy"), "{what}: {node}");
            assert!(reason.contains("overlapping memory"), "{what}: {reason}");
        }
        other => panic!("{what}: expected the overlapping copy to be refused, got {other:?}"),
    }
}

#[test]
fn a_captured_copy_between_overlapping_memory_is_refused() {
    let Some(gpu) = cudagraph_tests::gpu("a_captured_copy_between_overlapping_memory_is_refused")
    else {
        return;
    };
    let mut rng = Rng::new("a_captured_copy_between_overlapping_memory_is_refused");
    let n = 2 * rng.len_in(500, 25_000);
    let data = rng.f32s(n);
    let x = upload(&gpu, &data);
    let bytes = |len: usize| len * std::mem::size_of::<f32>();

    // CUDA leaves a copy whose source and destination overlap undefined (cudaMemcpy3D), so any
    // bytes could land. The views cannot make one with cudarc's copy (a `CaptureViewMut`'s parts
    // and view to read borrow it: ui-tests `soundness/overlap_capture_views*`), but a raw driver
    // call, which the crate does not see, can: the recorded node is refused.
    let shifted = Graph::capture(&gpu.stream, Mut(&x), move |s, x| {
        // SAFETY: both ranges lie in `x` (n floats), and the stream is being captured: the copy
        // is recorded, not run, and the capture refuses the graph it would be a node of.
        unsafe {
            result::memcpy_dtod_async(
                x.addr() + bytes(1) as u64,
                x.addr(),
                bytes(n - 1),
                s.cu_stream(),
            )
        } // x[1..] = x[..n-1]
    });
    assert_overlapping_copy_refused(shifted, "a raw copy shifted by one element");
    let onto_itself = Graph::capture(&gpu.stream, Mut(&x), move |s, x| {
        // SAFETY: as above, over `x` exactly.
        unsafe { result::memcpy_dtod_async(x.addr(), x.addr(), bytes(n), s.cu_stream()) }
    });
    assert_overlapping_copy_refused(onto_itself, "a raw copy of a buffer onto itself");
    // The capture's own copy (which takes its destination by shared reference, beside a view to
    // read of it) is refused as a memcpy node is.
    let own = Graph::capture(&gpu.stream, Mut(&x), move |s, x| {
        s.memcpy(Memcpy::dtod(&x.as_view(), &x))
    });
    assert_overlapping_copy_refused(own, "the capture's own copy of a buffer onto itself");
    assert_eq!(read_back(&gpu.stream, &x), data, "nothing ran");

    // Two halves of one buffer do not overlap: cudarc's copy between them is recorded and runs.
    let half = n / 2;
    let graph = Graph::capture(&gpu.stream, Mut(&x), move |s, mut x| {
        let (src, mut dst) = x.try_split_at_mut(half).unwrap();
        s.memcpy_dtod(&src, &mut dst) // x[half..] = x[..half]
    })
    .unwrap();
    graph.instantiate().unwrap().launch(&gpu.stream).unwrap();
    let want: Vec<f32> = data[..half].iter().chain(&data[..half]).copied().collect();
    assert_eq!(
        read_back(&gpu.stream, &x),
        want,
        "x after the copy of its first half"
    );
}

#[test]
fn a_copy_between_the_split_halves_of_a_view_runs_in_a_warm_up_and_replays() {
    let name = "a_copy_between_the_split_halves_of_a_view_runs_in_a_warm_up_and_replays";
    let Some(gpu) = cudagraph_tests::gpu(name) else {
        return;
    };
    let mut rng = Rng::new(name);
    let n = rng.len_in(1000, 50_000);
    // Not the middle: the parts have different lengths (the tail is the longer, never empty),
    // and the copy fills the tail's first `head` elements.
    let head = rng.len_in(1, n / 2);
    let data = rng.f32s(n);
    let x = upload(&gpu, &data);
    // x[head..2 head] = x[..head], then x[2 head..] = 0, by cudarc's calls on the two parts.
    let copied = |x: &[f32]| -> Vec<f32> {
        let mut want = x.to_vec();
        want.copy_within(..head, head);
        want[2 * head..].fill(0.0);
        want
    };

    // The warm-up runs the closure's cudarc calls eagerly, before the capture checks anything:
    // the parts split from one view are apart, so what runs is defined.
    let mut step = Replay::new(&gpu.stream, 2, Mut(x.clone()), move |s, mut x| {
        assert!(x.try_split_at_mut(n + 1).is_none(), "a split past the end");
        let (src, mut dst) = x.try_split_at_mut(head).unwrap();
        assert_eq!(
            (src.len(), dst.len()),
            (head, n - head),
            "the parts' lengths"
        );
        let mut into = dst.try_slice(..head).unwrap();
        s.memcpy_dtod(&src, &mut into)?;
        s.memset_zeros(&mut dst.try_slice(head..).unwrap())?;
        Ok::<(), Error>(())
    })
    .unwrap();
    assert_eq!(
        read_back(&gpu.stream, &x),
        copied(&data),
        "x after the warm-up"
    );
    for replay in 0..3 {
        let input = rng.f32s(n);
        x.copy_from(&input).unwrap();
        step.replay(&gpu.stream).unwrap();
        assert_eq!(
            read_back(&gpu.stream, &x),
            copied(&input),
            "x after replay {replay}"
        );
    }
}

#[test]
fn a_failing_capture_body_still_ends_the_capture() {
    let Some(gpu) = cudagraph_tests::gpu("a_failing_capture_body_still_ends_the_capture") else {
        return;
    };
    let mut rng = Rng::new("a_failing_capture_body_still_ends_the_capture");
    let n = rng.len_in(1000, 50_000);
    let data = rng.f32s(n);
    let mut buf = gpu.stream.clone_htod(&data).unwrap();

    // A cudarc slice, borrowed for a scope: the failed capture makes no graph, and the borrow
    // ends with the scope.
    cudagraph_runtime::scope(|sc| {
        let outcome = sc.capture(&gpu.stream, &mut buf, |s, mut buf| {
            s.memset_zeros(&mut buf)?;
            Err::<(), _>(Error::Invalid {
                node: "<body>".into(),
                reason: "the body gave up".into(),
            })
        });
        match outcome {
            Err(Error::Invalid { node, reason }) => {
                assert_eq!(node, "<body>");
                assert_eq!(reason, "the body gave up");
            }
            other => panic!("expected the body's error, got {other:?}"),
        }
    });

    // The stream is out of capture mode: ordinary work runs, and the recorded memset never did.
    assert_eq!(
        read_back(&gpu.stream, &buf),
        data,
        "captured work is not run"
    );
    let fresh = rng.f32s(n);
    gpu.stream.memcpy_htod(&fresh, &mut buf).unwrap();
    assert_eq!(read_back(&gpu.stream, &buf), fresh);
}

#[test]
fn capture_into_records_between_explicit_nodes() {
    let Some(gpu) = cudagraph_tests::gpu("capture_into_records_between_explicit_nodes") else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new("capture_into_records_between_explicit_nodes");
    let n = rng.len_in(1000, 50_000);
    let (a, b, c) = (rng.f32(), rng.f32(), rng.f32());
    let x = zeros::<f32>(&gpu, n);
    let y = zeros::<f32>(&gpu, n);

    // memset y = 1 -> [captured: y = a x + y; y *= b] -> offset y += c
    let mut graph = Graph::new(&gpu.ctx).unwrap();
    let init = graph.add_memset(Memset::new(&y, 1.0f32), &[]).unwrap();
    let k2 = k.clone();
    let captured = graph
        .capture_into(
            &gpu.stream,
            &[init.id()],
            (&x, Mut(&y)),
            move |s, (x, y)| {
                saxpy_on(s, &k2, a, &x, &y)?;
                scale_on(s, &k2, b, &y)
            },
        )
        .unwrap();
    assert_eq!(captured.len(), 2);
    assert_eq!(captured.sinks().len(), 1, "one chain, one sink");
    assert_eq!(captured.nodes()[1], captured.sinks()[0]);
    let last = graph
        .add_kernel(&k.offset, cfg(n), (n as u32, c, &y), captured.sinks())
        .unwrap();

    // The table learned the captured nodes and their edges: a chain 0 -> 1 -> 2 -> 3.
    let nodes: Vec<_> = graph.nodes().collect();
    assert_eq!(nodes.len(), 4);
    assert_eq!(nodes[0].kind, NodeKind::Memset);
    assert_eq!(nodes[1].kind, NodeKind::Other);
    assert_eq!(nodes[2].kind, NodeKind::Other);
    assert_eq!(nodes[3].kind, NodeKind::Kernel);
    for (i, node) in nodes.iter().enumerate().skip(1) {
        assert_eq!(node.deps, &[i as u32 - 1], "node {i}'s dependencies");
    }
    assert_eq!(last.id().index(), 3);
    let dot = graph.to_dot();
    for edge in ["n0 -> n1;", "n1 -> n2;", "n2 -> n3;"] {
        assert!(dot.contains(edge), "{edge} missing from\n{dot}");
    }

    let mut exec = graph.instantiate().unwrap();
    for launch in 0..3 {
        let x_host = rng.f32s(n);
        x.copy_from(&x_host).unwrap();
        exec.launch(&gpu.stream).unwrap();
        let want: Vec<f32> = x_host.iter().map(|x| b * (a * x + 1.0) + c).collect();
        assert_read_close(&gpu.stream, &format!("launch {launch}: y"), &y, &want);
    }
}

#[test]
fn a_failed_capture_into_leaves_the_graph_as_it_was() {
    let Some(gpu) = cudagraph_tests::gpu("a_failed_capture_into_leaves_the_graph_as_it_was") else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let n = 4096;
    let y = zeros::<f32>(&gpu, n);
    let mut graph = Graph::new(&gpu.ctx).unwrap();
    let init = graph.add_memset(Memset::new(&y, 2.0f32), &[]).unwrap();

    let k2 = k.clone();
    let failed = graph.capture_into(&gpu.stream, &[init.id()], Mut(&y), move |s, y| {
        scale_on(s, &k2, 10.0, &y)?;
        Err(Error::Invalid {
            node: "<body>".into(),
            reason: "the body gave up".into(),
        })
    });
    match failed {
        Err(Error::Invalid { node, .. }) => assert_eq!(node, "<body>"),
        other => panic!("expected the body's error, got {other:?}"),
    }
    assert_eq!(graph.len(), 1, "the recorded kernel was removed");

    // The graph goes on: one more node, instantiated, launched.
    graph
        .add_kernel(&k.offset, cfg(n), (n as u32, 1.0f32, &y), &[init.id()])
        .unwrap();
    let mut exec = graph.instantiate().unwrap();
    exec.launch(&gpu.stream).unwrap();
    assert_eq!(read_back(&gpu.stream, &y), vec![3.0f32; n]);
}

/// A failed capture into a graph with memory nodes cannot take back what it recorded (CUDA
/// removes no node from such a graph), and what it recorded holds nothing: the buffer given to
/// the capture went with the failed capture. The graph then refuses to be instantiated, embedded
/// or used for an update: launched, the recorded memset would write memory freed since, which a
/// sentinel allocated in its place would show. The memory nodes are the graph's own, or
/// allocations the failed capture recorded.
#[test]
fn a_failed_capture_into_a_graph_with_memory_nodes_leaves_it_unusable() {
    let Some(gpu) =
        cudagraph_tests::gpu("a_failed_capture_into_a_graph_with_memory_nodes_leaves_it_unusable")
    else {
        return;
    };
    const SENTINEL: u32 = 0x5e57_1e15;
    let n = 1 << 16;
    for own_memory_nodes in [true, false] {
        let mut graph = Graph::new(&gpu.ctx).unwrap();
        if own_memory_nodes {
            let tmp = graph.add_mem_alloc::<u32>(256, &[]).unwrap();
            graph.add_mem_free(&tmp, &[tmp.id()]).unwrap();
        }
        let before = graph.len();
        let y = zeros::<u32>(&gpu, n);
        let failed = graph.capture_into(&gpu.stream, &[], Mut(y.clone()), move |s, mut y| {
            if !own_memory_nodes {
                let tmp = s.alloc::<u32>(256)?;
                s.free(tmp)?;
            }
            s.memset_zeros(&mut y)?; // cudarc's memset, on the view
            Err::<(), Error>(Error::Invalid {
                node: "<body>".into(),
                reason: "the body gave up".into(),
            })
        });
        match &failed {
            Err(Error::Invalid { node, .. }) => assert_eq!(node, "<body>"),
            other => panic!("expected the body's error, got {other:?}"),
        }
        assert!(
            graph.len() > before,
            "CUDA keeps the recorded nodes of a graph with memory nodes, and the table lists them"
        );
        // The capture's operand was the buffer's last other owner: it is freed now, on its
        // stream, and the pool hands its memory to the next allocation of its size there.
        drop(y);
        let sentinel = DeviceBuffer::from_host(&gpu.stream, &vec![SENTINEL; n]).unwrap();

        let mut parent = Graph::new(&gpu.ctx).unwrap();
        let embedded = parent.add_child_graph(&graph, &[]);
        assert!(
            matches!(embedded, Err(Error::Invalid { .. })),
            "embedded: {embedded:?}"
        );
        match graph.instantiate() {
            Err(Error::Invalid { reason, .. }) => {
                assert!(reason.contains("failed capture"), "{reason}")
            }
            Err(e) => panic!("expected the graph to refuse instantiation, got {e}"),
            Ok(mut exec) => {
                exec.launch(&gpu.stream).unwrap();
                let left = sentinel.to_vec().unwrap();
                let overwritten = left.iter().filter(|&&v| v != SENTINEL).count();
                panic!(
                    "a graph holding the failed capture's work was instantiated and launched; \
                     {overwritten} of {n} elements of the sentinel allocated in the freed \
                     buffer's place were overwritten"
                );
            }
        }
        assert_eq!(sentinel.to_vec().unwrap(), vec![SENTINEL; n]);
    }
}

/// A broken capture into a graph (the stream synchronized inside it) leaves the graph unusable:
/// the driver refuses every later call about it (shown with a raw one), so the graph refuses
/// further nodes and instantiation with an error saying to build it again.
#[test]
fn a_broken_capture_into_leaves_the_graph_refusing_further_use() {
    use cudagraph_runtime::cudarc::driver::sys;
    let Some(gpu) =
        cudagraph_tests::gpu("a_broken_capture_into_leaves_the_graph_refusing_further_use")
    else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let n = 256;
    let y = zeros::<f32>(&gpu, n);
    let mut graph = Graph::new(&gpu.ctx).unwrap();
    let init = graph.add_memset(Memset::new(&y, 2.0f32), &[]).unwrap();
    let k2 = k.clone();
    let broken = graph.capture_into(&gpu.stream, &[init.id()], Mut(&y), move |s, y| {
        scale_on(s, &k2, 10.0, &y)?;
        s.synchronize()
    });
    assert!(
        matches!(broken, Err(Error::CaptureBroken { .. })),
        "{broken:?}"
    );
    let mut node = std::ptr::null_mut();
    // SAFETY: the graph handle is still ours; `node` is a valid out-pointer.
    let raw = unsafe { sys::cuGraphAddEmptyNode(&mut node, graph.raw(), std::ptr::null(), 0) };
    println!("a raw node added after the broken capture: {raw:?}");
    let refused = graph.add_kernel(&k.offset, cfg(n), (n as u32, 1.0f32, &y), &[init.id()]);
    assert!(matches!(refused, Err(Error::Invalid { .. })), "{refused:?}");
    let refused = graph.instantiate();
    assert!(matches!(refused, Err(Error::Invalid { .. })), "{refused:?}");
    // The stream goes on.
    let mut fresh = Graph::new(&gpu.ctx).unwrap();
    fresh.add_memset(Memset::new(&y, 4.0f32), &[]).unwrap();
    fresh.instantiate().unwrap().launch(&gpu.stream).unwrap();
    assert_eq!(read_back(&gpu.stream, &y), vec![4.0f32; n]);
}

#[test]
fn add_captured_embeds_the_work_as_one_child_node() {
    let Some(gpu) = cudagraph_tests::gpu("add_captured_embeds_the_work_as_one_child_node") else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new("add_captured_embeds_the_work_as_one_child_node");
    let n = rng.len_in(1000, 50_000);
    let (a, b) = (rng.f32(), rng.f32());
    let x = zeros::<f32>(&gpu, n);
    let y = zeros::<f32>(&gpu, n);
    let out = HostBuffer::from_slice(&gpu.ctx, &vec![POISON; n]).unwrap();

    // memset y = 1 -> child [y = a x + y; y *= b] -> copy y to the host
    let mut graph = Graph::new(&gpu.ctx).unwrap();
    let init = graph.add_memset(Memset::new(&y, 1.0f32), &[]).unwrap();
    graph.name_next("captured");
    let k2 = k.clone();
    let child = graph
        .add_captured(
            &gpu.stream,
            &[init.id()],
            (&x, Mut(&y)),
            move |s, (x, y)| {
                saxpy_on(s, &k2, a, &x, &y)?;
                scale_on(s, &k2, b, &y)
            },
        )
        .unwrap();
    graph
        .add_memcpy(Memcpy::dtoh(&y, &out), &[child.id()])
        .unwrap();
    let kinds: Vec<NodeKind> = graph.nodes().map(|n| n.kind).collect();
    assert_eq!(
        kinds,
        [NodeKind::Memset, NodeKind::ChildGraph, NodeKind::Memcpy]
    );
    assert_eq!(graph.node_name(child), "captured");

    let mut exec = graph.instantiate().unwrap();
    for launch in 0..3 {
        let x_host = rng.f32s(n);
        x.copy_from(&x_host).unwrap();
        out.write().unwrap().fill(POISON);
        exec.launch(&gpu.stream).unwrap();
        let want: Vec<f32> = x_host.iter().map(|x| b * (a * x + 1.0)).collect();
        assert_close(
            &format!("launch {launch}: copied out"),
            &out.read().unwrap(),
            &want,
            1e-6,
        );
    }
}

#[test]
fn capture_into_a_conditional_body_keeps_the_body_rule() {
    let Some(gpu) = cudagraph_tests::gpu("capture_into_a_conditional_body_keeps_the_body_rule")
    else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new("capture_into_a_conditional_body_keeps_the_body_rule");
    let n = rng.len_in(1000, 50_000);
    let (a, c) = (rng.f32(), rng.f32());
    let y = zeros::<f32>(&gpu, n);

    // memset y = 1 -> IF (handle reset to 1 at each launch) { captured: y *= a } -> y += c
    let mut graph = Graph::new(&gpu.ctx).unwrap();
    let init = graph.add_memset(Memset::new(&y, 1.0f32), &[]).unwrap();
    let handle = graph.conditional_handle(Some(1)).unwrap();
    let cond = graph
        .add_conditional(handle, Condition::If, &[init.id()], |bodies| {
            let body = &mut bodies[0];
            // A host function is no node a body may hold: refused, naming it, and removed (or,
            // should the driver refuse it first, the capture fails with the driver's error).
            // It is the capture scope's own host function now (a raw `cuLaunchHostFunc` before
            // the capture API was safe): the same host node.
            let refused = body.capture_into(&gpu.stream, &[], (), |s, ()| s.host_fn(|| {}));
            match refused {
                Err(Error::Invalid { node, reason }) => {
                    assert_eq!(node, "host#0");
                    assert!(reason.contains("conditional body"), "{reason}");
                }
                Err(Error::CaptureBroken { .. } | Error::Driver { .. }) => {}
                other => panic!("expected the host node to be refused, got {other:?}"),
            }
            assert_eq!(
                body.len(),
                0,
                "the refused capture left nothing in the body"
            );
            let k2 = k.clone();
            let captured = body.capture_into(&gpu.stream, &[], Mut(&y), move |s, y| {
                scale_on(s, &k2, a, &y)
            })?;
            assert_eq!(captured.len(), 1);
            Ok(())
        })
        .unwrap();
    graph
        .add_kernel(&k.offset, cfg(n), (n as u32, c, &y), &[cond.id()])
        .unwrap();

    let mut exec = graph.instantiate().unwrap();
    for launch in 0..3 {
        exec.launch(&gpu.stream).unwrap();
        assert_read_close(
            &gpu.stream,
            &format!("launch {launch}: y"),
            &y,
            &vec![a + c; n],
        );
    }
}
