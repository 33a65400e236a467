//! The memory model on a real GPU: memory given to a graph outlives every launch that may use
//! it, host code never sees memory a launch may write, and cudarc's own stream calls on the same
//! buffers stay ordered with the launches.
//!
//! `compute-sanitizer` cannot prove most of this: cudarc's stream-ordered pool keeps freed memory
//! mapped, so a launch writing freed memory writes whatever buffer was allocated there next,
//! silently. Each test therefore allocates a *sentinel* right after the drop, where the pool is
//! most likely to put it (the same size, on the same stream), and checks that the launches still
//! in flight never change it. The kernels spin for tens of milliseconds before writing, so the
//! write comes long after the drop.

use std::sync::Arc;
use std::time::{Duration, Instant};

use cudagraph_runtime::cudarc::driver::{sys, CudaContext, CudaSlice, CudaStream};
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{cuda_graph, Error};
use cudagraph_tests::{cfg, compile, function, gpu, read_back, upload, zeros, Gpu};

const SOURCE: &str = r#"
// Spins for `spin` clock cycles, then writes `value` to y[0..n].
extern "C" __global__ void late_fill(unsigned n, unsigned long long spin, float value, float* y) {
    long long start = clock64();
    while (clock64() - start < (long long)spin) {}
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = value;
}
// y[i] = x[i] * a, after spinning.
extern "C" __global__ void late_scale(unsigned n, unsigned long long spin, float a, const float* x, float* y) {
    long long start = clock64();
    while (clock64() - start < (long long)spin) {}
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i];
}
"#;

/// Held by every test of this file: they watch the device's free memory and where the pool puts
/// freed memory, which tests running at the same time would disturb.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

pub(crate) fn one_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner())
}

/// About 50 ms on an H100 or H200 (1.7-2 GHz).
pub(crate) const SPIN: u64 = 100_000_000;
/// What sentinels hold.
pub(crate) const SENTINEL: f32 = -12345.0;

type LateFillArgs = (u32, u64, f32, DevicePtrMut<f32>);
type LateScaleArgs = (u32, u64, f32, DevicePtr<f32>, DevicePtrMut<f32>);

pub(crate) struct Late {
    pub(crate) fill: Kernel<LateFillArgs>,
    pub(crate) scale: Kernel<LateScaleArgs>,
}

impl Late {
    pub(crate) fn load(ctx: &Arc<CudaContext>) -> Self {
        let module = compile(ctx, SOURCE);
        // SAFETY: `late_fill` in `SOURCE` takes (unsigned, unsigned long long, float, float*),
        // writes y[i] for i < n only, and launches nothing; the check keeps n within y.
        let fill = unsafe { Kernel::<LateFillArgs>::new(function(&module, "late_fill")) }
            .requires(|_, (n, _, _, y)| n as usize <= y);
        // SAFETY: `late_scale` takes (unsigned, unsigned long long, float, const float*, float*),
        // reads x[i] and writes y[i] for i < n only, and launches nothing; the check keeps n
        // within x and y.
        let scale = unsafe { Kernel::<LateScaleArgs>::new(function(&module, "late_scale")) }
            .requires(|_, (n, _, _, x, y)| n as usize <= x.min(y));
        Self { fill, scale }
    }
}

/// `y = value` by a kernel that first spins for `spin` cycles, then `y` copied into `host`;
/// returns the graph and the copy node.
pub(crate) fn fill_then_copy(
    gpu: &Gpu,
    k: &Late,
    (y, host): (&DeviceBuffer<f32>, &HostBuffer<f32>),
    spin: u64,
    value: f32,
) -> (Graph<'static>, NodeId) {
    let n = y.len();
    let mut graph = Graph::new(&gpu.ctx).unwrap();
    let fill = graph
        .add_kernel(&k.fill, cfg(n), (n as u32, spin, value, y), &[])
        .unwrap();
    let copy = graph
        .add_memcpy(Memcpy::dtoh(y, host), &[fill.id()])
        .unwrap();
    (graph, copy.id())
}

/// A buffer of `n` sentinels allocated on `stream` right away: where the pool puts the memory
/// freed last on that stream.
pub(crate) fn sentinel(stream: &Arc<CudaStream>, n: usize) -> CudaSlice<f32> {
    stream
        .clone_htod(&vec![SENTINEL; n])
        .expect("allocating a sentinel")
}

