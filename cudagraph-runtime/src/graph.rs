//! Definition graphs: nodes and edges, built with explicit driver calls (no capture needed).

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::marker::PhantomData;
use std::ops::Range;
use std::sync::Arc;

use cudarc::driver::{sys, CudaContext};

use crate::ambient::must_defer_releases;
use crate::bodies::{BodyNode, BodyTable};
use crate::body::Body;
use crate::driver::{record_err, result};
use crate::error::{Error, Result};
use crate::function_set::FunctionSet;
use crate::id::fresh_id;
use crate::indirect::{
    foreign_block, Indirect, IndirectBlock, IndirectLayout, IndirectOptions, IndirectScope,
};
use crate::kernel::{Kernel, KernelArgValues, KernelArgs, KernelContract, LaunchConfig};
use crate::memory::adopted::{Adopted, AdoptedList};
use crate::memory::alloc::Space;
use crate::memory::hazard::{host_code_conflict, reaches};
use crate::memory::operand::{Hold, Use};
use crate::memory::DeviceBuffer;
use crate::node::mem::{self, AllocParams, AllocRecord, FreeParams};
use crate::node::{
    check_views_apart, with_views, ChildGraphNode, ChildParams, Direction, EmptyNode, EmptyParams,
    Event, EventParams, EventRecordNode, EventWaitNode, GraphAlloc, HostCall, HostFn, HostNode,
    HostParams, HostViews, KernelLaunch, KernelNode, KernelParams, MemFreeNode, Memcpy, MemcpyNode,
    Memset, MemsetNode, MemsetValue, NodeId, NodeKind, NodeParams, PanicWatch,
};
#[cfg(not(feature = "cuda-12020"))]
use crate::node::{Condition, ConditionalHandle, ConditionalNode, ConditionalParams};
use crate::reaper;
use crate::scope::Registry;
use crate::user_object::UserObject;

/// What the crate remembers of each node: enough to update it, name it and draw it.
#[derive(Debug, Clone)]
pub(crate) struct NodeRecord {
    pub(crate) raw: sys::CUgraphNode,
    pub(crate) kind: NodeKind,
    pub(crate) name: Option<Cow<'static, str>>,
    deps: Deps,
    /// For kernel nodes, what the node keeps of its kernel: the function (an update re-sends
    /// it), the type of its parameter list and its launch check.
    pub(crate) kernel: KernelContract,
    /// The node's uses of memory: `tables.uses[start..start + len]`.
    uses: (u32, u32),
}

impl NodeRecord {
    /// The record once its graph's use and edge tables are appended to another graph's, at
    /// `uses_base` and `edges_base` (a conditional body's, taken in by the enclosing graph).
    pub(crate) fn rebased(mut self, uses_base: u32, edges_base: u32) -> Self {
        if self.uses.1 > 0 {
            self.uses.0 += uses_base;
        }
        if let Deps::Listed { start, end } = &mut self.deps {
            *start += edges_base;
            *end += edges_base;
        }
        self
    }
}

/// A node's dependencies, by index, in the order given.
///
/// Most nodes have at most one (chains, pipelines), so that one is kept in the record itself and
/// only fan-ins use the graph's shared edge list: building a chain allocates nothing for its edges.
#[derive(Debug, Clone, Copy)]
enum Deps {
    None,
    One(u32),
    /// `edges[start..end]`.
    Listed {
        start: u32,
        end: u32,
    },
}

impl Deps {
    fn get<'a>(&'a self, edges: &'a [u32]) -> &'a [u32] {
        match self {
            Deps::None => &[],
            Deps::One(dep) => std::slice::from_ref(dep),
            Deps::Listed { start, end } => &edges[*start as usize..*end as usize],
        }
    }
}

/// Fan-in dependency lists and the nodes' uses of memory, kept together behind one pointer (see
/// the size test at the end of this file).
#[derive(Debug, Clone, Default)]
struct Tables<'a> {
    edges: Vec<u32>,
    uses: Vec<Use<'a>>,
    /// Whether some node reads or writes host memory in host code (a host node's buffers).
    host_code: bool,
    /// The graph's allocations (alloc nodes), in the order they were added.
    allocs: Vec<AllocRecord>,
    /// Whether the graph has memory nodes (alloc or free, added or captured).
    memory_nodes: bool,
    /// Allocations of other graphs that free nodes of this one free.
    adopted: AdoptedList,
    /// For the body of a conditional node: the scope of the conditional handles its kernels may
    /// set (the root graph's), and the body's raw graph belongs to the node, not to us.
    body_of: Option<u64>,
    /// The nodes of the conditional bodies, nested ones too (their uses and dependency lists are
    /// in `uses` and `edges` with this graph's own).
    bodies: BodyTable,
    /// A capture into this graph was broken: CUDA leaves the graph unusable (every later call
    /// about it fails with `CUDA_ERROR_INVALID_VALUE`).
    broken_by_capture: bool,
    /// Conditional handles made for this graph (or its bodies) that drive no conditional node
    /// yet: CUDA refuses to instantiate a graph with one.
    idle_handles: Vec<sys::CUgraphConditionalHandle>,
    /// Which indirect values the graph's nodes may read, after which node (see `crate::indirect`).
    indirect: Option<IndirectScope>,
    /// The graph's block of indirect values, until instantiation moves it into the executable.
    indirect_block: BlockSlot,
    /// For a graph made by a [`Scope`](crate::Scope): the executables made from it are waited
    /// for when the scope ends.
    scope: Option<&'a Registry>,
    /// For a conditional body made in a capture: the capture's id, whose memory (views,
    /// allocations) its nodes may use.
    capture: Option<u64>,
}

/// A graph's block of indirect values. Graphs with one are never cloned, so a clone of the
/// table (made only for graphs without one) starts empty.
#[derive(Debug, Default)]
struct BlockSlot(Option<Box<IndirectBlock>>);

impl Clone for BlockSlot {
    fn clone(&self) -> Self {
        debug_assert!(
            self.0.is_none(),
            "graphs with indirect values are not cloned"
        );
        Self(None)
    }
}

/// A CUDA graph being defined (`CUgraph`).
///
/// Nodes are added with explicit driver calls, each with its dependencies listed in the caller's
/// order, which is what makes whole-graph updates pair nodes deterministically: CUDA pairs the
/// nodes of two graphs built by the same sequence of calls ([`cuGraphExecUpdate`]).
///
/// `'a` is how long the memory the graph borrows lives: a graph made with [`Graph::new`] borrows
/// nothing (it is a `Graph<'static>`) and takes memory as [`DeviceBuffer`](crate::DeviceBuffer)s
/// and [`HostBuffer`](crate::HostBuffer)s, which it and its executables keep alive (see the crate
/// docs, "Memory model"); a graph made by a [`Scope`](crate::Scope) is a `Graph<'scope>` and may
/// borrow cudarc memory for the scope ([`scope`](crate::scope)). `'a` is invariant: a graph's
/// borrows can never be made shorter than they were promised.
///
/// `Send` but not `Sync`: a CUDA graph may move between threads but must never be touched by two
/// at once ([graph thread safety]).
///
/// [`cuGraphExecUpdate`]: https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__GRAPH.html
/// [graph thread safety]: https://docs.nvidia.com/cuda/cuda-driver-api/graphs-thread-safety.html
pub struct Graph<'a> {
    raw: sys::CUgraph,
    ctx: Arc<CudaContext>,
    family: u64,
    nodes: Vec<NodeRecord>,
    /// Made on the first fan-in or use of memory; kept by [`Graph::clear`].
    tables: Option<Box<Tables<'a>>>,
    next_name: Option<Cow<'static, str>>,
    /// Keeps the modules of the kernels in this graph loaded.
    functions: FunctionSet,
    /// Where this graph's host nodes (its own and its children's) report panics.
    pub(crate) panics: PanicWatch,
    _borrows: PhantomData<fn(&'a ()) -> &'a ()>,
}

// SAFETY: a CUgraph may be used from any thread as long as no two threads use it at once, which
// `&mut`/ownership guarantee as `Graph` is not `Sync`. Everything else it holds is `Send`.
unsafe impl Send for Graph<'_> {}

impl std::fmt::Debug for Graph<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Graph")
            .field("raw", &self.raw)
            .field("nodes", &self.nodes.len())
            .finish()
    }
}

impl Graph<'static> {
    /// An empty graph on `ctx`'s device. It borrows nothing: memory goes in as
    /// [`DeviceBuffer`](crate::DeviceBuffer)s and [`HostBuffer`](crate::HostBuffer)s (to borrow
    /// cudarc memory, make the graph in a [`scope`](crate::scope)).
    #[inline]
    pub fn new(ctx: &Arc<CudaContext>) -> Result<Self> {
        Self::with_capacity(ctx, 0)
    }

    /// An empty graph with room for `nodes` nodes in its bookkeeping.
    #[inline]
    pub fn with_capacity(ctx: &Arc<CudaContext>, nodes: usize) -> Result<Self> {
        Self::create(ctx, nodes)
    }
}

impl<'a> Graph<'a> {
    /// An empty graph that borrows memory for the scope whose executables `scope` lists.
    pub(crate) fn scoped(
        ctx: &Arc<CudaContext>,
        nodes: usize,
        scope: &'a Registry,
    ) -> Result<Self> {
        let mut graph = Self::create(ctx, nodes)?;
        graph.tables_mut().scope = Some(scope);
        Ok(graph)
    }

    #[inline]
    fn create(ctx: &Arc<CudaContext>, nodes: usize) -> Result<Self> {
        // No context needs to be current: a graph belongs to none, and every node-add call that
        // needs one names it (`ctx` in kernel, memset and memcpy parameters).
        let raw = result::graph::create()?;
        // SAFETY: `raw` was just created and is owned by nobody else.
        Ok(unsafe { Self::from_raw_parts(raw, ctx.clone(), Vec::with_capacity(nodes)) })
    }

    /// The graph of the driver's `raw` (a capture's), owned from now on, in family `family` (the
    /// scope its conditional handles were made for).
    ///
    /// # Safety
    /// `raw` is a live graph that this value will own (and destroy).
    pub(crate) unsafe fn captured(
        raw: sys::CUgraph,
        ctx: Arc<CudaContext>,
        family: u64,
        scope: Option<&'a Registry>,
    ) -> Self {
        // SAFETY: the caller's promise.
        let mut graph = unsafe { Self::from_raw_parts(raw, ctx, Vec::new()) };
        graph.family = family;
        if scope.is_some() {
            graph.tables_mut().scope = scope;
        }
        graph
    }

