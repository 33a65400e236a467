//! The memory model where streams are captured or refused: releases and access guards while a
//! stream is captured, cudarc slices taken over or given to a graph then, launches the driver
//! refuses, and the per-thread default stream. Tests of `memory_model`'s kind (sentinels after
//! the drop, spinning kernels), in a module of their own.

use std::sync::Arc;
use std::time::{Duration, Instant};

use cudagraph_runtime::cudarc::driver::{
    sys, CudaSlice, CudaStream, DriverError, PinnedHostSlice, PushKernelArg,
};
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::Error;
use cudagraph_tests::{cfg, gpu, zeros, Gpu};

use crate::memory_model::*;

#[test]
fn releases_wait_for_a_capture_on_the_launch_stream_to_end() {
    // Another thread captures the stream the executable last launched into, when memory must be
    // released: no completion marker can be recorded there (it would be captured, not run). An
    // update that would release memory is refused; dropping the executable leaves the release to
    // the runtime's thread, which finishes it once the capture has ended.
    let _serial = one_at_a_time();
    let Some(gpu) = gpu("releases_wait_for_a_capture_on_the_launch_stream_to_end") else {
        return;
    };
    let k = Late::load(&gpu.ctx);
    let launch_stream = gpu.ctx.new_stream().unwrap();
    let n = 1 << 14;
    let (y, z): (DeviceBuffer<f32>, DeviceBuffer<f32>) = (zeros(&gpu, n), zeros(&gpu, n));
    let cfg_n = cfg(n);
    let mut graph = Graph::new(&gpu.ctx).unwrap();
    let node = graph
        .add_kernel(&k.fill, cfg_n, (n as u32, SPIN, 8.0f32, &y), &[])
        .unwrap();
    let mut exec = graph.instantiate().unwrap();
    exec.launch(&launch_stream).unwrap();

    // The capturing thread: begins, waits to be told, ends. (CUDA forbids calls such as
    // destroying an executable on the thread that captures.)
    let (began_tx, began_rx) = std::sync::mpsc::channel();
    let (end_tx, end_rx) = std::sync::mpsc::channel::<()>();
    let capturer = {
        let stream = launch_stream.clone();
        std::thread::spawn(move || {
            let mode = sys::CUstreamCaptureMode::CU_STREAM_CAPTURE_MODE_THREAD_LOCAL;
            let began = stream.begin_capture(mode);
            began_tx.send(began.is_ok()).unwrap();
            end_rx.recv().unwrap();
            stream
                .end_capture(sys::CUgraphInstantiate_flags(0))
                .map(|graph| graph.is_some())
        })
    };
    assert!(began_rx.recv().unwrap(), "beginning the capture");
    match exec.set_kernel_params(node, cfg_n, (n as u32, SPIN, 8.0f32, &z)) {
        Err(Error::Capturing { .. }) => {}
        other => panic!("expected Error::Capturing, got {other:?}"),
    }
    drop(exec);
    drop(y);
    end_tx.send(()).unwrap();
    let ended = capturer.join().unwrap();
    assert!(ended.is_ok(), "ending the (empty) capture: {ended:?}");
    // Only now can the release be ordered after the launch.
    let s = sentinel(&gpu.stream, n);
    assert_sentinel(&gpu, "buffer released after a capture", &s);
    drop(z);
}

