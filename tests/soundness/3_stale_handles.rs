//! Class 3, stale typed handles: after a whole-graph update or a re-instantiation changes the
//! kernel a node launches, the node's old `KernelNode<A>` gives it arguments of the old
//! parameter list: an integer lands where the new kernel takes a pointer.
//!
//! The control sets those arguments on the raw executable: `pointer_first(y, v)` gets a
//! sentinel's address as `y` and writes it. Through the library the handle is checked against
//! the parameter list the node launches now, and refused with an error naming the node, after
//! either change; the sentinel stays intact.

use cudagraph_runtime::cudarc::driver::sys;
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::Error;
use cudagraph_tests::soundness::{addr, overwritten, sentinel, Arg, Kernels, RawGraph};
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
