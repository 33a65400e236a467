//! Single-node updates (`cuGraphExec*NodeSetParams`), by node kind, and enabling and disabling
//! nodes.

use std::any::Any;
use std::sync::Arc;

use cudarc::driver::{sys, CudaFunction};

use super::instantiate::GraphExec;
use crate::ambient::refuse_in_host_node;
use crate::driver::result;
use crate::error::{Error, Result};
use crate::graph::{refuse_captured, Graph};
use crate::kernel::{
    launch_refused, Kernel, KernelArgValues, KernelArgs, KernelContract, LaunchConfig, MemKeys,
};
use crate::memory::hazard::{host_code_conflict, may_race, reaches, Order};
use crate::memory::operand::{DeclaredUse, Use};
use crate::node::{
    check_views_apart, with_views, ChildGraphNode, ChildParams, Direction, Event, EventParams,
    EventRecordNode, EventWaitNode, ExternalSemaphore, HostCall, HostNode, HostParams, HostViews,
    KernelLaunch, KernelNode, KernelParams, Memcpy, MemcpyNode, MemcpyParams, Memset, MemsetNode,
    MemsetParams, MemsetValue, NodeId, NodeKind, NodeParams, NodeUpdate, SemaphoreParams,
    SemaphoreSignalNode, SemaphoreWaitNode, Switchable,
};

impl<'a> GraphExec<'a> {
    /// The index of `node` (one of the graph's nodes) and its driver handle.
    #[inline]
    pub(crate) fn node(&self, node: NodeId) -> Result<(usize, sys::CUgraphNode)> {
        self.kernel_node(node)
            .map(|(index, raw_node, _)| (index, raw_node))
    }

    /// [`GraphExec::node`] for a handle of the node kind `P` sends parameters to: refused,
    /// naming the node, when the node is of another kind. A handle's type alone does not say
    /// so: a graph and its clone (`Graph::try_clone`) share node handles, so a node the clone
    /// added answers to the handle of the node the graph added at the same position (a host node
    /// for a memcpy node's handle), and after a re-instantiation from another graph
    /// ([`GraphExec::reinstantiate_from`]) the old graph's handles name that graph's nodes by
    /// position. The `cuGraphExec*NodeSetParams` calls take a node of their own kind only.
    fn typed_node<P: NodeParams>(&self, node: NodeId) -> Result<(usize, sys::CUgraphNode)> {
        refuse_in_host_node("a node update of GraphExec")?;
        let (index, record) = self.graph.any_record(node)?;
        if record.kind != P::KIND {
            return Err(self.other_kind(index, P::KIND, record.kind));
        }
        Ok((index, record.raw))
    }

    /// The error for a handle of a `wanted` node whose node `index` is a `found` node.
    #[cold]
    #[inline(never)]
    fn other_kind(&self, index: usize, wanted: NodeKind, found: NodeKind) -> Error {
        Error::Invalid {
            node: self.graph.name_of(index),
            reason: format!(
                "the handle is a {} node's, but the node is a {} node (a handle of a clone's \
                 node, or of a graph this executable was re-instantiated from, names a node \
                 by its position): use the handle of this executable's graph",
                wanted.name(),
                found.name()
            ),
        }
    }

    /// Like [`GraphExec::node`], with what a kernel node keeps of its kernel (one lookup, for
    /// the single-node update's hot path).
    #[inline(always)]
    fn kernel_node(&self, node: NodeId) -> Result<(usize, sys::CUgraphNode, KernelContract)> {
        // Every single-node update (and query) looks its node up here first.
        refuse_in_host_node("a node update of GraphExec")?;
        let (index, record) = self.graph.any_record(node)?;
        Ok((index, record.raw, self.contract(index, record.kernel)))
    }

    /// What kernel node `index` launches now, given its record's `recorded` contract: the
    /// executable's own when it switched kernels (see `GraphExec::kernels`).
    #[inline(always)]
    fn contract(&self, index: usize, recorded: KernelContract) -> KernelContract {
        match &self.kernels {
            None => recorded,
            Some(kernels) => kernels.get(index).copied().unwrap_or(recorded),
        }
    }

