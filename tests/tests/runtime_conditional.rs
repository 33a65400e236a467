//! Conditional nodes on the GPU: a WHILE loop that a kernel of its body ends, IF/ELSE and SWITCH
//! bodies chosen by a value in device memory, and what a body or a handle may not be (CUDA's
//! rules for bodies; handles of another graph, or of another conditional node), each refused with
//! the graph left usable.

use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{Body, Condition, Error, NodeKind};
use cudagraph_tests::conditional::{kernels, one};
use cudagraph_tests::{gpu, read_back, zeros};

/// GPU witness of CUDA's rule that a conditional handle is associated with a single conditional
/// node ("Conditional Handles" in the CUDA programming guide), through raw driver calls: a WHILE
/// node on a handle made for its graph, then an IF node on the same handle in the WHILE's body
/// (what an unrolled loop, `WHILE h { body; IF h { body; ... } }`, would need): the driver
/// refuses the IF node (`CUDA_ERROR_INVALID_VALUE` seen on an H100, CUDA 13.0 driver). A second
/// node on the handle in the same graph is refused too, when added or when instantiated.
#[test]
fn witness_the_driver_ties_a_conditional_handle_to_one_node() {
    use cudagraph_runtime::cudarc::driver::sys;
    use std::ptr::{null, null_mut};
    let Some(gpu) = gpu("witness_the_driver_ties_a_conditional_handle_to_one_node") else {
        return;
    };
    gpu.ctx.bind_to_thread().unwrap();
    let ctx = gpu.ctx.cu_ctx();
    let ok = sys::CUresult::CUDA_SUCCESS;
    // A conditional node of `ty` on `handle` in `graph`, with one body: the driver's answer, the
    // node's body.
    let add = |graph: sys::CUgraph,
               handle: sys::CUgraphConditionalHandle,
               ty: sys::CUgraphConditionalNodeType| {
        // SAFETY: all-zero is the documented "nothing set" of this plain C struct; the
        // conditional member is filled in below.
        let mut p: sys::CUgraphNodeParams = unsafe { std::mem::zeroed() };
        p.type_ = sys::CUgraphNodeType::CU_GRAPH_NODE_TYPE_CONDITIONAL;
        p.__bindgen_anon_1.conditional = sys::CUDA_CONDITIONAL_NODE_PARAMS {
            handle,
            type_: ty,
            size: 1,
            phGraph_out: null_mut(),
            ctx,
        };
        let mut node = null_mut();
        // SAFETY: a live graph of `ctx`; no dependencies; `p` is valid for a conditional node.
        let added = unsafe { sys::cuGraphAddNode_v2(&mut node, graph, null(), null(), 0, &mut p) };
        // SAFETY: the member written above; on success the driver wrote the node's body array.
        let bodies = unsafe { p.__bindgen_anon_1.conditional.phGraph_out };
        let body = if added == ok && !bodies.is_null() {
            // SAFETY: a node with one body: the array holds one graph, owned by the node.
            unsafe { *bodies }
        } else {
            null_mut()
        };
        (added, body)
    };
    let new_graph = || {
        let mut graph = null_mut();
        // SAFETY: `graph` is a valid out-pointer.
        assert_eq!(unsafe { sys::cuGraphCreate(&mut graph, 0) }, ok);
        let mut handle = 0;
        // SAFETY: a live graph of `ctx`, current on this thread; a valid out-pointer.
        let made = unsafe {
            sys::cuGraphConditionalHandleCreate(
                &mut handle,
                graph,
                ctx,
                1,
                sys::CU_GRAPH_COND_ASSIGN_DEFAULT,
            )
        };
        assert_eq!(made, ok);
        (graph, handle)
    };
    let instantiate = |graph: sys::CUgraph| {
        let mut exec = null_mut();
        // SAFETY: a live graph; `exec` is a valid out-pointer.
        let instantiated = unsafe { sys::cuGraphInstantiateWithFlags(&mut exec, graph, 0) };
        if !exec.is_null() {
            // SAFETY: ours, never launched.
            unsafe { sys::cuGraphExecDestroy(exec) };
        }
        instantiated
    };
    let (while_, if_) = (
        sys::CUgraphConditionalNodeType::CU_GRAPH_COND_TYPE_WHILE,
        sys::CUgraphConditionalNodeType::CU_GRAPH_COND_TYPE_IF,
    );

    // The handle's WHILE node, then an IF node on it in the WHILE's body.
    let (graph, handle) = new_graph();
    let (added, body) = add(graph, handle, while_);
    assert_eq!(added, ok, "the WHILE node on its own handle");
    assert!(!body.is_null());
    let (nested, _) = add(body, handle, if_);
    println!("an IF node on the WHILE node's handle, in its body: {nested:?}");
    assert_ne!(
        nested, ok,
        "the driver accepted a second node on one handle"
    );
    // SAFETY: ours; it owns its nodes and their bodies.
    assert_eq!(unsafe { sys::cuGraphDestroy(graph) }, ok);

    // Two WHILE nodes on one handle in one graph.
    let (graph, handle) = new_graph();
    assert_eq!(add(graph, handle, while_).0, ok);
    let (sibling, _) = add(graph, handle, while_);
    let instantiated = if sibling == ok {
        instantiate(graph)
    } else {
        ok
    };
    println!("a second WHILE node on one handle: add {sibling:?}, instantiate {instantiated:?}");
    assert!(
        sibling != ok || instantiated != ok,
        "the driver accepted two nodes on one handle"
    );
    // SAFETY: ours; it owns its nodes and their bodies.
    assert_eq!(unsafe { sys::cuGraphDestroy(graph) }, ok);
}

