//! What breaks a stream capture, and what the capture then says: each way of synchronizing (or
//! otherwise breaking CUDA's capture rules) inside a capture closure is reported as
//! `Error::CaptureBroken` with the driver's code and the failed call as far as it is known, or,
//! for this crate's own calls, refused as `Error::Capturing` naming the call before anything
//! breaks. After each, the stream and the context are usable: a normal launch computes what it
//! should.
//!
//! The tests run one at a time: they break captures on purpose, and one of them synchronizes the
//! whole context.
//!
//! cudarc's event tracking stays on (its default) in every test: the memory a capture works on is
//! given to it, and its views carry no cudarc event. One test is about what tracking does to a
//! cudarc buffer that was not given to the capture.

use std::sync::{Arc, Mutex, MutexGuard};

use cudagraph_runtime::cudarc::driver::{result, sys, CudaStream};
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{Error, Mut};
use cudagraph_tests::capture::scale_on;
use cudagraph_tests::{cfg, read_back, zeros, Gpu, Kernels};

const N: usize = 4096;

fn one_at_a_time() -> MutexGuard<'static, ()> {
    static TURN: Mutex<()> = Mutex::new(());
    TURN.lock().unwrap_or_else(|e| e.into_inner())
}

/// The capture failed as broken by a call with `code`, named as containing `call`.
#[track_caller]
fn assert_broken(
    outcome: Result<Graph<'static>, Error>,
    codes: &[sys::CUresult],
    call: &str,
) -> &'static str {
    match outcome {
        Err(Error::CaptureBroken {
            call: named,
            code,
            hint,
        }) => {
            assert!(
                codes.contains(&code.0),
                "code {:?}, expected one of {codes:?}",
                code.0
            );
            assert!(named.contains(call), "the failed call is named `{named}`");
            let shown = Error::CaptureBroken {
                call: named,
                code,
                hint,
            }
            .to_string();
            assert!(shown.contains(&format!("{:?}", code.0)), "{shown}");
            hint
        }
        other => panic!("expected Error::CaptureBroken, got {other:?}"),
    }
}

/// The call was refused as `Error::Capturing`, naming `call`.
#[track_caller]
fn assert_refused<T: std::fmt::Debug>(outcome: Result<T, Error>, call: &str) {
    match outcome {
        Err(Error::Capturing { what }) => assert!(what.starts_with(call), "{what}"),
        other => panic!("{call}: expected Error::Capturing, got {other:?}"),
    }
}

/// After a failed capture: no error is left for cudarc's next call, `stream` is out of capture
/// mode, and a graph launched into it computes what it should.
#[track_caller]
fn assert_usable(gpu: &Gpu, stream: &Arc<CudaStream>, k: &Kernels) {
    gpu.ctx
        .check_err()
        .expect("no capture error left for cudarc's next call");
    assert_eq!(
        stream.capture_status().unwrap(),
        sys::CUstreamCaptureStatus::CU_STREAM_CAPTURE_STATUS_NONE
    );
    let y = zeros::<f32>(gpu, N);
    let mut graph = Graph::new(&gpu.ctx).unwrap();
    let set = graph.add_memset(Memset::new(&y, 2.0f32), &[]).unwrap();
    graph
        .add_kernel(&k.scale, cfg(N), (N as u32, 3.0f32, &y), &[set.id()])
        .unwrap();
    let mut exec = graph.instantiate().unwrap();
    exec.launch(stream).unwrap();
    assert_eq!(
        y.to_vec().unwrap(),
        vec![6.0f32; N],
        "a launch after the capture"
    );
}

/// Opens the GPU for `test`, one test at a time.
fn setup(test: &str) -> Option<(MutexGuard<'static, ()>, Gpu, Kernels)> {
    let turn = one_at_a_time();
    let gpu = cudagraph_tests::gpu(test)?;
    let k = Kernels::load(&gpu.ctx);
    Some((turn, gpu, k))
}

#[test]
fn synchronizing_the_captured_stream_is_named() {
    let Some((_turn, gpu, k)) = setup("synchronizing_the_captured_stream_is_named") else {
        return;
    };
    let y = zeros::<f32>(&gpu, N);
    y.copy_from(&vec![1.0; N]).unwrap();
    let k2 = k.clone();
    let outcome = Graph::capture(&gpu.stream, Mut(&y), move |s, y| {
        scale_on(s, &k2, 5.0, &y)?;
        s.synchronize() // cuStreamSynchronize on a capturing stream
    });
    let hint = assert_broken(
        outcome,
        &[sys::CUresult::CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED],
        "a cudarc driver call inside the capture",
    );
    assert!(hint.contains("synchronize"), "{hint}");
    assert_eq!(read_back(&gpu.stream, &y), vec![1.0f32; N], "not run");
    assert_usable(&gpu, &gpu.stream, &k);
}

