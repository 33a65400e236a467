//! The canonical construction order of `cuda_graph!` (CUDA pairs nodes by creation order in whole-graph update): every graph built from one
//! declaration is made by the same sequence of driver calls, so whole-graph update
//! (`exec.update(&g)`) pairs node for node whatever the params. A declaration with two roots,
//! a fan-in, a fan-out and three sinks (the shape where the driver pairs by creation order) is
//! built 50 times with random params and pointers; every update must succeed and every launch
//! must compute what that build's params say. `TOPOLOGY`, its renderings (`topology_svg()`
//! included) and the runtime graph list the declared nodes and edges.

use std::collections::BTreeSet;

use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{cuda_graph, NodeKind};
use cudagraph_tests::{
    assert_close, assert_untouched, fill_buffer, read_back, zeros, Gpu, Kernels, Rng, ScaleArgs,
    POISON,
};

cuda_graph! {
    /// Kernel nodes only, so `rebuild` goes through `Graph::rebuild`, which reuses the driver's
    /// nodes: `y = s2 * (s1 * y)`, `z = s3 * z`.
    graph Scales {
        params {
            scale: Kernel<ScaleArgs>,
            y: DeviceBuffer<f32>,
            z: DeviceBuffer<f32>,
            n: u32,
            s1: f32,
            s2: f32,
            s3: f32,
        }
        first: kernel scale<<<n.div_ceil(256), 256>>>(n, s1, y);
        second: kernel scale<<<n.div_ceil(256), 256>>>(n, s2, y);
        other: kernel scale<<<n.div_ceil(256), 256>>>(n, s3, z);
        first -> second;
    }
}

/// Host-node body: writes `value` into `out[0]`.
fn store(out: &mut [u64], value: u64) {
    assert_eq!(out.len(), 1, "store: one slot");
    out[0] = value;
}

cuda_graph! {
    /// Two roots joined (fan-in), one node feeding three (fan-out), three sinks. Declared sinks
    /// first, so the build order is the macro's, not the text's.
    ///
    /// ```text
    /// fill_p ─┐          ┌─ s1 (o1 = a2 * r + x)                        sink
    ///         ├─ mix ────┼─ s2 (o2 = a3 * x + r) ─ tail (o2 *= a5)      sink
    /// fill_q ─┘ (r = a1 * p + q) └─ s3 (o3 = a4 * r + r) ─ stamp (host)  sink
    /// ```
    graph Web {
        params {
            /// `AxpyOutArgs`, written out: the macro then sees that `s1`, `s2` and `s3` only read
            /// `x` and `r` (through the alias, every buffer argument may be written, and the three
            /// unordered nodes would race on them).
            axpy: Kernel<(u32, f32, DevicePtr<f32>, DevicePtr<f32>, DevicePtrMut<f32>)>,
            scale: Kernel<ScaleArgs>,
            x: DeviceBuffer<f32>,
            p: DeviceBuffer<f32>,
            q: DeviceBuffer<f32>,
            r: DeviceBuffer<f32>,
            o1: DeviceBuffer<f32>,
            o2: DeviceBuffer<f32>,
            o3: DeviceBuffer<f32>,
            n: u32,
            cp: f32,
            cq: f32,
            a1: f32,
            a2: f32,
            a3: f32,
            a4: f32,
            a5: f32,
            tag: u64,
            tag_out: HostBuffer<u64>,
        }
        stamp: host(move |out: &mut [u64]| store(out, tag), mut tag_out);
        tail: kernel scale<<<n.div_ceil(256), 256>>>(n, a5, o2);
        s1: kernel axpy<<<n.div_ceil(256), 256>>>(n, a2, r, x, o1);
        s3: kernel axpy<<<n.div_ceil(256), 256>>>(n, a4, r, r, o3);
        s2: kernel axpy<<<n.div_ceil(256), 256>>>(n, a3, x, r, o2);
        mix: kernel axpy<<<n.div_ceil(256), 256>>>(n, a1, p, q, r);
        fill_q: memset(q, cq);
        fill_p: memset(p, cp);
        [fill_p, fill_q] -> mix -> [s1, s2, s3];
        s2 -> tail;
        s3 -> stamp;
    }
}

