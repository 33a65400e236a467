//! The memory a capture is given, and the views its closure works on.
//!
//! A captured graph keeps the raw addresses of the memory its work uses, so that memory must be
//! known: the capture's operands ([`CaptureOperands`]) are held by the graph as any node's
//! memory is (a [`DeviceBuffer`] shared, a cudarc slice borrowed for the graph's lifetime), and
//! the closure reaches them only through views ([`CaptureView`], [`CaptureViewMut`]). A view
//! works with cudarc's calls and cuBLAS (it implements cudarc's `DevicePtr` traits) and with the
//! [`CaptureScope`](super::CaptureScope)'s own calls, but nowhere else: it names memory whose
//! owner the capture holds, and only the capture's work may use it. A cudarc call that enqueues
//! it on a stream outside the capture (one neither captured by it nor, in a warm-up, the capture's
//! stream or a stream forked now) panics (see `super::sequence::CaptureStreams`).
//!
//! A writable view borrows as a `&mut [T]` does: its parts and its view to read borrow it, so
//! cudarc's calls (which take a destination by `&mut`) never get a view that overlaps the one
//! they write. A copy between overlapping memory is undefined in CUDA, and a
//! [`Replay`](super::Replay)'s warm-up runs the closure's calls eagerly, before any check of what
//! they would record. The operands themselves are given apart ([`check_apart`]).
//!
//! A view carries no cudarc event: cudarc orders a buffer's uses across streams by waiting on
//! events recorded after its last uses, and inside a capture a wait on an event recorded outside
//! it breaks the capture. The capture's own work is ordered by the capture (stream order, forks
//! and joins), and the executables' launches by the memory model.

use std::marker::PhantomData;
use std::ops::RangeBounds;
use std::sync::Arc;

use cudarc::driver::{
    sys, CudaSlice, CudaStream, CudaView, CudaViewMut, DevicePtr as CudarcDevicePtr,
    DevicePtrMut as CudarcDevicePtrMut, DeviceRepr, DeviceSlice, SyncOnDrop,
};

use super::sequence::{outside_capture, CaptureStreams};
use crate::error::{Error, Result};
use crate::memory::alloc::Space;
use crate::memory::operand::sealed::MemoryOperand;
use crate::memory::operand::{DeviceDst, DeviceSrc, Hold, MemKey, Use};
use crate::memory::shared::bounds;
use crate::memory::DeviceBuffer;
use crate::ptr::{DevicePtr, DevicePtrMut};

/// Marks a buffer given to a capture as written: `Mut(buffer)` (for operands kept by value, as
/// a [`Capture`](crate::Capture) keeps them; a reference says it with `&mut buffer`).
#[derive(Debug, Clone)]
pub struct Mut<B>(pub B);

mod sealed {
    pub trait Sealed {}
}

/// One piece of device memory given to a capture: read (`&DeviceBuffer<T>`, a `DeviceBuffer<T>`,
/// a cudarc `&CudaSlice<T>` or `CudaView<T>`, a raw `DevicePtr<T>`) or written
/// (`&mut DeviceBuffer<T>`, `Mut(DeviceBuffer<T>)`, `&mut CudaSlice<T>`, `CudaViewMut<T>`, a raw
/// `DevicePtrMut<T>`). Sealed.
pub trait CaptureOperand<'a>: sealed::Sealed {
    /// The view the capture closure gets: [`CaptureView`] or [`CaptureViewMut`].
    type View<'v>;
    /// The memory, as a use by the captured work (kept alive as the operand says).
    #[doc(hidden)]
    fn into_use(self) -> Result<Use<'a>>;
    /// The view of `used` for the capture on `streams`.
    #[doc(hidden)]
    fn view<'v>(used: &Use<'a>, streams: &'v CaptureStreams) -> Self::View<'v>;
}

