//! Indirect values across reinstantiations, refused launches and unusual launch sites: the
//! block kept or replaced when an executable is made again, launches into a capturing stream
//! refused with the count kept right (and the driver's own refusal as the witness), handles that
//! name another node afterwards, launches that set nothing, launches from a thread with no
//! current context and beside a capture of another stream. Tests of `runtime_indirect`'s kind,
//! in a module of their own.

use cudagraph_runtime::cudarc::driver::sys;
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{Error, IndirectOptions, InstantiateFlags};
use cudagraph_tests::{fill_buffer, gpu, zeros, Gpu, Rng, POISON_U32};

use crate::runtime_indirect::*;

#[test]
fn reinstantiation_keeps_or_replaces_the_block_and_stays_exact() {
    let _serial = one_at_a_time();
    let Some(gpu) = gpu("reinstantiation_keeps_or_replaces_the_block_and_stays_exact") else {
        return;
    };
    let k = kernels(&gpu);
    let mut rng = Rng::new("reinstantiation_keeps_or_replaces_the_block_and_stays_exact");
    for options in [IndirectOptions::default(), ring().with_slots(8)] {
        reinstantiations(&gpu, &k, &mut rng, options);
    }
}

/// Launches around a re-instantiation from the same graph and one from another graph, with
/// values delivered as `options` says.
fn reinstantiations(gpu: &Gpu, k: &Kernels, rng: &mut Rng, options: IndirectOptions) {
    let n = 600;
    let mut r = Recorder::new(gpu, k, options, n, 1);
    let want = values(rng, n);
    // Launches queued, then a re-instantiation from the same graph: the block and its count go
    // on, the new instantiation's first launch waits for the old launches.
    r.launch_all(gpu, &want[..n / 3]);
    r.exec.reinstantiate(InstantiateFlags::NONE).unwrap();
    for (i, &v) in want.iter().enumerate().take(2 * n / 3).skip(n / 3) {
        r.exec.set_indirect(&r.idx, i as u32).unwrap();
        r.exec.set_indirect(&r.value, v).unwrap();
        r.exec.launch(&gpu.stream).unwrap();
    }
    // Re-instantiation from another graph: its block and keys from then on; the old keys are
    // refused.
    let out = &r.outs[0];
    let mut g = Graph::new(&gpu.ctx).unwrap();
    g.add_indirect_block(options).unwrap();
    let idx = g.add_indirect(0u32).unwrap();
    let value = g.add_indirect(0u32).unwrap();
    g.add_kernel(
        &k.record,
        one(),
        (idx, value, out, n as u32, SPIN_SHORT),
        &[],
    )
    .unwrap();
    r.exec
        .reinstantiate_from(g, InstantiateFlags::NONE)
        .unwrap();
    assert!(matches!(
        r.exec.set_indirect(&r.idx, 0),
        Err(Error::Invalid { .. })
    ));
    for (i, &v) in want.iter().enumerate().skip(2 * n / 3) {
        r.exec.set_indirect(&idx, i as u32).unwrap();
        r.exec.set_indirect(&value, v).unwrap();
        r.exec.launch(&gpu.stream).unwrap();
    }
    r.check(
        &format!("across two re-instantiations ({:?})", options.delivery()),
        &want,
    );
}

#[test]
fn a_launch_into_a_capturing_stream_is_refused_and_the_count_stays_right() {
    let _serial = one_at_a_time();
    let Some(gpu) = gpu("a_launch_into_a_capturing_stream_is_refused_and_the_count_stays_right")
    else {
        return;
    };
    let k = kernels(&gpu);
    let mut rng = Rng::new("a_launch_into_a_capturing_stream_is_refused_and_the_count_stays_right");
    let n = 300;
    for options in [IndirectOptions::default(), ring().with_slots(4)] {
        refused_capture_launch(&gpu, &k, &mut rng, options, n);
    }
}

