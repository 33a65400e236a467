//! A cudarc allocation made inside a capture names memory the graph allocates only when it
//! runs. Kept past the closure (here through an `Arc<Mutex<..>>` the caller holds), it would be
//! a safe `CudaSlice` over memory that does not exist yet, and whose address the driver hands to
//! the next allocation once the graph is destroyed. The capture is refused, and the refused
//! graph is kept, so that the address stays reserved: these tests allocate after the refusal, in
//! every way the crate and cudarc allocate, and check that none of it lands on the escaped
//! slice's bytes (the sentinel check of a use-after-free, done on addresses, since any use of the
//! escaped slice itself would fault the context). A slice dropped inside the closure (a free node
//! of the graph) is accepted. A capture the closure also broke loses its graph at its end,
//! whatever the library does; the library takes the addresses back from the driver then.

use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use cudagraph_runtime::cudarc::driver::CudaSlice;
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::Error;
use cudagraph_tests::{gpu, Gpu};

const N: usize = 1 << 16;
const BYTES: u64 = (N * std::mem::size_of::<u32>()) as u64;

type Kept = Arc<Mutex<Option<CudaSlice<u32>>>>;

/// Held by each test from its start: they check where allocations land, and another test's
/// allocations made meanwhile could take a broken capture's addresses before the library takes
/// them back; and a capture on one thread makes the driver refuse another thread's
/// `cuStreamCreate` (which `gpu` calls).
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

fn one_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner())
}

/// Allocates `N` elements through cudarc on `stream` (in a capture: an alloc node), notes the
/// address the graph reserved in `seen` (cudarc's `device_ptr` waits on the slice's events,
/// recorded in the capture), and keeps the slice in `kept`, past the closure.
fn keep_an_allocation(
    stream: &Arc<cudagraph_runtime::cudarc::driver::CudaStream>,
    kept: &Kept,
    seen: &AtomicU64,
) -> Result<(), Error> {
    let slice = stream.alloc_zeros::<u32>(N)?;
    seen.store(
        cudagraph_runtime::cudarc::driver::DevicePtr::device_ptr(&slice, stream).0,
        Ordering::Relaxed,
    );
    *kept.lock().unwrap() = Some(slice);
    Ok(())
}

/// The escaped allocation's bytes, read from the refusal (which names the allocation by
/// address), after checking the refusal says what to do.
fn escaped_range(refusal: &Error) -> Range<u64> {
    let Error::Invalid { node, reason } = refusal else {
        panic!("expected the capture refused with Error::Invalid, got {refusal:?}");
    };
    assert!(
        reason.contains("CaptureScope::alloc") && reason.contains("inside the closure"),
        "{reason}"
    );
    let hex = node
        .strip_prefix("mem_alloc at 0x")
        .unwrap_or_else(|| panic!("the refusal names the allocation by address: {node}"));
    let start = u64::from_str_radix(hex, 16).expect("a hexadecimal address");
    start..start + BYTES
}

/// Allocations made after the refusal, every way this crate and cudarc allocate, each checked
/// to lie outside `escaped`: device buffers (cudarc's stream-ordered pool), graph allocations of
/// explicitly built graphs (launched, so that the graph pool maps memory), and allocations of a
/// capture, launched too.
fn allocate_around(gpu: &Gpu, escaped: &Range<u64>, what: &str) {
    let apart = |start: u64, kind: &str| {
        assert!(
            start + BYTES <= escaped.start || escaped.end <= start,
            "{what}: a {kind} at {start:#x} overlaps the escaped slice's bytes {:#x}..{:#x}",
            escaped.start,
            escaped.end
        );
    };
    let mut buffers = Vec::new();
    for _ in 0..16 {
        let buffer = DeviceBuffer::<u32>::zeros(&gpu.stream, N).unwrap();
        apart(buffer.addr(), "device buffer");
        buffers.push(buffer);
    }
    let mut execs = Vec::new();
    for _ in 0..8 {
        let mut graph = Graph::new(&gpu.ctx).unwrap();
        let alloc = graph.add_mem_alloc::<u32>(N, &[]).unwrap();
        graph.add_mem_free(&alloc, &[alloc.id()]).unwrap();
        apart(alloc.addr(), "graph allocation");
        let mut exec = graph.instantiate().unwrap();
        exec.launch(&gpu.stream).unwrap();
        execs.push(exec);
    }
    let seen = Arc::new(AtomicU64::new(0));
    let s2 = seen.clone();
    let graph = Graph::capture(&gpu.stream, (), move |s, ()| {
        let tmp = s.alloc::<u32>(N)?;
        s2.store(tmp.addr(), Ordering::Relaxed);
        s.memset(Memset::new(&tmp, 0u32))?;
        s.free(tmp)
    })
    .unwrap();
    apart(seen.load(Ordering::Relaxed), "capture's allocation");
    graph.instantiate().unwrap().launch(&gpu.stream).unwrap();
    gpu.stream.synchronize().unwrap();
    drop(buffers);
}

