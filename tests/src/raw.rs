//! Raw driver calls that add graph nodes the runtime would refuse: what the GPU witnesses build
//! to show how the driver itself treats a program that a rule of ours rules out.

use std::sync::Arc;

use cudagraph_runtime::cudarc::driver::{sys, CudaStream};
use cudagraph_runtime::Graph;

/// A kernel node's raw parameters: `func` launched with `config`, its arguments at `args` (one
/// pointer per kernel parameter), in `ctx` (null: the current context).
pub fn kernel_node_params(
    func: sys::CUfunction,
    config: &cudagraph_runtime::LaunchConfig,
    args: *mut *mut std::ffi::c_void,
    ctx: sys::CUcontext,
) -> sys::CUDA_KERNEL_NODE_PARAMS {
    sys::CUDA_KERNEL_NODE_PARAMS {
        func,
        gridDimX: config.grid_dim.0,
        gridDimY: config.grid_dim.1,
        gridDimZ: config.grid_dim.2,
        blockDimX: config.block_dim.0,
        blockDimY: config.block_dim.1,
        blockDimZ: config.block_dim.2,
        sharedMemBytes: config.shared_mem_bytes,
        kernelParams: args,
        extra: std::ptr::null_mut(),
        kern: std::ptr::null_mut(),
        ctx,
    }
}

/// Adds a 1-D memset of `n` 4-byte words at `dst` to `graph` after `deps`, with the raw call:
/// the node, or the driver's refusal.
pub fn memset_u32(
    graph: &Graph<'_>,
    deps: &[sys::CUgraphNode],
    dst: sys::CUdeviceptr,
    n: usize,
    value: u32,
) -> Result<sys::CUgraphNode, sys::CUresult> {
    let p = sys::CUDA_MEMSET_NODE_PARAMS {
        dst,
        pitch: 0,
        value,
        elementSize: 4,
        width: n,
        height: 1,
    };
    let mut node = std::ptr::null_mut();
    // SAFETY: a live graph, its nodes, and a valid parameter block; the driver copies it.
    let r = unsafe {
        sys::cuGraphAddMemsetNode(
            &mut node,
            graph.raw(),
            deps.as_ptr(),
            deps.len(),
            &p,
            graph.context().cu_ctx(),
        )
    };
    match r {
        sys::CUresult::CUDA_SUCCESS => Ok(node),
        e => Err(e),
    }
}

/// Adds a free node of `addr` to `graph` after `deps`, with the raw call.
pub fn free(
    graph: &Graph<'_>,
    deps: &[sys::CUgraphNode],
    addr: sys::CUdeviceptr,
) -> Result<sys::CUgraphNode, sys::CUresult> {
    let mut node = std::ptr::null_mut();
    // SAFETY: a live graph and its nodes; the driver validates the address.
    let r = unsafe {
        sys::cuGraphAddMemFreeNode(&mut node, graph.raw(), deps.as_ptr(), deps.len(), addr)
    };
    match r {
        sys::CUresult::CUDA_SUCCESS => Ok(node),
        e => Err(e),
    }
}

/// Adds a launch of `add_u32(n, k, y)` (`y[i] += k`, from the tests' kernels) to `graph` after
/// `deps`, with the raw call: a kernel argument is an address the driver cannot check.
pub fn add_u32(
    graph: &Graph<'_>,
    deps: &[sys::CUgraphNode],
    kernel: &cudagraph_runtime::Kernel<crate::AddU32Args>,
    y: sys::CUdeviceptr,
    n: u32,
    k: u32,
) -> Result<sys::CUgraphNode, sys::CUresult> {
    let (mut n_arg, mut k_arg, mut y_arg) = (n, k, y);
    let mut args: [*mut std::ffi::c_void; 3] = [
        (&mut n_arg as *mut u32).cast(),
        (&mut k_arg as *mut u32).cast(),
        (&mut y_arg as *mut u64).cast(),
    ];
    let config = cudagraph_runtime::LaunchConfig {
        grid_dim: (n.div_ceil(256), 1, 1),
        block_dim: (256, 1, 1),
        shared_mem_bytes: 0,
    };
    let p = kernel_node_params(
        kernel.cu_function(),
        &config,
        args.as_mut_ptr(),
        std::ptr::null_mut(),
    );
    let mut node = std::ptr::null_mut();
    // SAFETY: a live graph and its nodes; `p` and the arguments it points to are valid for the
    // call (the driver copies them), and match `add_u32(unsigned, unsigned, unsigned*)`.
    let r = unsafe {
        sys::cuGraphAddKernelNode_v2(&mut node, graph.raw(), deps.as_ptr(), deps.len(), &p)
    };
    match r {
        sys::CUresult::CUDA_SUCCESS => Ok(node),
        e => Err(e),
    }
}

