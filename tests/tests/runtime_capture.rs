//! Stream capture (`cuStreamBeginCapture`): work enqueued inside `Graph::capture` is recorded, not run; the
//! captured graph runs as its own executable or embedded as a child of a built graph; and a
//! failing capture body still ends the capture, leaving the stream usable. Capture into a graph
//! being built (`Graph::capture_into`: between explicit nodes, and into a conditional body, whose
//! rule it keeps), removed again when it fails; and as one child-graph node (`Graph::add_captured`).
//!
//! cudarc tracks each buffer's last use with events and makes a stream wait on them before it
//! touches the buffer; inside a capture, waiting on an event recorded outside it breaks the
//! capture. Every test here uses a single stream, so each switches that tracking off first (the
//! setting belongs to the context, which only this test binary's tests share).

use std::sync::Arc;

use cudagraph_runtime::cudarc::driver::{result, sys, CudaContext, DriverError, PushKernelArg};
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{CaptureScope, Condition, Error, NodeKind};
use cudagraph_tests::capture::{saxpy_on, scale_on};
use cudagraph_tests::{
    assert_close, assert_read_close, assert_read_untouched, cfg, fill, fill_buffer, pinned,
    read_back, zeros, Kernels, Rng, POISON,
};

fn without_event_tracking(ctx: &Arc<CudaContext>) {
    // SAFETY: every test in this binary orders all work on its buffers with one stream and
    // synchronizes it before reading results, so cudarc's cross-stream events are not needed.
    unsafe { ctx.disable_event_tracking() };
}