    /// Refuses a host update of the arguments or the kernel of node `index` when it is a
    /// device-updatable kernel node: the values kernels set in it from the device were admitted
    /// by its kernel's check with its other arguments as they were, which a host update could
    /// change under them (a smaller buffer for a length the device set).
    #[cold]
    #[inline(never)]
    fn refuse_device_updatable_node(&self, index: usize) -> Result<()> {
        if !self.graph.is_device_updatable(index) {
            return Ok(());
        }
        Err(Error::Invalid {
            node: self.graph.name_of(index),
            reason: "a device-updatable kernel node's arguments are changed from the device: a \
                     host update could leave a value the device set (a length, say) outside \
                     the memory or the other arguments it was set for; build another graph, or \
                     change it from the device"
                .into(),
        })
    }

    /// The error for a `KernelNode<A>` handle of node `index`, which launches a kernel of
    /// another parameter list now.
    #[cold]
    #[inline(never)]
    fn stale_handle<A>(&self, index: usize) -> Error {
        Error::Invalid {
            node: self.graph.name_of(index),
            reason: format!(
                "the handle is a `KernelNode<{}>`, but the node launches a kernel with another \
                 parameter list now (a whole-graph update or a re-instantiation changed it, or \
                 the node is not a kernel node): use the handle from the graph it was updated \
                 from",
                std::any::type_name::<A>()
            ),
        }
    }

    /// The error for switching node `index` from a kernel that waits for its programmatic
    /// dependencies to one that does not: the graph's memory checks may have counted an edge
    /// into the node as ordering because of the wait.
    #[cold]
    #[inline(never)]
    fn wait_taken_away(&self, index: usize) -> Error {
        Error::Invalid {
            node: self.graph.name_of(index),
            reason: "the node's kernel waits for its programmatic dependencies \
                     (`Kernel::waits_for_dependency`), and a programmatic edge into it may order \
                     memory only because of that wait: switch it only to a kernel that waits too"
                .into(),
        }
    }

    /// The error for a kernel launch of node `index` that its kernel's check refuses.
    #[cold]
    #[inline(never)]
    fn refused_launch(&self, index: usize, config: &LaunchConfig) -> Error {
        launch_refused(self.graph.name_of(index), config)
    }

    /// A failed driver call about node `index`, as an error naming the node.
    #[cold]
    fn at_node(&self, error: Error, index: usize) -> Error {
        error.at_node(|| self.graph.name_of(index))
    }

    /// Makes node `index` use `uses` instead of its current memory around `apply` (the driver
    /// call, whose failure is reported as one about the node), after checking that host code in
    /// the graph cannot race with the new uses.
    ///
    /// `uses` is drained (its capacity kept for the next update) when the update is made.
    fn replace_uses(
        &mut self,
        index: usize,
        uses: &mut Vec<Use<'a>>,
        apply: impl FnOnce() -> Result<()>,
    ) -> Result<()> {
        self.check_host_code(index, uses)?;
        refuse_captured(uses, None, &|| self.graph.name_of(index))?;
        self.graph
            .check_handles(uses, &|| self.graph.name_of(index))?;
        self.graph.check_indirect_uses_of(index, uses)?;
        self.graph.check_alloc_uses_of(index, uses)?;
        if let Some(record) = self.graph.record(index) {
            self.graph
                .check_reach(record.kind, uses, &|| self.graph.name_of(index))?;
        }
        let graph = &self.graph;
        let apply = || apply().map_err(|e| e.at_node(|| graph.name_of(index)));
        self.memory
            .replace_one(index, uses, &|i| graph.name_of(i), apply)
    }

    /// Sends `params` to node `index` (`raw_node`), which then uses `uses`: the single-node
    /// update of every kind but kernels, whose hot path has its own.
    fn update_node(
        &mut self,
        index: usize,
        raw_node: sys::CUgraphNode,
        uses: &mut Vec<Use<'a>>,
        mut params: impl NodeUpdate + NodeParams,
    ) -> Result<()> {
        let raw = self.raw;
        self.replace_uses(index, uses, || {
            // SAFETY: live executable; `raw_node` is a node of its graph, of the kind `params` is
            // for (looked up by `typed_node`, which checks the node's kind).
            unsafe { params.update(raw, raw_node) }
        })
    }