/// The memory given to a capture: one [`CaptureOperand`] (the closure gets its view), or a tuple
/// of up to eight (the closure gets a tuple of their views, in order; `()` for none). Sealed.
pub trait CaptureOperands<'a>: sealed::Sealed {
    /// The views the closure gets.
    type Views<'v>;
    /// The memory, as uses by the captured work, appended to `out`.
    #[doc(hidden)]
    fn into_uses(self, out: &mut Vec<Use<'a>>) -> Result<()>;
    /// The views of `uses` (what [`CaptureOperands::into_uses`] appended).
    #[doc(hidden)]
    fn views<'v>(uses: &[Use<'a>], streams: &'v CaptureStreams) -> Self::Views<'v>;
}

macro_rules! view_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        pub struct $name<'v, T> {
            pub(super) addr: sys::CUdeviceptr,
            pub(super) len: usize,
            /// The capture's streams, checked whenever cudarc asks for the address.
            pub(super) streams: &'v CaptureStreams,
            /// For a view of a capture allocation, the stream that made it (its raw handle as an
            /// address; 0 for memory given to the capture): cudarc's work on another stream is
            /// ordered after that one's, which follows the alloc node.
            pub(super) maker: usize,
            pub(super) _elem: PhantomData<fn() -> T>,
        }

        impl<T> std::fmt::Debug for $name<'_, T> {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(
                    f,
                    "{}<{}>({:#x}, len {})",
                    stringify!($name),
                    std::any::type_name::<T>(),
                    self.addr,
                    self.len
                )
            }
        }

        impl<'v, T> $name<'v, T> {
            fn new(used: &Use<'_>, streams: &'v CaptureStreams) -> Self {
                Self {
                    addr: used.start,
                    len: used.bytes() / std::mem::size_of::<T>().max(1),
                    streams,
                    maker: 0,
                    _elem: PhantomData,
                }
            }

            /// The device address of the first element (for a kernel parameter pushed as an
            /// address).
            pub fn addr(&self) -> sys::CUdeviceptr {
                self.addr
            }

            /// The number of elements.
            pub fn len(&self) -> usize {
                self.len
            }

            /// Whether it holds no element.
            pub fn is_empty(&self) -> bool {
                self.len == 0
            }

            /// The address and length of elements `range`; `None` when out of bounds.
            fn part(&self, range: impl RangeBounds<usize>) -> Option<(sys::CUdeviceptr, usize)> {
                let (start, end) = bounds(range, self.len)?;
                Some((self.addr + (start * std::mem::size_of::<T>()) as u64, end - start))
            }

            fn key(&self) -> MemKey {
                MemKey {
                    start: self.addr,
                    end: self.addr + (self.len * std::mem::size_of::<T>()) as u64,
                    owner: std::ptr::null(),
                }
            }

            fn captured_use<'a>(&self, write: bool) -> Use<'a> {
                let key = self.key();
                Use {
                    space: Space::Device,
                    start: key.start,
                    end: key.end,
                    write,
                    host_code: false,
                    hold: Hold::Captured {
                        capture: self.streams.id,
                    },
                }
            }
        }

        impl<T> DeviceSlice<T> for $name<'_, T> {
            fn len(&self) -> usize {
                self.len
            }
            fn stream(&self) -> &Arc<CudaStream> {
                &self.streams.origin
            }
        }

        // No event to wait on or record: the capture orders its own work (see the module docs),
        // and only its own: work on another stream panics (see `CaptureStreams`).
        impl<T> CudarcDevicePtr<T> for $name<'_, T> {
            #[track_caller]
            fn device_ptr<'b>(&'b self, stream: &'b CudaStream) -> (sys::CUdeviceptr, SyncOnDrop<'b>) {
                if !self.streams.admits(stream) {
                    outside_capture(stream);
                }
                self.streams.order_after_maker(self.maker, stream);
                (self.addr, SyncOnDrop::Record(None))
            }
        }

        impl<'a, T> MemoryOperand<'a> for &$name<'_, T> {
            type Elem = T;
            fn key(&self) -> MemKey {
                (*self).key()
            }
            fn len(&self) -> usize {
                self.len
            }
            fn into_use(self, write: bool) -> Result<Use<'a>> {
                Ok(self.captured_use(write))
            }
        }

        #[diagnostic::do_not_recommend]
        impl<'a, T> DeviceSrc<'a, T> for &$name<'_, T> {}
        impl<T> $crate::memory::operand::sealed::DeviceSrc for &$name<'_, T> {}
    };
}

