//! What a capture closure may do that the crate must survive without undefined behaviour: a
//! warm-up (`Replay::new`) that panics after it enqueued work, a closure that ends the capture
//! itself with cudarc's `CudaStream::end_capture` (the process aborts: what it got cannot be
//! taken back), also when it then begins and breaks another capture, and a stream that joined
//! the capture through cudarc.

use std::cell::RefCell;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use cudagraph_runtime::cudarc::driver::{sys, CudaGraph, CudaStream};

use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{Error, Mut, Replay};
use cudagraph_tests::child::{aborted, is_child, run_alone};
use cudagraph_tests::soundness::{overwritten, sentinel, Kernels, N, SPIN};
use cudagraph_tests::{cfg, gpu};

/// A warm-up (`Replay::new` running the work eagerly) that panics after it enqueued work: the
/// panic leaves the warm-up before its wait for the work, its launch never noted by the memory
/// model, and the buffer's last owner (the operands) goes with the unwind. Unless the warm-up
/// waits for its work on the way out, the buffer is freed while the eager kernel still runs, and
/// the sentinel allocated next on the buffer's stream gets the kernel's writes.
///
/// (The same closure returning an error is the control: the warm-up waits then. The panic need
/// not be the closure's own: a view handed to a stream outside the warm-up panics in the crate,
/// after whatever was enqueued before it.)
#[test]
fn a_warm_up_that_panics_after_enqueuing_waits_for_its_work() {
    let Some(gpu) = gpu("a_warm_up_that_panics_after_enqueuing_waits_for_its_work") else {
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
/// (`fork` joins only on return): the warm-up waits for its side streams too on the way out,
/// else the work on the side stream would run after nothing the memory model waits for.
#[test]
fn a_warm_up_that_panics_inside_a_fork_waits_for_the_side_stream() {
    let Some(gpu) = gpu("a_warm_up_that_panics_inside_a_fork_waits_for_the_side_stream") else {
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
/// `CudaStream::end_capture` ends *this crate's* capture from inside its closure: it
/// instantiates what was recorded so far and hands the closure a `CudaGraph` it may keep (a
/// thread-local) and launch whenever it likes, though nothing in it holds the memory the work
/// was recorded on (nor the host functions or kernels). The crate cannot take it back, so it
/// ends the process when the closure returns; the test runs the attack in a child process. (Were
/// the process to go on, the kept graph would zero the sentinel allocated where the freed buffer
/// was.)
#[test]
fn a_closure_that_ends_its_capture_itself_aborts_the_process() {
    end_the_capture_and_keep_the_graph(
        "a_closure_that_ends_its_capture_itself_aborts_the_process",
        |_| Ok(()),
    );
}

/// The same attack covered up: the closure ends the capture, keeps the graph, then begins a
/// capture of its own on the stream and breaks it (a synchronizing call). The stream then reads
/// as a broken capture with no id, as it would had the closure broken *this crate's* capture,
/// which is an error, not an abort. The crate tells the two apart by a stream of its own that
/// joined its capture and records nothing: it is out of the capture once the capture has
/// ended, and still in it (broken) when the closure only broke it. So this process aborts too.
#[test]
fn a_closure_that_ends_its_capture_and_breaks_another_aborts_the_process() {
    end_the_capture_and_keep_the_graph(
        "a_closure_that_ends_its_capture_and_breaks_another_aborts_the_process",
        |stream| {
            stream.begin_capture(sys::CUstreamCaptureMode::CU_STREAM_CAPTURE_MODE_THREAD_LOCAL)?;
            // Refused inside a capture, which it breaks.
            assert!(stream.synchronize().is_err());
            Ok(())
        },
    );
}

/// Test `test` of this module: a capture whose closure records a memset, ends the capture with
/// cudarc's `end_capture`, keeps the graph it got, then does `then` on the stream. Run in a
/// child process, which must abort when the closure returns; in the child, the lines after the
/// capture are the use-after-free the abort prevents (the kept graph zeroing the sentinel
/// allocated where the freed buffer was).
fn end_the_capture_and_keep_the_graph(test: &str, then: fn(&CudaStream) -> Result<(), Error>) {
    let Some(gpu) = gpu(test) else {
        return;
    };
    if !is_child(test) {
        drop(gpu); // the child opens the GPU itself
        assert_aborted_for_ending_the_capture(&format!("capture_misuse::{test}"));
        return;
    }
    let y = DeviceBuffer::<u32>::zeros(&gpu.stream, N).unwrap();
    let outcome = Graph::capture(&gpu.stream, Mut(y), move |s, mut y| {
        s.memset_zeros(&mut y)?; // cudarc's memset, on the view: recorded
        let ended = s.end_capture(sys::CUgraphInstantiate_flags(0))?;
        KEPT.with(|k| *k.borrow_mut() = ended);
        then(s.stream())
    });
    let s = sentinel(&gpu.stream, N);
    if let Some(kept) = KEPT.with(|k| k.borrow_mut().take()) {
        kept.launch().unwrap();
    }
    panic!(
        "the capture returned ({outcome:?}); the sentinel: {} overwritten",
        overwritten(&gpu.stream, &s)
    );
}

/// The control of the attack above: a closure that breaks *this crate's* capture with the same
/// synchronizing call gets an error naming the broken capture, and the process goes on.
#[test]
fn a_closure_that_breaks_its_capture_gets_an_error() {
    let Some(gpu) = gpu("a_closure_that_breaks_its_capture_gets_an_error") else {
        return;
    };
    let y = DeviceBuffer::<u32>::zeros(&gpu.stream, N).unwrap();
    let outcome = Graph::capture(&gpu.stream, Mut(y), |s, mut y| {
        s.memset_zeros(&mut y)?;
        assert!(s.synchronize().is_err());
        Ok::<(), Error>(())
    });
    let e = outcome.expect_err("a broken capture is an error");
    assert!(matches!(e, Error::CaptureBroken { .. }), "{e}");
    // The stream is usable again.
    gpu.stream.synchronize().unwrap();
}

/// Every capture has a witness (a stream of the crate's own that joins it), kept for the
/// thread's next capture: a capture begun inside another one's closure gets a witness of its own
/// (a stream can join one capture only), and both graphs record what their closures did, round
/// after round, on this thread and on another.
#[test]
fn nested_and_repeated_captures_each_have_a_witness_of_their_own() {
    let Some(gpu) = gpu("nested_and_repeated_captures_each_have_a_witness_of_their_own") else {
        return;
    };
    let inner_stream = gpu.ctx.new_stream().unwrap();
    let round = |outer_value: u32, inner_value: u32| {
        let x = DeviceBuffer::<u32>::zeros(&gpu.stream, N).unwrap();
        let y = DeviceBuffer::<u32>::zeros(&gpu.stream, N).unwrap();
        let inner = Arc::new(std::sync::Mutex::new(None));
        let kept = inner.clone();
        let inner_stream = inner_stream.clone();
        let outer = Graph::capture(&gpu.stream, Mut(x.clone()), move |s, x| {
            s.memset(Memset::new(&x, outer_value))?;
            let graph = Graph::capture(&inner_stream, Mut(y.clone()), move |s, y| {
                s.memset(Memset::new(&y, inner_value))?;
                Ok::<(), Error>(())
            })?;
            *kept.lock().unwrap() = Some((graph, y.clone()));
            Ok::<(), Error>(())
        })
        .unwrap();
        let (inner, y) = inner.lock().unwrap().take().expect("the inner capture ran");
        outer.instantiate().unwrap().launch(&gpu.stream).unwrap();
        inner.instantiate().unwrap().launch(&gpu.stream).unwrap();
        assert_eq!(x.to_vec().unwrap(), vec![outer_value; N]);
        assert_eq!(y.to_vec().unwrap(), vec![inner_value; N]);
    };
    for r in 0..3 {
        round(10 + r, 20 + r);
    }
    std::thread::scope(|t| {
        t.spawn(|| round(7, 8));
    });
    round(30, 40);
}

/// The same call inside `Graph::capture_into`: `cuStreamEndCapture` of a capture begun with
/// `cuStreamBeginCaptureToGraph` returns the graph captured into, so cudarc's `end_capture`
/// wraps *this crate's* driver graph in a `CudaGraph`, which destroys it on drop, while the
/// crate's `Graph` keeps using it (a use after free of a driver handle, and a double
/// `cuGraphDestroy`): the process ends when the closure returns.
#[test]
fn a_closure_that_ends_its_capture_into_a_graph_itself_aborts_the_process() {
    let test = "a_closure_that_ends_its_capture_into_a_graph_itself_aborts_the_process";
    let Some(gpu) = gpu(test) else {
        return;
    };
    if !is_child(test) {
        drop(gpu);
        assert_aborted_for_ending_the_capture(&format!("capture_misuse::{test}"));
        return;
    }
    let mut graph = Graph::new(&gpu.ctx).unwrap();
    let outcome = graph.capture_into(&gpu.stream, &[], (), |s, ()| {
        let ended = s.end_capture(sys::CUgraphInstantiate_flags(0))?;
        KEPT.with(|k| *k.borrow_mut() = ended);
        Ok::<(), Error>(())
    });
    // Not reached. Two owners of one driver graph: both leaked, so as not to crash here.
    std::mem::forget(KEPT.with(|k| k.borrow_mut().take()));
    std::mem::forget(graph);
    panic!("the capture into the graph returned ({outcome:?})");
}

/// Runs the test at `path` in a child process and asserts it was ended by the library's abort
/// for a capture its closure ended.
fn assert_aborted_for_ending_the_capture(path: &str) {
    let child = run_alone(path);
    let said = String::from_utf8_lossy(&child.stderr);
    assert!(
        aborted(&child) && said.contains("ended the stream capture itself"),
        "the child should abort for the capture its closure ended; it ended {:?}, saying:\n{said}",
        child.status
    );
}

/// A stream that joined the capture through cudarc (`other.join(s.stream())`: a wait on an
/// event recorded in the capture) is in the capture as the driver sees it, but not one the
/// capture joins back itself (before a free of a viewed allocation, at its end): a view used
/// there would let cudarc's memset write an allocation that the free node, not ordered after it,
/// may have freed. The view refuses that stream (a panic: cudarc asks for the address where no
/// error can be returned), as it refuses a stream outside the capture.
#[test]
fn a_view_refuses_a_stream_that_joined_the_capture_through_cudarc() {
    let Some(gpu) = gpu("a_view_refuses_a_stream_that_joined_the_capture_through_cudarc") else {
        return;
    };
    let other = gpu.ctx.new_stream().unwrap();
    let n = 1024;
    let captured = catch_unwind(AssertUnwindSafe(|| {
        Graph::capture(&gpu.stream, (), move |s, ()| {
            let mut a = s.alloc::<u32>(n)?; // on the first stream
            other.join(s.stream())?; // `other` joins the capture (cudarc's event wait)
            other.memset_zeros(&mut a.view_mut())?; // refused: not one of the capture's streams
            s.free(a)?;
            s.stream().join(&other)?;
            Ok::<(), Error>(())
        })
    }));
    let panic = captured.expect_err("the view was used on a stream the capture does not join");
    let said = panic
        .downcast_ref::<String>()
        .map(String::as_str)
        .unwrap_or_default();
    assert!(said.contains("not one of its capture's streams"), "{said}");
    // The capture ended cleanly all the same: the stream can be used (and captured) again.
    let y = DeviceBuffer::from_host(&gpu.stream, &vec![1u32; n]).unwrap();
    let graph = Graph::capture(&gpu.stream, Mut(y.clone()), |s, mut y| {
        s.memset_zeros(&mut y)?;
        Ok::<(), Error>(())
    })
    .unwrap();
    graph.instantiate().unwrap().launch(&gpu.stream).unwrap();
    assert_eq!(y.to_vec().unwrap(), vec![0; n]);
}
