//! What a launch of a device-launchable executable uses, for the race checks of the graphs
//! whose kernels may launch it.
//!
//! A kernel given a [`DeviceGraphHandle`](super::DeviceGraphHandle) may launch the executable
//! in any of CUDA's three modes ([device graph launch]): fire-and-forget (the graph runs at once,
//! at the same time as the rest of the launching graph, which completes only after it), as a
//! sibling (the same, in the launching graph's parent environment) or as a tail launch (after
//! the launching graph). The mode is the kernel's to choose at run time, so the checks assume
//! the first two: what the launched graph uses, the launching kernel node uses, and it may use
//! it at the same time as every node of the launching graph that is not ordered *before* that
//! kernel node: nodes after it too (`memory::hazard`).
//!
//! [device graph launch]: https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#device-launch

use std::sync::Arc;

use crate::memory::alloc::{Allocation, Space};
use crate::memory::operand::Use;

/// One use of memory by a launch of a device-launchable executable (its nodes never run host
/// code: CUDA allows no host node in a device graph).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Touch {
    pub(crate) space: Space,
    pub(crate) start: u64,
    pub(crate) end: u64,
    pub(crate) write: bool,
}

impl Touch {
    /// Whether it and `u` may not run at the same time: overlapping ranges of one space, at
    /// least one written (as [`Use::conflicts_with`]).
    pub(crate) fn conflicts_with(&self, u: &Use<'_>) -> bool {
        self.space == u.space && (self.write || u.write) && self.start < u.end && u.start < self.end
    }
}

/// What a launch of one executable uses directly: its nodes' memory, and the executables its
/// kernels may launch in turn.
#[derive(Debug, Default)]
pub(crate) struct Footprint {
    touches: Vec<Touch>,
    launches: Vec<Arc<dyn Allocation>>,
}

impl Footprint {
    /// The footprint of an executable whose nodes use `uses`.
    pub(crate) fn of<'u, 'a: 'u>(uses: impl IntoIterator<Item = &'u Use<'a>>) -> Self {
        let mut out = Self::default();
        for u in uses {
            if u.launches() {
                if let Some(alloc) = u.owned() {
                    if !out.launches.iter().any(|a| Arc::ptr_eq(a, alloc)) {
                        out.launches.push(alloc.clone());
                    }
                }
            } else if u.end > u.start {
                let touch = Touch {
                    space: u.space,
                    start: u.start,
                    end: u.end,
                    write: u.write,
                };
                if !out.touches.contains(&touch) {
                    out.touches.push(touch);
                }
            }
        }
        out
    }

    /// Every use of memory a launch makes, with those of the executables it may launch, at any
    /// depth, added to `out` (`seen`: the executables visited, by address).
    pub(crate) fn collect(&self, out: &mut Vec<Touch>, seen: &mut Vec<*const ()>) {
        out.extend(self.touches.iter().copied());
        for launched in &self.launches {
            let at = Arc::as_ptr(launched).cast::<()>();
            if seen.contains(&at) {
                continue;
            }
            seen.push(at);
            if let Some(anchor) = launched.device_graph() {
                anchor.footprint().collect(out, seen);
            }
        }
    }

    /// Whether every use of memory a launch of `new` makes (nested launches included), a launch
    /// of `self` made already: the same space, within one of its ranges, and written there if
    /// `new` writes. What the race checks of the graphs that may launch the executable concluded
    /// from `self` then holds for `new`.
    pub(crate) fn covers(&self, new: &Footprint) -> bool {
        let (mut old_touches, mut new_touches) = (Vec::new(), Vec::new());
        self.collect(&mut old_touches, &mut Vec::new());
        new.collect(&mut new_touches, &mut Vec::new());
        new_touches.iter().all(|n| {
            old_touches.iter().any(|o| {
                o.space == n.space && o.start <= n.start && n.end <= o.end && (o.write || !n.write)
            })
        })
    }
}

/// Every use of memory the launches that `uses` may make use (see [`Footprint::collect`]);
/// empty when none of `uses` is a device-launchable executable.
pub(crate) fn launched_touches(uses: &[Use<'_>]) -> Vec<Touch> {
    let mut out = Vec::new();
    let mut seen = Vec::new();
    for u in uses {
        add_launched(u, &mut out, &mut seen);
    }
    out
}

/// Adds to `out` what a launch of the executable `u` stands for uses (nothing for a use that
/// is no device-launchable executable).
pub(crate) fn add_launched(u: &Use<'_>, out: &mut Vec<Touch>, seen: &mut Vec<*const ()>) {
    if !u.launches() {
        return;
    }
    let Some(alloc) = u.owned() else { return };
    let at = Arc::as_ptr(alloc).cast::<()>();
    if seen.contains(&at) {
        return;
    }
    seen.push(at);
    if let Some(anchor) = alloc.device_graph() {
        anchor.footprint().collect(out, seen);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn touch(start: u64, end: u64, write: bool) -> Touch {
        Touch {
            space: Space::Device,
            start,
            end,
            write,
        }
    }

    fn of(touches: &[Touch]) -> Footprint {
        Footprint {
            touches: touches.to_vec(),
            launches: Vec::new(),
        }
    }

    #[test]
    fn an_update_is_covered_when_it_uses_no_memory_the_old_version_did_not() {
        let old = of(&[touch(0, 100, true), touch(200, 300, false)]);
        // The same, part of it, a read of written memory.
        assert!(old.covers(&of(&[touch(0, 100, true), touch(200, 300, false)])));
        assert!(old.covers(&of(&[touch(10, 20, false), touch(250, 260, false)])));
        assert!(old.covers(&of(&[])));
        // A write of memory it only read, memory past it, another space.
        assert!(!old.covers(&of(&[touch(200, 210, true)])));
        assert!(!old.covers(&of(&[touch(90, 110, false)])));
        let host = Touch {
            space: Space::Host,
            ..touch(0, 10, false)
        };
        assert!(!old.covers(&of(&[host])));
    }
}
