use super::*;

/// `cuGraphInstantiateWithParams`: an executable of `graph`, owned by the caller. On failure
/// the driver may name the node it blames in `params.hErrNode_out`. (cudarc's `instantiate`
/// calls `cuGraphInstantiateWithFlags`, which takes no upload stream and blames no node.)
///
/// # Safety
/// `graph` is live; the context it belongs to is current; `params.hUploadStream` is null or
/// a live stream.
#[inline]
pub(crate) unsafe fn instantiate(
    graph: sys::CUgraph,
    params: &mut sys::CUDA_GRAPH_INSTANTIATE_PARAMS,
) -> Result<sys::CUgraphExec> {
    let mut raw = std::ptr::null_mut();
    // SAFETY: the caller's promise; `raw` is a valid out-pointer.
    check("cuGraphInstantiateWithParams", unsafe {
        sys::cuGraphInstantiateWithParams(&mut raw, graph, params)
    })?;
    Ok(raw)
}

/// `CUgraphExecUpdateResultInfo` with the result code as a plain integer, so a code newer
/// than our bindings is no invalid enum.
#[repr(C)]
#[derive(Debug)]
pub(crate) struct UpdateResultInfo {
    /// The `CUgraphExecUpdateResult`.
    pub(crate) result: u32,
    /// The node of the source graph the driver blamed, if any.
    pub(crate) error_node: sys::CUgraphNode,
    /// The executable's node paired with it, if any.
    pub(crate) error_from_node: sys::CUgraphNode,
}
const _: () = assert!(
    std::mem::size_of::<UpdateResultInfo>()
        == std::mem::size_of::<sys::CUgraphExecUpdateResultInfo>()
);

/// `cuGraphExecUpdate`: every node's parameters from `graph`. On refusal, the driver's
/// verdict is in `info`.
///
/// # Safety
/// `exec` and `graph` are live.
#[inline]
pub(crate) unsafe fn update(
    exec: sys::CUgraphExec,
    graph: sys::CUgraph,
    info: &mut UpdateResultInfo,
) -> Result<()> {
    // SAFETY: the caller's promise; `info` has the layout of `CUgraphExecUpdateResultInfo`
    // (checked above), with the result as a plain integer.
    check("cuGraphExecUpdate", unsafe {
        sys::cuGraphExecUpdate_v2(exec, graph, (info as *mut UpdateResultInfo).cast())
    })
}

/// `cuGraphExecKernelNodeSetParams` (v2).
///
/// # Safety
/// `exec` is live; `node` is a kernel node of its graph; `params` and the argument array it
/// points to are valid for the call (the driver copies the arguments).
#[inline]
pub(crate) unsafe fn kernel_node_set_params(
    exec: sys::CUgraphExec,
    node: sys::CUgraphNode,
    params: &sys::CUDA_KERNEL_NODE_PARAMS,
) -> Result<()> {
    super::super::make_current(params.ctx)?;
    // SAFETY: the caller's promise.
    check("cuGraphExecKernelNodeSetParams", unsafe {
        sys::cuGraphExecKernelNodeSetParams_v2(exec, node, params)
    })
}

/// `cuGraphExecMemcpyNodeSetParams`.
///
/// # Safety
/// `exec` and `ctx` are live; `node` is a memcpy node of its graph; `params` describes a copy
/// of the node's direction and memory types.
#[inline]
pub(crate) unsafe fn memcpy_node_set_params(
    exec: sys::CUgraphExec,
    node: sys::CUgraphNode,
    params: &sys::CUDA_MEMCPY3D,
    ctx: sys::CUcontext,
) -> Result<()> {
    // SAFETY: the caller's promise.
    check("cuGraphExecMemcpyNodeSetParams", unsafe {
        sys::cuGraphExecMemcpyNodeSetParams(exec, node, params, ctx)
    })
}

/// `cuGraphExecMemsetNodeSetParams`.
///
/// # Safety
/// `exec` and `ctx` are live; `node` is a memset node of its graph; `params` is a memset of
/// device memory.
#[inline]
pub(crate) unsafe fn memset_node_set_params(
    exec: sys::CUgraphExec,
    node: sys::CUgraphNode,
    params: &sys::CUDA_MEMSET_NODE_PARAMS,
    ctx: sys::CUcontext,
) -> Result<()> {
    // SAFETY: the caller's promise.
    check("cuGraphExecMemsetNodeSetParams", unsafe {
        sys::cuGraphExecMemsetNodeSetParams(exec, node, params, ctx)
    })
}

