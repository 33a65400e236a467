//! [`Communicator`]: an NCCL communicator of one rank on one device, shared by the graphs whose
//! collective nodes use it, and the record of its latest launch that orders the next one.

use std::mem::ManuallyDrop;
use std::sync::{Arc, Mutex, MutexGuard};

use cudarc::driver::{CudaContext, CudaStream};
use cudarc::nccl::Id;

use super::connect::connect;
use super::error::nccl_err;
use super::handle::NcclComm;
use super::order::Exchange;
use super::windows::Windows;
use crate::error::{Error, Result};
use crate::id::fresh_id;
use crate::memory::fence::{is_capturing, EventCell};

/// Whether the NCCL library (`libnccl.so.2`) can be loaded: collectives need it, and a
/// [`Communicator`] made without it fails with [`Error::Nccl`].
pub fn nccl_present() -> bool {
    // SAFETY: only tries to load the library (`dlopen`), which runs its initialisers, as any
    // use of NCCL would.
    unsafe { cudarc::nccl::sys::is_culib_present() }
}

/// An NCCL communicator: one rank of a group of ranks, on one device (`ncclComm_t`).
///
/// Collective nodes ([`Graph::add_all_reduce`](crate::Graph::add_all_reduce) and the others)
/// use it; the graphs and executables holding such nodes keep it alive until their launches are
/// done. Cloning it is cheap and gives the same communicator.
///
/// Launches of executables using one communicator run one after the other: a launch waits (on
/// the device, through an event) for the previous launch using the communicator, whatever the
/// executable and stream, because two graphs issuing collectives on one communicator at once
/// interleave them differently on different ranks and hang.
///
/// Every rank must launch the executables using a communicator in the same order, each as many
/// times: NCCL pairs the ranks' collectives by their order, and the order check compares one
/// graph's collectives, not the sequence of launches, which is not checked. A rank whose launch
/// meets another executable's launch on a peer hangs. Over symmetric buffers
/// ([`Communicator::alloc_symmetric`]) it would do worse: NCCL's symmetric kernels read and
/// write the peer's buffers at the places the local graph names. So one executable at a time
/// (on each rank) may run collectives over symmetric buffers on a communicator: a second one is
/// refused when it is instantiated ([`Error::Invalid`](crate::Error::Invalid)), until the first
/// is dropped, and every rank's symmetric kernels meet their peers' at the same place of that
/// executable's checked sequence. Instantiating such an executable exchanges over the
/// communicator every time, checked before or not: every rank makes one, of the same
/// collectives at the same places, or every rank refuses (see
/// [`Graph::check_collective_order`](crate::Graph::check_collective_order)).
///
/// NCCL's support for mixing graphs with eager calls may be off (`NCCL_GRAPH_MIXING_SUPPORT=0`,
/// which removes an event wait and an event record from every captured collective): launches on
/// one communicator are ordered as above, and the one eager collective this crate makes on it
/// (the order check's exchange, at instantiation) first waits until the launches using it are
/// over, which is what NCCL then asks of the program.
///
/// Make one for every device of this process with [`Communicator::init_all`] (one rank per
/// device, `ncclCommInitAll`), or one per process or thread with [`Communicator::from_rank`]
/// (`ncclCommInitRank`, every rank with the same [`unique_id`](Communicator::unique_id)).
/// Each rank's work must be driven by its own thread (or process): a collective waits for all
/// ranks, so one thread cannot take part for two ranks in an exchange that blocks.
///
/// Making a communicator of several ranks also connects them: NCCL connects ranks lazily, at
/// the first collective of each algorithm and the first send or receive between two ranks, and
/// such a connection fails inside the stream capture that records a collective node. So the
/// ranks run a short warm-up first (a broadcast, all-reduces of a few sizes, an all-gather, a
/// reduce-scatter, and a byte sent to and received from every other rank), eagerly, and wait
/// for it: a few milliseconds, and NCCL's buffers for every peer. No environment variable
/// (`NCCL_RUNTIME_CONNECT`) is needed.
///
/// What a graph saves is NCCL's host work per call (8 to 10 µs for a small all-reduce on the
/// machines this crate is measured on); what it costs is the launch: each launch of a graph
/// holding NCCL's kernel took the GPU 3.4 to 4.7 µs beyond the collective on a pair of H200s. A
/// graph that runs one small collective per launch was therefore often slower than the same
/// eager call there (0.74-1.6x per step, depending on the process), while one that ran four per
/// launch matched or beat it; large messages run at NCCL's own bandwidth either way. Put a
/// step's collectives (and the work around them) in one graph rather than one graph per
/// collective, and give tiny collectives a buffer in NCCL's symmetric memory
/// ([`Communicator::alloc_symmetric`]): a graph's 4-byte all-reduce over one took about 2 µs
/// less than over a plain buffer there.
#[derive(Clone, Debug)]
pub struct Communicator {
    pub(crate) inner: Arc<CommInner>,
}

