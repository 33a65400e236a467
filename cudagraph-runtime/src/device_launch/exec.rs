//! The device-launchable executable ([`DeviceGraphExec`]).

use std::sync::{Arc, Mutex};

use cudarc::driver::CudaStream;

use super::anchor::DeviceAnchor;
use super::footprint::Footprint;
use super::handle::{DeviceGraphHandle, SharedDeviceGraph};
use crate::error::{Error, Result};
use crate::exec::GraphExec;
use crate::graph::Graph;
use crate::kernel::{Kernel, KernelArgValues, KernelArgs, LaunchConfig};
use crate::memory::alloc::{AccessScope, AllocState, Dependent};
use crate::node::NodeKind;
use crate::node::{
    ChildGraphNode, Direction, KernelNode, Memcpy, MemcpyNode, Memset, MemsetNode, MemsetValue,
    Switchable,
};

/// An executable instantiated for device launch (`CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH`)
/// and uploaded: kernels launch it through a [`DeviceGraphHandle`] ([`DeviceGraphExec::handle`]).
///
/// The host may launch it too ([`DeviceGraphExec::launch`]) and update it
/// ([`DeviceGraphExec::update`], re-uploaded for you). Dropping it while graphs that hold its
/// handle exist, or their launches run, is fine: it is destroyed after them. See the module docs
/// of [`crate::device_launch`].
pub struct DeviceGraphExec {
    /// `Some` until the drop parks it in the anchor.
    exec: Option<GraphExec<'static>>,
    anchor: Arc<DeviceAnchor>,
    /// An update changed the executable but could not be uploaded (see
    /// [`DeviceGraphExec::update`]): device launches use the version uploaded before, and a host
    /// launch (which would upload the new one) is refused until an update succeeds.
    upload_pending: bool,
}

impl std::fmt::Debug for DeviceGraphExec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DeviceGraphExec")
            .field("exec", &self.exec)
            .finish()
    }
}

/// The node kinds CUDA allows in a device graph (the programming guide's "Device Graph
/// Requirements").
fn allowed_in_device_graph(kind: NodeKind) -> bool {
    matches!(
        kind,
        NodeKind::Kernel
            | NodeKind::Memcpy
            | NodeKind::Memset
            | NodeKind::Empty
            | NodeKind::ChildGraph
    )
}

impl Graph<'static> {
    /// Instantiates the graph for device launch (`CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH`) and
    /// uploads it on `upload` (a stream of the graph's context), so that kernels can launch it
    /// (see [`crate::device_launch`]).
    ///
    /// Refused with [`Error::Invalid`] naming the node for a node CUDA forbids in a device graph
    /// (host, event record or wait, memory alloc or free, conditional, or one this crate does not
    /// know in a captured graph), for a graph with indirect values, for a graph with NCCL
    /// collective nodes (feature `nccl`: launches using a communicator are ordered by the host),
    /// for an upload stream of another context, and for the per-thread default stream as the
    /// upload stream (each update uploads there again, from whichever thread makes it). The
    /// driver refuses what is left (see the module docs).
    pub fn instantiate_for_device_launch(
        self,
        upload: &Arc<CudaStream>,
    ) -> Result<DeviceGraphExec> {
        if let Some(index) = self
            .all_records()
            .position(|r| !allowed_in_device_graph(r.kind))
        {
            let kind = self.all_records().nth(index).map(|r| r.kind.name());
            return Err(Error::Invalid {
                node: self.name_of(index),
                reason: format!(
                    "a {} node cannot be in a graph launched from the device: CUDA allows only \
                     kernel, memcpy, memset, empty and child-graph nodes there \
                     (https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#device-graph-requirements)",
                    kind.unwrap_or("other")
                ),
            });
        }
        #[cfg(feature = "nccl")]
        if let Some(node) = self.collectives().map(|t| t.first_node()) {
            return Err(Error::Invalid {
                node: self.name_of(node),
                reason: crate::collective::NOT_DEVICE_LAUNCHED.into(),
            });
        }
        if crate::memory::fence::is_per_thread(upload) {
            return Err(crate::memory::fence::per_thread_refused(
                "instantiate_for_device_launch",
            ));
        }
        if upload.context().cu_ctx() != self.context().cu_ctx() {
            return Err(Error::Invalid {
                node: "instantiate_for_device_launch".into(),
                reason: "the upload stream belongs to another context than the graph: a device \
                         graph lives on one device"
                    .into(),
            });
        }
        let mut exec = GraphExec::instantiate_for_device(self, upload)?;
        exec.device_launch = true;
        let footprint = Footprint::of(exec.uses());
        let anchor = Arc::new(DeviceAnchor {
            state: AllocState::default(),
            home: upload.clone(),
            raw: exec.raw() as u64,
            parked: Mutex::new(None),
            footprint: Mutex::new(Arc::new(footprint)),
        });
        // The executables that hold the anchor use this memory through it (no holder yet).
        anchor.state.set_dependents(exec.memory_dependents())?;
        Ok(DeviceGraphExec {
            exec: Some(exec),
            anchor,
            upload_pending: false,
        })
    }
}

