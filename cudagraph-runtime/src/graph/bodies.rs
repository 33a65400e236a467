//! The nodes of a graph's conditional bodies, kept by the graph that holds the conditional nodes.
//!
//! A conditional body is a graph of its own (owned by its conditional node), and its nodes'
//! handles name the body. CUDA updates them in an executable of the enclosing graph one by one
//! (`cuGraphExecKernelNodeSetParams` and friends take a body's node) and in whole-graph updates,
//! so the enclosing graph keeps their records: an executable numbers them after the graph's own
//! nodes (`graph.len() + position here`), which is all its update paths need.

use super::records::NodeRecord;
use crate::node::NodeId;

/// One node of a body (at any depth).
#[derive(Debug, Clone)]
pub(crate) struct BodyNode {
    pub(crate) record: NodeRecord,
    /// The node of the enclosing graph (not of a body) whose body this node is in, at any depth:
    /// what the enclosing graph's ordering rules see in its place.
    pub(crate) owner: u32,
}

/// The nodes of every body of a graph's conditional nodes, nested bodies included, each body's
/// nodes contiguous and in the order they were added.
#[derive(Debug, Clone, Default)]
pub(crate) struct BodyTable {
    pub(crate) nodes: Vec<BodyNode>,
    /// Each body graph's family and the range of its nodes in `nodes`.
    ranges: Vec<BodyRange>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct BodyRange {
    family: u64,
    pub(crate) start: u32,
    pub(crate) len: u32,
    /// The conditional node whose body this is, by index in the graph that holds it: the
    /// enclosing graph's own nodes (`parent: None`) or the body `parent` (what pictures draw).
    pub(crate) owner: u32,
    pub(crate) parent: Option<u32>,
}

impl BodyTable {
    /// The position in `nodes` of `node`, a node of one of the bodies.
    pub(crate) fn position(&self, node: NodeId) -> Option<usize> {
        let range = self.ranges.iter().find(|r| r.family == node.family)?;
        (node.index < range.len).then_some((range.start + node.index) as usize)
    }

    /// Takes in a body of the conditional node `owner`: its own nodes (`records`, of family
    /// `family`) and the nodes of its own bodies (`nested`). Their uses and dependency lists
    /// were moved to the end of this graph's tables, at `uses_base` and `edges_base`.
    pub(crate) fn absorb(
        &mut self,
        family: u64,
        records: Vec<NodeRecord>,
        nested: BodyTable,
        owner: u32,
        (uses_base, edges_base): (u32, u32),
    ) {
        let start = self.nodes.len() as u32;
        let first = self.ranges.len() as u32;
        self.ranges.push(BodyRange {
            family,
            start,
            len: records.len() as u32,
            owner,
            parent: None,
        });
        let nested_start = start + records.len() as u32;
        self.ranges.extend(nested.ranges.iter().map(|r| BodyRange {
            start: nested_start + r.start,
            parent: Some(r.parent.map_or(first, |p| first + 1 + p)),
            ..*r
        }));
        let records = records
            .into_iter()
            .chain(nested.nodes.into_iter().map(|n| n.record));
        self.nodes.extend(records.map(|record| BodyNode {
            record: record.rebased(uses_base, edges_base),
            owner,
        }));
    }

    /// Whether `other` has bodies of the same sizes in the same order (what a whole-graph update
    /// pairs node by node).
    pub(crate) fn same_shape(&self, other: &BodyTable) -> bool {
        self.ranges.len() == other.ranges.len()
            && self
                .ranges
                .iter()
                .zip(&other.ranges)
                .all(|(a, b)| a.start == b.start && a.len == b.len)
    }

    /// Makes the bodies answer to the handles of `other`'s bodies (same shape).
    pub(crate) fn join_families_of(&mut self, other: &BodyTable) {
        for (mine, theirs) in self.ranges.iter_mut().zip(&other.ranges) {
            mine.family = theirs.family;
        }
    }

    /// Each body, in order (a body's nested bodies right after it).
    pub(crate) fn ranges(&self) -> &[BodyRange] {
        &self.ranges
    }

    pub(crate) fn clear(&mut self) {
        self.nodes.clear();
        self.ranges.clear();
    }
}

/// Where a node is, for the lists a graph keeps of some of its nodes (WHILE nodes, edges added
/// after their nodes): one of its own nodes (by index), or a node of its conditional bodies (by
/// position in the body table). Positions, not driver handles, so that the lists hold for a
/// clone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LoopAt {
    Own(u32),
    Body(u32),
}

impl LoopAt {
    /// Where the WHILE node is once the body that lists it is taken in by the enclosing graph,
    /// its own nodes at `start` of the enclosing body table and its nested bodies' after them.
    pub(crate) fn absorbed(self, start: u32, own_nodes: u32) -> Self {
        match self {
            LoopAt::Own(i) => LoopAt::Body(start + i),
            LoopAt::Body(p) => LoopAt::Body(start + own_nodes + p),
        }
    }
}
