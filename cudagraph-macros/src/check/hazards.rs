// Rationale (T14, a data race the driver does not catch): CUDA runs two nodes with no path between
// them in any order, or at the same time. If both use one buffer param and one of them writes it
// (a `DevicePtrMut` kernel argument, a memset or memcpy destination, a host node's `mut` buffer,
// a capture node's declared `mut` use), the result depends on the schedule: a race, which CUDA
// accepts without a word. The declaration shows every use, so the race is reported here, at
// both uses, with an edge that fixes it. When the concurrency is intended (disjoint parts of the
// buffer, atomics), both nodes say so with `#[unordered(buffer)]`.
//
// What a use *is* must not depend on how a type is spelled: a param written through an alias is
// memory all the same. Where the declaration spells the types out (`DeviceBuffer<T>`,
// `DevicePtrMut<T>`, `u32`), the race is decided here; where it does not (an alias, a type the
// macro does not know), the generated code asks the type system and asserts at compile time
// (`Analysis::typed` and `probes`, see `cudagraph_runtime::__private::ParamProbe`). What only
// values show is checked when the graph is built: two *different* params that share memory
// (`overlaps`), the memory a child node's graph uses (`children`), and the memory of the device
// graphs a kernel may launch through a handle param (`launchers`, `launch_pairs`): a
// fire-and-forget or sibling launch runs at the same time as every node not ordered *before* the
// launching kernel, nodes after it included, so those are checked against the launched graph's
// footprint (nested launches included; a `while` body's nodes all, since a launch of one pass may
// still run in the next). A kernel argument for a `DeviceGraph` parameter must name a param. A
// capture node whose uses are not declared may use any memory, so it counts as writing every
// buffer.
//
// Memory shared with another API (a buffer param marked `#[external]`, such as Vulkan memory
// imported with `ExternalMemory`) is used by that API's work too, which no edge of the graph can
// order. Semaphore nodes order it: the other API's work before it signals what a wait node waits
// for comes before the nodes after that wait, and its work that waits for what a signal node
// signals comes after the nodes before that signal. So a wait -> ... -> signal path through a node
// is, to the other API, an edge on each side of it: a node that uses such a buffer must come after
// a semaphore wait node and before a semaphore signal node (`check_external`), or it may run while
// the other API uses the buffer. (Which semaphores, and which values, the other API signals and
// waits for is the program's to get right: the declaration does not show it. A child node's graph
// is not looked into: its memory is known only when it is built, and its own declaration marks
// and checks its `#[external]` buffers.)

use super::Ctxt;
use crate::model::{name_of, written, Buffer, Model, Opaque, Spelled};
use crate::parse::NodeOp;

use crate::model::hazards::{capture_span, node_uses, Race};

