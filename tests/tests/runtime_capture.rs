//! Stream capture (`cuStreamBeginCapture`): work enqueued inside `Graph::capture` is recorded, not run; the
//! captured graph runs as its own executable or embedded as a child of a built graph; and a
//! failing capture body still ends the capture, leaving the stream usable.
//!
//! cudarc tracks each buffer's last use with events and makes a stream wait on them before it
//! touches the buffer; inside a capture, waiting on an event recorded outside it breaks the
//! capture. Every test here uses a single stream, so each switches that tracking off first (the
//! setting belongs to the context, which only this test binary's tests share).

use std::sync::Arc;

use cudagraph_runtime::cudarc::driver::{
    result, CudaContext, CudaStream, DriverError, PushKernelArg,
};
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{Error, NodeKind};
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
    let body = |s: &Arc<CudaStream>| {
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
    let body = |s: &Arc<CudaStream>| {
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

    let body = |s: &Arc<CudaStream>| {
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
