//! Class 2, unsealed traits: a safe implementation of a public trait (`KernelArg`,
//! `KernelArgValues`, `MemsetValue`, `FillWith`, `Switchable`) hands the driver a raw address, or
//! a value that breaks a type's validity.
//!
//! The control gives a raw graph the address of a freed buffer as a kernel argument: the launch
//! writes the sentinel allocated after the free. Through the library those traits are sealed, or
//! (`FillWith`) `unsafe` to implement: `ui-tests/cases/soundness/implement_kernel_arg.rs`,
//! `implement_memset_value.rs`, `implement_switchable.rs`, `fill_bools.rs` do not compile. What
//! safe code can give a kernel is memory the graph keeps alive: the same program with the buffer
//! itself leaves the sentinel intact.

use cudagraph_runtime::prelude::*;
use cudagraph_tests::soundness::{overwritten, sentinel, Arg, Kernels, RawGraph, N};
use cudagraph_tests::{cfg, gpu};

#[test]
fn a_kernel_gets_no_address_the_graph_does_not_keep_alive() {
    let Some(gpu) = gpu("a_kernel_gets_no_address_the_graph_does_not_keep_alive") else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let a = &gpu.stream;

    // Control: a freed buffer's address as a raw kernel argument.
    {
        let y = DeviceBuffer::<u32>::zeros(a, N).unwrap();
        let freed = y.addr();
        drop(y);
        let s = sentinel(a, N);
        let mut raw = RawGraph::new(&gpu);
        let args = [Arg::U32(N as u32), Arg::U32(7), Arg::U64(freed)];
        raw.add_kernel(&k.fill, &cfg(N), &args, &[]);
        raw.launch(a);
        let hit = overwritten(a, &s);
        eprintln!("control: the raw launch wrote {hit} of {N} sentinel elements");
        assert!(
            hit > 0,
            "the control must corrupt the sentinel, or this test shows nothing"
        );
    }

    // The library: the buffer itself, dropped by its owner before the launch.
    {
        let y = DeviceBuffer::<u32>::zeros(a, N).unwrap();
        let mut graph = Graph::new(&gpu.ctx).unwrap();
        graph
            .add_kernel(&k.fill, cfg(N), (N as u32, 7u32, &y), &[])
            .unwrap();
        drop(y);
        let s = sentinel(a, N);
        let mut exec = graph.instantiate().unwrap();
        exec.launch(a).unwrap();
        assert_eq!(
            overwritten(a, &s),
            0,
            "a launch wrote a buffer its owner dropped"
        );
    }
}
