//! The params an executable of a `cuda_graph!` declaration owns, and which of its nodes are behind
//! them.
//!
//! The executable keeps its params, and every change to them goes through it: a setter
//! (`exec.set_alpha(v)`), the guard of `exec.params_mut()`, a swap of two params, `set_params`.
//! Which node reads which param is known when the macro runs, so a change marks exactly the nodes
//! that read the changed param (each once, however many of its params changed), and bringing
//! them up to date ([`apply`]) costs one single-node update each: nothing is compared, no other
//! node is looked at. `launch` applies what is pending first, so no launch runs nodes that
//! disagree with the params, and no change can be forgotten.

use std::mem::size_of;

use crate::{Error, Result};

/// Which nodes of an executable disagree with its params.
#[derive(Debug)]
pub struct Tracker {
    /// Per node (by build position): a param it reads changed since its last update.
    stale: Box<[bool]>,
    /// Per node: set through its handle since its last update from the params.
    by_handle: Box<[bool]>,
    /// The stale nodes, in the order they became stale (entries whose node was brought up to
    /// date since are skipped).
    pending: Vec<u32>,
    /// A param the build-time memory check involves changed: the check runs before the next
    /// update.
    check: bool,
    /// Something is pending (`pending` not empty, or `check`): one load on the launch path.
    dirty: bool,
}

impl Tracker {
    /// A tracker for `nodes` nodes, all up to date.
    pub fn new(nodes: usize) -> Self {
        Self {
            stale: vec![false; nodes].into_boxed_slice(),
            by_handle: vec![false; nodes].into_boxed_slice(),
            pending: Vec::new(),
            check: false,
            dirty: false,
        }
    }

    /// Whether a node disagrees with the params.
    #[inline(always)]
    pub fn is_dirty(&self) -> bool {
        self.dirty
    }

    /// Marks `readers` stale; `check`: the build-time memory check runs first.
    #[inline]
    fn stage(&mut self, readers: &[u32], check: bool) {
        for &node in readers {
            let stale = &mut self.stale[node as usize];
            if !*stale {
                *stale = true;
                self.pending.push(node);
            }
        }
        self.check |= check;
        self.dirty |= check || !readers.is_empty();
    }

    /// Node `node` was set through its handle: what the handle set stands until a param the
    /// node reads changes (or `set_params` resets it), even over a change made before.
    #[inline]
    pub fn set_by_handle(&mut self, node: usize) {
        self.stale[node] = false;
        self.by_handle[node] = true;
    }

    /// Marks stale every node set through its handle (for `set_params`, which resets them).
    fn stage_set_by_handle(&mut self) {
        for (node, &by_handle) in self.by_handle.iter().enumerate() {
            if by_handle && !self.stale[node] {
                self.stale[node] = true;
                self.pending.push(node as u32);
                self.dirty = true;
            }
        }
    }

    /// Every node agrees with the params (a whole-graph update made them all anew).
    pub fn clear(&mut self) {
        self.stale.fill(false);
        self.by_handle.fill(false);
        self.pending.clear();
        self.check = false;
        self.dirty = false;
    }
}

/// A `cuda_graph!` executable, as the functions here see it (generated; not an API).
pub trait Tracked: Sized + 'static {
    /// The declaration's params.
    type Params;
    /// Per node, by build position: its single-node update from the params (a check for an
    /// alloc node; nothing for a node CUDA updates nothing of).
    const UPDATES: &'static [fn(&mut Self) -> Result<()>];
    /// Per param: the nodes whose expressions read it (alloc nodes first: their check comes
    /// before any update), and whether the build-time memory check involves it.
    const READERS: &'static [(&'static [u32], bool)];
    /// The tracker.
    fn tracker(&mut self) -> &mut Tracker;
    /// The params.
    fn params_mut(&mut self) -> &mut Self::Params;
    /// The memory check `build` makes, on the executable's params.
    fn check(&self) -> Result<()>;
    /// The param whose bytes hold byte `offset` of `params`, if any.
    fn param_at(params: &Self::Params, offset: usize) -> Option<usize>;
    /// Writes param `param`'s value where the launches read it, if it is an `#[indirect]` param
    /// (a host write; its readers are never stale): after a change that no setter made.
    fn write_indirect(&mut self, param: usize);
}

/// Marks the readers of param `param` stale: its value changed.
#[inline]
pub fn stage<E: Tracked>(exec: &mut E, param: usize) {
    let (readers, check) = E::READERS[param];
    exec.tracker().stage(readers, check);
}

