//! The CUDA version of the loaded driver, and the graph APIs that need a newer one than the
//! oldest driver this crate runs on.
//!
//! The driver is loaded at run time, so the CUDA version this crate was built against (its
//! binding, chosen by a `cuda-*` feature) says which functions it may call, not which ones the
//! machine's driver has. A call the driver is too old for would panic in the binding (a missing
//! symbol) or fail with a bare `CUDA_ERROR_INVALID_VALUE` (a node type it does not know). Each
//! such call is checked first against [`driver_version`] and refused with
//! [`Error::DriverTooOld`], which names the API and the version it needs.
//!
//! | API | needs |
//! | --- | --- |
//! | `cuGraphAddNode` (every node, with the `cuda-12020` binding) | CUDA 12.2 |
//! | `cuGraphAddNode_v2` (every node, with newer bindings) | CUDA 12.3 |
//! | conditional nodes IF (one body) and WHILE, `cuGraphConditionalHandleCreate` | CUDA 12.3 |
//! | conditional nodes IF/ELSE (two bodies) and SWITCH | CUDA 12.8 |
//! | stream capture (`cuStreamGetCaptureInfo_v3` and its `_v2`/`_v3` kin, newer bindings) | CUDA 12.3 |
//! | `cuStreamBeginCaptureToGraph` (capture into a graph or a body) | CUDA 12.3 |
//! | programmatic and launch-order edges (`CUgraphEdgeData`, `cuGraphAddDependencies_v2`) | CUDA 12.3 |
//! | `cuGraphDebugDotPrint` with [`DotFlags::CONDITIONAL_NODE_PARAMS`](crate::DotFlags) | CUDA 12.3 |
//!
//! The default binding is CUDA 13.0, whose calls all exist in a CUDA 12.3 driver; the GPU
//! machine's driver (580) is CUDA 13.0.

use std::sync::atomic::{AtomicU32, Ordering};

use cudarc::driver::{sys, DriverError};

use crate::driver::driver_present;
use crate::error::{Error, Result};

/// A graph API and the oldest driver that has it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Api {
    /// What it is, as an error names it.
    pub(crate) name: &'static str,
    /// The CUDA version (major, minor) it appeared in.
    pub(crate) since: (u32, u32),
}

impl Api {
    /// `Ok` when the loaded driver has this API, else [`Error::DriverTooOld`].
    #[inline]
    pub(crate) fn require(self) -> Result<()> {
        check(self, driver_version()?)
    }
}

/// Adding any node (`cuGraphAddNode`, `_v2` from the CUDA 12.3 binding on).
#[cfg(feature = "cuda-12020")]
pub(crate) const ADD_NODE: Api = Api {
    name: "cuGraphAddNode",
    since: (12, 2),
};
/// Adding any node (`cuGraphAddNode`, `_v2` from the CUDA 12.3 binding on).
#[cfg(not(feature = "cuda-12020"))]
pub(crate) const ADD_NODE: Api = Api {
    name: "cuGraphAddNode_v2",
    since: (12, 3),
};
/// Conditional handles.
#[cfg(not(feature = "cuda-12020"))]
pub(crate) const CONDITIONAL_HANDLE: Api = Api {
    name: "cuGraphConditionalHandleCreate",
    since: (12, 3),
};
/// Conditional nodes with one body: IF and WHILE.
#[cfg(not(feature = "cuda-12020"))]
pub(crate) const CONDITIONAL_NODE: Api = Api {
    name: "conditional nodes (CU_GRAPH_NODE_TYPE_CONDITIONAL)",
    since: (12, 3),
};
/// IF with two bodies.
#[cfg(not(feature = "cuda-12020"))]
pub(crate) const IF_ELSE_NODE: Api = Api {
    name: "IF/ELSE conditional nodes (CU_GRAPH_COND_TYPE_IF with two bodies)",
    since: (12, 8),
};
/// SWITCH.
#[cfg(not(feature = "cuda-12020"))]
pub(crate) const SWITCH_NODE: Api = Api {
    name: "SWITCH conditional nodes (CU_GRAPH_COND_TYPE_SWITCH)",
    since: (12, 8),
};
/// What a capture calls besides its begin and end: `cuStreamGetCaptureInfo_v3`,
/// `cuStreamUpdateCaptureDependencies_v2`, `cuGraphNodeGetDependencies_v2` (their older forms
/// with the `cuda-12020` binding).
#[cfg(not(feature = "cuda-12020"))]
pub(crate) const CAPTURE: Api = Api {
    name: "stream capture (cuStreamGetCaptureInfo_v3)",
    since: (12, 3),
};
/// What a capture calls besides its begin and end (`cuStreamGetCaptureInfo_v2` and kin).
#[cfg(feature = "cuda-12020")]
pub(crate) const CAPTURE: Api = Api {
    name: "stream capture (cuStreamGetCaptureInfo_v2)",
    since: (11, 3),
};
/// Capture into an existing graph.
#[cfg(not(feature = "cuda-12020"))]
pub(crate) const BEGIN_CAPTURE_TO_GRAPH: Api = Api {
    name: "cuStreamBeginCaptureToGraph",
    since: (12, 3),
};
/// Edges with data (`CUgraphEdgeData`): programmatic and launch-order edges between kernel
/// nodes, added with `cuGraphAddDependencies_v2`.
#[cfg(not(feature = "cuda-12020"))]
pub(crate) const EDGE_DATA: Api = Api {
    name: "edges with data (cuGraphAddDependencies_v2: programmatic and launch-order edges)",
    since: (12, 3),
};
/// The DOT export's conditional-node parameters.
pub(crate) const DOT_CONDITIONAL_PARAMS: Api = Api {
    name: "cuGraphDebugDotPrint with CU_GRAPH_DEBUG_DOT_FLAGS_CONDITIONAL_NODE_PARAMS",
    since: (12, 3),
};

