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

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use cudagraph_runtime::cudarc::driver::{sys, DriverError};
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{wait_for_releases, Error, GraphMemory, UserObject};
use cudagraph_tests::graph_memory::{assert_nothing_leaked, fresh_pool, outliving, settled, turn};
use cudagraph_tests::{cfg, gpu, read_back, zeros, Gpu, Kernels};

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
    let (before, mut exec, _, later) = given_to_a_later_graph(&gpu, n);
    let later = later.instantiate().unwrap();
    drop(later);
    // Freed by the drop (stream-ordered): the maker may launch again.
    exec.launch(&gpu.stream).unwrap();
    drop(exec);
    gpu.stream.synchronize().unwrap();
    assert_nothing_leaked(&gpu, &before, "freed by a dropped graph");
}

#[test]
fn a_launch_that_freed_the_allocation_counts_even_when_what_follows_it_fails() {
    // The launch frees the memory on the GPU; what the library does after it (ordering the
    // buffer's stream after it, on the host) can fail. Counted as unfreed then, the memory would
    // be freed again by a second launch, or by the graph's drop: a double free of graph memory
    // that another allocation may hold by then.
    let _turn = turn();
    let Some(gpu) =
        gpu("a_launch_that_freed_the_allocation_counts_even_when_what_follows_it_fails")
    else {
        return;
    };
    let n = 1 << 20;
    let (before, mut exec, _, later) = given_to_a_later_graph(&gpu, n);
    let mut later = later.instantiate().unwrap();
    let live = settled(&gpu);

    // Launched on another stream than the buffer's, the launch is followed by an event recorded
    // there. An error stored in the context wrapper (cudarc's public `record_err`, which
    // cudarc's own drops call too) makes cudarc's next call on it fail: that record.
    let other = gpu.ctx.new_stream().unwrap();
    gpu.ctx
        .record_err::<()>(Err(DriverError(sys::CUresult::CUDA_ERROR_UNKNOWN)));
    let first = later.launch(&other);
    assert!(
        first.is_err(),
        "the stored error must fail what follows the launch, or this test shows nothing"
    );
    let freed = settled(&gpu);
    assert!(
        freed.used < live.used,
        "the launch that reported the error was made and freed the allocation, or this test \
         shows nothing:\n{live}\n->\n{freed}"
    );
    // A second launch would free it again.
    let second = later.launch(&other);
    assert!(
        matches!(second, Err(Error::Allocation { .. })),
        "a second launch of the graph that freed the allocation: {second:?}"
    );
    // The maker's relaunch could not be ordered after that free: it stays refused.
    let relaunch = exec.launch(&gpu.stream);
    assert!(
        matches!(relaunch, Err(Error::Allocation { .. })),
        "the maker's relaunch, unordered after the free: {relaunch:?}"
    );
    // Dropped, the graph does not free the memory again.
    drop(later);
    drop(exec);
    assert!(wait_for_releases(Duration::from_secs(10)));
    gpu.stream.synchronize().unwrap();
    other.synchronize().unwrap();
    assert_nothing_leaked(&gpu, &before, "freed by a launch whose ordering failed");
}

/// A value whose drop, on the release thread, keeps that thread busy for a while: says when it
/// began.
struct SlowDrop(Arc<AtomicBool>);

impl Drop for SlowDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
        std::thread::sleep(Duration::from_secs(2));
    }
}

#[test]
fn a_later_graph_dropped_in_a_host_node_keeps_the_maker_waiting_until_its_free_is_made() {
    // Dropped inside a host node, the later graph's free waits for the release thread. The
    // maker's relaunch must wait as long: it would allocate the same addresses again (with
    // `AUTO_FREE_ON_LAUNCH` its launch frees the unfreed allocation itself), and the free made
    // late would then free the maker's new allocation under it.
    let _turn = turn();
    let Some(gpu) =
        gpu("a_later_graph_dropped_in_a_host_node_keeps_the_maker_waiting_until_its_free_is_made")
    else {
        return;
    };
    let n = 1 << 20;
    let (before, mut exec, t, later) = given_to_a_later_graph(&gpu, n);
    let mut held = Some(later.instantiate().unwrap());
    let mut outer = Graph::new(&gpu.ctx).unwrap();
    outer.add_host(move || drop(held.take()), &[]).unwrap();
    let mut outer = outer.instantiate().unwrap();

    // The release thread busy for 2 s, so that the free waits there meanwhile.
    let started = Arc::new(AtomicBool::new(false));
    drop(UserObject::new(SlowDrop(started.clone())).unwrap());
    let since = Instant::now();
    while !started.load(Ordering::SeqCst) {
        assert!(
            since.elapsed() < Duration::from_secs(10),
            "the slow value was not dropped on the release thread"
        );
        std::thread::sleep(Duration::from_millis(1));
    }
    let side = gpu.ctx.new_stream().unwrap();
    outer.launch(&side).unwrap();
    side.synchronize().unwrap();
    let early = exec.launch(&gpu.stream);
    assert!(
        matches!(early, Err(Error::Allocation { .. })),
        "the maker relaunched before the later graph's free was made: {early:?}"
    );

    // Once the free is made, the maker relaunches.
    drop(outer);
    assert!(wait_for_releases(Duration::from_secs(20)));
    exec.launch(&gpu.stream).unwrap();
    let again = exec.take_allocation(&t).unwrap();
    assert_eq!(again.to_vec().unwrap(), vec![7u32; n]);
    drop(again);
    drop(exec);
    gpu.stream.synchronize().unwrap();
    assert_nothing_leaked(&gpu, &before, "freed by a graph dropped in a host node");
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

/// With a fresh pool: the graph memory in use before, an executable that made an allocation of
/// `n` `u32`s holding 7 and launched once, that allocation, and a later graph given it (taken
/// out as a buffer) for its free node.
fn given_to_a_later_graph(
    gpu: &Gpu,
    n: usize,
) -> (
    GraphMemory,
    GraphExec<'static>,
    GraphAlloc<u32>,
    Graph<'static>,
) {
    fresh_pool(gpu);
    let before = settled(gpu);
    let (g, t) = outliving(gpu, n, 7);
    let mut exec = g.instantiate().unwrap();
    exec.launch(&gpu.stream).unwrap();
    let buffer = exec.take_allocation(&t).unwrap();
    let mut later = Graph::new(&gpu.ctx).unwrap();
    later.add_mem_free_buffer(buffer, &[]).unwrap();
    (before, exec, t, later)
}