/// Launches around a launch refused because its stream is being captured.
fn refused_capture_launch(
    gpu: &Gpu,
    k: &Kernels,
    rng: &mut Rng,
    options: IndirectOptions,
    n: usize,
) {
    let mut r = Recorder::new(gpu, k, options, n, 1);
    let want = values(rng, n);
    r.launch_all(gpu, &want[..n / 2]);
    let capturing = gpu.ctx.new_stream().unwrap();
    capturing
        .begin_capture(sys::CUstreamCaptureMode::CU_STREAM_CAPTURE_MODE_THREAD_LOCAL)
        .unwrap();
    let refused = r.exec.launch(&capturing);
    let ended = capturing
        .end_capture(sys::CUgraphInstantiate_flags(0))
        .map(|graph| graph.is_some());
    assert!(
        matches!(refused, Err(Error::Capturing { .. })),
        "a launch into a capturing stream: {refused:?}"
    );
    assert!(ended.is_ok(), "ending the capture: {ended:?}");
    for (i, &v) in want.iter().enumerate().skip(n / 2) {
        r.exec.set_indirect(&r.idx, i as u32).unwrap();
        r.exec.set_indirect(&r.value, v).unwrap();
        r.exec.launch(&gpu.stream).unwrap();
    }
    r.check(
        &format!("around a refused launch ({:?})", options.delivery()),
        &want,
    );
}

#[test]
fn witness_the_driver_refuses_a_graph_launch_into_a_capturing_stream() {
    let _serial = one_at_a_time();
    // The crate's memory model counts on CUDA refusing this (see "Stream capture" in the crate
    // docs). Indirect values do not: `GraphExec::launch` checks for a capture itself (the test
    // above), since a captured launch would run later, out of the device's count of launches.
    // Here a plain executable is launched with the raw call, to see what the driver does.
    let Some(gpu) = gpu("witness_the_driver_refuses_a_graph_launch_into_a_capturing_stream") else {
        return;
    };
    let k = kernels(&gpu);
    let fixed = upload_u32(&gpu, &[0, 1]);
    let out = zeros::<u32>(&gpu, 1);
    let mut g = Graph::new(&gpu.ctx).unwrap();
    g.add_kernel(
        &k.record,
        one(),
        (fixed.slice(0..1), fixed.slice(1..2), &out, 1u32, 0u64),
        &[],
    )
    .unwrap();
    let exec = g.instantiate().unwrap();
    let capturing = gpu.ctx.new_stream().unwrap();
    gpu.ctx.bind_to_thread().unwrap();
    let mode = sys::CUstreamCaptureMode::CU_STREAM_CAPTURE_MODE_THREAD_LOCAL;
    // SAFETY: a live stream of the current context, not being captured.
    let began = unsafe { sys::cuStreamBeginCapture_v2(capturing.cu_stream(), mode) };
    assert_eq!(began, sys::CUresult::CUDA_SUCCESS, "beginning the capture");
    // SAFETY: a live executable and stream of one context.
    let launched = unsafe { sys::cuGraphLaunch(exec.raw(), capturing.cu_stream()) };
    let mut captured = std::ptr::null_mut();
    // SAFETY: the capture begun above, on this thread; valid out-pointer.
    let ended = unsafe { sys::cuStreamEndCapture(capturing.cu_stream(), &mut captured) };
    let mut nodes = 0usize;
    if !captured.is_null() {
        // SAFETY: the captured graph is ours: counted, then destroyed, never instantiated.
        unsafe {
            sys::cuGraphGetNodes(captured, std::ptr::null_mut(), &mut nodes);
            sys::cuGraphDestroy(captured);
        }
    }
    eprintln!(
        "cuGraphLaunch into a capturing stream: {launched:?}; cuStreamEndCapture: {ended:?}, \
         {nodes} node(s) captured"
    );
    assert_ne!(
        launched,
        sys::CUresult::CUDA_SUCCESS,
        "the driver captured a graph launch ({nodes} node(s)): the crate docs' claim that CUDA \
         refuses it does not hold on this driver"
    );
}

