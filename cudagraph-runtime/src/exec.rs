//! Executable graphs: instantiation, launch and updates.

use std::sync::Arc;

use cudarc::driver::{sys, CudaStream, DriverError};

use crate::driver::check;
use crate::error::{Error, Result, UpdateFailure};
use crate::function_set::FunctionSet;
use crate::graph::{kernel_params, Graph};
use crate::kernel::{Kernel, KernelArgs, LaunchConfig};
use crate::node::{
    ChildGraphNode, Direction, HostCall, HostNode, KernelNode, Memcpy, MemcpyNode, Memset,
    MemsetNode, MemsetValue, NodeId, PanicSlot, PanicWatch, Switchable,
};

/// Flags for instantiation (`CUgraphInstantiate_flags`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct InstantiateFlags(u64);

impl InstantiateFlags {
    /// No flag.
    pub const NONE: Self = Self(0);
    /// Free unfreed graph allocations before each relaunch.
    pub const AUTO_FREE_ON_LAUNCH: Self = Self(1);
    /// Upload during instantiation (set for you when an upload stream is given).
    pub const UPLOAD: Self = Self(2);
    /// Make the graph launchable from the device.
    pub const DEVICE_LAUNCH: Self = Self(4);
    /// Honour per-node priorities instead of the launch stream's.
    pub const USE_NODE_PRIORITY: Self = Self(8);

    /// The raw bits.
    pub const fn bits(self) -> u64 {
        self.0
    }
}

impl std::ops::BitOr for InstantiateFlags {
    type Output = Self;
    fn bitor(self, rhs: Self) -> Self {
        Self(self.0 | rhs.0)
    }
}

/// An instantiated graph (`CUgraphExec`), ready to launch any number of times.
///
/// It owns the graph it was made from: node handles from that graph address this executable's
/// nodes. Updates apply to launches made after them, never to launches already queued (SPEC 2.4).
///
/// `Send` but not `Sync`, like [`Graph`].
pub struct GraphExec {
    raw: sys::CUgraphExec,
    graph: Graph,
    /// Kernel modules of graphs this executable was updated from.
    functions: FunctionSet,
    /// Host calls installed by [`GraphExec::set_host_fn`] and in use, by node index. Boxed: the
    /// driver holds their addresses, which must not move when the Vec grows.
    #[allow(clippy::vec_box)]
    host_calls: Vec<(usize, Box<HostCall>)>,
    /// Host calls replaced since; freed once the launches that may call them have completed.
    #[allow(clippy::vec_box)]
    retired_calls: Vec<Box<HostCall>>,
    /// The stream of the latest launch, so `Drop` can wait for it before freeing `host_calls`.
    last_stream: Option<Arc<CudaStream>>,
    /// The panic slots of the host closures this executable runs now; its own slot is for the
    /// closures installed by [`GraphExec::set_host_fn`].
    panics: PanicWatch,
    /// For child-graph nodes set by [`GraphExec::set_child_graph`]: (node index, its slots).
    child_panics: Vec<(usize, Vec<Arc<PanicSlot>>)>,
}

/// `CUgraphExecUpdateResultInfo` with the result code as a plain integer.
#[repr(C)]
struct UpdateResultInfo {
    result: u32,
    error_node: sys::CUgraphNode,
    error_from_node: sys::CUgraphNode,
}
const _: () = assert!(
    std::mem::size_of::<UpdateResultInfo>()
        == std::mem::size_of::<sys::CUgraphExecUpdateResultInfo>()
);

// SAFETY: as for `Graph`: usable from any thread, never from two at once (`!Sync`).
unsafe impl Send for GraphExec {}

impl std::fmt::Debug for GraphExec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GraphExec")
            .field("raw", &self.raw)
            .field("graph", &self.graph)
            .finish()
    }
}