/// The declared edges, by name, as written above.
const DECLARED_EDGES: [(&str, &str); 7] = [
    ("fill_p", "mix"),
    ("fill_q", "mix"),
    ("mix", "s1"),
    ("mix", "s2"),
    ("mix", "s3"),
    ("s2", "tail"),
    ("s3", "stamp"),
];

/// The declared nodes and their kinds.
const DECLARED_NODES: [(&str, NodeKind); 8] = [
    ("stamp", NodeKind::Host),
    ("tail", NodeKind::Kernel),
    ("s1", NodeKind::Kernel),
    ("s3", NodeKind::Kernel),
    ("s2", NodeKind::Kernel),
    ("mix", NodeKind::Kernel),
    ("fill_q", NodeKind::Memset),
    ("fill_p", NodeKind::Memset),
];

/// `TOPOLOGY`'s edges as names.
fn topology_edges() -> BTreeSet<(&'static str, &'static str)> {
    let t = Web::TOPOLOGY;
    t.edges
        .iter()
        .map(|&(from, to)| (t.nodes[from].0, t.nodes[to].0))
        .collect()
}

#[test]
fn topology_lists_every_declared_node_and_edge_in_a_topological_order() {
    let t = Web::TOPOLOGY;
    assert_eq!(t.name, "Web");
    let by_name = |nodes: &[(&'static str, NodeKind)]| -> BTreeSet<(&'static str, &'static str)> {
        nodes
            .iter()
            .map(|&(name, kind)| (name, kind.name()))
            .collect()
    };
    assert_eq!(
        by_name(t.nodes),
        by_name(&DECLARED_NODES),
        "nodes and kinds"
    );
    assert_eq!(t.nodes.len(), DECLARED_NODES.len(), "each node once");
    assert_eq!(
        topology_edges(),
        DECLARED_EDGES.into_iter().collect(),
        "edges"
    );
    assert_eq!(t.edges.len(), DECLARED_EDGES.len(), "each edge once");
    for &(from, to) in t.edges {
        assert!(from < to, "edge {from} -> {to}: a dependency comes first");
    }
    // Among the nodes whose dependencies are placed, the one declared first goes next.
    let names: Vec<&str> = t.nodes.iter().map(|n| n.0).collect();
    assert_eq!(
        names,
        ["fill_q", "fill_p", "mix", "s1", "s3", "stamp", "s2", "tail"],
        "canonical order"
    );
    // Dependencies in declared order: `mix` after `fill_p`, then `fill_q`.
    let mix = t.node("mix").unwrap();
    let deps: Vec<&str> = t.dependencies(mix).map(|d| t.nodes[d].0).collect();
    assert_eq!(deps, ["fill_p", "fill_q"]);
}

#[test]
fn topology_renders_every_node_and_edge_to_dot_and_mermaid() {
    let t = Web::TOPOLOGY;
    let dot = t.to_dot();
    let mermaid = t.to_mermaid();
    for (name, kind) in DECLARED_NODES {
        let i = t.node(name).unwrap();
        let label = format!("n{i} [label=\"{name}\\n{}\"", kind.name());
        assert!(dot.contains(&label), "DOT lacks `{label}`:\n{dot}");
        let label = format!("n{i}[\"{name}: {}\"]", kind.name());
        assert!(
            mermaid.contains(&label),
            "Mermaid lacks `{label}`:\n{mermaid}"
        );
    }
    for (from, to) in DECLARED_EDGES {
        let (a, b) = (t.node(from).unwrap(), t.node(to).unwrap());
        let edge = format!("n{a} -> n{b};");
        assert!(dot.contains(&edge), "DOT lacks {from} -> {to}:\n{dot}");
        let edge = format!("n{a} --> n{b}");
        assert!(
            mermaid.contains(&edge),
            "Mermaid lacks {from} -> {to}:\n{mermaid}"
        );
    }
    // Nothing else: one line per node and per edge.
    assert_eq!(dot.matches(" -> ").count(), DECLARED_EDGES.len(), "{dot}");
    assert_eq!(
        dot.matches("[label=").count(),
        DECLARED_NODES.len(),
        "{dot}"
    );
    assert_eq!(
        mermaid.matches(" --> ").count(),
        DECLARED_EDGES.len(),
        "{mermaid}"
    );
    assert_eq!(
        mermaid.lines().count(),
        1 + DECLARED_NODES.len() + DECLARED_EDGES.len()
    );
    assert!(dot.starts_with("digraph \"Web\" {"), "{dot}");
}

#[test]
fn topology_svg_draws_every_node_and_edge() {
    let svg = Web::topology_svg();
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" "));
    assert!(svg.ends_with("</svg>") && !svg.contains('\n'), "{svg}");
    let title = format!(
        "<title>Topology of Web: {} nodes, {} edges</title>",
        DECLARED_NODES.len(),
        DECLARED_EDGES.len()
    );
    assert!(svg.contains(&title), "{svg}");
    for (name, kind) in DECLARED_NODES {
        // The name over the kind, in one box each.
        let name = format!(">{name}</text>");
        assert_eq!(svg.matches(&name).count(), 1, "{name} in {svg}");
        assert!(svg.contains(&format!(">{}</text>", kind.name())), "{svg}");
    }
    assert_eq!(svg.matches("<rect ").count(), DECLARED_NODES.len(), "{svg}");
    // One path per edge, plus the arrowhead's.
    assert_eq!(
        svg.matches("<path ").count(),
        DECLARED_EDGES.len() + 1,
        "{svg}"
    );
}

