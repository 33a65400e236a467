//! Graphs and Vulkan handing frames to each other on the GPU: a buffer Vulkan allocated, imported
//! as a `DeviceBuffer` (`ExternalMemory`), and a Vulkan timeline semaphore that the graphs' wait
//! and signal nodes use. Vulkan writes each frame and signals `2k + 1`; the graph waits for it,
//! runs a kernel on the buffer and signals `2k + 2`; Vulkan waits for that on the GPU and copies
//! the frame out. No host wait between the two: every frame's values are checked at the end.
//!
//! These tests need Vulkan (the loader `libvulkan.so.1` and NVIDIA's driver) besides CUDA: they
//! skip without it, unless `CUDAGRAPH_REQUIRE_VULKAN=1`.

use std::sync::Arc;

use cudagraph_examples::interop::{expected, fill_value, first_mismatch, run_frames, KERNEL};
use cudagraph_runtime::cudarc::driver::CudaStream;
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{Error, ExternalMemory, ExternalSemaphore, NodeKind, SemaphoreKind};
use cudagraph_tests::{compile, function, gpu, vulkan, Gpu};

const ELEMS: usize = 1024;

type Step = (u32, DevicePtrMut<u32>);

fn step(gpu: &Gpu) -> Kernel<Step> {
    let module = compile(&gpu.ctx, KERNEL);
    // SAFETY: `step`'s parameter list in `KERNEL` is `(unsigned, unsigned*)`.
    unsafe { Kernel::new(function(&module, "step")) }
}

/// The shared buffer and the timeline semaphore, imported into CUDA, the buffer's work ordered on
/// `stream`.
fn import(
    gpu: &Gpu,
    frames: &cudagraph_examples::vulkan::VulkanFrames,
    stream: &Arc<CudaStream>,
) -> (DeviceBuffer<u32>, ExternalSemaphore) {
    let exported = frames.export().unwrap();
    // SAFETY: Vulkan's exported memory object, of the size Vulkan allocated.
    let memory = unsafe {
        ExternalMemory::from_fd(
            &gpu.ctx,
            exported.memory,
            exported.memory_size,
            exported.dedicated,
        )
    }
    .unwrap();
    assert_eq!(memory.size(), exported.memory_size);
    let image = memory.into_buffer::<u32>(stream, 0, ELEMS).unwrap();
    let sem =
        ExternalSemaphore::from_fd(&gpu.ctx, exported.semaphore, SemaphoreKind::Timeline).unwrap();
    (image, sem)
}

/// Without a GPU too: a device that is no CUDA device's (UUID zero) is never picked, and the
/// reason is `Unavailable` (no loader, no driver, or only other devices), which the GPU tests
/// turn into a skip. On a machine with a Vulkan loader this runs the device enumeration for real.
#[test]
fn vulkan_without_the_cuda_device_is_unavailable() {
    use cudagraph_examples::vulkan::{VulkanError, VulkanFrames};
    match VulkanFrames::new([0; 16], 16, 1) {
        Err(VulkanError::Unavailable(why)) => println!("unavailable: {why}"),
        other => panic!("expected Unavailable, got {other:?}"),
    }
}

#[test]
fn a_thousand_frames_pass_between_vulkan_and_a_declared_graph() {
    let test = "a_thousand_frames_pass_between_vulkan_and_a_declared_graph";
    let Some(gpu) = gpu(test) else { return };
    const FRAMES: usize = 1000;
    let Some(mut frames) = vulkan(test, &gpu, ELEMS, FRAMES) else {
        return;
    };
    let done = run_frames(&gpu.ctx, &mut frames, FRAMES).unwrap();
    assert_eq!(done.results.len(), FRAMES * ELEMS);
    if let Some((frame, i, got, want)) = first_mismatch(&done.results, ELEMS) {
        panic!("frame {frame}, element {i}: {got}, expected {want}");
    }
    // Each frame after the first changed `frame`, which the two semaphore nodes read, and only
    // them.
    assert_eq!(done.updated, 2 * (FRAMES - 1));
    assert_eq!(frames.semaphore_value().unwrap(), 2 * FRAMES as u64);
}

