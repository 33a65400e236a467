//! Declarations by repetition against the same graph written out node by node: the chain of N
//! = 1000 kernels as `Chain` (each node and param written, `build.rs`'s `chain.rs`) and as
//! `ChainRep` (one node in a `for` loop, an array param; `chain_repeat.rs`), in one run, A/B
//! (alternating blocks):
//!
//! - `handle`: an instance's handle (`rep.node(500)?.set(..)`) vs the written-out node's
//!   (`exec.n500().set(..)`): the index and its check. Target: at most 1.05x.
//! - `set_params`: one element of the array changed (`a[500]`) vs one param (`a500`): the
//!   same detection over N values, element by element. Target: at most 1.1x.
//! - `rebuild`: the graph built again in place: nodes added in a loop, dependencies from a
//!   table, vs one call per node (reported).
//!
//! `CUDAGRAPH_BENCH_CHAIN=10000` at build time makes both chains 10,000 nodes long. Without a
//! GPU, prints one skip line.

use std::cell::Cell;

use cudagraph_runtime::{cuda_graph, prelude::*};
use cudagraph_tests::bench::{RatioTable, Samples};
use cudagraph_tests::{gpu, zeros, Kernels};

include!(concat!(env!("OUT_DIR"), "/chain.rs"));
include!(concat!(env!("OUT_DIR"), "/chain_repeat.rs"));

const SAMPLE_SIZE: usize = 20;
const THREADS: u32 = 32;
/// The node both sides change.
const NODE: usize = 500;

fn main() {
    let Some(gpu) = gpu("bench repeat") else {
        return;
    };
    let device = gpu
        .ctx
        .name()
        .unwrap_or_else(|e| format!("<unnamed device: {e}>"));
    println!("device: {device}");
    let kernels = Kernels::load(&gpu.ctx);
    let y = zeros::<f32>(&gpu, THREADS as usize);
    let mut p = params(kernels.scale.clone(), y.clone(), THREADS, 1.0);
    let mut q = ChainRepParams {
        k: kernels.scale.clone(),
        y: y.clone(),
        n: THREADS,
        a: [1.0; NODES],
    };
    let mut hand = Chain::build(&gpu.ctx, &p)
        .expect("build Chain")
        .instantiate()
        .expect("instantiate Chain");
    let mut rep = ChainRep::build(&gpu.ctx, &q)
        .expect("build ChainRep")
        .instantiate()
        .expect("instantiate ChainRep");
    let samples = Samples::new(SAMPLE_SIZE);
    // Each call a real change: the value alternates.
    let value = |flip: &Cell<bool>| {
        flip.set(!flip.get());
        if flip.get() {
            0.5f32
        } else {
            2.0
        }
    };

    let (rep_flip, hand_flip) = (Cell::new(false), Cell::new(false));
    samples.interleaved(
        ("handle/rep", "handle/hand"),
        500,
        4,
        || {
            rep.node(NODE)
                .expect("an instance")
                .set(THREADS, value(&rep_flip), &y)
                .expect("instance set")
        },
        || {
            hand.n500()
                .set(THREADS, value(&hand_flip), &y)
                .expect("node set")
        },
    );
    rep.set_params(&q).expect("resync");
    hand.set_params(&p).expect("resync");

    samples.interleaved(
        ("set_params/rep", "set_params/hand"),
        200,
        4,
        || {
            q.a[NODE] = value(&rep_flip);
            assert_eq!(rep.set_params(&q).expect("set_params"), 1);
        },
        || {
            set_a(&mut p, NODE, value(&hand_flip));
            assert_eq!(hand.set_params(&p).expect("set_params"), 1);
        },
    );

    let mut rep_graph = ChainRep::build(&gpu.ctx, &q).expect("build ChainRep");
    let mut hand_graph = Chain::build(&gpu.ctx, &p).expect("build Chain");
    samples.interleaved(
        ("rebuild/rep", "rebuild/hand"),
        5,
        2,
        || rep_graph.rebuild(&q).expect("rebuild ChainRep"),
        || hand_graph.rebuild(&p).expect("rebuild Chain"),
    );
    gpu.stream.synchronize().expect("sync");

    let mut table = RatioTable::new(format!(
        "declared by repetition vs node by node on {device}, chain of {CHAIN_NODES} nodes \
         (median per-iteration time, A/B)"
    ));
    table.compare(
        &samples,
        "instance handle vs node handle",
        format!("node {NODE}"),
        ("handle/rep", "handle/hand"),
        Some(1.05),
        "alternating blocks of 500 calls",
    );
    table.compare(
        &samples,
        "set_params, one element vs one param",
        format!("1 of {CHAIN_NODES}"),
        ("set_params/rep", "set_params/hand"),
        Some(1.1),
        "alternating blocks of 200 calls",
    );
    table.compare(
        &samples,
        "rebuild in place",
        CHAIN_NODES,
        ("rebuild/rep", "rebuild/hand"),
        None,
        "nodes added in a loop vs one call per node",
    );
    println!("\n{table}");
}