impl DeviceGraphExec {
    fn inner(&self) -> &GraphExec<'static> {
        self.exec.as_ref().expect("present until dropped")
    }

    fn inner_mut(&mut self) -> &mut GraphExec<'static> {
        self.exec.as_mut().expect("present until dropped")
    }

    /// The handle kernels launch it with: pass it for a kernel parameter of type
    /// [`DeviceGraph`](super::DeviceGraph). A graph given the handle keeps this executable alive
    /// until its own last launch has completed.
    pub fn handle(&self) -> DeviceGraphHandle<'_> {
        DeviceGraphHandle::new(&self.anchor)
    }

    /// An owned handle ([`SharedDeviceGraph`]), for a `cuda_graph!` param: it keeps the
    /// executable alive while it lives.
    pub fn shared_handle(&self) -> SharedDeviceGraph {
        SharedDeviceGraph::new(&self.anchor)
    }

    /// The executable, for what only reads it (its graph, its raw handle, its node handles'
    /// queries). Its own `launch` and `upload` refuse: use [`DeviceGraphExec::launch`].
    pub fn exec(&self) -> &GraphExec<'static> {
        self.inner()
    }

    /// Launches it from the host into `stream` (`cuGraphLaunch`), after every launch so far of
    /// the executables that may launch it from the device (their kernels hold its handle), and
    /// before their next launches: CUDA leaves a host launch undefined while a device launch of
    /// the same graph may run. Refused with [`Error::BufferInUse`] while another thread launches
    /// it or updates it.
    pub fn launch(&mut self, stream: &Arc<CudaStream>) -> Result<()> {
        if self.upload_pending {
            return Err(Error::Invalid {
                node: "DeviceGraphExec::launch".into(),
                reason: "the last update could not be uploaded (see the error it returned): \
                         update it again before launching it from the host"
                    .into(),
            });
        }
        let anchor = self.anchor.clone();
        let exec = self.inner_mut();
        exclusive(&anchor, stream, Wait::OnStream, || {
            exec.launch_device_exec(stream)
        })
    }

    /// Updates the executable with `f`, through [`DeviceExecUpdates`] (single-node updates,
    /// enabled states, whole-graph updates), then uploads it again on its upload stream, as CUDA
    /// requires before the next device launch: ordered after the launches of the executables
    /// that may launch it from the device, and before their next ones. The upload is made also
    /// when `f` fails (it may have applied some updates).
    ///
    /// Blocks until the launches of those executables queued so far have completed, before `f`
    /// runs: CUDA leaves a device launch of a graph undefined while an update of it is being
    /// applied ([CUDA Programming Guide, device graph
    /// update](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#device-graph-update)),
    /// and any of those launches may launch this one until it completes. (So an update made
    /// while such a launch waits for something the host does after the update never returns.)
    ///
    /// While executables that may launch it from the device exist, `f` may change the memory
    /// its launches use only within what they used (the same memory, part of it, or a read of
    /// memory they wrote): the race checks of the graphs declared with `cuda_graph!` that may
    /// launch it judged that memory against their nodes, and a graph's device-side launches run
    /// beside its nodes. Wider memory is refused ([`Error::BufferInUse`], nothing uploaded, as
    /// below); a graph built, not instantiated yet, checks again when instantiated.
    ///
    /// The executables that may launch it from the device use its memory through it: when `f`
    /// changes that memory, they are registered with the new memory before the upload (the
    /// memory model, as for their own memory; host memory one of them runs host code on, which
    /// the new version would write, or read where that host code writes, is refused there as
    /// between any two executables). An update that gives a kernel of the executable its own
    /// handle (or that of one that launches it) is refused by `f`'s update
    /// ([`Error::BufferInUse`]: the executable is being updated); a graph launches itself with
    /// `cudaGetCurrentGraphExec()`. When the registration is refused ([`Error::BufferInUse`]: a
    /// guard is alive on the new memory, or the host code above), nothing is uploaded and the
    /// error returned: device launches go on with the version uploaded before, and host launches
    /// are refused until an update succeeds (as they are after a panic in `f`).
    pub fn update<R>(
        &mut self,
        f: impl FnOnce(&mut DeviceExecUpdates<'_>) -> Result<R>,
    ) -> Result<R> {
        let anchor = self.anchor.clone();
        let home = anchor.home.clone();
        let exec = self.exec.as_mut().expect("present until dropped");
        // Set until the new version is uploaded: a panic in `f` leaves the executable changed
        // and the device with the version before, which a host launch (it uploads) must not
        // replace behind the memory model's back.
        let pending_before = std::mem::replace(&mut self.upload_pending, true);
        let mut outcome = None;
        let uploaded = exclusive(&anchor, &home, Wait::OnHost, || {
            outcome = Some(f(&mut DeviceExecUpdates { exec: &mut *exec }));
            let footprint = Footprint::of(exec.uses());
            if anchor.state.has_holders() && !anchor.footprint().covers(&footprint) {
                return Err(widened(&anchor));
            }
            // Until the upload is made, device launches run the version uploaded before, with
            // its memory: the executables that may launch it hold that memory and the new one
            // (an upload that fails leaves them so: the old version is still the device's).
            let now = exec.memory_dependents();
            anchor
                .state
                .set_dependents(with_earlier(anchor.state.dependents(), &now))?;
            exec.upload_device_exec(&home)?;
            anchor.set_footprint(Arc::new(footprint));
            // Uploaded: device launches use the new memory only. (A refusal here, a guard taken
            // meanwhile on that memory, leaves the old memory held too, until the next update or
            // until the launchers go: only longer than needed.)
            let _ = anchor.state.set_dependents(now);
            Ok(())
        });
        self.upload_pending = match outcome {
            // `f` ran: the executable changed, uploaded or not.
            Some(_) => uploaded.is_err(),
            None => pending_before,
        };
        uploaded?;
        outcome.expect("set by the closure")
    }

    /// The stream it is uploaded on.
    pub fn upload_stream(&self) -> &Arc<CudaStream> {
        &self.anchor.home
    }
}

