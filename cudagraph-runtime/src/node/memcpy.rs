//! 1-D memcpy parameters, typed by direction: CUDA cannot change a memcpy node's direction or
//! memory types by update ([`cuGraphExecMemcpyNodeSetParams`]), so a handle's direction is part of
//! its type.
//!
//! [`cuGraphExecMemcpyNodeSetParams`]: https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__GRAPH.html

use std::marker::PhantomData;
use std::ops::Range;
use std::sync::Arc;

use cudarc::driver::{sys, CudaContext};

use super::{node_params, NodeKind, NodeParams, NodeUpdate, Switchable};
use crate::driver::result;
use crate::error::{Error, Result};
use crate::memory::operand::sealed::MemoryOperand;
use crate::memory::operand::Use;
use crate::memory::peer;
use crate::memory::{DeviceDst, DeviceSrc, HostDst, HostSrc};

handle!(
    /// A 1-D memcpy node copying in direction `D`.
    MemcpyNode<D>
);
impl<D> super::switchable::Sealed for MemcpyNode<D> {
    const KIND: super::NodeKind = super::NodeKind::Memcpy;
}
impl<D> Switchable for MemcpyNode<D> {}

/// A copy direction (sealed: [`HostToDevice`], [`DeviceToHost`], [`DeviceToDevice`]).
pub trait Direction: private::Sealed {
    /// The direction's name, for messages.
    const NAME: &'static str;
    #[doc(hidden)]
    const SRC: sys::CUmemorytype;
    #[doc(hidden)]
    const DST: sys::CUmemorytype;
}

mod private {
    pub trait Sealed {}
}

macro_rules! direction {
    ($(#[$doc:meta])* $name:ident, $text:expr, $src:ident, $dst:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum $name {}
        impl private::Sealed for $name {}
        impl Direction for $name {
            const NAME: &'static str = $text;
            const SRC: sys::CUmemorytype = sys::CUmemorytype::$src;
            const DST: sys::CUmemorytype = sys::CUmemorytype::$dst;
        }
    };
}
direction!(
    /// Host to device.
    HostToDevice, "host-to-device", CU_MEMORYTYPE_HOST, CU_MEMORYTYPE_DEVICE
);
direction!(
    /// Device to host.
    DeviceToHost, "device-to-host", CU_MEMORYTYPE_DEVICE, CU_MEMORYTYPE_HOST
);
direction!(
    /// Device to device.
    DeviceToDevice, "device-to-device", CU_MEMORYTYPE_DEVICE, CU_MEMORYTYPE_DEVICE
);

/// A 1-D copy of whole buffers in direction `D`. Source and destination must have equal lengths
/// (slice them to match) and must not overlap (CUDA leaves such a copy undefined); either is an
/// error when the node is added or updated.
#[derive(Debug)]
pub struct Memcpy<'a, D> {
    /// The source and the destination, or why they could not be taken.
    src: Result<Use<'a>>,
    dst: Result<Use<'a>>,
    _dir: PhantomData<D>,
}

impl<'a, D: Direction> Memcpy<'a, D> {
    fn of<T>(src: impl MemoryOperand<'a, Elem = T>, dst: impl MemoryOperand<'a, Elem = T>) -> Self {
        Self {
            src: src.into_use(false),
            dst: dst.into_use(true),
            _dir: PhantomData,
        }
    }

    /// The source's and destination's uses and the node's parameters for a copy in `ctx`;
    /// `node` names the node for errors. Device memory of another device is made reachable
    /// from `ctx`'s device, or refused when it cannot be (see `memory::peer`).
    pub(crate) fn into_parts(
        self,
        ctx: &Arc<CudaContext>,
        node: impl FnOnce() -> String,
    ) -> Result<(Use<'a>, Use<'a>, MemcpyParams)> {
        let (src, dst) = (self.src?, self.dst?);
        if src.bytes() != dst.bytes() {
            return Err(Error::Invalid {
                node: node(),
                reason: format!(
                    "{} copy of {} bytes into {} bytes: source and destination lengths must match (slice one of them)",
                    D::NAME,
                    src.bytes(),
                    dst.bytes()
                ),
            });
        }
        if src.bytes() == 0 {
            return Err(empty(node(), "copy"));
        }
        // CUDA leaves a copy between overlapping memory undefined ("If overlapping source and
        // destination objects are specified, undefined behavior will result", cudaMemcpy3D, the
        // copy a memcpy node makes): its bytes could be anything, a `bool` among them. (Unified
        // addressing gives host and device memory distinct addresses, so the ranges are compared
        // whatever their spaces.)
        if src.start < dst.end && dst.start < src.end {
            return Err(overlapping(
                node(),
                D::NAME,
                src.start..src.end,
                dst.start..dst.end,
            ));
        }
        for (operand, what) in [
            (&src, "the copy's source"),
            (&dst, "the copy's destination"),
        ] {
            if let Some(reason) = peer::reach(ctx, operand, what)? {
                return Err(Error::Invalid {
                    node: node(),
                    reason,
                });
            }
        }
        let copy = raw_copy::<D>(src.start, dst.start, src.bytes());
        let ctx = ctx.cu_ctx();
        Ok((src, dst, MemcpyParams { copy, ctx }))
    }
}

