//! GPU witnesses for the rules on external semaphore nodes: the driver itself refusing, through
//! raw calls, what the typed API and `cuda_graph!` do not offer. Each prints the driver's answer.
//!
//! - T5: an update that changes how many semaphores a node has (`numExtSems`);
//! - T6: enabling or disabling a semaphore node;
//! - T9: a semaphore node in a graph instantiated for device launch;
//! - T10: a semaphore node in a conditional body.
//!
//! The semaphores are Vulkan timeline semaphores (CUDA cannot make one itself): these tests skip
//! without Vulkan, unless `CUDAGRAPH_REQUIRE_VULKAN=1`.

use std::ptr::null_mut;

use cudagraph_runtime::cudarc::driver::sys;
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{Error, ExternalSemaphore, SemaphoreKind};
use cudagraph_tests::{gpu, vulkan, Gpu};

/// Two timeline semaphores of a Vulkan device, imported: the frame loop's (which the tests read
/// back through Vulkan) and another.
fn semaphores(
    gpu: &Gpu,
    frames: &mut cudagraph_examples::vulkan::VulkanFrames,
) -> (ExternalSemaphore, ExternalSemaphore) {
    let timeline = |fd| ExternalSemaphore::from_fd(&gpu.ctx, fd, SemaphoreKind::Timeline).unwrap();
    let first = timeline(frames.export_timeline().unwrap());
    let second = timeline(frames.another_semaphore(true).unwrap());
    (first, second)
}

/// Raw signal parameters setting each of `sems` to `value`.
fn signal_params(
    sems: &mut [sys::CUexternalSemaphore],
    params: &mut Vec<sys::CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS>,
    value: u64,
) -> sys::CUDA_EXT_SEM_SIGNAL_NODE_PARAMS {
    params.clear();
    for _ in sems.iter() {
        // SAFETY: plain C structs; zeros are "no flags".
        let mut p: sys::CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS = unsafe { std::mem::zeroed() };
        p.params.fence.value = value;
        params.push(p);
    }
    sys::CUDA_EXT_SEM_SIGNAL_NODE_PARAMS {
        extSemArray: sems.as_mut_ptr(),
        paramsArray: params.as_ptr(),
        numExtSems: sems.len() as u32,
    }
}

#[test]
fn witness_t5_driver_refuses_to_change_how_many_semaphores_a_node_signals() {
    let test = "witness_t5_driver_refuses_to_change_how_many_semaphores_a_node_signals";
    let Some(gpu) = gpu(test) else { return };
    let Some(mut frames) = vulkan(test, &gpu, 16, 1) else {
        return;
    };
    {
        let (sem, other) = semaphores(&gpu, &mut frames);
        let mut g = Graph::new(&gpu.ctx).unwrap();
        let signal = g.add_semaphore_signal([(&sem, 1)], &[]).unwrap();
        let raw_node = g.raw_node(signal).unwrap();
        let mut exec = g.instantiate().unwrap();

        let mut params = Vec::new();
        // Two semaphores for a node of one: refused.
        let mut two = [sem.raw(), other.raw()];
        let p = signal_params(&mut two, &mut params, 7);
        // SAFETY: a live executable, a signal node of its graph, valid arrays of live semaphores.
        let refused = unsafe {
            sys::cuGraphExecExternalSemaphoresSignalNodeSetParams(exec.raw(), raw_node, &p)
        };
        println!("numExtSems 1 -> 2: {refused:?}");
        assert_ne!(
            refused,
            sys::CUresult::CUDA_SUCCESS,
            "the driver took another count"
        );
        // The same count is accepted (the driver's rule is about the count).
        let mut one = [other.raw()];
        let p = signal_params(&mut one, &mut params, 3);
        // SAFETY: as above.
        let accepted = unsafe {
            sys::cuGraphExecExternalSemaphoresSignalNodeSetParams(exec.raw(), raw_node, &p)
        };
        assert_eq!(accepted, sys::CUresult::CUDA_SUCCESS);
        // Back to the typed API (which keeps the semaphore), then the executable still signals
        // what it was set to.
        exec.set_semaphore_signal(signal, [(&sem, 4)]).unwrap();
        exec.launch(&gpu.stream).unwrap();
        gpu.stream.synchronize().unwrap();
        assert_eq!(frames.semaphore_value().unwrap(), 4);
    }
    cudagraph_runtime::wait_for_releases(std::time::Duration::from_secs(10));
}

