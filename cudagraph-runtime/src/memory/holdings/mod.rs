//! An executable's uses of memory, node by node, and their registration with the allocations they
//! use: what makes memory outlive the launches that may use it.
//!
//! - Registering (instantiation, an update that brings memory in) makes the executable's next
//!   launch wait for earlier work on that memory.
//! - Releasing (an update that replaces memory, dropping the executable) records the executable's
//!   completion marker after its latest launch and leaves it with the allocation: the memory is
//!   freed, and reached by host code or by other executables, only after that marker.
//! - Moving a node between device memory the executable holds (two buffers swapped between
//!   launches) is neither: the memory stays registered and nothing is released, so the update
//!   touches no allocation's record and records no marker (`Holdings::plan_move` for kernel
//!   nodes, which reaches the executable's counts through each use's slot without a lookup;
//!   `Holdings::replace_one` for the other kinds).
//! - A launch records nothing: it enters the gate (when the executable holds owned memory),
//!   waits for whatever registration or host access left pending, and notes its stream.

use std::any::Any;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Arc;

use cudarc::driver::CudaStream;

use super::alloc::{Allocation, Space, UseCounts};
use super::fence::{EventCell, Fence, PendingWait};
use super::operand::{Hold, MemKey, Use};
use crate::ambient::must_defer_releases;
use crate::error::{Error, Result};
use crate::reaper;

mod moves;

use moves::movable;

/// One allocation an executable uses, with how many of its node uses there are.
struct Held {
    alloc: Arc<dyn Allocation>,
    counts: UseCounts,
}

/// What an update compares and counts of one use, kept beside it: a kernel node's update
/// compares its arguments' memory with the node's (every update), and one that moves the node
/// between allocations the executable holds reaches their counts through the slot; neither
/// reads the use itself or looks the allocation up. Two uses to a cache line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct UseMeta {
    /// The use's key ([`Use::key`]).
    key: MemKey,
    /// The slot in [`Holdings::held`] of the owned allocation it holds, or [`NO_SLOT`].
    slot: u32,
    /// Memory a kernel's argument may leave with nothing released (see [`movable`]).
    movable: bool,
}

impl UseMeta {
    /// `u`'s, its allocation in `slot`.
    fn of(u: &Use<'_>, slot: u32) -> Self {
        Self {
            key: u.key(),
            slot,
            movable: movable(u),
        }
    }
}

/// What an update looks up of a held allocation by its address: kept beside its slot.
#[derive(Clone, Copy)]
struct SlotKey {
    /// The allocation's address ([`alloc_key`]); 0 for a free slot.
    key: usize,
    /// Device memory (which a kernel node may move to without a check).
    device: bool,
}

/// How many inert entries the uses table may hold beyond as many as its live ones before
/// [`Holdings::compact_if_sparse`] drops them.
const COMPACT_SLACK: usize = 64;

/// An executable's uses of memory (see the module docs).
pub(crate) struct Holdings<'a> {
    fence: Arc<Fence>,
    uses: Vec<Use<'a>>,
    /// Per entry of `uses`: what updates compare and count of it (see [`UseMeta`]).
    meta: Vec<UseMeta>,
    /// Each node's uses: `uses[start..start + len]`.
    ranges: Vec<(u32, u32)>,
    /// Owned allocations in use, each in a slot that stays its own while it is held (`None`: a
    /// free slot, listed in `free`).
    held: Vec<Option<Held>>,
    /// Per slot of `held`: the allocation's address and space (a free slot's address is 0).
    slot_keys: Vec<SlotKey>,
    /// The slot of each allocation of `held`, by address (for many allocations; a few are found
    /// in `slot_keys`).
    index: SlotIndex,
    /// The free slots of `held`.
    free: Vec<u32>,
    /// Launches go through the fence's gate (owned memory is in use, host code may access it).
    gated: bool,
    launched: bool,
    last_stream: Option<Arc<CudaStream>>,
}

