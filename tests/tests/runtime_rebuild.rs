//! `Graph::rebuild`: a rebuild that reuses the driver's kernel nodes where the new contents
//! repeat the old ones, and makes fresh ones where they do not. Every test checks what the
//! driver's graph holds afterwards (no old node left behind) and what a launch computes.

use std::panic::{catch_unwind, AssertUnwindSafe};

use cudagraph_runtime::cudarc::driver::sys;
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{Error, GraphExec, KernelNode, Memset, Rebuild};
use cudagraph_tests::{cfg, fill_buffer, read_back, upload, Gpu, Kernels, ScaleArgs};

const N: usize = 256;

/// How many nodes the driver's graph of `graph` holds (`cuGraphGetNodes`).
fn driver_nodes(graph: &Graph<'_>) -> usize {
    let mut count = 0usize;
    // SAFETY: a live graph; a null array asks for the count only.
    let result = unsafe { sys::cuGraphGetNodes(graph.raw(), std::ptr::null_mut(), &mut count) };
    assert_eq!(result, sys::CUresult::CUDA_SUCCESS, "cuGraphGetNodes");
    count
}

/// Adds a chain of `scale` nodes, node `i` scaling `ys[i]` by `a[i]`.
fn chain(
    g: &mut Rebuild<'static>,
    k: &Kernels,
    ys: &[&DeviceBuffer<f32>],
    a: &[f32],
) -> cudagraph_runtime::Result<Vec<KernelNode<ScaleArgs>>> {
    let mut nodes: Vec<KernelNode<ScaleArgs>> = Vec::new();
    for (y, &a) in ys.iter().zip(a) {
        let deps: Vec<NodeId> = nodes.last().map(|n| n.id()).into_iter().collect();
        nodes.push(g.add_kernel(&k.scale, cfg(N), (N as u32, a, *y), &deps)?);
    }
    Ok(nodes)
}

/// A new graph holding [`chain`]'s nodes.
fn chain_graph(gpu: &Gpu, k: &Kernels, ys: &[&DeviceBuffer<f32>], a: &[f32]) -> Graph<'static> {
    let mut graph = Graph::new(&gpu.ctx).unwrap();
    graph.rebuild(|g| chain(g, k, ys, a)).unwrap();
    graph
}

/// `count` buffers of `N` ones.
fn ones(gpu: &Gpu, count: usize) -> Vec<DeviceBuffer<f32>> {
    (0..count).map(|_| upload(gpu, &[1.0f32; N])).collect()
}

/// Launches `exec`, waits, checks that `ys[i]` holds `want[i]` everywhere, then sets them back
/// to ones.
fn launch_and_check(
    gpu: &Gpu,
    exec: &mut GraphExec<'static>,
    ys: &[DeviceBuffer<f32>],
    want: &[f32],
    what: &str,
) {
    exec.launch(&gpu.stream).unwrap();
    gpu.stream.synchronize().unwrap();
    for (i, (y, &w)) in ys.iter().zip(want).enumerate() {
        assert_eq!(read_back(&gpu.stream, y), vec![w; N], "{what}: buffer {i}");
        fill_buffer(y, 1.0);
    }
}

#[test]
fn a_rebuild_reuses_the_driver_nodes_and_the_update_takes_the_new_arguments() {
    let Some(gpu) = cudagraph_tests::gpu(
        "a_rebuild_reuses_the_driver_nodes_and_the_update_takes_the_new_arguments",
    ) else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let ys = ones(&gpu, 3);
    let [y0, y1, y2] = [&ys[0], &ys[1], &ys[2]];
    let mut exec = chain_graph(&gpu, &k, &[y0, y1, y2], &[2.0, 3.0, 4.0])
        .instantiate()
        .unwrap();
    launch_and_check(&gpu, &mut exec, &ys, &[2.0, 3.0, 4.0], "first build");
    // The graph rebuilt in the loop, as the executable's was built.
    let mut graph = chain_graph(&gpu, &k, &[y0, y1, y2], &[2.0, 3.0, 4.0]);
    let before: Vec<_> = (0..3)
        .map(|i| graph.raw_node(graph.node_id(i).unwrap()).unwrap())
        .collect();
    let raw_graph = graph.raw();

    // The same chain, each node moved to the next buffer, with new scalars: a loop of rebuilds
    // and updates, the driver's graph and nodes kept throughout.
    for round in 0..6u32 {
        let a = [5.0 + round as f32, 6.0, 7.0];
        let moved = [y1, y2, y0];
        let nodes = graph.rebuild(|g| chain(g, &k, &moved, &a)).unwrap();
        assert_eq!(nodes.len(), 3);
        assert_eq!(
            graph.raw(),
            raw_graph,
            "round {round}: the driver's graph is kept"
        );
        for (i, node) in nodes.iter().enumerate() {
            assert_eq!(
                graph.raw_node(*node).unwrap(),
                before[i],
                "round {round}: node {i} is the old driver node"
            );
        }
        assert_eq!(driver_nodes(&graph), 3);
        exec.update(&graph).unwrap();
        launch_and_check(
            &gpu,
            &mut exec,
            &ys,
            &[a[2], a[0], a[1]],
            &format!("round {round}"),
        );
    }
}

