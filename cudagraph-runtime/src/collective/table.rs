//! What a graph records about its collective nodes ([`CollectiveTable`]): the communicators they
//! use, each node's [`Collective`] in the order added, and whether the ranks' orders were
//! checked; and the ordering of launches that use a communicator.

use std::sync::Arc;

use cudarc::driver::CudaStream;

use super::comm::CommInner;
use super::op::Collective;
use super::order::{self, Exchange, Intent};
use super::windows;
use crate::error::{Error, Result};

/// One collective node.
#[derive(Debug, Clone, Copy)]
struct Step {
    /// Its communicator, in `comms`.
    comm: usize,
    /// Its node index in the graph.
    node: usize,
    /// What it issues.
    what: Collective,
    /// The addresses of its buffers (source, destination; 0 for none), fixed by the capture.
    addrs: [u64; 2],
    /// Whether a buffer lies in memory NCCL may open to the peers (see
    /// [`windows::is_nccl_memory`]).
    nccl_memory: bool,
}

impl Step {
    /// Whether its executables are held to the rule of collectives over symmetric buffers (see
    /// `owner`): its peers' kernels may read and write its buffers directly, at the places
    /// their graphs recorded.
    fn opens_buffers(&self) -> bool {
        self.what.placement != [0; 2] || self.nccl_memory
    }
}

/// A graph's collective nodes (empty for most graphs).
#[derive(Debug, Clone, Default)]
pub(crate) struct CollectiveTable {
    /// The communicators, in the order of their first use.
    comms: Vec<Arc<CommInner>>,
    /// The same communicators sorted by id, the order launches lock them in (shared, so that a
    /// launch takes them with one reference count, not a copy of the list).
    by_id: Arc<[Arc<CommInner>]>,
    /// Every collective node, in the order added.
    steps: Vec<Step>,
    /// Whether the ranks were found to agree on `steps` (see `order`).
    checked: bool,
}

impl CollectiveTable {
    pub(crate) fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// Empties the table, for a graph cleared for a rebuild. A table never used (most graphs')
    /// is left as it is: a rebuild loop then drops and makes nothing here.
    pub(crate) fn clear(&mut self) {
        if !(self.comms.is_empty() && self.by_id.is_empty() && self.steps.is_empty())
            || self.checked
        {
            *self = Self::default();
        }
    }

    /// The communicators the graph's collective nodes use, sorted by id: the order a launch
    /// locks them in (see [`launch_ordered`]).
    pub(crate) fn launch_order(&self) -> &Arc<[Arc<CommInner>]> {
        &self.by_id
    }

    /// Records node `node`, issuing `what` on `comm` with the buffers at `addrs`.
    pub(crate) fn push(
        &mut self,
        comm: &Arc<CommInner>,
        node: usize,
        what: Collective,
        addrs: [u64; 2],
    ) {
        let nccl_memory = addrs.iter().any(|&a| windows::is_nccl_memory(a));
        self.push_step(comm, node, what, addrs, nccl_memory);
    }

    fn push_step(
        &mut self,
        comm: &Arc<CommInner>,
        node: usize,
        what: Collective,
        addrs: [u64; 2],
        nccl_memory: bool,
    ) {
        let at = match self.comms.iter().position(|c| c.id == comm.id) {
            Some(at) => at,
            None => {
                self.comms.push(comm.clone());
                let mut by_id = self.comms.clone();
                by_id.sort_by_key(|c| c.id);
                self.by_id = by_id.into();
                self.comms.len() - 1
            }
        };
        self.steps.push(Step {
            comm: at,
            node,
            what,
            addrs,
            nccl_memory,
        });
        self.checked = false;
    }

    /// Records `child`'s collectives as issued by node `node` (the child-graph node embedding
    /// them).
    pub(crate) fn adopt(&mut self, child: &CollectiveTable, node: usize) {
        for step in &child.steps {
            self.push_step(
                &child.comms[step.comm],
                node,
                step.what,
                step.addrs,
                step.nccl_memory,
            );
        }
    }