#[test]
fn a_guard_on_one_thread_holds_off_launches_on_another() {
    let _serial = one_at_a_time();
    let Some(gpu) = gpu("a_guard_on_one_thread_holds_off_launches_on_another") else {
        return;
    };
    let k = Late::load(&gpu.ctx);
    let n = 1 << 12;
    let y: DeviceBuffer<f32> = zeros(&gpu, n);
    let host = HostBuffer::<f32>::zeroed(&gpu.ctx, n).unwrap();
    let (graph, _) = fill_then_copy(&gpu, &k, (&y, &host), 0u64, 2.0f32);
    let exec = graph.instantiate().unwrap();
    let (held_tx, held_rx) = std::sync::mpsc::channel();
    let (release_tx, release_rx) = std::sync::mpsc::channel::<()>();
    let stream = gpu.stream.clone();
    let launcher = std::thread::spawn(move || {
        let mut exec = exec;
        held_rx.recv().unwrap();
        let refused = exec.launch(&stream);
        release_tx.send(()).unwrap();
        (exec, refused)
    });
    let reading = host.read().unwrap();
    held_tx.send(()).unwrap();
    release_rx.recv().unwrap();
    drop(reading);
    let (mut exec, refused) = launcher.join().unwrap();
    assert!(
        matches!(refused, Err(Error::BufferInUse { .. })),
        "a launch on another thread during a host read: {refused:?}"
    );
    exec.launch(&gpu.stream).unwrap();
    assert!(host.to_vec().unwrap().iter().all(|&v| v == 2.0));
}

/// Runs `f` while `stream` is captured by cudarc's own (safe) capture, as a program capturing
/// its cudarc work does around it. The capture's end is not checked: a launch refused inside it
/// may have invalidated it.
fn while_captured<R>(stream: &Arc<CudaStream>, f: impl FnOnce() -> R) -> R {
    let mode = sys::CUstreamCaptureMode::CU_STREAM_CAPTURE_MODE_THREAD_LOCAL;
    stream.begin_capture(mode).expect("beginning a capture");
    let out = f();
    let _ = stream.end_capture(sys::CUgraphInstantiate_flags(0));
    out
}

/// Floats in the buffers of the tests of a write made late on a second stream.
const LATE_N: usize = 1 << 14;

/// What the tests of a write made late on a second stream share: the kernels, a buffer's own
/// stream (`home`), a second stream (`other`), a page-locked output of `LATE_N` floats, and 7s in
/// page-locked memory to write (a copy from them waits for nothing on the host).
struct LateWrite {
    k: Late,
    home: Arc<CudaStream>,
    other: Arc<CudaStream>,
    out: HostBuffer<f32>,
    sevens: PinnedHostSlice<f32>,
}

impl LateWrite {
    fn new(gpu: &Gpu) -> Self {
        Self {
            k: Late::load(&gpu.ctx),
            home: gpu.ctx.new_stream().unwrap(),
            other: gpu.ctx.new_stream().unwrap(),
            out: HostBuffer::<f32>::zeroed(&gpu.ctx, LATE_N).unwrap(),
            sevens: cudagraph_tests::pinned(&gpu.ctx, &vec![7.0f32; LATE_N]),
        }
    }

    /// Keeps `stream` busy for ~50 ms (a late fill of a buffer of its own); the executable, to
    /// keep alive until `stream` is done.
    fn keep_busy(&self, gpu: &Gpu, stream: &Arc<CudaStream>) -> GraphExec<'static> {
        let busy = DeviceBuffer::<f32>::zeros(stream, LATE_N).unwrap();
        let mut spin = Graph::new(&gpu.ctx).unwrap();
        let args = (LATE_N as u32, SPIN, 1.0f32, &busy);
        spin.add_kernel(&self.k.fill, cfg(LATE_N), args, &[])
            .unwrap();
        let mut spin = spin.instantiate().unwrap();
        spin.launch(stream).unwrap();
        spin
    }

    /// An executable that copies `y` into `out`.
    fn copy_out(&self, gpu: &Gpu, y: &DeviceBuffer<f32>) -> GraphExec<'static> {
        let mut graph = Graph::new(&gpu.ctx).unwrap();
        graph.add_memcpy(Memcpy::dtoh(y, &self.out), &[]).unwrap();
        graph.instantiate().unwrap()
    }

    /// A cudarc slice of `home`'s, overwritten with 7s on `other` after ~50 ms of other work
    /// there (cudarc records that write with its event tracking); the busy executable, to keep
    /// alive until `other` is done.
    fn slice_written_late(&self, gpu: &Gpu) -> (CudaSlice<f32>, GraphExec<'static>) {
        let mut slice = self.home.alloc_zeros::<f32>(LATE_N).unwrap();
        let spin = self.keep_busy(gpu, &self.other);
        self.other.memcpy_htod(&self.sevens, &mut slice).unwrap();
        (slice, spin)
    }

    /// Panics unless `out` holds 7s (`what` says what read them too early).
    fn assert_sevens(&self, what: &str) {
        let got = self.out.to_vec().unwrap();
        if let Some(i) = got.iter().position(|&v| v != 7.0) {
            panic!(
                "{what} before the write queued on another stream: [{i}] = {}",
                got[i]
            );
        }
    }
}

