//! Graph allocations freed by a later graph's free node (`Graph::add_mem_free_buffer`): what it
//! refuses, the one launch that frees, the maker's relaunch after it, and the memory freed when
//! the later graph is dropped unlaunched.
//!
//! In its own file (its own process): after a graph allocation is freed by a free node of a
//! graph launched on another stream, `compute-sanitizer --tool memcheck` does not see that free:
//! it reports the allocation as leaked, and flags accesses to graph allocations made later in
//! the same process as out of bounds, although their results are right and the driver's own
//! accounting (graph memory in use, after a trim) shows nothing left allocated.
//! `sanitizer_cross_graph_free.rs` shows the same with raw driver calls only.

use cudagraph_runtime::prelude::*;
use cudagraph_runtime::Error;
use cudagraph_tests::graph_memory::{assert_nothing_leaked, fresh_pool, outliving, settled, turn};
use cudagraph_tests::{cfg, gpu, read_back, zeros, Kernels};

#[test]
fn a_free_node_takes_only_a_whole_unshared_graph_allocation_used_before_it() {
    let _turn = turn();
    let Some(gpu) = gpu("a_free_node_takes_only_a_whole_unshared_graph_allocation_used_before_it")
    else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let n = 1 << 20;
    let (g, t) = outliving(&gpu, n, 7);
    let mut exec = g.instantiate().unwrap();
    exec.launch(&gpu.stream).unwrap();
    let buffer = exec.take_allocation(&t).unwrap();

    // Memory that is not a graph allocation, a part of one, a buffer with another handle alive.
    let mut later = Graph::new(&gpu.ctx).unwrap();
    for (what, refused) in [
        (
            "a cudarc allocation",
            later.add_mem_free_buffer(zeros::<u32>(&gpu, n), &[]),
        ),
        ("a part", later.add_mem_free_buffer(buffer.slice(..16), &[])),
        (
            "a shared buffer",
            later.add_mem_free_buffer(buffer.clone(), &[]),
        ),
    ] {
        assert!(
            matches!(refused, Err(Error::Allocation { .. })),
            "{what}: {refused:?}"
        );
    }
    // A node of the graph that uses the buffer and is not ordered before the free.
    let out = zeros::<u32>(&gpu, n);
    let bump = later
        .add_kernel(&k.add_u32, cfg(n), (n as u32, 5, &buffer), &[])
        .unwrap();
    later
        .add_memcpy(Memcpy::dtod(&buffer, &out), &[bump.id()])
        .unwrap();
    let unordered = later.add_mem_free_buffer(buffer, &[bump.id()]);
    assert!(
        matches!(&unordered, Err(Error::Allocation { reason, .. }) if reason.contains("memcpy#1")),
        "{unordered:?}"
    );
}

#[test]
fn a_later_graph_frees_an_outliving_allocation_once_and_the_maker_relaunches() {
    let _turn = turn();
    let Some(gpu) =
        gpu("a_later_graph_frees_an_outliving_allocation_once_and_the_maker_relaunches")
    else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let n = 1 << 20;
    fresh_pool(&gpu);
    let before = settled(&gpu);
    let (g, t) = outliving(&gpu, n, 7);
    let mut exec = g.instantiate().unwrap();
    exec.launch(&gpu.stream).unwrap();
    let buffer = exec.take_allocation(&t).unwrap();
    let addr = buffer.addr();

    let out = zeros::<u32>(&gpu, n);
    let mut later = Graph::new(&gpu.ctx).unwrap();
    let bump = later
        .add_kernel(&k.add_u32, cfg(n), (n as u32, 5, &buffer), &[])
        .unwrap();
    let copy = later
        .add_memcpy(Memcpy::dtod(&buffer, &out), &[bump.id()])
        .unwrap();
    later.add_mem_free_buffer(buffer, &[copy.id()]).unwrap();
    let mut later = later.instantiate().unwrap();

    // Until the later graph has run, the maker still waits for its allocation to be freed.
    assert!(matches!(
        exec.launch(&gpu.stream),
        Err(Error::Allocation { .. })
    ));
    let other = gpu.ctx.new_stream().unwrap();
    later.launch(&other).unwrap();
    assert_eq!(
        read_back(&other, &out),
        vec![12u32; n],
        "used before the free"
    );
    // Once: a second launch would free the memory again.
    assert!(matches!(
        later.launch(&other),
        Err(Error::Allocation { .. })
    ));

    // The maker relaunches (after the free, on the other stream) and gets the same address.
    exec.launch(&gpu.stream).unwrap();
    let again = exec.take_allocation(&t).unwrap();
    assert_eq!(again.addr(), addr);
    // The refused relaunch of the later graph wrote nothing into it (nor freed it): the new
    // allocation holds what the maker wrote, and stays so.
    assert!(matches!(
        later.launch(&other),
        Err(Error::Allocation { .. })
    ));
    other.synchronize().unwrap();
    assert_eq!(again.to_vec().unwrap(), vec![7u32; n]);
    drop(later);
    drop(again);
    drop(exec);
    gpu.stream.synchronize().unwrap();
    assert_nothing_leaked(&gpu, &before, "freed by a later graph");
}

