//! Graph structure: empty nodes as fork and join points, child-graph nodes, dependency lists kept
//! in the caller's order (and really handed to the driver), and the DOT rendering of a graph.

use cudagraph_runtime::cudarc::driver::sys;
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::NodeKind;
use cudagraph_tests::{
    assert_close, assert_read_close, cfg, fill_buffer, read_back, upload, zeros, Kernels, Rng,
    POISON,
};

#[test]
fn empty_nodes_fork_and_join_a_diamond() {
    let Some(gpu) = cudagraph_tests::gpu("empty_nodes_fork_and_join_a_diamond") else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new("empty_nodes_fork_and_join_a_diamond");
    let n = rng.len_in(1000, 50_000);
    let (a1, a2) = (rng.f32(), rng.f32());
    let y_host = rng.f32s(n);
    let x = zeros::<f32>(&gpu, n);
    let y = upload(&gpu, &y_host);
    let left = zeros::<f32>(&gpu, n);
    let right = zeros::<f32>(&gpu, n);
    let sum = zeros::<f32>(&gpu, n);

    //        fork
    //       /    \
    //  a1*x+y    a2*x+y
    //       \    /
    //        join
    //         |
    //    left + right
    let mut graph = Graph::new(&gpu.ctx).unwrap();
    let fork = graph.add_empty(&[]).unwrap();
    let l = graph
        .add_kernel(
            &k.axpy_out,
            cfg(n),
            (n as u32, a1, &x, &y, &left),
            &[fork.id()],
        )
        .unwrap();
    let r = graph
        .add_kernel(
            &k.axpy_out,
            cfg(n),
            (n as u32, a2, &x, &y, &right),
            &[fork.id()],
        )
        .unwrap();
    let join = graph.add_empty(&[l.id(), r.id()]).unwrap();
    let args = (n as u32, 1.0, &left, &right, &sum);
    graph
        .add_kernel(&k.axpy_out, cfg(n), args, &[join.id()])
        .unwrap();
    let mut exec = graph.instantiate().unwrap();

    for launch in 0..2 {
        let x_host = rng.f32s(n);
        x.copy_from(&x_host).unwrap();
        for buf in [&left, &right, &sum] {
            fill_buffer(buf, POISON);
        }
        exec.launch(&gpu.stream).unwrap();
        let want_l: Vec<f32> = x_host
            .iter()
            .zip(&y_host)
            .map(|(x, y)| a1 * x + y)
            .collect();
        let want_r: Vec<f32> = x_host
            .iter()
            .zip(&y_host)
            .map(|(x, y)| a2 * x + y)
            .collect();
        let want_sum: Vec<f32> = want_l.iter().zip(&want_r).map(|(l, r)| l + r).collect();
        assert_read_close(
            &gpu.stream,
            &format!("launch {launch}: left"),
            &left,
            &want_l,
        );
        assert_read_close(
            &gpu.stream,
            &format!("launch {launch}: right"),
            &right,
            &want_r,
        );
        // Had the last kernel not waited for the join, it would have read poison.
        assert_close(
            &format!("launch {launch}: sum"),
            &read_back(&gpu.stream, &sum),
            &want_sum,
            1e-5,
        );
    }
}

#[test]
fn child_graph_node_runs_the_embedded_graph() {
    let Some(gpu) = cudagraph_tests::gpu("child_graph_node_runs_the_embedded_graph") else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new("child_graph_node_runs_the_embedded_graph");
    let n = rng.len_in(1000, 50_000);
    let (a, base) = (rng.f32(), rng.f32());
    let src = HostBuffer::<f32>::zeroed(&gpu.ctx, n).unwrap();
    let dst = HostBuffer::from_slice(&gpu.ctx, &vec![POISON; n]).unwrap();
    let x = zeros::<f32>(&gpu, n);
    let t = zeros::<f32>(&gpu, n);

    // child: t = base, then t = a * x + t
    let mut child = Graph::new(&gpu.ctx).unwrap();
    let set = child.add_memset(Memset::new(&t, base), &[]).unwrap();
    child
        .add_kernel(&k.saxpy, cfg(n), (n as u32, a, &x, &t), &[set.id()])
        .unwrap();

    // parent: src -> x, child, t -> dst
    let mut parent = Graph::new(&gpu.ctx).unwrap();
    let up = parent.add_memcpy(Memcpy::htod(&src, &x), &[]).unwrap();
    let inner = parent.add_child_graph(&child, &[up.id()]).unwrap();
    parent
        .add_memcpy(Memcpy::dtoh(&t, &dst), &[inner.id()])
        .unwrap();
    assert_eq!(
        parent.nodes().map(|node| node.kind).collect::<Vec<_>>(),
        [NodeKind::Memcpy, NodeKind::ChildGraph, NodeKind::Memcpy]
    );
    // The driver embedded a clone; the parent keeps the kernel's module loaded.
    drop(child);
    drop(k);
    let mut exec = parent.instantiate().unwrap();

    for launch in 0..2 {
        let data = rng.f32s(n);
        src.write().unwrap().copy_from_slice(&data);
        dst.write().unwrap().fill(POISON);
        fill_buffer(&t, POISON);
        exec.launch(&gpu.stream).unwrap();
        gpu.stream.synchronize().unwrap();
        let want: Vec<f32> = data.iter().map(|x| a * x + base).collect();
        assert_read_close(&gpu.stream, &format!("launch {launch}: t"), &t, &want);
        assert_close(
            &format!("launch {launch}: copied out"),
            &dst.read().unwrap(),
            &want,
            1e-6,
        );
    }
}

