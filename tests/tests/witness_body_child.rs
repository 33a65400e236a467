//! GPU witness of CUDA's body rule through child graphs (the macro's T10 for a child node in a
//! conditional body): a child graph holding a host node, embedded in a conditional body by the
//! raw driver call, is accepted when it is added and refused when the graph is instantiated,
//! also one level deeper. The runtime refuses the same embeddings when they are added, naming
//! the node, and accepts a child graph CUDA allows in a body.

use std::ffi::c_void;
use std::ptr::{null, null_mut};

use cudagraph_runtime::cudarc::driver::sys;
use cudagraph_runtime::{Condition, Error, Graph};
use cudagraph_tests::gpu;

unsafe extern "C" fn nothing(_: *mut c_void) {}

/// A graph holding one host node, added by the raw driver call (the runtime's `add_host` is not
/// needed to make the point, and would keep a closure alive for it).
fn with_host_node(graph: &Graph<'static>) {
    let params = sys::CUDA_HOST_NODE_PARAMS {
        fn_: Some(nothing),
        userData: null_mut(),
    };
    let mut node = null_mut();
    // SAFETY: a live graph; valid parameters, a function that does nothing with its argument.
    let added = unsafe { sys::cuGraphAddHostNode(&mut node, graph.raw(), null(), 0, &params) };
    assert_eq!(added, sys::CUresult::CUDA_SUCCESS, "adding the host node");
}

/// What the driver answers to embedding `child` in the body of an IF node (added, then
/// instantiated), by raw calls.
fn raw_embedding_in_body(
    ctx: &std::sync::Arc<cudagraph_runtime::cudarc::driver::CudaContext>,
    child: &Graph<'static>,
) -> (sys::CUresult, sys::CUresult) {
    let mut g = Graph::new(ctx).unwrap();
    let handle = g.conditional_handle(Some(1)).unwrap();
    let mut added = sys::CUresult::CUDA_SUCCESS;
    g.add_conditional(handle, Condition::If, &[], |b| {
        let mut node = null_mut();
        // SAFETY: a live body graph and a live child graph (the driver embeds a clone).
        added =
            unsafe { sys::cuGraphAddChildGraphNode(&mut node, b[0].raw(), null(), 0, child.raw()) };
        Ok(())
    })
    .unwrap();
    let mut exec = null_mut();
    // SAFETY: a live graph; `exec` is a valid out-pointer.
    let instantiated = unsafe { sys::cuGraphInstantiateWithFlags(&mut exec, g.raw(), 0) };
    if !exec.is_null() {
        // SAFETY: ours, never launched.
        unsafe { sys::cuGraphExecDestroy(exec) };
    }
    (added, instantiated)
}

#[test]
fn witness_t10_driver_refuses_a_body_embedding_a_child_graph_with_a_host_node() {
    let Some(gpu) =
        gpu("witness_t10_driver_refuses_a_body_embedding_a_child_graph_with_a_host_node")
    else {
        return;
    };
    let child = Graph::new(&gpu.ctx).unwrap();
    with_host_node(&child);
    // One level deeper: a graph whose only node embeds `child` (outside a body: allowed).
    let mut middle = Graph::new(&gpu.ctx).unwrap();
    middle.add_child_graph(&child, &[]).unwrap();

    for (what, graph) in [("child", &child), ("middle", &middle)] {
        let (added, instantiated) = raw_embedding_in_body(&gpu.ctx, graph);
        println!("{what} graph in a body: add {added:?}, instantiate {instantiated:?}");
        assert_eq!(
            added,
            sys::CUresult::CUDA_SUCCESS,
            "{what}: the driver accepts the child-graph node when it is added"
        );
        assert_ne!(
            instantiated,
            sys::CUresult::CUDA_SUCCESS,
            "{what}: the driver accepted a body holding a host node through a child graph"
        );
    }

    // The runtime refuses both when the node is added, naming the host node and where it is.
    for (what, graph, place) in [
        ("child", &child, "(node 0,"),
        ("middle", &middle, "(node 0 of the graph of node 0,"),
    ] {
        let mut g = Graph::new(&gpu.ctx).unwrap();
        let handle = g.conditional_handle(Some(1)).unwrap();
        let refused = g.add_conditional(handle, Condition::If, &[], |b| {
            b[0].add_child_graph(graph, &[]).map(drop)
        });
        match &refused {
            Err(Error::Invalid { reason, .. }) => assert!(
                reason.contains("host node") && reason.contains(place),
                "{what}: {reason}"
            ),
            other => panic!("{what}: expected the embedding refused, got {other:?}"),
        }
    }

    // A child graph CUDA allows in a body is embedded, instantiated and launched.
    let allowed = Graph::new(&gpu.ctx).unwrap();
    let mut inner = Graph::new(&gpu.ctx).unwrap();
    inner.add_empty(&[]).unwrap();
    let mut nested = allowed;
    nested.add_child_graph(&inner, &[]).unwrap();
    let mut g = Graph::new(&gpu.ctx).unwrap();
    let handle = g.conditional_handle(Some(1)).unwrap();
    g.add_conditional(handle, Condition::If, &[], |b| {
        b[0].add_child_graph(&nested, &[]).map(drop)
    })
    .unwrap();
    let mut exec = g.instantiate().unwrap();
    exec.launch(&gpu.stream).unwrap();
    gpu.stream.synchronize().unwrap();
}
