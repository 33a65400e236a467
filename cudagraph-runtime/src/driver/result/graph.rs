use super::*;

/// `cuGraphCreate`: a new, empty graph, owned by the caller.
#[inline]
pub(crate) fn create() -> Result<sys::CUgraph> {
    let mut raw = std::ptr::null_mut();
    // SAFETY: `raw` is a valid out-pointer; flags must be 0.
    check("cuGraphCreate", unsafe { sys::cuGraphCreate(&mut raw, 0) })?;
    Ok(raw)
}

/// `cuGraphDestroy`: destroys `graph` with its nodes.
///
/// # Safety
/// `graph` is a live graph that nothing uses afterwards (executables made from it hold their own
/// copies).
#[inline]
pub(crate) unsafe fn destroy(graph: sys::CUgraph) -> Result<()> {
    // SAFETY: the caller's promise.
    check("cuGraphDestroy", unsafe { sys::cuGraphDestroy(graph) })
}

/// `cuGraphDestroyNode`: removes `node` and its edges from its graph.
///
/// # Safety
/// `node` is a live node of a graph without memory nodes, used by nothing afterwards.
#[inline]
pub(crate) unsafe fn destroy_node(node: sys::CUgraphNode) -> Result<()> {
    // SAFETY: the caller's promise.
    check("cuGraphDestroyNode", unsafe {
        sys::cuGraphDestroyNode(node)
    })
}

/// `cuGraphConditionalHandleCreate`: a handle for conditional nodes of `graph`, reset to
/// `default` at each launch when given.
///
/// # Safety
/// `graph` is live and `ctx` is its context.
#[cfg(not(feature = "cuda-12020"))]
#[inline]
pub(crate) unsafe fn conditional_handle(
    graph: sys::CUgraph,
    ctx: sys::CUcontext,
    default: Option<u32>,
) -> Result<sys::CUgraphConditionalHandle> {
    crate::version::CONDITIONAL_HANDLE.require()?;
    let mut handle = 0;
    let flags = if default.is_some() {
        sys::CU_GRAPH_COND_ASSIGN_DEFAULT
    } else {
        0
    };
    // SAFETY: the caller's promise; `handle` is a valid out-pointer.
    check("cuGraphConditionalHandleCreate", unsafe {
        sys::cuGraphConditionalHandleCreate(&mut handle, graph, ctx, default.unwrap_or(0), flags)
    })?;
    Ok(handle)
}

/// `cuGraphClone`: a copy of `graph`, owned by the caller.
///
/// # Safety
/// `graph` is live.
#[inline]
pub(crate) unsafe fn clone(graph: sys::CUgraph) -> Result<sys::CUgraph> {
    let mut raw = std::ptr::null_mut();
    // SAFETY: the caller's promise; `raw` is a valid out-pointer.
    check("cuGraphClone", unsafe {
        sys::cuGraphClone(&mut raw, graph)
    })?;
    Ok(raw)
}

/// `cuGraphNodeFindInClone`: the node of `clone` that is `original`'s copy.
///
/// # Safety
/// `clone` is live and was cloned from the graph of `original`, a live node.
#[inline]
pub(crate) unsafe fn find_in_clone(
    original: sys::CUgraphNode,
    clone: sys::CUgraph,
) -> Result<sys::CUgraphNode> {
    let mut found = std::ptr::null_mut();
    // SAFETY: the caller's promise; `found` is a valid out-pointer.
    check("cuGraphNodeFindInClone", unsafe {
        sys::cuGraphNodeFindInClone(&mut found, original, clone)
    })?;
    Ok(found)
}