/// A conditional handle drives one conditional node (CUDA's rule, witnessed above): a second
/// node on it is refused with `Error::Invalid` naming the node, before the driver is asked,
/// whether beside the first node, in its body, or in a capture; the graph stays usable.
#[test]
fn a_handle_that_drives_a_node_is_refused_for_another() {
    let Some(gpu) = gpu("a_handle_that_drives_a_node_is_refused_for_another") else {
        return;
    };
    let k = kernels(&gpu);
    let out = zeros::<u32>(&gpu, 1);
    let mut g = Graph::new(&gpu.ctx).unwrap();
    let handle = g.conditional_handle(Some(1)).unwrap();
    let first = g
        .add_conditional(handle, Condition::If, &[], |b| {
            b[0].add_kernel(&k.put, one(), (1u32, &out), &[]).map(drop)
        })
        .unwrap();
    g.name_next("again");
    let refused = g.add_conditional(handle, Condition::If, &[first.id()], |_| Ok(()));
    match &refused {
        Err(Error::Invalid { node, reason }) => {
            assert!(node.contains("again"), "{node}");
            assert!(reason.contains("already drives"), "{reason}");
        }
        other => panic!("{other:?}"),
    }
    // In the body of the handle's own node, as an unrolled loop (`WHILE h { IF h { .. } }`)
    // would have it: refused (the handle was made for the graph, not the body), and the node
    // with it.
    let second = g.conditional_handle(Some(1)).unwrap();
    let refused = g.add_conditional(second, Condition::While, &[first.id()], |b| {
        b[0].add_conditional(second, Condition::If, &[], |_| Ok(()))
            .map(drop)
    });
    assert!(matches!(refused, Err(Error::Invalid { .. })), "{refused:?}");
    assert_eq!(g.len(), 1, "the refused nodes are gone");
    // The graph is as it was, and the handle still free for one node.
    g.add_conditional(second, Condition::If, &[first.id()], |b| {
        b[0].add_kernel(&k.put, one(), (2u32, &out), &[]).map(drop)
    })
    .unwrap();
    assert_eq!(
        g.len(),
        2,
        "the graph's own nodes: the two conditional nodes"
    );
    g.instantiate().unwrap().launch(&gpu.stream).unwrap();
    assert_eq!(read_back(&gpu.stream, &out), vec![2]);

    // In a capture: the handle the capture made drives one node.
    let captured = Graph::capture(&gpu.stream, (), move |s, ()| {
        let h = s.conditional_handle(Some(1))?;
        s.add_conditional(h, Condition::If, |_| Ok(()))?;
        s.add_conditional(h, Condition::If, |_| Ok(()))
    });
    assert!(
        matches!(captured, Err(Error::Invalid { ref reason, .. }) if reason.contains("already drives")),
        "{captured:?}"
    );
}

/// A panic in the closure that builds a conditional node's bodies, caught by the caller, goes
/// as an error does: the node is removed with its bodies, whose nodes' records (and the memory
/// they hold) went with the panic, and the graph and its handle go on as they were. Left in the
/// graph, the node would run a body writing a buffer nothing holds. In a graph, and in a capture.
#[test]
fn a_panic_building_a_conditional_node_leaves_no_node_behind() {
    use std::panic::{catch_unwind, AssertUnwindSafe};
    let Some(gpu) = gpu("a_panic_building_a_conditional_node_leaves_no_node_behind") else {
        return;
    };
    let k = kernels(&gpu);
    let out = zeros::<u32>(&gpu, 1);
    let mut g = Graph::new(&gpu.ctx).unwrap();
    let handle = g.conditional_handle(Some(1)).unwrap();
    let elsewhere = zeros::<u32>(&gpu, 1);
    let panicked = catch_unwind(AssertUnwindSafe(|| {
        g.add_conditional(handle, Condition::If, &[], |b| {
            b[0].add_kernel(&k.put, one(), (7u32, &elsewhere), &[])?;
            panic!("the body gave up");
        })
    }));
    assert!(panicked.is_err());
    assert_eq!(g.len(), 0, "the node is gone with its panicked bodies");
    // The handle drives no node yet: it takes one now.
    g.add_conditional(handle, Condition::If, &[], |b| {
        b[0].add_kernel(&k.put, one(), (2u32, &out), &[]).map(drop)
    })
    .unwrap();
    g.instantiate().unwrap().launch(&gpu.stream).unwrap();
    assert_eq!(read_back(&gpu.stream, &out), vec![2]);
    assert_eq!(read_back(&gpu.stream, &elsewhere), vec![0]);

    // In a capture: the closure catches the panic and goes on. Should CUDA not remove a node
    // from a graph being captured, the capture fails instead (nothing runs the node then).
    let (put, out2, elsewhere2) = (k.put.clone(), out.clone(), elsewhere.clone());
    let captured = Graph::capture(&gpu.stream, (), move |s, ()| {
        let h = s.conditional_handle(Some(1))?;
        let panicked = catch_unwind(AssertUnwindSafe(|| {
            s.add_conditional(h, Condition::If, |b| {
                b[0].add_kernel(&put, one(), (7u32, &elsewhere2), &[])?;
                panic!("the body gave up");
            })
        }));
        assert!(panicked.is_err());
        s.add_conditional(h, Condition::If, |b| {
            b[0].add_kernel(&put, one(), (3u32, &out2), &[]).map(drop)
        })
    });
    match captured {
        Ok(captured) => {
            assert_eq!(captured.len(), 1, "one conditional node");
            captured.instantiate().unwrap().launch(&gpu.stream).unwrap();
            assert_eq!(read_back(&gpu.stream, &out), vec![3]);
        }
        Err(Error::Invalid { reason, .. }) if reason.contains("could not be removed") => {
            println!("the driver kept the node in the graph being captured: {reason}");
        }
        // The removed node stays among the capture's dependencies (CUDA 13.0 on an H100), so
        // the driver refuses the next node and the capture fails: nothing runs either way.
        Err(Error::Node {
            call: "cuGraphAddNode",
            node,
            source,
        }) => {
            println!(
                "the capture's next node `{node}` was refused, the capture failed: {source:?}"
            );
        }
        // Or the driver invalidated the capture at the removal (a fresh H200): the next
        // conditional node is refused as in a broken capture, and nothing runs either.
        Err(Error::CaptureBroken { call, code, .. }) => {
            println!("the capture was invalidated, `{call}` refused: {code:?}");
        }
        Err(e) => panic!("the capture: {e}"),
    }
    assert_eq!(read_back(&gpu.stream, &elsewhere), vec![0]);
}

