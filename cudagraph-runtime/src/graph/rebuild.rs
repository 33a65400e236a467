//! [`Graph::rebuild`]: a rebuild that reuses the driver's kernel nodes, and [`Rebuild`], the
//! graph as the closure making the new contents gets it.
//!
//! A rebuild loop (`clear`, add the same nodes with new arguments, update an executable) spends
//! most of its time in the driver: a new graph, a `cuGraphAddKernelNode` per node, the update,
//! the old graph's destruction. When the new contents are the old ones with other arguments,
//! CUDA's own way is cheaper: change each node in place (`cuGraphKernelNodeSetParams`) and
//! update from the same graph ([whole graph update] in the programming guide). `rebuild` takes
//! that way by itself, node by node, while the nodes added match the old ones (a kernel node of
//! the same function after the same dependencies, at the same position), and falls back to a
//! graph of fresh nodes as soon as one does not.
//!
//! Between the start of a rebuild and its end, the driver's graph may hold old nodes not yet
//! matched (the spares), which no launch may ever run: they still point to the old arguments'
//! memory. So the contents are built through [`Rebuild`], which can only add nodes, and the
//! rebuild settles before it returns, on every way out (an error, a panic): the spares left are
//! dropped by making a graph of fresh nodes for the ones reused (their parameters read back from
//! the driver, added in the same order with the same dependencies: the nodes a plain rebuild
//! would have made, so that a whole-graph update pairs them the same way).
//!
//! [whole graph update]: https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#whole-graph-update

use std::borrow::Cow;

use cudarc::driver::sys;

use super::definition::Graph;
use super::records::NodeRecord;
use crate::ambient::refuse_in_host_node;
use crate::driver::{named, record_err, result};
use crate::error::Result;
use crate::kernel::{Kernel, KernelArgValues, KernelArgs, LaunchConfig};
use crate::node::{
    Direction, EmptyNode, KernelNode, Memcpy, MemcpyNode, Memset, MemsetNode, MemsetValue, NodeId,
    NodeKind,
};

/// The old contents of a graph being rebuilt: the records of its nodes, in the order they were
/// added, and their dependency lists. Kept by the graph between rebuilds (with `active` off) so
/// that a rebuild loop allocates nothing for them.
#[derive(Debug, Default)]
pub(super) struct Spares {
    /// The old nodes: the new node at position `i` reuses `nodes[i]` when it matches.
    nodes: Vec<NodeRecord>,
    /// The old graph's shared edge list, which `nodes`' dependency lists index.
    edges: Vec<u32>,
    /// The driver's graph holds old nodes not yet reused (from position `graph.len()` on).
    active: bool,
}