/// Brings every stale node up to the params: the build-time memory check first when a param it
/// involves changed, then each stale node's update, once. Returns how many nodes were updated.
///
/// On error nothing more is updated, and what was not done stays pending: the next call (every
/// `launch` makes one) starts again with the node that failed, so an update that is refused is
/// reported until the params change, by every call, naming the node.
pub fn apply<E: Tracked>(exec: &mut E) -> Result<usize> {
    let tracker = exec.tracker();
    if !tracker.dirty {
        return Ok(0);
    }
    if tracker.check {
        exec.check()?;
        exec.tracker().check = false;
    }
    let (mut done, mut updated) = (0, 0);
    let result = loop {
        let tracker = exec.tracker();
        let Some(&node) = tracker.pending.get(done) else {
            break Ok(updated);
        };
        if tracker.stale[node as usize] {
            if let Err(e) = E::UPDATES[node as usize](exec) {
                break Err(e);
            }
            let tracker = exec.tracker();
            tracker.stale[node as usize] = false;
            tracker.by_handle[node as usize] = false;
            updated += 1;
        }
        done += 1;
    };
    let tracker = exec.tracker();
    tracker.pending.drain(..done);
    tracker.dirty = !tracker.pending.is_empty() || tracker.check;
    result
}

/// A param's setter, once the new value is in place: its readers updated now. On error the
/// caller puts the old value back and calls [`unset_param`].
#[inline]
pub fn set_param<E: Tracked>(exec: &mut E, param: usize) -> Result<usize> {
    stage(exec, param);
    apply(exec)
}

/// After a refused change of param `param` was undone (its old value put back): the readers
/// that took the refused value are set back by the next [`apply`].
#[cold]
pub fn unset_param<E: Tracked>(exec: &mut E, param: usize) {
    stage(exec, param);
}

/// `set_params`, once the changed params are in place and their readers staged: the nodes set
/// through their handles are reset too, and every stale node is updated.
pub fn set_all<E: Tracked>(exec: &mut E) -> Result<usize> {
    exec.tracker().stage_set_by_handle();
    apply(exec)
}