/// `cuGraphGetNodes`, twice: the count, then the nodes.
///
/// # Safety
/// `graph` is live.
pub(crate) unsafe fn nodes(graph: sys::CUgraph) -> Result<Vec<sys::CUgraphNode>> {
    let mut count = 0usize;
    // SAFETY: the caller's promise; a null array asks for the count only.
    check("cuGraphGetNodes", unsafe {
        sys::cuGraphGetNodes(graph, std::ptr::null_mut(), &mut count)
    })?;
    if count == 0 {
        // An empty graph (a capture that recorded nothing, such as a one-rank NCCL
        // collective in place): the driver refuses a second call with an empty array.
        return Ok(Vec::new());
    }
    let mut nodes = vec![std::ptr::null_mut(); count];
    // SAFETY: the caller's promise; `nodes` has room for `count` nodes, and the driver
    // writes at most that many (and says how many in `count`).
    check("cuGraphGetNodes", unsafe {
        sys::cuGraphGetNodes(graph, nodes.as_mut_ptr(), &mut count)
    })?;
    nodes.truncate(count);
    Ok(nodes)
}

/// `cuGraphNodeGetType`, as the raw `CUgraphNodeType` value: read as an integer, so that a
/// node type newer than these bindings (a newer driver) is no invalid enum value.
///
/// # Safety
/// `node` is a node of a live graph.
#[inline]
pub(crate) unsafe fn node_type(node: sys::CUgraphNode) -> Result<u32> {
    let mut kind: u32 = sys::CUgraphNodeType::CU_GRAPH_NODE_TYPE_EMPTY as u32;
    // SAFETY: the caller's promise; `kind` is a valid out-pointer for a C enum, which is
    // an `unsigned int` (`CUgraphNodeType` is `repr(u32)`).
    check("cuGraphNodeGetType", unsafe {
        sys::cuGraphNodeGetType(node, (&mut kind as *mut u32).cast())
    })?;
    Ok(kind)
}

/// `cuGraphChildGraphNodeGetGraph`: the graph a child-graph node embeds (the node owns it).
///
/// # Safety
/// `node` is a child-graph node of a live graph.
pub(crate) unsafe fn child_graph(node: sys::CUgraphNode) -> Result<sys::CUgraph> {
    let mut graph = std::ptr::null_mut();
    // SAFETY: the caller's promise; `graph` is a valid out-pointer.
    check("cuGraphChildGraphNodeGetGraph", unsafe {
        sys::cuGraphChildGraphNodeGetGraph(node, &mut graph)
    })?;
    Ok(graph)
}

/// `cuGraphNodeGetDependencies`, twice: the count, then the nodes `node` depends on through
/// edges that order memory (full completion of the dependency: port 0, the default type), and
/// whether any edge was left out. An edge with data (programmatic or launch-order, as a capture
/// of a programmatic launch records) is left out: it orders launches only, so the memory checks
/// built on these lists must not count it.
///
/// # Safety
/// `node` is a node of a live graph.
pub(crate) unsafe fn dependencies(node: sys::CUgraphNode) -> Result<(Vec<sys::CUgraphNode>, bool)> {
    let mut count = 0usize;
    // SAFETY: the caller's promise; a null array asks for the count only.
    #[cfg(feature = "cuda-12020")]
    let counted =
        unsafe { sys::cuGraphNodeGetDependencies(node, std::ptr::null_mut(), &mut count) };
    // SAFETY: as above.
    #[cfg(not(feature = "cuda-12020"))]
    let counted = unsafe {
        sys::cuGraphNodeGetDependencies_v2(
            node,
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            &mut count,
        )
    };
    check("cuGraphNodeGetDependencies", counted)?;
    if count == 0 {
        // A root: nothing to list (and the driver refuses a second call with no room).
        return Ok((Vec::new(), false));
    }
    let mut deps = vec![std::ptr::null_mut(); count];
    // SAFETY: the caller's promise; `deps` has room for `count` nodes, and the driver writes
    // at most that many (and says how many in `count`).
    #[cfg(feature = "cuda-12020")]
    let listed = unsafe { sys::cuGraphNodeGetDependencies(node, deps.as_mut_ptr(), &mut count) };
    // The edge data is asked for too: without it the driver refuses to list an edge that
    // carries any (`CUDA_ERROR_LOSSY_QUERY`), and captured edges may (programmatic launches).
    #[cfg(not(feature = "cuda-12020"))]
    let mut edges: Vec<sys::CUgraphEdgeData> = vec![
        // SAFETY: plain integers; all zeros is the default edge.
        unsafe { std::mem::zeroed() };
        count
    ];
    // SAFETY: as above; `edges` has room for `count` entries too.
    #[cfg(not(feature = "cuda-12020"))]
    let listed = unsafe {
        sys::cuGraphNodeGetDependencies_v2(node, deps.as_mut_ptr(), edges.as_mut_ptr(), &mut count)
    };
    check("cuGraphNodeGetDependencies", listed)?;
    deps.truncate(count);
    #[cfg(not(feature = "cuda-12020"))]
    {
        let mut data = edges.iter();
        deps.retain(|_| {
            data.next().is_some_and(|e| {
                e.from_port as u32 == sys::CU_GRAPH_KERNEL_NODE_PORT_DEFAULT
                    && e.type_ == sys::CUgraphDependencyType::CU_GRAPH_DEPENDENCY_TYPE_DEFAULT as u8
            })
        });
    }
    let unlisted = deps.len() < count;
    Ok((deps, unlisted))
}

