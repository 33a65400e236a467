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
//! communicator that both use the other one. A longer cycle, through three communicators or
//! more, is found by `cycle`, after these exchanges.

use super::cycle::{self, Joined};
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
/// A check (not an agreement on an instantiation) then looks for a cycle through several
/// communicators (see `cycle`) where some rank's graph uses more than one.
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
    let mut joined = Vec::new();
    let mut linked = false;
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
        let mut seen = Seen::default();
        let checked = check(
            &sequence,
            &among,
            intent,
            &|i| name(nodes[i]),
            comms[at].1,
            &mut seen,
        );
        match checked {
            Ok(()) => {}
            Err(e @ (Error::CollectiveMismatch { .. } | Error::Invalid { .. })) => {
                refused.get_or_insert(e);
            }
            Err(e) => return Err(e),
        }
        if seen.all_check {
            joined.push(Joined {
                key: comms[at].0,
                exchange: comms[at].1,
            });
            linked |= seen.linked;
        }
    }
    // Every rank connected to this one through communicators whose ranks all check finds
    // `linked` alike: it is set by any rank of them using another (see `cycle`).
    if linked {
        let keys: Vec<u64> = joined.iter().map(|j| j.key).collect();
        let on_joined: Vec<(u64, usize, Collective)> = steps
            .iter()
            .filter(|s| keys.contains(&comms[s.comm].0))
            .map(|s| (comms[s.comm].0, s.node, s.what))
            .collect();
        match cycle::check(&joined, &on_joined, name) {
            Ok(()) => {}
            Err(e @ Error::CollectiveMismatch { .. }) => {
                refused.get_or_insert(e);
            }
            Err(e) => return Err(e),
        }
    }
    refused.map_or(Ok(()), Err)
}

/// What the summaries of one communicator's ranks told (see [`check`]).
#[derive(Debug, Default)]
pub(crate) struct Seen {
    /// Every rank exchanged to check its graph (not to agree on an instantiation): the
    /// communicator takes part in the search for a cycle.
    pub(crate) all_check: bool,
    /// Some rank's graph uses another communicator.
    pub(crate) linked: bool,
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
/// (see the module docs); `name(i)` names this rank's `i`th collective node. Tells in `seen`
/// what the ranks' summaries said, refused or not.
pub(crate) fn check(
    sequence: &[Collective],
    among: &[Among],
    intent: Intent,
    name: &dyn Fn(usize) -> String,
    exchange: &dyn Exchange,
    seen: &mut Seen,
) -> Result<()> {
    let size = exchange.size();
    if size == 1 {
        seen.all_check = intent == Intent::Check;
        seen.linked = !among.is_empty();
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
    seen.all_check = rows.iter().all(|r| r[3] == Intent::Check.word());
    seen.linked = rows.iter().any(|r| r[4] > 0);
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
pub(super) mod tests;
