//! Updates CUDA forbids: traits never implemented, bounding the methods that exist only to
//! explain why they cannot be called.

use std::convert::Infallible;

// ---------------------------------------------------------------------------------------------
// Updates CUDA forbids: methods that exist only to explain why they cannot be called.

/// Never implemented: bounds a handle's `set_enabled` on nodes CUDA cannot enable or disable.
#[diagnostic::on_unimplemented(
    message = "only kernel, memset and memcpy nodes can be enabled or disabled",
    label = "CUDA cannot enable or disable this node",
    note = "cuGraphNodeSetEnabled accepts kernel, memset and memcpy nodes only; \
            to skip this work at run time, declare separate graphs"
)]
pub trait CanEnableDisable {
    #[doc(hidden)]
    const NEVER: Infallible;
}

/// Never implemented: bounds a handle's `set_2d` (memset and memcpy nodes are 1-D).
#[diagnostic::on_unimplemented(
    message = "only 1-D memset and memcpy nodes can be updated",
    label = "a 2-D update is not allowed",
    note = "CUDA can change only 1-D memset and memcpy nodes after instantiation \
            (cuGraphExecMemsetNodeSetParams, cuGraphExecMemcpyNodeSetParams): \
            use `set` with 1-D pointers"
)]
pub trait CanUpdate2D {
    #[doc(hidden)]
    const NEVER: Infallible;
}

/// Never implemented: bounds `set` on an alloc or free node's handle.
#[diagnostic::on_unimplemented(
    message = "alloc and free nodes cannot be updated",
    label = "CUDA cannot change a memory node after instantiation",
    note = "an allocation's size and address are fixed when the graph is built, and CUDA refuses \
            per-node updates of alloc and free nodes (cuGraphExecNodeSetParams): to allocate \
            another size, build and instantiate a new graph"
)]
pub trait CanUpdateMemoryNode {
    #[doc(hidden)]
    const NEVER: Infallible;
}

/// Never implemented: bounds the whole-graph `update` of a declaration with memory nodes.
#[diagnostic::on_unimplemented(
    message = "a graph with memory nodes (alloc or free) cannot be updated as a whole",
    label = "this executable's graph has memory nodes",
    note = "an executable's allocations stay at the addresses fixed when its graph was built; \
            CUDA does not update them from another graph (cuGraphExecUpdate): use `set_params` \
            or the nodes' handles, or instantiate the new graph"
)]
pub trait CanUpdateWholeWithMemoryNodes {
    #[doc(hidden)]
    const NEVER: Infallible;
}
