//! Allocations that outlive their capture's closure.
//!
//! cudarc allocates with `cuMemAllocAsync` on the stream it is given. On the captured stream
//! (`CaptureScope::stream`, or the caller's own `Arc` of it moved into the closure) that call is
//! recorded: it becomes an alloc node of the graph, and the `CudaSlice` cudarc returns names an
//! address the graph reserves, backed by memory only while a launch of the graph has it
//! allocated ([graph memory nodes]). Dropped inside the closure, the slice records a free node
//! and is gone. Kept past the closure (moved out through shared state, a channel, the closure's
//! own captures), it is a safe handle to memory that does not exist yet, and that the graph's
//! launches then allocate, write and may hand to other allocations: copies through it would
//! touch memory nothing owns.
//!
//! So a capture whose recorded work has an allocation that this crate did not make
//! ([`CaptureScope::alloc`](super::CaptureScope::alloc), always freed) and that no recorded
//! free node frees is refused. Refusing is not enough on its own: destroying the graph would
//! give its reserved addresses back to the driver, to be handed to the next allocation, and the
//! slice would alias it. So the driver graph of a refused capture is never destroyed
//! (`Graph::keep_driver_graph`): its addresses stay reserved and are never backed by memory,
//! since the graph is never instantiated, and any use of the escaped slice faults instead of
//! touching another allocation.
//!
//! A capture the closure broke (a synchronizing call, a wait on an event recorded outside) is
//! worse: the driver destroys the graph it was recording when the capture ends, whoever holds
//! its handle, and hands its addresses out again. Its nodes can still be listed between the
//! break and the end, so the unfreed allocations are found then ([`unfreed_in_broken`]), and
//! once the capture has ended their addresses are taken back into graphs that are never
//! instantiated nor destroyed ([`quarantine`]). The driver hands a freed range to the next graph allocation that fits it, lowest first
//! (CUDA 13.0), so taking a range back right after the end gets it, unless another thread
//! allocated in between: then an escaped slice may alias that allocation, and nothing can keep
//! it away, so the process is aborted. It is aborted too when the broken capture's nodes cannot
//! be listed. (Which allocations escaped cannot be told, so a cudarc slice dropped after the
//! break is taken back too: a broken capture is an error already, and the abort needs another
//! thread's allocation in the microseconds between the end and the taking back.)
//!
//! [graph memory nodes]: https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#graph-memory-nodes

use std::collections::HashSet;

use cudarc::driver::sys;

use super::sequence::Sequence;
use crate::driver::result;
use crate::error::{Error, Result};
use crate::graph::{Graph, Recorded};
use crate::node::mem::AllocParams;
use crate::node::NodeParams;

/// The allocations (address and bytes) among `nodes` (raw nodes a capture recorded, with their
/// raw types) that neither this crate's capture calls made (`sequence`'s allocations) nor a node
/// of `nodes` frees.
fn unfreed(
    nodes: &[(sys::CUgraphNode, u32)],
    sequence: &Sequence<'_>,
) -> Result<Vec<(sys::CUdeviceptr, usize)>> {
    let alloc = sys::CUgraphNodeType::CU_GRAPH_NODE_TYPE_MEM_ALLOC as u32;
    let free = sys::CUgraphNodeType::CU_GRAPH_NODE_TYPE_MEM_FREE as u32;
    if !nodes.iter().any(|&(_, code)| code == alloc) {
        return Ok(Vec::new());
    }
    let mut freed = HashSet::new();
    for &(node, _) in nodes.iter().filter(|&&(_, code)| code == free) {
        // SAFETY: a free node of the graph the capture recorded into, still alive.
        freed.insert(unsafe { result::recorded::freed(node) }?);
    }
    let ours = sequence.allocs.borrow();
    let mut left = Vec::new();
    for &(node, _) in nodes.iter().filter(|&&(_, code)| code == alloc) {
        // SAFETY: an alloc node of the graph the capture recorded into, still alive.
        let (addr, bytes) = unsafe { result::recorded::alloc(node) }?;
        if !freed.contains(&addr) && !ours.iter().any(|e| e.range.start == addr) {
            left.push((addr, bytes));
        }
    }
    Ok(left)
}

/// The address of the first allocation `recorded` (nodes a capture recorded) holds that neither
/// this crate's capture calls made nor a node of `recorded` frees.
fn escaped(recorded: &[Recorded], sequence: &Sequence<'_>) -> Result<Option<sys::CUdeviceptr>> {
    let nodes: Vec<_> = recorded.iter().map(|n| (n.raw, n.code)).collect();
    Ok(unfreed(&nodes, sequence)?.first().map(|&(addr, _)| addr))
}

/// Refuses the capture that recorded `recorded` into `graph` (the nodes the table does not
/// list, from [`Graph::recorded_nodes`]; `None` when they could not be listed) when an
/// allocation of it escaped the closure (see the module docs), keeping `graph`'s driver graph
/// for the rest of the process so that the allocation's address is never handed out again.
/// `sequence` is the capture's record; `None` when the capture did not begin (nothing
/// recorded).
pub(super) fn refuse_escaped(
    graph: &mut Graph<'_>,
    recorded: Option<&[Recorded]>,
    sequence: Option<&Sequence<'_>>,
) -> Result<()> {
    let Some(sequence) = sequence else {
        return Ok(());
    };
    // Unknown (the nodes or their parameters could not be read): the recorded work may hold
    // such an allocation, so the graph is kept too.
    let addr = match recorded.map(|recorded| escaped(recorded, sequence)) {
        Some(Ok(None)) => return Ok(()),
        Some(Ok(Some(addr))) => Some(addr),
        Some(Err(_)) | None => None,
    };
    graph.keep_driver_graph();
    let at = addr.map_or_else(String::new, |a| format!(" at {a:#x}"));
    Err(Error::Invalid {
        node: format!("mem_alloc{at}"),
        reason: "an allocation made in the capture through cudarc (`alloc`, `alloc_zeros`, \
                 `clone_htod` ... on the captured stream) is not freed in it: its `CudaSlice` \
                 outlives the closure, naming memory that exists only while a launch of the \
                 graph has it allocated. Drop the slice inside the closure, or allocate with \
                 `CaptureScope::alloc`. The graph is refused, and its addresses stay reserved \
                 (never backed by memory) for as long as the process runs, so that the slice \
                 cannot reach another allocation"
            .into(),
    })
}

