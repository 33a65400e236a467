//! Adding nodes: the one path every node kind's adder takes (the generic `cuGraphAddNode`, its
//! checks, the node's record), and the adders of kernel, memcpy, memset, empty, event, semaphore,
//! host and child-graph nodes.

use std::borrow::Cow;

use cudarc::driver::sys;

use super::definition::Graph;
use super::records::{Deps, NodeRecord};
use super::validate::refuse_captured;
use crate::error::{Error, Result};
use crate::kernel::{launch_refused, Kernel, KernelArgValues, KernelArgs, LaunchConfig};
use crate::memory::alloc::Space;
use crate::memory::hazard::reaches;
use crate::memory::operand::{Hold, Use};
use crate::node::{
    check_views_apart, with_views, ChildGraphNode, ChildParams, Direction, EmptyNode, EmptyParams,
    Event, EventParams, EventRecordNode, EventWaitNode, ExternalSemaphore, HostCall, HostFn,
    HostNode, HostParams, HostViews, KernelLaunch, KernelNode, KernelParams, Memcpy, MemcpyNode,
    Memset, MemsetNode, MemsetValue, NodeId, NodeKind, NodeParams, SemaphoreParams,
    SemaphoreSignalNode, SemaphoreWaitNode,
};
use crate::user_object::UserObject;

impl<'a> Graph<'a> {
    /// Adds a node of `params`' kind after `deps`, through the generic `cuGraphAddNode`: the one
    /// path every kind's adder takes. Records the node on success, with its uses of memory: the
    /// ones appended to the table from `uses_from` on (the adder appended them there, so that no
    /// node allocates a list of its own). On error they are removed again.
    pub(super) fn add_node(
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
        let id = self.add_node(&mut params, deps, self.uses_len())?;
        // Released on this crate's thread once the graph and its launches are done with them.
        self.retain(ops.map(|(sem, _)| sem.clone()))?;
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
        if let Err(e) = child.refuse_device_updatable("add_child_graph") {
            return self.or_forget_name(Err(e));
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
        let from = self.append_uses(child.tables.iter().flat_map(|t| t.uses.iter().cloned()));
        let mut params = ChildParams { graph: child.raw };
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
