//! An all-reduce inside a graph against the same NCCL call made eagerly, on every GPU of the
//! machine (one rank per GPU, each driven by its own thread, as NCCL wants), in the same run, and
//! where the difference comes from.
//!
//! Per step, each rank runs one all-reduce (in place over `f32`s: a sum by default, `--op avg`
//! for an average) eight ways, A/B in one loop (blocks of steps, each block ended by every rank waiting for its stream; the order of
//! the sides turns by one every round):
//!
//! - `eager`: a raw `ncclAllReduce` on the rank's stream (its own communicator);
//! - `library`: this crate's path: a graph of one collective node
//!   ([`Graph::add_all_reduce_in_place`] over a [`Communicator`]), launched with
//!   [`GraphExec::launch`] (which orders the launch after the communicator's previous one). The
//!   node embeds a copy of what NCCL recorded, without the user object NCCL leaves on the
//!   captured graph (its plan of the collective, which the node keeps alive itself): CUDA tracks
//!   an executable's user objects at every launch, in GPU time;
//! - `child`: the same `ncclAllReduce` captured into a child-graph node with
//!   [`Graph::add_captured`], on a raw communicator of its own, with no collective bookkeeping,
//!   NCCL's user object and all: `library` / `child` is the crate's communicator, launch
//!   ordering and copy against the captured graph as NCCL leaves it;
//! - `inline`: the same call captured straight into the graph with [`Graph::capture_into`] (its
//!   nodes are the graph's own, no child graph), on a raw communicator of its own: `child` /
//!   `inline` is the cost of the child-graph level around a collective node;
//! - `events`: `inline` between an event wait node and an event record node of one event, the
//!   shape NCCL's graph mixing support gives every captured collective, on a raw communicator of
//!   its own: `events` / `inline` is the cost of one such pair per step (measurable on one GPU,
//!   where NCCL adds none of its own);
//! - `batched`: the library's path with `BATCH` all-reduce nodes in a chain in one graph, one
//!   launch per `BATCH` steps, on the library's communicator: `batched` / `library` is what a
//!   graph launch costs per launch, beyond the collective (a step that does several collectives
//!   in one launch pays it once);
//! - `sym-eager`: `eager` over NCCL's symmetric memory: a buffer from `ncclMemAlloc` registered
//!   as a window of the raw communicator (`ncclCommWindowRegister`, `NCCL_WIN_COLL_SYMMETRIC`),
//!   which NCCL's symmetric kernels (2.27 and newer) use;
//! - `sym-lib`: `library` over a buffer from [`Communicator::alloc_symmetric`] (the same kind
//!   of memory, registered on the library's communicator): compared with `sym-eager`, the same
//!   call on the same kind of buffer, and with `eager`.
//!
//! Each rank also times the host's part of every block (the calls that enqueue it, before the
//! wait for the stream), and rank 0 prints its median per step and side (`ENQUEUE` lines): where
//! it is close to the side's time per step, that side is bound by the host, not the GPU.
//!
//! Each graph side is reported as its time per step over `eager`'s:
//!
//! - small messages (4 B, 4 KiB, 64 KiB): target graph / eager <= 1.0 (the graph removes NCCL's
//!   host work per call);
//! - large messages (64 MiB, 256 MiB): bus bandwidth, NCCL's `busBw` for an all-reduce
//!   (nccl-tests' formula: `algBw = bytes / time`, `busBw = algBw * 2(n-1)/n`), target within
//!   5% of eager, which is graph / eager time <= 1.05.
//!
//! NCCL reads its settings once per process, so the bench runs each **variant** of them in a
//! process of its own (this program again, with `--worker NAME`), and sums up all of them at the
//! end:
//!
//! - `default`: NCCL as configured (graph mixing support on: NCCL adds an event wait and an event
//!   record around every captured collective, see the `STRUCTURE` lines);
//! - `no-mixing`: `NCCL_GRAPH_MIXING_SUPPORT=0`, NCCL's switch for that support, which the crate
//!   supports (see [`Communicator`]);
//! - and a probe, `tuning`, run with `NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=TUNING`: the algorithm,
//!   protocol and channels NCCL picks for each size, captured and eager, side by side (NCCL logs
//!   them on rank 0 only).
//!
//! With one rank (one GPU, or `--ranks 1`), NCCL's all-reduce is not its collective kernel but a
//! plain kernel launched on the stream (`ncclLaunchOneRank`: the average of one rank scales by 1),
//! with none of NCCL's stream and event machinery: `eager` is NCCL's host path and one launch,
//! the graph sides one kernel node; the rows compare launch paths and graph structure, not
//! communication, and `no-mixing` is the same as `default` (its difference is noise). Bus
//! bandwidth is 0 by the formula there.
//!
//! Each rank's thread is pinned to a CPU of its own (the second, third, ... CPU the process may
//! run on; the first is left to the main thread, the rest to NCCL's own threads), as multi-GPU
//! jobs bind their ranks. Unpinned, the graph sides' time per step for small messages varied
//! from one process to the next by up to 4x (about 10 to 40 µs on a pair of H200s, the raw
//! captures as much as the library's path), while eager stayed within 8 to 12 µs: the threads
//! moving between CPUs, not the graphs. `--no-pin` leaves them unpinned.
//!
//! The reduction is a sum unless `--op avg` asks for an average. The two cost the same on the
//! host, not on the GPU: on a pair of H200s a captured 4-byte `ncclAvg` took about 1.2 µs more
//! per step than `ncclSum`, which eager calls, bound by NCCL's host work, do not show. The sum is
//! timed over buffers of zeros (a sum of zeros stays zero, so thousands of steps cannot
//! overflow), the average over ones; after the timing each side runs once more over ones and
//! every rank checks the result (`n` per summing collective, 1 for the average).
//!
//! Arguments (after `--` under `cargo bench`): `--ranks N` (the first N GPUs; default all),
//! `--variants a,b` (default `default,no-mixing`), `--op sum|avg` (default `sum`), `--no-tuning`,
//! `--no-pin`. A rank that does not answer
//! within `STALL` ends its process with a `TIMEOUT` line rather than hanging. Without a GPU or
//! NCCL, prints one skip line and exits 0.
//!
//! Run on the GPU machine: `cargo bench -p cudagraph-tests --bench nccl` (or the packed
//! `.gpu/bench/cudagraph-tests--nccl --bench`).

