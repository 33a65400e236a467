//! Benchmarks of the code `cuda_graph!` generates, on a declaration of N = 1000 chained kernel
//! nodes (`Chain`, written by `build.rs`; `CUDAGRAPH_BENCH_CHAIN=5000` or `10000` when building
//! the bench makes N = 5000 or 10,000), each measured beside the raw driver path or the slower
//! alternative doing the same work, in the same run:
//!
//! - `handle`: the generated per-node handle (`exec.n500().set(..)`) vs the raw
//!   `cuGraphExecKernelNodeSetParams_v2` on the same node. Target: at most 1.05x raw, judged on
//!   the A/B run (alternating blocks in one loop; the separate criterion runs are reported).
//! - `setter/k`: the natural update path, k params changed through their setters
//!   (`exec.set_a500(v)?`; each updates the one node that reads it, nothing else is compared or
//!   looked at) vs the same k raw single-node calls, A/B. Targets: k = 1 at most 1.2x, k = 10 at
//!   most 1.1x.
//! - `guard/k`: the same k changes through the params guard (`exec.params_mut()`, k `set_a<i>`,
//!   `apply`) vs the same k raw calls, A/B. Targets as for the setters.
//! - `setter/k of N` for N = 5000 and 10,000: the setters of chains of N nodes declared by
//!   repetition (`Chain5000`, `Chain10000` of `build.rs`: one node in a `for` loop, an array
//!   param `a: [f32; N]`), k = 1 and 10 elements changed (`exec.set_a(i, v)?`) vs the same k raw
//!   single-node calls, A/B. Targets as for the setters: an update costs the same however large
//!   the declaration.
//! - `set_params/k`: `set_params` (whole replacement: every param compared) after changing k of
//!   the N parameters (k = 1, 10, 100) vs rebuilding the whole graph from the declaration in place
//!   (`rebuild`, the fastest whole-graph path) and `update` (whole-graph update). Target: k = 1
//!   at least 10x faster (ratio at most 0.10).
//! - `set_params_vs_raw/k`: the same `set_params` vs k raw single-node calls: the price of
//!   comparing every param (reported).
//! - `swap`: a ping-pong swap of two buffer params through the guard
//!   (`exec.params_mut().swap(|p| (&mut p.x, &mut p.x_new))`, applied by the guard) on
//!   `PingPong`, whose `sweep` reads `x` and writes `x_new` and whose `damp` scales `x_new`: both
//!   nodes are updated, one with its two buffers exchanged, one moved to the other buffer; the
//!   executable holds both buffers, so nothing is registered or released. Vs the two raw calls
//!   with the addresses exchanged, A/B. Target: at most 1.5x.
//! - `exec swap`: the same swap through the executable's own `swap` (`exec.swap(|p| (&mut p.x,
//!   &mut p.x_new))?`, applied at once, as a setter is), vs the same two raw calls, A/B. Target:
//!   at most 1.5x.
//! - `reinstantiate`: whole-graph rebuild + update vs rebuild + instantiate, the fallback (reported).
//! - `overlap check`: what the build-time hazard check costs. In `EightWriters`, eight unordered
//!   kernels each write their own `DeviceBuffer` param, so `build`/`rebuild` compare the memory of
//!   all 28 pairs before making any driver call; the row sets that check alone against the whole
//!   `rebuild` (which includes it), so the ratio is the check's share of a rebuild (reported).
//!
//! Update calls are CPU-side driver calls on an executable that is not running; each iteration
//! alternates the values so every call is a real change. Without a GPU, prints one skip line.
//!
//! The declaration's `y` is a `DeviceBuffer<f32>`, as users declare device memory: the executable
//! owns its params and keeps the buffer alive; an update of a node that reads `a_i` passes `y`
//! again (the runtime sees that the node's memory is unchanged and makes only the driver call).
//! The raw side passes the buffer's address.

