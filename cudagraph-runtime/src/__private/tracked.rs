//! The params an executable of a `cuda_graph!` declaration owns, and which of its nodes are behind
//! them.
//!
//! The executable keeps its params, and every change to them goes through it: a setter
//! (`exec.set_alpha(v)`, `exec.set_w(3, v)` for an element of an array param), the guard of
//! `exec.params_mut()`, a swap of two params, `set_params`.
//! Which node reads which param is known when the macro runs, so a change marks exactly the nodes
//! that read the changed param (each once, however many of its params changed), and bringing
//! them up to date ([`apply`]) costs one single-node update each: nothing is compared, no other
//! node is looked at.
//!
//! What the tracker counts as one param is a *slot*: a param, or one element of an array param
//! the macro knows the length of (`w: [DeviceBuffer<f32>; LAYERS]`, read as `w[layer]` by the
//! nodes of a `for` loop), so that a changed element marks only the nodes that read it. `launch` applies what is pending first, so no launch runs nodes that
//! disagree with the params, and no change can be forgotten.
//!
//! An [`apply`] is all or nothing. The executable keeps a second copy of its params, the ones its
//! nodes were last updated from (the *applied* params); a change leaves that copy alone until
//! every node it concerns has taken it. When one refuses (a driver error, a kernel's check, a
//! memcpy's length, an allocation CUDA cannot resize, params under which two nodes race), the
//! changed params are copied back from the applied ones, the nodes updated before the refusal are
//! updated again from them (last first: each step back is a state the executable was in a moment
//! before, so it is accepted again), and nothing is left pending. The executable then runs as it
//! did before the change, and its next launch neither retries the refused change nor launches
//! part of it. A panic in the user's code that an update runs (a node expression, a param's
//! `Clone` or `Drop`) may stop it anywhere, its undo too, which runs the same code: the next
//! [`apply`] finds the mark of the one that never ended, and the executable is broken (below).

use crate::{Error, Result};

/// Which nodes of an executable disagree with its params, and which params changed since its
/// nodes were last updated.
#[derive(Debug)]
pub struct Tracker {
    /// Per node (by build position): [`STALE`] (a param it reads changed since its last
    /// update) and [`BY_HANDLE`] (set through its handle since its last update from the
    /// params); one byte each, so that an update reads one array.
    nodes: Box<[u8]>,
    /// The stale nodes, in the order they became stale (entries whose node was brought up to
    /// date since are skipped).
    pending: Vec<u32>,
    /// Per slot (a param, or an element of an array param): changed since the nodes were last
    /// updated (its applied value is in the executable's copy of the applied params).
    changed: Box<[bool]>,
    /// The changed slots, in the order they changed.
    changed_list: Vec<u32>,
    /// The nodes the [`apply`] under way has updated, in order: what a refusal sets back.
    updated: Vec<u32>,
    /// A param the build-time memory check involves changed: the check runs before the next
    /// update.
    check: bool,
    /// The changes pending are one swap and nothing else (see [`Tracker::swapped`]): committed,
    /// the applied params are swapped the same way instead of copied from the params.
    swapped: Option<Swapped>,
    /// A swap through the params guard made when nothing was pending (see
    /// [`stage_swap`](super::stage_swap)), not staged: the next [`apply`] takes the short way
    /// of `exec.swap` with it, unless something else changed since, which stages it first
    /// ([`stage_in`]). (The params are swapped; `dirty` is set.)
    deferred: Option<Deferred>,
    /// Something is pending (a changed param, or `broken`): one load on the launch path.
    dirty: bool,
    /// Why the executable cannot be updated or launched any more: a refused change could not be
    /// undone (see [`undo`]). Only a whole-graph update ([`Tracker::clear`]) lifts it.
    broken: Option<Box<str>>,
    /// An [`apply`] is under way. Seen set when one begins, the last one did not end: a panic in
    /// the user's code that it runs (a node expression, a param's `Clone` or `Drop`) unwound
    /// through it, part way through its updates or its undo, and the nodes may disagree with the
    /// params in a way nothing records.
    applying: bool,
}

/// A swap of two runs of `len` slots whose values lie at byte offsets `a` and `b` of the params,
/// and the function that swaps them (`swap_run` of their value type; see [`Tracker::swapped`]).
#[derive(Clone, Copy, Debug)]
pub(super) struct Swapped {
    pub(super) a: usize,
    pub(super) b: usize,
    pub(super) len: usize,
    pub(super) swap: unsafe fn(*mut u8, usize, usize, usize),
}

/// A swap of slots `a` and `b` kept aside (see [`Tracker::deferred`]), and where their values
/// lie (`at`).
#[derive(Clone, Copy, Debug)]
pub(super) struct Deferred {
    pub(super) a: usize,
    pub(super) b: usize,
    pub(super) at: Swapped,
}

/// In [`Tracker::nodes`]: a param the node reads changed since its last update.
const STALE: u8 = 1;
/// In [`Tracker::nodes`]: the node was set through its handle since its last update from the
/// params.
const BY_HANDLE: u8 = 2;

impl Tracker {
    /// A tracker for `nodes` nodes and `params` slots (params, and elements of array params),
    /// all up to date.
    pub fn new(nodes: usize, params: usize) -> Self {
        Self {
            nodes: vec![0; nodes].into_boxed_slice(),
            pending: Vec::new(),
            changed: vec![false; params].into_boxed_slice(),
            changed_list: Vec::new(),
            updated: Vec::new(),
            check: false,
            swapped: None,
            deferred: None,
            dirty: false,
            broken: None,
            applying: false,
        }
    }

    /// Whether a param changed since the nodes were last updated (or the executable is broken).
    #[inline(always)]
    pub fn is_dirty(&self) -> bool {
        self.dirty
    }

    /// Whether slot `param` changed since the nodes were last updated.
    #[inline(always)]
    pub fn is_changed(&self, param: usize) -> bool {
        self.changed[param]
    }

    /// Nothing is pending and no update is under way: a setter or a swap may take its short way
    /// (see [`set_param`]).
    #[inline(always)]
    pub(super) fn quiet(&self) -> bool {
        !self.dirty && !self.applying
    }

    /// Whether none of `nodes` is stale or set through its handle.
    #[inline(always)]
    pub(super) fn all_clean(&self, nodes: &[u32]) -> bool {
        nodes.iter().all(|&node| self.nodes[node as usize] == 0)
    }

    /// A short way's updates begin: marked as under way and pending while they run (see
    /// [`set_param`]).
    #[inline(always)]
    pub(super) fn begin_alone(&mut self) {
        self.applying = true;
        self.dirty = true;
    }

    /// A short way's updates all succeeded.
    #[inline(always)]
    pub(super) fn end_alone(&mut self) {
        self.dirty = false;
        self.applying = false;
    }

    /// Slot `param` changed: marks `readers` stale; `check`: the build-time memory check runs
    /// first.
    #[inline]
    fn stage(&mut self, param: usize, readers: &[u32], check: bool) {
        // Whatever changed before, the changes are no longer one swap alone.
        self.swapped = None;
        if !self.changed[param] {
            self.changed[param] = true;
            self.changed_list.push(param as u32);
        }
        for &node in readers {
            let state = &mut self.nodes[node as usize];
            if *state & STALE == 0 {
                *state |= STALE;
                self.pending.push(node);
            }
        }
        self.check |= check;
        self.dirty = true;
    }

