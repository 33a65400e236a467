use super::*;

/// `cuLaunchKernel` of `func` with `config` and the `kernelParams` array `params`.
/// (cudarc's `launch_kernel` takes the array as a slice; `KernelArgs::with_reprs` lends it
/// as the pointer the driver takes.)
///
/// # Safety
/// `func` is a live kernel of `stream`'s context whose parameters `params` points to (one
/// valid pointer per parameter); the memory they point to stays valid while the work may
/// run.
pub(crate) unsafe fn kernel(
    func: sys::CUfunction,
    config: &cudarc::driver::LaunchConfig,
    stream: sys::CUstream,
    params: *mut *mut std::ffi::c_void,
) -> Result<()> {
    let (g, b) = (config.grid_dim, config.block_dim);
    // SAFETY: the caller's promise; no `extra` array.
    check("cuLaunchKernel", unsafe {
        sys::cuLaunchKernel(
            func,
            g.0,
            g.1,
            g.2,
            b.0,
            b.1,
            b.2,
            config.shared_mem_bytes,
            stream,
            params,
            std::ptr::null_mut(),
        )
    })
}

/// `cuMemcpy3DAsync` of `copy` on `stream`.
///
/// # Safety
/// `copy` names memory valid for the copy's bytes while the work may run.
pub(crate) unsafe fn copy(copy: &sys::CUDA_MEMCPY3D, stream: sys::CUstream) -> Result<()> {
    // SAFETY: the caller's promise.
    check("cuMemcpy3DAsync", unsafe {
        sys::cuMemcpy3DAsync_v2(copy, stream)
    })
}

/// The 1-D memset `set` (1-, 2- or 4-byte pattern) on `stream`. (cudarc wraps only the
/// 1-byte `cuMemsetD8Async`.)
///
/// # Safety
/// `set.dst` is device memory of `width * elementSize` bytes, valid while the work may run.
pub(crate) unsafe fn memset(
    set: &sys::CUDA_MEMSET_NODE_PARAMS,
    stream: sys::CUstream,
) -> Result<()> {
    let (dst, value, n) = (set.dst, set.value, set.width);
    // SAFETY: the caller's promise.
    let done = unsafe {
        match set.elementSize {
            1 => sys::cuMemsetD8Async(dst, value as u8, n, stream),
            2 => sys::cuMemsetD16Async(dst, value as u16, n, stream),
            _ => sys::cuMemsetD32Async(dst, value, n, stream),
        }
    };
    check("cuMemsetAsync", done)
}