/// The escaped slice dropped by its owner: cudarc frees it on its stream (`cuMemFreeAsync` of
/// an address the kept graph reserved but never backed), recording whatever the driver says for
/// later; the context keeps working.
fn drop_escaped(gpu: &Gpu, slice: CudaSlice<u32>) {
    drop(slice);
    let recorded = gpu.ctx.check_err();
    eprintln!("the escaped slice's drop: cudarc recorded {recorded:?}");
    gpu.stream.synchronize().unwrap();
    let back = DeviceBuffer::from_host(&gpu.stream, &[7u32; 4])
        .unwrap()
        .to_vec()
        .unwrap();
    assert_eq!(
        back, [7; 4],
        "the context works after the escaped slice's drop"
    );
}

/// The slice the closure kept.
fn kept_slice(kept: &Kept) -> CudaSlice<u32> {
    kept.lock()
        .unwrap()
        .take()
        .expect("the closure kept its slice")
}

/// Allocations made `when` (see [`allocate_around`]), then the escaped slice's drop, then
/// allocations again: none lands on `escaped`.
fn stays_apart(gpu: &Gpu, escaped: &Range<u64>, slice: CudaSlice<u32>, when: &str) {
    allocate_around(gpu, escaped, when);
    drop_escaped(gpu, slice);
    allocate_around(gpu, escaped, "after the escaped slice's drop");
}

#[test]
fn a_cudarc_allocation_kept_past_its_capture_is_refused_and_its_address_never_handed_out() {
    let _alone = one_at_a_time();
    let Some(gpu) = gpu(
        "a_cudarc_allocation_kept_past_its_capture_is_refused_and_its_address_never_handed_out",
    ) else {
        return;
    };
    let kept = Kept::default();
    let k = kept.clone();
    let refused = Graph::capture(&gpu.stream, (), move |s, ()| {
        let slice = s.stream().alloc_zeros::<u32>(N)?;
        *k.lock().unwrap() = Some(slice);
        Ok::<(), Error>(())
    });
    let escaped = escaped_range(&refused.expect_err("a capture whose allocation escaped"));
    let slice = kept_slice(&kept);
    stays_apart(&gpu, &escaped, slice, "after the refusal");
}

#[test]
fn a_cudarc_allocation_kept_past_a_capture_into_a_graph_is_refused_and_keeps_the_graph() {
    let _alone = one_at_a_time();
    let Some(gpu) =
        gpu("a_cudarc_allocation_kept_past_a_capture_into_a_graph_is_refused_and_keeps_the_graph")
    else {
        return;
    };
    let kept = Kept::default();
    let k = kept.clone();
    let mut graph = Graph::new(&gpu.ctx).unwrap();
    let first = graph.add_empty(&[]).unwrap();
    let refused = graph.capture_into(&gpu.stream, &[first.id()], (), move |s, ()| {
        *k.lock().unwrap() = Some(s.stream().alloc_zeros::<u32>(N)?);
        Ok::<(), Error>(())
    });
    let escaped = escaped_range(&refused.expect_err("a capture whose allocation escaped"));
    // The graph holds the refused work: unusable (the refused instantiation drops it), and its
    // driver graph outlives it.
    assert!(
        matches!(graph.instantiate(), Err(Error::Invalid { .. })),
        "a graph holding an escaped allocation is not instantiated"
    );
    let slice = kept_slice(&kept);
    stays_apart(&gpu, &escaped, slice, "after the graph's drop");
}

