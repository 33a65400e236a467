//! Device graph launch, ours against the raw driver in one A/B run (the same kernels, module and
//! stream on both sides):
//!
//! - `self tail launch`: a one-kernel graph that tail-launches itself (the scheduler pattern)
//!   for 1000 steps, per step. Ours: the graph built and instantiated by
//!   `Graph::instantiate_for_device_launch`, launched by `DeviceGraphExec::launch`; raw:
//!   `cuGraphCreate` + `cuGraphAddKernelNode` + `cuGraphInstantiateWithFlags(DEVICE_LAUNCH)` +
//!   `cuGraphUpload`, launched by `cuGraphLaunch`. Each sample resets the step counter first (a
//!   one-node graph of ours, a `cuMemsetD32Async` raw: once per 1000 steps).
//! - `fire-and-forget`: a one-kernel graph whose kernel fire-and-forget launches a one-kernel
//!   device graph, per launch of the launcher (blocks of 200 launches, then a stream wait).
//!   Ours: both graphs ours, the handle a `DeviceGraph` argument; raw: both raw.
//!
//! Target: ours ≤ 1.05x raw. Needs CUDA's `libcudadevrt.a` (see `cudagraph_tests::device_launch`).
//! Without a GPU, prints one skip line.

use std::ffi::c_void;
use std::ptr::null_mut;

use cudagraph_runtime::cudarc::driver::sys;
use cudagraph_runtime::prelude::*;
use cudagraph_tests::bench::{ok, RatioTable, Samples};
use cudagraph_tests::device_launch::{compile_with_device_runtime, SchedulerArgs, SRC};
use cudagraph_tests::raw::kernel_node_params;
use cudagraph_tests::{function, gpu, read_back, zeros};

const SAMPLE_SIZE: usize = 30;
const STEPS: u32 = 1000;
const BLOCK: u64 = 200;
const TARGET: f64 = 1.05;

fn one() -> LaunchConfig {
    LaunchConfig {
        grid_dim: (1, 1, 1),
        block_dim: (32, 1, 1),
        shared_mem_bytes: 0,
    }
}

/// A raw one-kernel graph of `func` with the arguments `args` points to, instantiated with
/// `flags` and uploaded to `stream`.
fn raw_graph(
    func: sys::CUfunction,
    args: &mut [*mut c_void],
    flags: u64,
    stream: sys::CUstream,
) -> (sys::CUgraph, sys::CUgraphExec) {
    let p = kernel_node_params(func, &one(), args.as_mut_ptr(), null_mut());
    let (mut graph, mut node, mut exec) = (null_mut(), null_mut(), null_mut());
    // SAFETY: valid out-pointers; `p` and the arguments it points to are live during the call
    // (the driver copies them); the graph and executable are ours.
    unsafe {
        ok("cuGraphCreate", sys::cuGraphCreate(&mut graph, 0));
        ok(
            "cuGraphAddKernelNode_v2",
            sys::cuGraphAddKernelNode_v2(&mut node, graph, std::ptr::null(), 0, &p),
        );
        ok(
            "cuGraphInstantiateWithFlags",
            sys::cuGraphInstantiateWithFlags(&mut exec, graph, flags),
        );
        ok("cuGraphUpload", sys::cuGraphUpload(exec, stream));
    }
    (graph, exec)
}

fn destroy(graph: sys::CUgraph, exec: sys::CUgraphExec) {
    // SAFETY: ours, and idle (the stream was synchronized).
    unsafe {
        ok("cuGraphExecDestroy", sys::cuGraphExecDestroy(exec));
        ok("cuGraphDestroy", sys::cuGraphDestroy(graph));
    }
}

