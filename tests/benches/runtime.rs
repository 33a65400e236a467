//! The runtime's cost beside the raw driver doing the same work, in the same run.
//!
//! Every benchmark runs on chains of N = 1, 10, 100, 1000 `noop` kernels (one block of 32
//! threads, each node depending on the one before), once through our API and once through bare
//! `cudarc::driver::sys` calls, and the summary prints ours / raw per (benchmark, N):
//!
//! - `launch`: `GraphExec::launch` vs `cuGraphLaunch`, plus the same N kernels launched one by one
//!   into the stream with `cuLaunchKernel` (what a graph saves).
//! - `set_params`: `GraphExec::set_kernel_params` vs `cuGraphExecKernelNodeSetParams_v2` on the
//!   chain's last node, the argument alternating so every call is a real change.
//! - `rebuild_update`: `Graph::clear` + N `add_kernel` + `GraphExec::update` vs
//!   `cuGraphCreate` + N `cuGraphAddKernelNode_v2` + `cuGraphExecUpdate_v2` + `cuGraphDestroy`:
//!   the same driver calls (`clear` destroys the old graph and creates the new one). `clear` is
//!   our API for rebuild loops: it keeps the Rust-side bookkeeping (context and module
//!   references, the node table) of the graph it empties.
//! - `rebuild_update new Graph` (A/B only, reported): the same with a new `Graph` built and
//!   dropped each time (`Graph::with_capacity` ... drop): the price of that bookkeeping, mostly
//!   two reference counts taken and released (atomic operations, ~9 ns each on the cloud VMs
//!   GPUs come in) and the node table's allocation.
//! - `rebuild_update raw pointer` (A/B only, reported): the same as `rebuild_update` with every
//!   node given a raw pointer to the buffer (`DevicePtrMut::from_raw`) instead of the
//!   `DeviceBuffer`: the rebuild without a reference count per node, so the difference from
//!   `rebuild_update` is what owning the memory costs a rebuild.
//! - `rebuild_update rebuild()` (A/B, target 1.05x): `Graph::rebuild` (the chain added again,
//!   each node reusing the driver's node at its position: `cuGraphKernelNodeSetParams`) +
//!   `GraphExec::update` vs the raw rebuild of `rebuild_update`: what a rebuild loop costs
//!   through the API made for it against a raw program that rebuilds its graph. Its
//!   `vs raw reuse` row (reported) puts it against the raw calls it makes (each node set in
//!   place, `cuGraphExecUpdate` from the one graph): the price of the safe layer on that path.
//! - `reinstantiate`: `GraphExec::reinstantiate` vs `cuGraphInstantiateWithFlags` +
//!   `cuGraphExecDestroy` (reported, no target).
//!
//! Every node of our chains uses one owned `DeviceBuffer` (the path users take); the raw side
//! passes its address. So our side pays what the memory model adds: each launch goes through the
//! executable's launch gate, each `add_kernel` takes a reference to the buffer (released again by
//! `clear` or the drop of the graph), and each update checks that the node's memory is unchanged.
//! Two more A/B rows, reported only, measure the memory model where it does more work:
//!
//! - `set_params buffer swap`: `GraphExec::set_kernel_params` on the chain's last node, its buffer
//!   argument alternating between two `DeviceBuffer`s, vs `cuGraphExecKernelNodeSetParams_v2`
//!   alternating the address: each call registers the incoming buffer with the executable and
//!   releases the outgoing one. The executable has been launched once before (as in a loop that
//!   swaps buffers between launches), so a release that leaves the executable without a buffer
//!   records its completion marker (`cuEventRecord`): at every call for N = 1, at every other
//!   call for larger N (whose other nodes keep the first buffer).
//! - `held buffer swap` (target 1.5x): `GraphExec::set_kernel_params` on the last of three
//!   nodes, its buffer alternating between two `DeviceBuffer`s that the other two nodes use (one
//!   each), vs the raw call alternating the address: the executable holds both buffers, so the
//!   update moves the node between them and registers, releases and records nothing (the
//!   ping-pong of a solver's two iterates).
//! - `large` (targets 1.2x and 1.1x): one and ten single-node updates (`set_kernel_params`, the
//!   call every generated setter makes) on chains of 5000 and 10,000 nodes vs the same raw calls:
//!   an update costs the same however large the graph (the generated bench measures the setters
//!   themselves on a declaration of 1000 nodes, and of 5000 or 10,000 when built for it).
//! - `launch borrowed`: launches of a chain whose nodes borrow cudarc slices (`&mut CudaSlice`
//!   given to `add_kernel`, one slice per node: a slice can be borrowed mutably by one node only)
//!   vs `cuGraphLaunch`, in a `cudagraph_runtime::scope`. Borrowed memory skips the launch gate
//!   and records nothing per launch: the scope waits for the launches when it ends.
//!
//! Methodology. Each side is measured with `iter_custom`, and the time handed to criterion is also
//! kept (`cudagraph_tests::bench::Samples`) so the summary can be printed without criterion's
//! output files (the packed binary runs on a machine without cargo). The summary's figure is the
//! median per-iteration time over criterion's measurement samples (warm-up left out).
//!
//! - Launches are measured as throughput: one iteration is one launch (of the graph, or of the N
//!   kernels into the stream); a sample enqueues its iterations back to back and then waits for the
//!   stream, the wait inside the timed region. The stream is idle when a sample starts, and no
//!   work of one sample spills into the next. This is how a solver loop uses a graph (step after
//!   step into one stream), it is the number graphs exist to improve (a stream launch costs CPU
//!   time per kernel, a graph launch is one submission), and it is steadier than timing
//!   launch + synchronize per iteration, whose cost is dominated by the wake-up after the wait.
//!   For small N the time is the CPU's submission cost (where a wrapper's overhead would show);
//!   for large N it is the GPU's execution time, identical for both sides, so the ratio tends to 1.
//! - Updates and re-instantiation are CPU-side driver calls on an executable that is not running:
//!   the timed loop is just the calls. Both sides do the same driver work on identically built
//!   graphs; the raw side does the least a C program would (parameters built once, only the
//!   previous node kept), so ours / raw is the whole price of the safe layer.
//! - Ours runs right before raw for each N, each with criterion's warm-up.
//!
//! Targets are judged on the A/B rows: every benchmark with a target runs again with ours and
//! raw in alternating blocks in one loop ([`Samples::interleaved`]), so both sides see the same
//! machine. On the cloud GPU hosts, the raw rebuild of one node measured anywhere from 0.8 to
//! 1.8 µs depending on the moment, so criterion's separate runs of each side (seconds apart)
//! can differ by more than the wrapper costs; they are printed for reference, with no verdict.
//!
//! Without a GPU, prints one skip line and exits 0.