fn instantiate_raw(
    graph: &Graph,
    flags: InstantiateFlags,
    upload: Option<&CudaStream>,
) -> Result<sys::CUgraphExec> {
    graph
        .context()
        .bind_to_thread()
        .map_err(|source| Error::Driver {
            call: "cuCtxSetCurrent",
            source,
        })?;
    let flags = match upload {
        Some(_) => flags | InstantiateFlags::UPLOAD,
        None => flags,
    };
    let mut params = sys::CUDA_GRAPH_INSTANTIATE_PARAMS {
        flags: flags.bits(),
        hUploadStream: upload.map_or(std::ptr::null_mut(), |s| s.cu_stream()),
        hErrNode_out: std::ptr::null_mut(),
        result_out: sys::CUgraphInstantiateResult::CUDA_GRAPH_INSTANTIATE_SUCCESS,
    };
    let mut raw = std::ptr::null_mut();
    // SAFETY: live graph; `params` is valid for the call.
    let result = unsafe { sys::cuGraphInstantiateWithParams(&mut raw, graph.raw(), &mut params) };
    if result == sys::CUresult::CUDA_SUCCESS {
        return Ok(raw);
    }
    let blamed = graph
        .records()
        .iter()
        .position(|r| r.raw == params.hErrNode_out);
    Err(match blamed {
        Some(index) => Error::Node {
            call: "cuGraphInstantiateWithParams",
            node: graph.name_of(index),
            source: DriverError(result),
        },
        None => Error::Driver {
            call: "cuGraphInstantiateWithParams",
            source: DriverError(result),
        },
    })
}

impl GraphExec {
    pub(crate) fn instantiate(
        graph: Graph,
        flags: InstantiateFlags,
        upload: Option<&CudaStream>,
    ) -> Result<Self> {
        let raw = instantiate_raw(&graph, flags, upload)?;
        let mut panics = PanicWatch::default();
        panics.watch(graph.panics.slots());
        Ok(Self {
            raw,
            panics,
            graph,
            functions: FunctionSet::default(),
            host_calls: Vec::new(),
            retired_calls: Vec::new(),
            last_stream: None,
            child_panics: Vec::new(),
        })
    }

    /// The graph this executable was instantiated from.
    pub fn graph(&self) -> &Graph {
        &self.graph
    }

    /// The raw driver handle, for calls this crate does not wrap. Do not destroy it.
    pub fn raw(&self) -> sys::CUgraphExec {
        self.raw
    }

    /// Launches the graph into `stream` (`cuGraphLaunch`).
    ///
    /// Reports first a panic caught in one of the graph's host nodes since the last report
    /// ([`Error::HostPanicked`]); the launch is then not made.
    #[inline]
    pub fn launch(&mut self, stream: &Arc<CudaStream>) -> Result<()> {
        self.check_host_panics()?;
        // SAFETY: live executable and stream.
        check("cuGraphLaunch", unsafe {
            sys::cuGraphLaunch(self.raw, stream.cu_stream())
        })?;
        if self.owns_host_calls() && !matches!(&self.last_stream, Some(s) if Arc::ptr_eq(s, stream))
        {
            self.last_stream = Some(stream.clone());
        }
        Ok(())
    }

    /// Uploads the executable's resources ahead of its first launch (`cuGraphUpload`).
    pub fn upload(&self, stream: &CudaStream) -> Result<()> {
        // SAFETY: live executable and stream.
        check("cuGraphUpload", unsafe {
            sys::cuGraphUpload(self.raw, stream.cu_stream())
        })
    }

    /// The first host-node panic caught since the last report, as an error.
    #[inline]
    pub fn check_host_panics(&self) -> Result<()> {
        match self.panics.take_first() {
            Some((node, message)) => Err(Error::HostPanicked { node, message }),
            None => Ok(()),
        }
    }

    /// Destroys the executable and instantiates the graph it was made from again (parameter
    /// changes made since are lost). To fall back from a refused update, use
    /// [`GraphExec::reinstantiate_from`] with the new graph.
    pub fn reinstantiate(&mut self, flags: InstantiateFlags) -> Result<()> {
        let fresh = instantiate_raw(&self.graph, flags, None)?;
        let old = std::mem::replace(&mut self.raw, fresh);
        // SAFETY: `old` was ours; launches already queued keep what they need (CUDA defers it).
        check("cuGraphExecDestroy", unsafe {
            sys::cuGraphExecDestroy(old)
        })
    }