/// The updates [`DeviceGraphExec::update`] makes: [`GraphExec`]'s, but no access that could
/// replace the executable itself (kernels hold its handle).
pub struct DeviceExecUpdates<'x> {
    exec: &'x mut GraphExec<'static>,
}

impl std::fmt::Debug for DeviceExecUpdates<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("DeviceExecUpdates")
            .field(&self.exec)
            .finish()
    }
}

impl DeviceExecUpdates<'_> {
    /// The executable, to read.
    pub fn exec(&self) -> &GraphExec<'static> {
        self.exec
    }

    /// [`GraphExec::set_kernel_params`].
    pub fn set_kernel_params<A: KernelArgs>(
        &mut self,
        node: KernelNode<A>,
        config: LaunchConfig,
        args: impl KernelArgValues<'static, A>,
    ) -> Result<()> {
        self.exec.set_kernel_params(node, config, args)
    }

    /// [`GraphExec::set_kernel`].
    pub fn set_kernel<A: KernelArgs>(
        &mut self,
        node: KernelNode<A>,
        kernel: &Kernel<A>,
        config: LaunchConfig,
        args: impl KernelArgValues<'static, A>,
    ) -> Result<()> {
        self.exec.set_kernel(node, kernel, config, args)
    }

    /// [`GraphExec::set_memcpy_params`].
    pub fn set_memcpy_params<D: Direction>(
        &mut self,
        node: MemcpyNode<D>,
        copy: Memcpy<'static, D>,
    ) -> Result<()> {
        self.exec.set_memcpy_params(node, copy)
    }

    /// [`GraphExec::set_memset_params`].
    pub fn set_memset_params<V: MemsetValue>(
        &mut self,
        node: MemsetNode<V>,
        set: Memset<'static, V>,
    ) -> Result<()> {
        self.exec.set_memset_params(node, set)
    }

    /// [`GraphExec::set_child_graph`].
    pub fn set_child_graph(&mut self, node: ChildGraphNode, child: &Graph<'static>) -> Result<()> {
        self.exec.set_child_graph(node, child)
    }

    /// [`GraphExec::set_enabled`].
    pub fn set_enabled(&mut self, node: impl Switchable, enabled: bool) -> Result<()> {
        self.exec.set_enabled(node, enabled)
    }

    /// [`GraphExec::update`] (a whole-graph update).
    pub fn update(&mut self, graph: &Graph<'static>) -> Result<()> {
        self.exec.update(graph)
    }
}

