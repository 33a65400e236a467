//! The one field of a `cuda_graph!` graph and of its executable: [`Guarded`], which code in the
//! declaring module reads freely and changes only through `unsafe`.
//!
//! Rust's privacy is per module: the code of the module that invokes `cuda_graph!` sees the
//! private fields of the types it generates, and could write them directly
//! (`exec.state.params.y = other`, `exec.tracker.clear()`, `mem::swap` of two executables'
//! trackers, a struct literal putting one executable's nodes beside another's params). Every such
//! write skips the change tracking (see [`Tracker`](super::Tracker)): a param would change with
//! no node updated for it, and the build-time memory check (two nodes that may run at the same
//! time sharing memory, one writing it) would judge params the nodes do not run. So the generated
//! types hold all their parts in *one* `Guarded` field: reading through it is safe (`Deref`: what
//! it shows the public API shows too), changing through it is `unsafe` ([`Guarded::get_mut`]),
//! and none can be made without `unsafe` ([`Guarded::new`]). One field, not one per part: moving
//! or swapping the whole of it is moving or swapping the whole graph or executable, which safe
//! code may do anyway.

use std::ops::Deref;

/// The parts of a generated graph or executable (`T`: a struct of them), readable by anyone who
/// can name the field, changeable only through `unsafe` (see the module docs).
///
/// Zero-cost: `repr(transparent)`, and its accessors inline to nothing.
#[repr(transparent)]
pub struct Guarded<T>(T);

impl<T> Guarded<T> {
    /// Guards `parts`.
    ///
    /// # Safety
    ///
    /// `parts` agree with one another: the nodes are those of the graph (or executable), built
    /// from the params kept with them (which passed the declaration's memory check), and for an
    /// executable, its tracker marks every node that disagrees with the params and every param
    /// that differs from the applied copy.
    #[inline(always)]
    pub unsafe fn new(parts: T) -> Self {
        Self(parts)
    }

    /// The parts, to read.
    #[inline(always)]
    pub fn get(&self) -> &T {
        &self.0
    }

    /// The parts, to change.
    ///
    /// # Safety
    ///
    /// Every change made through the reference leaves the parts agreeing with one another as
    /// [`new`](Self::new) says: a changed param is staged in the tracker (or its readers updated
    /// before the borrow ends), a node set by other means marked in the tracker, the applied
    /// params changed only to the values the nodes were updated from, and nothing is replaced by
    /// a part of another graph or executable.
    #[inline(always)]
    pub unsafe fn get_mut(&mut self) -> &mut T {
        &mut self.0
    }

    /// The parts, unguarded: the graph or executable they were is gone, so nothing tracked is
    /// left to disagree with them (and guarding them again takes [`new`](Self::new)).
    #[inline(always)]
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T> Deref for Guarded<T> {
    type Target = T;

    #[inline(always)]
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T> std::fmt::Debug for Guarded<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The parts' types are the generated code's, not all `Debug`.
        f.write_str("Guarded")
    }
}