/// Asserts the sentinel was never written, after everything on the device has completed.
#[track_caller]
pub(crate) fn assert_sentinel(gpu: &Gpu, what: &str, s: &CudaSlice<f32>) {
    gpu.ctx.synchronize().expect("synchronizing the context");
    let got = read_back(&s.stream().clone(), s);
    if let Some(i) = got.iter().position(|&v| v != SENTINEL) {
        panic!(
            "{what}: the sentinel was overwritten at {i} ({}): a launch wrote freed memory",
            got[i]
        );
    }
}

pub(crate) fn device_address(s: &CudaSlice<f32>) -> u64 {
    use cudagraph_runtime::cudarc::driver::DevicePtr as _;
    let (addr, _sync) = s.device_ptr(s.stream());
    addr
}

/// Free device memory once deferred releases have settled: the pool trimmed, the reaper given
/// time. Returns the stable value.
pub(crate) fn settled_free_memory(ctx: &Arc<CudaContext>) -> usize {
    let mut last = 0;
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        ctx.synchronize().unwrap();
        let mut pool = std::ptr::null_mut();
        // SAFETY: device 0 of a live context; valid out-pointer; trimming releases unused memory.
        unsafe {
            sys::cuDeviceGetDefaultMemPool(&mut pool, ctx.cu_device());
            sys::cuMemPoolTrimTo(pool, 0);
        }
        let (free, _) = ctx.mem_get_info().unwrap();
        if free == last || Instant::now() > deadline {
            return free;
        }
        last = free;
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn dropping_an_executable_and_its_buffer_mid_launch_frees_nothing_early() {
    let _serial = one_at_a_time();
    let Some(gpu) = gpu("dropping_an_executable_and_its_buffer_mid_launch_frees_nothing_early")
    else {
        return;
    };
    let k = Late::load(&gpu.ctx);
    let launch_stream = gpu.ctx.new_stream().unwrap();
    let n = 1 << 16;
    let mut reused = 0;
    for round in 0..4 {
        let y: DeviceBuffer<f32> = zeros(&gpu, n);
        let y_addr = y.addr();
        let mut graph = Graph::new(&gpu.ctx).unwrap();
        graph
            .add_kernel(&k.fill, cfg(n), (n as u32, SPIN, 7.0f32, &y), &[])
            .unwrap();
        let mut exec = graph.instantiate().unwrap();
        // On another stream than the buffer's own: nothing but the memory model orders the
        // buffer's free after this launch.
        exec.launch(&launch_stream).unwrap();
        drop(exec);
        drop(y);
        let s = sentinel(&gpu.stream, n);
        reused += usize::from(device_address(&s) == y_addr);
        assert_sentinel(
            &gpu,
            &format!("round {round}: buffer dropped after its executable"),
            &s,
        );
    }
    // Without reuse the sentinel would sit elsewhere and prove nothing.
    assert!(
        reused > 0,
        "the pool never gave the sentinel the dropped buffer's memory: nothing was tested"
    );
}

#[test]
fn the_sentinel_catches_a_dangling_write() {
    let _serial = one_at_a_time();
    // The control: the same program through the raw path, where nothing keeps the memory. When
    // the pool hands the freed memory to the sentinel, the late write lands in it. This shows the
    // sentinel method detects what the other tests rule out.
    let Some(gpu) = gpu("the_sentinel_catches_a_dangling_write") else {
        return;
    };
    let k = Late::load(&gpu.ctx);
    let launch_stream = gpu.ctx.new_stream().unwrap();
    let n = 1 << 16;
    let y = gpu.stream.alloc_zeros::<f32>(n).unwrap();
    gpu.stream.synchronize().unwrap();
    let y_addr = device_address(&y);
    // SAFETY: deliberately broken below (the memory is freed while the launch runs) to show
    // what the safe API prevents; the corruption stays inside this test's own buffers.
    let raw = unsafe { DevicePtrMut::<f32>::from_raw(y_addr, n) };
    let mut graph = Graph::new(&gpu.ctx).unwrap();
    graph
        .add_kernel(&k.fill, cfg(n), (n as u32, SPIN, 7.0f32, raw), &[])
        .unwrap();
    let mut exec = graph.instantiate().unwrap();
    exec.launch(&launch_stream).unwrap();
    drop(y);
    let s = sentinel(&gpu.stream, n);
    gpu.ctx.synchronize().unwrap();
    let reused = device_address(&s) == y_addr;
    let got = read_back(&gpu.stream, &s);
    drop(exec);
    assert!(
        reused,
        "the pool did not give the sentinel the freed memory: the method shows nothing here"
    );
    assert!(
        got.iter().all(|&v| v == 7.0),
        "the raw path's late write should have landed in the sentinel"
    );
}

#[test]
fn swapping_buffers_ten_thousand_times_frees_each_only_after_its_launches() {
    let _serial = one_at_a_time();
    let Some(gpu) = gpu("swapping_buffers_ten_thousand_times_frees_each_only_after_its_launches")
    else {
        return;
    };
    let k = Late::load(&gpu.ctx);
    cuda_graph! {
        graph Writer {
            params {
                fill: Kernel<(u32, u64, f32, DevicePtrMut<f32>)>,
                y: DeviceBuffer<f32>,
                n: u32,
                spin: u64,
                value: f32,
            }
            write: kernel fill<<<n.div_ceil(256), 256>>>(n, spin, value, y);
        }
    }
    let launch_stream = gpu.ctx.new_stream().unwrap();
    let n = 4096;
    let free_before = settled_free_memory(&gpu.ctx);
    {
        let mut params = WriterParams {
            fill: k.fill.clone(),
            y: zeros(&gpu, n),
            n: n as u32,
            spin: 0,
            value: 0.0,
        };
        let mut exec = Writer::build(&gpu.ctx, &params)
            .unwrap()
            .instantiate()
            .unwrap();
        let mut sentinels = Vec::new();
        let iterations = 10_000;
        for i in 0..iterations {
            // Every 1000th launch spins, so swaps and drops happen while it still runs.
            params.spin = if i % 1000 == 0 { SPIN } else { 0 };
            params.value = i as f32;
            params.y = zeros(&gpu, n); // the old buffer's last handle outside the executable
            assert_eq!(exec.set_params(&params).unwrap(), 1);
            exec.launch(&launch_stream).unwrap();
            if i % 1000 == 1 {
                sentinels.push(sentinel(&gpu.stream, n));
            }
        }
        let last = params.y.to_vec().unwrap();
        assert!(
            last.iter().all(|&v| v == (iterations - 1) as f32),
            "the last launch wrote the last buffer"
        );
        for s in &sentinels {
            assert_sentinel(
                &gpu,
                "sentinel allocated while older buffers were released",
                s,
            );
        }
    }
    let free_after = settled_free_memory(&gpu.ctx);
    // Other modules of this test program run at the same time and allocate and free device
    // memory of their own, so the device's free memory may have grown meanwhile; what it may not
    // do is shrink by what the swaps would leak (10,000 buffers of 16 KiB: 160 MiB). Tolerated:
    // one buffer the pool keeps per stream.
    let slack = 2 * n * std::mem::size_of::<f32>() + (2 << 20);
    assert!(
        free_after + slack >= free_before,
        "device memory free before and after 10,000 swaps (cuMemGetInfo): {free_before} -> \
         {free_after} bytes"
    );
}

#[test]
fn buffers_replaced_through_setters_and_the_params_guard_are_freed_only_after_their_launches() {
    let _serial = one_at_a_time();
    let Some(gpu) = gpu(
        "buffers_replaced_through_setters_and_the_params_guard_are_freed_only_after_their_launches",
    ) else {
        return;
    };
    let k = Late::load(&gpu.ctx);
    cuda_graph! {
        graph Writer {
            params {
                fill: Kernel<(u32, u64, f32, DevicePtrMut<f32>)>,
                y: DeviceBuffer<f32>,
                n: u32,
                spin: u64,
                value: f32,
            }
            write: kernel fill<<<n.div_ceil(256), 256>>>(n, spin, value, y);
        }
    }
    let launch_stream = gpu.ctx.new_stream().unwrap();
    let n = 4096;
    let free_before = settled_free_memory(&gpu.ctx);
    {
        let params = WriterParams {
            fill: k.fill.clone(),
            y: zeros(&gpu, n),
            n: n as u32,
            spin: 0,
            value: 0.0,
        };
        let mut exec = Writer::build(&gpu.ctx, &params)
            .unwrap()
            .instantiate()
            .unwrap();
        drop(params);
        let (mut sentinels, mut reused) = (Vec::new(), 0);
        let iterations = 4000;
        for i in 0..iterations {
            // Every 500th launch spins, so replacements and drops happen while it still runs.
            let spin = if i % 500 == 0 { SPIN } else { 0 };
            // The old buffer's last handle outside the executable is dropped at once: through a
            // setter (the node updated now), or through the guard (updated by the launch).
            let replaced = if i % 2 == 0 {
                exec.set_spin(spin).unwrap();
                exec.set_value(i as f32).unwrap();
                exec.set_y(zeros(&gpu, n)).unwrap()
            } else {
                let mut p = exec.params_mut();
                p.set_spin(spin);
                p.set_value(i as f32);
                p.set_y(zeros(&gpu, n))
            };
            let replaced_addr = replaced.addr();
            drop(replaced);
            exec.launch(&launch_stream).unwrap();
            if i % 500 == 1 {
                let s = sentinel(&gpu.stream, n);
                reused += usize::from(device_address(&s) == replaced_addr);
                sentinels.push(s);
            }
        }
        // Read through the executable: waits for the launch that wrote it.
        let last = exec.params().y.to_vec().unwrap();
        assert!(
            last.iter().all(|&v| v == (iterations - 1) as f32),
            "the last launch wrote the last buffer"
        );
        for s in &sentinels {
            assert_sentinel(
                &gpu,
                "sentinel allocated while older buffers were released",
                s,
            );
        }
        println!(
            "{reused} of {} sentinels got a replaced buffer's memory",
            sentinels.len()
        );
    }
    // No leak: as much free as before, or more (releases of earlier tests' graphs may still have
    // been under way when `free_before` settled, as seen on an H200).
    let free_after = settled_free_memory(&gpu.ctx);
    assert!(
        free_after >= free_before,
        "device memory in use grew over 4000 replacements (cuMemGetInfo): {free_before} free \
         before, {free_after} after"
    );
}

#[test]
fn a_ping_pong_of_buffers_the_executable_holds_releases_nothing_and_reads_wait() {
    let _serial = one_at_a_time();
    let Some(gpu) =
        gpu("a_ping_pong_of_buffers_the_executable_holds_releases_nothing_and_reads_wait")
    else {
        return;
    };
    let k = Late::load(&gpu.ctx);
    cuda_graph! {
        /// `b = 2 a`, after spinning.
        graph Double {
            params {
                scale: Kernel<(u32, u64, f32, DevicePtr<f32>, DevicePtrMut<f32>)>,
                a: DeviceBuffer<f32>,
                b: DeviceBuffer<f32>,
                n: u32,
                spin: u64,
            }
            twice: kernel scale<<<n.div_ceil(256), 256>>>(n, spin, 2.0f32, a, b);
        }
    }
    let n = 1 << 16;
    let (a, b) = (upload(&gpu, &vec![1.0f32; n]), zeros::<f32>(&gpu, n));
    let params = DoubleParams {
        scale: k.scale.clone(),
        a: a.clone(),
        b: b.clone(),
        n: n as u32,
        spin: SPIN / 10,
    };
    let mut exec = Double::build(&gpu.ctx, &params)
        .unwrap()
        .instantiate()
        .unwrap();
    drop(params);
    let launch_stream = gpu.ctx.new_stream().unwrap();
    for step in 1..=20 {
        exec.launch(&launch_stream).unwrap();
        exec.params_mut().swap(|p| (&mut p.a, &mut p.b)).unwrap();
        // The swapped-in `a` is what the launch still writes: the read waits for it.
        let got = exec.params().a.to_vec().unwrap();
        let want = 2f32.powi(step);
        assert!(
            got.iter().all(|&v| v == want),
            "step {step}: {} for {want}",
            got[0]
        );
    }
    // Both buffers stayed with the executable (and with this test): none was released.
    drop((a, b));
    let before = settled_free_memory(&gpu.ctx);
    exec.launch(&launch_stream).unwrap();
    exec.params_mut().swap(|p| (&mut p.a, &mut p.b)).unwrap();
    let s = sentinel(&gpu.stream, n);
    assert_sentinel(&gpu, "sentinel allocated during a ping-pong", &s);
    drop(s);
    assert_eq!(
        before,
        settled_free_memory(&gpu.ctx),
        "nothing freed or allocated"
    );
}

#[test]
fn a_host_read_waits_for_the_launch_that_writes_the_buffer() {
    let _serial = one_at_a_time();
    let Some(gpu) = gpu("a_host_read_waits_for_the_launch_that_writes_the_buffer") else {
        return;
    };
    let k = Late::load(&gpu.ctx);
    let n = 1 << 14;
    let y: DeviceBuffer<f32> = zeros(&gpu, n);
    let host = HostBuffer::<f32>::zeroed(&gpu.ctx, n).unwrap();
    let (graph, _) = fill_then_copy(&gpu, &k, (&y, &host), SPIN, 3.0f32);
    let mut exec = graph.instantiate().unwrap();
    for round in 1..=3 {
        exec.launch(&gpu.stream).unwrap();
        // No synchronization: the guard must wait for the launch (about 50 ms) itself.
        let started = Instant::now();
        let values = host.read().unwrap();
        assert!(
            values.iter().all(|&v| v == 3.0),
            "round {round}: the guard returned before the copy completed"
        );
        // A launch while host code reads the buffer is refused, not raced.
        match exec.launch(&gpu.stream) {
            Err(Error::BufferInUse { .. }) => {}
            other => panic!("launch during a host read: expected BufferInUse, got {other:?}"),
        }
        drop(values);
        eprintln!("round {round}: the read waited {:?}", started.elapsed());
    }
    // Writing through a guard, then launching: the launch copies over what was written.
    host.write().unwrap().fill(-1.0);
    exec.launch(&gpu.stream).unwrap();
    assert!(host.to_vec().unwrap().iter().all(|&v| v == 3.0));
}

#[test]
fn a_host_buffer_dropped_mid_copy_is_freed_after_the_copy() {
    let _serial = one_at_a_time();
    let Some(gpu) = gpu("a_host_buffer_dropped_mid_copy_is_freed_after_the_copy") else {
        return;
    };
    let k = Late::load(&gpu.ctx);
    let n = 1 << 14;
    let y: DeviceBuffer<f32> = zeros(&gpu, n);
    let host = HostBuffer::<f32>::zeroed(&gpu.ctx, n).unwrap();
    let (graph, _) = fill_then_copy(&gpu, &k, (&y, &host), SPIN, 5.0f32);
    let mut exec = graph.instantiate().unwrap();
    exec.launch(&gpu.stream).unwrap();
    drop(exec);
    drop(host);
    drop(y);
    // Host memory allocated now (page-locked and pageable) must not receive the copy.
    let later = HostBuffer::from_slice(&gpu.ctx, &vec![SENTINEL; n]).unwrap();
    let plain = vec![SENTINEL; n];
    gpu.ctx.synchronize().unwrap();
    std::thread::sleep(Duration::from_millis(100));
    assert!(later.to_vec().unwrap().iter().all(|&v| v == SENTINEL));
    assert!(plain.iter().all(|&v| v == SENTINEL));
}

#[test]
fn cudarc_stream_calls_stay_ordered_with_launches_on_other_streams() {
    let _serial = one_at_a_time();
    // With cudarc's event tracking (its default): a buffer written by cudarc on one stream, read
    // by a graph launched on a second, its result read by cudarc on a third.
    let Some(gpu) = gpu("cudarc_stream_calls_stay_ordered_with_launches_on_other_streams") else {
        return;
    };
    assert!(gpu.ctx.is_event_tracking());
    let k = Late::load(&gpu.ctx);
    let (s1, s2, s3) = (
        gpu.ctx.new_stream().unwrap(),
        gpu.ctx.new_stream().unwrap(),
        gpu.ctx.new_stream().unwrap(),
    );
    let n = 1 << 14;
    let x_host: Vec<f32> = (0..n).map(|i| i as f32).collect();
    // Written by cudarc on s1 (a late kernel would be better, but the copy is queued behind a
    // spinning launch on s1, so it completes late).
    let mut x_slice = s1.alloc_zeros::<f32>(n).unwrap();
    let blocker = DeviceBuffer::<f32>::zeros(&s1, n).unwrap();
    {
        let mut g = Graph::new(&gpu.ctx).unwrap();
        g.add_kernel(&k.fill, cfg(n), (n as u32, SPIN, 0.0f32, &blocker), &[])
            .unwrap();
        g.instantiate().unwrap().launch(&s1).unwrap();
    }
    s1.memcpy_htod(&x_host, &mut x_slice).unwrap();
    let x = DeviceBuffer::from(x_slice);
    let y: DeviceBuffer<f32> = DeviceBuffer::zeros(&s3, n).unwrap();
    let mut graph = Graph::new(&gpu.ctx).unwrap();
    graph
        .add_kernel(&k.scale, cfg(n), (n as u32, 0u64, 2.0f32, &x, &y), &[])
        .unwrap();
    let mut exec = graph.instantiate().unwrap();
    exec.launch(&s2).unwrap();
    // cudarc on a third stream, through the buffer's guard.
    let got = {
        let guard = y.access().unwrap();
        let out = s3.clone_dtoh(&guard.view()).unwrap();
        s3.synchronize().unwrap();
        out
    };
    let want: Vec<f32> = x_host.iter().map(|v| 2.0 * v).collect();
    assert_eq!(got, want);
}

#[test]
fn without_event_tracking_the_buffers_own_stream_still_orders_everything() {
    let _serial = one_at_a_time();
    let Some(_gpu) = gpu("without_event_tracking_the_buffers_own_stream_still_orders_everything")
    else {
        return;
    };
    // A context of its own: event tracking is a per-context switch.
    let ctx = CudaContext::new_non_primary(0, 0).expect("a second context");
    // SAFETY: every cudarc call below on these buffers is made on their own stream, or through
    // the runtime's guards, which order it there.
    unsafe { ctx.disable_event_tracking() };
    let (home, launch) = (ctx.new_stream().unwrap(), ctx.new_stream().unwrap());
    let k = Late::load(&ctx);
    let n = 1 << 14;
    let y = DeviceBuffer::<f32>::zeros(&home, n).unwrap();
    let mut graph = Graph::new(&ctx).unwrap();
    graph
        .add_kernel(&k.fill, cfg(n), (n as u32, SPIN, 9.0f32, &y), &[])
        .unwrap();
    let mut exec = graph.instantiate().unwrap();
    exec.launch(&launch).unwrap();
    // Ordered after the launch on `home`, with no event of cudarc's involved.
    assert!(y.to_vec().unwrap().iter().all(|&v| v == 9.0));
    y.copy_from(&vec![1.0; n]).unwrap();
    exec.launch(&launch).unwrap();
    drop(exec);
    drop(y);
    let s = sentinel(&home, n);
    ctx.synchronize().unwrap();
    let got = s.stream().clone_dtoh(&s).unwrap();
    home.synchronize().unwrap();
    assert!(got.iter().all(|&v| v == SENTINEL));
}

#[test]
fn a_scope_waits_for_the_launches_of_the_executables_that_borrow_memory() {
    let _serial = one_at_a_time();
    let Some(gpu) = gpu("a_scope_waits_for_the_launches_of_the_executables_that_borrow_memory")
    else {
        return;
    };
    let k = Late::load(&gpu.ctx);
    let launch_stream = gpu.ctx.new_stream().unwrap();
    let n = 1 << 14;
    let mut y = gpu.stream.alloc_zeros::<f32>(n).unwrap();
    let started = Instant::now();
    cudagraph_runtime::scope(|s| {
        let mut graph = s.graph(&gpu.ctx).unwrap();
        graph
            .add_kernel(&k.fill, cfg(n), (n as u32, SPIN, 4.0f32, &mut y), &[])
            .unwrap();
        let mut exec = graph.instantiate().unwrap();
        exec.launch(&launch_stream).unwrap();
        // Its `Drop` never runs: the scope waits all the same.
        std::mem::forget(exec);
    });
    eprintln!("the scope waited {:?}", started.elapsed());
    // The borrow is over, and so is the launch: cudarc reads `y` on its own stream, with no
    // synchronization of ours.
    assert!(read_back(&gpu.stream, &y).iter().all(|&v| v == 4.0));
}

#[test]
fn a_host_node_reads_what_the_copy_before_it_wrote() {
    let _serial = one_at_a_time();
    let Some(gpu) = gpu("a_host_node_reads_what_the_copy_before_it_wrote") else {
        return;
    };
    let k = Late::load(&gpu.ctx);
    let n = 1 << 12;
    let y: DeviceBuffer<f32> = zeros(&gpu, n);
    let host = HostBuffer::<f32>::zeroed(&gpu.ctx, n).unwrap();
    let (mut graph, copy) = fill_then_copy(&gpu, &k, (&y, &host), SPIN / 10, 6.0f32);
    let (tx, rx) = std::sync::mpsc::channel();
    graph
        .add_host_with(
            &host,
            move |v: &[f32]| tx.send(v.to_vec()).unwrap(),
            &[copy],
        )
        .unwrap();
    // A second host node may not write the buffer unordered with the first: refused.
    let mut other = host.clone();
    let refused = graph.add_host_with(&mut other, |v: &mut [f32]| v.fill(0.0), &[copy]);
    assert!(matches!(refused, Err(Error::Hazard { .. })), "{refused:?}");
    let mut exec = graph.instantiate().unwrap();
    exec.launch(&gpu.stream).unwrap();
    let seen = rx.recv_timeout(Duration::from_secs(10)).unwrap();
    assert!(seen.iter().all(|&v| v == 6.0));
}

#[test]
fn host_code_and_another_executables_write_never_share_a_host_buffer() {
    let _serial = one_at_a_time();
    let Some(gpu) = gpu("host_code_and_another_executables_write_never_share_a_host_buffer") else {
        return;
    };
    let n = 256;
    let y: DeviceBuffer<f32> = zeros(&gpu, n);
    let host = HostBuffer::<f32>::zeroed(&gpu.ctx, n).unwrap();
    let copy_only = || {
        let mut graph = Graph::new(&gpu.ctx).unwrap();
        graph.add_memcpy(Memcpy::dtoh(&y, &host), &[]).unwrap();
        graph
    };
    // Two executables whose copies write the same host memory: a race on the device only (host
    // code reads it through guards, which wait for both), so it is allowed.
    let first = copy_only().instantiate().unwrap();
    let second = copy_only().instantiate().unwrap();
    drop(second);
    // A host node reading the buffer may not run while the first executable's copy may write it.
    let with_host_code = || {
        let mut graph = Graph::new(&gpu.ctx).unwrap();
        graph
            .add_host_with(&host, |v: &[f32]| assert!(v.len() > 1), &[])
            .unwrap();
        graph
    };
    match with_host_code().instantiate() {
        Err(Error::BufferInUse { .. }) => {}
        other => panic!("expected BufferInUse, got {other:?}"),
    }
    drop(first);
    // Once the writer is gone, the reader may.
    let reader = with_host_code().instantiate().unwrap();
    // And now a writer may not join.
    assert!(matches!(
        copy_only().instantiate(),
        Err(Error::BufferInUse { .. })
    ));
    drop(reader);
}

#[test]
fn two_unordered_nodes_writing_overlapping_params_are_refused_when_built() {
    let _serial = one_at_a_time();
    let Some(gpu) = gpu("two_unordered_nodes_writing_overlapping_params_are_refused_when_built")
    else {
        return;
    };
    let k = Late::load(&gpu.ctx);
    cuda_graph! {
        graph TwoWriters {
            params {
                fill: Kernel<(u32, u64, f32, DevicePtrMut<f32>)>,
                a: DeviceBuffer<f32>,
                b: DeviceBuffer<f32>,
                n: u32,
            }
            left: kernel fill<<<n.div_ceil(256), 256>>>(n, 0u64, 1.0f32, a);
            right: kernel fill<<<n.div_ceil(256), 256>>>(n, 0u64, 2.0f32, b);
        }
    }
    let n = 1024;
    let whole: DeviceBuffer<f32> = zeros(&gpu, 2 * n);
    let disjoint = TwoWritersParams {
        fill: k.fill.clone(),
        a: whole.slice(..n),
        b: whole.slice(n..),
        n: n as u32,
    };
    let mut exec = TwoWriters::build(&gpu.ctx, &disjoint)
        .unwrap()
        .instantiate()
        .unwrap();
    let overlapping = TwoWritersParams {
        b: whole.slice(n / 2..n / 2 + n),
        ..disjoint
    };
    for result in [
        TwoWriters::build(&gpu.ctx, &overlapping).map(drop),
        exec.set_params(&overlapping).map(drop),
        exec.set_b(overlapping.b.clone()).map(drop),
    ] {
        match result {
            Err(Error::Hazard { first, second, .. }) => {
                assert_eq!((first.as_str(), second.as_str()), ("left", "right"))
            }
            other => panic!("expected a hazard between `left` and `right`, got {other:?}"),
        }
    }
    // The refused setter kept `b`. Through the guard, the launch that applies the change
    // refuses it, launching nothing, and undoes it: the next launch runs the disjoint params.
    assert_eq!(exec.params().b.addr(), whole.slice(n..).addr());
    let disjoint_b = exec.params_mut().set_b(overlapping.b.clone());
    assert!(matches!(
        exec.launch(&gpu.stream),
        Err(Error::Hazard { .. })
    ));
    assert_eq!(
        whole.to_vec().unwrap(),
        vec![0.0; 2 * n],
        "nothing launched"
    );
    assert_eq!(exec.params().b.addr(), disjoint_b.addr(), "`b` undone");
    exec.launch(&gpu.stream).unwrap();
    let got = whole.to_vec().unwrap();
    assert!(got[..n].iter().all(|&v| v == 1.0) && got[n..].iter().all(|&v| v == 2.0));
}

#[test]
fn executables_bound_to_one_stream_may_share_host_memory_their_host_nodes_write() {
    let _serial = one_at_a_time();
    let Some(gpu) =
        gpu("executables_bound_to_one_stream_may_share_host_memory_their_host_nodes_write")
    else {
        return;
    };
    cuda_graph! {
        /// Counts its launches in `count[0]`, on the host.
        graph Tally {
            params {
                count: HostBuffer<u32>,
            }
            bump: host(|c: &mut [u32]| c[0] += 1, mut count);
        }
    }
    let count = HostBuffer::<u32>::zeroed(&gpu.ctx, 1).unwrap();
    let params = TallyParams {
        count: count.clone(),
    };
    let built = || Tally::build(&gpu.ctx, &params).unwrap();
    let (stream, other) = (gpu.ctx.new_stream().unwrap(), gpu.ctx.new_stream().unwrap());
    // Two executables, both bound to `stream`: their host nodes never run at the same time.
    let mut first = built().instantiate_on(&stream).unwrap();
    let mut second = built().instantiate_on(&stream).unwrap();
    // One launched anywhere, or bound elsewhere, could run at the same time as theirs.
    for refused in [
        built().instantiate().map(drop),
        built().instantiate_on(&other).map(drop),
    ] {
        assert!(
            matches!(refused, Err(Error::BufferInUse { .. })),
            "{refused:?}"
        );
    }
    for _ in 0..50 {
        first.launch(&stream).unwrap();
        second.launch(&stream).unwrap();
    }
    // A bound executable launches into its stream only.
    assert!(matches!(first.launch(&other), Err(Error::Invalid { .. })));
    assert_eq!(count.read().unwrap()[0], 100, "every launch counted once");
    assert!(first.as_exec().bound_stream().is_some());
    // The per-thread default stream names another stream on each thread: refused.
    let per_thread = gpu.ctx.per_thread_stream();
    assert!(matches!(
        built().instantiate_on(&per_thread),
        Err(Error::Invalid { .. })
    ));
    drop((first, second));
    // Once they are gone, an executable launched anywhere may use the buffer.
    let mut anywhere = built().instantiate().unwrap();
    anywhere.launch(&other).unwrap();
    assert_eq!(count.read().unwrap()[0], 101);
}

#[test]
fn a_buffer_whose_last_handle_dies_in_a_host_node_is_freed_by_the_reaper() {
    let _serial = one_at_a_time();
    let Some(gpu) = gpu("a_buffer_whose_last_handle_dies_in_a_host_node_is_freed_by_the_reaper")
    else {
        return;
    };
    let n = 1 << 12;
    let scratch = std::sync::Mutex::new(Some(zeros::<f32>(&gpu, n)));
    let mut graph = Graph::new(&gpu.ctx).unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    graph
        .add_host(
            move || {
                // Drops the only handle inside the host node, where CUDA calls are forbidden.
                drop(scratch.lock().unwrap().take());
                let _ = tx.send(());
            },
            &[],
        )
        .unwrap();
    let mut exec = graph.instantiate().unwrap();
    exec.launch(&gpu.stream).unwrap();
    rx.recv_timeout(Duration::from_secs(10)).unwrap();
    gpu.stream.synchronize().unwrap();
    exec.check_host_panics().unwrap();
    gpu.ctx
        .check_err()
        .expect("no driver error recorded by the release");
}

#[test]
fn a_memset_zeroes_doubles_with_a_four_byte_pattern() {
    let _serial = one_at_a_time();
    let Some(gpu) = gpu("a_memset_zeroes_doubles_with_a_four_byte_pattern") else {
        return;
    };
    let n = 1000;
    let y = DeviceBuffer::from_host(&gpu.stream, &vec![1.5f64; n]).unwrap();
    let mut graph = Graph::new(&gpu.ctx).unwrap();
    graph
        .add_memset(Memset::new(y.slice(..n / 2), 0u32), &[])
        .unwrap();
    let mut exec = graph.instantiate().unwrap();
    exec.launch(&gpu.stream).unwrap();
    let got = y.to_vec().unwrap();
    assert!(got[..n / 2].iter().all(|&v| v == 0.0));
    assert!(got[n / 2..].iter().all(|&v| v == 1.5));
}