/// A handle made for a body whose build then fails goes with the node, yet a copy of it may
/// leave the build (`ConditionalHandle` is `Copy`) and still passes for a handle of the graph,
/// which the graph's kernels may set. The driver keeps such a handle registered with the graph,
/// driving nothing, and refuses to instantiate it naming nothing (the raw path, below): the
/// graph is refused as an executable and as an update source, naming the cause, until it is
/// built anew.
#[test]
fn a_handle_made_for_a_failed_body_leaves_the_graph_refused_until_cleared() {
    let Some(gpu) = gpu("a_handle_made_for_a_failed_body_leaves_the_graph_refused_until_cleared")
    else {
        return;
    };
    let k = kernels(&gpu);
    let value = zeros::<u32>(&gpu, 1);
    let refused = |result: Result<(), Error>| match result {
        Err(Error::Invalid { node, reason }) => {
            assert_eq!(node, "conditional handle");
            assert!(reason.contains("whose build failed"), "{reason}");
        }
        other => panic!("expected the dead handle's refusal, got {other:?}"),
    };
    // A graph whose conditional node's body made a handle and then failed, a copy of that
    // handle kept, and a kernel given the copy; then a conditional node on its own handle.
    let poisoned = || {
        let mut g = Graph::new(&gpu.ctx).unwrap();
        let handle = g.conditional_handle(Some(0)).unwrap();
        let mut kept = None;
        let failed = g.add_conditional(handle, Condition::If, &[], |b| {
            kept = Some(b[0].conditional_handle(Some(0))?);
            Err(Error::Invalid {
                node: "body".into(),
                reason: "gives up".into(),
            })
        });
        assert!(failed.is_err(), "{failed:?}");
        assert_eq!(g.len(), 0, "the node went with its failed body");
        // The copy passes for a handle of this graph: a kernel of it takes the copy.
        let kept = kept.expect("the body made a handle");
        g.add_kernel(&k.set_from, one(), (kept, &value), &[])
            .unwrap();
        // The graph's own handle drives a node now: only the dead handle stands in the way.
        g.add_conditional(handle, Condition::If, &[], |b| {
            b[0].add_empty(&[]).map(drop)
        })
        .unwrap();
        g
    };
    let mut other = Graph::new(&gpu.ctx).unwrap();
    other.add_empty(&[]).unwrap();
    let mut exec = other.instantiate().unwrap();
    refused(exec.update(&poisoned()));
    refused(poisoned().instantiate().map(drop));
    exec.launch(&gpu.stream).unwrap();
    gpu.stream.synchronize().unwrap();

    // The driver's own answer, on the raw path: a conditional node on its graph's handle, a
    // handle made for its body, the node destroyed and another added on the same handle; the
    // body's handle stays registered with the graph, driving nothing, and instantiation fails.
    use cudagraph_runtime::cudarc::driver::sys;
    use std::ptr::{null, null_mut};
    let ok = sys::CUresult::CUDA_SUCCESS;
    let ctx = gpu.ctx.cu_ctx();
    gpu.ctx.bind_to_thread().unwrap();
    let add_if = |graph: sys::CUgraph, handle: sys::CUgraphConditionalHandle| {
        // SAFETY: all-zero is the documented "nothing set" of this plain C struct; the
        // conditional member is filled in below.
        let mut p: sys::CUgraphNodeParams = unsafe { std::mem::zeroed() };
        p.type_ = sys::CUgraphNodeType::CU_GRAPH_NODE_TYPE_CONDITIONAL;
        p.__bindgen_anon_1.conditional = sys::CUDA_CONDITIONAL_NODE_PARAMS {
            handle,
            type_: sys::CUgraphConditionalNodeType::CU_GRAPH_COND_TYPE_IF,
            size: 1,
            phGraph_out: null_mut(),
            ctx,
        };
        let mut node = null_mut();
        // SAFETY: a live graph of `ctx`; no dependencies; `p` is valid for a conditional node.
        let added = unsafe { sys::cuGraphAddNode_v2(&mut node, graph, null(), null(), 0, &mut p) };
        assert_eq!(added, ok, "a conditional node on the graph's handle");
        // SAFETY: the member written above; the driver wrote the node's body array (one graph).
        (node, unsafe { *p.__bindgen_anon_1.conditional.phGraph_out })
    };
    let handle_for = |graph: sys::CUgraph| {
        let mut handle = 0;
        // SAFETY: a live graph of `ctx`, current on this thread; a valid out-pointer.
        let made = unsafe { sys::cuGraphConditionalHandleCreate(&mut handle, graph, ctx, 0, 0) };
        assert_eq!(made, ok);
        handle
    };
    let mut graph = null_mut();
    // SAFETY: a valid out-pointer.
    assert_eq!(unsafe { sys::cuGraphCreate(&mut graph, 0) }, ok);
    let own = handle_for(graph);
    let (node, body) = add_if(graph, own);
    let _made_for_the_body = handle_for(body);
    // SAFETY: a node of `graph`, nothing refers to it; its body goes with it.
    assert_eq!(unsafe { sys::cuGraphDestroyNode(node) }, ok);
    add_if(graph, own);
    let mut raw_exec = null_mut();
    // SAFETY: a live graph; a valid out-pointer.
    let instantiated = unsafe { sys::cuGraphInstantiateWithFlags(&mut raw_exec, graph, 0) };
    if !raw_exec.is_null() {
        // SAFETY: ours, never launched.
        unsafe { sys::cuGraphExecDestroy(raw_exec) };
    }
    assert_ne!(
        instantiated, ok,
        "the driver instantiated a graph keeping a handle of a removed body"
    );
    // SAFETY: ours; it owns its nodes and their bodies.
    assert_eq!(unsafe { sys::cuGraphDestroy(graph) }, ok);

    // Built anew, the graph instantiates.
    let mut g = poisoned();
    g.clear().unwrap();
    let handle = g.conditional_handle(Some(0)).unwrap();
    g.add_kernel(&k.set_from, one(), (handle, &value), &[])
        .unwrap();
    g.add_conditional(handle, Condition::If, &[], |b| {
        b[0].add_empty(&[]).map(drop)
    })
    .unwrap();
    g.instantiate().unwrap().launch(&gpu.stream).unwrap();
    gpu.stream.synchronize().unwrap();
}

