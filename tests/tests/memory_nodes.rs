//! Graph memory nodes on the GPU: allocations a graph makes and frees, their physical memory
//! shared between allocations whose lifetimes do not overlap, allocations that outlive a launch,
//! and the ordering rules the runtime checks where the driver checks nothing.

use std::sync::Arc;

use cudagraph_runtime::cudarc::driver::{sys, CudaStream};
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{Error, GraphMemory, NodeKind};
use cudagraph_tests::graph_memory::{assert_nothing_leaked, fresh_pool, outliving, settled, turn};
use cudagraph_tests::{cfg, gpu, read_back, zeros, Kernels};

const MIB: usize = 1 << 20;

/// `alloc -> memset(value) -> scale(by) -> copy into out -> free`, after `deps`; returns the free
/// node. `n` floats.
fn stage(
    g: &mut Graph<'static>,
    k: &Kernels,
    out: &DeviceBuffer<f32>,
    value: f32,
    by: f32,
    deps: &[NodeId],
) -> NodeId {
    let n = out.len();
    let t = g.add_mem_alloc::<f32>(n, deps).unwrap();
    let set = g.add_memset(Memset::new(t, value), &[t.id()]).unwrap();
    let scale = g
        .add_kernel(&k.scale, cfg(n), (n as u32, by, &t), &[set.id()])
        .unwrap();
    let copy = g.add_memcpy(Memcpy::dtod(t, out), &[scale.id()]).unwrap();
    g.add_mem_free(&t, &[copy.id()]).unwrap().id()
}

#[test]
fn an_allocation_lives_from_its_alloc_node_to_its_free_node() {
    let _turn = turn();
    let Some(gpu) = gpu("an_allocation_lives_from_its_alloc_node_to_its_free_node") else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let out = zeros::<f32>(&gpu, 4096);
    let mut g = Graph::new(&gpu.ctx).unwrap();
    stage(&mut g, &k, &out, 1.5, 4.0, &[]);
    assert!(g.has_memory_nodes());
    let kinds: Vec<NodeKind> = g.nodes().map(|n| n.kind).collect();
    assert_eq!(kinds.first(), Some(&NodeKind::MemAlloc));
    assert_eq!(kinds.last(), Some(&NodeKind::MemFree));
    let mut exec = g.instantiate().unwrap();
    for _ in 0..3 {
        exec.launch(&gpu.stream).unwrap();
    }
    assert!(read_back(&gpu.stream, &out).iter().all(|&v| v == 6.0));
}

#[test]
fn allocations_whose_lifetimes_do_not_overlap_share_physical_memory() {
    let _turn = turn();
    let Some(gpu) = gpu("allocations_whose_lifetimes_do_not_overlap_share_physical_memory") else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let n = 64 * MIB / 4; // 64 MiB of floats per allocation
    let outs: Vec<DeviceBuffer<f32>> = (0..4).map(|_| zeros(&gpu, n)).collect();

    // Within one graph: four stages in a chain, each allocating 64 MiB and freeing it.
    fresh_pool(&gpu);
    let mut g = Graph::new(&gpu.ctx).unwrap();
    let mut prev: Vec<NodeId> = Vec::new();
    for (i, out) in outs.iter().enumerate() {
        prev = vec![stage(&mut g, &k, out, i as f32, 2.0, &prev)];
    }
    let mut exec = g.instantiate().unwrap();
    exec.launch(&gpu.stream).unwrap();
    gpu.stream.synchronize().unwrap();
    let one_graph = GraphMemory::of(&gpu.ctx).unwrap();
    println!("one graph, 4 x 64 MiB in sequence:\n{one_graph}");
    for (i, out) in outs.iter().enumerate() {
        assert!(read_back(&gpu.stream, out)
            .iter()
            .all(|&v| v == 2.0 * i as f32));
    }
    let sum = 4 * 64 * MIB as u64;
    assert!(
        one_graph.reserved_peak <= sum / 2,
        "reserved {} B for allocations of {sum} B in total that never coexist",
        one_graph.reserved_peak
    );
    drop(exec);

    // Across two graphs launched into one stream: each allocates and frees 64 MiB.
    fresh_pool(&gpu);
    let mut a = Graph::new(&gpu.ctx).unwrap();
    stage(&mut a, &k, &outs[0], 5.0, 1.0, &[]);
    let mut b = Graph::new(&gpu.ctx).unwrap();
    stage(&mut b, &k, &outs[1], 6.0, 1.0, &[]);
    let (mut a, mut b) = (a.instantiate().unwrap(), b.instantiate().unwrap());
    for _ in 0..3 {
        a.launch(&gpu.stream).unwrap();
        b.launch(&gpu.stream).unwrap();
    }
    gpu.stream.synchronize().unwrap();
    let two_graphs = GraphMemory::of(&gpu.ctx).unwrap();
    println!("two graphs, 64 MiB each, one stream:\n{two_graphs}");
    assert!(read_back(&gpu.stream, &outs[0]).iter().all(|&v| v == 5.0));
    assert!(read_back(&gpu.stream, &outs[1]).iter().all(|&v| v == 6.0));
    assert!(
        two_graphs.reserved_peak < 2 * 64 * MIB as u64,
        "two graphs on one stream reserved {} B for two 64 MiB allocations",
        two_graphs.reserved_peak
    );
}