impl std::fmt::Debug for Holdings<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Holdings")
            .field("uses", &self.uses.len())
            .field("allocations", &self.index.len())
            .finish_non_exhaustive()
    }
}

/// The slots of the owned allocations an executable uses, by address (see [`AddrHasher`]).
type SlotIndex = HashMap<usize, u32, BuildHasherDefault<AddrHasher>>;

/// A [`UseMeta::slot`] for a use that holds no owned allocation.
const NO_SLOT: u32 = u32::MAX;

fn alloc_key(alloc: &Arc<dyn Allocation>) -> usize {
    Arc::as_ptr(alloc).cast::<()>() as usize
}

/// Hashes the keys of [`Holdings::held`], allocation addresses: a multiplication and a shift,
/// where the default hasher's SipHash (made to resist chosen keys, which addresses are not)
/// takes several times as long, on the path of every update that changes a node's memory.
#[derive(Default)]
struct AddrHasher(u64);

impl Hasher for AddrHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    #[inline]
    fn write_u64(&mut self, n: u64) {
        // Fibonacci hashing, folded so that the low bits (the bucket) depend on the high ones.
        let x = (self.0 ^ n).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 = x ^ (x >> 29);
    }

    #[inline]
    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

/// What `of` holds beyond `over`, per allocation (those with nothing beyond left out): the
/// uses and writes an update adds (`of` the incoming, `over` the outgoing) or takes away.
fn surplus(of: &[Held], over: &[Held]) -> Vec<Held> {
    of.iter()
        .filter_map(|held| {
            let other = over
                .iter()
                .find(|o| alloc_key(&o.alloc) == alloc_key(&held.alloc))
                .map_or(UseCounts::default(), |o| o.counts);
            let counts = held.counts.saturating_sub(other);
            (counts != UseCounts::default()).then(|| Held {
                alloc: held.alloc.clone(),
                counts,
            })
        })
        .collect()
}

/// Owned allocations among `uses`, with their counts, in first-use order.
fn tally<'u, 'a: 'u>(uses: impl IntoIterator<Item = &'u Use<'a>>) -> Vec<Held> {
    let mut out: Vec<Held> = Vec::new();
    let mut index: HashMap<usize, usize> = HashMap::new();
    for u in uses {
        let Some(alloc) = u.owned() else { continue };
        let at = *index.entry(alloc_key(alloc)).or_insert_with(|| {
            out.push(Held {
                alloc: alloc.clone(),
                counts: UseCounts::default(),
            });
            out.len() - 1
        });
        out[at].counts.add(UseCounts {
            uses: 1,
            writes: u.write as u32,
            host_code: u.host_code as u32,
            host_code_writes: (u.host_code && u.write) as u32,
        });
    }
    out
}

