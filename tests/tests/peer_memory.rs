//! Memory of another device used by the nodes of a graph: a kernel, memset or capture on device
//! 0 using memory of device 1 gets device 0 its access granted (the pool's access list, for the
//! pool memory `DeviceBuffer`s and cudarc slices are), by adding the node, updating a node to it,
//! or giving it to a capture, and computes what it should. Without the access the launch faults
//! (witness: `witness_peer_memory`). Needs two GPUs with a peer-to-peer path (the refusal where
//! there is none cannot be shown on a machine whose GPUs all reach each other).
//!
//! Each step first takes device 0's access to device 1's pool away, so that it shows its own
//! grant whatever ran before it in this process (a copy node between the devices grants the same
//! access, see `two_gpus_copy_between_devices_in_a_memcpy_node` in the `collectives` tests). The steps run in one
//! test: the access is the whole process's.

use std::sync::Arc;

use cudagraph_runtime::cudarc::driver::sys::{self, CUresult::CUDA_SUCCESS};
use cudagraph_runtime::cudarc::driver::{CudaContext, CudaStream};
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{DeviceBuffer, DevicePtrMut, Error, Event, Graph, Memset, Mut};
use cudagraph_tests::device_launch::{self, compile_with_device_runtime};
use cudagraph_tests::{cfg, function, gpus, zeros, Kernels};

/// The memory pool that `addr` was allocated from.
fn pool_of(addr: sys::CUdeviceptr) -> sys::CUmemoryPool {
    let mut pool: sys::CUmemoryPool = std::ptr::null_mut();
    // SAFETY: live memory; the attribute is a pool handle, written into `pool`.
    let r = unsafe {
        sys::cuPointerGetAttribute(
            (&mut pool as *mut sys::CUmemoryPool).cast(),
            sys::CUpointer_attribute::CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE,
            addr,
        )
    };
    assert_eq!(r, CUDA_SUCCESS, "cuPointerGetAttribute(MEMPOOL_HANDLE)");
    assert!(!pool.is_null(), "the memory is not from a pool");
    pool
}

/// Device 0, as a location (zeroed, its id is 0 whatever the binding's layout).
fn device_0() -> sys::CUmemLocation {
    // SAFETY: a plain C struct of integers and an enum whose 0 is a value.
    let mut location: sys::CUmemLocation = unsafe { std::mem::zeroed() };
    location.type_ = sys::CUmemLocationType::CU_MEM_LOCATION_TYPE_DEVICE;
    location
}

/// Whether device 0 may read and write the memory of `pool`.
fn device_0_reaches(pool: sys::CUmemoryPool) -> bool {
    let mut flags = sys::CUmemAccess_flags::CU_MEM_ACCESS_FLAGS_PROT_NONE;
    let mut location = device_0();
    // SAFETY: a live pool; `flags` is written.
    let r = unsafe { sys::cuMemPoolGetAccess(&mut flags, pool, &mut location) };
    assert_eq!(r, CUDA_SUCCESS, "cuMemPoolGetAccess");
    flags == sys::CUmemAccess_flags::CU_MEM_ACCESS_FLAGS_PROT_READWRITE
}

/// Takes device 0's access to `pool`'s memory away (nothing of device 0 may be using it).
fn revoke(pool: sys::CUmemoryPool) {
    let desc = sys::CUmemAccessDesc {
        location: device_0(),
        flags: sys::CUmemAccess_flags::CU_MEM_ACCESS_FLAGS_PROT_NONE,
    };
    // SAFETY: a live pool and one valid descriptor.
    let r = unsafe { sys::cuMemPoolSetAccess(pool, &desc, 1) };
    assert_eq!(r, CUDA_SUCCESS, "cuMemPoolSetAccess(device 0, none)");
    assert!(!device_0_reaches(pool), "the access was taken away");
}

fn stream(ctx: &Arc<CudaContext>) -> Arc<CudaStream> {
    ctx.new_stream().expect("creating a stream")
}

