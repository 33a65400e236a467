//! How a whole-graph update pairs the nodes of two graphs, and the check that CUDA pairs them as
//! an executable's records do.
//!
//! `cuGraphExecUpdate` pairs the new graph's nodes with the executable's through the graphs'
//! sink nodes, in the order the API calls that built them made them sinks, then through each
//! paired node's dependency list, in edge order ([`cuGraphExecUpdate`]; "Whole Graph Update" in
//! the programming guide: node removal and edges added later change that order too). The
//! executable's records of which memory each node uses ([`Holdings`]) pair them by position, the
//! order in which the nodes were added. The two agree for graphs built by the same calls in the
//! same order. Where they would not (two branches added in the other order, say), CUDA gives a
//! node the parameters of another node of the same kind, while the records keep saying which
//! memory the other one uses: a later single-node update of that node would then release memory
//! that a node still uses every launch.
//!
//! So a whole-graph update checks what decides CUDA's pairing, position by position: the kinds
//! of the nodes, their dependency lists (which list every edge of the driver's but the edges with
//! data into kernels that do not wait for them: those are in the log of added edges), the edges
//! added after their nodes with their data, and whether a kernel waits where an edge with data
//! comes in (which decides whether the edge is listed). A graph from which a node was removed
//! (after a failed capture or conditional node), or whose captured edges with data were left out
//! of its lists, cannot be matched this way, and is refused.
//!
//! [`cuGraphExecUpdate`]: https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__GRAPH.html
//! [`Holdings`]: crate::memory::holdings::Holdings

use super::bodies::LoopAt;
use super::definition::Graph;
use super::edges::EdgeKind;
use super::records::NodeRecord;
use crate::error::{Error, Result, UpdateFailure};

/// What decides how CUDA pairs a graph's nodes beyond their records: see the module docs.
#[derive(Debug, Clone, Default)]
pub(crate) struct Pairing {
    /// Every edge added after both its nodes ([`Graph::add_edge`]), in the order it was added:
    /// its node, its dependency, its kind. Nodes of conditional bodies are named by their
    /// position in the body table (as WHILE nodes are: [`LoopAt`]).
    added: Vec<(LoopAt, LoopAt, EdgeKind)>,
    /// A node was removed from the graph (CUDA's order of its sinks may have changed).
    removed: bool,
    /// A captured edge with data was left out of its node's dependency list.
    unlisted: bool,
}

impl Pairing {
    /// Notes the edge `from -> to` of `kind`, added after both its nodes (of the graph itself).
    pub(crate) fn added(&mut self, from: u32, to: u32, kind: EdgeKind) {
        self.added.push((LoopAt::Own(to), LoopAt::Own(from), kind));
    }

    /// Notes that a node was removed from the graph.
    pub(crate) fn removed(&mut self) {
        self.removed = true;
    }

    /// Notes that a captured edge with data was left out of a dependency list.
    pub(crate) fn unlisted(&mut self) {
        self.unlisted = true;
    }

    /// Takes in what a conditional body noted, its own nodes at `start` of the enclosing body
    /// table and its nested bodies' after them (see [`LoopAt::absorbed`]).
    pub(crate) fn absorb(&mut self, body: Pairing, start: u32, own_nodes: u32) {
        self.removed |= body.removed;
        self.unlisted |= body.unlisted;
        self.added
            .extend(body.added.into_iter().map(|(to, from, kind)| {
                (
                    to.absorbed(start, own_nodes),
                    from.absorbed(start, own_nodes),
                    kind,
                )
            }));
    }

    /// Whether nothing beyond the node records decides the pairing: no edge added later, no
    /// node removed, no captured edge left out.
    pub(crate) fn is_plain(&self) -> bool {
        self.added.is_empty() && !self.removed && !self.unlisted
    }

    pub(crate) fn clear(&mut self) {
        *self = Self::default();
    }

    /// Whether an edge with data (programmatic or launch-order) was added into the node at
    /// `to`.
    pub(crate) fn data_edge_into(&self, to: LoopAt) -> bool {
        self.added
            .iter()
            .any(|&(t, _, kind)| t == to && kind != EdgeKind::Default)
    }
}