fn main() {
    let Some(gpu) = gpu("bench device_launch") else {
        return;
    };
    gpu.ctx.bind_to_thread().expect("binding the context");
    let device = gpu.ctx.name().unwrap_or_else(|e| format!("<unnamed: {e}>"));
    let stream = &gpu.stream;
    let raw_stream = stream.cu_stream();
    let module = compile_with_device_runtime(&gpu.ctx, SRC);
    let f = |name| function(&module, name);
    // SAFETY: the parameter lists of these kernels of `SRC`; each accesses only what its check
    // admits and launches only the graph it is given or runs in.
    let (step, launch_graph, put, add_u32) = unsafe {
        (
            Kernel::<SchedulerArgs>::new(f("scheduler_step"))
                .requires(|_, (c, log, limit, err)| c >= 1 && log >= limit as usize && err >= 1),
            Kernel::<(DeviceGraph, u32, DevicePtrMut<i32>)>::new(f("launch_graph"))
                .requires(|_, (_, _, err)| err >= 1),
            Kernel::<(u32, DevicePtrMut<u32>)>::new(f("put")).requires(|_, (_, out)| out >= 1),
            Kernel::<(u32, u32, DevicePtrMut<u32>)>::new(f("add_u32"))
                .requires(|_, (n, _, y)| n as usize <= y),
        )
    };
    let samples = Samples::new(SAMPLE_SIZE);
    let mut table = RatioTable::new(format!(
        "Device graph launch, ours / raw driver, on {device} (median over {SAMPLE_SIZE} A/B samples)"
    ));
    let device_launch = 4; // CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH

    // Self tail launch: STEPS steps per sample.
    {
        let (counter, log, err) = (
            zeros::<u32>(&gpu, 1),
            zeros::<u32>(&gpu, STEPS as usize),
            zeros::<i32>(&gpu, 1),
        );
        let mut g = Graph::new(&gpu.ctx).unwrap();
        g.add_kernel(&step, one(), (&counter, &log, STEPS, &err), &[])
            .unwrap();
        let mut ours = g.instantiate_for_device_launch(stream).unwrap();
        let mut reset = Graph::new(&gpu.ctx).unwrap();
        reset
            .add_kernel(&put, one(), (0u32, &counter), &[])
            .unwrap();
        let mut reset = reset.instantiate().unwrap();
        let (raw_counter, raw_log, raw_err) = (
            zeros::<u32>(&gpu, 1),
            zeros::<u32>(&gpu, STEPS as usize),
            zeros::<i32>(&gpu, 1),
        );
        let (mut c, mut l, mut limit, mut e) =
            (raw_counter.addr(), raw_log.addr(), STEPS, raw_err.addr());
        let mut args = [
            (&mut c as *mut u64).cast::<c_void>(),
            (&mut l as *mut u64).cast(),
            (&mut limit as *mut u32).cast(),
            (&mut e as *mut u64).cast(),
        ];
        let (raw_g, raw_exec) = raw_graph(step.cu_function(), &mut args, device_launch, raw_stream);
        let ids = ("self tail/ours", "self tail/raw");
        // One call runs all STEPS steps: recorded as STEPS iterations, so the table is per step.
        samples.interleaved_blocks(
            ids,
            STEPS as u64,
            2,
            |_| {
                reset.launch(stream).unwrap();
                ours.launch(stream).unwrap();
                stream.synchronize().unwrap();
            },
            |_| {
                // SAFETY: the raw side's own buffers, idle (synchronized after each sample).
                unsafe {
                    ok(
                        "cuMemsetD32Async",
                        sys::cuMemsetD32Async(raw_counter.addr(), 0, 1, raw_stream),
                    );
                    ok("cuGraphLaunch", sys::cuGraphLaunch(raw_exec, raw_stream));
                }
                stream.synchronize().unwrap();
            },
        );
        assert_eq!(read_back(stream, &counter), vec![STEPS]);
        assert_eq!(read_back(stream, &err), vec![0]);
        assert_eq!(read_back(stream, &raw_counter), vec![STEPS]);
        table.compare(
            &samples,
            "self tail launch, per step",
            STEPS,
            ids,
            Some(TARGET),
            "one-kernel graph relaunching itself with cudaStreamGraphTailLaunch",
        );
        destroy(raw_g, raw_exec);
    }

    // Fire-and-forget: a launcher whose kernel launches a one-kernel device graph.
    {
        let (y, err) = (zeros::<u32>(&gpu, 32), zeros::<i32>(&gpu, 1));
        let mut w = Graph::new(&gpu.ctx).unwrap();
        w.add_kernel(&add_u32, one(), (32u32, 1u32, &y), &[])
            .unwrap();
        let worker = w.instantiate_for_device_launch(stream).unwrap();
        let mut p = Graph::new(&gpu.ctx).unwrap();
        p.add_kernel(&launch_graph, one(), (worker.handle(), 0u32, &err), &[])
            .unwrap();
        let mut ours = p.instantiate().unwrap();

        let (raw_y, raw_err) = (zeros::<u32>(&gpu, 32), zeros::<i32>(&gpu, 1));
        let (mut n, mut k, mut yp) = (32u32, 1u32, raw_y.addr());
        let mut wargs = [
            (&mut n as *mut u32).cast::<c_void>(),
            (&mut k as *mut u32).cast(),
            (&mut yp as *mut u64).cast(),
        ];
        let (raw_wg, raw_worker) =
            raw_graph(add_u32.cu_function(), &mut wargs, device_launch, raw_stream);
        let (mut target, mut mode, mut ep) = (raw_worker as u64, 0u32, raw_err.addr());
        let mut pargs = [
            (&mut target as *mut u64).cast::<c_void>(),
            (&mut mode as *mut u32).cast(),
            (&mut ep as *mut u64).cast(),
        ];
        let (raw_pg, raw_launcher) =
            raw_graph(launch_graph.cu_function(), &mut pargs, 0, raw_stream);
        let ids = ("fire-and-forget/ours", "fire-and-forget/raw");
        samples.interleaved_blocks(
            ids,
            BLOCK,
            2,
            |count| {
                for _ in 0..count {
                    ours.launch(stream).unwrap();
                }
                stream.synchronize().unwrap();
            },
            |count| {
                for _ in 0..count {
                    // SAFETY: a live executable and stream.
                    ok("cuGraphLaunch", unsafe {
                        sys::cuGraphLaunch(raw_launcher, raw_stream)
                    });
                }
                stream.synchronize().unwrap();
            },
        );
        assert_eq!(read_back(stream, &err), vec![0]);
        assert_eq!(read_back(stream, &raw_err), vec![0]);
        let ours_y = read_back(stream, &y)[0];
        assert_eq!(
            ours_y,
            read_back(stream, &raw_y)[0],
            "both sides launched as often"
        );
        table.compare(
            &samples,
            "fire-and-forget launch, per launcher launch",
            1,
            ids,
            Some(TARGET),
            "launcher kernel + the one-kernel graph it launches; blocks of 200",
        );
        drop(ours);
        drop(worker);
        destroy(raw_pg, raw_launcher);
        destroy(raw_wg, raw_worker);
    }
    println!("\n{table}");
}