#[test]
fn a_launch_the_driver_refuses_leaves_its_waits_to_the_next_launch() {
    // The first launch of an executable waits for the work queued on its buffers' own streams.
    // A launch into a stream that cudarc captures is refused by the driver, after that wait was
    // made in the captured stream (for a buffer whose own stream it is: no call at all); the next
    // launch, into another stream, must still wait. Before the fix it did not: the copy below
    // read `y` before the write queued on `y`'s stream had landed.
    let _serial = one_at_a_time();
    let Some(gpu) = gpu("a_launch_the_driver_refuses_leaves_its_waits_to_the_next_launch") else {
        return;
    };
    let t = LateWrite::new(&gpu);
    let y = DeviceBuffer::<f32>::zeros(&t.home, LATE_N).unwrap();
    let mut exec = t.copy_out(&gpu, &y);

    // `y`'s own stream is busy for ~50 ms, then `y` is overwritten with 7s there, through its
    // access guard.
    let spin = t.keep_busy(&gpu, &t.home);
    {
        let mut access = y.access().unwrap();
        let stream = access.stream().clone();
        stream
            .memcpy_htod(&t.sevens, &mut access.view_mut())
            .unwrap();
    }

    let refused = while_captured(&t.home, || exec.launch(&t.home));
    assert!(
        matches!(refused, Err(Error::Capturing { .. })),
        "a launch into a stream being captured: {refused:?}"
    );
    exec.launch(&t.other).unwrap();
    t.assert_sevens("the launch read `y`");
    drop(spin);
    gpu.ctx.synchronize().unwrap();
}

#[test]
fn an_access_guard_dropped_while_its_buffers_stream_is_captured_still_orders_its_work() {
    // Work enqueued through an access guard on another stream than the buffer's own is joined
    // into the buffer's stream when the guard is dropped (cudarc's event tracking), and launches
    // wait for that stream. A guard dropped while that stream is captured (by cudarc here; by
    // another thread's capture alike) cannot join there: before the fix the join was skipped,
    // and the launch below read `y` before the late write of 7s through the guard had landed.
    let _serial = one_at_a_time();
    let Some(gpu) =
        gpu("an_access_guard_dropped_while_its_buffers_stream_is_captured_still_orders_its_work")
    else {
        return;
    };
    let t = LateWrite::new(&gpu);
    let y = DeviceBuffer::<f32>::zeros(&t.home, LATE_N).unwrap();
    let mut exec = t.copy_out(&gpu, &y);

    // `other` is busy for ~50 ms; then `y` is overwritten with 7s there, through the guard.
    let spin = t.keep_busy(&gpu, &t.other);
    let mut access = y.access().unwrap();
    t.other
        .memcpy_htod(&t.sevens, &mut access.view_mut())
        .unwrap();
    while_captured(&t.home, || drop(access));

    // The access ends once the capture is over (on the release thread): until then the launch
    // is refused, never made ahead of the write.
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        match exec.launch(&t.home) {
            Err(Error::BufferInUse { .. }) if Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(1));
            }
            launched => break launched.unwrap(),
        }
    }
    t.assert_sevens("the launch read `y`, written through its guard on another stream,");
    drop(spin);
    gpu.ctx.synchronize().unwrap();
}

