//! Device graph launch and device-side kernel-node updates on the GPU, against the CPU:
//! fire-and-forget, tail and sibling launches from a kernel, a graph tail-launching itself until
//! a counter in device memory says stop (the scheduler pattern), host launches and updates of a
//! device-launchable executable while graphs hold its handle (an update waiting for their
//! device launches already queued), the executable outliving its
//! `DeviceGraphExec` for the graphs that launch it, and a kernel changing another kernel node's
//! parameter and enabled state for the next launch. Witnesses of CUDA's rules: the driver
//! refusing device-launch instantiation of each node kind CUDA forbids there (which the library
//! refuses first, naming the node), a second pending tail launch of one graph from one kernel
//! failing with `cudaErrorInvalidValue`, and the driver taking a host update of a device graph
//! while a device launch of it is to come.
//!
//! Needs CUDA's `libcudadevrt.a` (the toolkit's `lib64/`, or `$CUDAGRAPH_CUDADEVRT`).

use std::sync::Arc;

use cudagraph_runtime::device_launch::{DeviceKernelNode, DeviceNode};
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{Condition, DeviceToHost, Error, KernelNode, MemcpyNode};
use cudagraph_tests::child::{is_child, run_alone};
use cudagraph_tests::device_launch::{compile_with_device_runtime, SchedulerArgs, SteerArgs, SRC};
use cudagraph_tests::{function, gpu, read_back, zeros, Gpu};

/// `cudaErrorInvalidValue`.
const INVALID_VALUE: i32 = 1;

pub(crate) struct Kernels {
    pub(crate) add_u32: Kernel<(u32, u32, DevicePtrMut<u32>)>,
    pub(crate) launch_graph: Kernel<(DeviceGraph, u32, DevicePtrMut<i32>)>,
    pub(crate) launch_two: Kernel<(DeviceGraph, DeviceGraph, DevicePtrMut<i32>)>,
    launch_graph_late: Kernel<(DeviceGraph, u64, DevicePtrMut<i32>)>,
    tail_launch_twice: Kernel<(DeviceGraph, DevicePtrMut<i32>)>,
    put: Kernel<(u32, DevicePtrMut<u32>)>,
    copy_first: Kernel<(DevicePtr<u32>, DevicePtrMut<u32>)>,
    scheduler_step: Kernel<SchedulerArgs>,
    bump: Kernel<(u32, DevicePtrMut<u32>)>,
    steer: Kernel<SteerArgs>,
}

pub(crate) fn kernels(gpu: &Gpu) -> Kernels {
    let module = compile_with_device_runtime(&gpu.ctx, SRC);
    let f = |name| function(&module, name);
    // SAFETY: the parameter lists of the kernels of these names in `SRC` (a `DeviceGraph` is a
    // `cudaGraphExec_t`, a `DeviceNode` a `cudaGraphDeviceNode_t`); each reads and writes only
    // the elements its check admits, launches only the graphs it is given (or, for
    // `scheduler_step`, the one it runs in), and `steer` sets only `bump`'s value parameter `k`
    // (at the offset it is given, `param_offset(0)`) and enabled state, which `bump`'s check
    // does not depend on.
    unsafe {
        Kernels {
            add_u32: Kernel::new(f("add_u32")).requires(|c, (n, _, y)| {
                n as usize <= y && c.grid_dim.0 as usize * c.block_dim.0 as usize >= 1
            }),
            launch_graph: Kernel::new(f("launch_graph")).requires(|_, (_, _, err)| err >= 1),
            launch_two: Kernel::new(f("launch_two")).requires(|_, (_, _, err)| err >= 1),
            launch_graph_late: Kernel::new(f("launch_graph_late"))
                .requires(|_, (_, _, err)| err >= 1),
            tail_launch_twice: Kernel::new(f("tail_launch_twice")).requires(|_, (_, err)| err >= 2),
            put: Kernel::new(f("put")).requires(|_, (_, out)| out >= 1),
            copy_first: Kernel::new(f("copy_first")).requires(|_, (src, dst)| src >= 1 && dst >= 1),
            scheduler_step: Kernel::new(f("scheduler_step")).requires(
                |_, (counter, log, limit, err)| counter >= 1 && log >= limit as usize && err >= 1,
            ),
            bump: Kernel::new(f("bump")).requires(|_, (_, y)| y >= 1),
            steer: Kernel::new(f("steer"))
                .requires(|_, (_, _, launches, err)| launches >= 1 && err >= 1),
        }
    }
}

pub(crate) fn one() -> LaunchConfig {
    LaunchConfig {
        grid_dim: (1, 1, 1),
        block_dim: (32, 1, 1),
        shared_mem_bytes: 0,
    }
}

/// A device-launchable graph adding `k` to each of `y`'s 32 elements.
pub(crate) fn adder(
    gpu: &Gpu,
    k: &Kernels,
    y: &DeviceBuffer<u32>,
    by: u32,
) -> (DeviceGraphExec, KernelNode<(u32, u32, DevicePtrMut<u32>)>) {
    let mut g = Graph::new(&gpu.ctx).unwrap();
    let node = g
        .add_kernel(&k.add_u32, one(), (32u32, by, y), &[])
        .unwrap();
    (g.instantiate_for_device_launch(&gpu.stream).unwrap(), node)
}

/// A graph whose kernel launches `target` in `mode` (0 fire-and-forget, 1 tail, 2 sibling).
fn launcher(
    gpu: &Gpu,
    k: &Kernels,
    target: &DeviceGraphExec,
    mode: u32,
    err: &DeviceBuffer<i32>,
) -> GraphExec<'static> {
    let mut g = Graph::new(&gpu.ctx).unwrap();
    g.add_kernel(&k.launch_graph, one(), (target.handle(), mode, err), &[])
        .unwrap();
    g.instantiate().unwrap()
}

