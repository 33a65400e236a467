//! The Vulkan side of a frame loop shared with CUDA, through `ash`: a device (the CUDA device's
//! own, matched by UUID), a buffer and a timeline semaphore that it exports as file descriptors
//! (`VK_KHR_external_memory_fd`, `VK_KHR_external_semaphore_fd`) for CUDA to import, and each
//! frame's transfer work on them (`vkCmdFillBuffer`, `vkCmdCopyBuffer`: no shaders).
//!
//! Frame `k`'s submission waits (on the GPU) until the semaphore reaches `2k` (CUDA's signal of
//! the frame before), copies the shared buffer into slot `k - 1` of a host-visible readback
//! buffer, fills the shared buffer with frame `k`'s value and signals `2k + 1`, which CUDA waits
//! for. [`VulkanFrames::finish`] submits the copy of the last frame and is the only host wait.
//!
//! Vulkan needs a loader (`libvulkan.so.1`) and a driver for the device: without them,
//! [`VulkanFrames::new`] says [`VulkanError::Unavailable`], and programs skip.

use std::ffi::CStr;
use std::os::fd::{FromRawFd, OwnedFd};
use std::time::Duration;

use ash::vk;

/// Why the Vulkan side failed.
#[derive(Debug)]
pub enum VulkanError {
    /// No Vulkan here: no loader library, no driver, or no device that is the CUDA device and
    /// shares memory and timeline semaphores by file descriptor. Programs skip.
    Unavailable(String),
    /// A Vulkan call failed.
    Call {
        /// The Vulkan function.
        call: &'static str,
        /// What it returned.
        result: vk::Result,
    },
    /// Something else went wrong (a wait that timed out, no suitable memory type).
    Other(String),
}

impl std::fmt::Display for VulkanError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Unavailable(why) => write!(f, "no usable Vulkan device: {why}"),
            Self::Call { call, result } => write!(f, "{call} failed: {result:?}"),
            Self::Other(what) => f.write_str(what),
        }
    }
}

impl std::error::Error for VulkanError {}

/// `result` of Vulkan call `call`, as a [`VulkanError`].
fn vk_call<T>(call: &'static str, result: Result<T, vk::Result>) -> Result<T, VulkanError> {
    result.map_err(|result| VulkanError::Call { call, result })
}

/// How long the host waits for the last frame before calling the loop stuck.
const FINISH_TIMEOUT: Duration = Duration::from_secs(120);

/// A Vulkan device and the frame loop's objects on it: the buffer and timeline semaphore it shares
/// with CUDA, a host-visible readback buffer with a slot per frame, and a command buffer per
/// submission. Dropping it waits for the device to be idle and destroys them.
pub struct VulkanFrames {
    // Dropped by hand, in order (`Drop`).
    _entry: ash::Entry,
    instance: ash::Instance,
    device: ash::Device,
    queue: vk::Queue,
    family: u32,
    memory_fd: ash::khr::external_memory_fd::Device,
    semaphore_fd: ash::khr::external_semaphore_fd::Device,
    /// The buffer CUDA imports, and its memory.
    shared: vk::Buffer,
    shared_memory: vk::DeviceMemory,
    shared_size: u64,
    /// Whether `shared_memory` is a dedicated allocation (CUDA must be told).
    dedicated: bool,
    /// `frames` slots of the shared buffer's size, mapped for the host.
    readback: vk::Buffer,
    readback_memory: vk::DeviceMemory,
    mapped: *const u32,
    /// The semaphore CUDA imports.
    timeline: vk::Semaphore,
    /// Semaphores made by [`VulkanFrames::another_timeline`].
    extra: Vec<vk::Semaphore>,
    pool: vk::CommandPool,
    commands: Vec<vk::CommandBuffer>,
    done: vk::Fence,
    /// Elements of the shared buffer, and frames the readback buffer has slots for.
    elems: usize,
    frames: usize,
}

