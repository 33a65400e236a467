//! T14 through device graph launches: a kernel given a device-launchable executable's handle
//! may launch it from the GPU, fire-and-forget or as a sibling (the launched graph then runs at
//! the same time as every node of the launching graph that is not ordered *before* the
//! launching kernel, nodes after it included) or as a tail launch; the kernel picks the mode at
//! run time, so the check assumes the first two
//! (<https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#device-launch>). The
//! declaration cannot see what a launched graph uses: `build`, `set_params`, the setters and the
//! params guard check the executable's footprint (`device_launch::footprint`, nested launches
//! included) against the memory of those nodes. A race is refused (`Error::Hazard`, naming the
//! launching node and the other node); an edge putting the other node before the launching
//! kernel, separate buffers, or `#[unordered(param)]` on both nodes make it legal.

use std::marker::PhantomData;
use std::sync::Arc;

use super::param_class::{Bytes, DeclaredUse};
use crate::device_launch::footprint::{add_launched, Touch};
use crate::device_launch::DeviceAnchor;
use crate::error::{Error, Result};
use crate::graph::Graph;
use crate::{DeviceGraphHandle, SharedDeviceGraph};

/// What the device graphs a node may launch use (nested launches included). Two nodes that
/// launch one executable count as racing on what it writes: whether CUDA runs two device-side
/// launches of one executable one after the other is not something this check relies on.
#[derive(Debug, Default)]
pub struct Launched {
    touches: Vec<Touch>,
    /// The executables visited, by address.
    seen: Vec<*const ()>,
    /// The touches of each executable added by its handle, in `touches`: one kernel may launch
    /// them all at the same time ([`check_launched_among`]).
    groups: Vec<std::ops::Range<usize>>,
}

impl Launched {
    /// Nothing launched yet.
    #[inline]
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds what a launch of the executable of `anchor` uses.
    fn add_anchor(&mut self, anchor: &Arc<DeviceAnchor>) {
        let at = Arc::as_ptr(anchor).cast::<()>();
        let start = self.touches.len();
        if self.seen.contains(&at) {
            // Given again (or already launched by one given before): its uses count once more,
            // as a group of their own, so that the launches of one kernel are compared.
            let mut seen = vec![at];
            anchor.footprint().collect(&mut self.touches, &mut seen);
        } else {
            self.seen.push(at);
            anchor
                .footprint()
                .collect(&mut self.touches, &mut self.seen);
        }
        self.groups.push(start..self.touches.len());
    }

    /// Adds what the executables that the kernels of `graph` (a child node's) may launch use.
    pub fn add_child(&mut self, graph: &Graph<'_>) {
        for u in graph.uses_by_node().flatten() {
            add_launched(u, &mut self.touches, &mut self.seen);
        }
    }

    /// Whether nothing is launched.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.touches.is_empty()
    }
}

/// Asks whether a param's type `T` is a device-launchable executable's handle
/// ([`SharedDeviceGraph`], a reference to one, or a [`DeviceGraphHandle`]): `add(&value, into)`
/// adds what a launch of it uses to `into`, and does nothing for any other type (the trait's
/// default, [`LaunchFallback`]).
#[derive(Debug)]
pub struct LaunchProbe<T: ?Sized>(PhantomData<T>);

/// The answer of [`LaunchProbe`] for a type that is no device graph handle.
pub trait LaunchFallback<T: ?Sized> {
    /// Whether `T` is a device graph's handle: no.
    const IS_LAUNCH: bool = false;
    /// Launches nothing.
    #[inline(always)]
    fn add(_: &T, _: &mut Launched) {}
}

impl<T: ?Sized> LaunchFallback<T> for LaunchProbe<T> {}

impl LaunchProbe<SharedDeviceGraph> {
    /// Whether it is a device graph's handle: yes (a param written as a memory type is
    /// asserted not to be one, since the race rule probes only params of unknown types).
    pub const IS_LAUNCH: bool = true;

    /// What a launch of it uses.
    #[inline]
    pub fn add(value: &SharedDeviceGraph, into: &mut Launched) {
        into.add_anchor(value.handle().anchor());
    }
}

