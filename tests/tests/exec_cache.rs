//! `ExecCache` on a real GPU: one `cuda_graph!` declaration whose temporaries are graph memory
//! nodes sized by the batch, one executable per batch bucket (1, 4, 16 rows) in a cache of two,
//! launched in an interleaved order with no synchronization, so that executables are evicted
//! (dropped) while their launches are still queued or running. Every launch's result is checked
//! against the CPU, and after each eviction a sentinel `DeviceBuffer` is allocated where the pool
//! is most likely to put the memory the evicted executable owned (its output buffer, the same
//! size, on the same stream): no launch may ever write it. See `memory_model.rs` for the method.

use std::collections::HashMap;
use std::num::NonZeroUsize;

use cudagraph_runtime::cudarc::driver::CudaEvent;
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{cuda_graph, Error, ExecCache, GraphMemory};
use cudagraph_tests::pipeline::{AddArgs, PipelineKernels, ReluArgs};
use cudagraph_tests::{compile, function, gpu, POISON};

// y[i] = a * x[i] + b, after spinning for `spin` clock cycles: launches pile up on the stream.
// The graph's other kernels are the pipeline's `relu` and `add`.
const LATE_AFFINE: &str = r#"
extern "C" __global__ void late_affine(unsigned n, unsigned long long spin, float a, float b,
                                       const float* x, float* y) {
    long long start = clock64();
    while (clock64() - start < (long long)spin) {}
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + b;
}
"#;

type LateAffineArgs = (u32, u64, f32, f32, DevicePtr<f32>, DevicePtrMut<f32>);

cuda_graph! {
    /// `y = relu(2x - 1) + x` through two temporaries allocated and freed by the graph, then `y`
    /// copied into `out`. `y` is the shape's own buffer (only its cache entry holds it); `x` and
    /// `out` change with every launch.
    graph Shape {
        params {
            late_affine: Kernel<LateAffineArgs>,
            relu: Kernel<ReluArgs>,
            add: Kernel<AddArgs>,
            x: DeviceBuffer<f32>,
            y: DeviceBuffer<f32>,
            out: DeviceBuffer<f32>,
            n: u32,
            spin: u64,
        }
        t1: alloc::<f32>(n as usize);
        t2: alloc::<f32>(n as usize);
        stage1: kernel late_affine<<<n.div_ceil(256), 256>>>(n, spin, 2.0, -1.0, x, t1);
        stage2: kernel relu<<<n.div_ceil(256), 256>>>(n, t1, t2);
        free1: free(t1);
        stage3: kernel add<<<n.div_ceil(256), 256>>>(n, t2, x, y);
        free2: free(t2);
        copy: memcpy(y -> out);
        t1 -> stage1 -> stage2 -> free1;
        t2 -> stage2 -> stage3 -> free2;
        stage3 -> copy;
    }
}

/// What the graph computes for one element.
fn expected(x: f32) -> f32 {
    (2.0 * x - 1.0).max(0.0) + x
}

/// Floats per row: a batch of 16 rows is 1 MiB per buffer.
const WIDTH: usize = 1 << 14;
/// About 20 ms per launch on an H100 or H200 (1.7-2 GHz): far longer than the host takes to
/// enqueue the next launch, build included, also in a debug build beside the other tests (at
/// 5 ms, one loaded H100 host finished every evicted launch first, twice in a row).
const SPIN: u64 = 40_000_000;
/// What sentinels hold.
const SENTINEL: f32 = -12345.0;

/// A cache entry: the executable and the params it was last given (its `y` included).
struct Entry {
    exec: ShapeExec,
    params: ShapeParams,
}