#[test]
fn a_while_loop_runs_on_the_gpu_until_its_body_ends_it() {
    let Some(gpu) = gpu("a_while_loop_runs_on_the_gpu_until_its_body_ends_it") else {
        return;
    };
    let k = kernels(&gpu);
    let counter = zeros::<u32>(&gpu, 1);
    let mut g = Graph::new(&gpu.ctx).unwrap();
    let reset = g.add_memset(Memset::new(&counter, 0u32), &[]).unwrap();
    // Reset to 1 at each launch: the body runs at least once.
    let handle = g.conditional_handle(Some(1)).unwrap();
    let looped = g
        .add_conditional(handle, Condition::While, &[reset.id()], |bodies| {
            bodies[0].add_kernel(&k.step, one(), (handle, &counter, 1000u32), &[])?;
            Ok(())
        })
        .unwrap();
    assert_eq!(
        g.nodes().nth(looped.id().index()).unwrap().kind,
        NodeKind::Conditional
    );
    let mut exec = g.instantiate().unwrap();
    for launch in 0..3 {
        exec.launch(&gpu.stream).unwrap();
        assert_eq!(
            read_back(&gpu.stream, &counter),
            vec![1000],
            "launch {launch}"
        );
    }
}

#[test]
fn if_else_and_switch_bodies_follow_a_value_in_device_memory() {
    let Some(gpu) = gpu("if_else_and_switch_bodies_follow_a_value_in_device_memory") else {
        return;
    };
    let k = kernels(&gpu);
    let (value, out) = (zeros::<u32>(&gpu, 1), zeros::<u32>(&gpu, 1));

    let mut g = Graph::new(&gpu.ctx).unwrap();
    let handle = g.conditional_handle(None).unwrap();
    let set = g
        .add_kernel(&k.set_from, one(), (handle, &value), &[])
        .unwrap();
    g.add_conditional(handle, Condition::IfElse, &[set.id()], |b| {
        b[0].add_kernel(&k.put, one(), (1u32, &out), &[])?;
        b[1].add_kernel(&k.put, one(), (2u32, &out), &[])?;
        Ok(())
    })
    .unwrap();
    let mut if_else = g.instantiate().unwrap();
    for (v, want) in [(0, 2), (7, 1), (0, 2)] {
        value.copy_from(&[v]).unwrap();
        if_else.launch(&gpu.stream).unwrap();
        assert_eq!(read_back(&gpu.stream, &out), vec![want], "value {v}");
    }

    let mut g = Graph::new(&gpu.ctx).unwrap();
    let handle = g.conditional_handle(None).unwrap();
    let set = g
        .add_kernel(&k.set_from, one(), (handle, &value), &[])
        .unwrap();
    g.add_conditional(handle, Condition::Switch(3), &[set.id()], |b| {
        for (i, body) in b.iter_mut().enumerate() {
            body.add_kernel(&k.put, one(), (10 + i as u32, &out), &[])?;
        }
        Ok(())
    })
    .unwrap();
    let mut switch = g.instantiate().unwrap();
    out.copy_from(&[99]).unwrap();
    for (v, want) in [(0, 10), (2, 12), (1, 11), (5, 11)] {
        value.copy_from(&[v]).unwrap();
        switch.launch(&gpu.stream).unwrap();
        assert_eq!(
            read_back(&gpu.stream, &out),
            vec![want],
            "value {v} (5: no body runs)"
        );
    }
}

#[test]
fn bodies_and_handles_are_checked_and_a_refusal_leaves_the_graph_usable() {
    let Some(gpu) = gpu("bodies_and_handles_are_checked_and_a_refusal_leaves_the_graph_usable")
    else {
        return;
    };
    let k = kernels(&gpu);
    let (value, out) = (zeros::<u32>(&gpu, 1), zeros::<u32>(&gpu, 1));
    let mut g = Graph::new(&gpu.ctx).unwrap();
    let mut other = Graph::new(&gpu.ctx).unwrap();
    let handle = g.conditional_handle(None).unwrap();
    let foreign = other.conditional_handle(None).unwrap();

    // A handle of another graph: as a kernel argument, and for a conditional node.
    let refused = g.add_kernel(&k.set_from, one(), (foreign, &value), &[]);
    assert!(matches!(refused, Err(Error::Invalid { .. })), "{refused:?}");
    let refused = g.add_conditional(foreign, Condition::If, &[], |_| Ok(()));
    assert!(matches!(refused, Err(Error::Invalid { .. })), "{refused:?}");

    // Kinds CUDA forbids in a body: host, event, memory nodes. A `Body` has no adder for them;
    // the graph under it (reached as `cuda_graph!`'s generated code reaches it) refuses them
    // too, and each refusal removes the conditional node.
    let event = Event::new(&gpu.ctx).unwrap();
    let set = g
        .add_kernel(&k.set_from, one(), (handle, &value), &[])
        .unwrap();
    for what in ["host", "event record", "event wait", "alloc"] {
        let refused = g.add_conditional(handle, Condition::If, &[set.id()], |b| {
            // SAFETY: the body's graph is used in place, here only.
            let body = unsafe { b[0].as_graph_mut() };
            match what {
                "host" => body.add_host(|| {}, &[]).map(drop),
                "event record" => body.add_event_record(&event, &[]).map(drop),
                "event wait" => body.add_event_wait(&event, &[]).map(drop),
                _ => body.add_mem_alloc::<u32>(4, &[]).map(drop),
            }
        });
        assert!(
            matches!(refused, Err(Error::Invalid { .. })),
            "{what}: {refused:?}"
        );
    }
    assert_eq!(g.len(), 1, "only the kernel is left");

    // The graph is still usable: an IF on the value.
    g.add_conditional(handle, Condition::If, &[set.id()], |b| {
        b[0].add_kernel(&k.put, one(), (5u32, &out), &[]).map(drop)
    })
    .unwrap();
    let mut exec = g.instantiate().unwrap();
    value.copy_from(&[1]).unwrap();
    exec.launch(&gpu.stream).unwrap();
    assert_eq!(read_back(&gpu.stream, &out), vec![5]);
}

