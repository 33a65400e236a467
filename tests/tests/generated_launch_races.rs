//! T14 through device graph launches: a kernel given a device-launchable executable's handle may
//! launch it fire-and-forget (or as a sibling), and the launched graph then runs at the same
//! time as every node of the launching graph not ordered before that kernel, nodes after it too
//! (https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#device-launch). The
//! declaration cannot see what the launched graph uses, so `build`, `set_params` and
//! instantiation check the executable's footprint against those nodes: a race is refused
//! (`Error::Hazard`, naming the launching node and the other node); an edge putting the other
//! node before the launching kernel, separate buffers, or `#[unordered(param)]` on both nodes
//! make it legal. An update widening what the executable uses is refused while an executable
//! that may launch it exists.
//!
//! Needs CUDA's `libcudadevrt.a` (the toolkit's `lib64/`, or `$CUDAGRAPH_CUDADEVRT`).

use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{cuda_graph, Error};
use cudagraph_tests::{gpu, read_back, zeros, Gpu};

use crate::device_launch::{adder, kernels, one, Kernels};

cuda_graph! {
    /// `go` launches `worker` fire-and-forget; `other` adds 3 to `y`; no edge between them.
    graph Beside {
        params {
            launch: Kernel<(DeviceGraph, u32, DevicePtrMut<i32>)>,
            add: Kernel<(u32, u32, DevicePtrMut<u32>)>,
            worker: SharedDeviceGraph,
            y: DeviceBuffer<u32>,
            err: DeviceBuffer<i32>,
        }
        go: kernel launch<<<1, 32>>>(worker, 0u32, err);
        other: kernel add<<<1, 32>>>(32u32, 3u32, y);
    }

    /// The same, `other` before the launching kernel.
    graph Before {
        params {
            launch: Kernel<(DeviceGraph, u32, DevicePtrMut<i32>)>,
            add: Kernel<(u32, u32, DevicePtrMut<u32>)>,
            worker: SharedDeviceGraph,
            y: DeviceBuffer<u32>,
            err: DeviceBuffer<i32>,
        }
        other: kernel add<<<1, 32>>>(32u32, 3u32, y);
        go: kernel launch<<<1, 32>>>(worker, 0u32, err);
        other -> go;
    }

    /// The same, `other` after the launching kernel: a fire-and-forget launch may still run.
    graph After {
        params {
            launch: Kernel<(DeviceGraph, u32, DevicePtrMut<i32>)>,
            add: Kernel<(u32, u32, DevicePtrMut<u32>)>,
            worker: SharedDeviceGraph,
            y: DeviceBuffer<u32>,
            err: DeviceBuffer<i32>,
        }
        go: kernel launch<<<1, 32>>>(worker, 0u32, err);
        other: kernel add<<<1, 32>>>(32u32, 3u32, y);
        go -> other;
    }

    /// Both marked: the launched graph adds to the first half of `y`, `other` to the second.
    graph OnPurpose {
        params {
            launch: Kernel<(DeviceGraph, u32, DevicePtrMut<i32>)>,
            add: Kernel<(u32, u32, DevicePtrMut<u32>)>,
            worker: SharedDeviceGraph,
            y: DeviceBuffer<u32>,
            err: DeviceBuffer<i32>,
        }
        #[unordered(y)] go: kernel launch<<<1, 32>>>(worker, 0u32, err);
        #[unordered(y)] other: kernel add<<<1, 32>>>(16u32, 3u32, y.slice(16..32));
    }

    /// A graph whose kernel launches `worker` fire-and-forget: embedded below as a child.
    graph Launching {
        params {
            launch: Kernel<(DeviceGraph, u32, DevicePtrMut<i32>)>,
            worker: SharedDeviceGraph,
            err: DeviceBuffer<i32>,
        }
        go: kernel launch<<<1, 32>>>(worker, 0u32, err);
    }

    /// The child node's kernel launches `worker`; `other`, after the child node, adds 3 to `y`.
    graph ChildThenOther {
        params {
            add: Kernel<(u32, u32, DevicePtrMut<u32>)>,
            inner: Launching,
            y: DeviceBuffer<u32>,
        }
        sub: child(inner);
        other: kernel add<<<1, 32>>>(32u32, 3u32, y);
        sub -> other;
    }

    /// One kernel launching two graphs fire-and-forget: they run at the same time.
    graph LaunchesTwo {
        params {
            launch_two: Kernel<(DeviceGraph, DeviceGraph, DevicePtrMut<i32>)>,
            first: SharedDeviceGraph,
            second: SharedDeviceGraph,
            err: DeviceBuffer<i32>,
        }
        go: kernel launch_two<<<1, 32>>>(first, second, err);
    }

    /// Two launching kernels, no edge between them.
    graph TwoLaunchers {
        params {
            launch: Kernel<(DeviceGraph, u32, DevicePtrMut<i32>)>,
            first: SharedDeviceGraph,
            second: SharedDeviceGraph,
            err: DeviceBuffer<i32>,
            err2: DeviceBuffer<i32>,
        }
        a: kernel launch<<<1, 32>>>(first, 0u32, err);
        b: kernel launch<<<1, 32>>>(second, 0u32, err2);
    }
}

