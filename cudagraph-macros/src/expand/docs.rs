//! The rustdoc of generated items: what each is, and the graph's shape (node list and picture).

use std::fmt::Write;

use quote::ToTokens;

use super::{Gen, NodeGen};
use crate::model::name_of;
use crate::parse::{CondKind, NodeOp};
use crate::text::{pretty, pretty_expr};
use cudagraph_layout::{self as picture, Body, Node as PNode, Picture};

/// A node's declaration, as written (`kernel saxpy<<<grid, 256>>>(n, x)`).
pub fn declaration(node: &NodeGen) -> String {
    match &node.decl.op {
        NodeOp::Kernel(k) => format!(
            "kernel {}<<<{}>>>({})",
            k.kernel,
            pretty_expr(k.config.to_token_stream()),
            pretty_expr(k.args.to_token_stream())
        ),
        NodeOp::Memset(m) => format!(
            "memset({}, {})",
            pretty_expr(m.dst.to_token_stream()),
            pretty_expr(m.value.to_token_stream())
        ),
        NodeOp::Memcpy(m) => format!(
            "memcpy({} -> {})",
            pretty_expr(m.src.to_token_stream()),
            pretty_expr(m.dst.to_token_stream())
        ),
        NodeOp::Host(h) => format!("host({})", pretty_expr(h.f.to_token_stream())),
        NodeOp::Child(c) => format!("child({})", pretty_expr(c.graph.to_token_stream())),
        NodeOp::Empty(_) => "empty".to_owned(),
        NodeOp::Alloc(a) => format!(
            "alloc::<{}>({})",
            pretty(a.elem.to_token_stream()),
            pretty_expr(a.len.to_token_stream())
        ),
        NodeOp::Free(f) => format!("free({})", f.alloc),
        NodeOp::Record(r) => format!("record({})", pretty_expr(r.event.to_token_stream())),
        NodeOp::Wait(w) => format!("wait({})", pretty_expr(w.event.to_token_stream())),
        NodeOp::Capture(c) => format!("capture({})", pretty_expr(c.work.to_token_stream())),
        NodeOp::SemaphoreSignal(s) | NodeOp::SemaphoreWait(s) => {
            let word = match &node.decl.op {
                NodeOp::SemaphoreSignal(_) => "signal",
                _ => "wait",
            };
            let sems: Vec<String> = s
                .sems
                .iter()
                .map(|(sem, value)| {
                    format!(
                        "{} = {}",
                        pretty_expr(sem.to_token_stream()),
                        pretty_expr(value.to_token_stream())
                    )
                })
                .collect();
            format!("{word}({})", sems.join(", "))
        }
        NodeOp::Collective(c) => {
            let mut args = vec![c.comm.to_string()];
            args.push(match &c.dst {
                Some(dst) => format!("{} -> {dst}", c.src),
                None => c.src.to_string(),
            });
            args.extend(c.reduce.iter().map(ToString::to_string));
            args.extend(c.ranks.iter().map(|r| pretty_expr(r.to_token_stream())));
            format!("{}({})", c.kind.syntax().0, args.join(", "))
        }
        NodeOp::Conditional(c) => {
            let keyword = match c.kind {
                CondKind::If | CondKind::IfElse => "if",
                CondKind::While => "while",
                CondKind::Switch => "switch",
            };
            let options: Vec<String> = c
                .default
                .iter()
                .map(|d| format!("default = {}", pretty_expr(d.to_token_stream())))
                .chain(
                    c.unroll
                        .iter()
                        .map(|u| format!("unroll = {}", pretty_expr(u.count.to_token_stream()))),
                )
                .collect();
            let default = match options.is_empty() {
                true => String::new(),
                false => format!("({})", options.join(", ")),
            };
            let bodies = match c.kind {
                CondKind::IfElse => " { .. } else { .. }".to_owned(),
                CondKind::Switch => format!(" {{ {} cases }}", c.bodies.len()),
                _ => " { .. }".to_owned(),
            };
            format!("{keyword} {}{default}{bodies}", c.handle)
        }
    }
}

fn kind_name(node: &NodeGen) -> &'static str {
    match &node.decl.op {
        NodeOp::Conditional(c) => match c.kind {
            CondKind::If => "if",
            CondKind::IfElse => "if_else",
            CondKind::While => "while",
            CondKind::Switch => "switch",
        },
        op => op.kind().name,
    }
}

