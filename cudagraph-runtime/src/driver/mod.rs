//! Turning driver results into [`Error`]s, and opening a device without panicking.
//!
//! [`result`] wraps the raw driver calls this crate checks, one function a call, each returning
//! this crate's [`Result`] with the call's name, as cudarc's own `result` module does for the calls
//! it wraps. (The few calls whose result is ignored or only tested, such as a user object's
//! retain and release, stay where they are made.)

pub(crate) mod result;

use std::sync::Arc;

use cudarc::driver::{sys, CudaContext, DriverError};

use crate::error::{Error, Result};

/// `Ok(())` for `CUDA_SUCCESS`, else [`Error::Driver`] naming `call`: what every function of
/// [`result`] returns.
#[inline]
fn check(call: &'static str, result: sys::CUresult) -> Result<()> {
    match result {
        sys::CUresult::CUDA_SUCCESS => Ok(()),
        code => Err(Error::Driver {
            call,
            source: DriverError(code),
        }),
    }
}

/// Hands a failed driver call made where no error can be returned (a `Drop`) to `ctx`, which
/// keeps it for cudarc's next checked call.
pub(crate) fn record_err(ctx: &CudaContext, result: Result<()>) {
    if let Err(Error::Driver { source, .. } | Error::Node { source, .. }) = result {
        ctx.record_err(Err::<(), _>(source));
    }
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
    if !driver_present() {
        return Err(Error::NoDriver);
    }
    CudaContext::new(ordinal).map_err(|source| Error::NoDevice { ordinal, source })
}