/// Buffers for `Web`: the input, two candidates for `p` and `q`, three outputs.
struct Buffers {
    len: usize,
    x: DeviceBuffer<f32>,
    pq: [DeviceBuffer<f32>; 2],
    r: DeviceBuffer<f32>,
    outs: [DeviceBuffer<f32>; 3],
    tag: HostBuffer<u64>,
}

/// The params of one build, with which buffers they point to.
struct Build {
    params: WebParams,
    /// `p` is `pq[p_is]`, `q` the other one.
    p_is: usize,
    /// `o1`, `o2`, `o3` are `outs[outs_are[0]]`, ...
    outs_are: [usize; 3],
}

impl Buffers {
    fn new(gpu: &Gpu, len: usize) -> Self {
        let alloc = || zeros::<f32>(gpu, len);
        Self {
            len,
            x: alloc(),
            pq: [alloc(), alloc()],
            r: alloc(),
            outs: [alloc(), alloc(), alloc()],
            tag: HostBuffer::zeroed(&gpu.ctx, 1).unwrap(),
        }
    }

    /// Random params: scalars, `n`, the tag, and which buffer plays which part.
    fn random(&self, k: &Kernels, rng: &mut Rng) -> Build {
        let p_is = rng.below(2) as usize;
        let mut outs_are = [0, 1, 2];
        for i in (1..3).rev() {
            outs_are.swap(i, rng.below(i as u32 + 1) as usize);
        }
        let out = |i: usize| self.outs[outs_are[i]].clone();
        let params = WebParams {
            axpy: k.axpy_out.clone(),
            scale: k.scale.clone(),
            x: self.x.clone(),
            p: self.pq[p_is].clone(),
            q: self.pq[1 - p_is].clone(),
            r: self.r.clone(),
            o1: out(0),
            o2: out(1),
            o3: out(2),
            n: rng.len_in(self.len / 2, self.len + 1) as u32,
            cp: rng.f32(),
            cq: rng.f32(),
            a1: rng.f32(),
            a2: rng.f32(),
            a3: rng.f32(),
            a4: rng.f32(),
            a5: rng.f32(),
            tag: rng.next_u64(),
            tag_out: self.tag.clone(),
        };
        Build {
            params,
            p_is,
            outs_are,
        }
    }