    /// Checks, once, that every rank of each communicator issues the same collectives in the same
    /// order, placed alike among the collectives of the graph's other communicators (see
    /// `order`); `name(i)` names node `i`. Every rank must call it at the same point (it
    /// exchanges over each communicator, in the order of their keys, which every rank shares).
    pub(crate) fn check_order(&mut self, name: &dyn Fn(usize) -> String) -> Result<()> {
        if self.checked {
            return Ok(());
        }
        // The exchange waits on the host, for the launches before it and for the peers: not in
        // a host node (no driver or NCCL call there) or a capture closure. Refused whatever the
        // number of ranks, so that a program's one-rank run refuses where its larger ones would.
        crate::ambient::refuse_waiting("Graph::check_collective_order")?;
        self.exchange(&|_| true, Intent::Check, name)?;
        self.checked = true;
        Ok(())
    }

    /// Makes every rank of each communicator on which a collective runs over symmetric buffers
    /// (or other memory NCCL may open to the peers, see [`windows::is_nccl_memory`]) instantiate the graph, or none (`ready`: whether this rank made its executable and
    /// claimed the communicators for it, see `owner`): an exchange over each such communicator,
    /// in the order of their keys, comparing the ranks' collectives there as the order check
    /// does (whether or not the graph was checked before) and whether each rank is ready.
    /// Refused, on every rank, when they differ or some rank is not ready. Nothing is exchanged
    /// for a graph without such collectives.
    ///
    /// The executables of a communicator's ranks whose collectives run over symmetric buffers
    /// thus issue the same collectives at the same places: NCCL's symmetric kernels write the
    /// peers' buffers at the places the local graph names, so ranks owning executables that
    /// name other places (see `owner`) would write each other's memory where it is used
    /// otherwise. A check made before, apart from the instantiation, does not tell which graph
    /// each rank instantiates, nor whether every rank's instantiation succeeds.
    pub(crate) fn agree_on_instantiation(
        &self,
        ready: bool,
        name: &dyn Fn(usize) -> String,
    ) -> Result<()> {
        let symmetric: Vec<bool> = (0..self.comms.len())
            .map(|at| self.steps.iter().any(|s| s.comm == at && s.opens_buffers()))
            .collect();
        if !symmetric.contains(&true) {
            return Ok(());
        }
        crate::ambient::refuse_waiting("Graph::instantiate")?;
        self.exchange(&|at| symmetric[at], Intent::Instantiate { ready }, name)
    }

    /// The exchanges of [`order::check_graph`] over the communicators `only` selects.
    fn exchange(
        &self,
        only: &dyn Fn(usize) -> bool,
        intent: Intent,
        name: &dyn Fn(usize) -> String,
    ) -> Result<()> {
        let comms: Vec<(u64, &dyn Exchange)> = self
            .comms
            .iter()
            .map(|c| (c.key, &**c as &dyn Exchange))
            .collect();
        let steps: Vec<order::Step> = self
            .steps
            .iter()
            .map(|s| order::Step {
                comm: s.comm,
                node: s.node,
                what: s.what,
            })
            .collect();
        order::check_graph(&comms, &steps, only, intent, name)
    }
}

impl CollectiveTable {
    /// The last collective node added on each of `comms` (by id), if any: a new collective on
    /// one of them must come after it.
    pub(crate) fn last_on(&self, comms: &[u64]) -> Vec<usize> {
        let mut last = Vec::new();
        for &id in comms {
            let found = self
                .steps
                .iter()
                .rev()
                .find(|s| self.comms[s.comm].id == id)
                .map(|s| s.node);
            if let Some(node) = found.filter(|n| !last.contains(n)) {
                last.push(node);
            }
        }
        last
    }

    /// The first collective node (the table is not empty: see `Graph::collectives`).
    pub(crate) fn first_node(&self) -> usize {
        self.steps.first().map_or(0, |s| s.node)
    }

    /// Each communicator on which a collective runs over symmetric buffers (or other memory NCCL
    /// may open to the peers), with the first such node.
    pub(crate) fn symmetric_uses(&self) -> Vec<(Arc<CommInner>, usize)> {
        let mut uses: Vec<(Arc<CommInner>, usize)> = Vec::new();
        for step in self.steps.iter().filter(|s| s.opens_buffers()) {
            let comm = &self.comms[step.comm];
            if !uses.iter().any(|(c, _)| c.id == comm.id) {
                uses.push((comm.clone(), step.node));
            }
        }
        uses
    }

    /// The ids of the communicators.
    pub(crate) fn comm_ids(&self) -> Vec<u64> {
        self.comms.iter().map(|c| c.id).collect()
    }