use std::collections::BTreeMap;
use std::ffi::c_void;
use std::io::{BufRead, BufReader};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::process::{Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::time::{Duration, Instant};

use cudagraph_runtime::cudarc::driver::{sys, CudaContext, CudaStream};
use cudagraph_runtime::cudarc::nccl::{result as nccl, sys as nccl_sys};
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{
    nccl_present, open_device, CaptureScope, CaptureViewMut, Communicator, DeviceBuffer, Error,
    ReduceOp,
};
use cudagraph_tests::bench::{sync, RatioTable, Samples};
use cudagraph_tests::gpu;

#[path = "nccl/pin.rs"]
mod pin;
#[path = "nccl/raw.rs"]
mod raw;
#[path = "nccl/report.rs"]
mod report;

use pin::{pin_to, rank_cpus};
use raw::{relaxed, structure, RawComm, RawComms, RawSym};
use report::{bus_bandwidth, human, summary, tuning_probe};

const SAMPLE_SIZE: usize = 30;
/// Unrecorded rounds before the samples.
const WARM_UP: usize = 2;
/// How long the bench waits for a rank's answer before calling it a hang.
const STALL: Duration = Duration::from_secs(120);

/// Small messages: (bytes, steps per block); target graph / eager time <= 1.0.
const SMALL: [(usize, u64); 3] = [(4, 500), (4 << 10, 500), (64 << 10, 500)];
const SMALL_TARGET: f64 = 1.0;
/// Large messages: (bytes, steps per block); target graph / eager time <= 1.05 (bus bandwidth
/// within 5%).
const LARGE: [(usize, u64); 2] = [(64 << 20, 20), (256 << 20, 8)];
const LARGE_TARGET: f64 = 1.05;

/// The reduction every side runs (`--op`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Sum,
    Avg,
}

impl Op {
    fn name(self) -> &'static str {
        match self {
            Op::Sum => "sum",
            Op::Avg => "avg",
        }
    }

    fn from_name(name: &str) -> Option<Op> {
        [Op::Sum, Op::Avg].into_iter().find(|op| op.name() == name)
    }

    fn library(self) -> ReduceOp {
        match self {
            Op::Sum => ReduceOp::Sum,
            Op::Avg => ReduceOp::Avg,
        }
    }

    fn raw(self) -> nccl_sys::ncclRedOp_t {
        match self {
            Op::Sum => nccl_sys::ncclRedOp_t::ncclSum,
            Op::Avg => nccl_sys::ncclRedOp_t::ncclAvg,
        }
    }

    /// What the buffers hold while the sides are timed: a value every step keeps.
    fn steady(self) -> f32 {
        match self {
            Op::Sum => 0.0,
            Op::Avg => 1.0,
        }
    }

    /// What a buffer of ones holds after `collectives` all-reduces over `n` ranks.
    fn after_ones(self, n: usize, collectives: u64) -> f32 {
        match self {
            Op::Sum => (n as f32).powi(collectives as i32),
            Op::Avg => 1.0,
        }
    }
}

/// How one step runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Side {
    Eager,
    Library,
    Child,
    Inline,
    Events,
    Batched,
    SymEager,
    SymLibrary,
}

/// All-reduces per launch of the `batched` side: every block's step count is a multiple of it.
const BATCH: u64 = 4;
const _: () = {
    let mut i = 0;
    while i < SMALL.len() {
        assert!(
            SMALL[i].1.is_multiple_of(BATCH),
            "a block of steps must be whole launches of `batched`"
        );
        i += 1;
    }
    let mut i = 0;
    while i < LARGE.len() {
        assert!(
            LARGE[i].1.is_multiple_of(BATCH),
            "a block of steps must be whole launches of `batched`"
        );
        i += 1;
    }
};

