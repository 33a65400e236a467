//! The order check's tests, and ranks as threads for the tests of `cycle` too.

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
                    check(
                        &seq,
                        &[],
                        Intent::Check,
                        &name,
                        &exchange,
                        &mut Seen::default(),
                    )
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let rounds = *rounds.lock().unwrap();
    (outcomes, rounds)
}

pub(crate) fn ar(count: usize) -> Collective {
    Collective::new::<f32>(Op::AllReduce(ReduceOp::Sum), count)
}
pub(crate) fn ag(count: usize) -> Collective {
    Collective::new::<f32>(Op::AllGather, count)
}

pub(crate) fn reason(r: &Result<()>) -> (String, String) {
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
pub(crate) struct Comm {
    pub(crate) key: u64,
    pub(crate) ranks: Vec<usize>,
}

/// Runs [`check_graph`] on one thread per rank, rank `r`'s graph being `graphs[r]` (each
/// collective with its communicator, an index into `comms`), with `intents[r]`; returns
/// each rank's outcome. Panics when the ranks have not all returned within 20 seconds:
/// they hang, each waiting in an exchange its peers are not in.
pub(crate) fn run_graphs(
    comms: &[Comm],
    graphs: Vec<Vec<(usize, Collective)>>,
    intents: Vec<Intent>,
) -> Vec<Result<()>> {
    run_graphs_counted(comms, graphs, intents).0
}

/// [`run_graphs`], also returning how many all-gathers each communicator made.
pub(crate) fn run_graphs_counted(
    comms: &[Comm],
    graphs: Vec<Vec<(usize, Collective)>>,
    intents: Vec<Intent>,
) -> (Vec<Result<()>>, Vec<usize>) {
    let shared: Vec<_> = comms
        .iter()
        .map(|c| {
            let n = c.ranks.len();
            Arc::new((Barrier::new(n), Mutex::new(vec![Vec::new(); n])))
        })
        .collect();
    let counters: Vec<Arc<Mutex<usize>>> = comms.iter().map(|_| Arc::default()).collect();
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
                    rounds: counters[c].clone(),
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
    let counts = counters.iter().map(|c| *c.lock().unwrap()).collect();
    (all.into_iter().map(Option::unwrap).collect(), counts)
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
