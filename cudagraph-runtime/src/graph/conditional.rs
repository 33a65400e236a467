//! Conditional nodes: handles, the node and its bodies, which the graph takes in (see `bodies`).

#[cfg(not(feature = "cuda-12020"))]
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
#[cfg(not(feature = "cuda-12020"))]
use std::sync::Arc;

#[cfg(not(feature = "cuda-12020"))]
use cudarc::driver::CudaContext;

use super::definition::Graph;
use crate::node::NodeKind;
// Conditional nodes themselves need CUDA 12.3 or newer.
#[cfg(not(feature = "cuda-12020"))]
use {
    super::bodies::LoopAt,
    super::body::Body,
    crate::driver::result,
    crate::error::{Error, Result},
    crate::indirect::IndirectScope,
    crate::node::{Condition, ConditionalHandle, ConditionalNode, ConditionalParams, NodeId},
};

impl<'a> Graph<'a> {
    /// Whether the graph has conditional nodes (added or captured). CUDA cannot clone such a
    /// graph, so it cannot be cloned or embedded in another as a child graph either.
    pub fn has_conditional_nodes(&self) -> bool {
        self.nodes.iter().any(|n| n.kind == NodeKind::Conditional)
    }

    /// Whether this graph is the body of a conditional node.
    pub(crate) fn is_body(&self) -> bool {
        self.tables.as_ref().is_some_and(|t| t.body_of.is_some())
    }

