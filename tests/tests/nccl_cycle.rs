//! Collectives of three GPUs waiting for each other in a cycle through three communicators: the
//! order check refuses the graphs on every rank, and the witness shows what it spares, the same
//! collectives through raw NCCL calls hanging on the GPUs (in a child process, which the witness
//! ends). Three communicators of two ranks each: `p` of GPUs 0 and 1, `q` of 1 and 2, `r` of 2
//! and 0; GPU 0 issues its collective on `p` then the one on `r`, GPU 1 `q` then `p`, GPU 2 `r`
//! then `q`. Each communicator's ranks issue the same collectives, and no two ranks share two
//! communicators: only the ranks' orders taken together show that GPU 0 waits in `p` for GPU 1,
//! which waits in `q` for GPU 2, which waits in `r` for GPU 0.
//!
//! With four GPUs, a two-by-two mesh of pairs: in one order every rank shares, checked over two
//! rounds of exchanges and run; with two ranks' orders crossed, a cycle through the four pairs,
//! refused.
//!
//! Skips without three GPUs (four for the mesh; a failure under `CUDAGRAPH_REQUIRE_GPUS` of as
//! many or more) or NCCL (see `cudagraph_tests::nccl`).

use std::ffi::c_void;
use std::sync::mpsc::channel;
use std::sync::Arc;
use std::time::Duration;

use cudagraph_runtime::cudarc::driver::{CudaContext, CudaStream};
use cudagraph_runtime::cudarc::nccl::{result as nccl, sys as nccl_sys};
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{Communicator, DeviceBuffer, Error, ReduceOp};
use cudagraph_tests::child::{aborted, is_child, run_alone_within};
use cudagraph_tests::nccl::{nccl_gpus, watch};

/// The communicators, by the pair of GPUs each joins (its rank 0 first).
const PAIRS: [(&str, [usize; 2]); 3] = [("p", [0, 1]), ("q", [1, 2]), ("r", [2, 0])];

/// Each GPU's two communicators (indices into [`PAIRS`]) in the order of the cycle.
const CYCLE: [[usize; 2]; 3] = [[0, 2], [1, 0], [2, 1]];

/// An order of the same collectives every GPU shares: by communicator, `p`, then `q`, then `r`.
const SHARED: [[usize; 2]; 3] = [[0, 2], [0, 1], [1, 2]];

/// What an all-reduce (sum) over communicator `c` gives, each GPU contributing its ordinal + 1.
fn sum_over(c: usize) -> f32 {
    PAIRS[c].1.iter().map(|&g| g as f32 + 1.0).sum()
}

/// A communicator of two ranks for each of `pairs` (two GPUs, indices into `ctxs`, its rank 0
/// first): each GPU's handle of each pair's communicator, `None` where it is not of the pair.
fn communicators_of_pairs(
    ctxs: &[Arc<CudaContext>],
    pairs: &[[usize; 2]],
) -> Vec<Vec<Option<Communicator>>> {
    let mut handles: Vec<Vec<Option<Communicator>>> = ctxs
        .iter()
        .map(|_| pairs.iter().map(|_| None).collect())
        .collect();
    for (c, gpus) in pairs.iter().enumerate() {
        let pair = Communicator::init_all(&gpus.map(|g| ctxs[g].clone())).unwrap();
        for (comm, &g) in pair.into_iter().zip(gpus) {
            handles[g][c] = Some(comm);
        }
    }
    handles
}

