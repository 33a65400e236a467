//! What the code of a declaration with `for` loops calls: a loop's nodes are added by one
//! function for all their iterations, which finds each instance's dependencies in a table, and
//! the executable hands out a repeated node's handles by index.

use crate::error::{Error, Result};
use crate::memory::operand::Bytes;
use crate::node::NodeId;

/// The dependencies of the node about to be added, at position `ids.len()`: the ids of the
/// nodes at the positions `list[start[p]..start[p + 1]]` lists (`ids`: the nodes added so far,
/// by position).
pub fn deps_at(ids: &[NodeId], list: &[u32], start: &[u32]) -> Vec<NodeId> {
    let p = ids.len();
    list[start[p] as usize..start[p + 1] as usize]
        .iter()
        .map(|&d| ids[d as usize])
        .collect()
}

/// `Ok` if a node declared in a loop, `node`, has an instance of index `index` (it has `count`).
// Inlined, the error out of line, as [`element`].
#[inline(always)]
pub fn instance(node: &str, index: usize, count: usize) -> Result<()> {
    if index < count {
        return Ok(());
    }
    Err(no_instance(node, index, count))
}

/// The error of [`instance`].
#[cold]
#[inline(never)]
fn no_instance(node: &str, index: usize, count: usize) -> Error {
    Error::Invalid {
        node: format!("{node}[{index}]"),
        reason: format!(
            "node `{node}` is declared in a `for` loop of {count} iteration{}: its instances are \
             `{node}[0]` to `{node}[{}]`",
            if count == 1 { "" } else { "s" },
            count.saturating_sub(1)
        ),
    }
}

/// `Ok` if array param `param`, of `len` elements, has an element of index `index` (for its
/// setters, `set_w(index, v)`).
// Inlined, the error out of line: on a setter's path this is one comparison, where a call
// wrote the whole `Result` (an `Error`'s size) through memory.
#[inline(always)]
pub fn element(param: &str, index: usize, len: usize) -> Result<()> {
    if index < len {
        return Ok(());
    }
    Err(no_element(param, index, len))
}

/// The error of [`element`].
#[cold]
#[inline(never)]
fn no_element(param: &str, index: usize, len: usize) -> Error {
    Error::Invalid {
        node: format!("{param}[{index}]"),
        reason: format!(
            "param `{param}` is an array of {len} element{}: its elements are `{param}[0]` to \
             `{param}[{}]`",
            if len == 1 { "" } else { "s" },
            len.saturating_sub(1)
        ),
    }
}

/// `Ok` if the instance of index `index` of a repeated alloc node, `node`, is one whose
/// allocation a launch leaves (`left[i]`: whether instance `i`'s is: the graph frees the others).
pub fn instance_left(node: &str, index: usize, left: &[bool]) -> Result<()> {
    instance(node, index, left.len())?;
    if left[index] {
        return Ok(());
    }
    Err(Error::Invalid {
        node: format!("{node}[{index}]"),
        reason: format!(
            "the graph frees allocation `{node}[{index}]` before the launch ends: only the \
             allocations a launch leaves can be read after it"
        ),
    })
}