    /// A node of the graph that node `index` would race with if it used `uses` (see
    /// `memory::hazard`), as an error.
    fn check_host_code(&self, index: usize, uses: &[Use<'a>]) -> Result<()> {
        if !uses.iter().any(may_race) {
            return Ok(());
        }
        let others = self.memory.all_uses().filter(|(i, _)| *i != index);
        let graph = &self.graph;
        let order = |other: usize| {
            Order::of(index, other, |from, to| {
                reaches(from, to, |n| graph.deps_of(n))
            })
        };
        match host_code_conflict(uses, others, order) {
            None => Ok(()),
            Some((other, why)) => Err(Error::Hazard {
                first: graph.name_of(other),
                second: graph.name_of(index),
                reason: why.reason(true).map_or_else(
                    || {
                        "after this update both would use the same host memory, one writing \
                         it, with host code (a host node's buffers) involved and no edge between \
                         them"
                            .into()
                    },
                    |why| format!("after this update, {why}"),
                ),
            }),
        }
    }

    /// Sets a kernel node's launch configuration and arguments (`cuGraphExecKernelNodeSetParams`).
    ///
    /// Memory the node stops using is released once the launches that may use it have
    /// completed; when the memory stays the same, this is one driver call.
    // Always inlined, as `set_kernel` is (see there): left to the optimizer, it was called out of
    // line where a program updates several nodes, with its arguments copied through memory.
    #[inline(always)]
    pub fn set_kernel_params<A: KernelArgs>(
        &mut self,
        node: KernelNode<A>,
        config: LaunchConfig,
        args: impl KernelArgValues<'a, A>,
    ) -> Result<()> {
        let (index, raw_node, kernel) = self.kernel_node(node.id)?;
        if !kernel.takes::<A>() {
            return Err(self.stale_handle::<A>(index));
        }
        if self.graph.has_device_updatable_nodes() {
            self.refuse_device_updatable_node(index)?;
        }
        self.send_kernel_params(index, raw_node, kernel, &config, args)
    }

    /// Like [`GraphExec::set_kernel_params`], and switches the node to `kernel`, another function
    /// with the same parameter list in the same context (CUDA allows that; a function that uses
    /// dynamic parallelism it refuses).
    // Only the common update (same memory, same function) is here: the node lookup, the
    // argument array and the driver call; the rest is out of line. Always inlined, into each of
    // the update functions `cuda_graph!` generates per node: there the arguments are values the
    // optimizer sees (their bits and memory read straight from the params, the memory check a
    // few comparisons); called, they are a struct in memory copied field by field. That cuts
    // our instructions per updated node from about 340 to 200 (against a null driver), which
    // shows in the hot loop's ratio to the raw call, for a larger update function per node (and
    // a longer compile of large declarations).
    #[inline(always)]
    pub fn set_kernel<A: KernelArgs>(
        &mut self,
        node: KernelNode<A>,
        kernel: &Kernel<A>,
        config: LaunchConfig,
        args: impl KernelArgValues<'a, A>,
    ) -> Result<()> {
        let (index, raw_node, current) = self.kernel_node(node.id)?;
        if !current.takes::<A>() {
            return Err(self.stale_handle::<A>(index));
        }
        if self.graph.has_device_updatable_nodes() {
            self.refuse_device_updatable_node(index)?;
        }
        let new = kernel.contract();
        if current.waits && !new.waits {
            return Err(self.wait_taken_away(index));
        }
        self.send_kernel_params(index, raw_node, new, &config, args)?;
        if !current.same(&new) {
            self.switch_kernel(index, kernel.function(), new);
        }
        Ok(())
    }

    /// Records that kernel node `index` now launches `func` with the contract `kernel` (its
    /// update succeeded), keeping the function's module loaded for as long as the executable.
    #[cold]
    #[inline(never)]
    fn switch_kernel(&mut self, index: usize, func: &CudaFunction, kernel: KernelContract) {
        // Kept by the executable, not in the graph's records, which keep describing the graph's
        // own nodes (see `GraphExec::kernels`).
        let graph = &self.graph;
        let kernels = self
            .kernels
            .get_or_insert_with(|| graph.all_records().map(|r| r.kernel).collect());
        if let Some(slot) = kernels.get_mut(index) {
            *slot = kernel;
        }
        if !self.graph.functions().contains(kernel.func) {
            self.functions.insert(func);
        }
    }

    /// Sends a kernel node (`index`, `raw_node`, launching a kernel of parameter list `A` as
    /// `kernel` describes) its new configuration and arguments, once the kernel's check admits
    /// them.
    #[inline(always)]
    fn send_kernel_params<A: KernelArgs>(
        &mut self,
        index: usize,
        raw_node: sys::CUgraphNode,
        kernel: KernelContract,
        config: &LaunchConfig,
        args: impl KernelArgValues<'a, A>,
    ) -> Result<()> {
        if !kernel.admits::<A>(config, || args.checked()) {
            return Err(self.refused_launch(index, config));
        }
        let launch = KernelLaunch {
            func: kernel.func,
            ctx: self.ctx,
            config: *config,
        };
        let raw = self.raw;
        if args.same_memory(self.memory.node_keys(index)) {
            // The hot path: the same memory, new values; nothing to keep or release.
            // SAFETY: live executable; `raw_node` is a kernel node of its graph, of parameter
            // list `A`.
            let result = unsafe { launch.update_with::<A>(raw, raw_node, &mut args.reprs()) };
            return result.map_err(|e| self.at_node(e, index));
        }
        self.send_kernel_params_moved(index, raw_node, launch, args)
    }

    /// [`GraphExec::send_kernel_params`] when the arguments point to other memory than the node
    /// uses now. Memory the executable holds, moved between (two buffers swapped in the node,
    /// or the node moved to a buffer another node uses): the driver call, and the node's uses
    /// rearranged, nothing registered or released (see `Holdings::plan_move`). Anything else
    /// goes the general way.
    // Not inlined: what it keeps on the stack would make every update's frame larger, the hot
    // path's included (which runs between driver calls that evict the stack from the caches).
    #[inline(never)]
    fn send_kernel_params_moved<A: KernelArgs>(
        &mut self,
        index: usize,
        raw_node: sys::CUgraphNode,
        launch: KernelLaunch,
        args: impl KernelArgValues<'a, A>,
    ) -> Result<()> {
        let mut keys = MemKeys::new();
        let count = args.memory_keys(&mut keys);
        // SAFETY: `memory_keys` wrote `count` keys.
        let keys = unsafe { keys.first(count) };
        let Some(plan) = self.memory.plan_move(index, keys) else {
            return self.send_kernel_params_new_memory(index, raw_node, launch, args);
        };
        // SAFETY: live executable; `raw_node` is a kernel node of its graph, of parameter list
        // `A`.
        let result = unsafe { launch.update_with::<A>(self.raw, raw_node, &mut args.reprs()) };
        if let Err(e) = result {
            return Err(self.at_node(e, index));
        }
        self.memory.commit_move(index, keys, plan);
        Ok(())
    }

    /// [`GraphExec::send_kernel_params_moved`] when the arguments point to memory the node cannot
    /// just move to (memory new to the executable, or memory the node was the last to use): the
    /// new memory is taken, the old released after the launches that may use it.
    #[cold]
    #[inline(never)]
    fn send_kernel_params_new_memory<A: KernelArgs>(
        &mut self,
        index: usize,
        raw_node: sys::CUgraphNode,
        launch: KernelLaunch,
        args: impl KernelArgValues<'a, A>,
    ) -> Result<()> {
        // The uses go into the executable's scratch list: no allocation per update.
        let mut uses = std::mem::take(&mut self.scratch);
        uses.clear();
        let updated = match args.into_parts(&mut uses) {
            Ok(reprs) => {
                // (What the node keeps of its kernel is the caller's to record.)
                let params = KernelParams::<A> {
                    launch,
                    reprs,
                    kernel: KernelContract::NONE,
                };
                self.update_node(index, raw_node, &mut uses, params)
            }
            Err(e) => Err(e),
        };
        uses.clear();
        self.scratch = uses;
        updated
    }

    /// Sets a memcpy node's source and destination (`cuGraphExecMemcpyNodeSetParams`). The
    /// direction is fixed by the handle's type, as CUDA requires. Memory the node stops using is
    /// released once the launches that may use it have completed.
    pub fn set_memcpy_params<D: Direction>(
        &mut self,
        node: MemcpyNode<D>,
        copy: Memcpy<'a, D>,
    ) -> Result<()> {
        let (index, raw_node) = self.typed_node::<MemcpyParams>(node.id)?;
        let ctx = self.graph.context();
        let (src, dst, params) = copy.into_parts(ctx, || self.graph.name_of(index))?;
        self.update_node(index, raw_node, &mut vec![src, dst], params)
    }

    /// Sets a memset node's destination and value (`cuGraphExecMemsetNodeSetParams`). Memory the
    /// node stops using is released once the launches that may use it have completed.
    pub fn set_memset_params<V: MemsetValue>(
        &mut self,
        node: MemsetNode<V>,
        set: Memset<'a, V>,
    ) -> Result<()> {
        let (index, raw_node) = self.typed_node::<MemsetParams>(node.id)?;
        let (dst, params) = set.into_parts(self.ctx, || self.graph.name_of(index))?;
        self.update_node(index, raw_node, &mut vec![dst], params)
    }

    /// Replaces a host node's closure (`cuGraphExecHostNodeSetParams`). The old closure stays
    /// alive until launches that may still call it are done.
    pub fn set_host_fn(&mut self, node: HostNode, f: impl FnMut() + Send + 'static) -> Result<()> {
        self.install_host_call(node, Box::new(f), Vec::new())
    }

    /// Replaces a host node's closure and the host buffers it gets (see
    /// [`Graph::add_host_with`]). The old closure stays alive until launches that may still call
    /// it are done.
    pub fn set_host_with<V: HostViews>(
        &mut self,
        node: HostNode,
        buffers: V,
        f: impl for<'v> FnMut(V::Views<'v>) + Send + 'static,
    ) -> Result<()> {
        let mut uses = Vec::new();
        let f = with_views(buffers, f, &mut uses);
        self.install_host_call(node, f, uses)
    }

