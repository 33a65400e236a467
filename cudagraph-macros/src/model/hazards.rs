//! The hazard analysis of a declaration (rule T14's findings): the races between unordered
//! nodes that the declaration shows, those the types decide (`typed`, `probes`), and those only
//! values show (`overlaps`, `children`). Computed once per model ([`Model::hazards`]); the rule
//! reports it (`check::hazards`) and the expansion generates the checks it leaves to types and
//! values (`expand::hazards`).

use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

use proc_macro2::Span;

use super::{pointer_arg, Access, Buffer, Mem, MemUse, Model, Opaque};
use crate::parse::{NodeDecl, NodeOp};

/// What one node does with one buffer: its accesses (one per naming), the first token naming
/// it, and whether it is certainly memory.
#[derive(Clone)]
pub struct NodeUse {
    pub accesses: Vec<Access>,
    pub span: Span,
    pub mem: Mem,
}

/// Two nodes no edge orders that use one buffer.
pub struct Race {
    pub a: usize,
    pub b: usize,
    pub buffer: Buffer,
    pub use_a: NodeUse,
    pub use_b: NodeUse,
}

/// A kernel argument naming a param whose type the macro cannot read: it must be memory, or a
/// plain (`Copy`) value, as its kernel parameter says.
pub struct ArgProbe {
    pub node: usize,
    pub param: usize,
    pub accesses: Vec<Access>,
    pub span: Span,
}

/// A kernel argument for a parameter whose type the macro cannot read (an alias, or a kernel
/// type behind one) that is not one of the forms whose memory is what they name
/// (`model::pointer_args`), in some iteration: the parameter must take a value, as the type
/// system says.
pub struct ValueArg {
    pub node: usize,
    pub arg: usize,
    pub access: Access,
    pub span: Span,
}

/// `.slice(range)` taken of param `param` in a kernel argument that may give memory: it must be
/// the runtime's own sub-range of a buffer, which the param's type says.
pub struct SliceArg {
    pub node: usize,
    pub arg: usize,
    pub param: usize,
    pub access: Access,
    /// The method's name.
    pub span: Span,
}

/// Two different params (or elements of an array param), one used by node `a`, the other by
/// node `b` (no edge orders them), one writing: whether they share memory is known when the
/// graph is built.
///
/// (The uses are shared with the node's own: a loop of iterations no edge orders has an
/// overlap per pair of them.)
pub struct Overlap {
    pub a: usize,
    pub buffer_a: Buffer,
    pub use_a: Rc<NodeUse>,
    pub b: usize,
    pub buffer_b: Buffer,
    pub use_b: Rc<NodeUse>,
}

/// The uses of one param by the instances of one declaration, with one access: one side of an
/// [`OverlapSweep`].
pub struct SweepSide {
    pub param: usize,
    /// Whether the uses name elements of an array param (else each the whole param, which is
    /// no array).
    pub element: bool,
    /// The use of the first (its accesses are every one's).
    pub use_: Rc<NodeUse>,
    /// Each use's node and element (0 for a whole param), by node.
    pub entries: Vec<(usize, usize)>,
}

/// Every pair of a use of one side and a use of the other by another node, no edge ordering
/// any of them (a loop of iterations no edge orders, each using its own elements of two array
/// params, `k(x[i], y[i])`), is an [`Overlap`]: they are checked together, in one sort of
/// their memories when the graph is built, by code that grows with the uses, not the pairs.
/// One side: every two uses of it by different nodes.
pub struct OverlapSweep {
    pub sides: Vec<SweepSide>,
}

/// A child node and a node no edge orders with it: the child graph's memory is checked against
/// the other node's when the graph is built.
pub struct ChildPair {
    pub child: usize,
    pub other: usize,
    /// The other node's uses of params (none when it is a child node too).
    pub uses: Vec<(Buffer, NodeUse)>,
    /// The params both nodes opted out for.
    pub exempt: Vec<usize>,
}

/// A node that may launch device graphs: a kernel node that passes params whose types the macro
/// cannot read (`worker: SharedDeviceGraph`) to kernel parameters that may be `DeviceGraph`s,
/// or a child node, whose graph's kernels may. What each launches is asked when the graph is
/// built: of the param's type (`__private::LaunchProbe`: nothing, for a type that is no device
/// graph's handle), or of the child's graph (no handles here).
pub struct Launcher {
    pub node: usize,
    /// The params (or elements) it passes there.
    pub handles: Vec<Buffer>,
    /// The params it opted out for (`#[unordered(param)]`): two graphs it launches may share
    /// them.
    pub exempt: Vec<usize>,
}