impl Side {
    /// In discriminant order: `side as usize` indexes a rank's buffers.
    const ALL: [Side; 8] = [
        Side::Eager,
        Side::Library,
        Side::Child,
        Side::Inline,
        Side::Events,
        Side::Batched,
        Side::SymEager,
        Side::SymLibrary,
    ];
    const GRAPHS: [Side; 6] = [
        Side::Library,
        Side::Child,
        Side::Inline,
        Side::Events,
        Side::Batched,
        Side::SymLibrary,
    ];

    fn name(self) -> &'static str {
        match self {
            Side::Eager => "eager",
            Side::Library => "library",
            Side::Child => "child",
            Side::Inline => "inline",
            Side::Events => "events",
            Side::Batched => "batched",
            Side::SymEager => "sym-eager",
            Side::SymLibrary => "sym-lib",
        }
    }

    fn from_name(name: &str) -> Option<Side> {
        Side::ALL.into_iter().find(|s| s.name() == name)
    }

    /// The eager side it is compared with: the same call on the same kind of buffer.
    fn eager(self) -> Side {
        match self {
            Side::SymLibrary => Side::SymEager,
            _ => Side::Eager,
        }
    }

    /// Which raw communicator the side uses (the library side uses its `Communicator`).
    fn raw_index(self) -> usize {
        match self {
            Side::Eager | Side::Library | Side::Batched | Side::SymEager | Side::SymLibrary => 0,
            Side::Child => 1,
            Side::Inline => 2,
            Side::Events => 3,
        }
    }
}

/// NCCL settings for one process (NCCL reads them once per process).
struct Variant {
    name: &'static str,
    env: &'static [(&'static str, &'static str)],
    what: &'static str,
}

const VARIANTS: [Variant; 2] = [
    Variant {
        name: "default",
        env: &[],
        what: "NCCL as configured (graph mixing support on unless the environment says otherwise)",
    },
    Variant {
        name: "no-mixing",
        env: &[("NCCL_GRAPH_MIXING_SUPPORT", "0")],
        what: "NCCL_GRAPH_MIXING_SUPPORT=0: no event wait and record around captured collectives",
    },
];

/// The probe's worker name and environment. NCCL writes its log to a `FILE` that is fully
/// buffered on a pipe (stdout) and never flushed; a file it opens itself is line-buffered, so the
/// log is opened on the same pipe by name and keeps its place among the probe's own lines.
const TUNING: &str = "tuning";
const TUNING_ENV: [(&str, &str); 3] = [
    ("NCCL_DEBUG", "INFO"),
    ("NCCL_DEBUG_SUBSYS", "TUNING"),
    ("NCCL_DEBUG_FILE", "/dev/stdout"),
];

/// What the main thread tells every rank to do.
#[derive(Debug, Clone, Copy)]
enum Cmd {
    /// Make the buffers and the graphs for messages of this many `f32`s (only the library's
    /// graph when `all` is false), printing their structure on rank 0 (with the variant name).
    Prepare {
        count: usize,
        all: bool,
        variant: &'static str,
    },
    /// Run this side this many steps, then wait for the stream.
    Run(Side, u64),
    /// Check that every buffer still holds the op's steady value, then that each side, run once
    /// more over ones, gives the op's result; then free them.
    Check,
}

/// One rank's buffers and executables for one message size.
struct Size {
    count: usize,
    /// One buffer per side, in `Side::ALL` order.
    bufs: Vec<DeviceBuffer<f32>>,
    /// The graph sides' executables, by side.
    execs: BTreeMap<Side, GraphExec<'static>>,
    /// The `sym-eager` side's buffer (`bufs` holds an unused one in its place), if made.
    sym: Option<RawSym>,
}

/// A rank's thread: its communicators, its stream, and the current message size.
struct Rank {
    comm: Communicator,
    /// Raw communicators, by `Side::raw_index`.
    raws: [RawComm; 4],
    stream: Arc<CudaStream>,
    op: Op,
    size: Option<Size>,
    /// Per side, the host's time to enqueue each block of the current size (before the wait
    /// for the stream), in ns per step: printed by rank 0 with the size's check.
    enqueue: BTreeMap<Side, Vec<f64>>,
}

impl Rank {
    /// Does `cmd`; returns the graph sides made (for `Prepare`; none for the others).
    fn run(&mut self, cmd: Cmd) -> Result<Vec<Side>, String> {
        match cmd {
            Cmd::Prepare {
                count,
                all,
                variant,
            } => return self.prepare(count, all, variant),
            Cmd::Run(side, steps) => {
                let size = self.size.as_mut().ok_or("nothing prepared")?;
                let start = Instant::now();
                if matches!(side, Side::Eager | Side::SymEager) {
                    let addr = match (side, &size.sym) {
                        (Side::SymEager, Some(sym)) => sym.addr,
                        (Side::SymEager, None) => return Err("sym-eager not prepared".into()),
                        _ => size.bufs[0].addr(),
                    };
                    for _ in 0..steps {
                        self.raws[0]
                            .all_reduce(self.op, addr, size.count, self.stream.cu_stream())
                            .map_err(text)?;
                    }
                } else {
                    let exec = size.execs.get_mut(&side).ok_or("side not prepared")?;
                    let launches = match side {
                        Side::Batched => steps / BATCH,
                        _ => steps,
                    };
                    for _ in 0..launches {
                        exec.launch(&self.stream).map_err(text)?;
                    }
                }
                let enqueued = start.elapsed().as_secs_f64() * 1e9 / steps as f64;
                self.enqueue.entry(side).or_default().push(enqueued);
                sync(&self.stream);
            }
            Cmd::Check => {
                let size = self.size.take().ok_or("nothing prepared")?;
                let enqueue = std::mem::take(&mut self.enqueue);
                if self.comm.rank() == 0 {
                    // Host-bound where this is about the time per step of the same side.
                    let mut line = format!("ENQUEUE rank 0 {:>7}:", human(size.count * 4));
                    for (side, mut ns) in enqueue {
                        ns.sort_by(f64::total_cmp);
                        let median = ns[ns.len() / 2];
                        line.push_str(&format!(" {} {:.2}", side.name(), median / 1e3));
                    }
                    println!("{line} (µs of host time per step to enqueue, median of the blocks)");
                }
                self.check(size)?;
            }
        }
        Ok(Vec::new())
    }