#[test]
fn three_gpus_refuse_collectives_waiting_in_a_cycle_through_three_communicators() {
    let test = "three_gpus_refuse_collectives_waiting_in_a_cycle_through_three_communicators";
    let Some((gpu, more)) = nccl_gpus(test, 3) else {
        return;
    };
    let _watch = watch(test);
    let ctxs = [gpu.ctx.clone(), more[0].clone(), more[1].clone()];
    let handles = communicators_of_pairs(&ctxs, &PAIRS.map(|(_, gpus)| gpus));
    let outcomes: Vec<(Result<(), Error>, Vec<f32>)> = std::thread::scope(|s| {
        let ranks: Vec<_> = handles
            .into_iter()
            .zip(&ctxs)
            .enumerate()
            .map(|(g, (comms, ctx))| {
                s.spawn(move || {
                    let st = ctx.new_stream().unwrap();
                    let mine = DeviceBuffer::from_host(&st, &[g as f32 + 1.0; 4]).unwrap();
                    let mut sums: Vec<DeviceBuffer<f32>> = (0..3)
                        .map(|_| DeviceBuffer::from_host(&st, &[0.0; 4]).unwrap())
                        .collect();
                    let build = |order: [usize; 2], sums: &mut [DeviceBuffer<f32>], chained| {
                        let mut graph = Graph::new(ctx).unwrap();
                        let mut last = Vec::new();
                        for c in order {
                            let comm = comms[c].as_ref().expect("a communicator of this GPU");
                            graph.name_next(format!("{}{g}", PAIRS[c].0));
                            let node = graph
                                .add_all_reduce(comm, &mine, &mut sums[c], ReduceOp::Sum, &last)
                                .unwrap();
                            if chained {
                                last = vec![node.id()];
                            }
                        }
                        graph.instantiate()
                    };
                    // Independent nodes, added in the cycle's order.
                    let refused = build(CYCLE[g], &mut sums, false).map(drop);
                    // The order every GPU shares, each collective after the one before: passes,
                    // and runs.
                    let mut exec = build(SHARED[g], &mut sums, true).unwrap();
                    exec.launch(&st).unwrap();
                    st.synchronize().unwrap();
                    let got = SHARED[g]
                        .iter()
                        .flat_map(|&c| sums[c].to_vec().unwrap())
                        .collect();
                    (refused, got)
                })
            })
            .collect();
        ranks.into_iter().map(|r| r.join().unwrap()).collect()
    });
    eprintln!("{test}: {outcomes:?}");
    for (g, (outcome, got)) in outcomes.iter().enumerate() {
        let [first, second] = CYCLE[g].map(|c| format!("{}{g}", PAIRS[c].0));
        match outcome {
            Err(Error::CollectiveMismatch { node, reason }) => {
                assert_eq!(
                    node, &first,
                    "GPU {g} names the collective it would wait in"
                );
                assert!(
                    reason.contains("in a cycle through 3 communicators"),
                    "GPU {g}: {reason}"
                );
                assert!(
                    reason.contains(&format!("this rank issues `{first}` before `{second}`")),
                    "GPU {g}: {reason}"
                );
            }
            other => panic!("GPU {g}: expected the cycle to be refused, got {other:?}"),
        }
        let want: Vec<f32> = SHARED[g].iter().flat_map(|&c| [sum_over(c); 4]).collect();
        assert_eq!(got, &want, "GPU {g}: the sums over its two communicators");
    }
}

/// A raw NCCL communicator, moved to the thread of its rank.
#[derive(Clone, Copy)]
struct RawComm(nccl_sys::ncclComm_t);

// SAFETY: an NCCL communicator may be used from any thread, one call at a time
// (https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/usage/threadsafety.html): each is
// used by the thread of its rank only, one phase after the other.
unsafe impl Send for RawComm {}