    /// Replaces the executable with a fresh instantiation of `graph`: the usual fallback when
    /// [`GraphExec::update`] is refused (SPEC 2.4). Node handles of the old graph keep working when
    /// `graph` was built by the same calls in the same order (as every graph of one `cuda_graph!`
    /// declaration is); otherwise use `graph`'s own handles. On error nothing changes.
    pub fn reinstantiate_from(&mut self, mut graph: Graph, flags: InstantiateFlags) -> Result<()> {
        let fresh = instantiate_raw(&graph, flags, None)?;
        let old = std::mem::replace(&mut self.raw, fresh);
        graph.join_family_of(&self.graph);
        self.panics.watch_instead(graph.panics.slots());
        self.child_panics.clear();
        // The old graph goes only after its executable: `old` may still reference its nodes.
        let old_graph = std::mem::replace(&mut self.graph, graph);
        // SAFETY: `old` was ours; launches already queued keep what they need (CUDA defers it).
        let destroyed = check("cuGraphExecDestroy", unsafe {
            sys::cuGraphExecDestroy(old)
        });
        drop(old_graph);
        destroyed
    }

    /// Whole-graph update (`cuGraphExecUpdate`): takes every node's parameters from `graph`,
    /// which must have the same topology, built by the same calls in the same order (SPEC 2.4).
    ///
    /// On refusal, the error names the node of `graph` the driver blamed and why; the executable
    /// is unchanged then and may still be launched.
    pub fn update(&mut self, graph: &Graph) -> Result<()> {
        let mut info = UpdateResultInfo {
            result: 0,
            error_node: std::ptr::null_mut(),
            error_from_node: std::ptr::null_mut(),
        };
        // SAFETY: live executable and graph; `info` has the layout of `CUgraphExecUpdateResultInfo`
        // with the result as a plain integer, so a code newer than our bindings is no invalid enum.
        let result = unsafe {
            sys::cuGraphExecUpdate_v2(
                self.raw,
                graph.raw(),
                (&mut info as *mut UpdateResultInfo).cast(),
            )
        };
        if result == sys::CUresult::CUDA_SUCCESS {
            self.adopt(graph);
            return Ok(());
        }
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
            .records()
            .iter()
            .position(|r| r.raw == info.error_node)
            .map_or_else(|| "<graph>".to_owned(), |i| graph.name_of(i));
        if info.result <= 1 && info.error_node.is_null() {
            // Not a pairing verdict: report the driver's code itself.
            return Err(Error::Driver {
                call: "cuGraphExecUpdate",
                source: DriverError(result),
            });
        }
        Err(Error::UpdateRejected { node, reason })
    }

    /// Keeps alive and watches what an update's source graph brought in.
    ///
    /// Each step is skipped when it has nothing to do: a rebuild-and-update loop over graphs
    /// without host nodes pays for none of them.
    fn adopt(&mut self, graph: &Graph) {
        self.keep_functions(graph);
        if !self.host_calls.is_empty() {
            // Every host node now runs `graph`'s closure: the ones installed here are replaced.
            let replaced = std::mem::take(&mut self.host_calls);
            self.retired_calls
                .extend(replaced.into_iter().map(|(_, call)| call));
        }
        self.free_retired_calls();
        // Kernel nodes may have switched function (same context): later single-node updates
        // must re-send the new one.
        self.graph.take_kernel_functions_of(graph);
        // Host closures of `graph` are kept alive by its user objects, which the update retained.
        // The executable now runs `graph`'s closures: watch their slots instead of the old ones
        // (a slot with an unreported panic stays until it is reported, so the list never grows).
        self.panics.watch_instead(graph.panics.slots());
    }

    /// Keeps the modules of `graph`'s kernels loaded.
    #[inline]
    fn keep_functions(&mut self, graph: &Graph) {
        for f in graph.functions().iter() {
            if !self.graph.functions().contains(f.cu_function()) {
                self.functions.insert(f);
            }
        }
    }

    #[inline]
    fn node(&self, node: NodeId) -> Result<(usize, sys::CUgraphNode)> {
        let index = self.graph.check_node(node)?;
        Ok((index, self.graph.records()[index].raw))
    }

    fn node_error(&self, call: &'static str, index: usize, result: sys::CUresult) -> Result<()> {
        if result == sys::CUresult::CUDA_SUCCESS {
            Ok(())
        } else {
            Err(Error::Node {
                call,
                node: self.graph.name_of(index),
                source: DriverError(result),
            })
        }
    }