    /// The changes just staged are a swap (`swap`), made when nothing was pending: until
    /// something else changes, committing them swaps the applied params the same way, which
    /// keeps them equal to the params without a copy of each value (for a buffer, a reference
    /// count up and down). (Nothing pending, the applied params equalled the params.)
    pub(super) fn swapped(&mut self, swap: Swapped) {
        self.swapped = Some(swap);
    }

    /// A swap alone kept aside for the next apply (see [`Tracker::deferred`]).
    pub(super) fn defer(&mut self, swap: Deferred) {
        self.deferred = Some(swap);
        self.dirty = true;
    }

    /// Node `node` was set through its handle: what the handle set stands until a param the
    /// node reads changes (or `set_params` resets it), even over a change made before.
    #[inline]
    pub fn set_by_handle(&mut self, node: usize) {
        self.nodes[node] = BY_HANDLE;
    }

    /// Node `node` took a change through its handle in part only (some of the copies of a node
    /// of an unrolled WHILE body, then one refused): the next update brings it back to the params
    /// as a whole, as `set_params` would.
    #[cold]
    pub fn set_back(&mut self, node: usize) {
        let state = &mut self.nodes[node];
        *state &= !BY_HANDLE;
        if *state & STALE == 0 {
            *state |= STALE;
            self.pending.push(node as u32);
        }
        self.dirty = true;
    }

    /// Marks stale every node set through its handle (for `set_params`, which resets them).
    fn stage_set_by_handle(&mut self) {
        for (node, state) in self.nodes.iter_mut().enumerate() {
            if *state == BY_HANDLE {
                *state |= STALE;
                self.pending.push(node as u32);
                self.dirty = true;
            }
        }
    }

    /// The change is over, made or undone: nothing is pending, the params are the applied ones.
    fn settle(&mut self) {
        for &node in &self.pending {
            self.nodes[node as usize] &= !STALE;
        }
        self.pending.clear();
        self.updated.clear();
        for &param in &self.changed_list {
            self.changed[param as usize] = false;
        }
        self.changed_list.clear();
        self.check = false;
        self.swapped = None;
        self.deferred = None;
        self.dirty = self.broken.is_some();
    }

    /// Every node agrees with the params, and the applied params are the params (a whole-graph
    /// update made them all anew).
    pub fn clear(&mut self) {
        self.nodes.fill(0);
        self.changed.fill(false);
        self.pending.clear();
        self.changed_list.clear();
        self.updated.clear();
        self.check = false;
        self.swapped = None;
        self.deferred = None;
        self.dirty = false;
        self.broken = None;
        self.applying = false;
    }
}

/// What [`Tracked::sync_children`] does with the changed params that are child graphs (whose
/// copies may fail).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SyncChildren {
    /// Copies them into the applied params (the change was made). Every copy is made before
    /// any is stored, so a copy that fails changes nothing.
    Commit,
    /// Copies the applied ones back into the params (the change was refused); as `Commit`, a
    /// failed copy changes nothing.
    Restore,
    /// Swaps them with the applied ones: the params get their applied values back without a
    /// copy, the applied params the refused ones (for when `Restore` failed).
    Swap,
}

/// A key only the runtime makes (its field is private): the [`Tracked`] methods that change the
/// params, the applied params or the tracker without the tracker knowing take one, so that they
/// cannot be called from outside the runtime. (The trait is public, for the generated impls, and
/// so are its methods: without the key, `Tracked::params_mut(&mut exec).y = other` would change
/// a param no node is updated for, and `Tracked::tracker(&mut exec).clear()` would forget the
/// pending changes.)
#[derive(Clone, Copy)]
pub struct Internal(());

impl std::fmt::Debug for Internal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Internal")
    }
}

/// The runtime's [`Internal`] key.
pub(super) const INTERNAL: Internal = Internal(());

/// A `cuda_graph!` executable, as the functions here see it (generated; not an API).
///
/// # Safety
///
/// [`stage_swap`](super::stage_swap) swaps params through raw pointers on the strength of
/// `Slots` and [`slot_offset`](Tracked::slot_offset): `Slots` is a `#[repr(C)]` struct made of
/// [`Slot`](super::Slot)s (or arrays of them) only, one byte per slot, in slot order, so that the
/// token at byte `i` stands for slot `i`; that token is a `Slot<T>` where `T` is the type of
/// slot `i`'s value, which lies at byte `slot_offset(i)` of `Params`.
///
/// And the implementation keeps no [`Internal`] key its methods are given, nor hands one to
/// anything but the keyed methods of `self`: the key is all that keeps safe code from the keyed
/// methods of *every* executable (`Tracked::params_mut(&mut exec, key).y = other` changes a param
/// no node is updated for, and the memory check never sees), so one that escaped through an
/// implementation would open them all.
pub unsafe trait Tracked: Sized + 'static {
    /// The declaration's params.
    type Params;
    /// The slot tokens a swap's `pick` is lent: one per slot, named as the params.
    type Slots;
    /// The executable's type name, for errors about the executable as a whole.
    const NAME: &'static str;
    /// Per node, by build position: its single-node update from the params (a check for an
    /// alloc node; nothing for a node CUDA updates nothing of), and the index it is called with
    /// (an instance's among its declaration's, for a node of a `for` loop: one function serves
    /// every instance). (Keyed: an update outside [`apply`] would make a node run params the
    /// memory check has not seen.)
    #[allow(clippy::type_complexity)]
    const UPDATES: &'static [(fn(&mut Self, usize, Internal) -> Result<()>, u32)];
    /// Per slot (a param, or an element of an array param): the nodes whose expressions read it
    /// (alloc nodes first: their check comes before any update), whether the build-time
    /// memory check involves it, and whether it is a child graph (whose copy into the applied
    /// params may fail: [`sync_children`](Tracked::sync_children)).
    const READERS: &'static [(&'static [u32], bool, bool)];
    /// The tracker.
    fn tracker(&mut self, key: Internal) -> &mut Tracker;
    /// The params.
    fn params_mut(&mut self, key: Internal) -> &mut Self::Params;
    /// The applied params: the values the nodes were last updated from.
    fn applied_mut(&mut self, key: Internal) -> &mut Self::Params;
    /// The memory check `build` makes, on the executable's params.
    fn check(&self) -> Result<()>;
    /// The byte offset in `Params` of slot `slot`'s value (a param, or an element of an array
    /// param).
    fn slot_offset(slot: usize) -> usize;
    /// Writes slot `param`'s value where the launches read it, if it is an `#[indirect]` param
    /// (a host write; its readers are never stale): after a change that no setter made.
    fn write_indirect(&mut self, param: usize, key: Internal);
    /// Copies slot `param`, unless it is a child graph, into the applied params (`commit`) or
    /// back from them.
    fn sync(&mut self, param: usize, commit: bool, key: Internal);
    /// What `how` says, for the changed params that are child graphs.
    fn sync_children(&mut self, how: SyncChildren, key: Internal) -> Result<()>;
}

/// A node's single-node update from the params, as [`Tracked::UPDATES`] lists them.
pub type UpdateFn<E> = fn(&mut E, usize, Internal) -> Result<()>;

/// Marks the readers of slot `param` stale: its value changed.
#[inline]
pub fn stage<E: Tracked>(exec: &mut E, param: usize) {
    stage_in::<E>(exec.tracker(INTERNAL), param);
}

