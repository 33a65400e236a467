//! Class 8, driver calls where the crate's own rule says there are none: dropping a graph, an
//! executable or a buffer inside a host node called the driver from CUDA's callback thread,
//! which CUDA forbids (a host function "must not make any CUDA API calls":
//! <https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__STREAM.html>).
//!
//! The control destroys a graph from a raw host node: the driver refuses with
//! `CUDA_ERROR_NOT_PERMITTED`. Through the library every value whose drop calls the driver puts
//! that call off when it runs in a host node (or a capture closure): the same drops leave no
//! error behind, and everything is released once the launch is over.

use std::ffi::c_void;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use cudagraph_runtime::cudarc::driver::sys;
use cudagraph_runtime::prelude::*;
use cudagraph_tests::gpu;
use cudagraph_tests::soundness::{Kernels, RawGraph};

/// What `cuGraphDestroy` returned inside the raw host node.
static RAW_DESTROY: AtomicU32 = AtomicU32::new(u32::MAX);

unsafe extern "C" fn destroy_in_host_node(graph: *mut c_void) {
    // SAFETY: `graph` is the live graph the test made for this call; it is destroyed at most
    // once (the driver refuses, and then the test leaks it).
    let r = unsafe { sys::cuGraphDestroy(graph.cast()) };
    RAW_DESTROY.store(r as u32, Ordering::SeqCst);
}

#[test]
fn drops_inside_a_host_node_make_no_driver_calls() {
    let Some(gpu) = gpu("drops_inside_a_host_node_make_no_driver_calls") else {
        return;
    };
    let a = &gpu.stream;

    // Control: a raw host node destroying a graph.
    {
        let victim = RawGraph::new(&gpu);
        let mut raw = RawGraph::new(&gpu);
        raw.add_host(destroy_in_host_node, victim.raw().cast(), &[]);
        raw.launch(a);
        a.synchronize().unwrap();
        let r = RAW_DESTROY.load(Ordering::SeqCst);
        eprintln!("control: cuGraphDestroy in a host node returned {r}");
        assert_eq!(
            r,
            sys::CUresult::CUDA_ERROR_NOT_PERMITTED as u32,
            "the control must show the driver refusing, or this test shows nothing"
        );
        // The driver refused, so `victim` is still live: its own drop destroys it here.
    }

    // The library: a graph, an executable, buffers, a kernel and an event dropped in a host
    // node.
    gpu.ctx.check_err().unwrap();
    let mut graph = Graph::new(&gpu.ctx).unwrap();
    graph.add_empty(&[]).unwrap();
    let mut other = Graph::new(&gpu.ctx).unwrap();
    other.add_empty(&[]).unwrap();
    let exec = other.instantiate().unwrap();
    let k = Kernels::load(&gpu.ctx);
    let values = (
        graph,
        exec,
        DeviceBuffer::<u32>::zeros(a, 1 << 20).unwrap(),
        HostBuffer::<u32>::zeroed(&gpu.ctx, 1 << 10).unwrap(),
        k.fill,
        Event::new(&gpu.ctx).unwrap(),
    );
    let mut held = Some(values);
    let mut outer = Graph::new(&gpu.ctx).unwrap();
    outer.add_host(move || drop(held.take()), &[]).unwrap();
    let mut exec = outer.instantiate().unwrap();
    exec.launch(a).unwrap();
    a.synchronize().unwrap();
    assert!(
        gpu.ctx.check_err().is_ok(),
        "a drop in the host node called the driver: {:?}",
        gpu.ctx.check_err()
    );
    drop(exec);
    assert!(
        cudagraph_runtime::wait_for_releases(Duration::from_secs(10)),
        "what the host node dropped was released afterwards"
    );
    assert!(
        gpu.ctx.check_err().is_ok(),
        "the releases made no failing driver call"
    );
}
