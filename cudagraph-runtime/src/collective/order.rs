//! The check that every rank issues the same collectives in the same order.
//!
//! NCCL matches collectives by their order on each communicator: if rank 0's graph all-reduces
//! `a` then `b` and rank 1's all-reduces `b` then `a` (or all-gathers where rank 0 all-reduces),
//! the launches hang, or mix up the buffers of the two calls. The same `cuda_graph!` declaration
//! built on every rank issues the same sequence by construction; this check verifies it across
//! ranks once, when a graph is instantiated, with an exchange over the communicator itself:
//!
//! 1. every rank all-gathers `[length, hash, exact]`: the length of its sequence, a hash of what
//!    every rank issues alike (operation, reduction, element type, count, root, placement), and
//!    whether it must be compared word for word: it has point-to-point steps, whose peers differ
//!    from rank to rank by design, or buffers in symmetric windows, where NCCL's kernels read
//!    and write the peers' memory at the places each rank names (a disagreement there is no
//!    hang but a write at the wrong place, which a 64-bit hash, not proof against a collision
//!    made on purpose, is not enough to rule out);
//! 2. when the lengths or hashes differ, or some rank asks for the exact comparison, every rank
//!    all-gathers its whole sequence (seven words a collective), and finds the first place where
//!    the ranks disagree: collectives must be equal, a send must meet a receive of the same size
//!    on its peer at the same place, and the other way around.
//!
//! Every rank sees the same gathered words, so every rank takes the same branch (no rank waits in
//! a second exchange that another skipped), and every rank refuses, naming its own node at the
//! first place of disagreement.

use super::op::{Collective, Op, WORDS};
use crate::error::{Error, Result};

/// An all-gather among the ranks of one communicator (NCCL's, or a test's).
pub(crate) trait Exchange {
    /// This rank.
    fn rank(&self) -> usize;
    /// How many ranks.
    fn size(&self) -> usize;
    /// Every rank's `mine` (all of the same length), rank after rank.
    fn all_gather(&self, mine: &[u64]) -> Result<Vec<u64>>;
}

/// Checks that every rank of `exchange` issues `sequence` alike (see the module docs);
/// `name(i)` names this rank's `i`th collective node.
pub(crate) fn check(
    sequence: &[Collective],
    name: &dyn Fn(usize) -> String,
    exchange: &dyn Exchange,
) -> Result<()> {
    let size = exchange.size();
    if size == 1 {
        return Ok(());
    }
    let exact = sequence.iter().any(|c| c.is_p2p() || c.placement != [0; 2]);
    let summary = [sequence.len() as u64, hash(sequence), exact as u64];
    let summaries = exchange.all_gather(&summary)?;
    let rows: Vec<&[u64]> = summaries.chunks(summary.len()).collect();
    let agree = rows
        .iter()
        .all(|r| r[0] == rows[0][0] && r[1] == rows[0][1]);
    if agree && rows.iter().all(|r| r[2] == 0) {
        return Ok(());
    }
    let longest = rows.iter().map(|r| r[0] as usize).max().unwrap_or(0);
    let mut mine = vec![0u64; longest * WORDS];
    for (c, slot) in sequence.iter().zip(mine.chunks_mut(WORDS)) {
        slot.copy_from_slice(&c.encode());
    }
    let all = exchange.all_gather(&mine)?;
    let per_rank: Vec<&[u64]> = all.chunks(longest * WORDS).collect();
    for place in 0..longest {
        let at: Vec<Option<Collective>> = per_rank
            .iter()
            .map(|words| Collective::decode(&words[place * WORDS..(place + 1) * WORDS]))
            .collect();
        if let Some(pair) = disagreement(&at) {
            return Err(refusal(exchange.rank(), pair, place, &at, sequence, name));
        }
    }
    Ok(())
}