/// Swaps the two values `pick` chooses among the params (two params, or parts of them) and
/// marks the readers of their params stale. Refused, with nothing changed, when either lies
/// outside the params (a param's heap data, say): which param changed could not be known.
pub fn stage_swap<E: Tracked, T>(
    exec: &mut E,
    pick: impl FnOnce(&mut E::Params) -> (&mut T, &mut T),
) -> Result<()> {
    let params = exec.params_mut();
    let base = params as *mut E::Params as usize;
    let (a, b) = pick(params);
    if size_of::<T>() == 0 {
        return Ok(()); // values of no bytes: nothing changes
    }
    let within = |value: &mut T| {
        let offset = (value as *mut T as usize).wrapping_sub(base);
        (offset.checked_add(size_of::<T>())? <= size_of::<E::Params>()).then_some(offset)
    };
    let (Some(at_a), Some(at_b)) = (within(a), within(b)) else {
        return Err(outside_params());
    };
    std::mem::swap(a, b);
    let params = exec.params_mut();
    let (param_a, param_b) = (E::param_at(params, at_a), E::param_at(params, at_b));
    for param in [param_a, param_b].into_iter().flatten() {
        exec.write_indirect(param);
        stage(exec, param);
    }
    Ok(())
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

/// The error for a swap of values outside the params.
#[cold]
fn outside_params() -> Error {
    Error::Invalid {
        node: "swap".into(),
        reason: "a swap picks two params of the executable, or parts of them (`|p| (&mut p.x, \
                 &mut p.y)`): memory they only point to (a param's heap data) or memory \
                 elsewhere is not the params, and a change there could not be tracked; set the \
                 params whose values change instead"
            .into(),
    }
}

/// The param whose bytes hold byte `offset`, in `layout`: `(offset, size, param)` of every
/// param, sorted by offset.
pub fn find_param(layout: &[(usize, usize, u32)], offset: usize) -> Option<usize> {
    let after = layout.partition_point(|&(start, _, _)| start <= offset);
    layout[..after]
        .iter()
        .rev()
        .find(|&&(start, size, _)| offset < start + size)
        .map(|&(_, _, param)| param as usize)
}

/// Byte `offset` of `field` in the params at `params`, and its size: an entry of the layout
/// [`find_param`] reads.
#[inline]
pub fn field_layout<P, F>(params: &P, field: &F, param: u32) -> (usize, usize, u32) {
    let offset = (field as *const F as usize).wrapping_sub(params as *const P as usize);
    (offset, std::mem::size_of_val(field), param)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A declaration's executable in miniature: three params, two nodes; node 0 reads `a` and
    /// `b`, node 1 reads `b` and `c`; node 1's update fails while `c` is 0.
    #[derive(Debug)]
    struct Exec {
        params: Params,
        tracker: Tracker,
        updates: Vec<(usize, u32, u32)>,
    }

    #[derive(Debug)]
    struct Params {
        a: u32,
        b: u32,
        c: u32,
        pair: (u32, u32),
        bytes: Vec<u8>,
    }

    impl Exec {
        fn update_0(&mut self) -> Result<()> {
            self.updates.push((0, self.params.a, self.params.b));
            Ok(())
        }
        fn update_1(&mut self) -> Result<()> {
            if self.params.c == 0 {
                return Err(Error::Invalid {
                    node: "n1".into(),
                    reason: "c is 0".into(),
                });
            }
            self.updates.push((1, self.params.b, self.params.c));
            Ok(())
        }
    }

    impl Tracked for Exec {
        type Params = Params;
        const UPDATES: &'static [fn(&mut Self) -> Result<()>] = &[Self::update_0, Self::update_1];
        const READERS: &'static [(&'static [u32], bool)] = &[
            (&[0], false),
            (&[0, 1], false),
            (&[1], true),
            (&[], false),
            (&[], false),
        ];
        fn tracker(&mut self) -> &mut Tracker {
            &mut self.tracker
        }
        fn params_mut(&mut self) -> &mut Params {
            &mut self.params
        }
        fn check(&self) -> Result<()> {
            Ok(())
        }
        fn write_indirect(&mut self, _: usize) {}
        fn param_at(p: &Params, offset: usize) -> Option<usize> {
            let mut layout = vec![
                field_layout(p, &p.a, 0),
                field_layout(p, &p.b, 1),
                field_layout(p, &p.c, 2),
                field_layout(p, &p.pair, 3),
                field_layout(p, &p.bytes, 4),
            ];
            layout.sort_unstable();
            find_param(&layout, offset)
        }
    }

    fn exec() -> Exec {
        Exec {
            params: Params {
                a: 1,
                b: 2,
                c: 3,
                pair: (4, 5),
                bytes: vec![1, 2],
            },
            tracker: Tracker::new(2),
            updates: Vec::new(),
        }
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
        assert!(!e.tracker.is_dirty());
        assert_eq!(apply(&mut e).unwrap(), 0, "nothing left");
    }

    #[test]
    fn a_refused_update_stays_pending_until_the_params_change() {
        let mut e = exec();
        e.params.c = 0;
        stage(&mut e, 2);
        e.params.a = 7;
        stage(&mut e, 0);
        for _ in 0..2 {
            let refused = apply(&mut e).unwrap_err();
            assert!(refused.to_string().contains("n1"), "{refused}");
            assert!(e.tracker.is_dirty());
        }
        assert!(
            e.updates.is_empty(),
            "node 0 comes after the refused node 1"
        );
        e.params.c = 9;
        stage(&mut e, 2);
        assert_eq!(apply(&mut e).unwrap(), 2);
        assert_eq!(e.updates, [(1, 2, 9), (0, 7, 2)]);
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
        // Parts of one param: that param.
        stage_swap(&mut e, |p| (&mut p.pair.0, &mut p.pair.1)).unwrap();
        assert_eq!(e.params.pair, (5, 4));
        // A param's heap data is not the params: refused, nothing swapped.
        let refused = stage_swap(&mut e, |p| {
            let (x, y) = p.bytes.split_at_mut(1);
            (&mut x[0], &mut y[0])
        });
        assert!(refused.is_err());
        assert_eq!(e.params.bytes, [1, 2]);
    }

    #[test]
    fn offsets_find_their_param() {
        let layout = [(0, 4, 0), (4, 0, 3), (4, 4, 1), (8, 8, 2)];
        assert_eq!(find_param(&layout, 0), Some(0));
        assert_eq!(find_param(&layout, 5), Some(1));
        assert_eq!(find_param(&layout, 15), Some(2));
        assert_eq!(find_param(&layout, 16), None);
    }
}