/// The shared part of a [`Communicator`].
#[derive(Debug)]
pub(crate) struct CommInner {
    /// Tells communicators apart (graph tables, lock order) in this process.
    pub(crate) id: u64,
    /// Tells communicators apart on every rank alike: a random number rank 0 picked and
    /// broadcast when the communicator was made (see `connect`). The order check exchanges over
    /// a graph's communicators in the order of their keys, which every rank shares (see
    /// `table`), and names the other communicators by key (see `order`).
    pub(crate) key: u64,
    pub(crate) rank: usize,
    pub(crate) size: usize,
    /// What calls NCCL or the driver when released; taken out by `Drop`, which hands it to the
    /// release thread where this thread may not call them.
    held: ManuallyDrop<Held>,
    /// The executable that may run collectives over symmetric buffers on it (see `owner`).
    pub(crate) symmetric_owner: super::owner::OwnerCell,
}

/// The parts of a communicator whose release calls NCCL or the driver (the abort, the windows'
/// `ncclMemFree`, a stream's or an event's destruction), released in declaration order.
#[derive(Debug)]
struct Held {
    /// The raw communicator. NCCL calls on one communicator must not overlap (NCCL is not
    /// thread-safe per communicator), hence the lock.
    comm: Mutex<SendComm>,
    /// Its symmetric windows and their memory. Declared after `comm`, so dropped after it
    /// (fields drop in declaration order): the memory is freed once the communicator's abort
    /// has released the windows.
    windows: Mutex<Windows>,
    /// The communicator's own stream (its NCCL calls are issued there): captures of collective
    /// nodes and the order check's exchange run on it.
    stream: Arc<CudaStream>,
    /// Held by whoever issues work to `stream` (a capture of a collective node, the order
    /// check's exchange): a capture records all work issued to its stream, from any thread, so
    /// work of another thread issued during a capture would land in that graph (and the graph
    /// would later touch memory that work freed).
    stream_use: Mutex<()>,
    /// The latest launch using the communicator (see `launch`).
    last: Mutex<LastLaunch>,
}

impl Drop for CommInner {
    /// The last handle may go inside a host node or a capture closure (a `Communicator` moved
    /// into one and dropped there), where NCCL's abort and the driver calls of the other
    /// releases are not allowed: the release thread makes them then.
    fn drop(&mut self) {
        // SAFETY: taken once, here, as `self` is dropped: nothing reads `held` after.
        let held = unsafe { ManuallyDrop::take(&mut self.held) };
        crate::reaper::release(held);
    }
}

/// The raw communicator (`ncclComm_t`).
#[derive(Debug)]
struct SendComm(NcclComm);

// SAFETY: an NCCL communicator may be used from any thread, one call at a time ("NCCL
// communicators are not thread-safe": https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/usage/threadsafety.html),
// which the `Mutex` around it ensures.
unsafe impl Send for SendComm {}

/// Where the latest launch using a communicator went, and the event that marks its end.
#[derive(Debug, Default)]
pub(crate) struct LastLaunch {
    pub(crate) stream: Option<Arc<CudaStream>>,
    pub(crate) done: EventCell,
}

impl LastLaunch {
    /// Records that the latest launch went to `stream` (no reference count taken when the
    /// previous one went there too, as launches in a loop do).
    #[inline]
    pub(crate) fn launched_on(&mut self, stream: &Arc<CudaStream>) {
        if !self.stream.as_ref().is_some_and(|s| Arc::ptr_eq(s, stream)) {
            self.stream = Some(stream.clone());
        }
    }
}