// SAFETY: Vulkan handles are usable from any thread with external synchronization, which `&mut
// self` gives; `mapped` points into memory this value owns.
unsafe impl Send for VulkanFrames {}

impl std::fmt::Debug for VulkanFrames {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VulkanFrames")
            .field("elems", &self.elems)
            .field("frames", &self.frames)
            .field("dedicated", &self.dedicated)
            .finish_non_exhaustive()
    }
}

/// What the CUDA side needs to import the shared objects.
#[derive(Debug)]
pub struct Exported {
    /// The shared buffer's memory, as an opaque file descriptor.
    pub memory: OwnedFd,
    /// Its size in bytes (the allocation's, which CUDA is told).
    pub memory_size: u64,
    /// Whether it is a dedicated allocation.
    pub dedicated: bool,
    /// The timeline semaphore, as an opaque file descriptor.
    pub semaphore: OwnedFd,
}

impl VulkanFrames {
    /// A Vulkan device that is the CUDA device of UUID `cuda_uuid`, with a shared buffer of
    /// `elems` `u32`s and a readback buffer for `frames` frames.
    pub fn new(cuda_uuid: [u8; 16], elems: usize, frames: usize) -> Result<Self, VulkanError> {
        // SAFETY: loads the system's Vulkan loader; nothing else runs its initialisation.
        let entry = unsafe { ash::Entry::load() }.map_err(|e| {
            VulkanError::Unavailable(format!("the Vulkan loader (libvulkan.so.1): {e}"))
        })?;
        let app = vk::ApplicationInfo::default()
            .application_name(c"cudagraph-vulkan-frames")
            .api_version(vk::API_VERSION_1_2);
        let info = vk::InstanceCreateInfo::default().application_info(&app);
        // SAFETY: a valid create info; the instance is destroyed in `Drop` (or below).
        let instance = unsafe { entry.create_instance(&info, None) }.map_err(|e| {
            VulkanError::Unavailable(format!("vkCreateInstance: {e:?} (no Vulkan driver?)"))
        })?;
        // From here on, a failure destroys what was made.
        match Self::on_instance(entry.clone(), instance.clone(), cuda_uuid, elems, frames) {
            Ok(frames) => Ok(frames),
            Err(e) => {
                // SAFETY: nothing made from the instance is alive (`on_instance` cleaned up).
                unsafe { instance.destroy_instance(None) };
                Err(e)
            }
        }
    }

    fn on_instance(
        entry: ash::Entry,
        instance: ash::Instance,
        cuda_uuid: [u8; 16],
        elems: usize,
        frames: usize,
    ) -> Result<Self, VulkanError> {
        let (physical, family) = pick_device(&instance, cuda_uuid)?;
        let priorities = [1.0f32];
        let queues = [vk::DeviceQueueCreateInfo::default()
            .queue_family_index(family)
            .queue_priorities(&priorities)];
        let extensions = [
            ash::khr::external_memory_fd::NAME.as_ptr(),
            ash::khr::external_semaphore_fd::NAME.as_ptr(),
        ];
        let mut vulkan12 = vk::PhysicalDeviceVulkan12Features::default().timeline_semaphore(true);
        let info = vk::DeviceCreateInfo::default()
            .queue_create_infos(&queues)
            .enabled_extension_names(&extensions)
            .push_next(&mut vulkan12);
        // SAFETY: a device of this instance, a valid create info.
        let device = vk_call("vkCreateDevice", unsafe {
            instance.create_device(physical, &info, None)
        })?;
        // SAFETY: family `family`, queue 0 exist (created above).
        let queue = unsafe { device.get_device_queue(family, 0) };
        let mut this = Self {
            memory_fd: ash::khr::external_memory_fd::Device::new(&instance, &device),
            semaphore_fd: ash::khr::external_semaphore_fd::Device::new(&instance, &device),
            _entry: entry,
            instance,
            device,
            queue,
            family,
            shared: vk::Buffer::null(),
            shared_memory: vk::DeviceMemory::null(),
            shared_size: 0,
            dedicated: false,
            readback: vk::Buffer::null(),
            readback_memory: vk::DeviceMemory::null(),
            mapped: std::ptr::null(),
            timeline: vk::Semaphore::null(),
            extra: Vec::new(),
            pool: vk::CommandPool::null(),
            commands: Vec::new(),
            done: vk::Fence::null(),
            elems,
            frames,
        };
        // On failure `this` is dropped, destroying what was made, and the device; the caller
        // destroys the instance, which `Drop` would destroy too: forget that part.
        match this.make_objects(physical) {
            Ok(()) => Ok(this),
            Err(e) => {
                this.destroy_objects();
                // SAFETY: the device is idle (nothing was submitted) and nothing of it is left.
                unsafe { this.device.destroy_device(None) };
                std::mem::forget(this);
                Err(e)
            }
        }
    }

