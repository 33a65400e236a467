//! The bench's raw side: NCCL communicators and symmetric buffers made and called without the
//! crate, relaxed capture for NCCL's calls, and the node kinds of a captured graph.

use super::*;

/// Raw NCCL communicators (one per device), destroyed once the rank threads are done.
pub(super) struct RawComms(pub(super) Vec<nccl_sys::ncclComm_t>);

impl RawComms {
    /// One communicator for each of the first `n` devices (`ncclCommInitAll`).
    pub(super) fn init_all(n: usize) -> Self {
        let mut raw = RawComms(vec![std::ptr::null_mut(); n]);
        let devices: Vec<i32> = (0..n as i32).collect();
        // SAFETY: room for `n` communicators; devices `0..n` exist (opened by the caller).
        unsafe { nccl::comm_init_all(raw.0.as_mut_ptr(), n as i32, devices.as_ptr()) }
            .expect("ncclCommInitAll (raw)");
        raw
    }
}

impl Drop for RawComms {
    fn drop(&mut self) {
        for &c in &self.0 {
            // SAFETY: a communicator made by `ncclCommInitAll` above, used no more (the rank
            // threads have ended, and the graphs capturing it are dropped with them).
            let _ = unsafe { nccl::comm_destroy(c) };
        }
    }
}

/// One raw communicator, moved to the thread of its rank (and into its capture closures).
#[derive(Clone, Copy)]
pub(super) struct RawComm(pub(super) nccl_sys::ncclComm_t);

// SAFETY: an NCCL communicator may be used from any thread, one call at a time
// (https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/usage/threadsafety.html): only its
// rank's thread calls it (eagerly, or in a capture closure that runs on that thread), and the
// main thread destroys it after that thread has ended.
unsafe impl Send for RawComm {}

impl RawComm {
    /// `ncclAllReduce` (`op`, in place) of the `count` f32s at `addr`, on `stream`.
    pub(super) fn all_reduce(
        self,
        op: Op,
        addr: u64,
        count: usize,
        stream: sys::CUstream,
    ) -> Result<(), Error> {
        // SAFETY: `addr` holds `count` f32s on this communicator's device, kept alive by the
        // caller until the work is done (the stream is synchronized, or the graph holds the
        // buffer); `stream` is a live stream of that device; only this thread uses the
        // communicator.
        unsafe {
            nccl::all_reduce(
                addr as *const c_void,
                addr as *mut c_void,
                count,
                nccl_sys::ncclDataType_t::ncclFloat32,
                op.raw(),
                self.0,
                stream as _,
            )
        }
        .map(drop)
        .map_err(|e| Error::Nccl {
            call: "ncclAllReduce",
            node: "bench".into(),
            code: format!("{:?}", e.0),
        })
    }
}

/// A buffer of NCCL's symmetric memory for the `sym-eager` side: `count` f32s from
/// `ncclMemAlloc`, registered as a window of a raw communicator by every rank together.
pub(super) struct RawSym {
    pub(super) addr: u64,
    pub(super) count: usize,
    pub(super) window: nccl_sys::ncclWindow_t,
}

/// `NCCL_WIN_COLL_SYMMETRIC` (nccl.h).
pub(super) const WIN_COLL_SYMMETRIC: i32 = 0x01;

impl RawSym {
    /// Allocates and registers it on `comm` (every rank at once: registering waits for all),
    /// holding `init`.
    pub(super) fn new(comm: RawComm, init: &[f32]) -> Result<Self, String> {
        let bytes = init.len() * 4;
        let mut base = std::ptr::null_mut();
        // SAFETY: `base` receives `bytes` bytes on the current device (the rank's).
        let got = unsafe { nccl_sys::ncclMemAlloc(&mut base, bytes) };
        got.result().map_err(|e| format!("ncclMemAlloc: {e:?}"))?;
        let mut window = std::ptr::null_mut();
        // SAFETY: a live communicator of this rank's thread; `base` holds `bytes` bytes.
        let got = unsafe {
            nccl_sys::ncclCommWindowRegister(comm.0, base, bytes, &mut window, WIN_COLL_SYMMETRIC)
        };
        got.result()
            .map_err(|e| format!("ncclCommWindowRegister: {e:?}"))?;
        let sym = Self {
            addr: base as u64,
            count: init.len(),
            window,
        };
        sym.write(init)?;
        Ok(sym)
    }