/// Graphs with more nodes than this get no picture: it would be too large to read, and would
/// weigh on every page of the docs (about 250 bytes a node).
const MAX_PICTURE_NODES: usize = 100;

/// The node list, then the graph drawn as an SVG, laid out here at compile time so that it
/// shows offline and on docs.rs with no script; `TOPOLOGY` gives it as text.
fn shape(g: &Gen, svg: &str) -> String {
    let mut out = String::from(
        "# Nodes\n\nIn build order (a node's position is its index in the graph):\n\n",
    );
    for node in &g.nodes {
        let _ = write!(
            out,
            "{}. `{}`: `{}`",
            node.pos,
            node.name,
            declaration(node)
        );
        if !node.deps.is_empty() {
            let deps: Vec<String> = node
                .deps
                .iter()
                .map(|&d| format!("`{}`", g.nodes[d].name))
                .collect();
            let _ = write!(out, ", after {}", deps.join(", "));
        }
        out.push('\n');
    }
    if g.nodes.iter().any(|n| n.copies.is_some()) {
        out.push_str(
            "\nThe nodes of an unrolled WHILE body (`unroll = k`) are listed once: the graph holds \
             each `k` times, one copy after the other (the nodes that set the loop's handle in \
             the last copy only), so the indices in the graph of that body's nodes, and of the \
             bodies after it, are not the positions here.\n",
        );
    }
    out.push_str("\n# Topology\n\n");
    if picture_nodes(g) <= MAX_PICTURE_NODES {
        // On one line in a `<div>`: a raw HTML block for rustdoc's markdown, which would read
        // the labels as markdown in a paragraph and end the block at a blank line.
        let _ = writeln!(out, "<div style=\"overflow-x:auto\">{svg}</div>\n");
        // Text for other tools: the picture already shows what the flowchart would.
        let _ = writeln!(
            out,
            "As text: `{}::TOPOLOGY.to_mermaid()` (Mermaid) or `.to_dot()` (Graphviz).",
            g.graph
        );
    } else {
        let _ = writeln!(
            out,
            "{} nodes are too many to draw here: [`{graph}::topology_svg()`] has the picture, and \
             `{graph}::TOPOLOGY.to_dot()` gives the graph to Graphviz (`.to_mermaid()` to \
             Mermaid).",
            picture_nodes(g),
            graph = g.graph
        );
    }
    out
}

/// The graph as the picture module's input: its own nodes with their kinds and edges, each
/// conditional node holding its bodies' nodes and edges, recursively.
fn picture(g: &Gen) -> Picture {
    scope_picture(g, None)
}

/// The nodes of one scope (the graph's own, or one body of a conditional node) and the edges
/// between them: an edge never leaves its scope (the macro refuses one that would).
fn scope_picture(g: &Gen, scope: Option<(usize, usize)>) -> Picture {
    let members: Vec<&NodeGen> = g.nodes.iter().filter(|n| n.scope == scope).collect();
    // Each node's index in the picture, by position (a declaration may have thousands).
    let mut in_picture = vec![None; g.nodes.len()];
    for (i, n) in members.iter().enumerate() {
        in_picture[n.pos] = Some(i);
    }
    let index = |pos: usize| in_picture[pos];
    let nodes = members
        .iter()
        .map(|n| PNode {
            label: n.name.clone(),
            kind: kind_name(n).to_owned(),
            bodies: match &n.decl.op {
                NodeOp::Conditional(c) => (0..c.bodies.len())
                    .map(|b| Body {
                        label: match c.kind {
                            CondKind::If | CondKind::IfElse if b == 0 => "then".to_owned(),
                            CondKind::IfElse => "else".to_owned(),
                            CondKind::Switch => format!("case {b}"),
                            _ => match g
                                .nodes
                                .iter()
                                .find(|m| m.scope == Some((n.pos, b)))
                                .and_then(|m| m.copies)
                            {
                                Some(copies) => format!("body ×{}", copies.count()),
                                None => "body".to_owned(),
                            },
                        },
                        picture: scope_picture(g, Some((n.pos, b))),
                    })
                    .collect(),
                _ => Vec::new(),
            },
        })
        .collect();
    let edges = g
        .edges
        .iter()
        .filter_map(|&(a, b)| Some((index(a)?, index(b)?)))
        .collect();
    Picture { nodes, edges }
}

/// The number of boxes in the graph's picture.
fn picture_nodes(g: &Gen) -> usize {
    picture::node_count(&picture(g))
}