    /// Checks each side's buffer: it still holds the op's steady value after the timed steps,
    /// and one more step over ones gives the op's result on every element, so each side really
    /// ran its all-reduce on its buffer with every peer (a wrong buffer, a missing peer or a
    /// skipped collective shows as another value).
    fn check(&mut self, mut size: Size) -> Result<(), String> {
        let (op, n) = (self.op, self.comm.size());
        let ones = vec![1.0f32; size.count];
        if let Some(sym) = size.sym.take() {
            let checked = self.check_raw_sym(&sym, &ones);
            sym.free(self.raws[0]);
            checked?;
        }
        for (side, buf) in Side::ALL.iter().zip(&size.bufs) {
            if *side == Side::SymEager {
                continue; // checked above
            }
            let steady = op.steady();
            let got = buf.to_vec().map_err(text)?;
            if let Some(bad) = got.iter().find(|&&v| v != steady) {
                return Err(format!("{} buffer holds {bad}, not {steady}", side.name()));
            }
            let made = size.execs.get_mut(side);
            if made.is_none() && *side != Side::Eager {
                continue; // not made at this size (the tuning probe makes the library's only)
            }
            buf.copy_from(&ones).map_err(text)?;
            match made {
                Some(exec) => exec.launch(&self.stream).map_err(text)?,
                None => self.raws[0]
                    .all_reduce(op, buf.addr(), size.count, self.stream.cu_stream())
                    .map_err(text)?,
            }
            sync(&self.stream);
            let collectives = if *side == Side::Batched { BATCH } else { 1 };
            let want = op.after_ones(n, collectives);
            let got = buf.to_vec().map_err(text)?;
            if let Some(bad) = got.iter().find(|&&v| v != want) {
                return Err(format!(
                    "{} buffer holds {bad} after one step over ones, not {want}",
                    side.name()
                ));
            }
        }
        Ok(())
    }

    /// The `check` of the `sym-eager` side's buffer.
    fn check_raw_sym(&self, sym: &RawSym, ones: &[f32]) -> Result<(), String> {
        let (op, n) = (self.op, self.comm.size());
        let steady = op.steady();
        if let Some(bad) = sym.read()?.iter().find(|&&v| v != steady) {
            return Err(format!("sym-eager buffer holds {bad}, not {steady}"));
        }
        sym.write(ones)?;
        self.raws[0]
            .all_reduce(op, sym.addr, sym.count, self.stream.cu_stream())
            .map_err(text)?;
        sync(&self.stream);
        let want = op.after_ones(n, 1);
        if let Some(bad) = sym.read()?.iter().find(|&&v| v != want) {
            return Err(format!(
                "sym-eager buffer holds {bad} after one step over ones, not {want}"
            ));
        }
        Ok(())
    }

