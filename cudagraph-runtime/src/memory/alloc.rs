//! Who may be using an allocation: the executables that hold it, the ones that released it while
//! their launches may still run, and the host code that accesses it through a guard.
//!
//! Every [`DeviceBuffer`](crate::DeviceBuffer) and [`HostBuffer`](crate::HostBuffer) shares one
//! such record among its clones. Executables register when their nodes start to use the memory
//! and unregister when no node uses it any more; guards look here to find whose launches to wait
//! for and to keep out. The costs all fall on those events (building, updating, accessing), never
//! on a launch.

use std::sync::{Arc, Mutex, MutexGuard};

use cudarc::driver::CudaStream;

use super::fence::{EventCell, Fence, PendingWait};
use crate::error::{Error, Result};

/// Where an allocation lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Space {
    /// Device memory.
    Device,
    /// Page-locked host memory.
    Host,
    /// Not memory: a device-launchable executable, which a kernel given its handle may launch
    /// (`crate::device_launch`). A use of it stands for the memory that executable's launches
    /// use, attributed to the launching node by the race checks (`memory::hazard`).
    Launch,
}

impl Space {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Space::Device => "device",
            Space::Host => "host",
            Space::Launch => "device-launchable executable",
        }
    }
}

/// How many of an executable's node uses of an allocation there are, how many write it, and how
/// many of those are host code (a host node's buffers).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) struct UseCounts {
    pub(crate) uses: u32,
    pub(crate) writes: u32,
    pub(crate) host_code: u32,
    pub(crate) host_code_writes: u32,
}

impl UseCounts {
    pub(crate) fn add(&mut self, other: UseCounts) {
        self.uses += other.uses;
        self.writes += other.writes;
        self.host_code += other.host_code;
        self.host_code_writes += other.host_code_writes;
    }

    pub(crate) fn saturating_sub(self, other: UseCounts) -> UseCounts {
        UseCounts {
            uses: self.uses.saturating_sub(other.uses),
            writes: self.writes.saturating_sub(other.writes),
            host_code: self.host_code.saturating_sub(other.host_code),
            host_code_writes: self.host_code_writes.saturating_sub(other.host_code_writes),
        }
    }

    /// Whether host code of one executable could run while the other writes the memory, or host
    /// code write it while the other uses it: launches of two executables are not ordered with
    /// each other, and host code must not see memory in the middle of a write.
    fn host_race(self, other: UseCounts) -> bool {
        (self.host_code > 0 && other.writes > 0)
            || (other.host_code > 0 && self.writes > 0)
            || (self.host_code_writes > 0 && other.uses > 0)
            || (other.host_code_writes > 0 && self.uses > 0)
    }
}

/// An allocation of device or host memory that executables may hold (type-erased).
pub trait Allocation: Send + Sync + 'static {
    /// Its holders.
    fn state(&self) -> &AllocState;
    /// Device or host memory.
    fn space(&self) -> Space;
    /// For device memory, the stream its own work (copies, its free) is ordered on.
    fn home(&self) -> Option<&Arc<CudaStream>>;
    /// Its address range, in bytes.
    fn range(&self) -> (u64, u64);
    /// For a device-launchable executable ([`Space::Launch`]): its anchor, whose footprint says
    /// what its launches use.
    #[doc(hidden)]
    #[allow(private_interfaces)]
    fn device_graph(&self) -> Option<&crate::device_launch::DeviceAnchor> {
        None
    }
}

impl std::fmt::Debug for dyn Allocation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (start, end) = self.range();
        write!(f, "{} memory {start:#x}..{end:#x}", self.space().name())
    }
}

/// An allocation's record of its users (see the module docs).
#[derive(Debug, Default)]
pub struct AllocState {
    holders: Mutex<Holders>,
    /// Recorded on the home stream when an executable launched on another stream must wait for
    /// what was enqueued there (see [`PendingWait::StreamTail`]).
    home_tail: Arc<EventCell>,
    /// Memory that every holder of this allocation uses through it, and is registered with as
    /// long as it holds it (empty but for a device-launchable executable's anchor, whose holders'
    /// kernels launch the executable and so use its memory: `crate::device_launch`).
    dependents: Mutex<Vec<Dependent>>,
}

/// Memory used through an allocation (see [`AllocState::set_dependents`]), with the uses it has.
#[derive(Debug, Clone)]
pub(crate) struct Dependent {
    pub(crate) alloc: Arc<dyn Allocation>,
    pub(crate) counts: UseCounts,
}

