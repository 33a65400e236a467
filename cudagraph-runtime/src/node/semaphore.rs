//! External semaphore signal and wait nodes: a graph signals semaphores that another API (Vulkan,
//! D3D12) waits on, or waits for semaphores that API signals, on the GPU, with no host thread in
//! between ([external semaphore nodes], [`cuImportExternalSemaphore`]).
//!
//! A node signals or waits on `N` semaphores at once, each with a value (the value a timeline
//! semaphore is set to, or waited for). CUDA lets an update change the semaphores and the values
//! but not how many there are (`cuGraphExecExternalSemaphores{Signal,Wait}NodeSetParams`: "Changing
//! `nodeParams->numExtSems` is not supported"), so `N` is part of the handle's type
//! ([`SemaphoreSignalNode<N>`]): an update of another count does not compile.
//!
//! [external semaphore nodes]: https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__GRAPH.html
//! [`cuImportExternalSemaphore`]: https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__EXTRES__INTEROP.html

use std::mem::ManuallyDrop;
use std::sync::Arc;

use cudarc::driver::{sys, CudaContext};

use super::{node_params, NodeKind, NodeParams, NodeUpdate};
use crate::ambient::refuse_in_host_node;
use crate::driver::{named, record_err, result};
use crate::error::{Error, Result};

handle!(
    /// A node signalling `N` external semaphores (see
    /// [`Graph::add_semaphore_signal`](crate::Graph::add_semaphore_signal)).
    SemaphoreSignalNode<const N: usize>
);
handle!(
    /// A node waiting for `N` external semaphores (see
    /// [`Graph::add_semaphore_wait`](crate::Graph::add_semaphore_wait)).
    SemaphoreWaitNode<const N: usize>
);

/// What the values of an imported semaphore mean.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SemaphoreKind {
    /// Signalled or not (a Vulkan binary semaphore): a signal sets it, a wait waits for it and
    /// resets it. It has no value: nodes give it `0`.
    Binary,
    /// A 64-bit counter that only grows (a Vulkan timeline semaphore, a D3D12 or D3D11 fence): a
    /// signal sets it to the node's value, a wait waits until it reaches the node's value.
    Timeline,
}

/// A semaphore of another API (Vulkan, D3D12), imported into CUDA (`cuImportExternalSemaphore`):
/// what semaphore signal and wait nodes signal and wait on.
///
/// Shared: a clone is the same semaphore, and graphs and executables whose nodes use it keep it
/// imported until their launches are done; the last reference destroys CUDA's import
/// (`cuDestroyExternalSemaphore`), not the other API's semaphore. Compared by identity.
#[derive(Clone)]
pub struct ExternalSemaphore(ManuallyDrop<Arc<Imported>>);

/// CUDA's import of a semaphore.
struct Imported {
    raw: sys::CUexternalSemaphore,
    kind: SemaphoreKind,
    ctx: Arc<CudaContext>,
}

// SAFETY: a driver handle, usable from any thread; it is destroyed once, by the last reference.
unsafe impl Send for Imported {}
// SAFETY: `&Imported` only reads the handle, which the driver calls take by value.
unsafe impl Sync for Imported {}

impl Drop for Imported {
    fn drop(&mut self) {
        record_err(
            &self.ctx,
            named("cuCtxSetCurrent", self.ctx.bind_to_thread()),
        );
        // SAFETY: imported by us, destroyed once (the last reference); the graphs and
        // executables whose launches may use it hold references until those launches are done.
        record_err(&self.ctx, unsafe {
            result::interop::destroy_semaphore(self.raw)
        });
    }
}

impl ExternalSemaphore {
    /// Imports a semaphore that another API exported as a file descriptor: a Vulkan semaphore
    /// exported with `vkGetSemaphoreFdKHR` as `VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT`
    /// (`VK_KHR_external_semaphore_fd`), binary or timeline as `kind` says (the Vulkan
    /// semaphore's `VkSemaphoreTypeCreateInfo`).
    ///
    /// The descriptor is CUDA's once the import succeeds (CUDA's rule: "ownership of the file
    /// descriptor is transferred to the CUDA driver"), so this takes it; when the import fails
    /// it is closed here. Refused ([`Error::InHostNode`]) inside a host node, where CUDA forbids
    /// driver calls.
    #[cfg(unix)]
    pub fn from_fd(
        ctx: &Arc<CudaContext>,
        fd: std::os::fd::OwnedFd,
        kind: SemaphoreKind,
    ) -> Result<Self> {
        use std::os::fd::{AsRawFd, IntoRawFd};
        use sys::CUexternalSemaphoreHandleType::*;
        // SAFETY: a union of an integer and pointers, for which zeros are valid. (The whole
        // description is not zeroed: its handle type is an enum without a zero value.)
        let mut handle: sys::CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC_st__bindgen_ty_1 =
            unsafe { std::mem::zeroed() };
        handle.fd = fd.as_raw_fd();
        let desc = sys::CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC {
            type_: match kind {
                SemaphoreKind::Binary => CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD,
                SemaphoreKind::Timeline => CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD,
            },
            handle,
            flags: 0,
            reserved: [0; 16],
        };
        // SAFETY: `desc` names an open descriptor we own; the driver takes it on success only.
        let imported = unsafe { Self::import(ctx, &desc, kind, "ExternalSemaphore::from_fd") }?;
        // The driver owns the descriptor now: closing it would be undefined behaviour.
        let _ = fd.into_raw_fd();
        Ok(imported)
    }

