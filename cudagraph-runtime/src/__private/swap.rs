//! Swapping two params of an executable (`exec.params_mut().swap(|p| (&mut p.x, &mut p.x_new))`)
//! so that the swap is the only change, and the tracker knows it.
//!
//! `pick` names the two params, and must not be able to change anything: were it lent the params
//! themselves (`&mut Params`), it could write a third (`p.y = other`, `mem::swap(&mut p.y, &mut
//! p.z)`), and the nodes reading that one would keep running its old value while the params, and
//! the memory check that judges them, say otherwise. So it is lent instead a struct of *slot
//! tokens*, generated per declaration with the params' names (`<Graph>Slots`): a [`Slot<T>`] for
//! each param of type `T`, and for an array param the macro knows the length of, one per element
//! (`[Slot<T>; N]`, so that `p.w[2]` or `p.w.split_at_mut(4)` pick elements). A token holds no
//! value; none can be made, cloned, defaulted or moved out from behind a reference, so all `pick`
//! can do is point at the tokens of the struct it was lent.
//!
//! A token is known by *where* it lies in that struct: the struct is `#[repr(C)]`, one byte per
//! slot in slot order (the generated code asserts the layout at compile time), so the token at
//! byte `i` stands for slot `i`, and its type says the slot's value type. (By place, not by an
//! index stored in each token: nothing is written per swap, where a struct of indices would be
//! written whole, one per slot, before every swap; and tokens moved around inside `pick`, which
//! `mem::swap` allows between two of one type, still name slots of their type.) The runtime then
//! swaps the two slots' values in the params and marks both changed: O(1) per swap, whatever the
//! number of params.

use std::fmt;
use std::marker::PhantomData;
use std::mem::{size_of, MaybeUninit};

use super::tracked::{
    apply, refused_alone_with, stage, Deferred, Swapped, Tracked, Tracker, INTERNAL,
};
use crate::{Error, Result};

/// A param of an executable (or an element of an array param) whose value is a `T`, as the
/// `pick` closure of a params guard's `swap` names it: `|p| (&mut p.x, &mut p.x_new)` returns
/// the slots of `x` and `x_new`, whose values are then swapped.
///
/// A slot holds no value and cannot be made (only lent, inside `swap`): `pick` points at params,
/// it changes none. Two slots swapped must have one value type.
#[repr(transparent)]
pub struct Slot<T> {
    /// One byte, never read: its address is the slot's identity (see the module docs). It may
    /// be uninitialized, so that the struct of slots `swap` lends costs nothing to make.
    _place: MaybeUninit<u8>,
    _value: PhantomData<fn() -> T>,
}

impl<T> fmt::Debug for Slot<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Slot<{}>", std::any::type_name::<T>())
    }
}

/// Compiles only where `slot` stands for a value of `value`'s type: the generated code asserts
/// with it that each param's slot token is of the param's own type. (The two are written from
/// the same tokens, but a macro in a param's type could expand to another type the second
/// time, and the swaps move values by the slot's type.)
#[inline(always)]
pub fn slot_of<T>(_slot: &Slot<T>, _value: &T) {}

/// [`slot_of`] for an array param: its slots and its elements.
#[inline(always)]
pub fn slots_of<T, const N: usize>(_slots: &[Slot<T>; N], _values: &[T; N]) {}

mod sealed {
    pub trait Sealed {}
    impl<T> Sealed for super::Slot<T> {}
    impl<S: Sealed, const N: usize> Sealed for [S; N] {}
}

/// What a `swap`'s `pick` returns two of: a [`Slot`], or an array of them (a whole array param,
/// or consecutive elements of one, swapped element by element). Sealed: its size in bytes is its
/// number of slots, each a `Slot<Self::Value>`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a param of the executable",
    label = "`pick` returns two params of the executable, named on its argument",
    note = "`swap(|p| (&mut p.x, &mut p.x_new))` swaps params `x` and `x_new` (an array param's \
            elements too: `|p| (&mut p.w[0], &mut p.w[1])`); `p` names the params, it does not \
            hold their values"
)]
pub trait Pick: sealed::Sealed {
    /// The value type of each slot.
    type Value;
}