/// How [`exclusive`] waits for the launches so far of the executables that may launch the
/// anchor's executable from the device.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Wait {
    /// `stream` waits for them: what a launch of the executable needs.
    OnStream,
    /// The host waits for them before `work` runs: what an update needs, since its host calls
    /// change the executable at once.
    OnHost,
}

/// Runs `work` (which enqueues on `stream`) with the executables that may launch the anchor's
/// executable from the device kept out: `stream` (or the host, as `wait` says) waits for their
/// launches so far, and their next launches wait for what `work` enqueued.
fn exclusive(
    anchor: &DeviceAnchor,
    stream: &Arc<CudaStream>,
    wait: Wait,
    work: impl FnOnce() -> Result<()>,
) -> Result<()> {
    // Ordering calls the driver, which a host node may not.
    crate::ambient::refuse_in_host_node("DeviceGraphExec::launch/update")?;
    let scope: AccessScope = anchor
        .state
        .begin_access()
        .map_err(|e| describe_busy(e, anchor))?;
    // Ended on the way out, after a panic in `work` too: an access left open would keep those
    // executables' launches out for good.
    let access = Access {
        anchor,
        stream,
        scope: Some(scope),
    };
    for fence in &access.scope.as_ref().expect("set above").wait_for {
        match wait {
            Wait::OnStream => fence.done().order_before(stream)?,
            Wait::OnHost => fence.done().wait_host()?,
        }
    }
    work()
}

/// The memory of `earlier` and of `now`, each allocation once (with the counts of both where
/// both use it): what the executables that may launch a device graph use while an update of it
/// is not uploaded yet, the device running the earlier version.
fn with_earlier(mut earlier: Vec<Dependent>, now: &[Dependent]) -> Vec<Dependent> {
    for dep in now {
        match earlier
            .iter_mut()
            .find(|e| Arc::ptr_eq(&e.alloc, &dep.alloc))
        {
            Some(e) => e.counts.add(dep.counts),
            None => earlier.push(dep.clone()),
        }
    }
    earlier
}

/// An access begun by [`exclusive`], ended when dropped.
struct Access<'x> {
    anchor: &'x DeviceAnchor,
    stream: &'x Arc<CudaStream>,
    scope: Option<AccessScope>,
}

impl Drop for Access<'_> {
    fn drop(&mut self) {
        if let Some(scope) = self.scope.take() {
            self.anchor.state.end_access(scope, Some(self.stream));
        }
    }
}

/// The refusal of an update that makes the launches of an executable use memory they did not,
/// while executables that may launch it exist.
fn widened(anchor: &DeviceAnchor) -> Error {
    Error::BufferInUse {
        buffer: format!("device-launchable executable {:#x}", anchor.raw),
        reason: "executables that may launch it from the device exist, and the race checks of \
                 the graphs declared with `cuda_graph!` among them judged what its launches \
                 used: an update may change the memory they use only within it (the same \
                 memory, or less, or reads of memory they wrote); drop those executables first, \
                 or give the new memory to another device-launchable executable"
            .into(),
    }
}

/// A refusal of [`exclusive`], naming the executable.
fn describe_busy(error: Error, anchor: &DeviceAnchor) -> Error {
    match error {
        Error::BufferInUse { reason, .. } => Error::BufferInUse {
            buffer: format!("device-launchable executable {:#x}", anchor.raw),
            reason,
        },
        e => e,
    }
}

impl Drop for DeviceGraphExec {
    fn drop(&mut self) {
        // The executable goes to the anchor, which the graphs holding its handle share: the last
        // of them destroys it, after the launches that may launch it.
        let exec = self.exec.take();
        *self.anchor.parked.lock().unwrap_or_else(|e| e.into_inner()) = exec;
    }
}
