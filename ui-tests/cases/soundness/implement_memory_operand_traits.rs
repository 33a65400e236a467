//! The memory-operand traits say what a graph may do with memory: `DeviceDst` (write it on the
//! device), `HostDst` (write host memory). A shared borrow of a cudarc slice is a `DeviceSrc`
//! only, a shared borrow of a pinned host slice a `HostSrc` only: other code may read the memory
//! while the graph borrows it. Implementing the write traits for them (for an element type of
//! one's own, which the orphan rules allow) would let a graph write memory behind a shared
//! borrow (a memcpy into `&pinned` while host code holds `pinned.as_slice()`): the four traits
//! are sealed.
use cudagraph_runtime::cudarc::driver::{CudaSlice, DeviceRepr, PinnedHostSlice, ValidAsZeroBits};
use cudagraph_runtime::{DeviceDst, HostDst};

#[repr(C)]
#[derive(Clone, Copy)]
struct Elem(u32);

// SAFETY: a plain `u32`: every bit pattern is valid, zero included.
unsafe impl DeviceRepr for Elem {}
// SAFETY: as above.
unsafe impl ValidAsZeroBits for Elem {}

impl<'a> DeviceDst<'a, Elem> for &'a CudaSlice<Elem> {}
impl<'a> HostDst<'a, Elem> for &'a PinnedHostSlice<Elem> {}

fn main() {}