#[test]
fn a_handle_that_names_another_node_after_a_reinstantiation_cannot_switch_it() {
    // Re-instantiating from another graph keeps the old graph's handles working by position. A
    // handle whose position now holds another kind of node, or the fetch node of the indirect
    // values (disabling it would leave every launch reading stale values), is refused by
    // `set_enabled` / `is_enabled`, naming the node; the fetch keeps running.
    let _serial = one_at_a_time();
    let Some(gpu) =
        gpu("a_handle_that_names_another_node_after_a_reinstantiation_cannot_switch_it")
    else {
        return;
    };
    let k = kernels(&gpu);
    let n = 4u32;
    let out = zeros::<u32>(&gpu, n as usize);
    let (idx, value) = (
        DeviceBuffer::from_host(&gpu.stream, &[1u32]).unwrap(),
        DeviceBuffer::from_host(&gpu.stream, &[7u32]).unwrap(),
    );
    let mut a = Graph::new(&gpu.ctx).unwrap();
    let kernel = a
        .add_kernel(&k.record, one(), (&idx, &value, &out, n, 0u64), &[])
        .unwrap();
    let memset = a
        .add_memset(Memset::new(&out, 0u32), &[kernel.id()])
        .unwrap();
    let mut exec = a.instantiate().unwrap();
    exec.set_enabled(kernel, false).unwrap();
    exec.set_enabled(kernel, true).unwrap();
    assert!(exec.is_enabled(memset).unwrap());

    // Node 0 is now the fetch node, node 1 a kernel node.
    let mut b = Graph::new(&gpu.ctx).unwrap();
    b.add_indirect_block(IndirectOptions::default()).unwrap();
    let i = b.add_indirect(2u32).unwrap();
    let v = b.add_indirect(9u32).unwrap();
    b.add_kernel(&k.record, one(), (i, v, &out, n, 0u64), &[])
        .unwrap();
    exec.reinstantiate_from(b, InstantiateFlags::NONE).unwrap();
    for (what, refused) in [
        ("set_enabled(kernel)", exec.set_enabled(kernel, false)),
        ("is_enabled(kernel)", exec.is_enabled(kernel).map(drop)),
        ("set_enabled(memset)", exec.set_enabled(memset, false)),
        ("is_enabled(memset)", exec.is_enabled(memset).map(drop)),
    ] {
        assert!(
            matches!(refused, Err(Error::Invalid { .. })),
            "{what} on the node it no longer names: {refused:?}"
        );
    }
    exec.set_indirect(&v, 5).unwrap();
    exec.launch(&gpu.stream).unwrap();
    let got = out.to_vec().unwrap();
    assert_eq!(got[2], 5, "the fetch node still ran: {got:?}");
}

/// Launches that set nothing read the staged values too: the first launch reads the values set
/// on the graph (not the ones its fetch node was given with the last `add_indirect`), a launch
/// after one that changed them reads the same, and so does the first launch of a
/// re-instantiation from the same graph, whose fetch node holds those older values again. The
/// fetch node here is not the graph's first node.
#[test]
fn launches_that_set_nothing_read_the_staged_values() {
    let _serial = one_at_a_time();
    let Some(gpu) = gpu("launches_that_set_nothing_read_the_staged_values") else {
        return;
    };
    let k = kernels(&gpu);
    for options in [IndirectOptions::default(), ring().with_slots(2)] {
        launches_setting_nothing(&gpu, &k, options);
    }
}

fn launches_setting_nothing(gpu: &Gpu, k: &Kernels, options: IndirectOptions) {
    let delivery = options.delivery();
    let n = 4;
    let out = zeros::<u32>(gpu, n);
    // A node before the block: `record` with an index out of range, writing nothing.
    let (one_index, spare) = (upload_u32(gpu, &[1]), zeros::<u32>(gpu, 1));
    let mut g = Graph::new(&gpu.ctx).unwrap();
    g.add_kernel(
        &k.record,
        one(),
        (one_index.slice(..), one_index.slice(..), &spare, 1u32, 0u64),
        &[],
    )
    .unwrap();
    let fetch = g.add_indirect_block(options).unwrap();
    assert_eq!(
        fetch.index(),
        1,
        "the fetch node follows a node added before"
    );
    let idx = g.add_indirect(0u32).unwrap();
    let value = g.add_indirect(11u32).unwrap();
    g.add_kernel(&k.record, one(), (idx, value, &out, n as u32, 0u64), &[])
        .unwrap();
    // Set on the graph after the fetch node was given 0 and 11.
    g.set_indirect(&idx, 1).unwrap();
    g.set_indirect(&value, 22).unwrap();
    let mut exec = g.instantiate().unwrap();
    // Each step: poison the output, launch (setting nothing unless said), expect one entry.
    let step = |exec: &mut GraphExec<'static>, what: &str, at: usize, want: u32| {
        fill_buffer(&out, POISON_U32);
        exec.launch(&gpu.stream).unwrap();
        let mut expected = vec![POISON_U32; n];
        expected[at] = want;
        assert_eq!(out.to_vec().unwrap(), expected, "{what} ({delivery:?})");
    };
    step(
        &mut exec,
        "the first launch, nothing set on the executable",
        1,
        22,
    );
    exec.set_indirect(&idx, 2).unwrap();
    exec.set_indirect(&value, 33).unwrap();
    step(&mut exec, "a launch after a change", 2, 33);
    step(&mut exec, "the launch after it, nothing changed", 2, 33);
    // The same value set again, the other changed.
    exec.set_indirect(&idx, 2).unwrap();
    exec.set_indirect(&value, 44).unwrap();
    step(&mut exec, "a launch after one value changed", 2, 44);
    exec.reinstantiate(InstantiateFlags::NONE).unwrap();
    step(&mut exec, "the first launch of a re-instantiation", 2, 44);
    step(&mut exec, "the second launch of a re-instantiation", 2, 44);
    exec.set_indirect(&idx, 3).unwrap();
    step(&mut exec, "a change after the re-instantiation", 3, 44);
}