    /// Imports a semaphore described by a raw handle description: for the handle types
    /// [`ExternalSemaphore::from_fd`] does not take (a D3D12 or D3D11 fence, a Windows handle of a
    /// Vulkan semaphore). NvSciSync objects and D3D11 keyed mutexes are refused
    /// ([`Error::Invalid`]): their signals and waits take other parameters than a value.
    ///
    /// # Safety
    /// `desc` is valid for `cuImportExternalSemaphore` in `ctx`: its handle (or name) is live and
    /// of its type. Where CUDA takes ownership of the handle on success (a file descriptor), the
    /// caller gives it up then, and must not close or use it afterwards.
    pub unsafe fn from_raw(
        ctx: &Arc<CudaContext>,
        desc: &sys::CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC,
    ) -> Result<Self> {
        use sys::CUexternalSemaphoreHandleType::*;
        let kind = match desc.type_ {
            CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD
            | CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_WIN32
            | CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_WIN32_KMT => SemaphoreKind::Binary,
            CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D12_FENCE
            | CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D11_FENCE
            | CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD
            | CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_WIN32 => SemaphoreKind::Timeline,
            other => {
                return Err(Error::Invalid {
                    node: "ExternalSemaphore::from_raw".into(),
                    reason: format!(
                        "{other:?}: semaphore nodes signal and wait with a value; NvSciSync \
                         objects and keyed mutexes take other parameters, which this crate does \
                         not offer"
                    ),
                })
            }
        };
        // SAFETY: the caller's promise.
        unsafe { Self::import(ctx, desc, kind, "ExternalSemaphore::from_raw") }
    }

    /// `cuImportExternalSemaphore` in `ctx`, for the public call `call`: refused
    /// ([`Error::InHostNode`]) inside a host node, where CUDA forbids driver calls (a descriptor
    /// the caller gave is then closed by the caller's drop).
    ///
    /// # Safety
    /// As for [`ExternalSemaphore::from_raw`].
    unsafe fn import(
        ctx: &Arc<CudaContext>,
        desc: &sys::CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC,
        kind: SemaphoreKind,
        call: &'static str,
    ) -> Result<Self> {
        refuse_in_host_node(call)?;
        named("cuCtxSetCurrent", ctx.bind_to_thread())?;
        // SAFETY: the caller's promise; `ctx` is current.
        let raw = unsafe { result::interop::import_semaphore(desc) }?;
        Ok(Self(ManuallyDrop::new(Arc::new(Imported {
            raw,
            kind,
            ctx: ctx.clone(),
        }))))
    }

    /// What its values mean.
    pub fn kind(&self) -> SemaphoreKind {
        self.0.kind
    }

    /// The context it was imported into (its nodes must be in graphs of that context).
    pub fn context(&self) -> &Arc<CudaContext> {
        &self.0.ctx
    }

    /// The raw handle, for calls this crate does not wrap (`cuSignalExternalSemaphoresAsync` on a
    /// stream). Do not destroy it.
    pub fn raw(&self) -> sys::CUexternalSemaphore {
        self.0.raw
    }
}

impl Drop for ExternalSemaphore {
    /// The last reference destroys the import (a driver call): not inside a host node or a
    /// capture closure, where the release thread does it.
    fn drop(&mut self) {
        // Moved, not cloned: with a clone sent to the release thread and this reference dropped
        // here, the release thread may drop its clone first, and this drop would then be the last
        // one, destroying the import inside a host node after all.
        // SAFETY: `self.0` is not used again (this is the value's drop).
        let imported = unsafe { ManuallyDrop::take(&mut self.0) };
        crate::reaper::release(imported);
    }
}

/// Two semaphores are equal when they are the same import.
impl PartialEq for ExternalSemaphore {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}
impl Eq for ExternalSemaphore {}

impl std::fmt::Debug for ExternalSemaphore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ExternalSemaphore({:?}, {:p})", self.0.kind, self.0.raw)
    }
}

