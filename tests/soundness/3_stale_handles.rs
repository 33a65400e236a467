//! Class 3, stale typed handles: after a whole-graph update or a re-instantiation changes the
//! kernel a node launches, the node's old `KernelNode<A>` gives it arguments of the old
//! parameter list: an integer lands where the new kernel takes a pointer.
//!
//! The control sets those arguments on the raw executable: `pointer_first(y, v)` gets a
//! sentinel's address as `y` and writes it. Through the library the handle is checked against
//! the parameter list the node launches now, and refused with an error naming the node, after
//! either change; the sentinel stays intact.

use std::sync::Arc;

use cudagraph_runtime::cudarc::driver::{sys, CudaSlice, CudaStream};
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{Error, KernelNode};
use cudagraph_tests::soundness::{addr, overwritten, sentinel, Arg, FillN, Kernels, RawGraph};
use cudagraph_tests::{cfg, gpu};

#[test]
fn a_kernel_handle_does_not_outlive_the_parameter_list_it_was_made_for() {
    let Some(gpu) = gpu("a_kernel_handle_does_not_outlive_the_parameter_list_it_was_made_for")
    else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let a = &gpu.stream;
    let y = DeviceBuffer::<u32>::zeros(a, 1).unwrap();

    // Control: `value_first`'s arguments (v, y), with v a sentinel's address, given to a raw
    // node that launches `pointer_first(y, v)`.
    {
        let s = sentinel(a, 1);
        let mut raw = RawGraph::new(&gpu);
        let node = raw.add_kernel(
            &k.pointer_first,
            &cfg(1),
            &[Arg::U64(y.addr()), Arg::U64(0)],
            &[],
        );
        let old_args = [Arg::U64(addr(a, &s)), Arg::U64(y.addr())];
        let r = raw.set_kernel(node, &k.pointer_first, &cfg(1), &old_args);
        assert_eq!(
            r,
            sys::CUresult::CUDA_SUCCESS,
            "the driver takes the arguments as given"
        );
        raw.launch(a);
        let hit = overwritten(a, &s);
        eprintln!("control: the raw launch wrote {hit} of 1 sentinel element");
        assert!(
            hit > 0,
            "the control must corrupt the sentinel, or this test shows nothing"
        );
    }

    // The library, re-instantiation: the old handle is refused.
    {
        let s = sentinel(a, 1);
        let mut g1 = Graph::new(&gpu.ctx).unwrap();
        let old = g1
            .add_kernel(&k.value_first, cfg(1), (0u64, &y), &[])
            .unwrap();
        let mut exec = g1.instantiate().unwrap();
        let mut g2 = Graph::new(&gpu.ctx).unwrap();
        g2.add_kernel(&k.pointer_first, cfg(1), (&y, 0u64), &[])
            .unwrap();
        exec.reinstantiate_from(g2, InstantiateFlags::NONE).unwrap();
        let e = exec
            .set_kernel_params(old, cfg(1), (addr(a, &s), &y))
            .expect_err("a stale handle must be refused");
        eprintln!("after reinstantiate_from: {e}");
        assert!(matches!(&e, Error::Invalid { reason, .. } if reason.contains("parameter list")));
        exec.launch(a).unwrap();
        assert_eq!(
            overwritten(a, &s),
            0,
            "a stale handle's arguments reached the kernel"
        );
    }

    // The library, whole-graph update: the same.
    {
        let s = sentinel(a, 1);
        let mut g1 = Graph::new(&gpu.ctx).unwrap();
        let old = g1
            .add_kernel(&k.value_first, cfg(1), (0u64, &y), &[])
            .unwrap();
        let mut exec = g1.instantiate().unwrap();
        let mut g2 = Graph::new(&gpu.ctx).unwrap();
        g2.add_kernel(&k.pointer_first, cfg(1), (&y, 0u64), &[])
            .unwrap();
        exec.update(&g2).unwrap();
        let e = exec
            .set_kernel_params(old, cfg(1), (addr(a, &s), &y))
            .expect_err("a stale handle must be refused");
        eprintln!("after update: {e}");
        assert!(matches!(&e, Error::Invalid { reason, .. } if reason.contains("parameter list")));
        exec.launch(a).unwrap();
        assert_eq!(
            overwritten(a, &s),
            0,
            "a stale handle's arguments reached the kernel"
        );
    }
}

