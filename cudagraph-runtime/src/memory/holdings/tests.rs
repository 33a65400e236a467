//! Unit tests of [`Holdings`](super::Holdings): fake allocations with no driver behind them.

use super::*;

/// Device memory with a record and no driver behind it: registering, moving and releasing
/// uses of it make no driver call while the executable has not launched.
struct Fake {
    state: AllocState,
    range: (u64, u64),
}

impl Allocation for Fake {
    fn state(&self) -> &AllocState {
        &self.state
    }
    fn space(&self) -> Space {
        Space::Device
    }
    fn home(&self) -> Option<&Arc<CudaStream>> {
        None
    }
    fn range(&self) -> (u64, u64) {
        self.range
    }
}

use super::super::alloc::AllocState;

fn fake(start: u64) -> Arc<dyn Allocation> {
    Arc::new(Fake {
        state: AllocState::default(),
        range: (start, start + 64),
    })
}

fn uses(of: &[(&Arc<dyn Allocation>, bool)]) -> Vec<Use<'static>> {
    of.iter()
        .map(|&(alloc, write)| Use {
            space: Space::Device,
            start: alloc.range().0,
            end: alloc.range().1,
            write,
            host_code: false,
            hold: Hold::Owned(alloc.clone()),
        })
        .collect()
}

/// Checks the slots and keys against the uses: each use's slot is its allocation's, its key
/// its own, and each held allocation's count of uses and writes is what the uses say.
fn check_slots(holdings: &Holdings<'_>) {
    assert_eq!(holdings.meta.len(), holdings.uses.len());
    let mut tally = vec![(0u32, 0u32); holdings.held.len()];
    for (u, meta) in holdings.uses.iter().zip(&holdings.meta) {
        let slot = meta.slot;
        assert_eq!(
            *meta,
            UseMeta::of(u, holdings.slot_of_use(u)),
            "the use's meta"
        );
        if slot != NO_SLOT {
            tally[slot as usize].0 += 1;
            tally[slot as usize].1 += u32::from(u.write);
        }
    }
    for (slot, held) in holdings.held.iter().enumerate() {
        let counts = held
            .as_ref()
            .map_or((0, 0), |h| (h.counts.uses, h.counts.writes));
        assert_eq!(counts, tally[slot], "the counts of slot {slot}");
        let key = held.as_ref().map_or(0, |h| alloc_key(&h.alloc));
        assert_eq!(
            holdings.slot_keys[slot].key, key,
            "the address of slot {slot}"
        );
        if key != 0 {
            assert_eq!(holdings.index[&key], slot as u32, "the index");
        }
    }
    assert_eq!(holdings.index.len(), holdings.held.iter().flatten().count());
}

fn count(holdings: &Holdings<'_>, alloc: &Arc<dyn Allocation>) -> u32 {
    holdings.held(alloc_key(alloc)).map_or(0, |h| h.counts.uses)
}