    /// Makes the buffers and the graphs; returns the graph sides made. The library's side must
    /// be made; a raw side that fails (this bench's own captures of NCCL) is reported and left
    /// out, so that one failure does not cost the run the other sides.
    fn prepare(&mut self, count: usize, all: bool, variant: &str) -> Result<Vec<Side>, String> {
        self.size = None;
        let steady = vec![self.op.steady(); count];
        let mut bufs = Side::ALL
            .iter()
            .map(|_| DeviceBuffer::from_host(&self.stream, &steady).map_err(text))
            .collect::<Result<Vec<_>, _>>()?;
        // The symmetric sides (every rank makes them or fails: registering waits for all).
        let mut sym = None;
        let mut sym_lib = false;
        if all {
            sym = Some(RawSym::new(self.raws[0], &steady)?);
            match self.comm.alloc_symmetric::<f32>(count) {
                Ok(buf) => {
                    buf.copy_from(&steady).map_err(text)?;
                    bufs[Side::SymLibrary as usize] = buf;
                    sym_lib = true;
                }
                Err(e) => self.side_failed(variant, Side::SymLibrary, count, e),
            }
        }
        if all {
            // The raw communicators connect the algorithm of this size eagerly, before their
            // captures (as the library's warm-up does for its own).
            for side in [Side::Child, Side::Inline, Side::Events] {
                self.raws[side.raw_index()]
                    .all_reduce(
                        self.op,
                        bufs[side as usize].addr(),
                        count,
                        self.stream.cu_stream(),
                    )
                    .map_err(text)?;
            }
            sync(&self.stream);
        }
        let mut execs = BTreeMap::new();
        let mut g = Graph::new(self.comm.context()).map_err(text)?;
        let mut buf = bufs[Side::Library as usize].clone();
        g.add_all_reduce_in_place(&self.comm, &mut buf, self.op.library(), &[])
            .map_err(text)?;
        self.show(variant, Side::Library, count, &g);
        // Every rank instantiates at once: the library's cross-rank order check waits for all.
        execs.insert(Side::Library, g.instantiate().map_err(text)?);
        if sym_lib {
            let mut g = Graph::new(self.comm.context()).map_err(text)?;
            let mut buf = bufs[Side::SymLibrary as usize].clone();
            g.add_all_reduce_in_place(&self.comm, &mut buf, self.op.library(), &[])
                .map_err(text)?;
            self.show(variant, Side::SymLibrary, count, &g);
            execs.insert(Side::SymLibrary, g.instantiate().map_err(text)?);
        }
        if all {
            let mut g = Graph::new(self.comm.context()).map_err(text)?;
            let mut buf = bufs[Side::Batched as usize].clone();
            let mut last: Option<NodeId> = None;
            for _ in 0..BATCH {
                let node = g
                    .add_all_reduce_in_place(
                        &self.comm,
                        &mut buf,
                        self.op.library(),
                        last.as_slice(),
                    )
                    .map_err(text)?;
                last = Some(node.id());
            }
            self.show(variant, Side::Batched, count, &g);
            execs.insert(Side::Batched, g.instantiate().map_err(text)?);
        }
        if all {
            for side in [Side::Child, Side::Inline, Side::Events] {
                // No exchange between the ranks here: a side made on one rank and not on
                // another is left out on both by the main thread, before any launch.
                match self.raw_graph(side, bufs[side as usize].clone(), count) {
                    Ok(g) => {
                        self.show(variant, side, count, &g);
                        match g.instantiate() {
                            Ok(exec) => {
                                execs.insert(side, exec);
                            }
                            Err(e) => self.side_failed(variant, side, count, e),
                        }
                    }
                    Err(e) => self.side_failed(variant, side, count, e),
                }
            }
        }
        sync(&self.stream);
        let mut made: Vec<Side> = execs.keys().copied().collect();
        if sym.is_some() {
            made.push(Side::SymEager);
        }
        self.size = Some(Size {
            count,
            bufs,
            execs,
            sym,
        });
        Ok(made)
    }

    /// The graph of a raw side: this bench's own capture of `ncclAllReduce` on `buf`.
    fn raw_graph(
        &self,
        side: Side,
        buf: DeviceBuffer<f32>,
        count: usize,
    ) -> Result<Graph<'static>, Error> {
        let (raw, op) = (self.raws[side.raw_index()], self.op);
        let addr = buf.addr();
        let call = move |s: &CaptureScope<'_, 'static>, _: CaptureViewMut<'_, f32>| {
            relaxed(|| raw.all_reduce(op, addr, count, s.cu_stream()))
        };
        let mut g = Graph::new(self.comm.context())?;
        match side {
            Side::Child => {
                g.add_captured(&self.stream, &[], Mut(buf), call)?;
            }
            Side::Inline => {
                g.capture_into(&self.stream, &[], Mut(buf), call)?;
            }
            _ => {
                // As NCCL's mixing support does: wait for the event's last record (the previous
                // launch's), run, record it.
                let event = Event::new(self.comm.context())?;
                let wait = g.add_event_wait(&event, &[])?;
                let captured = g.capture_into(&self.stream, &[wait.id()], Mut(buf), call)?;
                g.add_event_record(&event, captured.sinks())?;
            }
        }
        Ok(g)
    }

    /// Prints the node structure of `side`'s graph (on rank 0).
    fn show(&self, variant: &str, side: Side, count: usize, g: &Graph<'_>) {
        if self.comm.rank() == 0 {
            println!(
                "STRUCTURE {variant:>9} {:>7} {:>9}: {}",
                side.name(),
                human(count * 4),
                structure(g.raw())
            );
        }
    }

    fn side_failed(&self, variant: &str, side: Side, count: usize, e: Error) {
        println!(
            "SIDE FAILED [{variant}] {} at {} on rank {}, left out: {e}",
            side.name(),
            human(count * 4),
            self.comm.rank()
        );
    }
}

fn text(e: impl std::fmt::Display) -> String {
    e.to_string()
}

/// The rank threads, and the way to make all of them do one thing.
struct Ranks {
    cmds: Vec<Sender<Cmd>>,
    done: Receiver<(usize, Result<Vec<Side>, String>)>,
}

