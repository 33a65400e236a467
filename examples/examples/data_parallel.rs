//! Data-parallel training over every GPU of the machine, one graph per GPU with the gradients'
//! all-reduce inside it (NCCL), one thread per rank:
//!
//! ```text
//! local (gradient of this rank's shard) -> average (all_reduce(comm, grads, Avg)) -> step (w -= lr * g)
//! ```
//!
//! The same `cuda_graph!` declaration is built on each device with that device's communicator
//! and buffers; instantiating checks across the ranks that they issue the same collectives in
//! the same order. After the steps, every rank's weights must equal those of one GPU trained
//! alone on the whole batch (the same declaration over a communicator of one rank), and the
//! CPU's.
//!
//! Run: `cargo run --release -p cudagraph-examples --example data_parallel` (needs NCCL,
//! `libnccl.so.2`; with one GPU it trains with one rank).

use std::process::ExitCode;

use cudagraph_examples::data_parallel::{
    largest_relative_difference, train_on_cpu, train_rank, Problem,
};
use cudagraph_examples::{main_with, open_gpu, Failure};
use cudagraph_runtime::cudarc::driver::CudaContext;
use cudagraph_runtime::{nccl_present, open_device, Communicator};

const DIM: usize = 64;
/// Samples per rank.
const BATCH: usize = 256;
const STEPS: usize = 50;

fn main() -> ExitCode {
    main_with("data_parallel", || {
        let first = open_gpu()?;
        if !nccl_present() {
            return Err(Failure::Other(
                "NCCL (libnccl.so.2) could not be loaded: this example needs it".into(),
            ));
        }
        let count = CudaContext::device_count()? as usize;
        let mut ctxs = vec![first];
        for ordinal in 1..count {
            ctxs.push(open_device(ordinal)?);
        }
        println!("ranks: {} (one per GPU)", ctxs.len());
        let problem = Problem::new(ctxs.len(), DIM, BATCH);
        let comms = Communicator::init_all(&ctxs)?;
        let weights: Vec<_> = std::thread::scope(|s| {
            let ranks: Vec<_> = comms
                .into_iter()
                .map(|comm| {
                    let problem = &problem;
                    s.spawn(move || train_rank(comm, problem, STEPS))
                })
                .collect();
            ranks.into_iter().map(|r| r.join()).collect()
        });
        // One GPU alone, on every shard's samples: a communicator of one rank on the first.
        let alone = Communicator::init_all(&ctxs[..1])?.remove(0);
        let one_gpu = train_rank(alone, &problem.on_one_rank(), STEPS)?;
        let cpu = train_on_cpu(&problem, STEPS);
        for (rank, w) in weights.into_iter().enumerate() {
            let w = w.map_err(|_| Failure::Other(format!("rank {rank} panicked")))??;
            for (what, want) in [("one GPU", &one_gpu), ("the CPU", &cpu)] {
                let worst = largest_relative_difference(&w, want);
                println!(
                    "rank {rank}: {STEPS} steps, largest relative difference to {what} {worst:.2e}"
                );
                if worst > 1e-3 {
                    return Err(Failure::Other(format!(
                        "rank {rank}'s weights differ from {what}'s by {worst:.2e} (relative)"
                    )));
                }
            }
        }
        println!("every rank's weights match one GPU's and the CPU's");
        Ok(())
    })
}