#[test]
fn a_cudarc_allocation_dropped_inside_its_capture_is_a_free_node_and_accepted() {
    let _alone = one_at_a_time();
    let Some(gpu) =
        gpu("a_cudarc_allocation_dropped_inside_its_capture_is_a_free_node_and_accepted")
    else {
        return;
    };
    let out = DeviceBuffer::<u32>::from_host(&gpu.stream, &vec![1u32; N]).unwrap();
    let graph = Graph::capture(
        &gpu.stream,
        cudagraph_runtime::Mut(&out),
        move |s, mut out| {
            let tmp = s.stream().alloc_zeros::<u32>(N)?;
            s.memcpy_dtod(&tmp, &mut out)?; // out = 0, through the temporary
            drop(tmp); // a free node, ordered after the copy on this stream
            Ok::<(), Error>(())
        },
    )
    .expect("a capture whose cudarc allocation is freed inside it");
    let kinds: Vec<_> = graph.nodes().map(|n| n.kind).collect();
    assert!(
        kinds.contains(&cudagraph_runtime::NodeKind::MemAlloc)
            && kinds.contains(&cudagraph_runtime::NodeKind::MemFree),
        "the allocation and its free are nodes: {kinds:?}"
    );
    graph.instantiate().unwrap().launch(&gpu.stream).unwrap();
    assert_eq!(out.to_vec().unwrap(), vec![0u32; N]);
}

/// The driver behaviour behind the broken-capture case, through raw calls: after a capture is
/// invalidated (here by synchronizing its stream) and before it ends, the graph it recorded
/// into still lists its nodes, the allocation among them; its end destroys that graph, also
/// one the caller made and captured into, and the allocation's address goes back to the driver
/// (printed: whether the next graph allocation of its size got it).
#[test]
fn witness_a_broken_capture_keeps_its_nodes_until_its_end() {
    use cudagraph_runtime::cudarc::driver::sys;
    use sys::CUresult::{CUDA_ERROR_INVALID_VALUE, CUDA_SUCCESS};
    let _alone = one_at_a_time();
    let Some(gpu) = gpu("witness_a_broken_capture_keeps_its_nodes_until_its_end") else {
        return;
    };
    let count = |g: sys::CUgraph| {
        let mut n = 0usize;
        // SAFETY: `g` may be destroyed: the driver answers with an error then.
        let r = unsafe { sys::cuGraphGetNodes(g, std::ptr::null_mut(), &mut n) };
        (r, n)
    };
    for into_own_graph in [false, true] {
        let stream = gpu.ctx.new_stream().unwrap();
        let s = stream.cu_stream();
        // SAFETY: raw calls on a live stream of the current context, with valid out-pointers;
        // the capture is ended below.
        unsafe {
            let graph = begin_raw_capture(s, into_own_graph);
            let mut addr = 0;
            assert_eq!(
                sys::cuMemAllocAsync(&mut addr, BYTES as usize, s),
                CUDA_SUCCESS
            );
            assert_ne!(
                sys::cuStreamSynchronize(s),
                CUDA_SUCCESS,
                "forbidden in a capture"
            );
            assert_eq!(
                count(graph),
                (CUDA_SUCCESS, 1),
                "the broken capture's graph lists its alloc node before the end"
            );
            let mut ended = std::ptr::null_mut();
            assert_ne!(sys::cuStreamEndCapture(s, &mut ended), CUDA_SUCCESS);
            assert!(ended.is_null());
            assert_eq!(
                count(graph).0,
                CUDA_ERROR_INVALID_VALUE,
                "the end destroyed the broken capture's graph"
            );
            let mut fresh = std::ptr::null_mut();
            assert_eq!(sys::cuGraphCreate(&mut fresh, 0), CUDA_SUCCESS);
            let mut node = std::ptr::null_mut();
            let mut params: sys::CUDA_MEM_ALLOC_NODE_PARAMS = std::mem::zeroed();
            params.poolProps.allocType = sys::CUmemAllocationType::CU_MEM_ALLOCATION_TYPE_PINNED;
            params.poolProps.location.type_ = sys::CUmemLocationType::CU_MEM_LOCATION_TYPE_DEVICE;
            params.bytesize = BYTES as usize;
            let null = std::ptr::null();
            let r = sys::cuGraphAddMemAllocNode(&mut node, fresh, null, 0, &mut params);
            assert_eq!(r, CUDA_SUCCESS);
            eprintln!(
                "witness (captured into {}): the broken capture's allocation was at {addr:#x}; \
                 the next graph allocation of its size got {:#x} ({})",
                if into_own_graph {
                    "its own graph"
                } else {
                    "a new graph"
                },
                params.dptr,
                if params.dptr == addr {
                    "the same address"
                } else {
                    "another address"
                }
            );
            assert_eq!(sys::cuGraphDestroy(fresh), CUDA_SUCCESS);
        }
        let _ = gpu.ctx.check_err();
    }
}

