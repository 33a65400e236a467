//! The check that every rank issues the same collectives in the same order.
//!
//! NCCL matches collectives by their order on each communicator: if rank 0's graph all-reduces
//! `a` then `b` and rank 1's all-reduces `b` then `a` (or all-gathers where rank 0 all-reduces),
//! the launches hang, or mix up the buffers of the two calls. The same `cuda_graph!` declaration
//! built on every rank issues the same sequence by construction; this check verifies it across
//! ranks, when a graph is instantiated, with an exchange over each communicator itself
//! ([`check_graph`]):
//!
//! 1. every rank all-gathers a summary: the length of its sequence, a hash of what every rank
//!    issues alike (operation, reduction, element type, count, root, placement), whether it
//!    must be compared word for word, why it exchanges ([`Intent`]), and how many other
//!    communicators its graph uses with a hash of where its collectives lie among theirs
//!    ([`Among`]). A sequence is compared word for word when it has point-to-point steps, whose
//!    peers differ from rank to rank by design, or buffers in symmetric windows, where NCCL's
//!    kernels read and write the peers' memory at the places each rank names (a disagreement
//!    there is no hang but a write at the wrong place, which a 64-bit hash, not proof against a
//!    collision made on purpose, is not enough to rule out);
//! 2. when the ranks exchange for different reasons, or some rank could not instantiate its
//!    graph, every rank refuses;
//! 3. when the lengths or hashes differ, or some rank asks for the exact comparison, every rank
//!    all-gathers its whole sequence (seven words a collective) and where it lies among the
//!    other communicators' collectives, and finds the first place where the ranks disagree:
//!    collectives must be equal, a send must meet a receive of the same size on its peer at the
//!    same place, and the other way around; and two ranks whose graphs both use another
//!    communicator must have added as many of its collectives before each collective of this
//!    one.
//!
//! Every rank sees the same gathered words, so every rank takes the same branch (no rank waits in
//! a second exchange that another skipped), and every rank refuses, naming its own node at the
//! first place of disagreement.
//!
//! A graph using several communicators exchanges over them in the order of their keys (see
//! `CommInner::key`), which every rank shares: exchanging in an order of its own (that of first
//! use, say), rank 0 could wait in the exchange over `p` while rank 1 waits in the one over `q`,
//! forever. A refusal on one communicator does not end the check: the exchanges over the
//! communicators after it still run, since ranks that do not use the refused one wait in them.
//!
//! The order across communicators matters as well: NCCL asks that operations on several
//! communicators be "submitted in the same order across ranks"
//! (<https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/usage/communicators.html#using-multiple-nccl-communicators-concurrently>).
//! Rank 0 issuing an all-reduce on `p` then one on `q` while rank 1 issues them the other way
//! round waits forever when the launches run, each rank in the collective its peer has not
//! reached. So the graph's order (the order its collectives were added, which the same
//! declaration makes the same on every rank) is compared too, between every two ranks of a
//! communicator that both use the other one. A cycle through three communicators, no two of
//! its ranks sharing two of them, is not found.

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

/// Why a rank exchanges over a communicator: every rank of it must be making the same exchange.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Intent {
    /// To check a graph's collectives (`Graph::check_collective_order`, or an instantiation of a
    /// graph not checked yet).
    Check,
    /// To agree on the instantiation of a graph running collectives over symmetric buffers on
    /// the communicator: `ready` when this rank made its executable (and claimed the
    /// communicator for it, see `owner`), and waits only for its peers to agree.
    Instantiate {
        /// Whether this rank made its executable.
        ready: bool,
    },
}

impl Intent {
    fn word(self) -> u64 {
        match self {
            Intent::Check => 0,
            Intent::Instantiate { ready: true } => 1,
            Intent::Instantiate { ready: false } => 2,
        }
    }
}

/// Where a rank's collectives on one communicator lie among its graph's collectives on another
/// one: the other communicator's key, and, for each collective of the sequence, how many of the
/// other communicator's were added to the graph before it.
pub(crate) type Among = (u64, Vec<u64>);

/// The words of a summary (step 1 of the module docs): length, hash, exact, intent, how many
/// other communicators, their hash.
const SUMMARY: usize = 6;