/// A launching node and a node that its launched graphs may run beside: one not ordered
/// before it (a fire-and-forget or sibling launch runs at the same time as the nodes after the
/// launching kernel too), or the launching node itself (the kernel may still run). The launched
/// graphs' memory is checked against the other node's when the graph is built.
pub struct LaunchPair {
    /// The launcher, by its index in [`Analysis::launchers`].
    pub launcher: usize,
    pub other: usize,
    /// The other node's uses of params (for the launching node itself, those that are not its
    /// handles).
    pub uses: Vec<(Buffer, NodeUse)>,
    /// The params both nodes opted out for (the launching node alone, for itself).
    pub exempt: Vec<usize>,
    /// The other node is a launcher too (by its index in [`Analysis::launchers`]) whose launched
    /// graphs are checked against this one's here (once per two launchers).
    pub other_launches: Option<usize>,
}

/// Everything the hazard rule finds in one declaration.
#[derive(Default)]
pub struct Analysis {
    /// Races the declaration shows (reported by `check::hazards`).
    pub races: Vec<Race>,
    /// Pairs involving a capture node without declared uses that cannot be checked at all.
    pub opaque: Vec<(usize, usize)>,
    /// Races the types decide: asserted by the generated code.
    pub typed: Vec<Race>,
    pub probes: Vec<ArgProbe>,
    /// Arguments asserted to be values, and sub-ranges asserted to be a buffer's.
    pub values: Vec<ValueArg>,
    pub slices: Vec<SliceArg>,
    /// Overlaps checked pair by pair, and those checked together ([`OverlapSweep`]).
    pub overlaps: Vec<Overlap>,
    pub sweeps: Vec<OverlapSweep>,
    pub children: Vec<ChildPair>,
    /// Nodes that may launch device graphs, and the nodes their graphs may run beside.
    pub launchers: Vec<Launcher>,
    pub launch_pairs: Vec<LaunchPair>,
    /// How many pairs of nodes that use memory no edge orders, when more than
    /// [`MAX_UNORDERED_PAIRS`]: the declaration is refused unjudged (`check::hazards`), and
    /// nothing else here is found.
    pub too_many_pairs: Option<usize>,
    /// How many pairs of a node that may launch device graphs and a node with memory beside
    /// what it launches, when more than [`MAX_LAUNCH_PAIRS`]: refused like `too_many_pairs`.
    pub too_many_launch_pairs: Option<usize>,
    /// How many [`Overlap`]s would be checked pair by pair, when more than
    /// [`MAX_OVERLAP_PAIRS`]: refused like `too_many_pairs`.
    pub too_many_overlaps: Option<usize>,
    /// The races already recorded in `races` and `typed`, by what makes them one to report
    /// ([`RaceKey`]): a loop whose iterations no edge orders makes the same race for every pair
    /// of them, and only the first is reported or asserted.
    seen: (BTreeSet<RaceKey>, BTreeSet<RaceKey>),
}

/// What makes two races one (see `check::hazards::race_key`): the declarations of the two nodes,
/// and the memory, a param or the declaration of an alloc node.
type RaceKey = (
    *const NodeDecl,
    *const NodeDecl,
    Result<usize, *const NodeDecl>,
);

/// The most pairs of memory-using nodes with no path between them that the hazard rule judges
/// (about 2,800 nodes that no edge orders, all using memory): each pair is a race to report or a
/// check of memory to generate, and the count grows with the square of the nodes. Past it, the
/// macro would take minutes and gigabytes; a declaration of 20,000 nodes in a chain has none.
pub const MAX_UNORDERED_PAIRS: usize = 4_000_000;

/// The most pairs of a node that may launch device graphs (a kernel given a `DeviceGraph`, a
/// child node) and a node with memory that what it launches may run beside ([`LaunchPair`]):
/// each is a check of its own in the code that `build` and `set_params` run, some 40 µs and
/// 6 KB of the macro's time and memory (800 launching kernels no edge orders made 640,000 pairs:
/// 26 s and 4 GB). One launching kernel beside 20,000 nodes makes 20,000.
pub const MAX_LAUNCH_PAIRS: usize = 50_000;