/// The graph drawn as one line of SVG, laid out here at compile time.
pub fn topology_svg(g: &Gen) -> String {
    picture::render_svg_titled(&picture(g), &format!("Topology of {}", g.graph))
}

/// The graph type's rustdoc; `svg` is [`topology_svg`].
pub fn graph_doc(g: &Gen, svg: &str) -> String {
    let (graph, params, exec) = (g.graph, &g.params_ty, &g.exec_ty);
    let lead = if g.docs.is_empty() { "" } else { "\n\n" };
    format!(
        "{lead}A CUDA graph declared with `cuda_graph!`: [`{graph}::build`] builds it from a \
         [`{params}`], [`{graph}::instantiate`] makes it a [`{exec}`].\n\n{}",
        shape(g, svg)
    )
}

pub fn params_doc(g: &Gen) -> String {
    let (graph, exec) = (g.graph, &g.exec_ty);
    let mut out = format!(
        "The params of [`{graph}`]: what its nodes are built from ([`{graph}::build`]). Its \
         executable owns a copy ([`{exec}::params`]), changed through the executable \
         (`set_<param>`, [`{exec}::params_mut`], [`{exec}::set_params`]), \
         which updates exactly the nodes that read what changed:\n\n"
    );
    for node in g.decl_nodes() {
        let read: Vec<String> = node
            .mentions
            .iter()
            .map(|&i| format!("`{}`", name_of(&g.model.params[i].name)))
            .collect();
        if !read.is_empty() {
            let _ = writeln!(out, "- node `{}` reads {}", written(node), read.join(", "));
        }
    }
    out
}

pub fn param_doc(g: &Gen, param: usize) -> String {
    let readers: Vec<String> = g
        .decl_nodes()
        .filter(|n| n.mentions.contains(&param))
        .map(|n| format!("`{}`", written(n)))
        .collect();
    let name = name_of(&g.model.params[param].name);
    if readers.is_empty() {
        format!("Param `{name}` (read by no node).")
    } else {
        format!(
            "Param `{name}`, read by node{} {}.",
            if readers.len() == 1 { "" } else { "s" },
            readers.join(", ")
        )
    }
}

pub fn exec_doc(g: &Gen) -> String {
    let (graph, params) = (g.graph, &g.params_ty);
    let guard = &g.guard_ty;
    let mut out = format!(
        "[`{graph}`], instantiated, with the [`{params}`] it runs, which it owns \
         ([`params`](Self::params)).\n\n\
         Change a param with its setter (`exec.set_alpha(0.5)?`, one per param: it updates the \
         nodes that read it, and returns the old value), several at once or two swapped through \
         [`params_mut`](Self::params_mut) ([`{guard}`], whose changes the next launch applies \
         if its `apply` did not), all of them by [`set_params`](Self::set_params); or update it \
         from another [`{graph}`] ([`update`](Self::update)), or one node through its handle. \
         Which node reads which param is known when the macro runs: a change updates the nodes \
         that read it, each once, with nothing else compared.\n\n\
         A change is made whole or not at all. One that a node refuses (the driver or a \
         kernel's check, params that would make two nodes race, or a change CUDA cannot make, \
         such as an allocation's length) is the error of the setter, `apply`, `set_params` or \
         launch that tried it, naming the node, and is undone: every param changed since the \
         last update gets back the value the nodes were last updated from (the executable keeps \
         a copy of those), the nodes updated before the refusal are set back, and nothing stays \
         pending, so the next launch runs what ran before. A panic in your code that a change \
         runs (a node expression, a param's `Clone`, `PartialEq` or `Drop`) may stop it part \
         way: caught, it leaves the executable refusing updates and launches \
         (`Error::Invalid`) until a whole-graph update. Memory the executable stops using is \
         released once the launches that may use it are done.\n\n\
         Nodes:\n\n"
    );
    for node in g.decl_nodes() {
        let (args, what) = match node.rep {
            Some(r) => (
                r.var.to_string(),
                format!(", one per iteration ({} instances)", r.count),
            ),
            None => match node.copies {
                Some(super::Copies::Each(k)) => (
                    String::new(),
                    format!(", in each of the {k} copies of an unrolled body"),
                ),
                _ => (String::new(), String::new()),
            },
        };
        let _ = writeln!(
            out,
            "- [`{}({args})`](Self::{}): {} node{what}",
            node.decl.name,
            node.decl.name,
            kind_name(node)
        );
    }
    out
}

