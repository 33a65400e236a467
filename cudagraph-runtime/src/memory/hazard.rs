//! Conflicting uses of host memory within one graph.
//!
//! A host node that reads or writes a [`HostBuffer`](crate::HostBuffer) through its arguments runs
//! host code on that memory while the graph runs. Any other node of the graph that uses
//! overlapping memory, with a write on either side, must be ordered with it by the graph's edges:
//! CUDA runs unordered nodes in any order, at the same time too, and host code would then read
//! memory that a copy is writing (a data race, undefined behaviour) or write memory that a copy is
//! reading. The graph refuses such a node when it is added, and an executable refuses an update
//! that would create such a pair.

use super::operand::Use;

/// The first node among `others` (each with one of its uses) whose use conflicts with one of
/// `uses` when either side is host code, and that `ordered` says is not ordered with the node
/// `uses` belong to.
pub(crate) fn host_code_conflict<'u, 'a: 'u>(
    uses: &[Use<'a>],
    others: impl IntoIterator<Item = (usize, &'u Use<'a>)>,
    mut ordered: impl FnMut(usize) -> bool,
) -> Option<usize> {
    if uses.is_empty() {
        return None;
    }
    let mut checked: Vec<usize> = Vec::new();
    for (node, other) in others {
        let conflict = uses
            .iter()
            .any(|u| (u.host_code || other.host_code) && u.conflicts_with(other));
        if conflict && !checked.contains(&node) {
            if !ordered(node) {
                return Some(node);
            }
            checked.push(node);
        }
    }
    None
}

/// Whether node `to` is reachable from node `from` through `deps` (each node's dependencies),
/// walking back from `to`.
pub(crate) fn reaches<'d>(from: usize, to: usize, deps: impl Fn(usize) -> &'d [u32]) -> bool {
    if from == to {
        return true;
    }
    let mut seen = vec![false; to.max(from) + 1];
    let mut stack = vec![to];
    while let Some(node) = stack.pop() {
        for &dep in deps(node) {
            let dep = dep as usize;
            if dep == from {
                return true;
            }
            // Dependencies come before their dependents, so nothing below `from` can lead to it.
            if dep > from && !seen[dep] {
                seen[dep] = true;
                stack.push(dep);
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reachability_follows_dependencies_backwards() {
        // 0 -> 1 -> 3, 0 -> 2
        let deps: Vec<Vec<u32>> = vec![vec![], vec![0], vec![0], vec![1]];
        let d = |n: usize| deps[n].as_slice();
        assert!(reaches(0, 3, d));
        assert!(reaches(1, 3, d));
        assert!(!reaches(2, 3, d));
        assert!(!reaches(1, 2, d));
        assert!(reaches(2, 2, d));
    }
}