fn launch_modes_add_as_often_as_launched(test: &str, mode: u32) {
    let Some(gpu) = gpu(test) else { return };
    let k = kernels(&gpu);
    let y = zeros::<u32>(&gpu, 32);
    let err = zeros::<i32>(&gpu, 1);
    let (worker, _) = adder(&gpu, &k, &y, 3);
    let mut p = launcher(&gpu, &k, &worker, mode, &err);
    for _ in 0..5 {
        p.launch(&gpu.stream).unwrap();
    }
    // The read waits for the launcher's launches, which cover the launches they made.
    assert_eq!(read_back(&gpu.stream, &err), vec![0]);
    assert_eq!(read_back(&gpu.stream, &y), vec![15; 32]);
}

#[test]
fn a_kernel_launches_a_graph_fire_and_forget() {
    launch_modes_add_as_often_as_launched("a_kernel_launches_a_graph_fire_and_forget", 0);
}

#[test]
fn a_kernel_tail_launches_a_graph() {
    launch_modes_add_as_often_as_launched("a_kernel_tail_launches_a_graph", 1);
}

#[test]
fn a_kernel_launches_a_graph_as_a_sibling() {
    launch_modes_add_as_often_as_launched("a_kernel_launches_a_graph_as_a_sibling", 2);
}

#[test]
fn a_tail_launch_runs_after_the_whole_launching_graph() {
    let Some(gpu) = gpu("a_tail_launch_runs_after_the_whole_launching_graph") else {
        return;
    };
    let k = kernels(&gpu);
    let (marker, out, err) = (
        zeros::<u32>(&gpu, 1),
        zeros::<u32>(&gpu, 1),
        zeros::<i32>(&gpu, 1),
    );
    let mut w = Graph::new(&gpu.ctx).unwrap();
    w.add_kernel(&k.copy_first, one(), (&marker, &out), &[])
        .unwrap();
    let worker = w.instantiate_for_device_launch(&gpu.stream).unwrap();
    // The launcher tail-launches the worker, then sets the marker the worker copies: the worker
    // runs once the launcher is done, so it sees 7.
    let mut p = Graph::new(&gpu.ctx).unwrap();
    let go = p
        .add_kernel(&k.launch_graph, one(), (worker.handle(), 1u32, &err), &[])
        .unwrap();
    p.add_kernel(&k.put, one(), (7u32, &marker), &[go.id()])
        .unwrap();
    let mut p = p.instantiate().unwrap();
    p.launch(&gpu.stream).unwrap();
    assert_eq!(read_back(&gpu.stream, &err), vec![0]);
    assert_eq!(read_back(&gpu.stream, &out), vec![7]);
}

#[test]
fn a_graph_tail_launches_itself_until_a_device_counter_says_stop() {
    let Some(gpu) = gpu("a_graph_tail_launches_itself_until_a_device_counter_says_stop") else {
        return;
    };
    let k = kernels(&gpu);
    let limit = 50u32;
    let (counter, log, err) = (
        zeros::<u32>(&gpu, 1),
        zeros::<u32>(&gpu, limit as usize),
        zeros::<i32>(&gpu, 1),
    );
    let mut g = Graph::new(&gpu.ctx).unwrap();
    g.add_kernel(&k.scheduler_step, one(), (&counter, &log, limit, &err), &[])
        .unwrap();
    let mut scheduler = g.instantiate_for_device_launch(&gpu.stream).unwrap();
    scheduler.launch(&gpu.stream).unwrap();
    assert_eq!(read_back(&gpu.stream, &err), vec![0]);
    assert_eq!(read_back(&gpu.stream, &counter), vec![limit]);
    let want: Vec<u32> = (1..=limit).collect();
    assert_eq!(read_back(&gpu.stream, &log), want);
}

#[test]
fn the_executable_outlives_its_device_graph_exec_for_the_graphs_launching_it() {
    let Some(gpu) =
        gpu("the_executable_outlives_its_device_graph_exec_for_the_graphs_launching_it")
    else {
        return;
    };
    let k = kernels(&gpu);
    let y = zeros::<u32>(&gpu, 32);
    let err = zeros::<i32>(&gpu, 1);
    let (worker, _) = adder(&gpu, &k, &y, 2);
    let mut p = launcher(&gpu, &k, &worker, 0, &err);
    drop(worker);
    for _ in 0..4 {
        p.launch(&gpu.stream).unwrap();
    }
    assert_eq!(read_back(&gpu.stream, &y), vec![8; 32]);
    assert_eq!(read_back(&gpu.stream, &err), vec![0]);
    // The launcher's release destroys the worker's executable after its launches. Whether
    // every release of the process is done is not asserted: other tests of this program hold
    // graphs of their own meanwhile (`wait_for_releases` waits for all of them).
    drop(p);
    let _ = cudagraph_runtime::wait_for_releases(std::time::Duration::from_secs(1));
}

#[test]
fn host_launches_and_updates_are_ordered_with_device_launches_and_reuploaded() {
    let Some(gpu) =
        gpu("host_launches_and_updates_are_ordered_with_device_launches_and_reuploaded")
    else {
        return;
    };
    let k = kernels(&gpu);
    let y = zeros::<u32>(&gpu, 32);
    let err = zeros::<i32>(&gpu, 1);
    let (mut worker, node) = adder(&gpu, &k, &y, 1);
    let mut p = launcher(&gpu, &k, &worker, 0, &err);
    let side = Arc::new(gpu.ctx.new_stream().unwrap());
    p.launch(&gpu.stream).unwrap(); // +1 from the device
    worker.launch(&side).unwrap(); // +1 from the host, after it
                                   // Uploads (and launches) of the inner executable are refused: only `DeviceGraphExec` orders them.
    assert!(matches!(
        upload_bypassing_the_device_exec(&worker, &gpu),
        Err(Error::Invalid { .. })
    ));
    worker
        .update(|exec| exec.set_kernel_params(node, one(), (32u32, 10u32, &y)))
        .unwrap();
    p.launch(&gpu.stream).unwrap(); // +10 from the device: the update was uploaded
    worker.launch(&side).unwrap(); // +10 from the host
    assert_eq!(read_back(&gpu.stream, &err), vec![0]);
    assert_eq!(read_back(&side, &y), vec![22; 32]);
}

