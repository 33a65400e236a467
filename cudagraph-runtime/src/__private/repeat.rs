//! What the code of a declaration with `for` loops calls: a loop's nodes are added by one
//! function for all their iterations, which finds each instance's dependencies in a table, and
//! the executable hands out a repeated node's handles by index.

use crate::error::{Error, Result};
use crate::memory::alloc::Space;
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

/// Two of `memories` (`None`: not memory) that overlap, as their indices, the smaller first; or
/// `None`. For the elements of an array param that the instances of a repeated node use, every
/// two of them at the same time: sorted by address, in `n log n`, not compared pair by pair.
pub fn first_overlap(memories: &[Option<Bytes>]) -> Option<(usize, usize)> {
    let mut ranges: Vec<(u64, u64, Space, usize)> = memories
        .iter()
        .enumerate()
        .filter_map(|(i, bytes)| {
            let (space, start, end) = (*bytes)?;
            (end > start).then_some((start, end, space, i))
        })
        .collect();
    ranges.sort_unstable_by_key(|&(start, end, _, i)| (start, end, i));
    // Per address space, the range reaching furthest so far: a later range that starts before
    // its end overlaps it.
    let mut furthest: Vec<(Space, u64, usize)> = Vec::new();
    for (start, end, space, i) in ranges {
        match furthest.iter_mut().find(|(s, _, _)| *s == space) {
            Some((_, reach, j)) => {
                if start < *reach {
                    return Some(((*j).min(i), (*j).max(i)));
                }
                if end > *reach {
                    (*reach, *j) = (end, i);
                }
            }
            None => furthest.push((space, end, i)),
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

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
        // 0: [0, 10), 1: [10, 20), 2: host [0, 100), 3: not memory, 4: [15, 16), 5: empty.
        let memories = [
            device(0, 10),
            device(10, 20),
            Some((Space::Host, 0, 100)),
            None,
            device(15, 16),
            device(5, 5),
        ];
        assert_eq!(first_overlap(&memories), Some((1, 4)));
        assert_eq!(
            first_overlap(&memories[..4]),
            None,
            "adjacent, other spaces"
        );
        assert_eq!(first_overlap(&[device(0, 8), device(0, 8)]), Some((0, 1)));
        assert_eq!(first_overlap(&[]), None);
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
