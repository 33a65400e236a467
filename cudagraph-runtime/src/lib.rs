//! Statically-checked CUDA graphs for Rust: the runtime.
//!
//! A thin, safe layer over [`cudarc`]'s driver bindings that builds CUDA graphs with explicit
//! node-add calls, instantiates them, launches them and updates them:
//!
//! - [`Graph`]: a definition graph. Kernel ([`Kernel`] with a typed argument tuple), 1-D memcpy
//!   ([`Memcpy`], typed by direction), 1-D memset ([`Memset`], 1/2/4-byte values), empty, host
//!   (a Rust closure) and child-graph nodes; dependencies listed when a node is added; DOT export;
//!   stream capture ([`Graph::capture`]); [`Graph::clear`] to rebuild it in a loop.
//! - [`GraphExec`]: the executable. Launch, upload, whole-graph [`update`](GraphExec::update)
//!   with an error naming the refused node, single-node updates for kernel, memcpy, memset, host
//!   and child-graph nodes, and enable/disable for the kinds CUDA allows ([`Switchable`]).
//! - [`UserObject`]: Rust values whose lifetime the driver tracks.
//!
//! ```no_run
//! use cudagraph_runtime::prelude::*;
//! # fn main() -> Result<(), cudagraph_runtime::Error> {
//! # let func: cudarc::driver::CudaFunction = todo!();
//! let ctx = cudagraph_runtime::open_device(0)?; // Error::NoDriver on a machine without CUDA
//! let stream = ctx.default_stream();
//! let mut y = stream.alloc_zeros::<f32>(1024).unwrap();
//! // SAFETY: the kernel is `void scale(float a, float* y, unsigned n)`.
//! let scale: Kernel<(f32, DevicePtrMut<f32>, u32)> = unsafe { Kernel::new(func) };
//!
//! let mut graph = Graph::new(&ctx)?;
//! let y_ptr = DevicePtrMut::from(&mut y);
//! let zero = graph.add_memset(Memset::new(y_ptr, 1.0f32), &[])?;
//! let cfg = LaunchConfig::for_num_elems(1024);
//! let k = graph.add_kernel(&scale, cfg, (2.0, y_ptr, 1024), &[zero.id()])?;
//!
//! let mut exec = graph.instantiate()?;
//! exec.launch(&stream)?;
//! exec.set_kernel_params(k, cfg, (3.0, y_ptr, 1024))?; // applies to the next launch
//! exec.launch(&stream)?;
//! # Ok(()) }
//! ```
//!
//! # Soundness model
//!
//! - **Thread safety.** [`Graph`] and [`GraphExec`] are `Send`, not `Sync`: CUDA graph objects must
//!   not be used by two threads at once (SPEC 2.2); Rust's borrow rules now enforce it.
//! - **Argument types.** A [`Kernel`] is created `unsafe`ly, once, with its parameter tuple; every
//!   argument list given afterwards is checked by the type checker.
//! - **Update limits.** Handles are typed by node kind, so only the updates CUDA allows exist:
//!   a memcpy's direction is part of its handle's type; enable/disable exists only for kernel,
//!   memcpy and memset nodes. The unchecked escapes are `unsafe`.
//! - **Owned resources.** Host-node closures are moved into CUDA user objects held by the graph:
//!   they live until the last executable and launch that may call them are done. Any other value
//!   (a buffer, say) can be handed over with [`Graph::retain`]. CUDA runs user-object destructors
//!   on its own thread, where calling CUDA is illegal, so ours only pass the value to a thread of
//!   this crate, which drops it.
//! - **Panics.** A host closure that panics does not unwind into the driver: the panic is caught,
//!   and the next [`GraphExec::launch`] returns [`Error::HostPanicked`] naming the node.
//! - **Addresses.** Nodes keep raw device and host addresses ([`DevicePtr`], [`HostPtr`], ...).
//!   The memory behind them must stay allocated for as long as a launch may use it: keep the
//!   buffers alive while the executable lives (or hand them to [`Graph::retain`]). This is the one
//!   obligation the types do not yet check.
//! - **No driver.** A machine without the CUDA driver gives [`Error::NoDriver`] from
//!   [`open_device`], never a panic.
//!
//! # CUDA version
//!
//! The default feature `cuda-13000` binds the CUDA 13.0 driver API, which runs on any CUDA 13
//! driver. Pick another with `default-features = false, features = ["cuda-12080"]` (12.0 or newer).
#![deny(missing_docs)]

#[doc(hidden)]
pub mod __private;
pub mod dot;
mod driver;
mod error;
mod exec;
mod function_set;
mod graph;
mod id;
mod kernel;
mod memory;
mod node;
mod ptr;
mod reaper;
mod topology;
mod user_object;

pub use cudagraph_macros::cuda_graph;
pub use cudarc;
pub use driver::{driver_present, open_device};
pub use error::{Error, Result, UpdateFailure};
pub use exec::{GraphExec, InstantiateFlags};
pub use graph::{Graph, NodeInfo};
pub use kernel::{
    Kernel, KernelArg, KernelArgPart, KernelArgValues, KernelArgs, KernelParam, LaunchConfig, Param,
};
pub use memory::{
    DeviceAccess, DeviceBuffer, DeviceDst, DeviceSrc, HostBuffer, HostDst, HostReadGuard, HostSrc,
    HostWriteGuard,
};
pub use node::{
    ChildGraphNode, DeviceToDevice, DeviceToHost, Direction, EmptyNode, FillWith, HostCallback,
    HostFn, HostNode, HostToDevice, HostViews, KernelNode, Memcpy, MemcpyNode, Memset, MemsetNode,
    MemsetValue, NodeId, NodeKind, RawView, Switchable,
};
pub use ptr::{DevicePtr, DevicePtrMut, HostPtr, HostPtrMut};
pub use topology::Topology;
pub use user_object::UserObject;

/// The names most programs need.
pub mod prelude {
    pub use crate::{
        cuda_graph, DeviceBuffer, DevicePtr, DevicePtrMut, Graph, GraphExec, HostBuffer,
        HostCallback, HostPtr, HostPtrMut, InstantiateFlags, Kernel, LaunchConfig, Memcpy, Memset,
        NodeId,
    };
}