    /// Sets a kernel node's launch configuration and arguments (`cuGraphExecKernelNodeSetParams`).
    #[inline]
    pub fn set_kernel_params<A: KernelArgs>(
        &mut self,
        node: KernelNode<A>,
        config: LaunchConfig,
        args: A,
    ) -> Result<()> {
        let (index, raw_node) = self.node(node.id)?;
        let func = self.graph.records()[index].func;
        self.send_kernel_params(index, raw_node, func, &config, args)
    }

    /// Like [`GraphExec::set_kernel_params`], and switches the node to `kernel`, another function
    /// with the same parameter list in the same context (CUDA allows that; a function that uses
    /// dynamic parallelism it refuses, SPEC 2.4).
    pub fn set_kernel<A: KernelArgs>(
        &mut self,
        node: KernelNode<A>,
        kernel: &Kernel<A>,
        config: LaunchConfig,
        args: A,
    ) -> Result<()> {
        let (index, raw_node) = self.node(node.id)?;
        let func = kernel.cu_function();
        self.send_kernel_params(index, raw_node, func, &config, args)?;
        if self.graph.records()[index].func != func {
            self.graph.set_kernel_function(index, func);
            if !self.graph.functions().contains(func) {
                self.functions.insert(kernel.function());
            }
        }
        Ok(())
    }

    #[inline]
    fn send_kernel_params<A: KernelArgs>(
        &self,
        index: usize,
        raw_node: sys::CUgraphNode,
        func: sys::CUfunction,
        config: &LaunchConfig,
        args: A,
    ) -> Result<()> {
        let ctx = self.graph.context().cu_ctx();
        let result = args.with_params(|params| {
            let p = kernel_params(func, ctx, config, params);
            // SAFETY: live executable; `raw_node` is a kernel node of its graph; `p` is valid.
            unsafe { sys::cuGraphExecKernelNodeSetParams_v2(self.raw, raw_node, &p) }
        });
        self.node_error("cuGraphExecKernelNodeSetParams", index, result)
    }

    /// Sets a memcpy node's source and destination (`cuGraphExecMemcpyNodeSetParams`). The
    /// direction is fixed by the handle's type, as CUDA requires.
    pub fn set_memcpy_params<D: Direction>(
        &mut self,
        node: MemcpyNode<D>,
        copy: Memcpy<D>,
    ) -> Result<()> {
        let (index, raw_node) = self.node(node.id)?;
        let bytes = copy.bytes().map_err(|reason| Error::Invalid {
            node: self.graph.name_of(index),
            reason,
        })?;
        let p = copy.raw(bytes);
        // SAFETY: live executable; `raw_node` is a memcpy node of its graph; `p` is valid.
        let result = unsafe {
            sys::cuGraphExecMemcpyNodeSetParams(
                self.raw,
                raw_node,
                &p,
                self.graph.context().cu_ctx(),
            )
        };
        self.node_error("cuGraphExecMemcpyNodeSetParams", index, result)
    }

    /// Sets a memset node's destination and value (`cuGraphExecMemsetNodeSetParams`).
    pub fn set_memset_params<T: MemsetValue>(
        &mut self,
        node: MemsetNode<T>,
        set: Memset<T>,
    ) -> Result<()> {
        let (index, raw_node) = self.node(node.id)?;
        let p = set.raw();
        // SAFETY: live executable; `raw_node` is a memset node of its graph; `p` is valid.
        let result = unsafe {
            sys::cuGraphExecMemsetNodeSetParams(
                self.raw,
                raw_node,
                &p,
                self.graph.context().cu_ctx(),
            )
        };
        self.node_error("cuGraphExecMemsetNodeSetParams", index, result)
    }

