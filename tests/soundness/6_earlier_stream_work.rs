//! Class 6, borrowed memory ignoring earlier stream work: a graph launched on a borrowed cudarc
//! slice did not wait for the work cudarc had queued on it (a memset on another stream), so the
//! launch read stale data; and a copy queued before the launch read the launch's later writes.
//!
//! The controls launch raw graphs on the slices: both races show. Through the library a graph's
//! first launch waits for what cudarc queued on the memory it borrows, on any stream (cudarc's
//! own event tracking, joined into the memory's stream when the graph borrows it), and the
//! borrow keeps every later cudarc use out until the scope has waited for the launches.

use std::sync::Arc;

use cudagraph_runtime::cudarc::driver::{CudaSlice, CudaStream};
use cudagraph_tests::soundness::{addr, Arg, Kernels, RawGraph, N, SPIN};
use cudagraph_tests::{cfg, gpu, read_back, Gpu};

/// Keeps `stream` busy for about 0.1 s: what is queued after this runs late.
fn stall(gpu: &Gpu, k: &Kernels, stream: &Arc<CudaStream>, scratch: &CudaSlice<u32>) -> RawGraph {
    let mut raw = RawGraph::new(gpu);
    let args = [
        Arg::U32(N as u32),
        Arg::U64(SPIN),
        Arg::U32(3),
        Arg::U64(addr(stream, scratch)),
    ];
    raw.add_kernel(&k.late, &cfg(N), &args, &[]);
    raw.launch(stream);
    raw
}

fn count(stream: &Arc<CudaStream>, s: &CudaSlice<u32>, value: u32) -> usize {
    stream.context().synchronize().unwrap();
    read_back(stream, s).iter().filter(|&&v| v == value).count()
}

#[test]
fn a_launch_is_ordered_after_the_work_queued_on_what_it_borrows() {
    let Some(gpu) = gpu("a_launch_is_ordered_after_the_work_queued_on_what_it_borrows") else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    // `launch` runs the graphs; the slices live on `home`; `other` queues cudarc work on them.
    let (launch, home, other) = (
        gpu.stream.clone(),
        gpu.ctx.new_stream().unwrap(),
        gpu.ctx.new_stream().unwrap(),
    );
    let scratch = other.alloc_zeros::<u32>(N).unwrap();

    // A read: `x` is zeroed on `other` after a stall, then copied into `y` by a launch.
    let stale_reads = |library: bool| -> usize {
        let mut x = home.clone_htod(&vec![1u32; N]).unwrap();
        let mut y = home.alloc_zeros::<u32>(N).unwrap();
        let (xa, ya) = (addr(&home, &x), addr(&home, &y));
        home.synchronize().unwrap();
        let _stall = stall(&gpu, &k, &other, &scratch);
        other.memset_zeros(&mut x).unwrap();
        if library {
            cudagraph_runtime::scope(|s| {
                let mut graph = s.graph(&gpu.ctx).unwrap();
                graph
                    .add_kernel(&k.copy, cfg(N), (N as u32, &x, &mut y), &[])
                    .unwrap();
                graph.instantiate().unwrap().launch(&launch).unwrap();
            });
        } else {
            let mut raw = RawGraph::new(&gpu);
            let args = [Arg::U32(N as u32), Arg::U64(xa), Arg::U64(ya)];
            raw.add_kernel(&k.copy, &cfg(N), &args, &[]);
            raw.launch(&launch);
        }
        count(&home, &y, 1)
    };
    // A write: `x` is copied into `z` on `other` after a stall, then overwritten by a launch.
    let late_writes = |library: bool| -> usize {
        let mut x = home.clone_htod(&vec![1u32; N]).unwrap();
        let mut z = home.alloc_zeros::<u32>(N).unwrap();
        let xa = addr(&home, &x);
        home.synchronize().unwrap();
        let _stall = stall(&gpu, &k, &other, &scratch);
        other.memcpy_dtod(&x, &mut z).unwrap();
        if library {
            cudagraph_runtime::scope(|s| {
                let mut graph = s.graph(&gpu.ctx).unwrap();
                graph
                    .add_kernel(&k.fill, cfg(N), (N as u32, 7u32, &mut x), &[])
                    .unwrap();
                graph.instantiate().unwrap().launch(&launch).unwrap();
            });
        } else {
            let mut raw = RawGraph::new(&gpu);
            let args = [Arg::U32(N as u32), Arg::U32(7), Arg::U64(xa)];
            raw.add_kernel(&k.fill, &cfg(N), &args, &[]);
            raw.launch(&launch);
        }
        count(&home, &z, 7)
    };

    let (raw_stale, raw_late) = (stale_reads(false), late_writes(false));
    eprintln!(
        "control: the raw copy read {raw_stale} of {N} elements before the memset queued before \
         it; the copy queued before the raw launch read {raw_late} of {N} of its writes"
    );
    assert!(
        raw_stale > 0,
        "the control must read stale data, or this test shows nothing"
    );
    assert!(
        raw_late > 0,
        "the control must race the earlier copy, or this test shows nothing"
    );
    assert_eq!(
        stale_reads(true),
        0,
        "a launch read memory before the memset queued before it"
    );
    assert_eq!(
        late_writes(true),
        0,
        "a copy queued before a launch read the launch's writes"
    );
}