pub fn check(model: &Model, cx: &mut Ctxt) {
    let analysis = model.hazards();
    if let Some(pairs) = analysis.too_many_pairs {
        cx.error(
            model.decl.name.span(),
            format!(
                "graph `{}` has {} pairs of nodes that use memory with no path of edges between \
                 them, more than the data-race rule judges ({}: each pair is a possible race, and \
                 their number, like the macro's time, grows with the square of the nodes); add \
                 edges between nodes that may run one after the other (a loop's iterations: \
                 `for i in 0..N - 1 {{ a[i] -> a[i + 1]; }}`), or split the work over several \
                 graphs, launched one after the other or embedded as child graphs",
                model.decl.name,
                crate::repeat::grouped(pairs),
                crate::repeat::grouped(crate::model::hazards::MAX_UNORDERED_PAIRS),
            ),
        );
        return;
    }
    if let Some(pairs) = analysis.too_many_launch_pairs {
        cx.error(
            model.decl.name.span(),
            format!(
                "graph `{}` has {} pairs of a node that may launch device graphs (a kernel given \
                 a `DeviceGraph`, or a child node) and a node using memory that what it launches \
                 may run beside (one not ordered before it), more than the macro makes checks for \
                 ({}: each pair is checked by code of its own when the graph is built, and their \
                 number grows with launching nodes times nodes); add edges that order the other \
                 nodes before the launching ones, launch from fewer nodes (one kernel may be \
                 given several graphs), or split the work over several graphs",
                model.decl.name,
                crate::repeat::grouped(pairs),
                crate::repeat::grouped(crate::model::hazards::MAX_LAUNCH_PAIRS),
            ),
        );
        return;
    }
    if let Some(pairs) = analysis.too_many_overlaps {
        cx.error(
            model.decl.name.span(),
            format!(
                "graph `{}` has {} pairs of uses of two different params by nodes with no path \
                 of edges between them, one writing, whose memory is checked pair by pair when \
                 the graph is built, more than the macro makes checks for ({}: each is an entry \
                 of the check's table); the pairs of a loop's iterations are checked together, in \
                 one sort, when no edge orders any two of them, or when edges order every one \
                 after the other: order the loop's iterations all or none \
                 (`for i in 0..N - 1 {{ a[i] -> a[i + 1]; }}`), or split the work over several \
                 graphs",
                model.decl.name,
                crate::repeat::grouped(pairs),
                crate::repeat::grouped(crate::model::hazards::MAX_OVERLAP_PAIRS),
            ),
        );
        return;
    }
    check_attributes(model, cx);
    check_external(model, cx);
    for race in &analysis.races {
        let (wa, wb) = (
            race.use_a.known_write().unwrap_or(true),
            race.use_b.known_write().unwrap_or(true),
        );
        // A race between two declarations is reported once, for their first instances that
        // race (a loop makes it in every iteration).
        let key = race_key(model, race);
        cx.error_once(
            format!("{key} b"),
            race.use_b.span,
            race_message(model, race, wa, wb),
        );
        // (Two instances of one node use it at one token: the message there says it all.)
        if !std::ptr::eq(model.nodes[race.a].decl, model.nodes[race.b].decl) {
            cx.error_once(format!("{key} a"), race.use_a.span, used_here(model, race));
        }
    }
    for &(a, b) in &analysis.opaque {
        let key = format!("opaque {:p} {:p}", model.nodes[a].decl, model.nodes[b].decl);
        if !cx.first(key) {
            continue;
        }
        let (na, nb) = (&model.nodes[a].written, &model.nodes[b].written);
        let (capture, other) = if model.opaque(&model.nodes[a]) == Some(Opaque::Capture) {
            (a, b)
        } else {
            (b, a)
        };
        let what = match model.opaque(&model.nodes[other]) {
            Some(Opaque::Capture) => "another capture node whose uses are not declared either",
            _ => "a child node, whose graph's memory is known only when it is built",
        };
        let name = &model.nodes[capture].written;
        cx.error(
            capture_span(model, capture),
            format!(
                "capture node `{name}` does not declare the memory its work uses, so it counts as \
                 writing every buffer, and no edge orders it with `{}`, {what}: declare the \
                 buffer params its work reads and writes (`{name}: capture(work, [a, mut b]);`, \
                 `[]` for none), or {}",
                model.nodes[other].written,
                order_suggestion(model, a, b, &format!("`{na}` and `{nb}`"))
            ),
        );
    }
}

/// What makes two races one to report: the declarations racing and the memory (a param, or
/// an alloc node's declaration).
pub fn race_key(model: &Model, race: &Race) -> String {
    let memory = match race.buffer {
        Buffer::Param(p, _) => format!("param {p}"),
        Buffer::Alloc(a) => format!("alloc {:p}", model.nodes[a].decl),
    };
    format!(
        "race {:p} {:p} {memory}",
        model.nodes[race.a].decl, model.nodes[race.b].decl
    )
}

