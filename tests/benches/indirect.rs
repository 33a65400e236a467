//! Indirect values against single-node updates, in the same run.
//!
//! - `set`: `GraphExec::set_indirect` of one `u32` (a store into the staged block) against one
//!   `cuGraphExecKernelNodeSetParams_v2` of a kernel node with one `u32` argument, the value
//!   alternating so every call is a change. No launch: the host cost of changing one value.
//!   Target for `set_indirect`: 50 ns.
//! - `launch + set`: each iteration changes `K` values (K = 1, 4) and launches, blocks of
//!   iterations ended by a stream wait (throughput, as a decode loop runs). Ours: a graph of `K`
//!   kernel nodes reading `K` indirect values (plus its fetch node), `K` `set_indirect` calls and
//!   `GraphExec::launch`. Raw: the same `K` kernel nodes taking the value as an argument, `K`
//!   raw `cuGraphExecKernelNodeSetParams_v2` calls and a raw `cuGraphLaunch` (what a C program
//!   does). Also `set_kernel_params`, our single-node update, on the same plain graph.
//! - `launch`: the two graphs launched without changing anything (ours with its fetch node,
//!   through `GraphExec::launch`; the plain one raw): what the fetch node costs per launch.
//! - `per-launch value`: ours changes one value and launches; the plain graph is launched raw
//!   with nothing changed. The difference is what a value that changes at every launch costs
//!   the GPU (the loops are GPU-bound): target +1.5 µs.
//!
//! The launch rows run for both deliveries of the values: as the fetch node's parameters (the
//! default) and through a ring of page-locked slots.
//!
//! Every pair runs as an A/B in alternating blocks ([`Samples::interleaved_blocks`]); the
//! summary prints the median per-iteration time. For graphs this small, launch throughput is
//! bound by the GPU (a few µs per graph), so `launch + set` shows what the fetch node adds on
//! the device as much as what indirect values save on the host; the host-side saving is `set`
//! times `K`.
//!
//! Without a GPU, prints one skip line and exits 0.

use std::cell::Cell;
use std::ffi::c_void;
use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::Criterion;
use cudagraph_runtime::cudarc::driver::{sys, CudaStream};
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{IndirectDelivery, IndirectOptions, KernelNode};
use cudagraph_tests::bench::{ok, sync, RatioTable, Samples};
use cudagraph_tests::raw::kernel_node_params;
use cudagraph_tests::{compile, function, gpu, zeros, Gpu};

const SAMPLE_SIZE: usize = 30;
/// Launches per A/B block.
const BLOCK: u64 = 500;
/// The target for one `set_indirect`, in seconds.
const SET_TARGET_S: f64 = 50e-9;
/// The target for the GPU cost of a value changed at every launch, in seconds.
const PER_LAUNCH_TARGET_S: f64 = 1.5e-6;

const SRC: &str = r#"
extern "C" __global__ void put(unsigned v, unsigned* out) {
    if (threadIdx.x == 0 && blockIdx.x == 0) out[0] = v;
}
extern "C" __global__ void put_indirect(const unsigned* v, unsigned* out) {
    if (threadIdx.x == 0 && blockIdx.x == 0) out[0] = *v;
}
"#;

type PutArgs = (u32, DevicePtrMut<u32>);
type PutIndirectArgs = (DevicePtr<u32>, DevicePtrMut<u32>);

fn one() -> LaunchConfig {
    LaunchConfig {
        grid_dim: (1, 1, 1),
        block_dim: (32, 1, 1),
        shared_mem_bytes: 0,
    }
}

/// The raw side of a single-node update: parameters built once, pointing at a `Cell` holding
/// the argument, as a C program keeps them.
struct RawPut {
    func: sys::CUfunction,
    ctx: sys::CUcontext,
    value: Cell<u32>,
    out: Cell<sys::CUdeviceptr>,
}

impl RawPut {
    fn args(&self) -> [*mut c_void; 2] {
        [self.value.as_ptr().cast(), self.out.as_ptr().cast()]
    }

