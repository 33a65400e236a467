//! The node kinds of the DSL, in one table: what the macro knows of each kind apart from its
//! syntax (`parse`) and the code it generates (`expand`): its keywords, the runtime's `NodeKind`
//! its nodes are and their name there, its runtime handle type, CUDA's rule for conditional
//! bodies, and what its update handle can change. The runtime keeps its own facts of each kind in
//! one table too (`cudagraph-runtime/src/node/kind.rs`); the names and `NodeKind` variants here
//! follow it, and a new kind gets a row in both.
//!
//! Besides its row, a new kind is a variant of `NodeOp` with its syntax (`parse`), and its arm in
//! each match the compiler then names: the params it mentions (`model`), the rules of its
//! operands (`check::operands`), its add call (`expand::node`), its handle's methods
//! (`expand::handles`), how the docs write it (`expand::docs`) and where errors about it point
//! (`expand`).

/// What the macro knows of one node kind: a row of [`KINDS`].
pub struct Kind {
    /// The keywords that declare it.
    pub keywords: &'static [&'static str],
    /// The runtime's `NodeKind` variant its nodes are (a capture node is a child-graph node to
    /// the runtime).
    pub node_kind: &'static str,
    /// Its name in a graph's docs and picture: the runtime's `NodeKind::name`, or `capture` (a
    /// conditional node is named by its condition instead).
    pub name: &'static str,
    /// The runtime handle type, where it takes no parameter (`None`: the node's operands, or
    /// how many there are, give it).
    pub handle: Option<&'static str>,
    /// Its name in errors when it is declared in a conditional body, where CUDA refuses it
    /// (`None`: CUDA allows it there).
    pub refused_in_body: Option<&'static str>,
    /// Whether CUDA allows it in a graph launched from the device (a `#[device_launch]`
    /// declaration): kernel, memcpy, memset, empty and child-graph nodes only.
    pub in_device_graph: bool,
    /// Whether it has a single-node update (alloc nodes are only checked).
    pub updatable: bool,
    /// What its update handle can change, as the handle's docs say.
    pub updates: &'static str,
}

/// Every kind, in the order errors list their keywords.
pub const KINDS: [Kind; 15] = [
    Kind {
        keywords: &["kernel"],
        node_kind: "Kernel",
        name: "kernel",
        handle: None,
        refused_in_body: None,
        in_device_graph: true,
        updatable: true,
        updates: "its arguments and launch configuration can change, and it can be enabled or disabled",
    },
    Kind {
        keywords: &["memset"],
        node_kind: "Memset",
        name: "memset",
        handle: None,
        refused_in_body: None,
        in_device_graph: true,
        updatable: true,
        updates: "its destination and value can change (1-D only), and it can be enabled or disabled",
    },
    Kind {
        keywords: &["memcpy"],
        node_kind: "Memcpy",
        name: "memcpy",
        handle: None,
        refused_in_body: None,
        in_device_graph: true,
        updatable: true,
        updates: "its source and destination can change (same direction, 1-D only), and it can be enabled or disabled",
    },
    Kind {
        keywords: &["host"],
        node_kind: "Host",
        name: "host",
        handle: Some("HostNode"),
        refused_in_body: Some("host"),
        in_device_graph: false,
        updatable: true,
        updates: "its closure can change; CUDA cannot enable or disable it",
    },
    Kind {
        keywords: &["child"],
        node_kind: "ChildGraph",
        name: "child_graph",
        handle: Some("ChildGraphNode"),
        refused_in_body: None,
        in_device_graph: true,
        updatable: true,
        updates: "its embedded graph can change (same topology); CUDA cannot enable or disable it",
    },
    Kind {
        keywords: &["empty"],
        node_kind: "Empty",
        name: "empty",
        handle: Some("EmptyNode"),
        refused_in_body: None,
        in_device_graph: true,
        updatable: false,
        updates: "nothing about it can change",
    },
    Kind {
        keywords: &["alloc"],
        node_kind: "MemAlloc",
        name: "mem_alloc",
        handle: None,
        refused_in_body: Some("alloc"),
        in_device_graph: false,
        updatable: false,
        updates: "nothing about it can change (CUDA fixes an allocation's size and address when the graph is built); it gives the allocation, for the runtime's own API",
    },
    Kind {
        keywords: &["free"],
        node_kind: "MemFree",
        name: "mem_free",
        handle: Some("MemFreeNode"),
        refused_in_body: Some("free"),
        in_device_graph: false,
        updatable: false,
        updates: "nothing about it can change (CUDA cannot update a free node)",
    },
    Kind {
        keywords: &["record"],
        node_kind: "EventRecord",
        name: "event_record",
        handle: Some("EventRecordNode"),
        refused_in_body: Some("event record"),
        in_device_graph: false,
        updatable: true,
        updates: "its event can change; CUDA cannot enable or disable it",
    },
    Kind {
        keywords: &["wait"],
        node_kind: "EventWait",
        name: "event_wait",
        handle: Some("EventWaitNode"),
        refused_in_body: Some("event wait"),
        in_device_graph: false,
        updatable: true,
        updates: "its event can change; CUDA cannot enable or disable it",
    },
    Kind {
        keywords: &["capture"],
        node_kind: "ChildGraph",
        name: "capture",
        handle: Some("ChildGraphNode"),
        refused_in_body: None,
        in_device_graph: true,
        updatable: true,
        updates: "its work can be recorded again from another `Capture` (the recorded graph must have the same topology); CUDA cannot enable or disable it",
    },
    Kind {
        keywords: &["signal"],
        node_kind: "SemaphoreSignal",
        name: "semaphore_signal",
        handle: None,
        refused_in_body: Some("semaphore signal"),
        in_device_graph: false,
        updatable: true,
        updates: "its semaphores and their values can change, not how many there are (CUDA cannot change the count); CUDA cannot enable or disable it",
    },
    Kind {
        keywords: &["wait"],
        node_kind: "SemaphoreWait",
        name: "semaphore_wait",
        handle: None,
        refused_in_body: Some("semaphore wait"),
        in_device_graph: false,
        updatable: true,
        updates: "its semaphores and their values can change, not how many there are (CUDA cannot change the count); CUDA cannot enable or disable it",
    },
    Kind {
        keywords: &[
            "all_reduce",
            "all_gather",
            "reduce_scatter",
            "broadcast",
            "send",
            "recv",
            "send_recv",
        ],
        node_kind: "ChildGraph",
        name: "collective",
        handle: Some("ChildGraphNode"),
        // Refused in a body by a rule of its own (`check::conditionals`): NCCL's reason, not
        // CUDA's list of body kinds.
        refused_in_body: None,
        in_device_graph: false,
        // Only checked, as alloc nodes are, before any node is updated: nothing it uses may
        // change (NCCL recorded its work for them).
        updatable: false,
        updates: "nothing about it can change: its communicator, buffers, root and peers are fixed when the graph is built (NCCL recorded its work for them on every rank), and `set_params` refuses a change; CUDA cannot enable or disable it",
    },
    Kind {
        keywords: &["if", "while", "switch"],
        node_kind: "Conditional",
        name: "conditional",
        handle: Some("ConditionalNode"),
        refused_in_body: None,
        in_device_graph: false,
        updatable: true,
        updates: "nothing about it can change (CUDA updates a conditional node only through its bodies' nodes, which have handles of their own)",
    },
];