/// Runs `test` of this module alone in a child process and asserts it passed. The tests of a
/// late device launch need the launch still to come while the host makes its calls, which other
/// tests of this program break: a thread synchronizing the context holds up this thread's
/// driver calls until every kernel, the late launcher too, has ended.
fn alone(test: &str) {
    let child = run_alone(&format!("device_launch::{test}"));
    assert!(
        child.status.success(),
        "{test}, run alone, ended {:?}:\n{}{}",
        child.status,
        String::from_utf8_lossy(&child.stdout),
        String::from_utf8_lossy(&child.stderr)
    );
}

/// About half a second of an H100's or H200's clock: how long `launch_graph_late` spins before
/// its launch (long enough for the host's calls in between, also with other tests running).
const LATE: u64 = 1_000_000_000;

/// A graph whose kernel launches `target` fire-and-forget after spinning for [`LATE`] cycles.
fn late_launcher(
    gpu: &Gpu,
    k: &Kernels,
    target: &DeviceGraphExec,
    err: &DeviceBuffer<i32>,
) -> GraphExec<'static> {
    let mut g = Graph::new(&gpu.ctx).unwrap();
    g.add_kernel(
        &k.launch_graph_late,
        one(),
        (target.handle(), LATE, err),
        &[],
    )
    .unwrap();
    g.instantiate().unwrap()
}

/// CUDA: "unlike host graphs, launching a device graph from the device while an update is being
/// applied will result in undefined behavior" (CUDA Programming Guide, device graph launch,
/// device graph update). The update is made of host calls and the upload after them, and the
/// launches of a graph holding the device graph's handle may come at any time until they
/// complete: so `update` waits for those already queued before it changes anything.
#[test]
fn an_update_waits_for_the_device_launches_already_queued() {
    let test = "an_update_waits_for_the_device_launches_already_queued";
    let Some(gpu) = gpu(test) else {
        return;
    };
    if !is_child(test) {
        drop(gpu);
        return alone(test);
    }
    let k = kernels(&gpu);
    let y = zeros::<u32>(&gpu, 32);
    let err = zeros::<i32>(&gpu, 1);
    let (mut worker, node) = adder(&gpu, &k, &y, 1);
    let mut p = late_launcher(&gpu, &k, &worker, &err);
    p.launch(&gpu.stream).unwrap(); // launches the worker about 0.5 s from now
    let queued = gpu.stream.record_event(None).unwrap();
    assert!(
        !queued.try_is_complete().unwrap(),
        "the launcher ended before the update began: the test shows nothing (is `LATE` too short \
         for this GPU's clock?)"
    );
    worker
        .update(|u| u.set_kernel_params(node, one(), (32u32, 10u32, &y)))
        .unwrap();
    assert!(
        queued.try_is_complete().unwrap(),
        "the update was applied while the launcher's device launch could still come"
    );
    p.launch(&gpu.stream).unwrap();
    assert_eq!(read_back(&gpu.stream, &err), vec![0]);
    // The launch queued before the update added the old 1, the one after it the new 10.
    assert_eq!(read_back(&gpu.stream, &y), vec![11; 32]);
}

/// What the driver does with the host call of such an update, made raw while a device launch is
/// still to come (see [`an_update_waits_for_the_device_launches_already_queued`]): it takes the
/// call (nothing in the driver waits or refuses, so the library must). On driver 580 (H200) the
/// device went on running the version uploaded before, in that launch and in a later one with
/// no upload made: the host call did not reach the device. CUDA does not promise it (it leaves
/// the launch undefined), so the library waits all the same; a driver that changes it fails here.
#[test]
fn witness_the_driver_takes_an_update_while_a_device_launch_is_to_come() {
    use cudagraph_runtime::cudarc::driver::sys;
    use cudagraph_tests::raw::kernel_node_params;
    let test = "witness_the_driver_takes_an_update_while_a_device_launch_is_to_come";
    let Some(gpu) = gpu(test) else {
        return;
    };
    if !is_child(test) {
        drop(gpu);
        return alone(test);
    }
    let k = kernels(&gpu);
    let y = zeros::<u32>(&gpu, 32);
    let err = zeros::<i32>(&gpu, 1);
    let (worker, node) = adder(&gpu, &k, &y, 1);
    let mut p = late_launcher(&gpu, &k, &worker, &err);
    p.launch(&gpu.stream).unwrap();
    let queued = gpu.stream.record_event(None).unwrap();
    let raw_node = worker.exec().graph().raw_node(node).unwrap();
    let (mut n, mut by, mut at) = (32u32, 10u32, y.addr());
    let mut args: [*mut std::ffi::c_void; 3] = [
        (&raw mut n).cast(),
        (&raw mut by).cast(),
        (&raw mut at).cast(),
    ];
    let params = kernel_node_params(
        k.add_u32.cu_function(),
        &one(),
        args.as_mut_ptr(),
        gpu.ctx.cu_ctx(),
    );
    assert!(
        !queued.try_is_complete().unwrap(),
        "the launcher ended before the raw update: the witness shows nothing"
    );
    // SAFETY: the worker's live executable and its kernel node, of the same function; `params`
    // and the arguments it points to are live for the call. (The raw call is what the witness
    // shows: made while a device launch of the executable is to come.)
    let r =
        unsafe { sys::cuGraphExecKernelNodeSetParams_v2(worker.exec().raw(), raw_node, &params) };
    // Whether the call returned while the device launch was still to come (it may wait for a
    // lock another thread's synchronizing call holds, when tests run side by side).
    let returned_early = !queued.try_is_complete().unwrap();
    assert_eq!(
        r,
        sys::CUresult::CUDA_SUCCESS,
        "the driver refused the update"
    );
    let first = read_back(&gpu.stream, &y)[0];
    p.launch(&gpu.stream).unwrap();
    let second = read_back(&gpu.stream, &y)[0] - first;
    assert_eq!(read_back(&gpu.stream, &err), vec![0]);
    eprintln!(
        "witness: the driver took the update while the device launch was to come (the call \
         returned {}); that launch added {first}, and a later one, with no upload, {second} (1: \
         the version uploaded before, 10: the updated one)",
        if returned_early {
            "before it"
        } else {
            "after the launcher ended"
        }
    );
    assert_eq!(
        (first, second),
        (1, 1),
        "the device ran the host's update without an upload"
    );
}

