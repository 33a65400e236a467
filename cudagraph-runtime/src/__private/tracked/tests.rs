//! Unit tests of the tracker: a declaration's executable in miniature (`Exec`), its setters,
//! swaps, applies, refusals and panics.

use super::*;
use crate::__private::{stage_swap, swap_params, Slot};

/// A declaration's executable in miniature: seven params, two nodes; node 0 reads `a` and
/// `b`, node 1 reads `b` and `c`. Node 1's update is refused while `c` is 0, node 0's while
/// `a` is `refuse_a`; `pair` stands for a child graph, whose copies into and out of the
/// applied params fail as `refuse_copies` says; `step` and `value` for `#[indirect]` params,
/// which no node reads (see `set_step`).
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
    step: u32,
    value: u32,
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
    step: Slot<u32>,
    value: Slot<u32>,
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
        (&[], false, false),
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
            offset_of!(Params, step),
            offset_of!(Params, value),
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
            5 => to.step = from.step,
            6 => to.value = from.value,
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
        step: 10,
        value: 20,
    };
    Exec {
        applied: params.clone(),
        params,
        tracker: Tracker::new(2, 7),
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
    // SAFETY: node 0 is `a`'s one reader, and its update is `UPDATES[0]`.
    unsafe { set_sole_reader(e, 0, 0, (Exec::update_0, 0), |e| e.applied.a = e.params.a) }
}

/// `a`'s setter on the params guard, as `cuda_graph!` generates it for a slot of one reader
/// (node 0, `a`).
fn stage_a(e: &mut Exec, a: u32) {
    e.params.a = a;
    // SAFETY: node 0 is `a`'s one reader.
    unsafe { stage_sole_reader(e, 0, 0) };
}

#[test]
fn a_guard_setter_of_one_reader_stages_as_the_table_of_readers_would() {
    let (mut named, mut looked_up) = (exec(), exec());
    stage_a(&mut named, 6);
    looked_up.params.a = 6;
    stage(&mut looked_up, 0);
    let state = |e: &Exec| {
        let t = &e.tracker;
        (
            t.nodes.clone(),
            t.pending.clone(),
            t.changed_list.clone(),
            t.check,
            t.dirty,
        )
    };
    assert_eq!(state(&named), state(&looked_up));
    assert_eq!(apply(&mut named).unwrap(), 1);
    assert_eq!(named.updates, [(0, 6, 2)]);
    assert_eq!(named.applied, named.params);
    // A swap kept aside is staged first, as `stage` stages it: both readers updated once.
    stage_swap(&mut named, |p| (&mut p.a, &mut p.b)).unwrap();
    stage_a(&mut named, 7);
    named.updates.clear();
    assert_eq!(apply(&mut named).unwrap(), 2);
    assert_eq!(named.updates, [(0, 7, 6), (1, 6, 3)]);
    assert_eq!(named.applied, named.params);
    // Refused: undone, nothing left pending.
    named.refuse_a = Some(9);
    stage_a(&mut named, 9);
    assert!(apply(&mut named).is_err());
    assert_eq!(named.params.a, 7, "the param is back");
    assert_eq!(named.params, named.applied);
    assert!(!named.tracker.is_dirty());
    assert_eq!(*state(&named).0, [0, 0], "no node left stale");
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
        // SAFETY: as in `set_a` (the copy panics instead, which the executable survives).
        let _ =
            unsafe { set_sole_reader(&mut e, 0, 0, (Exec::update_0, 0), |_| panic!("a Clone")) };
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

/// `step`'s setter as `cuda_graph!` generates it for an `#[indirect]` param (the executable's
/// and the guard's): a host write the launches read, so the value is taken at once by the
/// params and by the applied params, with no node to update.
fn set_step(e: &mut Exec, step: u32) -> u32 {
    before_applied_write::<Exec>(&mut e.tracker);
    e.applied.step = step;
    std::mem::replace(&mut e.params.step, step)
}

#[test]
fn an_indirect_param_set_after_a_swap_kept_aside_keeps_the_applied_params_the_params() {
    // The guard swaps `step` and `value` (kept aside: nothing else pending), then one of them
    // is set; the commit must not carry the new value over to the other slot of the applied
    // params.
    let mut e = exec();
    stage_swap(&mut e, |p| (&mut p.step, &mut p.value)).unwrap();
    assert_eq!(set_step(&mut e, 7), 20);
    assert_eq!(apply(&mut e).unwrap(), 0);
    assert_eq!((e.params.step, e.params.value), (7, 10));
    assert_eq!(e.applied, e.params, "the applied params are the params");
    // Swapped back at once (the short way, which swaps the applied params too): still equal.
    assert_eq!(
        swap_params(&mut e, |p| (&mut p.step, &mut p.value)).unwrap(),
        0
    );
    assert_eq!(e.applied, e.params);
}

#[test]
fn an_indirect_param_set_after_a_swap_recorded_for_its_commit_leaves_no_node_behind() {
    // `c` (the memory check involves it: the general way, the swap recorded for its commit)
    // swapped with `step`, then `step` set: the commit must leave the applied `c` what node 1
    // runs, or a later refused change of `c` gives the params back a value no node runs.
    let mut e = exec();
    stage_swap(&mut e, |p| (&mut p.c, &mut p.step)).unwrap();
    set_step(&mut e, 7);
    assert_eq!(apply(&mut e).unwrap(), 1);
    assert_eq!(e.updates, [(1, 2, 10)], "node 1 runs c = 10");
    assert_eq!(e.applied, e.params, "the applied params are the params");
    e.params.c = 0; // refused by node 1
    assert!(set_param(&mut e, 2).is_err());
    assert_eq!(e.params.c, 10, "the value node 1 runs");
    assert_eq!(e.applied, e.params);
}
