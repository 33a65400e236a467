use super::*;

/// `cuDeviceCanAccessPeer`: whether device `dev` can access memory of device `peer`
/// directly.
#[inline]
pub(crate) fn can_access(dev: sys::CUdevice, peer: sys::CUdevice) -> Result<bool> {
    let mut can = 0;
    // SAFETY: `can` is a valid out-pointer; device handles are plain numbers, an invalid one
    // is an error.
    check("cuDeviceCanAccessPeer", unsafe {
        sys::cuDeviceCanAccessPeer(&mut can, dev, peer)
    })?;
    Ok(can != 0)
}

/// `cuPointerGetAttribute` of `attribute`, whose value is a `T`, for address `ptr`.
///
/// # Safety
/// `T` is the type the driver writes for `attribute` (`c_int` for a device ordinal, a
/// handle for a pool or a context).
#[inline]
unsafe fn attribute<T: Copy>(
    attribute: sys::CUpointer_attribute,
    ptr: sys::CUdeviceptr,
    zero: T,
) -> Result<T> {
    let mut value = zero;
    // SAFETY: `value` is valid for the attribute's type (the caller's promise); any address
    // may be asked about (an unknown one is an error).
    check("cuPointerGetAttribute", unsafe {
        sys::cuPointerGetAttribute((&mut value as *mut T).cast(), attribute, ptr)
    })?;
    Ok(value)
}

/// The ordinal of the device whose memory `ptr` is, for device memory that is not managed
/// (`cuPointerGetAttributes` of its memory type, whether it is managed, and its device);
/// `None` for host memory, managed memory, and addresses the driver does not know.
#[inline]
pub(crate) fn device_of(ptr: sys::CUdeviceptr) -> Result<Option<i32>> {
    use sys::CUpointer_attribute::*;
    // The C enum as its integer (the driver writes 0, no variant, for an unknown address).
    let mut memory_type = 0u32;
    // A boolean the driver may write as `bool` or as `unsigned int`: zeroed, any bit set
    // means managed.
    let mut managed = 0u64;
    let mut ordinal = -1i32;
    let mut attributes = [
        CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
        CU_POINTER_ATTRIBUTE_IS_MANAGED,
        CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL,
    ];
    let mut data: [*mut std::ffi::c_void; 3] = [
        (&mut memory_type as *mut u32).cast(),
        (&mut managed as *mut u64).cast(),
        (&mut ordinal as *mut i32).cast(),
    ];
    // SAFETY: three attributes, each with room for the value the driver writes; any address
    // may be asked about (an unknown one leaves the values zero, and is no error).
    check("cuPointerGetAttributes", unsafe {
        sys::cuPointerGetAttributes(3, attributes.as_mut_ptr(), data.as_mut_ptr(), ptr)
    })?;
    let device = sys::CUmemorytype::CU_MEMORYTYPE_DEVICE as u32;
    Ok((memory_type == device && managed == 0 && ordinal >= 0).then_some(ordinal))
}

/// The memory pool `ptr` was allocated from (`CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE`): null for
/// memory not allocated from a pool.
#[inline]
pub(crate) fn pool_of(ptr: sys::CUdeviceptr) -> Result<sys::CUmemoryPool> {
    // SAFETY: the attribute is a pool handle.
    unsafe {
        attribute(
            sys::CUpointer_attribute::CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE,
            ptr,
            std::ptr::null_mut(),
        )
    }
}

/// The context `ptr` was allocated in (`CU_POINTER_ATTRIBUTE_CONTEXT`).
#[inline]
pub(crate) fn context_of(ptr: sys::CUdeviceptr) -> Result<sys::CUcontext> {
    // SAFETY: the attribute is a context handle.
    unsafe {
        attribute(
            sys::CUpointer_attribute::CU_POINTER_ATTRIBUTE_CONTEXT,
            ptr,
            std::ptr::null_mut(),
        )
    }
}

/// `cuMemPoolGetAccess`: whether `location` may read and write the memory of `pool`.
///
/// # Safety
/// `pool` is a live memory pool.
#[inline]
pub(crate) unsafe fn pool_read_write(
    pool: sys::CUmemoryPool,
    mut location: sys::CUmemLocation,
) -> Result<bool> {
    // The C enum as its integer, whatever the driver writes.
    let mut flags = 0u32;
    // SAFETY: the caller's promise; `flags` has the enum's size (a C enum, `repr(u32)` in
    // cudarc's binding) and `location` is valid.
    check("cuMemPoolGetAccess", unsafe {
        sys::cuMemPoolGetAccess(
            (&mut flags as *mut u32).cast::<sys::CUmemAccess_flags>(),
            pool,
            &mut location,
        )
    })?;
    Ok(flags == sys::CUmemAccess_flags::CU_MEM_ACCESS_FLAGS_PROT_READWRITE as u32)
}

/// `cuMemGetAccess`: whether `location` may read and write the memory mapped at `ptr` (memory
/// of the virtual memory management calls, `cuMemMap`).
#[inline]
pub(crate) fn mapped_read_write(
    ptr: sys::CUdeviceptr,
    location: sys::CUmemLocation,
) -> Result<bool> {
    let mut flags = 0u64;
    // SAFETY: `flags` and `location` are valid for the call; any address may be asked about
    // (one not mapped is an error).
    check("cuMemGetAccess", unsafe {
        sys::cuMemGetAccess(&mut flags, &location, ptr)
    })?;
    Ok(flags == sys::CUmemAccess_flags::CU_MEM_ACCESS_FLAGS_PROT_READWRITE as u64)
}

/// `cuMemPoolSetAccess` of one descriptor: `location` may read and write every allocation
/// of `pool`, those made so far and later ones.
///
/// # Safety
/// `pool` is a live memory pool.
#[inline]
pub(crate) unsafe fn grant_pool_access(
    pool: sys::CUmemoryPool,
    location: sys::CUmemLocation,
) -> Result<()> {
    let desc = sys::CUmemAccessDesc {
        location,
        flags: sys::CUmemAccess_flags::CU_MEM_ACCESS_FLAGS_PROT_READWRITE,
    };
    // SAFETY: the caller's promise; one valid descriptor.
    check("cuMemPoolSetAccess", unsafe {
        sys::cuMemPoolSetAccess(pool, &desc, 1)
    })
}

/// `cuCtxEnablePeerAccess` from `ctx` (current on this thread for the call) to `peer`: `ctx`
/// may then access the memory `peer` allocates with `cuMemAlloc`. Already enabled is
/// success.
///
/// # Safety
/// `ctx` and `peer` are live contexts.
#[inline]
pub(crate) unsafe fn enable_peer_access(ctx: sys::CUcontext, peer: sys::CUcontext) -> Result<()> {
    // SAFETY: the caller's promise; the context pushed here is popped below.
    check("cuCtxPushCurrent", unsafe { sys::cuCtxPushCurrent_v2(ctx) })?;
    // SAFETY: the caller's promise; flags must be 0.
    let enabled = unsafe { sys::cuCtxEnablePeerAccess(peer, 0) };
    let mut popped = std::ptr::null_mut();
    // SAFETY: pops the context pushed above; `popped` is a valid out-pointer.
    let pop = check("cuCtxPopCurrent", unsafe {
        sys::cuCtxPopCurrent_v2(&mut popped)
    });
    if enabled == sys::CUresult::CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED {
        return pop;
    }
    check("cuCtxEnablePeerAccess", enabled).and(pop)
}
