//! The updates that move a node between memory the executable holds: nothing registered,
//! nothing released, no completion marker ([`Holdings::replace_one`] for any node kind,
//! [`Holdings::plan_move`] and [`Holdings::commit_move`] for a kernel node's pointer arguments).

use super::{alloc_key, Holdings, UseMeta, NO_SLOT};
use crate::error::Result;
use crate::memory::alloc::Space;
use crate::memory::operand::{Hold, MemKey, Use};

/// The most allocations one node's update may move between for [`Holdings::replace_one`]'s
/// fast path (a kernel takes at most a dozen arguments; more goes the general way).
const MOST_MOVED: usize = 16;

/// How one node's update changes its uses of one owned allocation: the allocation's key, and
/// the change in its uses and writes.
#[derive(Clone, Copy, Default)]
struct Moved {
    key: usize,
    uses: i32,
    writes: i32,
}

/// The most pointer arguments of a kernel node that [`Holdings::plan_move`] moves (one with
/// more goes the general way).
const MOST_ARGS: usize = 8;

/// How a kernel node's update moves it between memory the executable holds
/// ([`Holdings::plan_move`], carried out by [`Holdings::commit_move`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MovePlan {
    /// The node's uses at these two positions swap places (two buffers swapped).
    Swap(u8, u8),
    /// The positions whose bits are set in `changed` take the memory of the allocation in the
    /// executable's slot of their `new_slots` entry.
    Take {
        changed: u8,
        new_slots: [u32; MOST_ARGS],
    },
}

/// The positions of the bits set in a mask, lowest first.
struct Bits(u8);

impl Iterator for Bits {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let bit = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(bit)
    }
}

/// Memory a kernel node's argument may leave with nothing released: owned device memory
/// (whose last use is the caller's to rule out) and raw pointers.
pub(super) fn movable(u: &Use<'_>) -> bool {
    match u.hold {
        Hold::Owned(_) => u.space == Space::Device,
        Hold::Raw => true,
        _ => false,
    }
}

impl<'a> Holdings<'a> {
    /// [`Holdings::replace`] for one node, `node`, whose new uses are `uses` (drained; its
    /// capacity is left for the next update).
    ///
    /// When the node only moves between memory the executable holds already, the update is
    /// its driver call and the node's new uses: the device memory it starts to use is used by
    /// other nodes of the executable (registered, its earlier work waited for), and every
    /// allocation it stops using is still used by another node (nothing to release, no
    /// completion marker). That is the update of a loop that swaps two buffers between launches
    /// (Jacobi's `x` and `x_new`, double-buffered pipelines). Anything else (memory new to the
    /// executable, memory it releases, host memory, borrowed memory) goes the general way.
    pub(crate) fn replace_one(
        &mut self,
        node: usize,
        uses: &mut Vec<Use<'a>>,
        name: &dyn Fn(usize) -> String,
        apply: impl FnOnce() -> Result<()>,
    ) -> Result<()> {
        let mut moved = [Moved::default(); MOST_MOVED];
        match self.moves_within_held(node, uses, &mut moved) {
            Some(count) => {
                apply()?;
                for m in &moved[..count] {
                    if let Some(h) = self.held_mut(m.key) {
                        h.counts.uses = h.counts.uses.saturating_add_signed(m.uses);
                        h.counts.writes = h.counts.writes.saturating_add_signed(m.writes);
                    }
                }
                self.set_node_uses(node, uses.drain(..));
                Ok(())
            }
            None => self.replace(vec![(node, std::mem::take(uses))], name, apply),
        }
    }

    /// How node `node` (a kernel node) can be made to use the memory `keys` (its pointer
    /// arguments, in order) with nothing registered or released; `None` when it cannot (the
    /// update goes the general way, [`Holdings::replace_one`]). Changes nothing: the caller makes
    /// the driver call, then, when it succeeded, [`Holdings::commit_move`] with the plan.
    ///
    /// It can when every argument whose memory changes moves from owned device memory (or a raw
    /// pointer) to owned device memory the executable holds (registered, its earlier work
    /// waited for), and every allocation it leaves stays in use (nothing to release, no
    /// completion marker). That is the update of a loop that swaps two buffers between launches
    /// (Jacobi's `x` and `x_new`, double-buffered pipelines), whether the node's two buffers
    /// swap places or the node moves from one buffer to the other. The checks the general way
    /// makes of new uses (host code, captured memory, conditional handles, indirect values,
    /// graph allocations) concern other kinds of memory than these, and so cannot refuse them.
    // Inlined into the caller (`GraphExec::send_kernel_params_moved`, one copy per kernel
    // parameter list, not per node), with the commit: as calls, with the plan passed through
    // memory, they cost about 100 of a ping-pong swap's 1,350 instructions (null driver).
    // Split from the commit so that the driver call between the two is the caller's own
    // rather than a closure called through a pointer.
    #[inline(always)]
    pub(crate) fn plan_move(&self, node: usize, keys: &[MemKey]) -> Option<MovePlan> {
        let &(start, len) = self.ranges.get(node)?;
        let (base, n) = (start as usize, len as usize);
        if n != keys.len() || n > MOST_ARGS {
            return None;
        }
        let old = self.meta.get(base..base + n)?;
        // The changed positions.
        let mut changed = 0u8;
        for (j, (old, key)) in old.iter().zip(keys).enumerate() {
            if old.key != *key {
                if !old.movable {
                    return None;
                }
                changed |= 1 << j;
            }
        }
        // Two arguments whose memory swapped places (a kernel reading `x` and writing `x_new`
        // after the two are swapped): the two uses swap places, nothing taken or given back.
        if changed.count_ones() == 2 {
            let (i, j) = (
                changed.trailing_zeros() as usize,
                7 - changed.leading_zeros() as usize,
            );
            if old[i].key == keys[j] && old[j].key == keys[i] {
                return Some(MovePlan::Swap(i as u8, j as u8));
            }
        }
        // The slot of the memory each changed position takes.
        let mut new_slots = [NO_SLOT; MOST_ARGS];
        for j in Bits(changed) {
            new_slots[j] = self.device_slot(&keys[j])?;
        }
        // Each allocation a position leaves keeps a use.
        for j in Bits(changed) {
            let slot = old[j].slot;
            if slot == NO_SLOT {
                continue;
            }
            let leaving = Bits(changed).filter(|&i| old[i].slot == slot).count();
            let coming = Bits(changed).filter(|&i| new_slots[i] == slot).count();
            let uses = self.held.get(slot as usize)?.as_ref()?.counts.uses as usize;
            if uses + coming <= leaving {
                return None;
            }
        }
        Some(MovePlan::Take { changed, new_slots })
    }

