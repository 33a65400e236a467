//! 1-D memset parameters.
//!
//! CUDA's memset writes a pattern of 1, 2 or 4 bytes, repeated. A buffer of any element type whose
//! size is a multiple of the pattern's can be filled with it ([`FillWith`]): `0u32` (or `0.0f32`)
//! zeroes a buffer of `f64`s, as NVIDIA's samples do, without reinterpreting anything.

use cudarc::driver::sys;

use super::{node_params, NodeKind, NodeParams, NodeUpdate, Switchable};
use crate::driver::result;
use crate::error::Result;
use crate::memory::operand::Use;
use crate::memory::DeviceDst;

handle!(
    /// A 1-D memset node writing a pattern of type `V`.
    MemsetNode<V>
);
impl<T> super::switchable::Sealed for MemsetNode<T> {
    const KIND: super::NodeKind = super::NodeKind::Memset;
}
impl<T> Switchable for MemsetNode<T> {}

mod private {
    /// Sealed: CUDA's memsets write 1-, 2- and 4-byte patterns, and these are the types of them.
    pub trait Sealed {}
}

/// A pattern a memset writes repeatedly: 1, 2 or 4 bytes (sealed: `u8`, `i8`, `u16`, `i16`,
/// `u32`, `i32`, `f32`).
pub trait MemsetValue: Copy + private::Sealed {
    /// The pattern's size in bytes (1, 2 or 4).
    const SIZE: u32;
    /// The pattern's bits, zero-extended to 32.
    fn bits(self) -> u32;
}

macro_rules! memset_value {
    ($($t:ty => $size:expr, |$v:ident| $bits:expr;)*) => {$(
        impl private::Sealed for $t {}
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

/// Element types a memset with pattern `V` can fill: their size is a multiple of `V`'s, and every
/// bit pattern is a valid value (so `bool` is not one).
///
/// Implemented for the primitive numbers and arrays of them; implement it for a `#[repr(C)]`
/// struct of those to fill buffers of it.
///
/// # Safety
/// `size_of::<Self>()` is a multiple of `V::SIZE`, and any repetition of a `V` pattern's bytes
/// over a `Self` is a valid `Self` (a graph's memset writes exactly that, and host code may then
/// read the elements).
#[diagnostic::on_unimplemented(
    message = "a memset with a `{V}` pattern cannot fill `{Self}` elements",
    label = "the pattern's size must divide the element's size",
    note = "CUDA memsets write 1-, 2- or 4-byte patterns (u8, i8, u16, i16, u32, i32, f32); \
            an element of 8 bytes is filled with a 4-byte pattern repeated (`0u32` zeroes `f64`s)"
)]
pub unsafe trait FillWith<V: MemsetValue> {}

macro_rules! fill_with {
    ($($elem:ty: $($pattern:ty),*;)*) => {$($(
        // SAFETY: a primitive number whose size is a multiple of the pattern's; every bit
        // pattern is a valid value.
        #[diagnostic::do_not_recommend]
        unsafe impl FillWith<$pattern> for $elem {}
    )*)*};
}
fill_with! {
    u8: u8, i8;
    i8: u8, i8;
    u16: u8, i8, u16, i16;
    i16: u8, i8, u16, i16;
    u32: u8, i8, u16, i16, u32, i32, f32;
    i32: u8, i8, u16, i16, u32, i32, f32;
    f32: u8, i8, u16, i16, u32, i32, f32;
    u64: u8, i8, u16, i16, u32, i32, f32;
    i64: u8, i8, u16, i16, u32, i32, f32;
    f64: u8, i8, u16, i16, u32, i32, f32;
}
// SAFETY: an array of elements that the pattern fills is filled element by element.
unsafe impl<T: FillWith<V>, V: MemsetValue, const N: usize> FillWith<V> for [T; N] {}

/// Fills device memory with a pattern `V` repeated.
#[derive(Debug)]
pub struct Memset<'a, V> {
    /// The destination, or why it could not be taken.
    pub(crate) dst: Result<Use<'a>>,
    pub(crate) value: V,
}

impl<'a, V: MemsetValue> Memset<'a, V> {
    /// Fill `dst` (all of it: slice it first for less) with `value` repeated.
    pub fn new<T: FillWith<V>>(dst: impl DeviceDst<'a, T>, value: V) -> Self {
        Self {
            dst: dst.into_use(true),
            value,
        }
    }

    /// The destination's use and the node's parameters for a memset in `ctx`.
    pub(crate) fn into_parts(
        self,
        ctx: sys::CUcontext,
        node: impl FnOnce() -> String,
    ) -> Result<(Use<'a>, MemsetParams)> {
        let dst = self.dst?;
        if dst.bytes() == 0 {
            return Err(super::memcpy::empty(node(), "memset"));
        }
        let set = sys::CUDA_MEMSET_NODE_PARAMS {
            dst: dst.start,
            pitch: 0,
            value: self.value.bits(),
            elementSize: V::SIZE,
            width: dst.bytes() / V::SIZE as usize,
            height: 1,
        };
        Ok((dst, MemsetParams { set, ctx }))
    }
}

/// A memset node's parameters: the memset, and the context it runs in.
#[derive(Debug)]
pub(crate) struct MemsetParams {
    pub(crate) set: sys::CUDA_MEMSET_NODE_PARAMS,
    ctx: sys::CUcontext,
}

impl NodeParams for MemsetParams {
    const KIND: NodeKind = NodeKind::Memset;

    #[inline]
    fn with_raw<R>(&mut self, f: impl FnOnce(&mut sys::CUgraphNodeParams) -> R) -> R {
        let mut p = node_params(sys::CUgraphNodeType::CU_GRAPH_NODE_TYPE_MEMSET);
        p.__bindgen_anon_1.memset = with_context(&self.set, self.ctx);
        f(&mut p)
    }
}

/// A memset's parameters with its context, as the generic node calls take them.
pub(crate) fn with_context(
    set: &sys::CUDA_MEMSET_NODE_PARAMS,
    ctx: sys::CUcontext,
) -> sys::CUDA_MEMSET_NODE_PARAMS_v2 {
    sys::CUDA_MEMSET_NODE_PARAMS_v2 {
        dst: set.dst,
        pitch: set.pitch,
        value: set.value,
        elementSize: set.elementSize,
        width: set.width,
        height: set.height,
        ctx,
    }
}

impl NodeUpdate for MemsetParams {
    #[inline]
    unsafe fn update(&mut self, exec: sys::CUgraphExec, node: sys::CUgraphNode) -> Result<()> {
        // SAFETY: the caller's promise; the memset writes device memory.
        unsafe { result::exec::memset_node_set_params(exec, node, &self.set, self.ctx) }
    }
}