#[test]
fn an_outliving_allocation_is_taken_as_a_buffer_and_used_by_cudarc_and_a_later_graph() {
    let _turn = turn();
    let Some(gpu) =
        gpu("an_outliving_allocation_is_taken_as_a_buffer_and_used_by_cudarc_and_a_later_graph")
    else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let n = 1 << 16;
    let (g, t) = outliving(&gpu, n, 7);
    let mut exec = g.instantiate().unwrap();
    // Not launched yet: nothing to take.
    assert!(matches!(
        exec.take_allocation(&t),
        Err(Error::Allocation { .. })
    ));
    exec.launch(&gpu.stream).unwrap();
    // CUDA refuses to relaunch while the allocation is live; so do we, naming it.
    let refused = exec.launch(&gpu.stream).unwrap_err();
    assert!(
        matches!(&refused, Error::Allocation { allocation, .. } if allocation.contains("result")),
        "{refused}"
    );
    let buffer = exec.take_allocation(&t).unwrap();
    assert_eq!(buffer.to_vec().unwrap(), vec![7u32; n], "read by cudarc");

    // A later graph reads it (and keeps it alive): add 5 into a copy.
    let copy = zeros::<u32>(&gpu, n);
    let mut later = Graph::new(&gpu.ctx).unwrap();
    let c = later.add_memcpy(Memcpy::dtod(&buffer, &copy), &[]).unwrap();
    later
        .add_kernel(&k.add_u32, cfg(n), (n as u32, 5, &copy), &[c.id()])
        .unwrap();
    let mut later = later.instantiate().unwrap();
    later.launch(&gpu.stream).unwrap();
    assert_eq!(read_back(&gpu.stream, &copy), vec![12u32; n]);

    // The buffer is alive (ours, and held by `later`): no relaunch yet.
    assert!(matches!(
        exec.launch(&gpu.stream),
        Err(Error::Allocation { .. })
    ));
    drop(buffer);
    drop(later);
    // Gone: relaunch, on another stream too (ordered after the free on the first one).
    let other = gpu.ctx.new_stream().unwrap();
    exec.launch(&other).unwrap();
    assert_eq!(exec.read_allocation(&t).unwrap(), vec![7u32; n]);
    let again = exec.take_allocation(&t).unwrap();
    assert_eq!(again.to_vec().unwrap(), vec![7u32; n]);
}