    /// Makes the shared buffer, the readback buffer, the semaphore, the commands and the fence.
    fn make_objects(&mut self, physical: vk::PhysicalDevice) -> Result<(), VulkanError> {
        let bytes = (self.elems * 4) as u64;
        let usage = vk::BufferUsageFlags::TRANSFER_SRC
            | vk::BufferUsageFlags::TRANSFER_DST
            | vk::BufferUsageFlags::STORAGE_BUFFER;
        let opaque = vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD;
        // Whether the driver exports such a buffer, and whether only as a dedicated allocation.
        let mut external = vk::ExternalBufferProperties::default();
        let query = vk::PhysicalDeviceExternalBufferInfo::default()
            .usage(usage)
            .handle_type(opaque);
        // SAFETY: a device of this instance; valid in and out structs.
        unsafe {
            self.instance
                .get_physical_device_external_buffer_properties(physical, &query, &mut external)
        };
        let features = external.external_memory_properties.external_memory_features;
        if !features.contains(vk::ExternalMemoryFeatureFlags::EXPORTABLE) {
            return Err(VulkanError::Unavailable(
                "the device cannot export buffer memory as an opaque file descriptor".into(),
            ));
        }
        self.dedicated = features.contains(vk::ExternalMemoryFeatureFlags::DEDICATED_ONLY);

        let mut external_info = vk::ExternalMemoryBufferCreateInfo::default().handle_types(opaque);
        let info = vk::BufferCreateInfo::default()
            .size(bytes)
            .usage(usage)
            .sharing_mode(vk::SharingMode::EXCLUSIVE)
            .push_next(&mut external_info);
        // SAFETY: a valid create info; destroyed in `destroy_objects`.
        self.shared = vk_call("vkCreateBuffer", unsafe {
            self.device.create_buffer(&info, None)
        })?;
        // SAFETY: a buffer of this device.
        let needs = unsafe { self.device.get_buffer_memory_requirements(self.shared) };
        let device_local = self.memory_type(
            physical,
            needs.memory_type_bits,
            vk::MemoryPropertyFlags::DEVICE_LOCAL,
        )?;
        let mut export = vk::ExportMemoryAllocateInfo::default().handle_types(opaque);
        let mut dedicated = vk::MemoryDedicatedAllocateInfo::default().buffer(self.shared);
        let mut alloc = vk::MemoryAllocateInfo::default()
            .allocation_size(needs.size)
            .memory_type_index(device_local)
            .push_next(&mut export);
        if self.dedicated {
            alloc = alloc.push_next(&mut dedicated);
        }
        // SAFETY: a valid allocate info; freed in `destroy_objects`.
        self.shared_memory = vk_call("vkAllocateMemory", unsafe {
            self.device.allocate_memory(&alloc, None)
        })?;
        self.shared_size = needs.size;
        // SAFETY: buffer and memory of this device; the memory fits the buffer.
        vk_call("vkBindBufferMemory", unsafe {
            self.device
                .bind_buffer_memory(self.shared, self.shared_memory, 0)
        })?;

        let slots = bytes * self.frames as u64;
        let info = vk::BufferCreateInfo::default()
            .size(slots)
            .usage(vk::BufferUsageFlags::TRANSFER_DST)
            .sharing_mode(vk::SharingMode::EXCLUSIVE);
        // SAFETY: as above.
        self.readback = vk_call("vkCreateBuffer", unsafe {
            self.device.create_buffer(&info, None)
        })?;
        // SAFETY: as above.
        let needs = unsafe { self.device.get_buffer_memory_requirements(self.readback) };
        let host = self.memory_type(
            physical,
            needs.memory_type_bits,
            vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT,
        )?;
        let alloc = vk::MemoryAllocateInfo::default()
            .allocation_size(needs.size)
            .memory_type_index(host);
        // SAFETY: as above.
        self.readback_memory = vk_call("vkAllocateMemory", unsafe {
            self.device.allocate_memory(&alloc, None)
        })?;
        // SAFETY: as above.
        vk_call("vkBindBufferMemory", unsafe {
            self.device
                .bind_buffer_memory(self.readback, self.readback_memory, 0)
        })?;
        // SAFETY: host-visible memory of this device, mapped once, unmapped when freed.
        let mapped = vk_call("vkMapMemory", unsafe {
            self.device.map_memory(
                self.readback_memory,
                0,
                vk::WHOLE_SIZE,
                vk::MemoryMapFlags::empty(),
            )
        })?;
        self.mapped = mapped.cast();

        let mut kind = vk::SemaphoreTypeCreateInfo::default()
            .semaphore_type(vk::SemaphoreType::TIMELINE)
            .initial_value(0);
        let mut export = vk::ExportSemaphoreCreateInfo::default()
            .handle_types(vk::ExternalSemaphoreHandleTypeFlags::OPAQUE_FD);
        let info = vk::SemaphoreCreateInfo::default()
            .push_next(&mut kind)
            .push_next(&mut export);
        // SAFETY: as above.
        self.timeline = vk_call("vkCreateSemaphore", unsafe {
            self.device.create_semaphore(&info, None)
        })?;

        let info = vk::CommandPoolCreateInfo::default().queue_family_index(self.family);
        // SAFETY: as above.
        self.pool = vk_call("vkCreateCommandPool", unsafe {
            self.device.create_command_pool(&info, None)
        })?;
        let info = vk::CommandBufferAllocateInfo::default()
            .command_pool(self.pool)
            .level(vk::CommandBufferLevel::PRIMARY)
            .command_buffer_count(self.frames as u32 + 1);
        // SAFETY: as above; freed with the pool.
        self.commands = vk_call("vkAllocateCommandBuffers", unsafe {
            self.device.allocate_command_buffers(&info)
        })?;
        // SAFETY: as above.
        self.done = vk_call("vkCreateFence", unsafe {
            self.device
                .create_fence(&vk::FenceCreateInfo::default(), None)
        })?;
        Ok(())
    }

