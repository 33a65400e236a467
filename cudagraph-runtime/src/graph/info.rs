//! Names and introspection: node names, the node list, DOT, raw handles.

use std::borrow::Cow;
use std::sync::Arc;

use cudarc::driver::{sys, CudaContext};

use super::definition::Graph;
use super::records::NodeRecord;
use crate::error::Result;
use crate::node::{NodeId, NodeKind};

impl<'a> Graph<'a> {
    /// Names the next node added. The name appears in errors about the node and in DOT output.
    pub fn name_next(&mut self, name: impl Into<Cow<'static, str>>) -> &mut Self {
        self.next_name = Some(name.into());
        self
    }

    /// Renames a node.
    pub fn set_name(
        &mut self,
        node: impl Into<NodeId>,
        name: impl Into<Cow<'static, str>>,
    ) -> Result<()> {
        let index = self.check_any_node(node.into())?;
        if let Some(record) = self.record_mut(index) {
            record.name = Some(name.into());
        }
        Ok(())
    }

    /// A node's name: the one given, or its kind and index (`kernel#3`).
    pub fn node_name(&self, node: impl Into<NodeId>) -> String {
        self.name_of(node.into().index())
    }

    pub(crate) fn name_of(&self, index: usize) -> String {
        match self.record(index) {
            Some(NodeRecord {
                name: Some(name), ..
            }) => name.to_string(),
            Some(record) => format!("{}#{index}", record.kind.name()),
            None => format!("node#{index}"),
        }
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the graph has no node.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Each node's kind, name and dependencies, in the order they were added.
    pub fn nodes(&self) -> impl Iterator<Item = NodeInfo<'_>> + use<'_, 'a> {
        (0..self.nodes.len()).map(move |index| {
            let r = &self.nodes[index];
            NodeInfo {
                index,
                kind: r.kind,
                name: self.name_of(index),
                deps: r.deps.get(self.edges()),
            }
        })
    }

    /// The graph in Graphviz DOT.
    pub fn to_dot(&self) -> String {
        let nodes: Vec<_> = self.nodes().collect();
        crate::dot::to_dot(
            "graph",
            nodes.iter().map(|n| (n.name.as_str(), n.kind)),
            nodes
                .iter()
                .flat_map(|n| n.deps.iter().map(move |&d| (d as usize, n.index))),
            &[],
        )
    }

    /// The context the graph belongs to.
    pub fn context(&self) -> &Arc<CudaContext> {
        &self.ctx
    }

    /// The raw driver handle, for calls this crate does not wrap. Do not destroy it.
    pub fn raw(&self) -> sys::CUgraph {
        self.raw
    }

    /// The id of the node at `index` (in the order nodes were added), if there is one.
    pub fn node_id(&self, index: usize) -> Option<NodeId> {
        let index = u32::try_from(index)
            .ok()
            .filter(|&i| (i as usize) < self.nodes.len())?;
        Some(self.id_at(index))
    }

    /// The raw handle of one of this graph's nodes.
    pub fn raw_node(&self, node: impl Into<NodeId>) -> Result<sys::CUgraphNode> {
        let index = self.check_any_node(node.into())?;
        Ok(self.record(index).expect("checked").raw)
    }

    /// `result`, forgetting the name given for the next node when it is an error: the name was
    /// for the node that was refused, not for the one after it.
    #[inline]
    pub(crate) fn or_forget_name<T>(&mut self, result: Result<T>) -> Result<T> {
        if result.is_err() {
            self.next_name = None;
        }
        result
    }

    /// The name the next node added will have, were it of `kind`.
    /// Names the next node `{default}#{index}` unless a name was given for it.
    #[cfg(feature = "nccl")]
    pub(crate) fn name_next_unless_named(&mut self, default: &str) {
        if self.next_name.is_none() {
            self.next_name = Some(format!("{default}#{}", self.nodes.len()).into());
        }
    }

    /// The graph's collective nodes, if it has any.
    #[cfg(feature = "nccl")]
    pub(crate) fn collectives(&self) -> Option<&crate::collective::CollectiveTable> {
        self.tables
            .as_ref()
            .map(|t| &t.collectives)
            .filter(|c| !c.is_empty())
    }

    #[cfg(feature = "nccl")]
    pub(crate) fn collectives_mut(&mut self) -> &mut crate::collective::CollectiveTable {
        &mut self.tables_mut().collectives
    }

    pub(crate) fn pending_name(&self, kind: NodeKind) -> String {
        match &self.next_name {
            Some(name) => name.to_string(),
            None => format!("{}#{}", kind.name(), self.nodes.len()),
        }
    }
}

/// One node, as [`Graph::nodes`] lists it.
#[derive(Debug, Clone)]
pub struct NodeInfo<'g> {
    /// Position in the graph.
    pub index: usize,
    /// What it does.
    pub kind: NodeKind,
    /// Its name (given, or `kind#index`).
    pub name: String,
    /// Indices of the nodes it depends on, in the order given.
    pub deps: &'g [u32],
}