    /// Replaces a host node's closure (`cuGraphExecHostNodeSetParams`). The old closure stays
    /// alive until launches that may still call it are done.
    pub fn set_host_fn(&mut self, node: HostNode, f: impl FnMut() + Send + 'static) -> Result<()> {
        let (index, raw_node) = self.node(node.id)?;
        let call = HostCall::new(
            Box::new(f),
            self.graph.name_of(index),
            self.panics.own_slot(),
        );
        let p = HostCall::raw_params(&call);
        // SAFETY: live executable; `raw_node` is a host node of its graph; `p` points into `call`,
        // which `self.host_calls` keeps until no launch may call it any more.
        let result = unsafe { sys::cuGraphExecHostNodeSetParams(self.raw, raw_node, &p) };
        self.node_error("cuGraphExecHostNodeSetParams", index, result)?;
        if let Some(slot) = self.host_calls.iter().position(|(i, _)| *i == index) {
            let (_, old) = self.host_calls.swap_remove(slot);
            self.retired_calls.push(old);
        }
        self.host_calls.push((index, call));
        self.free_retired_calls();
        Ok(())
    }

    fn owns_host_calls(&self) -> bool {
        !self.host_calls.is_empty() || !self.retired_calls.is_empty()
    }

    /// Frees replaced host calls once the latest launch has completed: launches of one executable
    /// run in order, so every earlier launch that could call them has completed too.
    fn free_retired_calls(&mut self) {
        if self.retired_calls.is_empty() {
            return;
        }
        let idle = match &self.last_stream {
            None => true, // never launched while it owned host calls
            Some(stream) => {
                // SAFETY: a live stream; the query does not wait.
                let status = unsafe { sys::cuStreamQuery(stream.cu_stream()) };
                status == sys::CUresult::CUDA_SUCCESS
            }
        };
        if idle {
            self.retired_calls.clear();
        }
    }

    /// Replaces a child-graph node's contents with `child`'s (`cuGraphExecChildGraphNodeSetParams`);
    /// `child` must have the topology of the embedded graph.
    pub fn set_child_graph(&mut self, node: ChildGraphNode, child: &Graph) -> Result<()> {
        let (index, raw_node) = self.node(node.id)?;
        // SAFETY: live executable and graph; `raw_node` is a child-graph node of its graph.
        let result =
            unsafe { sys::cuGraphExecChildGraphNodeSetParams(self.raw, raw_node, child.raw()) };
        self.node_error("cuGraphExecChildGraphNodeSetParams", index, result)?;
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
    pub fn set_enabled(&mut self, node: impl Switchable, enabled: bool) -> Result<()> {
        // SAFETY: `Switchable` is implemented only for the node kinds CUDA allows.
        unsafe { self.set_enabled_unchecked(node.into(), enabled) }
    }

    /// Whether a kernel, memcpy or memset node is enabled (`cuGraphNodeGetEnabled`).
    pub fn is_enabled(&self, node: impl Switchable) -> Result<bool> {
        let (index, raw_node) = self.node(node.into())?;
        let mut on = 0u32;
        // SAFETY: live executable; a switchable node of its graph; valid out-pointer.
        let result = unsafe { sys::cuGraphNodeGetEnabled(self.raw, raw_node, &mut on) };
        self.node_error("cuGraphNodeGetEnabled", index, result)?;
        Ok(on != 0)
    }

    /// [`GraphExec::set_enabled`] for any node: the driver decides. Exists so tests can show the
    /// driver refusing what the typed API does not offer.
    ///
    /// # Safety
    /// None beyond the driver's own checks; marked `unsafe` because it bypasses the typed API's
    /// promise that only kernel, memcpy and memset nodes are switched.
    pub unsafe fn set_enabled_unchecked(&mut self, node: NodeId, enabled: bool) -> Result<()> {
        let (index, raw_node) = self.node(node)?;
        // SAFETY: live executable; `raw_node` is a node of its graph.
        let result = unsafe { sys::cuGraphNodeSetEnabled(self.raw, raw_node, enabled as u32) };
        self.node_error("cuGraphNodeSetEnabled", index, result)
    }
}

impl Drop for GraphExec {
    fn drop(&mut self) {
        if self.owns_host_calls() {
            // Closures installed by update live here, not in user objects: wait for the launches
            // that may call them before they are freed.
            if let Some(stream) = &self.last_stream {
                stream.context().record_err(stream.synchronize());
            }
        }
        // SAFETY: we own `raw`; CUDA keeps what queued launches need until they complete.
        let result = unsafe { sys::cuGraphExecDestroy(self.raw) };
        self.graph.context().record_err(result.result());
    }
}
