//! 1-D memset parameters.

use cudarc::driver::sys;

use crate::ptr::DevicePtrMut;

/// An element type a memset can write: 1, 2 or 4 bytes.
pub trait MemsetValue: Copy {
    /// The element size in bytes (1, 2 or 4).
    const SIZE: u32;
    /// The value's bits, zero-extended to 32.
    fn bits(self) -> u32;
}

macro_rules! memset_value {
    ($($t:ty => $size:expr, |$v:ident| $bits:expr;)*) => {$(
        impl MemsetValue for $t {
            const SIZE: u32 = $size;
            #[inline]
            fn bits(self) -> u32 { let $v = self; $bits }
        }
    )*};
}
memset_value! {
    u8 => 1, |v| v as u32;
    i8 => 1, |v| v as u8 as u32;
    u16 => 2, |v| v as u32;
    i16 => 2, |v| v as u16 as u32;
    u32 => 4, |v| v;
    i32 => 4, |v| v as u32;
    f32 => 4, |v| v.to_bits();
}

/// Sets every element of `dst` to `value`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Memset<T> {
    pub(crate) dst: DevicePtrMut<T>,
    pub(crate) value: T,
}

impl<T: MemsetValue> Memset<T> {
    /// Fill `dst` (all of it: slice it first for less) with `value`.
    pub fn new(dst: DevicePtrMut<T>, value: T) -> Self {
        Self { dst, value }
    }

    pub(crate) fn raw(&self) -> sys::CUDA_MEMSET_NODE_PARAMS {
        sys::CUDA_MEMSET_NODE_PARAMS {
            dst: self.dst.addr(),
            pitch: 0,
            value: self.value.bits(),
            elementSize: T::SIZE,
            width: self.dst.len(),
            height: 1,
        }
    }
}
