//! The memory model: who keeps the memory of a graph's nodes alive, and who may touch it when.
//! The crate docs explain it (section "Memory model"); this module holds its parts.
//!
//! - `device`, `host`: the owned buffers, [`DeviceBuffer`] and [`HostBuffer`], each a range of a
//!   shared allocation (`shared`);
//! - `external`: another API's memory imported into CUDA ([`ExternalMemory`]), mapped as a
//!   [`DeviceBuffer`];
//! - `foreign`: memory another owner frees (an import's mapping, NCCL's symmetric memory), and
//!   its final release;
//! - `operand`: what a memory argument of a node becomes, and the traits saying which values
//!   can be one ([`DeviceSrc`], [`DeviceDst`], [`HostSrc`], [`HostDst`]);
//! - `alloc`: an allocation's record of the executables that use it and the guards that access it;
//! - `fence`: an executable's side of that record (launch gate, completion marker);
//! - `holdings`: an executable's uses of memory, registered with those records;
//! - `kept`: what a node's work needs alive that is not memory, held as memory is;
//! - `hazard`: conflicting uses of host memory by unordered nodes of one graph;
//! - `peer`: memory of another device in a copy node, and the access the copy needs;
//! - `outliving`: graph allocations an executable's launches leave live, and who frees them;
//! - `adopted`: such allocations given to a free node of a later graph;
//! - `registry`: what a [`scope`](crate::scope) waits for, the markers of its executables.

pub(crate) mod adopted;
pub(crate) mod alloc;
mod device;
mod external;
pub(crate) mod fence;
pub(crate) mod foreign;
pub(crate) mod hazard;
pub(crate) mod holdings;
mod host;
pub(crate) mod kept;
pub(crate) mod operand;
pub(crate) mod outliving;
pub(crate) mod peer;
pub(crate) mod registry;
pub(crate) mod shared;

pub use device::{DeviceAccess, DeviceBuffer};
pub use external::ExternalMemory;
pub use host::{HostBuffer, HostReadGuard, HostWriteGuard};
pub use operand::{DeviceDst, DeviceSrc, HostDst, HostSrc};

use crate::error::{Error, Result};

/// Refuses an allocation of `len` `T`s for `call` whose size in bytes does not fit in an
/// `isize`: cudarc's device allocation multiplies `len` by the element size unchecked (wrapped
/// in a release build, it allocated a few bytes for a buffer `len` elements long, which kernel
/// checks then trusted), and its page-locked allocation panics.
pub(crate) fn check_alloc_size<T>(len: usize, call: &'static str) -> Result<()> {
    let bytes = len.checked_mul(std::mem::size_of::<T>());
    if bytes.is_some_and(|b| b < isize::MAX as usize) {
        return Ok(());
    }
    Err(Error::Invalid {
        node: call.into(),
        reason: format!(
            "{len} elements of {} bytes: more bytes than memory can hold",
            std::mem::size_of::<T>()
        ),
    })
}