fn new_stream(ctx: &Arc<CudaContext>) -> Result<Arc<CudaStream>> {
    ctx.new_stream().map_err(|source| Error::Driver {
        call: "cuStreamCreate",
        source,
    })
}

impl Communicator {
    /// One communicator for each context in `ctxs` (one device each, no device twice), ranks
    /// `0..ctxs.len()` in that order (`ncclCommInitAll`). Move each to the thread that drives
    /// its device. Refused inside a host node or a capture closure (it waits for the ranks'
    /// warm-up).
    pub fn init_all(ctxs: &[Arc<CudaContext>]) -> Result<Vec<Communicator>> {
        crate::ambient::refuse_waiting("Communicator::init_all")?;
        let streams = ctxs.iter().map(new_stream).collect::<Result<Vec<_>>>()?;
        let comms = NcclComm::init_all(&streams)
            .map_err(nccl_err("ncclCommInitAll", "Communicator::init_all"))?;
        let key = connect(&comms, "Communicator::init_all")?;
        Ok(comms
            .into_iter()
            .zip(streams)
            .map(|(comm, stream)| Self::wrap(comm, stream, key))
            .collect())
    }

    /// A new id for a group of ranks (`ncclGetUniqueId`): made by one rank and given to every
    /// rank's [`Communicator::from_rank`].
    pub fn unique_id() -> Result<Id> {
        Id::new().map_err(nccl_err("ncclGetUniqueId", "Communicator::unique_id"))
    }

    /// Rank `rank` of `size` ranks on `ctx`'s device, in the group `id` names
    /// (`ncclCommInitRank`). Blocks until every rank has joined: call it for each rank on its
    /// own thread (or process). Refused inside a host node or a capture closure.
    pub fn from_rank(ctx: &Arc<CudaContext>, rank: usize, size: usize, id: Id) -> Result<Self> {
        crate::ambient::refuse_waiting("Communicator::from_rank")?;
        if rank >= size {
            return Err(Error::Invalid {
                node: "Communicator::from_rank".into(),
                reason: format!("rank {rank} of {size} ranks: ranks are 0..{size}"),
            });
        }
        let stream = new_stream(ctx)?;
        // `ncclCommInitRank` joins on the current device: this context's.
        ctx.bind_to_thread().map_err(|source| Error::Driver {
            call: "cuCtxSetCurrent",
            source,
        })?;
        let comm = NcclComm::init_rank(stream.clone(), rank, size, id)
            .map_err(nccl_err("ncclCommInitRank", "Communicator::from_rank"))?;
        let key = connect(std::slice::from_ref(&comm), "Communicator::from_rank")?;
        Ok(Self::wrap(comm, stream, key))
    }

    fn wrap(comm: NcclComm, stream: Arc<CudaStream>, key: u64) -> Self {
        // The release thread, up now rather than first asked for inside a host node.
        crate::reaper::start();
        Self {
            inner: Arc::new(CommInner {
                id: fresh_id(),
                key,
                rank: comm.rank(),
                size: comm.size(),
                held: ManuallyDrop::new(Held {
                    comm: Mutex::new(SendComm(comm)),
                    windows: Mutex::new(Windows::new(stream.context())),
                    stream,
                    stream_use: Mutex::new(()),
                    last: Mutex::new(LastLaunch::default()),
                }),
                symmetric_owner: Default::default(),
            }),
        }
    }

    /// This rank (`0..size`).
    pub fn rank(&self) -> usize {
        self.inner.rank
    }

    /// How many ranks the communicator has.
    pub fn size(&self) -> usize {
        self.inner.size
    }

    /// The context of the device this rank runs on.
    pub fn context(&self) -> &Arc<CudaContext> {
        self.inner.stream().context()
    }
}

/// Two handles are equal when they are the same communicator (clones of one another).
impl PartialEq for Communicator {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.inner, &other.inner)
    }
}

impl Eq for Communicator {}