impl<'a> Graph<'a> {
    /// Rebuilds the graph: empties it and has `f` add the new contents, reusing the driver's
    /// nodes where the new contents repeat the old ones.
    ///
    /// This is the fast way to rebuild a graph for [`GraphExec::update`](crate::GraphExec::update)
    /// in a loop. Where the old contents were kernel nodes added by [`Graph::add_kernel`] (no
    /// other kind, no edge added afterwards, nothing retained), each kernel node `f` adds at the
    /// position of an old one, with the same function and the same dependencies (by position, in
    /// the same order), takes the old node with its new configuration and arguments
    /// (`cuGraphKernelNodeSetParams`) instead of a new node; the driver's graph is kept, not
    /// destroyed and made again. A rebuild that matches the old contents node for node makes no
    /// new driver node at all. A node that does not match (another kind, function or dependency
    /// list), or a rebuild that adds fewer nodes than there were, costs one more step: the nodes
    /// reused so far are made again as fresh nodes in a new driver graph, as a plain rebuild would
    /// have made them, and the rest continues the plain way. Otherwise, it is [`Graph::clear`]
    /// followed by `f`'s additions: the same checks, the same node handles (old ones stop
    /// working), the same graph in the end.
    ///
    /// `f` gets the graph as a [`Rebuild`], which only adds nodes: the driver's graph may still
    /// hold old nodes until `rebuild` returns, and nothing else may see it before.
    ///
    /// # Errors
    ///
    /// Those of [`Graph::clear`], then `f`'s own error (the nodes it added before stay in the
    /// graph, as with [`Graph::clear`] and adds), or the error of the driver call that made the
    /// reused nodes again (the graph then refuses to be instantiated or used until the next
    /// [`Graph::clear`] or rebuild).
    ///
    /// ```no_run
    /// # use cudagraph_runtime::prelude::*;
    /// # fn f(graph: &mut Graph<'static>, exec: &mut GraphExec<'static>,
    /// #      k: &Kernel<(u32, DevicePtrMut<f32>)>, y: &DeviceBuffer<f32>, n: u32)
    /// #      -> cudagraph_runtime::Result<()> {
    /// let config = LaunchConfig::for_num_elems(n);
    /// graph.rebuild(|g| {
    ///     let first = g.add_kernel(k, config, (n, y), &[])?;
    ///     g.add_kernel(k, config, (n / 2, y), &[first.id()])?;
    ///     Ok(())
    /// })?;
    /// exec.update(graph)?;
    /// # Ok(())
    /// # }
    /// ```
    pub fn rebuild<R>(&mut self, f: impl FnOnce(&mut Rebuild<'a>) -> Result<R>) -> Result<R> {
        // Settling may call the driver, which CUDA forbids in a host node.
        refuse_in_host_node("Graph::rebuild")?;
        if self.nodes_reusable() {
            self.clear_keeping_nodes();
        } else {
            self.clear()?;
        }
        // Settles on every way out, a panic in `f` included: the guard is ours, never forgotten.
        let guard = Settle(self);
        let made = f(Rebuild::lend(guard.0));
        let settled = guard.0.settle_spares();
        std::mem::forget(guard);
        match (made, settled) {
            (Err(e), _) | (Ok(_), Err(e)) => Err(e),
            (Ok(out), Ok(())) => Ok(out),
        }
    }

    /// Whether the driver's nodes can serve a rebuild: kernel nodes of this crate's adders only
    /// (a captured node's attributes are not ours to keep), with nothing else in the driver's
    /// graph that a fresh one would not have (an edge added later, a retained object, a
    /// device-updatable node's attribute), and nothing that stops a clear.
    fn nodes_reusable(&self) -> bool {
        let plain_tables = self.tables.as_ref().is_none_or(|t| {
            !t.broken_by_capture
                && !t.refused_work
                && !t.keep_driver_graph
                && !t.device_updatable
                && !t.retained
                && t.pairing.is_plain()
                && t.body_of.is_none()
                && t.indirect.is_none()
                && t.idle_handles.is_empty()
                && t.made_handles == 0
                && t.allocs.is_empty()
                && !t.memory_nodes
                && !t.host_code
        });
        #[cfg(feature = "nccl")]
        if self.collectives().is_some() {
            return false;
        }
        !self.nodes.is_empty()
            && plain_tables
            && self.body_nodes().is_empty()
            && self
                .nodes
                .iter()
                .all(|r| r.kind == NodeKind::Kernel && !r.kernel.func.is_null())
    }

    /// [`Graph::clear`], keeping the driver's graph and its nodes as the spares of a rebuild.
    fn clear_keeping_nodes(&mut self) {
        let mut spares = self.spares.take().unwrap_or_default();
        // The old records become the spares; the spares' old vectors (cleared) take the new
        // records: no allocation in a loop of rebuilds.
        std::mem::swap(&mut spares.nodes, &mut self.nodes);
        self.nodes.clear();
        spares.edges.clear();
        if let Some(tables) = &mut self.tables {
            std::mem::swap(&mut spares.edges, &mut tables.edges);
        }
        spares.active = true;
        self.spares = Some(spares);
        self.forget_contents();
    }

    /// Whether a rebuild's old nodes are still in the driver's graph.
    #[inline(always)]
    pub(super) fn has_spares(&self) -> bool {
        self.spares.as_ref().is_some_and(|s| s.active)
    }

    /// The old node a kernel node of function `func` after `deps`, added at `index`, reuses: the
    /// old node at that position, if it is a kernel node of `func` after the same dependencies.
    pub(super) fn matching_spare(
        &self,
        kind: NodeKind,
        func: sys::CUfunction,
        index: u32,
        deps: &[NodeId],
    ) -> Option<sys::CUgraphNode> {
        let spares = self.spares.as_ref().filter(|s| s.active)?;
        let old = spares.nodes.get(index as usize)?;
        let old_deps = old.deps.get(&spares.edges);
        let same_deps = old_deps.len() == deps.len()
            && old_deps
                .iter()
                .zip(deps)
                .all(|(&old, &new)| self.index_of(new) == Some(old as usize));
        (kind == NodeKind::Kernel
            && old.kind == NodeKind::Kernel
            && old.kernel.func == func
            && same_deps)
            .then_some(old.raw)
    }

    /// Notes that the old node at `index` was reused: after the last one, the driver's graph
    /// holds the new contents only.
    pub(super) fn spare_reused(&mut self, index: u32) {
        if let Some(spares) = &mut self.spares {
            if index as usize + 1 == spares.nodes.len() {
                spares.active = false;
                spares.nodes.clear();
            }
        }
    }

    /// Ends the reuse of old nodes: if the driver's graph still holds some, the nodes reused so
    /// far (all of the graph's nodes: kernel nodes, each after earlier ones) are made again in a
    /// new driver graph, in the same order with the same dependencies and their parameters as
    /// the driver has them, and the old graph, with the spares, is destroyed. Until it succeeds,
    /// nothing changes; if it fails (or panics), the graph refuses to be used until cleared.
    pub(super) fn settle_spares(&mut self) -> Result<()> {
        if !self.has_spares() {
            return Ok(());
        }
        // Refused from here until the remake succeeds: the driver's graph holds the spares, which
        // no instantiation, embedding or update may see (`Graph::is_unusable`), however the
        // remake ends: with an error, or with a panic that a caller catches (the rebuild's guard
        // finds the spares settled then, and does not try again while unwinding).
        self.tables_mut().refused_work = true;
        if let Some(spares) = &mut self.spares {
            spares.active = false;
            spares.nodes.clear();
        }
        let settled = self.remake_reused_nodes();
        if settled.is_ok() {
            // (A graph with spares had no refused work: `nodes_reusable`.)
            self.tables_mut().refused_work = false;
        }
        settled
    }

    /// [`Graph::settle_spares`]' work: the new driver graph, then the switch to it.
    #[cold]
    #[inline(never)]
    fn remake_reused_nodes(&mut self) -> Result<()> {
        #[cfg(test)]
        if tests::PANIC_IN_REMAKE.get() {
            panic!("the remake panics (test)");
        }
        named("cuCtxSetCurrent", self.ctx.bind_to_thread())?;
        let fresh = result::graph::create()?;
        let ctx = self.ctx.cu_ctx();
        let mut made: Vec<sys::CUgraphNode> = Vec::with_capacity(self.nodes.len());
        let mut remake = || -> Result<()> {
            for (index, record) in self.nodes.iter().enumerate() {
                debug_assert_eq!(
                    record.kind,
                    NodeKind::Kernel,
                    "only kernel nodes are reused"
                );
                let deps: Vec<sys::CUgraphNode> = self
                    .deps_of(index)
                    .iter()
                    .map(|&d| made[d as usize])
                    .collect();
                // SAFETY: `record.raw` is a live kernel node of the old graph; the parameters
                // it gives (argument array included) stay valid while it lives, through the add,
                // which copies them into `fresh`'s node; `deps` are `fresh`'s nodes.
                let node = unsafe {
                    let mut params = result::graph::kernel_node_params(record.raw)?;
                    // As a fresh add names them (`KernelParams::add_to`): the graph's context
                    // and the function. What the driver gives back for `ctx` and `kern` is not
                    // documented (the null driver, say, gives a null context, which
                    // `add_kernel_node` would make current, unbinding the thread's).
                    params.ctx = ctx;
                    if !params.func.is_null() {
                        params.kern = std::ptr::null_mut();
                    }
                    result::graph::add_kernel_node(fresh, &deps, &params)?
                };
                made.push(node);
            }
            Ok(())
        };
        if let Err(e) = remake() {
            // SAFETY: `fresh` is ours and nothing refers to it.
            record_err(&self.ctx, unsafe { result::graph::destroy(fresh) });
            return Err(e);
        }
        for (record, raw) in self.nodes.iter_mut().zip(made) {
            record.raw = raw;
        }
        let old = std::mem::replace(&mut self.raw, fresh);
        // SAFETY: `old` was ours; no record names its nodes any more, and executables made from
        // it hold their own copies.
        record_err(&self.ctx, unsafe { result::graph::destroy(old) });
        Ok(())
    }
}

/// Settles a rebuild left by a panic in its closure (see [`Graph::rebuild`]).
struct Settle<'g, 'a>(&'g mut Graph<'a>);

impl Drop for Settle<'_, '_> {
    fn drop(&mut self) {
        // An error marks the graph unusable (see `settle_spares`): nothing else to do here.
        let _ = self.0.settle_spares();
    }
}

/// A graph being rebuilt, lent to the closure of [`Graph::rebuild`]: it only adds nodes.
///
/// Until the rebuild ends, the driver's graph may still hold old nodes that the new contents
/// have not reused yet, which nothing may see: so nothing here reads the graph or hands out its
/// driver handles. It is unsized and lent only by reference, so it cannot be moved out of the
/// closure or swapped with another graph's.
///
/// ```compile_fail
/// # use cudagraph_runtime::prelude::*;
/// # fn f(graph: &mut Graph<'static>) {
/// graph.rebuild(|g| {
///     let _ = g.raw(); // nothing that reads the graph, until the rebuild ends
///     Ok(())
/// });
/// # }
/// ```
#[repr(transparent)]
pub struct Rebuild<'a>([Graph<'a>]);