impl Dependent {
    /// Registers `fence` with the memory: a new reference to it when `new_ref` (see
    /// [`AllocState::register`]).
    fn register(&self, fence: &Arc<Fence>, new_ref: bool) -> Result<()> {
        let (start, end) = self.alloc.range();
        self.alloc.state().register(
            fence,
            self.counts,
            new_ref,
            self.alloc.space(),
            self.alloc.home(),
            || {
                format!(
                    "{} buffer of {} bytes used by a device-launchable executable",
                    self.alloc.space().name(),
                    end - start
                )
            },
        )
    }

    /// Unregisters `fence`'s uses of the memory through this; `last`: this reference goes (see
    /// [`AllocState::unregister`]).
    fn unregister(&self, fence: &Arc<Fence>, last: bool, launched: bool) {
        self.alloc
            .state()
            .unregister(fence, self.counts, last, launched);
    }

    fn among(&self, deps: &[Dependent]) -> bool {
        deps.iter().any(|d| Arc::ptr_eq(&d.alloc, &self.alloc))
    }
}

/// Registers `fence` with every one of `deps`, or with none (on error): a new reference to the
/// memory of those that are not among `kept` (the dependents before, which keep theirs).
fn register_all(deps: &[Dependent], fence: &Arc<Fence>, kept: &[Dependent]) -> Result<()> {
    for (i, dep) in deps.iter().enumerate() {
        if let Err(e) = dep.register(fence, !dep.among(kept)) {
            for done in &deps[..i] {
                done.unregister(fence, !done.among(kept), false);
            }
            return Err(e);
        }
    }
    Ok(())
}

#[derive(Debug, Default)]
struct Holders {
    current: Vec<Holder>,
    /// Executables that released the memory; their launches may still run. Each one's
    /// completion marker was recorded after its last launch before it released the memory.
    released: Vec<Arc<Fence>>,
    /// Host-access guards alive.
    guards: usize,
}

#[derive(Debug)]
struct Holder {
    fence: Arc<Fence>,
    counts: UseCounts,
    /// How many references the executable holds the memory by: its own nodes' (one), and one
    /// per device-launchable executable it may launch that uses the memory (see
    /// [`AllocState::set_dependents`]). It holds the memory until the last goes.
    refs: u32,
}

/// What a guard found when it started: the executables whose launches it keeps out, and every
/// executable whose launches it must wait for.
#[derive(Debug)]
pub(crate) struct AccessScope {
    pub(crate) held_off: Vec<Arc<Fence>>,
    pub(crate) wait_for: Vec<Arc<Fence>>,
}