impl Ranks {
    /// One thread per communicator; the thread of rank `r` runs on CPU `cpus[r]` when given.
    fn start(
        comms: Vec<Communicator>,
        raws: Vec<[RawComm; 4]>,
        cpus: Vec<usize>,
        op: Op,
    ) -> (Self, Vec<std::thread::JoinHandle<()>>) {
        let (done_tx, done) = channel();
        let mut cmds = Vec::new();
        let mut threads = Vec::new();
        for (r, (comm, raws)) in comms.into_iter().zip(raws).enumerate() {
            let (tx, rx) = channel::<Cmd>();
            cmds.push(tx);
            let done = done_tx.clone();
            let cpu = cpus.get(r).copied();
            threads.push(std::thread::spawn(move || {
                if let Some(cpu) = cpu {
                    pin_to(cpu).unwrap_or_else(|e| panic!("pinning rank {r} to CPU {cpu}: {e}"));
                }
                rank_thread(comm, raws, op, rx, done)
            }));
        }
        (Self { cmds, done }, threads)
    }

    /// Tells every rank to do `cmd` and waits until all are done; returns the graph sides that
    /// every rank made (for `Prepare`). A rank's failure ends the bench with its message, and a
    /// rank that does not answer within `STALL` ends the process.
    fn all(&self, cmd: Cmd) -> Vec<Side> {
        for tx in &self.cmds {
            tx.send(cmd).expect("a rank thread ended early");
        }
        let mut everywhere: Option<Vec<Side>> = None;
        for _ in 0..self.cmds.len() {
            match self.done.recv_timeout(STALL) {
                Ok((_, Ok(made))) => {
                    let kept = match everywhere.take() {
                        Some(so_far) => so_far.into_iter().filter(|s| made.contains(s)).collect(),
                        None => made,
                    };
                    everywhere = Some(kept);
                }
                Ok((rank, Err(e))) => panic!("rank {rank}, {cmd:?}: {e}"),
                Err(RecvTimeoutError::Timeout) => {
                    eprintln!(
                        "TIMEOUT bench nccl: {cmd:?} still running after {STALL:?} (ranks \
                         waiting for each other in NCCL?); ending the process (rerun with \
                         NCCL_DEBUG=INFO to see where)"
                    );
                    // Not `exit`: its handlers could wait for the very threads that hang.
                    std::process::abort();
                }
                Err(RecvTimeoutError::Disconnected) => panic!("the rank threads ended"),
            }
        }
        everywhere.unwrap_or_default()
    }

    /// The time every rank takes to do `cmd`.
    fn timed(&self, cmd: Cmd) -> Duration {
        let start = Instant::now();
        self.all(cmd);
        start.elapsed()
    }
}

fn rank_thread(
    comm: Communicator,
    raws: [RawComm; 4],
    op: Op,
    cmds: Receiver<Cmd>,
    done: Sender<(usize, Result<Vec<Side>, String>)>,
) {
    let id = comm.rank();
    let started = comm
        .context()
        .bind_to_thread()
        .and_then(|()| comm.context().new_stream())
        .map_err(text);
    let mut rank = match started {
        Ok(stream) => Rank {
            comm,
            raws,
            stream,
            op,
            size: None,
            enqueue: BTreeMap::new(),
        },
        Err(e) => {
            // Every command fails with the reason.
            for _ in cmds {
                let _ = done.send((id, Err(format!("starting the rank: {e}"))));
            }
            return;
        }
    };
    for cmd in cmds {
        let outcome = catch_unwind(AssertUnwindSafe(|| rank.run(cmd))).unwrap_or_else(|p| {
            Err(p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                .unwrap_or_else(|| "panicked".to_owned()))
        });
        if done.send((id, outcome)).is_err() {
            return;
        }
    }
}

/// The command line.
struct Args {
    /// How many GPUs (ranks); `None`: all.
    ranks: Option<usize>,
    /// The variants to run.
    variants: Vec<&'static Variant>,
    /// Whether to run the tuning probe.
    tuning: bool,
    /// Whether to pin each rank's thread to a CPU of its own.
    pin: bool,
    /// The reduction.
    op: Op,
    /// In a worker process: the variant (or the probe) it runs.
    worker: Option<String>,
}

fn args() -> Args {
    let mut args = Args {
        ranks: None,
        variants: VARIANTS.iter().collect(),
        tuning: true,
        pin: true,
        op: Op::Sum,
        worker: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--ranks" => {
                let n = it.next().and_then(|v| v.parse().ok()).filter(|&n| n > 0);
                args.ranks = Some(n.expect("--ranks takes a number of GPUs, at least 1"));
            }
            "--variants" => {
                let list = it.next().expect("--variants takes a comma-separated list");
                args.variants = list
                    .split(',')
                    .map(|name| {
                        VARIANTS.iter().find(|v| v.name == name).unwrap_or_else(|| {
                            let known: Vec<_> = VARIANTS.iter().map(|v| v.name).collect();
                            panic!("unknown variant `{name}`: one of {known:?}")
                        })
                    })
                    .collect();
            }
            "--no-tuning" => args.tuning = false,
            "--no-pin" => args.pin = false,
            "--op" => {
                let name = it.next().unwrap_or_default();
                args.op = Op::from_name(&name)
                    .unwrap_or_else(|| panic!("--op takes `sum` or `avg`, not `{name}`"));
            }
            "--worker" => args.worker = it.next(),
            // `cargo bench` passes `--bench`; criterion-style filters are not used here.
            _ => {}
        }
    }
    args
}