use std::cell::Cell;
use std::ffi::c_void;
use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion};
use cudagraph_runtime::cudarc::driver::sys;
use cudagraph_runtime::{cuda_graph, prelude::*};
use cudagraph_tests::bench::{RatioTable, Samples};
use cudagraph_tests::raw::kernel_node_params;
use cudagraph_tests::{gpu, zeros, Kernels};

include!(concat!(env!("OUT_DIR"), "/chain.rs"));
include!(concat!(env!("OUT_DIR"), "/long_chains.rs"));

cuda_graph! {
    /// One step of a ping-pong iteration: `x_new = x / 2 + x_new`, then `x_new *= 0.9`; the
    /// host swaps `x` and `x_new` between launches.
    graph PingPong {
        params {
            saxpy: Kernel<(u32, f32, DevicePtr<f32>, DevicePtrMut<f32>)>,
            scale: Kernel<(u32, f32, DevicePtrMut<f32>)>,
            x: DeviceBuffer<f32>,
            x_new: DeviceBuffer<f32>,
            n: u32,
        }
        sweep: kernel saxpy<<<1, 32>>>(n, 0.5f32, x, x_new);
        damp: kernel scale<<<1, 32>>>(n, 0.9f32, x_new);
        sweep -> damp;
    }

    /// Eight kernels with no edges between them, each writing its own buffer: every pair of
    /// buffers is checked for shared memory when the graph is built.
    graph EightWriters {
        params {
            scale: Kernel<(u32, f32, DevicePtrMut<f32>)>,
            b0: DeviceBuffer<f32>, b1: DeviceBuffer<f32>, b2: DeviceBuffer<f32>,
            b3: DeviceBuffer<f32>, b4: DeviceBuffer<f32>, b5: DeviceBuffer<f32>,
            b6: DeviceBuffer<f32>, b7: DeviceBuffer<f32>,
            n: u32,
        }
        w0: kernel scale<<<1, 32>>>(n, 2.0f32, b0);
        w1: kernel scale<<<1, 32>>>(n, 2.0f32, b1);
        w2: kernel scale<<<1, 32>>>(n, 2.0f32, b2);
        w3: kernel scale<<<1, 32>>>(n, 2.0f32, b3);
        w4: kernel scale<<<1, 32>>>(n, 2.0f32, b4);
        w5: kernel scale<<<1, 32>>>(n, 2.0f32, b5);
        w6: kernel scale<<<1, 32>>>(n, 2.0f32, b6);
        w7: kernel scale<<<1, 32>>>(n, 2.0f32, b7);
    }
}

const SAMPLE_SIZE: usize = 20;
const KS: [usize; 3] = [1, 10, 100];
const THREADS: u32 = 32;

