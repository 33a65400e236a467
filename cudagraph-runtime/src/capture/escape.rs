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
//! So a capture whose recorded work has an allocation that no recorded free node frees is
//! refused. (Counted per address: the driver may give an allocation the address of one freed
//! before it in the same graph, so a free of that address frees one of them only; this crate's
//! own allocations, [`CaptureScope::alloc`](super::CaptureScope::alloc), are always freed in
//! the capture and balance.) Refusing is not enough on its own: destroying the graph would
//! give its reserved addresses back to the driver, to be handed to the next allocation, and the
//! slice would alias it. So the driver graph of a refused capture is never destroyed
//! (`Graph::keep_driver_graph`): its addresses stay reserved and are never backed by memory,
//! since the graph is never instantiated, and any use of the escaped slice faults instead of
//! touching another allocation.
//!
//! A capture whose end fails is worse: one the closure broke (a synchronizing call, a wait on
//! an event recorded outside), or one a stream joined (cudarc's `fork`, `join`, `wait` on an
//! event recorded in the capture) without being joined back, whose end fails with
//! `CUDA_ERROR_STREAM_CAPTURE_UNJOINED`. The driver destroys the graph it was recording when
//! such a capture ends, whoever holds its handle, and hands its addresses out again. Its nodes
//! can still be listed before the end, so the unfreed allocations of every capture are found
//! then ([`unfreed_in`]), and once a capture's end has failed their addresses are taken back
//! into graphs that are never instantiated nor destroyed ([`quarantine`]). The driver hands a
//! freed range to the next graph allocation that fits it, lowest first
//! (CUDA 13.0), so taking a range back right after the end gets it, unless another thread
//! allocated in between: then an escaped slice may alias that allocation, and nothing can keep
//! it away, so the process is aborted. It is aborted too when the capture's nodes cannot
//! be listed. (Which allocations escaped cannot be told, so a cudarc slice dropped after the
//! break is taken back too: a failed capture is an error already, and the abort needs another
//! thread's allocation in the microseconds between the end and the taking back.)
//!
//! [graph memory nodes]: https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#graph-memory-nodes

use std::collections::HashMap;

use cudarc::driver::sys;

use super::sequence::Sequence;
use crate::driver::result;
use crate::error::{Error, Result};
use crate::graph::{Graph, Recorded};
use crate::node::mem::AllocParams;
use crate::node::NodeParams;

/// The allocations (address and bytes) among `nodes` (raw nodes of a graph, with their raw
/// types) that no node of `nodes` frees, by address.
///
/// Counted per address, not matched: within one graph the driver may give an allocation the
/// address of one freed before it (CUDA's "address reuse within a graph"), so a free node of an
/// address says only that *one* allocation there is freed. At one address the allocations'
/// lifetimes are apart (each is freed before the next is made), so the allocations left
/// unfreed there are as many as its alloc nodes outnumber its free nodes. (This crate's own
/// capture allocations, [`CaptureScope::alloc`](super::CaptureScope::alloc), are always freed
/// in the capture: counted like any other, they balance.) Of an address with one left, its
/// largest allocation is returned: the escaped one is among them.
fn unfreed(nodes: &[(sys::CUgraphNode, u32)]) -> Result<Vec<(sys::CUdeviceptr, usize)>> {
    let alloc = sys::CUgraphNodeType::CU_GRAPH_NODE_TYPE_MEM_ALLOC as u32;
    let free = sys::CUgraphNodeType::CU_GRAPH_NODE_TYPE_MEM_FREE as u32;
    if !nodes.iter().any(|&(_, code)| code == alloc) {
        return Ok(Vec::new());
    }
    let mut mem = Vec::new();
    for &(node, code) in nodes {
        if code == alloc {
            // SAFETY: an alloc node of a live graph (the caller's).
            let (addr, bytes) = unsafe { result::recorded::alloc(node) }?;
            mem.push(Mem::Alloc(addr, bytes));
        } else if code == free {
            // SAFETY: a free node of a live graph (the caller's).
            mem.push(Mem::Free(unsafe { result::recorded::freed(node) }?));
        }
    }
    Ok(left_unfreed(&mem))
}

/// A memory node, as [`left_unfreed`] counts it.
#[derive(Clone, Copy, Debug)]
enum Mem {
    /// An allocation: its address and bytes.
    Alloc(sys::CUdeviceptr, usize),
    /// A free of the allocation at this address.
    Free(sys::CUdeviceptr),
}

