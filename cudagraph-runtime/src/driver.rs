//! Turning driver results into [`Error`]s, and opening a device without panicking.

use std::sync::Arc;

use cudarc::driver::{sys, CudaContext, DriverError};

use crate::error::{Error, Result};

/// `Ok(())` for `CUDA_SUCCESS`, else [`Error::Driver`] naming `call`.
#[inline]
pub(crate) fn check(call: &'static str, result: sys::CUresult) -> Result<()> {
    match result {
        sys::CUresult::CUDA_SUCCESS => Ok(()),
        code => Err(Error::Driver {
            call,
            source: DriverError(code),
        }),
    }
}

/// Whether the CUDA driver library can be loaded on this machine.
pub fn driver_present() -> bool {
    // SAFETY: only tries to open the library; it is not kept open.
    unsafe { sys::is_culib_present() }
}

/// Opens device `ordinal`'s primary context.
///
/// Unlike cudarc's `CudaContext::new`, a machine without a CUDA driver gives [`Error::NoDriver`]
/// rather than a panic, and one without that device gives [`Error::NoDevice`].
pub fn open_device(ordinal: usize) -> Result<Arc<CudaContext>> {
    if !driver_present() {
        return Err(Error::NoDriver);
    }
    CudaContext::new(ordinal).map_err(|source| Error::NoDevice { ordinal, source })
}

/// Adds a node of any kind through the generic `cuGraphAddNode` (no edge data), returning the
/// call's name and result, as node adders do.
///
/// # Safety
/// `graph` is live, `deps` are its nodes, and `params` is valid for its `type_`.
pub(crate) unsafe fn add_node(
    out: &mut sys::CUgraphNode,
    graph: sys::CUgraph,
    deps: &[sys::CUgraphNode],
    params: &mut sys::CUgraphNodeParams,
) -> (&'static str, sys::CUresult) {
    // SAFETY: the caller's promise.
    #[cfg(feature = "cuda-12020")]
    let result = unsafe { sys::cuGraphAddNode(out, graph, deps.as_ptr(), deps.len(), params) };
    // SAFETY: the caller's promise; null edge data means default edges.
    #[cfg(not(feature = "cuda-12020"))]
    let result = unsafe {
        sys::cuGraphAddNode_v2(
            out,
            graph,
            deps.as_ptr(),
            std::ptr::null(),
            deps.len(),
            params,
        )
    };
    ("cuGraphAddNode", result)
}