/// GPU witness of CUDA's body rule: the raw driver calls for a host node and an event record node
/// in a conditional body, and what the driver answers (here or when instantiating).
#[test]
fn the_driver_refuses_host_and_event_nodes_in_a_conditional_body() {
    use cudagraph_runtime::cudarc::driver::sys;
    let Some(gpu) = gpu("the_driver_refuses_host_and_event_nodes_in_a_conditional_body") else {
        return;
    };
    unsafe extern "C" fn nothing(_: *mut std::ffi::c_void) {}
    let event = Event::new(&gpu.ctx).unwrap();
    for what in ["host", "event record"] {
        let mut g = Graph::new(&gpu.ctx).unwrap();
        let handle = g.conditional_handle(Some(1)).unwrap();
        let mut added = sys::CUresult::CUDA_SUCCESS;
        g.add_conditional(handle, Condition::If, &[], |b| {
            let mut node = std::ptr::null_mut();
            // SAFETY: a live body graph; valid parameters for the call.
            added = unsafe {
                match what {
                    "host" => {
                        let p = sys::CUDA_HOST_NODE_PARAMS {
                            fn_: Some(nothing),
                            userData: std::ptr::null_mut(),
                        };
                        sys::cuGraphAddHostNode(&mut node, b[0].raw(), std::ptr::null(), 0, &p)
                    }
                    _ => sys::cuGraphAddEventRecordNode(
                        &mut node,
                        b[0].raw(),
                        std::ptr::null(),
                        0,
                        event.cuda().cu_event(),
                    ),
                }
            };
            Ok(())
        })
        .unwrap();
        let mut exec = std::ptr::null_mut();
        // SAFETY: a live graph; `exec` is a valid out-pointer.
        let instantiated = unsafe { sys::cuGraphInstantiateWithFlags(&mut exec, g.raw(), 0) };
        if !exec.is_null() {
            // SAFETY: ours, unused.
            unsafe { sys::cuGraphExecDestroy(exec) };
        }
        println!("{what} node in a body: add {added:?}, instantiate {instantiated:?}");
        assert!(
            added != sys::CUresult::CUDA_SUCCESS || instantiated != sys::CUresult::CUDA_SUCCESS,
            "{what}: the driver accepted it"
        );
    }
}

/// What the driver allows for nodes inside a conditional body once the graph is instantiated:
/// a single-node update of a body's kernel node (`cuGraphExecKernelNodeSetParams`), and a
/// whole-graph update from another graph of the same shape with its own conditional handle.
#[test]
fn the_driver_updates_a_kernel_node_inside_a_conditional_body() {
    use cudagraph_runtime::cudarc::driver::sys;
    let Some(gpu) = gpu("the_driver_updates_a_kernel_node_inside_a_conditional_body") else {
        return;
    };
    let k = kernels(&gpu);
    let out = zeros::<u32>(&gpu, 1);
    let build = |v: u32| {
        let mut g = Graph::new(&gpu.ctx).unwrap();
        let handle = g.conditional_handle(Some(1)).unwrap();
        let mut body_node = std::ptr::null_mut();
        g.add_conditional(handle, Condition::If, &[], |b| {
            b[0].add_kernel(&k.put, one(), (v, &out), &[])?;
            let mut count = 1usize;
            // SAFETY: a live body graph with one node; room for one handle.
            let r = unsafe { sys::cuGraphGetNodes(b[0].raw(), &mut body_node, &mut count) };
            assert_eq!(r, sys::CUresult::CUDA_SUCCESS);
            Ok(())
        })
        .unwrap();
        (g, body_node)
    };
    let (g, body_node) = build(5);
    let mut exec = g.instantiate().unwrap();
    exec.launch(&gpu.stream).unwrap();
    assert_eq!(read_back(&gpu.stream, &out), vec![5]);

    // SAFETY: all-zero is a valid value of this plain C struct, which the driver fills below.
    let mut p: sys::CUDA_KERNEL_NODE_PARAMS = unsafe { std::mem::zeroed() };
    // SAFETY: `body_node` is a kernel node of the body; `p` is a valid out-pointer.
    let r = unsafe { sys::cuGraphKernelNodeGetParams_v2(body_node, &mut p) };
    assert_eq!(r, sys::CUresult::CUDA_SUCCESS);
    let mut v = 7u32;
    // SAFETY: the driver's copy of the node's second argument, a device pointer.
    let mut ptr: u64 = unsafe { *(*p.kernelParams.add(1) as *const u64) };
    let mut args = [
        &mut v as *mut u32 as *mut std::ffi::c_void,
        &mut ptr as *mut u64 as *mut std::ffi::c_void,
    ];
    p.kernelParams = args.as_mut_ptr();
    p.extra = std::ptr::null_mut();
    // SAFETY: live executable, a node of the body of its graph, a full parameter list.
    let updated = unsafe { sys::cuGraphExecKernelNodeSetParams_v2(exec.raw(), body_node, &p) };
    println!("single-node update of a body node: {updated:?}");
    exec.launch(&gpu.stream).unwrap();
    let after_single = read_back(&gpu.stream, &out);
    println!("after it, the body wrote {after_single:?}");

    let (other, _) = build(9);
    // SAFETY: all-zero is a valid value of this plain C struct (null nodes).
    let mut info: sys::CUgraphExecUpdateResultInfo = unsafe { std::mem::zeroed() };
    // SAFETY: live executable and graph; `info` is a valid out-pointer.
    let whole = unsafe { sys::cuGraphExecUpdate_v2(exec.raw(), other.raw(), &mut info) };
    println!(
        "whole-graph update with another handle: {whole:?} ({:?})",
        info.result
    );
    exec.launch(&gpu.stream).unwrap();
    let after_whole = read_back(&gpu.stream, &out);
    println!("after it, the body wrote {after_whole:?}");
    assert_eq!(updated, sys::CUresult::CUDA_SUCCESS);
    assert_eq!(after_single, vec![7]);
    assert_eq!(whole, sys::CUresult::CUDA_SUCCESS);
    assert_eq!(after_whole, vec![9]);
}