impl AllocState {
    fn lock(&self) -> MutexGuard<'_, Holders> {
        self.holders.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Registers `counts` more uses by the executable of `fence`. Its next launch first waits for
    /// the work enqueued so far on the memory's own stream (`home`, for device memory) and for the
    /// launches of executables that used the memory before.
    ///
    /// `new_ref`: the executable holds the memory by one more reference from now on (its own
    /// nodes start to use it, or a device-launchable executable it may launch does): it is
    /// unregistered for good ([`AllocState::unregister`] with `last`) only once every
    /// reference went.
    ///
    /// Refused while a guard is alive, and, for host memory, when host code (a host node's buffers)
    /// of one of this and another executable that holds the memory could run while the other
    /// writes it (see [`UseCounts`]).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn register(
        &self,
        fence: &Arc<Fence>,
        counts: UseCounts,
        new_ref: bool,
        space: Space,
        home: Option<&Arc<CudaStream>>,
        describe: impl Fn() -> String,
    ) -> Result<()> {
        let mut holders = self.lock();
        if holders.guards > 0 {
            return Err(Error::BufferInUse {
                buffer: describe(),
                reason: "host code is accessing it through a guard: drop the guard first".into(),
            });
        }
        if space == Space::Host {
            let mut mine = counts;
            if let Some(own) = holders
                .current
                .iter()
                .find(|o| Arc::ptr_eq(&o.fence, fence))
            {
                mine.add(own.counts);
            }
            // Executables bound to one stream never run at the same time.
            let conflict = holders.current.iter().any(|h| {
                !Arc::ptr_eq(&h.fence, fence)
                    && !h.fence.serialized_with(fence)
                    && mine.host_race(h.counts)
            });
            if conflict {
                return Err(Error::BufferInUse {
                    buffer: describe(),
                    reason: "another executable uses this host memory, and a host node of one of \
                             the two reads or writes it while the other may write or read it \
                             (launches of two executables run in any order); drop that \
                             executable, give each its own buffer, or bind both to the one \
                             stream they are launched into (`instantiate_on`)"
                        .into(),
                });
            }
        }
        if let Some(holder) = holders
            .current
            .iter_mut()
            .find(|h| Arc::ptr_eq(&h.fence, fence))
        {
            holder.counts.add(counts);
            holder.refs += u32::from(new_ref);
            return Ok(());
        }
        if let Some(home) = home {
            fence.wait_before_next_launch(self.home_tail(home));
        }
        holders.released.retain(|r| {
            if Arc::ptr_eq(r, fence) {
                return false; // its own earlier launches come first anyway
            }
            fence.wait_before_next_launch(PendingWait::Event(r.done().clone()));
            true
        });
        holders.current.push(Holder {
            fence: fence.clone(),
            counts,
            refs: 1,
        });
        // A new holder uses the dependents too (locks: this allocation's holders, then its
        // dependents, then theirs; never the other way round). Registered before the holders'
        // lock is let go: a `set_dependents` that saw the holder would otherwise move it from
        // dependents it never registered with (taking from memory it holds by another reference
        // the reference of this one) to new ones it then registers with twice.
        #[cfg(test)]
        std::thread::yield_now(); // widens the window the race test looks into
        let deps = self.dependents.lock().unwrap_or_else(|e| e.into_inner());
        if let Err(e) = register_all(&deps, fence, &[]) {
            holders.current.retain(|h| !Arc::ptr_eq(&h.fence, fence));
            return Err(e);
        }
        Ok(())
    }

    /// The memory used through this allocation now (see [`AllocState::set_dependents`]).
    pub(crate) fn dependents(&self) -> Vec<Dependent> {
        self.dependents
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Replaces the memory used through this allocation by `deps` (see the field's docs): the
    /// current holders are registered with the new memory, then unregistered from the old once
    /// their completion markers are recorded. On error nothing changes.
    pub(crate) fn set_dependents(&self, deps: Vec<Dependent>) -> Result<()> {
        // The holders as the dependents' lock sees them: a holder registers with the
        // dependents, and unregisters from them, under the holders' lock (see `register`), so
        // each holder listed here is registered with `old`, and one that comes later registers
        // with `deps`.
        let holders = self.lock();
        let mut old = self.dependents.lock().unwrap_or_else(|e| e.into_inner());
        let fences: Vec<Arc<Fence>> = holders.current.iter().map(|h| h.fence.clone()).collect();
        drop(holders);
        let mut launched = Vec::with_capacity(fences.len());
        for fence in &fences {
            // Whether the holder has launched: its marker then follows its latest launch.
            launched.push(fence.mark()?);
        }
        // Memory among both the old and the new dependents keeps its reference: its counts are
        // the new ones once the old are taken away.
        for (i, fence) in fences.iter().enumerate() {
            if let Err(e) = register_all(&deps, fence, &old) {
                for done in &fences[..i] {
                    for dep in &deps {
                        dep.unregister(done, !dep.among(&old), false);
                    }
                }
                return Err(e);
            }
        }
        for (fence, launched) in fences.iter().zip(launched) {
            for dep in old.iter() {
                dep.unregister(fence, !dep.among(&deps), launched);
            }
        }
        *old = deps;
        Ok(())
    }

    /// Unregisters `counts` uses by the executable of `fence`; `last`: one of its references goes
    /// (see [`AllocState::register`]: its own nodes use the memory no more, or a device graph it
    /// may launch does not). With the last reference, the executable uses the memory no more:
    /// then, if it has launched, it joins the released ones (the caller recorded its completion
    /// marker after its latest launch).
    ///
    /// Whether a reference still uses the memory is its owner's to say (`last`), from its own
    /// exact count: the counts kept here are exact for host memory, where they decide
    /// conflicts between executables ([`UseCounts::host_race`]), while for device memory an
    /// executable that moves uses between memory it holds already does not report it (see
    /// `Holdings::replace_one`): nothing here depends on those counts.
    pub(crate) fn unregister(
        &self,
        fence: &Arc<Fence>,
        counts: UseCounts,
        last: bool,
        launched: bool,
    ) {
        let mut holders = self.lock();
        let Some(at) = holders
            .current
            .iter()
            .position(|h| Arc::ptr_eq(&h.fence, fence))
        else {
            return;
        };
        let holder = &mut holders.current[at];
        holder.counts = holder.counts.saturating_sub(counts);
        if !last {
            return;
        }
        holder.refs = holder.refs.saturating_sub(1);
        if holder.refs > 0 {
            // Still used through another reference (its own nodes, or a device graph it may
            // launch).
            return;
        }
        holders.current.swap_remove(at);
        {
            // The dependents are released with this allocation (see `register`).
            let deps = self.dependents.lock().unwrap_or_else(|e| e.into_inner());
            for dep in deps.iter() {
                dep.unregister(fence, true, launched);
            }
        }
        if launched && !holders.released.iter().any(|r| Arc::ptr_eq(r, fence)) {
            // Keep the list short: executables whose launches are known to be over need no wait.
            if holders.released.len() >= 4 {
                holders
                    .released
                    .retain(|r| !r.done().is_complete().unwrap_or(false));
            }
            holders.released.push(fence.clone());
        }
    }

    /// Whether an executable holds it now.
    pub(crate) fn has_holders(&self) -> bool {
        !self.lock().current.is_empty()
    }

    /// Starts a host access: registration is refused from now on, the holders' launches are kept
    /// out, and their completion markers are recorded after their latest launches. On error
    /// nothing is left changed.
    pub(crate) fn begin_access(&self) -> Result<AccessScope> {
        let (held_off, released) = {
            let mut holders = self.lock();
            holders.guards += 1;
            let held_off: Vec<_> = holders.current.iter().map(|h| h.fence.clone()).collect();
            (held_off, holders.released.clone())
        };
        for (i, fence) in held_off.iter().enumerate() {
            fence.hold_off_launches();
            if let Err(e) = fence.mark() {
                for f in &held_off[..=i] {
                    f.allow_launches();
                }
                self.lock().guards -= 1;
                return Err(e);
            }
        }
        let mut wait_for = held_off.clone();
        wait_for.extend(released);
        Ok(AccessScope { held_off, wait_for })
    }

    /// Ends a host access begun by [`AllocState::begin_access`]. For device memory the access's
    /// work was enqueued on `home` (or joined into it): the holders' next launches wait for it.
    pub(crate) fn end_access(&self, scope: AccessScope, home: Option<&Arc<CudaStream>>) {
        for fence in &scope.held_off {
            if let Some(home) = home {
                fence.wait_before_next_launch(self.home_tail(home));
            }
            fence.allow_launches();
        }
        self.lock().guards -= 1;
    }

    fn home_tail(&self, home: &Arc<CudaStream>) -> PendingWait {
        PendingWait::StreamTail {
            stream: home.clone(),
            scratch: self.home_tail.clone(),
        }
    }

    /// The counts registered for the executable of `fence`, if it holds the memory.
    #[cfg(test)]
    pub(crate) fn holder_counts(&self, fence: &Arc<Fence>) -> Option<UseCounts> {
        let holders = self.lock();
        let holder = holders
            .current
            .iter()
            .find(|h| Arc::ptr_eq(&h.fence, fence));
        holder.map(|h| h.counts)
    }

    /// The executables that released the memory and may still be running, for the memory's
    /// final release.
    pub(crate) fn take_released(&self) -> Vec<Arc<Fence>> {
        std::mem::take(&mut self.lock().released)
    }

    /// The final release of what is not memory (an executable a kernel may launch, a value a
    /// node's work needs): drops `value` on the release thread, once the launches of the
    /// executables that released it are over. There, as a user object's value would be: its
    /// drop may call CUDA (destroy a graph, an event, a communicator), which the caller's thread
    /// may be unable to do (a host node), or do in a capture mode that would break another
    /// thread's capture. Leaked if those launches cannot be known to be over: dropping what
    /// they may still use would be worse.
    pub(crate) fn drop_after_holders<T: Send + 'static>(&self, value: T) {
        let released = self.take_released();
        if released.is_empty() {
            crate::reaper::drop_later(Box::new(value));
            return;
        }
        drop_after_fences(value, released);
    }
}

