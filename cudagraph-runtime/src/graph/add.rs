//! Adding nodes: the one path every node kind's adder takes (the generic `cuGraphAddNode`, its
//! checks, the node's record), and the adders of kernel, memcpy, memset, empty, event, semaphore,
//! host and child-graph nodes.

use cudarc::driver::sys;

use super::definition::Graph;
use super::records::{Deps, NodeRecord};
use super::validate::refuse_captured;
use crate::ambient::{in_host_node, refuse_in_host_node};
use crate::error::{Error, Result};
use crate::kernel::{launch_refused, Kernel, KernelArgValues, KernelArgs, LaunchConfig};
use crate::memory::alloc::Space;
use crate::memory::hazard::reaches;
use crate::memory::kept::Kept;
use crate::memory::operand::Use;
use crate::memory::peer;
use crate::node::{
    check_views_apart, with_views, ChildGraphNode, ChildParams, Direction, EmptyNode, EmptyParams,
    Event, EventParams, EventRecordNode, EventWaitNode, ExternalSemaphore, HostCall, HostFn,
    HostNode, HostParams, HostViews, KernelLaunch, KernelNode, KernelParams, Memcpy, MemcpyNode,
    Memset, MemsetNode, MemsetValue, NodeId, NodeKind, NodeParams, SemaphoreParams,
    SemaphoreSignalNode, SemaphoreWaitNode,
};
use crate::user_object::UserObject;

/// How many dependencies a node's raw dependency array holds on the stack (more are rare: a
/// fan-in that wide goes through a `Vec`).
const INLINE_DEPS: usize = 8;

impl<'a> Graph<'a> {
    /// Adds a node of `params`' kind after `deps`, through the generic `cuGraphAddNode`: the one
    /// path every kind's adder takes. Records the node on success, with its uses of memory: the
    /// ones appended to the table from `uses_from` on (the adder appended them there, so that no
    /// node allocates a list of its own). On error they are removed again, and the name given
    /// for the node is forgotten (it was for the node refused, not for the one after it).
    pub(super) fn add_node(
        &mut self,
        params: &mut impl NodeParams,
        deps: &[NodeId],
        uses_from: usize,
    ) -> Result<NodeId> {
        let result = self.add_node_with(params, deps, uses_from);
        if result.is_err() {
            self.refused(uses_from);
        }
        result
    }

    /// Forgets what a refused node left: its uses (from `uses_from` on) and its name.
    #[cold]
    #[inline(never)]
    fn refused(&mut self, uses_from: usize) {
        self.drop_uses_from(uses_from);
        self.next_name = None;
    }

    /// [`Graph::add_node`] but for the clean-up on error.
    ///
    /// Rebuild loops add every node through here, so its hot path is short: a node whose uses
    /// are all ordinary device memory (kept alive by its owner, a borrow or a raw pointer's
    /// promise), in a graph that a capture did not break, needs no check but that of its
    /// dependencies, and one test per use tells so ([`Use::needs_graph_checks`], and memory of
    /// the graph's device, [`Use::on_device_other_than`]). Every other
    /// node goes through [`Graph::add_special_node`], which runs all the checks first.
    #[inline]
    fn add_node_with<P: NodeParams>(
        &mut self,
        params: &mut P,
        deps: &[NodeId],
        uses_from: usize,
    ) -> Result<NodeId> {
        // A host node may not call the driver: its additions take the checked path, which
        // refuses them.
        let ordinal = self.ctx.ordinal();
        let special = in_host_node()
            || self.tables.as_ref().is_some_and(|t| {
                t.broken_by_capture
                    || t.refused_work
                    || (!const { P::KIND.allowed_in_body() } && t.body_of.is_some())
                    || t.uses.get(uses_from..).is_some_and(|new| {
                        new.iter()
                            .any(|u| u.needs_graph_checks() || u.on_device_other_than(ordinal))
                    })
            });
        match special {
            false => self.push_node(params, deps, uses_from, false),
            true => {
                // The checks read the graph, which must first hold its new contents only.
                self.settle_spares()?;
                self.add_special_node(params, deps, uses_from)
            }
        }
    }