#[test]
fn a_later_graph_dropped_without_launching_frees_the_allocation_itself() {
    let _turn = turn();
    let Some(gpu) = gpu("a_later_graph_dropped_without_launching_frees_the_allocation_itself")
    else {
        return;
    };
    let n = 1 << 20;
    fresh_pool(&gpu);
    let before = settled(&gpu);
    let (g, t) = outliving(&gpu, n, 7);
    let mut exec = g.instantiate().unwrap();
    exec.launch(&gpu.stream).unwrap();
    let buffer = exec.take_allocation(&t).unwrap();
    let mut later = Graph::new(&gpu.ctx).unwrap();
    later.add_mem_free_buffer(buffer, &[]).unwrap();
    let later = later.instantiate().unwrap();
    drop(later);
    // Freed by the drop (stream-ordered): the maker may launch again.
    exec.launch(&gpu.stream).unwrap();
    drop(exec);
    gpu.stream.synchronize().unwrap();
    assert_nothing_leaked(&gpu, &before, "freed by a dropped graph");
}

cudagraph_runtime::cuda_graph! {
    /// `t = value` in an allocation the graph does not free.
    graph Maker {
        params {
            add_u32: Kernel<cudagraph_tests::AddU32Args>,
            n: u32,
            value: u32,
        }
        t: alloc::<u32>(n as usize);
        zero: memset(t, 0u32);
        set: kernel add_u32<<<n.div_ceil(256), 256>>>(n, value, t);
        t -> zero -> set;
    }
}

#[test]
fn an_allocation_taken_out_of_a_declared_executable_is_freed_by_a_later_graph() {
    // NVIDIA's graphMemoryNodes frees an allocation of one graph in another: declared, the
    // allocation is taken out of what the launch leaves, and given to the later graph's free node.
    let _turn = turn();
    let Some(gpu) =
        gpu("an_allocation_taken_out_of_a_declared_executable_is_freed_by_a_later_graph")
    else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let n = 1 << 20;
    fresh_pool(&gpu);
    let before = settled(&gpu);
    let params = MakerParams {
        add_u32: k.add_u32.clone(),
        n: n as u32,
        value: 7,
    };
    let mut exec = Maker::build(&gpu.ctx, &params)
        .unwrap()
        .instantiate()
        .unwrap();
    let buffer = exec.launch(&gpu.stream).unwrap().take_t().unwrap();

    let out = zeros::<u32>(&gpu, n);
    let mut later = Graph::new(&gpu.ctx).unwrap();
    let copy = later.add_memcpy(Memcpy::dtod(&buffer, &out), &[]).unwrap();
    later.add_mem_free_buffer(buffer, &[copy.id()]).unwrap();
    let mut later = later.instantiate().unwrap();
    // Until the later graph has freed it, the maker waits (its launch would allocate it again).
    assert!(matches!(
        exec.launch(&gpu.stream),
        Err(Error::Allocation { .. })
    ));
    let other = gpu.ctx.new_stream().unwrap();
    later.launch(&other).unwrap();
    assert_eq!(read_back(&other, &out), vec![7u32; n]);

    // The maker relaunches after the free, its auto-free leaving alone what the later graph freed.
    exec.set_value(9).unwrap();
    let t = exec.launch(&gpu.stream).unwrap().read_t().unwrap();
    assert_eq!(t, vec![9u32; n]);
    drop(later);
    drop(exec);
    gpu.stream.synchronize().unwrap();
    other.synchronize().unwrap();
    assert_nothing_leaked(
        &gpu,
        &before,
        "a declared allocation freed by a later graph",
    );
}
