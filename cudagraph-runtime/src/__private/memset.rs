//! Memset nodes: what a declared memset fills, and what its handle may be set to.

use super::memory::MemoryParam;
use crate::{DeviceBuffer, DevicePtrMut, FillWith, GraphAlloc, Memset, MemsetValue};

// ---------------------------------------------------------------------------------------------
// Memset nodes.

/// The pattern a declared memset writes into elements of type `Self`: the element itself when it
/// has 1, 2 or 4 bytes, else a 4-byte `u32` (so `memset(y, 0u32)` zeroes `f64`s).
#[diagnostic::on_unimplemented(
    message = "a memset node cannot fill `{Self}` elements",
    label = "no memset pattern for this element type",
    note = "a memset writes 1-, 2- or 4-byte patterns; it fills elements of u8, i8, u16, i16, u32, i32, \
            f32 (with a value of the same type) and u64, i64, f64 (with a `u32` pattern); use a kernel \
            for other element types"
)]
pub trait DefaultPattern {
    /// The pattern's type.
    type Pattern: MemsetValue;
}

macro_rules! default_patterns {
    ($($elem:ty => $pattern:ty),*) => {$(
        impl DefaultPattern for $elem {
            type Pattern = $pattern;
        }
    )*};
}
default_patterns!(u8 => u8, i8 => i8, u16 => u16, i16 => i16, u32 => u32, i32 => i32, f32 => f32,
    u64 => u32, i64 => u32, f64 => u32);
impl<T: DefaultPattern, const N: usize> DefaultPattern for [T; N] {
    type Pattern = T::Pattern;
}

/// The destination of a memset node: device memory the graph can write, whose elements have a
/// memset pattern.
#[diagnostic::on_unimplemented(
    message = "a memset cannot write to `{Self}`",
    label = "not writable device memory",
    note = "a memset node writes a `DeviceBuffer<T>` (or a raw `DevicePtrMut<T>`) param"
)]
pub trait MemsetTarget: MemoryParam {
    /// The pattern written.
    type Pattern: MemsetValue;
    /// The memset of `self` with `value`.
    fn memset(&self, value: Self::Pattern) -> Memset<'static, Self::Pattern>;
}

macro_rules! memset_targets {
    ($($ty:ident),*) => {$(
        #[diagnostic::do_not_recommend]
        impl<T: DefaultPattern + FillWith<T::Pattern> + Send + Sync + 'static> MemsetTarget for $ty<T> {
            type Pattern = T::Pattern;
            #[inline(always)]
            fn memset(&self, value: T::Pattern) -> Memset<'static, T::Pattern> {
                Memset::new(self.operand(), value)
            }
        }
    )*};
}
memset_targets!(DeviceBuffer, DevicePtrMut, GraphAlloc);

/// The memory a memset handle's `set(dst, value)` writes: device memory holding elements that a
/// pattern `V` fills.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not device memory this memset node can fill with its `{V}` pattern",
    label = "not a valid memset destination for this node",
    note = "the node writes a `{V}` pattern: give a `&DeviceBuffer<T>` (or a raw `DevicePtrMut<T>`) \
            whose elements it fills"
)]
pub trait MemsetAs<V> {
    /// The memset.
    fn memset_as(self, value: V) -> Memset<'static, V>;
}

#[diagnostic::do_not_recommend]
impl<V: MemsetValue, D> MemsetAs<V> for D
where
    D: DeviceDstOf<V>,
{
    #[inline(always)]
    fn memset_as(self, value: V) -> Memset<'static, V> {
        self.memset_with(value)
    }
}

/// Device memory a pattern `V` can fill (the element type hidden).
#[doc(hidden)]
pub trait DeviceDstOf<V: MemsetValue> {
    /// The memset.
    fn memset_with(self, value: V) -> Memset<'static, V>;
}

macro_rules! device_dst_of {
    ($($ty:ty),*) => {$(
        impl<V: MemsetValue, T: FillWith<V> + Send + Sync + 'static> DeviceDstOf<V> for $ty {
            #[inline(always)]
            fn memset_with(self, value: V) -> Memset<'static, V> {
                Memset::new(self, value)
            }
        }
    )*};
}
device_dst_of!(
    &DeviceBuffer<T>,
    DeviceBuffer<T>,
    DevicePtrMut<T>,
    GraphAlloc<T>,
    &GraphAlloc<T>
);