fn main() {
    let args = args();
    if let Some(name) = &args.worker {
        worker(name, args.ranks, args.pin, args.op);
        return;
    }
    // Only to see whether there is a GPU and NCCL: the workers open the devices.
    let Some(gpu) = gpu("bench nccl") else {
        return;
    };
    if !nccl_present() {
        eprintln!("SKIPPED bench nccl: no NCCL (libnccl.so.2 could not be loaded)");
        return;
    }
    drop(gpu);
    let exe = std::env::current_exe().expect("the bench's own path");
    let ranks = args.ranks.map(|n| n.to_string());
    let spawn = |worker: &str, env: &[(&str, &str)]| {
        let mut cmd = Command::new(&exe);
        cmd.args(["--worker", worker, "--op", args.op.name()]);
        if !args.pin {
            cmd.arg("--no-pin");
        }
        if let Some(n) = &ranks {
            cmd.args(["--ranks", n]);
        }
        cmd.envs(env.iter().copied()).stdout(Stdio::piped());
        cmd.spawn().expect("starting a worker process")
    };
    // Every worker's ROW lines: (variant, side, bytes) -> (median, q1, q3) in ns.
    let mut rows: BTreeMap<(String, Side, usize), [f64; 3]> = BTreeMap::new();
    let mut header = None;
    let mut failed = Vec::new();
    for variant in &args.variants {
        println!("\n==== variant {}: {}", variant.name, variant.what);
        let mut child = spawn(variant.name, variant.env);
        let out = BufReader::new(child.stdout.take().expect("piped"));
        for line in out.lines().map_while(Result::ok) {
            if let Some(row) = line.strip_prefix("ROW\t") {
                let f: Vec<&str> = row.split('\t').collect();
                if let [v, side, bytes, med, q1, q3] = f[..] {
                    let num = |s: &str| s.parse::<f64>().unwrap_or(f64::NAN);
                    if let (Some(side), Ok(bytes)) = (Side::from_name(side), bytes.parse()) {
                        rows.insert((v.to_owned(), side, bytes), [num(med), num(q1), num(q3)]);
                    }
                }
                continue;
            }
            if let Some(h) = line.strip_prefix("devices: ") {
                header.get_or_insert_with(|| h.to_owned());
            }
            println!("{line}");
        }
        let status = child.wait().expect("waiting for a worker");
        if !status.success() {
            println!("variant {} FAILED: {status}", variant.name);
            failed.push(variant.name);
        }
    }
    if args.tuning {
        tuning_probe(spawn(TUNING, &TUNING_ENV));
    }
    summary(&args, header.as_deref(), &rows, &failed);
}

/// One variant's measurement (or the tuning probe), in this process.
fn worker(name: &str, ranks: Option<usize>, pin: bool, op: Op) {
    let name: &'static str = VARIANTS
        .iter()
        .map(|v| v.name)
        .chain([TUNING])
        .find(|v| *v == name)
        .unwrap_or_else(|| panic!("unknown worker `{name}`"));
    let Some(gpu) = gpu("bench nccl") else {
        return;
    };
    let count = CudaContext::device_count().expect("cuDeviceGetCount") as usize;
    let n = ranks.unwrap_or(count);
    assert!(n <= count, "--ranks {n}, and this machine has {count} GPUs");
    let mut ctxs = vec![gpu.ctx.clone()];
    for ordinal in 1..n {
        ctxs.push(open_device(ordinal).expect("opening a device"));
    }
    let device = ctxs[0].name().unwrap_or_else(|e| format!("<unnamed: {e}>"));
    let version = nccl::get_nccl_version().unwrap_or(0);
    println!(
        "devices: {n} x {device} (of {count}); NCCL {version}; one rank per GPU, one thread per \
         rank"
    );
    for var in [
        "NCCL_GRAPH_MIXING_SUPPORT",
        "NCCL_GRAPH_REGISTER",
        "NCCL_RUNTIME_CONNECT",
        "NCCL_NVLS_ENABLE",
        "NCCL_ALGO",
        "NCCL_PROTO",
    ] {
        if let Ok(v) = std::env::var(var) {
            println!("  {var}={v}");
        }
    }
    if n == 1 {
        println!(
            "one rank: NCCL's all-reduce is one plain kernel (ncclLaunchOneRank), without its \
             collective kernel, streams or events; bus bandwidth is 0"
        );
    }
    let comms = Communicator::init_all(&ctxs).expect("ncclCommInitAll (library)");
    let raw_sets = [(); 4].map(|()| RawComms::init_all(n));
    let raws = (0..n)
        .map(|r| [0, 1, 2, 3].map(|s| RawComm(raw_sets[s].0[r])))
        .collect();
    let cpus = if pin { rank_cpus(n) } else { None };
    match &cpus {
        Some(cpus) => println!("rank threads pinned: rank r on CPU {cpus:?}[r]"),
        None => println!("rank threads not pinned"),
    }
    let (ranks, threads) = Ranks::start(comms, raws, cpus.unwrap_or_default(), op);

    if name == TUNING {
        // What NCCL picks at each size, captured and eager; the parent keeps NCCL's lines
        // between these marks.
        for (bytes, _) in SMALL.iter().chain(&LARGE) {
            println!("MARK captured {:>7}", human(*bytes));
            ranks.all(Cmd::Prepare {
                count: bytes / 4,
                all: false,
                variant: TUNING,
            });
            println!("MARK eager    {:>7}", human(*bytes));
            ranks.all(Cmd::Run(Side::Eager, 1));
            println!("MARK done");
            ranks.all(Cmd::Check);
        }
    } else {
        measure(name, n, &device, &ranks, op);
    }
    drop(ranks);
    for t in threads {
        t.join().expect("a rank thread panicked");
    }
    drop(raw_sets);
}

