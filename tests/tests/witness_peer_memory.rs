//! GPU witness for the rule "a node uses memory of another device only once its graph's device
//! may access it": built through the raw driver call, a kernel node on device 0 writing memory of
//! device 1's pool, to which device 0 was never granted access, is accepted by the driver, and
//! its launch faults. The runtime grants the access when such a node is added or updated, or
//! refuses the node where the devices have no peer-to-peer path (see `peer_memory`). (A file of
//! its own: the fault ends device 0's context for every other test of the process.)

use cudagraph_runtime::{DeviceBuffer, Graph};
use cudagraph_tests::{gpus, raw, Kernels};

#[test]
fn a_kernel_node_writing_another_devices_memory_without_access_faults() {
    let test = "a_kernel_node_writing_another_devices_memory_without_access_faults";
    let Some((gpu, more)) = gpus(test, 2) else {
        return;
    };
    let n = 1 << 16;
    let there = more[0].new_stream().expect("creating a stream");
    let far = DeviceBuffer::<u32>::zeros(&there, n).unwrap();
    there.synchronize().unwrap();
    let k = Kernels::load(&gpu.ctx);
    let graph = Graph::new(&gpu.ctx).unwrap();
    // The raw node is added in the current context.
    gpu.ctx.bind_to_thread().unwrap();
    raw::add_u32(&graph, &[], &k.add_u32, far.addr(), n as u32, 1)
        .expect("the driver refused the node");
    raw::assert_launch_faults(graph, &gpu.stream, "the write into device 1's memory");
    // Device 0's context is lost: leak what would make driver calls on it.
    std::mem::forget(k);
    std::mem::forget(far);
    std::mem::forget(gpu);
}