#[test]
fn an_ignored_failure_is_reported_by_the_end_of_the_capture() {
    let Some((_turn, gpu, k)) = setup("an_ignored_failure_is_reported_by_the_end_of_the_capture")
    else {
        return;
    };
    let outcome = Graph::capture(&gpu.stream, (), |s, ()| {
        let _ = s.synchronize(); // breaks the capture; the error is dropped
        Ok::<(), Error>(())
    });
    let hint = assert_broken(
        outcome,
        &[sys::CUresult::CUDA_ERROR_STREAM_CAPTURE_INVALIDATED],
        "cuStreamEndCapture",
    );
    assert!(
        hint.contains("not returned by the capture closure"),
        "{hint}"
    );
    assert_usable(&gpu, &gpu.stream, &k);
}

#[test]
fn synchronizing_the_context_is_named() {
    let Some((_turn, gpu, k)) = setup("synchronizing_the_context_is_named") else {
        return;
    };
    let outcome = Graph::capture(&gpu.stream, (), |s, ()| {
        s.context().synchronize() // cuCtxSynchronize while a stream of it is captured
    });
    assert_broken(
        outcome,
        &[sys::CUresult::CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED],
        "a cudarc driver call inside the capture",
    );
    assert_usable(&gpu, &gpu.stream, &k);
}

/// Witness: a context synchronize on another thread, while this thread captures a stream of
/// the context in thread-local mode, is refused there and breaks this thread's capture. (Why the
/// test harness never synchronizes the context when it opens the GPU for a test: tests of one
/// module run at the same time, and some capture.)
#[test]
fn witness_a_context_synchronize_on_another_thread_breaks_a_capture() {
    let Some((_turn, gpu, k)) =
        setup("witness_a_context_synchronize_on_another_thread_breaks_a_capture")
    else {
        return;
    };
    let stream = gpu.ctx.new_stream().unwrap();
    stream
        .begin_capture(sys::CUstreamCaptureMode::CU_STREAM_CAPTURE_MODE_THREAD_LOCAL)
        .unwrap();
    let ctx = gpu.ctx.clone();
    let synchronized = std::thread::spawn(move || {
        ctx.bind_to_thread().unwrap();
        // SAFETY: the context is current on this thread.
        unsafe { sys::cuCtxSynchronize() }
    })
    .join()
    .unwrap();
    // SAFETY: `stream` is being captured, by this thread; the graph (if any) is destroyed.
    let ended = unsafe {
        let mut graph = std::ptr::null_mut();
        let r = sys::cuStreamEndCapture(stream.cu_stream(), &mut graph);
        if !graph.is_null() {
            sys::cuGraphDestroy(graph);
        }
        r
    };
    assert_eq!(
        (synchronized, ended),
        (
            sys::CUresult::CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED,
            sys::CUresult::CUDA_ERROR_STREAM_CAPTURE_INVALIDATED
        ),
        "(the other thread's cuCtxSynchronize, this thread's cuStreamEndCapture)"
    );
    assert_usable(&gpu, &stream, &k);
}

#[test]
fn querying_an_event_recorded_in_the_capture_is_named() {
    let Some((_turn, gpu, k)) = setup("querying_an_event_recorded_in_the_capture_is_named") else {
        return;
    };
    let event = gpu.ctx.new_event(None).unwrap();
    let outcome = Graph::capture(&gpu.stream, (), move |s, ()| {
        event.record(s)?;
        event.try_is_complete().map(drop) // cuEventQuery of a captured event
    });
    let hint = assert_broken(
        outcome,
        &[sys::CUresult::CUDA_ERROR_CAPTURED_EVENT],
        "a cudarc driver call inside the capture",
    );
    assert!(hint.contains("event"), "{hint}");
    assert_usable(&gpu, &gpu.stream, &k);
}

