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

use crate::error::{Error, Result};
use crate::memory::alloc::{Allocation, Space};
use crate::memory::operand::Use;

/// One use of memory by a launch of a device-launchable executable (its nodes never run host
/// code: CUDA allows no host node in a device graph).
#[derive(Debug, Clone)]
pub(crate) struct Touch {
    pub(crate) space: Space,
    pub(crate) start: u64,
    pub(crate) end: u64,
    pub(crate) write: bool,
    /// The owned allocation, for owned memory: whose record tells which executables run host
    /// code on it.
    pub(crate) owner: Option<Arc<dyn Allocation>>,
}

impl PartialEq for Touch {
    fn eq(&self, other: &Self) -> bool {
        self.space == other.space
            && self.start == other.start
            && self.end == other.end
            && self.write == other.write
    }
}

impl Touch {
    /// Whether it and `u` may not run at the same time: overlapping ranges of one space, at
    /// least one written (as [`Use::conflicts_with`]).
    pub(crate) fn conflicts_with(&self, u: &Use<'_>) -> bool {
        self.space == u.space && (self.write || u.write) && self.start < u.end && u.start < self.end
    }

    /// Whether `self` uses nothing that `other` does not: a range within `other`'s, written
    /// only if `other` writes.
    fn within(&self, other: &Touch) -> bool {
        self.space == other.space
            && other.start <= self.start
            && self.end <= other.end
            && (!self.write || other.write)
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
                    owner: u.owned().cloned(),
                };
                if !out.touches.contains(&touch) {
                    out.touches.push(touch);
                }
            }
        }
        out
    }

    /// Whether a launch of `target` is among what this one may launch, at any depth (`seen`:
    /// the executables visited, by address).
    pub(crate) fn reaches(&self, target: *const (), seen: &mut Vec<*const ()>) -> bool {
        for launched in &self.launches {
            let at = Arc::as_ptr(launched).cast::<()>();
            if at == target {
                return true;
            }
            if seen.contains(&at) {
                continue;
            }
            seen.push(at);
            let found = launched
                .device_graph()
                .is_some_and(|anchor| anchor.footprint().reaches(target, seen));
            if found {
                return true;
            }
        }
        false
    }

    /// Every use of memory a launch makes, with those of the executables it may launch, at any
    /// depth, added to `out` (`seen`: the executables visited, by address).
    pub(crate) fn collect(&self, out: &mut Vec<Touch>, seen: &mut Vec<*const ()>) {
        out.extend(self.touches.iter().cloned());
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

    /// The uses among `new` that no use of `old` covers (see [`Touch::within`]): what an update
    /// would make the launches use that the graphs launching them were not checked against.
    pub(crate) fn uncovered(new: &[Touch], old: &[Touch]) -> Vec<Touch> {
        new.iter()
            .filter(|n| !old.iter().any(|o| n.within(o)))
            .cloned()
            .collect()
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

/// The footprints that a race check read, to tell after the node's registration whether one
/// changed meanwhile (an update of a device-launchable executable on another thread).
///
/// An update of a device-launchable executable ([`DeviceGraphExec::update`]) publishes what
/// its launches will use (with what they used: [`Footprint::union`]) *before* it looks at which
/// executables may launch it and run host code on that memory; an executable registers its
/// memory *before* it reads the footprints again here. Whichever comes second sees the other:
/// the update sees the executable's host code, or the executable sees the new footprint.
///
/// [`DeviceGraphExec::update`]: super::DeviceGraphExec::update
#[derive(Default)]
pub(crate) struct Snapshot {
    read: Vec<(Arc<dyn Allocation>, Arc<Footprint>)>,
}

impl Snapshot {
    /// The footprints of the executables among `uses`, and of those they may launch, at any
    /// depth, as they are now.
    pub(crate) fn of<'u, 'a: 'u>(uses: impl IntoIterator<Item = &'u Use<'a>>) -> Self {
        let mut snapshot = Self::default();
        for u in uses {
            if let (true, Some(alloc)) = (u.launches(), u.owned()) {
                snapshot.add(alloc);
            }
        }
        snapshot
    }

    fn add(&mut self, alloc: &Arc<dyn Allocation>) {
        if self.read.iter().any(|(a, _)| Arc::ptr_eq(a, alloc)) {
            return;
        }
        let Some(anchor) = alloc.device_graph() else {
            return;
        };
        let footprint = anchor.footprint();
        self.read.push((alloc.clone(), footprint.clone()));
        for launched in &footprint.launches {
            self.add(launched);
        }
    }

    /// Refuses when a footprint read changed since ([`Error::BufferInUse`]).
    pub(crate) fn unchanged(&self) -> Result<()> {
        for (alloc, footprint) in &self.read {
            let now = alloc.device_graph().map(|a| a.footprint());
            if !now.is_some_and(|now| Arc::ptr_eq(&now, footprint)) {
                return Err(Error::BufferInUse {
                    buffer: "device-launchable executable".into(),
                    reason: "it was updated (on another thread) while this graph's race checks \
                             looked at what its launches use: make the call again"
                        .into(),
                });
            }
        }
        Ok(())
    }
}

impl Footprint {
    /// What launches of `a` or `b` use: a footprint that covers both (see
    /// `DeviceGraphExec::update`).
    pub(crate) fn union(a: &Footprint, b: &Footprint) -> Footprint {
        let mut out = Footprint {
            touches: a.touches.clone(),
            launches: a.launches.clone(),
        };
        for t in &b.touches {
            if !out.touches.contains(t) {
                out.touches.push(t.clone());
            }
        }
        for l in &b.launches {
            if !out.launches.iter().any(|o| Arc::ptr_eq(o, l)) {
                out.launches.push(l.clone());
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn touch(start: u64, end: u64, write: bool) -> Touch {
        Touch {
            space: Space::Host,
            start,
            end,
            write,
            owner: None,
        }
    }

    #[test]
    fn an_update_is_covered_by_narrower_or_weaker_uses_of_the_same_memory_only() {
        let old = [touch(0, 64, false), touch(128, 192, true)];
        assert!(Footprint::uncovered(&[touch(8, 16, false)], &old).is_empty());
        assert!(Footprint::uncovered(&[touch(128, 136, false)], &old).is_empty());
        assert!(Footprint::uncovered(&[touch(130, 190, true)], &old).is_empty());
        // A write where only reads were, a range reaching past, another space: uncovered.
        assert_eq!(
            Footprint::uncovered(&[touch(8, 16, true)], &old),
            vec![touch(8, 16, true)]
        );
        assert_eq!(
            Footprint::uncovered(&[touch(60, 70, false)], &old),
            vec![touch(60, 70, false)]
        );
        let device = Touch {
            space: Space::Device,
            ..touch(0, 8, false)
        };
        assert_eq!(
            Footprint::uncovered(std::slice::from_ref(&device), &old),
            vec![device]
        );
    }
}