/// `cuGraphAddDependencies_v2` for one edge `from -> to` carrying `data` (its ports and
/// type: a programmatic or launch-order edge between kernel nodes).
///
/// # Safety
/// `graph` is live and `from` and `to` are its nodes.
#[cfg(not(feature = "cuda-12020"))]
#[inline]
pub(crate) unsafe fn add_dependency(
    graph: sys::CUgraph,
    from: sys::CUgraphNode,
    to: sys::CUgraphNode,
    data: &sys::CUgraphEdgeData,
) -> Result<()> {
    crate::version::EDGE_DATA.require()?;
    // SAFETY: the caller's promise; one edge: one `from`, one `to`, one edge datum.
    check("cuGraphAddDependencies", unsafe {
        sys::cuGraphAddDependencies_v2(graph, &from, &to, data, 1)
    })
}

/// `cuGraphRetainUserObject`: with `moved`, the caller's reference to `object` becomes the
/// graph's (`CU_GRAPH_USER_OBJECT_MOVE`); without, the graph takes a new reference.
///
/// # Safety
/// `graph` is live; the caller holds a reference to `object`, and with `moved` gives it up on
/// success.
#[inline]
pub(crate) unsafe fn retain_user_object(
    graph: sys::CUgraph,
    object: sys::CUuserObject,
    moved: bool,
) -> Result<()> {
    let flags = if moved {
        sys::CUuserObjectRetain_flags::CU_GRAPH_USER_OBJECT_MOVE as u32
    } else {
        0
    };
    // SAFETY: the caller's promise.
    check("cuGraphRetainUserObject", unsafe {
        sys::cuGraphRetainUserObject(graph, object, 1, flags)
    })
}

/// Adds a node of any kind through the generic `cuGraphAddNode` (`cuGraphAddNode_v2` with no
/// edge data from CUDA 12.3 on), after `deps`. The driver may write results into `params`
/// (an alloc node's address).
///
/// # Safety
/// `graph` is live, `deps` are its nodes, and `params` is valid for its `type_`, with every
/// pointer in it valid for the call.
#[inline]
pub(crate) unsafe fn add_node(
    graph: sys::CUgraph,
    deps: &[sys::CUgraphNode],
    params: &mut sys::CUgraphNodeParams,
) -> Result<sys::CUgraphNode> {
    // SAFETY: the caller's promise: `params` is valid for its type.
    unsafe { crate::version::check_add_node(params) }?;
    if params.type_ == sys::CUgraphNodeType::CU_GRAPH_NODE_TYPE_KERNEL {
        // SAFETY: the union's member for its type (the caller's promise).
        super::super::make_current(unsafe { params.__bindgen_anon_1.kernel.ctx })?;
    }
    let mut node = std::ptr::null_mut();
    // SAFETY: the caller's promise; `node` is a valid out-pointer.
    #[cfg(feature = "cuda-12020")]
    let result =
        unsafe { sys::cuGraphAddNode(&mut node, graph, deps.as_ptr(), deps.len(), params) };
    // SAFETY: the caller's promise; null edge data means default edges.
    #[cfg(not(feature = "cuda-12020"))]
    let result = unsafe {
        sys::cuGraphAddNode_v2(
            &mut node,
            graph,
            deps.as_ptr(),
            std::ptr::null(),
            deps.len(),
            params,
        )
    };
    check("cuGraphAddNode", result)?;
    Ok(node)
}