#[test]
fn swapping_held_buffers_registers_and_releases_nothing() {
    let (x, y, z) = (fake(0x1000), fake(0x2000), fake(0x3000));
    // `sweep` reads x and writes y; `check` reads x.
    let nodes = [uses(&[(&x, false), (&y, true)]), uses(&[(&x, false)])];
    let mut holdings =
        Holdings::new(nodes.iter().map(Vec::as_slice), &|i| format!("n{i}")).unwrap();
    let fence = holdings.fence().clone();
    let registered = x.state().holder_counts(&fence);
    assert_eq!(registered.map(|c| c.uses), Some(2));
    let name = |i: usize| format!("n{i}");

    // The swap: both nodes move between x and y, which stay held.
    let mut applied = 0;
    let mut new = uses(&[(&y, false), (&x, true)]);
    holdings
        .replace_one(0, &mut new, &name, || {
            applied += 1;
            Ok(())
        })
        .unwrap();
    assert!(new.is_empty(), "the new uses were taken");
    let mut new = uses(&[(&y, false)]);
    holdings
        .replace_one(1, &mut new, &name, || {
            applied += 1;
            Ok(())
        })
        .unwrap();
    assert_eq!(applied, 2);
    assert_eq!((count(&holdings, &x), count(&holdings, &y)), (1, 2));
    assert!(holdings.node_uses(0)[0].same(&uses(&[(&y, false)])[0]));
    // The fast path leaves the allocations' records alone: x's still says two uses.
    assert_eq!(x.state().holder_counts(&fence), registered);

    // A refused driver call changes nothing.
    let mut new = uses(&[(&x, false), (&y, true)]);
    let refused = holdings.replace_one(0, &mut new, &name, || {
        Err(Error::Invalid {
            node: "n0".into(),
            reason: "refused".into(),
        })
    });
    assert!(refused.is_err());
    assert_eq!((count(&holdings, &x), count(&holdings, &y)), (1, 2));

    // Memory new to the executable goes the general way: registered.
    let mut new = uses(&[(&z, false)]);
    holdings.replace_one(1, &mut new, &name, || Ok(())).unwrap();
    check_slots(&holdings);
    assert_eq!(z.state().holder_counts(&fence).map(|c| c.uses), Some(1));
    assert_eq!(count(&holdings, &y), 1);
    // So does memory the executable stops using: x, used by node 0 only, is released.
    let mut new = uses(&[(&y, false), (&z, true)]);
    holdings.replace_one(0, &mut new, &name, || Ok(())).unwrap();
    check_slots(&holdings);
    assert_eq!(x.state().holder_counts(&fence), None, "released");
    assert_eq!(count(&holdings, &x), 0);
    drop(holdings);
    for alloc in [&y, &z] {
        assert_eq!(
            alloc.state().holder_counts(&fence),
            None,
            "released on drop"
        );
    }
}

/// What a kernel node's update to the memory `keys` does to the holdings on the short way:
/// the plan, the driver call (`apply`), and, when it succeeds, the commit; `None` when the
/// update goes the general way.
fn move_within(
    holdings: &mut Holdings<'_>,
    node: usize,
    keys: &[MemKey],
    apply: impl FnOnce() -> Result<()>,
) -> Option<Result<()>> {
    let plan = holdings.plan_move(node, keys)?;
    Some(apply().map(|()| holdings.commit_move(node, keys, plan)))
}

/// Whether node `node` can move to `keys` with nothing registered or released (asked with
/// a driver call that fails: nothing changes).
fn can_move(holdings: &mut Holdings<'_>, node: usize, keys: &[MemKey]) -> bool {
    let refused = || {
        Err(Error::Invalid {
            node: format!("n{node}"),
            reason: "refused".into(),
        })
    };
    let moved = move_within(holdings, node, keys, refused);
    check_slots(holdings);
    match moved {
        Some(result) => {
            assert!(result.is_err(), "the driver call's error");
            true
        }
        None => false,
    }
}

/// Moves node `node` to `keys` with nothing registered or released.
fn move_to(holdings: &mut Holdings<'_>, node: usize, keys: &[MemKey]) {
    let moved = move_within(holdings, node, keys, || Ok(()));
    assert!(matches!(moved, Some(Ok(()))), "moved within");
    check_slots(holdings);
}