/// The driver's view of `node`'s dependencies, sorted (the driver promises no order).
fn driver_dependencies(node: sys::CUgraphNode) -> Vec<sys::CUgraphNode> {
    let mut count = 0usize;
    // SAFETY: a live node; with null arrays the call only reports the count.
    let r = unsafe {
        sys::cuGraphNodeGetDependencies_v2(
            node,
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            &mut count,
        )
    };
    assert_eq!(r, sys::CUresult::CUDA_SUCCESS);
    if count == 0 {
        // The driver refuses an array of length 0 with CUDA_ERROR_INVALID_VALUE.
        return Vec::new();
    }
    let mut deps = vec![std::ptr::null_mut(); count];
    // SAFETY: `deps` has room for `count` nodes; edge data is not asked for (all default here).
    let r = unsafe {
        sys::cuGraphNodeGetDependencies_v2(
            node,
            deps.as_mut_ptr(),
            std::ptr::null_mut(),
            &mut count,
        )
    };
    assert_eq!(r, sys::CUresult::CUDA_SUCCESS);
    deps.truncate(count);
    deps.sort();
    deps
}

fn driver_kind(node: sys::CUgraphNode) -> sys::CUgraphNodeType {
    let mut kind = sys::CUgraphNodeType::CU_GRAPH_NODE_TYPE_EMPTY;
    // SAFETY: a live node and a valid out-pointer.
    let r = unsafe { sys::cuGraphNodeGetType(node, &mut kind) };
    assert_eq!(r, sys::CUresult::CUDA_SUCCESS);
    kind
}

#[test]
fn dependencies_keep_the_callers_order_and_reach_the_driver() {
    let Some(gpu) =
        cudagraph_tests::gpu("dependencies_keep_the_callers_order_and_reach_the_driver")
    else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new("dependencies_keep_the_callers_order_and_reach_the_driver");
    let n = rng.len_in(1000, 50_000);
    let (vp, vq, vr) = (rng.f32(), rng.f32(), rng.f32());
    let p = zeros::<f32>(&gpu, n);
    let q = zeros::<f32>(&gpu, n);
    let r = zeros::<f32>(&gpu, n);
    let out = zeros::<f32>(&gpu, n);

    let mut graph = Graph::new(&gpu.ctx).unwrap();
    let set_p = graph.add_memset(Memset::new(&p, vp), &[]).unwrap();
    let set_q = graph.add_memset(Memset::new(&q, vq), &[]).unwrap();
    let set_r = graph.add_memset(Memset::new(&r, vr), &[]).unwrap();
    let join = graph
        .add_empty(&[set_r.id(), set_p.id(), set_q.id()])
        .unwrap();
    let args = (n as u32, vr, &p, &q, &out);
    let last = graph
        .add_kernel(&k.axpy_out, cfg(n), args, &[join.id(), set_r.id()])
        .unwrap();

    let infos: Vec<_> = graph.nodes().collect();
    assert_eq!(infos.len(), 5);
    assert_eq!(
        infos[join.id().index()].deps,
        [2, 0, 1],
        "the join's dependencies, as given"
    );
    assert_eq!(
        infos[last.id().index()].deps,
        [3, 2],
        "the kernel's dependencies, as given"
    );
    let kinds = [
        NodeKind::Memset,
        NodeKind::Memset,
        NodeKind::Memset,
        NodeKind::Empty,
        NodeKind::Kernel,
    ];
    assert_eq!(infos.iter().map(|i| i.kind).collect::<Vec<_>>(), kinds);

    // What the driver holds agrees.
    use sys::CUgraphNodeType::*;
    let driver_kinds = [
        CU_GRAPH_NODE_TYPE_MEMSET,
        CU_GRAPH_NODE_TYPE_MEMSET,
        CU_GRAPH_NODE_TYPE_MEMSET,
        CU_GRAPH_NODE_TYPE_EMPTY,
        CU_GRAPH_NODE_TYPE_KERNEL,
    ];
    let ids = [set_p.id(), set_q.id(), set_r.id(), join.id(), last.id()];
    let raw: Vec<_> = ids
        .into_iter()
        .map(|id| graph.raw_node(id).unwrap())
        .collect();
    for (i, want) in driver_kinds.into_iter().enumerate() {
        assert_eq!(driver_kind(raw[i]), want, "node {i}'s type in the driver");
    }
    let mut want_join = vec![raw[0], raw[1], raw[2]];
    want_join.sort();
    let mut want_last = vec![raw[2], raw[3]];
    want_last.sort();
    assert_eq!(driver_dependencies(raw[3]), want_join);
    assert_eq!(driver_dependencies(raw[4]), want_last);
    assert!(driver_dependencies(raw[0]).is_empty());

    let mut exec = graph.instantiate().unwrap();
    fill_buffer(&out, POISON);
    exec.launch(&gpu.stream).unwrap();
    assert_read_close(
        &gpu.stream,
        "out = vr * p + q",
        &out,
        &vec![vr * vp + vq; n],
    );
    assert_eq!(read_back(&gpu.stream, &r), vec![vr; n]);
}

