//! A capture node declared with `cuda_graph!`: work enqueued through cudarc, recorded into a
//! child graph between declared nodes; `set_params` with another `Capture` records the new work,
//! and so does the node's handle. Each `Capture` is given the buffer its work writes
//! (`Mut(y.clone())`), which every graph recorded from it holds.

use std::sync::Arc;

use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{Capture, Mut, NodeKind};
use cudagraph_tests::capture::scale_on;
use cudagraph_tests::{read_back, zeros, Kernels, ScaleArgs};

cuda_graph! {
    /// `y = (y + a) * s + a`, the scaling by `s` recorded by stream capture.
    graph Around {
        params {
            offset: Kernel<ScaleArgs>,
            y: DeviceBuffer<f32>,
            n: u32,
            a: f32,
            middle: Capture,
        }
        before: kernel offset<<<n.div_ceil(256), 256>>>(n, a, y);
        recorded: capture(middle);
        after: kernel offset<<<n.div_ceil(256), 256>>>(n, a, y);
        before -> recorded -> after;
    }
}

/// Work that scales every float of `y` by `s`, recorded on `stream`.
fn scaling(
    gpu_stream: &Arc<cudagraph_runtime::cudarc::driver::CudaStream>,
    k: &Arc<Kernels>,
    y: &DeviceBuffer<f32>,
    s: f32,
) -> Capture {
    let k = k.clone();
    Capture::new(gpu_stream, Mut(y.clone()), move |st, y| {
        scale_on(st, &k, s, &y)
    })
}

#[test]
fn a_declared_capture_node_records_work_between_declared_nodes() {
    let Some(gpu) =
        cudagraph_tests::gpu("a_declared_capture_node_records_work_between_declared_nodes")
    else {
        return;
    };
    let k = Arc::new(Kernels::load(&gpu.ctx));
    let n = 1000;
    let y = zeros::<f32>(&gpu, n);
    let capture_stream = gpu.ctx.new_stream().unwrap();
    let mut params = AroundParams {
        offset: k.offset.clone(),
        y: y.clone(),
        n: n as u32,
        a: 1.0,
        middle: scaling(&capture_stream, &k, &y, 3.0),
    };
    let graph = Around::build(&gpu.ctx, &params).unwrap();
    let kinds: Vec<NodeKind> = graph.graph().nodes().map(|n| n.kind).collect();
    assert_eq!(
        kinds,
        [NodeKind::Kernel, NodeKind::ChildGraph, NodeKind::Kernel]
    );
    let mut exec = graph.instantiate().unwrap();
    exec.launch(&gpu.stream).unwrap();
    // (0 + 1) * 3 + 1
    assert_eq!(read_back(&gpu.stream, &y), vec![4.0; n]);

    // Another `Capture`: `set_params` records it (one node), the others stay.
    params.middle = scaling(&capture_stream, &k, &y, 0.5);
    assert_eq!(exec.set_params(&params).unwrap(), 1);
    exec.launch(&gpu.stream).unwrap();
    // (4 + 1) * 0.5 + 1
    assert_eq!(read_back(&gpu.stream, &y), vec![3.5; n]);
    // A clone is the same work: nothing to update.
    let same = params.middle.clone();
    params.middle = same;
    assert_eq!(exec.set_params(&params).unwrap(), 0);

    // Through the node's handle.
    exec.recorded()
        .set(&scaling(&capture_stream, &k, &y, 2.0))
        .unwrap();
    exec.launch(&gpu.stream).unwrap();
    // (3.5 + 1) * 2 + 1
    assert_eq!(read_back(&gpu.stream, &y), vec![10.0; n]);
}

cuda_graph! {
    /// A capture node that declares what its work uses: it reads `x` and writes `y`, and a
    /// kernel no edge orders with it writes `z`.
    graph Declared {
        params {
            offset: Kernel<ScaleArgs>,
            x: DeviceBuffer<f32>,
            y: DeviceBuffer<f32>,
            z: DeviceBuffer<f32>,
            n: u32,
            work: Capture,
        }
        copy: capture(work, [x, mut y]);
        beside: kernel offset<<<n.div_ceil(256), 256>>>(n, 1.0, z);
    }
}

