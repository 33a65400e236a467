// Rationale (T11, programmatic dependent launch): an edge written `a ->(programmatic) b` or
// `a ->(launch_order) b` carries `CUgraphEdgeData` whose port is a kernel node's
// (`CU_GRAPH_KERNEL_NODE_PORT_PROGRAMMATIC`, `..._LAUNCH_ORDER`) and whose type
// (`CU_GRAPH_DEPENDENCY_TYPE_PROGRAMMATIC`) CUDA allows only between two kernel nodes: the driver
// refuses any other when the graph is built. The declaration shows both ends' kinds, so the edge
// is refused here, at its `(programmatic)`.
//
// Such an edge lets the consumer run before the producer has finished: the consumer sees the
// producer's writes only after `griddepcontrol.wait` (`cudaGridDependencySynchronize()`). A
// consumer declared `#[waits]` promises it waits before touching memory (its `Kernel` says so too:
// `Kernel::waits_for_dependency`, checked when the graph is built); into any other, the edge
// orders launches only, and the hazard rule (`hazards`) treats the two nodes as unordered for
// memory, reporting a conflict over a buffer with the edge named.

use super::Ctxt;
use crate::model::{name_of, End, Model};
use crate::parse::EdgeKind;

pub fn check(model: &Model, cx: &mut Ctxt) {
    for edge in &model.edges {
        let Some(data) = edge.data else { continue };
        let (Some(from), Some(to)) = (edge.ends.0.node(), edge.ends.1.node()) else {
            continue;
        };
        // A loop's edges and nodes are added in loops, with plain dependencies (an edge with
        // data joins a node once it exists, one by one): refused there, once per edge written.
        if edge.rep.is_some() || model.nodes[from].rep.is_some() || model.nodes[to].rep.is_some() {
            if model.first_of_edge(edge) {
                cx.error(
                    data.ident.span(),
                    format!(
                        "an edge with data (`{kw}`) cannot join a node declared in a `for` loop: \
                         a loop's nodes are joined by plain edges; write `{a} -> {b};`, or \
                         declare both kernels outside the loop",
                        kw = data.kind.keyword(),
                        a = written(edge.from),
                        b = written(edge.to),
                    ),
                );
            }
            continue;
        }
        for end in [from, to] {
            if model.is_kernel(end) {
                continue;
            }
            let node = &model.nodes[end];
            cx.error(
                data.ident.span(),
                format!(
                    "a `{kw}` edge joins two kernel nodes (CUDA's rule for edges with data: their \
                     port and type are a kernel's), but `{name}` is {kind}: write a plain edge, \
                     `{a} -> {b};`",
                    kw = data.kind.keyword(),
                    name = node.name,
                    kind = with_article(node.op.kind().name),
                    a = model.nodes[from].written,
                    b = model.nodes[to].written,
                ),
            );
        }
    }
    for (index, node) in model.nodes.iter().enumerate() {
        let Some(attr) = model.waits_attr(index) else {
            continue;
        };
        if !model.first_of_decl(index) {
            continue; // reported at the declaration's first instance
        }
        if !matches!(attr.meta, syn::Meta::Path(_)) {
            cx.error_spanned(attr, "`#[waits]` takes no arguments");
        } else if node.rep.is_some() {
            cx.error_spanned(
                attr,
                format!(
                    "`#[waits]` cannot be declared on `{}`, a node of a `for` loop: a loop's \
                     nodes are joined by plain edges, with nothing to wait for; declare the \
                     kernel outside the loop, or leave `#[waits]` out",
                    name_of(&node.decl.name)
                ),
            );
        } else if !model.is_kernel(index) {
            cx.error_spanned(
                attr,
                format!(
                    "`#[waits]` declares that a kernel waits for the kernels before it \
                     (`griddepcontrol.wait`), but `{}` is {}: only kernel nodes take it",
                    node.name,
                    with_article(node.op.kind().name)
                ),
            );
        }
    }
    if let Some(attr) = model.programmatic_mode() {
        if !matches!(attr.meta, syn::Meta::Path(_)) {
            cx.error_spanned(attr, "`#[programmatic]` takes no arguments");
        }
    }
}

