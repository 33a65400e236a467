//! 1-D memcpy parameters, typed by direction: CUDA cannot change a memcpy node's direction or
//! memory types by update (SPEC 2.4), so a handle's direction is part of its type.

use std::marker::PhantomData;

use cudarc::driver::sys;

use crate::ptr::{DevicePtr, DevicePtrMut, HostPtr, HostPtrMut};

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
/// (slice them to match); a mismatch is an error when the node is added or updated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Memcpy<D> {
    src: u64,
    dst: u64,
    src_bytes: usize,
    dst_bytes: usize,
    _dir: PhantomData<D>,
}

impl<D: Direction> Memcpy<D> {
    fn of(src: u64, src_bytes: usize, dst: u64, dst_bytes: usize) -> Self {
        Self {
            src,
            dst,
            src_bytes,
            dst_bytes,
            _dir: PhantomData,
        }
    }

    /// Bytes copied, or the two lengths when they differ.
    pub(crate) fn bytes(&self) -> Result<usize, String> {
        if self.src_bytes == self.dst_bytes {
            Ok(self.src_bytes)
        } else {
            Err(format!(
                "{} copy of {} bytes into {} bytes: source and destination lengths must match (slice one of them)",
                D::NAME, self.src_bytes, self.dst_bytes
            ))
        }
    }

    pub(crate) fn raw(&self, bytes: usize) -> sys::CUDA_MEMCPY3D {
        use std::ptr::{null, null_mut};
        let host = sys::CUmemorytype::CU_MEMORYTYPE_HOST;
        // The side in host memory is given by `*Host`, the device side by `*Device`.
        let (src_host, src_device) = if D::SRC == host {
            (self.src as *const _, 0)
        } else {
            (null(), self.src)
        };
        let (dst_host, dst_device) = if D::DST == host {
            (self.dst as *mut _, 0)
        } else {
            (null_mut(), self.dst)
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
}

impl Memcpy<HostToDevice> {
    /// Copy `src` (host) into `dst` (device).
    pub fn htod<T>(src: HostPtr<T>, dst: DevicePtrMut<T>) -> Self {
        Self::of(
            src.addr() as u64,
            src.num_bytes(),
            dst.addr(),
            dst.num_bytes(),
        )
    }
}

impl Memcpy<DeviceToHost> {
    /// Copy `src` (device) into `dst` (host).
    pub fn dtoh<T>(src: DevicePtr<T>, dst: HostPtrMut<T>) -> Self {
        Self::of(
            src.addr(),
            src.num_bytes(),
            dst.addr() as u64,
            dst.num_bytes(),
        )
    }
}

impl Memcpy<DeviceToDevice> {
    /// Copy `src` into `dst`, both on the device.
    pub fn dtod<T>(src: DevicePtr<T>, dst: DevicePtrMut<T>) -> Self {
        Self::of(src.addr(), src.num_bytes(), dst.addr(), dst.num_bytes())
    }
}
