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