    /// The index of a memory type allowed by `bits` with `flags`.
    fn memory_type(
        &self,
        physical: vk::PhysicalDevice,
        bits: u32,
        flags: vk::MemoryPropertyFlags,
    ) -> Result<u32, VulkanError> {
        // SAFETY: a device of this instance.
        let props = unsafe {
            self.instance
                .get_physical_device_memory_properties(physical)
        };
        (0..props.memory_type_count)
            .find(|&i| {
                bits & (1 << i) != 0
                    && props.memory_types[i as usize]
                        .property_flags
                        .contains(flags)
            })
            .ok_or_else(|| VulkanError::Other(format!("no memory type with {flags:?}")))
    }

    /// Exports the shared buffer's memory and the timeline semaphore, for CUDA to import (each
    /// call exports new descriptors).
    pub fn export(&self) -> Result<Exported, VulkanError> {
        let info = vk::MemoryGetFdInfoKHR::default()
            .memory(self.shared_memory)
            .handle_type(vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD);
        // SAFETY: memory of this device, allocated exportable as an opaque descriptor.
        let memory = vk_call("vkGetMemoryFdKHR", unsafe {
            self.memory_fd.get_memory_fd(&info)
        })?;
        // SAFETY: a new descriptor that we own (Vulkan's rule: the caller owns it).
        let memory = unsafe { OwnedFd::from_raw_fd(memory) };
        Ok(Exported {
            memory,
            memory_size: self.shared_size,
            dedicated: self.dedicated,
            semaphore: self.export_semaphore(self.timeline)?,
        })
    }