use std::cell::Cell;
use std::ffi::c_void;
use std::ptr::null_mut;
use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion};
use cudagraph_runtime::cudarc::driver::{sys, CudaContext, CudaSlice, CudaStream};
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{GraphExec, KernelArg, KernelNode};
use cudagraph_tests::bench::{ok, sync, RatioTable, Samples};
use cudagraph_tests::raw::kernel_node_params;
use cudagraph_tests::{compile, function, gpu, zeros, Gpu, KERNELS};

const CHAINS: [usize; 4] = [1, 10, 100, 1000];
const SAMPLE_SIZE: usize = 40;
const THREADS: u32 = 32;
const LAUNCH_TARGET: f64 = 1.05;
const SET_PARAMS_TARGET: f64 = 1.05;
/// The plain rebuild's (`Graph::clear` + adds + update) target of the first releases.
const REBUILD_TARGET: f64 = 1.10;
/// Rebuild + whole-graph update through the API made for rebuild loops (`Graph::rebuild`).
const REBUILD_REUSING_TARGET: f64 = 1.05;

/// `noop(unsigned n, float* y)`.
type NoopArgs = (u32, DevicePtrMut<f32>);

fn config() -> LaunchConfig {
    LaunchConfig {
        grid_dim: (1, 1, 1),
        block_dim: (THREADS, 1, 1),
        shared_mem_bytes: 0,
    }
}

/// The `noop` launch as the raw side passes it: the node parameters and the argument array they
/// point to. The count lives in a `Cell` so it can change while the driver holds its address.
struct RawNoop {
    func: sys::CUfunction,
    ctx: sys::CUcontext,
    count: Cell<u32>,
    y: Cell<sys::CUdeviceptr>,
}

impl RawNoop {
    /// The `kernelParams` array; valid while `self` is alive and not moved.
    fn args(&self) -> [*mut c_void; 2] {
        [self.count.as_ptr().cast(), self.y.as_ptr().cast()]
    }

    /// The node parameters, pointing at `args`.
    fn params(&self, args: &mut [*mut c_void; 2]) -> sys::CUDA_KERNEL_NODE_PARAMS {
        kernel_node_params(self.func, &config(), args.as_mut_ptr(), self.ctx)
    }

    /// A raw chain of `n` noop nodes; returns the graph and its nodes, in order.
    fn chain_nodes(&self, n: usize) -> (sys::CUgraph, Vec<sys::CUgraphNode>) {
        let mut args = self.args();
        let p = self.params(&mut args);
        let mut graph = null_mut();
        // SAFETY: valid out-pointer; flags must be 0.
        ok("cuGraphCreate", unsafe {
            sys::cuGraphCreate(&mut graph, 0)
        });
        let mut nodes: Vec<sys::CUgraphNode> = Vec::with_capacity(n);
        for _ in 0..n {
            let deps = nodes.last().map(std::slice::from_ref).unwrap_or_default();
            let mut node = null_mut();
            // SAFETY: live graph; `deps` are its nodes; `p` and the arguments it points to are live.
            ok("cuGraphAddKernelNode_v2", unsafe {
                sys::cuGraphAddKernelNode_v2(&mut node, graph, deps.as_ptr(), deps.len(), &p)
            });
            nodes.push(node);
        }
        (graph, nodes)
    }

    /// A raw chain of `n` noop nodes; returns the graph and its last node.
    fn chain(&self, n: usize) -> (sys::CUgraph, sys::CUgraphNode) {
        let mut args = self.args();
        let p = self.params(&mut args);
        let mut graph = null_mut();
        // SAFETY: valid out-pointer; flags must be 0.
        ok("cuGraphCreate", unsafe {
            sys::cuGraphCreate(&mut graph, 0)
        });
        let mut prev: Option<sys::CUgraphNode> = None;
        for _ in 0..n {
            let deps = prev.as_slice();
            let mut node = null_mut();
            // SAFETY: live graph; `deps` are its nodes; `p` and the arguments it points to are live.
            ok("cuGraphAddKernelNode_v2", unsafe {
                sys::cuGraphAddKernelNode_v2(&mut node, graph, deps.as_ptr(), deps.len(), &p)
            });
            prev = Some(node);
        }
        (graph, prev.expect("n > 0"))
    }
}