/// Drops `value` on the release thread once the launches of the executables of `released` are
/// over (waited for there). Leaked if that cannot be known: dropping or freeing what those
/// launches may still use would be worse.
pub(crate) fn drop_after_fences<T: Send + 'static>(value: T, released: Vec<Arc<Fence>>) {
    let mut parts = Some((value, released));
    crate::reaper::run_later(Box::new(move || {
        if let Some((value, released)) = parts.take() {
            if released
                .iter()
                .all(|fence| fence.done().wait_host().is_ok())
            {
                drop(value);
            } else {
                std::mem::forget(value);
            }
        }
        true
    }));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Memory with a record and no driver behind it.
    struct Fake {
        state: AllocState,
        space: Space,
    }

    impl Allocation for Fake {
        fn state(&self) -> &AllocState {
            &self.state
        }
        fn space(&self) -> Space {
            self.space
        }
        fn home(&self) -> Option<&Arc<CudaStream>> {
            None
        }
        fn range(&self) -> (u64, u64) {
            (0x1000, 0x1040)
        }
    }

    fn fake(space: Space) -> Arc<dyn Allocation> {
        Arc::new(Fake {
            state: AllocState::default(),
            space,
        })
    }

    const ONE: UseCounts = UseCounts {
        uses: 1,
        writes: 1,
        host_code: 0,
        host_code_writes: 0,
    };

    fn register(alloc: &Arc<dyn Allocation>, fence: &Arc<Fence>) {
        let state = alloc.state();
        state
            .register(fence, ONE, true, alloc.space(), None, String::new)
            .unwrap();
    }

    #[test]
    fn memory_used_directly_and_through_a_device_graph_stays_held_until_both_go() {
        let (buffer, graph) = (fake(Space::Host), fake(Space::Launch));
        let dependent = || Dependent {
            alloc: buffer.clone(),
            counts: ONE,
        };
        graph.state().set_dependents(vec![dependent()]).unwrap();
        let fence = Arc::new(Fence::bound_to(None));
        // The executable launches the graph, and uses the buffer itself too.
        register(&graph, &fence);
        register(&buffer, &fence);
        // An update of the graph that keeps its memory keeps the executable registered.
        graph.state().set_dependents(vec![dependent()]).unwrap();
        assert!(buffer.state().holder_counts(&fence).is_some());
        // The executable stops launching the graph: it still uses the buffer itself.
        graph.state().unregister(&fence, ONE, true, false);
        assert!(graph.state().holder_counts(&fence).is_none());
        assert!(buffer.state().holder_counts(&fence).is_some());
        buffer.state().unregister(&fence, ONE, true, false);
        assert!(buffer.state().holder_counts(&fence).is_none());
    }

    #[test]
    fn an_update_of_a_device_graph_moves_its_launchers_to_the_new_memory_only() {
        let (old, new, graph) = (
            fake(Space::Device),
            fake(Space::Device),
            fake(Space::Launch),
        );
        let on = |alloc: &Arc<dyn Allocation>| Dependent {
            alloc: alloc.clone(),
            counts: ONE,
        };
        graph.state().set_dependents(vec![on(&old)]).unwrap();
        let fence = Arc::new(Fence::bound_to(None));
        register(&graph, &fence);
        assert!(old.state().holder_counts(&fence).is_some());
        graph
            .state()
            .set_dependents(vec![on(&old), on(&new)])
            .unwrap();
        assert!(old.state().holder_counts(&fence).is_some());
        assert!(new.state().holder_counts(&fence).is_some());
        graph.state().set_dependents(vec![on(&new)]).unwrap();
        assert!(old.state().holder_counts(&fence).is_none());
        assert!(new.state().holder_counts(&fence).is_some());
    }

    /// A holder registering with a device graph while an update of that graph replaces its
    /// memory, on two threads: the memory the holder also uses itself keeps it registered
    /// whatever the interleaving (the update must not take the holder's own reference away for
    /// a registration through the graph it never saw).
    #[test]
    fn a_registration_racing_an_update_of_the_dependents_keeps_the_holders_own_reference() {
        let (buffer, graph) = (fake(Space::Host), fake(Space::Launch));
        let on = || Dependent {
            alloc: buffer.clone(),
            counts: ONE,
        };
        let fence = Arc::new(Fence::bound_to(None));
        // The executable uses the buffer itself, for the whole test.
        register(&buffer, &fence);
        for _ in 0..2000 {
            graph.state().set_dependents(vec![on()]).unwrap();
            std::thread::scope(|s| {
                s.spawn(|| register(&graph, &fence));
                s.spawn(|| graph.state().set_dependents(Vec::new()).unwrap());
            });
            assert!(
                buffer.state().holder_counts(&fence).is_some(),
                "the executable's own use of the buffer lost its registration"
            );
            // Both orders end with the graph's holder: let it go, and the graph's memory.
            graph.state().unregister(&fence, ONE, true, false);
            assert!(buffer.state().holder_counts(&fence).is_some());
        }
        buffer.state().unregister(&fence, ONE, true, false);
        assert!(
            buffer.state().holder_counts(&fence).is_none(),
            "no reference left over"
        );
    }
}