/// Runs, on one thread per GPU, eager in-place all-reduces (sums) over each GPU's two raw
/// communicators in the order `orders[g]`, on one stream per GPU, and waits for each GPU's
/// stream; returns each GPU's sums as it finishes, over the channel.
fn all_reduce_in_order(
    ctxs: &[Arc<CudaContext>; 3],
    streams: &[Arc<CudaStream>; 3],
    comms: &[[Option<RawComm>; 3]; 3],
    orders: [[usize; 2]; 3],
) -> std::sync::mpsc::Receiver<(usize, Vec<f32>)> {
    let (done, finished) = channel();
    for g in 0..3 {
        let (ctx, stream, done) = (ctxs[g].clone(), streams[g].clone(), done.clone());
        let comms = comms[g];
        std::thread::spawn(move || {
            ctx.bind_to_thread().unwrap();
            let bufs: Vec<_> = orders[g]
                .iter()
                .map(|_| stream.clone_htod(&[g as f32 + 1.0]).unwrap())
                .collect();
            for (&c, buf) in orders[g].iter().zip(&bufs) {
                let comm = comms[c].expect("a communicator of this GPU");
                let (addr, _record) =
                    cudagraph_runtime::cudarc::driver::DevicePtr::device_ptr(buf, &stream);
                // SAFETY: `buf` holds one f32 on this GPU and lives until the stream is
                // synchronized below (or the process ends); only this thread uses `comm` now.
                unsafe {
                    nccl::all_reduce(
                        addr as *const c_void,
                        addr as *mut c_void,
                        1,
                        nccl_sys::ncclDataType_t::ncclFloat32,
                        nccl_sys::ncclRedOp_t::ncclSum,
                        comm.0,
                        stream.cu_stream() as _,
                    )
                }
                .expect("ncclAllReduce");
            }
            stream.synchronize().unwrap();
            let sums = bufs
                .iter()
                .map(|b| stream.clone_dtoh(b).unwrap()[0])
                .collect();
            let _ = done.send((g, sums));
        });
    }
    finished
}

/// The witness, run in a child process: raw communicators, the collectives first in the order
/// every GPU shares (they finish, and connect the communicators), then in the cycle's order,
/// which hangs on the GPUs. The child then aborts itself (its GPUs' kernels wait forever).
fn raw_collectives_in_a_cycle(test: &str) {
    let Some((gpu, more)) = nccl_gpus(test, 3) else {
        return;
    };
    let ctxs = [gpu.ctx.clone(), more[0].clone(), more[1].clone()];
    let streams = ctxs.clone().map(|c| c.new_stream().unwrap());
    let mut comms = [[None; 3]; 3];
    for (c, (_, gpus)) in PAIRS.iter().enumerate() {
        let mut pair = [std::ptr::null_mut(); 2];
        let ordinals = gpus.map(|g| ctxs[g].ordinal() as i32);
        // SAFETY: room for two communicators; the two devices exist (opened above).
        unsafe { nccl::comm_init_all(pair.as_mut_ptr(), 2, ordinals.as_ptr()) }
            .expect("ncclCommInitAll");
        for (comm, &g) in pair.into_iter().zip(gpus) {
            comms[g][c] = Some(RawComm(comm));
        }
    }
    let finished = all_reduce_in_order(&ctxs, &streams, &comms, SHARED);
    for _ in 0..3 {
        let (g, sums) = finished
            .recv_timeout(Duration::from_secs(60))
            .expect("the shared order finishing");
        let want: Vec<f32> = SHARED[g].iter().map(|&c| sum_over(c)).collect();
        assert_eq!(sums, want, "GPU {g}");
    }
    println!("WITNESS shared order: every GPU done, sums right");
    let finished = all_reduce_in_order(&ctxs, &streams, &comms, CYCLE);
    match finished.recv_timeout(Duration::from_secs(10)) {
        Err(_) => {
            println!("WITNESS cycle order: no GPU done after 10 s");
            use std::io::Write;
            let _ = std::io::stdout().flush();
            // The GPUs' kernels wait for each other forever: end the process without running
            // anything that could wait for them.
            std::process::abort();
        }
        Ok((g, sums)) => println!("WITNESS cycle order: GPU {g} done with {sums:?}"),
    }
}