fn instantiate_raw(graph: sys::CUgraph) -> sys::CUgraphExec {
    let mut exec = null_mut();
    // SAFETY: live graph, valid out-pointer.
    ok("cuGraphInstantiateWithFlags", unsafe {
        sys::cuGraphInstantiateWithFlags(&mut exec, graph, 0)
    });
    exec
}

fn destroy_raw(graph: sys::CUgraph, exec: sys::CUgraphExec) {
    // SAFETY: both are ours, made above, and nothing uses them any more (the stream is idle).
    unsafe {
        ok("cuGraphExecDestroy", sys::cuGraphExecDestroy(exec));
        ok("cuGraphDestroy", sys::cuGraphDestroy(graph));
    }
}

/// A chain of `n` noop nodes both ways: ours instantiated, then the raw one instantiated.
struct Chains {
    exec: GraphExec<'static>,
    last: KernelNode<NoopArgs>,
    raw_graph: sys::CUgraph,
    raw_last: sys::CUgraphNode,
    raw_exec: sys::CUgraphExec,
}

impl Chains {
    /// The raw handles of *our* executable and of its last node, for the raw side of the A/B
    /// runs: both sides then launch and update the very same driver object, and the only
    /// difference left is our code. (With two executables of one graph, one each, a full run
    /// once measured single-node updates at 1.24x for N = 10 to 1000, where runs in fresh
    /// processes measured 0.92-1.04x: the two driver objects need not cost the same.)
    fn ours_raw(&self) -> (sys::CUgraphExec, sys::CUgraphNode) {
        let node = self
            .exec
            .graph()
            .raw_node(self.last)
            .expect("our last node");
        (self.exec.raw(), node)
    }

    /// Drops our executable, then destroys the raw executable and graph.
    fn destroy(self) {
        drop(self.exec);
        destroy_raw(self.raw_graph, self.raw_exec);
    }
}

/// Runs `step` `iters` times back to back and records the time taken under `id`.
fn timed(samples: &Samples, id: &str, iters: u64, mut step: impl FnMut()) -> Duration {
    let start = Instant::now();
    for _ in 0..iters {
        step();
    }
    samples.record(id, iters, start.elapsed())
}

/// Like [`timed`] for launches into `stream`: starts with it idle and waits for it in the timing.
fn timed_launches(
    stream: &CudaStream,
    samples: &Samples,
    id: &str,
    iters: u64,
    mut step: impl FnMut(),
) -> Duration {
    sync(stream);
    let start = Instant::now();
    for _ in 0..iters {
        step();
    }
    sync(stream);
    samples.record(id, iters, start.elapsed())
}

/// What every benchmark needs: the GPU, the kernel both ways, and the buffer it reads.
struct Setup {
    gpu: Gpu,
    noop: Kernel<NoopArgs>,
    raw: RawNoop,
    /// The buffer every node of our chains uses; the raw side passes its address.
    y: DeviceBuffer<f32>,
}

impl Setup {
    fn new(gpu: Gpu) -> Self {
        let y = zeros(&gpu, THREADS as usize);
        let module = compile(&gpu.ctx, KERNELS);
        let func = function(&module, "noop");
        let raw = RawNoop {
            func: func.cu_function(),
            ctx: gpu.ctx.cu_ctx(),
            count: Cell::new(THREADS),
            y: Cell::new(y.addr()),
        };
        // SAFETY: `noop` is `void noop(unsigned n, float* y)`.
        let noop = unsafe { Kernel::new(func) };
        Self { gpu, noop, raw, y }
    }

    fn ctx(&self) -> &Arc<CudaContext> {
        &self.gpu.ctx
    }

    fn stream(&self) -> &Arc<CudaStream> {
        &self.gpu.stream
    }

    /// Our chain of `n` noop nodes with argument `count`, and its last node.
    fn chain(&self, n: usize, count: u32) -> (Graph<'static>, KernelNode<NoopArgs>) {
        let mut graph = Graph::with_capacity(self.ctx(), n).expect("Graph::with_capacity");
        let last = self.add_chain(&mut graph, n, count);
        (graph, last)
    }

    /// Adds a chain of `n` noop nodes with argument `count` to `graph`; returns the last.
    fn add_chain(&self, graph: &mut Graph, n: usize, count: u32) -> KernelNode<NoopArgs> {
        self.add_nodes(graph, count, (0..n).map(|_| &self.y))
    }

    /// Adds a chain of noop nodes with argument `count` to `graph`, one per buffer of `ys`;
    /// returns the last.
    fn add_nodes<'a, Y: KernelArg<'a, DevicePtrMut<f32>>>(
        &self,
        graph: &mut Graph<'a>,
        count: u32,
        ys: impl IntoIterator<Item = Y>,
    ) -> KernelNode<NoopArgs> {
        let mut last: Option<KernelNode<NoopArgs>> = None;
        for y in ys {
            let prev = last.map(|k| k.id());
            last = Some(
                graph
                    .add_kernel(&self.noop, config(), (count, y), prev.as_slice())
                    .expect("add_kernel"),
            );
        }
        last.expect("at least one node")
    }

