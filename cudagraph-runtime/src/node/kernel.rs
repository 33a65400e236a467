//! Kernel nodes: a launch of a [`Kernel`](crate::Kernel) with its configuration and arguments
//! (the typed argument lists themselves are in `crate::kernel`).
//!
//! Nodes are added through `cuGraphAddKernelNode` (the per-kind call: on the rebuild path the
//! generic `cuGraphAddNode`, which takes a 256-byte parameter union, measured about 5% slower)
//! and updated through `cuGraphExecKernelNodeSetParams`, as fast as the raw call.

use std::ffi::c_void;

use cudarc::driver::sys;

use super::{node_params, NodeKind, NodeParams, NodeUpdate, Switchable};
use crate::driver::result;
use crate::error::Result;
use crate::kernel::{KernelArgs, KernelContract, LaunchConfig};

handle!(
    /// A kernel node whose argument list is `A`.
    KernelNode<A>
);
impl<A: 'static> super::switchable::Sealed for KernelNode<A> {
    const KIND: NodeKind = NodeKind::Kernel;

    fn param_list() -> Option<std::any::TypeId> {
        Some(std::any::TypeId::of::<A>())
    }
}
impl<A: 'static> Switchable for KernelNode<A> {}

/// A launch of `func` in `ctx` with `config`, whatever its arguments: what a kernel node's
/// parameters are, but for the argument array.
#[derive(Debug, Clone, Copy)]
pub(crate) struct KernelLaunch {
    pub(crate) func: sys::CUfunction,
    pub(crate) ctx: sys::CUcontext,
    pub(crate) config: LaunchConfig,
}

/// The driver's kernel node parameters (`CUDA_KERNEL_NODE_PARAMS_v2` and `_v3` have the same
/// fields) for `launch` with the `kernelParams` array `args`.
macro_rules! raw_launch {
    ($ty:ident, $launch:expr, $args:expr) => {{
        let launch: &KernelLaunch = $launch;
        sys::$ty {
            func: launch.func,
            gridDimX: launch.config.grid_dim.0,
            gridDimY: launch.config.grid_dim.1,
            gridDimZ: launch.config.grid_dim.2,
            blockDimX: launch.config.block_dim.0,
            blockDimY: launch.config.block_dim.1,
            blockDimZ: launch.config.block_dim.2,
            sharedMemBytes: launch.config.shared_mem_bytes,
            kernelParams: $args,
            extra: std::ptr::null_mut(),
            kern: std::ptr::null_mut(),
            ctx: launch.ctx,
        }
    }};
}

impl KernelLaunch {
    /// Sets kernel node `node` of `exec` to this launch with the `kernelParams` array `args`
    /// (`cuGraphExecKernelNodeSetParams`): the single-node update's hot path.
    ///
    /// # Safety
    /// `exec` is live; `node` is a kernel node of its graph; `args` points to one valid pointer
    /// per kernel parameter, each to a value of the parameter's device representation.
    #[inline]
    unsafe fn update(
        &self,
        exec: sys::CUgraphExec,
        node: sys::CUgraphNode,
        args: *mut *mut c_void,
    ) -> Result<()> {
        let p = raw_launch!(CUDA_KERNEL_NODE_PARAMS_v2, self, args);
        // SAFETY: the caller's promise; `p` is valid for the call, and the driver copies the
        // arguments.
        unsafe { result::exec::kernel_node_set_params(exec, node, &p) }
    }

    /// [`KernelLaunch::update`] with the arguments `reprs`, the device representations of a
    /// kernel of parameter list `A`.
    ///
    /// # Safety
    /// `exec` is live; `node` is a kernel node of its graph, launching a kernel of parameter
    /// list `A`.
    #[inline(always)]
    pub(crate) unsafe fn update_with<A: KernelArgs>(
        &self,
        exec: sys::CUgraphExec,
        node: sys::CUgraphNode,
        reprs: &mut A::Reprs,
    ) -> Result<()> {
        A::with_reprs(reprs, |args| {
            // SAFETY: the caller's promise; `args` points to the representations of `A`, the
            // kernel's parameter list.
            unsafe { self.update(exec, node, args) }
        })
    }
}

/// A kernel node's parameters: the launch, the arguments' device representations, and what the
/// node keeps of its kernel.
pub(crate) struct KernelParams<A: KernelArgs> {
    pub(crate) launch: KernelLaunch,
    pub(crate) reprs: A::Reprs,
    pub(crate) kernel: KernelContract,
}

impl<A: KernelArgs> NodeParams for KernelParams<A> {
    const KIND: NodeKind = NodeKind::Kernel;

    #[inline]
    fn kernel(&self) -> KernelContract {
        self.kernel
    }

    #[inline]
    fn with_raw<R>(&mut self, f: impl FnOnce(&mut sys::CUgraphNodeParams) -> R) -> R {
        let launch = &self.launch;
        A::with_reprs(&mut self.reprs, |args| {
            let mut p = node_params(sys::CUgraphNodeType::CU_GRAPH_NODE_TYPE_KERNEL);
            p.__bindgen_anon_1.kernel = raw_launch!(CUDA_KERNEL_NODE_PARAMS_v3, launch, args);
            f(&mut p)
        })
    }

    #[inline]
    unsafe fn add_to(
        &mut self,
        graph: sys::CUgraph,
        deps: &[sys::CUgraphNode],
    ) -> Result<sys::CUgraphNode> {
        let launch = &self.launch;
        A::with_reprs(&mut self.reprs, |args| {
            let p = raw_launch!(CUDA_KERNEL_NODE_PARAMS_v2, launch, args);
            // SAFETY: the caller's promise; `p` and the argument array are valid for the call.
            unsafe { result::graph::add_kernel_node(graph, deps, &p) }
        })
    }

    #[inline]
    unsafe fn set_on(&mut self, node: sys::CUgraphNode) -> Result<()> {
        let launch = &self.launch;
        A::with_reprs(&mut self.reprs, |args| {
            let p = raw_launch!(CUDA_KERNEL_NODE_PARAMS_v2, launch, args);
            // SAFETY: the caller's promise (a live kernel node); `p` and the argument array are
            // valid for the call, and the driver copies the arguments.
            unsafe { result::graph::kernel_node_set_params(node, &p) }
        })
    }
}

impl<A: KernelArgs> NodeUpdate for KernelParams<A> {
    #[inline]
    unsafe fn update(&mut self, exec: sys::CUgraphExec, node: sys::CUgraphNode) -> Result<()> {
        // SAFETY: the caller's promise; the node launches a kernel of parameter list `A`.
        unsafe { self.launch.update_with::<A>(exec, node, &mut self.reprs) }
    }
}