    /// The frame loop's timeline semaphore, exported again (a new descriptor: CUDA imports it as
    /// another `ExternalSemaphore` of the same semaphore).
    pub fn export_timeline(&self) -> Result<OwnedFd, VulkanError> {
        self.export_semaphore(self.timeline)
    }

    /// A new exportable semaphore of this device, timeline (at 0) or binary (unsignalled), for
    /// tests that need more than one; exported. It is destroyed with this value.
    pub fn another_semaphore(&mut self, timeline: bool) -> Result<OwnedFd, VulkanError> {
        let kind = if timeline {
            vk::SemaphoreType::TIMELINE
        } else {
            vk::SemaphoreType::BINARY
        };
        let mut kind = vk::SemaphoreTypeCreateInfo::default()
            .semaphore_type(kind)
            .initial_value(0);
        let mut export = vk::ExportSemaphoreCreateInfo::default()
            .handle_types(vk::ExternalSemaphoreHandleTypeFlags::OPAQUE_FD);
        let info = vk::SemaphoreCreateInfo::default()
            .push_next(&mut kind)
            .push_next(&mut export);
        // SAFETY: a valid create info; kept in `extra` and destroyed in `Drop`.
        let sem = vk_call("vkCreateSemaphore", unsafe {
            self.device.create_semaphore(&info, None)
        })?;
        self.extra.push(sem);
        self.export_semaphore(sem)
    }

    fn export_semaphore(&self, sem: vk::Semaphore) -> Result<OwnedFd, VulkanError> {
        let info = vk::SemaphoreGetFdInfoKHR::default()
            .semaphore(sem)
            .handle_type(vk::ExternalSemaphoreHandleTypeFlags::OPAQUE_FD);
        // SAFETY: a semaphore of this device, created exportable as an opaque descriptor.
        let fd = vk_call("vkGetSemaphoreFdKHR", unsafe {
            self.semaphore_fd.get_semaphore_fd(&info)
        })?;
        // SAFETY: a new descriptor that we own.
        Ok(unsafe { OwnedFd::from_raw_fd(fd) })
    }
}

impl VulkanFrames {
    /// Elements of the shared buffer.
    pub fn elems(&self) -> usize {
        self.elems
    }

    /// Submits frame `k`'s Vulkan work, without waiting: on the GPU, wait until the semaphore
    /// reaches `2k` (CUDA's frame `k - 1` is done with the buffer; nothing to wait for at
    /// `k = 0`), copy the buffer into readback slot `k - 1`, fill it with `value`, and signal
    /// `2k + 1`.
    pub fn submit_frame(&mut self, k: usize, value: u32) -> Result<(), VulkanError> {
        assert!(k < self.frames, "frame {k} of {}", self.frames);
        let cmd = self.commands[k];
        self.record(cmd, |this| {
            if k > 0 {
                this.acquire(cmd);
                this.copy_to_slot(cmd, k - 1);
                // The fill after the copy reads: an execution dependency suffices (WAR).
                // SAFETY: a command buffer being recorded.
                unsafe {
                    this.device.cmd_pipeline_barrier(
                        cmd,
                        vk::PipelineStageFlags::TRANSFER,
                        vk::PipelineStageFlags::TRANSFER,
                        vk::DependencyFlags::empty(),
                        &[],
                        &[],
                        &[],
                    )
                };
            }
            // SAFETY: as above; the buffer is this device's, the size its own.
            unsafe {
                this.device
                    .cmd_fill_buffer(cmd, this.shared, 0, vk::WHOLE_SIZE, value)
            };
            this.release(cmd);
        })?;
        let wait = (k > 0).then_some(2 * k as u64);
        self.submit(cmd, wait, Some(2 * k as u64 + 1), vk::Fence::null())
    }

