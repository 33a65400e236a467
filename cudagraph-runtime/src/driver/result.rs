//! The driver calls of graphs, executables, their nodes and the memory they use that cudarc's
//! `result` module (0.19) does not wrap, one thin function a call: each makes the raw `sys` call
//! and turns its `CUresult` into this crate's [`Result`], an
//! [`Error::Driver`](crate::Error::Driver) naming the call. Callers that know the node a call was
//! about name it with [`Error::at_node`](crate::Error::at_node).
//!
//! The calls cudarc wraps are made through cudarc's functions, named with
//! [`named`](super::named) where they are made. Six functions here make a call cudarc has as
//! well, each because cudarc's would lose something, said where it stands ("cudarc's ...").
//!
//! The functions take raw handles, so most are `unsafe`: their `# Safety` sections say what the
//! handles must be, and every caller says why they are.

use cudarc::driver::sys;

use super::{check, named};
use crate::error::Result;

/// Definition graphs and their nodes.
pub(crate) mod graph {
    use super::*;

    /// `cuGraphCreate`: a new, empty graph, owned by the caller.
    #[inline]
    pub(crate) fn create() -> Result<sys::CUgraph> {
        let mut raw = std::ptr::null_mut();
        // SAFETY: `raw` is a valid out-pointer; flags must be 0.
        check("cuGraphCreate", unsafe { sys::cuGraphCreate(&mut raw, 0) })?;
        Ok(raw)
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
            sys::cuGraphConditionalHandleCreate(
                &mut handle,
                graph,
                ctx,
                default.unwrap_or(0),
                flags,
            )
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
    /// edges that order memory (full completion of the dependency: port 0, the default type).
    /// An edge with data (programmatic or launch-order, as a capture of a programmatic launch
    /// records) is left out: it orders launches only, so the memory checks built on these lists
    /// must not count it.
    ///
    /// # Safety
    /// `node` is a node of a live graph.
    pub(crate) unsafe fn dependencies(node: sys::CUgraphNode) -> Result<Vec<sys::CUgraphNode>> {
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
            return Ok(Vec::new());
        }
        let mut deps = vec![std::ptr::null_mut(); count];
        // SAFETY: the caller's promise; `deps` has room for `count` nodes, and the driver writes
        // at most that many (and says how many in `count`).
        #[cfg(feature = "cuda-12020")]
        let listed =
            unsafe { sys::cuGraphNodeGetDependencies(node, deps.as_mut_ptr(), &mut count) };
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
            sys::cuGraphNodeGetDependencies_v2(
                node,
                deps.as_mut_ptr(),
                edges.as_mut_ptr(),
                &mut count,
            )
        };
        check("cuGraphNodeGetDependencies", listed)?;
        deps.truncate(count);
        #[cfg(not(feature = "cuda-12020"))]
        {
            let mut data = edges.iter();
            deps.retain(|_| {
                data.next().is_some_and(|e| {
                    e.from_port as u32 == sys::CU_GRAPH_KERNEL_NODE_PORT_DEFAULT
                        && e.type_
                            == sys::CUgraphDependencyType::CU_GRAPH_DEPENDENCY_TYPE_DEFAULT as u8
                })
            });
        }
        Ok(deps)
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
        let mut node = std::ptr::null_mut();
        // SAFETY: the caller's promise; `node` is a valid out-pointer, and the driver copies the
        // arguments.
        let result = unsafe {
            sys::cuGraphAddKernelNode_v2(&mut node, graph, deps.as_ptr(), deps.len(), params)
        };
        check("cuGraphAddKernelNode", result)?;
        Ok(node)
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
        // SAFETY: the caller's promise.
        check("cuGraphKernelNodeSetParams", unsafe {
            sys::cuGraphKernelNodeSetParams_v2(node, params)
        })
    }
}

/// Executable graphs: instantiation, launch, updates.
pub(crate) mod exec {
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
}

/// Stream capture.
pub(crate) mod stream {
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
}

/// Work enqueued on a stream by this crate's capture calls (recorded as nodes when the stream is
/// being captured).
pub(crate) mod enqueue {
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
}

/// The parameters of nodes a capture recorded, read back to check what memory they touch.
pub(crate) mod recorded {
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
}

/// Copies and the device's graph memory pool.
pub(crate) mod memory {
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
}

/// Semaphores and memory of other APIs (Vulkan, D3D12), imported into CUDA. (Mapping imported
/// memory and destroying it are cudarc's calls, `result::external_memory`.)
pub(crate) mod interop {
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
}

/// Memory this crate allocates itself (the blocks of indirect values, `crate::indirect`).
pub(crate) mod alloc {
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
}

/// Modules this crate loads itself (the fetch kernel of `crate::indirect`).
pub(crate) mod module {
    use super::*;

    /// `cuModuleLoadData` of the NUL-terminated PTX text `ptx`, then `cuModuleGetFunction` of
    /// `name`: the module (which the caller owns) and the function. cudarc's calls, with the
    /// unload on failure that they leave to the caller.
    ///
    /// # Safety
    /// A context is current on this thread.
    pub(crate) unsafe fn load_ptx(
        ptx: &std::ffi::CStr,
        name: &std::ffi::CStr,
    ) -> Result<(sys::CUmodule, sys::CUfunction)> {
        use cudarc::driver::result::module;
        // SAFETY: the caller's promise; `ptx` is a NUL-terminated image the driver reads during
        // the call.
        let module = named("cuModuleLoadData", unsafe {
            module::load_data(ptx.as_ptr().cast())
        })?;
        // SAFETY: `module` was just loaded; `name` is NUL-terminated.
        let found = named("cuModuleGetFunction", unsafe {
            module::get_function(module, name.to_owned())
        });
        if found.is_err() {
            // SAFETY: the module is ours and nothing uses it.
            let _ = unsafe { module::unload(module) };
        }
        Ok((module, found?))
    }
}

/// User objects.
pub(crate) mod user_object {
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
}

/// Memory of one device reached from another (the copies of `crate::memory::peer`).
pub(crate) mod peer {
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
    pub(crate) unsafe fn enable_peer_access(
        ctx: sys::CUcontext,
        peer: sys::CUcontext,
    ) -> Result<()> {
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
}