/// [`stage`], given the tracker of an executable of type `E`: for generated code that holds the
/// executable's parts (see [`Guarded`](super::Guarded)) while it changes several params. (Safe:
/// a slot staged that did not change costs an update that changes nothing.)
#[inline]
pub fn stage_in<E: Tracked>(tracker: &mut Tracker, param: usize) {
    if tracker.deferred.is_some() {
        stage_deferred::<E>(tracker);
    }
    let (readers, check, _) = E::READERS[param];
    tracker.stage(param, readers, check);
}

/// Stages the swap kept aside (see [`Tracker::deferred`]): something else changes too, or the
/// short way is closed. Until something else is staged, the changes are that swap alone
/// ([`Tracker::swapped`]).
#[cold]
#[inline(never)]
fn stage_deferred<E: Tracked>(tracker: &mut Tracker) {
    if let Some(Deferred { a, b, at }) = tracker.deferred.take() {
        for slot in [a, b] {
            let (readers, check, _) = E::READERS[slot];
            tracker.stage(slot, readers, check);
        }
        tracker.swapped = Some(at);
    }
}

/// Brings every stale node up to the params: the build-time memory check first when a param it
/// involves changed, then each stale node's update, once (the nodes set through their handles
/// last, so that a refusal before them leaves them untouched). Returns how many nodes were
/// updated.
///
/// All or nothing: when the check or an update is refused, the change is undone (`undo`) and
/// the error, naming the node, is returned. Nothing stays pending, so the next launch runs the
/// executable as it was.
pub fn apply<E: Tracked>(exec: &mut E) -> Result<usize> {
    let tracker = exec.tracker(INTERNAL);
    if let Some(swap) = tracker.deferred {
        // The guard's swap alone: `exec.swap`'s short way, unless a reader was set through its
        // handle since (or a node was set back), or the executable is broken.
        let clean =
            tracker.all_clean(E::READERS[swap.a].0) && tracker.all_clean(E::READERS[swap.b].0);
        if clean && tracker.pending.is_empty() && !tracker.applying && tracker.broken.is_none() {
            tracker.deferred = None;
            return super::swap::swap_alone(exec, (swap.a, swap.b), |exec| {
                super::swap::swap_applied(exec, swap.at)
            });
        }
        stage_deferred::<E>(tracker);
    }
    if tracker.applying {
        // The last apply never ended: a panic in user code unwound through it (see `applying`).
        // What it left cannot be trusted, nor undone (the undo runs the same user code).
        tracker.broken.get_or_insert_with(|| {
            "a panic in code it ran (a node expression, or a param's `Clone`, `PartialEq` or \
             `Drop`) interrupted an update"
                .into()
        });
        tracker.dirty = true;
    }
    if !tracker.dirty {
        return Ok(0);
    }
    tracker.applying = true;
    let outcome = match tracker.broken.as_deref().map(broken_error::<E>) {
        Some(error) => {
            undo(exec);
            Err(error)
        }
        None => match forward(exec) {
            Ok(updated) => {
                exec.tracker(INTERNAL).settle();
                Ok(updated)
            }
            Err(e) => {
                undo(exec);
                Err(e)
            }
        },
    };
    exec.tracker(INTERNAL).applying = false;
    outcome
}

/// [`apply`]'s way forward: the check, the updates, and the changed params copied into the
/// applied ones. What it did is in the tracker (`updated`) for [`undo`].
fn forward<E: Tracked>(exec: &mut E) -> Result<usize> {
    if exec.tracker(INTERNAL).check {
        exec.check()?;
    }
    // Two rounds: the nodes set through their handles wait for the second, which is skipped
    // when there are none.
    let mut handled_waiting = false;
    for handled in [false, true] {
        if handled && !handled_waiting {
            break;
        }
        let mut at = 0;
        loop {
            let tracker = exec.tracker(INTERNAL);
            let Some(&node) = tracker.pending.get(at) else {
                break;
            };
            at += 1;
            let n = node as usize;
            let state = tracker.nodes[n];
            if state & STALE == 0 {
                continue;
            }
            if (state & BY_HANDLE != 0) != handled {
                handled_waiting = true;
                continue;
            }
            let (update, index) = E::UPDATES[n];
            update(exec, index as usize, INTERNAL)?;
            let tracker = exec.tracker(INTERNAL);
            // Not stale any more: a second entry for the node is skipped.
            tracker.nodes[n] = 0;
            tracker.updated.push(node);
        }
    }
    // The copies that may fail first: the applied params change only once all are made.
    exec.sync_children(SyncChildren::Commit, INTERNAL)?;
    if let Some(swap) = exec.tracker(INTERNAL).swapped {
        super::swap::swap_applied(exec, swap);
    } else {
        let changed = std::mem::take(&mut exec.tracker(INTERNAL).changed_list);
        for &param in &changed {
            exec.sync(param as usize, true, INTERNAL);
        }
        exec.tracker(INTERNAL).changed_list = changed;
    }
    Ok(exec.tracker(INTERNAL).updated.len())
}

/// Node `node`'s update failed after it changed part of the node (some of the copies of a node
/// of an unrolled WHILE body took the change, then one refused): the undo of the refused change
/// (see [`apply`]) sets it back with the nodes updated before it. (A node whose update changed
/// nothing is left out: it is as it was.)
#[cold]
pub fn partly_updated<E: Tracked>(exec: &mut E, node: usize) {
    exec.tracker(INTERNAL).updated.push(node as u32);
}

/// Undoes a refused change: the changed params get their applied values back (an
/// `#[indirect]` param's written again), and the nodes [`forward`] updated are updated again from
/// them, the last first. Each step back returns the executable to a state it was in a moment
/// before (the driver and the checks accepted it then), so none is expected to fail; if one does
/// (or copying a child graph back fails, out of memory), the executable is marked broken: every
/// later update and launch is refused, saying why, until a whole-graph update.
#[cold]
#[inline(never)]
fn undo<E: Tracked>(exec: &mut E) {
    let changed = std::mem::take(&mut exec.tracker(INTERNAL).changed_list);
    for &param in &changed {
        exec.sync(param as usize, false, INTERNAL);
        exec.write_indirect(param as usize, INTERNAL);
    }
    exec.tracker(INTERNAL).changed_list = changed;
    let mut broken = None;
    if let Err(e) = exec.sync_children(SyncChildren::Restore, INTERNAL) {
        // The params take back the applied graphs themselves; the applied copies are lost.
        let _ = exec.sync_children(SyncChildren::Swap, INTERNAL);
        broken = Some(format!("copying back a child graph failed: {e}"));
    }
    let updated = std::mem::take(&mut exec.tracker(INTERNAL).updated);
    for &node in updated.iter().rev() {
        let (update, index) = E::UPDATES[node as usize];
        if let Err(e) = update(exec, index as usize, INTERNAL) {
            broken.get_or_insert_with(|| format!("setting a node back failed: {e}"));
        }
    }
    let tracker = exec.tracker(INTERNAL);
    tracker.updated = updated;
    if let Some(broken) = broken {
        tracker.broken.get_or_insert(broken.into_boxed_str());
    }
    tracker.settle();
}

/// The error of an executable whose change could not be made or undone whole.
#[cold]
fn broken_error<E: Tracked>(why: &str) -> Error {
    Error::Invalid {
        node: E::NAME.into(),
        reason: format!(
            "a change could not be made or undone whole ({why}), so the executable may not run what \
             its params say: it is neither updated nor launched any more; update it from a \
             graph of its declaration (`update`), or instantiate one again"
        ),
    }
}