    /// Fresh input, poisoned outputs, one launch, and every output checked against `b`.
    fn launch_and_check(
        &self,
        gpu: &Gpu,
        rng: &mut Rng,
        exec: &mut WebExec,
        b: &Build,
        what: &str,
    ) {
        let x = rng.f32s(self.len);
        self.x.copy_from(&x).unwrap();
        for buf in self.pq.iter().chain([&self.r]).chain(&self.outs) {
            fill_buffer(buf, POISON);
        }
        self.tag.write().unwrap()[0] = 0;
        exec.launch(&gpu.stream).unwrap();
        gpu.stream.synchronize().unwrap();

        let p = &b.params;
        let n = p.n as usize;
        let len = self.len;
        // The memsets cover whole buffers; the kernels the first `n` elements.
        let pq_want = [
            vec![if b.p_is == 0 { p.cp } else { p.cq }; len],
            vec![if b.p_is == 0 { p.cq } else { p.cp }; len],
        ];
        let r: Vec<f32> = (0..n).map(|_| p.a1 * p.cp + p.cq).collect();
        let o1: Vec<f32> = (0..n).map(|i| p.a2 * r[i] + x[i]).collect();
        let o2: Vec<f32> = (0..n).map(|i| p.a5 * (p.a3 * x[i] + r[i])).collect();
        let o3: Vec<f32> = (0..n).map(|i| p.a4 * r[i] + r[i]).collect();
        for (i, want) in pq_want.iter().enumerate() {
            let got = read_back(&gpu.stream, &self.pq[i]);
            assert_eq!(&got, want, "{what}: pq[{i}] (memset)");
        }
        let got_r = read_back(&gpu.stream, &self.r);
        assert_close(&format!("{what}: r"), &got_r[..n], &r, 1e-5);
        assert_untouched(&format!("{what}: r beyond n"), &got_r[n..], POISON);
        for (slot, want) in [o1, o2, o3].iter().enumerate() {
            let buf = b.outs_are[slot];
            let got = read_back(&gpu.stream, &self.outs[buf]);
            let name = format!("{what}: o{} (outs[{buf}])", slot + 1);
            assert_close(&name, &got[..n], want, 1e-5);
            assert_untouched(&format!("{name} beyond n"), &got[n..], POISON);
        }
        assert_eq!(self.tag.read().unwrap()[0], p.tag, "{what}: stamp's tag");
        exec.as_exec().check_host_panics().unwrap();
    }
}

#[test]
fn fifty_builds_of_one_declaration_all_update_one_executable() {
    fifty_updates_of_one_executable(
        "fifty_builds_of_one_declaration_all_update_one_executable",
        Source::NewBuilds,
    );
}

#[test]
fn one_graph_rebuilt_in_place_fifty_times_updates_one_executable() {
    fifty_updates_of_one_executable(
        "one_graph_rebuilt_in_place_fifty_times_updates_one_executable",
        Source::RebuiltInPlace,
    );
}

/// Where the update source of each round comes from.
#[derive(Debug, Clone, Copy)]
enum Source {
    /// `Web::build` each round, dropped right after the update.
    NewBuilds,
    /// One graph, `rebuild` each round.
    RebuiltInPlace,
}

/// 50 rounds of random params, each a whole-graph update of one executable from a graph of
/// `source`, launched and checked against the CPU.
fn fifty_updates_of_one_executable(name: &str, source: Source) {
    let Some(gpu) = cudagraph_tests::gpu(name) else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new(name);
    let bufs = Buffers::new(&gpu, rng.len_in(1000, 20_000));

    let first = bufs.random(&k, &mut rng);
    let mut exec = Web::build(&gpu.ctx, &first.params)
        .unwrap()
        .instantiate()
        .unwrap();
    bufs.launch_and_check(&gpu, &mut rng, &mut exec, &first, "as built");

    let mut graph = Web::build(&gpu.ctx, &first.params).unwrap();
    for round in 1..=50 {
        let next = bufs.random(&k, &mut rng);
        let updated = match source {
            Source::NewBuilds => {
                let fresh = Web::build(&gpu.ctx, &next.params).unwrap();
                // The executable keeps what it needs: the source graph goes right after.
                exec.update(&fresh)
            }
            Source::RebuiltInPlace => {
                graph.rebuild(&next.params).unwrap();
                exec.update(&graph)
            }
        };
        if let Err(e) = updated {
            panic!("round {round} ({source:?}): the update was refused: {e}");
        }
        let what = format!("round {round} ({source:?})");
        bufs.launch_and_check(&gpu, &mut rng, &mut exec, &next, &what);
        // The executable now runs that build's params: set_params finds nothing to change.
        assert_eq!(
            exec.set_params(&next.params).unwrap(),
            0,
            "{what}: set_params after update"
        );
    }
    // The last source graph instantiates as itself, too (once `exec` is gone: two executables
    // cannot both write the host buffer `tag`).
    drop(exec);
    let last = bufs.random(&k, &mut rng);
    graph.rebuild(&last.params).unwrap();
    let mut own = graph.instantiate().unwrap();
    bufs.launch_and_check(
        &gpu,
        &mut rng,
        &mut own,
        &last,
        "instantiated after rebuilds",
    );
}