/// A capture the closure breaks after keeping a cudarc allocation (here by synchronizing the
/// captured stream, which CUDA forbids in a capture): the driver destroys the graph it was
/// recording at the capture's end, so there is no graph to keep; the library lists the
/// allocation before the end and takes its address back right after it, so that no later
/// allocation gets it (another thread allocating in between would make it abort: none does).
#[test]
fn a_cudarc_allocation_kept_past_a_broken_capture_does_not_alias_later_allocations() {
    let _alone = one_at_a_time();
    let Some(gpu) =
        gpu("a_cudarc_allocation_kept_past_a_broken_capture_does_not_alias_later_allocations")
    else {
        return;
    };
    let kept = Kept::default();
    let k = kept.clone();
    let seen = Arc::new(AtomicU64::new(0));
    let s2 = seen.clone();
    let broken = Graph::capture(&gpu.stream, (), move |s, ()| {
        keep_an_allocation(s.stream(), &k, &s2)?;
        s.stream().synchronize()?;
        Ok::<(), Error>(())
    });
    assert!(
        matches!(broken, Err(Error::CaptureBroken { .. })),
        "a capture broken by a synchronize: {broken:?}"
    );
    let _ = gpu.ctx.check_err();
    let start = seen.load(Ordering::Relaxed);
    assert_ne!(start, 0, "the closure saw its allocation's address");
    let escaped = start..start + BYTES;
    let slice = kept_slice(&kept);
    stays_apart(&gpu, &escaped, slice, "after the broken capture");
}

/// The same, captured into a graph the caller made (`Graph::capture_into`): the driver
/// destroys that graph too at the broken capture's end, whoever holds it.
#[test]
fn a_cudarc_allocation_kept_past_a_broken_capture_into_a_graph_does_not_alias_later_allocations() {
    let _alone = one_at_a_time();
    let Some(gpu) = gpu(
        "a_cudarc_allocation_kept_past_a_broken_capture_into_a_graph_does_not_alias_later_allocations",
    ) else {
        return;
    };
    let kept = Kept::default();
    let k = kept.clone();
    let seen = Arc::new(AtomicU64::new(0));
    let s2 = seen.clone();
    let mut graph = Graph::new(&gpu.ctx).unwrap();
    let broken = graph.capture_into(&gpu.stream, &[], (), move |s, ()| {
        keep_an_allocation(s.stream(), &k, &s2)?;
        s.stream().synchronize()?;
        Ok::<(), Error>(())
    });
    assert!(
        matches!(broken, Err(Error::CaptureBroken { .. })),
        "a capture broken by a synchronize: {broken:?}"
    );
    let _ = gpu.ctx.check_err();
    let start = seen.load(Ordering::Relaxed);
    let escaped = start..start + BYTES;
    let slice = kept_slice(&kept);
    allocate_around(
        &gpu,
        &escaped,
        "after the broken capture into a graph (graph alive)",
    );
    drop(graph);
    allocate_around(
        &gpu,
        &escaped,
        "after the broken capture into a graph (graph dropped)",
    );
    drop_escaped(&gpu, slice);
}