#[test]
fn witness_t6_driver_refuses_to_disable_semaphore_nodes() {
    let test = "witness_t6_driver_refuses_to_disable_semaphore_nodes";
    let Some(gpu) = gpu(test) else { return };
    let Some(mut frames) = vulkan(test, &gpu, 16, 1) else {
        return;
    };
    {
        let (sem, _) = semaphores(&gpu, &mut frames);
        let mut g = Graph::new(&gpu.ctx).unwrap();
        let wait = g
            .name_next("ready")
            .add_semaphore_wait([(&sem, 0)], &[])
            .unwrap();
        let signal = g
            .name_next("done")
            .add_semaphore_signal([(&sem, 2)], &[wait.id()])
            .unwrap();
        let mut exec = g.instantiate().unwrap();
        for (id, name) in [(wait.id(), "ready"), (signal.id(), "done")] {
            // SAFETY: the unchecked escape forwards to `cuGraphNodeSetEnabled` on a node of this
            // executable; the driver is expected to refuse it.
            match unsafe { exec.set_enabled_unchecked(id, false) } {
                Err(Error::Node { call, node, source }) => {
                    println!("{call} on `{node}`: {source}");
                    assert_eq!(call, "cuGraphNodeSetEnabled");
                    assert_eq!(node, name);
                }
                other => panic!("disabling `{name}`: expected a driver error, got {other:?}"),
            }
        }
        // Both still run.
        exec.launch(&gpu.stream).unwrap();
        gpu.stream.synchronize().unwrap();
        assert_eq!(frames.semaphore_value().unwrap(), 2);
    }
    cudagraph_runtime::wait_for_releases(std::time::Duration::from_secs(10));
}

#[test]
fn witness_t9_driver_refuses_semaphore_nodes_in_a_device_launch_graph() {
    let test = "witness_t9_driver_refuses_semaphore_nodes_in_a_device_launch_graph";
    let Some(gpu) = gpu(test) else { return };
    let Some(mut frames) = vulkan(test, &gpu, 16, 1) else {
        return;
    };
    {
        let (sem, _) = semaphores(&gpu, &mut frames);
        for signal in [true, false] {
            let mut g = Graph::new(&gpu.ctx).unwrap();
            if signal {
                g.add_semaphore_signal([(&sem, 1)], &[]).unwrap();
            } else {
                g.add_semaphore_wait([(&sem, 0)], &[]).unwrap();
            }
            let refused = g.instantiate_with(InstantiateFlags::DEVICE_LAUNCH, None);
            println!(
                "device launch with a semaphore {} node: {:?}",
                if signal { "signal" } else { "wait" },
                refused.as_ref().err()
            );
            assert!(
                refused.is_err(),
                "the driver instantiated it for device launch"
            );
        }
    }
    cudagraph_runtime::wait_for_releases(std::time::Duration::from_secs(10));
}

#[test]
fn witness_t10_driver_refuses_semaphore_nodes_in_a_conditional_body() {
    let test = "witness_t10_driver_refuses_semaphore_nodes_in_a_conditional_body";
    let Some(gpu) = gpu(test) else { return };
    let Some(mut frames) = vulkan(test, &gpu, 16, 1) else {
        return;
    };
    {
        let (sem, _) = semaphores(&gpu, &mut frames);
        let mut params = Vec::new();
        let mut sems = [sem.raw()];
        let p = signal_params(&mut sems, &mut params, 1);
        let mut g = Graph::new(&gpu.ctx).unwrap();
        let handle = g.conditional_handle(Some(1)).unwrap();
        let mut added = sys::CUresult::CUDA_SUCCESS;
        g.add_conditional(handle, Condition::If, &[], |b| {
            let mut node = null_mut();
            // SAFETY: a live body graph; valid parameters of a live semaphore (the driver copies
            // them).
            added = unsafe {
                sys::cuGraphAddExternalSemaphoresSignalNode(
                    &mut node,
                    b[0].raw(),
                    std::ptr::null(),
                    0,
                    &p,
                )
            };
            Ok(())
        })
        .unwrap();
        let mut exec = null_mut();
        // SAFETY: a live graph; `exec` is a valid out-pointer.
        let instantiated = unsafe { sys::cuGraphInstantiateWithFlags(&mut exec, g.raw(), 0) };
        if !exec.is_null() {
            // SAFETY: ours, unused.
            unsafe { sys::cuGraphExecDestroy(exec) };
        }
        println!("semaphore signal node in a body: add {added:?}, instantiate {instantiated:?}");
        assert!(
            added != sys::CUresult::CUDA_SUCCESS || instantiated != sys::CUresult::CUDA_SUCCESS,
            "the driver accepted a semaphore node in a conditional body"
        );
        // Nothing was signalled.
        assert_eq!(frames.semaphore_value().unwrap(), 0);
    }
    cudagraph_runtime::wait_for_releases(std::time::Duration::from_secs(10));
}
