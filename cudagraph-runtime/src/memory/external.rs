//! [`ExternalMemory`]: memory of another API (Vulkan, D3D12) imported into CUDA
//! ([`cuImportExternalMemory`]), mapped as a [`DeviceBuffer`] that graphs use like any other.
//!
//! The buffer's allocation owns the mapping and the import: its final release, once the launches
//! that may use it are done, frees the mapping (`cuMemFree`, as CUDA's rule for a mapped buffer
//! says) and only then destroys the import (`cuDestroyExternalMemory`, which requires the
//! mappings freed first).
//!
//! [`cuImportExternalMemory`]: https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__EXTRES__INTEROP.html

use std::mem::ManuallyDrop;
use std::sync::Arc;

use cudarc::driver::{sys, CudaContext, CudaStream, DeviceRepr};

use super::foreign::Foreign;
use super::DeviceBuffer;
use crate::ambient::refuse_in_host_node;
use crate::driver::{named, record_err, result};
use crate::error::{Error, Result};

/// Memory of another API (Vulkan, D3D12), imported into CUDA (`cuImportExternalMemory`): map it
/// as a [`DeviceBuffer`] with [`ExternalMemory::into_buffer`].
///
/// Dropped unmapped, it destroys the import (`cuDestroyExternalMemory`); the other API's memory
/// itself is that API's to free.
pub struct ExternalMemory {
    raw: sys::CUexternalMemory,
    size: u64,
    /// Taken by the drop, which moves it to where the import is destroyed.
    ctx: ManuallyDrop<Arc<CudaContext>>,
}

// SAFETY: a driver handle, usable from any thread; destroyed once, by its owner.
unsafe impl Send for ExternalMemory {}
// SAFETY: `&ExternalMemory` only reads the handle and the size.
unsafe impl Sync for ExternalMemory {}

impl std::fmt::Debug for ExternalMemory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ExternalMemory({:p}, {} bytes)", self.raw, self.size)
    }
}

impl ExternalMemory {
    /// Imports memory that another API exported as a file descriptor: a Vulkan
    /// `VkDeviceMemory` exported with `vkGetMemoryFdKHR` as
    /// `VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT` (`VK_KHR_external_memory_fd`). `size` is
    /// the memory object's size in bytes (its `VkMemoryAllocateInfo::allocationSize`);
    /// `dedicated` says whether it is a dedicated allocation (`VkMemoryDedicatedAllocateInfo`),
    /// which CUDA must be told (`CUDA_EXTERNAL_MEMORY_DEDICATED`).
    ///
    /// The descriptor is CUDA's once the import succeeds (CUDA's rule: "ownership of the file
    /// descriptor is transferred to the CUDA driver"), so this takes it; when the import fails
    /// it is closed here. Refused ([`Error::InHostNode`]) inside a host node, where CUDA forbids
    /// driver calls.
    ///
    /// # Safety
    /// `fd` is an exported memory object of `size` bytes (CUDA cannot check the size, and maps
    /// what it is told). Whatever the other API writes into the memory is read as the buffer's
    /// elements, so each [`ExternalMemory::into_buffer`] element type must be valid for every
    /// bit pattern (it is bound by [`bytemuck::AnyBitPattern`]); the other API's accesses must be
    /// ordered with CUDA's (external semaphores) for the values to mean anything, but they cannot
    /// make this crate's safe calls unsound.
    #[cfg(unix)]
    pub unsafe fn from_fd(
        ctx: &Arc<CudaContext>,
        fd: std::os::fd::OwnedFd,
        size: u64,
        dedicated: bool,
    ) -> Result<Self> {
        use std::os::fd::{AsRawFd, IntoRawFd};
        // SAFETY: a union of an integer and pointers, for which zeros are valid. (The whole
        // description is not zeroed: its handle type is an enum without a zero value.)
        let mut handle: sys::CUDA_EXTERNAL_MEMORY_HANDLE_DESC_st__bindgen_ty_1 =
            unsafe { std::mem::zeroed() };
        handle.fd = fd.as_raw_fd();
        let desc = sys::CUDA_EXTERNAL_MEMORY_HANDLE_DESC {
            type_: sys::CUexternalMemoryHandleType::CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD,
            handle,
            size,
            flags: if dedicated {
                sys::CUDA_EXTERNAL_MEMORY_DEDICATED
            } else {
                0
            },
            reserved: [0; 16],
        };
        // SAFETY: the caller's promise; `desc` names an open descriptor we own, which the driver
        // takes on success only.
        let imported = unsafe { Self::import(ctx, &desc, "ExternalMemory::from_fd") }?;
        // The driver owns the descriptor now: closing it would be undefined behaviour.
        let _ = fd.into_raw_fd();
        Ok(imported)
    }

    /// Imports memory described by a raw handle description: for the handle types
    /// [`ExternalMemory::from_fd`] does not take (D3D12 heaps and resources, Windows handles,
    /// NvSciBuf objects, dma-buf descriptors).
    ///
    /// # Safety
    /// As for [`ExternalMemory::from_fd`]: `desc` is valid for `cuImportExternalMemory` (its
    /// handle live and of its type, `desc.size` the memory object's size). Where CUDA takes
    /// ownership of the handle on success (a file descriptor), the caller gives it up then.
    pub unsafe fn from_raw(
        ctx: &Arc<CudaContext>,
        desc: &sys::CUDA_EXTERNAL_MEMORY_HANDLE_DESC,
    ) -> Result<Self> {
        // SAFETY: the caller's promise.
        unsafe { Self::import(ctx, desc, "ExternalMemory::from_raw") }
    }