/// Whether a whole-graph update from a graph with its own conditional handle keeps the
/// executable's conditional node and the kernels that set the handle consistent.
#[test]
fn a_whole_graph_update_follows_the_new_graphs_conditional_handle() {
    use cudagraph_runtime::cudarc::driver::sys;
    let Some(gpu) = gpu("a_whole_graph_update_follows_the_new_graphs_conditional_handle") else {
        return;
    };
    let k = kernels(&gpu);
    let (value, out) = (zeros::<u32>(&gpu, 1), zeros::<u32>(&gpu, 1));
    let build = |v: u32| {
        let mut g = Graph::new(&gpu.ctx).unwrap();
        let handle = g.conditional_handle(None).unwrap();
        let set = g
            .add_kernel(&k.set_from, one(), (handle, &value), &[])
            .unwrap();
        g.add_conditional(handle, Condition::If, &[set.id()], |b| {
            b[0].add_kernel(&k.put, one(), (v, &out), &[]).map(drop)
        })
        .unwrap();
        g
    };
    let mut exec = build(1).instantiate().unwrap();
    value.copy_from(&[1]).unwrap();
    exec.launch(&gpu.stream).unwrap();
    assert_eq!(read_back(&gpu.stream, &out), vec![1]);
    let other = build(2);
    // SAFETY: all-zero is a valid value of this plain C struct (null nodes).
    let mut info: sys::CUgraphExecUpdateResultInfo = unsafe { std::mem::zeroed() };
    // SAFETY: live executable and graph; `info` is a valid out-pointer.
    let whole = unsafe { sys::cuGraphExecUpdate_v2(exec.raw(), other.raw(), &mut info) };
    println!("whole-graph update: {whole:?} ({:?})", info.result);
    let mut seen = Vec::new();
    for v in [0u32, 1, 0, 1] {
        out.copy_from(&[99]).unwrap();
        value.copy_from(&[v]).unwrap();
        exec.launch(&gpu.stream).unwrap();
        seen.push((v, read_back(&gpu.stream, &out)[0]));
    }
    println!("(value, body output) after the update: {seen:?} (99: the body did not run)");
    assert_eq!(whole, sys::CUresult::CUDA_SUCCESS);
    assert_eq!(seen, vec![(0, 99), (1, 2), (0, 99), (1, 2)]);
    drop(other);
    value.copy_from(&[0]).unwrap();
    out.copy_from(&[99]).unwrap();
    exec.launch(&gpu.stream).unwrap();
    assert_eq!(
        read_back(&gpu.stream, &out),
        vec![99],
        "value 0, source graph dropped"
    );
    value.copy_from(&[1]).unwrap();
    exec.launch(&gpu.stream).unwrap();
    assert_eq!(
        read_back(&gpu.stream, &out),
        vec![2],
        "value 1, source graph dropped"
    );
}

/// Nodes of conditional bodies, nested ones too, are updated one by one through their own
/// handles on the executable, and by a whole-graph update (buffers swapped included). CUDA
/// cannot clone such a graph (the driver's answer is shown), so cloning and embedding it are
/// refused.
#[test]
fn body_nodes_are_updated_through_their_handles_and_by_whole_graph_updates() {
    let Some(gpu) = gpu("body_nodes_are_updated_through_their_handles_and_by_whole_graph_updates")
    else {
        return;
    };
    let k = kernels(&gpu);
    let counter = zeros::<u32>(&gpu, 1);
    let build = |v: u32, out: &DeviceBuffer<u32>| {
        let mut g = Graph::new(&gpu.ctx).unwrap();
        let reset = g.add_memset(Memset::new(&counter, 0u32), &[]).unwrap();
        let looping = g.conditional_handle(Some(1)).unwrap();
        let mut nodes = None;
        g.add_conditional(looping, Condition::While, &[reset.id()], |body| {
            let b = &mut body[0];
            let step = b.add_kernel(&k.step, one(), (looping, &counter, 3u32), &[])?;
            // Inside the loop, an IF that always runs (default 1): a nested body.
            let always = b.conditional_handle(Some(1))?;
            let mut inner = None;
            b.add_conditional(always, Condition::If, &[step.id()], |inner_body| {
                inner = Some(inner_body[0].add_kernel(&k.put, one(), (v, out), &[])?);
                Ok(())
            })?;
            nodes = Some((step, inner.unwrap()));
            Ok(())
        })
        .unwrap();
        let (step, put) = nodes.unwrap();
        (g, step, put, looping)
    };
    let out = zeros::<u32>(&gpu, 1);
    let (g, step, put, looping) = build(5, &out);
    assert_eq!(g.len(), 2, "the graph's own nodes: memset and the loop");
    let refused = g.try_clone();
    assert!(matches!(refused, Err(Error::Invalid { .. })), "{refused:?}");
    let refused = Graph::new(&gpu.ctx).unwrap().add_child_graph(&g, &[]);
    assert!(matches!(refused, Err(Error::Invalid { .. })), "{refused:?}");
    let mut raw_clone = std::ptr::null_mut();
    // SAFETY: a live graph; `raw_clone` is a valid out-pointer.
    let cloned =
        unsafe { cudagraph_runtime::cudarc::driver::sys::cuGraphClone(&mut raw_clone, g.raw()) };
    println!("cuGraphClone of a graph with conditional nodes: {cloned:?}");
    assert_ne!(
        cloned,
        cudagraph_runtime::cudarc::driver::sys::CUresult::CUDA_SUCCESS
    );
    let mut exec = g.instantiate().unwrap();
    exec.launch(&gpu.stream).unwrap();
    assert_eq!(read_back(&gpu.stream, &out), vec![5]);
    assert_eq!(read_back(&gpu.stream, &counter), vec![3]);

    // One by one: the nested body's kernel, then the loop body's kernel (limit 3 -> 7).
    exec.set_kernel_params(put, one(), (8u32, &out)).unwrap();
    exec.set_kernel_params(step, one(), (looping, &counter, 7u32))
        .unwrap();
    exec.launch(&gpu.stream).unwrap();
    assert_eq!(read_back(&gpu.stream, &out), vec![8]);
    assert_eq!(read_back(&gpu.stream, &counter), vec![7]);

    // A new buffer through a body node's handle: the old one is released after the launches.
    let other_out = zeros::<u32>(&gpu, 1);
    exec.set_kernel_params(put, one(), (9u32, &other_out))
        .unwrap();
    exec.launch(&gpu.stream).unwrap();
    assert_eq!(read_back(&gpu.stream, &other_out), vec![9]);
    assert_eq!(read_back(&gpu.stream, &out), vec![8], "no longer written");

    // A whole-graph update from another build: its body writes 11 into `out`.
    let (g2, ..) = build(11, &out);
    exec.update(&g2).unwrap();
    exec.launch(&gpu.stream).unwrap();
    assert_eq!(read_back(&gpu.stream, &out), vec![11]);

    // A graph with other bodies is refused before the driver is asked.
    let mut g3 = Graph::new(&gpu.ctx).unwrap();
    g3.add_memset(Memset::new(&counter, 0u32), &[]).unwrap();
    let h = g3.conditional_handle(Some(0)).unwrap();
    g3.add_conditional(h, Condition::While, &[], |_| Ok(()))
        .unwrap();
    let refused = exec.update(&g3);
    assert!(
        matches!(refused, Err(Error::UpdateRejected { .. })),
        "{refused:?}"
    );
    exec.launch(&gpu.stream).unwrap();
    assert_eq!(
        read_back(&gpu.stream, &out),
        vec![11],
        "unchanged by the refusal"
    );
}