impl std::fmt::Debug for Rebuild<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Rebuild")
            .field("nodes", &self.0[0].len())
            .finish()
    }
}

impl<'a> Rebuild<'a> {
    fn lend<'g>(graph: &'g mut Graph<'a>) -> &'g mut Rebuild<'a> {
        let one: *mut [Graph<'a>] = std::slice::from_mut(graph);
        // SAFETY: `Rebuild` is a `repr(transparent)` wrapper of `[Graph]`: the same layout and
        // pointer metadata (a length of 1 here); the reference keeps `graph`'s borrow.
        unsafe { &mut *(one as *mut Rebuild<'a>) }
    }

    fn graph(&mut self) -> &mut Graph<'a> {
        &mut self.0[0]
    }

    /// The graph itself, for the code `cuda_graph!` generates (a declaration's `rebuild`). Not
    /// part of the API.
    ///
    /// # Safety
    /// Only what `Rebuild` offers is done with it, in place: [`Graph::name_next`] and the adders
    /// [`Graph::add_kernel`], [`Graph::add_memcpy`], [`Graph::add_memset`] and
    /// [`Graph::add_empty`]. Nothing reads it, adds anything else to it, moves it out of the
    /// reference or replaces it: until the rebuild ends it may hold old nodes that no launch may
    /// run (see [`Graph::rebuild`]).
    #[doc(hidden)]
    pub unsafe fn as_graph_mut(&mut self) -> &mut Graph<'a> {
        self.graph()
    }

