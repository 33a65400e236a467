//! Device-updatable kernel nodes (CUDA 12.4+): a kernel of a device-launchable graph changes
//! another kernel node's value parameters, grid or enabled state for the graph's next launches
//! (`cudaGraphKernelNodeSetParam`, `cudaGraphKernelNodeSetGridDim`,
//! `cudaGraphKernelNodeSetEnabled`, `cudaGraphKernelNodeUpdatesApply`), through the node's
//! [`DeviceKernelNode`] handle given as a kernel argument ([`DeviceNode`] in kernel signatures,
//! `cudaGraphDeviceNode_t` in CUDA C).
//!
//! The rules ([device-side node updates]), checked here:
//! - the node is added with
//!   [`Graph::add_device_updatable_kernel`](crate::Graph::add_device_updatable_kernel), in the
//!   graph itself (not a conditional body);
//! - its graph is instantiated only for device launch, and only by
//!   [`Graph::instantiate_for_device_launch`](crate::Graph::instantiate_for_device_launch) (not
//!   by `instantiate_with` and the device-launch flag, whose executable would not re-upload),
//!   and once (the graph moves into its executable): CUDA forbids instantiating such a graph
//!   twice, and uploading is what makes device-side updates and host-side updates meet (the
//!   [`DeviceGraphExec`](super::DeviceGraphExec) re-uploads after host updates);
//! - its graph is not cloned, cleared, embedded as a child graph, or used in a whole-graph
//!   update (CUDA forbids copying, removing and whole-graph updates of such nodes);
//! - only kernels of the same graph get the handle (a handle of another graph is refused when
//!   the kernel node is added);
//! - the updating kernel changes only value parameters (at
//!   [`DeviceKernelNode::param_offset`]), with valid values of their types, and only to values
//!   and grids the updated kernel's launch check admits: the memory a node uses stays what the
//!   host gave it, and the check cannot run on the device (point 5 of the contract of
//!   [`Kernel::new`](crate::Kernel::new)).
//!
//!
//! In a `cuda_graph!` declaration marked `#[device_launch]`, `#[device_updatable]` on a kernel
//! node adds it with [`Graph::add_device_updatable_kernel`](crate::Graph::add_device_updatable_kernel),
//! and a kernel ordered after it takes its handle as the argument `device_node(x)` and a
//! parameter's offset as `param_offset(x, i)`, a constant checked at compile time.
//!
//! [device-side node updates]: https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#device-side-node-updates

use std::marker::PhantomData;

use crate::error::{Error, Result};
use crate::kernel::{private, KernelArg, KernelArgs, Param};
use crate::memory::operand::{MemKey, Use};

/// CUDA C for kernels that update device-updatable kernel nodes, compiled with NVRTC: nothing to
/// declare beyond what NVRTC declares itself (`cudaGraphDeviceNode_t`,
/// `cudaGraphKernelNodeSetParam`, `cudaGraphKernelNodeSetEnabled`,
/// `cudaGraphKernelNodeSetGridDim`, `cudaGraphKernelNodeUpdatesApply`), which live in the device
/// runtime: compile with `-rdc=true` and link with
/// [`link_with_cudadevrt`](super::link_with_cudadevrt). Kept as a constant, like
/// [`DEVICE_LAUNCH_DECLARATIONS`](super::DEVICE_LAUNCH_DECLARATIONS), for the day a toolkit
/// needs one.
pub const DEVICE_UPDATE_DECLARATIONS: &str = "";

/// A kernel parameter that receives a device-updatable kernel node (`cudaGraphDeviceNode_t` in
/// CUDA C), to update with `cudaGraphKernelNodeSetParam` and the like. The value given for it is
/// a [`DeviceKernelNode`].
///
/// A type of kernel signatures only: it has no values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeviceNode {}

/// The device handle of a kernel node whose argument list is `A`, made by
/// [`Graph::add_device_updatable_kernel`](crate::Graph::add_device_updatable_kernel): given to a
/// kernel of the same graph for a [`DeviceNode`] parameter, with the offsets of the parameters
/// it may change ([`DeviceKernelNode::param_offset`], computed from `A`).
pub struct DeviceKernelNode<A> {
    pub(crate) raw: u64,
    /// The graph (with its bodies) whose kernels may update it.
    pub(crate) scope: u64,
    pub(crate) _args: PhantomData<fn(A)>,
}

// SAFETY: two `u64`s and a zero-sized marker; scope 0 is never handed out, so every graph
// refuses the all-zero handle as another graph's.
unsafe impl<A> crate::node::unbuilt::Unbuilt for DeviceKernelNode<A> {}

impl<A> Clone for DeviceKernelNode<A> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<A> Copy for DeviceKernelNode<A> {}
impl<A> PartialEq for DeviceKernelNode<A> {
    fn eq(&self, other: &Self) -> bool {
        self.raw == other.raw && self.scope == other.scope
    }
}
impl<A> Eq for DeviceKernelNode<A> {}

impl<A> std::fmt::Debug for DeviceKernelNode<A> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "DeviceKernelNode({:#x})", self.raw)
    }
}

impl<A: KernelArgs> DeviceKernelNode<A> {
    /// The driver's handle (`CUgraphDeviceNode`), as a kernel receives it.
    pub fn raw(&self) -> u64 {
        self.raw
    }

    /// The byte offset of parameter `index` in the node's parameter buffer: the `offset` of
    /// `cudaGraphKernelNodeSetParam(node, offset, value)`. Only value parameters may be changed
    /// from the device: [`Error::Invalid`] for a pointer or handle parameter, or an index past
    /// the last parameter.
    pub fn param_offset(&self, index: usize) -> Result<u64> {
        match (A::OFFSETS.get(index), A::SETTABLE.get(index)) {
            (Some(&offset), Some(true)) => Ok(offset as u64),
            (Some(_), _) => Err(Error::Invalid {
                node: format!("DeviceKernelNode::param_offset({index})"),
                reason: "parameter is memory or a handle: a device-side update may change only \
                         value parameters (the memory a node uses stays what the host gave it)"
                    .into(),
            }),
            (None, _) => Err(Error::Invalid {
                node: format!("DeviceKernelNode::param_offset({index})"),
                reason: format!("the kernel has {} parameters", A::COUNT),
            }),
        }
    }
}

impl private::Sealed for DeviceNode {}
/// A kernel may take a device-updatable kernel node (`cudaGraphDeviceNode_t` in CUDA C).
impl Param for DeviceNode {
    type Repr = u64;
    type Checked = ();
}

/// The handle is given as itself; the graph checks that it is one of its own.
impl<'a, A> private::Argument<'a, DeviceNode> for DeviceKernelNode<A> {}
#[diagnostic::do_not_recommend]
impl<'a, A> KernelArg<'a, DeviceNode> for DeviceKernelNode<A> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{DevicePtr, DevicePtrMut};

    #[test]
    fn offsets_are_given_for_value_parameters_only() {
        let node = DeviceKernelNode::<(u8, DevicePtr<f32>, u64, DevicePtrMut<u32>, u16)> {
            raw: 1,
            scope: 1,
            _args: PhantomData,
        };
        assert_eq!(node.param_offset(0).unwrap(), 0);
        assert_eq!(node.param_offset(2).unwrap(), 16);
        assert_eq!(node.param_offset(4).unwrap(), 32);
        for refused in [1, 3, 5] {
            assert!(matches!(
                node.param_offset(refused),
                Err(Error::Invalid { .. })
            ));
        }
    }
}
