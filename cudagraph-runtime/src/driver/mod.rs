//! Turning driver results into [`Error`]s, and opening a device without panicking.
//!
//! The driver calls cudarc's own `result` module wraps are called there, their
//! `Result<_, DriverError>` turned into this crate's [`Result`] by [`named`], which names the
//! call. [`result`] wraps the others, one function a call, each returning this crate's
//! [`Result`] with the call's name: the calls cudarc lacks, and the few where cudarc's wrapper
//! would lose something (each says what). (The few calls whose result is ignored or only tested,
//! such as a user object's retain and release, stay where they are made.)

pub(crate) mod result;

use std::sync::Arc;

use cudarc::driver::{sys, CudaContext, DriverError};

use crate::error::{Error, Result};

/// `Ok(())` for `CUDA_SUCCESS`, else [`Error::Driver`] naming `call`: what every function of
/// [`result`] returns.
#[inline]
fn check(call: &'static str, result: sys::CUresult) -> Result<()> {
    named(call, result.result())
}

/// The result of a call of cudarc's `result` module as this crate's: its error an
/// [`Error::Driver`] naming `call`, as the functions of [`result`] name theirs.
#[inline]
pub(crate) fn named<T>(
    call: &'static str,
    result: std::result::Result<T, DriverError>,
) -> Result<T> {
    result.map_err(|source| Error::Driver { call, source })
}

/// Makes `ctx` current on this thread unless it already is (one `cuCtxGetCurrent`, about 12 ns,
/// when it is): cudarc's `CudaContext::bind_to_thread` for the raw handle that driver-call
/// parameters carry (where a `CudaContext` is at hand, callers use `bind_to_thread` itself). The driver's kernel-node calls (adding a kernel node to a graph, changing one,
/// updating one in an executable: `cuGraphAddKernelNode`, `cuGraphKernelNodeSetParams`,
/// `cuGraphExecKernelNodeSetParams`, and `cuGraphAddNode` / `cuGraphExecNodeSetParams` of a
/// kernel) crash on a thread where no context is current, though their parameters name the
/// context (driver 580: a segmentation fault; GPU witness
/// `runtime_kernel::witness_kernel_node_calls_need_a_current_context`). Graphs and executables
/// are `Send`, and a thread a graph moves to has none until something makes one current, so
/// every such call makes sure first, as each of cudarc's calls does. (The releases a moved value
/// makes when dropped, destroying a graph or an executable or freeing a graph allocation, bind
/// the context too, as cudarc's own `Drop`s do: those calls are not documented to work without
/// a current context either.)
#[inline]
pub(crate) fn make_current(ctx: sys::CUcontext) -> Result<()> {
    debug_assert!(!ctx.is_null(), "the caller names a live context");
    // The call itself rather than cudarc's wrapper, which builds an `Option` of the context and
    // a `Result` of that: this runs before every kernel node update, the hot path's included.
    let mut current = std::ptr::null_mut();
    // SAFETY: `current` is a valid place for the driver to write the context to.
    check("cuCtxGetCurrent", unsafe {
        sys::cuCtxGetCurrent(&mut current)
    })?;
    if current != ctx {
        // SAFETY: `ctx` is a live context (the caller's graph, executable or node parameters
        // hold it); making it current changes only this thread's binding, as cudarc's
        // `bind_to_thread` does.
        named("cuCtxSetCurrent", unsafe {
            cudarc::driver::result::ctx::set_current(ctx)
        })?;
    }
    Ok(())
}

/// Hands a failed driver call made where no error can be returned (a `Drop`) to `ctx`, which
/// keeps it for cudarc's next checked call.
pub(crate) fn record_err(ctx: &CudaContext, result: Result<()>) {
    if let Err(Error::Driver { source, .. } | Error::Node { source, .. }) = result {
        ctx.record_err(Err::<(), _>(source));
    }
}

/// Whether `code` is one of the driver's stream-capture errors.
pub(crate) fn is_capture_code(code: sys::CUresult) -> bool {
    use sys::CUresult::*;
    matches!(
        code,
        CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED
            | CUDA_ERROR_STREAM_CAPTURE_INVALIDATED
            | CUDA_ERROR_STREAM_CAPTURE_MERGE
            | CUDA_ERROR_STREAM_CAPTURE_UNMATCHED
            | CUDA_ERROR_STREAM_CAPTURE_UNJOINED
            | CUDA_ERROR_STREAM_CAPTURE_ISOLATION
            | CUDA_ERROR_STREAM_CAPTURE_IMPLICIT
            | CUDA_ERROR_CAPTURED_EVENT
            | CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD
    )
}

/// Whether the CUDA driver library can be loaded on this machine.
pub fn driver_present() -> bool {
    // SAFETY: only tries to open the library; it is not kept open.
    unsafe { sys::is_culib_present() }
}

/// Opens device `ordinal`'s primary context.
///
/// Unlike cudarc's `CudaContext::new`, a machine without a CUDA driver gives [`Error::NoDriver`]
/// rather than a panic, and one without that device gives [`Error::NoDevice`].
pub fn open_device(ordinal: usize) -> Result<Arc<CudaContext>> {
    crate::ambient::refuse_in_host_node("open_device")?;
    if !driver_present() {
        return Err(Error::NoDriver);
    }
    CudaContext::new(ordinal).map_err(|source| Error::NoDevice { ordinal, source })
}
