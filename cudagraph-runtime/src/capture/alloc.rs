//! Device memory allocated inside a capture ([`CaptureAlloc`]), and the capture's record of
//! each such allocation (who made and used it, whether it was viewed or freed).

use std::cell::RefCell;
use std::marker::PhantomData;
use std::sync::Arc;

use cudarc::driver::{sys, CudaStream};

use super::operands::{CaptureView, CaptureViewMut};
use super::sequence::CaptureStreams;
use crate::error::Result;
use crate::memory::alloc::Space;
use crate::memory::operand::sealed::MemoryOperand;
use crate::memory::operand::{DeviceDst, DeviceSrc, Hold, MemKey, Use};

/// An allocation made by [`CaptureScope::alloc`]: its bytes, the streams that made and used it
/// through this crate's calls, whether a view of it went to cudarc, whether it was freed.
#[derive(Debug, Clone)]
pub(crate) struct AllocEntry {
    pub(crate) range: std::ops::Range<sys::CUdeviceptr>,
    pub(crate) streams: Vec<Arc<CudaStream>>,
    pub(crate) viewed: bool,
    pub(crate) freed: bool,
}

/// Device memory allocated inside a capture ([`CaptureScope::alloc`](super::CaptureScope::alloc)):
/// a graph allocation of `len` `T`s, made each time the graph runs and freed by
/// [`CaptureScope::free`](super::CaptureScope::free) or at the end of the capture.
///
/// Give it (by reference) to the capture scope's calls, on any stream of the capture: a call on
/// a stream that neither made nor used it yet is first ordered after the work recorded so far on
/// the stream that made it (so after its alloc node), as is a conditional node whose bodies use
/// it. It exists only inside the capture closure (`'s`), and only the capture's own work may use
/// it.
pub struct CaptureAlloc<'s, T> {
    pub(crate) addr: sys::CUdeviceptr,
    pub(crate) len: usize,
    /// The capture's streams, which its views check (see [`CaptureStreams`]).
    streams: &'s CaptureStreams,
    /// The capture's record of its allocations, and this one's place in it.
    allocs: &'s RefCell<Vec<AllocEntry>>,
    pub(crate) index: usize,
    _elem: PhantomData<fn() -> T>,
}

impl<T> std::fmt::Debug for CaptureAlloc<'_, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "CaptureAlloc<{}>({:#x}, len {})",
            std::any::type_name::<T>(),
            self.addr,
            self.len
        )
    }
}

impl<'s, T> CaptureAlloc<'s, T> {
    pub(crate) fn new(
        addr: sys::CUdeviceptr,
        len: usize,
        streams: &'s CaptureStreams,
        (allocs, index): (&'s RefCell<Vec<AllocEntry>>, usize),
    ) -> Self {
        Self {
            addr,
            len,
            streams,
            allocs,
            index,
            _elem: PhantomData,
        }
    }

    /// Notes that a view went out: its uses (cudarc's, on any stream) are not followed, so the
    /// allocation's free waits for every stream of the capture. Returns the stream that made
    /// the allocation (its raw handle as an address), which the view orders cudarc's work on
    /// other streams after.
    fn viewed(&self) -> usize {
        match self.allocs.borrow_mut().get_mut(self.index) {
            Some(entry) => {
                entry.viewed = true;
                entry.streams[0].cu_stream() as usize
            }
            None => 0,
        }
    }

    /// The allocation as a view to read, for cudarc's calls and cuBLAS, on any stream of the
    /// capture: a call on another stream than the one that made the allocation is first ordered
    /// after the work recorded so far on that one (so after the alloc node).
    pub fn view(&self) -> CaptureView<'_, T> {
        let maker = self.viewed();
        CaptureView {
            addr: self.addr,
            len: self.len,
            streams: self.streams,
            maker,
            _elem: PhantomData,
        }
    }

    /// The allocation as a view to write, for cudarc's calls and cuBLAS (ordered as
    /// [`CaptureAlloc::view`] says).
    pub fn view_mut(&mut self) -> CaptureViewMut<'_, T> {
        let maker = self.viewed();
        CaptureViewMut {
            addr: self.addr,
            len: self.len,
            streams: self.streams,
            maker,
            _elem: PhantomData,
        }
    }

    /// The device address (fixed for every launch of the graph).
    pub fn addr(&self) -> sys::CUdeviceptr {
        self.addr
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether it holds no element (never: an allocation holds at least one).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn key(&self) -> MemKey {
        MemKey {
            start: self.addr,
            end: self.addr + (self.len * std::mem::size_of::<T>()) as u64,
            owner: std::ptr::null(),
        }
    }
}

impl<'a, T> MemoryOperand<'a> for &CaptureAlloc<'_, T> {
    type Elem = T;
    fn key(&self) -> MemKey {
        (*self).key()
    }
    fn len(&self) -> usize {
        self.len
    }
    fn into_use(self, write: bool) -> Result<Use<'a>> {
        let key = self.key();
        Ok(Use {
            space: Space::Device,
            start: key.start,
            end: key.end,
            write,
            host_code: false,
            hold: Hold::Captured {
                capture: self.streams.id,
            },
        })
    }
}
#[diagnostic::do_not_recommend]
impl<'a, T> DeviceSrc<'a, T> for &CaptureAlloc<'_, T> {}
impl<T> crate::memory::operand::sealed::DeviceSrc for &CaptureAlloc<'_, T> {}
impl<'a, T> DeviceDst<'a, T> for &CaptureAlloc<'_, T> {}
impl<T> crate::memory::operand::sealed::DeviceDst for &CaptureAlloc<'_, T> {}
