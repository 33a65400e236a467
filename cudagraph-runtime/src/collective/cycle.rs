//! The check that the ranks' collectives do not wait for each other in a cycle through several
//! communicators.
//!
//! NCCL asks that collectives on several communicators be "submitted in the same order across
//! ranks"
//! (<https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/usage/communicators.html#using-multiple-nccl-communicators-concurrently>):
//! a collective runs once every rank of its communicator has reached it, and each rank reaches
//! its collectives in its own order. `order` compares each communicator's sequence across its
//! ranks, and the order of two communicators between two ranks using both; that finds two ranks
//! waiting for each other, not a longer cycle. Three ranks, three communicators of two ranks each
//! (`p` of ranks 0 and 1, `q` of 1 and 2, `r` of 2 and 0), rank 0 issuing its collective on `p`
//! then the one on `r`, rank 1 `q` then `p`, rank 2 `r` then `q`: every communicator's ranks
//! agree, no two ranks share two communicators, and launched, rank 0 waits in `p` for rank 1,
//! which waits in `q` for rank 2, which waits in `r` for rank 0, forever. A ring of stages,
//! each sending to the next over a communicator per pair of stages before receiving from the
//! previous one, is such a cycle through as many communicators as stages: NCCL's sends may wait
//! for their receives (its point-to-point guide groups a ring's sends and receives for that
//! reason, <https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/usage/p2p.html>).
//!
//! So the ranks learn each other's orders. Every rank of a connected set of communicators
//! (ranks linked by the communicators they share) makes a **record** of its graph: a random
//! number naming it, its rank and the size of each of its communicators, and its collectives in
//! the order added (each with its communicator's key, the peers it waits for when it sends or
//! receives, and its node's name). In **rounds**, each rank all-gathers the records it knows
//! over each of its communicators (those not yet sent or received over that communicator), in
//! the order of their keys (which every rank shares, so the exchanges cannot wait for each other
//! in a cycle of their own): after `k` rounds a rank knows the records of every rank `k`
//! communicators away.
//!
//! When must the rounds end? Every rank of a communicator must make the same number, or a rank
//! waits in an exchange its peers skipped. A rank knows the whole connected set once every
//! communicator named in the records it holds has as many records naming it as it has ranks;
//! from there it knows the set's diameter `d`, the most communicators between two of its ranks,
//! after which every rank knows the whole set too. Each rank makes rounds until it knows the
//! whole set and `d` rounds are made, so every rank makes `d`: the same number, computed from
//! the same records. Ranks whose graphs use one communicator, with peers that use none other
//! (the common case), make no round: the summary of `order`'s exchange says whether some rank
//! of a communicator uses another.
//!
//! Every rank then holds the same records and finds the same cycle, if any: in the graph whose
//! vertices are the collectives (a communicator's key and the collective's place on it) and whose
//! edges lead from each collective of a rank to its next one, a cycle is a set of collectives
//! that each wait for another of the set. Sends and receives at one place wait only for their
//! peers, not for the communicator's other ranks (NCCL matches them between the two peers,
//! <https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/usage/p2p.html>): such a place
//! is a vertex per set of ranks linked by sending to each other, the set named by its lowest
//! rank. Every rank refuses, naming its own collective on the cycle (or its first, when it has
//! none there) and spelling the cycle out.

use std::collections::{BTreeMap, BTreeSet};

use super::op::{Collective as Issued, Op};
use super::order::Exchange;
use crate::error::{Error, Result};

/// One communicator of a rank's graph, taking part in the rounds.
pub(crate) struct Joined<'a> {
    /// Its key, the same on all its ranks.
    pub(crate) key: u64,
    /// The exchange over it.
    pub(crate) exchange: &'a dyn Exchange,
}

/// The peers of a step every rank of its communicator takes part in (see [`Record::steps`]).
const ALL: u64 = u64::MAX;

/// The ranks `what` sends to and receives from (the same one twice for a send or a receive
/// alone), or [`ALL`] for a collective of every rank.
fn peers(what: &Issued) -> [u64; 2] {
    match what.op {
        Op::Send { peer } | Op::Recv { peer } => [peer.into(); 2],
        Op::SendRecv { to, from } => [to.into(), from.into()],
        _ => [ALL; 2],
    }
}

/// The longest node name a record carries, in bytes (longer ones are cut at a character).
const NAME_BYTES: usize = 96;

/// One rank's part: what it tells its peers in the rounds (see the module docs).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Record {
    /// The random number naming it.
    nonce: u64,
    /// Its communicators: key, its rank there, and the number of ranks.
    comms: Vec<[u64; 3]>,
    /// Its collectives in the order added: the communicator's key, the ranks there it sends to
    /// and receives from ([`ALL`] for a collective of every rank), and the node's name.
    steps: Vec<(u64, [u64; 2], String)>,
}