    /// How many nodes the new contents have so far.
    pub fn len(&self) -> usize {
        self.0[0].len()
    }

    /// Whether the new contents have no node yet.
    pub fn is_empty(&self) -> bool {
        self.0[0].is_empty()
    }

    /// Names the next node added (see [`Graph::name_next`]).
    pub fn name_next(&mut self, name: impl Into<Cow<'static, str>>) -> &mut Self {
        self.graph().name_next(name);
        self
    }

    /// Adds a kernel launch (see [`Graph::add_kernel`]), reusing the old node at its position
    /// when it is a kernel node of the same function after the same dependencies.
    pub fn add_kernel<A: KernelArgs>(
        &mut self,
        kernel: &Kernel<A>,
        config: LaunchConfig,
        args: impl KernelArgValues<'a, A>,
        deps: &[NodeId],
    ) -> Result<KernelNode<A>> {
        self.graph().add_kernel(kernel, config, args, deps)
    }

    /// Adds a 1-D copy (see [`Graph::add_memcpy`]). Not reused: the rebuild goes on the plain
    /// way from here.
    pub fn add_memcpy<D: Direction>(
        &mut self,
        copy: Memcpy<'a, D>,
        deps: &[NodeId],
    ) -> Result<MemcpyNode<D>> {
        self.graph().add_memcpy(copy, deps)
    }

