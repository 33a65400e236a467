//! The graph's side of stream capture (`crate::capture`): the nodes a capture recorded into the
//! driver's graph, learned into the node table in graph order, or removed again.

use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::sync::Arc;

use cudarc::driver::sys;

use super::definition::Graph;
use super::records::{Deps, NodeRecord};
use crate::driver::result;
use crate::error::{Error, Result};
use crate::function_set::FunctionSet;
use crate::kernel::KernelContract;
use crate::memory::operand::Use;
use crate::node::{NodeId, NodeKind};

impl<'a> Graph<'a> {
    /// The raw handles of `deps`, checked to be nodes of this graph (for `call`).
    pub(crate) fn raw_deps(&self, call: &str, deps: &[NodeId]) -> Result<Vec<sys::CUgraphNode>> {
        deps.iter()
            .map(|dep| match self.index_of(*dep) {
                Some(index) => Ok(self.nodes[index].raw),
                None => Err(Error::Invalid {
                    node: call.into(),
                    reason: format!("dependency node#{} is not a node of this graph", dep.index),
                }),
            })
            .collect()
    }

    /// The nodes of the driver's graph that the node table does not list (a capture recorded
    /// them there), each after its dependencies among them, with its raw type and dependencies.
    pub(crate) fn recorded_nodes(&self) -> Result<Vec<Recorded>> {
        // SAFETY: a live graph.
        let all = unsafe { result::graph::nodes(self.raw) }?;
        let known: HashSet<sys::CUgraphNode> = self.nodes.iter().map(|r| r.raw).collect();
        let recorded = all
            .into_iter()
            .filter(|raw| !known.contains(raw))
            .map(|raw| {
                // SAFETY: nodes of this live graph.
                let code = unsafe { result::graph::node_type(raw) }?;
                // SAFETY: as above.
                let (deps, unlisted) = unsafe { result::graph::dependencies(raw) }?;
                Ok(Recorded {
                    raw,
                    code,
                    deps,
                    unlisted,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        topological(recorded)
    }

    /// Adds `recorded` (from [`Graph::recorded_nodes`], in that order) to the node table, with
    /// their kinds and edges. Returns their indices.
    pub(crate) fn learn_recorded(&mut self, recorded: Vec<Recorded>) -> Result<Range<usize>> {
        let first = self.nodes.len();
        let too_many = || Error::Invalid {
            node: "<capture>".into(),
            reason: "a graph holds at most 2^32 nodes".into(),
        };
        u32::try_from(first + recorded.len()).map_err(|_| too_many())?;
        let mut index_of: HashMap<sys::CUgraphNode, u32> = self
            .nodes
            .iter()
            .enumerate()
            .map(|(i, r)| (r.raw, i as u32))
            .collect();
        self.nodes.reserve(recorded.len());
        let mut memory_nodes = false;
        if recorded.iter().any(|n| n.unlisted) {
            // Whole-graph updates would pair nodes through edges the table does not list.
            self.tables_mut().pairing.unlisted();
        }
        for node in recorded {
            let index = self.nodes.len() as u32;
            let deps: Vec<u32> = node
                .deps
                .iter()
                .map(|d| {
                    index_of.get(d).copied().ok_or_else(|| Error::Invalid {
                        node: format!("node#{index}"),
                        reason: "a captured node depends on a node the driver did not list".into(),
                    })
                })
                .collect::<Result<_>>()?;
            let deps = match deps[..] {
                [] => Deps::None,
                [dep] => Deps::One(dep),
                _ => {
                    let edges = &mut self.tables_mut().edges;
                    let start = edges.len() as u32;
                    edges.extend(&deps);
                    Deps::Listed {
                        start,
                        end: edges.len() as u32,
                    }
                }
            };
            let kind = NodeKind::of_captured(node.code);
            memory_nodes |= matches!(kind, NodeKind::MemAlloc | NodeKind::MemFree);
            index_of.insert(node.raw, index);
            self.nodes.push(NodeRecord {
                raw: node.raw,
                kind,
                name: None,
                deps,
                kernel: KernelContract::NONE,
                uses: (0, 0),
            });
        }
        // Captured `cuMemAllocAsync` / `cuMemFreeAsync` calls became memory nodes: the same
        // restrictions hold (no clone, no embedding, no whole-graph update).
        if memory_nodes {
            self.tables_mut().memory_nodes = true;
        }
        Ok(first..self.nodes.len())
    }

    /// What a capture's own calls leave to the graph it recorded: the kernels' modules, the
    /// panic slot of its host functions, the conditional handles that drive no node yet.
    pub(crate) fn take_from_capture(
        &mut self,
        functions: &FunctionSet,
        panics: &Arc<crate::node::PanicSlot>,
        idle_handles: Vec<crate::node::RawConditionalHandle>,
    ) {
        self.functions.extend(functions);
        self.panics.watch(std::slice::from_ref(panics));
        if !idle_handles.is_empty() {
            self.tables_mut().idle_handles.extend(idle_handles);
        }
    }

    /// Where the node table stands, to roll back to ([`Graph::roll_back`]).
    pub(crate) fn mark(&self) -> Mark {
        Mark {
            nodes: self.nodes.len(),
            edges: self.edges().len(),
            uses: self.uses_len(),
        }
    }

    /// Removes the nodes added since `mark` (a capture into this graph whose recorded work was
    /// refused after it was learned). CUDA cannot remove nodes from a graph with memory nodes:
    /// then, or when a removal fails, the graph is left unusable (it would hold work that was
    /// refused: see `Tables::refused_work`).
    pub(crate) fn roll_back(&mut self, mark: Mark) {
        let mut kept = self.has_memory_nodes();
        if !kept {
            for record in &self.nodes[mark.nodes.min(self.nodes.len())..] {
                // SAFETY: a node of this live graph, without memory nodes, that no handle names
                // (the capture's handles were not given out).
                kept |= unsafe { result::graph::destroy_node(record.raw) }.is_err();
            }
            if mark.nodes < self.nodes.len() {
                self.tables_mut().pairing.removed();
            }
        }
        self.nodes.truncate(mark.nodes);
        if let Some(tables) = &mut self.tables {
            tables.edges.truncate(mark.edges);
            tables.uses.truncate(mark.uses);
            let nodes = mark.nodes as u32;
            tables
                .loops
                .retain(|at| !matches!(at, super::bodies::LoopAt::Own(i) if *i >= nodes));
        }
        if kept {
            self.mark_refused_work();
        }
    }

    /// Gives node `index` (one of the graph's own, added by a capture with no uses yet) the
    /// uses `uses`.
    pub(crate) fn attach_uses(&mut self, index: usize, uses: Vec<Use<'a>>) {
        if uses.is_empty() {
            return;
        }
        let host_code = uses.iter().any(|u| u.host_code);
        let tables = self.tables_mut();
        let start = tables.uses.len() as u32;
        let len = uses.len() as u32;
        tables.uses.extend(uses);
        tables.host_code |= host_code;
        if let Some(record) = self.nodes.get_mut(index) {
            record.uses = (start, len);
        }
    }

    /// Removes the nodes a failed capture recorded into this graph, so that the graph is as it
    /// was. CUDA cannot remove nodes from a graph with memory nodes (`cuGraphDestroyNode`):
    /// when this graph has some, or the capture recorded some, its nodes stay and are added to
    /// the node table, so that it lists what the graph holds, and the graph is unusable from
    /// then on (see `Tables::refused_work`): that work was never checked, and nothing holds the
    /// memory it uses (the capture's operands went with the failed capture).
    #[cfg(not(feature = "cuda-12020"))]
    pub(crate) fn discard_recorded(&mut self) -> Result<()> {
        let recorded = self.recorded_nodes();
        // Whatever happens below, recorded work that may be left in the graph makes it unusable.
        let recorded = match recorded {
            Ok(recorded) => recorded,
            Err(e) => {
                self.mark_refused_work();
                return Err(e);
            }
        };
        if recorded.is_empty() {
            return Ok(());
        }
        let memory_nodes = self.has_memory_nodes()
            || recorded.iter().any(|n| {
                matches!(
                    NodeKind::of_captured(n.code),
                    NodeKind::MemAlloc | NodeKind::MemFree
                )
            });
        if memory_nodes {
            self.mark_refused_work();
            self.learn_recorded(recorded)?;
            return Ok(());
        }
        let mut kept = false;
        for node in &recorded {
            // SAFETY: a node of this live graph, which has no memory nodes (checked above), and
            // that nothing refers to (the table does not list it, and no handle to it was given
            // out).
            kept |= unsafe { result::graph::destroy_node(node.raw) }.is_err();
        }
        self.tables_mut().pairing.removed();
        if kept {
            self.mark_refused_work();
            let left = self.recorded_nodes()?;
            self.learn_recorded(left)?;
        }
        Ok(())
    }
}

/// Where a graph's node table stood ([`Graph::mark`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Mark {
    nodes: usize,
    edges: usize,
    uses: usize,
}

/// A node of a driver graph that a capture recorded there.
#[derive(Debug)]
pub(crate) struct Recorded {
    pub(crate) raw: sys::CUgraphNode,
    /// Its raw `CUgraphNodeType`.
    pub(crate) code: u32,
    deps: Vec<sys::CUgraphNode>,
    /// Edges with data into it were left out of `deps` (see `result::graph::dependencies`).
    unlisted: bool,
}

/// `nodes` reordered so that each comes after those of them it depends on (Kahn's algorithm;
/// ties keep the driver's order). Node indices must follow that order: reachability walks rely on
/// it (`memory::hazard::reaches`).
fn topological(nodes: Vec<Recorded>) -> Result<Vec<Recorded>> {
    let position: HashMap<sys::CUgraphNode, usize> =
        nodes.iter().enumerate().map(|(i, n)| (n.raw, i)).collect();
    let mut waiting: Vec<usize> = nodes
        .iter()
        .map(|n| n.deps.iter().filter(|d| position.contains_key(d)).count())
        .collect();
    let mut dependents: Vec<Vec<usize>> = vec![Vec::new(); nodes.len()];
    for (i, node) in nodes.iter().enumerate() {
        for dep in &node.deps {
            if let Some(&d) = position.get(dep) {
                dependents[d].push(i);
            }
        }
    }
    let mut ready: std::collections::VecDeque<usize> =
        (0..nodes.len()).filter(|&i| waiting[i] == 0).collect();
    let mut order = Vec::with_capacity(nodes.len());
    while let Some(i) = ready.pop_front() {
        order.push(i);
        for &next in &dependents[i] {
            waiting[next] -= 1;
            if waiting[next] == 0 {
                ready.push_back(next);
            }
        }
    }
    if order.len() != nodes.len() {
        return Err(Error::Invalid {
            node: "<capture>".into(),
            reason: "the captured nodes' dependencies form a cycle".into(),
        });
    }
    let mut slots: Vec<Option<Recorded>> = nodes.into_iter().map(Some).collect();
    Ok(order.into_iter().filter_map(|i| slots[i].take()).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fake node handle: `topological` only compares handles.
    fn fake(n: usize) -> sys::CUgraphNode {
        (0x1000 + 0x10 * n) as sys::CUgraphNode
    }

    fn recorded(n: usize, deps: &[usize]) -> Recorded {
        Recorded {
            raw: fake(n),
            code: 0,
            deps: deps.iter().map(|&d| fake(d)).collect(),
            unlisted: false,
        }
    }

    #[test]
    fn captured_nodes_are_ordered_after_their_dependencies() {
        // 0 -> 2 -> 3, 1 -> 3, and 4 depends on a node already in the graph (99), listed in an
        // order where dependents come first.
        let nodes = vec![
            recorded(3, &[2, 1]),
            recorded(2, &[0]),
            recorded(4, &[99]),
            recorded(1, &[]),
            recorded(0, &[]),
        ];
        let order: Vec<sys::CUgraphNode> = topological(nodes)
            .unwrap()
            .into_iter()
            .map(|n| n.raw)
            .collect();
        let at = |n: usize| order.iter().position(|&r| r == fake(n)).unwrap();
        assert_eq!(order.len(), 5);
        assert!(at(0) < at(2) && at(2) < at(3) && at(1) < at(3));
        // Ties keep the driver's order: 4 and 1 were ready first, in that order.
        assert!(at(4) < at(1));

        let cycle = vec![recorded(0, &[1]), recorded(1, &[0])];
        assert!(matches!(topological(cycle), Err(Error::Invalid { .. })));
    }
}