/// One collective node of a graph, as [`check_graph`] sees it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Step {
    /// Its communicator: an index into the graph's communicators.
    pub(crate) comm: usize,
    /// Its node index in the graph.
    pub(crate) node: usize,
    /// What it issues.
    pub(crate) what: Collective,
}

/// Checks a graph's collectives `steps` (in the order added) on its communicators `comms` (each
/// with its key), exchanging over those `only` selects, in the order of their keys; `name(i)`
/// names node `i`. Every communicator selected is checked, also after one was refused: the
/// first refusal is returned, once all were; an exchange that fails ends the check at once.
pub(crate) fn check_graph(
    comms: &[(u64, &dyn Exchange)],
    steps: &[Step],
    only: &dyn Fn(usize) -> bool,
    intent: Intent,
    name: &dyn Fn(usize) -> String,
) -> Result<()> {
    let mut order: Vec<usize> = (0..comms.len()).filter(|&c| only(c)).collect();
    order.sort_by_key(|&c| comms[c].0);
    let mut refused = None;
    for at in order {
        let nodes: Vec<usize> = steps
            .iter()
            .filter(|s| s.comm == at)
            .map(|s| s.node)
            .collect();
        let sequence: Vec<Collective> = steps
            .iter()
            .filter(|s| s.comm == at)
            .map(|s| s.what)
            .collect();
        let among = among(comms, steps, at);
        match check(&sequence, &among, intent, &|i| name(nodes[i]), comms[at].1) {
            Ok(()) => {}
            Err(e @ (Error::CollectiveMismatch { .. } | Error::Invalid { .. })) => {
                refused.get_or_insert(e);
            }
            Err(e) => return Err(e),
        }
    }
    refused.map_or(Ok(()), Err)
}

/// Where the collectives of communicator `at` lie among those of each other communicator of
/// `comms` (see [`Among`]), sorted by key.
fn among(comms: &[(u64, &dyn Exchange)], steps: &[Step], at: usize) -> Vec<Among> {
    let mut added = vec![0u64; comms.len()];
    let mut before: Vec<Vec<u64>> = vec![Vec::new(); comms.len()];
    for step in steps {
        if step.comm == at {
            for (other, list) in before.iter_mut().enumerate() {
                list.push(added[other]);
            }
        }
        added[step.comm] += 1;
    }
    let mut among: Vec<Among> = before
        .into_iter()
        .enumerate()
        .filter(|&(other, _)| other != at)
        .map(|(other, list)| (comms[other].0, list))
        .collect();
    among.sort_by_key(|a| a.0);
    among
}

/// Checks that every rank of `exchange` issues `sequence` alike, placed alike `among` the
/// collectives of the other communicators its graph uses, and exchanges for the same `intent`
/// (see the module docs); `name(i)` names this rank's `i`th collective node.
pub(crate) fn check(
    sequence: &[Collective],
    among: &[Among],
    intent: Intent,
    name: &dyn Fn(usize) -> String,
    exchange: &dyn Exchange,
) -> Result<()> {
    let size = exchange.size();
    if size == 1 {
        return Ok(());
    }
    let exact = sequence.iter().any(|c| c.is_p2p() || c.placement != [0; 2]);
    let summary: [u64; SUMMARY] = [
        sequence.len() as u64,
        hash(sequence.iter().flat_map(Collective::rank_invariant)),
        exact as u64,
        intent.word(),
        among.len() as u64,
        hash(
            among
                .iter()
                .flat_map(|(key, before)| std::iter::once(*key).chain(before.iter().copied())),
        ),
    ];
    let summaries = exchange.all_gather(&summary)?;
    let rows: Vec<&[u64]> = summaries.chunks(SUMMARY).collect();
    if let Some(refused) = other_intents(exchange.rank(), &rows, sequence, name) {
        return Err(refused);
    }
    let agree = rows
        .iter()
        .all(|r| [0, 1, 4, 5].iter().all(|&word| r[word] == rows[0][word]));
    if agree && rows.iter().all(|r| r[2] == 0) {
        return Ok(());
    }
    let longest = rows.iter().map(|r| r[0] as usize).max().unwrap_or(0);
    let most = rows.iter().map(|r| r[4] as usize).max().unwrap_or(0);
    // This rank's sequence, then for each other communicator its key and the counts.
    let stride = longest * WORDS + most * (1 + longest);
    let mut mine = vec![0u64; stride];
    for (c, slot) in sequence.iter().zip(mine.chunks_mut(WORDS)) {
        slot.copy_from_slice(&c.encode());
    }
    for ((key, before), slot) in among
        .iter()
        .zip(mine[longest * WORDS..].chunks_mut(1 + longest))
    {
        slot[0] = *key;
        slot[1..=before.len()].copy_from_slice(before);
    }
    let all = exchange.all_gather(&mine)?;
    let per_rank: Vec<&[u64]> = all.chunks(stride).collect();
    for place in 0..longest {
        let at: Vec<Option<Collective>> = per_rank
            .iter()
            .map(|words| Collective::decode(&words[place * WORDS..(place + 1) * WORDS]))
            .collect();
        if let Some(pair) = disagreement(&at) {
            return Err(refusal(exchange.rank(), pair, place, &at, sequence, name));
        }
    }
    // Every rank issues the same `longest` collectives: where do they lie among the others'?
    let lists: Vec<Vec<(u64, &[u64])>> = per_rank
        .iter()
        .zip(&rows)
        .map(|(words, row)| {
            words[longest * WORDS..]
                .chunks(1 + longest)
                .take(row[4] as usize)
                .map(|slot| (slot[0], &slot[1..]))
                .collect()
        })
        .collect();
    match misplaced(&lists, longest) {
        Some(found) => Err(misplaced_refusal(exchange.rank(), found, name)),
        None => Ok(()),
    }
}