/// The most [`Overlap`]s checked pair by pair, each an entry of a table in the code that
/// `build`, `set_params` and the setters of the params run (some 30 bytes of generated code and
/// 3 µs of the macro's time each). Those of pairs of nodes no edge orders at all (every
/// iteration of a loop with every other, or with every node of another declaration) are checked
/// together ([`OverlapSweep`]) and not counted: 1,000 unordered kernels `k(x[i], y[i])` made
/// 1.5 million entries (5 s, 46 MB of code); an edge between some of them makes each pair an
/// entry again.
pub const MAX_OVERLAP_PAIRS: usize = 100_000;

/// What makes uses one side of an [`OverlapSweep`]: the node's declaration, the param, whether
/// the use names an element, and the accesses.
type SideKey<'s> = (*const NodeDecl, usize, bool, &'s [Access]);

/// One side of an [`Overlap`] as found: the node, the param (or element), the use.
type SideUse<'s> = (usize, Buffer, &'s Rc<NodeUse>);

/// The side of one use of a param.
fn side_key<'s>(model: &Model, (node, buffer, u): SideUse<'s>) -> SideKey<'s> {
    let (param, element) = match buffer {
        Buffer::Param(p, k) => (p, k.is_some()),
        Buffer::Alloc(_) => (usize::MAX, false),
    };
    (model.nodes[node].decl, param, element, &u.accesses)
}

/// Each node's uses, by buffer.
pub fn node_uses(model: &Model) -> Vec<BTreeMap<Buffer, NodeUse>> {
    let uses: Vec<Vec<MemUse>> = model.nodes.iter().map(|n| model.memory_uses(n)).collect();
    // A param is certainly memory when its type says so or some node takes it as memory only.
    let forced: BTreeSet<Buffer> = uses
        .iter()
        .flatten()
        .filter(|u| u.mem == Mem::Yes)
        .map(|u| u.buffer)
        .collect();
    uses.iter()
        .map(|node| {
            let mut by_buffer: BTreeMap<Buffer, NodeUse> = BTreeMap::new();
            for u in node {
                let mem = if forced.contains(&u.buffer) {
                    Mem::Yes
                } else {
                    Mem::Probe
                };
                by_buffer
                    .entry(u.buffer)
                    .or_insert_with(|| NodeUse {
                        accesses: Vec::new(),
                        span: u.span,
                        mem,
                    })
                    .accesses
                    .push(u.access);
            }
            by_buffer
        })
        .collect()
}

impl NodeUse {
    /// Whether it writes, if the declaration says (`None`: the types decide).
    pub fn known_write(&self) -> Option<bool> {
        let mut write = false;
        for a in &self.accesses {
            write |= a.known_write()?;
        }
        Some(write)
    }
}