fn main() {
    let Some(gpu) = gpu("bench generated") else {
        return;
    };
    let device = gpu
        .ctx
        .name()
        .unwrap_or_else(|e| format!("<unnamed device: {e}>"));
    println!("device: {device}");
    let kernels = Kernels::load(&gpu.ctx);
    // The buffer every node scales, owned by the params (a clone shares it: the handle passes
    // the very buffer the params hold, so its updates keep the node's memory).
    let y = zeros::<f32>(&gpu, THREADS as usize);
    let mut p = params(kernels.scale.clone(), y.clone(), THREADS, 1.0);
    let mut exec = Chain::build(&gpu.ctx, &p)
        .expect("build")
        .instantiate()
        .expect("instantiate");
    let samples = Samples::new(SAMPLE_SIZE);
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1))
        .sample_size(SAMPLE_SIZE)
        .configure_from_args();

    // Per-node handle vs the raw call on the same node.
    let mut group = c.benchmark_group("handle");
    let flip = Cell::new(false);
    let next = || {
        flip.set(!flip.get());
        if flip.get() {
            0.5f32
        } else {
            2.0
        }
    };
    group.bench_function("ours", |b| {
        b.iter_custom(|iters| {
            let start = Instant::now();
            for _ in 0..iters {
                exec.n500().set(THREADS, next(), &y).expect("handle set");
            }
            samples.record("handle/ours", iters, start.elapsed())
        })
    });
    let raw_exec = exec.as_exec().raw();
    let n500 = exec.n500().node();
    let raw_node = exec.as_exec().graph().raw_node(n500).expect("node n500");
    let func = kernels.scale.cu_function();
    let ctx = gpu.ctx.cu_ctx();
    group.bench_function("raw", |b| {
        b.iter_custom(|iters| {
            let start = Instant::now();
            for _ in 0..iters {
                raw_set(raw_exec, raw_node, func, ctx, next(), y.addr());
            }
            samples.record("handle/raw", iters, start.elapsed())
        })
    });
    group.finish();
    // The same comparison as an A/B run: alternating blocks, both sides on the same machine.
    let (ours_flip, raw_flip) = (Cell::new(false), Cell::new(false));
    let value = |flip: &Cell<bool>| {
        flip.set(!flip.get());
        if flip.get() {
            0.5f32
        } else {
            2.0
        }
    };
    samples.interleaved(
        ("handle/ours-ab", "handle/raw-ab"),
        500,
        4,
        || {
            exec.n500()
                .set(THREADS, value(&ours_flip), &y)
                .expect("handle set")
        },
        || raw_set(raw_exec, raw_node, func, ctx, value(&raw_flip), y.addr()),
    );
    exec.set_params(&p).expect("resync n500 with the params");

    // set_params with k changed vs whole-graph rebuild + update, vs k raw calls.
    let mut group = c.benchmark_group("set_params");
    for k in KS {
        let value = Cell::new(1.0f32);
        let change = |p: &mut ChainParams| {
            value.set(if value.get() == 1.0 { 1.5 } else { 1.0 });
            for i in 0..k {
                set_a(p, i * (CHAIN_NODES / k), value.get());
            }
        };
        group.bench_function(BenchmarkId::new("ours", k), |b| {
            b.iter_custom(|iters| {
                let start = Instant::now();
                for _ in 0..iters {
                    change(&mut p);
                    let updated = exec.set_params(&p).expect("set_params");
                    assert_eq!(updated, k);
                }
                samples.record(&format!("set_params/ours/{k}"), iters, start.elapsed())
            })
        });
        // The fastest whole-graph path: one graph rebuilt in place (`rebuild`).
        let mut graph = Chain::build(&gpu.ctx, &p).expect("build");
        group.bench_function(BenchmarkId::new("rebuild_update", k), |b| {
            b.iter_custom(|iters| {
                let start = Instant::now();
                for _ in 0..iters {
                    change(&mut p);
                    graph.rebuild(&p).expect("rebuild");
                    exec.update(&graph).expect("update");
                }
                samples.record(
                    &format!("set_params/rebuild_update/{k}"),
                    iters,
                    start.elapsed(),
                )
            })
        });
        let graph = exec.as_exec().graph();
        let nodes: Vec<_> = (0..k)
            .map(|i| {
                graph
                    .node_id(i * (CHAIN_NODES / k))
                    .and_then(|id| graph.raw_node(id).ok())
                    .expect("node")
            })
            .collect();
        group.bench_function(BenchmarkId::new("raw", k), |b| {
            b.iter_custom(|iters| {
                let start = Instant::now();
                for _ in 0..iters {
                    value.set(if value.get() == 1.0 { 1.5 } else { 1.0 });
                    for &node in &nodes {
                        raw_set(raw_exec, node, func, ctx, value.get(), y.addr());
                    }
                }
                samples.record(&format!("set_params/raw/{k}"), iters, start.elapsed())
            })
        });
    }
    group.finish();
    exec.set_params(&p).expect("resync");

    // The natural path: k params set through their setters, and through the guard, vs k raw
    // single-node calls, A/B.
    for k in KS {
        let graph = exec.as_exec().graph();
        let nodes: Vec<_> = (0..k)
            .map(|i| {
                graph
                    .node_id(i * (CHAIN_NODES / k))
                    .and_then(|id| graph.raw_node(id).ok())
                    .expect("node")
            })
            .collect();
        let (ours_flip, raw_flip) = (Cell::new(false), Cell::new(false));
        let flip = |f: &Cell<bool>| {
            f.set(!f.get());
            if f.get() {
                1.5f32
            } else {
                1.0
            }
        };
        let raw = || {
            let v = flip(&raw_flip);
            for &node in &nodes {
                raw_set(raw_exec, node, func, ctx, v, y.addr());
            }
        };
        samples.interleaved(
            (&format!("setter/ours/{k}"), &format!("setter/raw/{k}")),
            200,
            3,
            || {
                let v = flip(&ours_flip);
                for i in 0..k {
                    exec_set_a(&mut exec, i * (CHAIN_NODES / k), v).expect("setter");
                }
            },
            raw,
        );
        samples.interleaved(
            (&format!("guard/ours/{k}"), &format!("guard/raw/{k}")),
            200,
            3,
            || {
                let v = flip(&ours_flip);
                let mut guard = exec.params_mut();
                for i in 0..k {
                    guard_set_a(&mut guard, i * (CHAIN_NODES / k), v);
                }
                let updated = guard.apply().expect("apply");
                assert_eq!(updated, k);
            },
            raw,
        );
    }
    // The params as the executable now has them.
    for i in 0..CHAIN_NODES {
        set_a(&mut p, i, get_a(exec.params(), i));
    }

    // The setters of chains of 5000 and 10,000 nodes declared by repetition, A/B.
    let mut long = Chain5000::build(
        &gpu.ctx,
        &Chain5000Params {
            k: kernels.scale.clone(),
            y: y.clone(),
            n: THREADS,
            a: [1.0; NODES_5000],
        },
    )
    .expect("build Chain5000")
    .instantiate()
    .expect("instantiate Chain5000");
    let raw_nodes = long_raw_nodes(NODES_5000, |i| {
        let node = long.node(i).expect("an instance").node();
        long.as_exec().graph().raw_node(node).expect("node")
    });
    let raw_exec = long.as_exec().raw();
    long_setters(
        &samples,
        NODES_5000,
        &mut |i, v| long.set_a(i, v),
        (raw_exec, &raw_nodes, func, ctx, y.addr()),
    );
    drop(long);
    let mut long = Chain10000::build(
        &gpu.ctx,
        &Chain10000Params {
            k: kernels.scale.clone(),
            y: y.clone(),
            n: THREADS,
            a: [1.0; NODES_10000],
        },
    )
    .expect("build Chain10000")
    .instantiate()
    .expect("instantiate Chain10000");
    let raw_nodes = long_raw_nodes(NODES_10000, |i| {
        let node = long.node(i).expect("an instance").node();
        long.as_exec().graph().raw_node(node).expect("node")
    });
    let raw_exec = long.as_exec().raw();
    long_setters(
        &samples,
        NODES_10000,
        &mut |i, v| long.set_a(i, v),
        (raw_exec, &raw_nodes, func, ctx, y.addr()),
    );
    drop(long);

    // A ping-pong swap of two buffers the executable holds vs the two raw calls, A/B.
    let (x, x_new) = (
        zeros::<f32>(&gpu, THREADS as usize),
        zeros::<f32>(&gpu, THREADS as usize),
    );
    let ping = PingPongParams {
        saxpy: kernels.saxpy.clone(),
        scale: kernels.scale.clone(),
        x: x.clone(),
        x_new: x_new.clone(),
        n: THREADS,
    };
    let mut ping = PingPong::build(&gpu.ctx, &ping)
        .expect("build")
        .instantiate()
        .expect("instantiate");
    // Launched once, as in a loop that swaps between launches.
    ping.launch(&gpu.stream).expect("launch");
    gpu.stream.synchronize().expect("sync");
    let raw_ping = ping.as_exec().raw();
    let (sweep, damp) = (ping.sweep().node(), ping.damp().node());
    let node_of = |id| ping.as_exec().graph().raw_node(id).expect("node");
    let (raw_sweep, raw_damp) = (node_of(sweep.id()), node_of(damp.id()));
    let (saxpy, scale) = (kernels.saxpy.cu_function(), kernels.scale.cu_function());
    let mut raw_at = false;
    samples.interleaved(
        ("swap/ours", "swap/raw"),
        500,
        4,
        || {
            let mut guard = ping.params_mut();
            guard.swap(|p| (&mut p.x, &mut p.x_new)).expect("swap");
            assert_eq!(guard.apply().expect("apply"), 2);
        },
        || {
            raw_at = !raw_at;
            let (from, to) = if raw_at { (&x_new, &x) } else { (&x, &x_new) };
            raw_saxpy(raw_ping, raw_sweep, saxpy, ctx, from.addr(), to.addr());
            raw_set_fn(raw_ping, raw_damp, scale, ctx, 0.9, to.addr());
        },
    );
    // The same swap through the executable's own `swap` (applied at once, as a setter is).
    samples.interleaved(
        ("exec swap/ours", "exec swap/raw"),
        500,
        4,
        || {
            assert_eq!(ping.swap(|p| (&mut p.x, &mut p.x_new)).expect("swap"), 2);
        },
        || {
            raw_at = !raw_at;
            let (from, to) = if raw_at { (&x_new, &x) } else { (&x, &x_new) };
            raw_saxpy(raw_ping, raw_sweep, saxpy, ctx, from.addr(), to.addr());
            raw_set_fn(raw_ping, raw_damp, scale, ctx, 0.9, to.addr());
        },
    );
    drop(ping);

    let mut group = c.benchmark_group("reinstantiate");
    group.bench_function("instantiate", |b| {
        b.iter_custom(|iters| {
            let start = Instant::now();
            for _ in 0..iters {
                let fresh = Chain::build(&gpu.ctx, &p)
                    .expect("build")
                    .instantiate()
                    .expect("instantiate");
                drop(fresh);
            }
            samples.record("reinstantiate/instantiate", iters, start.elapsed())
        })
    });
    group.finish();

    // The build-time hazard check alone vs the whole rebuild that runs it.
    let whole = zeros::<f32>(&gpu, 8 * THREADS as usize);
    let part = |i: usize| whole.slice(i * THREADS as usize..(i + 1) * THREADS as usize);
    let eight = EightWritersParams {
        scale: kernels.scale.clone(),
        b0: part(0),
        b1: part(1),
        b2: part(2),
        b3: part(3),
        b4: part(4),
        b5: part(5),
        b6: part(6),
        b7: part(7),
        n: THREADS,
    };
    let mut eight_graph = EightWriters::build(&gpu.ctx, &eight).expect("build");
    let mut group = c.benchmark_group("overlap check");
    group.bench_function("check", |b| {
        b.iter_custom(|iters| {
            let start = Instant::now();
            for _ in 0..iters {
                EightWriters::__cg_check_overlaps(std::hint::black_box(&eight))
                    .expect("disjoint buffers");
            }
            samples.record("overlap check/check", iters, start.elapsed())
        })
    });
    group.bench_function("rebuild", |b| {
        b.iter_custom(|iters| {
            let start = Instant::now();
            for _ in 0..iters {
                eight_graph.rebuild(&eight).expect("rebuild");
            }
            samples.record("overlap check/rebuild", iters, start.elapsed())
        })
    });
    group.finish();
    drop(eight_graph);
    c.final_summary();
    gpu.stream.synchronize().expect("sync");
    drop(exec);
    drop(y);

    let mut table = RatioTable::new(format!(
        "cuda_graph! generated code on {device}, chain of {CHAIN_NODES} nodes (median per-iteration time)"
    ));
    table.compare(
        &samples,
        "handle vs raw",
        "n500",
        ("handle/ours", "handle/raw"),
        None,
        "separate runs: the A/B row carries the target",
    );
    table.compare(
        &samples,
        "handle vs raw A/B",
        "n500",
        ("handle/ours-ab", "handle/raw-ab"),
        Some(1.05),
        "alternating blocks of 500 calls",
    );
    for k in KS {
        let ours = format!("set_params/ours/{k}");
        let note = if k == 1 {
            "target: >= 10x faster than whole-graph update"
        } else {
            ""
        };
        let target = (k == 1).then_some(0.10);
        table.compare(
            &samples,
            "set_params vs rebuild+update",
            k,
            (&ours, &format!("set_params/rebuild_update/{k}")),
            target,
            note,
        );
        table.compare(
            &samples,
            "set_params vs k raw calls",
            k,
            (&ours, &format!("set_params/raw/{k}")),
            None,
            "",
        );
    }
    let target = |k: usize| match k {
        1 => Some(1.2),
        10 => Some(1.1),
        _ => None,
    };
    for k in KS {
        table.compare(
            &samples,
            "setters vs k raw calls A/B",
            format!("{k} of {CHAIN_NODES}"),
            (&format!("setter/ours/{k}"), &format!("setter/raw/{k}")),
            target(k),
            "alternating blocks of 200; k setters, each updating its reader",
        );
        table.compare(
            &samples,
            "params guard vs k raw calls A/B",
            format!("{k} of {CHAIN_NODES}"),
            (&format!("guard/ours/{k}"), &format!("guard/raw/{k}")),
            target(k),
            "alternating blocks of 200; params_mut, k sets, apply",
        );
    }
    for nodes in [NODES_5000, NODES_10000] {
        for k in LONG_KS {
            table.compare(
                &samples,
                "setters vs k raw calls A/B",
                format!("{k} of {nodes}"),
                (
                    &format!("setter/ours/{k} of {nodes}"),
                    &format!("setter/raw/{k} of {nodes}"),
                ),
                target(k),
                "alternating blocks of 200; declared by repetition: `set_a(i, v)`",
            );
        }
    }
    table.compare(
        &samples,
        "buffer swap vs 2 raw calls A/B",
        "x <-> x_new",
        ("swap/ours", "swap/raw"),
        Some(1.5),
        "alternating blocks of 500; both buffers held: nothing registered or released",
    );
    table.compare(
        &samples,
        "buffer swap (exec.swap) vs 2 raw calls A/B",
        "x <-> x_new",
        ("exec swap/ours", "exec swap/raw"),
        Some(1.5),
        "alternating blocks of 500; `exec.swap(..)`, applied at once",
    );
    table.compare(
        &samples,
        "rebuild+update vs rebuild+instantiate",
        CHAIN_NODES,
        ("set_params/rebuild_update/1", "reinstantiate/instantiate"),
        None,
        "",
    );
    table.compare(
        &samples,
        "overlap check vs rebuild",
        8,
        ("overlap check/check", "overlap check/rebuild"),
        None,
        "8 unordered writers, 28 pairs: the check's share of a rebuild",
    );
    println!("\n{table}");
}