/// The same loop through the runtime's own API: `add_semaphore_wait` / `add_semaphore_signal`,
/// and the values set each frame with `set_semaphore_wait` / `set_semaphore_signal`; afterwards
/// CUDA reads the imported buffer itself.
#[test]
fn the_runtime_api_hands_frames_between_vulkan_and_a_graph() {
    let test = "the_runtime_api_hands_frames_between_vulkan_and_a_graph";
    let Some(gpu) = gpu(test) else { return };
    const FRAMES: usize = 100;
    let Some(mut frames) = vulkan(test, &gpu, ELEMS, FRAMES) else {
        return;
    };
    {
        let stream = gpu.ctx.new_stream().unwrap();
        let (image, sem) = import(&gpu, &frames, &stream);
        let step = step(&gpu);
        let mut g = Graph::new(&gpu.ctx).unwrap();
        let ready = g.add_semaphore_wait([(&sem, 1)], &[]).unwrap();
        let run = g
            .add_kernel(
                &step,
                LaunchConfig::for_num_elems(ELEMS as u32),
                (ELEMS as u32, &image),
                &[ready.id()],
            )
            .unwrap();
        let done = g.add_semaphore_signal([(&sem, 2)], &[run.id()]).unwrap();
        let kinds: Vec<NodeKind> = g.nodes().map(|n| n.kind).collect();
        assert_eq!(
            kinds,
            [
                NodeKind::SemaphoreWait,
                NodeKind::Kernel,
                NodeKind::SemaphoreSignal
            ]
        );
        let mut exec = g.instantiate().unwrap();
        for k in 0..FRAMES {
            frames.submit_frame(k, fill_value(k)).unwrap();
            let value = 2 * k as u64;
            exec.set_semaphore_wait(ready, [(&sem, value + 1)]).unwrap();
            exec.set_semaphore_signal(done, [(&sem, value + 2)])
                .unwrap();
            exec.launch(&stream).unwrap();
        }
        let results = frames.finish(FRAMES).unwrap();
        if let Some((frame, i, got, want)) = first_mismatch(&results, ELEMS) {
            panic!("frame {frame}, element {i}: {got}, expected {want}");
        }
        // CUDA's own read of the imported memory, ordered after the launches: the last frame.
        let last: Vec<u32> = (0..ELEMS).map(|i| expected(FRAMES - 1, i)).collect();
        assert_eq!(image.to_vec().unwrap(), last);
    }
    cudagraph_runtime::wait_for_releases(std::time::Duration::from_secs(10));
}

/// A graph signals and waits on a Vulkan semaphore that Vulkan itself never touches: a wait for a
/// value the semaphore has reached passes, a signal sets it (Vulkan reads the new value); the
/// graph keeps the semaphore imported after the program drops its own, and an update switches
/// to another import. What CUDA cannot do is refused, naming the node.
#[test]
fn semaphore_nodes_signal_vulkan_and_refuse_what_cuda_cannot_do() {
    let test = "semaphore_nodes_signal_vulkan_and_refuse_what_cuda_cannot_do";
    let Some(gpu) = gpu(test) else { return };
    let Some(mut frames) = vulkan(test, &gpu, ELEMS, 1) else {
        return;
    };
    {
        let timeline = |fd| ExternalSemaphore::from_fd(&gpu.ctx, fd, SemaphoreKind::Timeline);
        let sem = timeline(frames.export_timeline().unwrap()).unwrap();
        assert_eq!(sem.kind(), SemaphoreKind::Timeline);
        let again = timeline(frames.export_timeline().unwrap()).unwrap();
        assert_ne!(sem, again, "two imports are two semaphores to CUDA");
        let binary = ExternalSemaphore::from_fd(
            &gpu.ctx,
            frames.another_semaphore(false).unwrap(),
            SemaphoreKind::Binary,
        )
        .unwrap();

        let mut g = Graph::new(&gpu.ctx).unwrap();
        let ready = g.add_semaphore_wait([(&sem, 0)], &[]).unwrap();
        let done = g
            .name_next("done")
            .add_semaphore_signal([(&sem, 5)], &[ready.id()])
            .unwrap();
        // A binary semaphore has no value; a node has at least one semaphore.
        match g.name_next("bad").add_semaphore_signal([(&binary, 3)], &[]) {
            Err(Error::Invalid { node, reason }) => {
                assert_eq!(node, "bad");
                assert!(reason.contains("binary"), "{reason}");
            }
            other => panic!("a value for a binary semaphore: {other:?}"),
        }
        match g.add_semaphore_wait::<0>([], &[]) {
            Err(Error::Invalid { reason, .. }) => {
                assert!(reason.contains("at least one"), "{reason}")
            }
            other => panic!("no semaphore: {other:?}"),
        }
        // The graph keeps its own reference.
        drop(sem);
        let mut exec = g.instantiate().unwrap();
        exec.launch(&gpu.stream).unwrap();
        gpu.stream.synchronize().unwrap();
        assert_eq!(frames.semaphore_value().unwrap(), 5);

        // Another import of the same semaphore, a later value; a wrong update is refused and
        // changes nothing.
        exec.set_semaphore_signal(done, [(&again, 9)]).unwrap();
        match exec.set_semaphore_signal(done, [(&binary, 1)]) {
            Err(Error::Invalid { node, .. }) => assert_eq!(node, "done"),
            other => panic!("a value for a binary semaphore: {other:?}"),
        }
        drop(again);
        exec.launch(&gpu.stream).unwrap();
        gpu.stream.synchronize().unwrap();
        assert_eq!(frames.semaphore_value().unwrap(), 9);
    }
    cudagraph_runtime::wait_for_releases(std::time::Duration::from_secs(10));
}