view_type!(
    /// A capture closure's view of device memory given to the capture for reading: `len` `T`s.
    ///
    /// It is an argument of cudarc's calls and cuBLAS (it implements cudarc's `DevicePtr`), and a
    /// [`DeviceSrc`] of the [`CaptureScope`](super::CaptureScope)'s calls: of the capture's own
    /// work, nothing else's (a node added to a graph refuses it).
    ///
    /// # Panics
    /// In a cudarc call on a stream outside the capture: the capture's stream and the streams
    /// forked from it by [`CaptureScope::fork`](super::CaptureScope::fork) take it, while the
    /// fork lasts (work enqueued elsewhere would run at once, on memory nothing orders with it or
    /// keeps alive for it).
    CaptureView
);
view_type!(
    /// A capture closure's view of device memory given to the capture for writing: `len` `T`s.
    ///
    /// It is an argument of cudarc's calls and cuBLAS (it implements cudarc's `DevicePtr` and
    /// `DevicePtrMut`), and a [`DeviceSrc`] and [`DeviceDst`] of the
    /// [`CaptureScope`](super::CaptureScope)'s calls: of the capture's own work only.
    ///
    /// It is to its memory what a `&mut [T]` is: its parts ([`CaptureViewMut::try_slice`],
    /// [`CaptureViewMut::try_split_at_mut`]) and its view to read ([`CaptureViewMut::as_view`])
    /// borrow it, so no two views that overlap, one of them writable, are ever used at once (it
    /// is neither `Clone` nor `Copy`). cudarc's calls could otherwise copy between overlapping
    /// memory, which CUDA leaves undefined, and a [`Replay`](super::Replay)'s warm-up runs the
    /// closure's calls before any check.
    ///
    /// # Panics
    /// In a cudarc call on a stream outside the capture, as [`CaptureView`].
    CaptureViewMut
);

impl<T> CudarcDevicePtrMut<T> for CaptureViewMut<'_, T> {
    #[track_caller]
    fn device_ptr_mut<'b>(
        &'b mut self,
        stream: &'b CudaStream,
    ) -> (sys::CUdeviceptr, SyncOnDrop<'b>) {
        if !self.streams.admits(stream) {
            outside_capture(stream);
        }
        self.streams.order_after_maker(self.maker, stream);
        (self.addr, SyncOnDrop::Record(None))
    }
}

#[diagnostic::do_not_recommend]
impl<'a, T> DeviceDst<'a, T> for &CaptureViewMut<'_, T> {}
impl<T> crate::memory::operand::sealed::DeviceDst for &CaptureViewMut<'_, T> {}

impl<T> CaptureView<'_, T> {
    /// Elements `range` of this view, to read; `None` when out of bounds. Views to read may
    /// overlap, so the part is a view of its own, as this one is.
    pub fn try_slice(&self, range: impl RangeBounds<usize>) -> Option<Self> {
        let (addr, len) = self.part(range)?;
        Some(Self {
            addr,
            len,
            streams: self.streams,
            maker: self.maker,
            _elem: PhantomData,
        })
    }
}

