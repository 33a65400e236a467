//! CUDA's rule for conditional bodies, at any depth of child graphs.
//!
//! A conditional body may hold only kernel, empty, child-graph, memset, memcpy and conditional
//! nodes ([conditional node body graph requirements]), and that holds for the graphs its
//! child-graph nodes embed too: the driver accepts a child graph holding a host node when it is
//! added to a body, and refuses the whole graph only when it is instantiated
//! (`tests/tests/witness_body_child.rs` shows it). So a child graph is looked through, node by
//! node and child by child, before it is embedded in a body.
//!
//! [conditional node body graph requirements]: https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#conditional-node-body-graph-requirements

use cudarc::driver::sys;

use super::definition::Graph;
use crate::driver::result;
use crate::error::{Error, Result};
use crate::node::kind::{raw_allowed_in_body, raw_kind_name};
use crate::node::NodeKind;

/// Child graphs nested deeper than this are refused in a body rather than looked through (the
/// driver nests them as deep as they were made; a declaration nests a handful).
const MAX_DEPTH: usize = 64;

impl Graph<'_> {
    /// Refuses to embed `child` when this graph is a conditional body and `child` holds, at any
    /// depth of its own child graphs, a node CUDA does not allow in a body. Called by
    /// [`Graph::add_child_graph`], which captured work goes through too.
    pub(crate) fn check_child_in_body(&mut self, child: &Graph<'_>) -> Result<()> {
        if !self.is_body() {
            return Ok(());
        }
        let found = match first_forbidden(child.raw(), 0) {
            Ok(None) => return Ok(()),
            Ok(Some(found)) => found,
            Err(e) => return self.or_forget_name(Err(e)),
        };
        let node = self.pending_name(NodeKind::ChildGraph);
        let reason = match found {
            Forbidden::Node { path, code } => {
                let place: Vec<String> = path.iter().map(|i| format!("node {i}")).collect();
                format!(
                    "the child graph holds a {} node ({}, counting the nodes of each graph from \
                     0 in the order they were added), and CUDA allows only kernel, empty, \
                     child-graph, memset, memcpy and conditional nodes in a conditional body, in \
                     the graphs it embeds too (the driver would refuse the graph when it is \
                     instantiated): embed the child graph before or after the conditional node",
                    raw_kind_name(code),
                    place.join(" of the graph of ")
                )
            }
            Forbidden::TooDeep => format!(
                "the child graph nests child graphs more than {MAX_DEPTH} deep: too deep to check \
                 that CUDA allows all of their nodes in a conditional body"
            ),
        };
        self.or_forget_name(Err(Error::Invalid { node, reason }))
    }
}

/// What a child graph holds that a conditional body may not.
#[derive(Debug, PartialEq, Eq)]
enum Forbidden {
    /// A node of raw type `code`, at `path`: its index in the innermost graph first, then the
    /// index of the child-graph node holding that graph in the next graph out, and so on.
    Node { path: Vec<usize>, code: u32 },
    /// Child graphs nested too deep to look through.
    TooDeep,
}

/// The first node of `graph`, at any depth of child graphs, that a conditional body may not
/// hold.
fn first_forbidden(graph: sys::CUgraph, depth: usize) -> Result<Option<Forbidden>> {
    if depth > MAX_DEPTH {
        return Ok(Some(Forbidden::TooDeep));
    }
    // SAFETY: `graph` is live: the child graph being embedded, or a graph it embeds (owned by
    // its child-graph node, alive as long as that graph is).
    let nodes = unsafe { result::graph::nodes(graph) }?;
    for (index, &node) in nodes.iter().enumerate() {
        // SAFETY: a node of the live `graph`.
        let code = unsafe { result::graph::node_type(node) }?;
        if !raw_allowed_in_body(code) {
            return Ok(Some(Forbidden::Node {
                path: vec![index],
                code,
            }));
        }
        if code == sys::CUgraphNodeType::CU_GRAPH_NODE_TYPE_GRAPH as u32 {
            // SAFETY: a child-graph node of the live `graph`.
            let inner = unsafe { result::graph::child_graph(node) }?;
            match first_forbidden(inner, depth + 1)? {
                Some(Forbidden::Node { mut path, code }) => {
                    path.push(index);
                    return Ok(Some(Forbidden::Node { path, code }));
                }
                other @ Some(Forbidden::TooDeep) => return Ok(other),
                None => {}
            }
        }
    }
    Ok(None)
}