impl<T> Pick for Slot<T> {
    type Value = T;
}

impl<S: Pick, const N: usize> Pick for [S; N] {
    type Value = S::Value;
}

/// Swaps the values of the two params (or elements, or runs of elements) `pick` names and marks
/// the nodes that read them stale.
///
/// `pick` returns slots of the struct it is lent: its signature gives them that struct's
/// lifetime, so that slots of another swap running around this one (`guard.swap(|p| { other
/// .swap(|_| (&mut p.x, &mut p.y)); .. })`) do not compile. The slots are checked to lie in it
/// anyway (two comparisons): what the swap does with raw pointers rests on it. One that does not
/// is refused, with nothing changed.
///
/// A swap made when nothing is pending, which `exec.swap` would make its short way, is not
/// staged: the tracker keeps it aside (`Tracker::deferred`), and the next [`apply`] takes the
/// short way with it, unless something else changed since, which stages it first.
pub fn stage_swap<E: Tracked, S: Pick>(
    exec: &mut E,
    pick: impl FnOnce(&mut E::Slots) -> (&mut S, &mut S),
) -> Result<()> {
    let picked = picked::<E, S>(pick)?;
    if picked.2 == 0 {
        return Ok(());
    }
    if !alone::<E>(exec.tracker(INTERNAL), picked) {
        swap_and_stage::<E, S>(exec, picked);
        return Ok(());
    }
    let (a, b, _) = picked;
    swap_values::<E, S>(exec.params_mut(INTERNAL), picked);
    exec.write_indirect(a, INTERNAL);
    exec.write_indirect(b, INTERNAL);
    let at = Swapped {
        a: E::slot_offset(a),
        b: E::slot_offset(b),
        len: 1,
        swap: swap_run::<S::Value>,
    };
    exec.tracker(INTERNAL).defer(Deferred { a, b, at });
    Ok(())
}

/// The swap of the slots `picked` names, when it may take the short way: one slot each side,
/// two slots, nothing pending, neither slot involved in the memory check nor a child graph, a
/// few readers, none set through its handle.
#[inline(always)]
fn alone<E: Tracked>(tracker: &Tracker, (a, b, len): (usize, usize, usize)) -> bool {
    let ((readers_a, check_a, child_a), (readers_b, check_b, child_b)) =
        (E::READERS[a], E::READERS[b]);
    len == 1
        && a != b
        && tracker.quiet()
        && !check_a
        && !check_b
        && !child_a
        && !child_b
        && readers_a.len() * readers_b.len() <= MOST_PAIRS
        && tracker.all_clean(readers_a)
        && tracker.all_clean(readers_b)
}

/// Swaps the values of the slots [`picked`] returned and marks their readers stale (an
/// `#[indirect]` param's value written where the launches read it).
fn swap_and_stage<E: Tracked, S: Pick>(exec: &mut E, picked: (usize, usize, usize)) {
    // Nothing pending: the applied params equal the params, and after the swap they equal them
    // swapped the same way (unless a slot is a child graph, which `sync_children` commits).
    let alone = exec.tracker(INTERNAL).quiet();
    swap_values::<E, S>(exec.params_mut(INTERNAL), picked);
    let (a, b, len) = picked;
    for slot in (a..a + len).chain(b..b + len) {
        exec.write_indirect(slot, INTERNAL);
        stage(exec, slot);
    }
    let children = (a..a + len)
        .chain(b..b + len)
        .any(|slot| E::READERS[slot].2);
    if alone && a != b && !children {
        let size = size_of::<S::Value>();
        // A run of slots is a run of elements of one array param: its values are contiguous.
        debug_assert!((0..len).all(|k| {
            E::slot_offset(a + k) == E::slot_offset(a) + k * size
                && E::slot_offset(b + k) == E::slot_offset(b) + k * size
        }));
        exec.tracker(INTERNAL).swapped(Swapped {
            a: E::slot_offset(a),
            b: E::slot_offset(b),
            len,
            swap: swap_run::<S::Value>,
        });
    }
}

