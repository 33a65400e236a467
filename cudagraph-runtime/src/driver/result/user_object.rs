use super::*;

/// `cuUserObjectCreate` with one reference, held by the caller, and the mandatory
/// `CU_USER_OBJECT_NO_DESTRUCTOR_SYNC`. On failure the driver did not take `data`.
///
/// # Safety
/// `destroy` may be called with `data`, once, on a thread of the driver's, when the last
/// reference goes.
#[inline]
pub(crate) unsafe fn create(
    data: *mut std::ffi::c_void,
    destroy: sys::CUhostFn,
) -> Result<sys::CUuserObject> {
    let mut raw = std::ptr::null_mut();
    let flags = sys::CUuserObject_flags::CU_USER_OBJECT_NO_DESTRUCTOR_SYNC as u32;
    // SAFETY: the caller's promise; `raw` is a valid out-pointer.
    check("cuUserObjectCreate", unsafe {
        sys::cuUserObjectCreate(&mut raw, data, destroy, 1, flags)
    })?;
    Ok(raw)
}
