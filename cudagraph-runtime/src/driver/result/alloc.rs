use super::*;

/// `cuMemHostGetDevicePointer`: the device address of mapped host memory.
///
/// # Safety
/// `ptr` was allocated by `cuMemHostAlloc` with `CU_MEMHOSTALLOC_DEVICEMAP` in the context
/// current on this thread.
#[inline]
pub(crate) unsafe fn device_address_of(ptr: *mut u8) -> Result<sys::CUdeviceptr> {
    let mut addr = 0;
    // SAFETY: the caller's promise; `addr` is a valid out-pointer; flags must be 0.
    check("cuMemHostGetDevicePointer", unsafe {
        sys::cuMemHostGetDevicePointer_v2(&mut addr, ptr.cast(), 0)
    })?;
    Ok(addr)
}