    /// Sets the event an event record node records, for the next launches
    /// (`cuGraphExecEventRecordNodeSetEvent`). The executable keeps it alive; the one it
    /// replaces lives until the launches that may record it are done. An event of another context
    /// than the executable's is refused, naming the node.
    pub fn set_event_record(&mut self, node: EventRecordNode, event: &Event) -> Result<()> {
        self.set_event::<true>(node.id, event)
    }

    /// Sets the event an event wait node waits for, for the next launches
    /// (`cuGraphExecEventWaitNodeSetEvent`); as [`GraphExec::set_event_record`].
    pub fn set_event_wait(&mut self, node: EventWaitNode, event: &Event) -> Result<()> {
        self.set_event::<false>(node.id, event)
    }

    fn set_event<const RECORD: bool>(&mut self, node: NodeId, event: &Event) -> Result<()> {
        let (index, raw_node) = self.typed_node::<EventParams<RECORD>>(node)?;
        event.check_context(self.graph.context().cu_ctx(), || self.graph.name_of(index))?;
        let mut params = EventParams::<RECORD> { event: event.raw() };
        // SAFETY: a live executable; `raw_node` is an event node of the kind `RECORD` says
        // (checked by `typed_node`); the event is kept alive below.
        unsafe { params.update(self.raw, raw_node) }.map_err(|e| self.at_node(e, index))?;
        self.keep_for_node(index, event, |kept: &Event| kept == event, Event::clone);
        Ok(())
    }