    /// The scope of the conditional handles this graph's kernels may set: its own family (or
    /// the scope of its own that a clone, or a graph that took another's family, has: see
    /// `Tables::handle_scope`), or for a conditional body the root graph's.
    pub(crate) fn scope(&self) -> u64 {
        self.tables
            .as_ref()
            .and_then(|t| t.body_of.or(t.handle_scope))
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
        let tables = self.tables_mut();
        tables.idle_handles.push(raw);
        tables.made_handles += 1;
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
    /// `build` fails, the node is removed and its error returned; handles `build` made for the
    /// bodies stay registered with this graph (CUDA numbers handles across a graph and its
    /// bodies), driving nothing, so the graph then refuses to be instantiated or to be an
    /// update source, saying so, until [`Graph::clear`](crate::Graph::clear).
    ///
    /// A handle drives a single conditional node (CUDA's rule): one that drives a node already,
    /// or was made for another graph or body, is refused with [`Error::Invalid`].
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
        // CUDA associates a handle with a single conditional node ("Conditional Handles" in
        // the programming guide), and the driver refuses a second node on it, naming nothing
        // (`CUDA_ERROR_INVALID_VALUE` for one in the first's body; the GPU witness is
        // `witness_the_driver_ties_a_conditional_handle_to_one_node`): refuse it here, by name.
        // A handle of this graph that drives no node yet is in `idle_handles`.
        if !self
            .tables
            .as_ref()
            .is_some_and(|t| t.idle_handles.contains(&handle.raw))
        {
            let node = self.pending_name(NodeKind::Conditional);
            return self.or_forget_name(Err(Error::Invalid {
                node,
                reason: "the conditional handle already drives a conditional node, and CUDA \
                         ties a handle to a single conditional node: make a handle for each \
                         node with `conditional_handle`"
                    .into(),
            }));
        }
        #[cfg(not(any(
            feature = "cuda-12030",
            feature = "cuda-12040",
            feature = "cuda-12050",
            feature = "cuda-12060"
        )))]
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
        // A panic in `build` is caught so that the node goes as it goes on an error: the caller
        // may catch the panic and go on with the graph, whose table would otherwise list a
        // conditional node whose bodies' nodes (and the memory they hold) went with `bodies`.
        let built = catch_unwind(AssertUnwindSafe(|| build(&mut lent)));
        drop(lent);
        if bodies.iter().any(|b| b.keeps_driver_graph()) {
            // A capture into a body refused an allocation that escaped its closure, and keeps
            // the body's driver graph for good (see `capture::escape`): the conditional node
            // owns it, so the node and this graph stay too, and this graph is unusable.
            self.keep_driver_graph();
            drop(bodies);
            if let Err(panic) = built {
                resume_unwind(panic);
            }
            return Err(Error::Invalid {
                node: self.name_of(id.index as usize),
                reason: "a capture into a body kept an allocation past its closure (see the \
                         capture's error): the graph keeps the body, and is unusable"
                    .into(),
            });
        }
        let built = match built {
            Ok(Ok(built)) => built,
            Ok(Err(e)) => {
                self.remove_failed_conditional(id.index, bodies)?;
                return Err(e.at_node(|| self.name_of(id.index as usize)));
            }
            Err(panic) => {
                // The panic is what the caller gets; a failed removal is recorded in the graph.
                let _ = self.remove_failed_conditional(id.index, bodies);
                resume_unwind(panic);
            }
        };
        // Checked before anything records the node: refused, it goes, and its handle stays
        // free for another conditional node.
        if let Err(e) = self.check_bodies_against_host_code(id.index as usize, &bodies) {
            self.remove_failed_conditional(id.index, bodies)?;
            return Err(e);
        }
        if let Some(tables) = &mut self.tables {
            tables.idle_handles.retain(|&h| h != handle.raw);
        }
        if matches!(condition, Condition::While) {
            self.tables_mut().loops.push(LoopAt::Own(id.index));
        }
        // The bodies' nodes stay updatable through this graph (and its executables), with
        // what they use and need.
        for body in &mut bodies {
            self.adopt_resources_of(body);
            self.absorb_body(body, id.index);
        }
        Ok((ConditionalNode::from_id(id), built))
    }

    /// How many conditional handles were made for this graph and the bodies it absorbed, and
    /// how many of them died with a body that failed to build (see `Tables::dead_handles`).
    fn handle_counts(&self) -> (usize, usize) {
        self.tables
            .as_ref()
            .map_or((0, 0), |t| (t.made_handles, t.dead_handles))
    }

    /// Removes the conditional node `index` (the graph's last node, just added) whose bodies
    /// `bodies` failed to build, with its bodies. Should CUDA keep it (it removes no node from
    /// a graph with memory nodes), the graph is unusable from then on: the node would run
    /// bodies whose memory nothing holds.
    #[cfg(not(feature = "cuda-12020"))]
    fn remove_failed_conditional(&mut self, index: u32, bodies: Vec<Graph<'a>>) -> Result<()> {
        // SAFETY: the node was just added, and nothing refers to it (its handle was not given
        // out).
        let removed = unsafe { result::graph::destroy_node(self.nodes[index as usize].raw) };
        self.nodes.pop();
        // Handles made for the bodies (or their nested bodies) go with them, but copies of
        // them may live on outside the build: see `Tables::dead_handles`.
        let dead: usize = bodies
            .iter()
            .map(|b| {
                let (made, dead) = b.handle_counts();
                made + dead
            })
            .sum();
        if dead > 0 {
            self.tables_mut().dead_handles += dead;
        }
        drop(bodies);
        match removed {
            Ok(()) => self.tables_mut().pairing.removed(),
            Err(_) => self.mark_refused_work(),
        }
        removed
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
        // A body a capture broke, or left holding work it cannot account for, is part of this
        // graph's conditional node: this graph is unusable with it.
        if body.is_unusable() {
            self.mark_refused_work();
        }
        let records = std::mem::take(&mut body.nodes);
        let (uses, edges, nested, stranded, loops, pairing) = match &mut body.tables {
            Some(t) => (
                std::mem::take(&mut t.uses),
                std::mem::take(&mut t.edges),
                std::mem::take(&mut t.bodies),
                std::mem::take(&mut t.idle_handles).len() + std::mem::take(&mut t.stranded_handles),
                std::mem::take(&mut t.loops),
                std::mem::take(&mut t.pairing),
            ),
            None => Default::default(),
        };
        let (made, dead) = body.handle_counts();
        let tables = self.tables_mut();
        let (start, own_nodes) = (tables.bodies.nodes.len() as u32, records.len() as u32);
        tables
            .loops
            .extend(loops.into_iter().map(|at| at.absorbed(start, own_nodes)));
        tables.pairing.absorb(pairing, start, own_nodes);
        let bases = (tables.uses.len() as u32, tables.edges.len() as u32);
        tables.uses.extend(uses);
        tables.edges.extend(edges);
        tables.stranded_handles += stranded;
        tables.made_handles += made;
        tables.dead_handles += dead;
        tables
            .bodies
            .absorb(body.family, records, nested, owner, bases);
    }
}

