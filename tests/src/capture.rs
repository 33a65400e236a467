//! Kernel launches for stream-capture tests: the [`Kernels`] launched through cudarc's launch
//! builder on a stream (a capture scope dereferences to one), on the views a capture closure gets
//! of the memory given to it, passed by device address. This is how work the crate does not see
//! (a library's, cudarc's own kernels) is captured; the capture scope's typed
//! [`CaptureScope::launch`](cudagraph_runtime::CaptureScope::launch) is the other way.
//!
//! Each launch covers the elements of the view it writes, and the views it reads must hold at
//! least as many (checked: a shorter one panics before anything is launched).

use std::sync::Arc;

use cudagraph_runtime::cudarc::driver::{CudaStream, DriverError, PushKernelArg};
use cudagraph_runtime::{CaptureView, CaptureViewMut, NodeInfo};

use crate::{cfg, Kernels};

/// Panics unless every one of `reads` holds at least `n` elements.
#[track_caller]
fn assert_covers(n: usize, reads: &[&CaptureView<'_, f32>]) {
    for (i, x) in reads.iter().enumerate() {
        assert!(
            x.len() >= n,
            "input {i} holds {} elements, the launch covers {n}",
            x.len()
        );
    }
}

/// `scale(n, a, y)`: `y[i] *= a` for every element of `y`, on `s`.
pub fn scale_on(
    s: &Arc<CudaStream>,
    k: &Kernels,
    a: f32,
    y: &CaptureViewMut<'_, f32>,
) -> Result<(), DriverError> {
    let n = y.len();
    let (n32, y) = (n as u32, y.addr());
    let mut launch = s.launch_builder(k.scale.function());
    launch.arg(&n32).arg(&a).arg(&y);
    // SAFETY: `scale(unsigned n, float a, float* y)` on `n` elements at `y`, one thread each: `y`
    // is the address of a view of `n` floats, memory given to the capture to write.
    unsafe { launch.launch(cfg(n)) }.map(drop)
}

/// `saxpy(n, a, x, y)`: `y[i] = a * x[i] + y[i]` for every element of `y`, on `s`.
#[track_caller]
pub fn saxpy_on(
    s: &Arc<CudaStream>,
    k: &Kernels,
    a: f32,
    x: &CaptureView<'_, f32>,
    y: &CaptureViewMut<'_, f32>,
) -> Result<(), DriverError> {
    let n = y.len();
    assert_covers(n, &[x]);
    let (n32, x, y) = (n as u32, x.addr(), y.addr());
    let mut launch = s.launch_builder(k.saxpy.function());
    launch.arg(&n32).arg(&a).arg(&x).arg(&y);
    // SAFETY: `saxpy(unsigned n, float a, const float* x, float* y)` on `n` elements at `x` and
    // `y`, one thread each: views of at least `n` floats (checked above) of memory given to the
    // capture, `y`'s to write.
    unsafe { launch.launch(cfg(n)) }.map(drop)
}

/// `axpy_out(n, a, x, y, out)`: `out[i] = a * x[i] + y[i]` for every element of `out`, on `s`.
#[track_caller]
pub fn axpy_out_on(
    s: &Arc<CudaStream>,
    k: &Kernels,
    a: f32,
    (x, y, out): (
        &CaptureView<'_, f32>,
        &CaptureView<'_, f32>,
        &CaptureViewMut<'_, f32>,
    ),
) -> Result<(), DriverError> {
    let n = out.len();
    assert_covers(n, &[x, y]);
    let (n32, x, y, out) = (n as u32, x.addr(), y.addr(), out.addr());
    let mut launch = s.launch_builder(k.axpy_out.function());
    launch.arg(&n32).arg(&a).arg(&x).arg(&y).arg(&out);
    // SAFETY: `axpy_out(unsigned n, float a, const float* x, const float* y, float* out)` on `n`
    // elements at each address, one thread each: views of at least `n` floats (checked above) of
    // memory given to the capture, `out`'s to write.
    unsafe { launch.launch(cfg(n)) }.map(drop)
}

/// Whether node `to` can be reached from node `from` along the edges of `nodes` (a graph's
/// node listing, `Graph::nodes`).
pub fn reaches(nodes: &[NodeInfo<'_>], from: usize, to: usize) -> bool {
    let mut stack = vec![to];
    let mut seen = vec![false; nodes.len()];
    while let Some(node) = stack.pop() {
        if node == from {
            return true;
        }
        for &dep in nodes[node].deps {
            if !std::mem::replace(&mut seen[dep as usize], true) {
                stack.push(dep as usize);
            }
        }
    }
    false
}