    /// Adds a 1-D memset (see [`Graph::add_memset`]). Not reused: the rebuild goes on the plain
    /// way from here.
    pub fn add_memset<V: MemsetValue>(
        &mut self,
        set: Memset<'a, V>,
        deps: &[NodeId],
    ) -> Result<MemsetNode<V>> {
        self.graph().add_memset(set, deps)
    }

    /// Adds a node that does nothing (see [`Graph::add_empty`]). Not reused: the rebuild goes on
    /// the plain way from here.
    pub fn add_empty(&mut self, deps: &[NodeId]) -> Result<EmptyNode> {
        self.graph().add_empty(deps)
    }
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;
    use std::panic::{catch_unwind, AssertUnwindSafe};
    use std::sync::Arc;

    use cudarc::driver::sys::CUgraphNode;
    use cudarc::driver::CudaContext;

    use crate::{open_device, DeviceBuffer, DevicePtrMut, Error, Graph, Kernel, LaunchConfig};

    thread_local! {
        /// Makes `remake_reused_nodes` panic on this thread (a stand-in for any panic there: a
        /// driver wrapper's assertion, say).
        pub(super) static PANIC_IN_REMAKE: Cell<bool> = const { Cell::new(false) };
    }

    /// A kernel of one buffer parameter, loaded from PTX a real driver takes too (never
    /// launched: the tests only build graphs).
    fn touch(ctx: &Arc<CudaContext>) -> Kernel<(DevicePtrMut<u32>,)> {
        let ptx = cudarc::nvrtc::Ptx::from_src(
            ".version 8.0\n.target sm_90\n.address_size 64\n\
             .visible .entry touch(.param .u64 y) { ret; }\n",
        );
        let module = ctx.load_module(ptx).unwrap();
        let func = module.load_function("touch").unwrap();
        // SAFETY: never launched (the tests only build graphs).
        unsafe { Kernel::new(func) }
    }

    /// The driver handles of the graph's nodes, in order.
    fn raw_nodes(graph: &Graph<'_>) -> Vec<CUgraphNode> {
        (0..graph.len())
            .map(|i| graph.raw_node(graph.node_id(i).unwrap()).unwrap())
            .collect()
    }

    /// A device with a buffer, a kernel, and a graph of a chain of two kernel nodes on it.
    struct Setup {
        ctx: Arc<CudaContext>,
        y: DeviceBuffer<u32>,
        k: Kernel<(DevicePtrMut<u32>,)>,
        graph: Graph<'static>,
    }

    const ONE: LaunchConfig = LaunchConfig {
        grid_dim: (1, 1, 1),
        block_dim: (1, 1, 1),
        shared_mem_bytes: 0,
    };