    /// Sets the semaphores a semaphore signal node signals and their values, for the next
    /// launches (`cuGraphExecExternalSemaphoresSignalNodeSetParams`). As many semaphores as the
    /// node has: CUDA cannot change the count ("changing `numExtSems` is not supported"), and
    /// `N` is the node's. The executable keeps them imported; the ones they replace stay until
    /// the launches that may signal them are done. Checked as
    /// [`Graph::add_semaphore_signal`](crate::Graph::add_semaphore_signal) checks them.
    pub fn set_semaphore_signal<const N: usize>(
        &mut self,
        node: SemaphoreSignalNode<N>,
        signals: [(&ExternalSemaphore, u64); N],
    ) -> Result<()> {
        self.set_semaphores::<true, N>(node.id, signals)
    }

    /// Sets the semaphores a semaphore wait node waits for and their values, for the next
    /// launches (`cuGraphExecExternalSemaphoresWaitNodeSetParams`); as
    /// [`GraphExec::set_semaphore_signal`].
    pub fn set_semaphore_wait<const N: usize>(
        &mut self,
        node: SemaphoreWaitNode<N>,
        waits: [(&ExternalSemaphore, u64); N],
    ) -> Result<()> {
        self.set_semaphores::<false, N>(node.id, waits)
    }