/// The message of a race at its second node's use: `wa` and `wb` say who writes.
pub fn race_message(model: &Model, race: &Race, wa: bool, wb: bool) -> String {
    let (a, b) = (race.a, race.b);
    let (na, nb) = (&model.nodes[a].written, &model.nodes[b].written);
    let buffer = model.buffer_name(race.buffer);
    let verb = |write: bool| if write { "writes" } else { "reads" };
    let who = if wa && wb {
        "both write it".to_owned()
    } else {
        format!("`{na}` {} it and `{nb}` {} it", verb(wa), verb(wb))
    };
    let capture = [a, b]
        .into_iter()
        .find(|&i| model.opaque(&model.nodes[i]) == Some(Opaque::Capture))
        .map(|c| {
            format!(
                " (`{}` is a capture node that does not declare the memory its work uses: it \
                 counts as writing every buffer; declare its uses, `capture(work, [a, mut b])`)",
                model.nodes[c].written
            )
        })
        .unwrap_or_default();
    if let Some(note) = super::programmatic::unwaited_note(model, a, b) {
        return format!(
            "nodes `{na}` and `{nb}` both use buffer `{buffer}` and {who}, but no edge orders \
             their memory: {note}"
        );
    }
    let order = order_suggestion(model, a, b, &format!("`{na}` and `{nb}`"));
    // `#[unordered(...)]` names a param (all its elements), or an alloc node: a repeated one's
    // allocation of the node's own iteration, so only for nodes of its loop.
    let opt = match race.buffer {
        Buffer::Param(p, _) => Some(name_of(&model.params[p].name)),
        Buffer::Alloc(i) => {
            let alloc = &model.nodes[i];
            let own = |n: usize| match (alloc.rep, model.nodes[n].rep) {
                (None, _) => true,
                (Some(x), Some(y)) => x == y,
                (Some(_), None) => false,
            };
            (own(a) && own(b)).then(|| name_of(&alloc.decl.name))
        }
    };
    let opt = opt
        .map(|opt| {
            format!(
                ", or, if they use disjoint parts of `{buffer}` or only atomics, mark both nodes \
                 `#[unordered({opt})]`"
            )
        })
        .unwrap_or_default();
    format!(
        "nodes `{na}` and `{nb}` both use buffer `{buffer}` and {who}, but no edge orders them: \
         CUDA may run the two at the same time (a data race){capture}. {order}{opt}",
        order = capitalized(&order),
    )
}

/// The note at a race's first node's use.
pub fn used_here(model: &Model, race: &Race) -> String {
    format!(
        "`{}` uses `{}` here",
        model.nodes[race.a].written,
        model.buffer_name(race.buffer)
    )
}

/// How to order two unordered nodes, as an edge that is legal: between the nodes themselves in
/// one scope, or, for a node in a conditional body, between the nodes standing for them in the
/// scope they share (an edge may not cross a body). `what` names the two nodes.
pub fn order_suggestion(model: &Model, a: usize, b: usize, what: &str) -> String {
    let name = |i: usize| model.nodes[i].written.clone();
    match model.in_common_scope(a, b) {
        Some((ra, rb)) if (ra, rb) == (a, b) => {
            // Instances of one loop: the edge goes in a loop, by its variable: within an
            // iteration, or from each iteration of a node to the next.
            let (ra, rb) = (model.nodes[a].rep, model.nodes[b].rep);
            if let (Some(ra), Some(rb)) = (ra, rb) {
                let lp = &model.loops[ra.lp];
                let (da, db) = (
                    written(&model.nodes[a].decl.name),
                    written(&model.nodes[b].decl.name),
                );
                match (&lp.var, &lp.range) {
                    (Some(var), _) if ra == rb => {
                        return format!(
                            "add the edge `{da}[{var}] -> {db}[{var}];` (or `{db}[{var}] -> \
                             {da}[{var}];`) to their loop"
                        );
                    }
                    (Some(var), Some(range)) if ra.lp == rb.lp && da == db => {
                        return format!(
                            "order the iterations, e.g. in a loop `for {var} in {}..{} {{ \
                             {da}[{var}] -> {da}[{var} + 1]; }}`",
                            range.start,
                            range.end - 1
                        );
                    }
                    _ => {}
                }
            }
            format!(
                "add the edge `{} -> {};` (or `{} -> {};`)",
                name(a),
                name(b),
                name(b),
                name(a)
            )
        }
        Some((ra, rb)) => format!(
            "order {what} through the nodes that hold them in one scope (an edge cannot cross a \
             conditional body): add the edge `{} -> {};` (or `{} -> {};`)",
            name(ra),
            name(rb),
            name(rb),
            name(ra)
        ),
        None => format!("order {what}"),
    }
}

fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// `#[unordered(...)]` names buffers its node uses.
fn check_attributes(model: &Model, cx: &mut Ctxt) {
    let uses = node_uses(model);
    for (index, node) in model.nodes.iter().enumerate() {
        // The attributes are the declaration's: judged on its first instance.
        if !model.first_of_decl(index) {
            continue;
        }
        // (A node that may launch device graphs opts out for what they use too.)
        let opaque = model.opaque(node).is_some()
            || model.hazards().launchers.iter().any(|l| l.node == index);
        for (ident, buffer) in model.unordered_buffers(node) {
            let plain = matches!(buffer, Some(Buffer::Param(p, _)) if model.param_spelled(p) == Spelled::Plain);
            match buffer {
                None => cx.error(
                    ident.span(),
                    format!(
                        "`{ident}` is not a buffer of graph `{}`: `#[unordered(...)]` names the \
                         buffer params and allocations the node may use at the same time as other \
                         nodes",
                        model.decl.name
                    ),
                ),
                Some(b) if plain || (!opaque && !uses[index].keys().any(|u| u.same(b))) => cx
                    .error(
                        ident.span(),
                        format!(
                        "node `{}` does not use `{ident}` as memory: `#[unordered(...)]` names \
                         buffers the node reads or writes",
                        node.name
                    ),
                    ),
                Some(_) => {}
            }
        }
        for attr in node.attrs.iter().filter(|a| a.path().is_ident("unordered")) {
            if attr
                .parse_args_with(
                    syn::punctuated::Punctuated::<syn::Ident, syn::Token![,]>::parse_terminated,
                )
                .is_err()
            {
                cx.error_spanned(attr, "expected buffer params: `#[unordered(buffer, ...)]`");
            }
        }
    }
}

/// Whether param `index` is marked `#[external]`: memory another API uses too.
fn is_external(model: &Model, index: usize) -> bool {
    model.params[index]
        .attrs
        .iter()
        .any(|a| a.path().is_ident("external"))
}