#[test]
fn a_cudarc_slice_taken_over_while_its_stream_is_captured_still_orders_its_work() {
    // `DeviceBuffer::from(slice)` joins the work cudarc tracks on the slice (its uses on other
    // streams) into the slice's own stream, which launches wait for. While that stream is
    // captured (by cudarc here; by another thread's capture alike) the join was recorded into
    // the capture instead of made: the launch below read `y` before the late write of 7s.
    let _serial = one_at_a_time();
    let Some(gpu) =
        gpu("a_cudarc_slice_taken_over_while_its_stream_is_captured_still_orders_its_work")
    else {
        return;
    };
    let t = LateWrite::new(&gpu);
    let (slice, spin) = t.slice_written_late(&gpu);
    let y = while_captured(&t.home, || DeviceBuffer::from(slice));

    t.copy_out(&gpu, &y).launch(&t.home).unwrap();
    t.assert_sevens("the launch read `y`");
    drop(spin);
    gpu.ctx.synchronize().unwrap();
}

#[test]
fn a_cudarc_slice_taken_over_after_an_error_was_stored_still_orders_its_work() {
    // cudarc's `CudaStream::wait` hands out an error stored in the context (by any earlier call;
    // `CudaContext::record_err` is public) and returns without waiting, and its event tracking
    // stores that error back: before the fix `DeviceBuffer::from` then skipped joining the
    // slice's work on other streams silently, and the launch below read `y` before the late
    // write of 7s.
    let _serial = one_at_a_time();
    let Some(gpu) =
        gpu("a_cudarc_slice_taken_over_after_an_error_was_stored_still_orders_its_work")
    else {
        return;
    };
    let t = LateWrite::new(&gpu);
    let (slice, spin) = t.slice_written_late(&gpu);
    let stored = sys::cudaError_enum::CUDA_ERROR_UNKNOWN;
    gpu.ctx.record_err::<()>(Err(DriverError(stored)));
    let y = DeviceBuffer::from(slice);
    // The error is still there for whoever asks next.
    assert_eq!(gpu.ctx.check_err(), Err(DriverError(stored)));

    t.copy_out(&gpu, &y).launch(&t.home).unwrap();
    t.assert_sevens("the launch read `y`");
    drop(spin);
    gpu.ctx.synchronize().unwrap();
}

#[test]
fn a_cudarc_slice_given_to_a_graph_while_its_stream_is_captured_is_refused() {
    // A borrowed cudarc slice given to a node makes its own stream wait for its uses on other
    // streams (cudarc's event tracking), and the launches wait for that stream. While that
    // stream is captured, that wait would be recorded into the capture, not made: before the fix
    // the node was accepted, and its launch read the slice before the late write of 7s.
    let _serial = one_at_a_time();
    let Some(gpu) = gpu("a_cudarc_slice_given_to_a_graph_while_its_stream_is_captured_is_refused")
    else {
        return;
    };
    let t = LateWrite::new(&gpu);
    let (slice, spin) = t.slice_written_late(&gpu);
    cudagraph_runtime::scope(|sc| {
        let copy_out = || {
            let mut graph = sc.graph(&gpu.ctx).unwrap();
            let added = graph.add_memcpy(Memcpy::dtoh(&slice, &t.out), &[]);
            added.map(|node| (graph, node))
        };
        let added = while_captured(&t.home, copy_out);
        if let Ok((graph, node)) = added {
            // Show the race the node allows.
            graph.instantiate().unwrap().launch(&t.home).unwrap();
            panic!(
                "a node took a cudarc slice while its stream was captured ({node:?}); its launch \
                 read [0] = {} (7 once the write on the other stream has landed)",
                t.out.to_vec().unwrap()[0]
            );
        }
        assert!(
            matches!(added, Err(Error::Capturing { .. })),
            "expected Error::Capturing, got {:?}",
            added.map(|(_, node)| node)
        );

        // After the capture the same node is taken, and its launch waits for the write.
        let (graph, _) = copy_out().unwrap();
        graph.instantiate().unwrap().launch(&t.home).unwrap();
        t.assert_sevens("the launch read the slice");
        Ok::<_, Error>(())
    })
    .unwrap();
    drop(spin);
    gpu.ctx.synchronize().unwrap();
}