/// Commits a swap that is the only change pending (see `Tracker::swapped`): the applied params
/// swapped as the params were.
pub(super) fn swap_applied<E: Tracked>(exec: &mut E, Swapped { a, b, len, swap }: Swapped) {
    let applied = (exec.applied_mut(INTERNAL) as *mut E::Params).cast::<u8>();
    // SAFETY: `swap_and_stage` (or `stage_swap`, for one slot each side) recorded the swap of
    // two runs of `len` slots whose values are of one type, the one `swap` was made for, at
    // offsets `a` and `b` of the params (`Tracked`'s contract, `slot_offset`), so of the applied
    // params too (one type); each run is of elements of one array param (a `Pick` of several
    // slots is an array of a param's consecutive slot tokens), so contiguous, and the two runs
    // are distinct (`&mut`s to two places of the struct of slots), so not overlapping. The
    // pointer comes from the one `&mut` to the applied params; no other reference is alive.
    unsafe { swap(applied, a, b, len) };
}

/// Swaps the `len` values of type `T` from byte offset `a` of `base` with those from offset `b`.
///
/// # Safety
/// `base + a` and `base + b` each begin `len` initialized `T`s, aligned, that do not overlap, in
/// memory `base` may write.
unsafe fn swap_run<T>(base: *mut u8, a: usize, b: usize, len: usize) {
    let (a, b) = (
        base.wrapping_add(a).cast::<T>(),
        base.wrapping_add(b).cast::<T>(),
    );
    // SAFETY: the caller's promise. (One value, the usual swap, is a plain `ptr::swap`: a few
    // moves, where the run's loop is a call.)
    unsafe {
        match len {
            1 => std::ptr::swap(a, b),
            _ => std::ptr::swap_nonoverlapping(a, b, len),
        }
    }
}

/// A swap made at once (the executable's own `swap`, beside its setters): [`stage_swap`] and
/// [`apply`], the nodes that read the two params updated before it returns. Returns how many
/// nodes it updated.
///
/// Like a setter, it usually finds nothing else pending, and then takes a short way: the two
/// params' readers are updated in order (each once), and the applied params (the values the
/// nodes were last updated from, see `tracked`) have their two values swapped as the params
/// did, which keeps them equal to the params without a copy. Marked as under way while it runs,
/// and undone whole on a refusal, as [`apply`] is. Anything else takes the general way (stage,
/// apply): other changes pending, runs of elements, a slot the memory check involves or that
/// is a child graph, a reader set through its handle, many readers on both sides.
pub fn swap_params<E: Tracked, S: Pick>(
    exec: &mut E,
    pick: impl FnOnce(&mut E::Slots) -> (&mut S, &mut S),
) -> Result<usize> {
    let picked = picked::<E, S>(pick)?;
    let (a, b, len) = picked;
    if len == 0 {
        return Ok(0);
    }
    if !alone::<E>(exec.tracker(INTERNAL), picked) {
        swap_and_stage::<E, S>(exec, picked);
        return apply(exec);
    }
    swap_values::<E, S>(exec.params_mut(INTERNAL), picked);
    exec.write_indirect(a, INTERNAL);
    exec.write_indirect(b, INTERNAL);
    swap_alone(exec, (a, b), |exec| {
        swap_values::<E, S>(exec.applied_mut(INTERNAL), picked)
    })
}

/// The short way of a swap alone of slots `a` and `b` (see [`swap_params`]), once the params
/// are swapped: the readers of `a`, then those of `b` that do not read `a` (each node once),
/// updated in order, and the applied params swapped as the params were (`swap_applied`;
/// before, they equalled the params: nothing was pending), which keeps them equal without a
/// copy. Marked as under way while it runs, and undone whole on a refusal, as [`apply`] is.
pub(super) fn swap_alone<E: Tracked>(
    exec: &mut E,
    (a, b): (usize, usize),
    swap_applied: impl FnOnce(&mut E),
) -> Result<usize> {
    let (readers_a, readers_b) = (E::READERS[a].0, E::READERS[b].0);
    exec.tracker(INTERNAL).begin_alone();
    let mut updated = 0;
    let only_b = readers_b.iter().filter(|node| !readers_a.contains(node));
    for &node in readers_a.iter().chain(only_b) {
        let (update, index) = E::UPDATES[node as usize];
        if let Err(e) = update(exec, index as usize, INTERNAL) {
            refused_swap(exec, a, b, updated);
            return Err(e);
        }
        updated += 1;
    }
    swap_applied(exec);
    exec.tracker(INTERNAL).end_alone();
    Ok(updated)
}