/// A `Hazard` between `want`, saying that a launched graph may run alongside.
fn assert_launch_hazard<T: std::fmt::Debug>(result: Result<T, Error>, want: (&str, &str)) {
    match result {
        Err(Error::Hazard {
            first,
            second,
            reason,
        }) => {
            assert_eq!((first.as_str(), second.as_str()), want, "{reason}");
            assert!(reason.contains("may launch"), "{reason}");
            assert!(reason.contains("alongside"), "{reason}");
        }
        other => panic!("expected a hazard between {want:?}, got {other:?}"),
    }
}

fn beside_params(
    k: &Kernels,
    worker: &DeviceGraphExec,
    y: &DeviceBuffer<u32>,
    err: &DeviceBuffer<i32>,
) -> BesideParams {
    BesideParams {
        launch: k.launch_graph.clone(),
        add: k.add_u32.clone(),
        worker: worker.shared_handle(),
        y: y.clone(),
        err: err.clone(),
    }
}

fn setup(test: &str) -> Option<(Gpu, Kernels)> {
    let gpu = gpu(test)?;
    let k = kernels(&gpu);
    Some((gpu, k))
}

#[test]
fn a_graph_launched_beside_a_node_writing_its_memory_is_refused_at_build() {
    let Some((gpu, k)) =
        setup("a_graph_launched_beside_a_node_writing_its_memory_is_refused_at_build")
    else {
        return;
    };
    let (y, z, err) = (
        zeros::<u32>(&gpu, 32),
        zeros::<u32>(&gpu, 32),
        zeros::<i32>(&gpu, 1),
    );
    // The worker adds 5 to `y`, which `other` writes too: refused, naming both nodes.
    let (on_y, _) = adder(&gpu, &k, &y, 5);
    assert_launch_hazard(
        Beside::build(&gpu.ctx, &beside_params(&k, &on_y, &y, &err)),
        ("go", "other"),
    );
    // On `z`: built, and both run (the CPU: `y` += 3, `z` += 5 per launch).
    let (on_z, _) = adder(&gpu, &k, &z, 5);
    let mut exec = Beside::build(&gpu.ctx, &beside_params(&k, &on_z, &y, &err))
        .unwrap()
        .instantiate()
        .unwrap();
    for _ in 0..2 {
        exec.launch(&gpu.stream).unwrap();
    }
    assert_eq!(read_back(&gpu.stream, &y), vec![6; 32]);
    assert_eq!(read_back(&gpu.stream, &z), vec![10; 32]);
    // `set_params` giving it the worker on `y`: refused; the executable runs what it had.
    assert_launch_hazard(
        exec.set_params(&beside_params(&k, &on_y, &y, &err)),
        ("go", "other"),
    );
    exec.launch(&gpu.stream).unwrap();
    assert_eq!(read_back(&gpu.stream, &y), vec![9; 32]);
    assert_eq!(read_back(&gpu.stream, &z), vec![15; 32]);
    assert_eq!(read_back(&gpu.stream, &err), vec![0]);
}

#[test]
fn an_edge_putting_the_other_node_before_the_launching_kernel_is_accepted() {
    let Some((gpu, k)) =
        setup("an_edge_putting_the_other_node_before_the_launching_kernel_is_accepted")
    else {
        return;
    };
    let (y, err) = (zeros::<u32>(&gpu, 32), zeros::<i32>(&gpu, 1));
    let (worker, _) = adder(&gpu, &k, &y, 5);
    let p = beside_params(&k, &worker, &y, &err);
    let params = BeforeParams {
        launch: p.launch,
        add: p.add,
        worker: p.worker,
        y: p.y,
        err: p.err,
    };
    let mut exec = Before::build(&gpu.ctx, &params)
        .unwrap()
        .instantiate()
        .unwrap();
    for _ in 0..3 {
        exec.launch(&gpu.stream).unwrap();
    }
    // The CPU: each launch adds 3, then the launched graph 5.
    assert_eq!(read_back(&gpu.stream, &y), vec![24; 32]);
    assert_eq!(read_back(&gpu.stream, &err), vec![0]);
}

