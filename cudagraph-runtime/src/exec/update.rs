//! Whole-graph updates (`cuGraphExecUpdate`) and re-instantiation, their fallback.

use cudarc::driver::sys;

#[cfg(feature = "nccl")]
use super::instantiate::{agreed, destroy_unlaunched};
use super::instantiate::{instantiate_raw, refuse_device_launch, GraphExec, InstantiateFlags};
use crate::driver::named;
use crate::driver::result::{self, exec::UpdateResultInfo};
use crate::error::{Error, Result, UpdateFailure};
use crate::graph::Graph;

impl<'a> GraphExec<'a> {
    /// Destroys the executable and instantiates the graph it was made from again (parameter
    /// changes made since are lost). To fall back from a refused update, use
    /// [`GraphExec::reinstantiate_from`] with the new graph.
    ///
    /// Refused for a device-launchable executable: kernels hold its handle, which a new
    /// instantiation would leave dangling.
    pub fn reinstantiate(&mut self, flags: InstantiateFlags) -> Result<()> {
        if self.device_launch {
            return Err(super::launch::device_exec_refuses(
                "GraphExec::reinstantiate",
            ));
        }
        refuse_memory_nodes(&self.graph, &self.graph, "reinstantiate")?;
        // With indirect values: the same block, whose count goes on (the next launch waits for
        // the old executable's launches, see `before_reinstantiation`).
        refuse_device_launch(&self.graph, flags)?;
        let uses: Vec<_> = self.graph.uses_by_node().map(<[_]>::to_vec).collect();
        self.memory.before_reinstantiation()?;
        let changes = uses.into_iter().enumerate().collect();
        let graph = &self.graph;
        let mut fresh = None;
        self.memory.replace(changes, &|i| graph.name_of(i), || {
            fresh = Some(instantiate_raw(graph, flags, None)?);
            Ok(())
        })?;
        let old = std::mem::replace(&mut self.raw, fresh.expect("set by the replacement"));
        // The fresh instantiation launches the graph's kernels, as its records say: what
        // `set_kernel` or an update switched is gone with the old one.
        self.kernels = None;
        if let Some(block) = self.indirect.as_deref_mut() {
            block.reinstantiated();
        }
        self.retire_host_calls();
        // SAFETY: `old` was ours; launches already queued keep what they need (CUDA defers it).
        named("cuGraphExecDestroy", unsafe {
            cudarc::driver::result::graph::exec_destroy(old)
        })
    }

    /// Replaces the executable with a fresh instantiation of `graph`: the usual fallback when
    /// [`GraphExec::update`] is refused. Node handles of the old graph keep working when `graph`
    /// was built by the same calls in the same order (as every graph of one `cuda_graph!`
    /// declaration is); otherwise use `graph`'s own handles. On error nothing changes.
    ///
    /// Refused for a device-launchable executable, as [`GraphExec::reinstantiate`] is.
    pub fn reinstantiate_from(
        &mut self,
        mut graph: Graph<'a>,
        flags: InstantiateFlags,
    ) -> Result<()> {
        if self.device_launch {
            return Err(super::launch::device_exec_refuses(
                "GraphExec::reinstantiate_from",
            ));
        }
        refuse_memory_nodes(&self.graph, &graph, "reinstantiate_from")?;
        refuse_device_launch(&graph, flags)?;
        #[cfg(feature = "nccl")]
        graph.check_collective_order()?;
        // The new graph's symmetric collectives' communicators, beside the old graph's until
        // the new graph replaces it.
        #[cfg(feature = "nccl")]
        let claimed = self
            .symmetric
            .claim(graph.collectives(), &|i| graph.name_of(i));
        #[cfg(not(feature = "nccl"))]
        let claimed: Result<usize> = Ok(0);
        // Whether this rank reached the ranks' agreement on a graph with collectives over
        // symmetric buffers (see `replace_graph_parts`).
        let mut reached = false;
        let replaced = match claimed {
            Ok(added) => {
                let replaced = self.replace_graph_parts(&mut graph, flags, &mut reached);
                #[cfg(feature = "nccl")]
                if replaced.is_err() {
                    self.symmetric.undo(added);
                }
                #[cfg(not(feature = "nccl"))]
                let _ = added;
                replaced
            }
            Err(e) => Err(e),
        };
        // Failed before the agreement: the peers wait in it, and refuse with this rank.
        #[cfg(feature = "nccl")]
        if replaced.is_err() && !reached {
            let _ = graph.agree_on_instantiation(false);
        }
        let (fresh, incoming) = replaced?;
        let old = std::mem::replace(&mut self.raw, fresh);
        // The new graph's kernels, as its records say.
        self.kernels = None;
        graph.join_family_of(&self.graph);
        self.panics.watch_instead(graph.panics.slots());
        self.child_panics.clear();
        self.retire_host_calls();
        // The new graph's block and keys replace the old ones, which the launches made so far
        // may still use; the next launch waits for those (`before_reinstantiation`), so the new
        // block's count starts with it.
        if let Some(old) = std::mem::replace(&mut self.indirect, incoming) {
            self.memory.drop_after_launches(old);
        }
        // The old graph goes only after its executable: `old` may still reference its nodes.
        let old_graph = std::mem::replace(&mut self.graph, graph);
        #[cfg(feature = "nccl")]
        self.symmetric.keep_for(self.graph.collectives());
        self.ctx = self.graph.context().cu_ctx();
        // Its kernels' modules stay loaded with this executable: the old launches may still run
        // them (see `Drop for GraphExec`).
        self.keep_functions(&old_graph);
        // SAFETY: `old` was ours; launches already queued keep what they need (CUDA defers it).
        let destroyed = named("cuGraphExecDestroy", unsafe {
            cudarc::driver::result::graph::exec_destroy(old)
        });
        drop(old_graph);
        crate::trace::event!(
            info,
            nodes = self.graph.all_records().count(),
            "executable re-instantiated"
        );
        destroyed
    }