#[test]
fn a_rebuild_with_fewer_nodes_leaves_no_old_node_to_write_freed_memory() {
    let Some(gpu) =
        cudagraph_tests::gpu("a_rebuild_with_fewer_nodes_leaves_no_old_node_to_write_freed_memory")
    else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let ys = ones(&gpu, 2);
    let victim = upload(&gpu, &[1.0f32; N]);
    let mut graph = chain_graph(&gpu, &k, &[&ys[0], &ys[1], &victim], &[2.0, 3.0, 4.0]);
    assert_eq!(driver_nodes(&graph), 3);

    // Two of the three nodes again: the old third one, which writes `victim`, must go.
    graph
        .rebuild(|g| chain(g, &k, &[&ys[0], &ys[1]], &[5.0, 6.0]))
        .unwrap();
    assert_eq!(graph.len(), 2);
    assert_eq!(driver_nodes(&graph), 2, "the old third node is gone");
    drop(victim);
    // Freed memory comes back to the next allocation of its size: a sentinel there.
    let sentinel = upload(&gpu, &[7.0f32; N]);

    // An executable of a two-node chain built afresh takes an update from the rebuilt graph: its
    // nodes pair as a plain rebuild's would.
    let fresh = chain_graph(&gpu, &k, &[&ys[0], &ys[1]], &[1.5, 1.5]);
    let mut other = fresh.instantiate().unwrap();
    other.update(&graph).unwrap();
    launch_and_check(
        &gpu,
        &mut other,
        &ys,
        &[5.0, 6.0],
        "updated from the rebuilt graph",
    );

    let mut exec = graph.instantiate().unwrap();
    launch_and_check(&gpu, &mut exec, &ys, &[5.0, 6.0], "the two nodes");
    assert_eq!(
        read_back(&gpu.stream, &sentinel),
        vec![7.0; N],
        "the sentinel"
    );
}

#[test]
fn a_rebuild_that_departs_from_the_old_nodes_goes_on_with_fresh_ones() {
    let Some(gpu) =
        cudagraph_tests::gpu("a_rebuild_that_departs_from_the_old_nodes_goes_on_with_fresh_ones")
    else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let ys = ones(&gpu, 3);
    let mut graph = chain_graph(&gpu, &k, &[&ys[0], &ys[1], &ys[2]], &[2.0, 3.0, 4.0]);
    let old_graph = graph.raw();

    // Node 0 matches; node 1 launches another function; node 2 comes after it again; node 3 is
    // new. The first is made again in a fresh graph when node 1 departs.
    let nodes = graph
        .rebuild(|g| {
            let first = g.add_kernel(&k.scale, cfg(N), (N as u32, 5.0f32, &ys[0]), &[])?;
            let second = g.add_kernel(
                &k.offset,
                cfg(N),
                (N as u32, 10.0f32, &ys[1]),
                &[first.id()],
            )?;
            let third =
                g.add_kernel(&k.scale, cfg(N), (N as u32, 6.0f32, &ys[2]), &[second.id()])?;
            let fourth =
                g.add_kernel(&k.scale, cfg(N), (N as u32, 7.0f32, &ys[2]), &[third.id()])?;
            Ok([first.id(), second.id(), third.id(), fourth.id()])
        })
        .unwrap();
    assert_ne!(graph.raw(), old_graph, "a fresh driver graph");
    assert_eq!(driver_nodes(&graph), 4);
    assert_eq!(graph.len(), 4);
    // The handles name the new nodes.
    assert_eq!(graph.node_id(1), Some(nodes[1]));
    let exec_graph = graph.try_clone().unwrap();
    let mut exec = exec_graph.instantiate().unwrap();
    launch_and_check(
        &gpu,
        &mut exec,
        &ys,
        &[5.0, 11.0, 42.0],
        "after the departure",
    );

    // A departure at the first node: nothing to make again.
    graph
        .rebuild(|g| {
            g.add_empty(&[])?;
            Ok(())
        })
        .unwrap();
    assert_eq!(driver_nodes(&graph), 1);
}

