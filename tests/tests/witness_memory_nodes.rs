//! GPU witnesses for the rules of graph memory nodes. Each builds, through raw driver calls, a
//! graph that the runtime refuses when the node is added, and shows what the driver does with
//! it: it refuses some (a second free, a relaunch while an allocation is live, cloning,
//! embedding, a second executable, per-node updates of memory nodes), and silently accepts the
//! others (a use not ordered after its alloc node, a free not ordered after a use, a whole-graph
//! update from a graph whose kernels use allocations that live elsewhere). For those the runtime's check is the
//! only guard. The two witnesses whose launch corrupts memory or faults have a file each
//! (`witness_use_after_free.rs`, `witness_foreign_allocation.rs`): a fault ends the context.

use cudagraph_runtime::cudarc::driver::sys;
use cudagraph_runtime::prelude::*;
use cudagraph_tests::{cfg, gpu, raw, Kernels};

const N: usize = 1 << 16;

/// A graph with one allocation of `N` words, and the alloc node's raw handle.
fn with_alloc(
    ctx: &std::sync::Arc<cudagraph_runtime::cudarc::driver::CudaContext>,
) -> (Graph<'static>, GraphAlloc<u32>, sys::CUgraphNode) {
    let mut g = Graph::new(ctx).unwrap();
    let t = g.add_mem_alloc::<u32>(N, &[]).unwrap();
    let node = g.raw_node(t.id()).unwrap();
    (g, t, node)
}

#[test]
fn the_driver_accepts_a_use_not_ordered_after_its_alloc_node() {
    let Some(gpu) = gpu("the_driver_accepts_a_use_not_ordered_after_its_alloc_node") else {
        return;
    };
    let (g, t, alloc) = with_alloc(&gpu.ctx);
    let early = raw::memset_u32(&g, &[], t.addr(), N, 1).expect("the driver refused the use");
    raw::free(&g, &[alloc, early], t.addr()).expect("the driver refused the free");
    let mut exec = g.instantiate().expect("the driver refused to instantiate");
    exec.launch(&gpu.stream).unwrap();
    gpu.stream.synchronize().unwrap();
    eprintln!("accepted: a memset of an allocation with no path from its alloc node");
}

#[test]
fn the_driver_accepts_a_free_not_ordered_after_a_use() {
    let Some(gpu) = gpu("the_driver_accepts_a_free_not_ordered_after_a_use") else {
        return;
    };
    let (g, t, alloc) = with_alloc(&gpu.ctx);
    raw::memset_u32(&g, &[alloc], t.addr(), N, 1).unwrap();
    raw::free(&g, &[alloc], t.addr()).expect("the driver refused the free beside the use");
    let mut exec = g.instantiate().expect("the driver refused to instantiate");
    exec.launch(&gpu.stream).unwrap();
    gpu.stream.synchronize().unwrap();
    eprintln!("accepted: a free node unordered with a memset of the allocation");
}

#[test]
fn the_driver_refuses_a_second_free() {
    let Some(gpu) = gpu("the_driver_refuses_a_second_free") else {
        return;
    };
    let (g, t, alloc) = with_alloc(&gpu.ctx);
    let first = raw::free(&g, &[alloc], t.addr()).unwrap();
    let second = raw::free(&g, &[first], t.addr());
    assert_eq!(second, Err(sys::CUresult::CUDA_ERROR_INVALID_VALUE));
}

#[test]
fn the_driver_refuses_to_relaunch_while_an_allocation_is_live() {
    let Some(gpu) = gpu("the_driver_refuses_to_relaunch_while_an_allocation_is_live") else {
        return;
    };
    let (mut g, t, _) = with_alloc(&gpu.ctx);
    g.add_memset(Memset::new(t, 1u32), &[t.id()]).unwrap();
    let mut exec = g.instantiate().unwrap();
    exec.launch(&gpu.stream).unwrap();
    // SAFETY: a live executable and stream.
    let again = unsafe { sys::cuGraphLaunch(exec.raw(), gpu.stream.cu_stream()) };
    assert_eq!(again, sys::CUresult::CUDA_ERROR_INVALID_VALUE);
    gpu.stream.synchronize().unwrap();
}