    fn setup(test: &str) -> Option<Setup> {
        let Ok(ctx) = open_device(0) else {
            eprintln!("skipped {test}: no driver");
            return None;
        };
        let stream = ctx.new_stream().unwrap();
        let y = DeviceBuffer::<u32>::zeros(&stream, 16).unwrap();
        let k = touch(&ctx);
        let mut graph = Graph::new(&ctx).unwrap();
        let a = graph.add_kernel(&k, ONE, (&y,), &[]).unwrap();
        graph.add_kernel(&k, ONE, (&y,), &[a.id()]).unwrap();
        Some(Setup { ctx, y, k, graph })
    }

    /// The same chain again: the driver's graph and nodes are kept (the feature's point, and
    /// what the tests below depart from).
    #[test]
    fn a_matching_rebuild_keeps_the_driver_graph_and_nodes() {
        let Some(Setup {
            y, k, mut graph, ..
        }) = setup("a_matching_rebuild_keeps_the_driver_graph_and_nodes")
        else {
            return;
        };
        let (old_graph, old_nodes) = (graph.raw(), raw_nodes(&graph));
        graph
            .rebuild(|g| {
                let a = g.add_kernel(&k, ONE, (&y,), &[])?;
                g.add_kernel(&k, ONE, (&y,), &[a.id()])?;
                Ok(())
            })
            .unwrap();
        assert_eq!(graph.raw(), old_graph);
        assert_eq!(raw_nodes(&graph), old_nodes);
    }

    /// A rebuild that stops short makes the reused node again in a fresh graph, whose kernel
    /// node it adds in the graph's context as a fresh add does, whatever the driver gives back
    /// for the old node's context. (It read the context from `cuGraphKernelNodeGetParams`; the
    /// null driver gives none back, and `add_kernel_node` asserted a live one: a panic in the
    /// settle, again in the rebuild's guard while unwinding, and the process aborted.)
    #[test]
    fn a_rebuild_that_stops_short_makes_the_reused_nodes_again() {
        let Some(Setup {
            ctx,
            y,
            k,
            mut graph,
        }) = setup("a_rebuild_that_stops_short_makes_the_reused_nodes_again")
        else {
            return;
        };
        let (old_graph, old_nodes) = (graph.raw(), raw_nodes(&graph));
        graph
            .rebuild(|g| {
                g.add_kernel(&k, ONE, (&y,), &[])?;
                Ok(())
            })
            .unwrap();
        // The remake left the graph's context current, not the null one it was given back.
        assert_eq!(
            cudarc::driver::result::ctx::get_current().unwrap(),
            Some(ctx.cu_ctx())
        );
        assert_ne!(graph.raw(), old_graph, "a fresh driver graph");
        assert_eq!(graph.len(), 1);
        assert_ne!(raw_nodes(&graph)[0], old_nodes[0], "a fresh node");
        graph.instantiate().unwrap();
    }