#[test]
fn the_legacy_stream_beside_a_blocking_capture_is_named() {
    let Some((_turn, gpu, k)) = setup("the_legacy_stream_beside_a_blocking_capture_is_named")
    else {
        return;
    };
    // A blocking stream (cudarc makes non-blocking ones): the legacy stream synchronizes with it.
    let raw = result::stream::create(result::stream::StreamKind::Default).unwrap();
    // SAFETY: `raw` is a stream of this context, destroyed at the end of the test, after the
    // wrapper and everything that uses it.
    let blocking = unsafe { gpu.ctx.wrap_borrowed_stream(raw) };
    let buf = zeros::<f32>(&gpu, N);
    let legacy = gpu.ctx.default_stream();
    let stream0 = legacy.clone();
    let outcome = Graph::capture(&blocking, Mut(&buf), move |_, mut buf| {
        stream0.memset_zeros(&mut buf) // work on stream 0 while `blocking` is captured
    });
    let hint = assert_broken(
        outcome,
        &[sys::CUresult::CUDA_ERROR_STREAM_CAPTURE_IMPLICIT],
        "a cudarc driver call inside the capture",
    );
    assert!(hint.contains("default_stream"), "{hint}");
    assert_usable(&gpu, &blocking, &k);

    // The legacy stream itself is refused before anything is begun.
    let refused = Graph::capture(&legacy, (), |_, ()| Ok::<(), Error>(()));
    match refused {
        Err(Error::Invalid { node, reason }) => {
            assert_eq!(node, "Graph::capture");
            assert!(reason.contains("legacy default stream"), "{reason}");
        }
        other => panic!("expected Error::Invalid, got {other:?}"),
    }
    drop(blocking);
    gpu.stream.synchronize().unwrap();
    // SAFETY: our stream; nothing uses it any more.
    unsafe { result::stream::destroy(raw) }.unwrap();
}

#[test]
fn a_stream_joined_by_hand_and_left_out_is_named() {
    let Some((_turn, gpu, k)) = setup("a_stream_joined_by_hand_and_left_out_is_named") else {
        return;
    };
    let other = gpu.ctx.new_stream().unwrap();
    let event = gpu.ctx.new_event(None).unwrap();
    let forked = other.clone();
    let outcome = Graph::capture(&gpu.stream, (), move |s, ()| {
        // A fork by hand (not `CaptureScope::fork`), never joined back, with work of its own
        // there (a cudarc allocation, zeroed and freed on it: the capture's views refuse a
        // stream joined by hand).
        event.record(s)?;
        forked.wait(&event)?;
        drop(forked.alloc_zeros::<f32>(N)?);
        Ok::<(), Error>(())
    });
    let hint = assert_broken(
        outcome,
        &[sys::CUresult::CUDA_ERROR_STREAM_CAPTURE_UNJOINED],
        "cuStreamEndCapture",
    );
    assert!(hint.contains("CaptureScope::fork"), "{hint}");
    assert_usable(&gpu, &gpu.stream, &k);
    assert_usable(&gpu, &other, &k);
}

#[test]
fn cudarc_event_tracking_inside_a_capture_is_named() {
    let _turn = one_at_a_time();
    let Some(gpu) = cudagraph_tests::gpu("cudarc_event_tracking_inside_a_capture_is_named") else {
        return;
    };
    // Event tracking stays on (cudarc's default): the slice's last write, outside the capture,
    // was marked with an event that its next use inside the capture waits for. The slice is not
    // given to the capture (the closure reaches it through a mutex it owns a share of), so this
    // is what keeps a capture from writing memory it was not given.
    let k = Kernels::load(&gpu.ctx);
    let slice = gpu.stream.clone_htod(&vec![1.0f32; N]).unwrap();
    let slice = Arc::new(Mutex::new(slice));
    let undeclared = slice.clone();
    let outcome = Graph::capture(&gpu.stream, (), move |s, ()| {
        let mut slice = undeclared.lock().unwrap();
        s.memset_zeros(&mut *slice)
    });
    let hint = assert_broken(
        outcome,
        &[
            sys::CUresult::CUDA_ERROR_STREAM_CAPTURE_ISOLATION,
            sys::CUresult::CUDA_ERROR_STREAM_CAPTURE_INVALIDATED,
        ],
        "cudarc",
    );
    assert!(hint.contains("event tracking"), "{hint}");
    let slice = slice.lock().unwrap();
    assert_eq!(read_back(&gpu.stream, &*slice), vec![1.0f32; N], "not run");
    assert_usable(&gpu, &gpu.stream, &k);
}

