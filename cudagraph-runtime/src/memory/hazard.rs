//! Conflicting uses of host memory within one graph.
//!
//! A host node that reads or writes a [`HostBuffer`](crate::HostBuffer) through its arguments runs
//! host code on that memory while the graph runs. Any other node of the graph that uses
//! overlapping memory, with a write on either side, must be ordered with it by the graph's edges:
//! CUDA runs unordered nodes in any order, at the same time too, and host code would then read
//! memory that a copy is writing (a data race, undefined behaviour) or write memory that a copy is
//! reading. The graph refuses such a node when it is added, and an executable refuses an update
//! that would create such a pair.
//!
//! A kernel given a device-launchable executable's handle ([`Space::Launch`]) may launch it, and
//! the launched graph's memory uses count as the kernel node's own, with one difference: a
//! fire-and-forget or sibling launch runs at the same time as the rest of the launching graph
//! ([device graph launch]), so only a node that completes *before* the kernel starts is ordered
//! with them; a node after the kernel is not (`crate::device_launch::footprint`).
//!
//! [device graph launch]: https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#device-launch

use super::alloc::Space;
use super::operand::Use;
use crate::device_launch::footprint::{add_launched, launched_touches, Touch};

/// How another node stands to the node whose uses are checked, as the graph's edges order them.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Order {
    /// It completes before the node starts (a path leads from it to the node).
    pub(crate) before: bool,
    /// It starts after the node completes (a path leads from the node to it).
    pub(crate) after: bool,
}

impl Order {
    /// The order of node `other` and node `node` of one graph, whose nodes are numbered in an
    /// order their edges respect, with `reaches(from, to)` telling whether a path leads from
    /// `from` to `to`.
    pub(crate) fn of(node: usize, other: usize, reaches: impl Fn(usize, usize) -> bool) -> Self {
        if other < node {
            Self {
                before: reaches(other, node),
                after: false,
            }
        } else {
            Self {
                before: false,
                after: reaches(node, other),
            }
        }
    }
}

/// Why a node conflicts with another ([`host_code_conflict`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Conflict {
    /// Their own uses, one of them in host code, and no path orders them.
    Direct,
    /// A graph the checked node's kernel may launch uses memory the other node's host code
    /// uses, and the other node does not complete before the kernel starts.
    LaunchedByNode,
    /// A graph the other node's kernel may launch uses memory the checked node's host code
    /// uses, and the checked node does not complete before that kernel starts.
    LaunchedByOther,
}

impl Conflict {
    /// What is wrong, for an error naming first the node `first` and then `second`, of which
    /// `checked` is the node whose uses were checked.
    pub(crate) fn reason(self, checked_is_second: bool) -> Option<String> {
        let launcher = match (self, checked_is_second) {
            (Conflict::Direct, _) => return None,
            (Conflict::LaunchedByNode, true) | (Conflict::LaunchedByOther, false) => "second",
            _ => "first",
        };
        let host = if launcher == "first" {
            "second"
        } else {
            "first"
        };
        Some(format!(
            "the {launcher} node's kernel is given a device-launchable executable, whose launches \
             (fire-and-forget or sibling launches run at the same time as the rest of the \
             launching graph) use host memory that the {host} node's host code uses, one of them \
             writing it, and the {host} node is not ordered before the {launcher}: order the \
             host node before the launching kernel (an edge from it, or a path), or give them \
             separate buffers"
        ))
    }
}

