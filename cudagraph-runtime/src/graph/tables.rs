//! The tables a graph keeps beside its node records, behind one pointer: fan-in edges, every
//! node's uses of memory, allocations, conditional bodies, indirect values.

use super::bodies::BodyTable;
use crate::indirect::{IndirectBlock, IndirectScope};
use crate::memory::adopted::AdoptedList;
use crate::memory::operand::Use;
use crate::memory::registry::Registry;
use crate::node::mem::AllocRecord;

/// Fan-in dependency lists and the nodes' uses of memory, kept together behind one pointer (see
/// the size test at the end of `definition`).
#[derive(Debug, Clone, Default)]
pub(super) struct Tables<'a> {
    pub(super) edges: Vec<u32>,
    pub(super) uses: Vec<Use<'a>>,
    /// Whether some node reads or writes host memory in host code (a host node's buffers).
    pub(super) host_code: bool,
    /// The graph's allocations (alloc nodes), in the order they were added.
    pub(super) allocs: Vec<AllocRecord>,
    /// Whether the graph has memory nodes (alloc or free, added or captured).
    pub(super) memory_nodes: bool,
    /// Whether the graph has device-updatable kernel nodes (`crate::device_launch`'s rules
    /// apply: device-launch instantiation only, no clone, clear, embedding or whole-graph update).
    pub(super) device_updatable: bool,
    /// Those nodes, by index.
    pub(super) device_updatable_nodes: Vec<u32>,
    /// Allocations of other graphs that free nodes of this one free.
    pub(super) adopted: AdoptedList,
    /// For the body of a conditional node: the scope of the conditional handles its kernels may
    /// set (the root graph's), and the body's raw graph belongs to the node, not to us.
    pub(super) body_of: Option<u64>,
    /// The scope of the conditional handles made for this graph when it is not its family:
    /// a clone's (a graph and its clone share a family, so that node handles work on both, but
    /// not their conditional handles: each graph numbers its own, and a kernel of one given a
    /// handle of the other would set a handle value its graph does not have), and a graph that
    /// took another's family (`Graph::join_family_of`) keeps its own. `None`: the family.
    pub(super) handle_scope: Option<u64>,
    /// The nodes of the conditional bodies, nested ones too (their uses and dependency lists are
    /// in `uses` and `edges` with this graph's own).
    pub(super) bodies: BodyTable,
    /// The WHILE nodes of this graph and of its bodies (see `graph::loops`).
    pub(super) loops: Vec<super::bodies::LoopAt>,
    /// A capture into this graph was broken: CUDA leaves the graph unusable (every later call
    /// about it fails with `CUDA_ERROR_INVALID_VALUE`).
    pub(super) broken_by_capture: bool,
    /// The graph holds work it cannot account for: nodes a failed capture recorded that CUDA
    /// could not remove (it removes no node from a graph with memory nodes), or a node whose
    /// removal failed. Their memory is neither checked nor held, so the graph is unusable: it
    /// refuses to be instantiated, embedded, used as an update source, or to take more nodes.
    pub(super) refused_work: bool,
    /// The driver graph is never destroyed: a capture recorded an allocation into it whose
    /// cudarc slice outlived the capture (see `capture::escape`), and destroying the graph would
    /// hand the slice's address to another allocation.
    pub(super) keep_driver_graph: bool,
    /// The driver's graph holds user objects ([`Graph::retain`](crate::Graph::retain), or a
    /// host node's closure, moved in before the node is added and kept there if it is refused):
    /// a rebuild does not keep it (see `graph::rebuild`).
    pub(super) retained: bool,
    /// What decides how CUDA pairs the nodes with another graph's in a whole-graph update,
    /// beyond the node records (see `graph::pairing`).
    pub(super) pairing: super::pairing::Pairing,
    /// Conditional handles made for this graph that drive no conditional node yet: CUDA
    /// refuses to instantiate a graph with one, and a handle drives one node only, so a
    /// conditional node takes only a handle listed here.
    pub(super) idle_handles: Vec<crate::node::RawConditionalHandle>,
    /// How many handles made for conditional bodies, since built, drive no node: nothing can
    /// use them any more (a body is built only once), and CUDA refuses to instantiate a graph
    /// with one. Counted apart from `idle_handles`, which holds this graph's own handles only
    /// (handle values of different graphs may be equal).
    pub(super) stranded_handles: usize,
    /// How many conditional handles were made for this graph and for the conditional bodies
    /// it absorbed (see [`Tables::dead_handles`]).
    pub(super) made_handles: usize,
    /// How many handles were made for conditional bodies whose build failed, removed with
    /// their node. The driver keeps them registered with this graph (handles are numbered
    /// across a graph and its bodies), driving no node, and refuses to instantiate it
    /// (`CUDA_ERROR_INVALID_VALUE`, naming nothing); and a copy of one may have left the build
    /// (a `ConditionalHandle` is `Copy`), passing for a handle of this graph that its kernels
    /// may set. The graph is not instantiated, nor an update source, while any is counted.
    pub(super) dead_handles: usize,
    /// Which indirect values the graph's nodes may read, after which node (see `crate::indirect`).
    pub(super) indirect: Option<IndirectScope>,
    /// The graph's block of indirect values, until instantiation moves it into the executable.
    pub(super) indirect_block: BlockSlot,
    /// For a graph made by a [`Scope`](crate::Scope): the executables made from it are waited
    /// for when the scope ends.
    pub(super) scope: Option<&'a Registry>,
    /// For a conditional body made in a capture: the capture's id, whose memory (views,
    /// allocations) its nodes may use.
    pub(super) capture: Option<u64>,
    /// The collective nodes (NCCL), their communicators, and whether the ranks' orders agree.
    #[cfg(feature = "nccl")]
    pub(super) collectives: crate::collective::CollectiveTable,
}

/// A graph's block of indirect values. Graphs with one are never cloned, so a clone of the
/// table (made only for graphs without one) starts empty.
#[derive(Debug, Default)]
pub(super) struct BlockSlot(pub(super) Option<Box<IndirectBlock>>);

impl Clone for BlockSlot {
    fn clone(&self) -> Self {
        debug_assert!(
            self.0.is_none(),
            "graphs with indirect values are not cloned"
        );
        Self(None)
    }
}