/// FNV-1a of the words every rank issues alike: the same on every rank for the same sequence
/// (unlike std's hasher, whose algorithm may change between Rust releases).
fn hash(sequence: &[Collective]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for word in sequence.iter().flat_map(Collective::rank_invariant) {
        for byte in word.to_le_bytes() {
            h ^= byte as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// Two ranks whose steps `at[rank]` at one place do not fit each other, if any.
fn disagreement(at: &[Option<Collective>]) -> Option<(usize, usize)> {
    if let Some(rank) = at.iter().position(|c| c.is_none() != at[0].is_none()) {
        return Some((0, rank));
    }
    let first = at[0]?;
    if !first.is_p2p() {
        return at.iter().position(|c| *c != Some(first)).map(|r| (0, r));
    }
    // Point to point: every send meets a receive on its peer, every receive a send.
    for (rank, c) in at.iter().enumerate() {
        let c = c.expect("checked above: every rank has a step here");
        if !c.is_p2p() {
            return Some((0, rank));
        }
        let fits = |peer: u32, sends: bool| {
            let Some(Some(theirs)) = at.get(peer as usize) else {
                return false;
            };
            let answered = if sends {
                receives_from(theirs)
            } else {
                sends_to(theirs)
            };
            answered == Some(rank as u32) && theirs.dtype == c.dtype && theirs.count == c.count
        };
        if let Some(peer) = sends_to(&c).filter(|&peer| !fits(peer, true)) {
            return Some((rank, peer as usize));
        }
        if let Some(peer) = receives_from(&c).filter(|&peer| !fits(peer, false)) {
            return Some((rank, peer as usize));
        }
    }
    None
}

fn sends_to(c: &Collective) -> Option<u32> {
    match c.op {
        Op::Send { peer } | Op::SendRecv { to: peer, .. } => Some(peer),
        _ => None,
    }
}

fn receives_from(c: &Collective) -> Option<u32> {
    match c.op {
        Op::Recv { peer } | Op::SendRecv { from: peer, .. } => Some(peer),
        _ => None,
    }
}

/// The error of rank `me` when the steps of ranks `pair` at `place` do not fit each other.
fn refusal(
    me: usize,
    (a, b): (usize, usize),
    place: usize,
    at: &[Option<Collective>],
    sequence: &[Collective],
    name: &dyn Fn(usize) -> String,
) -> Error {
    let step = |rank: usize| match at.get(rank).copied().flatten() {
        Some(c) => format!("rank {rank} issues {c}"),
        None if rank >= at.len() => format!("rank {rank} does not exist"),
        None => format!("rank {rank} issues nothing (its graph has only {place} collectives)"),
    };
    // This rank's step beside the one that does not fit it (or, when this rank is neither of
    // the two, beside the one that does not fit the other's).
    let other = if me == b { a } else { b };
    let node = if place < sequence.len() {
        name(place)
    } else {
        format!("<after the last collective, #{place}>")
    };
    Error::CollectiveMismatch {
        node,
        reason: format!(
            "collective #{place} of the communicator: {}, {}; every rank must issue the same \
             collectives in the same order (a send meeting a receive of the same size on its \
             peer), or the launches hang: build every rank's graph from the same declaration, \
             adding the collectives in the same order",
            step(me),
            step(other)
        ),
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Barrier, Mutex};

    use super::*;
    use crate::collective::op::ReduceOp;

    /// Ranks as threads, all-gathering through shared memory.
    struct Threads {
        rank: usize,
        shared: Arc<(Barrier, Mutex<Vec<Vec<u64>>>)>,
        rounds: Arc<Mutex<usize>>,
    }

    impl Exchange for Threads {
        fn rank(&self) -> usize {
            self.rank
        }
        fn size(&self) -> usize {
            self.shared.1.lock().unwrap().len()
        }
        fn all_gather(&self, mine: &[u64]) -> Result<Vec<u64>> {
            let (barrier, slots) = &*self.shared;
            slots.lock().unwrap()[self.rank] = mine.to_vec();
            barrier.wait();
            let all = slots.lock().unwrap().concat();
            barrier.wait();
            if self.rank == 0 {
                *self.rounds.lock().unwrap() += 1;
            }
            Ok(all)
        }
    }

    /// Runs the check on one thread per sequence; returns each rank's outcome and the number of
    /// exchanges made.
    fn run(sequences: Vec<Vec<Collective>>) -> (Vec<Result<()>>, usize) {
        let size = sequences.len();
        let shared = Arc::new((Barrier::new(size), Mutex::new(vec![Vec::new(); size])));
        let rounds = Arc::new(Mutex::new(0));
        let outcomes = std::thread::scope(|s| {
            let handles: Vec<_> = sequences
                .into_iter()
                .enumerate()
                .map(|(rank, seq)| {
                    let exchange = Threads {
                        rank,
                        shared: shared.clone(),
                        rounds: rounds.clone(),
                    };
                    s.spawn(move || check(&seq, &|i| format!("node{i}_of_rank{rank}"), &exchange))
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        let rounds = *rounds.lock().unwrap();
        (outcomes, rounds)
    }

    fn ar(count: usize) -> Collective {
        Collective::new::<f32>(Op::AllReduce(ReduceOp::Sum), count)
    }
    fn ag(count: usize) -> Collective {
        Collective::new::<f32>(Op::AllGather, count)
    }

    fn reason(r: &Result<()>) -> (String, String) {
        match r {
            Err(Error::CollectiveMismatch { node, reason }) => (node.clone(), reason.clone()),
            other => panic!("expected a mismatch, got {other:?}"),
        }
    }

    #[test]
    fn the_same_sequence_passes_in_one_exchange() {
        let seq = vec![
            ar(10),
            ag(4),
            Collective::new::<f64>(Op::Broadcast { root: 1 }, 3),
        ];
        let (outcomes, rounds) = run(vec![seq.clone(), seq.clone(), seq]);
        assert!(outcomes.iter().all(Result::is_ok), "{outcomes:?}");
        assert_eq!(rounds, 1);
    }

    #[test]
    fn swapped_collectives_are_refused_on_every_rank_naming_the_first_difference() {
        let (outcomes, rounds) = run(vec![vec![ar(10), ag(4)], vec![ag(4), ar(10)]]);
        assert_eq!(rounds, 2);
        let (node, why) = reason(&outcomes[0]);
        assert_eq!(node, "node0_of_rank0");
        assert!(why.contains("collective #0"), "{why}");
        assert!(
            why.contains("rank 0 issues all_reduce(Sum) of 10 f32"),
            "{why}"
        );
        assert!(why.contains("rank 1 issues all_gather of 4 f32"), "{why}");
        let (node, _) = reason(&outcomes[1]);
        assert_eq!(node, "node0_of_rank1");
    }

    #[test]
    fn a_different_count_type_or_root_is_refused_where_it_differs() {
        let (outcomes, _) = run(vec![vec![ar(10), ar(5)], vec![ar(10), ar(6)]]);
        assert_eq!(reason(&outcomes[0]).0, "node1_of_rank0");
        let b = |root| Collective::new::<f32>(Op::Broadcast { root }, 8);
        let (outcomes, _) = run(vec![vec![b(0)], vec![b(1)]]);
        assert!(reason(&outcomes[1]).1.contains("broadcast(root 0)"));
        let (outcomes, _) = run(vec![
            vec![ar(3)],
            vec![Collective::new::<i32>(Op::AllReduce(ReduceOp::Sum), 3)],
        ]);
        assert!(reason(&outcomes[0]).1.contains("3 i32"));
    }

    #[test]
    fn a_missing_collective_is_refused_on_both_sides() {
        let (outcomes, _) = run(vec![vec![ar(1), ar(2)], vec![ar(1)]]);
        let (node, why) = reason(&outcomes[0]);
        assert_eq!(node, "node1_of_rank0");
        assert!(why.contains("rank 1 issues nothing"), "{why}");
        let (node, _) = reason(&outcomes[1]);
        assert!(node.contains("after the last collective"), "{node}");
    }

    #[test]
    fn matching_sends_and_receives_pass_and_unmatched_ones_are_refused() {
        let send = |peer| Collective::new::<f32>(Op::Send { peer }, 16);
        let recv = |peer| Collective::new::<f32>(Op::Recv { peer }, 16);
        let ring = |to, from| Collective::new::<f32>(Op::SendRecv { to, from }, 16);
        // A pipeline: 0 sends to 1; then a ring of three.
        let (outcomes, _) = run(vec![
            vec![send(1), ring(1, 2)],
            vec![recv(0), ring(2, 0)],
            vec![ar(1), ring(0, 1)],
        ]);
        // Rank 2 all-reduces where the others exchange.
        assert!(outcomes.iter().all(Result::is_err));
        let (outcomes, _) = run(vec![
            vec![send(1), ring(1, 2)],
            vec![recv(0), ring(2, 0)],
            vec![ring(0, 1)],
        ]);
        // Rank 2's ring step comes one place early.
        assert!(outcomes.iter().all(Result::is_err));
        let (outcomes, _) = run(vec![vec![send(1), ring(1, 1)], vec![recv(0), ring(0, 0)]]);
        assert!(outcomes.iter().all(Result::is_ok), "{outcomes:?}");
        // A receive of another size.
        let (outcomes, _) = run(vec![
            vec![send(1)],
            vec![Collective::new::<f32>(Op::Recv { peer: 0 }, 8)],
        ]);
        assert!(reason(&outcomes[0])
            .1
            .contains("recv(from rank 0) of 8 f32"));
        // Two sends and no receive.
        let (outcomes, _) = run(vec![vec![send(1)], vec![send(0)]]);
        assert!(outcomes.iter().all(Result::is_err));
    }

    #[test]
    fn buffers_at_other_places_of_the_symmetric_windows_are_refused() {
        // Window 1 at byte 0 on one rank, at byte 64 (or in no window) on the other: NCCL's
        // symmetric kernels would read and write the peer's memory at the wrong place.
        let at = |word| ar(16).placed([word, word]);
        let (outcomes, rounds) = run(vec![vec![at(1 << 48)], vec![at(1 << 48)]]);
        assert!(outcomes.iter().all(Result::is_ok), "{outcomes:?}");
        // Compared word for word, not by hash alone: a disagreement there writes a peer's memory.
        assert_eq!(rounds, 2);
        let (outcomes, _) = run(vec![vec![at(1 << 48)], vec![at((1 << 48) | 64)]]);
        let (node, why) = reason(&outcomes[0]);
        assert_eq!(node, "node0_of_rank0");
        assert!(
            why.contains("rank 0 issues all_reduce(Sum) of 16 f32, source at byte 0 of symmetric buffer #1 and destination at byte 0 of symmetric buffer #1"),
            "{why}"
        );
        assert!(why.contains("byte 64 of symmetric buffer #1"), "{why}");
        let (outcomes, _) = run(vec![vec![at(1 << 48)], vec![at(0)]]);
        assert!(outcomes.iter().all(Result::is_err));
        assert!(reason(&outcomes[1])
            .1
            .contains("rank 1 issues all_reduce(Sum) of 16 f32,"));
    }

    #[test]
    fn one_rank_needs_no_exchange() {
        let (outcomes, rounds) = run(vec![vec![ar(1)]]);
        assert!(outcomes[0].is_ok());
        assert_eq!(rounds, 0);
    }
}
