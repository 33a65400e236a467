//! Checks that span node kinds: host code sharing host memory with unordered nodes, the scope of
//! conditional handles, memory of a capture, a graph a broken capture left unusable.

use std::ops::Range;

use super::definition::Graph;
use crate::error::{Error, Result};
use crate::memory::hazard::{host_code_conflict, may_race, reaches, Conflict, Order};
use crate::memory::operand::{Hold, Use};
use crate::node::NodeId;

impl<'a> Graph<'a> {
    /// An earlier node whose use of host memory conflicts with the new node's uses (the table's
    /// from `from` on; the node comes after `deps`) while host code is involved and no path orders
    /// the two (see `memory::hazard`), with why. Called only for a node that touches host memory
    /// or launches a device graph, while host code is in the graph or in the node.
    #[cold]
    pub(super) fn host_code_conflict(
        &self,
        from: usize,
        deps: &[NodeId],
    ) -> Option<(usize, Conflict)> {
        let tables = self.tables.as_ref()?;
        let uses = tables.uses.get(from..).unwrap_or_default();
        let others = self
            .ordered_uses()
            .flat_map(|(i, uses)| uses.iter().map(move |u| (i, u)));
        // The new node comes after every node there is: before it if a dependency leads there.
        host_code_conflict(uses, others, |other| Order {
            before: deps
                .iter()
                .any(|d| reaches(other, d.index as usize, |n| self.deps_of(n))),
            after: false,
        })
    }