/// For two nodes a conflict over memory joins, the edge with data that seems to order them but
/// does not: the edge `a ->(kind) b` whose consumer does not wait, when the nodes are ordered
/// only through such edges. `None` when no edge orders them at all.
pub fn unwaited_edge(model: &Model, a: usize, b: usize) -> Option<(usize, usize, EdgeKind)> {
    let reach = model.reachability();
    let (first, second) = if reach.get(a, b) {
        (a, b)
    } else if reach.get(b, a) {
        (b, a)
    } else {
        return None;
    };
    let path = model.path(first, second)?;
    path.windows(2).find_map(|pair| {
        let (from, to) = (pair[0], pair[1]);
        let kind = model.edge_kind(from, to);
        (kind != EdgeKind::Plain && !model.waits(to)).then_some((from, to, kind))
    })
}

/// What to say when nodes `a` and `b` conflict over memory and are ordered only through an edge
/// with data whose consumer does not wait: the sentence naming that edge and the two fixes, else
/// `None`.
pub fn unwaited_note(model: &Model, a: usize, b: usize) -> Option<String> {
    let (from, to, kind) = unwaited_edge(model, a, b)?;
    let (f, t) = (&model.nodes[from].written, &model.nodes[to].written);
    let written = if model
        .edges
        .iter()
        .any(|e| e.data.is_some() && e.ends == (End::Node(from), End::Node(to)))
    {
        format!("`{f} ->({}) {t}`", kind.keyword())
    } else {
        format!("`{f} -> {t}` (programmatic under the graph's `#[programmatic]`)")
    };
    Some(format!(
        "the edge {written} lets kernel `{t}` run before `{f}` has finished, and `{t}` sees \
         memory written before it only after `griddepcontrol.wait` \
         (`cudaGridDependencySynchronize()`): declare node `{t}` `#[waits]` (its kernel waits before \
         it touches memory, and its `Kernel` is made with `waits_for_dependency`), or make the \
         edge plain, `{f} -> {t};`"
    ))
}

/// A node reference as written, `a[i]` (tokens print as `a [i]`).
fn written(r: &crate::parse::NodeRef) -> String {
    r.tokens()
        .to_string()
        .replace(" [", "[")
        .replace("[ ", "[")
        .replace(" ]", "]")
}

/// `a memset node`, `an empty node`.
fn with_article(kind: &str) -> String {
    let article = if kind.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    };
    format!("{article} {kind} node")
}

#[cfg(test)]
mod tests {
    use crate::model::Model;
    use crate::parse::EdgeKind;

    fn with_model(source: &str, f: impl FnOnce(&Model)) {
        let input: crate::parse::Input = syn::parse_str(source).expect("parses");
        f(&Model::new(&input.graphs[0]));
    }

    const CHAIN: &str = "
        graph G {
            params { k: Kernel<(u32,)>, x: DeviceBuffer<f32> }
            z: memset(x, 0.0f32);
            a: kernel k<<<1, 1>>>(1);
            #[waits]
            b: kernel k<<<1, 1>>>(1);
            c: kernel k<<<1, 1>>>(1);
            z -> a ->(programmatic) b ->(launch_order) c;
        }";

    #[test]
    fn edges_carry_what_their_arrow_says() {
        with_model(CHAIN, |m| {
            let (z, a, b, c) = (0, 1, 2, 3);
            assert_eq!(m.edge_kind(z, a), EdgeKind::Plain);
            assert_eq!(m.edge_kind(a, b), EdgeKind::Programmatic);
            assert_eq!(m.edge_kind(b, c), EdgeKind::LaunchOrder);
            // Into a waiting kernel an edge with data orders memory; into `c` it does not.
            assert_eq!(m.ordering_edges(), [(z, a), (a, b)]);
            let reach = m.memory_reachability();
            assert!(reach.get(z, b) && !reach.get(a, c) && !reach.get(z, c));
            assert_eq!(
                super::unwaited_edge(m, z, c),
                Some((b, c, EdgeKind::LaunchOrder))
            );
            assert_eq!(super::unwaited_edge(m, z, b), None);
        });
    }

    #[test]
    fn programmatic_mode_converts_edges_into_waiting_kernels_only() {
        let source = CHAIN
            .replace("graph G", "#[programmatic] graph G")
            .replace("->(programmatic)", "->")
            .replace("->(launch_order)", "->");
        with_model(&source, |m| {
            assert!(m.programmatic_mode().is_some());
            // memset -> kernel: not a kernel edge; a -> b: into a waiting kernel; b -> c: `c`
            // does not wait, so the edge stays plain (converting it would lose ordering).
            assert_eq!(m.edge_kind(0, 1), EdgeKind::Plain);
            assert_eq!(m.edge_kind(1, 2), EdgeKind::Programmatic);
            assert_eq!(m.edge_kind(2, 3), EdgeKind::Plain);
        });
    }
}
