//! GPU witnesses for the macro's topology rules T1 (self-edge) and T2 (cycle): built through the
//! raw driver path, the driver refuses them, when the edge is added or at instantiation at the
//! latest. `cuda_graph!` rejects both at compile time.

use cudagraph_runtime::cudarc::driver::sys;
use cudagraph_runtime::Graph;
use cudagraph_tests::gpu;

/// Adds the edge `from -> to` with the raw call, then instantiates: the first refusal, if any.
fn refusal(graph: Graph<'_>, from: sys::CUgraphNode, to: sys::CUgraphNode) -> Option<String> {
    // SAFETY: a live graph and two of its nodes; one edge, with default (null) edge data.
    let r = unsafe { sys::cuGraphAddDependencies_v2(graph.raw(), &from, &to, std::ptr::null(), 1) };
    if r != sys::CUresult::CUDA_SUCCESS {
        return Some(format!("cuGraphAddDependencies: {r:?}"));
    }
    graph
        .instantiate()
        .err()
        .map(|e| format!("instantiation: {e}"))
}

#[test]
fn the_driver_refuses_a_self_edge() {
    let Some(gpu) = gpu("the_driver_refuses_a_self_edge") else {
        return;
    };
    let mut g = Graph::new(&gpu.ctx).unwrap();
    let a = g.add_empty(&[]).unwrap();
    let raw = g.raw_node(a).unwrap();
    let refused = refusal(g, raw, raw).expect("the driver accepted a self-edge");
    eprintln!("self-edge refused: {refused}");
}

#[test]
fn the_driver_refuses_a_cycle() {
    let Some(gpu) = gpu("the_driver_refuses_a_cycle") else {
        return;
    };
    let mut g = Graph::new(&gpu.ctx).unwrap();
    let a = g.add_empty(&[]).unwrap();
    let b = g.add_empty(&[a.id()]).unwrap();
    let c = g.add_empty(&[b.id()]).unwrap();
    let (ra, rc) = (g.raw_node(a).unwrap(), g.raw_node(c).unwrap());
    // The control: without the closing edge the same graph instantiates.
    let control = {
        let mut g = Graph::new(&gpu.ctx).unwrap();
        let a = g.add_empty(&[]).unwrap();
        let b = g.add_empty(&[a.id()]).unwrap();
        g.add_empty(&[b.id()]).unwrap();
        g.instantiate()
    };
    assert!(
        control.is_ok(),
        "the acyclic control failed: {:?}",
        control.err()
    );
    let refused = refusal(g, rc, ra).expect("the driver accepted a -> b -> c -> a");
    eprintln!("cycle refused: {refused}");
}