/// The allocations of `graph`, the graph of a capture that was invalidated but has not ended
/// yet, that neither this crate made nor a node of it frees (see the module docs): to take
/// back with [`quarantine`] once the capture has ended.
///
/// # Safety
/// `graph` is the graph the capture records into, and the capture has not ended.
pub(super) unsafe fn unfreed_in_broken(
    graph: sys::CUgraph,
    sequence: &Sequence<'_>,
) -> Result<Vec<(sys::CUdeviceptr, usize)>> {
    // SAFETY: the caller's promise: the driver keeps the graph until the capture ends.
    let raw = unsafe { result::graph::nodes(graph) }?;
    let mut nodes = Vec::with_capacity(raw.len());
    for node in raw {
        // SAFETY: a node of that graph.
        nodes.push((node, unsafe { result::graph::node_type(node) }?));
    }
    unfreed(&nodes, sequence)
}

/// Ends the process: an allocation of a broken capture may have escaped its closure, and its
/// address could not be taken back (`why`), so an escaped `CudaSlice` could reach another
/// allocation's memory, and nothing else can keep it away.
fn give_up(why: &str) -> ! {
    eprintln!(
        "cudagraph: aborting: a stream capture broken inside its closure (a synchronizing call, \
         a wait on an event recorded outside it) held an allocation made through cudarc that it \
         did not free, whose `CudaSlice` may have outlived the closure; {why}, so that slice \
         could reach another allocation's memory. Allocate inside a capture with \
         `CaptureScope::alloc`, or drop cudarc's slices inside the closure, and do not break \
         the capture."
    );
    std::process::abort()
}

/// How many alloc nodes [`quarantine`] adds for one escaped allocation before it gives up on
/// taking its address back.
const QUARANTINE_TRIES: usize = 1024;

/// How many times [`quarantine`] waits a millisecond for an escaped range to come free.
const QUARANTINE_WAITS: usize = 20;

/// Takes the addresses of `escaped` (allocations of a broken capture, on device `ordinal`)
/// back from the driver: alloc nodes, each in a graph of its own that is never instantiated
/// (so no memory ever backs them) nor destroyed, added until one lands on each escaped range.
///
/// The driver places a fresh graph's allocation at the lowest free range that fits it (so CUDA
/// 13.0 does; a graph's later allocations go elsewhere, hence a graph each): an allocation of
/// the escaped size lands on the escaped range once the free ranges below it are filled, which
/// allocations the size of the gap left below it do quickly. One of the escaped size placed
/// past the escaped range means the range is not free: not yet (the search waits a little), or
/// taken by another thread's allocation since the capture ended, which an escaped slice may
/// then alias. The process is aborted then ([`give_up`]), as when the driver refuses the
/// allocations or the search runs out of tries.
pub(super) fn quarantine(ordinal: i32, escaped: &[(sys::CUdeviceptr, usize)]) {
    let reserve = |bytes: usize| -> sys::CUdeviceptr {
        let graph = result::graph::create()
            .unwrap_or_else(|e| give_up(&format!("taking its address back failed ({e})")));
        let mut params = AllocParams::new(ordinal, bytes);
        // SAFETY: a live graph of this context, and alloc node parameters.
        match params.with_raw(|raw| unsafe { result::graph::add_node(graph, &[], raw) }) {
            Ok(_) => params.address(),
            Err(e) => give_up(&format!("taking its address back failed ({e})")),
        }
    };
    'escaped: for &(addr, bytes) in escaped {
        let end = addr + bytes as u64;
        let (mut size, mut waited) = (bytes, 0);
        for _ in 0..QUARANTINE_TRIES {
            let at = reserve(size);
            if at <= addr && end <= at + size as u64 {
                continue 'escaped;
            }
            if at + (size as u64) <= addr {
                // Below the escaped range: next, the gap left between (or the escaped size).
                size = usize::try_from(addr - (at + size as u64))
                    .unwrap_or(bytes)
                    .max(bytes);
            } else if size == bytes {
                // An allocation of the escaped size placed past it: the range is not free.
                waited += 1;
                if waited > QUARANTINE_WAITS {
                    give_up(&format!(
                        "its address {addr:#x} was not free after the capture ended (the driver \
                         placed an allocation of its size at {at:#x}: another allocation may \
                         hold it)"
                    ));
                }
                std::thread::sleep(std::time::Duration::from_millis(1));
            } else {
                // A gap-sized allocation that fit nowhere below: fill up with the escaped size.
                size = bytes;
            }
        }
        give_up(&format!(
            "its address {addr:#x} was not handed back after {QUARANTINE_TRIES} allocations"
        ));
    }
}

/// Ends the process when the nodes of a broken capture could not be listed before its end
/// (`error`): an allocation of it may have escaped, at an address not known.
pub(super) fn quarantine_failed(error: &Error) -> ! {
    give_up(&format!(
        "its nodes could not be listed before its end ({error})"
    ))
}