/// A node as its declaration names it: `scale`, or `attn[layer]` for a node declared in a loop.
pub fn written(node: &NodeGen) -> String {
    match node.rep {
        Some(r) => format!("{}[{}]", name_of(&node.decl.name), r.var),
        None => node.name.clone(),
    }
}

/// The node names of `readers` (build positions), as a list for the docs.
fn reader_list(g: &Gen, readers: &[u32]) -> String {
    let names: Vec<String> = readers
        .iter()
        .map(|&pos| format!("`{}`", g.nodes[pos as usize].name))
        .collect();
    match names.as_slice() {
        [] => "no node".to_owned(),
        [one] => format!("node {one}"),
        many => format!("nodes {}", many.join(", ")),
    }
}

/// The executable's setter of param `param` (read by the nodes at `readers`).
pub fn setter_doc(g: &Gen, param: usize, readers: &[u32]) -> String {
    let name = name_of(&g.model.params[param].name);
    if g.model.is_indirect(param) {
        return format!(
            "Sets `#[indirect]` param `{name}` for the launches made from now on: a write into \
             host memory, no driver call; the next launch sends it to the device (each launch \
             reads the values set before it was made). Returns the old value."
        );
    }
    format!(
        "Sets param `{name}` and updates what reads it ({}), one single-node update each. \
         Returns the old value; on error, naming the node, nothing changes: the param keeps \
         its old value and the nodes their updates (see [`{}`]).\n",
        reader_list(g, readers),
        g.exec_ty
    )
}

/// The guard's setter of param `param`.
pub fn staged_setter_doc(g: &Gen, param: usize, readers: &[u32]) -> String {
    let name = name_of(&g.model.params[param].name);
    if g.model.is_indirect(param) {
        return format!(
            "Sets `#[indirect]` param `{name}` for the launches made from now on (a write into \
             host memory, as the executable's own setter). Returns the old value."
        );
    }
    format!(
        "Sets param `{name}`, and marks what reads it ({}) for the guard's \
         [`apply`](Self::apply), or the executable's next launch. Returns the old value.",
        reader_list(g, readers)
    )
}

/// The names of the declarations the nodes at `readers` (build positions) are instances of, as
/// a list for the docs of an array param's setters (`attn[layer]`, each once).
fn declaration_list(g: &Gen, readers: &[u32]) -> String {
    let mut names: Vec<String> = Vec::new();
    for &pos in readers {
        let name = format!("`{}`", written(&g.nodes[pos as usize]));
        if !names.contains(&name) {
            names.push(name);
        }
    }
    match names.as_slice() {
        [] => "no node".to_owned(),
        [one] => format!("node {one}"),
        many => format!("nodes {}", many.join(", ")),
    }
}

/// The executable's setter of an element of array param `param` (its elements read by the nodes
/// at `readers`).
pub fn element_setter_doc(g: &Gen, param: usize, readers: &[u32]) -> String {
    let name = name_of(&g.model.params[param].name);
    format!(
        "Sets element `index` of array param `{name}` and updates the nodes that read that \
         element (of {}), one single-node update each: the other elements' readers are left \
         alone. Returns the old value; `Error::Invalid` for an index beyond the array. On \
         error, naming the node, nothing changes: the element keeps its old value and the \
         nodes their updates (see [`{}`]).\n",
        declaration_list(g, readers),
        g.exec_ty
    )
}

/// The guard's setter of an element of array param `param`.
pub fn staged_element_setter_doc(g: &Gen, param: usize, readers: &[u32]) -> String {
    let name = name_of(&g.model.params[param].name);
    format!(
        "Sets element `index` of array param `{name}`, and marks the nodes that read that \
         element (of {}) for the guard's [`apply`](Self::apply), or the executable's next \
         launch. Returns the old value; `Error::Invalid` for an index beyond the array, with \
         nothing changed.",
        declaration_list(g, readers)
    )
}

/// The guard type's rustdoc.
pub fn guard_doc(g: &Gen) -> String {
    let exec = &g.exec_ty;
    format!(
        "Changes to the params of a [`{exec}`], several at once ([`{exec}::params_mut`]). It \
         reads as the params (`Deref`); `set_<param>` and [`swap`](Self::swap) change them and \
         mark the nodes that read them, and [`apply`](Self::apply) updates those nodes, each \
         once however many of its params changed. A guard dropped without `apply` leaves the \
         changes to the executable's next launch, which applies them first: a change cannot be \
         forgotten. An update that fails is the error of that `apply` or launch, naming the \
         node (the launch launches nothing), and undoes the changes: the params and the nodes \
         are as they were before them.\n\n\
         ```text\n\
         let mut p = exec.params_mut();\n\
         p.set_n(n);                         // its readers are updated once,\n\
         p.set_scale(0.5);                   // even those reading both\n\
         p.swap(|p| (&mut p.x, &mut p.x_new))?;\n\
         p.apply()?;                         // or: the next exec.launch(&stream)\n\
         ```"
    )
}