    fn params(&self, args: &mut [*mut c_void; 2]) -> sys::CUDA_KERNEL_NODE_PARAMS {
        kernel_node_params(self.func, &one(), args.as_mut_ptr(), self.ctx)
    }
}

/// `K` nodes both ways: a plain graph of `put` nodes (updated per node), and a graph of
/// `put_indirect` nodes reading `K` indirect values.
struct Pair {
    plain: GraphExec<'static>,
    plain_nodes: Vec<KernelNode<PutArgs>>,
    raw_nodes: Vec<sys::CUgraphNode>,
    indirect: GraphExec<'static>,
    keys: Vec<Indirect<u32>>,
    outs: Vec<DeviceBuffer<u32>>,
}

/// Ours: `count` launches of `exec`, each after setting every value of `keys` to the next
/// value of `v`; then a stream wait.
fn set_and_launch(
    exec: &mut GraphExec<'static>,
    keys: &[Indirect<u32>],
    v: &mut u32,
    count: u64,
    stream: &std::sync::Arc<CudaStream>,
) {
    for _ in 0..count {
        *v = v.wrapping_add(1);
        for key in keys {
            exec.set_indirect(key, *v).expect("set_indirect");
        }
        exec.launch(stream).expect("launch");
    }
    sync(stream);
}

fn pair(
    gpu: &Gpu,
    put: &Kernel<PutArgs>,
    put_indirect: &Kernel<PutIndirectArgs>,
    k: usize,
    options: IndirectOptions,
) -> Pair {
    let outs: Vec<DeviceBuffer<u32>> = (0..k).map(|_| zeros(gpu, 1)).collect();
    let mut g = Graph::new(&gpu.ctx).expect("graph");
    let plain_nodes: Vec<_> = outs
        .iter()
        .map(|out| g.add_kernel(put, one(), (0u32, out), &[]).expect("put"))
        .collect();
    let raw_nodes = plain_nodes
        .iter()
        .map(|n| g.raw_node(*n).expect("raw node"))
        .collect();
    let plain = g.instantiate().expect("instantiate");
    let mut g = Graph::new(&gpu.ctx).expect("graph");
    g.add_indirect_block(options).expect("add_indirect_block");
    let keys: Vec<_> = (0..k)
        .map(|_| g.add_indirect(0u32).expect("add_indirect"))
        .collect();
    for (key, out) in keys.iter().zip(&outs) {
        g.add_kernel(put_indirect, one(), (key, out), &[])
            .expect("put_indirect");
    }
    let indirect = g.instantiate().expect("instantiate");
    Pair {
        plain,
        plain_nodes,
        raw_nodes,
        indirect,
        keys,
        outs,
    }
}

fn raw_launch(exec: sys::CUgraphExec, stream: &CudaStream) {
    // SAFETY: a live executable and stream of the bound context.
    ok("cuGraphLaunch", unsafe {
        sys::cuGraphLaunch(exec, stream.cu_stream())
    });
}

/// `count` raw launches of `exec`, then a stream wait: the plain graph's side of the launch rows.
fn raw_launches(exec: sys::CUgraphExec, count: u64, stream: &CudaStream) {
    for _ in 0..count {
        raw_launch(exec, stream);
    }
    sync(stream);
}

fn raw_set(exec: sys::CUgraphExec, node: sys::CUgraphNode, p: &sys::CUDA_KERNEL_NODE_PARAMS) {
    // SAFETY: a live executable; `node` is a `put` node of its graph; `p` points at arguments of
    // `put`'s parameter list, live for the call (the driver copies them).
    ok("cuGraphExecKernelNodeSetParams_v2", unsafe {
        sys::cuGraphExecKernelNodeSetParams_v2(exec, node, p)
    });
}

