//! Conditional nodes: a body graph (or several) that the GPU runs, skips, repeats or picks by the
//! value of a conditional handle, which kernels of the graph set (`cudaGraphSetConditional`), so
//! a loop until convergence or a branch on a computed value needs no host round-trip
//! ([conditional graph nodes]).
//!
//! A handle belongs to the graph it was made for and to that graph's conditional bodies (its
//! *scope*); a kernel given the handle of another graph is refused when it is added, since the
//! device would set a handle that no node of its own graph reads. CUDA allows only kernel, empty,
//! child-graph, memset, memcpy and conditional nodes in a body: the others are refused there.
//!
//! [conditional graph nodes]: https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#conditional-graph-nodes

use cudarc::driver::sys;

use super::{node_params, NodeKind, NodeParams};
use crate::error::Result;
use crate::kernel::{private, KernelArg, Param};
use crate::memory::operand::{MemKey, Use};

handle!(
    /// A conditional node.
    ConditionalNode
);

/// The line a CUDA C kernel compiled with NVRTC needs to set a conditional handle: the device
/// function's declaration (the driver resolves it when the module is loaded; no device runtime
/// library is linked). Take the handle as an `unsigned long long` parameter.
pub const SET_CONDITIONAL_DECLARATION: &str =
    "extern \"C\" __device__ void cudaGraphSetConditional(unsigned long long handle, unsigned int value);\n";

/// A conditional handle: the value a conditional node reads, set by kernels of its graph
/// (pass it as a kernel argument of type `ConditionalHandle`, `unsigned long long` in CUDA C) and
/// reset to a default at each launch when it has one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConditionalHandle {
    pub(crate) raw: sys::CUgraphConditionalHandle,
    /// The graph (with its bodies) that may set it.
    pub(crate) scope: u64,
    /// The address of the driver graph it was made for: the one its conditional node goes in.
    pub(crate) made_for: usize,
}

// SAFETY: integers; scope 0 is no graph's (ids start at 1).
unsafe impl crate::node::unbuilt::Unbuilt for ConditionalHandle {}

impl ConditionalHandle {
    /// The driver's handle.
    pub fn raw(&self) -> u64 {
        self.raw
    }
}

impl private::Sealed for ConditionalHandle {}
/// A kernel may take a conditional handle (`unsigned long long` in CUDA C), to set it with
/// `cudaGraphSetConditional`.
impl Param for ConditionalHandle {
    type Repr = u64;
    type Checked = ();
}

/// A handle is given as itself; the graph checks that it is one of its own.
impl<'a> private::Argument<'a, ConditionalHandle> for ConditionalHandle {}
#[diagnostic::do_not_recommend]
impl<'a> KernelArg<'a, ConditionalHandle> for ConditionalHandle {
    #[inline(always)]
    fn repr(&self) -> u64 {
        self.raw
    }
    #[inline(always)]
    fn checked(&self) {}
    #[inline(always)]
    fn memory(&self) -> Option<MemKey> {
        None
    }
    #[inline]
    fn into_part(self) -> Result<(u64, Option<Use<'a>>)> {
        Ok((self.raw, Some(Use::handle(self.scope))))
    }
}

/// What a conditional node does with its handle's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Condition {
    /// Runs its body once if the value is not zero.
    If,
    /// Runs its first body if the value is not zero, else its second.
    IfElse,
    /// Runs its body again and again while the value is not zero (checked before each run).
    While,
    /// Runs body `value` of its `n` bodies, none if the value is `n` or more.
    ///
    /// CUDA 12.8 or newer: absent when this crate binds an older CUDA (features `cuda-12030`
    /// to `cuda-12060`), where a `switch` in `cuda_graph!` is a compile error saying so.
    #[cfg(not(any(
        feature = "cuda-12030",
        feature = "cuda-12040",
        feature = "cuda-12050",
        feature = "cuda-12060"
    )))]
    Switch(u32),
}

impl Condition {
    /// How many bodies the node has.
    pub fn bodies(self) -> u32 {
        match self {
            Self::If | Self::While => 1,
            Self::IfElse => 2,
            #[cfg(not(any(
                feature = "cuda-12030",
                feature = "cuda-12040",
                feature = "cuda-12050",
                feature = "cuda-12060"
            )))]
            Self::Switch(n) => n,
        }
    }

    fn raw_type(self) -> sys::CUgraphConditionalNodeType {
        match self {
            Self::If | Self::IfElse => sys::CUgraphConditionalNodeType::CU_GRAPH_COND_TYPE_IF,
            Self::While => sys::CUgraphConditionalNodeType::CU_GRAPH_COND_TYPE_WHILE,
            #[cfg(not(any(
                feature = "cuda-12030",
                feature = "cuda-12040",
                feature = "cuda-12050",
                feature = "cuda-12060"
            )))]
            Self::Switch(_) => sys::CUgraphConditionalNodeType::CU_GRAPH_COND_TYPE_SWITCH,
        }
    }
}

/// A conditional node's parameters; after the node is added, the body graphs the driver made
/// (owned by the node).
#[derive(Debug)]
pub(crate) struct ConditionalParams {
    pub(crate) handle: sys::CUgraphConditionalHandle,
    pub(crate) condition: Condition,
    pub(crate) ctx: sys::CUcontext,
    /// The driver's array of body graphs, once added.
    pub(crate) bodies: *mut sys::CUgraph,
}

impl NodeParams for ConditionalParams {
    const KIND: NodeKind = NodeKind::Conditional;

    fn with_raw<R>(&mut self, f: impl FnOnce(&mut sys::CUgraphNodeParams) -> R) -> R {
        let mut p = node_params(sys::CUgraphNodeType::CU_GRAPH_NODE_TYPE_CONDITIONAL);
        p.__bindgen_anon_1.conditional = sys::CUDA_CONDITIONAL_NODE_PARAMS {
            handle: self.handle,
            type_: self.condition.raw_type(),
            size: self.condition.bodies(),
            phGraph_out: std::ptr::null_mut(),
            ctx: self.ctx,
        };
        let result = f(&mut p);
        // SAFETY: the member written above; the driver filled in its output field.
        self.bodies = unsafe { p.__bindgen_anon_1.conditional.phGraph_out };
        result
    }
}
