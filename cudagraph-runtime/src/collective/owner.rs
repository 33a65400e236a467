//! [`SymmetricOwner`]: the one executable per communicator (on each rank) that may run
//! collectives over symmetric buffers.
//!
//! Over plain buffers, ranks that launch different executables in different orders hang: each
//! NCCL kernel moves data through NCCL's own buffers and writes only its own rank's memory. Over
//! symmetric buffers it does not just hang: NCCL's symmetric kernels read and write the peers'
//! windows directly, at the place the *local* graph names, so a rank running another collective
//! than its peer writes the peer's memory where the peer's graph may be using it otherwise. The
//! order check makes every rank's executable issue the same collectives at the same places;
//! allowing one such executable per communicator at a time keeps every rank's symmetric kernels
//! meeting their peers' at the same place of that one sequence, however the ranks interleave
//! their launches (a rank that launches it more often than its peers waits for them, at the
//! first collective).
//!
//! Memory from `ncclMemAlloc` is held to the same rule wherever a collective uses it: as
//! another communicator's window, or in a point-to-point step. NCCL registers the buffers of a
//! collective captured into a graph where it can open them to the peers (`NCCL_GRAPH_REGISTER`,
//! on by default), and such memory it can: the peers' kernels then read and write it directly,
//! at the places their own graphs recorded (see `windows::is_nccl_memory`).
//!
//! The claim is each rank's own, and a check made before instantiation does not tell which graph
//! each rank instantiates: so every instantiation of a graph with such collectives (and every
//! re-instantiation from one) ends with an exchange over each communicator it claims, comparing
//! the ranks' collectives there and whether each rank made its executable, claim included
//! (`CollectiveTable::agree_on_instantiation`). Every rank keeps its executable, or none does.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use super::comm::CommInner;
use super::table::CollectiveTable;
use crate::error::{Error, Result};
use crate::id::fresh_id;

/// A communicator's claim by an executable: the owner's id, 0 for none.
#[derive(Debug, Default)]
pub(crate) struct OwnerCell(AtomicU64);

impl OwnerCell {
    fn claim(&self, id: u64) -> bool {
        match self
            .0
            .compare_exchange(0, id, Ordering::AcqRel, Ordering::Acquire)
        {
            Ok(_) => true,
            Err(current) => current == id,
        }
    }

    fn release(&self, id: u64) {
        let _ = self
            .0
            .compare_exchange(id, 0, Ordering::AcqRel, Ordering::Relaxed);
    }
}

/// The communicators an executable owns for its collectives over symmetric buffers; released
/// when it is dropped (the next owner's launches are still ordered after its launches, as all
/// launches using one communicator are).
#[derive(Debug)]
pub(crate) struct SymmetricOwner {
    id: u64,
    held: Vec<Arc<CommInner>>,
}

impl Default for SymmetricOwner {
    fn default() -> Self {
        Self {
            id: fresh_id(),
            held: Vec::new(),
        }
    }
}

impl SymmetricOwner {
    /// Claims each communicator on which `table` runs a collective over symmetric buffers, in
    /// addition to those already held; returns how many it added (for [`Self::undo`]). Refused,
    /// naming the first such node (`name`), where another executable holds one.
    pub(crate) fn claim(
        &mut self,
        table: Option<&CollectiveTable>,
        name: &dyn Fn(usize) -> String,
    ) -> Result<usize> {
        let before = self.held.len();
        for (comm, node) in table
            .map(CollectiveTable::symmetric_uses)
            .unwrap_or_default()
        {
            if self.held.iter().any(|c| c.id == comm.id) {
                continue;
            }
            if !comm.symmetric_owner.claim(self.id) {
                self.undo(self.held.len() - before);
                return Err(Error::Invalid {
                    node: name(node),
                    reason: format!(
                        "another executable of this rank runs collectives over symmetric \
                         buffers (memory from `Communicator::alloc_symmetric`, of any \
                         communicator) on the same communicator (rank {} of {}): one at a time \
                         may, since NCCL's kernels write such buffers of the peers directly, at \
                         the places the local graph names, and ranks could launch the two in \
                         different orders; drop the other executable first, or give one of them \
                         plain buffers",
                        comm.rank, comm.size
                    ),
                });
            }
            self.held.push(comm);
        }
        Ok(self.held.len() - before)
    }

    /// Releases the last `added` communicators claimed.
    pub(crate) fn undo(&mut self, added: usize) {
        for comm in self.held.drain(self.held.len() - added..) {
            comm.symmetric_owner.release(self.id);
        }
    }

    /// Keeps only the communicators `table` runs symmetric collectives on (after the executable
    /// moved to that table's graph).
    pub(crate) fn keep_for(&mut self, table: Option<&CollectiveTable>) {
        let uses = table
            .map(CollectiveTable::symmetric_uses)
            .unwrap_or_default();
        let id = self.id;
        self.held.retain(|c| {
            let keep = uses.iter().any(|(u, _)| u.id == c.id);
            if !keep {
                c.symmetric_owner.release(id);
            }
            keep
        });
    }
}

impl Drop for SymmetricOwner {
    fn drop(&mut self) {
        self.undo(self.held.len());
    }
}