/// How many elements the rows of the long chains change.
const LONG_KS: [usize; 2] = [1, 10];

/// The elements the `k` of [`LONG_KS`] changes of a chain of `nodes` nodes: spread over it.
fn long_picked(nodes: usize, k: usize) -> impl Iterator<Item = usize> {
    (0..k).map(move |i| i * (nodes / k))
}

/// Per k of [`LONG_KS`], the raw nodes of [`long_picked`]'s elements (`raw_node(i)`: the raw
/// node of instance `i`).
fn long_raw_nodes(
    nodes: usize,
    mut raw_node: impl FnMut(usize) -> sys::CUgraphNode,
) -> Vec<Vec<sys::CUgraphNode>> {
    LONG_KS
        .iter()
        .map(|&k| long_picked(nodes, k).map(&mut raw_node).collect())
        .collect()
}

/// The raw side of [`long_setters`]: the executable, per k of [`LONG_KS`] its raw nodes
/// ([`long_raw_nodes`]), the kernel's function and context, and the address of the buffer the
/// kernel scales.
type LongRaw<'r> = (
    sys::CUgraphExec,
    &'r [Vec<sys::CUgraphNode>],
    sys::CUfunction,
    sys::CUcontext,
    u64,
);

/// The `setter/k of N` rows of a chain of `nodes` nodes declared by repetition: for each k of
/// [`LONG_KS`], `set` (the executable's `set_a(i, v)`) on k elements spread over the chain vs
/// the raw call on their nodes, A/B.
fn long_setters(
    samples: &Samples,
    nodes: usize,
    set: &mut dyn FnMut(usize, f32) -> cudagraph_runtime::Result<f32>,
    (raw_exec, raw_nodes, func, ctx, y): LongRaw<'_>,
) {
    for (k, raw_nodes) in LONG_KS.into_iter().zip(raw_nodes) {
        let (ours_flip, raw_flip) = (Cell::new(false), Cell::new(false));
        let flip = |f: &Cell<bool>| {
            f.set(!f.get());
            if f.get() {
                1.5f32
            } else {
                1.0
            }
        };
        samples.interleaved(
            (
                &format!("setter/ours/{k} of {nodes}"),
                &format!("setter/raw/{k} of {nodes}"),
            ),
            200,
            3,
            || {
                let v = flip(&ours_flip);
                for i in long_picked(nodes, k) {
                    set(i, v).expect("setter");
                }
            },
            || {
                let v = flip(&raw_flip);
                for &node in raw_nodes {
                    raw_set(raw_exec, node, func, ctx, v, y);
                }
            },
        );
    }
}