/// A cudarc allocation made on a stream that joined the capture (`CudaStream::join` on the
/// captured stream: cudarc's `fork` does the same) and kept past the closure, the stream not
/// joined back: the capture's end fails (`CUDA_ERROR_STREAM_CAPTURE_UNJOINED`), and the driver
/// destroys the graph with it, though the capture was never broken before its end. The library
/// lists the allocation before the end and takes its address back after it.
#[test]
fn a_cudarc_allocation_kept_past_a_capture_left_unjoined_does_not_alias_later_allocations() {
    let _alone = one_at_a_time();
    let Some(gpu) = gpu(
        "a_cudarc_allocation_kept_past_a_capture_left_unjoined_does_not_alias_later_allocations",
    ) else {
        return;
    };
    // Made before the capture: a capture on this thread makes the driver refuse stream
    // creation elsewhere, and cudarc's `fork` would make one inside it.
    let side = gpu.ctx.new_stream().unwrap();
    let kept = Kept::default();
    let k = kept.clone();
    let seen = Arc::new(AtomicU64::new(0));
    let s2 = seen.clone();
    let side2 = side.clone();
    let failed = Graph::capture(&gpu.stream, (), move |s, ()| {
        side2.join(s.stream())?; // the side stream joins the capture
        keep_an_allocation(&side2, &k, &s2)?;
        Ok::<(), Error>(()) // and is not joined back
    });
    match &failed {
        Err(Error::CaptureBroken { code, .. }) => assert_eq!(
            code.0,
            cudagraph_runtime::cudarc::driver::sys::CUresult::CUDA_ERROR_STREAM_CAPTURE_UNJOINED,
            "{failed:?}"
        ),
        other => panic!("expected the end to fail with UNJOINED, got {other:?}"),
    }
    let _ = gpu.ctx.check_err();
    let start = seen.load(Ordering::Relaxed);
    assert_ne!(start, 0, "the closure saw its allocation's address");
    let escaped = start..start + BYTES;
    let slice = kept_slice(&kept);
    allocate_around(&gpu, &escaped, "after the unjoined capture");
    drop(slice);
    eprintln!(
        "the escaped slice's drop (on the side stream): cudarc recorded {:?}",
        gpu.ctx.check_err()
    );
    allocate_around(&gpu, &escaped, "after the escaped slice's drop");
}

/// The driver behaviour behind the unjoined case, through raw calls: a stream joined into a
/// capture and not joined back makes the end fail, and the graph (a new one, or one the caller
/// captured into) is destroyed with it or not (printed: the library takes the addresses back
/// either way, which aborts the process if the graph keeps them).
#[test]
fn witness_an_unjoined_capture_end_and_its_graph() {
    use cudagraph_runtime::cudarc::driver::sys;
    use sys::CUresult::CUDA_SUCCESS;
    let _alone = one_at_a_time();
    let Some(gpu) = gpu("witness_an_unjoined_capture_end_and_its_graph") else {
        return;
    };
    for into_own_graph in [false, true] {
        let (origin, side) = (gpu.ctx.new_stream().unwrap(), gpu.ctx.new_stream().unwrap());
        let (o, s) = (origin.cu_stream(), side.cu_stream());
        // SAFETY: raw calls on live streams of the current context, with valid out-pointers;
        // the capture is ended below.
        unsafe {
            let graph = begin_raw_capture(o, into_own_graph);
            let mut event = std::ptr::null_mut();
            assert_eq!(sys::cuEventCreate(&mut event, 0), CUDA_SUCCESS);
            assert_eq!(sys::cuEventRecord(event, o), CUDA_SUCCESS);
            assert_eq!(sys::cuStreamWaitEvent(s, event, 0), CUDA_SUCCESS);
            let mut addr = 0;
            assert_eq!(
                sys::cuMemAllocAsync(&mut addr, BYTES as usize, s),
                CUDA_SUCCESS
            );
            let mut ended = std::ptr::null_mut();
            let r = sys::cuStreamEndCapture(o, &mut ended);
            let mut n = 0usize;
            let listed = sys::cuGraphGetNodes(graph, std::ptr::null_mut(), &mut n);
            let mut side_status = sys::CUstreamCaptureStatus::CU_STREAM_CAPTURE_STATUS_NONE;
            let side_r = sys::cuStreamIsCapturing(s, &mut side_status);
            eprintln!(
                "witness (captured into {}): the end of an unjoined capture returned {r:?} and \
                 graph {ended:?}; listing the recorded graph afterwards: {listed:?} ({n} nodes); \
                 the side stream: {side_r:?} {side_status:?}",
                if into_own_graph {
                    "its own graph"
                } else {
                    "a new graph"
                },
            );
            assert_ne!(r, CUDA_SUCCESS, "an unjoined capture's end fails");
            let _ = sys::cuEventDestroy_v2(event);
        }
        let _ = gpu.ctx.check_err();
    }
}

