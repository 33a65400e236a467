//! Kernel launches for stream-capture tests: the [`Kernels`] launched through cudarc on a stream
//! (a capture scope dereferences to one), their memory given by device address, since captured
//! work reaches memory by address and is not tracked.

use std::sync::Arc;

use cudagraph_runtime::cudarc::driver::{CudaStream, DriverError, PushKernelArg};

use crate::{cfg, Kernels};

/// `scale(n, a, y)`: `y[i] *= a`, on `s`.
pub fn scale_on(
    s: &Arc<CudaStream>,
    k: &Kernels,
    n: usize,
    a: f32,
    y: u64,
) -> Result<(), DriverError> {
    let n32 = n as u32;
    let mut launch = s.launch_builder(k.scale.function());
    launch.arg(&n32).arg(&a).arg(&y);
    // SAFETY: `scale(unsigned n, float a, float* y)` on `n` elements at `y`, one thread each; the
    // caller gives `n` elements there.
    unsafe { launch.launch(cfg(n)) }.map(drop)
}

/// `saxpy(n, a, x, y)`: `y[i] = a * x[i] + y[i]`, on `s`.
pub fn saxpy_on(
    s: &Arc<CudaStream>,
    k: &Kernels,
    n: usize,
    a: f32,
    x: u64,
    y: u64,
) -> Result<(), DriverError> {
    let n32 = n as u32;
    let mut launch = s.launch_builder(k.saxpy.function());
    launch.arg(&n32).arg(&a).arg(&x).arg(&y);
    // SAFETY: `saxpy(unsigned n, float a, const float* x, float* y)` on `n` elements at `x` and
    // `y`, one thread each; the caller gives `n` elements at each.
    unsafe { launch.launch(cfg(n)) }.map(drop)
}

/// `axpy_out(n, a, x, y, out)`: `out[i] = a * x[i] + y[i]`, on `s`.
pub fn axpy_out_on(
    s: &Arc<CudaStream>,
    k: &Kernels,
    n: usize,
    a: f32,
    (x, y, out): (u64, u64, u64),
) -> Result<(), DriverError> {
    let n32 = n as u32;
    let mut launch = s.launch_builder(k.axpy_out.function());
    launch.arg(&n32).arg(&a).arg(&x).arg(&y).arg(&out);
    // SAFETY: `axpy_out(unsigned n, float a, const float* x, const float* y, float* out)` on `n`
    // elements at each address, one thread each; the caller gives `n` elements at each.
    unsafe { launch.launch(cfg(n)) }.map(drop)
}