    /// The scope the graph was made in, whose end waits for its executables' launches.
    pub(crate) fn scope_registry(&self) -> Option<&'a Registry> {
        self.tables.as_ref().and_then(|t| t.scope)
    }

    /// # Safety
    /// `raw` must be a live graph that this value will own (and destroy).
    #[inline]
    pub(crate) unsafe fn from_raw_parts(
        raw: sys::CUgraph,
        ctx: Arc<CudaContext>,
        nodes: Vec<NodeRecord>,
    ) -> Self {
        Self {
            raw,
            ctx,
            family: fresh_id(),
            tables: None,
            nodes,
            next_name: None,
            functions: FunctionSet::default(),
            panics: PanicWatch::default(),
            _borrows: PhantomData,
        }
    }

    fn edges(&self) -> &[u32] {
        self.tables.as_ref().map_or(&[], |t| &t.edges)
    }

    #[inline]
    fn tables_mut(&mut self) -> &mut Tables<'a> {
        self.tables.get_or_insert_with(Default::default)
    }

    /// The uses of memory of node `index` (a body's node: see [`Graph::record`]).
    pub(crate) fn node_uses(&self, index: usize) -> &[Use<'a>] {
        match (&self.tables, self.record(index)) {
            (Some(tables), Some(record)) => {
                let (start, len) = record.uses;
                &tables.uses[start as usize..(start + len) as usize]
            }
            _ => &[],
        }
    }

    /// The table of every node's uses, and each node's `(start, len)` in it, in node order
    /// (the conditional bodies' nodes after the graph's own).
    pub(crate) fn use_table(&self) -> (&[Use<'a>], impl Iterator<Item = (u32, u32)> + Clone + '_) {
        let table = self.tables.as_ref().map_or(&[][..], |t| &t.uses[..]);
        let bodies = self.body_nodes().iter().map(|n| n.record.uses);
        (table, self.nodes.iter().map(|r| r.uses).chain(bodies))
    }

    /// Every node's uses of memory, in node order (the conditional bodies' nodes after the
    /// graph's own).
    pub(crate) fn uses_by_node(&self) -> impl Iterator<Item = &[Use<'a>]> + '_ {
        (0..self.nodes.len() + self.body_nodes().len()).map(move |i| self.node_uses(i))
    }

    /// Every node's uses of memory with the index of the node of this graph that orders them:
    /// the node itself, or for a node of a conditional body the conditional node.
    fn ordered_uses(&self) -> impl Iterator<Item = (usize, &[Use<'a>])> + '_ {
        let own = (0..self.nodes.len()).map(move |i| (i, self.node_uses(i)));
        let len = self.nodes.len();
        let bodies = self
            .body_nodes()
            .iter()
            .enumerate()
            .map(move |(i, n)| (n.owner as usize, self.node_uses(len + i)));
        own.chain(bodies)
    }

    /// The nodes of the conditional bodies.
    fn body_nodes(&self) -> &[BodyNode] {
        self.tables.as_ref().map_or(&[], |t| &t.bodies.nodes)
    }

    /// The record of node `index`: one of the graph's own nodes below [`Graph::len`], above it
    /// a node of a conditional body (`len() + its position among them`), as executables number
    /// them.
    #[inline]
    pub(crate) fn record(&self, index: usize) -> Option<&NodeRecord> {
        match self.nodes.get(index) {
            Some(record) => Some(record),
            None => self
                .body_nodes()
                .get(index - self.nodes.len())
                .map(|n| &n.record),
        }
    }

    fn record_mut(&mut self, index: usize) -> Option<&mut NodeRecord> {
        let len = self.nodes.len();
        match self.nodes.get_mut(index) {
            Some(record) => Some(record),
            None => self
                .tables
                .as_mut()
                .and_then(|t| t.bodies.nodes.get_mut(index - len))
                .map(|n| &mut n.record),
        }
    }

    /// The dependencies of node `index`, by index.
    pub(crate) fn deps_of(&self, index: usize) -> &[u32] {
        self.nodes
            .get(index)
            .map_or(&[], |r| r.deps.get(self.edges()))
    }

    /// The dependencies of node `index`, a conditional body's node too (by index in its body),
    /// and the bodies: what `crate::introspect` draws.
    pub(crate) fn local_deps_of(&self, index: usize) -> &[u32] {
        self.record(index).map_or(&[], |r| r.deps.get(self.edges()))
    }
    pub(crate) fn body_ranges(&self) -> &[crate::bodies::BodyRange] {
        self.tables.as_ref().map_or(&[], |t| t.bodies.ranges())
    }

    /// Empties the graph for a rebuild: a new, empty driver graph replaces the old one, which is
    /// destroyed. What the Rust side holds is kept: the context and kernel-module references (so
    /// rebuilding with the same kernels takes no new ones) and the node table's capacity.
    ///
    /// This is the cheap way to rebuild a graph for [`GraphExec::update`](crate::GraphExec::update)
    /// in a loop: it makes the same driver calls as dropping the graph and building a new one,
    /// without the allocations and reference counting. Handles to the old nodes stop working here
    /// (the graph starts a new family); executables instantiated from it are unaffected. Host
    /// closures of the old nodes and values handed over with [`Graph::retain`] are released with
    /// the old driver graph, once no executable needs them.
    ///
    /// Kernel modules the old contents used stay loaded until the graph is dropped.
    pub fn clear(&mut self) -> Result<()> {
        if self.is_body() {
            return Err(Error::Invalid {
                node: "clear".into(),
                reason: "a conditional body belongs to its conditional node: it cannot be \
                         replaced; build another conditional node instead"
                    .into(),
            });
        }
        let old = std::mem::replace(&mut self.raw, result::graph::create()?);
        let broken = self.tables.as_ref().is_some_and(|t| t.broken_by_capture);
        let destroyed = if broken {
            // A broken capture left the old handle invalid: nothing to destroy.
            Ok(())
        } else {
            // SAFETY: `old` was ours and nothing refers to it any more (executables made from it
            // hold their own copy, and its user objects keep what those need).
            unsafe { result::graph::destroy(old) }
        };
        self.family = fresh_id();
        self.nodes.clear();
        if let Some(tables) = &mut self.tables {
            tables.edges.clear();
            tables.uses.clear();
            tables.host_code = false;
            tables.allocs.clear();
            tables.memory_nodes = false;
            tables.adopted.0.clear();
            tables.bodies.clear();
            tables.idle_handles.clear();
            tables.broken_by_capture = false;
            // Never instantiated (instantiation consumes the graph): no launch used the block.
            tables.indirect = None;
            tables.indirect_block.0 = None;
        }
        self.next_name = None;
        // The old host nodes are gone from this graph: stop watching their slots (the own slot
        // stays, shared by host nodes added next).
        self.panics.unwatch(|_| true);
        destroyed
    }

    /// This graph seen as a [`Body`], whose adders are those of the node kinds a conditional
    /// body allows: for code that builds the same nodes into a graph and into conditional bodies
    /// (a function taking `&mut Body` serves both).
    pub fn as_body(&mut self) -> &mut Body<'a> {
        Body::lend(self)
    }

    /// Names the next node added. The name appears in errors about the node and in DOT output.
    pub fn name_next(&mut self, name: impl Into<Cow<'static, str>>) -> &mut Self {
        self.next_name = Some(name.into());
        self
    }

    /// Renames a node.
    pub fn set_name(
        &mut self,
        node: impl Into<NodeId>,
        name: impl Into<Cow<'static, str>>,
    ) -> Result<()> {
        let index = self.check_any_node(node.into())?;
        if let Some(record) = self.record_mut(index) {
            record.name = Some(name.into());
        }
        Ok(())
    }

    /// A node's name: the one given, or its kind and index (`kernel#3`).
    pub fn node_name(&self, node: impl Into<NodeId>) -> String {
        self.name_of(node.into().index())
    }

    pub(crate) fn name_of(&self, index: usize) -> String {
        match self.record(index) {
            Some(NodeRecord {
                name: Some(name), ..
            }) => name.to_string(),
            Some(record) => format!("{}#{index}", record.kind.name()),
            None => format!("node#{index}"),
        }
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the graph has no node.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Each node's kind, name and dependencies, in the order they were added.
    pub fn nodes(&self) -> impl Iterator<Item = NodeInfo<'_>> + use<'_, 'a> {
        (0..self.nodes.len()).map(move |index| {
            let r = &self.nodes[index];
            NodeInfo {
                index,
                kind: r.kind,
                name: self.name_of(index),
                deps: r.deps.get(self.edges()),
            }
        })
    }

    /// The graph in Graphviz DOT.
    pub fn to_dot(&self) -> String {
        let nodes: Vec<_> = self.nodes().collect();
        crate::dot::to_dot(
            "graph",
            nodes.iter().map(|n| (n.name.as_str(), n.kind)),
            nodes
                .iter()
                .flat_map(|n| n.deps.iter().map(move |&d| (d as usize, n.index))),
            &[],
        )
    }

    /// The context the graph belongs to.
    pub fn context(&self) -> &Arc<CudaContext> {
        &self.ctx
    }

    /// The raw driver handle, for calls this crate does not wrap. Do not destroy it.
    pub fn raw(&self) -> sys::CUgraph {
        self.raw
    }

    /// The id of the node at `index` (in the order nodes were added), if there is one.
    pub fn node_id(&self, index: usize) -> Option<NodeId> {
        let index = u32::try_from(index)
            .ok()
            .filter(|&i| (i as usize) < self.nodes.len())?;
        Some(NodeId {
            family: self.family,
            index,
        })
    }

    /// The raw handle of one of this graph's nodes.
    pub fn raw_node(&self, node: impl Into<NodeId>) -> Result<sys::CUgraphNode> {
        let index = self.check_any_node(node.into())?;
        Ok(self.record(index).expect("checked").raw)
    }

    /// After a whole-graph update from `other` (same topology), the kernels now launched: their
    /// functions, parameter lists and checks (an old `KernelNode<A>` handle is refused where the
    /// parameter list changed).
    pub(crate) fn take_kernels_of(&mut self, other: &Graph<'_>) {
        for (mine, theirs) in self.nodes.iter_mut().zip(&other.nodes) {
            mine.kernel = theirs.kernel;
        }
        if let Some(tables) = &mut self.tables {
            let theirs = other.body_nodes().iter();
            for (mine, theirs) in tables.bodies.nodes.iter_mut().zip(theirs) {
                mine.record.kernel = theirs.record.kernel;
            }
        }
    }

    /// Records that the kernel node at `index` now launches the kernel `kernel` describes.
    pub(crate) fn set_kernel(&mut self, index: usize, kernel: KernelContract) {
        if let Some(record) = self.record_mut(index) {
            record.kernel = kernel;
        }
    }

    /// Makes `self` answer to `other`'s node handles (same declaration, same construction order).
    pub(crate) fn join_family_of(&mut self, other: &Graph<'_>) {
        self.family = other.family;
        if let (Some(mine), Some(theirs)) = (&mut self.tables, &other.tables) {
            mine.bodies.join_families_of(&theirs.bodies);
        }
    }

    /// Whether `other`'s conditional bodies have as many nodes as this graph's, body by body (a
    /// whole-graph update pairs them one to one).
    pub(crate) fn same_bodies_as(&self, other: &Graph<'_>) -> bool {
        let empty = BodyTable::default();
        let mine = self.tables.as_ref().map_or(&empty, |t| &t.bodies);
        let theirs = other.tables.as_ref().map_or(&empty, |t| &t.bodies);
        mine.same_shape(theirs)
    }

    /// The records of the graph's own nodes, then of its conditional bodies' nodes.
    pub(crate) fn all_records(&self) -> impl Iterator<Item = &NodeRecord> + '_ {
        let bodies = self.body_nodes().iter().map(|n| &n.record);
        self.nodes.iter().chain(bodies)
    }

    pub(crate) fn functions(&self) -> &FunctionSet {
        &self.functions
    }

    /// The index of `node` if it belongs to this graph's family.
    #[inline]
    pub(crate) fn check_node(&self, node: NodeId) -> Result<usize> {
        self.index_of(node).ok_or_else(|| Error::ForeignNode {
            node: format!("node#{}", node.index),
        })
    }

    #[inline]
    fn index_of(&self, node: NodeId) -> Option<usize> {
        let index = node.index as usize;
        (node.family == self.family && index < self.nodes.len()).then_some(index)
    }

    /// The index of `node` if it is one of this graph's own nodes or a node of one of its
    /// conditional bodies (numbered after the graph's own: see [`Graph::record`]).
    #[inline]
    pub(crate) fn check_any_node(&self, node: NodeId) -> Result<usize> {
        self.any_record(node).map(|(index, _)| index)
    }

    /// [`Graph::check_any_node`] with the node's record: one lookup, and for one of the
    /// graph's own nodes (an update's hot path) nothing else inline.
    #[inline]
    pub(crate) fn any_record(&self, node: NodeId) -> Result<(usize, &NodeRecord)> {
        let index = node.index as usize;
        match self.nodes.get(index) {
            Some(record) if node.family == self.family => Ok((index, record)),
            _ => self.body_record(node),
        }
    }

    /// [`Graph::any_record`] for a node that is not one of the graph's own.
    #[cold]
    #[inline(never)]
    fn body_record(&self, node: NodeId) -> Result<(usize, &NodeRecord)> {
        self.index_in_bodies(node)
            .and_then(|index| Some((index, self.record(index)?)))
            .ok_or_else(|| Error::ForeignNode {
                node: format!("node#{}", node.index),
            })
    }

    /// A node of a conditional body, numbered after the graph's own nodes.
    #[cold]
    fn index_in_bodies(&self, node: NodeId) -> Option<usize> {
        let bodies = &self.tables.as_ref()?.bodies;
        Some(self.nodes.len() + bodies.position(node)?)
    }

    /// The number of uses recorded so far: where the next node's uses start.
    #[inline]
    fn uses_len(&self) -> usize {
        self.tables.as_ref().map_or(0, |t| t.uses.len())
    }

    /// Forgets the uses appended from `from` on (for a node that was refused).
    fn drop_uses_from(&mut self, from: usize) {
        if let Some(tables) = &mut self.tables {
            tables.uses.truncate(from);
        }
    }

    /// Where the uses `uses` start once appended to the table (appended only if there are
    /// any: a node without memory allocates no table).
    fn append_uses(&mut self, uses: impl IntoIterator<Item = Use<'a>>) -> usize {
        let from = self.uses_len();
        let mut uses = uses.into_iter().peekable();
        if uses.peek().is_some() {
            self.tables_mut().uses.extend(uses);
        }
        from
    }

    /// `result`, forgetting the name given for the next node when it is an error: the name was
    /// for the node that was refused, not for the one after it.
    #[inline]
    pub(crate) fn or_forget_name<T>(&mut self, result: Result<T>) -> Result<T> {
        if result.is_err() {
            self.next_name = None;
        }
        result
    }

    /// Adds a node of `params`' kind after `deps`, through the generic `cuGraphAddNode`: the one
    /// path every kind's adder takes. Records the node on success, with its uses of memory: the
    /// ones appended to the table from `uses_from` on (the adder appended them there, so that no
    /// node allocates a list of its own). On error they are removed again.
    fn add_node(
        &mut self,
        params: &mut impl NodeParams,
        deps: &[NodeId],
        uses_from: usize,
    ) -> Result<NodeId> {
        let result = self.add_node_with(params, deps, uses_from);
        if result.is_err() {
            self.drop_uses_from(uses_from);
        }
        result
    }

    fn add_node_with<P: NodeParams>(
        &mut self,
        params: &mut P,
        deps: &[NodeId],
        uses_from: usize,
    ) -> Result<NodeId> {
        let kind = P::KIND;
        let index = self.nodes.len();
        let name = self.next_name.take();
        self.check_not_broken()?;
        let node_name = |name: Option<Cow<'static, str>>| {
            name.map_or_else(|| format!("{}#{index}", kind.name()), Cow::into_owned)
        };
        if self.is_body() && !kind.allowed_in_body() {
            return Err(Error::Invalid {
                node: node_name(name),
                reason: format!(
                    "CUDA allows only kernel, empty, child-graph, memset, memcpy and conditional \
                     nodes in a conditional body, not {} nodes: put it before or after the \
                     conditional node",
                    kind.name()
                ),
            });
        }
        let index32 = u32::try_from(index).map_err(|_| Error::Invalid {
            node: format!("{}#{index}", kind.name()),
            reason: "a graph holds at most 2^32 nodes".into(),
        })?;
        // A node reading indirect values runs after the fetch node that fills them: the edge is
        // added when `deps` does not already order it so.
        let with_fetch;
        let deps = match self.missing_fetch_dep(uses_from, deps) {
            Some(fetch) => {
                with_fetch = [deps, &[fetch]].concat();
                &with_fetch[..]
            }
            None => deps,
        };
        // The raw dependency array: on the stack for the usual handful of dependencies.
        const INLINE: usize = 8;
        let mut inline = [std::ptr::null_mut(); INLINE];
        let mut spilled = Vec::new();
        for (i, dep) in deps.iter().enumerate() {
            let Some(d) = self.index_of(*dep) else {
                return Err(Error::Invalid {
                    node: node_name(name),
                    reason: format!("dependency node#{} is not a node of this graph", dep.index),
                });
            };
            match inline.get_mut(i) {
                Some(slot) => *slot = self.nodes[d].raw,
                None => spilled.push(self.nodes[d].raw),
            }
        }
        // One pass over the new node's uses: most nodes touch no host memory, and skip the
        // hazard check below.
        let (touches_host, host_code, graph_alloc) =
            self.tables.as_ref().map_or((false, false, false), |t| {
                t.uses.get(uses_from..).unwrap_or_default().iter().fold(
                    (false, false, false),
                    |(host, code, alloc), u| {
                        (
                            host || u.space == Space::Host,
                            code || u.host_code,
                            alloc
                                || matches!(
                                    u.hold,
                                    Hold::Graph { .. }
                                        | Hold::Handle { .. }
                                        | Hold::Indirect { .. }
                                        | Hold::Captured { .. }
                                ),
                        )
                    },
                )
            });
        if graph_alloc {
            let uses = self
                .tables
                .as_ref()
                .map_or(&[][..], |t| &t.uses[uses_from..]);
            let capture = self.tables.as_ref().and_then(|t| t.capture);
            refuse_captured(uses, capture, &|| node_name(name.clone()))?;
            self.check_handles(uses, &|| node_name(name.clone()))?;
            self.check_indirect_uses(uses, &|b| {
                deps.iter()
                    .any(|d| reaches(b, d.index as usize, |n| self.deps_of(n)))
            })
            .map_err(|reason| Error::Invalid {
                node: node_name(name.clone()),
                reason,
            })?;
            self.check_alloc_uses(uses_from, deps, &|| node_name(name.clone()))?;
        }
        let may_conflict =
            touches_host && (host_code || self.tables.as_ref().is_some_and(|t| t.host_code));
        if let Some(other) = may_conflict
            .then(|| self.host_code_conflict(uses_from, deps))
            .flatten()
        {
            return Err(Error::Hazard {
                first: self.name_of(other),
                second: node_name(name),
                reason: "both use the same host memory, one writes it, and host code (a host \
                         node's buffers) is involved; add an edge between them"
                    .into(),
            });
        }
        let raw_deps: &[sys::CUgraphNode] = if deps.len() <= INLINE {
            &inline[..deps.len()]
        } else {
            spilled.splice(0..0, inline);
            &spilled
        };
        let graph = self.raw;
        // SAFETY: `graph` is live; `raw_deps` are its nodes.
        let added = unsafe { params.add_to(graph, raw_deps) };
        let raw = match added {
            Ok(raw) => raw,
            Err(e) => return Err(e.at_node(|| node_name(name))),
        };
        let deps = match deps {
            [] => Deps::None,
            [dep] => Deps::One(dep.index),
            _ => {
                let edges = &mut self.tables_mut().edges;
                let start = edges.len() as u32;
                edges.extend(deps.iter().map(|d| d.index));
                Deps::Listed {
                    start,
                    end: edges.len() as u32,
                }
            }
        };
        let uses = match &mut self.tables {
            Some(tables) if tables.uses.len() > uses_from => {
                tables.host_code |= host_code;
                (uses_from as u32, (tables.uses.len() - uses_from) as u32)
            }
            _ => (0, 0),
        };
        self.nodes.push(NodeRecord {
            raw,
            kind,
            name,
            deps,
            kernel: params.kernel(),
            uses,
        });
        Ok(NodeId {
            family: self.family,
            index: index32,
        })
    }

    /// An earlier node whose use of host memory conflicts with the new node's uses (the table's
    /// from `from` on; the node comes after `deps`) while host code is involved and no path orders
    /// the two (see `memory::hazard`). Called only for a node that touches host memory while
    /// host code is in the graph or in the node.
    #[cold]
    fn host_code_conflict(&self, from: usize, deps: &[NodeId]) -> Option<usize> {
        let tables = self.tables.as_ref()?;
        let uses = tables.uses.get(from..).unwrap_or_default();
        let others = self
            .ordered_uses()
            .flat_map(|(i, uses)| uses.iter().map(move |u| (i, u)));
        host_code_conflict(uses, others, |other| {
            deps.iter()
                .any(|d| reaches(other, d.index as usize, |n| self.deps_of(n)))
        })
    }

    /// Checks the uses of graph allocations among the table's uses from `from` on, for a node
    /// about to be added after `deps` (see `node::mem`).
    #[cold]
    fn check_alloc_uses(
        &self,
        from: usize,
        deps: &[NodeId],
        node: &dyn Fn() -> String,
    ) -> Result<()> {
        let Some(tables) = self.tables.as_ref() else {
            return Ok(());
        };
        let deps: Vec<u32> = deps.iter().map(|d| d.index).collect();
        mem::check_uses(
            self.family,
            &tables.allocs,
            tables.uses.get(from..).unwrap_or_default(),
            &deps,
            node,
            &|i| self.name_of(i),
            &|a, b| reaches(a, b, |n| self.deps_of(n)),
        )
    }

    /// Refuses conditional handles (among `uses`) that this graph's kernels may not set.
    pub(crate) fn check_handles(&self, uses: &[Use<'_>], node: &dyn Fn() -> String) -> Result<()> {
        let scope = self.scope();
        match uses
            .iter()
            .any(|u| matches!(u.hold, Hold::Handle { scope: s } if s != scope))
        {
            false => Ok(()),
            true => Err(Error::Invalid {
                node: node(),
                reason: "a conditional handle of another graph: a kernel may set only the \
                         handles of its own graph (and of the graph whose conditional body it is \
                         in)"
                .into(),
            }),
        }
    }

    /// The fetch node, when the uses from `uses_from` on read this graph's indirect values and
    /// `deps` does not order the node after it.
    #[inline]
    fn missing_fetch_dep(&self, uses_from: usize, deps: &[NodeId]) -> Option<NodeId> {
        let tables = self.tables.as_ref()?;
        let scope = tables.indirect?;
        let fetch = scope.fetch?;
        let reads = tables
            .uses
            .get(uses_from..)?
            .iter()
            .any(|u| matches!(u.hold, Hold::Indirect { block } if block == scope.block));
        let ordered = || {
            deps.iter().any(|d| {
                d.family == self.family
                    && reaches(fetch as usize, d.index as usize, |n| self.deps_of(n))
            })
        };
        (reads && !ordered()).then_some(NodeId {
            family: self.family,
            index: fetch,
        })
    }

    /// Why a node using `uses` may not read the indirect values among them, if it may not: they
    /// are this graph's, and the node is ordered after the fetch node (`after_fetch(fetch)` says
    /// whether it is; a conditional body's nodes are, through their conditional node).
    fn check_indirect_uses(
        &self,
        uses: &[Use<'_>],
        after_fetch: &dyn Fn(usize) -> bool,
    ) -> std::result::Result<(), String> {
        let scope = self.tables.as_ref().and_then(|t| t.indirect);
        for u in uses {
            let Hold::Indirect { block } = u.hold else {
                continue;
            };
            if let Some(why) = foreign_block(scope, block) {
                if scope.is_none() && self.is_body() {
                    return Err(
                        "a conditional body reads its graph's indirect values only when \
                                the conditional node is ordered after the fetch node: list \
                                `Graph::indirect_fetch()` in its dependencies"
                            .into(),
                    );
                }
                return Err(why.into());
            }
            if let Some(fetch) = scope.and_then(|s| s.fetch) {
                if !after_fetch(fetch as usize) {
                    return Err("it reads an indirect value but is not ordered after the \
                                graph's fetch node, which fills the values at the start of each \
                                launch: add an edge from `Graph::indirect_fetch()`"
                        .into());
                }
            }
        }
        Ok(())
    }

    /// Checks that node `index`, already in the graph, may read the indirect values among `uses`
    /// (an executable's update of its parameters): no edge can be added there, so it must already
    /// be ordered after the fetch node.
    pub(crate) fn check_indirect_uses_of(&self, index: usize, uses: &[Use<'_>]) -> Result<()> {
        if !uses.iter().any(|u| matches!(u.hold, Hold::Indirect { .. })) {
            return Ok(());
        }
        self.check_indirect_uses(uses, &|fetch| {
            fetch != index && reaches(fetch, index, |n| self.deps_of(n))
        })
        .map_err(|reason| Error::Invalid {
            node: self.name_of(index),
            reason,
        })
    }

    /// Whether the graph's nodes may read indirect values: it has a block of them (see
    /// [`Graph::add_indirect`]), or it is a conditional body reading its graph's. Such a graph
    /// cannot be cloned, embedded in another or updated as a whole.
    pub fn has_indirect(&self) -> bool {
        self.tables.as_ref().is_some_and(|t| t.indirect.is_some())
    }

    /// Adds the graph's block of indirect values, sized by `options`, and its fetch node (a
    /// kernel node without dependencies, named `indirect_fetch`); returns the fetch node. Needed
    /// only for a block other than the default one, before the first
    /// [`Graph::add_indirect`], which otherwise adds it. The [`indirect`](crate::indirect)
    /// module says what the block costs.
    ///
    /// Refused in a conditional body (its kernels read the values of the graph it belongs to),
    /// and when the graph has a block already.
    pub fn add_indirect_block(&mut self, options: IndirectOptions) -> Result<NodeId> {
        let refused = |reason: &str| {
            Err(Error::Invalid {
                node: "add_indirect_block".into(),
                reason: reason.into(),
            })
        };
        if self.is_body() {
            return refused(
                "a conditional body has no indirect values of its own: add them to the graph the \
                 conditional node is in, and order the conditional node after its fetch node",
            );
        }
        if self.has_indirect() {
            return refused("the graph has its block of indirect values already");
        }
        let block = IndirectBlock::new(&self.ctx, options)?;
        let mut params = block.fetch_params(self.ctx.cu_ctx());
        // The name given for the next node is the caller's, for a node of their own.
        let pending = self.next_name.replace("indirect_fetch".into());
        let added = self.add_node(&mut params, &[], self.uses_len());
        self.next_name = pending;
        let fetch = added?;
        let tables = self.tables_mut();
        tables.indirect = Some(IndirectScope {
            block: block.id(),
            fetch: Some(fetch.index),
        });
        tables.indirect_block.0 = Some(Box::new(block));
        Ok(fetch)
    }

    /// Adds an indirect value holding `initial` to the graph's block (made on first use, with
    /// [`IndirectOptions::default`]): a key that kernels take for a [`DevicePtr<T>`](crate::DevicePtr)
    /// parameter (`const T*` in CUDA C, read with `*p`), and that
    /// [`GraphExec::set_indirect`](crate::GraphExec::set_indirect) changes between launches
    /// without a driver call. Every node given the key is ordered after the graph's fetch node.
    ///
    /// `T` is a plain value (`DeviceRepr`), aligned to at most 16 bytes; the block holds the
    /// values one after the other, each aligned to its type.
    pub fn add_indirect<T: cudarc::driver::DeviceRepr + Copy + Send + 'static>(
        &mut self,
        initial: T,
    ) -> Result<Indirect<T>> {
        if !self.has_indirect() {
            self.add_indirect_block(IndirectOptions::default())?;
        }
        let fetch = self.indirect_fetch();
        let ctx = self.ctx.cu_ctx();
        let Some(block) = self.block_mut() else {
            return Err(Error::Invalid {
                node: "add_indirect".into(),
                reason: "a conditional body has no indirect values of its own: add them to the \
                         graph the conditional node is in"
                    .into(),
            });
        };
        let key = block.add(initial)?;
        let params = block.fetch_params(ctx);
        let fetch = fetch.expect("a graph with a block has a fetch node");
        let raw = self.nodes[fetch.index as usize].raw;
        // SAFETY: `raw` is this graph's fetch node, a kernel node launching the fetch kernel.
        unsafe { params.set_on(raw) }.map_err(|e| e.at_node(|| self.name_of(fetch.index())))?;
        Ok(key)
    }

    /// The fetch node: the kernel node that fills the graph's indirect values at the start of
    /// each launch (see [`Graph::add_indirect`]), if the graph has any. Nodes that read a value
    /// are ordered after it for you; a conditional node whose bodies read values must list it
    /// (or a node after it) in its dependencies.
    pub fn indirect_fetch(&self) -> Option<NodeId> {
        let fetch = self.tables.as_ref()?.indirect?.fetch?;
        Some(NodeId {
            family: self.family,
            index: fetch,
        })
    }

    /// Sets the value the first launch of this graph's executable reads for `key`.
    pub fn set_indirect<T: Copy>(&mut self, key: &Indirect<T>, value: T) -> Result<()> {
        let block = self.own_block(key)?;
        block.set(key, value);
        Ok(())
    }

    /// The value set for `key` (what the executable's first launch will read). Once the graph
    /// is instantiated, its executable holds the values: ask it ([`GraphExec::indirect`](crate::GraphExec::indirect)).
    pub fn indirect<T: Copy>(&self, key: &Indirect<T>) -> Result<T> {
        let block = self
            .tables
            .as_ref()
            .and_then(|t| t.indirect_block.0.as_deref())
            .filter(|b| b.id() == key.block_id())
            .ok_or_else(|| foreign_key("indirect"))?;
        Ok(block.get(key))
    }

    /// The size of the graph's block of indirect values and the memory it takes, if it has one
    /// (and is not instantiated yet: then its executable has it).
    pub fn indirect_layout(&self) -> Option<IndirectLayout> {
        let block = self.tables.as_ref()?.indirect_block.0.as_deref()?;
        Some(block.layout())
    }

    fn block_mut(&mut self) -> Option<&mut IndirectBlock> {
        self.tables.as_mut()?.indirect_block.0.as_deref_mut()
    }

    fn own_block<T>(&mut self, key: &Indirect<T>) -> Result<&mut IndirectBlock> {
        self.block_mut()
            .filter(|b| b.id() == key.block_id())
            .ok_or_else(|| foreign_key("set_indirect"))
    }

    /// Moves the block of indirect values out, for the executable: `Ok(None)` when the graph has
    /// none; refused for a conditional body that reads its graph's values (it cannot run alone).
    pub(crate) fn take_indirect_block(&mut self) -> Result<Option<Box<IndirectBlock>>> {
        let Some(tables) = self.tables.as_mut() else {
            return Ok(None);
        };
        match (tables.indirect, tables.indirect_block.0.take()) {
            (None, _) => Ok(None),
            (Some(_), Some(block)) => Ok(Some(block)),
            (Some(_), None) => Err(Error::Invalid {
                node: "instantiate".into(),
                reason: "the graph's kernels read the indirect values of another graph (it is a \
                         conditional body): instantiate the graph they belong to"
                    .into(),
            }),
        }
    }

    /// The scope of indirect values that the bodies of a conditional node added after `deps` may
    /// read: this graph's, when `deps` orders the node after the fetch node.
    #[cfg(not(feature = "cuda-12020"))]
    fn indirect_scope_for_bodies(&self, deps: &[NodeId]) -> Option<IndirectScope> {
        let scope = self.tables.as_ref()?.indirect?;
        let ordered = match scope.fetch {
            None => true,
            Some(fetch) => deps.iter().any(|d| {
                d.family == self.family
                    && reaches(fetch as usize, d.index as usize, |n| self.deps_of(n))
            }),
        };
        ordered.then_some(IndirectScope {
            block: scope.block,
            fetch: None,
        })
    }

    /// Checks that node `index`, already in the graph, may use `uses` (an executable's update of
    /// its parameters): the graph allocations among them must be ordered as `node::mem` says.
    pub(crate) fn check_alloc_uses_of(&self, index: usize, uses: &[Use<'_>]) -> Result<()> {
        let Some(tables) = self.tables.as_ref() else {
            return Ok(());
        };
        if !uses.iter().any(|u| matches!(u.hold, Hold::Graph { .. })) {
            return Ok(());
        }
        let ordered_before = |a: usize, b: usize| reaches(a, b, |n| self.deps_of(n));
        // A body's node is ordered as its conditional node is.
        let node = match index.checked_sub(self.nodes.len()) {
            None => index as u32,
            Some(i) => tables.bodies.nodes[i].owner,
        };
        // As if the node were being added: after its own dependencies, with the frees that come
        // after it not counted (a use ordered before its free is what the rule asks for).
        let mut allocs = tables.allocs.clone();
        for record in &mut allocs {
            if record
                .freed_by
                .is_some_and(|free| ordered_before(node as usize, free as usize))
            {
                record.freed_by = None;
            }
        }
        // The node itself (not its dependencies): the alloc node must reach it, and it differs
        // from the alloc node.
        mem::check_uses(
            self.family,
            &allocs,
            uses,
            &[node],
            &|| self.name_of(index),
            &|i| self.name_of(i),
            &|a, b| a != b && ordered_before(a, b),
        )
    }

    /// Whether the graph has conditional nodes (added or captured). CUDA cannot clone such a
    /// graph, so it cannot be cloned or embedded in another as a child graph either.
    pub fn has_conditional_nodes(&self) -> bool {
        self.nodes.iter().any(|n| n.kind == NodeKind::Conditional)
    }

    /// Whether the graph has memory nodes (alloc or free nodes, added or captured). Such a
    /// graph cannot be cloned, embedded in another or updated as a whole, and CUDA allows one
    /// executable of it at a time.
    pub fn has_memory_nodes(&self) -> bool {
        self.tables.as_ref().is_some_and(|t| t.memory_nodes)
    }

    /// The allocations this graph makes and does not free (their alloc node indices and
    /// addresses): they outlive each launch.
    pub(crate) fn unfreed_allocations(&self) -> Vec<(usize, sys::CUdeviceptr)> {
        self.tables.as_ref().map_or_else(Vec::new, |t| {
            t.allocs
                .iter()
                .filter(|a| a.freed_by.is_none())
                .map(|a| (a.node as usize, a.addr))
                .collect()
        })
    }

    /// Adds an alloc node: `len` `T`s of device memory on the graph's device, allocated when the
    /// launch reaches the node, at an address fixed now (the same for every launch). Use it in
    /// nodes ordered after this one; free it with [`Graph::add_mem_free`] after its last use,
    /// or leave it to outlive the launch (see
    /// [`GraphExec::take_allocation`](crate::GraphExec::take_allocation)).
    ///
    /// The memory is uninitialized: write it before reading it. Whatever a node reads of it
    /// before then (and whatever a copy, [`GraphExec::read_allocation`](crate::GraphExec::read_allocation)
    /// or a taken buffer hands host code) is arbitrary bits, so `T` must be valid for every bit
    /// pattern ([`AnyBitPattern`](bytemuck::AnyBitPattern): numbers, arrays of them, and
    /// `#[repr(C)]` structs of them that derive `bytemuck::Pod` or `AnyBitPattern`; not `bool`,
    /// `char` or enums).
    pub fn add_mem_alloc<T: cudarc::driver::DeviceRepr + bytemuck::AnyBitPattern>(
        &mut self,
        len: usize,
        deps: &[NodeId],
    ) -> Result<GraphAlloc<T>> {
        let bytes = len
            .checked_mul(std::mem::size_of::<T>())
            .filter(|&b| b > 0)
            .ok_or_else(|| Error::Invalid {
                node: self.pending_name(NodeKind::MemAlloc),
                reason: format!(
                    "an allocation of {len} elements of {} bytes: it must hold at least one \
                     byte and fit in memory",
                    std::mem::size_of::<T>()
                ),
            });
        let bytes = self.or_forget_name(bytes)?;
        let mut params = AllocParams::new(self.ctx.ordinal() as i32, bytes);
        let id = self.add_node(&mut params, deps, self.uses_len())?;
        let tables = self.tables_mut();
        let slot = tables.allocs.len() as u32;
        let addr = params.address();
        tables.allocs.push(AllocRecord {
            node: id.index,
            addr,
            freed_by: None,
        });
        tables.memory_nodes = true;
        Ok(GraphAlloc::new(id, slot, addr, len))
    }

    /// Adds a free node for `alloc`, an allocation of this graph, after `deps`, which must order
    /// it after every node that uses the allocation. Nothing may use the allocation afterwards;
    /// its physical memory may back a later allocation of the graph, or of another graph
    /// launched into the same stream.
    pub fn add_mem_free<T>(
        &mut self,
        alloc: &GraphAlloc<T>,
        deps: &[NodeId],
    ) -> Result<MemFreeNode> {
        let checked = self.check_free(alloc, deps);
        self.or_forget_name(checked)?;
        let mut params = FreeParams { addr: alloc.addr };
        let id = self.add_node(&mut params, deps, self.uses_len())?;
        self.tables_mut().allocs[alloc.slot as usize].freed_by = Some(id.index);
        Ok(MemFreeNode::from_id(id))
    }

    /// Adds a free node for `buffer`, an allocation that another graph made and left unfreed
    /// (taken from its executable with [`GraphExec::take_allocation`](crate::GraphExec::take_allocation)), after `deps`, which must
    /// order it after every node of this graph that uses the buffer. The buffer must be whole and
    /// otherwise unshared: no clone, and no other graph or executable using it. The work queued
    /// on it so far is waited for here.
    ///
    /// The first launch of this graph's executable frees the memory, so that executable launches
    /// once; later launches are refused ([`Error::Allocation`]). Until that launch the executable
    /// that made the allocation still waits for it to be freed before it launches again; a graph
    /// or executable dropped without launching frees the memory itself.
    pub fn add_mem_free_buffer<T: cudarc::driver::DeviceRepr>(
        &mut self,
        buffer: DeviceBuffer<T>,
        deps: &[NodeId],
    ) -> Result<MemFreeNode> {
        let checked = self.check_free_buffer(&buffer, deps);
        self.or_forget_name(checked)?;
        let (addr, home, record) = buffer.adopt_for_free()?;
        let adopted = Adopted::new(addr, home, record);
        let mut params = FreeParams { addr };
        // Pushed first: if the node is refused, dropping the table entry frees the memory.
        let tables = self.tables_mut();
        tables.adopted.0.push(adopted);
        tables.memory_nodes = true;
        let id = self.add_node(&mut params, deps, self.uses_len());
        if id.is_err() {
            self.tables_mut().adopted.0.pop();
        }
        Ok(MemFreeNode::from_id(id?))
    }

    /// `buffer` can go to a free node after `deps`: only nodes of this graph use it, all ordered
    /// before the free node.
    fn check_free_buffer<T: cudarc::driver::DeviceRepr>(
        &self,
        buffer: &DeviceBuffer<T>,
        deps: &[NodeId],
    ) -> Result<()> {
        for dep in deps {
            self.check_node(*dep)?;
        }
        let record = buffer.record_ptr();
        let holds = |u: &Use<'_>| matches!(&u.hold, Hold::Owned(a) if Arc::as_ptr(a).cast::<()>() == record);
        let mut held = 0;
        for (index, uses) in self.ordered_uses() {
            let count = uses.iter().filter(|u| holds(u)).count();
            held += count;
            if count > 0
                && !deps
                    .iter()
                    .any(|d| reaches(index, d.index as usize, |n| self.deps_of(n)))
            {
                return Err(Error::Allocation {
                    node: self.pending_name(NodeKind::MemFree),
                    allocation: format!("the buffer at {:#x}", buffer.addr()),
                    reason: format!(
                        "node `{}` uses the buffer and is not ordered before the free node: list \
                         it (or a node after it) in the free node's dependencies",
                        self.name_of(index)
                    ),
                });
            }
        }
        match buffer.why_not_adoptable(held) {
            None => Ok(()),
            Some(why) => Err(Error::Allocation {
                node: self.pending_name(NodeKind::MemFree),
                allocation: format!("the buffer at {:#x}", buffer.addr()),
                reason: why.into(),
            }),
        }
    }

    /// The allocations of other graphs that this graph's free nodes free.
    pub(crate) fn adopted_mut(&mut self) -> &mut [Adopted] {
        match &mut self.tables {
            Some(tables) => &mut tables.adopted.0,
            None => &mut [],
        }
    }

    fn check_free<T>(&self, alloc: &GraphAlloc<T>, deps: &[NodeId]) -> Result<()> {
        let empty = Tables::default();
        let tables = self.tables.as_deref().unwrap_or(&empty);
        let users = self
            .ordered_uses()
            .filter(|(_, uses)| {
                uses.iter().any(|u| {
                    matches!(u.hold, Hold::Graph { family, slot }
                        if family == alloc.node.family && slot == alloc.slot)
                })
            })
            .map(|(i, _)| i);
        for dep in deps {
            self.check_node(*dep)?;
        }
        let deps: Vec<u32> = deps.iter().map(|d| d.index).collect();
        mem::check_free(
            self.family,
            alloc.node.family,
            &tables.allocs,
            alloc.slot,
            users,
            &deps,
            &|| self.pending_name(NodeKind::MemFree),
            &|i| self.name_of(i),
            &|a, b| reaches(a, b, |n| self.deps_of(n)),
        )
    }

    /// Adds a kernel launch of `kernel` with `config` and `args`, after `deps`.
    ///
    /// `args` is a tuple with one value per kernel parameter: the parameter's own type for values,
    /// and for pointer parameters the memory ([`DeviceSrc`](crate::DeviceSrc) for `DevicePtr<T>`,
    /// [`DeviceDst`](crate::DeviceDst) for `DevicePtrMut<T>`), such as `&DeviceBuffer<T>`.
    pub fn add_kernel<A: KernelArgs>(
        &mut self,
        kernel: &Kernel<A>,
        config: LaunchConfig,
        args: impl KernelArgValues<'a, A>,
        deps: &[NodeId],
    ) -> Result<KernelNode<A>> {
        if !kernel.admits(&config, &args) {
            let node = self.pending_name(NodeKind::Kernel);
            return self.or_forget_name(Err(launch_refused(node, &config)));
        }
        let from = self.uses_len();
        let reprs = args.into_parts(&mut self.tables_mut().uses);
        if reprs.is_err() {
            self.drop_uses_from(from);
        }
        let reprs = self.or_forget_name(reprs)?;
        self.functions.insert(kernel.function());
        let launch = KernelLaunch {
            func: kernel.cu_function(),
            ctx: self.ctx.cu_ctx(),
            config,
        };
        let mut params = KernelParams::<A> {
            launch,
            reprs,
            kernel: kernel.contract(),
        };
        let id = self.add_node(&mut params, deps, from)?;
        Ok(KernelNode::from_id(id))
    }

    /// Adds a 1-D copy, after `deps`.
    pub fn add_memcpy<D: Direction>(
        &mut self,
        copy: Memcpy<'a, D>,
        deps: &[NodeId],
    ) -> Result<MemcpyNode<D>> {
        let parts = copy.into_parts(self.ctx.cu_ctx(), || self.pending_name(NodeKind::Memcpy));
        let (src, dst, mut params) = self.or_forget_name(parts)?;
        let from = self.append_uses([src, dst]);
        let id = self.add_node(&mut params, deps, from)?;
        Ok(MemcpyNode::from_id(id))
    }

    /// Adds a 1-D memset, after `deps`.
    pub fn add_memset<V: MemsetValue>(
        &mut self,
        set: Memset<'a, V>,
        deps: &[NodeId],
    ) -> Result<MemsetNode<V>> {
        let parts = set.into_parts(self.ctx.cu_ctx(), || self.pending_name(NodeKind::Memset));
        let (dst, mut params) = self.or_forget_name(parts)?;
        let from = self.append_uses([dst]);
        let id = self.add_node(&mut params, deps, from)?;
        Ok(MemsetNode::from_id(id))
    }

    /// Adds an empty node (a join point), after `deps`.
    pub fn add_empty(&mut self, deps: &[NodeId]) -> Result<EmptyNode> {
        let id = self.add_node(&mut EmptyParams, deps, self.uses_len())?;
        Ok(EmptyNode::from_id(id))
    }

    /// Records that a broken capture left the graph unusable.
    pub(crate) fn mark_broken_by_capture(&mut self) {
        self.tables_mut().broken_by_capture = true;
    }

    /// Refuses to instantiate a graph with a conditional handle that drives no conditional node
    /// (CUDA would refuse it with `CUDA_ERROR_INVALID_VALUE`, naming nothing).
    pub(crate) fn check_handles_used(&self) -> Result<()> {
        match self.tables.as_ref().map_or(0, |t| t.idle_handles.len()) {
            0 => Ok(()),
            idle => Err(Error::Invalid {
                node: "conditional handle".into(),
                reason: format!(
                    "{idle} conditional handle{} made with `conditional_handle` drive{} no \
                     conditional node, and CUDA refuses to instantiate such a graph: give each \
                     to its conditional node, or do not make it",
                    if idle == 1 { "" } else { "s" },
                    if idle == 1 { "s" } else { "" }
                ),
            }),
        }
    }

    /// Refuses a graph that a broken capture left unusable, with what to do.
    #[inline]
    pub(crate) fn check_not_broken(&self) -> Result<()> {
        match self.tables.as_ref().is_some_and(|t| t.broken_by_capture) {
            false => Ok(()),
            true => Err(broken_by_capture()),
        }
    }

    /// Whether this graph is the body of a conditional node.
    pub(crate) fn is_body(&self) -> bool {
        self.tables.as_ref().is_some_and(|t| t.body_of.is_some())
    }

    /// The scope of the conditional handles this graph's kernels may set: its own family, or
    /// for a conditional body the root graph's.
    pub(crate) fn scope(&self) -> u64 {
        self.tables
            .as_ref()
            .and_then(|t| t.body_of)
            .unwrap_or(self.family)
    }

    /// Makes a conditional handle for conditional nodes of this graph
    /// (`cuGraphConditionalHandleCreate`): reset to `default` at the start of each launch when
    /// given, else left as the last launch set it (zero at first). The handle goes to one
    /// conditional node of this graph (for a node in a conditional body, make the handle with
    /// the body); a handle left without a node makes CUDA refuse the graph at instantiation, so
    /// [`Graph::instantiate`](crate::Graph::instantiate) refuses it first, naming it. Kernels of this graph and
    /// of its conditional bodies set it (a kernel parameter of type [`ConditionalHandle`],
    /// `unsigned long long` in CUDA C, with [`SET_CONDITIONAL_DECLARATION`](crate::SET_CONDITIONAL_DECLARATION)).
    #[cfg(not(feature = "cuda-12020"))]
    pub fn conditional_handle(&mut self, default: Option<u32>) -> Result<ConditionalHandle> {
        // SAFETY: a live graph and its context.
        let raw =
            unsafe { result::graph::conditional_handle(self.raw, self.ctx.cu_ctx(), default) }?;
        self.tables_mut().idle_handles.push(raw);
        Ok(ConditionalHandle {
            raw,
            scope: self.scope(),
            made_for: self.raw as usize,
        })
    }

    /// Adds a conditional node reading `handle` after `deps` (CUDA 12.4 or newer; `Switch` 12.8),
    /// and builds its bodies with `build`, which gets them as [`Body`]s: one for `If` and
    /// `While`, two for `IfElse` (taken when the value is not zero, then when it is), `n` for
    /// `Switch(n)`. A body has the adders of the node kinds CUDA allows there (kernel, empty,
    /// child-graph, memset, memcpy and conditional nodes), and exists only inside `build`. If
    /// `build` fails, the node is removed and its error returned.
    ///
    /// The handles of the bodies' nodes work with this graph and its executables as its own
    /// nodes' do: an executable updates a body's kernel, memcpy and memset nodes one by one
    /// (CUDA allows it), and a whole-graph update pairs bodies node by node.
    #[cfg(not(feature = "cuda-12020"))]
    pub fn add_conditional(
        &mut self,
        handle: ConditionalHandle,
        condition: Condition,
        deps: &[NodeId],
        build: impl FnOnce(&mut [&mut Body<'a>]) -> Result<()>,
    ) -> Result<ConditionalNode> {
        self.add_conditional_with(handle, condition, deps, build)
            .map(|(node, ())| node)
    }

    /// [`Graph::add_conditional`], returning what `build` returns too (the handles of the
    /// bodies' nodes, say).
    #[cfg(not(feature = "cuda-12020"))]
    pub fn add_conditional_with<R>(
        &mut self,
        handle: ConditionalHandle,
        condition: Condition,
        deps: &[NodeId],
        build: impl FnOnce(&mut [&mut Body<'a>]) -> Result<R>,
    ) -> Result<(ConditionalNode, R)> {
        let scope = self.scope();
        if handle.scope != scope || handle.made_for != self.raw as usize {
            let node = self.pending_name(NodeKind::Conditional);
            return self.or_forget_name(Err(Error::Invalid {
                node,
                reason: "the conditional handle was made for another graph: a conditional \
                         node takes a handle made by `conditional_handle` of the graph (or \
                         conditional body) it is added to"
                    .into(),
            }));
        }
        if let Condition::Switch(0) = condition {
            let node = self.pending_name(NodeKind::Conditional);
            return self.or_forget_name(Err(Error::Invalid {
                node,
                reason: "a switch has at least one body".into(),
            }));
        }
        let mut params = ConditionalParams {
            handle: handle.raw,
            condition,
            ctx: self.ctx.cu_ctx(),
            bodies: std::ptr::null_mut(),
        };
        let bodies_scope = self.indirect_scope_for_bodies(deps);
        let id = self.add_node(&mut params, deps, self.uses_len())?;
        let capture = self.tables.as_ref().and_then(|t| t.capture);
        // SAFETY: the node was just added: the driver made its bodies.
        let mut bodies =
            unsafe { Self::bodies_of(&params, &self.ctx, scope, bodies_scope, capture) };
        // Lent as `Body`s: unsized, they stay where they are (see `Body`).
        let mut lent: Vec<&mut Body<'a>> = bodies.iter_mut().map(Body::lend).collect();
        let built = build(&mut lent);
        drop(lent);
        let built = match built {
            Ok(built) => built,
            Err(e) => {
                // SAFETY: the node was just added, and nothing refers to it.
                let removed =
                    unsafe { result::graph::destroy_node(self.nodes[id.index as usize].raw) };
                self.nodes.pop();
                drop(bodies);
                removed?;
                return Err(e.at_node(|| self.name_of(id.index as usize)));
            }
        };
        if let Some(tables) = &mut self.tables {
            tables.idle_handles.retain(|&h| h != handle.raw);
        }
        // The bodies' nodes stay updatable through this graph (and its executables), with
        // what they use and need.
        for body in &mut bodies {
            self.adopt_resources_of(body);
            self.absorb_body(body, id.index);
        }
        Ok((ConditionalNode::from_id(id), built))
    }

    /// The body graphs the driver made for the conditional node added with `params`, as graphs
    /// of `ctx` whose kernels may set the handles of `scope` and read the indirect values of
    /// `indirect`, and whose nodes may use the memory of the capture `capture` (a conditional
    /// node added to a capture in progress).
    ///
    /// # Safety
    /// The node was added with `params`: its body array holds `params.condition`'s count of
    /// live graphs, which the node owns.
    #[cfg(not(feature = "cuda-12020"))]
    pub(crate) unsafe fn bodies_of(
        params: &ConditionalParams,
        ctx: &Arc<CudaContext>,
        scope: u64,
        indirect: Option<IndirectScope>,
        capture: Option<u64>,
    ) -> Vec<Graph<'a>> {
        (0..params.condition.bodies() as usize)
            .map(|i| {
                // SAFETY: the caller's promise: the array has this many graphs.
                let raw = unsafe { *params.bodies.add(i) };
                // SAFETY: a live graph of this context; the body's `Drop` leaves it to the node.
                let mut body = unsafe { Self::from_raw_parts(raw, ctx.clone(), Vec::new()) };
                let tables = body.tables_mut();
                tables.body_of = Some(scope);
                tables.indirect = indirect;
                tables.capture = capture;
                body
            })
            .collect()
    }

    /// Takes in the nodes of `body`, a body of the conditional node `owner`: their records, uses
    /// and dependency lists move here (the body keeps its raw graph, owned by the node).
    pub(crate) fn absorb_body(&mut self, body: &mut Graph<'a>, owner: u32) {
        let records = std::mem::take(&mut body.nodes);
        let (uses, edges, nested, idle) = match &mut body.tables {
            Some(t) => (
                std::mem::take(&mut t.uses),
                std::mem::take(&mut t.edges),
                std::mem::take(&mut t.bodies),
                std::mem::take(&mut t.idle_handles),
            ),
            None => Default::default(),
        };
        let tables = self.tables_mut();
        let bases = (tables.uses.len() as u32, tables.edges.len() as u32);
        tables.uses.extend(uses);
        tables.edges.extend(edges);
        tables.idle_handles.extend(idle);
        tables
            .bodies
            .absorb(body.family, records, nested, owner, bases);
    }

    /// Adds an event record node, after `deps`: each launch records `event` when it reaches the
    /// node (`cuGraphAddEventRecordNode`), so a stream or another graph that waits for the event
    /// waits for the nodes before it. The graph keeps the event alive.
    pub fn add_event_record(&mut self, event: &Event, deps: &[NodeId]) -> Result<EventRecordNode> {
        let id = self.add_event::<true>(event, deps)?;
        Ok(EventRecordNode::from_id(id))
    }

    /// Adds an event wait node, after `deps`: the nodes after it wait for the last record of
    /// `event` made before the launch reaches the node (`cuGraphAddEventWaitNode`), on any
    /// stream or in any graph. The graph keeps the event alive.
    pub fn add_event_wait(&mut self, event: &Event, deps: &[NodeId]) -> Result<EventWaitNode> {
        let id = self.add_event::<false>(event, deps)?;
        Ok(EventWaitNode::from_id(id))
    }

    fn add_event<const RECORD: bool>(&mut self, event: &Event, deps: &[NodeId]) -> Result<NodeId> {
        let mut params = EventParams::<RECORD> { event: event.raw() };
        let id = self.add_node(&mut params, deps, self.uses_len())?;
        // Released on this crate's thread once the graph and its launches are done with it.
        self.retain(event.clone())?;
        Ok(id)
    }

    /// Adds a host node running `f` on a CPU thread, after `deps`.
    ///
    /// The closure is owned by a user object held by the graph, so it lives as long as any
    /// executable or launch that may call it. It must not call CUDA (the driver forbids it in host
    /// nodes; this crate's own calls refuse with [`Error::InHostNode`]). A panic inside it is
    /// caught before it reaches the driver and reported by the next
    /// [`GraphExec::launch`](crate::GraphExec::launch) as [`Error::HostPanicked`]. To read or
    /// write host buffers, use [`Graph::add_host_with`].
    pub fn add_host(
        &mut self,
        f: impl FnMut() + Send + 'static,
        deps: &[NodeId],
    ) -> Result<HostNode> {
        self.push_host(Box::new(f), Vec::new(), deps)
    }

    /// Adds a host node that reads or writes `buffers` (a [`HostBuffer`](crate::HostBuffer) by
    /// `&` to read, by `&mut` to write, or a tuple of them): `f` gets `&[T]` / `&mut [T]` for each.
    ///
    /// ```no_run
    /// # use cudagraph_runtime::prelude::*;
    /// # fn f(graph: &mut Graph, copy: NodeId, result: &HostBuffer<f32>) -> cudagraph_runtime::Result<()> {
    /// graph.add_host_with(result, |y: &[f32]| println!("sum {}", y.iter().sum::<f32>()), &[copy])?;
    /// # Ok(()) }
    /// ```
    ///
    /// Every other node that uses the same memory, with a write on either side, must be ordered
    /// with this one by the graph's edges; adding a node that is not is an
    /// [`Error::Hazard`]. See [`HostViews`] for the rest of the rules that make the slices safe.
    pub fn add_host_with<V: HostViews>(
        &mut self,
        buffers: V,
        f: impl for<'v> FnMut(V::Views<'v>) + Send + 'static,
        deps: &[NodeId],
    ) -> Result<HostNode> {
        let mut uses = Vec::new();
        let f = with_views(buffers, f, &mut uses);
        let apart = check_views_apart(&uses, || self.pending_name(NodeKind::Host));
        self.or_forget_name(apart)?;
        self.push_host(f, uses, deps)
    }

    pub(crate) fn push_host(
        &mut self,
        f: HostFn,
        uses: Vec<Use<'a>>,
        deps: &[NodeId],
    ) -> Result<HostNode> {
        let node_name = self.pending_name(NodeKind::Host);
        let call = HostCall::new(f, node_name, self.panics.own_slot());
        let mut params = HostParams::of(&call);
        // The boxed call's address is stable; the user object now owns it for the graph.
        let kept = UserObject::new(call).and_then(|object| object.move_into(self.raw));
        self.or_forget_name(kept)?;
        let from = self.append_uses(uses);
        let id = self.add_node(&mut params, deps, from)?;
        Ok(HostNode::from_id(id))
    }

    /// Adds `child` as a child-graph node, after `deps`. The driver embeds a clone of `child`;
    /// `child` itself stays yours. The node uses the memory `child`'s nodes use.
    pub fn add_child_graph<'c: 'a>(
        &mut self,
        child: &Graph<'c>,
        deps: &[NodeId],
    ) -> Result<ChildGraphNode> {
        if child.has_indirect() {
            return self.or_forget_name(Err(Error::Invalid {
                node: self.pending_name(NodeKind::ChildGraph),
                reason: "the child graph has indirect values (or reads another graph's): its \
                         fetch node counts the launches of one executable, and its values are \
                         set through that executable: add the nodes to this graph instead"
                    .into(),
            }));
        }
        if child.has_memory_nodes() {
            return self.or_forget_name(Err(Error::Invalid {
                node: self.pending_name(NodeKind::ChildGraph),
                reason: "the child graph has memory nodes (alloc or free), and CUDA embeds such \
                         a graph only by moving it, which would leave its handles dangling: add \
                         the allocations to this graph instead"
                    .into(),
            }));
        }
        if child.has_conditional_nodes() {
            return self.or_forget_name(Err(Error::Invalid {
                node: self.pending_name(NodeKind::ChildGraph),
                reason: "the child graph has conditional nodes, and CUDA embeds a graph by \
                         cloning it, which it cannot do for conditional nodes \
                         (CUDA_ERROR_NOT_SUPPORTED): add the conditional nodes to this graph \
                         instead"
                    .into(),
            }));
        }
        self.check_child_in_body(child)?;
        let from = self.append_uses(child.tables.iter().flat_map(|t| t.uses.iter().cloned()));
        let mut params = ChildParams { graph: child.raw };
        let id = self.add_node(&mut params, deps, from)?;
        self.adopt_resources_of(child);
        Ok(ChildGraphNode::from_id(id))
    }

    /// Every use of memory by the graph's nodes.
    pub(crate) fn all_uses(&self) -> Vec<Use<'a>> {
        self.tables
            .as_ref()
            .map_or_else(Vec::new, |t| t.uses.clone())
    }

    /// Keeps what `other`'s nodes need (kernel modules, panic reporting) alive and watched here.
    pub(crate) fn adopt_resources_of(&mut self, other: &Graph<'_>) {
        self.functions.extend(&other.functions);
        self.panics.watch(other.panics.slots());
    }

    /// Moves `value` into the graph: it is dropped once the graph, its executables and their
    /// launches are done with it (on a thread of this crate's, so its `Drop` may call CUDA).
    /// Use it for buffers whose addresses the graph's nodes hold.
    pub fn retain<T: Send + 'static>(&mut self, value: T) -> Result<()> {
        UserObject::new(value)?.move_into(self.raw)
    }

    /// Adds a reference to `object` to the graph (`cuGraphRetainUserObject`).
    pub fn retain_user_object(&mut self, object: &UserObject) -> Result<()> {
        object.clone().move_into(self.raw)
    }

    /// A copy of this graph (`cuGraphClone`) whose nodes answer to the same handles.
    pub fn try_clone(&self) -> Result<Graph<'a>> {
        if self.is_body() {
            return Err(Error::Invalid {
                node: "try_clone".into(),
                reason: "a conditional body belongs to its conditional node, and is cloned with \
                         the graph that holds that node"
                    .into(),
            });
        }
        if self.has_indirect() {
            return Err(Error::Invalid {
                node: "try_clone".into(),
                reason: "a graph with indirect values (or reading another graph's) is \
                         instantiated once and cannot be cloned: its block counts the launches of \
                         one executable"
                    .into(),
            });
        }
        if self.has_memory_nodes() {
            return Err(Error::Invalid {
                node: "try_clone".into(),
                reason: "CUDA cannot clone a graph with memory nodes (alloc or free): build \
                         another graph instead"
                    .into(),
            });
        }
        if self.has_conditional_nodes() {
            return Err(Error::Invalid {
                node: "try_clone".into(),
                reason: "CUDA cannot clone a graph with conditional nodes \
                         (CUDA_ERROR_NOT_SUPPORTED): build another graph instead"
                    .into(),
            });
        }
        // SAFETY: a live graph.
        let raw = unsafe { result::graph::clone(self.raw) }?;
        // SAFETY: the clone is new and ours.
        let mut clone = unsafe { Self::from_raw_parts(raw, self.ctx.clone(), self.nodes.clone()) };
        clone.family = self.family;
        clone.tables = self.tables.clone();
        clone.functions = self.functions.clone();
        clone.panics = self.panics.clone();
        // (No conditional bodies: refused above, so the graph's own nodes are all there is.)
        for (index, record) in clone.nodes.iter_mut().enumerate() {
            // SAFETY: `record.raw` is a node of the original, `raw` its live clone.
            let found = unsafe { result::graph::find_in_clone(record.raw, raw) };
            record.raw = found.map_err(|e| e.at_node(|| self.name_of(index)))?;
        }
        Ok(clone)
    }
}

impl<'a> Graph<'a> {
    /// The raw handles of `deps`, checked to be nodes of this graph (for `call`).
    pub(crate) fn raw_deps(&self, call: &str, deps: &[NodeId]) -> Result<Vec<sys::CUgraphNode>> {
        deps.iter()
            .map(|dep| match self.index_of(*dep) {
                Some(index) => Ok(self.nodes[index].raw),
                None => Err(Error::Invalid {
                    node: call.into(),
                    reason: format!("dependency node#{} is not a node of this graph", dep.index),
                }),
            })
            .collect()
    }

    /// The nodes of the driver's graph that the node table does not list (a capture recorded
    /// them there), each after its dependencies among them, with its raw type and dependencies.
    pub(crate) fn recorded_nodes(&self) -> Result<Vec<Recorded>> {
        // SAFETY: a live graph.
        let all = unsafe { result::graph::nodes(self.raw) }?;
        let known: HashSet<sys::CUgraphNode> = self.nodes.iter().map(|r| r.raw).collect();
        let recorded = all
            .into_iter()
            .filter(|raw| !known.contains(raw))
            .map(|raw| {
                // SAFETY: nodes of this live graph.
                let code = unsafe { result::graph::node_type(raw) }?;
                // SAFETY: as above.
                let deps = unsafe { result::graph::dependencies(raw) }?;
                Ok(Recorded { raw, code, deps })
            })
            .collect::<Result<Vec<_>>>()?;
        topological(recorded)
    }

    /// Adds `recorded` (from [`Graph::recorded_nodes`], in that order) to the node table, with
    /// their kinds and edges. Returns their indices.
    pub(crate) fn learn_recorded(&mut self, recorded: Vec<Recorded>) -> Result<Range<usize>> {
        let first = self.nodes.len();
        let too_many = || Error::Invalid {
            node: "<capture>".into(),
            reason: "a graph holds at most 2^32 nodes".into(),
        };
        u32::try_from(first + recorded.len()).map_err(|_| too_many())?;
        let mut index_of: HashMap<sys::CUgraphNode, u32> = self
            .nodes
            .iter()
            .enumerate()
            .map(|(i, r)| (r.raw, i as u32))
            .collect();
        self.nodes.reserve(recorded.len());
        let mut memory_nodes = false;
        for node in recorded {
            let index = self.nodes.len() as u32;
            let deps: Vec<u32> = node
                .deps
                .iter()
                .map(|d| {
                    index_of.get(d).copied().ok_or_else(|| Error::Invalid {
                        node: format!("node#{index}"),
                        reason: "a captured node depends on a node the driver did not list".into(),
                    })
                })
                .collect::<Result<_>>()?;
            let deps = match deps[..] {
                [] => Deps::None,
                [dep] => Deps::One(dep),
                _ => {
                    let edges = &mut self.tables_mut().edges;
                    let start = edges.len() as u32;
                    edges.extend(&deps);
                    Deps::Listed {
                        start,
                        end: edges.len() as u32,
                    }
                }
            };
            let kind = captured_kind(node.code);
            memory_nodes |= matches!(kind, NodeKind::MemAlloc | NodeKind::MemFree);
            index_of.insert(node.raw, index);
            self.nodes.push(NodeRecord {
                raw: node.raw,
                kind,
                name: None,
                deps,
                kernel: KernelContract::NONE,
                uses: (0, 0),
            });
        }
        // Captured `cuMemAllocAsync` / `cuMemFreeAsync` calls became memory nodes: the same
        // restrictions hold (no clone, no embedding, no whole-graph update).
        if memory_nodes {
            self.tables_mut().memory_nodes = true;
        }
        Ok(first..self.nodes.len())
    }

    /// What a capture's own calls leave to the graph it recorded: the kernels' modules, the
    /// panic slot of its host functions, the conditional handles that drive no node yet.
    pub(crate) fn take_from_capture(
        &mut self,
        functions: &FunctionSet,
        panics: &Arc<crate::node::PanicSlot>,
        idle_handles: Vec<sys::CUgraphConditionalHandle>,
    ) {
        self.functions.extend(functions);
        self.panics.watch(std::slice::from_ref(panics));
        if !idle_handles.is_empty() {
            self.tables_mut().idle_handles.extend(idle_handles);
        }
    }

    /// The first node of `nodes` whose use of host memory in host code could run at the same
    /// time as another node's conflicting use (see `memory::hazard`), with that other node.
    pub(crate) fn host_code_race_among(&self, nodes: Range<usize>) -> Option<(usize, usize)> {
        if !self.tables.as_ref().is_some_and(|t| t.host_code) {
            return None;
        }
        for i in nodes.clone() {
            let uses = self.node_uses(i);
            if !uses.iter().any(|u| u.host_code) {
                continue;
            }
            let others = self
                .ordered_uses()
                .filter(|&(j, _)| j != i)
                .flat_map(|(j, uses)| uses.iter().map(move |u| (j, u)));
            let ordered = |j: usize| {
                let (from, to) = (i.min(j), i.max(j));
                reaches(from, to, |n| self.deps_of(n))
            };
            if let Some(j) = host_code_conflict(uses, others, ordered) {
                return Some((j, i));
            }
        }
        None
    }

    /// Where the node table stands, to roll back to ([`Graph::roll_back`]).
    pub(crate) fn mark(&self) -> Mark {
        Mark {
            nodes: self.nodes.len(),
            edges: self.edges().len(),
            uses: self.uses_len(),
        }
    }

    /// Removes the nodes added since `mark` (a capture into this graph whose recorded work was
    /// refused after it was learned). CUDA cannot remove nodes from a graph with memory nodes:
    /// then, or when a removal fails, the graph is left unusable, as a broken capture leaves it
    /// (it would hold work that was refused).
    pub(crate) fn roll_back(&mut self, mark: Mark) {
        let mut kept = self.has_memory_nodes();
        if !kept {
            for record in &self.nodes[mark.nodes.min(self.nodes.len())..] {
                // SAFETY: a node of this live graph, without memory nodes, that no handle names
                // (the capture's handles were not given out).
                kept |= unsafe { result::graph::destroy_node(record.raw) }.is_err();
            }
        }
        self.nodes.truncate(mark.nodes);
        if let Some(tables) = &mut self.tables {
            tables.edges.truncate(mark.edges);
            tables.uses.truncate(mark.uses);
        }
        if kept {
            self.mark_broken_by_capture();
        }
    }

    /// Gives node `index` (one of the graph's own, added by a capture with no uses yet) the
    /// uses `uses`.
    pub(crate) fn attach_uses(&mut self, index: usize, uses: Vec<Use<'a>>) {
        if uses.is_empty() {
            return;
        }
        let host_code = uses.iter().any(|u| u.host_code);
        let tables = self.tables_mut();
        let start = tables.uses.len() as u32;
        let len = uses.len() as u32;
        tables.uses.extend(uses);
        tables.host_code |= host_code;
        if let Some(record) = self.nodes.get_mut(index) {
            record.uses = (start, len);
        }
    }

    /// Removes the nodes a failed capture recorded into this graph, so that the graph is as it
    /// was. CUDA cannot remove nodes from a graph with memory nodes (`cuGraphDestroyNode`):
    /// when this graph has some, or the capture recorded some, its nodes stay and are added to
    /// the node table, so that it lists what the graph holds.
    #[cfg(not(feature = "cuda-12020"))]
    pub(crate) fn discard_recorded(&mut self) -> Result<()> {
        let recorded = self.recorded_nodes()?;
        if recorded.is_empty() {
            return Ok(());
        }
        let memory_nodes = self.has_memory_nodes()
            || recorded.iter().any(|n| {
                matches!(
                    captured_kind(n.code),
                    NodeKind::MemAlloc | NodeKind::MemFree
                )
            });
        if memory_nodes {
            self.learn_recorded(recorded)?;
            return Ok(());
        }
        let mut kept = false;
        for node in &recorded {
            // SAFETY: a node of this live graph, which has no memory nodes (checked above), and
            // that nothing refers to (the table does not list it, and no handle to it was given
            // out).
            kept |= unsafe { result::graph::destroy_node(node.raw) }.is_err();
        }
        if kept {
            let left = self.recorded_nodes()?;
            self.learn_recorded(left)?;
        }
        Ok(())
    }

    /// The name the next node added will have, were it of `kind`.
    pub(crate) fn pending_name(&self, kind: NodeKind) -> String {
        match &self.next_name {
            Some(name) => name.to_string(),
            None => format!("{}#{}", kind.name(), self.nodes.len()),
        }
    }
}

/// Where a graph's node table stood ([`Graph::mark`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Mark {
    nodes: usize,
    edges: usize,
    uses: usize,
}

/// A graph handle on its way to the release thread.
struct SendGraph(sys::CUgraph);

// SAFETY: a CUgraph may be used from any thread, one at a time; the handle moves to the release
// thread and nothing else uses it afterwards.
unsafe impl Send for SendGraph {}

impl SendGraph {
    /// The handle (a method, so that a closure captures the whole `Send` wrapper).
    fn get(&self) -> sys::CUgraph {
        self.0
    }
}

impl Drop for Graph<'_> {
    fn drop(&mut self) {
        // Inside a host node CUDA forbids driver calls, and inside a capture closure one that
        // CUDA deems unsafe breaks the capture: there, what may call the driver goes to the
        // release thread (the last reference to a kernel module or to the context unloads it).
        let deferred = must_defer_releases();
        if deferred {
            reaper::drop_later(Box::new((
                std::mem::take(&mut self.functions),
                self.ctx.clone(),
            )));
        }
        if self.is_body() {
            return; // the conditional node owns the raw graph
        }
        if self.tables.as_ref().is_some_and(|t| t.broken_by_capture) {
            // The broken capture left the handle invalid (the driver refuses to destroy it).
            return;
        }
        if deferred {
            let (raw, ctx) = (SendGraph(self.raw), self.ctx.clone());
            reaper::run_later(Box::new(move || {
                // SAFETY: as below; the graph was ours and nothing else refers to it.
                record_err(&ctx, unsafe { result::graph::destroy(raw.get()) });
                true
            }));
            return;
        }
        // SAFETY: we own `raw`. An error here means the context is gone, and the graph with it.
        record_err(&self.ctx, unsafe { result::graph::destroy(self.raw) });
    }
}