/// An upload of the inner executable, bypassing `DeviceGraphExec` (whose updates re-upload it in
/// order with the device launches): refused.
fn upload_bypassing_the_device_exec(
    worker: &DeviceGraphExec,
    gpu: &Gpu,
) -> cudagraph_runtime::Result<()> {
    worker.exec().upload(&gpu.stream)
}

#[test]
fn a_second_pending_tail_launch_of_one_graph_fails_with_invalid_value() {
    let Some(gpu) = gpu("a_second_pending_tail_launch_of_one_graph_fails_with_invalid_value")
    else {
        return;
    };
    let k = kernels(&gpu);
    let (out, err) = (zeros::<u32>(&gpu, 1), zeros::<i32>(&gpu, 2));
    let mut w = Graph::new(&gpu.ctx).unwrap();
    w.add_kernel(&k.put, one(), (5u32, &out), &[]).unwrap();
    let worker = w.instantiate_for_device_launch(&gpu.stream).unwrap();
    let mut p = Graph::new(&gpu.ctx).unwrap();
    p.add_kernel(&k.tail_launch_twice, one(), (worker.handle(), &err), &[])
        .unwrap();
    let mut p = p.instantiate().unwrap();
    p.launch(&gpu.stream).unwrap();
    assert_eq!(read_back(&gpu.stream, &err), vec![0, INVALID_VALUE]);
    assert_eq!(read_back(&gpu.stream, &out), vec![5]);
}

/// Each node kind CUDA forbids in a device graph: the driver refuses the device-launch
/// instantiation (through the plain `instantiate_with`, which leaves the rule to it), and
/// `instantiate_for_device_launch` refuses first, naming the node.
#[test]
fn the_driver_refuses_device_launch_of_each_forbidden_node_kind() {
    let Some(gpu) = gpu("the_driver_refuses_device_launch_of_each_forbidden_node_kind") else {
        return;
    };
    let build = |kind: &'static str| -> Graph<'static> {
        let mut g = Graph::new(&gpu.ctx).unwrap();
        g.name_next(kind);
        match kind {
            "host" => {
                g.add_host(|| {}, &[]).unwrap();
            }
            "record" => {
                g.add_event_record(&Event::new(&gpu.ctx).unwrap(), &[])
                    .unwrap();
            }
            "wait" => {
                g.add_event_wait(&Event::new(&gpu.ctx).unwrap(), &[])
                    .unwrap();
            }
            "alloc" => {
                let a = g.add_mem_alloc::<u32>(16, &[]).unwrap();
                g.name_next("free");
                g.add_mem_free(&a, &[a.id()]).unwrap();
            }
            "conditional" => {
                let h = g.conditional_handle(Some(0)).unwrap();
                g.add_conditional(h, Condition::If, &[], |bodies| {
                    bodies[0].add_empty(&[]).map(drop)
                })
                .unwrap();
            }
            _ => unreachable!(),
        }
        g
    };
    for kind in ["host", "record", "wait", "alloc", "conditional"] {
        let driver =
            build(kind).instantiate_with(InstantiateFlags::DEVICE_LAUNCH, Some(&gpu.stream));
        assert!(
            driver.is_err(),
            "the driver instantiated a graph with a {kind} node for device launch"
        );
        match build(kind).instantiate_for_device_launch(&gpu.stream) {
            Err(Error::Invalid { node, .. }) => assert!(node.contains(kind), "{node}"),
            other => panic!("{kind}: {other:?}"),
        }
    }
}

#[test]
fn a_kernel_changes_another_nodes_parameter_and_enabled_state_for_the_next_launch() {
    let Some(gpu) =
        gpu("a_kernel_changes_another_nodes_parameter_and_enabled_state_for_the_next_launch")
    else {
        return;
    };
    let k = kernels(&gpu);
    let (y, launches, err) = (
        zeros::<u32>(&gpu, 1),
        zeros::<u32>(&gpu, 1),
        zeros::<i32>(&gpu, 1),
    );
    let mut g = Graph::new(&gpu.ctx).unwrap();
    let (b, b_dev): (_, DeviceKernelNode<(u32, DevicePtrMut<u32>)>) = g
        .add_device_updatable_kernel(&k.bump, one(), (1u32, &y), &[])
        .unwrap();
    let k_offset = b_dev.param_offset(0).unwrap();
    assert_eq!(k_offset, 0);
    assert!(
        b_dev.param_offset(1).is_err(),
        "a pointer parameter is not device-settable"
    );
    g.add_kernel(
        &k.steer,
        one(),
        (b_dev, k_offset, &launches, &err),
        &[b.id()],
    )
    .unwrap();
    // CUDA's rules for such graphs, checked before the driver sees them.
    assert!(g.try_clone().is_err());
    let mut exec = g.instantiate_for_device_launch(&gpu.stream).unwrap();
    let runs = 7u32;
    for _ in 0..runs {
        exec.launch(&gpu.stream).unwrap();
    }
    assert_eq!(read_back(&gpu.stream, &err), vec![0]);
    assert_eq!(read_back(&gpu.stream, &launches), vec![runs]);
    assert_eq!(read_back(&gpu.stream, &y), vec![steered_sum(1, runs)]);
}