/// FNV-1a of `words`: the same on every rank for the same words (unlike std's hasher, whose
/// algorithm may change between Rust releases).
fn hash(words: impl Iterator<Item = u64>) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for word in words {
        for byte in word.to_le_bytes() {
            h ^= byte as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// The refusal of rank `me` when the ranks (`rows`, their summaries) do not all exchange for
/// the same reason, or some rank could not instantiate its graph; `None` when they agree.
fn other_intents(
    me: usize,
    rows: &[&[u64]],
    sequence: &[Collective],
    name: &dyn Fn(usize) -> String,
) -> Option<Error> {
    let intents: Vec<u64> = rows.iter().map(|r| r[3]).collect();
    if intents.iter().all(|&i| i == intents[0]) && intents[0] != 2 {
        return None;
    }
    // The node of the first collective over symmetric buffers, what the agreement is about.
    let at = sequence
        .iter()
        .position(|c| c.placement != [0; 2])
        .unwrap_or(0);
    let node = if at < sequence.len() {
        name(at)
    } else {
        "<graph>".to_string()
    };
    if intents.iter().all(|&i| i != 0) {
        // Every rank instantiates, and some rank could not: a peer's, if any.
        let failed = (0..intents.len())
            .find(|&r| intents[r] == 2 && r != me)
            .unwrap_or(me);
        return Some(Error::Invalid {
            node,
            reason: format!(
                "rank {failed} of the communicator could not instantiate its graph (its own \
                 error says why), so every rank refuses: an executable running collectives over \
                 symmetric buffers is made on every rank of the communicator or on none, so \
                 that no rank's symmetric kernels meet a peer's other collectives"
            ),
        });
    }
    let checking = (0..intents.len()).find(|&r| intents[r] == 0).unwrap_or(0);
    let instantiating = (0..intents.len()).find(|&r| intents[r] != 0).unwrap_or(0);
    Some(Error::CollectiveMismatch {
        node,
        reason: format!(
            "rank {checking} checks its graph's collectives where rank {instantiating} \
             instantiates a graph running collectives over symmetric buffers on the \
             communicator: every rank must check and instantiate its graphs at the same points"
        ),
    })
}

/// The first place where two ranks whose graphs both use another communicator (`lists[rank]`:
/// each such communicator's key, and how many of its collectives come before each of this
/// communicator's `len`) disagree: the place, the two ranks, and their counts.
fn misplaced(lists: &[Vec<(u64, &[u64])>], len: usize) -> Option<(usize, [(usize, u64); 2])> {
    for place in 0..len {
        for (a, mine) in lists.iter().enumerate() {
            for (b, theirs) in lists.iter().enumerate().skip(a + 1) {
                for (key, before) in mine {
                    let Some((_, other)) = theirs.iter().find(|(k, _)| k == key) else {
                        continue;
                    };
                    if before[place] != other[place] {
                        return Some((place, [(a, before[place]), (b, other[place])]));
                    }
                }
            }
        }
    }
    None
}

/// The error of rank `me` when two ranks place the collective at `place` differently among
/// another communicator's (see [`misplaced`]).
fn misplaced_refusal(
    me: usize,
    (place, [(a, in_a), (b, in_b)]): (usize, [(usize, u64); 2]),
    name: &dyn Fn(usize) -> String,
) -> Error {
    let (first, second) = if me == b {
        ((b, in_b), (a, in_a))
    } else {
        ((a, in_a), (b, in_b))
    };
    Error::CollectiveMismatch {
        node: name(place),
        reason: format!(
            "collective #{place} of the communicator comes after {} collectives of another \
             communicator on rank {}, and after {} on rank {} (both ranks use both \
             communicators): ranks sharing communicators must issue the collectives of all of \
             them in one order, or the launches can wait for each other forever; add every \
             rank's collectives in the same order, across communicators too",
            first.1, first.0, second.1, second.0
        ),
    }
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
                    s.spawn(move || {
                        let name = |i| format!("node{i}_of_rank{rank}");
                        check(&seq, &[], Intent::Check, &name, &exchange)
                    })
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

    /// A communicator of the graphs of [`run_graphs`]: its key, and its ranks (the test's rank
    /// numbers, in the order of their ranks in it).
    struct Comm {
        key: u64,
        ranks: Vec<usize>,
    }

    /// Runs [`check_graph`] on one thread per rank, rank `r`'s graph being `graphs[r]` (each
    /// collective with its communicator, an index into `comms`), with `intents[r]`; returns
    /// each rank's outcome. Panics when the ranks have not all returned within 20 seconds:
    /// they hang, each waiting in an exchange its peers are not in.
    fn run_graphs(
        comms: &[Comm],
        graphs: Vec<Vec<(usize, Collective)>>,
        intents: Vec<Intent>,
    ) -> Vec<Result<()>> {
        let shared: Vec<_> = comms
            .iter()
            .map(|c| {
                let n = c.ranks.len();
                Arc::new((Barrier::new(n), Mutex::new(vec![Vec::new(); n])))
            })
            .collect();
        let (done, outcomes) = std::sync::mpsc::channel();
        let ranks = graphs.len();
        for ((me, graph), intent) in graphs.into_iter().enumerate().zip(intents) {
            // This rank's communicators, as the graph's table lists them: in the order of their
            // first use.
            let mut mine: Vec<usize> = Vec::new();
            for &(c, _) in &graph {
                assert!(comms[c].ranks.contains(&me), "rank {me} is not of {c}");
                if !mine.contains(&c) {
                    mine.push(c);
                }
            }
            let exchanges: Vec<(u64, Threads)> = mine
                .iter()
                .map(|&c| {
                    let exchange = Threads {
                        rank: comms[c].ranks.iter().position(|&r| r == me).unwrap(),
                        shared: shared[c].clone(),
                        rounds: Arc::new(Mutex::new(0)),
                    };
                    (comms[c].key, exchange)
                })
                .collect();
            let steps: Vec<Step> = graph
                .iter()
                .enumerate()
                .map(|(node, &(c, what))| Step {
                    comm: mine.iter().position(|&m| m == c).expect("a rank of it"),
                    node,
                    what,
                })
                .collect();
            let done = done.clone();
            std::thread::spawn(move || {
                let comms: Vec<(u64, &dyn Exchange)> = exchanges
                    .iter()
                    .map(|(key, e)| (*key, e as &dyn Exchange))
                    .collect();
                let name = |i| format!("node{i}_of_rank{me}");
                let outcome = check_graph(&comms, &steps, &|_| true, intent, &name);
                done.send((me, outcome)).unwrap();
            });
        }
        let mut all: Vec<Option<Result<()>>> = (0..ranks).map(|_| None).collect();
        for _ in 0..ranks {
            let (rank, outcome) = outcomes
                .recv_timeout(std::time::Duration::from_secs(20))
                .unwrap_or_else(|_| panic!("the ranks hang in the order check: {all:?}"));
            all[rank] = Some(outcome);
        }
        all.into_iter().map(Option::unwrap).collect()
    }

    #[test]
    fn communicators_are_checked_in_one_order_whatever_the_order_of_first_use() {
        // Three ranks, three communicators of two ranks each, each rank using its two first in
        // another order: checked in the order of first use, rank 0 would wait in p for rank 1,
        // rank 1 in q for rank 2 and rank 2 in r for rank 0, forever. No two ranks share two
        // communicators, so the graphs' order across communicators is not compared (a cycle
        // through three is not found: see the module docs), and the check passes.
        let comms = [
            Comm {
                key: 30,
                ranks: vec![0, 1],
            },
            Comm {
                key: 10,
                ranks: vec![1, 2],
            },
            Comm {
                key: 20,
                ranks: vec![2, 0],
            },
        ];
        let (p, q, r) = (0, 1, 2);
        let outcomes = run_graphs(
            &comms,
            vec![
                vec![(p, ar(1)), (r, ag(2))],
                vec![(q, ar(3)), (p, ar(1))],
                vec![(r, ag(2)), (q, ar(3))],
            ],
            vec![Intent::Check; 3],
        );
        assert!(outcomes.iter().all(Result::is_ok), "{outcomes:?}");
    }

    #[test]
    fn two_ranks_issuing_two_communicators_collectives_in_other_orders_are_refused() {
        // Rank 0 all-reduces on p then on q, rank 1 on q then on p: each communicator's
        // sequence agrees, but launched, each rank would wait in the collective its peer has not
        // reached.
        let comms = [
            Comm {
                key: 1 << 40,
                ranks: vec![0, 1],
            },
            Comm {
                key: 7,
                ranks: vec![0, 1],
            },
        ];
        let (p, q) = (0, 1);
        let outcomes = run_graphs(
            &comms,
            vec![vec![(p, ar(8)), (q, ar(8))], vec![(q, ar(8)), (p, ar(8))]],
            vec![Intent::Check; 2],
        );
        // The first refusal is q's (the smaller key, exchanged first): its collective comes
        // after p's on rank 0, before it on rank 1.
        let (node, why) = reason(&outcomes[0]);
        assert_eq!(node, "node1_of_rank0");
        assert!(
            why.contains(
                "collective #0 of the communicator comes after 1 collectives of another \
                 communicator on rank 0, and after 0 on rank 1"
            ),
            "{why}"
        );
        let (node, why) = reason(&outcomes[1]);
        assert_eq!(node, "node0_of_rank1");
        assert!(
            why.contains(
                "collective #0 of the communicator comes after 0 collectives of another \
                 communicator on rank 1, and after 1 on rank 0"
            ),
            "{why}"
        );
        // The same collectives in the same order on both ranks pass.
        let outcomes = run_graphs(
            &comms,
            vec![vec![(p, ar(8)), (q, ar(8))], vec![(p, ar(8)), (q, ar(8))]],
            vec![Intent::Check; 2],
        );
        assert!(outcomes.iter().all(Result::is_ok), "{outcomes:?}");
    }

    #[test]
    fn a_refusal_on_one_communicator_leaves_the_exchanges_over_the_others_to_run() {
        // Ranks 0 and 1 disagree on p (exchanged first); ranks 1 and 2 agree on q, where rank 2
        // waits for rank 1, which must come after its refusal on p.
        let comms = [
            Comm {
                key: 1,
                ranks: vec![0, 1],
            },
            Comm {
                key: 2,
                ranks: vec![1, 2],
            },
        ];
        let (p, q) = (0, 1);
        let outcomes = run_graphs(
            &comms,
            vec![
                vec![(p, ar(4))],
                vec![(p, ag(4)), (q, ar(2))],
                vec![(q, ar(2))],
            ],
            vec![Intent::Check; 3],
        );
        assert_eq!(reason(&outcomes[0]).0, "node0_of_rank0");
        assert_eq!(reason(&outcomes[1]).0, "node0_of_rank1");
        assert!(outcomes[2].is_ok(), "{:?}", outcomes[2]);
    }

    #[test]
    fn the_order_across_communicators_is_compared_between_ranks_using_both_only() {
        // On c (ranks 0, 1, 2): ranks 0 and 1 also use d, in other orders; rank 2 uses e. Every
        // rank of c refuses, rank 2 too (it sees the disagreement in the exchange over c).
        let comms = [
            Comm {
                key: 5,
                ranks: vec![0, 1, 2],
            },
            Comm {
                key: 6,
                ranks: vec![0, 1],
            },
            Comm {
                key: 4,
                ranks: vec![2],
            },
        ];
        let (c, d, e) = (0, 1, 2);
        let outcomes = run_graphs(
            &comms,
            vec![
                vec![(c, ar(1)), (d, ar(1)), (c, ar(2))],
                vec![(c, ar(1)), (c, ar(2)), (d, ar(1))],
                vec![(e, ar(9)), (c, ar(1)), (c, ar(2))],
            ],
            vec![Intent::Check; 3],
        );
        assert!(outcomes.iter().all(Result::is_err), "{outcomes:?}");
        assert_eq!(reason(&outcomes[2]).0, "node2_of_rank2", "c's second");
        // Rank 2's own order among e's collectives is nobody else's concern; nor are ranks 0
        // and 1 issuing d's collective where rank 2 issues none.
        let outcomes = run_graphs(
            &comms,
            vec![
                vec![(c, ar(1)), (d, ar(1)), (c, ar(2))],
                vec![(c, ar(1)), (d, ar(1)), (c, ar(2))],
                vec![(c, ar(1)), (c, ar(2)), (e, ar(9))],
            ],
            vec![Intent::Check; 3],
        );
        assert!(outcomes.iter().all(Result::is_ok), "{outcomes:?}");
    }

    /// Runs [`check`] on one thread per rank, rank `r` with `sequences[r]` and `intents[r]`.
    fn run_intents(sequences: Vec<Vec<Collective>>, intents: Vec<Intent>) -> Vec<Result<()>> {
        let comms = [Comm {
            key: 1,
            ranks: (0..sequences.len()).collect(),
        }];
        let graphs = sequences
            .into_iter()
            .map(|seq| seq.into_iter().map(|c| (0, c)).collect())
            .collect();
        run_graphs(&comms, graphs, intents)
    }

    #[test]
    fn every_rank_instantiates_a_graph_over_symmetric_buffers_or_none_does() {
        let at = |offset: u64| ar(16).placed([(1 << 48) | offset, (1 << 48) | offset]);
        let ready = Intent::Instantiate { ready: true };
        let failed = Intent::Instantiate { ready: false };
        // The same collectives, every rank ready: agreed.
        let outcomes = run_intents(vec![vec![at(0)], vec![at(0)]], vec![ready; 2]);
        assert!(outcomes.iter().all(Result::is_ok), "{outcomes:?}");
        // Graphs checked apart, instantiated at other offsets: refused on both.
        let outcomes = run_intents(vec![vec![at(0)], vec![at(64)]], vec![ready; 2]);
        assert!(reason(&outcomes[0])
            .1
            .contains("byte 64 of symmetric buffer #1"));
        assert!(reason(&outcomes[1])
            .1
            .contains("byte 0 of symmetric buffer #1"));
        // Rank 1 could not instantiate (its claim was refused, say): rank 0 refuses too.
        let outcomes = run_intents(
            vec![vec![ar(4), at(0)], vec![ar(4), at(0)]],
            vec![ready, failed],
        );
        for (rank, outcome) in outcomes.iter().enumerate() {
            match outcome {
                Err(Error::Invalid { node, reason }) => {
                    assert_eq!(node, &format!("node1_of_rank{rank}"), "the symmetric one");
                    assert!(
                        reason.contains("rank 1 of the communicator could not instantiate"),
                        "{reason}"
                    );
                }
                other => panic!("rank {rank}: expected a refusal, got {other:?}"),
            }
        }
        // One rank checks where the other instantiates: refused on both.
        let outcomes = run_intents(vec![vec![at(0)], vec![at(0)]], vec![Intent::Check, ready]);
        for outcome in &outcomes {
            let (_, why) = reason(outcome);
            assert!(
                why.contains("rank 0 checks its graph's collectives where rank 1 instantiates"),
                "{why}"
            );
        }
    }

    #[test]
    fn one_rank_needs_no_exchange() {
        let (outcomes, rounds) = run(vec![vec![ar(1)]]);
        assert!(outcomes[0].is_ok());
        assert_eq!(rounds, 0);
    }
}