#[test]
fn a_rebuild_settles_when_its_closure_fails_or_panics() {
    let Some(gpu) = cudagraph_tests::gpu("a_rebuild_settles_when_its_closure_fails_or_panics")
    else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let ys = ones(&gpu, 3);
    let mut graph = chain_graph(&gpu, &k, &[&ys[0], &ys[1], &ys[2]], &[2.0, 3.0, 4.0]);

    // One node of three, then an error of the closure's own: the error comes back, and the
    // graph holds the one node, in the driver too.
    let failed = graph.rebuild(|g| {
        g.add_kernel(&k.scale, cfg(N), (N as u32, 5.0f32, &ys[0]), &[])?;
        Err::<(), _>(Error::Invalid {
            node: "test".into(),
            reason: "the closure's own error".into(),
        })
    });
    assert!(
        matches!(&failed, Err(Error::Invalid { reason, .. }) if reason == "the closure's own error"),
        "{failed:?}"
    );
    assert_eq!((graph.len(), driver_nodes(&graph)), (1, 1));
    let mut exec = graph.instantiate().unwrap();
    launch_and_check(&gpu, &mut exec, &ys, &[5.0, 1.0, 1.0], "after the error");

    // Three nodes, then a panic after the first of a rebuild: the graph is settled on the way
    // out, holding that one node.
    let mut graph = chain_graph(&gpu, &k, &[&ys[0], &ys[1], &ys[2]], &[2.0, 3.0, 4.0]);
    let panicked = catch_unwind(AssertUnwindSafe(|| {
        graph.rebuild(|g| {
            g.add_kernel(&k.scale, cfg(N), (N as u32, 6.0f32, &ys[0]), &[])?;
            panic!("the closure panics");
            #[allow(unreachable_code)]
            Ok(())
        })
    }));
    assert!(panicked.is_err());
    assert_eq!((graph.len(), driver_nodes(&graph)), (1, 1));
    let mut exec = graph.instantiate().unwrap();
    launch_and_check(&gpu, &mut exec, &ys, &[6.0, 1.0, 1.0], "after the panic");

    // A refused node (its launch check: 2N elements of an N-element buffer) is not added, and
    // the rebuild goes on.
    let mut graph = chain_graph(&gpu, &k, &[&ys[0], &ys[1]], &[2.0, 3.0]);
    let refused = graph.rebuild(|g| {
        let first = g.add_kernel(&k.scale, cfg(N), (N as u32, 5.0f32, &ys[0]), &[])?;
        let too_long = g.add_kernel(
            &k.scale,
            cfg(N),
            (2 * N as u32, 5.0f32, &ys[1]),
            &[first.id()],
        );
        assert!(too_long.is_err(), "{too_long:?}");
        g.add_kernel(&k.scale, cfg(N), (N as u32, 8.0f32, &ys[1]), &[first.id()])?;
        Ok(())
    });
    refused.unwrap();
    assert_eq!((graph.len(), driver_nodes(&graph)), (2, 2));
    let mut exec = graph.instantiate().unwrap();
    launch_and_check(&gpu, &mut exec, &ys, &[5.0, 8.0], "after the refused node");
}

#[test]
fn a_rebuild_of_a_graph_with_other_nodes_than_kernels_is_a_clear() {
    let Some(gpu) =
        cudagraph_tests::gpu("a_rebuild_of_a_graph_with_other_nodes_than_kernels_is_a_clear")
    else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let ys = ones(&gpu, 2);
    let mut graph = Graph::new(&gpu.ctx).unwrap();
    let build = |g: &mut Rebuild<'static>, a: f32| -> cudagraph_runtime::Result<()> {
        let set = g.add_memset(Memset::new(&ys[0], 3.0f32), &[])?;
        g.add_kernel(&k.scale, cfg(N), (N as u32, a, &ys[0]), &[set.id()])?;
        g.add_kernel(&k.scale, cfg(N), (N as u32, a, &ys[1]), &[])?;
        Ok(())
    };
    graph.rebuild(|g| build(g, 2.0)).unwrap();
    let first = graph.raw();
    let mut exec = graph.try_clone().unwrap().instantiate().unwrap();
    launch_and_check(&gpu, &mut exec, &ys, &[6.0, 2.0], "first build");
    graph.rebuild(|g| build(g, 4.0)).unwrap();
    assert_ne!(
        graph.raw(),
        first,
        "a memset is not reused: the graph is made anew"
    );
    assert_eq!(driver_nodes(&graph), 3);
    exec.update(&graph).unwrap();
    launch_and_check(&gpu, &mut exec, &ys, &[12.0, 4.0], "rebuilt");
}

/// The nodes made again by a rebuild that stops short are added in the graph's context, as a
/// fresh add makes them, whatever `cuGraphKernelNodeGetParams` gives back for the old node's
/// context: the thread's current context is still the graph's afterwards (a null one given
/// back was made current, unbinding it; in a debug build, an assertion panicked).
#[test]
fn a_rebuild_that_makes_nodes_again_keeps_the_graphs_context_current() {
    let Some(gpu) =
        cudagraph_tests::gpu("a_rebuild_that_makes_nodes_again_keeps_the_graphs_context_current")
    else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let ys = ones(&gpu, 2);
    let mut graph = chain_graph(&gpu, &k, &[&ys[0], &ys[1]], &[2.0, 3.0]);
    let old_graph = graph.raw();
    graph.rebuild(|g| chain(g, &k, &[&ys[0]], &[5.0])).unwrap();
    assert_ne!(graph.raw(), old_graph, "the reused node was made again");
    let mut current: sys::CUcontext = std::ptr::null_mut();
    // SAFETY: a valid out-pointer.
    let result = unsafe { sys::cuCtxGetCurrent(&mut current) };
    assert_eq!(result, sys::CUresult::CUDA_SUCCESS, "cuCtxGetCurrent");
    assert_eq!(current, gpu.ctx.cu_ctx(), "the graph's context is current");
    assert_eq!(driver_nodes(&graph), 1);
    let mut exec = graph.instantiate().unwrap();
    launch_and_check(&gpu, &mut exec, &ys, &[5.0, 1.0], "the node made again");
}