    /// After `frames` frames: submits the copy of the last one (after CUDA's signal of
    /// `2 * frames`), waits on the host for it, and returns every frame's slot, in order.
    pub fn finish(&mut self, frames: usize) -> Result<Vec<u32>, VulkanError> {
        assert!(frames > 0 && frames <= self.frames);
        let cmd = self.commands[self.frames];
        self.record(cmd, |this| {
            this.acquire(cmd);
            this.copy_to_slot(cmd, frames - 1);
            // Every copy so far (this submission's and the earlier ones', in submission order)
            // before the host reads the readback buffer.
            let to_host = vk::MemoryBarrier::default()
                .src_access_mask(vk::AccessFlags::TRANSFER_WRITE)
                .dst_access_mask(vk::AccessFlags::HOST_READ);
            // SAFETY: a command buffer being recorded.
            unsafe {
                this.device.cmd_pipeline_barrier(
                    cmd,
                    vk::PipelineStageFlags::TRANSFER,
                    vk::PipelineStageFlags::HOST,
                    vk::DependencyFlags::empty(),
                    &[to_host],
                    &[],
                    &[],
                )
            };
        })?;
        self.submit(cmd, Some(2 * frames as u64), None, self.done)?;
        // SAFETY: a fence of this device, signalled by the submission above.
        vk_call("vkWaitForFences", unsafe {
            self.device
                .wait_for_fences(&[self.done], true, FINISH_TIMEOUT.as_nanos() as u64)
        })
        .map_err(|e| match e {
            VulkanError::Call {
                result: vk::Result::TIMEOUT,
                ..
            } => VulkanError::Other(format!(
                "the last frame did not finish in {FINISH_TIMEOUT:?}: a semaphore value that \
                 never came?"
            )),
            other => other,
        })?;
        let len = frames * self.elems;
        // SAFETY: `mapped` is the readback buffer's memory, `self.frames * self.elems` `u32`s,
        // coherent, written by the device before the fence (made visible to the host by the
        // barrier above), and no device work writes it any more.
        Ok(unsafe { std::slice::from_raw_parts(self.mapped, len) }.to_vec())
    }

    /// The semaphore's value now (what the last signal set it to).
    pub fn semaphore_value(&self) -> Result<u64, VulkanError> {
        // SAFETY: a timeline semaphore of this device.
        vk_call("vkGetSemaphoreCounterValue", unsafe {
            self.device.get_semaphore_counter_value(self.timeline)
        })
    }

    /// Records `cmd` (once, for one submission) with `body`.
    fn record(
        &mut self,
        cmd: vk::CommandBuffer,
        body: impl FnOnce(&Self),
    ) -> Result<(), VulkanError> {
        let begin = vk::CommandBufferBeginInfo::default()
            .flags(vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT);
        // SAFETY: a command buffer of this device's pool, in the initial state (each one is
        // recorded and submitted once).
        vk_call("vkBeginCommandBuffer", unsafe {
            self.device.begin_command_buffer(cmd, &begin)
        })?;
        body(self);
        // SAFETY: the buffer being recorded.
        vk_call("vkEndCommandBuffer", unsafe {
            self.device.end_command_buffer(cmd)
        })
    }

    /// The shared buffer comes back from CUDA (`VK_QUEUE_FAMILY_EXTERNAL`) to this queue.
    fn acquire(&self, cmd: vk::CommandBuffer) {
        let barrier = vk::BufferMemoryBarrier::default()
            .dst_access_mask(vk::AccessFlags::TRANSFER_READ | vk::AccessFlags::TRANSFER_WRITE)
            .src_queue_family_index(vk::QUEUE_FAMILY_EXTERNAL)
            .dst_queue_family_index(self.family)
            .buffer(self.shared)
            .size(vk::WHOLE_SIZE);
        // SAFETY: a command buffer being recorded; a buffer of this device.
        unsafe {
            self.device.cmd_pipeline_barrier(
                cmd,
                vk::PipelineStageFlags::TOP_OF_PIPE,
                vk::PipelineStageFlags::TRANSFER,
                vk::DependencyFlags::empty(),
                &[],
                &[barrier],
                &[],
            )
        };
    }

