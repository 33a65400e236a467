//! Node kinds ([`NodeKind`]) and the one table of what the runtime knows of each kind apart from
//! its parameters: its name, the driver's node type, whether CUDA allows it in a conditional body,
//! how the node table lists a captured node of its type, and how DOT draws it. Default node names,
//! DOT and Mermaid output, CUDA's body rule (for added nodes, captured nodes and the graphs child
//! nodes embed) and the listing of captured nodes all read [`KINDS`]; a kind's parameters, handle
//! and updates live in its own module beside this one.
//!
//! A new kind is, in this crate: a variant here and its row of [`KINDS`] (the compiler asks for
//! both); a module of its own under `node/` (its handle, its `NodeParams` and `NodeUpdate`),
//! declared and re-exported in `node/mod.rs`; its adder in `graph/add.rs`; its single-node update
//! in `exec/nodes.rs` (and the driver call in `driver/result.rs` where cudarc has none); its
//! re-exports in `lib.rs`; and, for `cuda_graph!`, its helpers in a module of `__private/`. The
//! macro keeps its own row of the kind (`cudagraph-macros/src/kinds.rs`).

use cudarc::driver::sys;

/// What a node does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NodeKind {
    /// A kernel launch.
    Kernel,
    /// A 1-D memory copy.
    Memcpy,
    /// A 1-D memset.
    Memset,
    /// A node that does nothing (a join point).
    Empty,
    /// A Rust closure run on a CPU thread.
    Host,
    /// An embedded graph.
    ChildGraph,
    /// A graph allocation (`cuGraphAddNode` with a memory-alloc node).
    MemAlloc,
    /// The free of a graph allocation.
    MemFree,
    /// The record of a CUDA event.
    EventRecord,
    /// A wait for a CUDA event.
    EventWait,
    /// A signal of external semaphores (imported from another API, such as Vulkan).
    SemaphoreSignal,
    /// A wait for external semaphores.
    SemaphoreWait,
    /// A conditional node (if, if/else, while, switch) with its body graphs.
    Conditional,
    /// A node of another kind, found in a captured graph.
    Other,
}

/// What the runtime knows of one node kind: a row of [`KINDS`].
#[derive(Debug)]
pub(crate) struct KindFacts {
    /// The kind (a row's position in [`KINDS`] is the kind's discriminant).
    pub(crate) kind: NodeKind,
    /// Lower-case name, as used in default node names and DOT output.
    pub(crate) name: &'static str,
    /// The driver's node type (`CUgraphNodeType`): what the kind's parameters make
    /// (`NodeParams::with_raw`), and what a captured node of the kind reads back as. `None` for
    /// [`NodeKind::Other`], and for a kind these bindings lack.
    pub(crate) raw: Option<sys::CUgraphNodeType>,
    /// Whether CUDA allows the kind in the body of a conditional node.
    pub(crate) in_body: bool,
    /// Whether a node of this type that a capture recorded is listed as this kind: the kinds whose
    /// rules this crate keeps on captured nodes (memory nodes, event and semaphore nodes,
    /// conditional nodes).
    /// The others are listed as [`NodeKind::Other`] (a captured kernel has no typed handle, and
    /// no parameters this crate knows).
    pub(crate) listed_when_captured: bool,
    /// The Graphviz shape DOT draws the kind with.
    pub(crate) dot_shape: &'static str,
}

/// The conditional node's driver type, where the bindings have it (CUDA 12.3 or newer).
#[cfg(not(feature = "cuda-12020"))]
const CONDITIONAL: Option<sys::CUgraphNodeType> =
    Some(sys::CUgraphNodeType::CU_GRAPH_NODE_TYPE_CONDITIONAL);
#[cfg(feature = "cuda-12020")]
const CONDITIONAL: Option<sys::CUgraphNodeType> = None;

/// How many kinds there are. The match names every variant: a new one fails to compile here
/// until it is counted, and then [`KINDS`] fails until the kind has its row.
const COUNT: usize = {
    use NodeKind::*;
    match Other {
        Kernel | Memcpy | Memset | Empty | Host | ChildGraph | MemAlloc | MemFree | EventRecord
        | EventWait | SemaphoreSignal | SemaphoreWait | Conditional | Other => 14,
    }
};

