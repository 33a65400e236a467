//! Device graph launch: executables that kernels launch from the GPU
//! ([device graph launch]), so a GPU-driven loop (a scheduler, a decode loop that decides on the
//! device when to stop) needs no host round-trip.
//!
//! - [`Graph::instantiate_for_device_launch`](crate::Graph::instantiate_for_device_launch) makes a
//!   [`DeviceGraphExec`]: instantiated with `CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH` and
//!   uploaded. It is the only thing that yields a [`DeviceGraphHandle`], the `Copy` value a kernel
//!   receives for a parameter of type [`DeviceGraph`] (`cudaGraphExec_t` in CUDA C) and launches
//!   with `cudaGraphLaunch(g, cudaStreamGraphFireAndForget)` (or `cudaStreamGraphTailLaunch`,
//!   `cudaStreamGraphFireAndForgetAsSibling`). A graph tail-launches itself with
//!   `cudaGraphLaunch(cudaGetCurrentGraphExec(), cudaStreamGraphTailLaunch)`.
//! - CUDA's rules for device graphs are checked when the executable is made: only kernel,
//!   memcpy, memset, empty and child-graph nodes (a host, event, memory or conditional node is
//!   refused naming the node; `cuda_graph!` refuses them at compile time in a
//!   `#[device_launch]` declaration); one device (a graph and its upload stream belong to one
//!   context); no indirect values. What the runtime cannot see is left to the driver, which
//!   refuses the instantiation: a child graph's forbidden nodes, memcpy operands that are not
//!   device or device-mapped page-locked memory, kernels using dynamic parallelism.
//! - The memory model: a graph whose kernel is given a handle keeps the device-launchable
//!   executable alive (with the memory its nodes use) until that graph's last launch has
//!   completed, whatever becomes of the [`DeviceGraphExec`]. CUDA counts the graphs a kernel
//!   launches (fire-and-forget and tail launches) as part of the launching graph's execution, so
//!   that completion covers them.
//! - The race checks: what a launched graph uses counts as its launching kernel node's own in the
//!   launching graph's host-code race check, against every node not ordered *before* that kernel
//!   (a fire-and-forget or sibling launch runs at the same time as the rest of the launching
//!   graph; the kernel picks the mode at run time): [`Error::Hazard`](crate::Error::Hazard)
//!   naming both nodes (see `footprint`). Between executables, the device-launchable
//!   executable's own holds its memory, so host code of a graph launching it cannot share that
//!   memory with it ([`Error::BufferInUse`](crate::Error::BufferInUse) at instantiation).
//! - CUDA leaves a host launch of a device graph undefined while a device launch of it may run:
//!   [`DeviceGraphExec::launch`] orders its launch after every launch of the executables that may
//!   launch it from the device, and their next launches after it. Host-side updates
//!   ([`DeviceGraphExec::update`]) are re-uploaded for you, ordered the same way.
//!
//! Device code calling `cudaGraphLaunch` needs CUDA's device runtime library: compile it with
//! NVRTC's `-rdc=true` and link it with [`link_with_cudadevrt`] (see [`device_runtime`]).
//!
//! [device graph launch]: https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#device-graph-launch

mod anchor;
pub mod device_runtime;
mod exec;
pub(crate) mod footprint;
mod handle;
#[cfg(not(any(feature = "cuda-12020", feature = "cuda-12030")))]
mod updatable;

pub(crate) use anchor::DeviceAnchor;
pub use device_runtime::link_with_cudadevrt;
pub use exec::{DeviceExecUpdates, DeviceGraphExec};
pub use handle::{DeviceGraph, DeviceGraphHandle, SharedDeviceGraph, DEVICE_LAUNCH_DECLARATIONS};
#[cfg(not(any(feature = "cuda-12020", feature = "cuda-12030")))]
pub use updatable::{DeviceKernelNode, DeviceNode, DEVICE_UPDATE_DECLARATIONS};