    /// [`Chains`] of `n` nodes with argument [`THREADS`].
    fn chains(&self, n: usize) -> Chains {
        let (graph, last) = self.chain(n, THREADS);
        let exec = graph.instantiate().expect("instantiate");
        let (raw_graph, raw_last) = self.raw.chain(n);
        let raw_exec = instantiate_raw(raw_graph);
        Chains {
            exec,
            last,
            raw_graph,
            raw_last,
            raw_exec,
        }
    }
}

fn launch(c: &mut Criterion, s: &Setup, samples: &Samples) {
    let stream = s.stream();
    let mut group = c.benchmark_group("launch");
    for n in CHAINS {
        let mut ch = s.chains(n);

        let id = format!("launch/ours/{n}");
        group.bench_function(BenchmarkId::new("ours", n), |b| {
            b.iter_custom(|iters| {
                timed_launches(stream, samples, &id, iters, || {
                    ch.exec.launch(stream).expect("launch");
                })
            })
        });

        let id = format!("launch/raw/{n}");
        group.bench_function(BenchmarkId::new("raw", n), |b| {
            b.iter_custom(|iters| {
                timed_launches(stream, samples, &id, iters, || {
                    raw_launch(ch.raw_exec, stream)
                })
            })
        });

        let id = format!("launch/stream/{n}");
        let mut args = s.raw.args();
        let c = config();
        group.bench_function(BenchmarkId::new("stream", n), |b| {
            b.iter_custom(|iters| {
                timed_launches(stream, samples, &id, iters, || {
                    for _ in 0..n {
                        // SAFETY: `noop` takes (unsigned, float*), which `args` points to; the
                        // driver copies them at the call; live stream of the bound context.
                        ok("cuLaunchKernel", unsafe {
                            sys::cuLaunchKernel(
                                s.raw.func,
                                c.grid_dim.0,
                                c.grid_dim.1,
                                c.grid_dim.2,
                                c.block_dim.0,
                                c.block_dim.1,
                                c.block_dim.2,
                                c.shared_mem_bytes,
                                stream.cu_stream(),
                                args.as_mut_ptr(),
                                null_mut(),
                            )
                        });
                    }
                })
            })
        });

        sync(stream);
        ch.destroy();
    }
    group.finish();
}

fn set_params(c: &mut Criterion, s: &Setup, samples: &Samples) {
    let mut group = c.benchmark_group("set_params");
    let cfg = config();
    for n in CHAINS {
        let mut ch = s.chains(n);

        // The count alternates between 32 and 31 across calls (and samples): always a change.
        let mut flip = 0;
        let id = format!("set_params/ours/{n}");
        group.bench_function(BenchmarkId::new("ours", n), |b| {
            b.iter_custom(|iters| {
                timed(samples, &id, iters, || {
                    flip ^= 1;
                    ch.exec
                        .set_kernel_params(ch.last, cfg, (THREADS - flip, &s.y))
                        .expect("set_kernel_params");
                })
            })
        });

        let mut args = s.raw.args();
        let p = s.raw.params(&mut args);
        let mut flip = 0;
        let id = format!("set_params/raw/{n}");
        group.bench_function(BenchmarkId::new("raw", n), |b| {
            b.iter_custom(|iters| {
                timed(samples, &id, iters, || {
                    flip ^= 1;
                    s.raw.count.set(THREADS - flip);
                    raw_set_params(ch.raw_exec, ch.raw_last, &p);
                })
            })
        });

        s.raw.count.set(THREADS);
        ch.destroy();
    }
    group.finish();
}

fn rebuild_update(c: &mut Criterion, s: &Setup, samples: &Samples) {
    let mut group = c.benchmark_group("rebuild_update");
    for n in CHAINS {
        let mut ch = s.chains(n);
        let (mut scratch, _) = s.chain(n, THREADS);

        let mut flip = 0;
        let id = format!("rebuild_update/ours/{n}");
        group.bench_function(BenchmarkId::new("ours", n), |b| {
            b.iter_custom(|iters| {
                timed(samples, &id, iters, || {
                    flip ^= 1;
                    ours_rebuild_update(s, &mut scratch, n, THREADS - flip, &mut ch.exec);
                })
            })
        });

        let mut flip = 0;
        let id = format!("rebuild_update/raw/{n}");
        group.bench_function(BenchmarkId::new("raw", n), |b| {
            b.iter_custom(|iters| {
                timed(samples, &id, iters, || {
                    flip ^= 1;
                    s.raw.count.set(THREADS - flip);
                    raw_rebuild_update(s, n, ch.raw_exec);
                })
            })
        });

        s.raw.count.set(THREADS);
        ch.destroy();
    }
    group.finish();
}

/// The raw launch of `exec` into `stream`.
fn raw_launch(exec: sys::CUgraphExec, stream: &CudaStream) {
    // SAFETY: live executable and stream.
    ok("cuGraphLaunch", unsafe {
        sys::cuGraphLaunch(exec, stream.cu_stream())
    });
}

/// The raw single-node update of `node`.
fn raw_set_params(
    exec: sys::CUgraphExec,
    node: sys::CUgraphNode,
    p: &sys::CUDA_KERNEL_NODE_PARAMS,
) {
    // SAFETY: live executable; `node` is a kernel node of its graph; `p` and the arguments it
    // points to are live.
    ok("cuGraphExecKernelNodeSetParams_v2", unsafe {
        sys::cuGraphExecKernelNodeSetParams_v2(exec, node, p)
    });
}