#[test]
fn a_relaunch_the_driver_refuses_leaves_the_next_one_after_the_taken_buffers_free() {
    // An allocation taken out of an executable (`take_allocation`), used by a late writer on its
    // stream, then dropped: cudarc frees it there, behind the writer. The maker's relaunch on
    // another stream must wait for that free (it allocates the same addresses again). A relaunch
    // into the free's stream while cudarc captures it is refused by the driver; before the fix
    // the maker then counted the free as waited for, and its next launch, on another stream,
    // wrote its new allocation while the late writer of the freed buffer still ran: the writer's
    // 5s landed in the maker's allocation.
    let _serial = one_at_a_time();
    let Some(gpu) =
        gpu("a_relaunch_the_driver_refuses_leaves_the_next_one_after_the_taken_buffers_free")
    else {
        return;
    };
    let k = Late::load(&gpu.ctx);
    let n = 1 << 14;
    let home = gpu.ctx.new_stream().unwrap();
    let other = gpu.ctx.new_stream().unwrap();
    let mut maker = Graph::new(&gpu.ctx).unwrap();
    let t = maker.add_mem_alloc::<f32>(n, &[]).unwrap();
    maker
        .add_kernel(&k.fill, cfg(n), (n as u32, 0, 1.0f32, t), &[t.id()])
        .unwrap();
    let mut maker = maker.instantiate().unwrap();
    maker.launch(&home).unwrap();
    let taken = maker.take_allocation(&t).unwrap();

    let mut late = Graph::new(&gpu.ctx).unwrap();
    late.add_kernel(&k.fill, cfg(n), (n as u32, SPIN, 5.0f32, &taken), &[])
        .unwrap();
    let mut late = late.instantiate().unwrap();
    late.launch(&home).unwrap();
    drop(late);
    drop(taken); // freed on `home`, after the late writer

    let refused = while_captured(&home, || maker.launch(&home));
    assert!(
        matches!(refused, Err(Error::Capturing { .. })),
        "a relaunch into a stream being captured: {refused:?}"
    );
    maker.launch(&other).unwrap();
    gpu.ctx.synchronize().unwrap();
    let again = maker.take_allocation(&t).unwrap();
    let got = again.to_vec().unwrap();
    if let Some(i) = got.iter().position(|&v| v != 1.0) {
        panic!(
            "the late writer of the freed buffer wrote the relaunch's allocation: [{i}] = {}",
            got[i]
        );
    }
}

#[test]
fn a_second_access_guard_of_one_allocation_is_refused_not_waited_for() {
    // `DeviceBuffer::access` holds the allocation while its guard lives. A second guard on the
    // same thread (directly, through `to_vec` / `copy_from`, or through another part of the
    // buffer) used to wait for the first one forever; it is refused, as `HostBuffer`'s guards
    // are, and works again once the first guard is dropped.
    let _serial = one_at_a_time();
    let Some(gpu) = gpu("a_second_access_guard_of_one_allocation_is_refused_not_waited_for") else {
        return;
    };
    let y = DeviceBuffer::<f32>::zeros(&gpu.stream, 8).unwrap();
    let part = y.slice(4..8);
    let first = y.access().unwrap();
    for (what, second) in [
        ("access", y.access().map(drop)),
        ("to_vec", y.to_vec().map(drop)),
        ("copy_from", y.copy_from(&[1.0; 8])),
        ("a part's access", part.access().map(drop)),
    ] {
        assert!(
            matches!(second, Err(Error::BufferInUse { .. })),
            "{what} while a guard lives: {second:?}"
        );
    }
    // From another thread too, without waiting.
    let refused = std::thread::scope(|s| s.spawn(|| y.to_vec().map(drop)).join().unwrap());
    assert!(
        matches!(refused, Err(Error::BufferInUse { .. })),
        "{refused:?}"
    );
    drop(first);
    y.copy_from(&[2.0; 8]).unwrap();
    assert_eq!(y.to_vec().unwrap(), vec![2.0; 8]);
}