/// A semaphore node's parameters: `N` semaphores and a value for each; `SIGNAL` says whether the
/// node signals them or waits for them.
#[derive(Debug)]
pub(crate) struct SemaphoreParams<const SIGNAL: bool, const N: usize> {
    pub(crate) sems: [sys::CUexternalSemaphore; N],
    pub(crate) values: [u64; N],
}

impl<const SIGNAL: bool, const N: usize> SemaphoreParams<SIGNAL, N> {
    /// The parameters of a node of context `ctx` signalling or waiting on `ops`, checked: at
    /// least one semaphore, each imported into `ctx`, and no value for a binary semaphore.
    /// `node` names the node for the errors.
    pub(crate) fn of(
        ops: &[(&ExternalSemaphore, u64); N],
        ctx: sys::CUcontext,
        node: impl FnOnce() -> String,
    ) -> Result<Self> {
        let refuse = |reason: String| {
            Err(Error::Invalid {
                node: node(),
                reason,
            })
        };
        if N == 0 {
            return refuse(
                "a semaphore node signals or waits on at least one semaphore, and this one has \
                 none"
                    .into(),
            );
        }
        for (i, (sem, value)) in ops.iter().enumerate() {
            if sem.0.ctx.cu_ctx() != ctx {
                return refuse(format!(
                    "semaphore {i} was imported into another context than the graph's: import \
                     it into the graph's context"
                ));
            }
            if sem.kind() == SemaphoreKind::Binary && *value != 0 {
                return refuse(format!(
                    "semaphore {i} is binary and has no value (CUDA would ignore {value}): give \
                     it 0, or import a timeline semaphore"
                ));
            }
        }
        Ok(Self {
            sems: ops.map(|(sem, _)| sem.raw()),
            values: ops.map(|(_, value)| value),
        })
    }

    /// Calls `f` with the driver's parameters: the semaphore array, the parameter array (on the
    /// stack, valid during the call) and the count.
    #[inline]
    fn with_arrays<R>(
        &mut self,
        f: impl FnOnce(*mut sys::CUexternalSemaphore, *const std::ffi::c_void, u32) -> R,
    ) -> R {
        let count = N as u32;
        if SIGNAL {
            let params: [sys::CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS; N] =
                std::array::from_fn(|i| {
                    // SAFETY: plain C structs and unions of integers and pointers; zeros are
                    // "no flags, nothing else set".
                    let mut p: sys::CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS =
                        unsafe { std::mem::zeroed() };
                    p.params.fence.value = self.values[i];
                    p
                });
            f(self.sems.as_mut_ptr(), params.as_ptr().cast(), count)
        } else {
            let params: [sys::CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS; N] = std::array::from_fn(|i| {
                // SAFETY: as above.
                let mut p: sys::CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS = unsafe { std::mem::zeroed() };
                p.params.fence.value = self.values[i];
                p
            });
            f(self.sems.as_mut_ptr(), params.as_ptr().cast(), count)
        }
    }
}

impl<const SIGNAL: bool, const N: usize> NodeParams for SemaphoreParams<SIGNAL, N> {
    const KIND: NodeKind = if SIGNAL {
        NodeKind::SemaphoreSignal
    } else {
        NodeKind::SemaphoreWait
    };

    #[inline]
    fn with_raw<R>(&mut self, f: impl FnOnce(&mut sys::CUgraphNodeParams) -> R) -> R {
        self.with_arrays(|sems, params, count| {
            use sys::CUgraphNodeType::*;
            let mut p;
            if SIGNAL {
                p = node_params(CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL);
                // SAFETY: the union's member for this node type; zeros are "nothing set".
                let signal = unsafe { &mut p.__bindgen_anon_1.extSemSignal };
                signal.extSemArray = sems;
                signal.paramsArray = params.cast();
                signal.numExtSems = count;
            } else {
                p = node_params(CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT);
                // SAFETY: as above.
                let wait = unsafe { &mut p.__bindgen_anon_1.extSemWait };
                wait.extSemArray = sems;
                wait.paramsArray = params.cast();
                wait.numExtSems = count;
            }
            f(&mut p)
        })
    }
}

impl<const SIGNAL: bool, const N: usize> NodeUpdate for SemaphoreParams<SIGNAL, N> {
    #[inline]
    unsafe fn update(&mut self, exec: sys::CUgraphExec, node: sys::CUgraphNode) -> Result<()> {
        self.with_arrays(|sems, params, count| {
            // SAFETY: the caller's promise; the arrays hold `count` entries, valid during the
            // call, and the semaphores are live (the caller keeps them).
            unsafe {
                result::exec::semaphores_node_set_params(exec, node, sems, params, count, SIGNAL)
            }
        })
    }
}