#[test]
fn dot_export_lists_every_node_and_edge() {
    let Some(gpu) = cudagraph_tests::gpu("dot_export_lists_every_node_and_edge") else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new("dot_export_lists_every_node_and_edge");
    let n = rng.len_in(1000, 50_000);
    let y = zeros::<f32>(&gpu, n);
    let (a, b) = (rng.f32(), rng.f32());

    let mut graph = Graph::new(&gpu.ctx).unwrap();
    let fork = graph.name_next("fork").add_empty(&[]).unwrap();
    let set = graph
        .name_next("set \"y\"")
        .add_memset(Memset::new(&y, b), &[fork.id()])
        .unwrap();
    let host = graph
        .name_next("log")
        .add_host(|| {}, &[fork.id()])
        .unwrap();
    let join = graph.add_empty(&[set.id(), host.id()]).unwrap();
    graph
        .name_next("scale")
        .add_kernel(&k.scale, cfg(n), (n as u32, a, &y), &[join.id()])
        .unwrap();
    let mut child = Graph::new(&gpu.ctx).unwrap();
    child.add_empty(&[]).unwrap();
    graph.add_child_graph(&child, &[]).unwrap();

    let dot = graph.to_dot();
    eprintln!("{dot}");
    for line in [
        r#"n0 [label="fork\nempty", shape=point];"#,
        r#"n1 [label="set \"y\"\nmemset", shape=parallelogram];"#,
        r#"n2 [label="log\nhost", shape=house];"#,
        r#"n3 [label="empty#3\nempty", shape=point];"#,
        r#"n4 [label="scale\nkernel", shape=box];"#,
        r#"n5 [label="child_graph#5\nchild_graph", shape=box3d];"#,
        "n0 -> n1;",
        "n0 -> n2;",
        "n1 -> n3;",
        "n2 -> n3;",
        "n3 -> n4;",
    ] {
        assert!(dot.contains(line), "missing `{line}` in\n{dot}");
    }
    assert_eq!(dot.matches("->").count(), 5, "exactly the five edges");
    assert_eq!(dot.matches("[label=").count(), 6, "exactly the six nodes");
    assert!(
        dot.starts_with("digraph ") && dot.trim_end().ends_with('}'),
        "{dot}"
    );

    // The graph drawn is the graph that runs.
    let mut exec = graph.instantiate().unwrap();
    fill_buffer(&y, POISON);
    exec.launch(&gpu.stream).unwrap();
    assert_read_close(&gpu.stream, "y = a * b", &y, &vec![a * b; n]);
}

#[test]
fn a_node_with_many_dependencies_gets_all_of_them() {
    let Some(gpu) = cudagraph_tests::gpu("a_node_with_many_dependencies_gets_all_of_them") else {
        return;
    };
    let mut rng = Rng::new("a_node_with_many_dependencies_gets_all_of_them");
    // More dependencies than the runtime keeps on the stack (8), in a random order.
    let count = 9 + rng.below(12) as usize;
    let mut graph = Graph::new(&gpu.ctx).unwrap();
    let mut roots: Vec<_> = (0..count)
        .map(|_| graph.add_empty(&[]).unwrap().id())
        .collect();
    for i in (1..roots.len()).rev() {
        roots.swap(i, rng.below(i as u32 + 1) as usize);
    }
    let join = graph.add_empty(&roots).unwrap();

    let listed: Vec<u32> = graph.nodes().last().unwrap().deps.to_vec();
    let given: Vec<u32> = roots.iter().map(|r| r.index() as u32).collect();
    assert_eq!(
        listed, given,
        "the dependencies as given, in the caller's order"
    );
    let mut want: Vec<_> = roots.iter().map(|&r| graph.raw_node(r).unwrap()).collect();
    want.sort();
    assert_eq!(
        driver_dependencies(graph.raw_node(join).unwrap()),
        want,
        "what the driver holds"
    );
    graph.instantiate().unwrap().launch(&gpu.stream).unwrap();
    gpu.stream.synchronize().unwrap();
}