impl Record {
    fn encode(&self, out: &mut Vec<u64>) {
        out.push(self.nonce);
        out.push(self.comms.len() as u64);
        out.extend(self.comms.iter().flatten());
        out.push(self.steps.len() as u64);
        for (key, peers, name) in &self.steps {
            out.push(*key);
            out.extend(peers);
            let bytes = name.as_bytes();
            out.push(bytes.len() as u64);
            out.extend(bytes.chunks(8).map(|chunk| {
                let mut word = [0u8; 8];
                word[..chunk.len()].copy_from_slice(chunk);
                u64::from_le_bytes(word)
            }));
        }
    }

    fn decode(words: &mut Words<'_>) -> Result<Self> {
        let nonce = words.next()?;
        let comms = (0..words.count()?)
            .map(|_| Ok([words.next()?, words.next()?, words.next()?]))
            .collect::<Result<_>>()?;
        let steps = (0..words.count()?)
            .map(|_| {
                let key = words.next()?;
                let peers = [words.next()?, words.next()?];
                let len = words.count()?;
                let bytes: Vec<u8> = words
                    .take(len.div_ceil(8))?
                    .iter()
                    .flat_map(|w| w.to_le_bytes())
                    .take(len)
                    .collect();
                Ok((key, peers, String::from_utf8_lossy(&bytes).into_owned()))
            })
            .collect::<Result<_>>()?;
        Ok(Self {
            nonce,
            comms,
            steps,
        })
    }

    /// Its rank in communicator `key`.
    fn rank_in(&self, key: u64) -> u64 {
        self.comms.iter().find(|c| c[0] == key).map_or(0, |c| c[1])
    }
}

/// Words received from a peer, read in order; running out is an error (a peer's words are the
/// crate's own encoding, so it means a rank of another version of it).
struct Words<'a>(std::slice::Iter<'a, u64>);

impl Words<'_> {
    fn next(&mut self) -> Result<u64> {
        self.0.next().copied().ok_or_else(malformed)
    }

    /// A count of what follows, which cannot exceed the words left.
    fn count(&mut self) -> Result<usize> {
        let n = self.next()?;
        usize::try_from(n)
            .ok()
            .filter(|&n| n <= self.0.len() * 8)
            .ok_or_else(malformed)
    }

    fn take(&mut self, n: usize) -> Result<&[u64]> {
        let rest = self.0.as_slice();
        if n > rest.len() {
            return Err(malformed());
        }
        self.0 = rest[n..].iter();
        Ok(&rest[..n])
    }
}

fn malformed() -> Error {
    Error::CollectiveMismatch {
        node: "<graph>".into(),
        reason: "a peer's part of the collective order check could not be read: every rank \
                 must run the same version of cudagraph"
            .into(),
    }
}