    /// The shared buffer goes to CUDA, its writes made available.
    fn release(&self, cmd: vk::CommandBuffer) {
        let barrier = vk::BufferMemoryBarrier::default()
            .src_access_mask(vk::AccessFlags::TRANSFER_WRITE)
            .src_queue_family_index(self.family)
            .dst_queue_family_index(vk::QUEUE_FAMILY_EXTERNAL)
            .buffer(self.shared)
            .size(vk::WHOLE_SIZE);
        // SAFETY: as above.
        unsafe {
            self.device.cmd_pipeline_barrier(
                cmd,
                vk::PipelineStageFlags::TRANSFER,
                vk::PipelineStageFlags::BOTTOM_OF_PIPE,
                vk::DependencyFlags::empty(),
                &[],
                &[barrier],
                &[],
            )
        };
    }

    /// Copies the shared buffer into readback slot `slot`.
    fn copy_to_slot(&self, cmd: vk::CommandBuffer, slot: usize) {
        let bytes = (self.elems * 4) as u64;
        let region = vk::BufferCopy {
            src_offset: 0,
            dst_offset: slot as u64 * bytes,
            size: bytes,
        };
        // SAFETY: a command buffer being recorded; both buffers of this device, the region
        // inside both.
        unsafe {
            self.device
                .cmd_copy_buffer(cmd, self.shared, self.readback, &[region])
        };
    }

    /// Submits `cmd`, waiting (at the transfer stage) for the timeline to reach `wait` and
    /// signalling `signal`, then `fence`.
    fn submit(
        &self,
        cmd: vk::CommandBuffer,
        wait: Option<u64>,
        signal: Option<u64>,
        fence: vk::Fence,
    ) -> Result<(), VulkanError> {
        let (waits, wait_values): (Vec<vk::Semaphore>, Vec<u64>) =
            wait.iter().map(|&v| (self.timeline, v)).unzip();
        let stages = vec![vk::PipelineStageFlags::TRANSFER; waits.len()];
        let (signals, signal_values): (Vec<vk::Semaphore>, Vec<u64>) =
            signal.iter().map(|&v| (self.timeline, v)).unzip();
        let mut timeline = vk::TimelineSemaphoreSubmitInfo::default()
            .wait_semaphore_values(&wait_values)
            .signal_semaphore_values(&signal_values);
        let cmds = [cmd];
        let submit = vk::SubmitInfo::default()
            .wait_semaphores(&waits)
            .wait_dst_stage_mask(&stages)
            .command_buffers(&cmds)
            .signal_semaphores(&signals)
            .push_next(&mut timeline);
        // SAFETY: a recorded command buffer, this device's semaphore and fence; the queue is
        // used from this thread only (`&self` of a `!Sync` value).
        vk_call("vkQueueSubmit", unsafe {
            self.device.queue_submit(self.queue, &[submit], fence)
        })
    }

    /// Destroys the objects `make_objects` made (those it made, when it failed half-way).
    fn destroy_objects(&mut self) {
        // SAFETY: objects of this device, no longer used by queued work (the caller waited for
        // the device to be idle, or submitted nothing); null handles are ignored.
        unsafe {
            let d = &self.device;
            d.destroy_fence(self.done, None);
            d.destroy_command_pool(self.pool, None);
            d.destroy_semaphore(self.timeline, None);
            for sem in self.extra.drain(..) {
                d.destroy_semaphore(sem, None);
            }
            d.destroy_buffer(self.readback, None);
            d.free_memory(self.readback_memory, None);
            d.destroy_buffer(self.shared, None);
            d.free_memory(self.shared_memory, None);
        }
    }
}