    /// Refuses conditional handles (among `uses`) that this graph's kernels may not set.
    pub(crate) fn check_handles(&self, uses: &[Use<'_>], node: &dyn Fn() -> String) -> Result<()> {
        let scope = self.scope();
        match uses
            .iter()
            .any(|u| matches!(u.hold, Hold::Handle { scope: s } if s != scope))
        {
            false => Ok(()),
            true => Err(Error::Invalid {
                node: node(),
                reason: "a conditional handle of another graph: a kernel may set only the \
                         handles of its own graph (and of the graph whose conditional body it is \
                         in)"
                .into(),
            }),
        }
    }

    /// Records that a broken capture left the graph unusable.
    pub(crate) fn mark_broken_by_capture(&mut self) {
        self.tables_mut().broken_by_capture = true;
    }

    /// Records that the graph holds work whose memory it does not account for (see
    /// `Tables::refused_work`): it is unusable from now on.
    pub(crate) fn mark_refused_work(&mut self) {
        self.tables_mut().refused_work = true;
    }

    /// Records that the driver graph must outlive the process's use of it (see
    /// `Tables::keep_driver_graph`); the graph is unusable from now on.
    pub(crate) fn keep_driver_graph(&mut self) {
        let tables = self.tables_mut();
        tables.keep_driver_graph = true;
        tables.refused_work = true;
    }

    /// Whether the driver graph is never to be destroyed (see `Tables::keep_driver_graph`).
    pub(crate) fn keeps_driver_graph(&self) -> bool {
        self.tables.as_ref().is_some_and(|t| t.keep_driver_graph)
    }

    /// Whether the graph is unusable: a broken capture left its handle invalid, or it holds
    /// work whose memory it does not account for.
    pub(crate) fn is_unusable(&self) -> bool {
        self.tables
            .as_ref()
            .is_some_and(|t| t.broken_by_capture || t.refused_work)
    }

    /// Refuses a graph counting handles made for conditional bodies that failed to build (see
    /// `Tables::dead_handles`): to be instantiated (the driver would refuse it, naming nothing),
    /// or to be an update source.
    pub(crate) fn refuse_dead_handles(&self) -> Result<()> {
        match self.tables.as_ref().map_or(0, |t| t.dead_handles) {
            0 => Ok(()),
            dead => Err(Error::Invalid {
                node: "conditional handle".into(),
                reason: format!(
                    "{dead} conditional handle{} made for the bodies of a conditional node whose \
                     build failed stay registered with this graph though the node is gone, \
                     driving nothing, and CUDA refuses to instantiate such a graph \
                     (CUDA_ERROR_INVALID_VALUE); a copy kept from the build would also let a \
                     kernel here set one: build the graph anew (`Graph::clear`)",
                    if dead == 1 { "" } else { "s" },
                ),
            }),
        }
    }

    /// Refuses to instantiate a graph with a conditional handle that drives no conditional node
    /// (CUDA would refuse it with `CUDA_ERROR_INVALID_VALUE`, naming nothing).
    pub(crate) fn check_handles_used(&self) -> Result<()> {
        self.refuse_dead_handles()?;
        match self
            .tables
            .as_ref()
            .map_or(0, |t| t.idle_handles.len() + t.stranded_handles)
        {
            0 => Ok(()),
            idle => Err(Error::Invalid {
                node: "conditional handle".into(),
                reason: format!(
                    "{idle} conditional handle{} made with `conditional_handle` drive{} no \
                     conditional node, and CUDA refuses to instantiate such a graph: give each \
                     to its conditional node, or do not make it",
                    if idle == 1 { "" } else { "s" },
                    if idle == 1 { "s" } else { "" }
                ),
            }),
        }
    }

    /// Refuses a graph that a broken or failed capture left unusable, with what to do: to be
    /// instantiated, to take more nodes, and to be embedded or used as an update source (its
    /// nodes would then run in another executable).
    #[inline]
    pub(crate) fn check_not_broken(&self) -> Result<()> {
        match &self.tables {
            Some(t) if t.broken_by_capture => Err(broken_by_capture()),
            Some(t) if t.refused_work => Err(refused_work()),
            _ => Ok(()),
        }
    }

    /// The first node of `nodes` whose use of host memory in host code, or whose device
    /// graph's, could run at the same time as another node's conflicting use (see
    /// `memory::hazard`), with that other node and why.
    pub(crate) fn host_code_race_among(
        &self,
        nodes: Range<usize>,
    ) -> Option<(usize, usize, Conflict)> {
        if !self.tables.as_ref().is_some_and(|t| t.host_code) {
            return None;
        }
        for i in nodes.clone() {
            let uses = self.node_uses(i);
            if !uses.iter().any(|u| u.host_code || u.launches()) {
                continue;
            }
            if let Some((j, why)) = self.race_of(i, uses) {
                return Some((j, i, why));
            }
        }
        None
    }

    /// A node whose uses conflict with `uses`, node `index`'s (see `memory::hazard`), with why.
    fn race_of(&self, index: usize, uses: &[Use<'a>]) -> Option<(usize, Conflict)> {
        let others = self
            .ordered_uses()
            .filter(|&(j, _)| j != index)
            .flat_map(|(j, uses)| uses.iter().map(move |u| (j, u)));
        host_code_conflict(uses, others, |j| {
            Order::of(index, j, |from, to| reaches(from, to, |n| self.deps_of(n)))
        })
    }

    /// Refuses the conditional node `index` whose bodies are `bodies` (built, not taken in yet)
    /// when what they use (host memory, device graphs their kernels may launch) conflicts with
    /// host code of a node not ordered with it (see `memory::hazard`): the bodies' nodes were
    /// added to graphs of their own, which did not see this graph's host nodes.
    #[cold]
    pub(crate) fn check_bodies_against_host_code(
        &self,
        index: usize,
        bodies: &[Graph<'a>],
    ) -> Result<()> {
        if !self.tables.as_ref().is_some_and(|t| t.host_code) {
            return Ok(());
        }
        let uses: Vec<Use<'a>> = bodies
            .iter()
            .flat_map(|b| b.uses_by_node().flatten().filter(|u| may_race(u)).cloned())
            .collect();
        match self.race_of(index, &uses) {
            None => Ok(()),
            Some((other, why)) => Err(Error::Hazard {
                first: self.name_of(other),
                second: self.name_of(index),
                reason: why.reason(true).unwrap_or_else(|| {
                    "a node of the conditional node's bodies uses host memory that the first \
                     node's host code uses, one of them writing it, and no edge orders the two \
                     nodes: add an edge between them"
                        .into()
                }),
            }),
        }
    }
}

/// Refuses memory of a capture among `uses` (`Hold::Captured`: an allocation made in a capture,
/// or a capture closure's view of the memory given to it), which only that capture's own work
/// may use: a node added to a graph, or an update, is not, unless it is a node of a conditional
/// body added to the capture `within`.
pub(crate) fn refuse_captured(
    uses: &[Use<'_>],
    within: Option<u64>,
    node: &dyn Fn() -> String,
) -> Result<()> {
    if uses
        .iter()
        .any(|u| matches!(u.hold, Hold::Captured { capture } if Some(capture) != within))
    {
        return Err(Error::Invalid {
            node: node(),
            reason:
                "memory of a capture (an allocation made in it, or a capture closure's view of \
                     the memory given to it) is valid only for that capture's own work: give the \
                     node the buffer itself"
                    .into(),
        });
    }
    Ok(())
}

/// The error for a graph holding work it cannot account for (see `Tables::refused_work`).
#[cold]
fn refused_work() -> Error {
    Error::Invalid {
        node: "graph".into(),
        reason: "a failed capture into this graph (or a failed removal of a node, or a \
                 `Graph::rebuild` that failed to make its reused nodes again) left work in it \
                 that CUDA could not remove (CUDA removes no node from a graph with memory \
                 nodes), and whose memory nothing checked or holds: build the graph again"
            .into(),
    }
}

/// The error for a graph that a broken capture left unusable.
#[cold]
fn broken_by_capture() -> Error {
    Error::Invalid {
        node: "graph".into(),
        reason: "a capture into this graph was broken, and CUDA leaves a graph unusable after \
                 that: build the graph again"
            .into(),
    }
}