/// Nodes that use `#[external]` buffers come after a semaphore wait node and before a semaphore
/// signal node (see the rationale above); only buffer params can be `#[external]`.
fn check_external(model: &Model, cx: &mut Ctxt) {
    let external: Vec<usize> = (0..model.params.len())
        .filter(|&i| is_external(model, i))
        .collect();
    if external.is_empty() {
        return;
    }
    for &i in &external {
        if model.param_spelled(i) == Spelled::Plain || model.is_indirect(i) {
            let name = &model.params[i].name;
            cx.error(
                name.span(),
                format!(
                    "`{name}` is not a buffer param: `#[external]` marks memory another API uses \
                     too (a `DeviceBuffer<T>` mapped from `ExternalMemory`)"
                ),
            );
        }
    }
    // Every edge orders launches: a node reached from a wait node starts after the other API's
    // work it waits for. Its work is done before a signal node only through edges that order
    // memory, though: past an edge with data into a kernel that does not wait, the signal may
    // come while the node still runs (the race rule's ordering, `memory_reachability`).
    let reach = model.reachability();
    let done_before = model.memory_reachability();
    let (mut waits, mut signals) = (Vec::new(), Vec::new());
    for (i, node) in model.nodes.iter().enumerate() {
        match node.op {
            NodeOp::SemaphoreWait(_) => waits.push(i),
            NodeOp::SemaphoreSignal(_) => signals.push(i),
            _ => {}
        }
    }
    // A node in a conditional body is ordered as the top-level conditional node holding it.
    let top = |mut i: usize| {
        while let Some((c, _)) = model.scopes[i] {
            i = c;
        }
        i
    };
    let uses = node_uses(model);
    for (index, node) in model.nodes.iter().enumerate() {
        let opaque = model.opaque(node) == Some(Opaque::Capture);
        for &param in &external {
            // (Any element, for an array param.)
            let used = uses[index]
                .iter()
                .find(|(b, _)| matches!(b, Buffer::Param(p, _) if *p == param));
            let span = match used {
                Some((_, u)) => u.span,
                None if opaque => capture_span(model, index),
                None => continue,
            };
            let opted = model.unordered_buffers(node);
            if opted
                .iter()
                .any(|(_, b)| matches!(b, Some(Buffer::Param(p, _)) if *p == param))
            {
                continue;
            }
            let at = top(index);
            let after_wait = waits.iter().any(|&w| reach.get(w, at));
            let before_signal = signals.iter().any(|&s| done_before.get(at, s));
            let (name, buffer) = (&node.name, &model.params[param].name);
            let capture = if opaque {
                " (a capture node that does not declare the memory its work uses counts as \
                 using every buffer)"
            } else {
                ""
            };
            let side = |missing: &str, race: &str, edge: String| {
                format!(
                    "node `{name}` uses `{buffer}`{capture}, memory another API uses too \
                     (`#[external]`), but comes {missing}: {race} (a data race). {edge}, or mark \
                     the node `#[unordered({buffer})]` if the two APIs use disjoint parts of it"
                )
            };
            if !after_wait {
                // A wait it does not come before (the edge would close a cycle).
                let edge = match waits.iter().find(|&&w| !reach.get(at, w)) {
                    Some(&w) => format!(
                        "Order it after a wait node: add the edge `{} -> {};`",
                        model.nodes[w].written, model.nodes[at].written
                    ),
                    None if !waits.is_empty() => {
                        "It comes before every wait node: move its work after one".to_owned()
                    }
                    None => format!(
                        "Wait for the other API's work first: declare `ready: wait(sem = value);` \
                         and add the edge `ready -> {};`",
                        model.nodes[at].written
                    ),
                };
                let race =
                    format!("the other API's work before its signal may still use `{buffer}`");
                // (Once per declaration: a loop's instances share its tokens.)
                let key = format!("external wait {} {param}", name_of(&node.decl.name));
                cx.error_once(key, span, side("after no semaphore wait node", &race, edge));
            }
            if !before_signal {
                // Before a signal only through an edge that orders launches: that edge is the fix.
                let unwaited = signals
                    .iter()
                    .find_map(|&s| super::programmatic::unwaited_note(model, at, s));
                let edge = match (unwaited, signals.iter().find(|&&s| !reach.get(s, at))) {
                    (Some(note), _) => format!("On its path to a signal node, {note}"),
                    (None, Some(&s)) => format!(
                        "Order it before a signal node: add the edge `{} -> {};`",
                        model.nodes[at].written, model.nodes[s].written
                    ),
                    (None, None) if !signals.is_empty() => {
                        "It comes after every signal node: move its work before one".to_owned()
                    }
                    (None, None) => format!(
                        "Tell the other API when it is done: declare `done: signal(sem = value);` \
                         and add the edge `{} -> done;`",
                        model.nodes[at].written
                    ),
                };
                let race = format!(
                    "the other API's work after the graph's signals may use `{buffer}` while \
                     `{name}` runs"
                );
                let key = format!("external signal {} {param}", name_of(&node.decl.name));
                cx.error_once(
                    key,
                    span,
                    side("before no semaphore signal node", &race, edge),
                );
            }
        }
    }
}