pub fn swap_doc(g: &Gen) -> String {
    let slots = &g.slots_ty;
    format!(
        "Swaps two params of one type, named by `pick` (`p.swap(|p| (&mut p.x, &mut p.x_new))`), \
         and marks the nodes that read them. `pick` is given the params' slots ([`{slots}`]), not \
         their values: it names two params and changes none, so that the swap is the only \
         change, and the tracker knows it. The slots of an array param are its elements' \
         (`|p| (&mut p.w[0], &mut p.w[1])`); two arrays of slots (two array params, or runs of \
         elements) are swapped element by element.\n\n\
         Never refused for slots of the struct `pick` is given (its signature allows no other)."
    )
}

pub fn exec_swap_doc(g: &Gen) -> String {
    let (slots, guard) = (&g.slots_ty, &g.guard_ty);
    format!(
        "Swaps two params of one type, named by `pick` (`exec.swap(|p| (&mut p.x, &mut \
         p.x_new))?`), and updates the nodes that read them, each once, before it returns: the \
         ping-pong buffers of an iteration swapped between launches in one call. Returns how \
         many nodes it updated. `pick` is given the params' slots ([`{slots}`]), not their \
         values: it names two params and changes none. As [`{guard}::swap`] followed by \
         `apply`: all or nothing (a refused update is reported, naming its node, and the swap \
         undone), any other change pending applied with it.\n\n\
         Swapping two buffers the executable holds (a ping-pong) registers and releases \
         nothing: the swap costs its readers' driver calls and the update of their records of \
         memory.\n\n\
         # Errors\n\n\
         The error of the update that refused the swap, naming its node (a kernel's launch \
         check, a driver error, two nodes that would race): the swap is undone."
    )
}

pub fn slots_doc(g: &Gen) -> String {
    let (guard, params) = (&g.guard_ty, &g.params_ty);
    format!(
        "The params of a [`{params}`] as [`{guard}::swap`] names them: a field per param, of the \
         same name, holding no value (a `Slot` per param, an array of them per array param whose \
         elements are params of their own). Given to `swap`'s `pick` instead of the params, so \
         that it names the two to swap and cannot change any: `|p| (&mut p.x, &mut p.x_new)`. \
         None can be made outside `swap`."
    )
}

pub fn accessor_doc(_g: &Gen, node: &NodeGen) -> String {
    let mut out = format!(
        "Node `{}` (`{}`): its update handle.",
        written(node),
        declaration(node)
    );
    if let Some(r) = node.rep {
        let _ = write!(
            out,
            "\n\nThe node is declared in a `for` loop: this is the handle of its instance of \
             iteration `{var}` (`{var}` below {count}).\n\n# Errors\n\n`Error::Invalid` when \
             `{var}` is {count} or more.",
            var = r.var,
            count = r.count
        );
    }
    if let Some(note) = copies_note(node) {
        let _ = write!(out, "\n\n{note}");
    }
    for doc in node_docs(node) {
        out.push('\n');
        out.push_str(&doc);
    }
    out
}

/// What a node of an unrolled WHILE body is, for its handle's docs.
fn copies_note(node: &NodeGen) -> Option<String> {
    Some(match node.copies? {
        super::Copies::Each(k) => format!(
            "The node is in an unrolled WHILE body: the graph holds it {k} times, once per copy \
             of the body. The handle is all {k} copies: an update sets each of them, and \
             `node()` gives their runtime handles."
        ),
        super::Copies::Last(k) => format!(
            "The node sets the handle of the unrolled WHILE node it is in: it runs in the last \
             of the body's {k} copies only, once per pass of the loop."
        ),
    })
}