#[test]
fn a_node_whose_buffers_swap_places_is_reordered_in_place() {
    let (x, y) = (fake(0x1000), fake(0x2000));
    let nodes = [uses(&[(&x, false), (&y, true)])];
    let mut holdings =
        Holdings::new(nodes.iter().map(Vec::as_slice), &|i| format!("n{i}")).unwrap();
    let writes =
        |h: &Holdings<'_>, a: &Arc<dyn Allocation>| h.held(alloc_key(a)).unwrap().counts.writes;
    assert_eq!((writes(&holdings, &x), writes(&holdings, &y)), (0, 1));
    let (kx, ky) = (nodes[0][0].key(), nodes[0][1].key());
    assert!(can_move(&mut holdings, 0, &[ky, kx]));
    assert!(
        can_move(&mut holdings, 0, &[kx, ky]),
        "the identity is one too"
    );
    assert!(!can_move(&mut holdings, 0, &[kx]), "all of them");
    assert!(
        holdings.node_uses(0)[0].same(&nodes[0][0]),
        "a refused call changes nothing"
    );
    let strong = Arc::strong_count(&x);
    move_to(&mut holdings, 0, &[ky, kx]);
    let now = holdings.node_uses(0);
    assert!(now[0].same(&uses(&[(&y, false)])[0]), "y, read");
    assert!(now[1].same(&uses(&[(&x, true)])[0]), "x, written");
    assert!(holdings.node_keys(0).eq([&ky, &kx]));
    assert_eq!((writes(&holdings, &x), writes(&holdings, &y)), (1, 0));
    assert_eq!(Arc::strong_count(&x), strong, "nothing cloned");
    // Both arguments on one buffer: y, held, read and written by the node, x dropped... but
    // x would then be used by no node: that is a release, the general way's.
    assert!(
        !can_move(&mut holdings, 0, &[ky, ky]),
        "x would be released"
    );
    let time = std::time::Instant::now();
    let rounds = 200_000u32;
    for i in 0..rounds {
        let keys = if i % 2 == 0 { [kx, ky] } else { [ky, kx] };
        let moved = move_within(&mut holdings, 0, &keys, || Ok(()));
        assert!(matches!(moved, Some(Ok(()))));
    }
    println!("permutation: {:?} per node update", time.elapsed() / rounds);
}

#[test]
fn a_node_moves_to_memory_another_node_holds() {
    let (x, y, z) = (fake(0x1000), fake(0x2000), fake(0x3000));
    // `sweep` reads x and writes y; `damp` writes y; `other` reads z.
    let nodes = [
        uses(&[(&x, false), (&y, true)]),
        uses(&[(&y, true)]),
        uses(&[(&z, false)]),
    ];
    let mut holdings =
        Holdings::new(nodes.iter().map(Vec::as_slice), &|i| format!("n{i}")).unwrap();
    let fence = holdings.fence().clone();
    let registered = y.state().holder_counts(&fence);
    let counts = |h: &Holdings<'_>, a: &Arc<dyn Allocation>| {
        let c = h.held(alloc_key(a)).map(|h| h.counts).unwrap_or_default();
        (c.uses, c.writes)
    };
    let (kx, ky, kz) = (nodes[0][0].key(), nodes[0][1].key(), nodes[2][0].key());
    // The ping-pong: sweep's buffers swap, damp moves to x.
    move_to(&mut holdings, 0, &[ky, kx]);
    let strong = Arc::strong_count(&x);
    assert!(
        can_move(&mut holdings, 1, &[kx]),
        "x is held: used by sweep"
    );
    assert_eq!(
        Arc::strong_count(&x),
        strong,
        "a refused call takes nothing"
    );
    move_to(&mut holdings, 1, &[kx]);
    assert_eq!(Arc::strong_count(&x), strong + 1, "damp's use holds x");
    assert!(holdings.node_uses(1)[0].same(&uses(&[(&x, true)])[0]));
    assert_eq!(
        (counts(&holdings, &x), counts(&holdings, &y)),
        ((2, 2), (1, 0))
    );
    // Nothing registered: y's record is as it was.
    assert_eq!(y.state().holder_counts(&fence), registered);
    // Sweep is y's last user now: sweep may not leave it...
    assert!(
        !can_move(&mut holdings, 0, &[kx, kz]),
        "y would be released"
    );
    // ...until damp is back on it.
    move_to(&mut holdings, 1, &[ky]);
    // A position takes held memory while its old memory moves to another position.
    move_to(&mut holdings, 0, &[kx, kz]);
    assert!(holdings.node_uses(0)[0].same(&uses(&[(&x, false)])[0]));
    assert!(holdings.node_uses(0)[1].same(&uses(&[(&z, true)])[0]));
    assert_eq!(
        (
            counts(&holdings, &x),
            counts(&holdings, &y),
            counts(&holdings, &z)
        ),
        ((1, 0), (1, 1), (2, 1))
    );
    // Memory the executable does not hold goes the general way (registered).
    let w = fake(0x4000);
    let kw = uses(&[(&w, false)])[0].key();
    assert!(!can_move(&mut holdings, 1, &[kw]), "w is not held");
    // So does memory a node stops using that no other node uses (released).
    assert!(!can_move(&mut holdings, 1, &[kx]), "damp is y's last user");
    assert!(can_move(&mut holdings, 2, &[kx]), "z stays in sweep");
}