/// How many (reader of one slot, reader of the other) pairs [`swap_params`]'s short way
/// compares to update each node once; beyond, the general way's tracker lists do it.
const MOST_PAIRS: usize = 64;

/// The update of the `done`-th reader (counted as [`swap_params`] goes: the readers of `a`,
/// then those of `b` alone) refused the swap of slots `a` and `b` on its short way: the tracker
/// is given the state the general way leaves on a refusal (both slots changed, their readers
/// stale, the readers before the refused one updated, in order, then the refused one if it
/// listed itself as partly updated), and the undo sets everything back.
#[cold]
#[inline(never)]
fn refused_swap<E: Tracked>(exec: &mut E, a: usize, b: usize, done: usize) {
    let (readers_a, readers_b) = (E::READERS[a].0, E::READERS[b].0);
    stage(exec, a);
    stage(exec, b);
    let only_b = readers_b.iter().filter(|node| !readers_a.contains(node));
    let before: Vec<u32> = readers_a.iter().chain(only_b).take(done).copied().collect();
    refused_alone_with::<E>(exec, &before);
}

/// The slots `pick` names: the first of each side and how many each side has (a `Slot` is one
/// byte, an array of them one byte each), checked to lie in the struct `pick` was lent.
#[inline(always)]
fn picked<E: Tracked, S: Pick>(
    pick: impl FnOnce(&mut E::Slots) -> (&mut S, &mut S),
) -> Result<(usize, usize, usize)> {
    let mut slots = MaybeUninit::<E::Slots>::uninit();
    let base = slots.as_mut_ptr() as usize;
    // SAFETY: `E::Slots` is made of `Slot`s only (`Tracked`'s contract), each a
    // `MaybeUninit<u8>` and zero-sized markers: uninitialized bytes are a valid `E::Slots`. The
    // reference is the only one made to `slots`, which outlives it.
    let (a, b) = pick(unsafe { &mut *slots.as_mut_ptr() });
    // The number of slots each side names (a `Slot` is one byte).
    let len = size_of::<S>();
    // The slot a token lies at: its byte offset in `slots`.
    let slot_of = |s: &mut S| {
        let at = (s as *mut S as usize).wrapping_sub(base);
        (at.checked_add(len)? <= size_of::<E::Slots>()).then_some(at)
    };
    match (slot_of(a), slot_of(b)) {
        (Some(a), Some(b)) => Ok((a, b, len)),
        _ if len == 0 => Ok((0, 0, 0)), // no slot (an empty array): nothing changes
        _ => Err(foreign_slots()),
    }
}

/// Swaps the values of the slots [`picked`] returned in `params` (the params, or the applied
/// params: one type).
#[inline(always)]
fn swap_values<E: Tracked, S: Pick>(params: &mut E::Params, (a, b, len): (usize, usize, usize)) {
    let params = (params as *mut E::Params).cast::<u8>();
    for k in 0..len {
        // SAFETY: `picked` found `a + k` and `b + k` within `E::Slots`, at places of type `S`
        // whose bytes are tokens of type `Slot<S::Value>` (`Pick`, sealed): slots whose value is
        // an `S::Value` at `slot_offset(..)` in the params (`Tracked`'s contract). Both pointers
        // come from one `&mut` to the params and no other reference to them is alive;
        // `ptr::swap` allows them to be one (the same slot twice).
        unsafe {
            std::ptr::swap(
                params.add(E::slot_offset(a + k)).cast::<S::Value>(),
                params.add(E::slot_offset(b + k)).cast::<S::Value>(),
            );
        }
    }
}

/// The error for a swap whose `pick` returned slots of another swap (see [`stage_swap`]).
#[cold]
fn foreign_slots() -> Error {
    Error::Invalid {
        node: "swap".into(),
        reason: "a swap's `pick` returns two slots of the struct it is given (`|p| (&mut p.x, \
                 &mut p.y)`), not slots of another swap's"
            .into(),
    }
}