#[test]
fn three_gpus_raw_collectives_in_that_cycle_hang() {
    let test = "three_gpus_raw_collectives_in_that_cycle_hang";
    if is_child(test) {
        raw_collectives_in_a_cycle(test);
        return;
    }
    // Only to skip as the child would, without starting it.
    let Some((gpu, more)) = nccl_gpus(test, 3) else {
        return;
    };
    drop((gpu, more));
    let (output, killed) = run_alone_within(test, Duration::from_secs(150));
    let said = String::from_utf8_lossy(&output.stdout);
    eprintln!(
        "{test}: the child said:\n{said}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(!killed, "the child did not end within 150 s");
    assert!(
        said.contains("WITNESS shared order: every GPU done, sums right"),
        "the shared order must finish"
    );
    assert!(
        said.contains("WITNESS cycle order: no GPU done after 10 s"),
        "the cycle's order must hang"
    );
    assert!(
        aborted(&output),
        "the child ends itself: {:?}",
        output.status
    );
}

/// Four GPUs as two by two: tensor-parallel pairs {0, 1} and {2, 3}, data-parallel pairs {0, 2}
/// and {1, 3}. Each rank all-reduces on its tensor pair, then on its data pair: no cycle, and
/// every rank is two communicators from the farthest, so the check makes two rounds over real
/// NCCL exchanges; the graphs run and sum. Ranks 0 and 3 all-reducing on their data pairs first
/// wait for each other through all four communicators (0 in {0, 2} for 2, which waits in {2, 3}
/// for 3, which waits in {1, 3} for 1, which waits in {0, 1} for 0): refused on every rank.
#[test]
fn four_gpus_check_a_two_by_two_mesh_over_two_rounds() {
    let test = "four_gpus_check_a_two_by_two_mesh_over_two_rounds";
    let Some((gpu, more)) = nccl_gpus(test, 4) else {
        return;
    };
    let _watch = watch(test);
    let ctxs = [
        gpu.ctx.clone(),
        more[0].clone(),
        more[1].clone(),
        more[2].clone(),
    ];
    // The pairs, and each GPU's two (tensor, data) as indices into them.
    let pairs = [[0, 1], [2, 3], [0, 2], [1, 3]];
    let mine = [[0, 2], [0, 3], [1, 2], [1, 3]];
    let handles = communicators_of_pairs(&ctxs, &pairs);
    let outcomes: Vec<(Vec<f32>, Result<(), Error>)> = std::thread::scope(|s| {
        let ranks: Vec<_> = handles
            .into_iter()
            .zip(&ctxs)
            .enumerate()
            .map(|(g, (comms, ctx))| {
                s.spawn(move || {
                    let st = ctx.new_stream().unwrap();
                    let x = DeviceBuffer::from_host(&st, &[g as f32 + 1.0; 4]).unwrap();
                    let mut sums: Vec<DeviceBuffer<f32>> = (0..2)
                        .map(|_| DeviceBuffer::from_host(&st, &[0.0; 4]).unwrap())
                        .collect();
                    let build = |order: [usize; 2], sums: &mut [DeviceBuffer<f32>]| {
                        let mut graph = Graph::new(ctx).unwrap();
                        let mut last = Vec::new();
                        for (i, c) in order.into_iter().enumerate() {
                            let comm = comms[c].as_ref().expect("a communicator of this GPU");
                            graph.name_next(format!("pair{c}_on_{g}"));
                            let node = graph
                                .add_all_reduce(comm, &x, &mut sums[i], ReduceOp::Sum, &last)
                                .unwrap();
                            last = vec![node.id()];
                        }
                        graph.instantiate()
                    };
                    let mut exec = build(mine[g], &mut sums).unwrap();
                    exec.launch(&st).unwrap();
                    st.synchronize().unwrap();
                    let got = sums.iter().flat_map(|b| b.to_vec().unwrap()).collect();
                    let crossed = if g == 0 || g == 3 {
                        [mine[g][1], mine[g][0]]
                    } else {
                        mine[g]
                    };
                    (got, build(crossed, &mut sums).map(drop))
                })
            })
            .collect();
        ranks.into_iter().map(|r| r.join().unwrap()).collect()
    });
    eprintln!("{test}: {outcomes:?}");
    let sum_over = |c: usize| pairs[c].iter().map(|&g| g as f32 + 1.0).sum::<f32>();
    for (g, (got, crossed)) in outcomes.iter().enumerate() {
        let want: Vec<f32> = mine[g].iter().flat_map(|&c| [sum_over(c); 4]).collect();
        assert_eq!(
            got, &want,
            "GPU {g}: its tensor pair's sum, then its data pair's"
        );
        match crossed {
            Err(Error::CollectiveMismatch { reason, .. }) => assert!(
                reason.contains("in a cycle through 4 communicators"),
                "GPU {g}: {reason}"
            ),
            other => panic!("GPU {g}: expected the crossed orders to be refused, got {other:?}"),
        }
    }
}