/// `rebuild_update raw pointer` (A/B, reported): the rebuild of `rebuild_update`, its nodes given
/// a raw pointer (`DevicePtrMut::from_raw`) to the chain's buffer instead of the `DeviceBuffer`,
/// on an executable built the same way: what the rebuild costs without a reference to the
/// allocation taken per node and dropped at the next `clear` (the memory model's share), against
/// the same raw side as `rebuild_update` (`raw_rebuild`).
fn rebuild_raw_pointer_ab(
    s: &Setup,
    samples: &Samples,
    n: usize,
    block: u64,
    raw_rebuild: &mut dyn FnMut(),
) {
    // SAFETY: `s.y` holds `s.y.len()` floats and outlives the graph and the executable below
    // (both dropped at the end of this function, the executable after waiting for nothing: it
    // is never launched).
    let y = unsafe { DevicePtrMut::<f32>::from_raw(s.y.addr(), s.y.len()) };
    let chain = |graph: &mut Graph<'static>, count: u32| {
        s.add_nodes(graph, count, (0..n).map(|_| y));
    };
    let new_chain = || {
        let mut graph = Graph::with_capacity(s.ctx(), n).expect("Graph::with_capacity");
        chain(&mut graph, THREADS);
        graph
    };
    let mut exec = new_chain().instantiate().expect("instantiate");
    let mut graph = new_chain();
    let mut flip = 0;
    samples.interleaved(
        (
            &format!("rebuild_update raw pointer/ours-ab/{n}"),
            &format!("rebuild_update raw pointer/raw-ab/{n}"),
        ),
        block,
        4,
        || {
            flip ^= 1;
            graph.clear().expect("clear");
            chain(&mut graph, THREADS - flip);
            exec.update(&graph).expect("update");
        },
        raw_rebuild,
    );
}

/// Ours: `graph` cleared and rebuilt as a chain of `n` with argument `count`, whole-graph update.
fn ours_rebuild_update(
    s: &Setup,
    graph: &mut Graph<'static>,
    n: usize,
    count: u32,
    exec: &mut GraphExec<'static>,
) {
    graph.clear().expect("clear");
    s.add_chain(graph, n, count);
    exec.update(graph).expect("update");
}

/// Ours with `Graph::rebuild`: `graph` rebuilt as a chain of `n` with argument `count` (its
/// driver nodes reused), whole-graph update.
fn ours_rebuild_reusing(
    s: &Setup,
    graph: &mut Graph<'static>,
    n: usize,
    count: u32,
    exec: &mut GraphExec<'static>,
) {
    graph
        .rebuild(|g| {
            let mut last: Option<KernelNode<NoopArgs>> = None;
            for _ in 0..n {
                let prev = last.map(|k| k.id());
                last = Some(g.add_kernel(&s.noop, config(), (count, &s.y), prev.as_slice())?);
            }
            Ok(())
        })
        .expect("rebuild");
    exec.update(graph).expect("update");
}

/// Raw, the calls `Graph::rebuild` makes: every node of `graph` (a chain of `nodes`) set in
/// place (argument from `s.raw.count`), then `cuGraphExecUpdate` from it.
fn raw_reuse_update(
    s: &Setup,
    graph: sys::CUgraph,
    nodes: &[sys::CUgraphNode],
    exec: sys::CUgraphExec,
) {
    let mut args = s.raw.args();
    let p = s.raw.params(&mut args);
    for &node in nodes {
        // SAFETY: a live kernel node of `graph`; `p` and the arguments it points to are live.
        ok("cuGraphKernelNodeSetParams_v2", unsafe {
            sys::cuGraphKernelNodeSetParams_v2(node, &p)
        });
    }
    // SAFETY: all-zero is a valid "no result yet" value for this plain C struct.
    let mut info: sys::CUgraphExecUpdateResultInfo = unsafe { std::mem::zeroed() };
    // SAFETY: live executable and graph of the same topology; valid out-pointer.
    ok("cuGraphExecUpdate_v2", unsafe {
        sys::cuGraphExecUpdate_v2(exec, graph, &mut info)
    });
}

/// Ours without reuse: a new chain of `n` with argument `count`, whole-graph update, drop.
fn ours_new_graph_update(s: &Setup, n: usize, count: u32, exec: &mut GraphExec<'static>) {
    let (fresh, _) = s.chain(n, count);
    exec.update(&fresh).expect("update");
    drop(fresh);
}

/// Raw: a fresh chain of `n` (argument from `s.raw.count`), `cuGraphExecUpdate`, destroy.
fn raw_rebuild_update(s: &Setup, n: usize, exec: sys::CUgraphExec) {
    let (fresh, _) = s.raw.chain(n);
    // SAFETY: all-zero is a valid "no result yet" value for this plain C struct.
    let mut info: sys::CUgraphExecUpdateResultInfo = unsafe { std::mem::zeroed() };
    // SAFETY: live executable and graph of the same topology; valid out-pointer.
    ok("cuGraphExecUpdate_v2", unsafe {
        sys::cuGraphExecUpdate_v2(exec, fresh, &mut info)
    });
    // SAFETY: `fresh` is ours; the executable does not depend on it after the update.
    ok("cuGraphDestroy", unsafe { sys::cuGraphDestroy(fresh) });
}