#[test]
fn a_capture_node_s_declared_uses_are_checked_against_its_recorded_work() {
    let Some(gpu) = cudagraph_tests::gpu(
        "a_capture_node_s_declared_uses_are_checked_against_its_recorded_work",
    ) else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let n = 1000;
    let (x, y, z) = (
        zeros::<f32>(&gpu, n),
        zeros::<f32>(&gpu, n),
        zeros::<f32>(&gpu, n),
    );
    cudagraph_tests::fill_buffer(&x, 5.0);
    let stream = gpu.ctx.new_stream().unwrap();
    // dst = src; the node declares y = x.
    let copy = |src: &DeviceBuffer<f32>, dst: &DeviceBuffer<f32>| {
        Capture::new(
            &stream,
            (src.clone(), Mut(dst.clone())),
            |s, (src, mut dst)| s.memcpy_dtod(&src, &mut dst),
        )
    };
    let copy_into = |dst: &DeviceBuffer<f32>| copy(&x, dst);
    let mut params = DeclaredParams {
        offset: k.offset.clone(),
        x: x.clone(),
        y: y.clone(),
        z: z.clone(),
        n: n as u32,
        work: copy_into(&z),
    };
    // Work that writes `z`, which the node does not declare (and `beside` writes unordered).
    let refused = |e: cudagraph_runtime::Error, what: &str| {
        eprintln!("{what}: {e}");
        assert!(
            matches!(&e, cudagraph_runtime::Error::Invalid { node, reason }
                if node == "copy" && reason.contains("declared uses")),
            "{what}: {e:?}"
        );
    };
    refused(
        Declared::build(&gpu.ctx, &params).err().unwrap(),
        "build, z written",
    );
    // Work that writes `x`, which the node declares read only.
    params.work = copy(&y, &x);
    refused(
        Declared::build(&gpu.ctx, &params).err().unwrap(),
        "build, x written",
    );

    params.work = copy_into(&y);
    let mut exec = Declared::build(&gpu.ctx, &params)
        .unwrap()
        .instantiate()
        .unwrap();
    exec.launch(&gpu.stream).unwrap();
    assert_eq!(read_back(&gpu.stream, &y), vec![5.0; n]);
    assert_eq!(
        read_back(&gpu.stream, &z),
        vec![1.0; n],
        "the kernel beside ran"
    );

    // The same refusals at `set_params` and through the handle; the executable keeps its work.
    params.work = copy_into(&z);
    refused(
        exec.set_params(&params).unwrap_err(),
        "set_params, z written",
    );
    refused(
        exec.copy().set(&copy_into(&z)).unwrap_err(),
        "handle, z written",
    );
    params.work = copy_into(&y);
    exec.copy().set(&copy_into(&y)).unwrap();
    exec.launch(&gpu.stream).unwrap();
    assert_eq!(read_back(&gpu.stream, &y), vec![5.0; n]);
}

#[test]
fn a_buffer_a_capture_node_declares_is_checked_when_it_changes() {
    let Some(gpu) =
        cudagraph_tests::gpu("a_buffer_a_capture_node_declares_is_checked_when_it_changes")
    else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let n = 1000;
    let (x, y, y2, z) = (
        zeros::<f32>(&gpu, n),
        zeros::<f32>(&gpu, n),
        zeros::<f32>(&gpu, n),
        zeros::<f32>(&gpu, n),
    );
    cudagraph_tests::fill_buffer(&x, 5.0);
    let stream = gpu.ctx.new_stream().unwrap();
    let copy_into = |dst: &DeviceBuffer<f32>| {
        Capture::new(
            &stream,
            (x.clone(), Mut(dst.clone())),
            |s, (src, mut dst)| s.memcpy_dtod(&src, &mut dst),
        )
    };
    let params = DeclaredParams {
        offset: k.offset.clone(),
        x: x.clone(),
        y: y.clone(),
        z: z.clone(),
        n: n as u32,
        work: copy_into(&y),
    };
    let mut exec = Declared::build(&gpu.ctx, &params)
        .unwrap()
        .instantiate()
        .unwrap();

    // The recorded work writes `y` whatever the param says: the node declares `mut y`, so a new
    // `y` is the node's change too, and work that does not write it is refused. (Unchecked, the
    // params would say `y2` while `copy` went on writing `y`, and `z = y` would then pass the
    // memory check while `beside` wrote `y` at the same time as `copy`.)
    match exec.set_y(y2.clone()) {
        Err(cudagraph_runtime::Error::Invalid { node, reason }) => {
            assert_eq!(node, "copy", "{reason}");
            assert!(reason.contains("declared uses"), "{reason}");
        }
        other => panic!("expected the change refused at `copy`, got {other:?}"),
    }
    assert!(exec.params().y == y, "the refused change is undone");
    assert!(
        matches!(
            exec.set_z(y.clone()),
            Err(cudagraph_runtime::Error::Hazard { .. })
        ),
        "`beside` writing what `copy` writes is refused"
    );

    // The work and the buffer changed together: taken.
    let mut p = exec.params_mut();
    let _ = p.set_work(copy_into(&y2));
    let _ = p.set_y(y2.clone());
    assert_eq!(p.apply().unwrap(), 1, "`copy` updated once");
    exec.launch(&gpu.stream).unwrap();
    assert_eq!(read_back(&gpu.stream, &y2), vec![5.0; n]);
    assert_eq!(
        read_back(&gpu.stream, &y),
        vec![0.0; n],
        "the old `y` is left alone"
    );
}