/// The bookkeeping of a swap between held buffers, without the driver call: printed, for
/// the record (`cargo test -p cudagraph-runtime --release swap_bookkeeping -- --nocapture`).
#[test]
fn swap_bookkeeping_cost() {
    let (x, y) = (fake(0x1000), fake(0x2000));
    let nodes = [uses(&[(&x, false), (&y, true)]), uses(&[(&y, false)])];
    let mut holdings =
        Holdings::new(nodes.iter().map(Vec::as_slice), &|i| format!("n{i}")).unwrap();
    let name = |i: usize| format!("n{i}");
    let swaps = [
        uses(&[(&y, false), (&x, true)]),
        uses(&[(&x, false), (&y, true)]),
    ];
    let mut scratch = Vec::with_capacity(4);
    let rounds = 200_000;
    let start = std::time::Instant::now();
    for i in 0..rounds {
        scratch.extend(swaps[i % 2].iter().cloned());
        holdings
            .replace_one(0, &mut scratch, &name, || Ok(()))
            .unwrap();
    }
    let per = start.elapsed() / rounds as u32;
    println!("swap bookkeeping: {per:?} per node update (uses cloned in, checks, counts)");
    assert_eq!((count(&holdings, &x), count(&holdings, &y)), (1, 2));
}

/// A small deterministic generator for the model test below (no dependency).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    }
}

/// One memory a position may name: a view of a fake allocation (`Some(alloc)`, the byte
/// range within it) or a raw pointer (`None`, its address range).
type Memory = (Option<usize>, u64, u64);

/// The use of `memory` among `allocs`, written or not.
fn use_of(allocs: &[Arc<dyn Allocation>], memory: Memory, write: bool) -> Use<'static> {
    let (alloc, start, end) = memory;
    Use {
        space: Space::Device,
        start,
        end,
        write,
        host_code: false,
        hold: match alloc {
            Some(a) => Hold::Owned(allocs[a].clone()),
            None => Hold::Raw,
        },
    }
}