#[test]
fn auto_free_on_launch_relaunches_a_thousand_times_with_memory_steady() {
    let _turn = turn();
    let Some(gpu) = gpu("auto_free_on_launch_relaunches_a_thousand_times_with_memory_steady")
    else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let n = 1 << 20;
    let mut g = Graph::new(&gpu.ctx).unwrap();
    g.name_next("counter");
    let t = g.add_mem_alloc::<u32>(n, &[]).unwrap();
    let set = g.add_memset(Memset::new(t, 1u32), &[t.id()]).unwrap();
    g.add_kernel(&k.add_u32, cfg(n), (n as u32, 2, &t), &[set.id()])
        .unwrap();
    let mut exec = g
        .instantiate_with(InstantiateFlags::AUTO_FREE_ON_LAUNCH, None)
        .unwrap();
    fresh_pool(&gpu);
    let before = settled(&gpu);
    exec.launch(&gpu.stream).unwrap();
    gpu.stream.synchronize().unwrap();
    let first = GraphMemory::of(&gpu.ctx).unwrap();
    for i in 1..1000 {
        exec.launch(&gpu.stream).unwrap();
        if i % 250 == 0 {
            assert_eq!(exec.read_allocation(&t).unwrap(), vec![3u32; n]);
        }
    }
    gpu.stream.synchronize().unwrap();
    let last = GraphMemory::of(&gpu.ctx).unwrap();
    println!("after 1 launch:\n{first}\nafter 1000 launches:\n{last}");
    assert_eq!(
        first.used, last.used,
        "used graph memory grew over 1000 launches"
    );
    assert_eq!(
        first.reserved_peak, last.reserved_peak,
        "reserved graph memory grew over 1000 launches"
    );
    // Taken out, the allocation is the buffer's: the next launch would allocate the same
    // addresses again, so it is refused while the buffer lives...
    let taken = exec.take_allocation(&t).unwrap();
    assert!(matches!(
        exec.launch(&gpu.stream),
        Err(Error::Allocation { .. })
    ));
    assert_eq!(taken.to_vec().unwrap(), vec![3u32; n]);
    // ...and made once it is gone, cudarc having freed it: the launch's own auto-free frees
    // only what nobody took. A buffer allocated after that free keeps its contents.
    drop(taken);
    let sentinel = DeviceBuffer::from_host(&gpu.stream, &vec![7u32; n]).unwrap();
    exec.launch(&gpu.stream).unwrap();
    assert_eq!(exec.read_allocation(&t).unwrap(), vec![3u32; n]);
    assert_eq!(
        sentinel.to_vec().unwrap(),
        vec![7u32; n],
        "the sentinel was written"
    );
    // Dropping the executable frees the last launch's allocation.
    drop(exec);
    assert_nothing_leaked(&gpu, &before, "auto-free executable dropped");
}

#[test]
fn an_executable_dropped_with_a_live_allocation_frees_it() {
    let _turn = turn();
    let Some(gpu) = gpu("an_executable_dropped_with_a_live_allocation_frees_it") else {
        return;
    };
    let before = settled(&gpu);
    let (g, t) = outliving(&gpu, 64 * MIB / 4, 3);
    let mut exec = g.instantiate().unwrap();
    exec.launch(&gpu.stream).unwrap();
    assert_eq!(exec.read_allocation(&t).unwrap()[0], 3);
    let live = settled(&gpu);
    assert!(
        live.used >= before.used + 64 * MIB as u64,
        "the live allocation is not counted:\n{live}"
    );
    drop(exec);
    assert_nothing_leaked(&gpu, &before, "executable dropped with a live allocation");
}

