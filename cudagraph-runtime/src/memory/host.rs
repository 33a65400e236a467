//! [`HostBuffer`]: page-locked host memory that graphs share ownership of, and that host code
//! reads and writes through guards.

use std::ops::{Deref, DerefMut};
use std::sync::{Arc, RwLock, RwLockReadGuard, RwLockWriteGuard, TryLockError};

use cudarc::driver::{CudaContext, CudaStream, DeviceRepr, PinnedHostSlice, ValidAsZeroBits};

use super::alloc::{drop_after_fences, AccessScope, AllocState, Allocation, Space};
use super::operand::sealed::MemoryOperand;
use super::operand::{Hold, HostDst, HostSrc, MemKey, Use};
use super::shared::{owned_operand, range_methods, Shared};
use crate::ambient::{in_capture, in_host_node, refuse_waiting};
use crate::error::{Error, Result};

/// Page-locked host memory shared by reference counting: `T`s on the host that copies read and
/// write asynchronously, and that host code reaches through [`read`] and [`write`].
///
/// Clones are cheap and share the allocation. Graphs keep the allocation alive as
/// [`DeviceBuffer`](crate::DeviceBuffer)s are. A guard waits (on the host) for every launch
/// enqueued so far that may use the memory, and while it is alive those executables refuse to
/// launch ([`Error::BufferInUse`]): host code never sees memory a launch may be writing, and a
/// launch never copies memory host code is writing. Launches nobody reads cost nothing extra.
///
/// ```no_run
/// # use cudagraph_runtime::HostBuffer;
/// # fn f(ctx: &std::sync::Arc<cudagraph_runtime::cudarc::driver::CudaContext>) -> cudagraph_runtime::Result<()> {
/// let out = HostBuffer::<f32>::zeroed(ctx, 1024)?;
/// // ... a graph copies its result into `out`; launch it ...
/// let sum: f32 = out.read()?.iter().sum(); // waits for those launches
/// # Ok(()) }
/// ```
///
/// [`read`]: HostBuffer::read
/// [`write`]: HostBuffer::write
pub struct HostBuffer<T: 'static> {
    shared: Shared<HostAlloc<T>>,
}

/// One page-locked allocation and the record of its users.
pub(crate) struct HostAlloc<T: 'static> {
    /// `None` once the final release took it, and for a buffer of no bytes (nothing allocated).
    pinned: Option<PinnedHostSlice<T>>,
    ptr: *mut T,
    len: usize,
    state: AllocState,
    /// Host guards: any number of readers or one writer.
    guards: RwLock<()>,
}

// SAFETY: the memory is reached only through guards (which exclude each other as a `RwLock`
// does, and exclude launches that may use it) and through host nodes (ordered against every
// other use of the memory in their graph, and alone in using it among executables when either
// writes it). `T: Send + Sync` for the elements themselves.
unsafe impl<T: Send + Sync + 'static> Send for HostAlloc<T> {}
// SAFETY: as above.
unsafe impl<T: Send + Sync + 'static> Sync for HostAlloc<T> {}

range_methods!(HostBuffer);

impl<T: 'static> std::fmt::Debug for HostBuffer<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "HostBuffer<{}>({:p}, len {})",
            std::any::type_name::<T>(),
            self.ptr(),
            self.len()
        )
    }
}