/// The CPU model of `bump` steered by `steer` from `k_0 = k`, over `runs` launches: launch i
/// adds k_i when enabled; then k_{i+1} = 3(i+1) + 1, enabled unless (i+1) % 3 == 2.
fn steered_sum(k: u32, runs: u32) -> u32 {
    let (mut want, mut k_now, mut enabled) = (0u32, k, true);
    for i in 0..runs {
        if enabled {
            want += k_now;
        }
        let c = i + 1;
        k_now = 3 * c + 1;
        enabled = c % 3 != 2;
    }
    want
}

cuda_graph! {
    /// The runtime test above as a declaration: `steer` takes `bump`'s device handle and the
    /// offset of its `k`, and changes `k` and whether `bump` runs for the next launch.
    #[device_launch]
    graph Steered {
        params {
            bump_k: Kernel<(u32, DevicePtrMut<u32>)>,
            steer_k: Kernel<(DeviceNode, u64, DevicePtrMut<u32>, DevicePtrMut<i32>)>,
            k: u32,
            y: DeviceBuffer<u32>,
            launches: DeviceBuffer<u32>,
            err: DeviceBuffer<i32>,
        }
        #[device_updatable]
        bump: kernel bump_k<<<1, 32>>>(k, y);
        steer: kernel steer_k<<<1, 32>>>(device_node(bump), param_offset(bump, 0), launches, err);
        bump -> steer;
    }
}

#[test]
fn a_declared_kernel_changes_a_device_updatable_nodes_parameter_and_enabled_state() {
    let Some(gpu) =
        gpu("a_declared_kernel_changes_a_device_updatable_nodes_parameter_and_enabled_state")
    else {
        return;
    };
    let k = kernels(&gpu);
    let params = || SteeredParams {
        bump_k: k.bump.clone(),
        steer_k: k.steer.clone(),
        k: 1,
        y: zeros::<u32>(&gpu, 1),
        launches: zeros::<u32>(&gpu, 1),
        err: zeros::<i32>(&gpu, 1),
    };
    // CUDA's rules for graphs with device-updatable nodes: no instantiation but the one for
    // device launch (which re-uploads after host-side updates), no rebuild (which would clear
    // the graph), no embedding as a child graph.
    let refused = |r: Result<(), Error>, what: &str| {
        assert!(matches!(r, Err(Error::Invalid { .. })), "{what}: {r:?}");
    };
    let p = params();
    refused(
        Steered::build(&gpu.ctx, &p)
            .unwrap()
            .instantiate()
            .map(drop),
        "instantiate",
    );
    refused(
        Steered::build(&gpu.ctx, &p)
            .unwrap()
            .instantiate_with(InstantiateFlags::DEVICE_LAUNCH, Some(&gpu.stream))
            .map(drop),
        "instantiate_with(DEVICE_LAUNCH)",
    );
    let mut built = Steered::build(&gpu.ctx, &p).unwrap();
    refused(built.rebuild(&p), "rebuild");
    let mut parent = Graph::new(&gpu.ctx).unwrap();
    refused(
        parent
            .add_child_graph(Steered::build(&gpu.ctx, &p).unwrap().graph(), &[])
            .map(drop),
        "add_child_graph",
    );

    let p = params();
    let mut exec = Steered::build(&gpu.ctx, &p)
        .unwrap()
        .instantiate_for_device_launch(&gpu.stream)
        .unwrap();
    let runs = 7u32;
    for _ in 0..runs {
        exec.launch(&gpu.stream).unwrap();
    }
    assert_eq!(read_back(&gpu.stream, &p.err), vec![0]);
    assert_eq!(read_back(&gpu.stream, &p.launches), vec![runs]);
    assert_eq!(read_back(&gpu.stream, &p.y), vec![steered_sum(1, runs)]);
}

#[test]
fn graphs_with_device_updatable_nodes_instantiate_only_for_device_launch() {
    let Some(gpu) = gpu("graphs_with_device_updatable_nodes_instantiate_only_for_device_launch")
    else {
        return;
    };
    let k = kernels(&gpu);
    let y = zeros::<u32>(&gpu, 1);
    let mut g = Graph::new(&gpu.ctx).unwrap();
    g.add_device_updatable_kernel(&k.bump, one(), (1u32, &y), &[])
        .unwrap();
    let mut parent = Graph::new(&gpu.ctx).unwrap();
    assert!(matches!(
        parent.add_child_graph(&g, &[]),
        Err(Error::Invalid { .. })
    ));
    // Not with the device-launch flag either: only `instantiate_for_device_launch`'s executable
    // uploads again after host-side updates, as CUDA requires of such a graph.
    let mut g2 = Graph::new(&gpu.ctx).unwrap();
    g2.add_device_updatable_kernel(&k.bump, one(), (1u32, &y), &[])
        .unwrap();
    assert!(matches!(
        g2.instantiate_with(InstantiateFlags::DEVICE_LAUNCH, Some(&gpu.stream)),
        Err(Error::Invalid { .. })
    ));
    assert!(matches!(g.instantiate(), Err(Error::Invalid { .. })));
}