/// The error for a copy (`what`: its kind, or "a") from `src` into `dst`, which overlap: CUDA
/// leaves such a copy undefined.
#[cold]
pub(crate) fn overlapping(node: String, what: &str, src: Range<u64>, dst: Range<u64>) -> Error {
    Error::Invalid {
        node,
        reason: format!(
            "{what} copy between overlapping memory ({:#x}..{:#x} into {:#x}..{:#x}): CUDA leaves \
             such a copy undefined; copy through a second buffer",
            src.start, src.end, dst.start, dst.end
        ),
    }
}

/// The error for a copy or memset of no bytes (an empty buffer, an empty slice of one), which
/// CUDA refuses as a node (`CUDA_ERROR_INVALID_VALUE`).
pub(crate) fn empty(node: String, what: &str) -> Error {
    Error::Invalid {
        node,
        reason: format!(
            "the {what} covers no bytes (its memory is empty), and CUDA has no {what} node of \
             zero bytes: leave the node out while the buffer is empty (an empty batch needs no \
             {what})"
        ),
    }
}

/// A memcpy node's parameters: the copy, and the context it runs in.
#[derive(Debug)]
pub(crate) struct MemcpyParams {
    pub(crate) copy: sys::CUDA_MEMCPY3D,
    ctx: sys::CUcontext,
}

impl NodeParams for MemcpyParams {
    const KIND: NodeKind = NodeKind::Memcpy;

    #[inline]
    fn with_raw<R>(&mut self, f: impl FnOnce(&mut sys::CUgraphNodeParams) -> R) -> R {
        let mut p = node_params(sys::CUgraphNodeType::CU_GRAPH_NODE_TYPE_MEMCPY);
        p.__bindgen_anon_1.memcpy = sys::CUDA_MEMCPY_NODE_PARAMS {
            flags: 0,
            reserved: 0,
            copyCtx: self.ctx,
            copyParams: self.copy,
        };
        f(&mut p)
    }
}

impl NodeUpdate for MemcpyParams {
    #[inline]
    unsafe fn update(&mut self, exec: sys::CUgraphExec, node: sys::CUgraphNode) -> Result<()> {
        // SAFETY: the caller's promise; the copy has the node's direction and memory types
        // (its handle's type says so).
        unsafe { result::exec::memcpy_node_set_params(exec, node, &self.copy, self.ctx) }
    }
}

fn raw_copy<D: Direction>(src: u64, dst: u64, bytes: usize) -> sys::CUDA_MEMCPY3D {
    use std::ptr::{null, null_mut};
    let host = sys::CUmemorytype::CU_MEMORYTYPE_HOST;
    // The side in host memory is given by `*Host`, the device side by `*Device`.
    let (src_host, src_device) = if D::SRC == host {
        (src as *const _, 0)
    } else {
        (null(), src)
    };
    let (dst_host, dst_device) = if D::DST == host {
        (dst as *mut _, 0)
    } else {
        (null_mut(), dst)
    };
    sys::CUDA_MEMCPY3D {
        srcXInBytes: 0,
        srcY: 0,
        srcZ: 0,
        srcLOD: 0,
        srcMemoryType: D::SRC,
        srcHost: src_host,
        srcDevice: src_device,
        srcArray: null_mut(),
        reserved0: null_mut(),
        srcPitch: 0,
        srcHeight: 0,
        dstXInBytes: 0,
        dstY: 0,
        dstZ: 0,
        dstLOD: 0,
        dstMemoryType: D::DST,
        dstHost: dst_host,
        dstDevice: dst_device,
        dstArray: null_mut(),
        reserved1: null_mut(),
        dstPitch: 0,
        dstHeight: 0,
        WidthInBytes: bytes,
        Height: 1,
        Depth: 1,
    }
}

impl<'a> Memcpy<'a, HostToDevice> {
    /// Copy `src` (page-locked host memory) into `dst` (device memory).
    pub fn htod<T>(src: impl HostSrc<'a, T>, dst: impl DeviceDst<'a, T>) -> Self {
        Self::of(src, dst)
    }
}

impl<'a> Memcpy<'a, DeviceToHost> {
    /// Copy `src` (device memory) into `dst` (page-locked host memory).
    pub fn dtoh<T>(src: impl DeviceSrc<'a, T>, dst: impl HostDst<'a, T>) -> Self {
        Self::of(src, dst)
    }
}

impl<'a> Memcpy<'a, DeviceToDevice> {
    /// Copy `src` into `dst`, both device memory, of one device or of two (see
    /// [`Graph::add_memcpy`](crate::Graph::add_memcpy) for copies between devices).
    pub fn dtod<T>(src: impl DeviceSrc<'a, T>, dst: impl DeviceDst<'a, T>) -> Self {
        Self::of(src, dst)
    }
}