#[test]
fn evicting_shapes_mid_launch_keeps_every_result_and_frees_nothing_early() {
    let test = "evicting_shapes_mid_launch_keeps_every_result_and_frees_nothing_early";
    let Some(gpu) = gpu(test) else {
        return;
    };
    let module = compile(&gpu.ctx, LATE_AFFINE);
    // SAFETY: `late_affine` takes (unsigned, unsigned long long, float, float, const float*,
    // float*), reads x[i] and writes y[i] for i < n only, and launches nothing; the check keeps
    // n within x and y.
    let late_affine = unsafe { Kernel::<LateAffineArgs>::new(function(&module, "late_affine")) }
        .requires(|_, (n, _, _, _, x, y)| n as usize <= x.min(y));
    let PipelineKernels { relu, add, .. } =
        PipelineKernels::load(&gpu.ctx).expect("loading the pipeline's kernels");
    // Buffers live on `gpu.stream` (where they are freed); launches go to another stream, so
    // that nothing but the memory model orders a free after the launches that use the memory.
    let launch_stream = gpu.ctx.new_stream().expect("stream");

    // Every launch's input and output, made before the first launch.
    let round = [1usize, 4, 16, 1, 16, 4, 4, 1, 16, 16, 1, 4];
    let order: Vec<usize> = round.iter().chain(&round).copied().collect();
    let inputs: Vec<Vec<f32>> = order
        .iter()
        .enumerate()
        .map(|(step, &rows)| {
            (0..rows * WIDTH)
                .map(|i| ((i * 7 + step * 131) % 1000) as f32 / 250.0 - 2.0)
                .collect()
        })
        .collect();
    let xs: Vec<DeviceBuffer<f32>> = inputs
        .iter()
        .map(|x| DeviceBuffer::from_host(&gpu.stream, x).expect("upload"))
        .collect();
    let outs: Vec<DeviceBuffer<f32>> = inputs
        .iter()
        .map(|x| DeviceBuffer::from_host(&gpu.stream, &vec![POISON; x.len()]).expect("poison"))
        .collect();
    gpu.stream.synchronize().expect("sync");

    let mut cache: ExecCache<usize, Entry> = ExecCache::new(NonZeroUsize::new(2).unwrap());
    // Outside the cache, so that looking at them does not count as a use: each bucket's `y`
    // (address, length) and an event recorded after its latest launch.
    let mut own_y: HashMap<usize, (u64, usize)> = HashMap::new();
    let mut last_launch: HashMap<usize, CudaEvent> = HashMap::new();
    let mut sentinels: Vec<(usize, DeviceBuffer<f32>)> = Vec::new();
    let (mut evicted_in_flight, mut reused) = (0, 0);

    for (step, &rows) in order.iter().enumerate() {
        let n = rows * WIDTH;
        let hit = cache.contains(&rows);
        // The least recently used bucket, dropped if this step builds into a full cache.
        let victim = (!hit && cache.len() == cache.capacity().get())
            .then(|| cache.keys().last().copied())
            .flatten();
        let evictions = cache.stats().evictions;
        let entry = cache
            .get_or_build(&rows, |&rows| -> Result<Entry, Error> {
                let params = ShapeParams {
                    late_affine: late_affine.clone(),
                    relu: relu.clone(),
                    add: add.clone(),
                    x: xs[step].clone(),
                    y: DeviceBuffer::zeros(&gpu.stream, rows * WIDTH)?,
                    out: outs[step].clone(),
                    n: n as u32,
                    spin: SPIN,
                };
                let exec = Shape::build(&gpu.ctx, &params)?.instantiate()?;
                Ok(Entry { exec, params })
            })
            .unwrap_or_else(|e| panic!("step {step}: building batch {rows}: {e}"));
        if !hit {
            own_y.insert(rows, (entry.params.y.addr(), entry.params.y.len()));
        }
        // This launch's input and output: a hit updates the nodes that read them (stage1 and
        // stage3 read `x`, copy writes `out`); a fresh build already has them.
        entry.params.x = xs[step].clone();
        entry.params.out = outs[step].clone();
        let updated = entry.exec.set_params(&entry.params).expect("set_params");
        assert_eq!(
            updated,
            if hit { 3 } else { 0 },
            "step {step}: nodes updated"
        );
        entry.exec.launch(&launch_stream).expect("launch");
        let done = launch_stream.record_event(None).expect("event");
        last_launch.insert(rows, done);

        if let Some(victim) = victim {
            assert_eq!(
                cache.stats().evictions,
                evictions + 1,
                "step {step}: a build into a full cache evicts one"
            );
            assert!(!cache.contains(&victim), "step {step}: {victim} evicted");
            // Still queued or running when its executable (and the last handle of its `y`) was
            // dropped: the case this test is about.
            evicted_in_flight += usize::from(!last_launch[&victim].is_complete());
            let (addr, len) = own_y[&victim];
            let s = DeviceBuffer::from_host(&gpu.stream, &vec![SENTINEL; len]).expect("sentinel");
            reused += usize::from(s.addr() == addr);
            sentinels.push((step, s));
        }
    }

    gpu.ctx.synchronize().expect("synchronizing the context");
    for (step, (x, out)) in inputs.iter().zip(&outs).enumerate() {
        let got = out.to_vec().expect("reading a result");
        let want: Vec<f32> = x.iter().map(|&v| expected(v)).collect();
        if let Some(i) = (0..want.len()).find(|&i| got[i] != want[i]) {
            panic!(
                "step {step} (batch {}): element {i} is {}, the CPU says {}",
                order[step], got[i], want[i]
            );
        }
    }
    for (step, s) in &sentinels {
        let got = s.to_vec().expect("reading a sentinel");
        if let Some(i) = got.iter().position(|&v| v != SENTINEL) {
            panic!(
                "sentinel allocated after the eviction at step {step} was overwritten at {i} \
                 ({}): a launch wrote memory freed by an eviction",
                got[i]
            );
        }
    }

    let stats = cache.stats();
    eprintln!(
        "{test}: {stats:?}; {evicted_in_flight} of {} evictions with the evicted executable's \
         launch in flight; {reused} sentinels got the evicted buffer's memory",
        sentinels.len()
    );
    eprintln!("{}", GraphMemory::of(&gpu.ctx).expect("graph memory"));
    // Two rounds of the order through a cache of two (the same trace as the unit test).
    assert_eq!((stats.hits, stats.misses, stats.evictions), (10, 14, 12));
    assert_eq!(stats.failed_builds, 0);
    assert_eq!(sentinels.len(), 12);
    assert!(
        evicted_in_flight > 0,
        "every evicted executable had finished its launches: the test did not test eviction \
         in flight (raise SPIN)"
    );
    assert!(
        reused > 0,
        "the pool never gave a sentinel the evicted buffer's memory: the sentinels prove nothing"
    );
}