/// Two memories that overlap, one of `first` and one of `second`, used by different nodes, as
/// their indices in each; or `None`. Each memory is given with its node (any number that tells
/// nodes apart) and its bytes (`None`: not memory). Two memories overlap as
/// [`overlap_bytes`](super::overlap_bytes) says. `first` and `second` may be one list: every
/// two memories of it are then compared (each is on both sides, and never against itself: it
/// has its own node).
///
/// For the uses of params by nodes that no edge orders at all (a loop's iterations, each with
/// its own elements of two array params: `k(x[i], y[i])`): sorted by address, in `n log n`, not
/// compared pair by pair.
pub fn first_overlap_between(
    first: &[(usize, Option<Bytes>)],
    second: &[(usize, Option<Bytes>)],
) -> Option<(usize, usize)> {
    // (space, start, end, side, index): sorted, the ranges starting at one address empty first
    // (an empty range overlaps only one that starts before it and ends after it).
    let side = |s: u8, list: &[(usize, Option<Bytes>)]| {
        list.iter()
            .enumerate()
            .filter_map(|(i, &(_, bytes))| {
                bytes.map(|(space, start, end)| (space, start, end, s, i))
            })
            .collect::<Vec<_>>()
    };
    let mut ranges = side(0, first);
    ranges.extend(side(1, second));
    ranges.sort_unstable_by_key(|&(space, start, end, s, i)| (space as u8, start, end, s, i));
    let node = |s: u8, i: usize| if s == 0 { first[i].0 } else { second[i].0 };
    // Per side, in the current space: the two ranges reaching furthest so far that have
    // different nodes (reach, index). A later range of the other side overlaps one that started
    // before it and reaches past its start: if any of another node does, one of these does.
    let mut furthest: [[Option<(u64, usize)>; 2]; 2] = [[None; 2]; 2];
    let mut space = None;
    for (s_space, start, end, s, i) in ranges {
        if space != Some(s_space) {
            (space, furthest) = (Some(s_space), [[None; 2]; 2]);
        }
        let other = 1 - s;
        for (reach, j) in furthest[usize::from(other)].into_iter().flatten() {
            if start < reach && node(other, j) != node(s, i) {
                return Some(if s == 0 { (i, j) } else { (j, i) });
            }
        }
        let top = &mut furthest[usize::from(s)];
        let me = (end, i);
        match top {
            [None, _] => top[0] = Some(me),
            [Some(best), rest] => {
                let same_node = node(s, best.1) == node(s, i);
                if end > best.0 {
                    // The best so far moves down unless it is of this range's node.
                    if !same_node {
                        *rest = Some(*best);
                    }
                    *best = me;
                } else if !same_node && rest.is_none_or(|r| end > r.0) {
                    *rest = Some(me);
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::alloc::Space;

    #[test]
    fn dependencies_come_from_the_table_by_position() {
        let ids: Vec<NodeId> = (0..3).map(|index| NodeId { family: 7, index }).collect();
        // Node 3 depends on nodes 0 and 2; node 4 (not added yet here) on node 3.
        let (list, start) = ([0, 2, 3], [0, 0, 0, 0, 2, 3]);
        assert_eq!(deps_at(&ids, &list, &start), [ids[0], ids[2]]);
        assert!(deps_at(&ids[..1], &list, &start).is_empty());
    }

    #[test]
    fn overlapping_memories_are_found_by_address() {
        let device = |start, end| Some((Space::Device, start, end));
        // 0: [0, 10), 1: [10, 20), 2: host [0, 100), 3: not memory, 4: [15, 16), 5: empty at 5.
        let memories: Vec<(usize, Option<Bytes>)> = [
            device(0, 10),
            device(10, 20),
            Some((Space::Host, 0, 100)),
            None,
            device(15, 16),
            device(5, 5),
        ]
        .into_iter()
        .enumerate()
        .collect();
        // One list: every two of it. The empty range lies inside [0, 10), as `overlap_bytes`
        // says.
        let among = |m: &[(usize, Option<Bytes>)]| {
            first_overlap_between(m, m).map(|(i, j)| (i.min(j), i.max(j)))
        };
        assert_eq!(among(&memories), Some((0, 5)));
        assert_eq!(among(&memories[..5]), Some((1, 4)));
        assert_eq!(among(&memories[..4]), None, "adjacent, other spaces");
        // Two lists: only across them, and never two uses of one node.
        let (x, y) = (
            [(0, device(0, 8)), (1, device(8, 16))],
            [(0, device(4, 12))],
        );
        assert_eq!(first_overlap_between(&x, &y), Some((1, 0)));
        assert_eq!(first_overlap_between(&x[..1], &y), None, "one node's own");
        assert_eq!(first_overlap_between(&x, &x[..0]), None);
        // A node's own use reaching furthest does not hide another node's behind it.
        let (x, y) = (
            [(0, device(0, 100)), (1, device(1, 50))],
            [(0, device(40, 41))],
        );
        assert_eq!(first_overlap_between(&x, &y), Some((1, 0)));
        assert_eq!(first_overlap_between(&y, &x), Some((0, 1)));
        assert_eq!(first_overlap_between(&[], &[]), None);
    }

    #[test]
    fn indices_beyond_the_loop_are_refused_with_the_instances() {
        assert!(instance("attn", 31, 32).is_ok());
        let error = instance("attn", 32, 32).unwrap_err().to_string();
        assert!(error.contains("`attn[0]` to `attn[31]`"), "{error}");
        assert!(instance_left("t", 1, &[false, true]).is_ok());
        let error = instance_left("t", 0, &[false, true])
            .unwrap_err()
            .to_string();
        assert!(error.contains("frees allocation `t[0]`"), "{error}");
        assert!(instance_left("t", 2, &[false, true]).is_err());
    }
}