/// Launches made from a thread on which no context is current (a fresh thread, and the context
/// unset before each launch): the parameters' node update, like the launch, finds the context
/// from the executable and its function, and every launch reads its own values.
#[test]
fn launches_from_a_thread_with_no_current_context_read_their_own_values() {
    let _serial = one_at_a_time();
    let test = "launches_from_a_thread_with_no_current_context_read_their_own_values";
    let Some(gpu) = gpu(test) else {
        return;
    };
    let k = kernels(&gpu);
    let mut rng = Rng::new(test);
    for options in [IndirectOptions::default(), ring().with_slots(4)] {
        let n = 200;
        let r = Recorder::new(&gpu, &k, options, n, 1);
        let want = values(&mut rng, n);
        let (stream, launched) = (gpu.stream.clone(), want.clone());
        let (idx, value) = (r.idx, r.value);
        let mut exec = r.exec;
        let (exec, made) = std::thread::spawn(move || {
            for (i, &v) in launched.iter().enumerate() {
                // SAFETY: unsets this thread's current context (none, or one an earlier launch
                // made current); no context is destroyed.
                let unset = unsafe { sys::cuCtxSetCurrent(std::ptr::null_mut()) };
                assert_eq!(unset, sys::CUresult::CUDA_SUCCESS);
                exec.set_indirect(&idx, i as u32).unwrap();
                exec.set_indirect(&value, v).unwrap();
                if let Err(e) = exec.launch(&stream) {
                    return (exec, Err((i, e)));
                }
            }
            (exec, Ok(()))
        })
        .join()
        .unwrap();
        if let Err((i, e)) = made {
            panic!(
                "launch {i} from a thread with no current context ({:?}): {e}",
                options.delivery()
            );
        }
        drop(exec);
        let got = r.outs[0].to_vec().unwrap();
        assert_each_launch(
            &format!(
                "launched from a thread with no context ({:?})",
                options.delivery()
            ),
            &got,
            &want,
        );
    }
}

/// Launches into a stream that is not captured, made while this thread captures another
/// (`CU_STREAM_CAPTURE_MODE_THREAD_LOCAL`, cudarc's capture as a program might run it around its
/// own work): the parameters' node update is no call such a capture forbids, the launches read
/// their own values, and the capture ends whole.
#[test]
fn launches_beside_a_capture_of_another_stream_read_their_own_values() {
    let _serial = one_at_a_time();
    let test = "launches_beside_a_capture_of_another_stream_read_their_own_values";
    let Some(gpu) = gpu(test) else {
        return;
    };
    let k = kernels(&gpu);
    let mut rng = Rng::new(test);
    for options in [IndirectOptions::default(), ring().with_slots(4)] {
        let delivery = options.delivery();
        let n = 100;
        let mut r = Recorder::new(&gpu, &k, options, n, 1);
        let want = values(&mut rng, n);
        let capturing = gpu.ctx.new_stream().unwrap();
        capturing
            .begin_capture(sys::CUstreamCaptureMode::CU_STREAM_CAPTURE_MODE_THREAD_LOCAL)
            .unwrap();
        let mut made = Ok(());
        for (i, &v) in want.iter().enumerate() {
            r.exec.set_indirect(&r.idx, i as u32).unwrap();
            r.exec.set_indirect(&r.value, v).unwrap();
            if let Err(e) = r.exec.launch(&gpu.stream) {
                made = Err((i, e));
                break;
            }
        }
        let ended = capturing.end_capture(sys::CUgraphInstantiate_flags(0));
        if let Err((i, e)) = made {
            panic!("launch {i} beside a capture ({delivery:?}): {e}");
        }
        assert!(
            ended.is_ok(),
            "the capture beside the launches ({delivery:?}) ended in {:?}",
            ended.err()
        );
        r.check(&format!("launches beside a capture ({delivery:?})"), &want);
    }
}
