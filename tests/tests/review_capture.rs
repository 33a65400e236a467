//! Soundness review of stream capture (branch `rev-capture`): safe programs that the review found
//! to misbehave. Each test states what it expects of a sound crate, so it fails while the hole is
//! open. GPU tests, unrun at the time of writing (no GPU on the review machine).

use std::cell::RefCell;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use cudagraph_runtime::cudarc::driver::{sys, CudaGraph};

use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{Error, Mut, NodeInfo, NodeKind, Replay};
use cudagraph_tests::capture::reaches;
use cudagraph_tests::soundness::{overwritten, sentinel, Kernels, N, SPIN};
use cudagraph_tests::{cfg, gpu};

/// A warm-up (`Replay::new` running the work eagerly) that panics after it enqueued work: the
/// panic leaves `warm_up` before its `stream.synchronize()`, and the warm-up's holdings, whose
/// launch was never noted (`note_launch` runs only when the closure returns), unregister from
/// the buffer as if nothing had run. The buffer's last owner (the operands) goes with the unwind,
/// and its memory is freed on its home stream at once, while the eager kernel still runs on the
/// warm-up's stream: the sentinel allocated next on the home stream gets the kernel's writes.
///
/// (The same closure returning an error instead is sound: `warm_up` synchronizes then. The
/// panic need not be the closure's own: a view handed to a stream outside the warm-up panics in
/// the crate, after whatever was enqueued before it.)
#[test]
fn a_warm_up_that_panics_after_enqueuing_leaves_its_work_running_on_freed_memory() {
    let Some(gpu) =
        gpu("a_warm_up_that_panics_after_enqueuing_leaves_its_work_running_on_freed_memory")
    else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    // The buffer's home is `gpu.stream`; the warm-up runs on `work`.
    let work = gpu.ctx.new_stream().unwrap();

    // Control: the closure fails with an error after enqueuing: `warm_up` waits for the work.
    {
        let y = DeviceBuffer::<u32>::zeros(&gpu.stream, N).unwrap();
        let late = k.late.clone();
        let outcome = Replay::new(&work, 1, Mut(y), move |s, y| {
            s.launch(&late, cfg(N), (N as u32, SPIN, 7u32, &y))?;
            Err::<(), Error>(Error::Invalid {
                node: "test".into(),
                reason: "fails after enqueuing".into(),
            })
        });
        assert!(outcome.is_err());
        let s = sentinel(&gpu.stream, N);
        assert_eq!(
            overwritten(&gpu.stream, &s),
            0,
            "control: an error is waited for"
        );
    }

    // The attack: the same closure panics instead.
    let y = DeviceBuffer::<u32>::zeros(&gpu.stream, N).unwrap();
    let late = k.late.clone();
    let panicked = catch_unwind(AssertUnwindSafe(|| {
        let _ = Replay::new(&work, 1, Mut(y), move |s, y| {
            s.launch(&late, cfg(N), (N as u32, SPIN, 7u32, &y))?;
            panic!("after the eager launch");
            #[allow(unreachable_code)]
            Ok::<(), Error>(())
        });
    }));
    assert!(panicked.is_err());
    let s = sentinel(&gpu.stream, N);
    assert_eq!(
        overwritten(&gpu.stream, &s),
        0,
        "the warm-up's kernel wrote memory freed under it (the sentinel's)"
    );
}

/// A panic inside `CaptureScope::fork` during a warm-up skips the join of the side stream
/// (`fork` joins only on return), and the warm-up never joins its forks at the end (a capture
/// does, `Sequence::join_forks`). With an earlier iteration noted as a launch, the holdings'
/// completion marker is recorded on the warm-up's first stream only: the work on the side
/// stream is after nothing the memory model waits for.
#[test]
fn a_warm_up_that_panics_inside_a_fork_leaves_the_side_stream_running_on_freed_memory() {
    let Some(gpu) =
        gpu("a_warm_up_that_panics_inside_a_fork_leaves_the_side_stream_running_on_freed_memory")
    else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let work = gpu.ctx.new_stream().unwrap();
    let side: Arc<_> = gpu.ctx.new_stream().unwrap();
    let y = DeviceBuffer::<u32>::zeros(&gpu.stream, N).unwrap();
    let late = k.late.clone();
    let panicked = catch_unwind(AssertUnwindSafe(|| {
        let mut round = 0;
        let _ = Replay::new(&work, 2, Mut(y), move |s, y| {
            round += 1;
            if round == 1 {
                return Ok::<(), Error>(());
            }
            s.fork(&side, |t| {
                t.launch(&late, cfg(N), (N as u32, SPIN, 7u32, &y))?;
                panic!("inside the fork, after the eager launch on the side stream");
                #[allow(unreachable_code)]
                Ok::<(), Error>(())
            })
        });
    }));
    assert!(panicked.is_err());
    let s = sentinel(&gpu.stream, N);
    assert_eq!(
        overwritten(&gpu.stream, &s),
        0,
        "the side stream's kernel wrote memory freed under it (the sentinel's)"
    );
}

thread_local! {
    /// Where a capture closure keeps the graph cudarc's `end_capture` gave it.
    static KEPT: RefCell<Option<CudaGraph>> = const { RefCell::new(None) };
}

