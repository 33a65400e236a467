//! Class 5, uninitialised memory read as `T`: a graph allocation holds whatever its memory held
//! before (here, the bytes of an allocation the same launch freed), and `read_allocation`,
//! `take_allocation` and a declaration's `read_<name>()` handed those bytes out as `T`,
//! `bool` included: an invalid value.
//!
//! The control reads such an allocation's bytes: they are the freed allocation's 7s, not a
//! `bool`. Through the library an allocation's element type must be valid for every bit pattern
//! (`bytemuck::AnyBitPattern`): `ui-tests/cases/soundness/allocate_bools.rs` and
//! `allocate_bools_in_a_declaration.rs` do not compile. The same graph with a `u8` allocation
//! reads back bytes, every one of them a valid `u8`.

use cudagraph_runtime::cudarc::driver::sys;
use cudagraph_runtime::prelude::*;
use cudagraph_tests::gpu;

const N: usize = 1 << 20;

#[test]
fn graph_allocations_are_read_only_as_types_valid_for_any_bytes() {
    let Some(gpu) = gpu("graph_allocations_are_read_only_as_types_valid_for_any_bytes") else {
        return;
    };
    let a = &gpu.stream;

    // alloc -> memset 7 -> free -> alloc: the second allocation reuses the first's memory.
    let mut graph = Graph::new(&gpu.ctx).unwrap();
    let first = graph.add_mem_alloc::<u8>(N, &[]).unwrap();
    let set = graph
        .add_memset(Memset::new(first, 7u8), &[first.id()])
        .unwrap();
    let free = graph.add_mem_free(&first, &[set.id()]).unwrap();
    let second = graph.add_mem_alloc::<u8>(N, &[free.id()]).unwrap();
    let mut exec = graph.instantiate().unwrap();
    exec.launch(a).unwrap();
    a.synchronize().unwrap();

    // Control: the second allocation's bytes, copied out with a raw call.
    let mut bytes = vec![0u8; N];
    // SAFETY: `second` is a live allocation of N bytes (the launch made it and nothing frees it
    // before the next launch), `bytes` has room for them, and the launch has completed.
    let r = unsafe { sys::cuMemcpyDtoH_v2(bytes.as_mut_ptr().cast(), second.addr(), N) };
    assert_eq!(r, sys::CUresult::CUDA_SUCCESS);
    let invalid = bytes.iter().filter(|&&b| b > 1).count();
    eprintln!(
        "control: {invalid} of {N} bytes of the new allocation are not a valid bool (e.g. {})",
        bytes[0]
    );
    assert!(
        invalid > 0,
        "the control must show non-bool bytes, or this test shows nothing"
    );

    // The library: the same bytes, read as the only kind of type it admits.
    let read: Vec<u8> = exec.read_allocation(&second).unwrap();
    assert_eq!(
        read, bytes,
        "read_allocation returns the allocation's bytes as they are"
    );
}
