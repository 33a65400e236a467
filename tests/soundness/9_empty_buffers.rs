//! Class 9, bad input that panics: `HostBuffer::<f32>::zeroed(&ctx, 0)` (and a zero-sized
//! element type) panicked on an assertion in cudarc's page-locked allocation.
//!
//! The control makes that allocation with cudarc: it still panics. Through the library an empty
//! buffer is an ordinary value (an empty batch): every constructor makes one, graphs take it in
//! kernels and in their updates, a copy or fill of no bytes (which CUDA has no node for) is an
//! error naming the node, and nothing panics.

use std::panic::{catch_unwind, AssertUnwindSafe};

use cudagraph_runtime::cudarc::driver::{DeviceRepr, ValidAsZeroBits};
use cudagraph_runtime::prelude::*;
use cudagraph_tests::soundness::Kernels;
use cudagraph_tests::{cfg, gpu};

/// An element type with no bytes.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
#[repr(C)]
struct Nothing;
// SAFETY: a type with no bytes is passed to the driver as no bytes.
unsafe impl DeviceRepr for Nothing {}
// SAFETY: no bytes are all zeros.
unsafe impl ValidAsZeroBits for Nothing {}

/// Runs `f`, failing the test with `what` if it panics.
fn no_panic<R>(what: &str, f: impl FnOnce() -> R) -> R {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|_| panic!("{what} panicked"))
}

#[test]
fn empty_buffers_are_ordinary_values() {
    let Some(gpu) = gpu("empty_buffers_are_ordinary_values") else {
        return;
    };
    let (ctx, a) = (&gpu.ctx, &gpu.stream);

    // Control: cudarc's page-locked allocation of nothing.
    // SAFETY: the memory is not read (the call does not return).
    let control = catch_unwind(|| unsafe { ctx.alloc_pinned::<f32>(0) }.map(|p| p.len()));
    eprintln!(
        "control: cudarc's alloc_pinned::<f32>(0) panicked: {}",
        control.is_err()
    );
    assert!(
        control.is_err(),
        "the control must panic, or this test shows nothing"
    );

    // Constructors.
    let host = no_panic("HostBuffer::zeroed(0)", || {
        HostBuffer::<f32>::zeroed(ctx, 0)
    })
    .unwrap();
    assert_eq!(host.len(), 0);
    let host_from = no_panic("HostBuffer::from_slice(&[])", || {
        HostBuffer::<f32>::from_slice(ctx, &[])
    })
    .unwrap();
    assert!(host_from.to_vec().unwrap().is_empty());
    let nothing = no_panic("HostBuffer::<ZST>::zeroed(5)", || {
        HostBuffer::<Nothing>::zeroed(ctx, 5)
    })
    .unwrap();
    assert_eq!(nothing.to_vec().unwrap(), vec![Nothing; 5]);
    let device = no_panic("DeviceBuffer::zeros(0)", || {
        DeviceBuffer::<f32>::zeros(a, 0)
    })
    .unwrap();
    assert!(device.to_vec().unwrap().is_empty());
    let device_from = no_panic("DeviceBuffer::from_host(&[])", || {
        DeviceBuffer::<f32>::from_host(a, &[])
    })
    .unwrap();
    assert!(device_from.to_vec().unwrap().is_empty());
    no_panic("host read/write of an empty buffer", || {
        assert!(host.read().unwrap().is_empty());
        assert!(host.write().unwrap().is_empty());
    });
    no_panic("DeviceBuffer::copy_from(&[])", || {
        device.copy_from(&[]).unwrap()
    });

    // Graphs: a kernel over an empty buffer is a launch like any other; a copy or a fill of no
    // bytes CUDA has no node for, so it is an error naming the node, at the add and at an update.
    let k = Kernels::load(ctx);
    let empty_u32 = DeviceBuffer::<u32>::zeros(a, 0).unwrap();
    let other_empty = DeviceBuffer::<u32>::zeros(a, 0).unwrap();
    let one = DeviceBuffer::<f32>::zeros(a, 1).unwrap();
    let one_h = HostBuffer::<f32>::zeroed(ctx, 1).unwrap();
    no_panic("graphs over empty buffers", || {
        let mut graph = Graph::new(ctx).unwrap();
        let kernel = graph
            .add_kernel(&k.fill, cfg(1), (0u32, 7u32, &empty_u32), &[])
            .unwrap();
        let no_bytes = |e: cudagraph_runtime::Error, node: &str| {
            eprintln!("refused: {e}");
            let text = e.to_string();
            assert!(text.contains(node) && text.contains("no bytes"), "{text}");
        };
        no_bytes(
            graph
                .add_memcpy(Memcpy::htod(&host, &device), &[])
                .unwrap_err(),
            "memcpy",
        );
        no_bytes(
            graph
                .add_memset(Memset::new(&device, 1.0f32), &[])
                .unwrap_err(),
            "memset",
        );
        let copy = graph.add_memcpy(Memcpy::htod(&one_h, &one), &[]).unwrap();
        let fill = graph
            .add_memset(Memset::new(&one, 1.0f32), &[copy.id()])
            .unwrap();
        let mut exec = graph.instantiate().unwrap();
        exec.launch(a).unwrap();
        exec.set_kernel_params(kernel, cfg(1), (0u32, 9u32, &other_empty))
            .unwrap();
        no_bytes(
            exec.set_memcpy_params(copy, Memcpy::htod(&host, &device))
                .unwrap_err(),
            "memcpy",
        );
        no_bytes(
            exec.set_memset_params(fill, Memset::new(&device, 2.0f32))
                .unwrap_err(),
            "memset",
        );
        exec.launch(a).unwrap();
        a.synchronize().unwrap();
        assert_eq!(
            one.to_vec().unwrap(),
            vec![1.0],
            "the graph ran as it was before the refusals"
        );
    });
}
