//! A capture allocation (`CaptureScope::alloc`) used across the capture's streams: each use is
//! ordered after the allocation, and `CaptureScope::free` after every use, also a use by a
//! conditional node's body recorded on another stream. Outside that window the memory is not
//! the allocation's (CUDA may back another graph allocation with it), so the graph's edges are
//! checked: the alloc node reaches every use, and every use reaches the free node.

use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{Condition, Error, NodeInfo, NodeKind};
use cudagraph_tests::capture::reaches;
use cudagraph_tests::{cfg, gpu, Kernels};

fn only(nodes: &[NodeInfo<'_>], kind: NodeKind) -> usize {
    let found: Vec<usize> = (0..nodes.len())
        .filter(|&i| nodes[i].kind == kind)
        .collect();
    assert_eq!(found.len(), 1, "one {kind:?} node");
    found[0]
}

/// An allocation made on a forked stream, used by a kernel the capture's first stream launches
/// while the fork lasts: the kernel must run after the alloc node (before it, the address is
/// not the allocation's).
#[test]
fn a_use_on_another_stream_is_ordered_after_the_allocation() {
    let Some(gpu) = gpu("a_use_on_another_stream_is_ordered_after_the_allocation") else {
        return;
    };
    let k = Kernels::load(&gpu.ctx).scale;
    let side = gpu.ctx.new_stream().unwrap();
    let n = 1024;
    let graph = Graph::capture(&gpu.stream, (), move |s, ()| {
        s.fork(&side, |t| {
            let a = t.alloc::<f32>(n)?; // on `side`
            s.launch(&k, cfg(n), (n as u32, 2.0f32, &a))?; // on the first stream
            Ok::<(), Error>(())
        })
    })
    .unwrap();
    let nodes: Vec<NodeInfo<'_>> = graph.nodes().collect();
    let alloc = only(&nodes, NodeKind::MemAlloc);
    let kernel = only(&nodes, NodeKind::Other);
    assert!(
        reaches(&nodes, alloc, kernel),
        "the kernel may run before its memory is allocated:\n{}",
        graph.to_dot()
    );
}

/// An allocation used by the body of a conditional node recorded on a forked stream, freed on
/// the first stream while the fork lasts: the free must wait for the conditional node.
#[test]
fn a_free_waits_for_a_conditional_body_on_another_stream() {
    let Some(gpu) = gpu("a_free_waits_for_a_conditional_body_on_another_stream") else {
        return;
    };
    let k = Kernels::load(&gpu.ctx).scale;
    let side = gpu.ctx.new_stream().unwrap();
    let n = 1024;
    let graph = Graph::capture(&gpu.stream, (), move |s, ()| {
        let a = s.alloc::<f32>(n)?; // on the first stream, before the fork
        s.fork(&side, |t| {
            let h = t.conditional_handle(Some(1))?;
            t.add_conditional(h, Condition::If, |bodies| {
                bodies[0]
                    .add_kernel(&k, cfg(n), (n as u32, 2.0f32, &a), &[])
                    .map(drop)
            })?;
            s.free(a) // on the first stream, beside the conditional node
        })
    })
    .unwrap();
    let nodes: Vec<NodeInfo<'_>> = graph.nodes().collect();
    let conditional = only(&nodes, NodeKind::Conditional);
    let free = only(&nodes, NodeKind::MemFree);
    assert!(
        reaches(&nodes, conditional, free),
        "the allocation may be freed while the conditional body uses it:\n{}",
        graph.to_dot()
    );
}

/// The same body on the stream that allocated, used before the fork: ordered by the stream.
/// (And the allocation used in a body on a forked stream, allocated before the fork.)
#[test]
fn a_conditional_body_on_a_forked_stream_runs_after_the_allocation() {
    let Some(gpu) = gpu("a_conditional_body_on_a_forked_stream_runs_after_the_allocation") else {
        return;
    };
    let k = Kernels::load(&gpu.ctx).scale;
    let side = gpu.ctx.new_stream().unwrap();
    let n = 1024;
    let graph = Graph::capture(&gpu.stream, (), move |s, ()| {
        s.fork(&side, |t| {
            let a = t.alloc::<f32>(n)?; // on `side`
            let h = s.conditional_handle(Some(1))?;
            // On the first stream, beside the alloc node.
            s.add_conditional(h, Condition::If, |bodies| {
                bodies[0]
                    .add_kernel(&k, cfg(n), (n as u32, 2.0f32, &a), &[])
                    .map(drop)
            })?;
            Ok::<(), Error>(())
        })
    })
    .unwrap();
    let nodes: Vec<NodeInfo<'_>> = graph.nodes().collect();
    let alloc = only(&nodes, NodeKind::MemAlloc);
    let conditional = only(&nodes, NodeKind::Conditional);
    assert!(
        reaches(&nodes, alloc, conditional),
        "the conditional body may run before its memory is allocated:\n{}",
        graph.to_dot()
    );
}

/// The same through cudarc: a view of an allocation made on a forked stream, zeroed by cudarc
/// on the first stream while the fork lasts (a view admits any stream of its capture). The
/// memset must run after the alloc node: the view orders the stream after the one that made the
/// allocation when cudarc asks it for its address.
#[test]
fn a_cudarc_call_on_a_view_on_another_stream_is_ordered_after_the_allocation() {
    let Some(gpu) =
        gpu("a_cudarc_call_on_a_view_on_another_stream_is_ordered_after_the_allocation")
    else {
        return;
    };
    let side = gpu.ctx.new_stream().unwrap();
    let n = 1024;
    let graph = Graph::capture(&gpu.stream, (), move |s, ()| {
        s.fork(&side, |t| {
            let mut a = t.alloc::<f32>(n)?; // on `side`
            s.memset_zeros(&mut a.view_mut())?; // cudarc's, on the first stream
            Ok::<(), Error>(())
        })
    })
    .unwrap();
    let nodes: Vec<NodeInfo<'_>> = graph.nodes().collect();
    let alloc = only(&nodes, NodeKind::MemAlloc);
    let memset = only(&nodes, NodeKind::Other);
    assert!(
        reaches(&nodes, alloc, memset),
        "the memset may run before its memory is allocated:\n{}",
        graph.to_dot()
    );
}