/// An imported buffer is a buffer like any other: refused out of range, and kept alive (mapping
/// and import) by the executables whose launches may use it after the program drops it.
#[test]
fn imported_memory_is_a_buffer_the_graphs_keep_alive() {
    let test = "imported_memory_is_a_buffer_the_graphs_keep_alive";
    let Some(gpu) = gpu(test) else { return };
    let Some(frames) = vulkan(test, &gpu, ELEMS, 1) else {
        return;
    };
    {
        // Each import takes a new descriptor of the same Vulkan memory.
        let import = || {
            let exported = frames.export().unwrap();
            // SAFETY: Vulkan's exported memory object, of the size Vulkan allocated.
            unsafe {
                ExternalMemory::from_fd(
                    &gpu.ctx,
                    exported.memory,
                    exported.memory_size,
                    exported.dedicated,
                )
            }
        };
        let too_long = import()
            .unwrap()
            .into_buffer::<u32>(&gpu.stream, 0, ELEMS * 1000);
        assert!(
            matches!(too_long, Err(Error::Invalid { .. })),
            "{too_long:?}"
        );
        let misaligned = import().unwrap().into_buffer::<u32>(&gpu.stream, 2, 4);
        assert!(
            matches!(misaligned, Err(Error::Invalid { .. })),
            "{misaligned:?}"
        );

        let image = import()
            .unwrap()
            .into_buffer::<u32>(&gpu.stream, 0, ELEMS)
            .unwrap();
        image.copy_from(&vec![1; ELEMS]).unwrap();
        let step = step(&gpu);
        let mut g = Graph::new(&gpu.ctx).unwrap();
        g.add_kernel(
            &step,
            LaunchConfig::for_num_elems(ELEMS as u32),
            (ELEMS as u32, &image),
            &[],
        )
        .unwrap();
        let mut exec = g.instantiate().unwrap();
        let probe = image.slice(..4);
        drop(image);
        for _ in 0..3 {
            exec.launch(&gpu.stream).unwrap();
        }
        // 1 -> 3 + i -> 9 + 4i -> 27 + 13i, through a slice sharing the mapping.
        let want: Vec<u32> = (0..4).map(|i| 27 + 13 * i).collect();
        assert_eq!(probe.to_vec().unwrap(), want);
        drop(probe);
        // The mapping and import outlive the buffer, until the executable is done with them.
        exec.launch(&gpu.stream).unwrap();
        drop(exec);
        gpu.stream.synchronize().unwrap();
    }
    // (Not asserted: the other tests of this module, running meanwhile, hold values too.)
    cudagraph_runtime::wait_for_releases(std::time::Duration::from_secs(10));
}
