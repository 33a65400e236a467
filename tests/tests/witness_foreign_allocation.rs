//! GPU witness for the rule "a node uses only its own graph's allocations": built through a raw
//! driver call, a node of another graph writing an allocation's address is accepted by the driver
//! and faults when launched. The runtime refuses the node when it is added. (A file of its own:
//! the fault ends the context for every other test of the process.)

use cudagraph_runtime::Graph;
use cudagraph_tests::{gpu, raw};

#[test]
fn a_node_of_another_graph_writing_an_allocation_faults() {
    let Some(gpu) = gpu("a_node_of_another_graph_writing_an_allocation_faults") else {
        return;
    };
    let n = 1 << 16;
    let mut owner = Graph::new(&gpu.ctx).unwrap();
    let t = owner.add_mem_alloc::<u32>(n, &[]).unwrap();
    let user = Graph::new(&gpu.ctx).unwrap();
    raw::memset_u32(&user, &[], t.addr(), n, 1).expect("the driver refused the node");
    raw::assert_launch_faults(user, &gpu.stream, "the foreign write");
    // The context is lost: leak what would make driver calls on it.
    std::mem::forget(owner);
    std::mem::forget(gpu);
}