/// Graph launches again as A/B runs, of the chains (`launch`) and of chains that borrow their
/// memory (`launch borrowed`).
fn launches_ab(s: &Setup, samples: &Samples) {
    let stream = s.stream();
    for n in CHAINS {
        let mut ch = s.chains(n);
        launch_ab(samples, stream, "launch", n, &mut ch.exec);
        ch.destroy();

        // One slice per node: a graph can hold one `&mut` borrow of a slice.
        let mut ys: Vec<CudaSlice<f32>> = (0..n)
            .map(|_| stream.alloc_zeros(THREADS as usize).expect("allocating y"))
            .collect();
        cudagraph_runtime::scope(|scope| {
            let mut graph = scope
                .graph_with_capacity(s.ctx(), n)
                .expect("Scope::graph_with_capacity");
            s.add_nodes(&mut graph, THREADS, ys.iter_mut());
            let mut exec = graph.instantiate().expect("instantiate");
            launch_ab(samples, stream, "launch borrowed", n, &mut exec);
        }); // waits for the launches: the borrows of `ys` end here
    }
}

/// Launches of `exec` (a chain of `n`) as an A/B run recorded under `bench`: blocks of launches,
/// each ending with a wait for the stream (inside the timing, as in [`launch`]), ours and raw
/// alternating on the same executable (see [`Chains::ours_raw`]).
fn launch_ab(
    samples: &Samples,
    stream: &Arc<CudaStream>,
    bench: &str,
    n: usize,
    exec: &mut GraphExec<'_>,
) {
    let raw_exec = exec.raw();
    sync(stream);
    samples.interleaved_blocks(
        (
            &format!("{bench}/ours-ab/{n}"),
            &format!("{bench}/raw-ab/{n}"),
        ),
        (2000 / n as u64).max(2),
        4,
        |block| {
            for _ in 0..block {
                exec.launch(stream).expect("launch");
            }
            sync(stream);
        },
        |block| {
            for _ in 0..block {
                raw_launch(raw_exec, stream);
            }
            sync(stream);
        },
    );
}

/// The two update benchmarks again as A/B runs ([`Samples::interleaved`]): ours and raw in
/// alternating blocks, so both see the same machine, on the same executable (see
/// [`Chains::ours_raw`]); then the buffer swap (`set_params buffer swap`).
fn updates_ab(s: &Setup, samples: &Samples) {
    let cfg = config();
    let stream = s.stream();
    // The buffer the swap row alternates with `s.y`.
    let other = zeros(&s.gpu, THREADS as usize);
    let buffers = [&s.y, &other];
    for n in CHAINS {
        let mut ch = s.chains(n);
        let (raw_exec, raw_last) = ch.ours_raw();
        let mut args = s.raw.args();
        let p = s.raw.params(&mut args);
        let (mut ours_flip, mut raw_flip) = (0, 0);
        samples.interleaved(
            (
                &format!("set_params/ours-ab/{n}"),
                &format!("set_params/raw-ab/{n}"),
            ),
            500,
            4,
            || {
                ours_flip ^= 1;
                ch.exec
                    .set_kernel_params(ch.last, cfg, (THREADS - ours_flip, &s.y))
                    .expect("set_kernel_params");
            },
            || {
                raw_flip ^= 1;
                s.raw.count.set(THREADS - raw_flip);
                raw_set_params(raw_exec, raw_last, &p);
            },
        );
        let block = (2000 / n as u64).max(2);
        let (mut scratch, _) = s.chain(n, THREADS);
        // One raw side for both rows: ours with `clear`, ours with a new graph each time.
        let mut raw_rebuild = || {
            raw_flip ^= 1;
            s.raw.count.set(THREADS - raw_flip);
            raw_rebuild_update(s, n, raw_exec);
        };
        samples.interleaved(
            (
                &format!("rebuild_update/ours-ab/{n}"),
                &format!("rebuild_update/raw-ab/{n}"),
            ),
            block,
            4,
            || {
                ours_flip ^= 1;
                ours_rebuild_update(s, &mut scratch, n, THREADS - ours_flip, &mut ch.exec);
            },
            &mut raw_rebuild,
        );
        samples.interleaved(
            (
                &format!("rebuild_update new Graph/ours-ab/{n}"),
                &format!("rebuild_update new Graph/raw-ab/{n}"),
            ),
            block,
            4,
            || {
                ours_flip ^= 1;
                ours_new_graph_update(s, n, THREADS - ours_flip, &mut ch.exec);
            },
            &mut raw_rebuild,
        );
        rebuild_raw_pointer_ab(s, samples, n, block, &mut raw_rebuild);
        // `Graph::rebuild`, which reuses the driver's nodes, against the raw rebuild above and
        // against the raw calls it makes (the nodes set in place, the update from one graph).
        let (mut reused, _) = s.chain(n, THREADS);
        samples.interleaved(
            (
                &format!("rebuild_update rebuild()/ours-ab/{n}"),
                &format!("rebuild_update rebuild()/raw-ab/{n}"),
            ),
            block,
            4,
            || {
                ours_flip ^= 1;
                ours_rebuild_reusing(s, &mut reused, n, THREADS - ours_flip, &mut ch.exec);
            },
            &mut raw_rebuild,
        );
        let (raw_graph, raw_nodes) = s.raw.chain_nodes(n);
        samples.interleaved(
            (
                &format!("rebuild_update rebuild() vs raw reuse/ours-ab/{n}"),
                &format!("rebuild_update rebuild() vs raw reuse/raw-ab/{n}"),
            ),
            block,
            4,
            || {
                ours_flip ^= 1;
                ours_rebuild_reusing(s, &mut reused, n, THREADS - ours_flip, &mut ch.exec);
            },
            || {
                raw_flip ^= 1;
                s.raw.count.set(THREADS - raw_flip);
                raw_reuse_update(s, raw_graph, &raw_nodes, raw_exec);
            },
        );
        // SAFETY: ours; nothing uses it any more.
        ok("cuGraphDestroy", unsafe { sys::cuGraphDestroy(raw_graph) });
        s.raw.count.set(THREADS);

        // Launched once, as in a loop that swaps buffers between launches (see the module docs).
        ch.exec.launch(stream).expect("launch");
        sync(stream);
        // The buffer alternates: every call is a change of the node's memory.
        let (mut ours_at, mut raw_at) = (0, 0);
        samples.interleaved(
            (
                &format!("set_params buffer swap/ours-ab/{n}"),
                &format!("set_params buffer swap/raw-ab/{n}"),
            ),
            500,
            4,
            || {
                ours_at ^= 1;
                ch.exec
                    .set_kernel_params(ch.last, cfg, (THREADS, buffers[ours_at]))
                    .expect("set_kernel_params");
            },
            || {
                raw_at ^= 1;
                s.raw.y.set(buffers[raw_at].addr());
                raw_set_params(raw_exec, raw_last, &p);
            },
        );
        s.raw.y.set(s.y.addr());
        ch.destroy();
    }
}

