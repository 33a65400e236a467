//! An all-reduce inside a graph against the same NCCL call made eagerly, on every GPU of the
//! machine (one rank per GPU, each driven by its own thread, as NCCL wants), in the same run:
//! per step, each rank launches its graph of one all-reduce node (`GraphExec::launch`, an
//! average in place over `f32`s) against a raw `ncclAllReduce` of the same buffer size on its
//! stream. The two sides run in alternating blocks of steps, each block ended by every rank
//! waiting for its stream; the time of a block is taken from the moment the ranks are told to
//! start to the moment the last one is done.
//!
//! - small messages (4 B, 4 KiB, 64 KiB): time per step, target graph / eager <= 1.0 (the graph
//!   removes NCCL's host work per call);
//! - large messages (64 MiB, 256 MiB): bus bandwidth, NCCL's `busBw` for an all-reduce
//!   (nccl-tests' formula: `algBw = bytes / time`, `busBw = algBw * 2(n-1)/n`), target within
//!   5% of eager, which is graph / eager time <= 1.05.
//!
//! The eager side uses communicators of its own (raw `ncclCommInitAll`), the graph side this
//! crate's `Communicator`s; neither runs while the other does. With one GPU, one rank (an
//! all-reduce of one rank is a copy, and its bus bandwidth is 0 by the formula: only the times
//! are compared). A rank that does not answer within `STALL` ends the process with a `TIMEOUT`
//! line rather than hanging. Without a GPU or NCCL, prints one skip line and exits 0.
//!
//! Run on the GPU machine: `cargo bench -p cudagraph-tests --bench nccl` (or the packed
//! `.gpu/bench/cudagraph-tests--nccl --bench`).

use std::ffi::c_void;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::time::Duration;

use cudagraph_runtime::cudarc::driver::{CudaContext, CudaStream};
use cudagraph_runtime::cudarc::nccl::{result as nccl, sys as nccl_sys};
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{nccl_present, open_device, Communicator, DeviceBuffer, ReduceOp};
use cudagraph_tests::bench::{sync, RatioTable, Samples};
use cudagraph_tests::gpu;

const SAMPLE_SIZE: usize = 20;
/// How long the bench waits for a rank's answer before calling it a hang.
const STALL: Duration = Duration::from_secs(120);

/// Small messages: (bytes, steps per block); target graph / eager time <= 1.0.
const SMALL: [(usize, u64); 3] = [(4, 500), (4 << 10, 500), (64 << 10, 500)];
const SMALL_TARGET: f64 = 1.0;
/// Large messages: (bytes, steps per block); target graph / eager time <= 1.05 (bus bandwidth
/// within 5%).
const LARGE: [(usize, u64); 2] = [(64 << 20, 20), (256 << 20, 8)];
const LARGE_TARGET: f64 = 1.05;

/// Raw NCCL communicators (one per device), destroyed once the rank threads are done.
struct RawComms(Vec<nccl_sys::ncclComm_t>);

impl Drop for RawComms {
    fn drop(&mut self) {
        for &c in &self.0 {
            // SAFETY: a communicator made by `ncclCommInitAll` below, used no more (the rank
            // threads have ended).
            let _ = unsafe { nccl::comm_destroy(c) };
        }
    }
}

/// One raw communicator, moved to the thread of its rank.
struct RawComm(nccl_sys::ncclComm_t);

// SAFETY: an NCCL communicator may be used from any thread, one call at a time
// (https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/usage/threadsafety.html): only its
// rank's thread calls it, and the main thread destroys it after that thread has ended.
unsafe impl Send for RawComm {}

/// What the main thread tells every rank to do.
#[derive(Debug, Clone, Copy)]
enum Cmd {
    /// Make the buffers and the graph for messages of this many `f32`s.
    Prepare(usize),
    /// Launch the graph this many times, then wait for the stream.
    Graph(u64),
    /// Call `ncclAllReduce` this many times, then wait for the stream.
    Eager(u64),
    /// Check that both buffers still hold ones (the average of ones), then free them.
    Check,
}

/// One rank's buffers and executable for one message size.
struct Size {
    count: usize,
    exec: GraphExec<'static>,
    graph_buf: DeviceBuffer<f32>,
    eager_buf: DeviceBuffer<f32>,
}

/// A rank's thread: its communicators, its stream, and the current message size.
struct Rank {
    comm: Communicator,
    raw: RawComm,
    stream: Arc<CudaStream>,
    size: Option<Size>,
}