    /// [`Graph::add_node_with`] for a node that needs the graph's checks
    /// ([`Graph::check_new_node`]).
    #[cold]
    #[inline(never)]
    fn add_special_node<P: NodeParams>(
        &mut self,
        params: &mut P,
        deps: &[NodeId],
        uses_from: usize,
    ) -> Result<NodeId> {
        let (with_fetch, host_code) = self.check_new_node(P::KIND, uses_from, deps)?;
        let deps = with_fetch.as_deref().unwrap_or(deps);
        self.push_node(params, deps, uses_from, host_code)
    }

    /// Adds the node to the driver's graph after `deps` (checked here to be nodes of this
    /// graph) and records it, with its uses from `uses_from` on (`host_code`: some of them are
    /// in host code): what every node's addition ends with, once the checks its uses need have
    /// passed.
    #[inline(always)]
    fn push_node<P: NodeParams>(
        &mut self,
        params: &mut P,
        deps: &[NodeId],
        uses_from: usize,
        host_code: bool,
    ) -> Result<NodeId> {
        let kind = P::KIND;
        let Ok(index) = u32::try_from(self.nodes.len()) else {
            return Err(self.too_many_nodes(kind));
        };
        if self.has_spares() {
            if let Some(spare) = self.matching_spare(kind, params.kernel().func, index, deps) {
                return self.reuse_spare(params, deps, uses_from, host_code, index, spare);
            }
            // The rest of the rebuild goes the plain way, on a graph of fresh nodes.
            self.settle_spares()?;
        }
        let added = match deps.len() {
            // The raw dependency array: on the stack for the usual handful of dependencies.
            0..=INLINE_DEPS => {
                let mut inline = [std::ptr::null_mut(); INLINE_DEPS];
                for (slot, dep) in inline.iter_mut().zip(deps) {
                    match self.raw_of(*dep) {
                        Some(raw) => *slot = raw,
                        None => return Err(self.foreign_dep(kind, *dep)),
                    }
                }
                // SAFETY: the graph is live; `inline`'s first `deps.len()` entries are its nodes.
                unsafe { params.add_to(self.raw, &inline[..deps.len()]) }
            }
            _ => {
                let spilled = self.raw_deps_spilled(kind, deps)?;
                // SAFETY: the graph is live; `spilled` are its nodes.
                unsafe { params.add_to(self.raw, &spilled) }
            }
        };
        let raw = match added {
            Ok(raw) => raw,
            Err(e) => return Err(e.at_node(|| self.pending_name(kind))),
        };
        Ok(self.record_node(params, deps, uses_from, host_code, index, raw))
    }

    /// [`Graph::push_node`] in a rebuild, for a node that reuses the old node `spare` at its
    /// position (see `graph::rebuild`): the old node takes the new parameters.
    #[inline(never)]
    fn reuse_spare<P: NodeParams>(
        &mut self,
        params: &mut P,
        deps: &[NodeId],
        uses_from: usize,
        host_code: bool,
        index: u32,
        spare: sys::CUgraphNode,
    ) -> Result<NodeId> {
        // SAFETY: `spare` is a live node of the graph, of `P`'s kind (`matching_spare`), and a
        // definition graph is never launched.
        if let Err(e) = unsafe { params.set_on(spare) } {
            return Err(e.at_node(|| self.pending_name(P::KIND)));
        }
        self.spare_reused(index);
        Ok(self.record_node(params, deps, uses_from, host_code, index, spare))
    }

