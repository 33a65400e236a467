//! Empty nodes: join points that do nothing. CUDA has no update for them.

use cudarc::driver::sys;

use super::{node_params, NodeKind, NodeParams};

handle!(
    /// An empty node.
    EmptyNode
);

/// An empty node's parameters: none but its type.
#[derive(Debug)]
pub(crate) struct EmptyParams;

impl NodeParams for EmptyParams {
    const KIND: NodeKind = NodeKind::Empty;

    #[inline]
    fn with_raw<R>(&mut self, f: impl FnOnce(&mut sys::CUgraphNodeParams) -> R) -> R {
        f(&mut node_params(
            sys::CUgraphNodeType::CU_GRAPH_NODE_TYPE_EMPTY,
        ))
    }
}