impl Rank {
    fn run(&mut self, cmd: Cmd) -> Result<(), String> {
        match cmd {
            Cmd::Prepare(count) => {
                self.size = None;
                let ones = vec![1.0f32; count];
                let graph_buf = DeviceBuffer::from_host(&self.stream, &ones).map_err(text)?;
                let eager_buf = DeviceBuffer::from_host(&self.stream, &ones).map_err(text)?;
                let mut g = Graph::new(self.comm.context()).map_err(text)?;
                g.add_all_reduce_in_place(&self.comm, &mut graph_buf.clone(), ReduceOp::Avg, &[])
                    .map_err(text)?;
                // Every rank instantiates at once: the cross-rank order check waits for all.
                let exec = g.instantiate().map_err(text)?;
                sync(&self.stream);
                self.size = Some(Size {
                    count,
                    exec,
                    graph_buf,
                    eager_buf,
                });
            }
            Cmd::Graph(steps) => {
                let size = self.size.as_mut().ok_or("no graph prepared")?;
                for _ in 0..steps {
                    size.exec.launch(&self.stream).map_err(text)?;
                }
                sync(&self.stream);
            }
            Cmd::Eager(steps) => {
                let size = self.size.as_ref().ok_or("no buffer prepared")?;
                let addr = size.eager_buf.addr();
                for _ in 0..steps {
                    // SAFETY: `addr` holds `count` f32s on this communicator's device, alive
                    // until the stream is synchronized below; the stream is a live stream of
                    // that device; only this thread uses the communicator.
                    unsafe {
                        nccl::all_reduce(
                            addr as *const c_void,
                            addr as *mut c_void,
                            size.count,
                            nccl_sys::ncclDataType_t::ncclFloat32,
                            nccl_sys::ncclRedOp_t::ncclAvg,
                            self.raw.0,
                            self.stream.cu_stream() as _,
                        )
                    }
                    .map_err(|e| format!("ncclAllReduce: {e:?}"))?;
                }
                sync(&self.stream);
            }
            Cmd::Check => {
                let size = self.size.take().ok_or("nothing prepared")?;
                // Averages of ones, however many times: both sides really ran their all-reduce
                // on these buffers (a wrong buffer or a missing peer shows as another value).
                for (side, buf) in [("graph", &size.graph_buf), ("eager", &size.eager_buf)] {
                    let got = buf.to_vec().map_err(text)?;
                    if let Some(bad) = got.iter().find(|&&v| v != 1.0) {
                        return Err(format!("{side} buffer holds {bad}, not 1.0"));
                    }
                }
            }
        }
        Ok(())
    }
}

fn text(e: impl std::fmt::Display) -> String {
    e.to_string()
}

/// The rank threads, and the way to make all of them do one thing.
struct Ranks {
    cmds: Vec<Sender<Cmd>>,
    done: Receiver<(usize, Result<(), String>)>,
}

impl Ranks {
    fn start(
        comms: Vec<Communicator>,
        raws: Vec<RawComm>,
    ) -> (Self, Vec<std::thread::JoinHandle<()>>) {
        let (done_tx, done) = channel();
        let mut cmds = Vec::new();
        let mut threads = Vec::new();
        for (comm, raw) in comms.into_iter().zip(raws) {
            let (tx, rx) = channel::<Cmd>();
            cmds.push(tx);
            let done = done_tx.clone();
            threads.push(std::thread::spawn(move || rank_thread(comm, raw, rx, done)));
        }
        (Self { cmds, done }, threads)
    }