    fn set_semaphores<const SIGNAL: bool, const N: usize>(
        &mut self,
        node: NodeId,
        ops: [(&ExternalSemaphore, u64); N],
    ) -> Result<()> {
        let (index, raw_node) = self.typed_node::<SemaphoreParams<SIGNAL, N>>(node)?;
        let mut params =
            SemaphoreParams::<SIGNAL, N>::of(&ops, self.ctx, || self.graph.name_of(index))?;
        // SAFETY: a live executable; `raw_node` is a semaphore node of the direction `SIGNAL`
        // says (checked by `typed_node`; the driver refuses another count of semaphores than
        // the node's); they are kept imported below.
        unsafe { params.update(self.raw, raw_node) }.map_err(|e| self.at_node(e, index))?;
        // A frame loop sets new values on the same semaphores: then nothing changes hands.
        let same = |kept: &[ExternalSemaphore; N]| kept.iter().zip(&ops).all(|(k, (s, _))| k == *s);
        self.keep_for_node(index, &ops, same, |ops| ops.map(|(sem, _)| sem.clone()));
        Ok(())
    }

    /// Keeps what node `index` uses now, made by `make` from `now`, unless what it keeps is
    /// `same` already; what it kept before lives until the launches that may use it are done.
    /// (The graph keeps what the node was built with.)
    fn keep_for_node<N: ?Sized, K: Any + Send>(
        &mut self,
        index: usize,
        now: &N,
        same: impl FnOnce(&K) -> bool,
        make: impl FnOnce(&N) -> K,
    ) {
        let slot = self.kept.iter().position(|(i, _)| *i == index);
        let kept = slot.map(|slot| &mut self.kept[slot].1);
        match kept {
            Some(kept) if kept.downcast_ref::<K>().is_some_and(same) => {}
            Some(kept) => {
                let old = std::mem::replace(kept, Box::new(make(now)));
                self.memory.drop_after_launches(old);
            }
            None => self.kept.push((index, Box::new(make(now)))),
        }
    }

    pub(crate) fn install_host_call(
        &mut self,
        node: HostNode,
        f: crate::node::HostFn,
        uses: Vec<Use<'static>>,
    ) -> Result<()> {
        let mut uses: Vec<Use<'a>> = uses;
        let (index, raw_node) = self.typed_node::<HostParams>(node.id)?;
        let name = self.graph.name_of(index);
        check_views_apart(&uses, || name.clone())?;
        let call = HostCall::new(f, name, self.panics.own_slot());
        // `params` points into `call`, which `self.host_calls` keeps until no launch may call it
        // any more.
        let params = HostParams::of(&call);
        self.update_node(index, raw_node, &mut uses, params)?;
        if let Some(slot) = self.host_calls.iter().position(|(i, _)| *i == index) {
            let (_, old) = self.host_calls.swap_remove(slot);
            self.memory.drop_after_launches(Box::new(old));
        }
        self.host_calls.push((index, call));
        Ok(())
    }

    /// The memory child-graph node `node`'s graph uses now, as declared uses: what a
    /// replacement may use at most.
    pub(crate) fn child_uses(&self, node: ChildGraphNode) -> Result<Vec<DeclaredUse>> {
        let (index, _) = self.typed_node::<ChildParams>(node.id)?;
        Ok(self
            .graph
            .node_uses(index)
            .iter()
            .map(|u| (Some((u.space, u.start, u.end)), u.write))
            .collect())
    }

    /// Replaces a child-graph node's contents with `child`'s (`cuGraphExecChildGraphNodeSetParams`);
    /// `child` must have the topology of the embedded graph. Memory the node stops using is
    /// released once the launches that may use it have completed. What
    /// [`Graph::add_child_graph`] refuses to embed is refused here too, naming the node: a graph
    /// of another context, or one with indirect values, device-updatable kernel nodes, memory
    /// nodes or conditional nodes.
    ///
    /// With NCCL collectives (feature `nccl`), `child` must issue exactly the collectives the
    /// node issues now (none, or the same ones on the same communicators and buffers, in the
    /// same order): the ranks' agreement was checked, and the launches ordered, for those when
    /// the graph was instantiated. Another one is refused with [`Error::Invalid`] naming the
    /// node; a collective node (a child-graph node too) cannot be given other work either.
    pub fn set_child_graph<'c: 'a>(
        &mut self,
        node: ChildGraphNode,
        child: &Graph<'c>,
    ) -> Result<()> {
        let (index, raw_node) = self.typed_node::<ChildParams>(node.id)?;
        self.graph
            .check_child(child, &|| self.graph.name_of(index))?;
        #[cfg(feature = "nccl")]
        crate::collective::refuse_other_collectives(
            self.graph.collectives(),
            index,
            child.collectives(),
            || self.graph.name_of(index),
        )?;
        let params = ChildParams { graph: child.raw() };
        self.update_node(index, raw_node, &mut child.all_uses(), params)?;
        self.keep_functions(child);
        // Stop watching what this node's previous child reported to (unless a panic is pending).
        let slot = self.child_panics.iter().position(|(i, _)| *i == index);
        let old = slot
            .map(|s| self.child_panics.swap_remove(s).1)
            .unwrap_or_default();
        self.panics
            .unwatch(|s| old.iter().any(|o| Arc::ptr_eq(o, s)));
        self.panics.watch(child.panics.slots());
        self.child_panics
            .push((index, child.panics.slots().to_vec()));
        Ok(())
    }