/// The hazard rule's findings.
pub fn analyze(model: &Model) -> Analysis {
    let mut out = Analysis::default();
    let n = model.nodes.len();
    // Ordered for memory: an edge with data into a kernel that does not wait orders launches
    // only (see `check::programmatic`).
    let reach = model.memory_reachability();
    let uses = node_uses(model);
    let shared: Vec<BTreeMap<Buffer, Rc<NodeUse>>> = uses
        .iter()
        .map(|node| node.iter().map(|(b, u)| (*b, Rc::new(u.clone()))).collect())
        .collect();
    let opaque: Vec<Option<Opaque>> = model.nodes.iter().map(|n| model.opaque(n)).collect();
    // Refused before any pair is looked at when there are too many (see `MAX_UNORDERED_PAIRS`).
    let mut memory_nodes = vec![0u64; n.div_ceil(64)];
    for i in (0..n).filter(|&i| !uses[i].is_empty() || opaque[i].is_some()) {
        memory_nodes[i / 64] |= 1 << (i % 64);
    }
    let pairs: usize = (0..n)
        .filter(|&b| memory_nodes[b / 64] & (1 << (b % 64)) != 0)
        .map(|b| reach.count_unordered_before(b, &memory_nodes))
        .sum();
    if pairs > MAX_UNORDERED_PAIRS {
        out.too_many_pairs = Some(pairs);
        return out;
    }
    let opted: Vec<Vec<Buffer>> = model
        .nodes
        .iter()
        .map(|node| {
            model
                .unordered_buffers(node)
                .into_iter()
                .filter_map(|(_, b)| b)
                .collect()
        })
        .collect();
    // `#[unordered(w)]` names a whole param: every element of an array param.
    let opts = |node: usize, buffer: &Buffer| opted[node].iter().any(|o| o.same(*buffer));
    let both_opted = |a: usize, b: usize, buffer: &Buffer| opts(a, buffer) && opts(b, buffer);
    for (node, by_buffer) in uses.iter().enumerate() {
        // Every instance of a repeated node gives its arguments to the same kernel parameters:
        // the types are asked once.
        if !model.first_of_decl(node) {
            continue;
        }
        for (buffer, u) in by_buffer {
            if let (Buffer::Param(param, _), Mem::Probe) = (*buffer, u.mem) {
                out.probes.push(ArgProbe {
                    node,
                    param,
                    accesses: u.accesses.clone(),
                    span: u.span,
                });
            }
        }
    }
    pointer_args(model, &mut out);
    launches(model, &uses, &opted, &mut out);
    if out.too_many_launch_pairs.is_some() {
        return out;
    }
    // Only pairs of nodes that use memory can race (or be left to the values): the others are
    // skipped a word at a time (20,000 unordered empty nodes are 200 million pairs). Overlaps
    // are counted by their sides here, and made once it is known which are checked together.
    let mut counts: BTreeMap<(SideKey, SideKey), usize> = BTreeMap::new();
    let mut order = Vec::new();
    for b in (0..n).filter(|&b| memory_nodes[b / 64] & (1 << (b % 64)) != 0) {
        for a in reach.unordered_before_in(b, &memory_nodes) {
            match (opaque[a], opaque[b]) {
                (Some(Opaque::Capture), Some(_)) | (Some(_), Some(Opaque::Capture)) => {
                    out.opaque.push((a, b));
                    continue;
                }
                (Some(Opaque::Child), _) | (_, Some(Opaque::Child)) => {
                    let (child, other) = if opaque[a] == Some(Opaque::Child) {
                        (a, b)
                    } else {
                        (b, a)
                    };
                    let params: Vec<(Buffer, NodeUse)> = uses[other]
                        .iter()
                        .filter(|(buffer, _)| buffer.param().is_some())
                        .map(|(buffer, u)| (*buffer, u.clone()))
                        .collect();
                    if opaque[other] == Some(Opaque::Child) || !params.is_empty() {
                        let exempt = opted[child]
                            .iter()
                            .filter(|b| opted[other].contains(b))
                            .filter_map(|b| b.param())
                            .collect();
                        out.children.push(ChildPair {
                            child,
                            other,
                            uses: params,
                            exempt,
                        });
                    }
                    continue;
                }
                (Some(Opaque::Capture), None) | (None, Some(Opaque::Capture)) => {
                    // The capture may write any memory: every buffer param the other node
                    // uses is a race, as if the capture wrote it.
                    let (capture, other) = if opaque[a].is_some() { (a, b) } else { (b, a) };
                    for (buffer, u) in &uses[other] {
                        if matches!(buffer, Buffer::Alloc(_)) || both_opted(a, b, buffer) {
                            continue;
                        }
                        let all = NodeUse {
                            accesses: vec![Access::Write],
                            span: capture_span(model, capture),
                            mem: u.mem,
                        };
                        let (use_a, use_b) = if capture == a {
                            (all, u.clone())
                        } else {
                            (u.clone(), all)
                        };
                        push_race(model, &mut out, (a, b), *buffer, (&use_a, &use_b));
                    }
                    continue;
                }
                (None, None) => {}
            }
            for (bb, ub) in &uses[b] {
                for (ba, ua) in &uses[a] {
                    if !ba.same(*bb) || both_opted(a, b, bb) {
                        continue;
                    }
                    // The element, where one use names it and the other the whole array.
                    let buffer = if matches!(bb, Buffer::Param(_, None)) {
                        ba
                    } else {
                        bb
                    };
                    push_race(model, &mut out, (a, b), *buffer, (ua, ub));
                }
            }
            overlaps_of(&shared, &opts, (a, b), &mut |x, y| {
                let key = (side_key(model, x), side_key(model, y));
                let count = counts.entry(key).or_insert_with(|| {
                    order.push(key);
                    0
                });
                *count += 1;
            });
        }
    }
    sort_overlaps(
        model,
        reach,
        (&memory_nodes, &opaque),
        &shared,
        &opts,
        (counts, order),
        &mut out,
    );
    out
}

