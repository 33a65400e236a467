//! Class 12, the per-thread default stream: `CudaContext::per_thread_stream` gives one handle
//! (`CU_STREAM_PER_THREAD`) that names another stream on each thread. The memory model keeps the
//! stream of an executable's latest launch and records the marker of its launches' completion
//! there later, from whichever thread asks (a release, a host access): an executable launched
//! into one thread's per-thread stream and dropped on another thread had its marker recorded on
//! the dropping thread's (empty) per-thread stream, and the memory it held was freed while the
//! launch still ran. Buffers' own streams and device graphs' upload streams are kept the same way.
//!
//! The control does what the memory model did, with raw calls: a raw launch on one thread's
//! per-thread stream, an event recorded on the handle from another thread, the free ordered
//! after that event: the sentinel allocated next gets the launch's writes. The library refuses
//! launches into that stream (`Error::Invalid`), and the allocations and uploads that would keep
//! it (`DeviceBuffer::zeros`, `DeviceBuffer::from(CudaSlice)` moving such a slice to a stream of
//! its own: `tests/tests/memory_model.rs`).

use cudagraph_runtime::cudarc::driver::sys;
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::Error;
use cudagraph_tests::soundness::{addr, overwritten, sentinel, Arg, Kernels, RawGraph, N, SPIN};
use cudagraph_tests::{cfg, gpu};

#[test]
fn an_executable_cannot_be_launched_into_the_per_thread_stream() {
    let test = "an_executable_cannot_be_launched_into_the_per_thread_stream";
    let Some(gpu) = gpu(test) else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let home = gpu.ctx.new_stream().unwrap();

    // Control: a raw launch into a spawned thread's per-thread stream writes `scratch` after
    // about 0.1 s; this thread records an event on the same handle (its own per-thread stream),
    // orders the free of `scratch` after it, and allocates the sentinel.
    let scratch = home.alloc_zeros::<u32>(N).unwrap();
    let mut raw = RawGraph::new(&gpu);
    let args = [
        Arg::U32(N as u32),
        Arg::U64(SPIN),
        Arg::U32(7),
        Arg::U64(addr(&home, &scratch)),
    ];
    raw.add_kernel(&k.late, &cfg(N), &args, &[]);
    let exec = raw.instantiate() as usize;
    let ctx = gpu.ctx.clone();
    std::thread::spawn(move || {
        ctx.bind_to_thread().unwrap();
        let per_thread = ctx.per_thread_stream();
        // SAFETY: a live executable, launched into this thread's per-thread stream.
        let launched =
            unsafe { sys::cuGraphLaunch(exec as sys::CUgraphExec, per_thread.cu_stream()) };
        assert_eq!(launched, sys::CUresult::CUDA_SUCCESS);
    })
    .join()
    .unwrap();
    let marker = gpu.ctx.new_event(None).unwrap();
    marker.record(&gpu.ctx.per_thread_stream()).unwrap();
    home.wait(&marker).unwrap();
    drop(scratch);
    let s = sentinel(&home, N);
    let hit = overwritten(&home, &s);
    eprintln!("control: the raw launch wrote {hit} sentinel elements");
    assert!(
        hit > 0,
        "control: the launch did not write the freed memory (the attack shows nothing)"
    );
    drop(raw);

    // The library: the same launch through an executable holding `y` is refused, on the spawned
    // thread, before anything is enqueued; dropped on this thread, it frees `y` at once.
    let y = DeviceBuffer::<u32>::zeros(&home, N).unwrap();
    let mut graph = Graph::new(&gpu.ctx).unwrap();
    graph
        .add_kernel(&k.late, cfg(N), (N as u32, SPIN, 7u32, &y), &[])
        .unwrap();
    drop(y);
    let mut exec = graph.instantiate().unwrap();
    let ctx = gpu.ctx.clone();
    let (launched, exec) = std::thread::spawn(move || {
        ctx.bind_to_thread().unwrap();
        (exec.launch(&ctx.per_thread_stream()), exec)
    })
    .join()
    .unwrap();
    assert!(
        matches!(&launched, Err(Error::Invalid { reason, .. }) if reason.contains("per-thread default stream")),
        "{launched:?}"
    );
    drop(exec);
    let s = sentinel(&home, N);
    assert_eq!(
        overwritten(&home, &s),
        0,
        "the library's launch wrote freed memory"
    );
}