fn main() {
    let Some(gpu) = gpu("bench indirect") else {
        return;
    };
    gpu.ctx.bind_to_thread().expect("binding the context");
    let device = gpu.ctx.name().unwrap_or_else(|e| format!("<unnamed: {e}>"));
    println!("device: {device}");
    let stream = gpu.stream.clone();
    let module = compile(&gpu.ctx, SRC);
    let put_fn = function(&module, "put");
    let raw = RawPut {
        func: put_fn.cu_function(),
        ctx: gpu.ctx.cu_ctx(),
        value: Cell::new(0),
        out: Cell::new(0),
    };
    // SAFETY: the parameter lists of `put` and `put_indirect` in `SRC`.
    let (put, put_indirect): (Kernel<PutArgs>, Kernel<PutIndirectArgs>) = unsafe {
        (
            Kernel::new(put_fn),
            Kernel::new(function(&module, "put_indirect")),
        )
    };
    let samples = Samples::new(SAMPLE_SIZE);
    let mut table = RatioTable::new(format!(
        "indirect values / single-node updates on {device} (median per-iteration time over {SAMPLE_SIZE} samples)"
    ));

    // The host cost of one change, with criterion (and the A/B below for the ratio).
    let mut p1 = pair(&gpu, &put, &put_indirect, 1, IndirectOptions::default());
    raw.out.set(p1.outs[0].addr());
    let mut args = raw.args();
    let params = raw.params(&mut args);
    let (plain_raw, node_raw) = (p1.plain.raw(), p1.raw_nodes[0]);
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2))
        .sample_size(SAMPLE_SIZE)
        .configure_from_args();
    {
        let mut group = c.benchmark_group("set");
        let key = p1.keys[0];
        let exec = &mut p1.indirect;
        group.bench_function("set_indirect u32", |b| {
            let mut v = 0u32;
            b.iter_custom(|iters| {
                let start = Instant::now();
                for _ in 0..iters {
                    v = v.wrapping_add(1);
                    exec.set_indirect(&key, black_box(v)).expect("set_indirect");
                }
                samples.record("set/ours", iters, start.elapsed())
            })
        });
        group.bench_function("cuGraphExecKernelNodeSetParams", |b| {
            let mut v = 0u32;
            b.iter_custom(|iters| {
                let start = Instant::now();
                for _ in 0..iters {
                    v = v.wrapping_add(1);
                    raw.value.set(v);
                    raw_set(plain_raw, node_raw, &params);
                }
                samples.record("set/raw", iters, start.elapsed())
            })
        });
        group.finish();
    }
    c.final_summary();
    table.compare(
        &samples,
        "set one u32: set_indirect / raw node update",
        1,
        ("set/ours", "set/raw"),
        None,
        "no launch; criterion",
    );
    let set_ns = samples
        .estimate("set/ours")
        .map(|e| e.median.as_secs_f64())
        .unwrap_or(f64::NAN);

    let deliveries = [
        ("parameters", IndirectOptions::default()),
        (
            "ring",
            IndirectOptions::default().with_delivery(IndirectDelivery::Ring),
        ),
    ];
    let mut per_launch = Vec::new();
    for ((d, options), k) in deliveries.iter().flat_map(|d| [1usize, 4].map(|k| (*d, k))) {
        let mut p = pair(&gpu, &put, &put_indirect, k, options);
        let plain_raw = p.plain.raw();
        let ids = (
            format!("launch+set/ours/{d}/{k}"),
            format!("launch+set/raw/{d}/{k}"),
        );
        let mut v = 0u32;
        let mut w = 0u32;
        samples.interleaved_blocks(
            (&ids.0, &ids.1),
            BLOCK,
            2,
            |count| set_and_launch(&mut p.indirect, &p.keys, &mut v, count, &stream),
            |count| {
                for _ in 0..count {
                    w = w.wrapping_add(1);
                    for (node, out) in p.raw_nodes.iter().zip(&p.outs) {
                        raw.value.set(w);
                        raw.out.set(out.addr());
                        raw_set(plain_raw, *node, &params);
                    }
                    raw_launch(plain_raw, &stream);
                }
                sync(&stream);
            },
        );
        // The graphs did what was asked: every output holds the last value.
        for out in &p.outs {
            assert_eq!(out.to_vec().expect("read")[0], v.max(w), "{k} values");
        }
        table.compare(
            &samples,
            &format!("launch + set K values: indirect ({d}) / raw node updates"),
            k,
            (&ids.0, &ids.1),
            None,
            format!("blocks of {BLOCK} launches, then a stream wait"),
        );

        let ids_ours = (
            format!("launch+set/ours-again/{d}/{k}"),
            format!("launch+set/set_kernel_params/{d}/{k}"),
        );
        let mut x = 0u32;
        samples.interleaved_blocks(
            (&ids_ours.0, &ids_ours.1),
            BLOCK,
            2,
            |count| set_and_launch(&mut p.indirect, &p.keys, &mut v, count, &stream),
            |count| {
                for _ in 0..count {
                    x = x.wrapping_add(1);
                    for (node, out) in p.plain_nodes.iter().zip(&p.outs) {
                        p.plain
                            .set_kernel_params(*node, one(), (x, out))
                            .expect("set_kernel_params");
                    }
                    p.plain.launch(&stream).expect("launch");
                }
                sync(&stream);
            },
        );
        table.compare(
            &samples,
            &format!("launch + set K values: indirect ({d}) / our set_kernel_params"),
            k,
            (&ids_ours.0, &ids_ours.1),
            None,
            format!("blocks of {BLOCK} launches, then a stream wait"),
        );

        let ids_launch = (
            format!("launch/ours/{d}/{k}"),
            format!("launch/raw/{d}/{k}"),
        );
        samples.interleaved_blocks(
            (&ids_launch.0, &ids_launch.1),
            BLOCK,
            2,
            |count| {
                for _ in 0..count {
                    p.indirect.launch(&stream).expect("launch");
                }
                sync(&stream);
            },
            |count| raw_launches(plain_raw, count, &stream),
        );
        table.compare(
            &samples,
            &format!("launch only: with fetch node ({d}) / plain graph raw"),
            k,
            (&ids_launch.0, &ids_launch.1),
            None,
            "what the fetch node costs per launch",
        );

        // A value changed at every launch, against the plain graph launched unchanged: what a
        // per-launch value costs the GPU.
        if k == 1 {
            let ids = (
                format!("per-launch/ours/{d}"),
                format!("per-launch/raw/{d}"),
            );
            samples.interleaved_blocks(
                (&ids.0, &ids.1),
                BLOCK,
                2,
                |count| set_and_launch(&mut p.indirect, &p.keys, &mut v, count, &stream),
                |count| raw_launches(plain_raw, count, &stream),
            );
            // The last launch of ours reads the last value set.
            set_and_launch(&mut p.indirect, &p.keys, &mut v, 1, &stream);
            assert_eq!(p.outs[0].to_vec().expect("read")[0], v, "per-launch value");
            table.compare(
                &samples,
                &format!("per-launch value: set + launch ({d}) / plain graph raw launch"),
                1,
                (&ids.0, &ids.1),
                None,
                "GPU-bound: the difference is the GPU's cost of the value",
            );
            let median = |id: &str| {
                samples
                    .estimate(id)
                    .map(|e| e.median.as_secs_f64())
                    .unwrap_or(f64::NAN)
            };
            per_launch.push((d, median(&ids.0), median(&ids.1)));
        }
        sync(&stream);
    }

    println!("\n{table}");
    let verdict = if set_ns <= SET_TARGET_S {
        "PASS"
    } else {
        "OVER"
    };
    println!(
        "set_indirect of one u32: {:.1} ns per call (target <= {:.0} ns): {verdict}",
        set_ns * 1e9,
        SET_TARGET_S * 1e9
    );
    for (d, ours, raw) in per_launch {
        let cost = ours - raw;
        let verdict = if cost <= PER_LAUNCH_TARGET_S {
            "PASS"
        } else {
            "OVER"
        };
        println!(
            "a value changed at every launch ({d}): {:.3} us per launch against {:.3} us for the \
             plain graph, +{:.3} us (target <= +{:.1} us): {verdict}",
            ours * 1e6,
            raw * 1e6,
            cost * 1e6,
            PER_LAUNCH_TARGET_S * 1e6
        );
    }
}