/// Calls `f` with each [`Overlap`] of nodes `a` and `b` (no edge orders them; neither opaque):
/// the node, param (or element) and use of each side.
fn overlaps_of<'s>(
    shared: &'s [BTreeMap<Buffer, Rc<NodeUse>>],
    opts: &dyn Fn(usize, &Buffer) -> bool,
    (a, b): (usize, usize),
    f: &mut dyn FnMut(SideUse<'s>, SideUse<'s>),
) {
    for (ba, ua) in &shared[a] {
        for (bb, ub) in &shared[b] {
            if ba.param().is_none() || bb.param().is_none() {
                // Allocations have addresses of their own: only params share memory.
                continue;
            }
            if ba.same(*bb) || (opts(a, ba) && opts(b, bb)) {
                continue;
            }
            if ua.known_write() == Some(false) && ub.known_write() == Some(false) {
                continue;
            }
            // Two params written as memory of different spaces are checked all the same: a
            // name may be an import of the other space's type (`use
            // cudagraph_runtime::HostBuffer as DeviceBuffer;`), and the check compares the
            // spaces of the values anyway.
            f((a, *ba, ua), (b, *bb, ub));
        }
    }
}

/// Decides how the overlaps counted by their sides (`counts`, in the order first found) are
/// checked: the pairs of two sides (or of one with itself) are checked together
/// ([`OverlapSweep`]) when they are every pair of uses of different nodes, no edge ordering any
/// (there are as many as that), and they are at least as many as the uses (the code grows with the uses); the others are
/// made pair by pair, in a second walk over the unordered pairs, up to [`MAX_OVERLAP_PAIRS`].
#[allow(clippy::type_complexity)]
fn sort_overlaps<'s>(
    model: &Model,
    reach: &crate::reach::Reach,
    (memory_nodes, opaque): (&[u64], &[Option<Opaque>]),
    shared: &'s [BTreeMap<Buffer, Rc<NodeUse>>],
    opts: &dyn Fn(usize, &Buffer) -> bool,
    (counts, order): (
        BTreeMap<(SideKey<'s>, SideKey<'s>), usize>,
        Vec<(SideKey<'s>, SideKey<'s>)>,
    ),
    out: &mut Analysis,
) {
    if counts.is_empty() {
        return;
    }
    // Every side's uses: node, element, use.
    let mut sides: BTreeMap<SideKey, Vec<(usize, usize, &Rc<NodeUse>)>> = BTreeMap::new();
    for (node, by_buffer) in shared.iter().enumerate() {
        for (buffer, u) in by_buffer {
            if let Buffer::Param(_, k) = *buffer {
                let key = side_key(model, (node, *buffer, u));
                sides
                    .entry(key)
                    .or_default()
                    .push((node, k.unwrap_or(0), u));
            }
        }
    }
    // Uses of different nodes, one per side: how many pairs (unordered, of one side).
    let all_pairs = |p: &[(usize, usize, &Rc<NodeUse>)], q: &[(usize, usize, &Rc<NodeUse>)]| {
        let mut per_node: BTreeMap<usize, (usize, usize)> = BTreeMap::new();
        for &(node, ..) in p {
            per_node.entry(node).or_default().0 += 1;
        }
        for &(node, ..) in q {
            per_node.entry(node).or_default().1 += 1;
        }
        let own: usize = per_node.values().map(|(x, y)| x * y).sum();
        p.len() * q.len() - own
    };
    // Each use is one memory: an element, or a param that is no array.
    let one_memory = |(_, param, element, _): SideKey| element || model.arrays[param].is_none();
    let mut table: BTreeSet<(SideKey, SideKey)> = BTreeSet::new();
    let mut in_table = 0;
    let mut done: BTreeSet<(SideKey, SideKey)> = BTreeSet::new();
    for key @ (x, y) in order {
        if !done.insert(key) {
            continue;
        }
        done.insert((y, x));
        let found = counts[&key]
            + if x == y {
                0
            } else {
                counts.get(&(y, x)).copied().unwrap_or(0)
            };
        let (p, q) = (&sides[&x], &sides[&y]);
        let every = if x == y {
            all_pairs(p, p) / 2
        } else {
            all_pairs(p, q)
        };
        let uses = if x == y { p.len() } else { p.len() + q.len() };
        if found == every && one_memory(x) && one_memory(y) && found >= uses {
            let side = |uses: &[(usize, usize, &Rc<NodeUse>)], (_, param, element, _): SideKey| {
                SweepSide {
                    param,
                    element,
                    use_: Rc::clone(uses[0].2),
                    entries: uses.iter().map(|&(node, k, _)| (node, k)).collect(),
                }
            };
            let mut swept = vec![side(p, x)];
            if x != y {
                swept.push(side(q, y));
            }
            out.sweeps.push(OverlapSweep { sides: swept });
        } else {
            table.insert(key);
            table.insert((y, x));
            in_table += found;
        }
    }
    if in_table > MAX_OVERLAP_PAIRS {
        out.too_many_overlaps = Some(in_table);
        return;
    }
    if table.is_empty() {
        return;
    }
    let n = model.nodes.len();
    for b in (0..n).filter(|&b| memory_nodes[b / 64] & (1 << (b % 64)) != 0) {
        for a in reach.unordered_before_in(b, memory_nodes) {
            if opaque[a].is_some() || opaque[b].is_some() {
                continue;
            }
            overlaps_of(shared, opts, (a, b), &mut |x, y| {
                if table.contains(&(side_key(model, x), side_key(model, y))) {
                    out.overlaps.push(Overlap {
                        a,
                        buffer_a: x.1,
                        use_a: Rc::clone(x.2),
                        b,
                        buffer_b: y.1,
                        use_b: Rc::clone(y.2),
                    });
                }
            });
        }
    }
}