impl CommInner {
    /// The raw communicator, for one call (or one group of calls) at a time.
    pub(crate) fn lock(&self) -> MutexGuard<'_, impl std::ops::Deref<Target = NcclComm>> {
        self.held.comm.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The right to issue work to the communicator's stream (see the field). Taken before the
    /// windows and the communicator, after `last`.
    pub(crate) fn stream_use(&self) -> MutexGuard<'_, ()> {
        self.held
            .stream_use
            .lock()
            .unwrap_or_else(|e| e.into_inner())
    }

    /// The symmetric windows (see `symmetric`).
    pub(crate) fn windows(&self) -> MutexGuard<'_, Windows> {
        self.held.windows.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub(crate) fn last(&self) -> MutexGuard<'_, LastLaunch> {
        self.held.last.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The communicator's own stream (see `Held::stream`).
    pub(crate) fn stream(&self) -> &Arc<CudaStream> {
        &self.held.stream
    }

    /// Makes `stream` wait for the latest launch using the communicator, when that launch went
    /// to another stream (on the same stream, stream order already serialises them).
    #[inline]
    pub(crate) fn order_after_last(&self, last: &LastLaunch, stream: &CudaStream) -> Result<()> {
        let Some(previous) = &last.stream else {
            return Ok(());
        };
        if previous.cu_stream() == stream.cu_stream() {
            return Ok(());
        }
        self.mark_last(last, previous)?;
        last.done.order_before(stream)
    }

    /// Blocks until the latest launch using the communicator has run (at once if there was
    /// none): before an eager NCCL call on it. With NCCL's support for mixing graphs with eager
    /// calls off (`NCCL_GRAPH_MIXING_SUPPORT=0`, or a communicator made with `graphUsageMode`
    /// below 2 on NCCL 2.29 or newer), NCCL does not support "launching a non-captured NCCL
    /// collective during an outstanding graph launch that uses the same communicator,
    /// regardless of stream ordering"
    /// (<https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html#nccl-graph-mixing-support>):
    /// stream order would not do, the launch must be over. The caller holds `last` until its
    /// eager call is issued, so no launch comes in between.
    pub(crate) fn wait_for_last(&self, last: &LastLaunch) -> Result<()> {
        let Some(previous) = &last.stream else {
            return Ok(());
        };
        self.mark_last(last, previous)?;
        last.done.wait_host()
    }

    /// Records `last.done` on `previous`, the stream of the latest launch.
    fn mark_last(&self, last: &LastLaunch, previous: &CudaStream) -> Result<()> {
        if is_capturing(previous)? {
            return Err(Error::Capturing {
                what: "a launch using a communicator whose previous launch went to a stream \
                       being captured (its end cannot be marked)"
                    .into(),
            });
        }
        // Recorded now, after the previous launch (and whatever followed it there, which only
        // makes the wait longer).
        last.done.record(previous)
    }
}

impl std::ops::Deref for SendComm {
    type Target = NcclComm;
    fn deref(&self) -> &NcclComm {
        &self.0
    }
}

/// The exchange of the order check, over the communicator itself: an eager all-gather on its
/// stream, after the latest launch using it.
impl Exchange for CommInner {
    fn rank(&self) -> usize {
        self.rank
    }

    fn size(&self) -> usize {
        self.size
    }

    fn all_gather(&self, mine: &[u64]) -> Result<Vec<u64>> {
        let driver = |call| move |source| Error::Driver { call, source };
        // An eager collective: after the launches using the communicator are over, not only
        // after them in stream order (see `wait_for_last`), and none starts until it is issued.
        let last = self.last();
        self.wait_for_last(&last)?;
        let _stream = self.stream_use();
        let stream = self.stream();
        let send = stream
            .clone_htod(mine)
            .map_err(driver("cuMemcpyHtoDAsync"))?;
        let mut recv = stream
            .alloc_zeros::<u64>(mine.len() * self.size)
            .map_err(driver("cuMemAllocAsync"))?;
        self.lock()
            .all_gather(&send, &mut recv)
            .map_err(nccl_err("ncclAllGather", "the collective order check"))?;
        let all = stream
            .clone_dtoh(&recv)
            .map_err(driver("cuMemcpyDtoHAsync"))?;
        stream
            .synchronize()
            .map_err(driver("cuStreamSynchronize"))?;
        Ok(all)
    }
}