/// A param's setter (or an element's: `param` is a slot), once the new value is in place: its
/// readers updated now. On error the param has its old value back (see [`apply`]).
///
/// A setter usually finds nothing else pending, and then takes a short way: its readers are
/// updated in order and the slot copied into the applied params, without the tracker's lists
/// (what a setter costs on top of its driver calls is mostly these few memory accesses, each a
/// cache miss between driver calls). It is [`apply`] for one slot all the same: marked as under
/// way and pending while it runs (a panic in a node expression or a param's `Clone` leaves the
/// executable refusing updates and launches, as there), undone whole on a refusal (`undo`,
/// from the state `forward` would have left). Anything else takes the general way: another
/// change pending, a slot the memory check involves or that is a child graph (whose copy may
/// fail), a reader set through its handle (which waits for the others), a broken executable.
#[inline(never)]
pub fn set_param<E: Tracked>(exec: &mut E, param: usize) -> Result<usize> {
    let (readers, check, child) = E::READERS[param];
    let tracker = exec.tracker(INTERNAL);
    let alone = tracker.quiet() && !check && !child && tracker.all_clean(readers);
    if !alone {
        stage(exec, param);
        return apply(exec);
    }
    tracker.begin_alone();
    for (done, &node) in readers.iter().enumerate() {
        let (update, index) = E::UPDATES[node as usize];
        if let Err(e) = update(exec, index as usize, INTERNAL) {
            refused_alone(exec, param, readers, done);
            return Err(e);
        }
    }
    exec.sync(param, true, INTERNAL);
    exec.tracker(INTERNAL).end_alone();
    Ok(readers.len())
}

/// [`set_param`] for a slot that one node reads, `node` (the memory check not involved, no
/// child graph): the setters `cuda_graph!` generates for such a slot call it with the node's
/// update function (`update`, called with `index`: see [`Tracked::UPDATES`]) and the copy of the
/// slot into the applied params (`commit`), which the tables would give, so that the short way
/// reads neither table: a setter is the update's driver call and a few memory accesses more,
/// each a likely cache miss after a driver call. Anything but the short way goes
/// [`set_param`]'s general way.
#[inline(always)]
pub fn set_sole_reader<E: Tracked>(
    exec: &mut E,
    param: usize,
    node: usize,
    (update, index): (UpdateFn<E>, usize),
    commit: impl FnOnce(&mut E),
) -> Result<usize> {
    debug_assert!(
        E::READERS[param] == (&[node as u32][..], false, false)
            && E::UPDATES[node].1 as usize == index,
        "the generated code names the slot's one reader"
    );
    let tracker = exec.tracker(INTERNAL);
    if !(tracker.quiet() && tracker.nodes[node] == 0) {
        return set_param(exec, param);
    }
    tracker.begin_alone();
    if let Err(e) = update(exec, index, INTERNAL) {
        refused_alone(exec, param, E::READERS[param].0, 0);
        return Err(e);
    }
    commit(exec);
    exec.tracker(INTERNAL).end_alone();
    Ok(1)
}

/// Reader `readers[refused]` refused [`set_param`]'s change of slot `param` on its short way,
/// after the readers before it took it: the tracker is given the state [`forward`] leaves on a
/// refusal (see [`refused_alone_with`]), and [`undo`] sets everything back.
#[cold]
#[inline(never)]
fn refused_alone<E: Tracked>(exec: &mut E, param: usize, readers: &[u32], refused: usize) {
    exec.tracker(INTERNAL).stage(param, readers, false);
    refused_alone_with(exec, &readers[..refused]);
}

/// A short way's update was refused after the nodes `before` took the change (the changed
/// slots are staged, their readers stale): the tracker is given the state [`forward`] leaves on
/// a refusal (the nodes updated listed in order: `before`, then the refused one if it listed
/// itself as partly updated), and [`undo`] sets everything back.
#[cold]
pub(super) fn refused_alone_with<E: Tracked>(exec: &mut E, before: &[u32]) {
    let tracker = exec.tracker(INTERNAL);
    let partly = std::mem::take(&mut tracker.updated);
    tracker.updated.extend_from_slice(before);
    tracker.updated.extend(partly);
    undo(exec);
    exec.tracker(INTERNAL).applying = false;
}

/// `set_params`, once the changed params are in place and their readers staged: the nodes set
/// through their handles are reset too, and every stale node is updated.
pub fn set_all<E: Tracked>(exec: &mut E) -> Result<usize> {
    exec.tracker(INTERNAL).stage_set_by_handle();
    apply(exec)
}

