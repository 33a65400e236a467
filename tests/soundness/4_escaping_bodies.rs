//! Class 4, escaping conditional bodies: the closure that builds a conditional node's body got a
//! `&mut Graph` it could swap out (`mem::replace`); nodes added to the escaped graph were not
//! tracked, so nothing kept their memory alive.
//!
//! The control adds a kernel to a raw conditional node's body with no one keeping its buffer:
//! the launch writes the sentinel allocated after the free. Through the library a body is a
//! `Body`, lent only inside the closure and impossible to move out
//! (`ui-tests/cases/soundness/move_a_body_out.rs`); what its nodes use the graph keeps alive, so
//! the same program leaves the sentinel intact.

use cudagraph_runtime::prelude::*;
use cudagraph_tests::soundness::{overwritten, sentinel, Arg, Kernels, RawGraph, N};
use cudagraph_tests::{cfg, gpu};

#[test]
fn what_a_conditional_body_uses_lives_as_long_as_its_graph() {
    let Some(gpu) = gpu("what_a_conditional_body_uses_lives_as_long_as_its_graph") else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let a = &gpu.stream;

    // Control: a raw body graph launching `fill_n` on a buffer freed before the launch.
    {
        let y = DeviceBuffer::<u32>::zeros(a, N).unwrap();
        let mut raw = RawGraph::new(&gpu);
        let body = raw.add_if();
        let args = [Arg::U32(N as u32), Arg::U32(7), Arg::U64(y.addr())];
        // SAFETY: the body graph of `raw`'s conditional node, live as long as `raw`.
        unsafe { RawGraph::add_kernel_to(body, &k.fill, &cfg(N), &args, &[]) };
        drop(y);
        let s = sentinel(a, N);
        raw.launch(a);
        let hit = overwritten(a, &s);
        eprintln!("control: the raw body wrote {hit} of {N} sentinel elements");
        assert!(
            hit > 0,
            "the control must corrupt the sentinel, or this test shows nothing"
        );
    }

    // The library: the same body, built in the closure; the buffer dropped by its owner.
    {
        let y = DeviceBuffer::<u32>::zeros(a, N).unwrap();
        let mut graph = Graph::new(&gpu.ctx).unwrap();
        let handle = graph.conditional_handle(Some(1)).unwrap();
        graph
            .add_conditional(handle, Condition::If, &[], |bodies| {
                bodies[0].add_kernel(&k.fill, cfg(N), (N as u32, 7u32, &y), &[])?;
                Ok(())
            })
            .unwrap();
        drop(y);
        let s = sentinel(a, N);
        let mut exec = graph.instantiate().unwrap();
        exec.launch(a).unwrap();
        assert_eq!(
            overwritten(a, &s),
            0,
            "a body's kernel wrote a buffer its owner dropped"
        );
    }
}
