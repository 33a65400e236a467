//! Class 10, allocations taken out of an executable that frees them itself: a graph allocation
//! the graph leaves unfreed, taken out as a buffer, stays at the address the alloc node owns. An
//! executable instantiated with auto-free-on-launch frees it when it is launched again and
//! allocates the same addresses anew, so the buffer's memory is written by the next launch while
//! the buffer still holds it.
//!
//! The control keeps the address of the allocation a raw auto-free executable's launch left, and
//! launches it again with another value: the memory the "buffer" holds changes under it. Through
//! the library the allocation is taken out (`GraphExec::take_allocation`, and `take_<name>` of a
//! declaration's launch): the executable refuses to launch again while the buffer lives, the
//! buffer keeps what the first launch wrote, and once the buffer is gone the relaunch leaves a
//! sentinel allocated after its free alone.

use cudagraph_runtime::cudarc::driver::sys;
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{cuda_graph, Error};
use cudagraph_tests::soundness::SENTINEL;
use cudagraph_tests::{gpu, read_back};

const N: usize = 1 << 16;

cuda_graph! {
    /// `t = value` in an allocation the graph leaves unfreed.
    graph Leaves {
        params {
            value: u32,
        }
        t: alloc::<u32>(N);
        fill: memset(t, value);
        t -> fill;
    }
}

#[test]
fn an_allocation_taken_out_is_not_relaunched_under_its_buffer() {
    let Some(gpu) = gpu("an_allocation_taken_out_is_not_relaunched_under_its_buffer") else {
        return;
    };
    let a = &gpu.stream;

    // Control: a raw auto-free executable; its first launch's allocation, kept by address,
    // changes when the executable is launched again.
    {
        let mut g = Graph::new(&gpu.ctx).unwrap();
        let t = g.add_mem_alloc::<u32>(N, &[]).unwrap();
        let fill = g.add_memset(Memset::new(t, 7u32), &[t.id()]).unwrap();
        let fill_raw = g.raw_node(fill).unwrap();
        let mut exec = std::ptr::null_mut();
        let auto_free = InstantiateFlags::AUTO_FREE_ON_LAUNCH.bits();
        // SAFETY: a live graph and a valid out-pointer.
        let r = unsafe { sys::cuGraphInstantiateWithFlags(&mut exec, g.raw(), auto_free) };
        assert_eq!(r, sys::CUresult::CUDA_SUCCESS);
        let launch = |exec| {
            // SAFETY: a live executable and stream.
            let r = unsafe { sys::cuGraphLaunch(exec, a.cu_stream()) };
            assert_eq!(r, sys::CUresult::CUDA_SUCCESS);
        };
        launch(exec);
        let kept = t.addr(); // the "buffer"
        let read_kept = || {
            a.synchronize().unwrap();
            let mut out = vec![0u32; N];
            // SAFETY: `kept` is the live allocation of the executable's latest launch, of `N`
            // words, and `out` has room for them; the stream is idle.
            let r = unsafe { sys::cuMemcpyDtoH_v2(out.as_mut_ptr().cast(), kept, N * 4) };
            assert_eq!(r, sys::CUresult::CUDA_SUCCESS);
            out
        };
        assert_eq!(read_kept()[0], 7);
        let params = sys::CUDA_MEMSET_NODE_PARAMS {
            dst: kept,
            pitch: 0,
            value: 9,
            elementSize: 4,
            width: N,
            height: 1,
        };
        // SAFETY: a live executable and its memset node; valid parameters (the same memory).
        let r = unsafe {
            sys::cuGraphExecMemsetNodeSetParams(exec, fill_raw, &params, gpu.ctx.cu_ctx())
        };
        assert_eq!(r, sys::CUresult::CUDA_SUCCESS);
        launch(exec);
        let changed = read_kept().iter().filter(|&&v| v != 7).count();
        eprintln!("control: the relaunch changed {changed} of {N} words of the kept allocation");
        assert!(
            changed > 0,
            "the control must change the kept memory, or this test shows nothing"
        );
        a.synchronize().unwrap();
        // SAFETY: ours, idle.
        unsafe { sys::cuGraphExecDestroy(exec) };
    }

    // The library, runtime API: the relaunch is refused while the buffer lives.
    {
        let mut g = Graph::new(&gpu.ctx).unwrap();
        let t = g.add_mem_alloc::<u32>(N, &[]).unwrap();
        g.add_memset(Memset::new(t, 7u32), &[t.id()]).unwrap();
        let mut exec = g
            .instantiate_with(InstantiateFlags::AUTO_FREE_ON_LAUNCH, None)
            .unwrap();
        exec.launch(a).unwrap();
        let buffer = exec.take_allocation(&t).unwrap();
        let refused = exec.launch(a);
        eprintln!("runtime: {refused:?}");
        assert!(matches!(refused, Err(Error::Allocation { .. })));
        assert!(read_back(a, &buffer).iter().all(|&v| v == 7));
        drop(buffer);
        let sentinel = DeviceBuffer::from_host(a, &vec![SENTINEL; N]).unwrap();
        exec.launch(a).unwrap();
        assert!(read_back(a, &sentinel).iter().all(|&v| v == SENTINEL));
    }

    // The library, a declaration: the same through `take_t`.
    {
        let mut exec = Leaves::build(&gpu.ctx, &LeavesParams { value: 7 })
            .unwrap()
            .instantiate()
            .unwrap();
        let buffer = exec.launch(a).unwrap().take_t().unwrap();
        exec.set_value(9).unwrap();
        let refused = exec.launch(a).map(drop);
        eprintln!("declaration: {refused:?}");
        assert!(matches!(refused, Err(Error::Allocation { .. })));
        assert!(read_back(a, &buffer).iter().all(|&v| v == 7));
        drop(buffer);
        let sentinel = DeviceBuffer::from_host(a, &vec![SENTINEL; N]).unwrap();
        assert!(exec
            .launch(a)
            .unwrap()
            .read_t()
            .unwrap()
            .iter()
            .all(|&v| v == 9));
        assert!(read_back(a, &sentinel).iter().all(|&v| v == SENTINEL));
    }
}
