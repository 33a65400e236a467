//! A frame loop shared by Vulkan and a CUDA graph, with no host wait between the two: each frame
//! Vulkan fills a buffer (its memory, imported into CUDA) and signals a timeline semaphore; the
//! graph, declared with `cuda_graph!`, waits for that value (`wait(sem = 2 * frame + 1)`), runs a
//! kernel on the buffer and signals the next value (`signal(sem = 2 * frame + 2)`), which Vulkan
//! waits for on the GPU before it copies the frame's result out. The host queues both sides' work
//! for 1,000 frames and waits once, at the end, to check every frame.
//!
//! Needs an NVIDIA GPU with its CUDA driver, the Vulkan loader (`libvulkan.so.1`) and NVIDIA's
//! Vulkan driver (its ICD); the graph's code is `cudagraph_examples::interop`.
//!
//! Run: `cargo run --release -p cudagraph-examples --example vulkan_interop`

use std::process::ExitCode;
use std::time::Instant;

use cudagraph_examples::interop::{cuda_uuid, first_mismatch, run_frames, LoopError};
use cudagraph_examples::vulkan::VulkanFrames;
use cudagraph_examples::{main_with, open_gpu, Failure};

const ELEMS: usize = 1024;
const FRAMES: usize = 1000;

fn main() -> ExitCode {
    main_with("vulkan_interop", || {
        let ctx = open_gpu()?;
        let failed = |e: LoopError| match e {
            LoopError::NoVulkan(why) => Failure::Other(format!(
                "no usable Vulkan (it needs the Vulkan loader, libvulkan.so.1, and NVIDIA's \
                 Vulkan driver): {why}"
            )),
            LoopError::Failed(what) => Failure::Other(what),
        };
        let mut vulkan =
            VulkanFrames::new(cuda_uuid(&ctx)?, ELEMS, FRAMES).map_err(|e| failed(e.into()))?;
        let start = Instant::now();
        let frames = run_frames(&ctx, &mut vulkan, FRAMES).map_err(failed)?;
        let took = start.elapsed();
        if let Some((frame, i, got, want)) = first_mismatch(&frames.results, ELEMS) {
            return Err(Failure::Other(format!(
                "frame {frame}, element {i}: {got}, expected {want}"
            )));
        }
        println!(
            "{FRAMES} frames of {ELEMS} elements, Vulkan -> CUDA graph -> Vulkan, every value \
             checked: {:.1} us per frame",
            took.as_secs_f64() * 1e6 / FRAMES as f64
        );
        Ok(())
    })
}