/// The maker of a graph allocation taken out as a buffer relaunches (allocating the same
/// addresses) only once the buffer's memory is freed, not as soon as the buffer is gone: a buffer
/// dropped while its own stream is being captured is freed by the release thread once the capture
/// is over, and a later graph dropped unlaunched with the buffer in its free node frees it the
/// same way. Until then a launch of the maker on another stream is refused; it used to go ahead,
/// ordered after that stream before the free was enqueued there (a launch allocating memory whose
/// free, and the launches that free waits for, were still to come).
#[test]
fn the_maker_relaunches_once_a_taken_buffer_is_freed_not_when_it_goes() {
    let _turn = turn();
    let Some(gpu) = gpu("the_maker_relaunches_once_a_taken_buffer_is_freed_not_when_it_goes")
    else {
        return;
    };
    let n = 1 << 16;
    fresh_pool(&gpu);
    let before = settled(&gpu);
    let relaxed = sys::CUstreamCaptureMode::CU_STREAM_CAPTURE_MODE_RELAXED;
    // The free is made by the release thread once the capture is over: the maker's launch is
    // refused until then, and then goes ahead. (Polled: waiting for all the process's releases
    // would wait on other tests of the program too.)
    let launch_once_freed = |exec: &mut GraphExec<'static>, stream: &Arc<CudaStream>| {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        loop {
            match exec.launch(stream) {
                Ok(()) => return,
                Err(Error::Allocation { .. }) if std::time::Instant::now() < deadline => {
                    std::thread::sleep(std::time::Duration::from_millis(1))
                }
                Err(e) => panic!("the release thread did not free the buffer: {e}"),
            }
        }
    };
    let (g, t) = outliving(&gpu, n, 7);
    let mut exec = g.instantiate().unwrap();
    let other = gpu.ctx.new_stream().unwrap();

    // A buffer dropped while its stream (the launch's) is captured by cudarc's own capture.
    exec.launch(&gpu.stream).unwrap();
    let buffer = exec.take_allocation(&t).unwrap();
    assert_eq!(buffer.to_vec().unwrap(), vec![7u32; n]);
    gpu.stream.begin_capture(relaxed).unwrap();
    drop(buffer);
    let refused = exec.launch(&other);
    assert!(
        matches!(refused, Err(Error::Allocation { .. })),
        "a relaunch before the dropped buffer's free is made: {refused:?}"
    );
    let _ = gpu.stream.end_capture(sys::CUgraphInstantiate_flags(0));
    launch_once_freed(&mut exec, &other);
    assert_eq!(exec.read_allocation(&t).unwrap(), vec![7u32; n]);

    // A later graph whose free node takes the buffer, dropped unlaunched while the buffer's
    // stream (now `other`) is captured.
    let buffer = exec.take_allocation(&t).unwrap();
    let mut later = Graph::new(&gpu.ctx).unwrap();
    later.add_mem_free_buffer(buffer, &[]).unwrap();
    other.begin_capture(relaxed).unwrap();
    drop(later);
    let refused = exec.launch(&gpu.stream);
    assert!(
        matches!(refused, Err(Error::Allocation { .. })),
        "a relaunch before the dropped graph's free is made: {refused:?}"
    );
    let _ = other.end_capture(sys::CUgraphInstantiate_flags(0));
    launch_once_freed(&mut exec, &gpu.stream);
    assert_eq!(exec.read_allocation(&t).unwrap(), vec![7u32; n]);
    drop(exec);
    assert_nothing_leaked(&gpu, &before, "taken buffers freed late");
}