    /// The steps of [`GraphExec::reinstantiate_from`] that may fail, before anything of the
    /// executable changes but its memory table: the new graph's indirect block and the fresh
    /// instantiation, which the memory table records as replacing the old one once every rank
    /// agrees (for a graph with collectives over symmetric buffers, see
    /// `Graph::check_collective_order`). `reached` is set when this rank came to the agreement.
    fn replace_graph_parts(
        &mut self,
        graph: &mut Graph<'a>,
        flags: InstantiateFlags,
        reached: &mut bool,
    ) -> Result<(
        sys::CUgraphExec,
        Option<Box<crate::indirect::IndirectBlock>>,
    )> {
        // The new graph's block of indirect values, if any (dropped unused if this fails).
        let incoming = graph.take_indirect_block()?;
        self.memory.before_reinstantiation()?;
        let changes = graph
            .uses_by_node()
            .map(<[_]>::to_vec)
            .enumerate()
            .collect();
        let mut fresh = None;
        self.memory.replace(changes, &|i| graph.name_of(i), || {
            let made = instantiate_raw(graph, flags, None);
            *reached = true;
            // Refused, the memory table is left as it was.
            #[cfg(feature = "nccl")]
            let made = agreed(graph, made, destroy_unlaunched);
            fresh = Some(made?);
            Ok(())
        })?;
        Ok((fresh.expect("set by the replacement"), incoming))
    }

    /// Whole-graph update (`cuGraphExecUpdate`): takes every node's parameters from `graph`,
    /// which must have the same topology, built by the same calls in the same order. CUDA pairs
    /// the two graphs' nodes through their sinks and dependency lists, while the executable
    /// knows each node's memory by its position: a graph whose nodes, dependency lists or later
    /// edges differ position by position from this executable's graph is refused as another
    /// topology ([`Error::UpdateRejected`], naming its first such node), even where CUDA would
    /// pair it, and so is a graph that lost a node (a failed capture into it): re-instantiate
    /// from it ([`GraphExec::reinstantiate_from`]).
    ///
    /// On refusal, the error names the node of `graph` the driver blamed and why; the executable
    /// is unchanged then and may still be launched. Memory the executable no longer uses
    /// afterwards is released once the launches that may use it have completed.
    pub fn update(&mut self, graph: &Graph<'a>) -> Result<()> {
        crate::ambient::refuse_in_host_node("GraphExec::update")?;
        graph.check_not_broken()?;
        // A conditional handle of `graph` that drives none of its conditional nodes (or a dead
        // one) is refused as the instantiation refuses it: its kernels may set it, and the
        // update would have the executable's kernels set a handle value the executable's graph
        // never made (CUDA numbers each graph's handles apart).
        graph.check_handles_used()?;
        // The nodes' memory was judged for their graph's device (see `memory::peer`).
        self.graph
            .refuse_other_context(graph, &|| "update".to_string())?;
        refuse_memory_nodes(&self.graph, graph, "update")?;
        self.graph.refuse_device_updatable("update")?;
        graph.refuse_device_updatable("update")?;
        if !self.graph.same_bodies_as(graph) {
            // The driver would refuse too; checked first since node uses are paired by position.
            crate::trace::event!(
                info,
                reason = "the bodies differ",
                "whole-graph update refused"
            );
            return Err(Error::UpdateRejected {
                node: "<graph>".into(),
                reason: UpdateFailure::TopologyChanged,
            });
        }
        // The executable's records pair the graphs' nodes by position: so must CUDA.
        self.graph.check_pairs_by_position(graph)?;
        #[cfg(feature = "nccl")]
        if self.graph.collectives().is_some() || graph.collectives().is_some() {
            // NCCL's captured kernels hold per-launch plans of the communicator they were
            // recorded for; an update would mix one graph's plans with the other's nodes.
            return Err(Error::UpdateRejected {
                node: "<graph>".into(),
                reason: UpdateFailure::NotSupported,
            });
        }
        if self.graph.has_indirect() || graph.has_indirect() {
            return Err(Error::Invalid {
                node: "update".into(),
                reason: "a graph with indirect values cannot be updated as a whole: the \
                         executable's nodes would read the other graph's block, which its \
                         own fetch node does not fill; set the values with `set_indirect`, \
                         update nodes one by one, or re-instantiate from the new graph"
                    .into(),
            });
        }
        let raw = self.raw;
        // Only the nodes whose memory changes: a rebuild with the same buffers copies nothing.
        let (table, ranges) = graph.use_table();
        let changes = self.memory.changes_from(table, ranges);
        self.memory
            .replace(changes, &|i| graph.name_of(i), || update_raw(raw, graph))?;
        self.adopt(graph);
        Ok(())
    }

