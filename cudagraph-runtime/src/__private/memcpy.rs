//! Memcpy nodes: the (source, destination) pairs a declared memcpy copies between, what its
//! handle may be set to, and which operands a graph launched from the device may copy.

use std::marker::PhantomData;

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

// ---------------------------------------------------------------------------------------------
// Memcpy operands of a graph launched from the device.

/// Asks whether a memcpy operand's param type `T` is memory CUDA lets a graph launched from the
/// device copy: `DEVICE_COPY`, for a [`DeviceBuffer`] (device memory) or a [`HostBuffer`]
/// (page-locked host memory, which unified addressing maps for the device). CUDA allows copies
/// only between device memory and device-mapped page-locked host memory there
/// ([device graph requirements]); a raw pointer may hold any address, and a [`GraphAlloc`]'s
/// alloc node is itself refused. The generated code asks the type, not its spelling: an alias of
/// a buffer is one, and another type imported under a buffer's name is not.
///
/// [device graph requirements]: https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#device-graph-requirements
#[derive(Debug)]
pub struct DeviceCopyProbe<T: ?Sized>(PhantomData<T>);

/// The answer of [`DeviceCopyProbe`] for any other type.
pub trait DeviceCopyFallback {
    /// Not memory a device graph may copy.
    const DEVICE_COPY: bool = false;
}

impl<T: ?Sized> DeviceCopyFallback for DeviceCopyProbe<T> {}

impl<T: 'static> DeviceCopyProbe<DeviceBuffer<T>> {
    /// Device memory.
    pub const DEVICE_COPY: bool = true;
}

impl<T: 'static> DeviceCopyProbe<HostBuffer<T>> {
    /// Page-locked host memory, mapped for the device.
    pub const DEVICE_COPY: bool = true;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_device_graph_copies_buffers_whatever_their_names() {
        type Staging = DeviceBuffer<f32>;
        use crate::HostPtr as HostBuffer;
        const ANSWERS: [bool; 5] = [
            <DeviceCopyProbe<Staging>>::DEVICE_COPY,
            <DeviceCopyProbe<crate::HostBuffer<u8>>>::DEVICE_COPY,
            <DeviceCopyProbe<HostBuffer<u8>>>::DEVICE_COPY,
            <DeviceCopyProbe<DevicePtrMut<f32>>>::DEVICE_COPY,
            <DeviceCopyProbe<GraphAlloc<f32>>>::DEVICE_COPY,
        ];
        assert_eq!(ANSWERS, [true, true, false, false, false]);
    }
}
