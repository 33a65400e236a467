//! What `compute-sanitizer --tool memcheck` makes of a graph allocation freed by a free node of
//! another graph launched on another stream, with raw driver calls only (instantiate, launch,
//! free): the free is not seen (the allocation, and the later ones, are reported as leaked), and
//! graph allocations made afterwards in the same process are reported as out of bounds,
//! although the driver runs the work correctly (this test checks the values). Run it under
//! memcheck to see; it passes without. The runtime's own test of that path
//! (`memory_nodes_freed_elsewhere.rs`) therefore has a process to itself.

use std::sync::Arc;

use cudagraph_runtime::cudarc::driver::{sys, CudaStream};
use cudagraph_runtime::prelude::*;
use cudagraph_tests::{cfg, gpu, raw, read_back, zeros, Kernels};

/// `cuGraphInstantiateWithFlags` of `g`, no flags.
fn instantiate(g: &Graph<'_>) -> sys::CUgraphExec {
    let mut exec = std::ptr::null_mut();
    // SAFETY: a live graph; `exec` is a valid out-pointer.
    let r = unsafe { sys::cuGraphInstantiateWithFlags(&mut exec, g.raw(), 0) };
    assert_eq!(r, sys::CUresult::CUDA_SUCCESS);
    exec
}

/// `cuGraphLaunch` of `exec` into `stream`.
fn launch(exec: sys::CUgraphExec, stream: &Arc<CudaStream>) {
    // SAFETY: a live executable and stream.
    let r = unsafe { sys::cuGraphLaunch(exec, stream.cu_stream()) };
    assert_eq!(r, sys::CUresult::CUDA_SUCCESS);
}

#[test]
fn later_graph_allocations_are_right_after_a_free_by_another_graph_on_another_stream() {
    let Some(gpu) =
        gpu("later_graph_allocations_are_right_after_a_free_by_another_graph_on_another_stream")
    else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let n = 1 << 20;
    let other = gpu.ctx.new_stream().unwrap();
    // A allocates and fills; B (on the other stream) adds to it and frees it; A runs again
    // after B, and its allocation is freed with cuMemFreeAsync.
    let mut a = Graph::new(&gpu.ctx).unwrap();
    let t = a.add_mem_alloc::<u32>(n, &[]).unwrap();
    let alloc_node = a.raw_node(t.id()).unwrap();
    raw::memset_u32(&a, &[alloc_node], t.addr(), n, 7).unwrap();
    let exec_a = instantiate(&a);
    launch(exec_a, &gpu.stream);
    gpu.stream.synchronize().unwrap();
    let b = Graph::new(&gpu.ctx).unwrap();
    let bump = raw::add_u32(&b, &[], &k.add_u32, t.addr(), n as u32, 5).unwrap();
    raw::free(&b, &[bump], t.addr()).unwrap();
    let exec_b = instantiate(&b);
    launch(exec_b, &other);
    gpu.stream.wait(&other.record_event(None).unwrap()).unwrap();
    launch(exec_a, &gpu.stream);
    // SAFETY: the allocation A's second launch made, used by nothing after it.
    let r = unsafe { sys::cuMemFreeAsync(t.addr(), gpu.stream.cu_stream()) };
    assert_eq!(r, sys::CUresult::CUDA_SUCCESS);
    gpu.stream.synchronize().unwrap();
    other.synchronize().unwrap();
    // SAFETY: both executables are idle and used no more.
    unsafe {
        sys::cuGraphExecDestroy(exec_a);
        sys::cuGraphExecDestroy(exec_b);
    }
    drop((a, b));
    cudagraph_runtime::GraphMemory::trim(&gpu.ctx).unwrap();

    // Later: four 64 MiB allocations in a chain, each filled, bumped and copied out.
    let m = 16 << 20;
    let outs: Vec<DeviceBuffer<u32>> = (0..4).map(|_| zeros(&gpu, m)).collect();
    let mut h = Graph::new(&gpu.ctx).unwrap();
    let mut prev = Vec::new();
    for (i, out) in outs.iter().enumerate() {
        let u = h.add_mem_alloc::<u32>(m, &prev).unwrap();
        let set = h.add_memset(Memset::new(u, i as u32), &[u.id()]).unwrap();
        let add = h
            .add_kernel(&k.add_u32, cfg(m), (m as u32, 3, u), &[set.id()])
            .unwrap();
        let copy = h.add_memcpy(Memcpy::dtod(u, out), &[add.id()]).unwrap();
        prev = vec![h.add_mem_free(&u, &[copy.id()]).unwrap().id()];
    }
    let mut exec = h.instantiate().unwrap();
    exec.launch(&gpu.stream).unwrap();
    for (i, out) in outs.iter().enumerate() {
        assert!(
            read_back(&gpu.stream, out)
                .iter()
                .all(|&v| v == i as u32 + 3),
            "allocation {i}"
        );
    }
}