/// Within one graph the driver may give an allocation the address of one freed before it: a
/// cudarc slice allocated after another was dropped in the closure, and kept, may sit at the
/// dropped one's address, whose free node must not count as its free. The capture is refused.
#[test]
fn a_kept_cudarc_allocation_at_the_address_of_one_dropped_before_it_is_refused() {
    let _alone = one_at_a_time();
    let Some(gpu) =
        gpu("a_kept_cudarc_allocation_at_the_address_of_one_dropped_before_it_is_refused")
    else {
        return;
    };
    for ours_first in [false, true] {
        let kept = Kept::default();
        let k = kept.clone();
        let addrs = Arc::new(Mutex::new((0u64, 0u64)));
        let a2 = addrs.clone();
        let refused = Graph::capture(&gpu.stream, (), move |s, ()| {
            use cudagraph_runtime::cudarc::driver::DevicePtr;
            let first = if ours_first {
                // This crate's own allocation, freed in the capture.
                let tmp = s.alloc::<u32>(N)?;
                let at = tmp.addr();
                s.free(tmp)?;
                at
            } else {
                let tmp = s.stream().alloc_zeros::<u32>(N)?;
                let at = tmp.device_ptr(s.stream()).0;
                drop(tmp); // a free node
                at
            };
            let slice = s.stream().alloc_zeros::<u32>(N)?;
            let second = slice.device_ptr(s.stream()).0;
            *a2.lock().unwrap() = (first, second);
            *k.lock().unwrap() = Some(slice);
            Ok::<(), Error>(())
        });
        let (first, second) = *addrs.lock().unwrap();
        eprintln!(
            "witness (first allocation {}): dropped at {first:#x}, kept at {second:#x} ({})",
            if ours_first {
                "CaptureScope::alloc"
            } else {
                "cudarc's"
            },
            if first == second {
                "the same address"
            } else {
                "another address"
            }
        );
        let escaped = escaped_range(&refused.expect_err("a capture whose allocation escaped"));
        assert_eq!(
            escaped.start, second,
            "the kept allocation is the one named"
        );
        let slice = kept_slice(&kept);
        allocate_around(&gpu, &escaped, "after the refusal");
        drop_escaped(&gpu, slice);
    }
}

/// A cudarc allocation captured into a conditional body and kept past the closure: CUDA allows
/// no memory node in a body, so either the driver refuses the allocation (nothing escapes: the
/// closure gets the error) or the library refuses the recorded node; in the second case the
/// body's graph goes with the conditional node when the graph drops it, and its addresses must
/// not reach a later allocation. Prints which happened.
#[test]
fn a_cudarc_allocation_captured_into_a_conditional_body_does_not_alias_later_allocations() {
    let _alone = one_at_a_time();
    let Some(gpu) = gpu(
        "a_cudarc_allocation_captured_into_a_conditional_body_does_not_alias_later_allocations",
    ) else {
        return;
    };
    let kept = Kept::default();
    let seen = Arc::new(AtomicU64::new(0));
    let mut graph = Graph::new(&gpu.ctx).unwrap();
    let handle = graph.conditional_handle(Some(1)).unwrap();
    let (k, s2) = (kept.clone(), seen.clone());
    let added = graph.add_conditional(handle, Condition::If, &[], |bodies| {
        let captured = bodies[0].capture_into(&gpu.stream, &[], (), move |s, ()| {
            keep_an_allocation(s.stream(), &k, &s2)
        });
        eprintln!("the body's capture: {captured:?}");
        captured.map(drop)
    });
    eprintln!("the conditional node: {added:?}");
    assert!(added.is_err(), "a body holding an allocation is refused");
    let _ = gpu.ctx.check_err();
    let slice = kept.lock().unwrap().take();
    let start = seen.load(Ordering::Relaxed);
    let Some(slice) = slice else {
        eprintln!("the driver refused the allocation in the body: nothing escaped");
        return;
    };
    let escaped = start..start + BYTES;
    allocate_around(&gpu, &escaped, "after the refused body (graph alive)");
    drop(graph);
    allocate_around(&gpu, &escaped, "after the refused body (graph dropped)");
    drop_escaped(&gpu, slice);
}

