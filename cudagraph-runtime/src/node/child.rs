//! Child-graph nodes: a graph embedded in another. The driver embeds a clone of the child, and an
//! update replaces the clone's parameters with another graph's of the same topology.

use cudarc::driver::sys;

use super::{node_params, NodeKind, NodeParams, NodeUpdate};
use crate::driver::result;
use crate::error::Result;

handle!(
    /// A child-graph node.
    ChildGraphNode
);

/// A child-graph node's parameters: the graph to embed (cloned by the driver).
#[derive(Debug)]
pub(crate) struct ChildParams {
    /// A live graph, as long as the parameters are used.
    pub(crate) graph: sys::CUgraph,
}

impl NodeParams for ChildParams {
    const KIND: NodeKind = NodeKind::ChildGraph;

    #[inline]
    fn with_raw<R>(&mut self, f: impl FnOnce(&mut sys::CUgraphNodeParams) -> R) -> R {
        let mut p = node_params(sys::CUgraphNodeType::CU_GRAPH_NODE_TYPE_GRAPH);
        // Field by field: from CUDA 12.9 an ownership field follows, whose zero means "clone".
        p.__bindgen_anon_1.graph.graph = self.graph;
        f(&mut p)
    }
}

impl NodeUpdate for ChildParams {
    #[inline]
    unsafe fn update(&mut self, exec: sys::CUgraphExec, node: sys::CUgraphNode) -> Result<()> {
        // SAFETY: the caller's promise; `self.graph` is live (this type's contract).
        unsafe { result::exec::child_graph_node_set_params(exec, node, self.graph) }
    }
}
