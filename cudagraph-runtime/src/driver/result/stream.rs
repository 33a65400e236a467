use super::*;

/// `cuStreamBeginCaptureToGraph` in `mode`: work enqueued on `stream` becomes nodes of
/// `graph`, the first ones after `deps` (CUDA 12.3 or newer).
///
/// # Safety
/// `stream` is live and its context is current on this thread; `graph` is live and `deps` are
/// its nodes; nothing else uses `graph` until the capture ends.
#[cfg(not(feature = "cuda-12020"))]
#[inline]
pub(crate) unsafe fn begin_capture_to_graph(
    stream: sys::CUstream,
    graph: sys::CUgraph,
    deps: &[sys::CUgraphNode],
    mode: sys::CUstreamCaptureMode,
) -> Result<()> {
    crate::version::BEGIN_CAPTURE_TO_GRAPH.require()?;
    // SAFETY: the caller's promise; null edge data means default edges.
    check("cuStreamBeginCaptureToGraph", unsafe {
        sys::cuStreamBeginCaptureToGraph(
            stream,
            graph,
            deps.as_ptr(),
            std::ptr::null(),
            deps.len(),
            mode,
        )
    })
}

/// `cuStreamGetCaptureInfo`: whether `stream` is being captured (`None` when not), and if so
/// the capture's unique id and whether it is still valid (`false` once invalidated).
///
/// # Safety
/// `stream` is live.
#[inline]
pub(crate) unsafe fn capture_info(stream: sys::CUstream) -> Result<Option<(u64, bool)>> {
    let mut status = sys::CUstreamCaptureStatus::CU_STREAM_CAPTURE_STATUS_NONE;
    let mut id: sys::cuuint64_t = 0;
    use std::ptr::null_mut;
    // SAFETY: the caller's promise; `status` and `id` are valid out-pointers, and the graph,
    // dependency and edge outputs are optional (null: not asked for).
    #[cfg(feature = "cuda-12020")]
    let got = unsafe {
        sys::cuStreamGetCaptureInfo_v2(
            stream,
            &mut status,
            &mut id,
            null_mut(),
            null_mut(),
            null_mut(),
        )
    };
    // SAFETY: as above.
    #[cfg(not(feature = "cuda-12020"))]
    let got = unsafe {
        sys::cuStreamGetCaptureInfo_v3(
            stream,
            &mut status,
            &mut id,
            null_mut(),
            null_mut(),
            null_mut(),
            null_mut(),
        )
    };
    check("cuStreamGetCaptureInfo", got)?;
    Ok(match status {
        sys::CUstreamCaptureStatus::CU_STREAM_CAPTURE_STATUS_NONE => None,
        sys::CUstreamCaptureStatus::CU_STREAM_CAPTURE_STATUS_ACTIVE => Some((id, true)),
        _ => Some((id, false)),
    })
}

/// What a capture under way on `stream` has recorded so far: the graph it records into, and
/// the nodes the next work enqueued on `stream` will depend on (`cuStreamGetCaptureInfo`).
/// `None` when `stream` is not being captured (or its capture was invalidated).
///
/// # Safety
/// `stream` is live.
pub(crate) unsafe fn capture_state(
    stream: sys::CUstream,
) -> Result<Option<(sys::CUgraph, Vec<sys::CUgraphNode>)>> {
    let mut status = sys::CUstreamCaptureStatus::CU_STREAM_CAPTURE_STATUS_NONE;
    let mut id: sys::cuuint64_t = 0;
    let mut graph = std::ptr::null_mut();
    let mut deps: *const sys::CUgraphNode = std::ptr::null();
    let mut count = 0usize;
    #[cfg(not(feature = "cuda-12020"))]
    use std::ptr::null_mut;
    // SAFETY: the caller's promise; every out-pointer is valid, edge data not asked for.
    #[cfg(feature = "cuda-12020")]
    let got = unsafe {
        sys::cuStreamGetCaptureInfo_v2(
            stream,
            &mut status,
            &mut id,
            &mut graph,
            &mut deps,
            &mut count,
        )
    };
    // SAFETY: as above.
    #[cfg(not(feature = "cuda-12020"))]
    let got = unsafe {
        sys::cuStreamGetCaptureInfo_v3(
            stream,
            &mut status,
            &mut id,
            &mut graph,
            &mut deps,
            null_mut(),
            &mut count,
        )
    };
    check("cuStreamGetCaptureInfo", got)?;
    if status != sys::CUstreamCaptureStatus::CU_STREAM_CAPTURE_STATUS_ACTIVE {
        return Ok(None);
    }
    let deps = if deps.is_null() || count == 0 {
        Vec::new()
    } else {
        // SAFETY: the driver's array of `count` nodes, valid until the next call about the
        // stream; copied at once.
        unsafe { std::slice::from_raw_parts(deps, count) }.to_vec()
    };
    Ok(Some((graph, deps)))
}

/// `cuStreamUpdateCaptureDependencies`: the next work enqueued on `stream` (being captured)
/// depends on `deps` instead of what it depended on.
///
/// # Safety
/// `stream` is live and being captured; `deps` are nodes of the graph it records into.
pub(crate) unsafe fn set_capture_dependencies(
    stream: sys::CUstream,
    deps: &[sys::CUgraphNode],
) -> Result<()> {
    let mut deps = deps.to_vec();
    let flags = sys::CUstreamUpdateCaptureDependencies_flags::CU_STREAM_SET_CAPTURE_DEPENDENCIES
        as std::ffi::c_uint;
    // SAFETY: the caller's promise; `deps` is a valid array (the driver does not keep it).
    #[cfg(feature = "cuda-12020")]
    let set = unsafe {
        sys::cuStreamUpdateCaptureDependencies(stream, deps.as_mut_ptr(), deps.len(), flags)
    };
    // SAFETY: as above; null edge data means default edges.
    #[cfg(not(feature = "cuda-12020"))]
    let set = unsafe {
        sys::cuStreamUpdateCaptureDependencies_v2(
            stream,
            deps.as_mut_ptr(),
            std::ptr::null(),
            deps.len(),
            flags,
        )
    };
    check("cuStreamUpdateCaptureDependencies", set)
}

/// `cuStreamEndCapture`: the captured graph (null when none was made) and the call's
/// outcome. A graph the driver made belongs to the caller, also when the call failed.
/// (cudarc's `end_capture` returns no graph when the call fails: it would leak.)
///
/// # Safety
/// A capture begun on `stream` by this thread is under way.
#[inline]
pub(crate) unsafe fn end_capture(stream: sys::CUstream) -> (sys::CUgraph, Result<()>) {
    let mut graph = std::ptr::null_mut();
    // SAFETY: the caller's promise; `graph` is a valid out-pointer.
    let ended = check("cuStreamEndCapture", unsafe {
        sys::cuStreamEndCapture(stream, &mut graph)
    });
    (graph, ended)
}
