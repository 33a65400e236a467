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

use super::tracked::{stage, Tracked, INTERNAL};
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
pub fn stage_swap<E: Tracked, S: Pick>(
    exec: &mut E,
    pick: impl FnOnce(&mut E::Slots) -> (&mut S, &mut S),
) -> Result<()> {
    let mut slots = MaybeUninit::<E::Slots>::uninit();
    let base = slots.as_mut_ptr() as usize;
    // SAFETY: `E::Slots` is made of `Slot`s only (`Tracked`'s contract), each a
    // `MaybeUninit<u8>` and zero-sized markers: uninitialized bytes are a valid `E::Slots`. The
    // reference is the only one made to `slots`, which outlives it.
    let (a, b) = pick(unsafe { &mut *slots.as_mut_ptr() });
    let len = size_of::<S>(); // the number of slots each side names (a `Slot` is one byte)
    if len == 0 {
        return Ok(()); // no slot (an empty array): nothing changes
    }
    // The slot a token lies at: its byte offset in `slots`.
    let slot_of = |s: &mut S| {
        let at = (s as *mut S as usize).wrapping_sub(base);
        (at.checked_add(len)? <= size_of::<E::Slots>()).then_some(at)
    };
    let (Some(a), Some(b)) = (slot_of(a), slot_of(b)) else {
        return Err(foreign_slots());
    };
    let params = (exec.params_mut(INTERNAL) as *mut E::Params).cast::<u8>();
    for k in 0..len {
        // SAFETY: `&mut S` references from safe code within `slots`' bytes point at places of
        // type `S` in it, whose bytes are tokens of type `Slot<S::Value>` (`Pick`, sealed); the
        // token at byte `a + k` of `E::Slots` stands for slot `a + k`, whose value is an
        // `S::Value` at `slot_offset(a + k)` in the params (`Tracked`'s contract), and so for
        // `b + k`. Both pointers come from one `&mut` to the params and no other reference to
        // them is alive; `ptr::swap` allows them to be one (the same slot twice).
        unsafe {
            std::ptr::swap(
                params.add(E::slot_offset(a + k)).cast::<S::Value>(),
                params.add(E::slot_offset(b + k)).cast::<S::Value>(),
            );
        }
    }
    for slot in (a..a + len).chain(b..b + len) {
        exec.write_indirect(slot, INTERNAL);
        stage(exec, slot);
    }
    Ok(())
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