/// A device-updatable node's arguments are the device's to change: a host update of them is
/// refused, naming the node, since a value a kernel set in it from the device was admitted by the
/// node's check with the other arguments as they were (here a host update would move `bump` to
/// a buffer of one element under a device-set value that a check might bound by its length).
/// Other nodes of the executable update from the host as before.
#[test]
fn a_host_update_of_a_device_updatable_nodes_arguments_is_refused() {
    let Some(gpu) = gpu("a_host_update_of_a_device_updatable_nodes_arguments_is_refused") else {
        return;
    };
    let k = kernels(&gpu);
    let (y, z, w) = (
        zeros::<u32>(&gpu, 4),
        zeros::<u32>(&gpu, 1),
        zeros::<u32>(&gpu, 32),
    );
    let mut g = Graph::new(&gpu.ctx).unwrap();
    let (bump, _device) = g
        .add_device_updatable_kernel(&k.bump, one(), (1u32, &y), &[])
        .unwrap();
    let add = g
        .add_kernel(&k.add_u32, one(), (32u32, 1u32, &w), &[bump.id()])
        .unwrap();
    let mut d = g.instantiate_for_device_launch(&gpu.stream).unwrap();
    for refused in [
        d.update(|u| u.set_kernel_params(bump, one(), (5u32, &z))),
        d.update(|u| u.set_kernel(bump, &k.bump, one(), (1u32, &y))),
    ] {
        match refused {
            Err(Error::Invalid { node, reason }) => {
                assert!(reason.contains("device-updatable"), "{node}: {reason}");
            }
            other => panic!("a host update of a device-updatable node: {other:?}"),
        }
    }
    d.update(|u| u.set_kernel_params(add, one(), (32u32, 2u32, &w)))
        .unwrap();
    d.launch(&gpu.stream).unwrap();
    assert_eq!(read_back(&gpu.stream, &y), vec![1, 0, 0, 0]);
    assert_eq!(read_back(&gpu.stream, &w), vec![2; 32]);
}

// The races of host code with the graphs a kernel launches: what a launched graph uses counts as
// its launching kernel node's own, and a fire-and-forget or sibling launch runs at the same time
// as every node of the launching graph that is not ordered before that kernel (the programming
// guide's "Device Launch": https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#device-launch).

/// The value the host buffers start with, which no copy of these tests writes.
const UNTOUCHED: u32 = 0xdead_beef;

/// A device-launchable graph adding `by` to each of `y`'s 32 elements, then copying `y` into
/// the page-locked `to`, with its copy node.
fn copier(
    gpu: &Gpu,
    k: &Kernels,
    y: &DeviceBuffer<u32>,
    by: u32,
    to: &HostBuffer<u32>,
) -> (DeviceGraphExec, MemcpyNode<DeviceToHost>) {
    let mut g = Graph::new(&gpu.ctx).unwrap();
    let add = g
        .add_kernel(&k.add_u32, one(), (32u32, by, y), &[])
        .unwrap();
    let copy = g.add_memcpy(Memcpy::dtoh(y, to), &[add.id()]).unwrap();
    (g.instantiate_for_device_launch(&gpu.stream).unwrap(), copy)
}

fn host_buffer(gpu: &Gpu) -> HostBuffer<u32> {
    HostBuffer::from_slice(&gpu.ctx, &[UNTOUCHED; 32]).unwrap()
}

/// A graph whose kernel `go` launches `target` fire-and-forget, and whose host node `look`
/// reads `seen` after it.
fn launcher_then_host_node(
    gpu: &Gpu,
    k: &Kernels,
    target: &DeviceGraphExec,
    err: &DeviceBuffer<i32>,
    seen: &HostBuffer<u32>,
) -> Graph<'static> {
    let mut p = Graph::new(&gpu.ctx).unwrap();
    p.name_next("go");
    let go = p
        .add_kernel(&k.launch_graph, one(), (target.handle(), 0u32, err), &[])
        .unwrap();
    p.name_next("look");
    p.add_host_with(seen, |_: &[u32]| {}, &[go.id()]).unwrap();
    p
}

fn assert_hazard<T: std::fmt::Debug>(result: Result<T, Error>, want: (&str, &str), launch: bool) {
    match result {
        Err(Error::Hazard {
            first,
            second,
            reason,
        }) => {
            assert_eq!((first.as_str(), second.as_str()), want, "{reason}");
            assert_eq!(
                reason.contains("device-launchable executable"),
                launch,
                "{reason}"
            );
        }
        other => panic!("expected a hazard between {want:?}, got {other:?}"),
    }
}

/// The host reads after the launches, without synchronizing the stream: the guard waits for
/// the launcher's completion marker, which follows the graphs it launched in every mode.
fn host_reads_after_launches_see_the_launched_copies(test: &str, mode: u32) {
    let Some(gpu) = gpu(test) else { return };
    let k = kernels(&gpu);
    let (y, err, hb) = (
        zeros::<u32>(&gpu, 32),
        zeros::<i32>(&gpu, 1),
        host_buffer(&gpu),
    );
    let (worker, _) = copier(&gpu, &k, &y, 5, &hb);
    let mut p = launcher(&gpu, &k, &worker, mode, &err);
    for _ in 0..3 {
        p.launch(&gpu.stream).unwrap();
    }
    assert_eq!(&*hb.read().unwrap(), &[15; 32][..]);
    assert_eq!(read_back(&gpu.stream, &err), vec![0]);
}