/// The nodes that may launch device graphs ([`Launcher`]) and the nodes their launched graphs
/// may run beside ([`LaunchPair`]).
fn launches(
    model: &Model,
    uses: &[BTreeMap<Buffer, NodeUse>],
    opted: &[Vec<Buffer>],
    out: &mut Analysis,
) {
    let n = model.nodes.len();
    let reach = model.memory_reachability();
    let is_child = |node: usize| matches!(model.nodes[node].op, NodeOp::Child(_));
    for (node, by_buffer) in uses.iter().enumerate() {
        if is_child(node) {
            // What the kernels of its graph may launch, asked of the graph when built.
            out.launchers.push(Launcher {
                node,
                handles: Vec::new(),
                exempt: Vec::new(),
            });
            continue;
        }
        if !matches!(model.nodes[node].op, NodeOp::Kernel(_)) {
            continue;
        }
        let handles: Vec<Buffer> = by_buffer
            .iter()
            .filter(|(buffer, u)| {
                buffer.param().is_some()
                    && u.mem == Mem::Probe
                    && u.accesses.iter().any(|a| matches!(a, Access::Slot { .. }))
            })
            .map(|(buffer, _)| *buffer)
            .collect();
        if !handles.is_empty() {
            let exempt = opted[node].iter().filter_map(|b| b.param()).collect();
            out.launchers.push(Launcher {
                node,
                handles,
                exempt,
            });
        }
    }
    let launcher_of: BTreeMap<usize, usize> = out
        .launchers
        .iter()
        .enumerate()
        .map(|(i, l)| (l.node, i))
        .collect();
    // The conditional nodes around each node, innermost first, with the body it is in.
    let enclosing: Vec<Vec<(usize, usize)>> = (0..n)
        .map(|mut node| {
            let mut out = Vec::new();
            while let Some((cond, body)) = model.scopes[node] {
                out.push((cond, body));
                node = cond;
            }
            out
        })
        .collect();
    let alongside = |a: usize, b: usize| alongside(model, reach, &enclosing, a, b);
    // Whether node `b` uses a param that the graphs launcher `l` launches may share (at the
    // launching node itself, one that is not its handle).
    let uses_params = |l: &Launcher, b: usize| {
        uses[b].iter().any(|(buffer, _)| {
            buffer.param().is_some() && (b != l.node || !l.handles.contains(buffer))
        })
    };
    // Two launchers beside each other both ways: their graphs are compared once. (A child
    // node's launches are compared with its graph, below.)
    let other_launches = |a: usize, b: usize| {
        launcher_of
            .get(&b)
            .copied()
            .filter(|_| b != a && !is_child(b) && (!alongside(b, a) || a < b))
    };
    // Whether the graphs of launcher `l` may run beside node `b`, which has memory to compare.
    let beside = |l: &Launcher, b: usize| {
        let a = l.node;
        // A child node's own graph and what it launches are its declaration's to check.
        let near = if b == a {
            !is_child(a)
        } else {
            alongside(a, b)
        };
        near && (uses_params(l, b)
            || other_launches(a, b).is_some()
            || model.opaque(&model.nodes[b]).is_some())
    };
    // Each pair is code of its own in the built graph's check: counted before any is made.
    let pairs: usize = out
        .launchers
        .iter()
        .map(|l| (0..n).filter(|&b| beside(l, b)).count())
        .sum();
    if pairs > MAX_LAUNCH_PAIRS {
        out.too_many_launch_pairs = Some(pairs);
        return;
    }
    let mut found = Vec::with_capacity(pairs);
    for (index, launcher) in out.launchers.iter().enumerate() {
        let a = launcher.node;
        for b in (0..n).filter(|&b| beside(launcher, b)) {
            let params: Vec<(Buffer, NodeUse)> = uses[b]
                .iter()
                .filter(|(buffer, _)| {
                    buffer.param().is_some() && (b != a || !launcher.handles.contains(buffer))
                })
                .map(|(buffer, u)| (*buffer, u.clone()))
                .collect();
            let exempt = if b == a {
                opted[a].iter().filter_map(|b| b.param()).collect()
            } else {
                opted[a]
                    .iter()
                    .filter(|x| opted[b].contains(x))
                    .filter_map(|x| x.param())
                    .collect()
            };
            found.push(LaunchPair {
                launcher: index,
                other: b,
                uses: params,
                exempt,
                other_launches: other_launches(a, b),
            });
        }
    }
    out.launch_pairs = found;
}