/// Writes `value` for `key`, the key of an `#[indirect]` param of the executable's own graph:
/// the host write a launch reads (see `GraphExec::set_indirect`, which refuses only the keys of
/// other graphs, which a declaration's executable never holds).
#[inline]
pub fn write_indirect<T: Copy>(
    exec: &mut crate::GraphExec<'_>,
    key: &crate::Indirect<T>,
    value: T,
) {
    let written = exec.set_indirect(key, value);
    debug_assert!(written.is_ok(), "an executable's own key");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::__private::{stage_swap, swap_params, Slot};

    /// A declaration's executable in miniature: five params, two nodes; node 0 reads `a` and
    /// `b`, node 1 reads `b` and `c`. Node 1's update is refused while `c` is 0, node 0's while
    /// `a` is `refuse_a`; `pair` stands for a child graph, whose copies into and out of the
    /// applied params fail as `refuse_copies` says.
    #[derive(Debug)]
    struct Exec {
        params: Params,
        applied: Params,
        tracker: Tracker,
        updates: Vec<(usize, u32, u32)>,
        refuse_a: Option<u32>,
        refuse_copies: [bool; 2],
        /// Node 0 refuses after taking the change in part (as a node of several copies may).
        refuse_a_part_way: bool,
        /// Node 1's update panics at this call (counting from 1), as a node expression of the
        /// user's may; `calls_1` counts them.
        panic_1_at: Option<u32>,
        calls_1: u32,
        /// Node 1 refuses this value of `b`.
        refuse_b_at_1: Option<u32>,
        /// How many slots `sync` copied into the applied params.
        commits: u32,
    }

    #[derive(Clone, Debug, PartialEq)]
    struct Params {
        a: u32,
        b: u32,
        c: u32,
        pair: (u32, u32),
        bytes: Vec<u8>,
    }

    fn refused(node: &str) -> Error {
        Error::Invalid {
            node: node.into(),
            reason: "refused".into(),
        }
    }

    impl Exec {
        fn update_0(&mut self, _: usize, _: Internal) -> Result<()> {
            if Some(self.params.a) == self.refuse_a {
                if self.refuse_a_part_way {
                    partly_updated(self, 0);
                }
                return Err(refused("n0"));
            }
            self.updates.push((0, self.params.a, self.params.b));
            Ok(())
        }
        fn update_1(&mut self, _: usize, _: Internal) -> Result<()> {
            self.calls_1 += 1;
            if Some(self.calls_1) == self.panic_1_at {
                panic!("a node expression panicked");
            }
            if self.params.c == 0 || Some(self.params.b) == self.refuse_b_at_1 {
                return Err(refused("n1"));
            }
            self.updates.push((1, self.params.b, self.params.c));
            Ok(())
        }
    }

    /// The slot tokens of [`Params`], as `cuda_graph!` generates them.
    #[repr(C)]
    struct Slots {
        a: Slot<u32>,
        b: Slot<u32>,
        c: Slot<u32>,
        pair: Slot<(u32, u32)>,
        bytes: Slot<Vec<u8>>,
    }

    // SAFETY: `Slots` is `#[repr(C)]`, one `Slot` per slot in slot order, each of its slot's
    // value type, at the offset `slot_offset` gives.
    unsafe impl Tracked for Exec {
        type Params = Params;
        type Slots = Slots;
        const NAME: &'static str = "Exec";
        const UPDATES: &'static [(fn(&mut Self, usize, Internal) -> Result<()>, u32)] =
            &[(Self::update_0, 0), (Self::update_1, 0)];
        const READERS: &'static [(&'static [u32], bool, bool)] = &[
            (&[0], false, false),
            (&[0, 1], false, false),
            (&[1], true, false),
            (&[], false, true),
            (&[], false, false),
        ];
        fn tracker(&mut self, _: Internal) -> &mut Tracker {
            &mut self.tracker
        }
        fn params_mut(&mut self, _: Internal) -> &mut Params {
            &mut self.params
        }
        fn applied_mut(&mut self, _: Internal) -> &mut Params {
            &mut self.applied
        }
        fn check(&self) -> Result<()> {
            Ok(())
        }
        fn write_indirect(&mut self, _: usize, _: Internal) {}
        fn slot_offset(slot: usize) -> usize {
            use std::mem::offset_of;
            [
                offset_of!(Params, a),
                offset_of!(Params, b),
                offset_of!(Params, c),
                offset_of!(Params, pair),
                offset_of!(Params, bytes),
            ][slot]
        }
        fn sync(&mut self, param: usize, commit: bool, _: Internal) {
            self.commits += u32::from(commit);
            let (from, to) = match commit {
                true => (&self.params, &mut self.applied),
                false => (&self.applied, &mut self.params),
            };
            match param {
                0 => to.a = from.a,
                1 => to.b = from.b,
                2 => to.c = from.c,
                4 => to.bytes = from.bytes.clone(),
                _ => {} // `pair`: sync_children
            }
        }
        fn sync_children(&mut self, how: SyncChildren, _: Internal) -> Result<()> {
            if !self.tracker.is_changed(3) {
                return Ok(());
            }
            match how {
                SyncChildren::Swap => std::mem::swap(&mut self.params.pair, &mut self.applied.pair),
                SyncChildren::Commit if self.refuse_copies[0] => return Err(refused("pair")),
                SyncChildren::Restore if self.refuse_copies[1] => return Err(refused("pair")),
                SyncChildren::Commit => self.applied.pair = self.params.pair,
                SyncChildren::Restore => self.params.pair = self.applied.pair,
            }
            Ok(())
        }
    }

    fn exec() -> Exec {
        let params = Params {
            a: 1,
            b: 2,
            c: 3,
            pair: (4, 5),
            bytes: vec![1, 2],
        };
        Exec {
            applied: params.clone(),
            params,
            tracker: Tracker::new(2, 5),
            updates: Vec::new(),
            refuse_a: None,
            refuse_copies: [false; 2],
            refuse_a_part_way: false,
            panic_1_at: None,
            calls_1: 0,
            refuse_b_at_1: None,
            commits: 0,
        }
    }

    /// The params as built, which a refused change must leave.
    fn built() -> Params {
        exec().params
    }

    #[test]
    fn a_change_updates_its_readers_once_each() {
        let mut e = exec();
        e.params.a = 10;
        stage(&mut e, 0);
        e.params.b = 20;
        stage(&mut e, 1);
        assert!(e.tracker.is_dirty());
        assert_eq!(apply(&mut e).unwrap(), 2);
        assert_eq!(e.updates, [(0, 10, 20), (1, 20, 3)]);
        assert_eq!(e.applied, e.params, "the applied params are the params");
        assert!(!e.tracker.is_dirty());
        assert_eq!(apply(&mut e).unwrap(), 0, "nothing left");
    }

    #[test]
    fn a_refused_change_is_undone_and_not_tried_again() {
        let mut e = exec();
        e.params.a = 7;
        stage(&mut e, 0);
        e.params.c = 0;
        stage(&mut e, 2);
        let refused = apply(&mut e).unwrap_err();
        assert!(refused.to_string().contains("n1"), "{refused}");
        // Node 0 took `a = 7` before node 1 refused: it is set back to `a = 1`.
        assert_eq!(e.updates, [(0, 7, 2), (0, 1, 2)]);
        assert_eq!(e.params, built(), "the params are back");
        assert_eq!(e.applied, built());
        assert!(!e.tracker.is_dirty(), "nothing pending");
        assert_eq!(apply(&mut e).unwrap(), 0, "the next launch updates nothing");
        assert_eq!(e.updates.len(), 2);
        // A good change afterwards is made, alone.
        e.params.c = 9;
        stage(&mut e, 2);
        assert_eq!(apply(&mut e).unwrap(), 1);
        assert_eq!(e.updates[2..], [(1, 2, 9)]);
    }

    #[test]
    fn a_node_refused_part_way_is_set_back_whole() {
        let mut e = exec();
        e.params.c = 7;
        stage(&mut e, 2);
        e.refuse_a = Some(5);
        e.params.a = 5;
        stage(&mut e, 0);
        // Node 0 refuses a change it took in part: it is set back from the params (the last
        // first), and so is node 1, which took `c = 7` before it.
        e.refuse_a_part_way = true;
        assert!(apply(&mut e).is_err());
        assert_eq!(e.updates, [(1, 2, 7), (0, 1, 2), (1, 2, 3)]);
        assert_eq!(e.params, built());
        // Refused whole (nothing taken), node 0 is not set back: it is as it was.
        e.refuse_a_part_way = false;
        e.updates.clear();
        e.params.a = 5;
        stage(&mut e, 0);
        assert!(apply(&mut e).is_err());
        assert!(e.updates.is_empty());
    }

    #[test]
    fn a_refused_setter_leaves_the_params_as_they_were() {
        let mut e = exec();
        e.params.b = 8;
        assert_eq!(set_param(&mut e, 1).unwrap(), 2);
        let old = std::mem::replace(&mut e.params.c, 0);
        assert_eq!(old, 3);
        assert!(set_param(&mut e, 2).is_err());
        assert_eq!((e.params.b, e.params.c), (8, 3), "c back, b kept");
        assert!(!e.tracker.is_dirty());
    }

    #[test]
    fn a_setter_with_nothing_pending_updates_its_readers_in_order() {
        let mut e = exec();
        e.params.b = 20;
        assert_eq!(set_param(&mut e, 1).unwrap(), 2);
        assert_eq!(e.updates, [(0, 1, 20), (1, 20, 3)]);
        assert_eq!(e.applied, e.params, "the change is in the applied params");
        assert!(!e.tracker.is_dirty());
        assert_eq!(apply(&mut e).unwrap(), 0, "nothing left");
    }

    #[test]
    fn a_setter_refused_by_its_second_reader_sets_the_first_back() {
        let mut e = exec();
        e.refuse_b_at_1 = Some(9);
        e.params.b = 9;
        let refused = set_param(&mut e, 1).unwrap_err();
        assert!(refused.to_string().contains("n1"), "{refused}");
        assert_eq!(e.updates, [(0, 1, 9), (0, 1, 2)], "node 0 set back");
        assert_eq!(e.params, built(), "the param is back");
        assert_eq!(e.applied, built());
        assert!(!e.tracker.is_dirty(), "nothing pending");
        assert_eq!(apply(&mut e).unwrap(), 0);
        // The tracker is as it was: the next setter goes through alone.
        e.params.b = 4;
        assert_eq!(set_param(&mut e, 1).unwrap(), 2);
        assert_eq!(e.updates[2..], [(0, 1, 4), (1, 4, 3)]);
    }

    #[test]
    fn a_setter_refused_part_way_sets_its_node_back_whole() {
        let mut e = exec();
        e.refuse_a = Some(5);
        e.refuse_a_part_way = true;
        e.params.a = 5;
        assert!(set_param(&mut e, 0).is_err());
        assert_eq!(e.updates, [(0, 1, 2)], "node 0 set back from the params");
        assert_eq!(e.params, built());
        assert!(!e.tracker.is_dirty());
    }

    /// `a`'s setter as `cuda_graph!` generates it for a slot of one reader (node 0, `a`).
    fn set_a(e: &mut Exec, a: u32) -> Result<usize> {
        e.params.a = a;
        set_sole_reader(e, 0, 0, (Exec::update_0, 0), |e| e.applied.a = e.params.a)
    }

    #[test]
    fn a_setter_of_one_reader_updates_it_and_the_applied_params() {
        let mut e = exec();
        assert_eq!(set_a(&mut e, 6).unwrap(), 1);
        assert_eq!(e.updates, [(0, 6, 2)]);
        assert_eq!(e.applied, e.params, "the change is in the applied params");
        assert!(!e.tracker.is_dirty());
        assert_eq!(apply(&mut e).unwrap(), 0, "nothing left");
    }

    #[test]
    fn a_refused_setter_of_one_reader_leaves_the_params_as_they_were() {
        let mut e = exec();
        e.refuse_a = Some(5);
        let refused = set_a(&mut e, 5).unwrap_err();
        assert!(refused.to_string().contains("n0"), "{refused}");
        assert!(
            e.updates.is_empty(),
            "the one reader refused: nothing to set back"
        );
        assert_eq!(e.params, built(), "the param is back");
        assert_eq!(e.applied, built());
        assert!(!e.tracker.is_dirty(), "nothing pending");
        // Part way: the node is set back whole from the params.
        e.refuse_a_part_way = true;
        assert!(set_a(&mut e, 5).is_err());
        assert_eq!(e.updates, [(0, 1, 2)], "node 0 set back");
        assert_eq!(e.params, built());
        // The tracker is as it was: the next setter goes through alone.
        assert_eq!(set_a(&mut e, 4).unwrap(), 1);
        assert_eq!(e.updates[1..], [(0, 4, 2)]);
    }

    #[test]
    fn a_setter_of_one_reader_finding_it_stale_or_set_by_handle_goes_the_general_way() {
        let mut e = exec();
        e.params.b = 6;
        stage(&mut e, 1);
        assert_eq!(set_a(&mut e, 5).unwrap(), 2, "the pending change made too");
        assert_eq!(e.updates, [(0, 5, 6), (1, 6, 3)]);
        assert_eq!(e.applied, e.params);
        e.updates.clear();
        e.tracker.set_by_handle(0);
        e.params.c = 7;
        stage(&mut e, 2);
        assert!(apply(&mut e).is_ok());
        assert_eq!(e.tracker.nodes[0], BY_HANDLE, "untouched by `c`'s change");
        assert_eq!(set_a(&mut e, 8).unwrap(), 1);
        assert_eq!(e.tracker.nodes[0], 0, "node 0 follows the params again");
        assert_eq!(e.applied, e.params);
    }

    #[test]
    fn a_panic_in_the_update_of_a_setter_of_one_reader_breaks_the_executable() {
        let mut e = exec();
        let panicked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let _ = set_sole_reader(&mut e, 0, 0, (Exec::update_0, 0), |_| panic!("a Clone"));
        }));
        assert!(panicked.is_err());
        assert!(
            e.tracker.is_dirty(),
            "a launch applies first, and is refused"
        );
        let broken = apply(&mut e).unwrap_err();
        assert!(broken.to_string().contains("panic"), "{broken}");
    }

    #[test]
    fn a_setter_finding_a_change_pending_makes_both() {
        let mut e = exec();
        e.params.a = 5;
        stage(&mut e, 0);
        e.params.b = 6;
        assert_eq!(set_param(&mut e, 1).unwrap(), 2, "each reader once");
        assert_eq!(e.updates, [(0, 5, 6), (1, 6, 3)]);
        assert_eq!(e.applied, e.params);
    }

    #[test]
    fn a_setter_updates_a_reader_set_through_its_handle_last() {
        let mut e = exec();
        e.tracker.set_by_handle(0);
        e.params.b = 6;
        assert_eq!(set_param(&mut e, 1).unwrap(), 2);
        assert_eq!(e.updates, [(1, 6, 3), (0, 1, 6)]);
        assert_eq!(e.tracker.nodes[0], 0, "node 0 follows the params again");
    }

    #[test]
    fn a_panic_in_a_setters_update_breaks_the_executable() {
        let mut e = exec();
        e.params.b = 9;
        e.panic_1_at = Some(1);
        let panicked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let _ = set_param(&mut e, 1);
        }));
        assert!(panicked.is_err());
        assert_eq!(
            e.updates,
            [(0, 1, 9)],
            "node 0 took the change, node 1 did not"
        );
        assert!(
            e.tracker.is_dirty(),
            "a launch applies first, and is refused"
        );
        let broken = apply(&mut e).unwrap_err();
        assert!(broken.to_string().contains("panic"), "{broken}");
        e.params.a = 3;
        assert!(set_param(&mut e, 0).is_err(), "setters too");
    }

    #[test]
    fn a_refused_set_params_leaves_nodes_set_through_their_handles_as_they_were() {
        let mut e = exec();
        // Node 0 set through its handle, then `set_params` with a `c` node 1 refuses: node 1
        // refuses before node 0 (set through its handle: updated last) is reached.
        e.tracker.set_by_handle(0);
        e.params.c = 0;
        stage(&mut e, 2);
        assert!(set_all(&mut e).is_err());
        assert!(e.updates.is_empty(), "node 0 keeps its handle's values");
        assert_eq!(e.tracker.nodes[0], BY_HANDLE, "and stays the handle's");
        assert_eq!(e.params, built());
        // A good `set_params` resets it.
        assert_eq!(set_all(&mut e).unwrap(), 1);
        assert_eq!(e.updates, [(0, 1, 2)]);
    }

    #[test]
    fn a_node_set_through_its_handle_keeps_that_until_its_params_change() {
        let mut e = exec();
        e.params.a = 5;
        stage(&mut e, 0);
        e.tracker.set_by_handle(0);
        assert_eq!(apply(&mut e).unwrap(), 0, "the handle's values stand");
        assert_eq!(set_all(&mut e).unwrap(), 1, "set_params resets the node");
        assert_eq!(e.updates, [(0, 5, 2)]);
    }

    #[test]
    fn swaps_find_the_params_they_picked() {
        let mut e = exec();
        stage_swap(&mut e, |p| (&mut p.a, &mut p.c)).unwrap();
        assert_eq!((e.params.a, e.params.c), (3, 1));
        assert_eq!(apply(&mut e).unwrap(), 2, "both nodes");
        assert_eq!(e.updates, [(0, 3, 2), (1, 2, 1)]);
        // A token is known by its place: tokens moved around inside `pick` change nothing, and
        // the fields returned, `a` and `c`, are swapped.
        e.updates.clear();
        stage_swap(&mut e, |p| {
            std::mem::swap(&mut p.a, &mut p.b);
            (&mut p.a, &mut p.c)
        })
        .unwrap();
        assert_eq!((e.params.a, e.params.b, e.params.c), (1, 2, 3));
        assert_eq!(apply(&mut e).unwrap(), 2);
        assert_eq!(e.params, e.applied);
    }

    #[test]
    fn a_swap_alone_through_the_guard_swaps_the_applied_params_without_a_copy() {
        let mut e = exec();
        stage_swap(&mut e, |p| (&mut p.a, &mut p.c)).unwrap();
        assert_eq!(apply(&mut e).unwrap(), 2);
        assert_eq!(e.applied, e.params, "the applied params swapped as well");
        assert_eq!((e.applied.a, e.applied.c), (3, 1));
        assert_eq!(e.commits, 0, "no value copied");
        // A change after the swap, or before it: every changed slot is copied.
        stage_swap(&mut e, |p| (&mut p.a, &mut p.c)).unwrap();
        e.params.b = 7;
        stage(&mut e, 1);
        assert_eq!(apply(&mut e).unwrap(), 2);
        assert_eq!(e.applied, e.params);
        assert_eq!(e.commits, 3, "a, c and b copied");
        e.params.b = 8;
        stage(&mut e, 1);
        stage_swap(&mut e, |p| (&mut p.a, &mut p.c)).unwrap();
        assert_eq!(apply(&mut e).unwrap(), 2);
        assert_eq!(e.applied, e.params);
        assert_eq!((e.params.a, e.params.b, e.params.c), (3, 8, 1));
        assert_eq!(e.commits, 6, "b, a and c copied");
    }

    #[test]
    fn a_swap_alone_through_the_guard_takes_the_short_way_at_apply() {
        let mut e = exec();
        stage_swap(&mut e, |p| (&mut p.a, &mut p.b)).unwrap();
        assert_eq!((e.params.a, e.params.b), (2, 1), "swapped at once");
        assert!(e.tracker.is_dirty(), "a launch applies it");
        assert!(e.tracker.pending.is_empty(), "kept aside, not staged");
        assert_eq!(apply(&mut e).unwrap(), 2);
        assert_eq!(
            e.updates,
            [(0, 2, 1), (1, 1, 3)],
            "each reader once, in order"
        );
        assert_eq!(e.applied, e.params);
        assert_eq!(e.commits, 0, "no value copied");
        assert!(!e.tracker.is_dirty());
        assert_eq!(apply(&mut e).unwrap(), 0, "nothing left");
    }

    #[test]
    fn a_swap_kept_aside_is_staged_when_something_else_changes() {
        let mut e = exec();
        stage_swap(&mut e, |p| (&mut p.a, &mut p.b)).unwrap();
        e.params.c = 9;
        stage(&mut e, 2);
        assert_eq!(apply(&mut e).unwrap(), 2);
        assert_eq!(e.updates, [(0, 2, 1), (1, 1, 9)]);
        assert_eq!(e.applied, e.params);
        // Kept aside, then a setter (the guard dropped without `apply`): both made.
        e.updates.clear();
        stage_swap(&mut e, |p| (&mut p.a, &mut p.b)).unwrap();
        e.params.c = 8;
        assert_eq!(set_param(&mut e, 2).unwrap(), 2);
        assert_eq!(e.updates, [(0, 1, 2), (1, 2, 8)]);
        assert_eq!(e.applied, e.params);
        // Kept aside, then a reader set through its handle: the general way, the handle's node
        // last.
        e.updates.clear();
        stage_swap(&mut e, |p| (&mut p.a, &mut p.b)).unwrap();
        e.tracker.set_by_handle(0);
        assert_eq!(apply(&mut e).unwrap(), 2);
        assert_eq!(e.updates, [(1, 1, 8), (0, 2, 1)]);
        assert_eq!(e.applied, e.params);
        assert_eq!(e.tracker.nodes[0], 0, "node 0 follows the params again");
    }

    #[test]
    fn a_swap_kept_aside_and_refused_is_swapped_back() {
        let mut e = exec();
        // After the swap `b` is 1, which node 1 refuses after node 0 took the swap.
        e.refuse_b_at_1 = Some(1);
        stage_swap(&mut e, |p| (&mut p.a, &mut p.b)).unwrap();
        let refused = apply(&mut e).unwrap_err();
        assert!(refused.to_string().contains("n1"), "{refused}");
        assert_eq!(e.updates, [(0, 2, 1), (0, 1, 2)], "node 0 set back");
        assert_eq!(e.params, built(), "swapped back");
        assert_eq!(e.applied, built());
        assert!(!e.tracker.is_dirty(), "nothing pending");
        assert_eq!(apply(&mut e).unwrap(), 0);
    }

    #[test]
    fn a_refused_swap_is_swapped_back() {
        let mut e = exec();
        e.params.a = 0;
        assert_eq!(set_param(&mut e, 0).unwrap(), 1);
        e.updates.clear();
        // `c` becomes 0, which node 1 refuses after node 0 took the new `a`.
        stage_swap(&mut e, |p| (&mut p.a, &mut p.c)).unwrap();
        assert!(apply(&mut e).is_err());
        assert_eq!((e.params.a, e.params.c), (0, 3));
        assert_eq!(e.updates, [(0, 3, 2), (0, 0, 2)], "node 0 set back");
        assert!(!e.tracker.is_dirty());
        assert_eq!(e.applied, e.params, "the applied params as they were");
        // The next swap alone is committed by swapping the applied params again.
        e.updates.clear();
        stage_swap(&mut e, |p| (&mut p.a, &mut p.b)).unwrap();
        assert_eq!(apply(&mut e).unwrap(), 2);
        assert_eq!((e.applied.a, e.applied.b), (2, 0));
        assert_eq!(e.applied, e.params);
    }

    #[test]
    fn a_swap_made_at_once_updates_each_reader_once() {
        let mut e = exec();
        // `a` is read by node 0, `b` by nodes 0 and 1: each is updated once, in order.
        assert_eq!(swap_params(&mut e, |p| (&mut p.a, &mut p.b)).unwrap(), 2);
        assert_eq!(e.updates, [(0, 2, 1), (1, 1, 3)]);
        assert_eq!((e.params.a, e.params.b), (2, 1));
        assert_eq!(e.applied, e.params, "the applied params swapped as well");
        assert!(!e.tracker.is_dirty());
        assert_eq!(apply(&mut e).unwrap(), 0, "nothing left");
        // And back: the short way again.
        assert_eq!(swap_params(&mut e, |p| (&mut p.b, &mut p.a)).unwrap(), 2);
        assert_eq!(e.params, built());
        assert_eq!(e.applied, built());
    }

    #[test]
    fn a_swap_made_at_once_and_refused_is_swapped_back() {
        let mut e = exec();
        // Node 1 refuses `b = 1` after node 0 took the swap: node 0 is set back.
        e.refuse_b_at_1 = Some(1);
        let refused = swap_params(&mut e, |p| (&mut p.a, &mut p.b)).unwrap_err();
        assert!(refused.to_string().contains("n1"), "{refused}");
        assert_eq!(e.updates, [(0, 2, 1), (0, 1, 2)], "node 0 set back");
        assert_eq!(e.params, built(), "the params are back");
        assert_eq!(e.applied, built());
        assert!(!e.tracker.is_dirty(), "nothing pending");
        // Refused by its first reader, part way: that node is set back whole.
        let mut e = exec();
        e.refuse_a = Some(2);
        e.refuse_a_part_way = true;
        assert!(swap_params(&mut e, |p| (&mut p.a, &mut p.b)).is_err());
        assert_eq!(e.updates, [(0, 1, 2)], "node 0 set back from the params");
        assert_eq!(e.params, built());
        assert!(!e.tracker.is_dirty());
    }

    #[test]
    fn a_swap_made_at_once_finding_a_change_pending_makes_both() {
        let mut e = exec();
        e.params.b = 7;
        stage(&mut e, 1); // pending: a guard dropped without `apply`
        assert_eq!(swap_params(&mut e, |p| (&mut p.a, &mut p.b)).unwrap(), 2);
        assert_eq!((e.params.a, e.params.b), (7, 1));
        assert_eq!(e.updates, [(0, 7, 1), (1, 1, 3)]);
        assert_eq!(e.applied, e.params);
        // A slot the memory check involves (`c`) takes the general way too.
        e.updates.clear();
        assert_eq!(swap_params(&mut e, |p| (&mut p.b, &mut p.c)).unwrap(), 2);
        assert_eq!((e.params.b, e.params.c), (3, 1));
        assert_eq!(e.applied, e.params);
    }

    #[test]
    fn a_panic_in_a_swap_made_at_once_breaks_the_executable() {
        let mut e = exec();
        e.panic_1_at = Some(1);
        let panicked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let _ = swap_params(&mut e, |p| (&mut p.a, &mut p.b));
        }));
        assert!(panicked.is_err());
        assert_eq!(
            e.updates,
            [(0, 2, 1)],
            "node 0 took the swap, node 1 did not"
        );
        assert!(
            e.tracker.is_dirty(),
            "a launch applies first, and is refused"
        );
        let broken = apply(&mut e).unwrap_err();
        assert!(broken.to_string().contains("panic"), "{broken}");
        assert!(
            swap_params(&mut e, |p| (&mut p.a, &mut p.b)).is_err(),
            "swaps too"
        );
    }

    #[test]
    fn a_child_graph_that_cannot_be_copied_refuses_the_change_whole() {
        let mut e = exec();
        e.refuse_copies = [true, false];
        e.params.pair = (6, 7);
        stage(&mut e, 3);
        e.params.a = 2;
        stage(&mut e, 0);
        // Node 0 is updated, then the applied copy of `pair` cannot be made: all undone.
        let refused = apply(&mut e).unwrap_err();
        assert!(refused.to_string().contains("pair"), "{refused}");
        assert_eq!(e.updates, [(0, 2, 2), (0, 1, 2)]);
        assert_eq!(e.params, built());
        assert_eq!(e.applied, built());
        assert!(!e.tracker.is_dirty());
    }

    #[test]
    fn a_child_graph_that_cannot_be_copied_back_breaks_the_executable() {
        let mut e = exec();
        e.refuse_copies = [true, true];
        e.params.pair = (6, 7);
        stage(&mut e, 3);
        assert!(apply(&mut e).is_err());
        // The params take the applied graph itself back; its applied copy is lost, so the
        // executable refuses everything from then on, a launch included.
        assert_eq!(e.params, built());
        assert!(e.tracker.is_dirty(), "a launch must look");
        for _ in 0..2 {
            let broken = apply(&mut e).unwrap_err();
            assert!(
                broken
                    .to_string()
                    .contains("could not be made or undone whole"),
                "{broken}"
            );
        }
        e.params.b = 4;
        assert!(set_param(&mut e, 1).is_err());
        assert_eq!(e.params.b, 2, "a change is undone at once");
        // A whole-graph update makes it anew.
        e.tracker.clear();
        e.params.b = 4;
        assert_eq!(set_param(&mut e, 1).unwrap(), 2);
    }

    #[test]
    fn a_node_that_cannot_be_set_back_breaks_the_executable() {
        let mut e = exec();
        e.params.a = 5;
        stage(&mut e, 0);
        e.params.c = 0;
        stage(&mut e, 2);
        e.refuse_a = Some(1); // node 0 takes a = 5, then refuses its old a = 1
        let refused = apply(&mut e).unwrap_err();
        assert!(refused.to_string().contains("n1"), "{refused}");
        let broken = apply(&mut e).unwrap_err();
        assert!(
            broken.to_string().contains("n0"),
            "names the cause: {broken}"
        );
        assert!(matches!(broken, Error::Invalid { ref node, .. } if node == "Exec"));
    }

    /// `apply`, with a panic caught (as safe code may, `catch_unwind` over the executable).
    fn apply_through_a_panic(e: &mut Exec) -> bool {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| apply(e))).is_err()
    }

    #[test]
    fn a_panic_part_way_through_an_update_breaks_the_executable() {
        // `b` is read by both nodes: node 0 is updated, then node 1's expression panics. Node 0
        // runs the new `b`, node 1 the old one, and nothing records which: were the executable
        // launched, it would run what no params say (two buffers swapped half way, a race).
        let mut e = exec();
        e.params.b = 9;
        stage(&mut e, 1);
        e.panic_1_at = Some(1);
        assert!(apply_through_a_panic(&mut e));
        assert_eq!(
            e.updates,
            [(0, 1, 9)],
            "node 0 took the change, node 1 did not"
        );
        // The next apply (a launch's, or a setter's) refuses, however the user code behaves now.
        for _ in 0..2 {
            let broken = apply(&mut e).unwrap_err();
            assert!(broken.to_string().contains("panic"), "says why: {broken}");
            assert!(
                e.tracker.is_dirty(),
                "a launch applies first, and is refused"
            );
        }
        e.params.c = 4;
        assert!(set_param(&mut e, 2).is_err(), "setters too");
        // A whole-graph update makes it anew.
        e.tracker.clear();
        e.params.c = 5;
        assert_eq!(set_param(&mut e, 2).unwrap(), 1);
    }

    #[test]
    fn a_panic_while_a_refused_change_is_undone_breaks_the_executable() {
        // `c` then `a` change: node 1 takes its change, node 0 refuses, and node 1's update back
        // (the undo) panics.
        let mut e = exec();
        e.params.c = 7;
        stage(&mut e, 2);
        e.params.a = 5;
        stage(&mut e, 0);
        e.refuse_a = Some(5);
        e.panic_1_at = Some(2);
        assert!(apply_through_a_panic(&mut e));
        assert_eq!(
            e.updates,
            [(1, 2, 7)],
            "node 1 ran the change and was not set back"
        );
        let broken = apply(&mut e).unwrap_err();
        assert!(broken.to_string().contains("panic"), "{broken}");
    }

    #[test]
    fn an_apply_that_ends_leaves_nothing_behind() {
        // The mark of an apply under way is cleared however it ends: made, or refused and undone.
        let mut e = exec();
        e.params.c = 0;
        assert!(set_param(&mut e, 2).is_err());
        e.params.c = 6;
        assert_eq!(set_param(&mut e, 2).unwrap(), 1);
        assert!(!e.tracker.is_dirty());
    }
}