pub fn handle_doc(g: &Gen, node: &NodeGen) -> String {
    let allowed = node.decl.op.kind().updates;
    let mut out = format!(
        "Update handle of node `{}` of [`{}`] (`{}`): {allowed} ([what CUDA allows](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#individual-node-update)).",
        written(node),
        g.exec_ty,
        declaration(node)
    );
    // The race rule judges the declaration's params, not what a handle is given.
    let takes_memory = match &node.decl.op {
        NodeOp::Kernel(_) | NodeOp::Memset(_) | NodeOp::Memcpy(_) | NodeOp::Host(_) => true,
        NodeOp::Child(_) => true,
        // A capture that declares its uses takes only the memory it uses already.
        NodeOp::Capture(c) => c.uses.is_none(),
        _ => false,
    };
    if takes_memory {
        out.push_str(
            "\n\nMemory given through the handle is not judged by the race rule, which judges \
             the declaration's params: it must not be memory that a node no edge orders with \
             this one uses, one of them writing it (host memory that host code uses is checked: \
             `Error::Hazard`). A change of a param the node reads, or `set_params`, sets the node \
             back to its params.",
        );
    }
    if let Some(note) = copies_note(node) {
        let _ = write!(out, "\n\n{note}");
    }
    for doc in node_docs(node) {
        out.push('\n');
        out.push_str(&doc);
    }
    out
}

/// The doc comments written on a node.
fn node_docs(node: &NodeGen) -> Vec<String> {
    node.decl
        .attrs
        .iter()
        .filter(|a| a.path().is_ident("doc"))
        .filter_map(|a| match &a.meta {
            syn::Meta::NameValue(nv) => match &nv.value {
                syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(s),
                    ..
                }) => Some(s.value()),
                _ => None,
            },
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    /// The expansion of `source`, as text.
    fn expand(source: &str) -> String {
        let input = syn::parse_str::<crate::parse::Input>(source).expect("parses");
        crate::expand::expand(input).expect("expands").to_string()
    }

    /// A chain of `n` empty nodes.
    fn chain(n: usize) -> String {
        let nodes: String = (0..n).map(|i| format!("n{i}: empty; ")).collect();
        let edges: Vec<String> = (0..n).map(|i| format!("n{i}")).collect();
        format!("graph Chain {{ {nodes} {}; }}", edges.join(" -> "))
    }

    #[test]
    fn the_graph_doc_holds_the_picture_as_one_raw_html_line() {
        let out = expand(&chain(3));
        // In the doc string literal, quotes are escaped and the line ends with an escaped
        // newline: the `<div>` opens a raw HTML block that the blank line after it closes.
        let picture = "\\n\\n<div style=\\\"overflow-x:auto\\\"><svg xmlns=";
        assert!(out.contains(picture), "{out}");
        assert!(out.contains("</svg></div>\\n\\nAs text: `Chain::TOPOLOGY.to_mermaid()`"));
        assert!(out.contains("Topology of Chain: 3 nodes, 2 edges"), "{out}");
        assert!(out.contains("fn topology_svg"), "{out}");
    }

    #[test]
    fn conditional_bodies_are_drawn_inside_their_nodes() {
        let out = expand(
            "graph Loop {
                params {
                    step: Kernel<(ConditionalHandle, DevicePtrMut<u32>, u32)>,
                    counter: DeviceBuffer<u32>,
                    limit: u32,
                }
                reset: memset(counter, 0u32);
                count: while more(default = 1) {
                    bump: kernel step<<<1, 32>>>(more, counter, limit);
                    again: kernel step<<<1, 32>>>(more, counter, limit);
                    bump -> again;
                }
                check: if done {
                    yes: empty;
                } else {
                    no: empty;
                }
                reset -> count -> check;
            }",
        );
        let svg = &out[out.find("<svg").unwrap()..out.find("</svg>").unwrap()];
        // Every node once, the edges of the graph and of the WHILE's body.
        assert!(svg.contains("Topology of Loop: 7 nodes, 3 edges"), "{svg}");
        for label in [
            "count</tspan>: while",
            "check</tspan>: if_else",
            ">body</text>",
            ">then</text>",
            ">else</text>",
        ] {
            assert_eq!(svg.matches(label).count(), 1, "{label} in {svg}");
        }
    }

    #[test]
    fn large_graphs_get_no_picture_in_their_docs() {
        let n = super::MAX_PICTURE_NODES + 1;
        let out = expand(&chain(n));
        assert!(
            out.contains(&format!("{n} nodes are too many to draw here")),
            "{out}"
        );
        // `topology_svg()` still has the picture; the docs do not.
        assert_eq!(out.matches("<svg xmlns=").count(), 1, "{out}");
        let svg = out.find("<svg xmlns=").unwrap();
        let function = out.find("fn topology_svg").unwrap();
        assert!(function < svg && !out[function..svg].contains('}'), "{out}");
    }
}