    pub(super) fn write(&self, data: &[f32]) -> Result<(), String> {
        // SAFETY: `count` f32s of live device memory; no work on it is queued (the caller
        // synchronised its stream).
        unsafe { cudagraph_runtime::cudarc::driver::result::memcpy_htod_sync(self.addr, data) }
            .map_err(text)
    }

    pub(super) fn read(&self) -> Result<Vec<f32>, String> {
        let mut out = vec![0f32; self.count];
        // SAFETY: as `write`.
        unsafe { cudagraph_runtime::cudarc::driver::result::memcpy_dtoh_sync(&mut out, self.addr) }
            .map_err(text)?;
        Ok(out)
    }

    /// Deregisters it (every rank at once) and frees it, once no work uses it.
    pub(super) fn free(self, comm: RawComm) {
        // SAFETY: this rank's window of `comm`, deregistered once; the stream is synchronised.
        unsafe { nccl_sys::ncclCommWindowDeregister(comm.0, self.window) };
        // SAFETY: memory from `ncclMemAlloc`, freed once.
        unsafe { nccl_sys::ncclMemFree(self.addr as *mut c_void) };
    }
}

/// Runs `f` in relaxed stream-capture mode, as the crate runs NCCL's calls in a capture (NCCL
/// may make calls there that a thread-local capture refuses and that record no work).
pub(super) fn relaxed<R>(f: impl FnOnce() -> R) -> R {
    let mut mode = sys::CUstreamCaptureMode::CU_STREAM_CAPTURE_MODE_RELAXED;
    // SAFETY: exchanges this thread's mode with a valid one; restored below.
    let exchanged = unsafe { sys::cuThreadExchangeStreamCaptureMode(&mut mode) };
    let out = f();
    if exchanged == sys::CUresult::CUDA_SUCCESS {
        // SAFETY: puts back the mode read above.
        unsafe { sys::cuThreadExchangeStreamCaptureMode(&mut mode) };
    }
    out
}

/// The node kinds of `graph`, child graphs opened (`child{...}`), in the driver's order.
pub(super) fn structure(graph: sys::CUgraph) -> String {
    let mut n = 0usize;
    // SAFETY: a live graph; a null array asks for the count.
    let counted = unsafe { sys::cuGraphGetNodes(graph, std::ptr::null_mut(), &mut n) };
    if counted != sys::CUresult::CUDA_SUCCESS {
        return format!("<cuGraphGetNodes: {counted:?}>");
    }
    let mut nodes = vec![std::ptr::null_mut(); n];
    // SAFETY: room for `n` nodes.
    unsafe { sys::cuGraphGetNodes(graph, nodes.as_mut_ptr(), &mut n) };
    let kinds: Vec<String> = nodes
        .into_iter()
        .take(n)
        .map(|node| {
            let mut kind = sys::CUgraphNodeType::CU_GRAPH_NODE_TYPE_EMPTY;
            // SAFETY: a node of the live graph.
            unsafe { sys::cuGraphNodeGetType(node, &mut kind) };
            if kind == sys::CUgraphNodeType::CU_GRAPH_NODE_TYPE_GRAPH {
                let mut child = std::ptr::null_mut();
                // SAFETY: a child-graph node; the graph it returns belongs to the node.
                unsafe { sys::cuGraphChildGraphNodeGetGraph(node, &mut child) };
                return format!("child{{{}}}", structure(child));
            }
            format!("{kind:?}")
                .trim_start_matches("CU_GRAPH_NODE_TYPE_")
                .to_lowercase()
        })
        .collect();
    kinds.join(", ")
}