/// A node of a driver graph that a capture recorded there.
#[derive(Debug)]
pub(crate) struct Recorded {
    pub(crate) raw: sys::CUgraphNode,
    /// Its raw `CUgraphNodeType`.
    pub(crate) code: u32,
    deps: Vec<sys::CUgraphNode>,
}

/// `nodes` reordered so that each comes after those of them it depends on (Kahn's algorithm;
/// ties keep the driver's order). Node indices must follow that order: reachability walks rely on
/// it (`memory::hazard::reaches`).
fn topological(nodes: Vec<Recorded>) -> Result<Vec<Recorded>> {
    let position: HashMap<sys::CUgraphNode, usize> =
        nodes.iter().enumerate().map(|(i, n)| (n.raw, i)).collect();
    let mut waiting: Vec<usize> = nodes
        .iter()
        .map(|n| n.deps.iter().filter(|d| position.contains_key(d)).count())
        .collect();
    let mut dependents: Vec<Vec<usize>> = vec![Vec::new(); nodes.len()];
    for (i, node) in nodes.iter().enumerate() {
        for dep in &node.deps {
            if let Some(&d) = position.get(dep) {
                dependents[d].push(i);
            }
        }
    }
    let mut ready: std::collections::VecDeque<usize> =
        (0..nodes.len()).filter(|&i| waiting[i] == 0).collect();
    let mut order = Vec::with_capacity(nodes.len());
    while let Some(i) = ready.pop_front() {
        order.push(i);
        for &next in &dependents[i] {
            waiting[next] -= 1;
            if waiting[next] == 0 {
                ready.push_back(next);
            }
        }
    }
    if order.len() != nodes.len() {
        return Err(Error::Invalid {
            node: "<capture>".into(),
            reason: "the captured nodes' dependencies form a cycle".into(),
        });
    }
    let mut slots: Vec<Option<Recorded>> = nodes.into_iter().map(Some).collect();
    Ok(order.into_iter().filter_map(|i| slots[i].take()).collect())
}