#[cfg(all(test, not(feature = "cuda-12020")))]
mod tests {
    use cudarc::driver::CudaContext;
    use std::sync::Arc;

    use crate::{open_device, ConditionalHandle, Error, Graph, Kernel, LaunchConfig};

    /// A kernel taking a conditional handle (it does nothing: it is never launched), loaded
    /// from PTX that a real driver takes as well as the null one.
    fn setter(ctx: &Arc<CudaContext>) -> Kernel<(ConditionalHandle,)> {
        let ptx = cudarc::nvrtc::Ptx::from_src(
            ".version 8.0\n.target sm_90\n.address_size 64\n\
             .visible .entry set(.param .u64 handle) { ret; }\n",
        );
        let module = ctx.load_module(ptx).unwrap();
        let func = module.load_function("set").unwrap();
        // SAFETY: never launched (the test only adds it to graphs, which it never launches).
        unsafe { Kernel::new(func) }
    }

    fn refused(what: &str, r: crate::Result<impl std::fmt::Debug>) {
        assert!(matches!(&r, Err(Error::Invalid { .. })), "{what}: {r:?}");
    }

    /// A graph and its clone share node handles, not conditional handles: each numbers its own
    /// (a handle value of one names nothing, or another handle, in the other), so a kernel of
    /// one given a handle the other made is refused, as for any other graph; and a clear
    /// starts afresh. Needs a driver to make the objects (the null driver will do);
    /// skipped without one.
    #[test]
    fn a_clones_conditional_handles_are_its_own() {
        let Ok(ctx) = open_device(0) else {
            eprintln!("skipped a_clones_conditional_handles_are_its_own: no driver");
            return;
        };
        let set = setter(&ctx);
        let one = LaunchConfig::for_num_elems(1);
        let mut graph = Graph::new(&ctx).unwrap();
        graph.add_empty(&[]).unwrap();
        let mut clone = graph.try_clone().unwrap();
        // A clone of the clone, made before any handle (CUDA clones no graph with one).
        let mut second = clone.try_clone().unwrap();
        let mine = graph.conditional_handle(None).unwrap();
        let theirs = clone.conditional_handle(None).unwrap();
        refused(
            "the graph's handle in the clone's kernel",
            clone.add_kernel(&set, one, (mine,), &[]),
        );
        refused(
            "the clone's handle in the graph's kernel",
            graph.add_kernel(&set, one, (theirs,), &[]),
        );
        graph.add_kernel(&set, one, (mine,), &[]).unwrap();
        clone.add_kernel(&set, one, (theirs,), &[]).unwrap();

        // A graph with a handle is not cloned; a clone of the clone is apart from both.
        refused("a clone of a graph with a handle", clone.try_clone());
        refused(
            "a clone's handle in its clone",
            second.add_kernel(&set, one, (theirs,), &[]),
        );

        // Cleared, the graph makes new handles; the old ones are refused.
        second.clear().unwrap();
        let fresh = second.conditional_handle(None).unwrap();
        refused(
            "a handle of the contents before a clear",
            second.add_kernel(&set, one, (theirs,), &[]),
        );
        second.add_kernel(&set, one, (fresh,), &[]).unwrap();
    }
}