/// The capture scope dereferences to the `Arc<CudaStream>` being captured, and cudarc's safe
/// `CudaStream::end_capture` (which takes `self: &Arc<CudaStream>`) ends *this crate's* capture
/// from inside its closure: it instantiates what was recorded so far and hands the closure a
/// `CudaGraph` it may keep (a thread-local) and launch whenever it likes. Nothing in it holds the
/// memory the work was recorded on: the capture then fails at its end (`cuStreamEndCapture` on a
/// stream no longer capturing), the operands are dropped, the buffer freed, and a launch of the
/// kept graph writes whatever the pool gave that memory to next (here, the sentinel).
///
/// The same closure could keep host functions recorded with `CaptureScope::host_fn` (freed with
/// the failed capture's record, then called by the kept graph's host node) or kernels whose
/// module is unloaded with the last `Kernel`.
#[test]
fn cudarc_end_capture_inside_the_closure_hands_out_a_graph_that_holds_nothing() {
    let Some(gpu) =
        gpu("cudarc_end_capture_inside_the_closure_hands_out_a_graph_that_holds_nothing")
    else {
        return;
    };
    let y = DeviceBuffer::<u32>::zeros(&gpu.stream, N).unwrap();
    let outcome = Graph::capture(&gpu.stream, Mut(y), |s, mut y| {
        s.memset_zeros(&mut y)?; // cudarc's memset, on the view: recorded
        let ended = s.end_capture(sys::CUgraphInstantiate_flags(0))?;
        KEPT.with(|k| *k.borrow_mut() = ended);
        Ok::<(), Error>(())
    });
    // The crate reports the capture as failed (its end found no capture)...
    assert!(outcome.is_err(), "{outcome:?}");
    // ... and the buffer, whose last owner was the operands, is freed.
    let s = sentinel(&gpu.stream, N);
    let kept = KEPT.with(|k| k.borrow_mut().take());
    let kept = kept.expect("cudarc's end_capture gave a graph");
    kept.launch().unwrap();
    assert_eq!(
        overwritten(&gpu.stream, &s),
        0,
        "a graph recorded by this crate's capture wrote freed memory (the sentinel's)"
    );
}

/// The same call inside `Graph::capture_into`: `cuStreamEndCapture` of a capture begun with
/// `cuStreamBeginCaptureToGraph` returns the graph captured into, so cudarc's `end_capture`
/// wraps *this crate's* driver graph in a `CudaGraph`, which destroys it on drop. The crate's
/// `Graph` keeps using and finally destroys the same handle: a use after free of a driver handle
/// (and a double `cuGraphDestroy`) whichever owner goes first.
#[test]
fn cudarc_end_capture_inside_capture_into_takes_ownership_of_the_crates_graph() {
    let Some(gpu) =
        gpu("cudarc_end_capture_inside_capture_into_takes_ownership_of_the_crates_graph")
    else {
        return;
    };
    let mut graph = Graph::new(&gpu.ctx).unwrap();
    let raw = graph.raw();
    let outcome = graph.capture_into(&gpu.stream, &[], (), |s, ()| {
        let ended = s.end_capture(sys::CUgraphInstantiate_flags(0))?;
        KEPT.with(|k| *k.borrow_mut() = ended);
        Ok::<(), Error>(())
    });
    let kept = KEPT.with(|k| k.borrow_mut().take());
    let shared = kept.as_ref().is_some_and(|k| k.cu_graph() == raw);
    // Two owners of one handle: neither may destroy it in this test process (a double destroy
    // may crash the driver), so both are leaked before the verdict.
    std::mem::forget(kept);
    std::mem::forget(graph);
    assert!(
        !shared,
        "cudarc's CudaGraph owns the driver graph of a live `Graph` ({outcome:?})"
    );
}

/// A view of a capture allocation admits every stream in the capture, also one that joined it
/// through cudarc (`other.join(&s)`: a wait on an event recorded in the capture), which the
/// capture's record of its streams (`Sequence::forked`, filled by `CaptureScope::fork` only)
/// does not list. `CaptureScope::free` of a viewed allocation joins "every stream of the
/// capture" from that record only, so the free node is not ordered after cudarc's memset on the
/// joined stream. The closure joins `other` back by hand (cudarc's `s.join(&other)`), the end
/// succeeds, and the graph frees the allocation beside a write to it: in a launch the memset may
/// write memory the graph has freed (and may have given to a later allocation of the graph).
#[test]
fn a_free_of_a_viewed_allocation_waits_for_a_stream_joined_through_cudarc() {
    let Some(gpu) = gpu("a_free_of_a_viewed_allocation_waits_for_a_stream_joined_through_cudarc")
    else {
        return;
    };
    let other = gpu.ctx.new_stream().unwrap();
    let n = 1024;
    let graph = Graph::capture(&gpu.stream, (), move |s, ()| {
        let mut a = s.alloc::<u32>(n)?; // on the first stream
        other.join(s.stream())?; // `other` joins the capture (cudarc's event wait)
        other.memset_zeros(&mut a.view_mut())?; // admitted: `other` is in the capture
        s.free(a)?; // "after every stream of the capture"
        s.stream().join(&other)?; // joined back by hand, so the end succeeds
        Ok::<(), Error>(())
    })
    .unwrap();
    let nodes: Vec<NodeInfo<'_>> = graph.nodes().collect();
    let of = |kind: NodeKind| -> Vec<usize> {
        (0..nodes.len())
            .filter(|&i| nodes[i].kind == kind)
            .collect()
    };
    let free = of(NodeKind::MemFree);
    assert_eq!(free.len(), 1, "one free node:\n{}", graph.to_dot());
    let writes: Vec<usize> = (0..nodes.len())
        .filter(|&i| !matches!(nodes[i].kind, NodeKind::MemAlloc | NodeKind::MemFree))
        .collect();
    assert_eq!(writes.len(), 1, "one memset node:\n{}", graph.to_dot());
    assert!(
        reaches(&nodes, writes[0], free[0]),
        "the allocation may be freed while cudarc's memset on the joined stream writes it:\n{}",
        graph.to_dot()
    );
}