impl Kind {
    /// How errors name a node of the kind refused in a conditional body (`a host node`).
    pub fn refused_in_body_node(&self) -> Option<String> {
        let name = self.refused_in_body?;
        let article = if name.starts_with(['a', 'e', 'i', 'o', 'u']) {
            "an"
        } else {
            "a"
        };
        Some(format!("{article} {name} node"))
    }

    /// How errors name a node of the kind CUDA refuses in a device graph (`a host node`).
    pub fn refused_in_device_graph_node(&self) -> Option<String> {
        if self.in_device_graph {
            return None;
        }
        let name = self.refused_in_body.unwrap_or(self.name);
        let article = if name.starts_with(['a', 'e', 'i', 'o', 'u']) {
            "an"
        } else {
            "a"
        };
        Some(format!("{article} {name} node"))
    }
}

/// Every keyword that declares a node, in the order of [`KINDS`], each once (`wait` declares an
/// event wait node or a semaphore wait node, by its arguments).
pub fn keywords() -> impl Iterator<Item = &'static str> {
    let all = KINDS.iter().flat_map(|kind| kind.keywords.iter().copied());
    all.enumerate().filter_map(|(i, word)| {
        let first = KINDS
            .iter()
            .flat_map(|kind| kind.keywords.iter().copied())
            .position(|w| w == word);
        (first == Some(i)).then_some(word)
    })
}

/// The node kinds, as an error lists them: `` `kernel`, ..., `capture`, or a conditional node:
/// `if`, `while` or `switch` ``.
pub fn listed() -> String {
    let (conditional, others): (Vec<&Kind>, Vec<&Kind>) = KINDS
        .iter()
        .partition(|kind| kind.node_kind == "Conditional");
    let quoted = |kinds: &[&Kind]| -> Vec<String> {
        let mut words: Vec<String> = Vec::new();
        for word in kinds.iter().flat_map(|kind| kind.keywords.iter()) {
            let word = format!("`{word}`");
            if !words.contains(&word) {
                words.push(word);
            }
        }
        words
    };
    let mut conditional = quoted(&conditional);
    let last = conditional.pop().unwrap_or_default();
    format!(
        "{}, or a conditional node: {} or {last}",
        quoted(&others).join(", "),
        conditional.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_list_the_kinds_as_before() {
        assert_eq!(
            listed(),
            "`kernel`, `memset`, `memcpy`, `host`, `child`, `empty`, `alloc`, `free`, `record`, \
             `wait`, `capture`, `signal`, `all_reduce`, `all_gather`, `reduce_scatter`, `broadcast`, \
             `send`, `recv`, `send_recv`, or a conditional node: `if`, `while` or `switch`"
        );
        assert_eq!(
            keywords().collect::<Vec<_>>(),
            [
                "kernel",
                "memset",
                "memcpy",
                "host",
                "child",
                "empty",
                "alloc",
                "free",
                "record",
                "wait",
                "capture",
                "signal",
                "all_reduce",
                "all_gather",
                "reduce_scatter",
                "broadcast",
                "send",
                "recv",
                "send_recv",
                "if",
                "while",
                "switch"
            ]
        );
        let refused: Vec<String> = KINDS
            .iter()
            .filter_map(Kind::refused_in_body_node)
            .collect();
        assert_eq!(
            refused,
            [
                "a host node",
                "an alloc node",
                "a free node",
                "an event record node",
                "an event wait node",
                "a semaphore signal node",
                "a semaphore wait node"
            ]
        );
        let refused: Vec<String> = KINDS
            .iter()
            .filter_map(Kind::refused_in_device_graph_node)
            .collect();
        assert_eq!(
            refused,
            [
                "a host node",
                "an alloc node",
                "a free node",
                "an event record node",
                "an event wait node",
                "a semaphore signal node",
                "a semaphore wait node",
                "a collective node",
                "a conditional node"
            ]
        );
    }
}