    /// Whether node `node` issues `what` on `comm` with the buffers at `addrs`, as recorded (a
    /// collective node cannot change: its NCCL work was recorded for those). `what`'s placement
    /// in the symmetric windows is not compared: the same addresses on the same communicator
    /// lie at the same place, since its windows stay where they are while it lives.
    pub(crate) fn issues(&self, node: usize, comm: u64, what: Collective, addrs: [u64; 2]) -> bool {
        self.steps.iter().any(|s| {
            s.node == node
                && self.comms[s.comm].id == comm
                && s.what.placed(what.placement) == what
                && s.addrs == addrs
        })
    }
}

/// Refuses to make child-graph node `node` of an executable run the graph whose collective
/// nodes are `theirs` (`cuGraphExecChildGraphNodeSetParams`) unless it issues exactly what the
/// node issues now (`mine` is the executable's graph's table; `name` names the node): the same
/// collectives on the same communicators with the same buffers, in the same order. What every
/// rank issues was checked across the ranks when the graph was instantiated, and the launches
/// are ordered by the communicators recorded then: a collective added, removed or changed by a
/// replacement on one rank would run unchecked (a peer's NCCL kernel reading and writing this
/// rank's symmetric buffers at other places) and unordered.
pub(crate) fn refuse_other_collectives(
    mine: Option<&CollectiveTable>,
    node: usize,
    theirs: Option<&CollectiveTable>,
    name: impl FnOnce() -> String,
) -> Result<()> {
    let issued = |table: &CollectiveTable, at: Option<usize>| {
        table
            .steps
            .iter()
            .filter(|s| at.is_none_or(|at| s.node == at))
            .map(|s| (table.comms[s.comm].id, s.what, s.addrs))
            .collect::<Vec<_>>()
    };
    let now = mine.map(|t| issued(t, Some(node))).unwrap_or_default();
    let then = theirs.map(|t| issued(t, None)).unwrap_or_default();
    if now == then {
        return Ok(());
    }
    Err(Error::Invalid {
        node: name(),
        reason: format!(
            "the new graph issues other NCCL collectives than the node ({} now, {} in the new \
             graph): collectives are checked across the ranks and ordered per communicator \
             when a graph is instantiated, so a replacement cannot add, remove or change one \
             (its communicator, buffers or operation); build the graph again on every rank and \
             instantiate it",
            now.len(),
            then.len()
        ),
    })
}

/// Makes the launch `launch` into `stream` come after the latest launch using each of `comms`
/// (sorted by id, as [`CollectiveTable::launch_order`] has them), and records it as theirs (see
/// [`Communicator`](super::Communicator)).
///
/// On the launch's own stream this costs a lock per communicator and nothing on the device:
/// stream order already puts the launch after the previous one there. Only a launch into another
/// stream than the previous one records an event there and makes this stream wait for it.
#[inline]
pub(crate) fn launch_ordered(
    comms: &[Arc<CommInner>],
    stream: &Arc<CudaStream>,
    launch: impl FnOnce() -> Result<()>,
) -> Result<()> {
    debug_assert!(comms.windows(2).all(|w| w[0].id < w[1].id));
    if let [comm] = comms {
        // The common case, one communicator: no list of guards.
        let mut last = comm.last();
        comm.order_after_last(&last, stream)?;
        let launched = launch();
        if may_have_launched(&launched, stream) {
            last.launched_on(stream);
        }
        return launched;
    }
    // Locked in one order (by id), so that two threads launching executables that share
    // communicators never hold one lock each while waiting for the other's.
    let mut held: Vec<_> = comms.iter().map(|c| c.last()).collect();
    for (comm, last) in comms.iter().zip(&held) {
        comm.order_after_last(last, stream)?;
    }
    let launched = launch();
    if may_have_launched(&launched, stream) {
        for last in &mut held {
            last.launched_on(stream);
        }
    }
    launched
}

/// Whether a launch into `stream` that returned `launched` may have run: a launch can fail after
/// the driver took it (an executable freeing adopted allocations records an event after its
/// launch), and the next launch must then still come after it. Counting one that did not run
/// only makes the next launch wait for `stream`; but not into a stream being captured, whose
/// end could not be marked (see `CommInner::order_after_last`) while the capture goes on, and
/// where no launch is made.
#[inline]
fn may_have_launched(launched: &Result<()>, stream: &CudaStream) -> bool {
    launched.is_ok() || matches!(crate::memory::fence::is_capturing(stream), Ok(false))
}