    /// Records node `index`, the driver's `raw`, made by `params` after `deps`, with its uses
    /// from `uses_from` on: how [`Graph::push_node`] ends.
    #[inline(always)]
    fn record_node<P: NodeParams>(
        &mut self,
        params: &P,
        deps: &[NodeId],
        uses_from: usize,
        host_code: bool,
        index: u32,
        raw: sys::CUgraphNode,
    ) -> NodeId {
        let kind = P::KIND;
        let deps = match deps {
            [] => Deps::None,
            [dep] => Deps::One(dep.index),
            _ => self.list_deps(deps),
        };
        let uses = match &mut self.tables {
            Some(tables) if tables.uses.len() > uses_from => {
                tables.host_code |= host_code;
                (uses_from as u32, (tables.uses.len() - uses_from) as u32)
            }
            _ => (0, 0),
        };
        let name = self.next_name.take();
        self.nodes.push(NodeRecord {
            raw,
            kind,
            name,
            deps,
            kernel: params.kernel(),
            uses,
        });
        self.id_at(index)
    }

    /// The driver handle of `dep`, if it is a node of this graph.
    #[inline(always)]
    fn raw_of(&self, dep: NodeId) -> Option<sys::CUgraphNode> {
        self.index_of(dep).map(|index| self.nodes[index].raw)
    }

    /// The driver handles of `deps`, more than fit on the stack, for a node of `kind`.
    #[cold]
    #[inline(never)]
    fn raw_deps_spilled(&self, kind: NodeKind, deps: &[NodeId]) -> Result<Vec<sys::CUgraphNode>> {
        deps.iter()
            .map(|&dep| self.raw_of(dep).ok_or_else(|| self.foreign_dep(kind, dep)))
            .collect()
    }

    /// `deps` (more than one) in the shared edge list, for the new node's record.
    #[inline(never)]
    fn list_deps(&mut self, deps: &[NodeId]) -> Deps {
        let edges = &mut self.tables_mut().edges;
        let start = edges.len() as u32;
        edges.extend(deps.iter().map(|d| d.index));
        Deps::Listed {
            start,
            end: edges.len() as u32,
        }
    }

    /// The checks a node of `kind` with uses from `uses_from` on, after `deps`, needs beyond
    /// its dependencies' (see [`Graph::add_node_with`]), in this order: the graph is usable, the
    /// kind may be in a conditional body, the dependencies are nodes of this graph, the uses of
    /// graph allocations, conditional handles, indirect values and capture memory are allowed
    /// where the node is, the graph's device can reach the memory of other devices it uses, and
    /// no host code could race with it over host memory.
    ///
    /// Returns the dependencies with the fetch node added when the node reads indirect values
    /// that `deps` does not order after it, and whether the node touches host memory in host
    /// code.
    #[cold]
    #[inline(never)]
    fn check_new_node(
        &self,
        kind: NodeKind,
        uses_from: usize,
        deps: &[NodeId],
    ) -> Result<(Option<Vec<NodeId>>, bool)> {
        let name = || self.pending_name(kind);
        refuse_in_host_node("Graph::add_* (adding a node)")?;
        self.check_not_broken()?;
        if self.is_body() && !kind.allowed_in_body() {
            return Err(Error::Invalid {
                node: name(),
                reason: format!(
                    "CUDA allows only kernel, empty, child-graph, memset, memcpy and conditional \
                     nodes in a conditional body, not {} nodes: put it before or after the \
                     conditional node",
                    kind.name()
                ),
            });
        }
        // A node reading indirect values runs after the fetch node that fills them: the edge is
        // added when `deps` does not already order it so.
        let with_fetch = self
            .missing_fetch_dep(uses_from, deps)
            .map(|fetch| [deps, &[fetch]].concat());
        let deps = with_fetch.as_deref().unwrap_or(deps);
        if let Some(&dep) = deps.iter().find(|&&dep| self.raw_of(dep).is_none()) {
            return Err(self.foreign_dep(kind, dep));
        }
        let uses = self
            .tables
            .as_ref()
            .map_or(&[][..], |t| t.uses.get(uses_from..).unwrap_or_default());
        let (touches_host, host_code, graph_alloc, launches) = uses.iter().fold(
            (false, false, false, false),
            |(host, code, alloc, launch), u| {
                (
                    host || u.space == Space::Host,
                    code || u.host_code,
                    alloc || u.held_by_graph(),
                    launch || u.launches(),
                )
            },
        );
        if graph_alloc {
            let capture = self.tables.as_ref().and_then(|t| t.capture);
            refuse_captured(uses, capture, &name)?;
            self.check_handles(uses, &name)?;
            self.check_indirect_uses(uses, &|b| {
                deps.iter()
                    .any(|d| reaches(b, d.index as usize, |n| self.deps_of(n)))
            })
            .map_err(|reason| Error::Invalid {
                node: name(),
                reason,
            })?;
            self.check_alloc_uses(uses_from, deps, &name)?;
        }
        self.check_reach(kind, uses, &name)?;
        // (A device graph the node's kernel may launch uses no host code: only host code
        // already in the graph can race with it.)
        let graph_host_code = self.tables.as_ref().is_some_and(|t| t.host_code);
        let may_conflict =
            (touches_host && (host_code || graph_host_code)) || (launches && graph_host_code);
        if let Some((other, why)) = may_conflict
            .then(|| self.host_code_conflict(uses_from, deps))
            .flatten()
        {
            return Err(Error::Hazard {
                first: self.name_of(other),
                second: name(),
                reason: why.reason(true).unwrap_or_else(|| {
                    "both use the same host memory, one writes it, and host code (a host node's \
                     buffers) is involved; add an edge between them"
                        .into()
                }),
            });
        }
        Ok((with_fetch, host_code))
    }