/// Whether `result` is the refusal of the per-thread default stream ([`Error::Invalid`]).
fn refused_per_thread<T: std::fmt::Debug>(result: cudagraph_runtime::Result<T>) -> bool {
    matches!(result, Err(Error::Invalid { reason, .. }) if reason.contains("per-thread default stream"))
}

#[test]
fn the_per_thread_default_stream_is_refused_where_the_memory_model_would_keep_it() {
    // Its handle names another stream on each thread, while the memory model keeps the streams
    // of launches, of buffers and of device graphs' uploads to record events on later, from
    // whichever thread needs them: such an event would mark that thread's stream.
    let _serial = one_at_a_time();
    let Some(gpu) =
        gpu("the_per_thread_default_stream_is_refused_where_the_memory_model_would_keep_it")
    else {
        return;
    };
    let k = Late::load(&gpu.ctx);
    let per_thread = gpu.ctx.per_thread_stream();
    let y = DeviceBuffer::<f32>::zeros(&gpu.stream, 32).unwrap();
    let mut graph = Graph::new(&gpu.ctx).unwrap();
    graph
        .add_kernel(&k.fill, cfg(32), (32u32, 0u64, 1.0f32, &y), &[])
        .unwrap();
    let mut exec = graph.try_clone().unwrap().instantiate().unwrap();
    assert!(refused_per_thread(exec.launch(&per_thread)));
    // Refused before anything: the executable launches elsewhere as before.
    exec.launch(&gpu.stream).unwrap();
    assert_eq!(y.to_vec().unwrap(), vec![1.0; 32]);
    assert!(refused_per_thread(
        graph.instantiate_for_device_launch(&per_thread)
    ));
    assert!(refused_per_thread(DeviceBuffer::<f32>::zeros(
        &per_thread,
        32
    )));
    assert!(refused_per_thread(DeviceBuffer::from_host(
        &per_thread,
        &[1.0f32; 32]
    )));
    let mut borrowed = per_thread.alloc_zeros::<f32>(32).unwrap();
    cudagraph_runtime::scope(|s| {
        let mut graph = s.graph(&gpu.ctx).unwrap();
        let added = graph.add_kernel(&k.fill, cfg(32), (32u32, 0u64, 1.0f32, &mut borrowed), &[]);
        assert!(refused_per_thread(added));
    });
}

#[test]
fn a_cudarc_slice_of_the_per_thread_stream_is_taken_over_on_a_stream_of_its_own() {
    // The slice's own stream is another thread's per-thread default stream, which a launch from
    // this thread cannot wait for through the handle: the buffer gets a stream of its own, after
    // the slice's work (7s written late, on the other thread's per-thread stream).
    let _serial = one_at_a_time();
    let Some(gpu) =
        gpu("a_cudarc_slice_of_the_per_thread_stream_is_taken_over_on_a_stream_of_its_own")
    else {
        return;
    };
    let t = LateWrite::new(&gpu);
    let ctx = gpu.ctx.clone();
    let fill = t.k.fill.function().clone();
    let y = std::thread::spawn(move || {
        ctx.bind_to_thread().unwrap();
        let per_thread = ctx.per_thread_stream();
        let mut slice = per_thread.alloc_zeros::<f32>(LATE_N).unwrap();
        let (n, spin, value) = (LATE_N as u32, SPIN, 7.0f32);
        let mut launch = per_thread.launch_builder(&fill);
        launch.arg(&n).arg(&spin).arg(&value).arg(&mut slice);
        // SAFETY: `late_fill(unsigned, unsigned long long, float, float*)` writes y[i] for
        // i < n, and the slice holds n floats.
        unsafe { launch.launch(cfg(LATE_N)) }.unwrap();
        DeviceBuffer::from(slice)
    })
    .join()
    .unwrap();
    assert_ne!(
        y.stream().cu_stream() as usize,
        0x2,
        "the buffer kept the per-thread default stream"
    );
    t.copy_out(&gpu, &y).launch(&t.home).unwrap();
    t.assert_sevens("the launch read `y`");
    gpu.ctx.synchronize().unwrap();
}