impl<T: DeviceRepr + ValidAsZeroBits + 'static> HostBuffer<T> {
    /// Takes over a cudarc page-locked allocation (waiting for cudarc's copies of it to finish).
    pub fn from_pinned(mut pinned: PinnedHostSlice<T>) -> Result<Self> {
        let ptr = pinned.as_mut_ptr()?;
        let len = pinned.len();
        let alloc = HostAlloc {
            pinned: Some(pinned),
            ptr,
            len,
            state: AllocState::default(),
            guards: RwLock::new(()),
        };
        Ok(Self {
            shared: Shared::new(alloc, len),
        })
    }

    /// `len` zeroed elements of page-locked memory in `ctx` (not write-combined: host code may
    /// read it back at full speed).
    ///
    /// Refused inside a capture closure ([`Error::Capturing`]): allocating page-locked memory may
    /// synchronize the device, which would break the capture. Refused ([`Error::Invalid`]) when
    /// `len` elements take more bytes than an `isize` holds.
    pub fn zeroed(ctx: &Arc<CudaContext>, len: usize) -> Result<Self> {
        refuse_waiting("HostBuffer::zeroed")?;
        if len == 0 || std::mem::size_of::<T>() == 0 {
            // No bytes to allocate (an empty batch, or elements of no size): the driver would
            // refuse a page-locked allocation of zero bytes.
            return Ok(Self::without_bytes(len));
        }
        super::check_alloc_size::<T>(len, "HostBuffer::zeroed")?;
        // SAFETY: flags 0 asks for plain page-locked memory; every byte is zeroed below, before
        // anything reads it, and zero bits are a valid `T`.
        let mut pinned = unsafe { ctx.alloc_pinned_with_flags::<T>(len, 0) }?;
        let ptr = pinned.as_mut_ptr()?;
        // SAFETY: `ptr` has room for `len` elements and nothing else refers to them yet.
        unsafe { std::ptr::write_bytes(ptr, 0, len) };
        Self::from_pinned(pinned)
    }
}

impl<T: 'static> HostBuffer<T> {
    /// A buffer of `len` elements that take no bytes (`len` is 0, or `T` has no size): nothing
    /// is allocated, and the elements live at a dangling, aligned address (the address of a
    /// slice with no bytes). Copies of it move nothing.
    fn without_bytes(len: usize) -> Self {
        let alloc = HostAlloc {
            pinned: None,
            ptr: std::ptr::NonNull::dangling().as_ptr(),
            len,
            state: AllocState::default(),
            guards: RwLock::new(()),
        };
        Self {
            shared: Shared::new(alloc, len),
        }
    }
}

impl<T: DeviceRepr + ValidAsZeroBits + Copy + 'static> HostBuffer<T> {
    /// A page-locked copy of `data` in `ctx`.
    pub fn from_slice(ctx: &Arc<CudaContext>, data: &[T]) -> Result<Self> {
        let buffer = Self::zeroed(ctx, data.len())?;
        // SAFETY: a fresh allocation of `data.len()` elements that nothing else refers to yet.
        unsafe { std::ptr::copy_nonoverlapping(data.as_ptr(), buffer.ptr(), data.len()) };
        Ok(buffer)
    }
}

impl<T: 'static> HostBuffer<T> {
    /// The address of the first element. Reading or writing through it is up to you.
    pub(crate) fn ptr(&self) -> *mut T {
        // SAFETY: `offset` is within the allocation (checked by `try_slice`).
        unsafe { self.shared.alloc.ptr.add(self.shared.offset) }
    }

    /// The address of the first element, for raw paths (`HostPtr::from_raw`, driver calls).
    /// Dereferencing it is `unsafe`: a launch may be using the memory; [`HostBuffer::read`]
    /// is the safe way.
    pub fn as_ptr(&self) -> *const T {
        self.ptr()
    }

    /// [`HostBuffer::as_ptr`], writable: the same caveats apply.
    pub fn as_mut_ptr(&self) -> *mut T {
        self.ptr()
    }
}