#[test]
fn this_crates_calls_refuse_inside_a_capture_and_leave_it_intact() {
    let Some((_turn, gpu, k)) =
        setup("this_crates_calls_refuse_inside_a_capture_and_leave_it_intact")
    else {
        return;
    };
    let host = HostBuffer::<f32>::zeroed(&gpu.ctx, N).unwrap();
    let dev = zeros::<f32>(&gpu, N);
    dev.copy_from(&vec![4.0; N]).unwrap();
    // An executable launched before the capture, on the stream about to be captured.
    let mut graph = Graph::new(&gpu.ctx).unwrap();
    graph.add_memcpy(Memcpy::dtoh(&dev, &host), &[]).unwrap();
    let mut exec = graph.instantiate().unwrap();
    exec.launch(&gpu.stream).unwrap();
    // The closure is kept by the graph ('static): it owns clones of the buffers (the same
    // memory) and a share of the executable, which the test launches again afterwards.
    let exec = Arc::new(Mutex::new(exec));

    let (k2, host2, dev2, exec2) = (k.clone(), host.clone(), dev.clone(), exec.clone());
    let captured = Graph::capture(&gpu.stream, Mut(&dev), move |s, view| {
        // Each is refused before any driver call: the capture goes on.
        assert_refused(host2.read().map(drop), "HostBuffer::read");
        assert_refused(host2.write().map(drop), "HostBuffer::write");
        assert_refused(host2.to_vec(), "HostBuffer::read");
        assert_refused(
            HostBuffer::<f32>::zeroed(s.context(), 4),
            "HostBuffer::zeroed",
        );
        assert_refused(dev2.to_vec(), "DeviceBuffer::to_vec");
        assert_refused(dev2.copy_from(&[0.0; N]), "DeviceBuffer::copy_from");
        assert_refused(dev2.access().map(drop), "DeviceBuffer::access");
        assert_refused(DeviceBuffer::<f32>::zeros(s, 4), "DeviceBuffer::zeros");
        assert_refused(
            DeviceBuffer::from_host(s, &[1.0f32]),
            "DeviceBuffer::from_host",
        );
        let mut exec = exec2.lock().unwrap();
        assert_refused(exec.launch(s), "GraphExec::launch");
        assert_refused(exec.upload(s), "GraphExec::upload");
        scale_on(s, &k2, 0.5, &view)
    })
    .expect("the refusals left the capture intact");
    assert_eq!(captured.len(), 1);

    let mut run = captured.instantiate().unwrap();
    run.launch(&gpu.stream).unwrap();
    assert_eq!(read_back(&gpu.stream, &dev), vec![2.0f32; N]);
    // The executable launched before the capture still launches, and copies what is there now.
    exec.lock().unwrap().launch(&gpu.stream).unwrap();
    assert_eq!(host.to_vec().unwrap(), vec![2.0f32; N]);

    // Returned from the closure, a refusal is the capture's error.
    let host2 = host.clone();
    let outcome = Graph::capture(&gpu.stream, (), move |_, ()| {
        let sum: f32 = host2.read()?.iter().sum();
        assert_eq!(sum, 0.0, "not reached");
        Ok::<(), Error>(())
    });
    match outcome {
        Err(Error::Capturing { what }) => assert!(what.starts_with("HostBuffer::read"), "{what}"),
        other => panic!("expected Error::Capturing, got {other:?}"),
    }
    assert_usable(&gpu, &gpu.stream, &k);
}

#[test]
fn dropping_this_crates_values_inside_a_capture_leaves_it_intact() {
    let Some((_turn, gpu, k)) =
        setup("dropping_this_crates_values_inside_a_capture_leaves_it_intact")
    else {
        return;
    };
    let y = zeros::<f32>(&gpu, N);
    let mut graph = Graph::new(&gpu.ctx).unwrap();
    graph.add_memset(Memset::new(&y, 1.0f32), &[]).unwrap();
    let mut exec = graph.instantiate().unwrap();
    exec.launch(&gpu.stream).unwrap();
    let unused = Graph::new(&gpu.ctx).unwrap();
    let host = HostBuffer::<f32>::zeroed(&gpu.ctx, N).unwrap();
    let temp = zeros::<f32>(&gpu, N);

    // The closure is kept by the graph and may be called again (`FnMut`): it owns the values and
    // takes them out to drop them, at its first (and only) call, inside the capture.
    let mut held = Some((exec, unused, host, temp));
    let k2 = k.clone();
    let captured = Graph::capture(&gpu.stream, Mut(&y), move |s, y| {
        // Destroying an executable, a graph, page-locked and device memory here would make
        // driver calls CUDA forbids on the capturing thread: they are left to the release
        // thread.
        let (exec, unused, host, temp) = held.take().expect("called once");
        drop(exec);
        drop(unused);
        drop(host);
        drop(temp);
        scale_on(s, &k2, 3.0, &y)
    })
    .expect("the drops left the capture intact");
    assert_eq!(captured.len(), 1);
    let mut run = captured.instantiate().unwrap();
    run.launch(&gpu.stream).unwrap();
    // The memset ran before the capture (launched then), the captured kernel now.
    assert_eq!(read_back(&gpu.stream, &y), vec![3.0f32; N]);
    assert_usable(&gpu, &gpu.stream, &k);
}