#[test]
fn the_driver_refuses_to_clone_embed_or_instantiate_twice_a_graph_with_memory_nodes() {
    let Some(gpu) =
        gpu("the_driver_refuses_to_clone_embed_or_instantiate_twice_a_graph_with_memory_nodes")
    else {
        return;
    };
    let (g, t, alloc) = with_alloc(&gpu.ctx);
    raw::free(&g, &[alloc], t.addr()).unwrap();
    let mut clone = std::ptr::null_mut();
    // SAFETY: a live graph and a valid out-pointer.
    let cloned = unsafe { sys::cuGraphClone(&mut clone, g.raw()) };
    assert_eq!(cloned, sys::CUresult::CUDA_ERROR_NOT_SUPPORTED);
    let parent = Graph::new(&gpu.ctx).unwrap();
    let mut node = std::ptr::null_mut();
    // SAFETY: two live graphs; no dependencies.
    let embedded = unsafe {
        sys::cuGraphAddChildGraphNode(&mut node, parent.raw(), std::ptr::null(), 0, g.raw())
    };
    assert_eq!(embedded, sys::CUresult::CUDA_ERROR_NOT_SUPPORTED);
    let raw_graph = g.raw();
    let _exec = g.instantiate().unwrap();
    let mut second = std::ptr::null_mut();
    // SAFETY: the graph is alive (owned by `_exec`); a valid out-pointer.
    let twice = unsafe { sys::cuGraphInstantiateWithFlags(&mut second, raw_graph, 0) };
    assert_eq!(twice, sys::CUresult::CUDA_ERROR_NOT_SUPPORTED);
}

#[test]
fn the_driver_refuses_per_node_updates_of_memory_nodes() {
    let Some(gpu) = gpu("the_driver_refuses_per_node_updates_of_memory_nodes") else {
        return;
    };
    let (g, t, alloc) = with_alloc(&gpu.ctx);
    raw::free(&g, &[alloc], t.addr()).unwrap();
    let exec = g.instantiate().unwrap();
    // SAFETY: zeroed parameters are a valid "nothing set" block; the node is the executable's.
    let set = unsafe {
        let mut p: sys::CUgraphNodeParams = std::mem::zeroed();
        p.type_ = sys::CUgraphNodeType::CU_GRAPH_NODE_TYPE_MEM_ALLOC;
        p.__bindgen_anon_1.alloc.bytesize = 2 * N * 4;
        sys::cuGraphExecNodeSetParams(exec.raw(), alloc, &mut p)
    };
    assert_eq!(set, sys::CUresult::CUDA_ERROR_NOT_SUPPORTED);
    // SAFETY: as above.
    let disabled = unsafe { sys::cuGraphNodeSetEnabled(exec.raw(), alloc, 0) };
    assert_eq!(disabled, sys::CUresult::CUDA_ERROR_INVALID_VALUE);
}

#[test]
fn the_driver_accepts_a_whole_graph_update_from_a_graph_with_other_allocations() {
    let Some(gpu) =
        gpu("the_driver_accepts_a_whole_graph_update_from_a_graph_with_other_allocations")
    else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let build = || {
        let (mut g, t, _) = with_alloc(&gpu.ctx);
        let add = g
            .add_kernel(&k.add_u32, cfg(N), (N as u32, 1, t), &[t.id()])
            .unwrap();
        g.add_mem_free(&t, &[add.id()]).unwrap();
        (g, t.addr())
    };
    let (g1, a1) = build();
    let (g2, a2) = build();
    assert_ne!(a1, a2, "each graph's allocation has its own address");
    let exec = g1.instantiate().unwrap();
    let mut info: sys::CUgraphExecUpdateResultInfo =
        // SAFETY: a plain C struct; zeros are valid.
        unsafe { std::mem::zeroed() };
    // SAFETY: a live executable and graph; `info` is a valid out-pointer.
    let updated = unsafe { sys::cuGraphExecUpdate_v2(exec.raw(), g2.raw(), &mut info) };
    assert_eq!(updated, sys::CUresult::CUDA_SUCCESS);
    eprintln!("accepted: an update pointing the kernel at {a2:#x}, which the executable's alloc node (at {a1:#x}) does not back");
}
