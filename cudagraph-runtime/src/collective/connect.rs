//! Connecting a communicator's ranks when it is made, before any capture: NCCL connects them
//! lazily, at the first call that needs a connection, and a connection made inside a stream
//! capture fails.
//!
//! What NCCL 2.28 does (its source, `src/init.cc`, `src/enqueue.cc`, `src/group.cc`):
//!
//! - Collectives. By default (`NCCL_RUNTIME_CONNECT=1`, since 2.22) a communicator connects
//!   the channels of an *algorithm* (ring, tree, PAT, NVLS, CollNet) the first time a
//!   collective picks that algorithm; which one it picks depends on the operation and the
//!   message size (and a tuner plugin). Connecting imports and maps the peers' buffers
//!   (`cuMemImportFromShareableHandle`, `cuMemMap`, `cuMemSetAccess`) on the calling thread.
//!   NCCL switches to relaxed capture mode around its own allocations, not around these, and a
//!   thread-local capture (this crate's) refuses them: on two H100s with NCCL 2.28 every
//!   collective captured before its algorithm was connected failed with CUDA error 900
//!   (`CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED`), reported as `ncclInternalError`.
//!   `NCCL_RUNTIME_CONNECT=0` connects every algorithm in `ncclCommInitRank`, but NCCL reads it
//!   once per process and from the environment only (`ncclConfig_t` has no field for it), and
//!   a library cannot set the environment of a running, threaded program soundly.
//! - Point to point. A send or receive connects its peer lazily in any case, on the first
//!   send or receive between the two ranks, whatever its size: every channel NCCL uses for that
//!   peer at once (`p2pnChannelsPerPeer`).
//!
//! So a new communicator of more than one rank runs, eagerly and synchronised, what makes NCCL
//! connect: a broadcast (ring, the only algorithm of a broadcast), an all-reduce of each size in
//! [`ALL_REDUCE_BYTES`] (a small message and a large one pick different algorithms: tree or ring,
//! NVLS where it is on), an all-gather and a reduce-scatter (PAT between nodes), and one grouped
//! send and receive of a byte with every other rank. A collective that later picks an algorithm
//! none of these picked still connects lazily inside its capture; the capture then runs NCCL's
//! call in relaxed mode (see `add`), which lets those calls through.
//!
//! The price: a few milliseconds when the communicator is made, a transient scratch buffer of
//! the largest size below, and NCCL's buffers for every peer (point to point), which grow with
//! the number of ranks.

use std::sync::Arc;

use cudarc::driver::{CudaSlice, CudaStream};
use cudarc::nccl::result::NcclError;
use cudarc::nccl::{group_end, group_start};

use super::error::nccl_err;
use super::handle::NcclComm;
use super::op::ReduceOp;
use crate::error::{Error, Result};

/// The all-reduce sizes of the warm-up, in bytes: from latency-bound to bandwidth-bound, a factor
/// of 16 apart, across the sizes where NCCL's choice of algorithm changes on one node.
const ALL_REDUCE_BYTES: [usize; 4] = [4, 64 << 10, 1 << 20, 16 << 20];

