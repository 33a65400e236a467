//! Chains, fan-out and fan-in with bracketed lists, nodes declared after the edges that use them,
//! and the canonical build order that results.
use cudagraph_runtime::cuda_graph;

cuda_graph! {
    pub(crate) graph Diamond {
        d -> e;
        a -> [b, c] -> d;
        [a, c] -> e;
        e: empty;
        d: empty;
        c: empty;
        b: empty;
        a: empty;
    }
}

fn main() {
    let t = Diamond::TOPOLOGY;
    let names: Vec<&str> = t.nodes.iter().map(|n| n.0).collect();
    // A topological order; among the ready nodes, the one declared first goes first.
    assert_eq!(names, ["a", "c", "b", "d", "e"]);
    // Each node's dependencies in declared order: `e` after `d`, `a`, `c`.
    assert_eq!(t.edges, &[(0, 1), (0, 2), (2, 3), (1, 3), (3, 4), (0, 4), (1, 4)]);
}