    /// `cuImportExternalMemory` in `ctx`, for the public call `call`: refused
    /// ([`Error::InHostNode`]) inside a host node, where CUDA forbids driver calls (a descriptor
    /// the caller gave is then closed by the caller's drop).
    ///
    /// # Safety
    /// As for [`ExternalMemory::from_raw`].
    unsafe fn import(
        ctx: &Arc<CudaContext>,
        desc: &sys::CUDA_EXTERNAL_MEMORY_HANDLE_DESC,
        call: &'static str,
    ) -> Result<Self> {
        refuse_in_host_node(call)?;
        named("cuCtxSetCurrent", ctx.bind_to_thread())?;
        // SAFETY: the caller's promise; `ctx` is current.
        let raw = unsafe { result::interop::import_memory(desc) }?;
        Ok(Self {
            raw,
            size: desc.size,
            ctx: ManuallyDrop::new(ctx.clone()),
        })
    }

    /// The size of the memory object, in bytes.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// Maps `len` elements of type `T` at byte `offset` of the memory
    /// (`cuExternalMemoryGetMappedBuffer`) as a [`DeviceBuffer`] whose own work is ordered on
    /// `stream`: a buffer like any other for graphs (kernel arguments, memcpy and memset nodes)
    /// and for host access, whose memory the other API shares. The buffer owns the mapping and
    /// the import: they are freed once the buffer, its clones and the launches that may use it
    /// are gone. (Slice the buffer for several ranges of one memory.)
    ///
    /// Refused ([`Error::Invalid`]) when the range is not inside the memory, when `offset` is
    /// not a multiple of `T`'s alignment, or when `stream` is of another context; and
    /// ([`Error::InHostNode`]) inside a host node.
    pub fn into_buffer<T: DeviceRepr + bytemuck::AnyBitPattern>(
        self,
        stream: &Arc<CudaStream>,
        offset: u64,
        len: usize,
    ) -> Result<DeviceBuffer<T>> {
        // CUDA forbids driver calls in a host node (the import is then destroyed later, on the
        // release thread).
        refuse_in_host_node("ExternalMemory::into_buffer")?;
        let bytes = (len as u64).checked_mul(std::mem::size_of::<T>() as u64);
        let inside = bytes
            .and_then(|b| b.checked_add(offset))
            .is_some_and(|end| end <= self.size);
        let refuse = |reason: String| {
            Err(Error::Invalid {
                node: "ExternalMemory::into_buffer".into(),
                reason,
            })
        };
        if !inside {
            return refuse(format!(
                "{len} elements of {} bytes at offset {offset} do not fit in the {} bytes of the \
                 memory",
                std::mem::size_of::<T>(),
                self.size
            ));
        }
        if !offset.is_multiple_of(std::mem::align_of::<T>() as u64) {
            return refuse(format!(
                "offset {offset} is not a multiple of the alignment of `{}` ({})",
                std::any::type_name::<T>(),
                std::mem::align_of::<T>()
            ));
        }
        if stream.context().cu_ctx() != self.ctx.cu_ctx() {
            return refuse("the stream is of another context than the import's".into());
        }
        named("cuCtxSetCurrent", self.ctx.bind_to_thread())?;
        // SAFETY: a live import; the range is inside the memory (checked above).
        let base = named("cuExternalMemoryGetMappedBuffer", unsafe {
            cudarc::driver::result::external_memory::get_mapped_buffer(
                self.raw,
                offset,
                bytes.unwrap_or(0),
            )
        })?;
        // SAFETY: `base` is a mapping of `len` `T`s of this context, valid until it is freed;
        // every bit pattern is a valid `T`. The slice never frees it: the release takes it out
        // (`Foreign::free_after`) before cudarc could.
        let slice = unsafe { stream.upgrade_device_ptr::<T>(base, len) };
        let home = Arc::clone(&self.ctx);
        let ctx = home.clone();
        let release = move |base| {
            // SAFETY: the mapping of this import, freed once; the work that may use it is done.
            record_err(
                &ctx,
                named("cuMemFree", unsafe {
                    cudarc::driver::result::memory_free(base)
                }),
            );
            // Destroys the import, after its mapping.
            drop(self);
        };
        Ok(DeviceBuffer::from_foreign(
            slice,
            Foreign::new(&home, release),
        ))
    }
}

impl Drop for ExternalMemory {
    fn drop(&mut self) {
        // SAFETY: taken once, here; nothing reads `self.ctx` afterwards.
        let ctx = unsafe { ManuallyDrop::take(&mut self.ctx) };
        let destroy = |ctx: &Arc<CudaContext>, raw| {
            record_err(ctx, named("cuCtxSetCurrent", ctx.bind_to_thread()));
            // SAFETY: imported by us and destroyed once, here; its mapping, if it had one, was
            // freed first (`Foreign::free_after`).
            record_err(
                ctx,
                named("cuDestroyExternalMemory", unsafe {
                    cudarc::driver::result::external_memory::destroy_external_memory(raw)
                }),
            );
        };
        if crate::ambient::must_defer_releases() {
            // The import's own context reference moves there: with a clone sent there and this
            // one dropped here, this drop would be the last one (`cuDevicePrimaryCtxRelease`,
            // inside a host node) whenever the release thread's went first.
            let raw = SendHandle(self.raw);
            crate::reaper::run_later(Box::new(move || {
                destroy(&ctx, raw.get());
                true
            }));
        } else {
            destroy(&ctx, self.raw);
        }
    }
}

/// A raw driver handle on its way to the release thread.
struct SendHandle(sys::CUexternalMemory);

// SAFETY: a driver handle, usable from any thread; only the release thread uses it afterwards.
unsafe impl Send for SendHandle {}

impl SendHandle {
    /// The handle (a method, so that a closure captures the whole `Send` wrapper).
    fn get(&self) -> sys::CUexternalMemory {
        self.0
    }
}
