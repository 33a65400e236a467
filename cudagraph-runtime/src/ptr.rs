//! Raw typed addresses of device and host memory.
//!
//! [`DevicePtr<T>`] and [`DevicePtrMut<T>`] name a kernel's pointer parameters in its signature
//! (`const T*` and `T*`). As values they are raw addresses with an element count, made only by
//! `unsafe` [`from_raw`](DevicePtr::from_raw): a node made from one reads or writes that memory
//! at every launch, and nothing but the promise made there keeps the memory alive. Safe code gives
//! graphs memory as [`DeviceBuffer`](crate::DeviceBuffer)s and [`HostBuffer`](crate::HostBuffer)s
//! (kept alive by the graph) or cudarc borrows (checked by the borrow checker).

use std::marker::PhantomData;
use std::ops::RangeBounds;

use cudarc::driver::sys;

use crate::error::Result;
use crate::memory::alloc::Space;
use crate::memory::operand::sealed::MemoryOperand;
use crate::memory::operand::{Hold, MemKey, Use};
use crate::memory::shared::bounds;
use crate::memory::{DeviceDst, DeviceSrc, HostDst, HostSrc};

macro_rules! typed_ptr {
    ($(#[$doc:meta])* $name:ident, $addr:ty) => {
        $(#[$doc])*
        pub struct $name<T> {
            addr: $addr,
            len: usize,
            // `fn() -> T`: the pointer is Send/Sync whatever `T` is; it is only an address.
            _elem: PhantomData<fn() -> T>,
        }

        impl<T> Clone for $name<T> {
            fn clone(&self) -> Self {
                *self
            }
        }
        impl<T> Copy for $name<T> {}
        impl<T> PartialEq for $name<T> {
            fn eq(&self, other: &Self) -> bool {
                self.addr == other.addr && self.len == other.len
            }
        }
        impl<T> Eq for $name<T> {}
        impl<T> std::fmt::Debug for $name<T> {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "{}<{}>({:#x}, len {})", stringify!($name), std::any::type_name::<T>(), self.addr as u64, self.len)
            }
        }

        impl<T> $name<T> {
            /// A pointer to `len` elements at `addr`.
            ///
            /// # Safety
            /// `addr` must point to `len` valid elements of `T` in the right kind of memory for as long
            /// as any graph that uses this pointer may run, memory that the device of every such
            /// graph can access: memory of another device only once that device has been granted
            /// access (`cuCtxEnablePeerAccess`, or the pool's `cuMemPoolSetAccess`; a copy node
            /// grants it itself, a kernel or memset node does not ask). And the caller orders the
            /// launches of those graphs with any other work on that memory, host or device, that
            /// one of the two writes: the crate orders nothing for memory behind a raw pointer,
            /// and memory given to a node later at the same addresses (a borrowed cudarc slice,
            /// say) is taken for the same raw memory, under the same promise.
            pub const unsafe fn from_raw(addr: $addr, len: usize) -> Self {
                Self { addr, len, _elem: PhantomData }
            }

            /// The address.
            pub fn addr(&self) -> $addr {
                self.addr
            }

            /// The number of elements.
            pub fn len(&self) -> usize {
                self.len
            }

            /// Whether it points to no element.
            pub fn is_empty(&self) -> bool {
                self.len == 0
            }

            /// The size in bytes.
            pub fn num_bytes(&self) -> usize {
                self.len * std::mem::size_of::<T>()
            }

            /// A sub-range, or `None` when `range` does not fit.
            pub fn try_slice(&self, range: impl RangeBounds<usize>) -> Option<Self> {
                let (start, end) = bounds(range, self.len)?;
                Some(Self {
                    addr: (self.addr as usize + start * std::mem::size_of::<T>()) as $addr,
                    len: end - start,
                    _elem: PhantomData,
                })
            }
        }
    };
}

typed_ptr!(
    /// Read-only device memory: `len` elements of `T`. As a kernel argument it is `const T*`.
    DevicePtr,
    sys::CUdeviceptr
);
typed_ptr!(
    /// Writable device memory: `len` elements of `T`. As a kernel argument it is `T*`.
    DevicePtrMut,
    sys::CUdeviceptr
);
typed_ptr!(
    /// Host memory a copy reads: `len` elements of `T` (pinned memory for truly async copies).
    HostPtr,
    *const T
);
typed_ptr!(
    /// Host memory a copy writes: `len` elements of `T` (pinned memory for truly async copies).
    HostPtrMut,
    *mut T
);

// SAFETY: host pointers are addresses only; reading or writing through them happens in the driver,
// under the contract of `from_raw`.
unsafe impl<T> Send for HostPtr<T> {}
// SAFETY: as above.
unsafe impl<T> Sync for HostPtr<T> {}
// SAFETY: as above.
unsafe impl<T> Send for HostPtrMut<T> {}
// SAFETY: as above.
unsafe impl<T> Sync for HostPtrMut<T> {}

impl<T> DevicePtrMut<T> {
    /// The same memory, read-only.
    pub fn as_const(&self) -> DevicePtr<T> {
        // SAFETY: same address and length, less access.
        unsafe { DevicePtr::from_raw(self.addr, self.len) }
    }
}

impl<T> From<DevicePtrMut<T>> for DevicePtr<T> {
    fn from(p: DevicePtrMut<T>) -> Self {
        p.as_const()
    }
}

impl<T> HostPtrMut<T> {
    /// The same memory, read-only.
    pub fn as_const(&self) -> HostPtr<T> {
        // SAFETY: same address and length, less access.
        unsafe { HostPtr::from_raw(self.addr, self.len) }
    }
}

// As memory operands: raw addresses, kept valid by the promise of `from_raw`.

fn raw_use<'a>(space: Space, start: u64, bytes: usize, write: bool) -> Use<'a> {
    Use {
        space,
        start,
        end: start + bytes as u64,
        write,
        host_code: false,
        hold: Hold::Raw,
    }
}

macro_rules! raw_operand {
    ($name:ident, $space:expr, $($tr:ident),*) => {
        impl<'a, T> MemoryOperand<'a> for $name<T> {
            type Elem = T;
            fn key(&self) -> MemKey {
                let start = self.addr as u64;
                MemKey { start, end: start + self.num_bytes() as u64, owner: std::ptr::null() }
            }
            fn len(&self) -> usize {
                self.len
            }
            fn into_use(self, write: bool) -> Result<Use<'a>> {
                Ok(raw_use($space, self.addr as u64, self.num_bytes(), write))
            }
        }
        $(#[diagnostic::do_not_recommend] impl<'a, T> $tr<'a, T> for $name<T> {})*
        $(impl<T> $crate::memory::operand::sealed::$tr for $name<T> {})*
    };
}
raw_operand!(DevicePtr, Space::Device, DeviceSrc);
raw_operand!(DevicePtrMut, Space::Device, DeviceSrc, DeviceDst);
raw_operand!(HostPtr, Space::Host, HostSrc);
raw_operand!(HostPtrMut, Space::Host, HostSrc, HostDst);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slicing_checks_bounds() {
        // SAFETY: never dereferenced.
        let p = unsafe { DevicePtr::<u32>::from_raw(0x1000, 10) };
        let s = p.try_slice(2..5).unwrap();
        assert_eq!((s.addr(), s.len()), (0x1008, 3));
        assert_eq!(p.try_slice(..=9).unwrap().len(), 10);
        assert!(p.try_slice(..11).is_none());
        let (start, end) = (5, 4);
        assert!(p.try_slice(start..end).is_none());
        assert_eq!(p.try_slice(10..).unwrap().len(), 0);
    }
}