#[test]
fn captured_work_is_recorded_then_runs_on_launch() {
    let Some(gpu) = cudagraph_tests::gpu("captured_work_is_recorded_then_runs_on_launch") else {
        return;
    };
    without_event_tracking(&gpu.ctx);
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new("captured_work_is_recorded_then_runs_on_launch");
    let n = rng.len_in(1000, 50_000);
    let a = rng.f32();
    let y_host = rng.f32s(n);
    let mut x = gpu.stream.alloc_zeros::<f32>(n).unwrap();
    let y = gpu.stream.clone_htod(&y_host).unwrap();
    let mut out = gpu.stream.alloc_zeros::<f32>(n).unwrap();
    let mut copy = gpu.stream.alloc_zeros::<f32>(n).unwrap();
    let mut zeroed = gpu.stream.alloc_zeros::<f32>(n).unwrap();
    for buf in [&mut out, &mut copy, &mut zeroed] {
        fill(&gpu.stream, buf, POISON);
    }
    gpu.stream.synchronize().unwrap();

    // out = a * x + y; copy = out; zeroed = 0
    let body = |s: &CaptureScope<'_>| {
        let n32 = n as u32;
        let mut launch = s.launch_builder(k.axpy_out.function());
        launch.arg(&n32).arg(&a).arg(&x).arg(&y).arg(&mut out);
        // SAFETY: `axpy_out(unsigned n, float a, const float* x, const float* y, float* out)` with
        // buffers of `n` elements, one thread per element.
        unsafe { launch.launch(cfg(n)) }?;
        s.memcpy_dtod(&out, &mut copy)?;
        s.memset_zeros(&mut zeroed)?;
        Ok::<(), DriverError>(())
    };
    // SAFETY: the captured nodes use `x`, `y`, `out`, `copy` and `zeroed`, declared before the
    // graph and its executable and so dropped after them; host code reads them only through
    // `read_back`, which synchronizes the stream the launches run on.
    let graph = unsafe { Graph::capture(&gpu.stream, body) }.unwrap();
    assert_eq!(graph.len(), 3);
    assert!(graph.nodes().all(|node| node.kind == NodeKind::Other));

    // Captured, not run.
    for (what, buf) in [("out", &out), ("copy", &copy), ("zeroed", &zeroed)] {
        assert_read_untouched(&gpu.stream, &format!("{what} after capture"), buf);
    }

    let mut exec = graph.instantiate().unwrap();
    for launch in 0..2 {
        let x_host = rng.f32s(n);
        gpu.stream.memcpy_htod(&x_host, &mut x).unwrap();
        for buf in [&mut out, &mut copy, &mut zeroed] {
            fill(&gpu.stream, buf, POISON);
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
    without_event_tracking(&gpu.ctx);
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new("captured_graph_embeds_as_a_child");
    let n = rng.len_in(1000, 50_000);
    let a = rng.f32();
    let mut src = pinned(&gpu.ctx, &vec![0.0f32; n]);
    let dst = HostBuffer::from_slice(&gpu.ctx, &vec![POISON; n]).unwrap();
    let x = zeros::<f32>(&gpu, n);
    let x_addr = x.addr();
    let host_src = src.as_ptr().unwrap();

    // Captured: src -> x (a copy from pinned memory), then x *= a. Captured work is not tracked:
    // it reaches `src` and `x` by address.
    let body = |s: &CaptureScope<'_>| {
        // SAFETY: `host_src` is the pinned buffer `src` (n elements, alive until the test ends) and
        // `x_addr` is `x`, n elements on the device.
        unsafe {
            let host = std::slice::from_raw_parts(host_src, n);
            result::memcpy_htod_async(x_addr, host, s.cu_stream())?;
        }
        let n32 = n as u32;
        let mut launch = s.launch_builder(k.scale.function());
        launch.arg(&n32).arg(&a).arg(&x_addr);
        // SAFETY: `scale(unsigned n, float a, float* y)` on `n` elements, one thread each; `y` is
        // `x`'s device address.
        unsafe { launch.launch(cfg(n)) }?;
        Ok::<(), Error>(())
    };
    // SAFETY: the captured nodes use `src` and `x`, declared before the graphs and the executable
    // and so dropped after them. Host code writes `src` only between launches, each of which is
    // synchronized before the next write; `x` is touched only through `fill_buffer` and
    // `assert_read_close`, which are ordered with the launches on the stream.
    let child = unsafe { Graph::capture(&gpu.stream, body) }.unwrap();
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
        src.as_mut_slice().unwrap().copy_from_slice(&data);
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

#[test]
fn a_failing_capture_body_still_ends_the_capture() {
    let Some(gpu) = cudagraph_tests::gpu("a_failing_capture_body_still_ends_the_capture") else {
        return;
    };
    without_event_tracking(&gpu.ctx);
    let mut rng = Rng::new("a_failing_capture_body_still_ends_the_capture");
    let n = rng.len_in(1000, 50_000);
    let data = rng.f32s(n);
    let mut buf = gpu.stream.clone_htod(&data).unwrap();

    let body = |s: &CaptureScope<'_>| {
        s.memset_zeros(&mut buf)?;
        Err(Error::Invalid {
            node: "<body>".into(),
            reason: "the body gave up".into(),
        })
    };
    // SAFETY: the body fails, so no graph is made from the captured memset; `buf` outlives the
    // capture in any case.
    let outcome = unsafe { Graph::capture(&gpu.stream, body) };
    match outcome {
        Err(Error::Invalid { node, reason }) => {
            assert_eq!(node, "<body>");
            assert_eq!(reason, "the body gave up");
        }
        other => panic!("expected the body's error, got {other:?}"),
    }

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
    without_event_tracking(&gpu.ctx);
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new("capture_into_records_between_explicit_nodes");
    let n = rng.len_in(1000, 50_000);
    let (a, b, c) = (rng.f32(), rng.f32(), rng.f32());
    let x = zeros::<f32>(&gpu, n);
    let y = zeros::<f32>(&gpu, n);
    let (x_addr, y_addr) = (x.addr(), y.addr());

    // memset y = 1 -> [captured: y = a x + y; y *= b] -> offset y += c
    let mut graph = Graph::new(&gpu.ctx).unwrap();
    let init = graph.add_memset(Memset::new(&y, 1.0f32), &[]).unwrap();
    // SAFETY: the captured kernels use `x` and `y` by address; both are declared before the graph
    // and its executable, so dropped after them, and host code touches them only through
    // `copy_from` / `read_back`, which the stream orders with the launches.
    let captured = unsafe {
        graph.capture_into(&gpu.stream, &[init.id()], |s| {
            saxpy_on(s, &k, n, a, x_addr, y_addr)?;
            scale_on(s, &k, n, b, y_addr)
        })
    }
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
    without_event_tracking(&gpu.ctx);
    let k = Kernels::load(&gpu.ctx);
    let n = 4096;
    let y = zeros::<f32>(&gpu, n);
    let y_addr = y.addr();
    let mut graph = Graph::new(&gpu.ctx).unwrap();
    let init = graph.add_memset(Memset::new(&y, 2.0f32), &[]).unwrap();

    // SAFETY: the body fails, so nothing it recorded stays in the graph.
    let failed = unsafe {
        graph.capture_into(&gpu.stream, &[init.id()], |s| {
            scale_on(s, &k, n, 10.0, y_addr)?;
            Err(Error::Invalid {
                node: "<body>".into(),
                reason: "the body gave up".into(),
            })
        })
    };
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
    let y_addr = y.addr();
    let mut graph = Graph::new(&gpu.ctx).unwrap();
    let init = graph.add_memset(Memset::new(&y, 2.0f32), &[]).unwrap();
    // SAFETY: the capture fails, so nothing it recorded is ever launched.
    let broken = unsafe {
        graph.capture_into(&gpu.stream, &[init.id()], |s| {
            scale_on(s, &k, n, 10.0, y_addr)?;
            s.synchronize()
        })
    };
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
    without_event_tracking(&gpu.ctx);
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new("add_captured_embeds_the_work_as_one_child_node");
    let n = rng.len_in(1000, 50_000);
    let (a, b) = (rng.f32(), rng.f32());
    let x = zeros::<f32>(&gpu, n);
    let y = zeros::<f32>(&gpu, n);
    let out = HostBuffer::from_slice(&gpu.ctx, &vec![POISON; n]).unwrap();
    let (x_addr, y_addr) = (x.addr(), y.addr());

    // memset y = 1 -> child [y = a x + y; y *= b] -> copy y to the host
    let mut graph = Graph::new(&gpu.ctx).unwrap();
    let init = graph.add_memset(Memset::new(&y, 1.0f32), &[]).unwrap();
    graph.name_next("captured");
    // SAFETY: the captured kernels use `x` and `y` by address; both outlive the graph and its
    // executable, and host code writes `x` only between launches, each read back before the next.
    let child = unsafe {
        graph.add_captured(&gpu.stream, &[init.id()], |s| {
            saxpy_on(s, &k, n, a, x_addr, y_addr)?;
            scale_on(s, &k, n, b, y_addr)
        })
    }
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

/// A host function for `cuLaunchHostFunc`: does nothing.
unsafe extern "C" fn nothing(_: *mut std::ffi::c_void) {}

#[test]
fn capture_into_a_conditional_body_keeps_the_body_rule() {
    let Some(gpu) = cudagraph_tests::gpu("capture_into_a_conditional_body_keeps_the_body_rule")
    else {
        return;
    };
    without_event_tracking(&gpu.ctx);
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new("capture_into_a_conditional_body_keeps_the_body_rule");
    let n = rng.len_in(1000, 50_000);
    let (a, c) = (rng.f32(), rng.f32());
    let y = zeros::<f32>(&gpu, n);
    let y_addr = y.addr();

    // memset y = 1 -> IF (handle reset to 1 at each launch) { captured: y *= a } -> y += c
    let mut graph = Graph::new(&gpu.ctx).unwrap();
    let init = graph.add_memset(Memset::new(&y, 1.0f32), &[]).unwrap();
    let handle = graph.conditional_handle(Some(1)).unwrap();
    let cond = graph
        .add_conditional(handle, Condition::If, &[init.id()], |bodies| {
            let body = &mut bodies[0];
            // A host function is no node a body may hold: refused, naming it, and removed (or,
            // should the driver refuse it first, the capture fails with the driver's error).
            // SAFETY: the host function does nothing and uses no memory.
            let refused = unsafe {
                body.capture_into(&gpu.stream, &[], |s| {
                    let r =
                        sys::cuLaunchHostFunc(s.cu_stream(), Some(nothing), std::ptr::null_mut());
                    match r {
                        sys::CUresult::CUDA_SUCCESS => Ok(()),
                        code => Err(DriverError(code)),
                    }
                })
            };
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
            // SAFETY: the kernel uses `y` by address; `y` outlives the graph and its executable.
            let captured =
                unsafe { body.capture_into(&gpu.stream, &[], |s| scale_on(s, &k, n, a, y_addr)) }?;
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