#[test]
fn two_gpus_nodes_on_one_device_reach_memory_of_the_other() {
    let test = "two_gpus_nodes_on_one_device_reach_memory_of_the_other";
    let Some((gpu, more)) = gpus(test, 2) else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let (here, there) = (&gpu.stream, stream(&more[0]));
    let n = 4096;
    let far = DeviceBuffer::from_host(&there, &vec![1.0f32; n]).unwrap();
    let pool = pool_of(far.addr());

    // Adding a kernel node that writes device 1's memory grants device 0 the access.
    revoke(pool);
    let mut graph = Graph::new(&gpu.ctx).unwrap();
    let node = graph
        .add_kernel(&k.scale, cfg(n), (n as u32, 2.0f32, &far), &[])
        .unwrap();
    assert!(device_0_reaches(pool), "adding the kernel node granted it");
    let mut exec = graph.instantiate().unwrap();
    exec.launch(here).unwrap();
    assert_eq!(far.to_vec().unwrap(), vec![2.0; n], "the kernel scaled it");

    // So does updating a node to other memory of device 1.
    let far2 = DeviceBuffer::from_host(&there, &vec![3.0f32; n]).unwrap();
    revoke(pool);
    exec.set_kernel_params(node, cfg(n), (n as u32, 2.0f32, &far2))
        .unwrap();
    assert!(device_0_reaches(pool), "the update granted it");
    exec.launch(here).unwrap();
    assert_eq!(far2.to_vec().unwrap(), vec![6.0; n], "the updated kernel");
    drop(exec);

    // A memset node.
    revoke(pool);
    let mut graph = Graph::new(&gpu.ctx).unwrap();
    graph.add_memset(Memset::new(&far, 7.5f32), &[]).unwrap();
    assert!(device_0_reaches(pool), "adding the memset node granted it");
    graph.instantiate().unwrap().launch(here).unwrap();
    assert_eq!(far.to_vec().unwrap(), vec![7.5; n], "the memset");

    // A cudarc slice of device 1, borrowed by the graph.
    let mut slice = there.clone_htod(&vec![4.0f32; n]).unwrap();
    revoke(pool);
    cudagraph_runtime::scope(|sc| {
        let mut graph = sc.graph(&gpu.ctx).unwrap();
        graph
            .add_kernel(&k.scale, cfg(n), (n as u32, 0.5f32, &mut slice), &[])
            .unwrap();
        assert!(
            device_0_reaches(pool),
            "adding the node granted it (cudarc slice)"
        );
        graph.instantiate().unwrap().launch(here).unwrap();
    });
    assert_eq!(there.clone_dtoh(&slice).unwrap(), vec![2.0; n], "the slice");

    // Memory of device 1 given to a capture on device 0, and a kernel of the capture on it.
    revoke(pool);
    let scale = k.scale.clone();
    let graph = Graph::capture(here, Mut(far.clone()), move |s, far| {
        s.launch(&scale, cfg(n), (n as u32, 2.0f32, &far))
    })
    .unwrap();
    assert!(device_0_reaches(pool), "the capture granted it");
    graph.instantiate().unwrap().launch(here).unwrap();
    assert_eq!(far.to_vec().unwrap(), vec![15.0; n], "the captured kernel");

    // And a kernel on device 1 given device 1's memory needs no access of device 0.
    revoke(pool);
    let k1 = Kernels::load(&more[0]);
    let mut graph = Graph::new(&more[0]).unwrap();
    graph
        .add_kernel(&k1.scale, cfg(n), (n as u32, 2.0f32, &far), &[])
        .unwrap();
    assert!(!device_0_reaches(pool), "nothing granted to device 0");
    graph.instantiate().unwrap().launch(&there).unwrap();
    assert_eq!(
        far.to_vec().unwrap(),
        vec![30.0; n],
        "device 1's own kernel"
    );
}