/// Single-node updates in random order, as the kernel and node setters make them (the fast
/// moves first, the general way when they cannot, some driver calls refused), against a
/// model of what each node uses: after every update each node's uses are the model's, every
/// held allocation's counts are its uses' (`check_slots`), an allocation is held and
/// registered exactly while a use names it, and nothing else keeps a reference to it. Two
/// positions of one node name one buffer, or two views of one allocation; raw pointers
/// swap places with owned memory; a node has more than `MOST_ARGS` pointers; a node's count
/// of uses changes.
#[test]
fn random_moves_keep_the_holdings_exact() {
    let allocs: Vec<Arc<dyn Allocation>> =
        (0..4).map(|i| fake(0x10_000 * (i as u64 + 1))).collect();
    // Each allocation's whole range and its two halves; two raw ranges (one overlapping an
    // allocation's addresses: keys compare owners too).
    let mut pool: Vec<Memory> = Vec::new();
    for (i, a) in allocs.iter().enumerate() {
        let (s, e) = a.range();
        let mid = s + (e - s) / 2;
        pool.extend([(Some(i), s, e), (Some(i), s, mid), (Some(i), mid, e)]);
    }
    pool.extend([(None, 0x90_000, 0x90_040), (None, 0x10_000, 0x10_040)]);
    // How many updates the move made (with the driver call's result), to show the fast way is
    // taken.
    let mut moved = 0;
    for seed in 1..=40u64 {
        let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        // Per node, per position: the memory and whether the position writes it.
        let widths = [1usize, 2, 3, 4, 9];
        let mut model: Vec<Vec<(Memory, bool)>> = widths
            .iter()
            .map(|&w| {
                (0..w)
                    .map(|_| (pool[rng.below(pool.len())], rng.below(2) == 0))
                    .collect()
            })
            .collect();
        let nodes: Vec<Vec<Use<'static>>> = model
            .iter()
            .map(|n| n.iter().map(|&(m, w)| use_of(&allocs, m, w)).collect())
            .collect();
        let name = |i: usize| format!("n{i}");
        let mut holdings = Holdings::new(nodes.iter().map(Vec::as_slice), &name).unwrap();
        drop(nodes);
        let fence = holdings.fence().clone();
        for _ in 0..400 {
            let node = rng.below(model.len());
            let refuse = rng.below(4) == 0;
            let apply = || -> Result<()> {
                if refuse {
                    Err(Error::Invalid {
                        node: "n".into(),
                        reason: "refused".into(),
                    })
                } else {
                    Ok(())
                }
            };
            let op = rng.below(6);
            let new: Vec<(Memory, bool)> = if op == 5 {
                // Another count of uses, any access (a child graph's contents).
                (0..1 + rng.below(4))
                    .map(|_| (pool[rng.below(pool.len())], rng.below(2) == 0))
                    .collect()
            } else if op == 4 && model[node].len() >= 2 {
                // Two positions swap their memory, each keeping its access.
                let mut new = model[node].clone();
                let i = rng.below(new.len());
                let j = rng.below(new.len());
                let (mi, mj) = (new[i].0, new[j].0);
                new[i].0 = mj;
                new[j].0 = mi;
                new
            } else {
                // Some positions move, each keeping its access.
                model[node]
                    .iter()
                    .map(|&(m, w)| match rng.below(3) {
                        0 => (pool[rng.below(pool.len())], w),
                        _ => (m, w),
                    })
                    .collect()
            };
            let mut uses: Vec<Use<'static>> =
                new.iter().map(|&(m, w)| use_of(&allocs, m, w)).collect();
            let same_count = new.len() == model[node].len();
            let result = if op.is_multiple_of(2) && same_count {
                // A kernel node's update: the move, else the general way.
                let keys: Vec<MemKey> = uses.iter().map(Use::key).collect();
                match move_within(&mut holdings, node, &keys, apply) {
                    Some(result) => {
                        moved += 1;
                        result
                    }
                    None => holdings.replace_one(node, &mut uses, &name, apply),
                }
            } else {
                holdings.replace_one(node, &mut uses, &name, apply)
            };
            assert_eq!(result.is_err(), refuse, "seed {seed}");
            if !refuse {
                model[node] = new;
            }
            drop(uses);
            check_slots(&holdings);
            // The placeholders of changed counts are dropped once they outnumber the rest.
            let live: usize = model.iter().map(Vec::len).sum();
            assert!(
                holdings.uses.len() <= 2 * live + COMPACT_SLACK,
                "seed {seed}: {} entries for {live} uses",
                holdings.uses.len()
            );
            assert_eq!(holdings.meta.len(), holdings.uses.len());
            for (n, expected) in model.iter().enumerate() {
                let now = holdings.node_uses(n);
                assert_eq!(now.len(), expected.len(), "seed {seed}: node {n}'s uses");
                for (u, &(m, w)) in now.iter().zip(expected) {
                    assert!(u.same(&use_of(&allocs, m, w)), "seed {seed}: node {n}");
                }
            }
            for (a, alloc) in allocs.iter().enumerate() {
                let uses = model
                    .iter()
                    .flatten()
                    .filter(|((owner, _, _), _)| *owner == Some(a))
                    .count();
                let held = holdings.held(alloc_key(alloc)).is_some();
                assert_eq!(held, uses > 0, "seed {seed}: allocation {a} held");
                assert_eq!(
                    alloc.state().holder_counts(&fence).is_some(),
                    held,
                    "seed {seed}: allocation {a} registered"
                );
                // Ours, the held table's, one per use: no reference kept or lost.
                assert_eq!(
                    Arc::strong_count(alloc),
                    1 + usize::from(held) + uses,
                    "seed {seed}: references to allocation {a}"
                );
            }
        }
        drop(holdings);
        for alloc in &allocs {
            assert_eq!(
                alloc.state().holder_counts(&fence),
                None,
                "released on drop"
            );
            assert_eq!(Arc::strong_count(alloc), 1);
        }
    }
    assert!(moved > 1000, "the move made {moved} updates");
}
