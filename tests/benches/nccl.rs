//! An all-reduce inside a graph against the same NCCL call made eagerly, on two GPUs, in the
//! same run: per step, rank 0 and rank 1 each launch their graph of one all-reduce node
//! (`GraphExec::launch`, an average in place over `f32`s) against a raw `ncclAllReduce` per rank in
//! one NCCL group (`ncclGroupStart` ... `ncclGroupEnd`, as one thread drives two GPUs), both
//! driven from one thread, in alternating blocks of steps ended by a wait for both streams.
//!
//! - small messages (1 KiB, 64 KiB): time per step, target graph / eager <= 1.0 (the graph
//!   removes NCCL's host work per call);
//! - large messages (64 MiB, 256 MiB): bus bandwidth (for an all-reduce, bytes / time x
//!   2(n-1)/n), target within 5% of eager: graph / eager time <= 1.05.
//!
//! The eager side uses communicators of its own (`ncclCommInitAll` through cudarc's raw calls),
//! the graph side this crate's `Communicator`s; neither runs while the other does.
//!
//! Without two GPUs or NCCL, prints one skip line and exits 0.
//!
//! Run on the two-GPU machine: `cargo bench -p cudagraph-tests --bench nccl` (or the packed
//! `.gpu/bench/cudagraph-tests--nccl --bench`).

use std::ffi::c_void;
use std::sync::Arc;

use cudagraph_runtime::cudarc::driver::CudaStream;
use cudagraph_runtime::cudarc::nccl::{result as nccl, sys as nccl_sys};
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{nccl_present, open_device, Communicator, DeviceBuffer, ReduceOp};
use cudagraph_tests::bench::{sync, RatioTable, Samples};
use cudagraph_tests::gpu;

const SAMPLE_SIZE: usize = 20;

/// (message bytes, steps per block, target ratio).
const SIZES: [(usize, u64, f64); 4] = [
    (1 << 10, 500, 1.0),
    (64 << 10, 500, 1.0),
    (64 << 20, 10, 1.05),
    (256 << 20, 4, 1.05),
];

/// Raw NCCL communicators (one per device), destroyed at the end.
struct RawComms(Vec<nccl_sys::ncclComm_t>);