/// What CUDA allows for copies in a body: page-locked host memory (the only host memory this
/// crate's safe copies take) works, in both directions; a raw memcpy node from pageable memory
/// (a `Vec`), which the types cannot express, is refused by the driver (here, or when the graph
/// is instantiated): the GPU witness of T10's memory rule.
#[test]
fn a_body_copies_page_locked_memory_and_the_driver_refuses_pageable_memory() {
    use cudagraph_runtime::cudarc::driver::sys;
    let Some(gpu) = gpu("a_body_copies_page_locked_memory_and_the_driver_refuses_pageable_memory")
    else {
        return;
    };
    let host_in = HostBuffer::from_slice(&gpu.ctx, &[41u32, 42, 43]).unwrap();
    let host_out = HostBuffer::<u32>::zeroed(&gpu.ctx, 3).unwrap();
    let device = zeros::<u32>(&gpu, 3);
    let mut g = Graph::new(&gpu.ctx).unwrap();
    let handle = g.conditional_handle(Some(1)).unwrap();
    g.add_conditional(handle, Condition::If, &[], |b| {
        let up = b[0].add_memcpy(Memcpy::htod(&host_in, &device), &[])?;
        b[0].add_memcpy(Memcpy::dtoh(&device, &host_out), &[up.id()])?;
        Ok(())
    })
    .unwrap();
    let mut exec = g.instantiate().unwrap();
    exec.launch(&gpu.stream).unwrap();
    assert_eq!(host_out.to_vec().unwrap(), vec![41, 42, 43]);

    // The raw path: a memcpy node from a pageable `Vec` into device memory, in a body.
    // Pageable: ordinary (not page-locked) memory on the heap.
    let pageable = Box::new([7u32; 3]);
    let mut g = Graph::new(&gpu.ctx).unwrap();
    let handle = g.conditional_handle(Some(1)).unwrap();
    let mut added = sys::CUresult::CUDA_SUCCESS;
    g.add_conditional(handle, Condition::If, &[], |b| {
        let copy = sys::CUDA_MEMCPY3D {
            srcXInBytes: 0,
            srcY: 0,
            srcZ: 0,
            srcLOD: 0,
            srcMemoryType: sys::CUmemorytype::CU_MEMORYTYPE_HOST,
            srcHost: pageable.as_ptr().cast(),
            srcDevice: 0,
            srcArray: std::ptr::null_mut(),
            reserved0: std::ptr::null_mut(),
            srcPitch: 12,
            srcHeight: 1,
            dstXInBytes: 0,
            dstY: 0,
            dstZ: 0,
            dstLOD: 0,
            dstMemoryType: sys::CUmemorytype::CU_MEMORYTYPE_DEVICE,
            dstHost: std::ptr::null_mut(),
            dstDevice: device.addr(),
            dstArray: std::ptr::null_mut(),
            reserved1: std::ptr::null_mut(),
            dstPitch: 12,
            dstHeight: 1,
            WidthInBytes: 12,
            Height: 1,
            Depth: 1,
        };
        let mut node = std::ptr::null_mut();
        // SAFETY: a live body graph; `copy` describes 12 bytes of live memory on both sides.
        added = unsafe {
            sys::cuGraphAddMemcpyNode(
                &mut node,
                b[0].raw(),
                std::ptr::null(),
                0,
                &copy,
                gpu.ctx.cu_ctx(),
            )
        };
        Ok(())
    })
    .unwrap();
    let mut raw_exec = std::ptr::null_mut();
    // SAFETY: a live graph; `raw_exec` is a valid out-pointer.
    let instantiated = unsafe { sys::cuGraphInstantiateWithFlags(&mut raw_exec, g.raw(), 0) };
    if !raw_exec.is_null() {
        // SAFETY: ours, never launched.
        unsafe { sys::cuGraphExecDestroy(raw_exec) };
    }
    println!("pageable memcpy in a body: add {added:?}, instantiate {instantiated:?}");
    assert!(
        added != sys::CUresult::CUDA_SUCCESS || instantiated != sys::CUresult::CUDA_SUCCESS,
        "the driver accepted a pageable copy in a body"
    );
}

/// A conditional handle that drives no conditional node: the driver refuses to instantiate the
/// graph (the GPU witness), so `instantiate` refuses it first, saying so; a handle goes to a
/// node of the graph it was made for.
#[test]
fn a_handle_without_its_conditional_node_is_refused_at_instantiation() {
    use cudagraph_runtime::cudarc::driver::sys;
    let Some(gpu) = gpu("a_handle_without_its_conditional_node_is_refused_at_instantiation") else {
        return;
    };
    let k = kernels(&gpu);
    let out = zeros::<u32>(&gpu, 1);
    let mut g = Graph::new(&gpu.ctx).unwrap();
    g.add_kernel(&k.put, one(), (3u32, &out), &[]).unwrap();
    let _idle = g.conditional_handle(Some(1)).unwrap();
    let mut raw_exec = std::ptr::null_mut();
    // SAFETY: a live graph; `raw_exec` is a valid out-pointer.
    let raw = unsafe { sys::cuGraphInstantiateWithFlags(&mut raw_exec, g.raw(), 0) };
    if !raw_exec.is_null() {
        // SAFETY: ours, never launched.
        unsafe { sys::cuGraphExecDestroy(raw_exec) };
    }
    println!("instantiating a graph with a handle and no conditional node: {raw:?}");
    assert_ne!(raw, sys::CUresult::CUDA_SUCCESS);
    let refused = g.instantiate();
    assert!(matches!(refused, Err(Error::Invalid { .. })), "{refused:?}");

    // A handle of the graph for a node in a body, and the reverse, are refused too.
    let mut g = Graph::new(&gpu.ctx).unwrap();
    let outer = g.conditional_handle(Some(1)).unwrap();
    let refused = g.add_conditional(outer, Condition::If, &[], |b| {
        b[0].add_conditional(outer, Condition::If, &[], |_| Ok(()))
            .map(drop)
    });
    assert!(matches!(refused, Err(Error::Invalid { .. })), "{refused:?}");
    g.add_conditional(outer, Condition::If, &[], |b| {
        let inner = b[0].conditional_handle(None)?;
        b[0].add_kernel(&k.put, one(), (4u32, &out), &[])?;
        b[0].add_conditional(inner, Condition::If, &[], |_| Ok(()))
            .map(drop)
    })
    .unwrap();
    g.instantiate().unwrap().launch(&gpu.stream).unwrap();
    assert_eq!(read_back(&gpu.stream, &out), vec![4]);
}