/// Adds a kernel node (`cuGraphAddKernelNode`) after `deps`: the per-kind call, measured
/// faster than the generic one on the rebuild path.
///
/// # Safety
/// `graph` is live, `deps` are its nodes, and `params` (with the argument array it points
/// to) is valid for the call.
#[inline]
pub(crate) unsafe fn add_kernel_node(
    graph: sys::CUgraph,
    deps: &[sys::CUgraphNode],
    params: &sys::CUDA_KERNEL_NODE_PARAMS_v2,
) -> Result<sys::CUgraphNode> {
    super::super::make_current(params.ctx)?;
    let mut node = std::ptr::null_mut();
    // SAFETY: the caller's promise; `node` is a valid out-pointer, and the driver copies the
    // arguments.
    let result = unsafe {
        sys::cuGraphAddKernelNode_v2(&mut node, graph, deps.as_ptr(), deps.len(), params)
    };
    check("cuGraphAddKernelNode", result)?;
    Ok(node)
}

/// `cuGraphKernelNodeGetParams` (v2): a kernel node's parameters. The argument array and the
/// values it points to belong to the node: valid until the node is changed or destroyed.
///
/// # Safety
/// `node` is a live kernel node.
pub(crate) unsafe fn kernel_node_params(
    node: sys::CUgraphNode,
) -> Result<sys::CUDA_KERNEL_NODE_PARAMS_v2> {
    // SAFETY: all-zero is a valid value of this plain C struct (null pointers, zero sizes).
    let mut params: sys::CUDA_KERNEL_NODE_PARAMS_v2 = unsafe { std::mem::zeroed() };
    // SAFETY: the caller's promise; `params` is a valid out-pointer.
    check("cuGraphKernelNodeGetParams", unsafe {
        sys::cuGraphKernelNodeGetParams_v2(node, &mut params)
    })?;
    Ok(params)
}

/// `cuGraphKernelNodeCopyAttributes`: gives kernel node `dst` the launch attributes of kernel
/// node `src` (cluster shape, memory synchronization domain, priority and the others).
///
/// # Safety
/// `dst` and `src` are live kernel nodes of one context.
#[cfg(feature = "nccl")] // copies of captured collectives (`capture::bare`)
pub(crate) unsafe fn copy_kernel_attributes(
    dst: sys::CUgraphNode,
    src: sys::CUgraphNode,
) -> Result<()> {
    // SAFETY: the caller's promise.
    check("cuGraphKernelNodeCopyAttributes", unsafe {
        sys::cuGraphKernelNodeCopyAttributes(dst, src)
    })
}

/// `cuGraphKernelNodeSetParams` (v2): changes a kernel node of a definition graph.
///
/// # Safety
/// `node` is a live kernel node; `params` and the argument array it points to are valid for
/// the call (the driver copies the arguments).
#[inline]
pub(crate) unsafe fn kernel_node_set_params(
    node: sys::CUgraphNode,
    params: &sys::CUDA_KERNEL_NODE_PARAMS_v2,
) -> Result<()> {
    super::super::make_current(params.ctx)?;
    // SAFETY: the caller's promise.
    check("cuGraphKernelNodeSetParams", unsafe {
        sys::cuGraphKernelNodeSetParams_v2(node, params)
    })
}