    /// Enables or disables a kernel, memcpy or memset node (`cuGraphNodeSetEnabled`). A disabled
    /// node acts as an empty node; parameter updates made meanwhile apply when it is re-enabled.
    ///
    /// Refused, naming the node, when the handle's node is not (or no longer, after a
    /// whole-graph update or a re-instantiation from another graph) a node of the handle's kind,
    /// kernel nodes launching a kernel of the handle's parameter list; for the fetch node of
    /// indirect values, which every launch needs; and, when disabling, for a kernel that waits
    /// for its programmatic dependencies ([`Kernel::waits_for_dependency`]) with a programmatic
    /// or launch-order edge into it: that wait is what orders the nodes after it after the
    /// edge's source, and a disabled node waits for nothing.
    pub fn set_enabled<N: Switchable>(&mut self, node: N, enabled: bool) -> Result<()> {
        let (index, raw_node) = self.switchable(node)?;
        // Whether the kernel the node launches now waits (the executable's, see `contract`).
        let waits = self
            .graph
            .record(index)
            .is_some_and(|r| self.contract(index, r.kernel).waits);
        if !enabled && self.graph.ordered_by_its_wait(index, waits) {
            return Err(self.wait_disabled(index));
        }
        self.set_enabled_at(index, raw_node, enabled)
    }

    /// The error for disabling node `index`, a kernel whose wait for its programmatic
    /// dependencies is what orders the nodes after it after an edge's source.
    #[cold]
    #[inline(never)]
    fn wait_disabled(&self, index: usize) -> Error {
        Error::Invalid {
            node: self.graph.name_of(index),
            reason: "the node's kernel waits for its programmatic dependencies \
                     (`Kernel::waits_for_dependency`), and a programmatic or launch-order edge \
                     into it orders memory only because of that wait: disabled, the node runs as \
                     an empty node, which waits for nothing, and the nodes after it could run \
                     while the edge's source still does (graph allocations freed under it, say): \
                     it cannot be disabled"
                .into(),
        }
    }

    /// Whether a kernel, memcpy or memset node is enabled (`cuGraphNodeGetEnabled`). Refused as
    /// [`GraphExec::set_enabled`] is.
    pub fn is_enabled<N: Switchable>(&self, node: N) -> Result<bool> {
        let (index, raw_node) = self.switchable(node)?;
        // SAFETY: live executable; a switchable node of its graph.
        let enabled = unsafe { result::exec::node_get_enabled(self.raw, raw_node) };
        enabled.map_err(|e| self.at_node(e, index))
    }

    /// The index and driver handle of `node`'s node, checked to be a node of the handle's kind
    /// (a kernel node of its parameter list), and not the fetch node of indirect values.
    fn switchable<N: Switchable>(&self, node: N) -> Result<(usize, sys::CUgraphNode)> {
        refuse_in_host_node("GraphExec::set_enabled / is_enabled")?;
        let id = node.into();
        let (index, record) = self.graph.any_record(id)?;
        let fetch = self.graph.indirect_fetch() == Some(id);
        let kernel = self.contract(index, record.kernel);
        let wrong_kernel = N::param_list().is_some_and(|p| kernel.param_list() != Some(p));
        if record.kind != N::KIND || wrong_kernel || fetch {
            return Err(Error::Invalid {
                node: self.graph.name_of(index),
                reason: format!(
                    "the handle is a `{}`, but the node is {} now (a whole-graph update or a \
                     re-instantiation from another graph changed it): use the handle from the \
                     graph it was updated from",
                    std::any::type_name::<N>(),
                    if fetch {
                        "the fetch node of the indirect values, which every launch needs".into()
                    } else if record.kind != N::KIND {
                        format!("a {} node", record.kind.name())
                    } else {
                        "a kernel node of another parameter list".to_owned()
                    }
                ),
            });
        }
        Ok((index, record.raw))
    }

