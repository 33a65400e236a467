use super::*;

/// `cuGraphMemcpyNodeGetParams`.
///
/// # Safety
/// `node` is a live memcpy node.
pub(crate) unsafe fn memcpy(node: sys::CUgraphNode) -> Result<sys::CUDA_MEMCPY3D> {
    // Not zeroed: its memory-type fields are enums without a zero value.
    let mut copy = std::mem::MaybeUninit::<sys::CUDA_MEMCPY3D>::uninit();
    // SAFETY: the caller's promise; `copy` is a valid out-pointer.
    check("cuGraphMemcpyNodeGetParams", unsafe {
        sys::cuGraphMemcpyNodeGetParams(node, copy.as_mut_ptr())
    })?;
    // SAFETY: the driver filled every field.
    Ok(unsafe { copy.assume_init() })
}

/// `cuGraphMemsetNodeGetParams`.
///
/// # Safety
/// `node` is a live memset node.
pub(crate) unsafe fn memset(node: sys::CUgraphNode) -> Result<sys::CUDA_MEMSET_NODE_PARAMS> {
    // SAFETY: a plain C struct for which all zeros is valid.
    let mut set: sys::CUDA_MEMSET_NODE_PARAMS = unsafe { std::mem::zeroed() };
    // SAFETY: the caller's promise; `set` is a valid out-pointer.
    check("cuGraphMemsetNodeGetParams", unsafe {
        sys::cuGraphMemsetNodeGetParams(node, &mut set)
    })?;
    Ok(set)
}

/// `cuGraphMemAllocNodeGetParams`: the allocation's address and size.
///
/// # Safety
/// `node` is a live alloc node.
pub(crate) unsafe fn alloc(node: sys::CUgraphNode) -> Result<(sys::CUdeviceptr, usize)> {
    // Not zeroed: it holds enums without a zero value.
    let mut params = std::mem::MaybeUninit::<sys::CUDA_MEM_ALLOC_NODE_PARAMS>::uninit();
    // SAFETY: the caller's promise; `params` is a valid out-pointer.
    check("cuGraphMemAllocNodeGetParams", unsafe {
        sys::cuGraphMemAllocNodeGetParams(node, params.as_mut_ptr())
    })?;
    // SAFETY: the driver filled every field.
    let params = unsafe { params.assume_init() };
    Ok((params.dptr, params.bytesize))
}

/// `cuGraphMemFreeNodeGetParams`: the address the node frees.
///
/// # Safety
/// `node` is a live free node.
pub(crate) unsafe fn freed(node: sys::CUgraphNode) -> Result<sys::CUdeviceptr> {
    let mut dptr: sys::CUdeviceptr = 0;
    // SAFETY: the caller's promise; `dptr` is a valid out-pointer.
    check("cuGraphMemFreeNodeGetParams", unsafe {
        sys::cuGraphMemFreeNodeGetParams(node, &mut dptr)
    })?;
    Ok(dptr)
}

/// `cuGraphEventRecordNodeGetEvent` (`record`) or `cuGraphEventWaitNodeGetEvent`: the event
/// an event node records or waits for.
///
/// # Safety
/// `node` is a live event-record node (`record`) or event-wait node.
#[cfg(feature = "nccl")] // copies of captured collectives (`capture::bare`)
pub(crate) unsafe fn event(node: sys::CUgraphNode, record: bool) -> Result<sys::CUevent> {
    let mut event = std::ptr::null_mut();
    if record {
        // SAFETY: the caller's promise; `event` is a valid out-pointer.
        check("cuGraphEventRecordNodeGetEvent", unsafe {
            sys::cuGraphEventRecordNodeGetEvent(node, &mut event)
        })?;
    } else {
        // SAFETY: as above.
        check("cuGraphEventWaitNodeGetEvent", unsafe {
            sys::cuGraphEventWaitNodeGetEvent(node, &mut event)
        })?;
    }
    Ok(event)
}