/// `Ok` when a driver of CUDA version `found` has `api`, else [`Error::DriverTooOld`].
pub(crate) fn check(api: Api, found: (u32, u32)) -> Result<()> {
    if found >= api.since {
        return Ok(());
    }
    Err(Error::DriverTooOld {
        api: api.name,
        needed: api.since,
        found,
    })
}

/// The gate of `cuGraphAddNode`: the call itself, and for a conditional node its type.
///
/// # Safety
/// `params.type_` says which member of its union is written.
#[inline]
pub(crate) unsafe fn check_add_node(params: &sys::CUgraphNodeParams) -> Result<()> {
    let found = driver_version()?;
    check(ADD_NODE, found)?;
    #[cfg(not(feature = "cuda-12020"))]
    if params.type_ == sys::CUgraphNodeType::CU_GRAPH_NODE_TYPE_CONDITIONAL {
        // SAFETY: the caller's promise: a conditional node's parameters are in `conditional`.
        let cond = unsafe { params.__bindgen_anon_1.conditional };
        check(conditional_api(cond.type_, cond.size), found)?;
    }
    #[cfg(feature = "cuda-12020")]
    let _ = params;
    Ok(())
}

/// What a conditional node of type `kind` with `size` bodies needs.
#[cfg(not(feature = "cuda-12020"))]
fn conditional_api(kind: sys::CUgraphConditionalNodeType, size: u32) -> Api {
    use sys::CUgraphConditionalNodeType as T;
    match kind {
        T::CU_GRAPH_COND_TYPE_IF if size > 1 => IF_ELSE_NODE,
        T::CU_GRAPH_COND_TYPE_IF | T::CU_GRAPH_COND_TYPE_WHILE => CONDITIONAL_NODE,
        #[allow(unreachable_patterns)]
        _ => SWITCH_NODE,
    }
}

/// The driver's version as `cuDriverGetVersion` gives it (`1000 * major + 10 * minor`), once
/// asked; 0 before.
static DRIVER_VERSION: AtomicU32 = AtomicU32::new(0);

/// The CUDA version of the loaded driver, `(major, minor)`: `(13, 0)` for a CUDA 13.0 driver
/// (the 580 series), from `cuDriverGetVersion`. This is the newest CUDA the driver supports,
/// not the version this crate was built against ([`binding_version`]).
///
/// [`Error::NoDriver`] when no CUDA driver can be loaded. The answer is kept after the first
/// call: the driver cannot change under a running program.
pub fn driver_version() -> Result<(u32, u32)> {
    let known = DRIVER_VERSION.load(Ordering::Relaxed);
    if known != 0 {
        return Ok(split(known));
    }
    if !driver_present() {
        return Err(Error::NoDriver);
    }
    let mut raw: std::ffi::c_int = 0;
    // SAFETY: `raw` is a valid out-pointer; the call needs no initialisation nor context.
    match unsafe { sys::cuDriverGetVersion(&mut raw) } {
        sys::CUresult::CUDA_SUCCESS => {}
        code => {
            return Err(Error::Driver {
                call: "cuDriverGetVersion",
                source: DriverError(code),
            })
        }
    }
    let raw = u32::try_from(raw).unwrap_or(0);
    DRIVER_VERSION.store(raw, Ordering::Relaxed);
    Ok(split(raw))
}

/// `1000 * major + 10 * minor` as `(major, minor)`.
pub(crate) const fn split(raw: u32) -> (u32, u32) {
    (raw / 1000, raw % 1000 / 10)
}

