//! GPU witness for the rule that a WHILE node does not run beside another conditional node: a
//! WHILE loop and a SWITCH that no edge orders, instantiated and launched through raw driver
//! calls, make NVIDIA's driver fail a launch with `CUDA_ERROR_LAUNCH_FAILED` within a few hundred
//! executables (seen with driver 580.159.04 on H100 and H200), while the same graph with an edge
//! from the loop to the SWITCH runs clean. `Graph::instantiate` refuses the unordered graph,
//! naming both nodes, and `cuda_graph!` refuses the declaration. (A program of its own: the
//! failed launch ends the context for every later test of the process.)
//!
//! If a newer driver stops failing, this witness fails: the rule may then be relaxed for that
//! driver.

use cudagraph_runtime::cudarc::driver::sys;
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{Condition, Error};
use cudagraph_tests::conditional::{kernels, one, Kernels};
use cudagraph_tests::{gpu, read_back, zeros, Gpu};

/// `count: while { step }` and `pick -> select: switch { put 100, put 101, put 7 }`, with an
/// edge `count -> pick` when `ordered`.
fn build(gpu: &Gpu, k: &Kernels, bufs: &[DeviceBuffer<u32>; 3], ordered: bool) -> Graph<'static> {
    let [counter, choice, chosen] = bufs;
    let mut g = Graph::new(&gpu.ctx).unwrap();
    let reset = g.add_memset(Memset::new(counter, 0u32), &[]).unwrap();
    let looping = g.conditional_handle(Some(1)).unwrap();
    g.name_next("count");
    let count = g
        .add_conditional(looping, Condition::While, &[reset.id()], |b| {
            b[0].add_kernel(&k.step, one(), (looping, counter, 5u32), &[])
                .map(drop)
        })
        .unwrap();
    let case = g.conditional_handle(None).unwrap();
    let after: &[NodeId] = if ordered { &[count.id()] } else { &[] };
    let pick = g
        .add_kernel(&k.set_from, one(), (case, choice), after)
        .unwrap();
    g.name_next("select");
    g.add_conditional(case, Condition::Switch(3), &[pick.id()], |b| {
        for (body, v) in b.iter_mut().zip([100u32, 101, 7]) {
            body.add_kernel(&k.put, one(), (v, chosen), &[])?;
        }
        Ok(())
    })
    .unwrap();
    g
}

/// Builds, instantiates (raw) and launches three times (raw) up to `rounds` executables; the
/// first failed driver call, if any.
fn raw_rounds(
    gpu: &Gpu,
    k: &Kernels,
    ordered: bool,
    rounds: usize,
) -> Option<(usize, sys::CUresult)> {
    let bufs = [
        zeros::<u32>(gpu, 1),
        zeros::<u32>(gpu, 1),
        zeros::<u32>(gpu, 1),
    ];
    bufs[1].copy_from(&[1]).unwrap();
    let stream = gpu.stream.cu_stream();
    for round in 0..rounds {
        let g = build(gpu, k, &bufs, ordered);
        let mut exec = std::ptr::null_mut();
        // SAFETY: a live graph; `exec` is a valid out-pointer.
        let r = unsafe { sys::cuGraphInstantiateWithFlags(&mut exec, g.raw(), 0) };
        assert_eq!(r, sys::CUresult::CUDA_SUCCESS, "instantiation");
        let mut failed = None;
        for _ in 0..3 {
            // SAFETY: a live executable and stream; the buffers outlive the synchronization
            // below.
            let r = unsafe { sys::cuGraphLaunch(exec, stream) };
            if r != sys::CUresult::CUDA_SUCCESS {
                failed = Some(r);
                break;
            }
        }
        // SAFETY: a live stream.
        let r = failed.unwrap_or_else(|| unsafe { sys::cuStreamSynchronize(stream) });
        // SAFETY: a live executable, not used after this.
        unsafe { sys::cuGraphExecDestroy(exec) };
        if r != sys::CUresult::CUDA_SUCCESS {
            return Some((round, r));
        }
        assert_eq!(read_back(&gpu.stream, &bufs[2]), vec![101], "round {round}");
    }
    None
}

#[test]
fn a_while_loop_beside_a_switch_fails_launches_unless_ordered() {
    let Some(gpu) = gpu("a_while_loop_beside_a_switch_fails_launches_unless_ordered") else {
        return;
    };
    let k = kernels(&gpu);
    let bufs = [
        zeros::<u32>(&gpu, 1),
        zeros::<u32>(&gpu, 1),
        zeros::<u32>(&gpu, 1),
    ];
    // The library refuses the unordered graph, naming both nodes, and takes the ordered one.
    match build(&gpu, &k, &bufs, false).instantiate() {
        Err(Error::Invalid { node, reason }) => {
            assert_eq!(node, "select");
            assert!(
                reason.contains("`count`") && reason.contains("WHILE"),
                "{reason}"
            );
        }
        other => panic!("the unordered graph was not refused: {other:?}"),
    }
    assert!(build(&gpu, &k, &bufs, true).instantiate().is_ok());
    // The control first: ordered, the driver runs every executable.
    assert_eq!(raw_rounds(&gpu, &k, true, 1000), None);
    // Unordered, a launch fails (this ends the context).
    let failed = raw_rounds(&gpu, &k, false, 3000);
    eprintln!("unordered: the first failure (executable, result): {failed:?}");
    assert!(
        matches!(failed, Some((_, sys::CUresult::CUDA_ERROR_LAUNCH_FAILED))),
        "no launch of 3000 unordered executables failed: {failed:?} (a driver without the fault?)"
    );
}
