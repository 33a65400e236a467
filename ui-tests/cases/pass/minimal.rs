//! The smallest graphs: no params, one node; private visibility.
use cudagraph_runtime::cuda_graph;

cuda_graph! {
    graph Nothing {
        only: empty;
    }
}

cuda_graph! {
    graph NoNodes {
        params {}
    }
}

fn main() {
    assert_eq!(Nothing::TOPOLOGY.nodes.len(), 1);
    assert!(NoNodes::TOPOLOGY.nodes.is_empty());
    let _ = |exec: &mut NothingExec| exec.only().node();
}
