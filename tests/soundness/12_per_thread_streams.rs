//! Class 12 (review finding, branch rev-nccl; not yet run on a GPU): the per-thread default
//! stream (`CudaContext::per_thread_stream`, handle `CU_STREAM_PER_THREAD`) names another stream
//! on every thread. An executable remembers the stream of its latest launch and records the
//! marker of its launches' completion there lazily, from whichever thread asks (`Fence::mark`):
//! launched on one thread's per-thread stream and dropped on another thread, the marker lands on
//! the dropping thread's (empty) per-thread stream, and the memory the executable held is freed
//! while the launch still runs.
//!
//! No control: the library's own launch is the attack; the sentinel allocated after the free
//! shows whether the launch wrote memory it no longer owned.

use cudagraph_runtime::prelude::*;
use cudagraph_tests::soundness::{overwritten, sentinel, Kernels, N, SPIN};
use cudagraph_tests::{cfg, gpu};

#[test]
fn an_executable_launched_on_a_per_thread_stream_and_dropped_elsewhere_frees_after_its_launch() {
    let test =
        "an_executable_launched_on_a_per_thread_stream_and_dropped_elsewhere_frees_after_its_launch";
    let Some(gpu) = gpu(test) else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let home = gpu.ctx.new_stream().unwrap();
    let y = DeviceBuffer::<u32>::zeros(&home, N).unwrap();
    let mut graph = Graph::new(&gpu.ctx).unwrap();
    graph
        .add_kernel(&k.late, cfg(N), (N as u32, SPIN, 7u32, &y), &[])
        .unwrap();
    // The executable holds `y` now.
    drop(y);
    let mut exec = graph.instantiate().unwrap();
    let ctx = gpu.ctx.clone();
    // Launched on a thread's per-thread stream (about 0.1 s of spinning, then it writes `y`)...
    let exec = std::thread::spawn(move || {
        ctx.bind_to_thread().unwrap();
        exec.launch(&ctx.per_thread_stream()).unwrap();
        exec
    })
    .join()
    .unwrap();
    // ...and dropped here, while the launch runs.
    drop(exec);
    let s = sentinel(&home, N);
    assert_eq!(
        overwritten(&home, &s),
        0,
        "a launch on another thread's per-thread stream wrote memory freed under it"
    );
}