/// Adds a conditional node of type `ty` with one body to the raw graph `graph` of context `ctx`,
/// after `deps`, on a handle made for it that is reset to `default` at each launch; returns the
/// handle and the body graph (which the node owns). Panics naming a call the driver refused.
///
/// # Safety
/// `graph` is a live graph of the live context `ctx`, and `deps` are nodes of it.
pub unsafe fn add_conditional(
    graph: sys::CUgraph,
    ctx: sys::CUcontext,
    deps: &[sys::CUgraphNode],
    ty: sys::CUgraphConditionalNodeType,
    default: u32,
) -> (sys::CUgraphConditionalHandle, sys::CUgraph) {
    use crate::bench::ok;
    let mut handle = 0;
    // SAFETY: a live graph of `ctx` (the caller's promise) and a valid out-pointer.
    ok("cuGraphConditionalHandleCreate", unsafe {
        sys::cuGraphConditionalHandleCreate(
            &mut handle,
            graph,
            ctx,
            default,
            sys::CU_GRAPH_COND_ASSIGN_DEFAULT,
        )
    });
    // SAFETY: all zeros is the documented "unset" value of every field of this C struct.
    let mut p: sys::CUgraphNodeParams = unsafe { std::mem::zeroed() };
    p.type_ = sys::CUgraphNodeType::CU_GRAPH_NODE_TYPE_CONDITIONAL;
    p.__bindgen_anon_1.conditional = sys::CUDA_CONDITIONAL_NODE_PARAMS {
        handle,
        type_: ty,
        size: 1,
        phGraph_out: std::ptr::null_mut(),
        ctx,
    };
    let mut node = std::ptr::null_mut();
    // SAFETY: a live graph and its nodes (the caller's promise); `p` is a conditional node's
    // parameters; no edge data.
    ok("cuGraphAddNode", unsafe {
        sys::cuGraphAddNode_v2(
            &mut node,
            graph,
            deps.as_ptr(),
            std::ptr::null(),
            deps.len(),
            &mut p,
        )
    });
    // SAFETY: the member written above; the driver filled in the body array it owns (one graph).
    let body = unsafe { *p.__bindgen_anon_1.conditional.phGraph_out };
    (handle, body)
}

/// Instantiates `graph` and launches it on `stream`, all of which the driver must take, and
/// asserts that the launch faults (`CUDA_ERROR_ILLEGAL_ADDRESS` from the stream's synchronize):
/// what a witness shows of a node the runtime refuses. `what` names the fault's cause. The
/// context is lost then: the executable is leaked, and so should be everything of the context
/// that would make driver calls when dropped.
#[track_caller]
pub fn assert_launch_faults(graph: Graph<'_>, stream: &Arc<CudaStream>, what: &str) {
    let mut exec = graph
        .instantiate()
        .expect("the driver refused to instantiate");
    exec.launch(stream).expect("the driver refused the launch");
    let fault = stream
        .synchronize()
        .expect_err(&format!("{what} did not fault"));
    assert_eq!(fault.0, sys::CUresult::CUDA_ERROR_ILLEGAL_ADDRESS);
    eprintln!("the launch faulted: {fault}");
    std::mem::forget(exec);
}
