//! The order a declaration's edges make: the canonical order nodes are added in, reachability
//! (all edges, and the edges that order memory), paths and cycles.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use crate::parse::EdgeKind;
use crate::reach::Reach;

use super::*;

impl<'a> Model<'a> {
    /// The edges that order memory, as [`Model::resolved_edges`]: every plain edge, and an
    /// edge with data (programmatic, launch-order) only into a kernel that waits for it.
    pub fn ordering_edges(&self) -> Vec<(usize, usize)> {
        self.resolved_edges()
            .into_iter()
            .filter(|&(from, to)| self.edge_kind(from, to) == EdgeKind::Plain || self.waits(to))
            .collect()
    }

    /// Whether the edge `from -> to` (node indices), added to the declaration, keeps it legal:
    /// two different nodes of one scope (an edge cannot cross a conditional body), not an edge
    /// already, and no cycle (`reach` from [`Model::reachability`]). Every edge a message
    /// suggests is checked with this first.
    pub fn edge_legal(&self, from: usize, to: usize, reach: &Reach) -> bool {
        from != to
            && self.scopes[from] == self.scopes[to]
            && !self.edge_set.contains(&(from, to))
            && !reach.get(to, from)
    }

    /// A shortest path of edges from node `from` to node `to`, as the nodes on it, both ends
    /// included (for messages that must say which edges order two nodes).
    pub fn path(&self, from: usize, to: usize) -> Option<Vec<usize>> {
        let n = self.nodes.len();
        let mut out: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (a, b) in self.resolved_edges() {
            out[a].push(b);
        }
        let mut parent: Vec<Option<usize>> = vec![None; n];
        let mut queue = VecDeque::from([from]);
        let mut seen = vec![false; n];
        seen[from] = true;
        while let Some(v) = queue.pop_front() {
            if v == to {
                let mut path = vec![to];
                let mut at = to;
                while let Some(p) = parent[at] {
                    path.push(p);
                    at = p;
                }
                path.reverse();
                return Some(path);
            }
            for &w in &out[v] {
                if !seen[w] {
                    seen[w] = true;
                    parent[w] = Some(v);
                    queue.push_back(w);
                }
            }
        }
        None
    }

    /// `a -> b -> c`: a path as the declaration writes it.
    pub fn path_text(&self, path: &[usize]) -> String {
        let names: Vec<&str> = path
            .iter()
            .map(|&i| self.nodes[i].written.as_str())
            .collect();
        names.join(" -> ")
    }

    /// The order the generated code adds nodes in; `None` if the graph has a cycle.
    pub fn canonical_order(&self) -> Option<Vec<usize>> {
        topological_order(self.nodes.len(), &self.resolved_edges()).ok()
    }
}

impl Model<'_> {
    /// Whether each node can be reached from each other by edges (node indices; computed once,
    /// kept: several rules read it).
    pub fn reachability(&self) -> &Reach {
        self.reach
            .get_or_init(|| self.reachability_by(&self.resolved_edges()))
    }

    /// [`Model::reachability`] by the edges that order memory ([`Model::ordering_edges`]): what
    /// the hazard rule asks (computed once; the same as `reachability` when every edge orders
    /// memory).
    pub fn memory_reachability(&self) -> &Reach {
        self.memory_reach
            .get_or_init(|| {
                let ordering = self.ordering_edges();
                (ordering.len() != self.edge_set.len()).then(|| self.reachability_by(&ordering))
            })
            .as_ref()
            .unwrap_or_else(|| self.reachability())
    }

    /// The hazard rule's findings (computed once, kept: the rule reports them, the expansion
    /// makes checks of what it leaves to the types and the values).
    pub fn hazards(&self) -> &super::hazards::Analysis {
        self.hazards.get_or_init(|| super::hazards::analyze(self))
    }

    fn reachability_by(&self, edges: &[(usize, usize)]) -> Reach {
        let n = self.nodes.len();
        let mut out: Vec<Vec<usize>> = vec![Vec::new(); n];
        for &(from, to) in edges {
            out[from].push(to);
        }
        let Some(order) = self.canonical_order() else {
            return Reach::new(n);
        };
        let reach = Reach::closure(n, &out, &order);
        if self.scopes.iter().all(Option::is_none) {
            return reach;
        }
        // Across conditional bodies: a body's node is ordered as its conditional node is, and
        // nodes that never run at the same time (in different bodies of one conditional node,
        // or a conditional node and its bodies' nodes) count as ordered, earlier declared first.
        let mut full = reach.clone();
        for a in 0..n {
            for b in 0..n {
                if a == b || self.scopes[a] == self.scopes[b] {
                    continue;
                }
                let value = match self.in_common_scope(a, b) {
                    Some((ra, rb)) => reach.get(ra, rb),
                    None => a < b,
                };
                full.set(a, b, value);
            }
        }
        full
    }
}

/// Kahn's algorithm with ties broken by declaration order: among the nodes whose dependencies
/// are all placed, the one declared first goes next. `Err` holds the nodes left unplaced (on or
/// behind a cycle).
pub fn topological_order(n: usize, edges: &[(usize, usize)]) -> Result<Vec<usize>, Vec<usize>> {
    let mut indegree = vec![0usize; n];
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &(from, to) in edges {
        indegree[to] += 1;
        out[from].push(to);
    }
    let mut ready: BinaryHeap<Reverse<usize>> =
        (0..n).filter(|&v| indegree[v] == 0).map(Reverse).collect();
    let mut order = Vec::with_capacity(n);
    while let Some(Reverse(v)) = ready.pop() {
        order.push(v);
        for &w in &out[v] {
            indegree[w] -= 1;
            if indegree[w] == 0 {
                ready.push(Reverse(w));
            }
        }
    }
    if order.len() == n {
        Ok(order)
    } else {
        Err((0..n).filter(|v| !order.contains(v)).collect())
    }
}

/// For every edge that lies on a cycle, by position in `edges`: a shortest cycle through it, as
/// the nodes visited, starting from the node declared first (the same text for every edge of a
/// simple cycle).
pub fn cycle_edges(n: usize, edges: &[(usize, usize)]) -> Vec<(usize, Vec<usize>)> {
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &(from, to) in edges {
        out[from].push(to);
    }
    let mut found = Vec::new();
    for (index, &(from, to)) in edges.iter().enumerate() {
        // Breadth-first from `to` back to `from`.
        let mut parent: Vec<Option<usize>> = vec![None; n];
        let mut seen = vec![false; n];
        let mut queue = VecDeque::from([to]);
        seen[to] = true;
        while let Some(v) = queue.pop_front() {
            if v == from {
                break;
            }
            for &w in &out[v] {
                if !seen[w] {
                    seen[w] = true;
                    parent[w] = Some(v);
                    queue.push_back(w);
                }
            }
        }
        if !seen[from] {
            continue;
        }
        let mut path = vec![from];
        let mut v = from;
        while v != to {
            match parent[v] {
                Some(p) => {
                    path.push(p);
                    v = p;
                }
                None => break,
            }
        }
        path.reverse(); // to ... from
        let mut cycle = vec![from];
        cycle.extend(path.into_iter().take_while(|&v| v != from));
        if let Some(start) = cycle
            .iter()
            .enumerate()
            .min_by_key(|(_, &v)| v)
            .map(|(i, _)| i)
        {
            cycle.rotate_left(start);
        }
        found.push((index, cycle));
    }
    found
}