impl<T: Send + Sync + 'static> HostBuffer<T> {
    /// Reads the memory, once every launch enqueued so far that may write it has completed.
    ///
    /// Until the guard is dropped, executables that use the buffer refuse to launch
    /// ([`Error::BufferInUse`]) and no executable can start using it. Fails with
    /// [`Error::BufferInUse`] while a [`HostBuffer::write`] guard is alive, and with
    /// [`Error::Capturing`] inside a capture closure (the captured work has not run).
    pub fn read(&self) -> Result<HostReadGuard<'_, T>> {
        let lock = match self.shared.alloc.guards.try_read() {
            Ok(lock) => lock,
            Err(TryLockError::Poisoned(e)) => e.into_inner(),
            Err(TryLockError::WouldBlock) => return Err(self.busy("written through a guard")),
        };
        let scope = self.begin("HostBuffer::read")?;
        Ok(HostReadGuard {
            buffer: self,
            _lock: lock,
            scope: Some(scope),
        })
    }

    /// Writes the memory, once every launch enqueued so far that may use it has completed.
    ///
    /// Until the guard is dropped, executables that use the buffer refuse to launch
    /// ([`Error::BufferInUse`]) and no executable can start using it. Fails with
    /// [`Error::BufferInUse`] while another guard of the buffer is alive, and with
    /// [`Error::Capturing`] inside a capture closure.
    pub fn write(&self) -> Result<HostWriteGuard<'_, T>> {
        let lock = match self.shared.alloc.guards.try_write() {
            Ok(lock) => lock,
            Err(TryLockError::Poisoned(e)) => e.into_inner(),
            Err(TryLockError::WouldBlock) => {
                return Err(self.busy("read or written through another guard"))
            }
        };
        let scope = self.begin("HostBuffer::write")?;
        Ok(HostWriteGuard {
            buffer: self,
            _lock: lock,
            scope: Some(scope),
        })
    }

    /// A copy of the contents (see [`HostBuffer::read`]).
    pub fn to_vec(&self) -> Result<Vec<T>>
    where
        T: Clone,
    {
        Ok(self.read()?.to_vec())
    }

    fn busy(&self, reason: &str) -> Error {
        Error::BufferInUse {
            buffer: format!("{self:?}"),
            reason: format!("it is being {reason}"),
        }
    }

    /// Keeps the holders' launches out and waits for every launch that may use the memory.
    fn begin(&self, call: &'static str) -> Result<AccessScope> {
        if in_host_node() {
            return Err(Error::InHostNode {
                what: "HostBuffer::read/write (a host node reads its buffers through its own arguments)",
            });
        }
        refuse_waiting(call)?;
        let state = &self.shared.alloc.state;
        let scope = state.begin_access()?;
        for fence in &scope.wait_for {
            if let Err(e) = fence.done().wait_host() {
                state.end_access(scope, None);
                return Err(e);
            }
        }
        Ok(scope)
    }
}

/// Reads a [`HostBuffer`] (see [`HostBuffer::read`]); dereferences to `[T]`.
pub struct HostReadGuard<'b, T: Send + Sync + 'static> {
    buffer: &'b HostBuffer<T>,
    _lock: RwLockReadGuard<'b, ()>,
    scope: Option<AccessScope>,
}

/// Writes a [`HostBuffer`] (see [`HostBuffer::write`]); dereferences to `[T]`.
pub struct HostWriteGuard<'b, T: Send + Sync + 'static> {
    buffer: &'b HostBuffer<T>,
    _lock: RwLockWriteGuard<'b, ()>,
    scope: Option<AccessScope>,
}

impl<T: Send + Sync + 'static> Deref for HostReadGuard<'_, T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        // SAFETY: the guard keeps out every other access (host writers by the lock, launches that
        // may use the memory by the gate, after waiting for the earlier ones); the memory was
        // initialized when allocated and since written only with `T`s.
        unsafe { std::slice::from_raw_parts(self.buffer.ptr(), self.buffer.len()) }
    }
}

impl<T: Send + Sync + 'static> Deref for HostWriteGuard<'_, T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        // SAFETY: as for `HostReadGuard`, and this guard is the only one.
        unsafe { std::slice::from_raw_parts(self.buffer.ptr(), self.buffer.len()) }
    }
}

impl<T: Send + Sync + 'static> DerefMut for HostWriteGuard<'_, T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as for `deref`; `&mut self` makes this borrow unique.
        unsafe { std::slice::from_raw_parts_mut(self.buffer.ptr(), self.buffer.len()) }
    }
}

