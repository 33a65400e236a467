use super::*;

/// `cuDeviceGetGraphMemAttribute` of one of the 64-bit attributes (all of them are).
///
/// # Safety
/// `device` is a valid device.
#[inline]
pub(crate) unsafe fn graph_mem_attribute(
    device: sys::CUdevice,
    attr: sys::CUgraphMem_attribute,
) -> Result<u64> {
    let mut value: u64 = 0;
    // SAFETY: the caller's promise; each attribute is a 64-bit value.
    check("cuDeviceGetGraphMemAttribute", unsafe {
        sys::cuDeviceGetGraphMemAttribute(device, attr, (&mut value as *mut u64).cast())
    })?;
    Ok(value)
}

/// `cuDeviceSetGraphMemAttribute` of one of the 64-bit attributes to `value`.
///
/// # Safety
/// `device` is a valid device, and `attr` one the driver lets set (a high-water mark, to 0).
#[inline]
pub(crate) unsafe fn set_graph_mem_attribute(
    device: sys::CUdevice,
    attr: sys::CUgraphMem_attribute,
    mut value: u64,
) -> Result<()> {
    // SAFETY: the caller's promise; each attribute is a 64-bit value.
    check("cuDeviceSetGraphMemAttribute", unsafe {
        sys::cuDeviceSetGraphMemAttribute(device, attr, (&mut value as *mut u64).cast())
    })
}

/// `cuDeviceGraphMemTrim`: returns the graph memory pool's unused memory to the system.
///
/// # Safety
/// `device` is a valid device.
#[inline]
pub(crate) unsafe fn graph_mem_trim(device: sys::CUdevice) -> Result<()> {
    // SAFETY: the caller's promise.
    check("cuDeviceGraphMemTrim", unsafe {
        sys::cuDeviceGraphMemTrim(device)
    })
}

/// `cuMemcpyDtoHAsync`: `bytes` bytes from device address `src` to `dst`, on `stream`.
/// (cudarc's `memcpy_dtoh_async` takes `&mut [T]`, which cannot be made over the
/// uninitialized memory the copy fills.)
///
/// # Safety
/// `src` holds `bytes` bytes, `dst` has room for them and is not touched until the copy has
/// completed; `stream` is live.
#[inline]
pub(crate) unsafe fn copy_dtoh_async(
    dst: *mut std::ffi::c_void,
    src: sys::CUdeviceptr,
    bytes: usize,
    stream: sys::CUstream,
) -> Result<()> {
    // SAFETY: the caller's promise.
    check("cuMemcpyDtoHAsync", unsafe {
        sys::cuMemcpyDtoHAsync_v2(dst, src, bytes, stream)
    })
}