#[test]
fn a_host_read_sees_the_copies_of_a_fire_and_forget_launch() {
    host_reads_after_launches_see_the_launched_copies(
        "a_host_read_sees_the_copies_of_a_fire_and_forget_launch",
        0,
    );
}

#[test]
fn a_host_read_sees_the_copies_of_a_tail_launch() {
    host_reads_after_launches_see_the_launched_copies(
        "a_host_read_sees_the_copies_of_a_tail_launch",
        1,
    );
}

#[test]
fn a_host_read_sees_the_copies_of_a_sibling_launch() {
    host_reads_after_launches_see_the_launched_copies(
        "a_host_read_sees_the_copies_of_a_sibling_launch",
        2,
    );
}

#[test]
fn a_host_node_after_a_kernel_launching_a_graph_that_writes_its_buffer_is_refused() {
    let Some(gpu) =
        gpu("a_host_node_after_a_kernel_launching_a_graph_that_writes_its_buffer_is_refused")
    else {
        return;
    };
    let k = kernels(&gpu);
    let (y, err, hb) = (
        zeros::<u32>(&gpu, 32),
        zeros::<i32>(&gpu, 1),
        host_buffer(&gpu),
    );
    let (worker, _) = copier(&gpu, &k, &y, 2, &hb);
    // After the launching kernel: a fire-and-forget launch may still copy while it reads.
    let mut p = Graph::new(&gpu.ctx).unwrap();
    p.name_next("go");
    let go = p
        .add_kernel(&k.launch_graph, one(), (worker.handle(), 0u32, &err), &[])
        .unwrap();
    p.name_next("look");
    assert_hazard(
        p.add_host_with(&hb, |_: &[u32]| {}, &[go.id()]),
        ("go", "look"),
        true,
    );
    // Added first, unordered with it: refused when the launching kernel comes.
    let mut q = Graph::new(&gpu.ctx).unwrap();
    q.name_next("look");
    q.add_host_with(&hb, |_: &[u32]| {}, &[]).unwrap();
    q.name_next("go");
    assert_hazard(
        q.add_kernel(&k.launch_graph, one(), (worker.handle(), 0u32, &err), &[]),
        ("look", "go"),
        true,
    );
    // Ordered before it, the graph is accepted; its executable is not, as any executable whose
    // host code reads memory another executable writes, launched in any order: the worker's own
    // (whose host launches are ordered with the launcher's, but whose device launches by other
    // graphs are not).
    let mut r = Graph::new(&gpu.ctx).unwrap();
    let look = r.add_host_with(&hb, |_: &[u32]| {}, &[]).unwrap();
    r.add_kernel(
        &k.launch_graph,
        one(),
        (worker.handle(), 0u32, &err),
        &[look.id()],
    )
    .unwrap();
    assert!(matches!(r.instantiate(), Err(Error::BufferInUse { .. })));
}

#[test]
fn a_device_graph_update_writing_a_launchers_host_node_buffer_is_refused() {
    let Some(gpu) = gpu("a_device_graph_update_writing_a_launchers_host_node_buffer_is_refused")
    else {
        return;
    };
    let k = kernels(&gpu);
    let (y, err) = (zeros::<u32>(&gpu, 32), zeros::<i32>(&gpu, 1));
    let (hb_a, hb_b) = (host_buffer(&gpu), host_buffer(&gpu));
    let (mut worker, copy) = copier(&gpu, &k, &y, 1, &hb_a);
    let p = launcher_then_host_node(&gpu, &k, &worker, &err, &hb_b);
    let mut p = p.instantiate().unwrap();
    // Copying into `hb_b`, which `p`'s host node reads, is refused as between any two
    // executables (the launches of `p` and of the worker's launchers run in any order).
    assert!(matches!(
        worker.update(|u| u.set_memcpy_params(copy, Memcpy::dtoh(&y, &hb_b))),
        Err(Error::BufferInUse { .. })
    ));
    // Nothing changed: both copy into `hb_a`.
    worker.launch(&gpu.stream).unwrap();
    p.launch(&gpu.stream).unwrap();
    assert_eq!(&*hb_a.read().unwrap(), &[2; 32][..]);
    assert_eq!(&*hb_b.read().unwrap(), &[UNTOUCHED; 32][..]);
    // Without that launcher the update goes through, and is uploaded.
    drop(p);
    worker
        .update(|u| u.set_memcpy_params(copy, Memcpy::dtoh(&y, &hb_b)))
        .unwrap();
    worker.launch(&gpu.stream).unwrap();
    assert_eq!(&*hb_b.read().unwrap(), &[3; 32][..]);
    assert_eq!(read_back(&gpu.stream, &err), vec![0]);
}

#[test]
fn a_graph_built_before_its_device_graph_changed_is_refused_when_instantiated() {
    let Some(gpu) =
        gpu("a_graph_built_before_its_device_graph_changed_is_refused_when_instantiated")
    else {
        return;
    };
    let k = kernels(&gpu);
    let (y, err) = (zeros::<u32>(&gpu, 32), zeros::<i32>(&gpu, 1));
    let (hb_a, hb_b) = (host_buffer(&gpu), host_buffer(&gpu));
    let (mut worker, copy) = copier(&gpu, &k, &y, 1, &hb_a);
    let p = launcher_then_host_node(&gpu, &k, &worker, &err, &hb_b);
    // No executable launches it yet: the update is made; the graph, checked against the copy
    // into `hb_a`, is refused when instantiated (the worker's executable writes `hb_b`).
    worker
        .update(|u| u.set_memcpy_params(copy, Memcpy::dtoh(&y, &hb_b)))
        .unwrap();
    assert!(matches!(p.instantiate(), Err(Error::BufferInUse { .. })));
}