/// Whether a graph that node `a` launches may run beside node `b`: both are in the body of one
/// `while` node (a launch of one pass may still run in the next), or, unless they are in two
/// bodies of one conditional node (of which one pass runs one), `b` is not ordered before `a`.
/// (`enclosing`: the conditional nodes around each node, innermost first, with the body.)
fn alongside(
    model: &Model,
    reach: &crate::reach::Reach,
    enclosing: &[Vec<(usize, usize)>],
    a: usize,
    b: usize,
) -> bool {
    let (around_a, around_b) = (&enclosing[a], &enclosing[b]);
    let is_while = |c: usize| {
        matches!(&model.nodes[c].op,
            NodeOp::Conditional(c) if c.kind == crate::parse::CondKind::While)
    };
    let in_loop = around_a
        .iter()
        .filter(|&&(c, _)| is_while(c))
        .any(|&(c, _)| around_b.iter().any(|&(d, _)| d == c));
    if in_loop {
        return true;
    }
    let exclusive = around_a
        .iter()
        .any(|&(c, x)| around_b.iter().any(|&(d, y)| d == c && x != y));
    !exclusive && !reach.get(b, a)
}

/// The kernel arguments whose memory the types decide: those for a parameter behind an alias
/// that are not in the forms of `model::pointer_args` in some iteration (asserted to be values),
/// and the sub-ranges of params in the forms (asserted to be a buffer's). Once per argument as
/// written. (For a parameter written as a pointer, an argument out of the forms is refused by
/// `check::operands`.)
fn pointer_args(model: &Model, out: &mut Analysis) {
    let mut seen = BTreeSet::new();
    for (node, inst) in model.nodes.iter().enumerate() {
        let NodeOp::Kernel(k) = &inst.op else {
            continue;
        };
        for (arg, expr) in k.args.iter().enumerate() {
            let Some(access) = model.slot_access(k, arg) else {
                continue;
            };
            // `device_node(x)` and `param_offset(x, i)` give values the macro makes.
            if crate::model::device_arg(expr).is_some() {
                continue;
            }
            let form =
                pointer_arg(expr).and_then(|f| Some((f, model.pointer_buffer(&f, inst.rep)?)));
            match form {
                Some((form, Buffer::Param(param, _))) => {
                    if let Some(slice) = form.slice {
                        if seen.insert((inst.decl as *const _, arg, "slice")) {
                            out.slices.push(SliceArg {
                                node,
                                arg,
                                param,
                                access,
                                span: slice.span(),
                            });
                        }
                    }
                }
                Some((_, Buffer::Alloc(_))) => {}
                None => {
                    if matches!(access, Access::Slot { .. })
                        && seen.insert((inst.decl as *const _, arg, "value"))
                    {
                        out.values.push(ValueArg {
                            node,
                            arg,
                            access,
                            span: syn::spanned::Spanned::span(expr),
                        });
                    }
                }
            }
        }
    }
}