/// Every node kind's facts, in the order of [`NodeKind`]'s variants.
#[rustfmt::skip]
pub(crate) const KINDS: [KindFacts; COUNT] = {
    use sys::CUgraphNodeType::*;
    use NodeKind::*;
    [
        // kind              name                driver type                                in body  captured  DOT
        row(Kernel,           "kernel",           Some(CU_GRAPH_NODE_TYPE_KERNEL),           true,    false,    "box"),
        row(Memcpy,           "memcpy",           Some(CU_GRAPH_NODE_TYPE_MEMCPY),           true,    false,    "parallelogram"),
        row(Memset,           "memset",           Some(CU_GRAPH_NODE_TYPE_MEMSET),           true,    false,    "parallelogram"),
        row(Empty,            "empty",            Some(CU_GRAPH_NODE_TYPE_EMPTY),            true,    false,    "point"),
        row(Host,             "host",             Some(CU_GRAPH_NODE_TYPE_HOST),             false,   false,    "house"),
        row(ChildGraph,       "child_graph",      Some(CU_GRAPH_NODE_TYPE_GRAPH),            true,    false,    "box3d"),
        row(MemAlloc,         "mem_alloc",        Some(CU_GRAPH_NODE_TYPE_MEM_ALLOC),        false,   true,     "invtrapezium"),
        row(MemFree,          "mem_free",         Some(CU_GRAPH_NODE_TYPE_MEM_FREE),         false,   true,     "trapezium"),
        row(EventRecord,      "event_record",     Some(CU_GRAPH_NODE_TYPE_EVENT_RECORD),     false,   true,     "cds"),
        row(EventWait,        "event_wait",       Some(CU_GRAPH_NODE_TYPE_WAIT_EVENT),       false,   true,     "cds"),
        row(SemaphoreSignal,  "semaphore_signal", Some(CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL), false,   true,     "hexagon"),
        row(SemaphoreWait,    "semaphore_wait",   Some(CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT),   false,   true,     "hexagon"),
        row(Conditional,      "conditional",      CONDITIONAL,                               true,    true,     "diamond"),
        row(Other,            "node",             None,                                      false,   false,    "ellipse"),
    ]
};

// Each row stands in its kind's place ([`NodeKind::facts`] reads it there).
const _: () = {
    let mut i = 0;
    while i < COUNT {
        assert!(
            KINDS[i].kind as usize == i,
            "KINDS lists the kinds in NodeKind's order"
        );
        i += 1;
    }
};

/// A row of [`KINDS`], its columns in the order of [`KindFacts`]'s fields.
const fn row(
    kind: NodeKind,
    name: &'static str,
    raw: Option<sys::CUgraphNodeType>,
    in_body: bool,
    listed_when_captured: bool,
    dot_shape: &'static str,
) -> KindFacts {
    KindFacts {
        kind,
        name,
        raw,
        in_body,
        listed_when_captured,
        dot_shape,
    }
}

/// Driver node types that no [`NodeKind`] of this crate stands for, by the names messages about
/// captured nodes give them.
const FOREIGN: [(sys::CUgraphNodeType, &str); 1] = {
    use sys::CUgraphNodeType::*;
    [(CU_GRAPH_NODE_TYPE_BATCH_MEM_OP, "batch_mem_op")]
};

impl NodeKind {
    /// The kind's row of [`KINDS`].
    #[inline]
    pub(crate) const fn facts(self) -> &'static KindFacts {
        &KINDS[self as usize]
    }

    /// Whether CUDA allows the kind in the body of a conditional node.
    pub const fn allowed_in_body(self) -> bool {
        self.facts().in_body
    }

    /// Lower-case name, as used in default node names and DOT output.
    pub const fn name(self) -> &'static str {
        self.facts().name
    }

    /// How the node table lists a captured node of raw type `code` (see
    /// [`KindFacts::listed_when_captured`]).
    pub(crate) fn of_captured(code: u32) -> NodeKind {
        of_raw(code)
            .filter(|facts| facts.listed_when_captured)
            .map_or(NodeKind::Other, |facts| facts.kind)
    }
}