/// A kernel launches device graphs of its own device only: one instantiated for device launch on
/// device 1 is refused as an argument of a kernel on device 0, naming the node.
#[test]
fn two_gpus_a_kernel_is_refused_a_device_graph_of_the_other_device() {
    let test = "two_gpus_a_kernel_is_refused_a_device_graph_of_the_other_device";
    let Some((gpu, more)) = gpus(test, 2) else {
        return;
    };
    let there = stream(&more[0]);
    let theirs = compile_with_device_runtime(&more[0], device_launch::SRC);
    // SAFETY: `add_u32(unsigned n, unsigned k, unsigned* y)` of `SRC` adds `k` to `y[i]` for
    // `i < n` only, which the check keeps within `y`, and launches nothing.
    let add: Kernel<(u32, u32, DevicePtrMut<u32>)> =
        unsafe { Kernel::new(function(&theirs, "add_u32")) }
            .requires(|_, (n, _, y)| n as usize <= y);
    let y = DeviceBuffer::<u32>::zeros(&there, 32).unwrap();
    let mut g = Graph::new(&more[0]).unwrap();
    g.add_kernel(&add, cfg(32), (32u32, 1u32, &y), &[]).unwrap();
    let worker = g.instantiate_for_device_launch(&there).unwrap();

    let k = crate::device_launch::kernels(&gpu);
    let err = zeros::<i32>(&gpu, 1);
    let mut graph = Graph::new(&gpu.ctx).unwrap();
    graph.name_next("launcher");
    let added = graph.add_kernel(&k.launch_graph, cfg(1), (worker.handle(), 0u32, &err), &[]);
    match added {
        Err(Error::Invalid { node, reason }) => {
            assert_eq!(node, "launcher");
            assert!(reason.contains("on device 1"), "{reason}");
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
    assert_eq!(graph.len(), 0, "nothing was added");
}

/// A child graph runs on its parent's device: one built on device 1 is refused as a child of a
/// graph of device 0, added or set by an update, naming the node; and an executable of device 0
/// is refused a whole-graph update from a graph of device 1.
#[test]
fn two_gpus_a_child_graph_of_the_other_device_is_refused() {
    let test = "two_gpus_a_child_graph_of_the_other_device_is_refused";
    let Some((gpu, more)) = gpus(test, 2) else {
        return;
    };
    let refused = |result, name| assert_refused(result, name, "graph of device 1");
    let mut theirs = Graph::new(&more[0]).unwrap();
    theirs.add_empty(&[]).unwrap();
    let mut ours = Graph::new(&gpu.ctx).unwrap();
    ours.name_next("embedded");
    refused(ours.add_child_graph(&theirs, &[]).map(drop), "embedded");
    assert_eq!(ours.len(), 0, "nothing was added");

    let mut child = Graph::new(&gpu.ctx).unwrap();
    child.add_empty(&[]).unwrap();
    ours.name_next("embedded");
    let node = ours.add_child_graph(&child, &[]).unwrap();
    let mut exec = ours.instantiate().unwrap();
    refused(exec.set_child_graph(node, &theirs), "embedded");
    // Nor is an executable updated from a graph of the other device.
    let mut twin = Graph::new(&more[0]).unwrap();
    twin.add_child_graph(&theirs, &[]).unwrap();
    refused(exec.update(&twin), "update");
    exec.launch(&gpu.stream).unwrap();
    gpu.stream.synchronize().unwrap();
}

/// An event node takes an event of its graph's context only: one of device 1 is refused for a
/// record or wait node of a graph of device 0, added or set by an update, naming the node. The
/// witness beside it: CUDA refuses the same event on a stream of device 0 (`cuEventRecord`) and
/// in an executable's event nodes (`cuGraphExec*NodeSetEvent`), though `cuGraphAdd*Node` takes it.
#[test]
fn two_gpus_an_event_of_the_other_device_is_refused() {
    let test = "two_gpus_an_event_of_the_other_device_is_refused";
    let Some((gpu, more)) = gpus(test, 2) else {
        return;
    };
    let refused = |result, name| assert_refused(result, name, "device 1's context");
    let theirs = Event::new(&more[0]).unwrap();
    let mine = Event::new(&gpu.ctx).unwrap();
    let mut graph = Graph::new(&gpu.ctx).unwrap();
    graph.name_next("signal");
    refused(graph.add_event_record(&theirs, &[]).map(drop), "signal");
    graph.name_next("gate");
    refused(graph.add_event_wait(&theirs, &[]).map(drop), "gate");
    assert_eq!(graph.len(), 0, "nothing was added");

    graph.name_next("signal");
    let record = graph.add_event_record(&mine, &[]).unwrap();
    graph.name_next("gate");
    let wait = graph.add_event_wait(&mine, &[record.id()]).unwrap();
    let mut exec = graph.instantiate().unwrap();
    refused(exec.set_event_record(record, &theirs), "signal");
    refused(exec.set_event_wait(wait, &theirs), "gate");
    exec.launch(&gpu.stream).unwrap();
    gpu.stream.synchronize().unwrap();

    // The driver's rules, on the raw handles.
    let raw_event = theirs.cuda().cu_event();
    gpu.ctx.bind_to_thread().unwrap();
    // SAFETY: a live stream of device 0's context (current) and a live event of device 1's.
    let recorded = unsafe { sys::cuEventRecord(raw_event, gpu.stream.cu_stream()) };
    assert_ne!(
        recorded, CUDA_SUCCESS,
        "cuEventRecord took another context's event"
    );
    let nodes = exec.graph();
    let (raw_record, raw_wait) = (
        nodes.raw_node(record).unwrap(),
        nodes.raw_node(wait).unwrap(),
    );
    let raw_exec = exec.raw();
    // SAFETY: a live executable of device 0 and its two event nodes; a live event of device 1.
    let (set_record, set_wait) = unsafe {
        (
            sys::cuGraphExecEventRecordNodeSetEvent(raw_exec, raw_record, raw_event),
            sys::cuGraphExecEventWaitNodeSetEvent(raw_exec, raw_wait, raw_event),
        )
    };
    assert_ne!(
        set_record, CUDA_SUCCESS,
        "the driver set a record node to another context's event"
    );
    assert_ne!(
        set_wait, CUDA_SUCCESS,
        "the driver set a wait node to another context's event"
    );
}

/// Asserts that `result` is a refusal of node `name` whose reason says `says`.
#[track_caller]
fn assert_refused(result: Result<(), Error>, name: &str, says: &str) {
    match result {
        Err(Error::Invalid { node, reason }) => {
            assert_eq!(node, name);
            assert!(reason.contains(says), "{reason}");
        }
        other => panic!("expected a refusal of {name}, got {other:?}"),
    }
}