/// The same inside a capture: a conditional node the capture adds (`CaptureScope::add_conditional`)
/// whose body is captured into with a cudarc allocation kept past that closure. The body keeps
/// its driver graph, so the node stays in the capture's graph and that graph is refused and kept
/// when the capture ends, whether the closure returns the error or drops it.
#[test]
fn a_cudarc_allocation_captured_into_a_body_inside_a_capture_does_not_alias_later_allocations() {
    let _alone = one_at_a_time();
    let Some(gpu) = gpu(
        "a_cudarc_allocation_captured_into_a_body_inside_a_capture_does_not_alias_later_allocations",
    ) else {
        return;
    };
    for propagate in [true, false] {
        let kept = Kept::default();
        let seen = Arc::new(AtomicU64::new(0));
        let side = gpu.ctx.new_stream().unwrap();
        let (k, s2) = (kept.clone(), seen.clone());
        let outer = Graph::capture(&gpu.stream, (), move |s, ()| {
            let handle = s.conditional_handle(Some(1))?;
            let (k, s2, side) = (k.clone(), s2.clone(), side.clone());
            let added = s.add_conditional(handle, Condition::If, move |bodies| {
                bodies[0]
                    .capture_into(&side, &[], (), move |t, ()| {
                        keep_an_allocation(t.stream(), &k, &s2)
                    })
                    .map(drop)
            });
            assert!(added.is_err(), "the conditional node is refused: {added:?}");
            if propagate {
                added
            } else {
                Ok(())
            }
        });
        match &outer {
            Err(Error::Invalid { node, .. }) => {
                eprintln!("propagated: {propagate}; the capture refused at {node}")
            }
            other => panic!("expected the capture refused, got {other:?}"),
        }
        let _ = gpu.ctx.check_err();
        let Some(slice) = kept.lock().unwrap().take() else {
            eprintln!("the driver refused the allocation in the body: nothing escaped");
            continue;
        };
        let start = seen.load(Ordering::Relaxed);
        let escaped = start..start + BYTES;
        stays_apart(&gpu, &escaped, slice, "after the refused capture");
    }
}

/// Begins a thread-local capture of `stream` through raw calls, into a new graph or into one
/// made for it (`into_own_graph`), and returns the graph it records into.
///
/// # Safety
/// `stream` is a live stream of the current context, not being captured; the caller ends the
/// capture.
unsafe fn begin_raw_capture(
    stream: cudagraph_runtime::cudarc::driver::sys::CUstream,
    into_own_graph: bool,
) -> cudagraph_runtime::cudarc::driver::sys::CUgraph {
    use cudagraph_runtime::cudarc::driver::sys;
    use sys::CUresult::CUDA_SUCCESS;
    let mode = sys::CUstreamCaptureMode::CU_STREAM_CAPTURE_MODE_THREAD_LOCAL;
    let null = std::ptr::null_mut();
    // SAFETY: the caller's promise; valid out-pointers, no dependencies.
    unsafe {
        if into_own_graph {
            let mut own = null;
            assert_eq!(sys::cuGraphCreate(&mut own, 0), CUDA_SUCCESS);
            let (no_deps, no_data) = (std::ptr::null(), std::ptr::null());
            let r = sys::cuStreamBeginCaptureToGraph(stream, own, no_deps, no_data, 0, mode);
            assert_eq!(r, CUDA_SUCCESS);
        } else {
            assert_eq!(sys::cuStreamBeginCapture_v2(stream, mode), CUDA_SUCCESS);
        }
        let (mut status, mut graph) = (
            sys::CUstreamCaptureStatus::CU_STREAM_CAPTURE_STATUS_NONE,
            null,
        );
        let r = sys::cuStreamGetCaptureInfo_v3(
            stream,
            &mut status,
            std::ptr::null_mut(),
            &mut graph,
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            std::ptr::null_mut(),
        );
        assert_eq!(r, CUDA_SUCCESS);
        graph
    }
}