/// The check a kernel node's updates pass is the check of the kernel the node launches. An
/// executable whose node was switched to another kernel (`set_kernel`, or a whole-graph update
/// from a graph launching another one) launches its graph's kernel again after
/// `reinstantiate`, and a clone of its graph launches the graph's kernel too: the updates of
/// both must pass that kernel's check, not the one the node was switched to.
///
/// `fill_n` (`y[i] = v` for `i < n`, checked `n <= y`) and `first_of_n` (`y[0] = v` whatever
/// `n`, rightly checked `y >= 1` only) take one parameter list. Before the fix, the executable
/// (and the graph's records, which clones and updates copy) kept `first_of_n`'s check for a node
/// that launched `fill_n`: `n = 8192` on a 256-element `y` was admitted, and `fill_n` wrote the
/// sentinel allocated after `y`.
#[test]
fn a_kernel_check_does_not_outlive_the_kernel_it_was_made_for() {
    const LEN: usize = 256;
    const PAST: u32 = 8192;
    let Some(gpu) = gpu("a_kernel_check_does_not_outlive_the_kernel_it_was_made_for") else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let a = &gpu.stream;
    // `n` past `y`, refused by `fill_n`'s check, admitted by `first_of_n`'s.
    fn attack(
        a: &Arc<CudaStream>,
        exec: &mut GraphExec<'_>,
        node: KernelNode<(u32, u32, DevicePtrMut<u32>)>,
        y: &DeviceBuffer<u32>,
        s: &CudaSlice<u32>,
        how: &str,
    ) {
        let r = exec.set_kernel_params(node, cfg(PAST as usize), (PAST, 7u32, y));
        match &r {
            Err(e) => eprintln!("{how}: refused: {e}"),
            Ok(()) => eprintln!("{how}: admitted"),
        }
        exec.launch(a).unwrap();
        let hit = overwritten(a, s);
        assert!(
            r.is_err() && hit == 0,
            "{how}: `fill_n` was given n = {PAST} for a {LEN}-element buffer ({hit} sentinel \
             elements written)"
        );
    }
    let graph = |y: &DeviceBuffer<u32>, kernel: &FillN| {
        let mut g = Graph::new(&gpu.ctx).unwrap();
        let node = g
            .add_kernel(kernel, cfg(LEN), (LEN as u32, 7u32, y), &[])
            .unwrap();
        (g, node)
    };

    // An executable launching `fill_n` on `y`, its node, `y`, and the sentinel allocated after it.
    let fresh = || {
        let y = DeviceBuffer::<u32>::zeros(a, LEN).unwrap();
        let s = sentinel(a, PAST as usize);
        let (g, node) = graph(&y, &k.fill);
        (g.instantiate().unwrap(), node, y, s)
    };

    // `set_kernel`, then `reinstantiate`: the node launches `fill_n` again.
    {
        let (mut exec, node, y, s) = fresh();
        exec.set_kernel(node, &k.first, cfg(LEN), (LEN as u32, 7u32, &y))
            .unwrap();
        exec.reinstantiate(InstantiateFlags::NONE).unwrap();
        attack(a, &mut exec, node, &y, &s, "set_kernel, reinstantiate");
    }

    // A whole-graph update from a graph launching `first_of_n`, then `reinstantiate`.
    {
        let (mut exec, node, y, s) = fresh();
        let (g2, _) = graph(&y, &k.first);
        exec.update(&g2).unwrap();
        exec.reinstantiate(InstantiateFlags::NONE).unwrap();
        attack(a, &mut exec, node, &y, &s, "update, reinstantiate");
    }

    // `set_kernel`, then a clone of the executable's graph, instantiated: it launches `fill_n`.
    {
        let (mut exec, node, y, s) = fresh();
        exec.set_kernel(node, &k.first, cfg(LEN), (LEN as u32, 7u32, &y))
            .unwrap();
        let mut clone = exec.graph().try_clone().unwrap().instantiate().unwrap();
        attack(
            a,
            &mut clone,
            node,
            &y,
            &s,
            "set_kernel, a clone of the graph",
        );
    }

    // `set_kernel` on one executable, and another updated from its graph: it launches `fill_n`.
    {
        let (mut exec, node, y, s) = fresh();
        exec.set_kernel(node, &k.first, cfg(LEN), (LEN as u32, 7u32, &y))
            .unwrap();
        let (g2, node2) = graph(&y, &k.first);
        let mut other = g2.instantiate().unwrap();
        other.update(exec.graph()).unwrap();
        attack(
            a,
            &mut other,
            node2,
            &y,
            &s,
            "an update from a switched executable's graph",
        );
    }

    // The switch itself still takes: the executable runs `first_of_n` until re-instantiated.
    {
        let y = DeviceBuffer::<u32>::zeros(a, LEN).unwrap();
        let (g, node) = graph(&y, &k.fill);
        let mut exec = g.instantiate().unwrap();
        exec.set_kernel(node, &k.first, cfg(LEN), (LEN as u32, 9u32, &y))
            .unwrap();
        exec.set_kernel_params(node, cfg(1), (PAST, 5u32, &y))
            .expect("first_of_n's check admits any n");
        exec.launch(a).unwrap();
        let v = y.to_vec().unwrap();
        assert_eq!(v[0], 5, "first_of_n ran");
        assert!(v[1..].iter().all(|&x| x == 0), "only y[0] written");
    }
}