/// `cuGraphExecHostNodeSetParams`.
///
/// # Safety
/// `exec` is live; `node` is a host node of its graph; what `params.userData` points to lives
/// as long as a launch may call `params.fn_` with it.
#[inline]
pub(crate) unsafe fn host_node_set_params(
    exec: sys::CUgraphExec,
    node: sys::CUgraphNode,
    params: &sys::CUDA_HOST_NODE_PARAMS,
) -> Result<()> {
    // SAFETY: the caller's promise.
    check("cuGraphExecHostNodeSetParams", unsafe {
        sys::cuGraphExecHostNodeSetParams(exec, node, params)
    })
}

/// `cuGraphExecChildGraphNodeSetParams`.
///
/// # Safety
/// `exec` and `child` are live; `node` is a child-graph node of the executable's graph.
#[inline]
pub(crate) unsafe fn child_graph_node_set_params(
    exec: sys::CUgraphExec,
    node: sys::CUgraphNode,
    child: sys::CUgraph,
) -> Result<()> {
    // SAFETY: the caller's promise.
    check("cuGraphExecChildGraphNodeSetParams", unsafe {
        sys::cuGraphExecChildGraphNodeSetParams(exec, node, child)
    })
}

/// `cuGraphExecEventRecordNodeSetEvent` or, for a wait node, `...EventWaitNodeSetEvent`.
///
/// # Safety
/// `exec` and `event` are live; `node` is an event record (`record`) or wait node of the
/// executable's graph.
#[inline]
pub(crate) unsafe fn event_node_set_event(
    exec: sys::CUgraphExec,
    node: sys::CUgraphNode,
    event: sys::CUevent,
    record: bool,
) -> Result<()> {
    if record {
        // SAFETY: the caller's promise.
        check("cuGraphExecEventRecordNodeSetEvent", unsafe {
            sys::cuGraphExecEventRecordNodeSetEvent(exec, node, event)
        })
    } else {
        // SAFETY: the caller's promise.
        check("cuGraphExecEventWaitNodeSetEvent", unsafe {
            sys::cuGraphExecEventWaitNodeSetEvent(exec, node, event)
        })
    }
}

/// `cuGraphExecExternalSemaphoresSignalNodeSetParams` or, for a wait node
/// (`signal` false), `...WaitNodeSetParams`: the node's `count` semaphores `sems` and their
/// parameters `params` (`CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS` or `..._WAIT_PARAMS`).
///
/// # Safety
/// `exec` is live; `node` is a semaphore signal (`signal`) or wait node of its graph with
/// `count` semaphores; `sems` and `params` hold `count` live semaphores and their parameters
/// of the node's direction.
#[inline]
pub(crate) unsafe fn semaphores_node_set_params(
    exec: sys::CUgraphExec,
    node: sys::CUgraphNode,
    sems: *mut sys::CUexternalSemaphore,
    params: *const std::ffi::c_void,
    count: u32,
    signal: bool,
) -> Result<()> {
    if signal {
        let p = sys::CUDA_EXT_SEM_SIGNAL_NODE_PARAMS {
            extSemArray: sems,
            paramsArray: params.cast(),
            numExtSems: count,
        };
        // SAFETY: the caller's promise; the driver copies `p` and the arrays.
        check("cuGraphExecExternalSemaphoresSignalNodeSetParams", unsafe {
            sys::cuGraphExecExternalSemaphoresSignalNodeSetParams(exec, node, &p)
        })
    } else {
        let p = sys::CUDA_EXT_SEM_WAIT_NODE_PARAMS {
            extSemArray: sems,
            paramsArray: params.cast(),
            numExtSems: count,
        };
        // SAFETY: as above.
        check("cuGraphExecExternalSemaphoresWaitNodeSetParams", unsafe {
            sys::cuGraphExecExternalSemaphoresWaitNodeSetParams(exec, node, &p)
        })
    }
}

/// `cuGraphNodeSetEnabled`.
///
/// # Safety
/// `exec` is live and `node` is a node of its graph.
#[inline]
pub(crate) unsafe fn node_set_enabled(
    exec: sys::CUgraphExec,
    node: sys::CUgraphNode,
    enabled: bool,
) -> Result<()> {
    // SAFETY: the caller's promise.
    check("cuGraphNodeSetEnabled", unsafe {
        sys::cuGraphNodeSetEnabled(exec, node, enabled as u32)
    })
}

/// `cuGraphNodeGetEnabled`.
///
/// # Safety
/// `exec` is live and `node` is a node of its graph.
#[inline]
pub(crate) unsafe fn node_get_enabled(
    exec: sys::CUgraphExec,
    node: sys::CUgraphNode,
) -> Result<bool> {
    let mut on = 0u32;
    // SAFETY: the caller's promise; `on` is a valid out-pointer.
    check("cuGraphNodeGetEnabled", unsafe {
        sys::cuGraphNodeGetEnabled(exec, node, &mut on)
    })?;
    Ok(on != 0)
}
