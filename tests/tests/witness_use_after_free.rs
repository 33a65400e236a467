//! GPU witness for the rule "no use of a graph allocation after its free node": built through a
//! raw driver call, a kernel writing the allocation after the free is accepted by the driver (a
//! memset there it refuses: it sees a memset's address, not a kernel argument's) and its write
//! lands in the allocation that took over the freed physical memory. The runtime refuses the node when it is
//! added, and `cuda_graph!` when the declaration is compiled. (A file of its own: had the write
//! faulted instead, the context would be lost for every other test of the process.)

use cudagraph_runtime::cudarc::driver::sys;
use cudagraph_runtime::prelude::*;
use cudagraph_tests::{gpu, raw, read_back, zeros, Gpu, Kernels};

const N: usize = 1 << 20;

/// `a = alloc; a := 1; free a; b = alloc; b := 7; [a += 3, raw, after b := 7]; out := b; free b`:
/// what `out` holds after a launch, with or without the write to `a` after its free.
fn out_after_launch(gpu: &Gpu, k: &Kernels, write_after_free: bool) -> Vec<u32> {
    let out = zeros::<u32>(gpu, N);
    let mut g = Graph::new(&gpu.ctx).unwrap();
    let a = g.add_mem_alloc::<u32>(N, &[]).unwrap();
    let set_a = g.add_memset(Memset::new(a, 1u32), &[a.id()]).unwrap();
    let free_a = g.add_mem_free(&a, &[set_a.id()]).unwrap();
    let b = g.add_mem_alloc::<u32>(N, &[free_a.id()]).unwrap();
    let set_b = g.add_memset(Memset::new(b, 7u32), &[b.id()]).unwrap();
    let copy = g.add_memcpy(Memcpy::dtod(b, &out), &[set_b.id()]).unwrap();
    g.add_mem_free(&b, &[copy.id()]).unwrap();
    if write_after_free {
        let after = g.raw_node(set_b.id()).unwrap();
        let refused = raw::memset_u32(&g, &[after], a.addr(), N, 3);
        assert_eq!(refused, Err(sys::CUresult::CUDA_ERROR_INVALID_VALUE));
        let late = raw::add_u32(&g, &[after], &k.add_u32, a.addr(), N as u32, 3)
            .expect("the driver refused the kernel");
        let copy = g.raw_node(copy.id()).unwrap();
        // SAFETY: two nodes of this live graph; one edge, default edge data.
        let r =
            unsafe { sys::cuGraphAddDependencies_v2(g.raw(), &late, &copy, std::ptr::null(), 1) };
        assert_eq!(r, sys::CUresult::CUDA_SUCCESS);
    }
    let mut exec = g.instantiate().expect("the driver refused to instantiate");
    exec.launch(&gpu.stream).unwrap();
    read_back(&gpu.stream, &out)
}

#[test]
fn a_write_after_the_free_node_lands_in_the_next_allocation() {
    let Some(gpu) = gpu("a_write_after_the_free_node_lands_in_the_next_allocation") else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    // The control: without the late write, `b` holds what was written to it.
    assert!(out_after_launch(&gpu, &k, false).iter().all(|&v| v == 7));
    let got = out_after_launch(&gpu, &k, true);
    let corrupted = got.iter().filter(|&&v| v != 7).count();
    eprintln!(
        "{corrupted} of {N} words of `b` were changed through freed `a` (b[0] = {})",
        got[0]
    );
    assert!(
        corrupted > 0,
        "the write through the freed allocation left `b` intact: {:?}",
        &got[..4]
    );
}