fn raw_set(
    exec: sys::CUgraphExec,
    node: sys::CUgraphNode,
    func: sys::CUfunction,
    ctx: sys::CUcontext,
    a: f32,
    y: u64,
) {
    raw_set_fn(exec, node, func, ctx, a, y);
}

/// `saxpy(THREADS, 0.5, x, y)` set on `node` with the raw call.
fn raw_saxpy(
    exec: sys::CUgraphExec,
    node: sys::CUgraphNode,
    func: sys::CUfunction,
    ctx: sys::CUcontext,
    x: u64,
    y: u64,
) {
    let (mut n, mut a, mut x, mut y) = (THREADS, 0.5f32, x, y);
    let mut args = [
        &mut n as *mut u32 as *mut c_void,
        &mut a as *mut f32 as *mut c_void,
        &mut x as *mut u64 as *mut c_void,
        &mut y as *mut u64 as *mut c_void,
    ];
    let config = LaunchConfig {
        grid_dim: (1, 1, 1),
        block_dim: (THREADS, 1, 1),
        shared_mem_bytes: 0,
    };
    let params = kernel_node_params(func, &config, args.as_mut_ptr(), ctx);
    // SAFETY: live executable and one of its kernel nodes; `params` and its arguments live through
    // the call, which copies them.
    let r = unsafe { sys::cuGraphExecKernelNodeSetParams_v2(exec, node, &params) };
    assert_eq!(r, sys::CUresult::CUDA_SUCCESS);
}

/// `func(THREADS, a, y)` (a kernel of `scale`'s parameter list) set on `node` with the raw call.
fn raw_set_fn(
    exec: sys::CUgraphExec,
    node: sys::CUgraphNode,
    func: sys::CUfunction,
    ctx: sys::CUcontext,
    a: f32,
    y: u64,
) {
    let (mut n, mut a, mut y) = (THREADS, a, y);
    let mut args = [
        &mut n as *mut u32 as *mut c_void,
        &mut a as *mut f32 as *mut c_void,
        &mut y as *mut u64 as *mut c_void,
    ];
    let config = LaunchConfig {
        grid_dim: (1, 1, 1),
        block_dim: (THREADS, 1, 1),
        shared_mem_bytes: 0,
    };
    let params = kernel_node_params(func, &config, args.as_mut_ptr(), ctx);
    // SAFETY: live executable and one of its kernel nodes; `params` and its arguments live through
    // the call, which copies them.
    let r = unsafe { sys::cuGraphExecKernelNodeSetParams_v2(exec, node, &params) };
    assert_eq!(r, sys::CUresult::CUDA_SUCCESS);
}