macro_rules! guard_drop {
    ($($guard:ident),*) => {$(
        impl<T: Send + Sync + 'static> Drop for $guard<'_, T> {
            fn drop(&mut self) {
                if let Some(scope) = self.scope.take() {
                    self.buffer.shared.alloc.state.end_access(scope, None);
                }
            }
        }

        impl<T: Send + Sync + 'static> std::fmt::Debug for $guard<'_, T> {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_struct(stringify!($guard))
                    .field("buffer", self.buffer)
                    .finish_non_exhaustive()
            }
        }
    )*};
}
guard_drop!(HostReadGuard, HostWriteGuard);

impl<T: Send + Sync + 'static> Allocation for HostAlloc<T> {
    fn state(&self) -> &AllocState {
        &self.state
    }
    fn space(&self) -> Space {
        Space::Host
    }
    fn home(&self) -> Option<&Arc<CudaStream>> {
        None
    }
    fn range(&self) -> (u64, u64) {
        let start = self.ptr as u64;
        (start, start + (self.len * std::mem::size_of::<T>()) as u64)
    }
}

impl<T: 'static> Drop for HostAlloc<T> {
    /// Frees the memory once the executables that released it are done with it. That is a wait
    /// on the host, so when one of them may still run (or this runs inside a host node, where no
    /// CUDA call is allowed) the reaper does it.
    fn drop(&mut self) {
        let released = self.state.take_released();
        let Some(pinned) = self.pinned.take() else {
            return;
        };
        // Freeing page-locked memory may synchronize the device: not in a host node, nor
        // inside a capture closure (it would break the capture).
        let settled = !in_host_node()
            && !in_capture()
            && released
                .iter()
                .all(|fence| fence.done().is_complete().unwrap_or(false));
        if settled {
            drop(pinned);
            return;
        }
        drop_after_fences(pinned, released);
    }
}

// ---------------------------------------------------------------------------------------------
// As a memory operand: the graph keeps a reference to the allocation.

impl<T: Send + Sync + 'static> HostBuffer<T> {
    fn key_of(&self) -> MemKey {
        let start = self.ptr() as u64;
        MemKey {
            start,
            end: start + self.num_bytes() as u64,
            owner: Arc::as_ptr(&self.shared.alloc).cast(),
        }
    }

    /// This buffer as a use by a node: written or not, by host code (a host node) or not.
    pub(crate) fn use_of<'a>(&self, write: bool, host_code: bool) -> Use<'a> {
        let key = self.key_of();
        Use {
            space: Space::Host,
            start: key.start,
            end: key.end,
            write,
            host_code,
            hold: Hold::Owned(self.shared.alloc.clone()),
        }
    }
}

owned_operand!(HostBuffer, Send + Sync + 'static);

// Only the source impls are `do_not_recommend`: a wrong-direction error then explains the
// direction, while a destination error lists the buffer type to use.
#[diagnostic::do_not_recommend]
impl<'a, T: Send + Sync + 'static> HostSrc<'a, T> for &HostBuffer<T> {}
impl<T: Send + Sync + 'static> crate::memory::operand::sealed::HostSrc for &HostBuffer<T> {}
impl<'a, T: Send + Sync + 'static> HostDst<'a, T> for &HostBuffer<T> {}
impl<T: Send + Sync + 'static> crate::memory::operand::sealed::HostDst for &HostBuffer<T> {}
#[diagnostic::do_not_recommend]
impl<'a, T: Send + Sync + 'static> HostSrc<'a, T> for HostBuffer<T> {}
impl<T: Send + Sync + 'static> crate::memory::operand::sealed::HostSrc for HostBuffer<T> {}
impl<'a, T: Send + Sync + 'static> HostDst<'a, T> for HostBuffer<T> {}
impl<T: Send + Sync + 'static> crate::memory::operand::sealed::HostDst for HostBuffer<T> {}
