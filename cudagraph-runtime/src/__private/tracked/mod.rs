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

    /// The change is undone: nothing is pending, the params are the applied ones. (The nodes
    /// left stale lose the mark, keeping a mark of a handle's set.)
    fn settle(&mut self) {
        for &node in &self.pending {
            self.nodes[node as usize] &= !STALE;
        }
        self.settle_made();
    }

    /// The change is made: [`forward`] updated every stale node and cleared its state, so only
    /// the lists are left to clear. (A pending node it skipped was no longer stale: set through
    /// its handle since it was staged.) Apart from [`Tracker::settle`]: its pass over the
    /// pending nodes' states would change none of them here, and cost a likely cache miss each
    /// after the driver calls of the updates.
    fn settle_made(&mut self) {
        debug_assert!(
            self.pending
                .iter()
                .all(|&node| self.nodes[node as usize] & STALE == 0),
            "forward updated every stale node"
        );
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

/// [`stage`] for a slot that one node reads, `node` (the memory check not involved, no child
/// graph): the params guard's setters `cuda_graph!` generates for such a slot name the node, as
/// the executable's setters do (see [`set_sole_reader`]), so that staging reads neither the
/// table of readers nor the reader list it points to: two memory accesses fewer per change, each
/// a likely cache miss after the driver calls of the last apply.
///
/// # Safety
///
/// `node` is slot `param`'s one reader (`E::READERS[param]` is `([node], false, false)`):
/// staging another node would leave the reader running a value the applied params no longer
/// hold once the change is committed.
#[inline]
pub unsafe fn stage_sole_reader<E: Tracked>(exec: &mut E, param: usize, node: usize) {
    debug_assert!(
        E::READERS[param] == (&[node as u32][..], false, false),
        "the generated code names the slot's one reader"
    );
    let tracker = exec.tracker(INTERNAL);
    if tracker.deferred.is_some() {
        stage_deferred::<E>(tracker);
    }
    tracker.stage(param, &[node as u32], false);
}

/// An `#[indirect]` param's setter (the executable's or the guard's), given the tracker of an
/// executable of type `E`, before it writes the new value into the applied params as well as
/// the params (a host write the launches take at once, with no node to update). A swap pending
/// as one record (`Tracker::swapped`, or kept aside: `Tracker::deferred`) is committed by
/// swapping the applied params, which would carry that value over to the other slot of the
/// swap: the applied params would no longer be the params, and a later refused change would
/// give the params back a value no node runs. So such a swap is staged slot by slot first, and
/// committed by copying each changed slot. (Safe: the slots it stages did change.)
#[inline(always)]
pub fn before_applied_write<E: Tracked>(tracker: &mut Tracker) {
    if tracker.swapped.is_some() || tracker.deferred.is_some() {
        unswap::<E>(tracker);
    }
}

/// [`before_applied_write`]'s way out of a swap record.
#[cold]
#[inline(never)]
fn unswap<E: Tracked>(tracker: &mut Tracker) {
    stage_deferred::<E>(tracker);
    tracker.swapped = None;
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
    apply_staged(exec)
}

/// [`apply`] once no swap is kept aside: the general way. (Apart, so that the guard's swap alone
/// does not pay this body's set-up: it saves every register it uses.)
#[inline(never)]
fn apply_staged<E: Tracked>(exec: &mut E) -> Result<usize> {
    let tracker = exec.tracker(INTERNAL);
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
                exec.tracker(INTERNAL).settle_made();
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
///
/// # Safety
///
/// `(update, index)` is `E::UPDATES[node]`, and `node` is slot `param`'s one reader: `update`
/// is handed the runtime's [`Internal`] key, which a function of the caller's own could keep
/// and use on any executable (see [`Tracked`]). And `commit` copies slot `param` of the params
/// into the applied params.
#[inline(always)]
pub unsafe fn set_sole_reader<E: Tracked>(
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
    // The caller's promise: `update` is the generated update of `node`, which keeps the key.
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
mod tests;