/// The first node among `others` (each with one of its uses) that conflicts with the node whose
/// uses are `uses` when either side is host code (see the module docs), with why; `order` says
/// how another node stands to the node.
pub(crate) fn host_code_conflict<'u, 'a: 'u>(
    uses: &[Use<'a>],
    others: impl IntoIterator<Item = (usize, &'u Use<'a>)>,
    mut order: impl FnMut(usize) -> Order,
) -> Option<(usize, Conflict)> {
    if uses.is_empty() {
        return None;
    }
    // What the node's kernels may launch use, and whether it runs host code at all.
    let launched = if uses.iter().any(Use::launches) {
        launched_touches(uses)
    } else {
        Vec::new()
    };
    let host_code = uses.iter().any(|u| u.host_code);
    let mut known: Vec<(usize, Order)> = Vec::new();
    let mut theirs: Vec<Touch> = Vec::new();
    for (node, other) in others {
        let direct = uses
            .iter()
            .any(|u| (u.host_code || other.host_code) && u.conflicts_with(other));
        let by_node = other.host_code && launched.iter().any(|t| t.conflicts_with(other));
        let by_other = host_code && other.launches() && {
            theirs.clear();
            add_launched(other, &mut theirs, &mut Vec::new());
            theirs
                .iter()
                .any(|t| uses.iter().any(|u| u.host_code && t.conflicts_with(u)))
        };
        let conflicts = [
            (direct, Conflict::Direct),
            (by_node, Conflict::LaunchedByNode),
            (by_other, Conflict::LaunchedByOther),
        ];
        for (_, conflict) in conflicts.into_iter().filter(|&(found, _)| found) {
            let o = match known.iter().find(|&&(n, _)| n == node) {
                Some(&(_, o)) => o,
                None => {
                    let o = order(node);
                    known.push((node, o));
                    o
                }
            };
            let ordered = match conflict {
                Conflict::Direct => o.before || o.after,
                Conflict::LaunchedByNode => o.before,
                Conflict::LaunchedByOther => o.after,
            };
            if !ordered {
                return Some((node, conflict));
            }
        }
    }
    None
}

/// Whether a use needs [`host_code_conflict`]'s look at the other nodes: host memory, host code
/// or a device-launchable executable.
pub(crate) fn may_race(u: &Use<'_>) -> bool {
    u.space != Space::Device || u.host_code
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

    fn host(start: u64, end: u64, write: bool, host_code: bool) -> Use<'static> {
        Use {
            space: Space::Host,
            start,
            end,
            write,
            host_code,
            hold: super::super::operand::Hold::Raw,
        }
    }

    #[test]
    fn order_is_read_from_the_numbering_and_the_paths() {
        // 0 -> 1 -> 3, 0 -> 2
        let deps: Vec<Vec<u32>> = vec![vec![], vec![0], vec![0], vec![1]];
        let reach = |from, to| reaches(from, to, |n: usize| deps[n].as_slice());
        let o = Order::of(1, 0, reach);
        assert!(o.before && !o.after);
        let o = Order::of(1, 3, reach);
        assert!(!o.before && o.after);
        let o = Order::of(1, 2, reach);
        assert!(!o.before && !o.after);
    }

    #[test]
    fn host_code_conflicts_need_a_path_either_way() {
        let node = [host(0, 8, false, true)];
        let writer = host(4, 12, true, false);
        let reader = host(4, 12, false, false);
        let unordered = |_| Order::default();
        let after = |_| Order {
            before: false,
            after: true,
        };
        assert_eq!(
            host_code_conflict(&node, [(5, &writer)], unordered),
            Some((5, Conflict::Direct))
        );
        assert_eq!(host_code_conflict(&node, [(5, &writer)], after), None);
        // Two reads do not conflict; neither do uses without host code.
        assert_eq!(host_code_conflict(&node, [(5, &reader)], unordered), None);
        let device_side = [host(0, 8, true, false)];
        assert_eq!(
            host_code_conflict(&device_side, [(5, &writer)], unordered),
            None
        );
    }

    #[test]
    fn only_a_launch_conflict_names_the_launching_node() {
        assert!(Conflict::Direct.reason(true).is_none());
        let by_second = Conflict::LaunchedByNode.reason(true).unwrap();
        assert!(
            by_second.starts_with("the second node's kernel"),
            "{by_second}"
        );
        let by_first = Conflict::LaunchedByOther.reason(true).unwrap();
        assert!(
            by_first.starts_with("the first node's kernel"),
            "{by_first}"
        );
        assert!(by_first.contains("the second node is not ordered before the first"));
    }

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