/// A kernel-only declaration's `rebuild` keeps the driver's graph and nodes (values and buffers
/// changed in place), and each update from it computes what the rebuild's params say; a rebuild
/// with another function for the kernel param makes a fresh driver graph, which updates too.
#[test]
fn a_kernel_only_declaration_rebuilds_into_the_same_driver_graph() {
    let Some(gpu) =
        cudagraph_tests::gpu("a_kernel_only_declaration_rebuilds_into_the_same_driver_graph")
    else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let n = 3000;
    let (a, b) = (zeros::<f32>(&gpu, n), zeros::<f32>(&gpu, n));
    let mut params = ScalesParams {
        scale: k.scale.clone(),
        y: a.clone(),
        z: b.clone(),
        n: n as u32,
        s1: 1.0,
        s2: 1.0,
        s3: 1.0,
    };
    let mut exec = Scales::build(&gpu.ctx, &params)
        .unwrap()
        .instantiate()
        .unwrap();
    let mut graph = Scales::build(&gpu.ctx, &params).unwrap();
    let driver_graph = graph.graph().raw();
    for round in 0..21 {
        let last = round == 20;
        if last {
            // `offset(n, a, y)`: `y += a`, another function of the same parameter list.
            params.scale = k.offset.clone();
        }
        (params.s1, params.s2, params.s3) = (round as f32 + 2.0, 0.5, round as f32 - 3.0);
        // Each round the two buffers swap places.
        std::mem::swap(&mut params.y, &mut params.z);
        graph.rebuild(&params).unwrap();
        match last {
            false => assert_eq!(
                graph.graph().raw(),
                driver_graph,
                "round {round}: the driver's graph kept"
            ),
            true => assert_ne!(graph.graph().raw(), driver_graph, "another function"),
        }
        exec.update(&graph).unwrap();
        fill_buffer(&a, 1.0);
        fill_buffer(&b, 1.0);
        exec.launch(&gpu.stream).unwrap();
        let (want_y, want_z) = match last {
            false => (params.s1 * params.s2, params.s3),
            true => (1.0 + params.s1 + params.s2, 1.0 + params.s3),
        };
        let what = format!("round {round}");
        assert_close(
            &what,
            &read_back(&gpu.stream, &params.y),
            &vec![want_y; n],
            1e-6,
        );
        assert_close(
            &what,
            &read_back(&gpu.stream, &params.z),
            &vec![want_z; n],
            1e-6,
        );
    }
}

#[test]
fn built_graph_has_the_topology_names_and_dependency_order() {
    let Some(gpu) = cudagraph_tests::gpu("built_graph_has_the_topology_names_and_dependency_order")
    else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new("built_graph_has_the_topology_names_and_dependency_order");
    let bufs = Buffers::new(&gpu, rng.len_in(1000, 20_000));
    let built = bufs.random(&k, &mut rng);
    let graph = Web::build(&gpu.ctx, &built.params).unwrap();
    let t = Web::TOPOLOGY;
    let nodes: Vec<_> = graph.graph().nodes().collect();
    assert_eq!(nodes.len(), t.nodes.len());
    for (info, (i, &(name, kind))) in nodes.iter().zip(t.nodes.iter().enumerate()) {
        assert_eq!(info.index, i);
        assert_eq!((info.name.as_str(), info.kind), (name, kind), "node {i}");
        let deps: Vec<usize> = info.deps.iter().map(|&d| d as usize).collect();
        let want: Vec<usize> = t.dependencies(i).collect();
        assert_eq!(deps, want, "dependencies of `{name}`, in declared order");
    }
    // The runtime's DOT of the graph is the declaration's, under another title.
    let body = |dot: &str| dot.lines().skip(1).map(str::to_owned).collect::<Vec<_>>();
    assert_eq!(body(&graph.graph().to_dot()), body(&t.to_dot()));

    // And it runs what its params say.
    let mut exec = graph.instantiate().unwrap();
    bufs.launch_and_check(&gpu, &mut rng, &mut exec, &built, "as built");
}