/// The row of the kind whose driver type is `code`, if a kind of this crate has it.
fn of_raw(code: u32) -> Option<&'static KindFacts> {
    KINDS
        .iter()
        .find(|facts| facts.raw.is_some_and(|raw| raw as u32 == code))
}

/// The name of a raw node type (`CUgraphNodeType`), as in default node names.
pub(crate) fn raw_kind_name(code: u32) -> &'static str {
    match of_raw(code) {
        Some(facts) => facts.name,
        None => FOREIGN
            .iter()
            .find(|(kind, _)| *kind as u32 == code)
            .map_or(NodeKind::Other.name(), |(_, name)| name),
    }
}

/// Whether CUDA allows a node of raw type `code` in a conditional body (kernel, empty,
/// child-graph, memset, memcpy and conditional nodes: [conditional graph nodes]).
///
/// [conditional graph nodes]: https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#conditional-graph-nodes
pub(crate) fn raw_allowed_in_body(code: u32) -> bool {
    of_raw(code).is_some_and(|facts| facts.in_body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_has_the_driver_type_each_kind_adds() {
        use crate::node::mem::FreeParams;
        use crate::node::{ChildParams, EmptyParams, EventParams, NodeParams, SemaphoreParams};
        fn added<P: NodeParams>(mut params: P) -> (NodeKind, u32) {
            (P::KIND, params.with_raw(|p| p.type_ as u32))
        }
        use std::ptr::null_mut;
        for (kind, raw) in [
            added(EmptyParams),
            added(ChildParams { graph: null_mut() }),
            added(EventParams::<true> { event: null_mut() }),
            added(EventParams::<false> { event: null_mut() }),
            added(FreeParams { addr: 0 }),
            added(SemaphoreParams::<true, 1> {
                sems: [null_mut()],
                values: [1],
            }),
            added(SemaphoreParams::<false, 2> {
                sems: [null_mut(); 2],
                values: [1, 2],
            }),
        ] {
            assert_eq!(kind.facts().raw.map(|r| r as u32), Some(raw), "{kind:?}");
        }
    }

    #[test]
    fn each_kind_has_its_own_row_and_name() {
        for (i, facts) in KINDS.iter().enumerate() {
            assert_eq!(facts.kind as usize, i, "{:?} is out of place", facts.kind);
            assert!(
                KINDS[..i].iter().all(|other| other.name != facts.name),
                "{:?} shares its name",
                facts.kind
            );
        }
    }

    #[test]
    fn raw_node_kinds_are_named_and_sorted_by_the_body_rule() {
        use sys::CUgraphNodeType::*;
        assert_eq!(raw_kind_name(CU_GRAPH_NODE_TYPE_HOST as u32), "host");
        assert_eq!(
            raw_kind_name(CU_GRAPH_NODE_TYPE_MEM_ALLOC as u32),
            "mem_alloc"
        );
        assert_eq!(raw_kind_name(1000), "node");
        for ok in [
            CU_GRAPH_NODE_TYPE_KERNEL,
            CU_GRAPH_NODE_TYPE_MEMCPY,
            CU_GRAPH_NODE_TYPE_MEMSET,
            CU_GRAPH_NODE_TYPE_EMPTY,
            CU_GRAPH_NODE_TYPE_GRAPH,
        ] {
            assert!(raw_allowed_in_body(ok as u32), "{ok:?}");
        }
        for refused in [
            CU_GRAPH_NODE_TYPE_HOST,
            CU_GRAPH_NODE_TYPE_EVENT_RECORD,
            CU_GRAPH_NODE_TYPE_WAIT_EVENT,
            CU_GRAPH_NODE_TYPE_MEM_ALLOC,
            CU_GRAPH_NODE_TYPE_MEM_FREE,
            CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL,
            CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT,
        ] {
            assert!(!raw_allowed_in_body(refused as u32), "{refused:?}");
        }
        assert_eq!(
            raw_kind_name(CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT as u32),
            "semaphore_wait"
        );
        assert_eq!(
            raw_kind_name(CU_GRAPH_NODE_TYPE_BATCH_MEM_OP as u32),
            "batch_mem_op"
        );
        // Agrees with the rule for added nodes.
        assert!(NodeKind::Kernel.allowed_in_body() && !NodeKind::Host.allowed_in_body());
    }
}