impl<T> CaptureViewMut<'_, T> {
    /// Elements `range` of this view, to write; `None` when out of bounds.
    ///
    /// The part borrows this view mutably, as `&mut slice[range]` borrows a slice: while the
    /// part is used, neither this view nor another part of it can be, so no view of the memory
    /// aliases one that may write it (a cudarc copy between two parts that overlap would be
    /// undefined: "The memory areas may not overlap", [`cudaMemcpyAsync`][memcpy] in the CUDA
    /// Runtime API's memory management). For two parts at once, see
    /// [`CaptureViewMut::try_split_at_mut`].
    ///
    /// [memcpy]: https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__MEMORY.html
    pub fn try_slice(&mut self, range: impl RangeBounds<usize>) -> Option<CaptureViewMut<'_, T>> {
        let (addr, len) = self.part(range)?;
        Some(CaptureViewMut {
            addr,
            len,
            streams: self.streams,
            maker: self.maker,
            _elem: PhantomData,
        })
    }

    /// This view split at element `mid` into two that do not overlap, elements `..mid` and
    /// `mid..`, both to write (to copy from one part of a buffer into another); `None` when `mid`
    /// is past the end. Both borrow this view mutably, as [`slice::split_at_mut`]'s halves do.
    ///
    /// ```no_run
    /// # use cudagraph_runtime::prelude::*;
    /// # use cudagraph_runtime::Mut;
    /// # fn f(stream: &std::sync::Arc<cudarc::driver::CudaStream>, x: &DeviceBuffer<f32>)
    /// #     -> cudagraph_runtime::Result<()> {
    /// // Copies the first half of `x` over the start of its second, by cudarc's call.
    /// let graph = Graph::capture(stream, Mut(x), |s, mut x| {
    ///     let (head, mut tail) = x.try_split_at_mut(x.len() / 2).expect("within x");
    ///     s.memcpy_dtod(&head, &mut tail)
    /// })?;
    /// # Ok(()) }
    /// ```
    pub fn try_split_at_mut(
        &mut self,
        mid: usize,
    ) -> Option<(CaptureViewMut<'_, T>, CaptureViewMut<'_, T>)> {
        let (head, head_len) = self.part(..mid)?;
        let (tail, tail_len) = self.part(mid..)?;
        let view = |addr, len| CaptureViewMut {
            addr,
            len,
            streams: self.streams,
            maker: self.maker,
            _elem: PhantomData,
        };
        Some((view(head, head_len), view(tail, tail_len)))
    }

    /// The same memory, to read. The view to read borrows this one, as `&*slice` borrows a
    /// `&mut` slice: while it is used, cudarc's calls cannot take this view to write (they take
    /// it by `&mut`), so they cannot copy the memory onto itself, which CUDA leaves undefined.
    /// The [`CaptureScope`](super::CaptureScope)'s own calls take both by shared reference and
    /// check what they get (a copy between overlapping memory is refused, as a memcpy node is).
    pub fn as_view(&self) -> CaptureView<'_, T> {
        CaptureView {
            addr: self.addr,
            len: self.len,
            streams: self.streams,
            maker: self.maker,
            _elem: PhantomData,
        }
    }
}

