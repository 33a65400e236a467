//! Class 11, code unloaded under a running launch: dropping an executable released the
//! references it held to its kernels' modules at once, and the last reference unloads the module
//! (`cuModuleUnload`), which does not wait for the kernels of it still running (a kernel may only
//! be unloaded once nothing runs it: the module's code is the memory a launch executes). An
//! executable evicted from an `ExecCache`, or simply dropped after a launch, while it held the
//! last reference to a module, unloaded the code of a kernel its launch was still running.
//!
//! The library keeps the modules loaded until the executable's launches are done (released on
//! its thread after the completion marker). Its half runs first and asserts: the launch's write
//! lands and the context reports no error. The control, last (a fault would end the context),
//! unloads the module of a raw launch's kernel while it spins, and prints what the driver did:
//! whether `cuModuleUnload` waits for the kernel is not documented, so the control's outcome is
//! reported, not asserted.

use cudagraph_runtime::prelude::*;
use cudagraph_tests::soundness::{addr, Arg, LateFill, RawGraph, N, SPIN, SRC};
use cudagraph_tests::{cfg, compile, function, gpu};

/// `late_fill` from a module of its own: the kernel holds the only reference to the module.
fn late_fill_alone(gpu: &cudagraph_tests::Gpu) -> LateFill {
    let module = compile(&gpu.ctx, SRC);
    // SAFETY: `late_fill` in `SRC` takes (unsigned, unsigned long long, unsigned, unsigned*),
    // writes y[i] for i < n only, and launches nothing; the check keeps n within y.
    unsafe { LateFill::new(function(&module, "late_fill")) }
        .requires(|_, (n, _, _, y)| n as usize <= y)
}

#[test]
fn a_dropped_executable_keeps_its_kernels_loaded_until_its_launches_end() {
    let Some(gpu) = gpu("a_dropped_executable_keeps_its_kernels_loaded_until_its_launches_end")
    else {
        return;
    };
    let a = &gpu.stream;

    // The library: the executable and the kernel (the module's last references) dropped while
    // the launch spins.
    let y = DeviceBuffer::<u32>::zeros(a, N).unwrap();
    let late = late_fill_alone(&gpu);
    let mut graph = Graph::new(&gpu.ctx).unwrap();
    graph
        .add_kernel(&late, cfg(N), (N as u32, SPIN, 7u32, &y), &[])
        .unwrap();
    let mut exec = graph.instantiate().unwrap();
    exec.launch(a).unwrap();
    drop((exec, late));
    let got = y.to_vec();
    let fault = gpu.ctx.synchronize();
    eprintln!(
        "library: read back {:?}; the context: {fault:?}",
        got.as_ref().map(|v| v[0])
    );
    assert!(fault.is_ok(), "the launch failed: {fault:?}");
    assert_eq!(got.unwrap(), vec![7u32; N], "the launch's write");

    // Control: the same kernel in a raw graph, its module unloaded while the launch spins.
    let late = late_fill_alone(&gpu);
    let scratch = a.alloc_zeros::<u32>(N).unwrap();
    let mut raw = RawGraph::new(&gpu);
    let args = [
        Arg::U32(N as u32),
        Arg::U64(SPIN),
        Arg::U32(7),
        Arg::U64(addr(a, &scratch)),
    ];
    raw.add_kernel(&late, &cfg(N), &args, &[]);
    raw.launch(a);
    let start = std::time::Instant::now();
    drop(late); // the module's last reference: cuModuleUnload
    let unload = start.elapsed();
    let synced = gpu.ctx.synchronize();
    eprintln!(
        "control: unloading the module of a running kernel took {unload:?} (the kernel spins \
         about 0.1 s); the launch then ended with {synced:?}"
    );
    std::mem::forget(raw); // its drop would synchronize a context the control may have broken
}