/// The count of [`unfreed`]: per address, alloc nodes less free nodes; where allocations are
/// left, the address with its largest allocation's bytes, by address.
fn left_unfreed(mem: &[Mem]) -> Vec<(sys::CUdeviceptr, usize)> {
    let mut at: HashMap<sys::CUdeviceptr, (i64, usize)> = HashMap::new();
    for &m in mem {
        match m {
            Mem::Alloc(addr, bytes) => {
                let entry = at.entry(addr).or_default();
                entry.0 += 1;
                entry.1 = entry.1.max(bytes);
            }
            Mem::Free(addr) => at.entry(addr).or_default().0 -= 1,
        }
    }
    let mut left: Vec<_> = at
        .into_iter()
        .filter(|&(_, (count, _))| count > 0)
        .map(|(addr, (_, bytes))| (addr, bytes))
        .collect();
    left.sort_unstable();
    left
}

/// The address of the first allocation `recorded` (nodes a capture recorded) holds that no node
/// of `recorded` frees.
fn escaped(recorded: &[Recorded]) -> Result<Option<sys::CUdeviceptr>> {
    let nodes: Vec<_> = recorded.iter().map(|n| (n.raw, n.code)).collect();
    Ok(unfreed(&nodes)?.first().map(|&(addr, _)| addr))
}

/// Refuses the capture that recorded `recorded` into `graph` (a graph captured into, not new;
/// the nodes its table does not list, [`Graph::recorded_nodes`], `None` when they could not be
/// listed) when an allocation of it escaped the closure (see the module docs), keeping
/// `graph`'s driver graph for the rest of the process so that the allocation's address is never
/// handed out again. `sequence` is the capture's record; `None` when the capture did not begin
/// (nothing recorded).
pub(super) fn refuse_escaped(
    graph: &mut Graph<'_>,
    recorded: Option<&[Recorded]>,
    sequence: Option<&Sequence<'_>>,
) -> Result<()> {
    let Some(sequence) = sequence else {
        return Ok(());
    };
    let found = match &*sequence.escaped_in_bodies.borrow() {
        Some(bodies) if bodies.is_empty() => match recorded {
            Some(recorded) => escaped(recorded),
            None => Err(unknown_recorded()),
        },
        Some(bodies) => Ok(bodies.first().map(|&(addr, _)| addr)),
        None => Err(unknown_body()),
    };
    keep_if_escaped(graph, found)
}

/// The error for recorded nodes that could not be listed: whether an allocation escaped is not
/// known.
fn unknown_recorded() -> Error {
    Error::Invalid {
        node: "<capture>".into(),
        reason: "the nodes the capture recorded could not be listed".into(),
    }
}

/// The error for a body whose allocations could not be listed (see
/// [`note_escaped_in_bodies`]).
pub(super) fn unknown_body() -> Error {
    Error::Invalid {
        node: "conditional".into(),
        reason: "the nodes of a body that kept an escaped allocation could not be listed".into(),
    }
}

/// Refuses a new graph captured (`graph`) whose unfreed allocations, listed before the end of
/// its capture, are `unfreed` (see [`unfreed_in`]), keeping its driver graph as
/// [`refuse_escaped`] does.
pub(super) fn refuse_unfreed(
    graph: &mut Graph<'_>,
    unfreed: Result<Vec<(sys::CUdeviceptr, usize)>>,
) -> Result<()> {
    keep_if_escaped(graph, unfreed.map(|u| u.first().map(|&(addr, _)| addr)))
}