    /// Grants this graph's device access to the memory of other devices that a new node of
    /// `kind` (or a node updated to `uses`) uses, or refuses the node, named by `name`, when the
    /// devices cannot reach each other's memory (see `memory::peer`): without the access, a
    /// kernel's or memset's first access faults in the launch. A copy's memory is judged when its
    /// parameters are made (it asks the driver about raw pointers too), and the nodes that embed
    /// other nodes (child graphs, conditional nodes, captured work) hold memory those nodes were
    /// judged for, on their own devices.
    pub(crate) fn check_reach(
        &self,
        kind: NodeKind,
        uses: &[Use<'_>],
        name: &dyn Fn() -> String,
    ) -> Result<()> {
        match kind {
            NodeKind::Kernel | NodeKind::Memset => {
                let what = || format!("memory the {} node uses", kind.name());
                peer::check_uses(&self.ctx, uses, &what, name)
            }
            _ => Ok(()),
        }
    }

    /// Refuses `child` as the contents of a child-graph node (`node` names it), or as the graph
    /// an executable of this one is updated from, when it is a graph of another context: its
    /// nodes would run on its own device, with memory and device graphs judged for that device,
    /// which the checks of this graph's executables (a node's update moving to memory the
    /// child's nodes use, say) take to be this graph's.
    pub(crate) fn refuse_other_context(
        &self,
        child: &Graph<'_>,
        node: &dyn Fn() -> String,
    ) -> Result<()> {
        if child.ctx.cu_ctx() == self.ctx.cu_ctx() {
            return Ok(());
        }
        Err(Error::Invalid {
            node: node(),
            reason: format!(
                "the graph given is a graph of device {} and this one of device {}: a child \
                 graph runs on its parent's device, and an executable takes updates from graphs \
                 of its own; build it on this graph's context (a copy between the devices is a \
                 memcpy node)",
                child.ctx.ordinal(),
                self.ctx.ordinal()
            ),
        })
    }

    /// The error for a dependency `dep` that is not a node of this graph.
    #[cold]
    #[inline(never)]
    fn foreign_dep(&self, kind: NodeKind, dep: NodeId) -> Error {
        Error::Invalid {
            node: self.pending_name(kind),
            reason: format!("dependency node#{} is not a node of this graph", dep.index),
        }
    }

    /// The error for a node beyond the 2^32 a graph holds.
    #[cold]
    #[inline(never)]
    fn too_many_nodes(&self, kind: NodeKind) -> Error {
        Error::Invalid {
            node: format!("{}#{}", kind.name(), self.nodes.len()),
            reason: "a graph holds at most 2^32 nodes".into(),
        }
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
    ///
    /// Device memory of another device than the graph's is allowed (a copy between devices,
    /// which runs on the graph's device): adding the node gives the graph's device access to
    /// that memory (its memory pool's access list, or the two contexts' peer access), for the
    /// whole pool or context from then on. Refused, naming the node, when the two devices cannot
    /// access each other's memory (`cuDeviceCanAccessPeer`).
    pub fn add_memcpy<D: Direction>(
        &mut self,
        copy: Memcpy<'a, D>,
        deps: &[NodeId],
    ) -> Result<MemcpyNode<D>> {
        let parts = copy.into_parts(&self.ctx, || self.pending_name(NodeKind::Memcpy));
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

    /// Adds an event record node, after `deps`: each launch records `event` when it reaches the
    /// node (`cuGraphAddEventRecordNode`), so a stream or another graph that waits for the event
    /// waits for the nodes before it. The graph keeps the event alive. An event of another
    /// context than the graph's is refused, naming the node (CUDA records an event only on its
    /// own context's streams, and sets an executable's event nodes only to its own context's).
    pub fn add_event_record(&mut self, event: &Event, deps: &[NodeId]) -> Result<EventRecordNode> {
        let id = self.add_event::<true>(event, deps)?;
        Ok(EventRecordNode::from_id(id))
    }

    /// Adds an event wait node, after `deps`: the nodes after it wait for the last record of
    /// `event` made before the launch reaches the node (`cuGraphAddEventWaitNode`), on any
    /// stream or in any graph. The graph keeps the event alive. The event is of the graph's
    /// context, as for [`Graph::add_event_record`].
    pub fn add_event_wait(&mut self, event: &Event, deps: &[NodeId]) -> Result<EventWaitNode> {
        let id = self.add_event::<false>(event, deps)?;
        Ok(EventWaitNode::from_id(id))
    }

    fn add_event<const RECORD: bool>(&mut self, event: &Event, deps: &[NodeId]) -> Result<NodeId> {
        let kind = EventParams::<RECORD>::KIND;
        let ours = event.check_context(self.ctx.cu_ctx(), || self.pending_name(kind));
        self.or_forget_name(ours)?;
        // The node holds the event as it holds memory (see `memory::kept`): a node whose event
        // the graph did not keep would record or wait on a destroyed event once the caller
        // drops it. (Dropped once the graph and the launches that may run the node are done.)
        let from = self.append_uses([event.kept_use()]);
        let mut params = EventParams::<RECORD> { event: event.raw() };
        self.add_node(&mut params, deps, from)
    }

    /// Adds an external semaphore signal node, after `deps`: when the nodes before it are done,
    /// each launch signals the `N` semaphores of `signals` (`cuGraphAddExternalSemaphoresSignalNode`),
    /// setting a timeline semaphore to its value (a binary semaphore takes `0`). Work of another
    /// API (Vulkan) that waits for those values then sees everything the nodes before this one
    /// did. The graph keeps the semaphores imported.
    ///
    /// `N` is part of the node's type: CUDA cannot change how many semaphores a node signals
    /// (see [`GraphExec::set_semaphore_signal`](crate::GraphExec::set_semaphore_signal)). CUDA
    /// refuses semaphore nodes in conditional bodies and in graphs instantiated for device
    /// launch, and cannot enable or disable them.
    pub fn add_semaphore_signal<const N: usize>(
        &mut self,
        signals: [(&ExternalSemaphore, u64); N],
        deps: &[NodeId],
    ) -> Result<SemaphoreSignalNode<N>> {
        let id = self.add_semaphores::<true, N>(signals, deps)?;
        Ok(SemaphoreSignalNode::from_id(id))
    }

    /// Adds an external semaphore wait node, after `deps`: the nodes after it wait until each of
    /// the `N` semaphores of `waits` is signalled (`cuGraphAddExternalSemaphoresWaitNode`): a
    /// timeline semaphore until it reaches its value, a binary one (value `0`) until it is
    /// signalled, which also resets it. They see what the other API's work before that signal
    /// wrote. The graph keeps the semaphores imported; as [`Graph::add_semaphore_signal`] for
    /// the rest.
    pub fn add_semaphore_wait<const N: usize>(
        &mut self,
        waits: [(&ExternalSemaphore, u64); N],
        deps: &[NodeId],
    ) -> Result<SemaphoreWaitNode<N>> {
        let id = self.add_semaphores::<false, N>(waits, deps)?;
        Ok(SemaphoreWaitNode::from_id(id))
    }

    fn add_semaphores<const SIGNAL: bool, const N: usize>(
        &mut self,
        ops: [(&ExternalSemaphore, u64); N],
        deps: &[NodeId],
    ) -> Result<NodeId> {
        let kind = <SemaphoreParams<SIGNAL, N> as NodeParams>::KIND;
        let params =
            SemaphoreParams::<SIGNAL, N>::of(&ops, self.ctx.cu_ctx(), || self.pending_name(kind));
        let mut params = self.or_forget_name(params)?;
        // Held by the node, as an event node's event is (see `add_event`).
        let kept = Kept::new(ops.map(|(sem, _)| sem.clone()));
        let from = self.append_uses([Kept::use_of(kept)]);
        self.add_node(&mut params, deps, from)
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
        self.push_host(f, uses, deps)
    }

    /// Adds a host node running `f`, which gets the host buffers `uses` (see
    /// [`Graph::add_host_with`]): also the way `cuda_graph!`'s generated code adds one, whose
    /// buffers are params that may be one buffer however they are named.
    pub(crate) fn push_host(
        &mut self,
        f: HostFn,
        uses: Vec<Use<'a>>,
        deps: &[NodeId],
    ) -> Result<HostNode> {
        // Checked here, where every host node is added: two buffers that overlap, one written,
        // would give the closure a `&mut` slice aliasing another.
        let apart = check_views_apart(&uses, || self.pending_name(NodeKind::Host));
        self.or_forget_name(apart)?;
        let node_name = self.pending_name(NodeKind::Host);
        let call = HostCall::new(f, node_name, self.panics.own_slot());
        let mut params = HostParams::of(&call);
        // The boxed call's address is stable; the user object now owns it for the graph.
        let kept = UserObject::new(call).and_then(|object| object.move_into(self.raw));
        self.or_forget_name(kept)?;
        // The driver's graph holds the closure from here, even if the node is refused below: a
        // rebuild must not keep that graph (see `graph::rebuild`), as it keeps none that holds
        // values handed over with `Graph::retain`.
        self.tables_mut().retained = true;
        let from = self.append_uses(uses);
        let id = self.add_node(&mut params, deps, from)?;
        Ok(HostNode::from_id(id))
    }

    /// Whether `child` can be embedded as a child-graph node of this graph (named by `name`),
    /// added or set by an update of an executable of it: the error, naming the node, if not. A
    /// child runs on its parent's device; and CUDA embeds a graph by cloning it, which it
    /// cannot do for device-updatable kernel nodes or conditional nodes, and for memory nodes
    /// only by moving the graph (whose handles the crate would then leave dangling).
    pub(crate) fn check_child(&self, child: &Graph<'_>, name: &dyn Fn() -> String) -> Result<()> {
        child.check_not_broken()?;
        self.refuse_other_context(child, name)?;
        let reason = if child.has_indirect() {
            "the child graph has indirect values (or reads another graph's): its fetch node \
             counts the launches of one executable, and its values are set through that \
             executable: put its nodes in this graph instead"
        } else if child.has_device_updatable_nodes() {
            "the child graph has device-updatable kernel nodes, which CUDA does not copy, and a \
             child graph is embedded as a copy: put its nodes in this graph instead"
        } else if child.has_memory_nodes() {
            "the child graph has memory nodes (alloc or free), and CUDA embeds such a graph only \
             by moving it, which would leave its handles dangling: put the allocations in this \
             graph instead"
        } else if child.has_conditional_nodes() {
            "the child graph has conditional nodes, and CUDA embeds a graph by cloning it, which \
             it cannot do for conditional nodes (CUDA_ERROR_NOT_SUPPORTED): put the conditional \
             nodes in this graph instead"
        } else {
            return Ok(());
        };
        Err(Error::Invalid {
            node: name(),
            reason: reason.into(),
        })
    }

    /// Adds `child` as a child-graph node, after `deps`. The driver embeds a clone of `child`;
    /// `child` itself stays yours. The node uses the memory `child`'s nodes use. A child graph
    /// runs on its parent's device: one of another context is refused, naming the node, as is
    /// one CUDA cannot clone or the crate cannot track once cloned (indirect values,
    /// device-updatable kernel nodes, memory nodes, conditional nodes).
    pub fn add_child_graph<'c: 'a>(
        &mut self,
        child: &Graph<'c>,
        deps: &[NodeId],
    ) -> Result<ChildGraphNode> {
        // SAFETY: `child`'s own graph.
        unsafe { self.embed_child(child, child.raw, None, deps) }
    }

    /// [`Graph::add_child_graph`] of `child`, embedding `raw` in its place (a copy of its nodes,
    /// see `capture::bare`), with `kept` among the node's uses (see `memory::kept`).
    ///
    /// # Safety
    /// `raw` is a live graph of `child`'s context that does the work of `child`'s nodes on the
    /// memory they use (their uses are the node's): `child`'s own graph, or a faithful copy of it.
    pub(crate) unsafe fn embed_child<'c: 'a>(
        &mut self,
        child: &Graph<'c>,
        raw: sys::CUgraph,
        kept: Option<Use<'a>>,
        deps: &[NodeId],
    ) -> Result<ChildGraphNode> {
        let embeddable = self.check_child(child, &|| self.pending_name(NodeKind::ChildGraph));
        self.or_forget_name(embeddable)?;
        #[cfg(feature = "nccl")]
        if self.is_body() && child.collectives().is_some() {
            return self.or_forget_name(Err(Error::Invalid {
                node: self.pending_name(NodeKind::ChildGraph),
                reason: format!(
                    "the child graph holds collectives: {}",
                    crate::collective::NOT_IN_BODY
                ),
            }));
        }
        self.check_child_in_body(child)?;
        // A child holding collectives comes after the collectives on its communicators.
        #[cfg(feature = "nccl")]
        let ordered = match child.collectives() {
            Some(theirs) => self.after_collectives(&theirs.comm_ids(), deps),
            None => deps.to_vec(),
        };
        #[cfg(feature = "nccl")]
        let deps = &ordered[..];
        let uses = child.tables.iter().flat_map(|t| t.uses.iter().cloned());
        let from = self.append_uses(uses.chain(kept));
        let mut params = ChildParams { graph: raw };
        let id = self.add_node(&mut params, deps, from)?;
        self.adopt_resources_of(child);
        #[cfg(feature = "nccl")]
        if let Some(theirs) = child.collectives() {
            let theirs = theirs.clone();
            self.collectives_mut().adopt(&theirs, id.index());
        }
        Ok(ChildGraphNode::from_id(id))
    }
}