#[test]
fn a_node_after_the_launching_kernel_racing_with_the_launched_graph_is_refused() {
    let Some((gpu, k)) =
        setup("a_node_after_the_launching_kernel_racing_with_the_launched_graph_is_refused")
    else {
        return;
    };
    let (y, err) = (zeros::<u32>(&gpu, 32), zeros::<i32>(&gpu, 1));
    let (worker, _) = adder(&gpu, &k, &y, 5);
    let p = beside_params(&k, &worker, &y, &err);
    let params = AfterParams {
        launch: p.launch,
        add: p.add,
        worker: p.worker,
        y: p.y,
        err: p.err,
    };
    assert_launch_hazard(After::build(&gpu.ctx, &params), ("go", "other"));
}

#[test]
fn unordered_on_both_nodes_accepts_a_launched_graph_on_another_part_of_the_buffer() {
    let Some((gpu, k)) =
        setup("unordered_on_both_nodes_accepts_a_launched_graph_on_another_part_of_the_buffer")
    else {
        return;
    };
    let (y, err) = (zeros::<u32>(&gpu, 32), zeros::<i32>(&gpu, 1));
    // The worker adds 5 to `y[..16]`; `other` adds 3 to `y[16..]`.
    let mut g = Graph::new(&gpu.ctx).unwrap();
    g.add_kernel(&k.add_u32, one(), (16u32, 5u32, &y.slice(..16)), &[])
        .unwrap();
    let worker = g.instantiate_for_device_launch(&gpu.stream).unwrap();
    let p = beside_params(&k, &worker, &y, &err);
    let params = OnPurposeParams {
        launch: p.launch,
        add: p.add,
        worker: p.worker,
        y: p.y,
        err: p.err,
    };
    let mut exec = OnPurpose::build(&gpu.ctx, &params)
        .unwrap()
        .instantiate()
        .unwrap();
    for _ in 0..2 {
        exec.launch(&gpu.stream).unwrap();
    }
    let mut want = vec![10u32; 16];
    want.extend([6u32; 16]);
    assert_eq!(read_back(&gpu.stream, &y), want);
    assert_eq!(read_back(&gpu.stream, &err), vec![0]);
}

#[test]
fn two_unordered_kernels_launching_graphs_that_write_one_buffer_are_refused() {
    let Some((gpu, k)) =
        setup("two_unordered_kernels_launching_graphs_that_write_one_buffer_are_refused")
    else {
        return;
    };
    let (y, z) = (zeros::<u32>(&gpu, 32), zeros::<u32>(&gpu, 32));
    let (err, err2) = (zeros::<i32>(&gpu, 1), zeros::<i32>(&gpu, 1));
    let (on_y, _) = adder(&gpu, &k, &y, 1);
    let (also_on_y, _) = adder(&gpu, &k, &y, 2);
    let (on_z, _) = adder(&gpu, &k, &z, 2);
    let params = |first: &DeviceGraphExec, second: &DeviceGraphExec| TwoLaunchersParams {
        launch: k.launch_graph.clone(),
        first: first.shared_handle(),
        second: second.shared_handle(),
        err: err.clone(),
        err2: err2.clone(),
    };
    assert_launch_hazard(
        TwoLaunchers::build(&gpu.ctx, &params(&on_y, &also_on_y)),
        ("a", "b"),
    );
    let mut exec = TwoLaunchers::build(&gpu.ctx, &params(&on_y, &on_z))
        .unwrap()
        .instantiate()
        .unwrap();
    for _ in 0..4 {
        exec.launch(&gpu.stream).unwrap();
    }
    assert_eq!(read_back(&gpu.stream, &y), vec![4; 32]);
    assert_eq!(read_back(&gpu.stream, &z), vec![8; 32]);
    assert_eq!(read_back(&gpu.stream, &err), vec![0]);
    assert_eq!(read_back(&gpu.stream, &err2), vec![0]);
}

#[test]
fn an_update_widening_what_a_declared_launcher_was_checked_against_is_refused() {
    let Some((gpu, k)) =
        setup("an_update_widening_what_a_declared_launcher_was_checked_against_is_refused")
    else {
        return;
    };
    let (y, z, err) = (
        zeros::<u32>(&gpu, 32),
        zeros::<u32>(&gpu, 32),
        zeros::<i32>(&gpu, 1),
    );
    let (mut worker, node) = adder(&gpu, &k, &z, 5);
    let mut exec = Beside::build(&gpu.ctx, &beside_params(&k, &worker, &y, &err))
        .unwrap()
        .instantiate()
        .unwrap();
    // Onto `y`, which `other` writes beside it: refused, nothing uploaded.
    assert!(matches!(
        worker.update(|u| u.set_kernel_params(node, one(), (32u32, 5u32, &y))),
        Err(Error::BufferInUse { .. })
    ));
    // The same memory, another value: made, and uploaded.
    worker
        .update(|u| u.set_kernel_params(node, one(), (32u32, 7u32, &z)))
        .unwrap();
    exec.launch(&gpu.stream).unwrap();
    assert_eq!(read_back(&gpu.stream, &y), vec![3; 32]);
    assert_eq!(read_back(&gpu.stream, &z), vec![7; 32]);
    assert_eq!(read_back(&gpu.stream, &err), vec![0]);
    // Without the launcher, the update is made.
    drop(exec);
    worker
        .update(|u| u.set_kernel_params(node, one(), (32u32, 5u32, &y)))
        .unwrap();
}