/// Records a possible race: decided here when the declaration shows everything, else by the
/// types; once per [`RaceKey`] (the uses are cloned only then).
fn push_race(
    model: &Model,
    out: &mut Analysis,
    (a, b): (usize, usize),
    buffer: Buffer,
    (use_a, use_b): (&NodeUse, &NodeUse),
) {
    let (races, seen) = match (use_a.known_write(), use_b.known_write(), use_a.mem) {
        (Some(wa), Some(wb), Mem::Yes) => {
            if !(wa || wb) {
                return;
            }
            (&mut out.races, &mut out.seen.0)
        }
        (Some(false), Some(false), _) => return,
        _ => (&mut out.typed, &mut out.seen.1),
    };
    let memory = match buffer {
        Buffer::Param(p, _) => Ok(p),
        Buffer::Alloc(i) => Err(model.nodes[i].decl as *const NodeDecl),
    };
    if seen.insert((model.nodes[a].decl, model.nodes[b].decl, memory)) {
        races.push(Race {
            a,
            b,
            buffer,
            use_a: use_a.clone(),
            use_b: use_b.clone(),
        });
    }
}

/// The token of a capture node's work.
pub fn capture_span(model: &Model, node: usize) -> Span {
    match &model.nodes[node].op {
        NodeOp::Capture(c) => syn::spanned::Spanned::span(&c.work),
        _ => model.nodes[node].decl.name.span(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first graph of `source`, resolved, given to `f`.
    fn with_model(source: &str, f: impl FnOnce(&Model)) {
        let input: crate::parse::Input = syn::parse_str(source).expect("parses");
        f(&Model::new(&input.graphs[0]));
    }

    /// Per launch pair: the launching node's name, the other's, and whether their launched
    /// graphs are compared.
    fn pairs(m: &Model) -> Vec<(String, String, bool)> {
        let a = m.hazards();
        a.launch_pairs
            .iter()
            .map(|p| {
                (
                    m.nodes[a.launchers[p.launcher].node].name.clone(),
                    m.nodes[p.other].name.clone(),
                    p.other_launches.is_some(),
                )
            })
            .collect()
    }

    #[test]
    fn launched_graphs_are_checked_against_every_node_not_ordered_before_the_launcher() {
        let source = "graph G {
            params {
                launch: Kernel<(DeviceGraph, DevicePtrMut<u32>)>,
                add: Kernel<(u32, DevicePtrMut<u32>)>,
                w: SharedDeviceGraph, v: SharedDeviceGraph,
                y: DeviceBuffer<u32>, z: DeviceBuffer<u32>, n: u32,
            }
            before: kernel add<<<1, 1>>>(n, y);
            go: kernel launch<<<1, 1>>>(w, z);
            after: kernel add<<<1, 1>>>(n, y);
            beside: kernel add<<<1, 1>>>(n, z);
            other: kernel launch<<<1, 1>>>(v, y);
            before -> go -> after;
        }";
        with_model(source, |m| {
            let a = m.hazards();
            let launchers: Vec<&str> = a
                .launchers
                .iter()
                .map(|l| m.nodes[l.node].name.as_str())
                .collect();
            assert_eq!(launchers, ["go", "other"]);
            assert_eq!(
                pairs(m),
                [
                    // Its own `z`: the launched graph may run while the kernel does.
                    ("go".into(), "go".into(), false),
                    ("go".into(), "after".into(), false),
                    ("go".into(), "beside".into(), false),
                    // Two launchers beside each other: their graphs compared once.
                    ("go".into(), "other".into(), true),
                    ("other".into(), "before".into(), false),
                    ("other".into(), "go".into(), false),
                    ("other".into(), "after".into(), false),
                    ("other".into(), "beside".into(), false),
                    ("other".into(), "other".into(), false),
                ]
            );
            // The launcher's own uses leave its handle out.
            let own = &a.launch_pairs[0];
            assert_eq!(own.uses.len(), 1);
            assert_eq!(m.buffer_name(own.uses[0].0), "z");
        });
    }

    #[test]
    fn a_graph_launched_in_a_while_body_runs_beside_the_whole_body() {
        let source = "graph G {
            params {
                launch: Kernel<(DeviceGraph, u32)>,
                add: Kernel<(u32, DevicePtrMut<u32>)>,
                w: SharedDeviceGraph, y: DeviceBuffer<u32>, n: u32,
            }
            lp: while more {
                first: kernel add<<<1, 1>>>(n, y);
                go: kernel launch<<<1, 1>>>(w, n);
                first -> go;
            }
            done: kernel add<<<1, 1>>>(n, y);
            lp -> done;
        }";
        with_model(source, |m| {
            let others: Vec<String> = pairs(m).into_iter().map(|(_, o, _)| o).collect();
            assert!(others.contains(&"first".to_owned()), "{others:?}");
            assert!(others.contains(&"done".to_owned()), "{others:?}");
        });
    }
}