#[test]
fn every_ordering_rule_of_allocations_is_checked_when_a_node_is_added() {
    let _turn = turn();
    let Some(gpu) = gpu("every_ordering_rule_of_allocations_is_checked_when_a_node_is_added")
    else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let n = 256;
    let scale = |g: &mut Graph<'static>, t: &GraphAlloc<f32>, deps: &[NodeId]| {
        g.add_kernel(&k.scale, cfg(n), (n as u32, 2.0, t), deps)
    };
    let rule = |e: Error, words: &[&str]| {
        let text = e.to_string();
        assert!(matches!(e, Error::Allocation { .. }), "{text}");
        for w in words {
            assert!(text.contains(w), "`{text}` does not mention `{w}`");
        }
    };

    // A use not ordered after the alloc node.
    let mut g = Graph::new(&gpu.ctx).unwrap();
    g.name_next("t");
    let t = g.add_mem_alloc::<f32>(n, &[]).unwrap();
    g.name_next("early");
    rule(
        scale(&mut g, &t, &[]).unwrap_err(),
        &["early", "`t`", "ordered after the alloc"],
    );
    // The refused node left nothing behind: the graph goes on.
    let user = scale(&mut g, &t, &[t.id()]).unwrap();

    // A free not ordered after every use.
    g.name_next("free");
    rule(
        g.add_mem_free(&t, &[t.id()]).unwrap_err(),
        &["free", "kernel#", "ordered after it"],
    );
    let free = g.add_mem_free(&t, &[user.id()]).unwrap();

    // A use after the free, and a second free.
    g.name_next("late");
    rule(
        scale(&mut g, &t, &[free.id()]).unwrap_err(),
        &["late", "freed by"],
    );
    rule(
        g.add_mem_free(&t, &[free.id()]).unwrap_err(),
        &["already freed"],
    );

    // Another graph's allocation.
    let mut other = Graph::new(&gpu.ctx).unwrap();
    let e = other.add_empty(&[]).unwrap();
    rule(
        other
            .add_kernel(&k.scale, cfg(n), (n as u32, 2.0, &t), &[e.id()])
            .unwrap_err(),
        &["another graph"],
    );
    rule(
        other.add_mem_free(&t, &[e.id()]).unwrap_err(),
        &["its own graph"],
    );

    // What CUDA refuses for graphs with memory nodes, refused up front.
    assert!(matches!(g.try_clone(), Err(Error::Invalid { .. })));
    assert!(matches!(
        other.add_child_graph(&g, &[]),
        Err(Error::Invalid { .. })
    ));
    let mut g2 = Graph::new(&gpu.ctx).unwrap();
    let t2 = g2.add_mem_alloc::<f32>(n, &[]).unwrap();
    let u2 = scale(&mut g2, &t2, &[t2.id()]).unwrap();
    g2.add_mem_free(&t2, &[u2.id()]).unwrap();
    let mut exec = g.instantiate().unwrap();
    assert!(matches!(exec.update(&g2), Err(Error::Invalid { .. })));

    // A per-node update may point a kernel at its graph's allocation only where it is live.
    let mut h = Graph::new(&gpu.ctx).unwrap();
    let a = h.add_mem_alloc::<f32>(n, &[]).unwrap();
    let b = h.add_mem_alloc::<f32>(n, &[]).unwrap();
    let on_a = h
        .add_kernel(&k.scale, cfg(n), (n as u32, 2.0, &a), &[a.id(), b.id()])
        .unwrap();
    let fa = h.add_mem_free(&a, &[on_a.id()]).unwrap();
    let after = h.add_empty(&[fa.id()]).unwrap();
    let fb = h.add_mem_free(&b, &[after.id()]).unwrap();
    let _ = fb;
    let mut hx = h.instantiate().unwrap();
    hx.set_kernel_params(on_a, cfg(n), (n as u32, 3.0, &b))
        .unwrap();
    hx.set_kernel_params(on_a, cfg(n), (n as u32, 3.0, &a))
        .unwrap();
    rule(
        hx.set_kernel_params(on_a, cfg(n), (n as u32, 3.0, &t2))
            .unwrap_err(),
        &["another graph"],
    );
    hx.launch(&gpu.stream).unwrap();
    gpu.stream.synchronize().unwrap();
}