/// Connects the ranks of `comms` (every rank of this process or thread in one communicator
/// group, each with its own stream): each NCCL call of the warm-up is one NCCL group over
/// them, so one thread can take part for several ranks (as `ncclCommInitAll` made them).
/// Waits until the warm-up has run. `who` names the caller in errors.
///
/// Returns the communicator's key, the same on every rank (see `CommInner::key`): the warm-up's
/// broadcast carries rank 0's, a random number.
pub(crate) fn connect(comms: &[NcclComm], who: &'static str) -> Result<u64> {
    let key = random_key();
    let Some(first) = comms.first() else {
        return Ok(key);
    };
    let size = first.size();
    if size == 1 {
        return Ok(key);
    }
    let driver = |call| move |source| Error::Driver { call, source };
    let largest = ALL_REDUCE_BYTES[ALL_REDUCE_BYTES.len() - 1];
    let mut scratch = Vec::with_capacity(comms.len());
    for comm in comms {
        let stream = comm.stream().clone();
        scratch.push(Scratch {
            key: stream
                .clone_htod(&key.to_le_bytes()[..])
                .map_err(driver("cuMemcpyHtoDAsync"))?,
            big: stream
                .alloc_zeros::<u8>(largest.max(2 * size))
                .map_err(driver("cuMemAllocAsync"))?,
            received: stream
                .alloc_zeros::<u8>(size)
                .map_err(driver("cuMemAllocAsync"))?,
            stream,
        });
    }
    let mut each = |call: &'static str, f: &dyn Fn(&NcclComm, &mut Scratch) -> Step| {
        grouped(comms, &mut scratch, f).map_err(nccl_err(call, who))
    };
    // Rank 0's key to every rank (the other ranks' random keys are overwritten).
    each("ncclBroadcast", &|c, s| c.broadcast_in_place(&mut s.key, 0))?;
    for bytes in ALL_REDUCE_BYTES {
        each("ncclAllReduce", &|c, s| {
            c.all_reduce_in_place(&mut s.big.slice_mut(..bytes), ReduceOp::Sum)
        })?;
    }
    each("ncclAllGather", &|c, s| {
        c.all_gather(&s.received.slice(..1), &mut s.big.slice_mut(..size))
    })?;
    each("ncclReduceScatter", &|c, s| {
        c.reduce_scatter(
            &s.big.slice(..size),
            &mut s.received.slice_mut(..1),
            ReduceOp::Sum,
        )
    })?;
    each("ncclSend/ncclRecv", &|c, s| {
        let me = c.rank();
        for peer in (0..size).filter(|&p| p != me) {
            c.send(&s.big.slice(..1), peer as i32)?;
            c.recv(&mut s.received.slice_mut(peer..peer + 1), peer as i32)?;
        }
        Ok(())
    })?;
    let mut keys = Vec::with_capacity(scratch.len());
    for s in &scratch {
        let bytes = s
            .stream
            .clone_dtoh(&s.key)
            .map_err(driver("cuMemcpyDtoHAsync"))?;
        s.stream
            .synchronize()
            .map_err(driver("cuStreamSynchronize"))?;
        keys.push(u64::from_le_bytes(
            bytes.try_into().expect("the key is 8 bytes"),
        ));
    }
    // Every rank of this call received rank 0's key.
    debug_assert!(keys.windows(2).all(|w| w[0] == w[1]));
    Ok(keys[0])
}

/// A random 64-bit number, different for every call (std's randomly seeded hasher, over a
/// number never handed out before in this process, the process id and the time): what rank 0
/// of a new communicator picks as its key, and what names a rank's record in `cycle`. Keys of communicators made in different processes
/// could only coincide by chance, once in about 2^64.
pub(crate) fn random_key() -> u64 {
    use std::hash::BuildHasher;
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    std::hash::RandomState::new().hash_one((crate::id::fresh_id(), std::process::id(), now))
}

/// One rank's scratch memory for the warm-up, on its communicator's stream (freed there, after
/// the warm-up, once the stream is synchronised).
struct Scratch {
    /// The communicator's key, 8 bytes (little-endian): this rank's, then rank 0's.
    key: CudaSlice<u8>,
    big: CudaSlice<u8>,
    received: CudaSlice<u8>,
    stream: Arc<CudaStream>,
}

/// What one rank's part of a warm-up step returns.
type Step = std::result::Result<(), NcclError>;

/// Runs `f` for every rank inside one NCCL group (`ncclGroupStart` ... `ncclGroupEnd`), which
/// always ends, also when a call in it failed.
fn grouped(
    comms: &[NcclComm],
    scratch: &mut [Scratch],
    f: &dyn Fn(&NcclComm, &mut Scratch) -> Step,
) -> Step {
    group_start()?;
    let calls = comms
        .iter()
        .zip(scratch.iter_mut())
        .try_for_each(|(c, s)| f(c, s));
    let ended = group_end().map(drop);
    calls.and(ended)
}