/// Checks, with this rank's peers over `comms` (the communicators of its graph taking part in
/// the rounds) that the collectives of every rank connected to it through them do not wait for
/// each other in a cycle (see the module docs). `steps` are this rank's collectives on `comms`
/// in the order added, each its communicator's key, its node and what it issues; `name(node)`
/// names a node.
pub(crate) fn check(
    comms: &[Joined<'_>],
    steps: &[(u64, usize, Issued)],
    name: &dyn Fn(usize) -> String,
) -> Result<()> {
    let mut comms: Vec<&Joined<'_>> = comms.iter().collect();
    comms.sort_by_key(|c| c.key);
    let mine = Record {
        nonce: super::connect::random_key(),
        comms: comms
            .iter()
            .map(|c| [c.key, c.exchange.rank() as u64, c.exchange.size() as u64])
            .collect(),
        steps: steps
            .iter()
            .map(|(key, node, what)| (*key, peers(what), cut(name(*node))))
            .collect(),
    };
    let me = mine.nonce;
    let mut known = BTreeMap::from([(me, mine)]);
    // The records each communicator's ranks all have: sent or received over it. A round sends
    // over each communicator only the others.
    let mut shared: Vec<BTreeSet<u64>> = vec![BTreeSet::new(); comms.len()];
    let mut rounds = 0;
    loop {
        match diameter(&known) {
            Some(d) if rounds >= d => break,
            // Every round brings a record not known before while the set is incomplete: more
            // rounds than records means a peer that never answers (it would have hung).
            None if rounds > known.len() => return Err(malformed()),
            _ => {}
        }
        rounds += 1;
        for (c, shared) in comms.iter().zip(&mut shared) {
            if c.exchange.size() == 1 {
                continue;
            }
            let new: Vec<&Record> = known
                .values()
                .filter(|r| !shared.contains(&r.nonce))
                .collect();
            let mut words = vec![new.len() as u64];
            for record in new {
                record.encode(&mut words);
            }
            let lengths = c.exchange.all_gather(&[words.len() as u64])?;
            let longest = lengths.iter().copied().max().unwrap_or(0) as usize;
            words.resize(longest, 0);
            let all = c.exchange.all_gather(&words)?;
            for (theirs, &len) in all.chunks(longest.max(1)).zip(&lengths) {
                let mut words = Words(theirs[..len as usize].iter());
                for _ in 0..words.count()? {
                    let record = Record::decode(&mut words)?;
                    shared.insert(record.nonce);
                    known.entry(record.nonce).or_insert(record);
                }
            }
        }
    }
    match find_cycle(&known) {
        Some(cycle) => Err(refusal(me, &known, &cycle)),
        None => Ok(()),
    }
}

/// `name`, cut to [`NAME_BYTES`] at a character.
fn cut(mut name: String) -> String {
    if name.len() > NAME_BYTES {
        let mut at = NAME_BYTES;
        while !name.is_char_boundary(at) {
            at -= 1;
        }
        name.truncate(at);
    }
    name
}

/// The most communicators between two ranks of the records `known`, when they are the whole
/// connected set (every communicator they name has a record per rank); `None` otherwise.
fn diameter(known: &BTreeMap<u64, Record>) -> Option<usize> {
    let records: Vec<&Record> = known.values().collect();
    let mut members: BTreeMap<u64, (u64, Vec<usize>)> = BTreeMap::new();
    for (i, r) in records.iter().enumerate() {
        for &[key, _, size] in &r.comms {
            members.entry(key).or_insert((size, Vec::new())).1.push(i);
        }
    }
    if members.values().any(|(size, of)| of.len() as u64 != *size) {
        return None;
    }
    let mut most = 0;
    for from in 0..records.len() {
        let mut distance = vec![usize::MAX; records.len()];
        distance[from] = 0;
        let mut queue = std::collections::VecDeque::from([from]);
        while let Some(at) = queue.pop_front() {
            for &[key, ..] in &records[at].comms {
                for &next in &members[&key].1 {
                    if distance[next] == usize::MAX {
                        distance[next] = distance[at] + 1;
                        queue.push_back(next);
                    }
                }
            }
        }
        most = most.max(distance.into_iter().max().unwrap_or(0));
    }
    Some(most)
}

/// A collective: its communicator's key, its place in the communicator's sequence, and the
/// lowest rank there of those taking part in it (see the module docs).
type Collective = (u64, usize, u64);

/// A step of a record: its communicator's key, its place there, and its peers.
type Placed = (u64, usize, [u64; 2]);

/// Who orders one collective before the next: a record's nonce and the place of the first of
/// the two in its steps.
type By = (u64, usize);

/// A cycle of `known`'s collectives, if any: its edges in order, each with who orders it (the
/// record of the smallest nonce, when several do).
fn find_cycle(known: &BTreeMap<u64, Record>) -> Option<Vec<By>> {
    // Each record's steps: communicator, place on it, and peers.
    let placed: Vec<(&Record, Vec<Placed>)> = known
        .values()
        .map(|record| {
            let mut count: BTreeMap<u64, usize> = BTreeMap::new();
            let steps = record
                .steps
                .iter()
                .map(|&(key, peers, _)| {
                    let place = count.entry(key).or_insert(0);
                    *place += 1;
                    (key, *place - 1, peers)
                })
                .collect();
            (record, steps)
        })
        .collect();
    // At each place, who waits for whom: a union-find of the ranks (and `ALL`) whose roots are
    // the lowest of their sets.
    let mut linked: BTreeMap<(u64, usize), BTreeMap<u64, u64>> = BTreeMap::new();
    for (record, steps) in &placed {
        for &(key, place, peers) in steps {
            let sets = linked.entry((key, place)).or_default();
            for peer in peers {
                let (a, b) = (root(sets, record.rank_in(key)), root(sets, peer));
                sets.insert(a.max(b), a.min(b));
            }
        }
    }
    let mut next: BTreeMap<Collective, BTreeMap<Collective, By>> = BTreeMap::new();
    for (record, steps) in &placed {
        let mut previous: Option<Collective> = None;
        for (at, &(key, place, _)) in steps.iter().enumerate() {
            let this = (
                key,
                place,
                root(&linked[&(key, place)], record.rank_in(key)),
            );
            if let Some(before) = previous {
                next.entry(before)
                    .or_default()
                    .entry(this)
                    .or_insert((record.nonce, at - 1));
            }
            next.entry(this).or_default();
            previous = Some(this);
        }
    }
    // A depth-first search; an edge back into the path closes a cycle.
    let mut done: BTreeSet<Collective> = BTreeSet::new();
    for &start in next.keys() {
        if done.contains(&start) {
            continue;
        }
        let mut path: Vec<(Collective, Vec<Collective>)> = Vec::new();
        let enter = |c: Collective| (c, next[&c].keys().rev().copied().collect::<Vec<_>>());
        path.push(enter(start));
        while let Some((at, todo)) = path.last_mut() {
            let at = *at;
            let Some(to) = todo.pop() else {
                done.insert(at);
                path.pop();
                continue;
            };
            if let Some(from) = path.iter().position(|(c, _)| *c == to) {
                let cycle: Vec<Collective> = path[from..].iter().map(|(c, _)| *c).collect();
                let edges = (0..cycle.len())
                    .map(|i| next[&cycle[i]][&cycle[(i + 1) % cycle.len()]])
                    .collect();
                return Some(edges);
            }
            if !done.contains(&to) {
                path.push(enter(to));
            }
        }
    }
    None
}

/// The root of `at`'s set in the union-find `sets` (each member's parent; a root has none, or
/// itself).
fn root(sets: &BTreeMap<u64, u64>, mut at: u64) -> u64 {
    while let Some(&up) = sets.get(&at).filter(|&&up| up != at) {
        at = up;
    }
    at
}

/// The refusal of the rank of record `me` for `cycle` (see [`find_cycle`]).
fn refusal(me: u64, known: &BTreeMap<u64, Record>, cycle: &[By]) -> Error {
    // Consecutive edges ordered by one rank are one wait: it issues the first before the last.
    // The first edge of the cycle starts such a run once the cycle is turned to begin after an
    // edge of another rank (a rank's own order has no cycle, so there is one).
    let turn = (0..cycle.len())
        .find(|&i| cycle[(i + cycle.len() - 1) % cycle.len()].0 != cycle[i].0)
        .unwrap_or(0);
    let mut waits: Vec<(u64, usize, usize)> = Vec::new();
    for i in 0..cycle.len() {
        let (nonce, at) = cycle[(turn + i) % cycle.len()];
        match waits.last_mut() {
            Some((of, _, last)) if *of == nonce && *last == at => *last = at + 1,
            _ => waits.push((nonce, at, at + 1)),
        }
    }
    if let Some(mine) = waits.iter().position(|w| w.0 == me) {
        waits.rotate_left(mine);
    }
    let told: Vec<String> = waits
        .iter()
        .map(|&(nonce, first, last)| {
            let record = &known[&nonce];
            let (key, _, before) = &record.steps[first];
            let after = &record.steps[last].2;
            if nonce == me {
                format!("this rank issues `{before}` before `{after}`")
            } else {
                format!(
                    "rank {} of the communicator of `{before}` issues `{before}` before `{after}`",
                    record.rank_in(*key)
                )
            }
        })
        .collect();
    let record = &known[&me];
    let node = match waits.first() {
        Some(&(nonce, first, _)) if nonce == me => record.steps[first].2.clone(),
        _ => record
            .steps
            .first()
            .map_or_else(|| "<graph>".into(), |s| s.2.clone()),
    };
    Error::CollectiveMismatch {
        node,
        reason: format!(
            "the ranks' collectives wait for each other in a cycle through {} communicators: {}; \
             each rank waits in the first of its two for a rank that issues it only after the \
             second, so the launches would hang. NCCL asks that collectives on several \
             communicators be issued in one order on every rank (\"Using multiple NCCL \
             communicators concurrently\"): add every rank's collectives in an order all ranks \
             share, for instance one communicator's after another's in an order of the \
             communicators that every rank follows",
            cycle
                .iter()
                .map(|&(nonce, at)| known[&nonce].steps[at].0)
                .collect::<BTreeSet<_>>()
                .len(),
            told.join("; ")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collective::order::tests::{ag, ar, reason, run_graphs, run_graphs_counted, Comm};
    use crate::collective::order::Intent;

    /// Asserts that every rank refuses its graphs as waiting in a cycle through
    /// `communicators` communicators.
    fn every_rank_refuses_a_cycle(outcomes: &[Result<()>], communicators: usize) {
        let cycle = format!("a cycle through {communicators} communicators");
        for outcome in outcomes {
            assert!(reason(outcome).1.contains(&cycle), "{outcome:?}");
        }
    }

    /// Communicators of two ranks each: `pairs[i]` of ranks `pairs[i].0` and `.1`, key `i + 1`.
    fn pairs(pairs: &[(usize, usize)]) -> Vec<Comm> {
        pairs
            .iter()
            .enumerate()
            .map(|(i, &(a, b))| Comm {
                key: i as u64 + 1,
                ranks: vec![a, b],
            })
            .collect()
    }

    #[test]
    fn a_cycle_through_three_communicators_is_refused_on_every_rank_and_spelled_out() {
        // p of ranks 0 and 1, q of 1 and 2, r of 2 and 0: 0 issues p then r, 1 q then p, 2 r
        // then q. Each communicator's ranks agree; no two ranks share two of them. The keys
        // order the communicators otherwise than any rank's first use: exchanging in the
        // order of first use, rank 0 would wait in p for rank 1, rank 1 in q for rank 2 and
        // rank 2 in r for rank 0, and the check itself would hang.
        let comms: Vec<Comm> = [(30, [0, 1]), (10, [1, 2]), (20, [2, 0])]
            .into_iter()
            .map(|(key, ranks)| Comm {
                key,
                ranks: ranks.to_vec(),
            })
            .collect();
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
        let (node, why) = reason(&outcomes[0]);
        assert_eq!(node, "node0_of_rank0", "the collective rank 0 waits in");
        assert!(
            why.starts_with(
                "the ranks' collectives wait for each other in a cycle through 3 communicators: \
                 this rank issues `node0_of_rank0` before `node1_of_rank0`; rank 0 of the \
                 communicator of `node0_of_rank2` issues `node0_of_rank2` before \
                 `node1_of_rank2`; rank 0 of the communicator of `node0_of_rank1` issues \
                 `node0_of_rank1` before `node1_of_rank1`; each rank waits"
            ),
            "{why}"
        );
        for (rank, outcome) in outcomes.iter().enumerate() {
            let (node, why) = reason(outcome);
            assert_eq!(node, format!("node0_of_rank{rank}"));
            assert!(
                why.contains(&format!(
                    "this rank issues `node0_of_rank{rank}` before `node1_of_rank{rank}`"
                )),
                "{why}"
            );
        }
        // The same communicators, every rank issuing p's collective, then q's, then r's where
        // it has them: one order all share, passed.
        let outcomes = run_graphs(
            &comms,
            vec![
                vec![(p, ar(1)), (r, ag(2))],
                vec![(p, ar(1)), (q, ar(3))],
                vec![(q, ar(3)), (r, ag(2))],
            ],
            vec![Intent::Check; 3],
        );
        assert!(outcomes.iter().all(Result::is_ok), "{outcomes:?}");
    }

    /// Stage `s` of `stages` sends to the next stage on the communicator of the pair, then
    /// receives from the previous one (the first stage only sends, the last only receives,
    /// unless `ring`, where the last sends to the first).
    fn pipeline(stages: usize, ring: bool) -> (Vec<Comm>, Vec<Vec<(usize, Issued)>>) {
        let links = if ring { stages } else { stages - 1 };
        let comms = pairs(
            &(0..links)
                .map(|s| (s, (s + 1) % stages))
                .collect::<Vec<_>>(),
        );
        let send = Issued::new::<f32>(Op::Send { peer: 1 }, 64);
        let recv = Issued::new::<f32>(Op::Recv { peer: 0 }, 64);
        let graphs = (0..stages)
            .map(|s| {
                let mut graph = Vec::new();
                if s < links {
                    graph.push((s, send));
                }
                if s > 0 || ring {
                    graph.push(((s + links - 1) % links, recv));
                }
                graph
            })
            .collect();
        (comms, graphs)
    }

    #[test]
    fn a_ring_of_six_stages_is_refused_and_a_line_of_them_passes_each_in_rounds_enough() {
        let (comms, graphs) = pipeline(6, true);
        let (outcomes, exchanges) = run_graphs_counted(&comms, graphs, vec![Intent::Check; 6]);
        for (stage, outcome) in outcomes.iter().enumerate() {
            let (node, why) = reason(outcome);
            assert_eq!(node, format!("node0_of_rank{stage}"), "its send");
            assert!(why.contains("a cycle through 6 communicators"), "{why}");
        }
        // Per communicator: the summary and the word-for-word comparison of sends and receives,
        // then three rounds (the ring's diameter: no rank is more than three pairs away) of
        // two all-gathers (lengths, records).
        assert_eq!(exchanges, vec![2 + 3 * 2; 6]);
        let (comms, graphs) = pipeline(6, false);
        let (outcomes, exchanges) = run_graphs_counted(&comms, graphs, vec![Intent::Check; 6]);
        assert!(outcomes.iter().all(Result::is_ok), "{outcomes:?}");
        // The line's diameter is five pairs.
        assert_eq!(exchanges, vec![2 + 5 * 2; 5]);
    }

    #[test]
    fn a_rank_off_the_cycle_refuses_too_naming_its_first_collective() {
        // The cycle of three, and rank 3 sharing s with rank 0 only.
        let comms = pairs(&[(0, 1), (1, 2), (2, 0), (0, 3)]);
        let (p, q, r, s) = (0, 1, 2, 3);
        let outcomes = run_graphs(
            &comms,
            vec![
                vec![(s, ar(5)), (p, ar(1)), (r, ag(2))],
                vec![(q, ar(3)), (p, ar(1))],
                vec![(r, ag(2)), (q, ar(3))],
                vec![(s, ar(5))],
            ],
            vec![Intent::Check; 4],
        );
        let (node, why) = reason(&outcomes[3]);
        assert_eq!(node, "node0_of_rank3");
        assert!(why.contains("a cycle through 3 communicators"), "{why}");
        assert!(!why.contains("this rank"), "{why}");
        assert_eq!(
            reason(&outcomes[0]).0,
            "node1_of_rank0",
            "its collective on p"
        );
    }

    #[test]
    fn graphs_of_one_communicator_make_no_round_and_a_mesh_makes_two() {
        // One communicator of three ranks: its summary alone.
        let comms = [Comm {
            key: 9,
            ranks: vec![0, 1, 2],
        }];
        let graphs = vec![vec![(0, ar(4)), (0, ag(4))]; 3];
        let (outcomes, exchanges) = run_graphs_counted(&comms, graphs, vec![Intent::Check; 3]);
        assert!(outcomes.iter().all(Result::is_ok), "{outcomes:?}");
        assert_eq!(exchanges, vec![1]);
        // Two by two: tensor-parallel pairs {0, 1} and {2, 3}, data-parallel pairs {0, 2} and
        // {1, 3}; every rank all-reduces on its tensor pair, then on its data pair. No cycle;
        // every rank is at most two communicators from every other.
        let comms = pairs(&[(0, 1), (2, 3), (0, 2), (1, 3)]);
        let graphs = vec![
            vec![(0, ar(8)), (2, ar(8))],
            vec![(0, ar(8)), (3, ar(8))],
            vec![(1, ar(8)), (2, ar(8))],
            vec![(1, ar(8)), (3, ar(8))],
        ];
        let (outcomes, exchanges) = run_graphs_counted(&comms, graphs, vec![Intent::Check; 4]);
        assert!(outcomes.iter().all(Result::is_ok), "{outcomes:?}");
        // The summary, the whole sequences (the pairs' other communicators differ, so their
        // summaries do), and two rounds.
        assert_eq!(exchanges, vec![2 + 2 * 2; 4]);
        // Rank 3 alone all-reducing on its data pair first: 1 meets 0 first, then 3. No cycle.
        let graphs = vec![
            vec![(0, ar(8)), (2, ar(8))],
            vec![(0, ar(8)), (3, ar(8))],
            vec![(1, ar(8)), (2, ar(8))],
            vec![(3, ar(8)), (1, ar(8))],
        ];
        let outcomes = run_graphs(&comms, graphs, vec![Intent::Check; 4]);
        assert!(outcomes.iter().all(Result::is_ok), "{outcomes:?}");
        // Ranks 0 and 3 all-reducing on their data pairs first: 0 waits in {0, 2} for 2, which
        // waits in {2, 3} for 3, which waits in {1, 3} for 1, which waits in {0, 1} for 0.
        let graphs = vec![
            vec![(2, ar(8)), (0, ar(8))],
            vec![(0, ar(8)), (3, ar(8))],
            vec![(1, ar(8)), (2, ar(8))],
            vec![(3, ar(8)), (1, ar(8))],
        ];
        let outcomes = run_graphs(&comms, graphs, vec![Intent::Check; 4]);
        every_rank_refuses_a_cycle(&outcomes, 4);
    }

    #[test]
    fn a_communicator_whose_ranks_exchange_for_other_reasons_stays_out_of_the_rounds() {
        // x of ranks 0 and 1, y of 1 and 2. Rank 0 agrees on an instantiation where rank 1
        // checks: x is refused on both, and takes no part in the rounds (rank 0 makes none);
        // rank 1 uses y besides x, so y's ranks make their rounds over y alone, and end.
        let comms = pairs(&[(0, 1), (1, 2)]);
        let (x, y) = (0, 1);
        let (outcomes, exchanges) = run_graphs_counted(
            &comms,
            vec![
                vec![(x, ar(4))],
                vec![(x, ar(4)), (y, ar(4))],
                vec![(y, ar(4))],
            ],
            vec![
                Intent::Instantiate { ready: true },
                Intent::Check,
                Intent::Check,
            ],
        );
        assert!(reason(&outcomes[0]).1.contains("rank 1 checks"));
        assert!(reason(&outcomes[1]).1.contains("rank 1 checks"));
        assert!(outcomes[2].is_ok(), "{:?}", outcomes[2]);
        // x: its summary alone. y: its summary, the whole sequences (rank 1 uses another
        // communicator, rank 2 none, so their summaries differ), and one round of two
        // all-gathers.
        assert_eq!(exchanges, vec![1, 2 + 2]);
    }

    /// Whether the ranks' `orders` (each a sequence of communicators, one collective on each)
    /// wait in a cycle: Kahn's algorithm over the communicators, an edge from each to the next
    /// of every rank.
    fn waits_in_a_cycle(comms: usize, orders: &[Vec<usize>]) -> bool {
        let mut after = vec![Vec::new(); comms];
        let mut before = vec![0; comms];
        for order in orders {
            for pair in order.windows(2) {
                after[pair[0]].push(pair[1]);
                before[pair[1]] += 1;
            }
        }
        let mut ready: Vec<usize> = (0..comms).filter(|&c| before[c] == 0).collect();
        let mut done = 0;
        while let Some(c) = ready.pop() {
            done += 1;
            for &next in &after[c] {
                before[next] -= 1;
                if before[next] == 0 {
                    ready.push(next);
                }
            }
        }
        done < comms
    }

    #[test]
    fn random_communicators_and_orders_are_refused_exactly_when_they_wait_in_a_cycle() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: usize| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % n as u64) as usize
        };
        let (mut cycles, mut passes) = (0, 0);
        for _ in 0..60 {
            // A ring of pairs (so that every rank is connected), then a few random groups of two
            // or three ranks.
            let ranks = 3 + next(5);
            let mut groups: Vec<Vec<usize>> =
                (0..ranks).map(|r| vec![r, (r + 1) % ranks]).collect();
            for _ in 0..next(4) {
                let a = next(ranks);
                let b = (a + 1 + next(ranks - 1)) % ranks;
                let mut group = vec![a, b];
                let c = next(ranks);
                if next(2) == 0 && !group.contains(&c) {
                    group.push(c);
                }
                groups.push(group);
            }
            let comms: Vec<Comm> = groups
                .iter()
                .enumerate()
                .map(|(i, g)| Comm {
                    // Keys in no order of the groups'.
                    key: (i as u64 * 0x9e37_79b9) % 1009,
                    ranks: g.clone(),
                })
                .collect();
            // Each rank issues one collective on each of its communicators, in an order of its
            // own: mostly by index (no cycle), sometimes shuffled.
            let orders: Vec<Vec<usize>> = (0..ranks)
                .map(|r| {
                    let mut mine: Vec<usize> = (0..groups.len())
                        .filter(|&c| groups[c].contains(&r))
                        .collect();
                    if next(3) == 0 {
                        for i in (1..mine.len()).rev() {
                            mine.swap(i, next(i + 1));
                        }
                    }
                    mine
                })
                .collect();
            let graphs = orders
                .iter()
                .map(|order| order.iter().map(|&c| (c, ar(c + 1))).collect())
                .collect();
            let outcomes = run_graphs(&comms, graphs, vec![Intent::Check; ranks]);
            if waits_in_a_cycle(groups.len(), &orders) {
                cycles += 1;
                // Two ranks sharing two communicators in other orders are refused by `order`'s
                // comparison, the others by the search for a cycle: every rank refuses.
                for outcome in &outcomes {
                    assert!(
                        matches!(outcome, Err(Error::CollectiveMismatch { .. })),
                        "{groups:?} {orders:?}: {outcome:?}"
                    );
                }
            } else {
                passes += 1;
                assert!(
                    outcomes.iter().all(Result::is_ok),
                    "{groups:?} {orders:?}: {outcomes:?}"
                );
            }
        }
        assert!(cycles > 5 && passes > 5, "{cycles} cycles, {passes} passes");
    }

    #[test]
    fn sends_and_receives_of_other_pairs_at_one_place_do_not_wait_for_each_other() {
        // x of ranks 0 to 3 carries two pairs' transfers at its first place: 0 sends to 1 and
        // 2 sends to 3, which wait only for each other (NCCL's point-to-point operations match
        // between the two peers). y of ranks 1 and 4, z of 4 and 2: rank 1 receives from 0 then
        // all-reduces on y, rank 4 all-reduces on y then on z, rank 2 all-reduces on z then
        // sends to 3. 0's send meets 1's receive, then y runs, then z, then 2's send meets 3's
        // receive: no rank waits forever.
        let comms: Vec<Comm> = [(1, vec![0, 1, 2, 3]), (2, vec![1, 4]), (3, vec![4, 2])]
            .into_iter()
            .map(|(key, ranks)| Comm { key, ranks })
            .collect();
        let (x, y, z) = (0, 1, 2);
        let p2p = |op| Issued::new::<f32>(op, 64);
        let graphs = vec![
            vec![(x, p2p(Op::Send { peer: 1 }))],
            vec![(x, p2p(Op::Recv { peer: 0 })), (y, ar(4))],
            vec![(z, ar(8)), (x, p2p(Op::Send { peer: 3 }))],
            vec![(x, p2p(Op::Recv { peer: 2 }))],
            vec![(y, ar(4)), (z, ar(8))],
        ];
        let outcomes = run_graphs(&comms, graphs, vec![Intent::Check; 5]);
        assert!(outcomes.iter().all(Result::is_ok), "{outcomes:?}");
        // Rank 3 receiving from 0 and rank 1 from 2 instead (0 sends to 3, 2 to 1): 1 waits in
        // its receive for 2, which waits in z for 4, which waits in y for 1.
        let graphs = vec![
            vec![(x, p2p(Op::Send { peer: 3 }))],
            vec![(x, p2p(Op::Recv { peer: 2 })), (y, ar(4))],
            vec![(z, ar(8)), (x, p2p(Op::Send { peer: 1 }))],
            vec![(x, p2p(Op::Recv { peer: 0 }))],
            vec![(y, ar(4)), (z, ar(8))],
        ];
        let outcomes = run_graphs(&comms, graphs, vec![Intent::Check; 5]);
        every_rank_refuses_a_cycle(&outcomes, 3);
    }

    #[test]
    fn a_communicator_of_one_rank_and_sequences_that_differ_neither_hang_nor_split_the_verdict() {
        // Rank 0 alone on s (a communicator of one rank), and the cycle of three: s makes no
        // exchange, the others their rounds, and every rank refuses.
        let mut comms = pairs(&[(0, 1), (1, 2), (2, 0)]);
        comms.push(Comm {
            key: 99,
            ranks: vec![0],
        });
        let (p, q, r, s) = (0, 1, 2, 3);
        let outcomes = run_graphs(
            &comms,
            vec![
                vec![(s, ar(2)), (p, ar(1)), (r, ag(2))],
                vec![(q, ar(3)), (p, ar(1))],
                vec![(r, ag(2)), (q, ar(3))],
            ],
            vec![Intent::Check; 3],
        );
        every_rank_refuses_a_cycle(&outcomes, 3);
        // Ranks 0 and 1 issuing different collectives on p (refused there), in one shared order
        // otherwise: the rounds still run, rank 2 passes, ranks 0 and 1 refuse p alone.
        let outcomes = run_graphs(
            &comms,
            vec![
                vec![(p, ar(1)), (p, ar(1)), (r, ag(2))],
                vec![(p, ar(1)), (q, ar(3))],
                vec![(q, ar(3)), (r, ag(2))],
            ],
            vec![Intent::Check; 3],
        );
        assert!(reason(&outcomes[0]).1.contains("collective #1"));
        assert!(reason(&outcomes[1]).1.contains("collective #1"));
        assert!(outcomes[2].is_ok(), "{:?}", outcomes[2]);
    }

    #[test]
    fn records_read_back_and_cut_or_garbled_words_are_errors_not_panics() {
        let record = Record {
            nonce: 7,
            comms: vec![[1, 0, 2], [5, 3, 4]],
            steps: vec![(1, [ALL; 2], "grads".into()), (5, [3, 0], "é".repeat(60))],
        };
        let mut words = Vec::new();
        record.encode(&mut words);
        let back = Record::decode(&mut Words(words.iter())).unwrap();
        assert_eq!(back, record);
        for len in 0..words.len() {
            assert!(Record::decode(&mut Words(words[..len].iter())).is_err());
        }
        // Words of any value: an error or a record, never a panic or a huge allocation.
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..20_000 {
            let garbled: Vec<u64> = (0..(x % 40) as usize)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    if x.is_multiple_of(3) {
                        x % 8
                    } else {
                        x
                    }
                })
                .collect();
            let _ = Record::decode(&mut Words(garbled.iter()));
        }
        assert_eq!(cut("é".repeat(60)).len(), NAME_BYTES);
    }
}