#[test]
fn captured_stream_allocations_become_memory_nodes() {
    let _turn = turn();
    let Some(gpu) = gpu("captured_stream_allocations_become_memory_nodes") else {
        return;
    };
    let bytes = 4 * MIB;
    let n = bytes / 4;
    let before = settled(&gpu);
    // Allocated, set and freed by raw driver calls on the captured stream, as a library would:
    // the memset the capture did not record itself is checked against the memory given to the
    // capture (none) and the allocations made in it, and is admitted as writing one of those.
    let raw = Graph::capture(&gpu.stream, (), move |s, ()| -> Result<(), Error> {
        let mut ptr = 0;
        // SAFETY: an allocation of `bytes` on the captured stream, set (n 32-bit words, `bytes`
        // bytes) and freed on the same stream, in that order; nothing else uses it.
        unsafe {
            let r = sys::cuMemAllocAsync(&mut ptr, bytes, s.cu_stream());
            assert_eq!(r, sys::CUresult::CUDA_SUCCESS);
            let r = sys::cuMemsetD32Async(ptr, 1, n, s.cu_stream());
            assert_eq!(r, sys::CUresult::CUDA_SUCCESS);
            let r = sys::cuMemFreeAsync(ptr, s.cu_stream());
            assert_eq!(r, sys::CUresult::CUDA_SUCCESS);
        }
        Ok(())
    })
    .unwrap();
    // The same with the capture scope's own calls: an allocation of the capture, set, freed.
    let scoped = Graph::capture(&gpu.stream, (), move |s, ()| {
        let t = s.alloc::<u32>(n)?;
        s.memset(Memset::new(&t, 1u32))?;
        s.free(t)
    })
    .unwrap();
    for (what, g) in [("raw calls", raw), ("the scope's calls", scoped)] {
        let kinds: Vec<NodeKind> = g.nodes().map(|n| n.kind).collect();
        assert!(kinds.contains(&NodeKind::MemAlloc), "{what}: {kinds:?}");
        assert!(kinds.contains(&NodeKind::MemFree), "{what}: {kinds:?}");
        assert_eq!(kinds.len(), 3, "{what}: {kinds:?}");
        assert!(g.has_memory_nodes(), "{what}");
        assert!(
            matches!(g.try_clone(), Err(Error::Invalid { .. })),
            "{what}"
        );
        let mut exec = g.instantiate().unwrap();
        for _ in 0..3 {
            exec.launch(&gpu.stream).unwrap();
        }
        drop(exec);
    }
    assert_nothing_leaked(&gpu, &before, "captured allocations");
}

/// `Graph::try_clone` gives the clone the original's node-handle family (node handles of one
/// name the other's nodes). Cloned before either has memory nodes, each graph then adds an alloc
/// node of its own at the same index, and the two `GraphAlloc`s name the same node to both
/// graphs: each graph must still refuse the other's allocation as an operand (memory of the
/// other graph, which this graph's launch does not map), and an executable must refuse to take
/// or read it (the handle's length, not the allocation's: a `DeviceBuffer` of 2^20 elements over
/// an allocation of one).
#[test]
fn an_allocation_of_a_clone_is_not_this_graphs() {
    let _turn = turn();
    let Some(gpu) = gpu("an_allocation_of_a_clone_is_not_this_graphs") else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let n = 1 << 20;

    // A node of the clone given the original's allocation. (Not launched: it would touch
    // the original's addresses.)
    let mut a = Graph::new(&gpu.ctx).unwrap();
    let mut b = a.try_clone().unwrap();
    let big = a.add_mem_alloc::<u32>(n, &[]).unwrap();
    let small = b.add_mem_alloc::<u32>(1, &[]).unwrap();
    assert_eq!(
        NodeId::from(big),
        NodeId::from(small),
        "one node to both graphs"
    );
    let used = b.add_kernel(&k.add_u32, cfg(n), (n as u32, 1u32, &big), &[small.id()]);
    assert!(
        matches!(used, Err(Error::Allocation { .. })),
        "the clone took the original's allocation ({:#x}, {n} elements) as its own",
        big.addr()
    );

    // The original's handle taken out of the clone's executable: the length of the original's.
    let mut a = Graph::new(&gpu.ctx).unwrap();
    let mut b = a.try_clone().unwrap();
    let big = a.add_mem_alloc::<u32>(n, &[]).unwrap();
    let small = b.add_mem_alloc::<u32>(1, &[]).unwrap();
    b.add_memset(Memset::new(small, 7u32), &[small.id()])
        .unwrap();
    let mut exec = b.instantiate().unwrap();
    exec.launch(&gpu.stream).unwrap();
    match exec.take_allocation(&big) {
        // `buffer.to_vec()` (cudarc's copy of `len` elements) would read 4 MiB from a 4-byte
        // allocation; a kernel checked against `buffer.len()` would write there.
        Ok(buffer) => panic!(
            "a buffer of {} elements over the clone's allocation of 1 element",
            buffer.len()
        ),
        Err(e) => assert!(
            matches!(e, Error::Allocation { .. } | Error::ForeignNode { .. }),
            "{e}"
        ),
    }
    drop(a);
}