impl Graph<'_> {
    fn pairing(&self) -> Option<&Pairing> {
        self.tables.as_ref().map(|t| &t.pairing)
    }

    /// Notes that a node was removed from the graph's driver graph (by a capture's own calls).
    pub(crate) fn note_removed_node(&mut self) {
        self.tables_mut().pairing.removed();
    }

    /// Whether node `index` (as executables number nodes: a conditional body's after the
    /// graph's own) is a kernel that waits for its programmatic dependencies and has an edge
    /// with data into it, which the memory checks then count as ordering (see
    /// [`Graph::add_edge`]): only the wait orders the nodes after it after the edge's source.
    /// `waits`: whether the kernel the node launches now waits (an executable's node may launch
    /// another kernel than the graph's record says).
    pub(crate) fn ordered_by_its_wait(&self, index: usize, waits: bool) -> bool {
        if self.record(index).is_none() {
            return false;
        }
        let at = match index.checked_sub(self.nodes.len()) {
            None => LoopAt::Own(index as u32),
            Some(p) => LoopAt::Body(p as u32),
        };
        waits && self.pairing().is_some_and(|p| p.data_edge_into(at))
    }

    /// Refuses `other` as the source of a whole-graph update of an executable of this graph
    /// unless CUDA pairs the two graphs' nodes by position (see the module docs): the same
    /// kinds of node with the same dependency lists, position by position, the same edges added
    /// later, and no node removed from either.
    /// (Both have bodies of the same shape: checked before.)
    #[inline]
    pub(crate) fn check_pairs_by_position(&self, other: &Graph<'_>) -> Result<()> {
        if self.built_alike(other) {
            return Ok(());
        }
        self.check_pairs_node_by_node(other)
    }

    /// Whether `other` was built as this graph was, by the comparison a rebuild loop can afford
    /// on every update: the same edge list and edges added later (usually none), nothing
    /// removed or left unlisted, and position by position the same kind and the same record of
    /// dependencies (one, none, or a range of the edge list: with the same edge list, the same
    /// range is the same dependency list). Stricter than [`Graph::check_pairs_node_by_node`]
    /// (the same lists laid out otherwise in the edge list fail it): `false` says only that the
    /// exact check must decide.
    #[inline]
    fn built_alike(&self, other: &Graph<'_>) -> bool {
        let empty = Pairing::default();
        let (mine, theirs) = (
            self.pairing().unwrap_or(&empty),
            other.pairing().unwrap_or(&empty),
        );
        let alike = |a: &NodeRecord, b: &NodeRecord| a.kind == b.kind && a.deps == b.deps;
        !(mine.removed || mine.unlisted || theirs.removed || theirs.unlisted)
            && mine.added == theirs.added
            && self.nodes.len() == other.nodes.len()
            && self.edges() == other.edges()
            && self
                .nodes
                .iter()
                .zip(&other.nodes)
                .all(|(a, b)| alike(a, b))
            && self.body_nodes().len() == other.body_nodes().len()
            && (self.body_nodes().iter())
                .zip(other.body_nodes())
                .all(|(a, b)| alike(&a.record, &b.record))
    }

    /// [`Graph::check_pairs_by_position`] node by node, with the error naming the first node
    /// that differs.
    #[cold]
    #[inline(never)]
    fn check_pairs_node_by_node(&self, other: &Graph<'_>) -> Result<()> {
        let empty = Pairing::default();
        let (mine, theirs) = (
            self.pairing().unwrap_or(&empty),
            other.pairing().unwrap_or(&empty),
        );
        if mine.removed || theirs.removed || mine.unlisted || theirs.unlisted {
            return Err(Error::Invalid {
                node: "update".into(),
                reason: "a node was removed from one of the two graphs (after a failed capture \
                         into it, or a conditional node whose bodies failed to build), or a \
                         capture recorded edges with data into it: CUDA would then pair their \
                         nodes in an order this crate cannot follow, and the executable's \
                         records of each node's memory would be another node's; re-instantiate \
                         from the graph (`reinstantiate_from`)"
                    .into(),
            });
        }
        let changed = |node: Option<usize>| Error::UpdateRejected {
            node: node.map_or_else(|| "<graph>".into(), |i| other.name_of(i)),
            reason: UpdateFailure::TopologyChanged,
        };
        if self.nodes.len() != other.nodes.len() || mine.added.len() != theirs.added.len() {
            return Err(changed(None));
        }
        let (my_edges, their_edges) = (self.edges(), other.edges());
        let records = self.all_records().zip(other.all_records()).enumerate();
        for (index, (a, b)) in records {
            if a.deps.get(my_edges) != b.deps.get(their_edges) {
                return Err(changed(Some(index)));
            }
            if a.kind != b.kind {
                // What the driver says of the same graphs.
                return Err(Error::UpdateRejected {
                    node: other.name_of(index),
                    reason: UpdateFailure::NodeTypeChanged,
                });
            }
        }
        // (Whether an edge with data is listed as a dependency depends on its kernel waiting:
        // compared with the lists above.)
        for (mine, theirs) in mine.added.iter().zip(&theirs.added) {
            if mine != theirs {
                let (to, _, _) = *mine;
                let node = match to {
                    LoopAt::Own(i) => i as usize,
                    LoopAt::Body(p) => self.nodes.len() + p as usize,
                };
                return Err(changed(Some(node)));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bodys_added_edges_are_taken_in_at_its_place_in_the_body_table() {
        // The body: its own nodes 0 and 1 (an edge between them), and a nested body's node 0
        // (an edge from the nested body's first node to its second).
        let mut body = Pairing::default();
        body.added(0, 1, EdgeKind::Programmatic);
        body.added
            .push((LoopAt::Body(1), LoopAt::Body(0), EdgeKind::Default));
        let mut graph = Pairing::default();
        graph.added(0, 2, EdgeKind::Default);
        // Taken in with 3 body nodes before it in the table, 2 of its own.
        graph.absorb(body, 3, 2);
        assert_eq!(
            graph.added,
            [
                (LoopAt::Own(2), LoopAt::Own(0), EdgeKind::Default),
                (LoopAt::Body(4), LoopAt::Body(3), EdgeKind::Programmatic),
                (LoopAt::Body(6), LoopAt::Body(5), EdgeKind::Default),
            ]
        );
        assert!(!graph.removed && !graph.unlisted);
        let mut lost = Pairing::default();
        lost.removed();
        graph.absorb(lost, 0, 0);
        assert!(
            graph.removed,
            "a body that lost a node makes its graph's pairing unknown"
        );
    }
}