/// The refusal of [`refuse_escaped`] and [`refuse_unfreed`], given what was found: the address
/// of an escaped allocation, or an error (not known: the graph is kept too).
fn keep_if_escaped(graph: &mut Graph<'_>, found: Result<Option<sys::CUdeviceptr>>) -> Result<()> {
    let addr = match found {
        Ok(None) => return Ok(()),
        Ok(Some(addr)) => Some(addr),
        // Unknown: the recorded work may hold such an allocation, so the graph is kept too.
        Err(_) => None,
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

/// The allocations of `graph`, the graph a capture records into, that no node of it frees (see
/// [`unfreed`]), listed before the capture ends: when the end fails (a broken capture, a stream
/// joined into the capture and not joined back), the driver destroys the graph with it, and
/// they are to take back with [`quarantine`]; when it succeeds, for a new graph, they are the
/// escaped allocations.
///
/// Listed again from the graph a capture made, after its end, they include what another thread
/// allocated on the captured stream in between.
///
/// # Safety
/// `graph` is the graph the capture records into, and the capture has not ended (the driver
/// permits reading the graph of a capture in progress: `cuStreamGetCaptureInfo`), or the graph
/// a capture made, once it ended.
pub(super) unsafe fn unfreed_in(graph: sys::CUgraph) -> Result<Vec<(sys::CUdeviceptr, usize)>> {
    // SAFETY: the caller's promise: the driver keeps the graph until the capture ends.
    let raw = unsafe { result::graph::nodes(graph) }?;
    let mut nodes = Vec::with_capacity(raw.len());
    for node in raw {
        // SAFETY: a node of that graph.
        nodes.push((node, unsafe { result::graph::node_type(node) }?));
    }
    unfreed(&nodes)
}

/// Notes, in `escaped` (a capture's `Sequence::escaped_in_bodies`), the allocations that
/// escaped the captures into those of `bodies` (bodies of a conditional node the capture added)
/// that keep their driver graph: the capture's graph then holds them, and is refused and kept
/// when the capture ends, or they are taken back when its end fails. `None` when a body's nodes
/// cannot be listed (not known: taken as an escape at an unknown address).
pub(super) fn note_escaped_in_bodies(
    escaped: &std::cell::RefCell<Option<Vec<(sys::CUdeviceptr, usize)>>>,
    bodies: &[Graph<'_>],
) {
    let mut escaped = escaped.borrow_mut();
    for body in bodies.iter().filter(|b| b.keeps_driver_graph()) {
        // SAFETY: a live body of a conditional node of the graph being captured into.
        match unsafe { unfreed_in(body.raw()) } {
            Ok(unfreed) if !unfreed.is_empty() => {
                if let Some(escaped) = escaped.as_mut() {
                    escaped.extend(unfreed);
                }
            }
            _ => *escaped = None,
        }
    }
}

/// Ends the process: an allocation of a capture whose end failed may have escaped its closure, and its
/// address could not be taken back (`why`), so an escaped `CudaSlice` could reach another
/// allocation's memory, and nothing else can keep it away.
fn give_up(why: &str) -> ! {
    eprintln!(
        "cudagraph: aborting: a stream capture whose end failed (broken inside its closure by a \
         synchronizing call or a wait on an event recorded outside it, or with a stream that \
         joined it and was not joined back) held an allocation made through cudarc that it \
         did not free, whose `CudaSlice` may have outlived the closure; {why}, so that slice \
         could reach another allocation's memory. Allocate inside a capture with \
         `CaptureScope::alloc`, or drop cudarc's slices inside the closure, do not break the \
         capture, and fork streams with `CaptureScope::fork`."
    );
    std::process::abort()
}

/// Ends the process: the closure of `call` ended the capture itself (cudarc's
/// `CudaStream::end_capture` on its stream), and may keep the graph that gave it: a graph of
/// work recorded on memory, host functions and kernels that nothing keeps alive for it (or, for
/// a capture into a graph, a second owner of this crate's graph). Nothing else can keep it away
/// from freed memory.
pub(super) fn ended_inside(call: &str) -> ! {
    eprintln!(
        "cudagraph: aborting: the closure of {call} ended the stream capture itself (cudarc's \
         `CudaStream::end_capture`, or `cuStreamEndCapture`): the graph it got holds none of \
         what its work uses (the memory given to the capture, its host functions and kernels), \
         which may be freed while it runs. End a capture by returning from the closure."
    );
    std::process::abort()
}

/// How many alloc nodes [`quarantine`] adds for one escaped allocation before it gives up on
/// taking its address back.
const QUARANTINE_TRIES: usize = 1024;

/// The largest gap-filling allocation [`quarantine`] asks for: larger gaps take several.
const QUARANTINE_GAP: usize = 1 << 30;

/// How many times [`quarantine`] waits a millisecond for an escaped range to come free.
const QUARANTINE_WAITS: usize = 20;

/// Takes the addresses of `escaped` (allocations of a capture whose end failed, on device
/// `ordinal`)
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
    let reserve = |bytes: usize| -> Result<sys::CUdeviceptr> {
        let graph = result::graph::create()?;
        let mut params = AllocParams::new(ordinal, bytes);
        // SAFETY: a live graph of this context, and alloc node parameters.
        params.with_raw(|raw| unsafe { result::graph::add_node(graph, &[], raw) })?;
        Ok(params.address())
    };
    'escaped: for &(addr, bytes) in escaped {
        let end = addr + bytes as u64;
        let (mut size, mut waited, mut largest) = (bytes, 0, QUARANTINE_GAP.max(bytes));
        let mut taken: Vec<std::ops::Range<u64>> = Vec::new();
        for _ in 0..QUARANTINE_TRIES {
            let at = match reserve(size) {
                Ok(at) => at,
                // A gap-filling allocation too large for the driver: half the size from now on.
                Err(_) if size > bytes => {
                    largest = (size / 2).max(bytes);
                    size = largest;
                    continue;
                }
                Err(e) => give_up(&format!("taking its address back failed ({e})")),
            };
            let reserved = at..at + size as u64;
            if reserved.start < end && addr < reserved.end {
                // Part of the escaped range, or all of it, is ours now.
                taken.push(reserved.clone());
                if covers(&mut taken, addr..end) {
                    continue 'escaped;
                }
                size = bytes;
                continue;
            }
            if reserved.end <= addr {
                // Below the escaped range: next, the gap left between (or the escaped size).
                size = usize::try_from(addr - (at + size as u64))
                    .unwrap_or(bytes)
                    .clamp(bytes, largest);
            } else if size == bytes {
                // An allocation of the escaped size placed past it: the rest of the range is not
                // free.
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

/// Whether the ranges of `taken` together cover `range` (sorts `taken`).
fn covers(taken: &mut [std::ops::Range<u64>], range: std::ops::Range<u64>) -> bool {
    taken.sort_unstable_by_key(|r| r.start);
    let mut from = range.start;
    for r in taken.iter() {
        if r.start > from {
            break;
        }
        from = from.max(r.end);
        if from >= range.end {
            return true;
        }
    }
    from >= range.end
}

/// Ends the process when the nodes of a capture whose end failed could not be listed before its end
/// (`error`): an allocation of it may have escaped, at an address not known.
pub(super) fn quarantine_failed(error: &Error) -> ! {
    give_up(&format!(
        "its nodes could not be listed before its end ({error})"
    ))
}

#[cfg(test)]
mod tests {
    use super::covers;
    use super::*;
    use Mem::{Alloc, Free};

    #[test]
    fn an_allocation_freed_in_the_graph_is_not_left() {
        assert_eq!(left_unfreed(&[Alloc(0x1000, 64), Free(0x1000)]), []);
        assert_eq!(left_unfreed(&[Alloc(0x1000, 64)]), [(0x1000, 64)]);
        assert_eq!(left_unfreed(&[]), []);
    }

    #[test]
    fn an_allocation_at_the_address_of_one_freed_before_it_is_left() {
        // The driver reuses a freed address within a graph: the second allocation (a cudarc
        // slice kept past the closure, say) is not freed by the first one's free, nor hidden by
        // this crate's own allocation that was there before.
        let mem = [Alloc(0x1000, 64), Free(0x1000), Alloc(0x1000, 256)];
        assert_eq!(left_unfreed(&mem), [(0x1000, 256)]);
        let both_freed = [
            Alloc(0x1000, 64),
            Free(0x1000),
            Alloc(0x1000, 256),
            Free(0x1000),
        ];
        assert_eq!(left_unfreed(&both_freed), []);
    }

    #[test]
    fn a_free_of_another_address_frees_nothing_here() {
        let mem = [Alloc(0x1000, 64), Alloc(0x2000, 64), Free(0x2000)];
        assert_eq!(left_unfreed(&mem), [(0x1000, 64)]);
    }

    /// `start..end` (a one-range array written with `..` reads like a mistake to clippy).
    fn span(start: u64, end: u64) -> std::ops::Range<u64> {
        start..end
    }

    #[test]
    fn ranges_cover_a_range_together_or_not_at_all() {
        assert!(covers(&mut [span(0, 10)], 2..8));
        assert!(covers(&mut [5..10, 0..5], 0..10), "two pieces, any order");
        assert!(!covers(&mut [0..4, 5..10], 0..10), "a hole at 4");
        assert!(!covers(&mut [span(3, 10)], 0..10), "the start left out");
        assert!(!covers(&mut [span(0, 9)], 0..10), "the end left out");
        assert!(covers(&mut [0..6, 2..4, 5..12], 1..11));
        assert!(!covers(&mut [], 0..1));
    }
}
