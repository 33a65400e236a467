//! Class 9, bad input that panics: `HostBuffer::<f32>::zeroed(&ctx, 0)` (and a zero-sized
//! element type) panicked on an assertion in cudarc's page-locked allocation.
//!
//! The control makes that allocation with cudarc: it still panics. Through the library an empty
//! buffer is an ordinary value (an empty batch): every constructor makes one, graphs take it in
//! copies, fills and kernels and in their updates, and nothing panics.

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

    // Graphs: copies, a fill and a kernel over empty buffers, then updates to other empty ones.
    let k = Kernels::load(ctx);
    let empty_u32 = DeviceBuffer::<u32>::zeros(a, 0).unwrap();
    let outcome = no_panic(
        "graphs over empty buffers",
        || -> cudagraph_runtime::Result<()> {
            let mut graph = Graph::new(ctx)?;
            let up = graph.add_memcpy(Memcpy::htod(&host, &device), &[])?;
            let fill = graph.add_memset(Memset::new(&device, 1.0f32), &[up.id()])?;
            let down = graph.add_memcpy(Memcpy::dtoh(&device, &host), &[fill.id()])?;
            let kernel =
                graph.add_kernel(&k.fill, cfg(1), (0u32, 7u32, &empty_u32), &[down.id()])?;
            let mut exec = graph.instantiate()?;
            exec.launch(a)?;
            exec.set_memcpy_params(up, Memcpy::htod(&host_from, &device_from))?;
            exec.set_memset_params(fill, Memset::new(&device_from, 2.0f32))?;
            exec.set_memcpy_params(down, Memcpy::dtoh(&device_from, &host_from))?;
            exec.set_kernel_params(kernel, cfg(1), (0u32, 9u32, &empty_u32))?;
            exec.launch(a)?;
            a.synchronize()?;
            Ok(())
        },
    );
    // Whether CUDA takes a copy or fill of no bytes as a node is the driver's call; what we
    // promise is an answer, not a panic, and if it is an error, one that names the node.
    match outcome {
        Ok(()) => eprintln!("graphs over empty buffers: built, updated and launched"),
        Err(e) => {
            eprintln!("graphs over empty buffers: {e}");
            assert!(
                e.to_string().contains("node"),
                "the error names a node: {e}"
            );
        }
    }
}
