//! A frame loop shared by Vulkan and a CUDA graph, on the GPU only: each frame Vulkan fills a
//! buffer and signals a timeline semaphore, the graph waits for it, runs a kernel on the buffer
//! (Vulkan memory imported into CUDA) and signals back, and Vulkan waits for that before it copies
//! the frame's result out. The host queues both sides' work and waits once, at the end.
//!
//! The example `vulkan_interop` runs it; the GPU test `vulkan_interop` checks every frame.

use std::sync::Arc;

use cudagraph_runtime::cudarc::driver::CudaContext;
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{ExternalMemory, ExternalSemaphore, SemaphoreKind};

use crate::vulkan::{VulkanError, VulkanFrames};
use crate::{compile, Failure};

/// The kernel, in CUDA C: `x[i] = 3 * x[i] + i`.
pub const KERNEL: &str = r#"
extern "C" __global__ void step(unsigned n, unsigned* x) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = 3u * x[i] + i;
}
"#;

cuda_graph! {
    /// One frame: wait for Vulkan's fill (value `2k + 1`), transform the shared buffer, and
    /// signal `2k + 2`, which Vulkan waits for before reading it.
    pub graph Frame {
        params {
            step: Kernel<(u32, DevicePtrMut<u32>)>,
            /// Vulkan's buffer, imported: ordered with Vulkan's work only through `sem`.
            #[external]
            image: DeviceBuffer<u32>,
            sem: ExternalSemaphore,
            frame: u64,
            n: u32,
        }
        ready: wait(sem = 2 * frame + 1);
        run: kernel step<<<n.div_ceil(256), 256>>>(n, image);
        done: signal(sem = 2 * frame + 2);
        ready -> run -> done;
    }
}

/// The value Vulkan fills the buffer with in frame `k`.
pub fn fill_value(k: usize) -> u32 {
    (k as u32).wrapping_mul(7).wrapping_add(1)
}

/// What element `i` of the buffer holds after frame `k`'s kernel.
pub fn expected(k: usize, i: usize) -> u32 {
    fill_value(k).wrapping_mul(3).wrapping_add(i as u32)
}

/// The first element of `results` (frame after frame, `elems` each) that is not what frame's
/// kernel made, as `(frame, element, got, expected)`.
pub fn first_mismatch(results: &[u32], elems: usize) -> Option<(usize, usize, u32, u32)> {
    results.iter().enumerate().find_map(|(at, &got)| {
        let (k, i) = (at / elems, at % elems);
        (got != expected(k, i)).then_some((k, i, got, expected(k, i)))
    })
}

/// The CUDA device's UUID, to find the same device in Vulkan.
pub fn cuda_uuid(ctx: &Arc<CudaContext>) -> Result<[u8; 16], Failure> {
    let uuid = ctx.uuid()?;
    Ok(uuid.bytes.map(|b| b as u8))
}

/// Why a frame loop did not run to the end.
#[derive(Debug)]
pub enum LoopError {
    /// No usable Vulkan here (loader, driver, device): programs skip.
    NoVulkan(String),
    /// Anything else.
    Failed(String),
}

impl From<VulkanError> for LoopError {
    fn from(e: VulkanError) -> Self {
        match e {
            VulkanError::Unavailable(why) => LoopError::NoVulkan(why),
            other => LoopError::Failed(other.to_string()),
        }
    }
}

impl From<cudagraph_runtime::Error> for LoopError {
    fn from(e: cudagraph_runtime::Error) -> Self {
        LoopError::Failed(e.to_string())
    }
}

impl From<Failure> for LoopError {
    fn from(e: Failure) -> Self {
        LoopError::Failed(format!("{e:?}"))
    }
}

/// What a frame loop left: every frame's result, as Vulkan read it back (frame after frame,
/// [`VulkanFrames::elems`] each), and how many nodes `set_params` updated in all.
#[derive(Debug)]
pub struct Frames {
    /// Every frame's buffer after its kernel.
    pub results: Vec<u32>,
    /// Nodes updated by `set_params` over the loop: the two semaphore nodes of each frame after
    /// the first.
    pub updated: usize,
}

/// Runs `frames` frames with `vulkan` (made for at least that many) on `ctx`'s device, its
/// device. CUDA's imports are released before this returns (the Vulkan objects they import may
/// be destroyed then).
pub fn run_frames(
    ctx: &Arc<CudaContext>,
    vulkan: &mut VulkanFrames,
    frames: usize,
) -> Result<Frames, LoopError> {
    let elems = vulkan.elems();
    let done = {
        let stream = ctx
            .new_stream()
            .map_err(|e| LoopError::Failed(e.to_string()))?;
        let exported = vulkan.export()?;
        // SAFETY: Vulkan's exported memory object, of the size Vulkan allocated; `u32` takes
        // every bit pattern.
        let memory = unsafe {
            ExternalMemory::from_fd(
                ctx,
                exported.memory,
                exported.memory_size,
                exported.dedicated,
            )
        }?;
        let image = memory.into_buffer::<u32>(&stream, 0, elems)?;
        let sem = ExternalSemaphore::from_fd(ctx, exported.semaphore, SemaphoreKind::Timeline)?;
        let module = compile(ctx, KERNEL)?;
        let function = module
            .load_function("step")
            .map_err(|e| LoopError::Failed(e.to_string()))?;
        let mut params = FrameParams {
            // SAFETY: `step`'s parameter list in `KERNEL` is `(unsigned, unsigned*)`.
            step: unsafe { Kernel::new(function) },
            image,
            sem,
            frame: 0,
            n: elems as u32,
        };
        let mut exec = Frame::build(ctx, &params)?.instantiate()?;
        let mut updated = 0;
        for k in 0..frames {
            // Neither side waits on the host: Vulkan's submission waits for CUDA's last signal
            // on the GPU, and the launch waits for Vulkan's.
            vulkan.submit_frame(k, fill_value(k))?;
            params.frame = k as u64;
            updated += exec.set_params(&params)?;
            exec.launch(&stream)?;
        }
        let results = vulkan.finish(frames)?;
        stream
            .synchronize()
            .map_err(|e| LoopError::Failed(e.to_string()))?;
        Frames { results, updated }
    };
    // The imports are released (the buffer's after the launches that used it) before the caller
    // may destroy what they import.
    cudagraph_runtime::wait_for_releases(std::time::Duration::from_secs(10));
    Ok(done)
}