/// `held buffer swap`: a node alternating between two buffers the executable holds (see the
/// module docs), vs the raw call alternating the address.
fn held_swap_ab(s: &Setup, samples: &Samples) {
    let cfg = config();
    let other = zeros(&s.gpu, THREADS as usize);
    let buffers = [&s.y, &other];
    let mut graph = Graph::new(s.ctx()).expect("Graph::new");
    // A chain: `y`, `other`, and the node that alternates, starting on `y`.
    let last = s.add_nodes(&mut graph, THREADS, [&s.y, &other, &s.y]);
    let mut exec = graph.instantiate().expect("instantiate");
    // Launched once, as in a loop that swaps between launches.
    exec.launch(s.stream()).expect("launch");
    sync(s.stream());
    let (raw_exec, raw_last) = (exec.raw(), exec.graph().raw_node(last).expect("node"));
    let mut args = s.raw.args();
    let p = s.raw.params(&mut args);
    let (mut ours_at, mut raw_at) = (0, 0);
    samples.interleaved(
        ("held buffer swap/ours-ab/3", "held buffer swap/raw-ab/3"),
        500,
        4,
        || {
            ours_at ^= 1;
            exec.set_kernel_params(last, cfg, (THREADS, buffers[ours_at]))
                .expect("set_kernel_params");
        },
        || {
            raw_at ^= 1;
            s.raw.y.set(buffers[raw_at].addr());
            raw_set_params(raw_exec, raw_last, &p);
        },
    );
    s.raw.y.set(s.y.addr());
    sync(s.stream());
}

/// Chains of these many nodes for the `large` rows.
const LARGE: [usize; 2] = [5000, 10_000];

/// `large`: one and ten single-node updates on chains of [`LARGE`] nodes (see the module docs).
fn large_ab(s: &Setup, samples: &Samples) {
    let cfg = config();
    for n in LARGE {
        let mut graph = Graph::with_capacity(s.ctx(), n).expect("Graph::with_capacity");
        let mut nodes = Vec::with_capacity(n);
        for i in 0..n {
            let prev: Option<KernelNode<NoopArgs>> = nodes.last().copied();
            let deps = prev.map(|k| k.id());
            let node = graph
                .add_kernel(&s.noop, cfg, (THREADS, &s.y), deps.as_slice())
                .expect("add_kernel");
            debug_assert_eq!(i, nodes.len());
            nodes.push(node);
        }
        let mut exec = graph.instantiate().expect("instantiate");
        let raw_exec = exec.raw();
        let mut args = s.raw.args();
        let p = s.raw.params(&mut args);
        for k in [1, 10] {
            let picked: Vec<KernelNode<NoopArgs>> =
                (0..k).map(|i| nodes[n / 2 + i * (n / 2 / k)]).collect();
            let raw_nodes: Vec<_> = picked
                .iter()
                .map(|&node| exec.graph().raw_node(node).expect("node"))
                .collect();
            let (mut ours_flip, mut raw_flip) = (0, 0);
            samples.interleaved(
                (
                    &format!("large/ours-ab/{k} of {n}"),
                    &format!("large/raw-ab/{k} of {n}"),
                ),
                200,
                3,
                || {
                    ours_flip ^= 1;
                    for &node in &picked {
                        exec.set_kernel_params(node, cfg, (THREADS - ours_flip, &s.y))
                            .expect("set_kernel_params");
                    }
                },
                || {
                    raw_flip ^= 1;
                    s.raw.count.set(THREADS - raw_flip);
                    for &node in &raw_nodes {
                        raw_set_params(raw_exec, node, &p);
                    }
                },
            );
        }
        s.raw.count.set(THREADS);
        drop(exec);
    }
}