/// How the node table lists a captured node of raw type `code`: the kinds whose rules this
/// crate keeps (memory nodes, event nodes, conditional nodes) by their kind, the others as
/// [`NodeKind::Other`] (a captured kernel has no typed handle, and no parameters this crate
/// knows).
fn captured_kind(code: u32) -> NodeKind {
    use sys::CUgraphNodeType::*;
    let is = |kind: sys::CUgraphNodeType| kind as u32 == code;
    if is(CU_GRAPH_NODE_TYPE_MEM_ALLOC) {
        NodeKind::MemAlloc
    } else if is(CU_GRAPH_NODE_TYPE_MEM_FREE) {
        NodeKind::MemFree
    } else if is(CU_GRAPH_NODE_TYPE_EVENT_RECORD) {
        NodeKind::EventRecord
    } else if is(CU_GRAPH_NODE_TYPE_WAIT_EVENT) {
        NodeKind::EventWait
    } else {
        #[cfg(not(feature = "cuda-12020"))]
        if is(CU_GRAPH_NODE_TYPE_CONDITIONAL) {
            return NodeKind::Conditional;
        }
        NodeKind::Other
    }
}

/// A key of another graph's (or executable's) indirect values, as an error of `call`.
#[cold]
pub(crate) fn foreign_key(call: &str) -> Error {
    Error::Invalid {
        node: call.into(),
        reason: "an indirect value of another graph: a key works only with the graph that made \
                 it and that graph's executable"
            .into(),
    }
}