/// Implements [`CaptureOperand`] for `$ty`, read (`CaptureView`) or written (`CaptureViewMut`):
/// `|$o| $use` makes the use from the operand `$o`.
macro_rules! operand {
    ($([$($gen:tt)*] $ty:ty, $view:ident, |$o:ident| $use:expr;)*) => {$(
        impl<$($gen)*> sealed::Sealed for $ty {}
        impl<$($gen)*> CaptureOperand<'a> for $ty {
            type View<'v> = $view<'v, T>;
            fn into_use(self) -> Result<Use<'a>> {
                let $o = self;
                $use
            }
            fn view<'v>(used: &Use<'a>, streams: &'v CaptureStreams) -> $view<'v, T> {
                $view::new(used, streams)
            }
        }
        // One operand alone is given as itself, its view alone (not a tuple of one).
        impl<$($gen)*> CaptureOperands<'a> for $ty {
            type Views<'v> = $view<'v, T>;
            fn into_uses(self, out: &mut Vec<Use<'a>>) -> Result<()> {
                out.push(CaptureOperand::into_use(self)?);
                Ok(())
            }
            fn views<'v>(uses: &[Use<'a>], streams: &'v CaptureStreams) -> $view<'v, T> {
                $view::new(&uses[0], streams)
            }
        }
    )*};
}
operand! {
    ['a, T: DeviceRepr + 'static] &DeviceBuffer<T>, CaptureView, |o| MemoryOperand::into_use(o, false);
    ['a, T: DeviceRepr + 'static] DeviceBuffer<T>, CaptureView, |o| MemoryOperand::into_use(o, false);
    ['a, T: DeviceRepr + 'static] &mut DeviceBuffer<T>, CaptureViewMut, |o| MemoryOperand::into_use(&*o, true);
    ['a, T: DeviceRepr + 'static] Mut<DeviceBuffer<T>>, CaptureViewMut, |o| MemoryOperand::into_use(o.0, true);
    ['a, T: DeviceRepr + 'static] Mut<&DeviceBuffer<T>>, CaptureViewMut, |o| MemoryOperand::into_use(o.0, true);
    ['a, T: DeviceRepr] &'a CudaSlice<T>, CaptureView, |o| MemoryOperand::into_use(o, false);
    ['a, T: DeviceRepr] &'a mut CudaSlice<T>, CaptureViewMut, |o| MemoryOperand::into_use(o, true);
    ['a, T: DeviceRepr] CudaView<'a, T>, CaptureView, |o| MemoryOperand::into_use(o, false);
    ['a, T: DeviceRepr] CudaViewMut<'a, T>, CaptureViewMut, |o| MemoryOperand::into_use(o, true);
    ['a, T: DeviceRepr] DevicePtr<T>, CaptureView, |o| MemoryOperand::into_use(o, false);
    ['a, T: DeviceRepr] DevicePtrMut<T>, CaptureViewMut, |o| MemoryOperand::into_use(o, true);
}

impl sealed::Sealed for () {}
impl<'a> CaptureOperands<'a> for () {
    type Views<'v> = ();
    fn into_uses(self, _: &mut Vec<Use<'a>>) -> Result<()> {
        Ok(())
    }
    fn views<'v>(_: &[Use<'a>], _: &'v CaptureStreams) {}
}

macro_rules! tuple_operands {
    ($($o:ident $i:tt),*) => {
        impl<'a, $($o: CaptureOperand<'a>),*> sealed::Sealed for ($($o,)*) {}
        impl<'a, $($o: CaptureOperand<'a>),*> CaptureOperands<'a> for ($($o,)*) {
            type Views<'v> = ($($o::View<'v>,)*);
            fn into_uses(self, out: &mut Vec<Use<'a>>) -> Result<()> {
                $(out.push(self.$i.into_use()?);)*
                Ok(())
            }
            fn views<'v>(uses: &[Use<'a>], streams: &'v CaptureStreams) -> Self::Views<'v> {
                ($($o::view(&uses[$i], streams),)*)
            }
        }
    };
}
tuple_operands!(A 0);
tuple_operands!(A 0, B 1);
tuple_operands!(A 0, B 1, C 2);
tuple_operands!(A 0, B 1, C 2, D 3);
tuple_operands!(A 0, B 1, C 2, D 3, E 4);
tuple_operands!(A 0, B 1, C 2, D 3, E 4, F 5);
tuple_operands!(A 0, B 1, C 2, D 3, E 4, F 5, G 6);
tuple_operands!(A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7);

/// Refuses operands that overlap with one of them written: the closure would get a writable
/// view aliasing another view.
pub(crate) fn check_apart(uses: &[Use<'_>]) -> Result<()> {
    for (i, a) in uses.iter().enumerate() {
        if uses[..i].iter().any(|b| a.conflicts_with(b)) {
            return Err(Error::Invalid {
                node: "<capture>".into(),
                reason: "two pieces of memory given to the capture overlap and one is written: \
                         give each buffer once (slice its view inside the closure)"
                    .into(),
            });
        }
    }
    Ok(())
}