#[test]
fn a_graph_built_before_its_device_graph_widened_is_refused_when_instantiated() {
    let Some((gpu, k)) =
        setup("a_graph_built_before_its_device_graph_widened_is_refused_when_instantiated")
    else {
        return;
    };
    let (y, z, err) = (
        zeros::<u32>(&gpu, 32),
        zeros::<u32>(&gpu, 32),
        zeros::<i32>(&gpu, 1),
    );
    let (mut worker, node) = adder(&gpu, &k, &z, 5);
    let built = Beside::build(&gpu.ctx, &beside_params(&k, &worker, &y, &err)).unwrap();
    // No executable may launch it yet: the update is made; the graph checks again.
    worker
        .update(|u| u.set_kernel_params(node, one(), (32u32, 5u32, &y)))
        .unwrap();
    assert_launch_hazard(built.instantiate(), ("go", "other"));
}

/// A child node whose graph's kernel launches a device graph: the launched graph may run beside
/// the nodes after the child node, as it may beside those after a launching kernel.
#[test]
fn a_node_after_a_child_whose_kernel_launches_a_racing_graph_is_refused() {
    let Some((gpu, k)) =
        setup("a_node_after_a_child_whose_kernel_launches_a_racing_graph_is_refused")
    else {
        return;
    };
    let (y, z, err) = (
        zeros::<u32>(&gpu, 32),
        zeros::<u32>(&gpu, 32),
        zeros::<i32>(&gpu, 1),
    );
    let params = |worker: &DeviceGraphExec| ChildThenOtherParams {
        add: k.add_u32.clone(),
        inner: Launching::build(
            &gpu.ctx,
            &LaunchingParams {
                launch: k.launch_graph.clone(),
                worker: worker.shared_handle(),
                err: err.clone(),
            },
        )
        .unwrap(),
        y: y.clone(),
    };
    // The worker adds 5 to `y`, which `other` writes after the child node: refused.
    let (on_y, _) = adder(&gpu, &k, &y, 5);
    assert_launch_hazard(
        ChildThenOther::build(&gpu.ctx, &params(&on_y)),
        ("sub", "other"),
    );
    // On `z`: built, and both run (the CPU: `y` += 3, `z` += 5 per launch).
    let (on_z, _) = adder(&gpu, &k, &z, 5);
    let mut exec = ChildThenOther::build(&gpu.ctx, &params(&on_z))
        .unwrap()
        .instantiate()
        .unwrap();
    for _ in 0..2 {
        exec.launch(&gpu.stream).unwrap();
    }
    assert_eq!(read_back(&gpu.stream, &y), vec![6; 32]);
    assert_eq!(read_back(&gpu.stream, &z), vec![10; 32]);
    assert_eq!(read_back(&gpu.stream, &err), vec![0]);
}

/// Two graphs one kernel launches fire-and-forget run at the same time as each other.
#[test]
fn two_graphs_one_kernel_launches_that_write_one_buffer_are_refused() {
    let Some((gpu, k)) = setup("two_graphs_one_kernel_launches_that_write_one_buffer_are_refused")
    else {
        return;
    };
    let (y, z, err) = (
        zeros::<u32>(&gpu, 32),
        zeros::<u32>(&gpu, 32),
        zeros::<i32>(&gpu, 1),
    );
    let params = |first: &DeviceGraphExec, second: &DeviceGraphExec| LaunchesTwoParams {
        launch_two: k.launch_two.clone(),
        first: first.shared_handle(),
        second: second.shared_handle(),
        err: err.clone(),
    };
    let (y_by_2, _) = adder(&gpu, &k, &y, 2);
    let (y_by_7, _) = adder(&gpu, &k, &y, 7);
    assert_launch_hazard(
        LaunchesTwo::build(&gpu.ctx, &params(&y_by_2, &y_by_7)),
        ("go", "go"),
    );
    // On separate buffers: built, and both run (the CPU: `y` += 2, `z` += 7 per launch).
    let (z_by_7, _) = adder(&gpu, &k, &z, 7);
    let mut exec = LaunchesTwo::build(&gpu.ctx, &params(&y_by_2, &z_by_7))
        .unwrap()
        .instantiate()
        .unwrap();
    for _ in 0..3 {
        exec.launch(&gpu.stream).unwrap();
    }
    assert_eq!(read_back(&gpu.stream, &y), vec![6; 32]);
    assert_eq!(read_back(&gpu.stream, &z), vec![21; 32]);
    assert_eq!(read_back(&gpu.stream, &err), vec![0]);
}