    /// Makes node `node` use the memory `keys` as `plan` ([`Holdings::plan_move`]'s for these
    /// keys, nothing changed since) says, once its driver call succeeded: each changed
    /// argument's use made anew from the allocation the executable holds (one reference count
    /// taken, the old use's given back), or, when two arguments' memory swapped places, the two
    /// uses swapped; each keeps its position's access (the parameter there reads or writes),
    /// and the counts follow.
    #[inline(always)]
    pub(crate) fn commit_move(&mut self, node: usize, keys: &[MemKey], plan: MovePlan) {
        let base = self.ranges[node].0 as usize;
        match plan {
            MovePlan::Swap(i, j) => self.swap_uses(base + usize::from(i), base + usize::from(j)),
            MovePlan::Take { changed, new_slots } => {
                self.take_moves(base, keys, changed, new_slots)
            }
        }
    }

    /// Swaps the memory of uses `a` and `b` of one node, each keeping its access (the parameter
    /// there reads or writes): [`Holdings::commit_move`] for two buffers that swapped places.
    #[inline]
    fn swap_uses(&mut self, a: usize, b: usize) {
        let (write_a, write_b) = (self.uses[a].write, self.uses[b].write);
        if write_a != write_b {
            // The memory at `a` now gets `b`'s access, and the other way round.
            for (at, write) in [(a, write_b), (b, write_a)] {
                let slot = self.meta[at].slot;
                if let Some(h) = self.held.get_mut(slot as usize).and_then(Option::as_mut) {
                    h.counts.writes = match write {
                        true => h.counts.writes + 1,
                        false => h.counts.writes.saturating_sub(1),
                    };
                }
            }
        }
        self.uses.swap(a, b);
        self.meta.swap(a, b);
        (self.uses[a].write, self.uses[b].write) = (write_a, write_b);
    }

    /// [`Holdings::commit_move`] for arguments that take other memory: the node's uses at
    /// `base..` take the memory `keys` at the `changed` positions, each from the allocation in
    /// its `new_slots` entry.
    #[inline]
    fn take_moves(
        &mut self,
        base: usize,
        keys: &[MemKey],
        changed: u8,
        new_slots: [u32; MOST_ARGS],
    ) {
        let range = base..base + keys.len();
        let (uses, meta) = (&mut self.uses[range.clone()], &mut self.meta[range]);
        for j in Bits(changed) {
            let write = uses[j].write;
            if let Some(old) = self
                .held
                .get_mut(meta[j].slot as usize)
                .and_then(Option::as_mut)
            {
                old.counts.uses = old.counts.uses.saturating_sub(1);
                old.counts.writes = old.counts.writes.saturating_sub(u32::from(write));
            }
            let new = self.held[new_slots[j] as usize]
                .as_mut()
                .expect("planned: the slot holds the allocation");
            new.counts.uses += 1;
            new.counts.writes += u32::from(write);
            uses[j] = Use {
                space: Space::Device,
                start: keys[j].start,
                end: keys[j].end,
                write,
                host_code: false,
                hold: Hold::Owned(new.alloc.clone()),
            };
            meta[j] = UseMeta {
                key: keys[j],
                slot: new_slots[j],
                movable: true,
            };
        }
    }

    /// How node `node`'s owned memory changes if it uses `new` instead of its current uses,
    /// written into `moved` (the count of entries is returned), when the change only moves the
    /// node between device memory the executable holds and keeps holding; `None` otherwise.
    #[inline]
    fn moves_within_held(
        &self,
        node: usize,
        new: &[Use<'a>],
        moved: &mut [Moved; MOST_MOVED],
    ) -> Option<usize> {
        let mut count = 0;
        let old = self.node_uses(node).iter().map(|u| (u, -1));
        for (u, sign) in old.chain(new.iter().map(|u| (u, 1))) {
            let alloc = match &u.hold {
                Hold::Owned(alloc) => alloc,
                // Borrowed memory's earlier work is waited for when a node starts to use it.
                Hold::Borrowed { .. } if sign > 0 => return None,
                _ => continue,
            };
            if u.space != Space::Device {
                // Host memory: conflicts between executables are judged on exact counts.
                return None;
            }
            let key = alloc_key(alloc);
            let at = match moved[..count].iter().position(|m| m.key == key) {
                Some(at) => at,
                None if count < MOST_MOVED => {
                    moved[count] = Moved {
                        key,
                        uses: 0,
                        writes: 0,
                    };
                    count += 1;
                    count - 1
                }
                None => return None,
            };
            moved[at].uses += sign;
            moved[at].writes += sign * i32::from(u.write);
        }
        for m in &moved[..count] {
            // Held before, and still used afterwards.
            let held = self.held(m.key)?;
            if i64::from(held.counts.uses) + i64::from(m.uses) <= 0 {
                return None;
            }
        }
        Some(count)
    }
}