impl<'a> Holdings<'a> {
    /// The holdings of a new executable whose nodes use `nodes` (each node's uses, in node
    /// order). `name` names a node for errors.
    pub(crate) fn new<'u>(
        nodes: impl IntoIterator<Item = &'u [Use<'a>]>,
        name: &dyn Fn(usize) -> String,
    ) -> Result<Self>
    where
        'a: 'u,
    {
        Self::bound(nodes, name, None)
    }

    /// [`Holdings::new`] for an executable bound to `stream` (see [`Fence::bound`]).
    pub(crate) fn bound<'u>(
        nodes: impl IntoIterator<Item = &'u [Use<'a>]>,
        name: &dyn Fn(usize) -> String,
        stream: Option<Arc<CudaStream>>,
    ) -> Result<Self>
    where
        'a: 'u,
    {
        let mut holdings = Self {
            fence: Arc::new(Fence::bound_to(stream)),
            uses: Vec::new(),
            meta: Vec::new(),
            ranges: Vec::new(),
            held: Vec::new(),
            slot_keys: Vec::new(),
            index: SlotIndex::default(),
            free: Vec::new(),
            gated: false,
            launched: false,
            last_stream: None,
        };
        for node_uses in nodes {
            let start = holdings.uses.len() as u32;
            holdings.uses.extend_from_slice(node_uses);
            holdings.ranges.push((start, node_uses.len() as u32));
        }
        let tallied = tally(&holdings.uses);
        let mut registered = Vec::new();
        for held in tallied {
            let result = holdings.register(&held, &|| {
                describe(&held.alloc, &name(holdings.first_user(&held.alloc)))
            });
            if let Err(e) = result {
                holdings.unregister_all(&registered);
                return Err(e);
            }
            registered.push(held);
        }
        for held in registered {
            holdings.hold(held);
        }
        let meta = holdings
            .uses
            .iter()
            .map(|u| UseMeta::of(u, holdings.slot_of_use(u)))
            .collect();
        holdings.meta = meta;
        holdings.gated = !holdings.index.is_empty();
        holdings.wait_for_borrowed_homes(&holdings.uses);
        Ok(holdings)
    }

    /// The executable's side of the memory model, as the scope that may end its borrows sees
    /// it.
    pub(crate) fn fence(&self) -> &Arc<Fence> {
        &self.fence
    }

    /// Makes the next launch wait for the work enqueued so far on the home streams of the
    /// borrowed device memory among `uses`: cudarc's work on that memory, done before the graph
    /// borrowed it (taking the borrow made the home stream wait for the memory's uses on other
    /// streams, when cudarc tracks them). Launches after the next need nothing more: the memory
    /// stays borrowed, so nothing else writes it until the borrow's scope ends.
    fn wait_for_borrowed_homes(&self, uses: &[Use<'a>]) {
        let mut homes: Vec<&Arc<CudaStream>> = Vec::new();
        for u in uses {
            if let Hold::Borrowed {
                home: Some(home), ..
            } = &u.hold
            {
                if !homes.iter().any(|h| Arc::ptr_eq(h, home)) {
                    homes.push(home);
                }
            }
        }
        for home in homes {
            self.fence.wait_before_next_launch(PendingWait::StreamTail {
                stream: home.clone(),
                scratch: Arc::new(EventCell::default()),
            });
        }
    }

    /// The allocation at address `key` the executable holds, if it does.
    #[inline]
    fn held(&self, key: usize) -> Option<&Held> {
        let slot = *self.index.get(&key)?;
        self.held[slot as usize].as_ref()
    }

    /// [`Holdings::held`], to change its counts.
    #[inline]
    fn held_mut(&mut self, key: usize) -> Option<&mut Held> {
        let slot = *self.index.get(&key)?;
        self.held[slot as usize].as_mut()
    }

    /// The slot of the owned allocation `u` holds, or [`NO_SLOT`].
    #[inline]
    fn slot_of_use(&self, u: &Use<'_>) -> u32 {
        u.owned()
            .and_then(|a| self.index.get(&alloc_key(a)).copied())
            .unwrap_or(NO_SLOT)
    }

    /// Holds `held` (an allocation not held yet), in a free slot if there is one.
    fn hold(&mut self, held: Held) {
        let slot_key = SlotKey {
            key: alloc_key(&held.alloc),
            device: held.alloc.space() == Space::Device,
        };
        let slot = match self.free.pop() {
            Some(slot) => {
                self.held[slot as usize] = Some(held);
                self.slot_keys[slot as usize] = slot_key;
                slot
            }
            None => {
                self.held.push(Some(held));
                self.slot_keys.push(slot_key);
                (self.held.len() - 1) as u32
            }
        };
        self.index.insert(slot_key.key, slot);
    }

    /// Stops holding the allocation at address `key` (no use holds it any more), freeing its
    /// slot.
    fn unhold(&mut self, key: usize) {
        if let Some(slot) = self.index.remove(&key) {
            self.held[slot as usize] = None;
            self.slot_keys[slot as usize] = SlotKey {
                key: 0,
                device: false,
            };
            self.free.push(slot);
        }
    }

    /// The slot of the held device allocation that owns the memory of `key`, if any: among a
    /// few slots, found by looking at each; among more, by the index.
    #[inline]
    fn device_slot(&self, key: &MemKey) -> Option<u32> {
        const SCANNED: usize = 8;
        let owner = key.owner as usize;
        if owner == 0 {
            return None;
        }
        let slot = if self.slot_keys.len() <= SCANNED {
            self.slot_keys.iter().position(|s| s.key == owner)? as u32
        } else {
            *self.index.get(&owner)?
        };
        self.slot_keys[slot as usize].device.then_some(slot)
    }

    fn first_user(&self, alloc: &Arc<dyn Allocation>) -> usize {
        let key = alloc_key(alloc);
        self.ranges
            .iter()
            .position(|&(start, len)| {
                self.uses[start as usize..(start + len) as usize]
                    .iter()
                    .any(|u| u.owned().is_some_and(|a| alloc_key(a) == key))
            })
            .unwrap_or(0)
    }

    /// The owned allocations in use now, with their counts: what the launches of another
    /// executable use through this one (a device-launchable executable's memory, see
    /// `AllocState::set_dependents`).
    pub(crate) fn dependents(&self) -> Vec<super::alloc::Dependent> {
        self.held
            .iter()
            .flatten()
            .map(|h| super::alloc::Dependent {
                alloc: h.alloc.clone(),
                counts: h.counts,
            })
            .collect()
    }

    fn register(&self, held: &Held, describe: &dyn Fn() -> String) -> Result<()> {
        let alloc = &held.alloc;
        // A reference of the executable's own nodes, taken when they start to use the memory
        // (released with `last` when no node uses it, `unregister_all`).
        let new_ref = !self.index.contains_key(&alloc_key(alloc));
        alloc.state().register(
            &self.fence,
            held.counts,
            new_ref,
            alloc.space(),
            alloc.home(),
            describe,
        )
    }

    /// Undoes registrations just made (`held`, not committed to `self.held` yet): memory the
    /// executable held before keeps its holder, memory new to it loses it.
    fn unregister_all(&self, held: &[Held]) {
        for h in held {
            let last = !self.index.contains_key(&alloc_key(&h.alloc));
            h.alloc
                .state()
                .unregister(&self.fence, h.counts, last, self.launched);
        }
    }

    /// The nodes whose uses differ from those of a graph's use table (`table`, sliced per node
    /// by `ranges`: `(start, len)`, in node order), each with its new uses. Empty when the graph
    /// uses exactly the memory held now, as every rebuild with the same buffers does: that case
    /// is one pass over the two tables, with nothing allocated.
    pub(crate) fn changes_from(
        &self,
        table: &[Use<'a>],
        ranges: impl Iterator<Item = (u32, u32)> + Clone,
    ) -> Vec<(usize, Vec<Use<'a>>)> {
        // Laid out alike (a node without uses may record any start) and equal entry by entry:
        // then every node's slice is equal too. One pass over both lists of ranges, which ends
        // at the first difference (no count of `ranges` first: it walks the graph's records).
        let mut mine = self.ranges.iter();
        let same_layout = ranges.clone().all(|(s, l)| {
            mine.next()
                .is_some_and(|&(start, len)| len == l && (len == 0 || start == s))
        }) && mine.next().is_none();
        if same_layout
            && self.uses.len() == table.len()
            && self.uses.iter().zip(table).all(|(a, b)| a.same(b))
        {
            return Vec::new();
        }
        ranges
            .enumerate()
            .filter_map(|(node, (start, len))| {
                let new = &table[start as usize..(start + len) as usize];
                let old = self.node_uses(node);
                let same = old.len() == new.len() && old.iter().zip(new).all(|(a, b)| a.same(b));
                (!same).then(|| (node, new.to_vec()))
            })
            .collect()
    }

    /// The keys of node `node`'s uses (see [`Use::key`]).
    #[inline]
    pub(crate) fn node_keys(&self, node: usize) -> impl ExactSizeIterator<Item = &MemKey> {
        let meta = match self.ranges.get(node) {
            Some(&(start, len)) => &self.meta[start as usize..(start + len) as usize],
            None => &[],
        };
        meta.iter().map(|m| &m.key)
    }

    /// The uses of node `node`.
    #[inline]
    pub(crate) fn node_uses(&self, node: usize) -> &[Use<'a>] {
        match self.ranges.get(node) {
            Some(&(start, len)) => &self.uses[start as usize..(start + len) as usize],
            None => &[],
        }
    }

    /// Every node's uses, with the node's index.
    pub(crate) fn all_uses(&self) -> impl Iterator<Item = (usize, &Use<'a>)> + '_ {
        self.ranges
            .iter()
            .enumerate()
            .flat_map(move |(node, &(start, len))| {
                self.uses[start as usize..(start + len) as usize]
                    .iter()
                    .map(move |u| (node, u))
            })
    }

    /// Replaces the uses of the nodes in `changes` (node, new uses), around `apply`, the driver
    /// call that makes the nodes use the new memory. Nothing changes when `apply` or the
    /// registration of new memory fails.
    ///
    /// Memory the executable stops using is released after its completion marker is recorded
    /// (after the latest launch, which may still use it): [`Error::Capturing`] when that is not
    /// possible now, before anything is done.
    pub(crate) fn replace(
        &mut self,
        changes: Vec<(usize, Vec<Use<'a>>)>,
        name: &dyn Fn(usize) -> String,
        apply: impl FnOnce() -> Result<()>,
    ) -> Result<()> {
        if changes.is_empty() {
            // Nothing to re-register (a rebuild with the same buffers).
            return apply();
        }
        // Net change per allocation: what comes in, what goes out.
        let incoming = tally(changes.iter().flat_map(|(_, uses)| uses.iter()));
        let outgoing = tally(changes.iter().flat_map(|(node, _)| self.node_uses(*node)));
        let more = surplus(&incoming, &outgoing);
        let less = surplus(&outgoing, &incoming);
        // Memory this executable stops using altogether is released after the marker.
        let releases = less.iter().any(|l| {
            self.held(alloc_key(&l.alloc))
                .is_some_and(|h| h.counts.uses <= l.counts.uses)
        });
        if releases && self.launched {
            self.fence.mark()?;
        }
        let mut registered: Vec<Held> = Vec::new();
        for held in more {
            let user = || {
                changes
                    .iter()
                    .find(|(_, uses)| {
                        uses.iter().any(|u| {
                            u.owned()
                                .is_some_and(|a| alloc_key(a) == alloc_key(&held.alloc))
                        })
                    })
                    .map_or(0, |(node, _)| *node)
            };
            if let Err(e) = self.register(&held, &|| describe(&held.alloc, &name(user()))) {
                self.unregister_all(&registered);
                return Err(e);
            }
            registered.push(held);
        }
        if let Err(e) = apply() {
            self.unregister_all(&registered);
            return Err(e);
        }
        // Committed: the nodes now use the new memory, borrowed memory after its earlier work.
        for (_, new_uses) in &changes {
            self.wait_for_borrowed_homes(new_uses);
        }
        // Memory new to the executable gets its slot before the uses that hold it.
        for held in registered {
            match self.held_mut(alloc_key(&held.alloc)) {
                Some(h) => h.counts.add(held.counts),
                None => self.hold(held),
            }
        }
        for (node, new_uses) in changes {
            self.set_node_uses(node, new_uses.into_iter());
        }
        for l in less {
            let key = alloc_key(&l.alloc);
            let last = match self.held_mut(key) {
                Some(h) => {
                    h.counts = h.counts.saturating_sub(l.counts);
                    h.counts.uses == 0
                }
                None => true,
            };
            l.alloc
                .state()
                .unregister(&self.fence, l.counts, last, self.launched);
            if last {
                self.unhold(key);
            }
        }
        self.gated = !self.index.is_empty();
        Ok(())
    }

    /// Makes node `node`'s uses `new_uses`, each with its slot (in place when their count is
    /// the node's, else at the end, the old entries left inert).
    fn set_node_uses(&mut self, node: usize, new_uses: impl ExactSizeIterator<Item = Use<'a>>) {
        if node >= self.ranges.len() {
            self.ranges.resize(node + 1, (self.uses.len() as u32, 0));
        }
        let (start, len) = self.ranges[node];
        if new_uses.len() == len as usize {
            for (at, u) in (start as usize..).zip(new_uses) {
                self.meta[at] = UseMeta::of(&u, self.slot_of_use(&u));
                self.uses[at] = u;
            }
        } else {
            // Another count (a child graph's contents): the old entries stay as inert
            // placeholders (they hold nothing), the new ones go at the end.
            let range = start as usize..(start + len) as usize;
            for (u, meta) in self.uses[range.clone()]
                .iter_mut()
                .zip(&mut self.meta[range])
            {
                u.hold = super::operand::Hold::Raw;
                u.end = u.start;
                *meta = UseMeta::of(u, NO_SLOT);
            }
            let start = self.uses.len() as u32;
            let len = new_uses.len() as u32;
            for u in new_uses {
                self.meta.push(UseMeta::of(&u, self.slot_of_use(&u)));
                self.uses.push(u);
            }
            self.ranges[node] = (start, len);
            self.compact_if_sparse();
        }
    }

    /// Drops the inert placeholders [`Holdings::set_node_uses`] leaves when a node's count of
    /// uses changes, once they outnumber the live entries: a loop that updates a child-graph
    /// node with graphs of different sizes would otherwise grow the table without end. The
    /// live entries are laid out again in node order, as a build lays them out.
    fn compact_if_sparse(&mut self) {
        let live: usize = self.ranges.iter().map(|&(_, len)| len as usize).sum();
        if self.uses.len() <= 2 * live + COMPACT_SLACK {
            return;
        }
        let mut old: Vec<Option<Use<'a>>> = std::mem::take(&mut self.uses)
            .into_iter()
            .map(Some)
            .collect();
        let old_meta = std::mem::take(&mut self.meta);
        self.uses.reserve(live);
        self.meta.reserve(live);
        for range in &mut self.ranges {
            let (start, len) = *range;
            *range = (self.uses.len() as u32, len);
            for at in start as usize..(start + len) as usize {
                let u = old[at]
                    .take()
                    .expect("each live entry belongs to one node's range");
                self.uses.push(u);
                self.meta.push(old_meta[at]);
            }
        }
    }

    /// Launches through `launch` into `stream`: the gate (when owned memory is held), the waits
    /// left pending, the driver call, then what the memory model notes of it.
    #[inline]
    pub(crate) fn launch(
        &mut self,
        stream: &Arc<CudaStream>,
        launch: impl FnOnce() -> Result<()>,
    ) -> Result<()> {
        if !self.gated {
            return self.launch_in_gate(stream, launch);
        }
        if !self.fence.enter_launch() {
            return Err(Error::BufferInUse {
                buffer: "memory this executable uses".into(),
                reason: "host code is accessing it through a guard (HostBuffer::read/write, \
                         DeviceBuffer::access): drop the guard before launching"
                    .into(),
            });
        }
        let result = self.launch_in_gate(stream, launch);
        self.fence.exit_launch();
        result
    }

    #[inline]
    fn launch_in_gate(
        &mut self,
        stream: &Arc<CudaStream>,
        launch: impl FnOnce() -> Result<()>,
    ) -> Result<()> {
        if self.fence.has_pending() {
            return self.launch_after_pending(stream, launch);
        }
        launch()?;
        self.note_launch(stream);
        Ok(())
    }

    /// [`Holdings::launch_in_gate`] when the launch must wait for something first. The waits
    /// stay pending until the launch is made: a launch the driver refuses leaves them to the
    /// next one, which may go into another stream.
    #[cold]
    #[inline(never)]
    fn launch_after_pending(
        &mut self,
        stream: &Arc<CudaStream>,
        launch: impl FnOnce() -> Result<()>,
    ) -> Result<()> {
        let waited = self.fence.wait_pending(stream)?;
        if let Err(e) = launch() {
            self.fence.restore_pending(waited);
            return Err(e);
        }
        self.note_launch(stream);
        Ok(())
    }

    /// Notes a launch made into `stream`, the latest.
    #[inline]
    fn note_launch(&mut self, stream: &Arc<CudaStream>) {
        self.launched = true;
        if !matches!(&self.last_stream, Some(s) if Arc::ptr_eq(s, stream)) {
            self.last_stream = Some(stream.clone());
            self.fence.set_last_stream(stream);
        }
    }

    /// The executable's raw handle is about to be replaced by a new instantiation, whose
    /// launches CUDA does not order after the old one's: the next launch waits for the old ones.
    pub(crate) fn before_reinstantiation(&mut self) -> Result<()> {
        if self.launched {
            self.fence.mark()?;
            self.fence
                .wait_before_next_launch(PendingWait::Event(self.fence.done().clone()));
        }
        Ok(())
    }

    /// Whether every launch so far has completed: the completion marker is recorded after the
    /// latest launch and queried (`cuEventQuery`). `Ok(false)` also when that cannot be known
    /// now, the latest launch's stream being captured.
    #[cold]
    pub(crate) fn launches_complete(&self) -> Result<bool> {
        match self.fence.mark() {
            Ok(_) => self.fence.done().is_complete(),
            Err(Error::Capturing { .. }) => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// Drops `value` once every launch so far has completed (on the reaper thread if one may
    /// still run): for values the executable's nodes use, such as replaced host closures.
    pub(crate) fn drop_after_launches(&self, value: Box<dyn Any + Send>) {
        after_launches(self.fence.clone(), self.launched, value);
    }
}

/// Drops `value` after the launches marked by `fence` (see [`Holdings::drop_after_launches`]).
fn after_launches(fence: Arc<Fence>, launched: bool, value: Box<dyn Any + Send>) {
    if !launched {
        reaper::drop_later(value);
        return;
    }
    // The marker is recorded here, right after the latest launch, unless this thread may not call
    // the driver now (a host node, a capture closure): then the release thread records it, after
    // later launches too (which only makes the wait longer).
    let mut marked = !must_defer_releases() && fence.mark().is_ok();
    let mut value = Some(value);
    reaper::run_later(Box::new(move || {
        if !marked {
            // The last launch's stream was being captured: try again until it is not.
            marked = fence.mark().is_ok();
            if !marked {
                return false;
            }
        }
        if fence.done().wait_host().is_ok() {
            drop(value.take());
        } else {
            // Could not learn that the launches are over: leak rather than free early.
            std::mem::forget(value.take());
        }
        true
    }));
}

/// `alloc` as errors name it, with the node that uses it.
fn describe(alloc: &Arc<dyn Allocation>, node: &str) -> String {
    let (start, end) = alloc.range();
    format!(
        "{} buffer of {} bytes used by node `{node}`",
        alloc.space().name(),
        end - start
    )
}

impl Drop for Holdings<'_> {
    fn drop(&mut self) {
        // Borrowed memory needs nothing here: it stays borrowed until its scope ends, and the
        // scope waits for this executable's launches then (`crate::scope`).
        reaper::release(self.last_stream.take());
        if self.index.is_empty() {
            return;
        }
        self.index.clear();
        self.slot_keys.clear();
        let held: Vec<Held> = self.held.drain(..).flatten().collect();
        let (fence, launched) = (self.fence.clone(), self.launched);
        let release = move |held: &[Held]| {
            for h in held {
                h.alloc.state().unregister(&fence, h.counts, true, launched);
            }
        };
        if !launched || (!must_defer_releases() && self.fence.mark().is_ok()) {
            release(&held);
            return;
        }
        // The latest launch's stream is being captured, so no marker can be recorded after it
        // now: keep the memory registered (guards keep waiting for this executable) until one can.
        let fence = self.fence.clone();
        let mut held = Some(held);
        reaper::run_later(Box::new(move || {
            if fence.mark().is_err() {
                return false;
            }
            if let Some(held) = held.take() {
                release(&held);
            }
            true
        }));
    }
}

#[cfg(test)]
mod tests;
