//! An executable's uses of memory, node by node, and their registration with the allocations they
//! use: what makes memory outlive the launches that may use it.
//!
//! - Registering (instantiation, an update that brings memory in) makes the executable's next
//!   launch wait for earlier work on that memory.
//! - Releasing (an update that replaces memory, dropping the executable) records the executable's
//!   completion marker after its latest launch and leaves it with the allocation: the memory is
//!   freed, and reached by host code or by other executables, only after that marker.
//! - A launch records nothing: it enters the gate (when the executable holds owned memory),
//!   waits for whatever registration or host access left pending, and notes its stream.

use std::any::Any;
use std::collections::HashMap;
use std::sync::Arc;

use cudarc::driver::CudaStream;

use super::alloc::{Allocation, UseCounts};
use super::fence::{EventCell, Fence, PendingWait};
use super::operand::{Hold, Use};
use crate::ambient::must_defer_releases;
use crate::error::{Error, Result};
use crate::reaper;

/// One allocation an executable uses, with how many of its node uses there are.
struct Held {
    alloc: Arc<dyn Allocation>,
    counts: UseCounts,
}

/// An executable's uses of memory (see the module docs).
pub(crate) struct Holdings<'a> {
    fence: Arc<Fence>,
    uses: Vec<Use<'a>>,
    /// Each node's uses: `uses[start..start + len]`.
    ranges: Vec<(u32, u32)>,
    /// Owned allocations in use, by address.
    held: HashMap<usize, Held>,
    /// Launches go through the fence's gate (owned memory is in use, host code may access it).
    gated: bool,
    launched: bool,
    last_stream: Option<Arc<CudaStream>>,
}

impl std::fmt::Debug for Holdings<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Holdings")
            .field("uses", &self.uses.len())
            .field("allocations", &self.held.len())
            .finish_non_exhaustive()
    }
}

fn alloc_key(alloc: &Arc<dyn Allocation>) -> usize {
    Arc::as_ptr(alloc).cast::<()>() as usize
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
        let mut holdings = Self {
            fence: Arc::new(Fence::default()),
            uses: Vec::new(),
            ranges: Vec::new(),
            held: HashMap::new(),
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
            holdings.held.insert(alloc_key(&held.alloc), held);
        }
        holdings.gated = !holdings.held.is_empty();
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
            .values()
            .map(|h| super::alloc::Dependent {
                alloc: h.alloc.clone(),
                counts: h.counts,
            })
            .collect()
    }

    fn register(&self, held: &Held, describe: &dyn Fn() -> String) -> Result<()> {
        let alloc = &held.alloc;
        alloc.state().register(
            &self.fence,
            held.counts,
            alloc.space(),
            alloc.home(),
            describe,
        )
    }

    fn unregister_all(&self, held: &[Held]) {
        for h in held {
            h.alloc
                .state()
                .unregister(&self.fence, h.counts, self.launched);
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
        // then every node's slice is equal too.
        let same_layout = self.ranges.len() == ranges.clone().count()
            && self
                .ranges
                .iter()
                .zip(ranges.clone())
                .all(|(&(start, len), (s, l))| len == l && (len == 0 || start == s));
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
        let mut more: Vec<Held> = Vec::new();
        let mut less: Vec<Held> = Vec::new();
        let net = |a: UseCounts, b: UseCounts| a.saturating_sub(b);
        for held in &incoming {
            let out = outgoing
                .iter()
                .find(|o| alloc_key(&o.alloc) == alloc_key(&held.alloc))
                .map_or(UseCounts::default(), |o| o.counts);
            let add = net(held.counts, out);
            if add != UseCounts::default() {
                more.push(Held {
                    alloc: held.alloc.clone(),
                    counts: add,
                });
            }
        }
        for held in &outgoing {
            let inc = incoming
                .iter()
                .find(|i| alloc_key(&i.alloc) == alloc_key(&held.alloc))
                .map_or(UseCounts::default(), |i| i.counts);
            let sub = net(held.counts, inc);
            if sub != UseCounts::default() {
                less.push(Held {
                    alloc: held.alloc.clone(),
                    counts: sub,
                });
            }
        }
        // Memory this executable stops using altogether is released after the marker.
        let releases = less.iter().any(|l| {
            self.held
                .get(&alloc_key(&l.alloc))
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
        for (node, new_uses) in changes {
            self.set_node_uses(node, new_uses);
        }
        for held in registered {
            match self.held.get_mut(&alloc_key(&held.alloc)) {
                Some(h) => h.counts.add(held.counts),
                None => {
                    self.held.insert(alloc_key(&held.alloc), held);
                }
            }
        }
        for l in less {
            let key = alloc_key(&l.alloc);
            l.alloc
                .state()
                .unregister(&self.fence, l.counts, self.launched);
            if let Some(h) = self.held.get_mut(&key) {
                h.counts = h.counts.saturating_sub(l.counts);
                if h.counts.uses == 0 {
                    self.held.remove(&key);
                }
            }
        }
        self.gated = !self.held.is_empty();
        Ok(())
    }

    fn set_node_uses(&mut self, node: usize, new_uses: Vec<Use<'a>>) {
        if node >= self.ranges.len() {
            self.ranges.resize(node + 1, (self.uses.len() as u32, 0));
        }
        let (start, len) = self.ranges[node];
        if new_uses.len() == len as usize {
            for (slot, u) in self.uses[start as usize..].iter_mut().zip(new_uses) {
                *slot = u;
            }
        } else {
            // Another count (a child graph's contents): the old entries stay as inert
            // placeholders (they hold nothing), the new ones go at the end.
            for slot in &mut self.uses[start as usize..(start + len) as usize] {
                slot.hold = super::operand::Hold::Raw;
                slot.end = slot.start;
            }
            let start = self.uses.len() as u32;
            let len = new_uses.len() as u32;
            self.uses.extend(new_uses);
            self.ranges[node] = (start, len);
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
            self.fence.wait_pending(stream)?;
        }
        launch()?;
        self.launched = true;
        if !matches!(&self.last_stream, Some(s) if Arc::ptr_eq(s, stream)) {
            self.last_stream = Some(stream.clone());
            self.fence.set_last_stream(stream);
        }
        Ok(())
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
        if self.held.is_empty() {
            return;
        }
        let held: Vec<Held> = self.held.drain().map(|(_, h)| h).collect();
        let (fence, launched) = (self.fence.clone(), self.launched);
        let release = move |held: &[Held]| {
            for h in held {
                h.alloc.state().unregister(&fence, h.counts, launched);
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