    /// Tells every rank to do `cmd` and waits until all are done; a rank's failure ends the
    /// bench with its message, and a rank that does not answer within `STALL` ends the process.
    fn all(&self, cmd: Cmd) {
        for tx in &self.cmds {
            tx.send(cmd).expect("a rank thread ended early");
        }
        for _ in 0..self.cmds.len() {
            match self.done.recv_timeout(STALL) {
                Ok((_, Ok(()))) => {}
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
    }
}

fn rank_thread(
    comm: Communicator,
    raw: RawComm,
    cmds: Receiver<Cmd>,
    done: Sender<(usize, Result<(), String>)>,
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
            raw,
            stream,
            size: None,
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

fn main() {
    let Some(gpu) = gpu("bench nccl") else {
        return;
    };
    if !nccl_present() {
        eprintln!("SKIPPED bench nccl: no NCCL (libnccl.so.2 could not be loaded)");
        return;
    }
    let count = CudaContext::device_count().expect("cuDeviceGetCount") as usize;
    let mut ctxs = vec![gpu.ctx.clone()];
    for ordinal in 1..count {
        ctxs.push(open_device(ordinal).expect("opening a device"));
    }
    let n = ctxs.len();
    let device = ctxs[0].name().unwrap_or_else(|e| format!("<unnamed: {e}>"));
    let version = nccl::get_nccl_version().unwrap_or(0);
    println!("devices: {n} x {device}; NCCL {version}; one rank per GPU, one thread per rank");
    for var in [
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
        println!("one GPU: one rank (an all-reduce of one rank is a copy; bus bandwidth is 0)");
    }

    let comms = Communicator::init_all(&ctxs).expect("ncclCommInitAll (graphs)");
    let mut raw = RawComms(vec![std::ptr::null_mut(); n]);
    let devices: Vec<i32> = (0..n as i32).collect();
    // SAFETY: room for `n` communicators; devices `0..n` exist (opened above).
    unsafe { nccl::comm_init_all(raw.0.as_mut_ptr(), n as i32, devices.as_ptr()) }
        .expect("ncclCommInitAll (eager)");
    let (ranks, threads) = Ranks::start(comms, raw.0.iter().map(|&c| RawComm(c)).collect());

    let samples = Samples::new(SAMPLE_SIZE);
    let mut table = RatioTable::new(format!(
        "all-reduce (average, in place) of f32, {n} x {device}: graph / eager ncclAllReduce \
         (median time per step over {SAMPLE_SIZE} blocks)"
    ));
    let mut bandwidth = Vec::new();
    for (bytes, block, target) in SMALL
        .iter()
        .map(|&(b, s)| (b, s, SMALL_TARGET))
        .chain(LARGE.iter().map(|&(b, s)| (b, s, LARGE_TARGET)))
    {
        ranks.all(Cmd::Prepare(bytes / 4));
        let ids = (format!("graph/{bytes}"), format!("eager/{bytes}"));
        samples.interleaved_blocks(
            (&ids.0, &ids.1),
            block,
            2,
            |steps| ranks.all(Cmd::Graph(steps)),
            |steps| ranks.all(Cmd::Eager(steps)),
        );
        ranks.all(Cmd::Check);
        table.compare(
            &samples,
            "all-reduce per step: graph / eager",
            human(bytes),
            (&ids.0, &ids.1),
            Some(target),
            format!("blocks of {block} steps, then every rank waits for its stream"),
        );
        if target == LARGE_TARGET {
            let bw = |id: &str| {
                samples
                    .estimate(id)
                    .map(|e| bus_bandwidth(bytes, n, e.median))
            };
            bandwidth.push((bytes, bw(&ids.0), bw(&ids.1)));
        }
    }
    drop(ranks);
    for t in threads {
        t.join().expect("a rank thread panicked");
    }
    drop(raw);

    println!("\n{table}");
    println!("\nratios (graph / eager time per step; <= target passes):");
    for row in table.rows() {
        let ratio = row.ratio().map_or("-".to_owned(), |r| format!("{r:.3}x"));
        let target = row.target.map_or("-".to_owned(), |t| format!("{t:.2}x"));
        println!(
            "  RATIO all-reduce {:>9}: graph/eager = {ratio} (target <= {target}) {}",
            row.param,
            row.verdict()
        );
    }
    println!("\nbus bandwidth (NCCL busBw = bytes / time x 2(n-1)/n, GB/s), graph vs eager:");
    for (bytes, ours, eager) in bandwidth {
        let show = |v: Option<(f64, f64)>| {
            v.map_or("-".to_owned(), |(alg, bus)| {
                format!("busBw {bus:7.1} (algBw {alg:7.1})")
            })
        };
        let ratio = match (ours, eager) {
            (Some((_, o)), Some((_, e))) if e > 0.0 => format!("{:.3}", o / e),
            _ => "- (one rank: busBw is 0)".to_owned(),
        };
        println!(
            "  BUSBW {:>9}: graph {} | eager {} | graph/eager busBw {ratio} (target >= {:.2})",
            human(bytes),
            show(ours),
            show(eager),
            1.0 / LARGE_TARGET
        );
    }
    println!(
        "verdict: {}",
        if table.all_pass() { "PASS" } else { "OVER" }
    );
}

/// NCCL's algorithm and bus bandwidths of an all-reduce of `bytes` over `n` ranks taking `time`
/// per step, in GB/s (as nccl-tests computes them: `busBw = algBw * 2(n-1)/n`).
fn bus_bandwidth(bytes: usize, n: usize, time: Duration) -> (f64, f64) {
    let alg = bytes as f64 / time.as_secs_f64() / 1e9;
    (alg, alg * 2.0 * (n - 1) as f64 / n as f64)
}

fn human(bytes: usize) -> String {
    if bytes >= 1 << 20 {
        format!("{} MiB", bytes >> 20)
    } else if bytes >= 1 << 10 {
        format!("{} KiB", bytes >> 10)
    } else {
        format!("{bytes} B")
    }
}
