//! Symmetric buffers ([`Communicator::alloc_symmetric`]): memory NCCL allocates
//! (`ncclMemAlloc`) and every rank registers together as a window of the communicator
//! (`ncclCommWindowRegister` with `NCCL_WIN_COLL_SYMMETRIC`, NCCL 2.27 or newer), which NCCL's
//! symmetric kernels read and write on the peers directly: the lowest latency NCCL has for
//! small collectives between the GPUs of one node.
//!
//! NCCL's rule for them: "all ranks of a communicator must pass buffers at the same offset in the
//! same registration" (<https://github.com/NVIDIA/nccl/releases/tag/v2.27.3-1>), or a rank's
//! kernel reads and writes its peers' memory at the wrong place. A collective node records where
//! its buffers lie (`windows`), and the order check that compares every
//! rank's collectives at instantiation compares that too.
//!
//! A window is deregistered by every rank together, which a buffer's release, on one rank at a
//! time, cannot do: the windows live as long as the communicator (NCCL releases them when it is
//! aborted), and their memory is freed after that (`ncclMemFree`). A dropped symmetric buffer's
//! memory therefore comes back when its communicator is dropped.

use cudarc::driver::CudaSlice;
use cudarc::nccl::sys;

use super::comm::Communicator;
use super::error::nccl_err;
use super::op::NcclElem;
use super::windows::MAX_WINDOWS;
use crate::error::{Error, Result};
use crate::memory::foreign::Foreign;
use crate::memory::DeviceBuffer;

/// `NCCL_WIN_COLL_SYMMETRIC` (nccl.h): a window every rank registers alike, for collectives.
const WIN_COLL_SYMMETRIC: i32 = 0x01;

/// The first NCCL release with windows (`ncclCommWindowRegister`), as `ncclGetVersion` gives it.
const FIRST_VERSION: i32 = 22700;

impl Communicator {
    /// A buffer of `len` zeroed `T`s in NCCL's symmetric memory: allocated by NCCL
    /// (`ncclMemAlloc`) and registered as a window of this communicator by every rank together
    /// (`ncclCommWindowRegister` with `NCCL_WIN_COLL_SYMMETRIC`). Collectives on such buffers
    /// run NCCL's symmetric kernels (NCCL 2.27 or newer, ranks of one node; sums of elements of
    /// 32 bits or fewer), the lowest latency NCCL has for small messages; elsewhere NCCL runs
    /// its usual algorithms on them.
    ///
    /// Every rank must call it at the same point with the same `len` (it blocks until they all
    /// have), and a collective node must use the same buffer at the same offset on every rank:
    /// the collective order check refuses one where the ranks' buffers lie differently
    /// ([`Error::CollectiveMismatch`]).
    ///
    /// The buffer is a [`DeviceBuffer`] like any other: graphs and executables keep it alive,
    /// and host code reads it after the launches that write it. Its memory is given back when
    /// the communicator is dropped (a window is released by every rank together, which one
    /// buffer's drop cannot do), so allocate symmetric buffers once and reuse them.
    ///
    /// Refused inside a host node and a capture closure (it waits for the other ranks);
    /// [`Error::Nccl`] from an NCCL without windows (older than 2.27) or when NCCL refuses.
    pub fn alloc_symmetric<T: NcclElem>(&self, len: usize) -> Result<DeviceBuffer<T>> {
        const WHO: &str = "Communicator::alloc_symmetric";
        crate::ambient::refuse_waiting(WHO)?;
        let bytes = len
            .checked_mul(std::mem::size_of::<T>())
            .filter(|&b| b > 0)
            .ok_or_else(|| Error::Invalid {
                node: WHO.into(),
                reason: format!("{len} elements of {} bytes: a symmetric buffer holds at least one byte and fewer than 2^64", std::mem::size_of::<T>()),
            })?;
        let version =
            cudarc::nccl::result::get_nccl_version().map_err(nccl_err("ncclGetVersion", WHO))?;
        if version < FIRST_VERSION {
            return Err(Error::Nccl {
                call: "ncclCommWindowRegister",
                node: WHO.into(),
                code: format!(
                    "NCCL {version} has no windows: symmetric buffers need NCCL 2.27 or newer"
                ),
            });
        }
        let inner = &self.inner;
        let ctx = inner.stream().context();
        ctx.bind_to_thread().map_err(|source| Error::Driver {
            call: "cuCtxSetCurrent",
            source,
        })?;
        // The buffer's own stream (its home, where its zeroing and release are ordered): not
        // the communicator's, which captures of collective nodes record.
        let home = ctx.new_stream().map_err(|source| Error::Driver {
            call: "cuStreamCreate",
            source,
        })?;
        // Registering is an NCCL call on the communicator: after the launches using it are
        // over (see `wait_for_last`), with none starting until it is made.
        let last = inner.last();
        if inner.windows().len() >= MAX_WINDOWS {
            // Refused by every rank at the same call, before any NCCL call.
            return Err(Error::Invalid {
                node: WHO.into(),
                reason: format!(
                    "the communicator has {MAX_WINDOWS} symmetric buffers, the most it can tell \
                     apart: allocate fewer, larger ones and use parts of them"
                ),
            });
        }
        inner.wait_for_last(&last)?;
        let mut base = std::ptr::null_mut();
        // SAFETY: `base` receives an allocation of `bytes` bytes on the current device (this
        // communicator's).
        unsafe { sys::ncclMemAlloc(&mut base, bytes) }
            .result()
            .map_err(nccl_err("ncclMemAlloc", WHO))?;
        let mut windows = inner.windows();
        let mut window = std::ptr::null_mut();
        // SAFETY: a live communicator, used under its lock; `base` holds `bytes` bytes from
        // `ncclMemAlloc`, which stays allocated as long as the communicator (`Windows`).
        let registered = unsafe {
            sys::ncclCommWindowRegister(
                inner.lock().raw(),
                base,
                bytes,
                &mut window,
                WIN_COLL_SYMMETRIC,
            )
        }
        .result();
        if let Err(e) = registered {
            // SAFETY: the allocation above, registered nowhere, freed once.
            unsafe { sys::ncclMemFree(base) };
            return Err(nccl_err("ncclCommWindowRegister", WHO)(e));
        }
        // NCCL leaves `window` null where the communicator has no symmetric support (one rank,
        // or ranks NCCL cannot map to each other): the memory is still recorded, so that every
        // rank numbers its windows alike.
        windows.record(base as u64, bytes as u64);
        drop((windows, last));
        // SAFETY: `bytes` bytes of this context's memory, zeroed in stream order before any use
        // (every later use is ordered after the work on the buffer's home stream, this one).
        unsafe { cudarc::driver::result::memset_d8_async(base as u64, 0, bytes, home.cu_stream()) }
            .map_err(|source| Error::Driver {
                call: "cuMemsetD8Async",
                source,
            })?;
        // SAFETY: `len` `T`s of device memory of this context, live until the communicator
        // is dropped (`Windows`); zero bits are a valid `T` (an NCCL element type, a number).
        // The slice never frees it: the release takes it out (`Foreign::free_after`) first.
        let slice: CudaSlice<T> = unsafe { home.upgrade_device_ptr(base as u64, len) };
        let held = inner.clone();
        // The buffer holds the communicator, whose windows hold the memory, until its last use.
        let owner = Foreign::new(ctx, move |_| drop(held));
        Ok(DeviceBuffer::from_foreign(slice, owner))
    }
}
