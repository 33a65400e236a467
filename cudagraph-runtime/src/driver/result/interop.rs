use super::*;

/// `cuImportExternalSemaphore` into the current context.
///
/// # Safety
/// A context is current; `desc` is valid for the call (its handle live and of its type).
#[inline]
pub(crate) unsafe fn import_semaphore(
    desc: &sys::CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC,
) -> Result<sys::CUexternalSemaphore> {
    let mut raw = std::ptr::null_mut();
    // SAFETY: the caller's promise; `raw` is a valid out-pointer.
    check("cuImportExternalSemaphore", unsafe {
        sys::cuImportExternalSemaphore(&mut raw, desc)
    })?;
    Ok(raw)
}

/// `cuDestroyExternalSemaphore`.
///
/// # Safety
/// `sem` was imported, is destroyed once, and no queued work uses it.
#[inline]
pub(crate) unsafe fn destroy_semaphore(sem: sys::CUexternalSemaphore) -> Result<()> {
    // SAFETY: the caller's promise.
    check("cuDestroyExternalSemaphore", unsafe {
        sys::cuDestroyExternalSemaphore(sem)
    })
}

/// `cuImportExternalMemory` into the current context. (cudarc's
/// `import_external_memory_opaque_fd` sets no flags, and memory of a dedicated allocation
/// needs `CUDA_EXTERNAL_MEMORY_DEDICATED`.)
///
/// # Safety
/// A context is current; `desc` is valid for the call: its handle live and of its type, its
/// size the memory object's.
#[inline]
pub(crate) unsafe fn import_memory(
    desc: &sys::CUDA_EXTERNAL_MEMORY_HANDLE_DESC,
) -> Result<sys::CUexternalMemory> {
    let mut raw = std::ptr::null_mut();
    // SAFETY: the caller's promise; `raw` is a valid out-pointer.
    check("cuImportExternalMemory", unsafe {
        sys::cuImportExternalMemory(&mut raw, desc)
    })?;
    Ok(raw)
}