    /// Dependencies in another order, or named twice, are another dependency list: the nodes
    /// reused so far are made again, and the rest is added the plain way. (A real driver refuses
    /// a dependency named twice, `CUDA_ERROR_INVALID_VALUE`; the null driver takes it: either
    /// way the graph holds the nodes made again.)
    #[test]
    fn dependencies_in_another_order_are_not_reused() {
        let Some(Setup {
            y, k, mut graph, ..
        }) = setup("dependencies_in_another_order_are_not_reused")
        else {
            return;
        };
        graph
            .rebuild(|g| {
                let a = g.add_kernel(&k, ONE, (&y,), &[])?;
                let b = g.add_kernel(&k, ONE, (&y,), &[])?;
                g.add_kernel(&k, ONE, (&y,), &[a.id(), b.id()])?;
                Ok(())
            })
            .unwrap();
        for deps in [[1, 0], [0, 0]] {
            let (old_graph, old_nodes) = (graph.raw(), raw_nodes(&graph));
            let rebuilt = graph.rebuild(|g| {
                let a = g.add_kernel(&k, ONE, (&y,), &[])?;
                let b = g.add_kernel(&k, ONE, (&y,), &[])?;
                let ids = [a.id(), b.id()];
                g.add_kernel(&k, ONE, (&y,), &[ids[deps[0]], ids[deps[1]]])?;
                Ok(())
            });
            match (deps, rebuilt) {
                (_, Ok(())) => assert_eq!(graph.len(), 3),
                ([0, 0], Err(e)) => {
                    assert!(matches!(e, Error::Node { .. }), "{e:?}");
                    assert_eq!(graph.len(), 2, "the two nodes made again");
                }
                (_, Err(e)) => panic!("{deps:?}: {e:?}"),
            }
            assert_ne!(graph.raw(), old_graph, "{deps:?}: a fresh driver graph");
            let new_nodes = raw_nodes(&graph);
            // The two reused nodes were made again while the old graph still lived, so their
            // handles differ from every old one. (The third, added after the old graph was
            // destroyed, may get an old node's address back from the driver's allocator.)
            assert!(
                new_nodes[..2].iter().all(|n| !old_nodes.contains(n)),
                "{deps:?}: no old node left"
            );
            // Back to the plain chain's shape for the next round.
            graph
                .rebuild(|g| {
                    let a = g.add_kernel(&k, ONE, (&y,), &[])?;
                    let b = g.add_kernel(&k, ONE, (&y,), &[])?;
                    g.add_kernel(&k, ONE, (&y,), &[a.id(), b.id()])?;
                    Ok(())
                })
                .unwrap();
        }
    }

    /// A panic while the reused nodes are made again (after the closure, or in the guard)
    /// leaves the graph refusing to be used, not holding the spares as if settled: and the
    /// rebuild's guard does not try again while unwinding (a second panic would abort).
    #[test]
    fn a_panic_in_the_remake_leaves_the_graph_refused() {
        let Some(Setup {
            y, k, mut graph, ..
        }) = setup("a_panic_in_the_remake_leaves_the_graph_refused")
        else {
            return;
        };
        PANIC_IN_REMAKE.set(true);
        let panicked = catch_unwind(AssertUnwindSafe(|| {
            graph.rebuild(|g| {
                g.add_kernel(&k, ONE, (&y,), &[])?;
                Ok(())
            })
        }));
        PANIC_IN_REMAKE.set(false);
        assert!(panicked.is_err());
        let refused = graph.try_clone();
        assert!(matches!(refused, Err(Error::Invalid { .. })), "{refused:?}");
        assert!(graph.is_unusable());
        // A rebuild starts afresh.
        graph
            .rebuild(|g| {
                g.add_kernel(&k, ONE, (&y,), &[])?;
                Ok(())
            })
            .unwrap();
        graph.instantiate().unwrap();
    }

    /// A host node refused after its closure went into the driver's graph (a dependency of
    /// another graph here) leaves the closure there: a rebuild does not keep that graph, as
    /// it keeps none holding retained values (a plain clear releases them).
    #[test]
    fn a_refused_host_nodes_closure_is_not_kept_by_a_rebuild() {
        let Some(Setup {
            ctx,
            y,
            k,
            mut graph,
        }) = setup("a_refused_host_nodes_closure_is_not_kept_by_a_rebuild")
        else {
            return;
        };
        let mut other = Graph::new(&ctx).unwrap();
        let foreign = other.add_empty(&[]).unwrap();
        assert!(graph.add_host(|| {}, &[foreign.id()]).is_err());
        let old_graph = graph.raw();
        graph
            .rebuild(|g| {
                let a = g.add_kernel(&k, ONE, (&y,), &[])?;
                g.add_kernel(&k, ONE, (&y,), &[a.id()])?;
                Ok(())
            })
            .unwrap();
        assert_ne!(
            graph.raw(),
            old_graph,
            "the graph holding the closure is not kept"
        );
    }
}