impl Drop for RawComms {
    fn drop(&mut self) {
        for &c in &self.0 {
            // SAFETY: a communicator made by `ncclCommInitAll` below, used no more.
            let _ = unsafe { nccl::comm_destroy(c) };
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
    let second = match open_device(1) {
        Ok(ctx) => ctx,
        Err(e) => {
            eprintln!("SKIPPED bench nccl: needs 2 GPUs ({e})");
            return;
        }
    };
    let ctxs = [gpu.ctx.clone(), second];
    let device = ctxs[0].name().unwrap_or_else(|e| format!("<unnamed: {e}>"));
    println!("devices: 2 x {device}");
    let version = nccl::get_nccl_version().unwrap_or(0);
    println!("NCCL {version}");
    let streams: Vec<Arc<CudaStream>> = ctxs.iter().map(|c| c.new_stream().unwrap()).collect();
    let comms = Communicator::init_all(&ctxs).expect("ncclCommInitAll (graphs)");
    let mut raw = RawComms(vec![std::ptr::null_mut(); 2]);
    let devices = [0i32, 1];
    // SAFETY: room for two communicators; devices 0 and 1 exist (opened above).
    unsafe { nccl::comm_init_all(raw.0.as_mut_ptr(), 2, devices.as_ptr()) }
        .expect("ncclCommInitAll (eager)");

    let samples = Samples::new(SAMPLE_SIZE);
    let mut table = RatioTable::new(format!(
        "all-reduce (average) of f32 in place, 2 x {device}: graph / eager ncclAllReduce (median time per step over {SAMPLE_SIZE} blocks)"
    ));
    let mut bandwidth = Vec::new();
    for (bytes, block, target) in SIZES {
        let count = bytes / 4;
        let bufs: Vec<DeviceBuffer<f32>> = streams
            .iter()
            .map(|s| DeviceBuffer::from_host(s, &vec![1.0f32; count]).unwrap())
            .collect();
        let eager_bufs: Vec<DeviceBuffer<f32>> = streams
            .iter()
            .map(|s| DeviceBuffer::from_host(s, &vec![1.0f32; count]).unwrap())
            .collect();
        // Built and instantiated on one thread per rank: instantiation checks the ranks' orders
        // with an exchange that waits for both.
        let mut execs: Vec<GraphExec<'static>> = std::thread::scope(|s| {
            let ranks: Vec<_> = comms
                .iter()
                .zip(&bufs)
                .map(|(comm, buf)| {
                    s.spawn(move || {
                        let mut g = Graph::new(comm.context()).unwrap();
                        let mut buf = buf.clone();
                        g.add_all_reduce_in_place(comm, &mut buf, ReduceOp::Avg, &[])
                            .unwrap();
                        g.instantiate().unwrap()
                    })
                })
                .collect();
            ranks.into_iter().map(|r| r.join().unwrap()).collect()
        });
        let ids = (format!("graph/{bytes}"), format!("eager/{bytes}"));
        let addrs: Vec<u64> = eager_bufs.iter().map(DeviceBuffer::addr).collect();
        samples.interleaved_blocks(
            (&ids.0, &ids.1),
            block,
            2,
            |steps| {
                for _ in 0..steps {
                    for (exec, s) in execs.iter_mut().zip(&streams) {
                        exec.launch(s).expect("launch");
                    }
                }
                streams.iter().for_each(|s| sync(s));
            },
            |steps| {
                for _ in 0..steps {
                    nccl::group_start().expect("ncclGroupStart");
                    for ((&comm, &addr), s) in raw.0.iter().zip(&addrs).zip(&streams) {
                        // SAFETY: `addr` holds `count` f32s on this communicator's device,
                        // alive until the streams are synchronized below; `s` is a live stream
                        // of that device.
                        unsafe {
                            nccl::all_reduce(
                                addr as *const c_void,
                                addr as *mut c_void,
                                count,
                                nccl_sys::ncclDataType_t::ncclFloat32,
                                nccl_sys::ncclRedOp_t::ncclAvg,
                                comm,
                                s.cu_stream() as _,
                            )
                        }
                        .expect("ncclAllReduce");
                    }
                    nccl::group_end().expect("ncclGroupEnd");
                }
                streams.iter().for_each(|s| sync(s));
            },
        );
        table.compare(
            &samples,
            "all-reduce per step: graph / eager",
            human(bytes),
            (&ids.0, &ids.1),
            Some(target),
            format!("blocks of {block} steps, then a wait for both streams"),
        );
        let busbw = |id: &str| {
            samples
                .estimate(id)
                .map(|e| bytes as f64 / e.median.as_secs_f64() * 2.0 * (2 - 1) as f64 / 2.0 / 1e9)
        };
        bandwidth.push((bytes, busbw(&ids.0), busbw(&ids.1)));
        // Averages of ones, however many times: the graphs really ran their all-reduce on
        // these buffers (a wrong buffer or a missing peer would show as another value or a hang).
        for buf in bufs.iter().chain(&eager_bufs) {
            assert!(buf.to_vec().unwrap().iter().all(|&v| v == 1.0));
        }
        drop(execs);
    }
    println!("\n{table}");
    println!("bus bandwidth (GB/s), graph vs eager:");
    for (bytes, ours, eager) in bandwidth {
        let show = |v: Option<f64>| v.map_or("-".to_owned(), |v| format!("{v:.1}"));
        println!("  {:>9}: {} vs {}", human(bytes), show(ours), show(eager));
    }
    println!(
        "verdict: {}",
        if table.all_pass() { "PASS" } else { "OVER" }
    );
}

fn human(bytes: usize) -> String {
    if bytes >= 1 << 20 {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{} KiB", bytes >> 10)
    }
}