impl Drop for VulkanFrames {
    fn drop(&mut self) {
        // SAFETY: this device; afterwards no queued work uses its objects.
        let _ = unsafe { self.device.device_wait_idle() };
        self.destroy_objects();
        // SAFETY: everything made from the device and the instance is destroyed.
        unsafe {
            self.device.destroy_device(None);
            self.instance.destroy_instance(None);
        }
    }
}

/// The physical device whose UUID is `cuda_uuid`, with Vulkan 1.2, the two `fd` extensions,
/// timeline semaphores exportable as opaque descriptors, and a queue family that can transfer.
fn pick_device(
    instance: &ash::Instance,
    cuda_uuid: [u8; 16],
) -> Result<(vk::PhysicalDevice, u32), VulkanError> {
    // SAFETY: a live instance.
    let devices = vk_call("vkEnumeratePhysicalDevices", unsafe {
        instance.enumerate_physical_devices()
    })?;
    let mut seen = Vec::new();
    for physical in devices {
        let mut id = vk::PhysicalDeviceIDProperties::default();
        let mut props = vk::PhysicalDeviceProperties2::default().push_next(&mut id);
        // SAFETY: a device of this instance; valid out structs.
        unsafe { instance.get_physical_device_properties2(physical, &mut props) };
        let name = props
            .properties
            .device_name_as_c_str()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let api = props.properties.api_version;
        if id.device_uuid != cuda_uuid {
            seen.push(format!("{name} (another device)"));
            continue;
        }
        if api < vk::API_VERSION_1_2 {
            seen.push(format!(
                "{name} (Vulkan {}.{} < 1.2)",
                vk::api_version_major(api),
                vk::api_version_minor(api)
            ));
            continue;
        }
        // SAFETY: as above.
        let extensions = vk_call("vkEnumerateDeviceExtensionProperties", unsafe {
            instance.enumerate_device_extension_properties(physical)
        })?;
        let has = |wanted: &CStr| {
            extensions
                .iter()
                .any(|e| e.extension_name_as_c_str() == Ok(wanted))
        };
        if !has(ash::khr::external_memory_fd::NAME) || !has(ash::khr::external_semaphore_fd::NAME) {
            seen.push(format!(
                "{name} (no VK_KHR_external_memory_fd / _semaphore_fd)"
            ));
            continue;
        }
        let mut kind = vk::SemaphoreTypeCreateInfo::default()
            .semaphore_type(vk::SemaphoreType::TIMELINE)
            .initial_value(0);
        let query = vk::PhysicalDeviceExternalSemaphoreInfo::default()
            .handle_type(vk::ExternalSemaphoreHandleTypeFlags::OPAQUE_FD)
            .push_next(&mut kind);
        let mut external = vk::ExternalSemaphoreProperties::default();
        // SAFETY: as above.
        unsafe {
            instance.get_physical_device_external_semaphore_properties(
                physical,
                &query,
                &mut external,
            )
        };
        if !external
            .external_semaphore_features
            .contains(vk::ExternalSemaphoreFeatureFlags::EXPORTABLE)
        {
            seen.push(format!("{name} (cannot export timeline semaphores)"));
            continue;
        }
        // SAFETY: as above.
        let families = unsafe { instance.get_physical_device_queue_family_properties(physical) };
        // Graphics and compute queues can transfer too.
        let transfer =
            vk::QueueFlags::GRAPHICS | vk::QueueFlags::COMPUTE | vk::QueueFlags::TRANSFER;
        if let Some(family) = families
            .iter()
            .position(|f| f.queue_count > 0 && f.queue_flags.intersects(transfer))
        {
            return Ok((physical, family as u32));
        }
        seen.push(format!("{name} (no queue)"));
    }
    Err(VulkanError::Unavailable(if seen.is_empty() {
        "no Vulkan device".to_owned()
    } else {
        format!(
            "no Vulkan device is the CUDA device and shares its memory: {}",
            seen.join(", ")
        )
    }))
}