    /// Keeps alive and watches what an update's source graph brought in.
    ///
    /// Each step is skipped when it has nothing to do: a rebuild-and-update loop over graphs
    /// without host nodes pays for none of them.
    fn adopt(&mut self, graph: &Graph<'_>) {
        self.keep_functions(graph);
        // Every host node now runs `graph`'s closure: the ones installed here are replaced.
        self.retire_host_calls();
        // Kernel nodes may have switched function (same context): later single-node updates
        // must re-send the new one, and check it as its own kernel. Kept by the executable:
        // its graph's records keep describing its graph (see `GraphExec::kernels`).
        let differs = self
            .graph
            .all_records()
            .zip(graph.all_records())
            .any(|(mine, theirs)| !same_kernel(&mine.kernel, &theirs.kernel));
        self.kernels = differs.then(|| graph.all_records().map(|r| r.kernel).collect());
        // Host closures of `graph` are kept alive by its user objects, which the update retained.
        // The executable now runs `graph`'s closures: watch their slots instead of the old ones
        // (a slot with an unreported panic stays until it is reported, so the list never grows).
        self.panics.watch_instead(graph.panics.slots());
    }

    /// Host calls installed by [`GraphExec::set_host_fn`] no longer run: they are freed once the
    /// launches that may still call them have completed.
    pub(super) fn retire_host_calls(&mut self) {
        if !self.host_calls.is_empty() {
            let replaced = std::mem::take(&mut self.host_calls);
            self.memory.drop_after_launches(Box::new(replaced));
        }
    }

    /// Keeps the modules of `graph`'s kernels loaded.
    #[inline]
    pub(super) fn keep_functions(&mut self, graph: &Graph<'_>) {
        for f in graph.functions().iter() {
            if !self.graph.functions().contains(f.cu_function()) {
                self.functions.insert(f);
            }
        }
    }
}

/// Whether two kernel contracts describe the same kernel node: the same function, parameter list,
/// check and wait.
fn same_kernel(a: &crate::kernel::KernelContract, b: &crate::kernel::KernelContract) -> bool {
    a.same(b) && a.param_list() == b.param_list()
}

/// Refuses `call` when either graph has memory nodes: CUDA accepts a whole-graph update of such
/// a graph from another one, but the other graph's allocations live at other addresses, which the
/// executable's alloc nodes do not back; and it allows one executable of such a graph at a time.
// Inlined, the error out of line: two flag tests on every whole-graph update.
#[inline]
fn refuse_memory_nodes(mine: &Graph<'_>, other: &Graph<'_>, call: &str) -> Result<()> {
    if mine.has_memory_nodes() || other.has_memory_nodes() {
        return Err(memory_nodes_refused(call));
    }
    Ok(())
}

/// The error of [`refuse_memory_nodes`].
#[cold]
#[inline(never)]
fn memory_nodes_refused(call: &str) -> Error {
    Error::Invalid {
        node: call.into(),
        reason: "a graph with memory nodes (alloc or free) cannot be updated or \
                 re-instantiated as a whole: update its nodes one by one (their \
                 allocations stay where they are), or drop the executable and instantiate \
                 the new graph"
            .into(),
    }
}

/// `cuGraphExecUpdate` of `raw` from `graph`, with the driver's verdict as an error.
fn update_raw(raw: sys::CUgraphExec, graph: &Graph<'_>) -> Result<()> {
    let mut info = UpdateResultInfo {
        result: 0,
        error_node: std::ptr::null_mut(),
        error_from_node: std::ptr::null_mut(),
    };
    // SAFETY: live executable and graph.
    let Err(error) = (unsafe { result::exec::update(raw, graph.raw(), &mut info) }) else {
        return Ok(());
    };
    let reason = match info.result {
        0 | 1 => UpdateFailure::Unspecified,
        2 => UpdateFailure::TopologyChanged,
        3 => UpdateFailure::NodeTypeChanged,
        4 => UpdateFailure::FunctionChanged,
        5 => UpdateFailure::ParametersChanged,
        6 => UpdateFailure::NotSupported,
        7 => UpdateFailure::UnsupportedFunctionChange,
        8 => UpdateFailure::AttributesChanged,
        code => UpdateFailure::Other(code),
    };
    let node = graph
        .all_records()
        .position(|r| r.raw == info.error_node)
        .map_or_else(|| "<graph>".to_owned(), |i| graph.name_of(i));
    if info.result <= 1 && info.error_node.is_null() {
        // Not a pairing verdict: report the driver's code itself.
        return Err(error);
    }
    crate::trace::event!(info, node = %node, reason = %reason, "whole-graph update refused");
    Err(Error::UpdateRejected { node, reason })
}