/// A WHILE node that may run beside another conditional node (NVIDIA's driver fails such
/// launches at random: see the program `witness_concurrent_loops`) is refused at instantiation,
/// naming both nodes: here an IF holding a WHILE beside an IF, and the same pair inside a body.
/// Ordered by an edge, the same graphs run.
#[test]
fn a_while_loop_beside_another_conditional_node_is_refused_unless_ordered() {
    let Some(gpu) = gpu("a_while_loop_beside_another_conditional_node_is_refused_unless_ordered")
    else {
        return;
    };
    let k = kernels(&gpu);
    let (counter, value, out) = (
        zeros::<u32>(&gpu, 1),
        zeros::<u32>(&gpu, 1),
        zeros::<u32>(&gpu, 1),
    );
    value.copy_from(&[1]).unwrap();
    // In `b` (a graph or a body): `outer: if { while { step } }` and, after it when `ordered`,
    // `set -> other: if { put 9 }`.
    let pair = |b: &mut Body<'static>, ordered: bool| -> cudagraph_runtime::Result<()> {
        let always = b.conditional_handle(Some(1))?;
        b.name_next("outer");
        let outer = b.add_conditional(always, Condition::If, &[], |body| {
            let looping = body[0].conditional_handle(Some(1))?;
            body[0]
                .add_conditional(looping, Condition::While, &[], |w| {
                    w[0].add_kernel(&k.step, one(), (looping, &counter, 3u32), &[])
                        .map(drop)
                })
                .map(drop)
        })?;
        let h = b.conditional_handle(None)?;
        let after: &[NodeId] = if ordered { &[outer.id()] } else { &[] };
        let set = b.add_kernel(&k.set_from, one(), (h, &value), after)?;
        b.name_next("other");
        b.add_conditional(h, Condition::If, &[set.id()], |body| {
            body[0]
                .add_kernel(&k.put, one(), (9u32, &out), &[])
                .map(drop)
        })?;
        Ok(())
    };
    let refused = |g: Graph<'static>| match g.instantiate() {
        Err(Error::Invalid { node, reason }) => {
            assert_eq!(node, "other", "{reason}");
            assert!(
                reason.contains("`outer`") && reason.contains("WHILE"),
                "{reason}"
            );
        }
        other => panic!("not refused: {other:?}"),
    };
    // In the graph itself.
    let mut g = Graph::new(&gpu.ctx).unwrap();
    pair(g.as_body(), false).unwrap();
    refused(g);
    // Inside the body of an IF that always runs.
    let nested = |ordered: bool| {
        let mut g = Graph::new(&gpu.ctx).unwrap();
        let always = g.conditional_handle(Some(1)).unwrap();
        g.add_conditional(always, Condition::If, &[], |body| pair(body[0], ordered))
            .unwrap();
        g
    };
    refused(nested(false));
    for ordered in [
        {
            let mut g = Graph::new(&gpu.ctx).unwrap();
            pair(g.as_body(), true).unwrap();
            g
        },
        nested(true),
    ] {
        counter.copy_from(&[0]).unwrap();
        out.copy_from(&[0]).unwrap();
        let mut exec = ordered.instantiate().unwrap();
        exec.launch(&gpu.stream).unwrap();
        assert_eq!(read_back(&gpu.stream, &counter), vec![3]);
        assert_eq!(read_back(&gpu.stream, &out), vec![9]);
    }
}

/// A whole-graph update takes the source graph's kernel arguments, conditional handles among
/// them, which are numbered by the graph that made them: a source graph whose kernel sets a
/// handle that drives none of its conditional nodes (it could not be instantiated itself) would
/// have the executable's kernel set a handle value its own graph never made. Refused as the
/// instantiation refuses it (found by a review; GPU test, not yet run).
#[test]
fn an_update_from_a_graph_with_a_handle_driving_no_node_is_refused() {
    let Some(gpu) = gpu("an_update_from_a_graph_with_a_handle_driving_no_node_is_refused") else {
        return;
    };
    let k = kernels(&gpu);
    let (value, out) = (zeros::<u32>(&gpu, 1), zeros::<u32>(&gpu, 1));
    // The same calls for both graphs; the source makes one handle more, which its kernel sets.
    let build = |extra: bool| {
        let mut g = Graph::new(&gpu.ctx).unwrap();
        let handle = g.conditional_handle(None).unwrap();
        let set = if extra {
            g.conditional_handle(None).unwrap()
        } else {
            handle
        };
        let setter = g
            .add_kernel(&k.set_from, one(), (set, &value), &[])
            .unwrap();
        g.add_conditional(handle, Condition::If, &[setter.id()], |b| {
            b[0].add_kernel(&k.put, one(), (5u32, &out), &[]).map(drop)
        })
        .unwrap();
        g
    };
    let mut exec = build(false).instantiate().unwrap();
    let source = build(true);
    let refused = exec.update(&source);
    assert!(
        matches!(&refused, Err(Error::Invalid { reason, .. }) if reason.contains("drive")),
        "{refused:?}"
    );
    // The executable is unchanged and runs.
    value.copy_from(&[1]).unwrap();
    exec.launch(&gpu.stream).unwrap();
    assert_eq!(read_back(&gpu.stream, &out), vec![5]);
}
