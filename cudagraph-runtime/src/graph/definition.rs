//! [`Graph`]: the definition graph itself, its node table and its life: made, cleared, cloned,
//! dropped.

use std::borrow::Cow;
use std::marker::PhantomData;
use std::mem::ManuallyDrop;
use std::sync::Arc;

use cudarc::driver::{sys, CudaContext};

use super::bodies::{BodyNode, BodyTable};
use super::records::NodeRecord;
use super::tables::Tables;
use crate::ambient::{must_defer_releases, refuse_in_host_node};
use crate::driver::{named, record_err, result};
use crate::error::{Error, Result};
use crate::function_set::FunctionSet;
use crate::id::fresh_id;
use crate::memory::operand::Use;
use crate::memory::registry::Registry;
use crate::node::{NodeId, PanicWatch};
use crate::reaper;
use crate::user_object::UserObject;

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
    pub(super) raw: sys::CUgraph,
    /// Taken out by `Drop`, which hands it on to the release thread inside a host node or
    /// capture closure rather than dropping a reference there.
    pub(super) ctx: ManuallyDrop<Arc<CudaContext>>,
    pub(super) family: u64,
    pub(super) nodes: Vec<NodeRecord>,
    /// Made on the first fan-in or use of memory; kept by [`Graph::clear`].
    pub(super) tables: Option<Box<Tables<'a>>>,
    pub(super) next_name: Option<Cow<'static, str>>,
    /// Keeps the modules of the kernels in this graph loaded.
    pub(super) functions: FunctionSet,
    /// Where this graph's host nodes (its own and its children's) report panics.
    pub(crate) panics: PanicWatch,
    /// The old nodes of a rebuild, and between rebuilds their vectors (see `graph::rebuild`).
    pub(super) spares: Option<Box<super::rebuild::Spares>>,
    pub(super) _borrows: PhantomData<fn(&'a ()) -> &'a ()>,
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
        refuse_in_host_node("Graph::new")?;
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
            ctx: ManuallyDrop::new(ctx),
            family: fresh_id(),
            tables: None,
            nodes,
            next_name: None,
            functions: FunctionSet::default(),
            panics: PanicWatch::default(),
            spares: None,
            _borrows: PhantomData,
        }
    }

    pub(super) fn edges(&self) -> &[u32] {
        self.tables.as_ref().map_or(&[], |t| &t.edges)
    }

    #[inline]
    pub(super) fn tables_mut(&mut self) -> &mut Tables<'a> {
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
    pub(super) fn ordered_uses(&self) -> impl Iterator<Item = (usize, &[Use<'a>])> + '_ {
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
    pub(super) fn body_nodes(&self) -> &[BodyNode] {
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

    pub(super) fn record_mut(&mut self, index: usize) -> Option<&mut NodeRecord> {
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

    /// The conditional bodies' ranges of the node table (what `crate::introspect` draws).
    pub(crate) fn body_ranges(&self) -> &[super::bodies::BodyRange] {
        self.tables.as_ref().map_or(&[], |t| t.bodies.ranges())
    }

    /// Empties the graph for a rebuild: a new, empty driver graph replaces the old one, which is
    /// destroyed. What the Rust side holds is kept: the context and kernel-module references (so
    /// rebuilding with the same kernels takes no new ones) and the node table's capacity.
    ///
    /// For a graph rebuilt for [`GraphExec::update`](crate::GraphExec::update) in a loop,
    /// [`Graph::rebuild`] is faster: it reuses the driver's nodes. `clear` makes the same driver
    /// calls as dropping the graph and building a new one, without the allocations and reference
    /// counting. Handles to the old nodes stop working here
    /// (the graph starts a new family); executables instantiated from it are unaffected. Host
    /// closures of the old nodes and values handed over with [`Graph::retain`] are released with
    /// the old driver graph, once no executable needs them.
    ///
    /// Kernel modules the old contents used stay loaded until the graph is dropped.
    pub fn clear(&mut self) -> Result<()> {
        self.refuse_device_updatable("clear")?;
        if self.is_body() {
            return Err(Error::Invalid {
                node: "clear".into(),
                reason: "a conditional body belongs to its conditional node: it cannot be \
                         replaced; build another conditional node instead"
                    .into(),
            });
        }
        // The graph may have moved to a thread with no current context: its context is made
        // current for the destroy below, as for a dropped graph.
        named("cuCtxSetCurrent", self.ctx.bind_to_thread())?;
        let old = std::mem::replace(&mut self.raw, result::graph::create()?);
        let broken = self.tables.as_ref().is_some_and(|t| t.broken_by_capture);
        let destroyed = if broken {
            // A broken capture left the old handle invalid: nothing to destroy.
            Ok(())
        } else if self.keeps_driver_graph() {
            // Its reserved addresses stay out of the driver's hands (see
            // `Tables::keep_driver_graph`): the old handle is left alive on purpose.
            Ok(())
        } else {
            // SAFETY: `old` was ours and nothing refers to it any more (executables made from it
            // hold their own copy, and its user objects keep what those need).
            unsafe { result::graph::destroy(old) }
        };
        self.nodes.clear();
        if let Some(tables) = &mut self.tables {
            tables.edges.clear();
        }
        self.forget_contents();
        destroyed
    }

    /// What [`Graph::clear`] forgets beside the node records and the edge list, the driver's
    /// graph being replaced or (by a rebuild) kept: the node handles (a new family), the nodes'
    /// memory and every table about the old nodes.
    pub(super) fn forget_contents(&mut self) {
        self.family = fresh_id();
        if let Some(tables) = &mut self.tables {
            tables.uses.clear();
            tables.host_code = false;
            tables.allocs.clear();
            tables.memory_nodes = false;
            tables.adopted.0.clear();
            tables.bodies.clear();
            tables.loops.clear();
            tables.idle_handles.clear();
            tables.stranded_handles = 0;
            tables.made_handles = 0;
            tables.dead_handles = 0;
            tables.broken_by_capture = false;
            tables.refused_work = false;
            tables.keep_driver_graph = false;
            tables.retained = false;
            // The new family is the scope of the handles made from now on: a clone's scope, or
            // one kept from another family, would let the old contents' handles in.
            tables.handle_scope = None;
            tables.pairing.clear();
            // Never instantiated (instantiation consumes the graph): no launch used the block.
            tables.indirect = None;
            tables.indirect_block.0 = None;
            #[cfg(feature = "nccl")]
            tables.collectives.clear();
        }
        self.next_name = None;
        // The old host nodes are gone from this graph: stop watching their slots (the own slot
        // stays, shared by host nodes added next).
        self.panics.unwatch(|_| true);
    }

    /// Makes `self` answer to `other`'s node handles (same declaration, same construction order).
    pub(crate) fn join_family_of(&mut self, other: &Graph<'_>) {
        // Its conditional handles stay its own: the other graph's are not this graph's handles
        // (its kernels were checked against its own scope, and the other's handle values name
        // handles this graph may not have).
        let own = self.scope();
        if !self.is_body() {
            self.tables_mut().handle_scope = Some(own);
        }
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

    /// Takes the references to the kernels' modules (for an executable that releases them only
    /// once its launches, which may still run those kernels, are over).
    pub(crate) fn take_functions(&mut self) -> FunctionSet {
        std::mem::take(&mut self.functions)
    }

    /// The index of `node` if it belongs to this graph's family.
    #[inline]
    pub(crate) fn check_node(&self, node: NodeId) -> Result<usize> {
        self.index_of(node).ok_or_else(|| Error::ForeignNode {
            node: format!("node#{}", node.index),
        })
    }

    /// The id of this graph's own node number `index` (the caller knows it has one).
    #[inline(always)]
    pub(super) fn id_at(&self, index: u32) -> NodeId {
        NodeId {
            family: self.family,
            index,
        }
    }

    #[inline]
    pub(super) fn index_of(&self, node: NodeId) -> Option<usize> {
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
    pub(super) fn uses_len(&self) -> usize {
        self.tables.as_ref().map_or(0, |t| t.uses.len())
    }

    /// Forgets the uses appended from `from` on (for a node that was refused).
    pub(super) fn drop_uses_from(&mut self, from: usize) {
        if let Some(tables) = &mut self.tables {
            tables.uses.truncate(from);
        }
    }

    /// Where the uses `uses` start once appended to the table (appended only if there are
    /// any: a node without memory allocates no table).
    pub(super) fn append_uses(&mut self, uses: impl IntoIterator<Item = Use<'a>>) -> usize {
        let from = self.uses_len();
        let mut uses = uses.into_iter().peekable();
        if uses.peek().is_some() {
            self.tables_mut().uses.extend(uses);
        }
        from
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
    ///
    /// The value goes into a CUDA user object of the graph, and CUDA tracks an executable's
    /// user objects at every launch: on an H200 that cost 3 to 4.5 µs of GPU time per launch of
    /// a graph of one short kernel. For a graph launched often, give the nodes the memory
    /// itself instead ([`DeviceBuffer`](crate::DeviceBuffer)s as operands), which the graph
    /// keeps alive without that cost.
    pub fn retain<T: Send + 'static>(&mut self, value: T) -> Result<()> {
        UserObject::new(value)?.move_into(self.raw)?;
        self.tables_mut().retained = true;
        Ok(())
    }

    /// Adds a reference to `object` to the graph (`cuGraphRetainUserObject`), with the cost at
    /// each launch that [`Graph::retain`] describes.
    pub fn retain_user_object(&mut self, object: &UserObject) -> Result<()> {
        refuse_in_host_node("Graph::retain_user_object")?;
        object.clone().move_into(self.raw)?;
        self.tables_mut().retained = true;
        Ok(())
    }

    /// A copy of this graph (`cuGraphClone`) whose nodes answer to the same handles.
    pub fn try_clone(&self) -> Result<Graph<'a>> {
        refuse_in_host_node("Graph::try_clone")?;
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
        self.refuse_device_updatable("try_clone")?;
        self.check_not_broken()?;
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
        if self.tables.as_ref().is_some_and(|t| t.made_handles > 0) {
            // Driver 580 answers `cuGraphClone` of such a graph with CUDA_ERROR_NOT_SUPPORTED.
            return Err(Error::Invalid {
                node: "try_clone".into(),
                reason: "CUDA cannot clone a graph with conditional handles \
                         (`conditional_handle`; CUDA_ERROR_NOT_SUPPORTED): clone it before \
                         making them, or build another graph"
                    .into(),
            });
        }
        // SAFETY: a live graph.
        let raw = unsafe { result::graph::clone(self.raw) }?;
        // SAFETY: the clone is new and ours.
        let mut clone =
            unsafe { Self::from_raw_parts(raw, Arc::clone(&self.ctx), self.nodes.clone()) };
        clone.family = self.family;
        clone.tables = self.tables.clone();
        // Node handles are shared, conditional handles are not: a handle each graph makes from
        // now on belongs to it alone (see `Tables::handle_scope`).
        clone.tables_mut().handle_scope = Some(fresh_id());
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
        // SAFETY: taken once, here; nothing reads `self.ctx` afterwards.
        let ctx = unsafe { ManuallyDrop::take(&mut self.ctx) };
        let destroy = !self.is_body() // the conditional node owns a body's raw graph
            // A broken capture left the handle invalid (the driver refuses to destroy it).
            && !self.tables.as_ref().is_some_and(|t| t.broken_by_capture)
            // Left alive on purpose: see `Tables::keep_driver_graph`.
            && !self.keeps_driver_graph();
        // Inside a host node CUDA forbids driver calls, and inside a capture closure one that
        // CUDA deems unsafe breaks the capture: there, what may call the driver goes to the
        // release thread (the last reference to a kernel module or to the context unloads it).
        // The graph's own references move there: a clone sent there while this one dropped
        // here would leave the last drop (and its driver call) here whenever that thread's
        // copy went first.
        if must_defer_releases() {
            let functions = std::mem::take(&mut self.functions);
            let raw = destroy.then_some(SendGraph(self.raw));
            let mut held = Some((functions, ctx));
            reaper::run_later(Box::new(move || {
                // Runs once (it reports itself finished).
                let Some((functions, ctx)) = held.take() else {
                    return true;
                };
                if let Some(raw) = &raw {
                    // As below.
                    record_err(&ctx, named("cuCtxSetCurrent", ctx.bind_to_thread()));
                    // SAFETY: as below; the graph was ours and nothing else refers to it.
                    record_err(&ctx, unsafe { result::graph::destroy(raw.get()) });
                }
                // The graph's kernels' modules, then its context, after the graph.
                drop(functions);
                drop(ctx);
                true
            }));
            return;
        }
        if !destroy {
            return;
        }
        // The graph may have moved to a thread with no current context: its context is made
        // current for the destroy, as cudarc's `Drop`s do.
        record_err(&ctx, named("cuCtxSetCurrent", ctx.bind_to_thread()));
        // SAFETY: we own `raw`. An error here means the context is gone, and the graph with it.
        record_err(&ctx, unsafe { result::graph::destroy(self.raw) });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_graph_moves_without_memcpy() {
        assert!(std::mem::size_of::<Graph>() <= 128);
    }
}