/// Every side at every size, A/B, with the tables of this variant and its ROW lines for the
/// summary.
fn measure(variant: &'static str, n: usize, device: &str, ranks: &Ranks, op: Op) {
    let samples = Samples::new(SAMPLE_SIZE);
    let mut table = RatioTable::new(format!(
        "[{variant}] all-reduce ({}, in place) of f32, {n} x {device}: graph / eager \
         ncclAllReduce (median time per step over {SAMPLE_SIZE} blocks)",
        op.name()
    ));
    let mut bandwidth = Vec::new();
    for (bytes, block, target) in SMALL
        .iter()
        .map(|&(b, s)| (b, s, SMALL_TARGET))
        .chain(LARGE.iter().map(|&(b, s)| (b, s, LARGE_TARGET)))
    {
        let made = ranks.all(Cmd::Prepare {
            count: bytes / 4,
            all: true,
            variant,
        });
        // The sides every rank made (a side left out shows as `-`).
        let sides: Vec<Side> = Side::ALL
            .into_iter()
            .filter(|s| *s == Side::Eager || made.contains(s))
            .collect();
        let targeted = |side: Side| matches!(side, Side::Library | Side::SymLibrary);
        let id = |side: Side| format!("{}/{bytes}", side.name());
        for round in 0..WARM_UP + SAMPLE_SIZE {
            // Each side starts a round in turn: none always follows the same one.
            for k in 0..sides.len() {
                let side = sides[(round + k) % sides.len()];
                let took = ranks.timed(Cmd::Run(side, block));
                if round >= WARM_UP {
                    samples.record(&id(side), block, took);
                }
            }
        }
        ranks.all(Cmd::Check);
        for side in Side::GRAPHS.into_iter().chain([Side::SymEager]) {
            let note = format!("blocks of {block} steps, then every rank waits for its stream");
            table.compare(
                &samples,
                &format!("all-reduce per step: {} / eager", side.name()),
                human(bytes),
                (&id(side), &id(Side::Eager)),
                (side == Side::Library).then_some(target),
                note.clone(),
            );
            if side.eager() != Side::Eager {
                table.compare(
                    &samples,
                    &format!(
                        "all-reduce per step: {} / {}",
                        side.name(),
                        side.eager().name()
                    ),
                    human(bytes),
                    (&id(side), &id(side.eager())),
                    targeted(side).then_some(target),
                    note,
                );
            }
        }
        for side in Side::ALL {
            if let Some(e) = samples.estimate(&id(side)) {
                let ns = |d: Duration| d.as_secs_f64() * 1e9;
                println!(
                    "ROW\t{variant}\t{}\t{bytes}\t{}\t{}\t{}",
                    side.name(),
                    ns(e.median),
                    ns(e.q1),
                    ns(e.q3)
                );
            }
        }
        if target == LARGE_TARGET {
            let bw = |side: Side| {
                samples
                    .estimate(&id(side))
                    .map(|e| bus_bandwidth(bytes, n, e.median))
            };
            bandwidth.push((bytes, Side::ALL.map(bw)));
        }
    }

    println!("\n{table}");
    println!("\nratios (graph / eager time per step; <= target passes; the library's path):");
    for row in table.rows().iter().filter(|r| r.target.is_some()) {
        let ratio = row.ratio().map_or("-".to_owned(), |r| format!("{r:.3}x"));
        let target = row.target.map_or("-".to_owned(), |t| format!("{t:.2}x"));
        let what = row.bench.trim_start_matches("all-reduce per step: ");
        println!(
            "  RATIO [{variant}] all-reduce {:>9}: {what} = {ratio} (target <= {target}) {}",
            row.param,
            row.verdict()
        );
    }
    println!("\nbus bandwidth (NCCL busBw = bytes / time x 2(n-1)/n, GB/s), each side:");
    for (bytes, bw) in bandwidth {
        let mut line = format!("  BUSBW [{variant}] {:>9}:", human(bytes));
        let eager = bw[0].map(|(_, bus)| bus);
        for (side, v) in Side::ALL.iter().zip(bw) {
            let shown = v.map_or("-".to_owned(), |(_, bus)| format!("{bus:.1}"));
            let ratio = match (v, eager) {
                (Some((_, b)), Some(e)) if e > 0.0 && *side != Side::Eager => {
                    format!(" ({:.3} of eager)", b / e)
                }
                _ => String::new(),
            };
            line.push_str(&format!(" {} {shown}{ratio};", side.name()));
        }
        if n == 1 {
            line.push_str(" (one rank: busBw is 0)");
        }
        println!("{line}");
    }
    println!(
        "verdict [{variant}] (the library's path): {}",
        if table.all_pass() { "PASS" } else { "OVER" }
    );
}