/// The CUDA version whose driver API this build binds (the `cuda-*` feature of
/// `cudagraph-runtime`): `(13, 0)` by default. The driver may be newer ([`driver_version`]);
/// an older one refuses the calls it lacks with [`Error::DriverTooOld`].
pub const fn binding_version() -> (u32, u32) {
    if cfg!(feature = "cuda-12020") {
        (12, 2)
    } else if cfg!(feature = "cuda-12030") {
        (12, 3)
    } else if cfg!(feature = "cuda-12040") {
        (12, 4)
    } else if cfg!(feature = "cuda-12050") {
        (12, 5)
    } else if cfg!(feature = "cuda-12060") {
        (12, 6)
    } else if cfg!(feature = "cuda-12080") {
        (12, 8)
    } else if cfg!(feature = "cuda-12090") {
        (12, 9)
    } else if cfg!(feature = "cuda-13010") {
        (13, 1)
    } else if cfg!(feature = "cuda-13020") {
        (13, 2)
    } else {
        (13, 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_split_as_cuda_writes_them() {
        assert_eq!(split(13000), (13, 0));
        assert_eq!(split(12080), (12, 8));
        assert_eq!(split(12030), (12, 3));
        assert_eq!(split(11040), (11, 4));
    }

    #[test]
    fn a_driver_at_or_above_the_version_passes() {
        let api = Api {
            name: "cuSomething",
            since: (12, 3),
        };
        assert!(check(api, (12, 3)).is_ok());
        assert!(check(api, (12, 4)).is_ok());
        assert!(check(api, (13, 0)).is_ok());
    }

    #[test]
    fn an_older_driver_is_refused_naming_the_api_and_both_versions() {
        let api = Api {
            name: "cuSomething",
            since: (12, 8),
        };
        let err = check(api, (12, 4)).unwrap_err();
        assert!(
            matches!(
                err,
                Error::DriverTooOld {
                    api: "cuSomething",
                    needed: (12, 8),
                    found: (12, 4)
                }
            ),
            "{err:?}"
        );
        let text = err.to_string();
        assert!(text.contains("cuSomething"), "{text}");
        assert!(text.contains("CUDA 12.8"), "{text}");
        assert!(text.contains("CUDA 12.4"), "{text}");
        // Minor versions compare as numbers, not as digits.
        assert!(check(api, (12, 10)).is_ok());
        assert!(check(api, (11, 9)).is_err());
    }

    /// The GPU machine's driver (580, CUDA 13.0) has every API this crate calls with its default
    /// binding.
    #[test]
    fn a_cuda_13_0_driver_has_every_gated_api() {
        let all = [
            ADD_NODE,
            CAPTURE,
            DOT_CONDITIONAL_PARAMS,
            #[cfg(not(feature = "cuda-12020"))]
            CONDITIONAL_HANDLE,
            #[cfg(not(feature = "cuda-12020"))]
            CONDITIONAL_NODE,
            #[cfg(not(feature = "cuda-12020"))]
            IF_ELSE_NODE,
            #[cfg(not(feature = "cuda-12020"))]
            SWITCH_NODE,
            #[cfg(not(feature = "cuda-12020"))]
            BEGIN_CAPTURE_TO_GRAPH,
            #[cfg(not(feature = "cuda-12020"))]
            EDGE_DATA,
        ];
        for api in all {
            assert!(check(api, (13, 0)).is_ok(), "{api:?}");
            assert!(api.since <= (13, 0), "{api:?}");
        }
    }

    /// A CUDA 12.4 driver gets IF and WHILE nodes but not IF/ELSE nor SWITCH, which CUDA 12.8
    /// added.
    #[cfg(not(feature = "cuda-12020"))]
    #[test]
    fn conditional_node_types_are_gated_by_their_own_version() {
        use sys::CUgraphConditionalNodeType as T;
        let driver = (12, 4);
        assert!(check(conditional_api(T::CU_GRAPH_COND_TYPE_IF, 1), driver).is_ok());
        assert!(check(conditional_api(T::CU_GRAPH_COND_TYPE_WHILE, 1), driver).is_ok());
        let if_else = check(conditional_api(T::CU_GRAPH_COND_TYPE_IF, 2), driver).unwrap_err();
        assert!(if_else.to_string().contains("IF/ELSE"), "{if_else}");
        #[cfg(not(any(
            feature = "cuda-12030",
            feature = "cuda-12040",
            feature = "cuda-12050",
            feature = "cuda-12060"
        )))]
        {
            let switch = check(conditional_api(T::CU_GRAPH_COND_TYPE_SWITCH, 3), driver);
            assert!(switch.unwrap_err().to_string().contains("SWITCH"));
        }
        // A CUDA 12.2 driver has no conditional node at all, nor the node-adding call.
        assert!(check(conditional_api(T::CU_GRAPH_COND_TYPE_IF, 1), (12, 2)).is_err());
        assert!(check(ADD_NODE, (12, 2)).is_err());
    }

    #[test]
    fn the_default_binding_is_cuda_13_0() {
        if cfg!(feature = "cuda-13000") {
            assert_eq!(binding_version(), (13, 0));
        }
    }
}