impl LaunchProbe<&SharedDeviceGraph> {
    /// Whether it is a device graph's handle: yes (a param written as a memory type is
    /// asserted not to be one, since the race rule probes only params of unknown types).
    pub const IS_LAUNCH: bool = true;

    /// What a launch of it uses.
    #[inline]
    pub fn add(value: &&SharedDeviceGraph, into: &mut Launched) {
        into.add_anchor(value.handle().anchor());
    }
}

impl LaunchProbe<DeviceGraphHandle<'_>> {
    /// Whether it is a device graph's handle: yes (a param written as a memory type is
    /// asserted not to be one, since the race rule probes only params of unknown types).
    pub const IS_LAUNCH: bool = true;

    /// What a launch of it uses.
    #[inline]
    pub fn add(value: &DeviceGraphHandle<'_>, into: &mut Launched) {
        into.add_anchor(value.anchor());
    }
}

/// What the node a launched graph may run beside uses.
enum Theirs<'t, 'g> {
    /// Its declared uses of params.
    Declared(&'t [DeclaredUse]),
    /// The graph of a child node.
    Child(&'t Graph<'g>),
    /// What the graphs another node may launch use.
    Launched(&'t Launched),
    /// Any memory: a capture node whose uses are not declared.
    Anything,
    /// Another graph the same node may launch.
    Sibling,
}

/// Refuses a node (`names.0`) whose launched graphs (`launched`) use memory that the node
/// `names.1`, not ordered before it, uses as `uses` says, one of them writing, outside the
/// memory both opted out for (`exempt`). `names.1` may be `names.0` itself: its own uses (a
/// fire-and-forget launch may run while the launching kernel does).
pub fn check_launched_uses(
    launched: &Launched,
    uses: &[DeclaredUse],
    exempt: &[Option<Bytes>],
    names: (&str, &str),
) -> Result<()> {
    conflict(launched, Theirs::Declared(uses), exempt, names)
}

/// [`check_launched_uses`] against the graph a child node embeds (and the graphs its kernels
/// may launch).
pub fn check_launched_child(
    launched: &Launched,
    child: &Graph<'_>,
    exempt: &[Option<Bytes>],
    names: (&str, &str),
) -> Result<()> {
    conflict(launched, Theirs::Child(child), exempt, names)?;
    let mut theirs = Launched::new();
    theirs.add_child(child);
    conflict(launched, Theirs::Launched(&theirs), exempt, names)
}

/// [`check_launched_uses`] against what the graphs another node may launch use.
pub fn check_launched_pair(
    launched: &Launched,
    theirs: &Launched,
    exempt: &[Option<Bytes>],
    names: (&str, &str),
) -> Result<()> {
    conflict(launched, Theirs::Launched(theirs), exempt, names)
}

/// [`check_launched_uses`] against a capture node whose uses are not declared: it may use any
/// memory, so any memory a launched graph uses outside `exempt` is refused.
pub fn check_launched_capture(
    launched: &Launched,
    exempt: &[Option<Bytes>],
    names: (&str, &str),
) -> Result<()> {
    conflict(launched, Theirs::Anything, exempt, names)
}

fn conflict(
    launched: &Launched,
    theirs: Theirs<'_, '_>,
    exempt: &[Option<Bytes>],
    names: (&str, &str),
) -> Result<()> {
    if launched.is_empty() {
        return Ok(());
    }
    let within = |bytes: Bytes| within(exempt, bytes);
    let race = |t: &Touch, bytes: Bytes, write: bool| race(exempt, t, bytes, write);
    for t in &launched.touches {
        let found = match &theirs {
            Theirs::Declared(uses) => uses
                .iter()
                .find_map(|&(bytes, write)| bytes.filter(|&b| race(t, b, write)).map(|_| write)),
            Theirs::Child(graph) => graph
                .uses_by_node()
                .flatten()
                .filter(|u| u.end > u.start)
                .find(|u| race(t, (u.space, u.start, u.end), u.write))
                .map(|u| u.write),
            Theirs::Launched(other) => other
                .touches
                .iter()
                .find(|o| race(t, (o.space, o.start, o.end), o.write))
                .map(|o| o.write),
            Theirs::Anything => (!within((t.space, t.start, t.end))).then_some(true),
            // (Compared by `check_launched_among`, over the groups of one `Launched`.)
            Theirs::Sibling => None,
        };
        if let Some(write) = found {
            return Err(hazard(t.write, write, &theirs, names));
        }
    }
    Ok(())
}

/// Refuses a node (`name`) that may launch several device graphs (`launched`, one group each)
/// of which two use common memory, one of them writing, outside `exempt`: one kernel may launch
/// them at the same time.
pub fn check_launched_among(
    launched: &Launched,
    exempt: &[Option<Bytes>],
    name: &str,
) -> Result<()> {
    for (i, a) in launched.groups.iter().enumerate() {
        for b in &launched.groups[i + 1..] {
            for t in &launched.touches[a.clone()] {
                let found = launched.touches[b.clone()]
                    .iter()
                    .find(|o| race(exempt, t, (o.space, o.start, o.end), o.write));
                if let Some(o) = found {
                    return Err(hazard(t.write, o.write, &Theirs::Sibling, (name, name)));
                }
            }
        }
    }
    Ok(())
}

/// Whether `bytes` lie inside memory both nodes opted out for (`exempt`).
fn within(exempt: &[Option<Bytes>], (space, start, end): Bytes) -> bool {
    exempt
        .iter()
        .flatten()
        .any(|&(s, lo, hi)| s == space && lo <= start && end <= hi)
}

/// One launched use (`t`) against one of theirs (`bytes`, `write`): whether they overlap, one
/// writes, and the common part is not exempt.
fn race(exempt: &[Option<Bytes>], t: &Touch, (space, start, end): Bytes, write: bool) -> bool {
    let overlaps = t.space == space && t.start < end && start < t.end;
    overlaps && (t.write || write) && !within(exempt, (space, t.start.max(start), t.end.min(end)))
}

#[cold]
fn hazard(
    mine: bool,
    write: bool,
    theirs: &Theirs<'_, '_>,
    (launcher, other): (&str, &str),
) -> Error {
    let verb = |w: bool| if w { "writes" } else { "reads" };
    let what = match theirs {
        Theirs::Declared(_) if launcher == other => format!("`{other}` itself {}", verb(write)),
        Theirs::Declared(_) => format!("`{other}` {}", verb(write)),
        Theirs::Child(_) => format!("the graph that child node `{other}` embeds {}", verb(write)),
        Theirs::Launched(_) => format!("a graph that `{other}` may launch {}", verb(write)),
        Theirs::Anything => format!("capture node `{other}`, whose uses are not declared, may use"),
        Theirs::Sibling => format!("another device graph it may launch {}", verb(write)),
    };
    let fix = if matches!(theirs, Theirs::Sibling) {
        format!(
            "give the graphs it launches separate buffers, or, if they use disjoint parts of a \
             buffer param or only atomics, mark `{launcher}` `#[unordered(param)]`"
        )
    } else if launcher == other {
        format!(
            "give them separate buffers, or, if the kernel and the launched graph use disjoint \
             parts of a buffer param or only atomics, mark `{launcher}` `#[unordered(param)]`"
        )
    } else {
        format!(
            "add an edge putting `{other}` before `{launcher}`, give them separate buffers, or, \
             if they use disjoint parts of a buffer param or only atomics, mark both \
             `#[unordered(param)]`"
        )
    };
    Error::Hazard {
        first: launcher.to_owned(),
        second: other.to_owned(),
        reason: format!(
            "a device graph that node `{launcher}` may launch {} memory that {what}, and \
             the launched graph may run alongside it: a fire-and-forget or sibling launch runs at \
             the same time as every node not ordered before the launching kernel, nodes after \
             it too (https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#device-launch), \
             a data race: {fix}",
            verb(mine)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::alloc::Space;

    fn launched(touches: &[(u64, u64, bool)]) -> Launched {
        Launched {
            touches: touches
                .iter()
                .map(|&(start, end, write)| Touch {
                    space: Space::Device,
                    start,
                    end,
                    write,
                })
                .collect(),
            seen: Vec::new(),
            groups: std::iter::once(0..touches.len()).collect(),
        }
    }

    fn hazard_between(result: Result<()>) -> (String, String, String) {
        match result {
            Err(Error::Hazard {
                first,
                second,
                reason,
            }) => (first, second, reason),
            other => panic!("expected a hazard, got {other:?}"),
        }
    }

    #[test]
    fn launched_memory_races_with_a_use_where_one_writes_outside_the_exempt_memory() {
        let writes = launched(&[(100, 200, true)]);
        let reads = launched(&[(100, 200, false)]);
        let read = |s, e| (Some((Space::Device, s, e)), false);
        let write = |s, e| (Some((Space::Device, s, e)), true);
        let names = ("go", "other");
        // Overlap, one writing: refused, naming both nodes.
        let (first, second, reason) =
            hazard_between(check_launched_uses(&writes, &[read(150, 250)], &[], names));
        assert_eq!((first.as_str(), second.as_str()), names);
        assert!(
            reason.contains("writes memory that `other` reads"),
            "{reason}"
        );
        assert!(reason.contains("alongside"), "{reason}");
        hazard_between(check_launched_uses(&reads, &[write(0, 101)], &[], names));
        // Reads only, disjoint memory, a value (no memory), nothing launched: accepted.
        check_launched_uses(&reads, &[read(0, 300)], &[], names).unwrap();
        check_launched_uses(&writes, &[write(200, 300)], &[], names).unwrap();
        check_launched_uses(&writes, &[(None, true)], &[], names).unwrap();
        check_launched_uses(&Launched::new(), &[write(0, 300)], &[], names).unwrap();
        // The overlap within memory both opted out for: accepted; past it: refused.
        let exempt = [Some((Space::Device, 100, 200))];
        check_launched_uses(&writes, &[write(0, 300)], &exempt, names).unwrap();
        let partly = [Some((Space::Device, 100, 150))];
        hazard_between(check_launched_uses(
            &writes,
            &[write(0, 300)],
            &partly,
            names,
        ));
        // Two launchers' graphs, and a capture node that may use anything.
        hazard_between(check_launched_pair(&writes, &reads, &[], names));
        check_launched_pair(&reads, &reads, &[], names).unwrap();
        let (_, _, reason) = hazard_between(check_launched_capture(&reads, &[], names));
        assert!(reason.contains("capture node `other`"), "{reason}");
        check_launched_capture(&reads, &exempt, names).unwrap();
        // The launching node itself.
        let (_, _, reason) = hazard_between(check_launched_uses(
            &writes,
            &[read(0, 300)],
            &[],
            ("go", "go"),
        ));
        assert!(reason.contains("`go` itself reads"), "{reason}");
    }

    #[test]
    fn two_graphs_one_node_launches_are_compared_with_each_other() {
        let mut both = launched(&[(0, 64, true), (64, 128, false), (32, 48, false)]);
        both.groups = vec![0..2, 2..3];
        let refused = check_launched_among(&both, &[], "go");
        assert!(
            matches!(&refused, Err(Error::Hazard { first, second, reason })
                if first == "go" && second == "go" && reason.contains("another device graph")),
            "{refused:?}"
        );
        // Reads only, or apart: accepted; exempt memory: accepted.
        both.touches[0].write = false;
        assert!(check_launched_among(&both, &[], "go").is_ok());
        both.touches[0].write = true;
        both.touches[2].start = 64;
        both.touches[2].end = 80;
        assert!(check_launched_among(&both, &[], "go").is_ok());
        both.touches[2].start = 32;
        both.touches[2].end = 48;
        let exempt = [Some((Space::Device, 0, 64))];
        assert!(check_launched_among(&both, &exempt, "go").is_ok());
        // One group: nothing to compare.
        both.groups = std::iter::once(0..3).collect();
        assert!(check_launched_among(&both, &[], "go").is_ok());
    }
}