#[test]
fn an_update_giving_a_device_graph_its_own_handle_is_refused() {
    let Some(gpu) = gpu("an_update_giving_a_device_graph_its_own_handle_is_refused") else {
        return;
    };
    let k = kernels(&gpu);
    let (y, err, hb) = (
        zeros::<u32>(&gpu, 32),
        zeros::<i32>(&gpu, 1),
        host_buffer(&gpu),
    );
    let (worker, _) = copier(&gpu, &k, &y, 1, &hb);
    let mut g = Graph::new(&gpu.ctx).unwrap();
    let go = g
        .add_kernel(&k.launch_graph, one(), (worker.handle(), 1u32, &err), &[])
        .unwrap();
    let mut relay = g.instantiate_for_device_launch(&gpu.stream).unwrap();
    let own = relay.shared_handle();
    // (The executable is being updated: registering with it is refused, as with a guard.)
    assert!(matches!(
        relay.update(|u| u.set_kernel_params(go, one(), (own.clone(), 1u32, &err))),
        Err(Error::BufferInUse { .. })
    ));
    // Still usable: launched from the host, it tail-launches the worker.
    relay
        .update(|u| u.set_kernel_params(go, one(), (worker.handle(), 1u32, &err)))
        .unwrap();
    relay.launch(&gpu.stream).unwrap();
    assert_eq!(&*hb.read().unwrap(), &[1; 32][..]);
    assert_eq!(read_back(&gpu.stream, &err), vec![0]);
}

/// Not device launch, but the same hole: a conditional body's nodes are added to a graph of
/// their own, which does not see the host nodes of the graph the conditional node is in.
#[test]
fn a_conditional_body_copying_into_an_unordered_host_nodes_buffer_is_refused() {
    let Some(gpu) =
        gpu("a_conditional_body_copying_into_an_unordered_host_nodes_buffer_is_refused")
    else {
        return;
    };
    let (y, hb) = (zeros::<u32>(&gpu, 32), host_buffer(&gpu));
    let mut g = Graph::new(&gpu.ctx).unwrap();
    g.name_next("look");
    let look = g.add_host_with(&hb, |_: &[u32]| {}, &[]).unwrap();
    let h = g.conditional_handle(Some(1)).unwrap();
    g.name_next("maybe");
    assert_hazard(
        g.add_conditional(h, Condition::If, &[], |bodies| {
            bodies[0].add_memcpy(Memcpy::dtoh(&y, &hb), &[]).map(drop)
        }),
        ("look", "maybe"),
        false,
    );
    // The graph is left as it was (the handle drives no node yet): ordered after the host
    // node, the conditional is accepted.
    g.add_conditional(h, Condition::If, &[look.id()], |bodies| {
        bodies[0].add_memcpy(Memcpy::dtoh(&y, &hb), &[]).map(drop)
    })
    .unwrap();
    let mut exec = g.instantiate().unwrap();
    exec.launch(&gpu.stream).unwrap();
    assert_eq!(&*hb.read().unwrap(), &[0; 32][..]);
}

/// An update of a device-launchable executable whose upload fails (here: its upload stream is
/// being captured, with cudarc's safe `begin_capture`) leaves the device running the version
/// uploaded before, with that version's memory: the executables that may launch it must keep
/// holding that memory. Before the fix they were moved to the new version's memory before the
/// upload was tried: `b`, which only the old version of node `n2` writes, was then held by no
/// one, freed when dropped, and written by the next device launch (the sentinel allocated after
/// it).
#[test]
fn an_update_whose_upload_fails_keeps_the_device_versions_memory_held() {
    use cudagraph_runtime::cudarc::driver::sys;
    use cudagraph_tests::soundness::{overwritten, sentinel};
    let Some(gpu) = gpu("an_update_whose_upload_fails_keeps_the_device_versions_memory_held")
    else {
        return;
    };
    let k = kernels(&gpu);
    let up = gpu.ctx.new_stream().unwrap();
    let a = DeviceBuffer::<u32>::zeros(&gpu.stream, 32).unwrap();
    let b = DeviceBuffer::<u32>::zeros(&gpu.stream, 32).unwrap();
    let mut g = Graph::new(&gpu.ctx).unwrap();
    let n1 = g
        .add_kernel(&k.add_u32, one(), (32u32, 1u32, &a), &[])
        .unwrap();
    let n2 = g
        .add_kernel(&k.add_u32, one(), (32u32, 1u32, &b), &[n1.into()])
        .unwrap();
    let mut d = g.instantiate_for_device_launch(&up).unwrap();
    let err = DeviceBuffer::<i32>::zeros(&gpu.stream, 1).unwrap();
    let mut l = launcher(&gpu, &k, &d, 1, &err);

    // `n2` moves to `a` (within what the launches used): the upload fails, `up` being captured.
    up.begin_capture(sys::CUstreamCaptureMode::CU_STREAM_CAPTURE_MODE_RELAXED)
        .unwrap();
    let updated = d.update(|u| u.set_kernel_params(n2, one(), (32u32, 1u32, &a)));
    let ended = up.end_capture(sys::CUgraphInstantiate_flags(0));
    eprintln!(
        "update while the upload stream is captured: {:?}; the capture: {:?}",
        updated.as_ref().err(),
        ended.as_ref().err()
    );
    drop(ended);

    // `b` dropped: freed unless something still holds it; the sentinel comes after it.
    drop(b);
    let s = sentinel(&gpu.stream, 32);
    l.launch(&gpu.stream).unwrap();
    let hit = overwritten(&gpu.stream, &s);
    assert_eq!(
        hit, 0,
        "a device launch of the version uploaded before wrote the freed `b` ({hit} sentinel \
         elements)"
    );
    assert_eq!(err.to_vec().unwrap(), [0], "the device launch failed");
}