    /// [`GraphExec::set_enabled`] for any node: the driver decides. Exists so tests can show the
    /// driver refusing what the typed API does not offer.
    ///
    /// # Safety
    /// None beyond the driver's own checks; marked `unsafe` because it bypasses the typed API's
    /// promise that only kernel, memcpy and memset nodes are switched.
    pub unsafe fn set_enabled_unchecked(&mut self, node: NodeId, enabled: bool) -> Result<()> {
        let (index, raw_node) = self.node(node)?;
        self.set_enabled_at(index, raw_node, enabled)
    }

    /// `cuGraphNodeSetEnabled` on node `index` (driver handle `raw_node`) of this executable's
    /// graph; the driver refuses a kind it does not switch.
    fn set_enabled_at(
        &mut self,
        index: usize,
        raw_node: sys::CUgraphNode,
        enabled: bool,
    ) -> Result<()> {
        // SAFETY: live executable; `raw_node` is a node of its graph.
        let set = unsafe { result::exec::node_set_enabled(self.raw, raw_node, enabled) };
        set.map_err(|e| self.at_node(e, index))
    }
}

#[cfg(test)]
mod tests {
    use crate::node::{Memcpy, Memset};
    use crate::{open_device, DeviceBuffer, Error, Event, Graph, HostBuffer};

    /// A graph and its clone share node handles (`try_clone` keeps the family), so a node each
    /// adds after the copy at the same position answers to the other's handle: the clone's host
    /// node's handle names the graph's memcpy node, its memset node's handle an event node. The
    /// single-node updates send a kind's parameters to the node the handle names, so they must
    /// refuse a node of another kind (`cuGraphExec*NodeSetParams` takes a node of its own kind
    /// only). Needs a driver to make the objects (the null driver will do); skipped without one.
    #[test]
    fn a_clones_handle_reaching_a_node_of_another_kind_is_refused() {
        let Ok(ctx) = open_device(0) else {
            eprintln!(
                "skipped a_clones_handle_reaching_a_node_of_another_kind_is_refused: no driver"
            );
            return;
        };
        let stream = ctx.new_stream().unwrap();
        let dev = DeviceBuffer::<u32>::zeros(&stream, 16).unwrap();
        let host = HostBuffer::<u32>::zeroed(&ctx, 16).unwrap();
        let event = Event::new(&ctx).unwrap();

        let mut graph = Graph::new(&ctx).unwrap();
        graph.add_empty(&[]).unwrap();
        let mut clone = graph.try_clone().unwrap();
        // Position 1: a memcpy in the graph, a host node in the clone.
        let copy = graph.add_memcpy(Memcpy::dtoh(&dev, &host), &[]).unwrap();
        let host_node = clone.add_host(|| {}, &[]).unwrap();
        // Position 2: an event record node in the graph, a memset in the clone.
        graph.add_event_record(&event, &[]).unwrap();
        let set = clone.add_memset(Memset::new(&dev, 0u32), &[]).unwrap();
        // Position 3: a memset in the graph, a memcpy in the clone.
        let own_set = graph.add_memset(Memset::new(&dev, 0u32), &[]).unwrap();
        let clone_copy = clone.add_memcpy(Memcpy::dtoh(&dev, &host), &[]).unwrap();
        let mut exec = graph.instantiate().unwrap();

        let refused = |what: &str, r: crate::Result<()>| {
            assert!(
                matches!(&r, Err(Error::Invalid { reason, .. }) if reason.contains("handle")),
                "{what}: {r:?}"
            );
        };
        refused(
            "a host node's handle on a memcpy node",
            exec.set_host_fn(host_node, || {}),
        );
        refused(
            "a memset node's handle on an event record node",
            exec.set_memset_params(set, Memset::new(&dev, 1u32)),
        );
        refused(
            "a memcpy node's handle on a memset node",
            exec.set_memcpy_params(clone_copy, Memcpy::dtoh(&dev, &host)),
        );
        // The graph's own handles still work.
        exec.set_memcpy_params(copy, Memcpy::dtoh(&dev, &host))
            .unwrap();
        exec.set_memset_params(own_set, Memset::new(&dev, 2u32))
            .unwrap();
    }
}
