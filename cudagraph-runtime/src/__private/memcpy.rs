//! Memcpy nodes: the (source, destination) pairs a declared memcpy copies between, and what
//! its handle may be set to.

use super::memory::MemoryParam;
use crate::{
    DeviceBuffer, DeviceDst, DevicePtr, DevicePtrMut, DeviceSrc, DeviceToDevice, DeviceToHost,
    Direction, GraphAlloc, HostBuffer, HostDst, HostPtr, HostPtrMut, HostSrc, HostToDevice, Memcpy,
};

// ---------------------------------------------------------------------------------------------
// Memcpy nodes.

/// `(source, destination)` param types a memcpy node copies between; fixes its direction.
#[diagnostic::on_unimplemented(
    message = "no memcpy copies between `{Self}` (source, destination)",
    label = "not a valid (source, destination) pair",
    note = "a memcpy copies from a `DeviceBuffer<T>` or `HostBuffer<T>` (or a raw pointer) into a \
            `DeviceBuffer<T>` or `HostBuffer<T>` of the same element type `T`, with at least one side \
            on the device"
)]
pub trait CopyPair {
    /// The source param's type.
    type Src;
    /// The destination param's type.
    type Dst;
    /// The direction.
    type Dir: Direction;
    /// The copy.
    fn memcpy(src: &Self::Src, dst: &Self::Dst) -> Memcpy<'static, Self::Dir>;
}

macro_rules! copy_pairs {
    ($dir:ident, $make:ident: $($src:ident => $dst:ident),*) => {$(
        impl<T: Send + Sync + 'static> CopyPair for ($src<T>, $dst<T>) {
            type Src = $src<T>;
            type Dst = $dst<T>;
            type Dir = $dir;
            #[inline(always)]
            fn memcpy(src: &$src<T>, dst: &$dst<T>) -> Memcpy<'static, $dir> {
                Memcpy::$make(src.operand(), dst.operand())
            }
        }
    )*};
}
copy_pairs!(HostToDevice, htod:
    HostBuffer => DeviceBuffer, HostBuffer => DevicePtrMut, HostBuffer => GraphAlloc,
    HostPtr => DeviceBuffer, HostPtr => DevicePtrMut, HostPtr => GraphAlloc,
    HostPtrMut => DeviceBuffer, HostPtrMut => DevicePtrMut, HostPtrMut => GraphAlloc);
copy_pairs!(DeviceToHost, dtoh:
    DeviceBuffer => HostBuffer, DeviceBuffer => HostPtrMut,
    DevicePtr => HostBuffer, DevicePtr => HostPtrMut,
    DevicePtrMut => HostBuffer, DevicePtrMut => HostPtrMut,
    GraphAlloc => HostBuffer, GraphAlloc => HostPtrMut);
copy_pairs!(DeviceToDevice, dtod:
    DeviceBuffer => DeviceBuffer, DeviceBuffer => DevicePtrMut, DeviceBuffer => GraphAlloc,
    DevicePtr => DeviceBuffer, DevicePtr => DevicePtrMut, DevicePtr => GraphAlloc,
    DevicePtrMut => DeviceBuffer, DevicePtrMut => DevicePtrMut, DevicePtrMut => GraphAlloc,
    GraphAlloc => DeviceBuffer, GraphAlloc => DevicePtrMut, GraphAlloc => GraphAlloc);

/// `(source, destination)` operands a memcpy node of direction `Dir` can be set to, copying `T`s.
#[diagnostic::on_unimplemented(
    message = "this memcpy node copies `{Dir}`: it cannot copy `{Self}` (source, destination)",
    label = "not a copy in this node's direction",
    note = "CUDA cannot change a memcpy node's direction or memory types after instantiation \
            (cuGraphExecMemcpyNodeSetParams): declare another memcpy node for that copy"
)]
pub trait CopyAs<Dir, T> {
    /// The copy.
    fn memcpy_as(self) -> Memcpy<'static, Dir>;
}

#[diagnostic::do_not_recommend]
impl<T, S: HostSrc<'static, T>, D: DeviceDst<'static, T>> CopyAs<HostToDevice, T> for (S, D) {
    #[inline(always)]
    fn memcpy_as(self) -> Memcpy<'static, HostToDevice> {
        Memcpy::htod(self.0, self.1)
    }
}

#[diagnostic::do_not_recommend]
impl<T, S: DeviceSrc<'static, T>, D: HostDst<'static, T>> CopyAs<DeviceToHost, T> for (S, D) {
    #[inline(always)]
    fn memcpy_as(self) -> Memcpy<'static, DeviceToHost> {
        Memcpy::dtoh(self.0, self.1)
    }
}

#[diagnostic::do_not_recommend]
impl<T, S: DeviceSrc<'static, T>, D: DeviceDst<'static, T>> CopyAs<DeviceToDevice, T> for (S, D) {
    #[inline(always)]
    fn memcpy_as(self) -> Memcpy<'static, DeviceToDevice> {
        Memcpy::dtod(self.0, self.1)
    }
}

/// A memcpy handle's `set(src, dst)`: same direction as the node.
#[inline(always)]
pub fn memcpy_as<Dir, T, S, D>(src: S, dst: D) -> Memcpy<'static, Dir>
where
    (S, D): CopyAs<Dir, T>,
{
    (src, dst).memcpy_as()
}