/// Refuses memory of a capture among `uses` (`Hold::Captured`: an allocation made in a capture,
/// or a capture closure's view of the memory given to it), which only that capture's own work
/// may use: a node added to a graph, or an update, is not, unless it is a node of a conditional
/// body added to the capture `within`.
pub(crate) fn refuse_captured(
    uses: &[Use<'_>],
    within: Option<u64>,
    node: &dyn Fn() -> String,
) -> Result<()> {
    if uses
        .iter()
        .any(|u| matches!(u.hold, Hold::Captured { capture } if Some(capture) != within))
    {
        return Err(Error::Invalid {
            node: node(),
            reason:
                "memory of a capture (an allocation made in it, or a capture closure's view of \
                     the memory given to it) is valid only for that capture's own work: give the \
                     node the buffer itself"
                    .into(),
        });
    }
    Ok(())
}

/// The error for a kernel launch that the kernel's check ([`Kernel::requires`]) refuses.
#[cold]
pub(crate) fn launch_refused(node: String, config: &LaunchConfig) -> Error {
    Error::Invalid {
        node,
        reason: format!(
            "the kernel's check (`Kernel::requires`) refuses this launch (grid {:?}, block {:?}): \
             its arguments would make it read or write outside the memory given to it; give \
             lengths and buffers that fit, or a grid that does",
            config.grid_dim, config.block_dim
        ),
    }
}

/// One node, as [`Graph::nodes`] lists it.
#[derive(Debug, Clone)]
pub struct NodeInfo<'g> {
    /// Position in the graph.
    pub index: usize,
    /// What it does.
    pub kind: NodeKind,
    /// Its name (given, or `kind#index`).
    pub name: String,
    /// Indices of the nodes it depends on, in the order given.
    pub deps: &'g [u32],
}