fn reinstantiate(c: &mut Criterion, s: &Setup, samples: &Samples) {
    let mut group = c.benchmark_group("reinstantiate");
    for n in CHAINS {
        let mut ch = s.chains(n);

        let id = format!("reinstantiate/ours/{n}");
        group.bench_function(BenchmarkId::new("ours", n), |b| {
            b.iter_custom(|iters| {
                timed(samples, &id, iters, || {
                    ch.exec
                        .reinstantiate(InstantiateFlags::NONE)
                        .expect("reinstantiate");
                })
            })
        });

        let id = format!("reinstantiate/raw/{n}");
        group.bench_function(BenchmarkId::new("raw", n), |b| {
            b.iter_custom(|iters| {
                timed(samples, &id, iters, || {
                    let fresh = instantiate_raw(ch.raw_graph);
                    // SAFETY: the old executable is ours and is not running.
                    ok("cuGraphExecDestroy", unsafe {
                        sys::cuGraphExecDestroy(ch.raw_exec)
                    });
                    ch.raw_exec = fresh;
                })
            })
        });

        ch.destroy();
    }
    group.finish();
}

fn summary(device: &str, samples: &Samples) -> RatioTable {
    let mut table = RatioTable::new(format!(
        "cudagraph runtime, ours / raw driver on {device} (median per-iteration time over criterion's {SAMPLE_SIZE} samples)"
    ));
    // Targets on the A/B rows only (see the module docs).
    let benches = [
        ("launch", "", None),
        ("launch", "-ab", Some(LAUNCH_TARGET)),
        ("set_params", "", None),
        ("set_params", "-ab", Some(SET_PARAMS_TARGET)),
        ("rebuild_update", "", None),
        ("rebuild_update", "-ab", Some(REBUILD_TARGET)),
        ("rebuild_update new Graph", "-ab", None),
        ("rebuild_update raw pointer", "-ab", None),
        (
            "rebuild_update rebuild()",
            "-ab",
            Some(REBUILD_REUSING_TARGET),
        ),
        ("rebuild_update rebuild() vs raw reuse", "-ab", None),
        ("reinstantiate", "", None),
        ("set_params buffer swap", "-ab", None),
        ("launch borrowed", "-ab", None),
    ];
    for (bench, ab, target) in benches {
        for n in CHAINS {
            let (ours, raw) = (
                format!("{bench}/ours{ab}/{n}"),
                format!("{bench}/raw{ab}/{n}"),
            );
            let note = match (
                bench,
                samples.estimate(&format!("{bench}/stream/{n}")),
                samples.estimate(&raw),
            ) {
                ("launch", Some(stream), Some(graph)) => format!(
                    "stream launch {:.3} µs: graph {:.2}x faster",
                    stream.median.as_secs_f64() * 1e6,
                    stream.median.as_secs_f64() / graph.median.as_secs_f64()
                ),
                ("set_params buffer swap", ..) => beside(
                    samples,
                    &ours,
                    &format!("set_params/ours-ab/{n}"),
                    "set_params A/B",
                ),
                ("launch borrowed", ..) => {
                    beside(samples, &ours, &format!("launch/ours-ab/{n}"), "launch A/B")
                }
                _ => String::new(),
            };
            let name = if ab.is_empty() {
                bench.to_owned()
            } else {
                format!("{bench} A/B")
            };
            table.compare(samples, &name, n, (&ours, &raw), target, note);
        }
    }
    table.compare(
        samples,
        "held buffer swap A/B",
        3,
        ("held buffer swap/ours-ab/3", "held buffer swap/raw-ab/3"),
        Some(1.5),
        "both buffers held by the executable: nothing registered or released",
    );
    for n in LARGE {
        for (k, target) in [(1, 1.2), (10, 1.1)] {
            table.compare(
                samples,
                "large A/B",
                format!("{k} of {n}"),
                (
                    &format!("large/ours-ab/{k} of {n}"),
                    &format!("large/raw-ab/{k} of {n}"),
                ),
                Some(target),
                "single-node updates of a large graph",
            );
        }
    }
    table
}

/// A note comparing ours of one row (`id`) with ours of the row named `base` (`base_id`).
fn beside(samples: &Samples, id: &str, base_id: &str, base: &str) -> String {
    match (samples.estimate(id), samples.estimate(base_id)) {
        (Some(e), Some(b)) => format!(
            "{:.2}x ours of {base} ({:.3} µs)",
            e.median.as_secs_f64() / b.median.as_secs_f64(),
            b.median.as_secs_f64() * 1e6
        ),
        _ => String::new(),
    }
}

fn main() {
    let Some(gpu) = gpu("bench runtime") else {
        return;
    };
    gpu.ctx.bind_to_thread().expect("binding the context");
    let device = gpu
        .ctx
        .name()
        .unwrap_or_else(|e| format!("<unnamed device: {e}>"));
    println!("device: {device}");
    let s = Setup::new(gpu);
    let samples = Samples::new(SAMPLE_SIZE);

    // 36 benchmarks at ~3.5 s each (about 2 minutes): long enough that the sub-microsecond update
    // calls are measured to a few percent, short enough for a GPU session.
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3))
        .sample_size(SAMPLE_SIZE)
        .configure_from_args();
    launch(&mut c, &s, &samples);
    set_params(&mut c, &s, &samples);
    rebuild_update(&mut c, &s, &samples);
    reinstantiate(&mut c, &s, &samples);
    c.final_summary();
    launches_ab(&s, &samples);
    updates_ab(&s, &samples);
    held_swap_ab(&s, &samples);
    large_ab(&s, &samples);

    sync(s.stream());
    println!("\n{}", summary(&device, &samples));
}
