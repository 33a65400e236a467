//! Adding device-updatable kernel nodes (CUDA 12.4+; see `crate::device_launch::updatable` for
//! the rules), and what a graph with one may not do.

use std::marker::PhantomData;

use cudarc::driver::sys;

use super::definition::Graph;
use crate::device_launch::DeviceKernelNode;
use crate::driver::named;
use crate::error::{Error, Result};
use crate::kernel::{Kernel, KernelArgValues, KernelArgs, LaunchConfig};
use crate::node::{KernelNode, NodeId, NodeKind};

impl<'a> Graph<'a> {
    /// Adds a kernel node, as [`Graph::add_kernel`] does, that kernels of this graph may update
    /// from the device (`CU_LAUNCH_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE`), and returns its
    /// device handle with it: give the handle to such a kernel for a
    /// [`DeviceNode`](crate::device_launch::DeviceNode) parameter.
    ///
    /// The graph is then instantiated only for device launch, and not cloned, cleared, embedded
    /// or used in a whole-graph update (CUDA's rules for such nodes). The kernel's launch check
    /// ([`Kernel::requires`]) runs here and at host-side updates; the values and grids a kernel
    /// sets from the device are its author's promise to keep within it (point 5 of
    /// [`Kernel::new`]).
    pub fn add_device_updatable_kernel<A: KernelArgs>(
        &mut self,
        kernel: &Kernel<A>,
        config: LaunchConfig,
        args: impl KernelArgValues<'a, A>,
        deps: &[NodeId],
    ) -> Result<(KernelNode<A>, DeviceKernelNode<A>)> {
        if self.is_body() {
            let node = self.pending_name(NodeKind::Kernel);
            return self.or_forget_name(Err(Error::Invalid {
                node,
                reason: "a device-updatable kernel node goes in the graph itself, not in a \
                         conditional body"
                    .into(),
            }));
        }
        let node = self.add_kernel(kernel, config, args, deps)?;
        let index = node.id().index as usize;
        let raw = self.nodes[index].raw;
        let attr = sys::CUlaunchAttributeID::CU_LAUNCH_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE;
        // SAFETY: a zeroed attribute value is a valid union (integers and a null pointer).
        let mut value: sys::CUkernelNodeAttrValue = unsafe { std::mem::zeroed() };
        value.deviceUpdatableKernelNode.deviceUpdatable = 1;
        // SAFETY: a live kernel node of this graph, and a valid attribute value.
        let set = named("cuGraphKernelNodeSetAttribute", unsafe {
            sys::cuGraphKernelNodeSetAttribute(raw, attr, &value).result()
        });
        let got = set.and_then(|()| {
            // SAFETY: as above; the driver writes the node's device handle into `value`.
            named("cuGraphKernelNodeGetAttribute", unsafe {
                sys::cuGraphKernelNodeGetAttribute(raw, attr, &mut value).result()
            })
        });
        // The node stays, an ordinary kernel node, when the driver refused (no device update
        // can reach it then).
        got.map_err(|e| e.at_node(|| self.name_of(index)))?;
        let tables = self.tables_mut();
        tables.device_updatable = true;
        tables.device_updatable_nodes.push(index as u32);
        // SAFETY: the union's member just written by the driver.
        let dev_node = unsafe { value.deviceUpdatableKernelNode.devNode };
        Ok((
            node,
            DeviceKernelNode {
                raw: dev_node as u64,
                scope: self.scope(),
                _args: PhantomData,
            },
        ))
    }
}