/// The error for a graph that a broken capture left unusable.
#[cold]
fn broken_by_capture() -> Error {
    Error::Invalid {
        node: "graph".into(),
        reason: "a capture into this graph was broken, and CUDA leaves a graph unusable after \
                 that: build the graph again"
            .into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fake node handle: `topological` only compares handles.
    fn fake(n: usize) -> sys::CUgraphNode {
        (0x1000 + 0x10 * n) as sys::CUgraphNode
    }

    fn recorded(n: usize, deps: &[usize]) -> Recorded {
        Recorded {
            raw: fake(n),
            code: 0,
            deps: deps.iter().map(|&d| fake(d)).collect(),
        }
    }

    #[test]
    fn captured_nodes_are_ordered_after_their_dependencies() {
        // 0 -> 2 -> 3, 1 -> 3, and 4 depends on a node already in the graph (99), listed in an
        // order where dependents come first.
        let nodes = vec![
            recorded(3, &[2, 1]),
            recorded(2, &[0]),
            recorded(4, &[99]),
            recorded(1, &[]),
            recorded(0, &[]),
        ];
        let order: Vec<sys::CUgraphNode> = topological(nodes)
            .unwrap()
            .into_iter()
            .map(|n| n.raw)
            .collect();
        let at = |n: usize| order.iter().position(|&r| r == fake(n)).unwrap();
        assert_eq!(order.len(), 5);
        assert!(at(0) < at(2) && at(2) < at(3) && at(1) < at(3));
        // Ties keep the driver's order: 4 and 1 were ready first, in that order.
        assert!(at(4) < at(1));

        let cycle = vec![recorded(0, &[1]), recorded(1, &[0])];
        assert!(matches!(topological(cycle), Err(Error::Invalid { .. })));
    }

    #[test]
    fn a_graph_moves_without_memcpy() {
        assert!(std::mem::size_of::<Graph>() <= 128);
    }
}
