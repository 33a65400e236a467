//! Indirect values: scalars that a graph's kernels read through a pointer, changed between
//! launches by a plain host write instead of node updates.
//!
//! A loop that changes a few numbers at every launch (a decode step, a time step, a scale) would
//! otherwise update every kernel node that takes them before each launch: one driver call
//! (`cuGraphExecKernelNodeSetParams`) of about 0.3 to 0.9 µs per node. An indirect value lives
//! in device memory instead, and kernels take a pointer to it. Setting it is a store into host
//! memory; the next launch sends the values to the device, with at most one node update however
//! many nodes read them (or, through a ring, with no driver call at all):
//!
//! ```no_run
//! use cudagraph_runtime::prelude::*;
//! # fn main() -> cudagraph_runtime::Result<()> {
//! # let func: cudarc::driver::CudaFunction = todo!();
//! # let ctx = cudagraph_runtime::open_device(0)?; let stream = ctx.new_stream()?;
//! // extern "C" __global__ void decode(const unsigned* step, float* out) { ... out[*step] ... }
//! // SAFETY: `decode` takes `(const unsigned*, float*)`.
//! let decode: Kernel<(DevicePtr<u32>, DevicePtrMut<f32>)> = unsafe { Kernel::new(func) };
//! let out = DeviceBuffer::<f32>::zeros(&stream, 4096)?;
//!
//! let mut graph = Graph::new(&ctx)?;
//! let step = graph.add_indirect(0u32)?; // an `Indirect<u32>`: a key, and a `const unsigned*`
//! graph.add_kernel(&decode, LaunchConfig::for_num_elems(1), (step, &out), &[])?;
//! let mut exec = graph.instantiate()?;
//! for s in 0..4096u32 {
//!     exec.set_indirect(&step, s)?; // a plain write into host memory: no driver call
//!     exec.launch(&stream)?;         // this launch reads `s`, whatever runs or waits meanwhile
//! }
//! # Ok(()) }
//! ```
//!
//! In CUDA C the parameter is a pointer to const, read with a plain load: `const unsigned* step`,
//! then `*step` (the value does not change while a launch runs, so `__ldg(step)` is fine too).
//! Several values of different types share one block; each is aligned to its type.
//!
//! # How it works
//!
//! The graph's block has a *current* copy in device memory, which the kernels read, and a
//! *staged* copy in host memory, which [`GraphExec::set_indirect`](crate::GraphExec::set_indirect)
//! writes (a store, no driver call). A node added with the graph's first value (or by
//! [`Graph::add_indirect_block`](crate::Graph::add_indirect_block)), without dependencies, is a
//! small *fetch* kernel (one block, PTX that this crate loads once per context, no NVRTC
//! needed) that fills the current copy at the start of each launch. Every node that reads an
//! indirect value is ordered after the fetch node: a kernel or copy given one gets the edge from
//! the fetch node added to its dependencies when they do not already order it. CUDA orders each
//! launch of an executable after its previous launches ([`cuGraphLaunch`]), so no kernel ever
//! sees the current copy change under it.
//!
//! How the staged values reach the fetch kernel is the block's [`IndirectDelivery`]:
//!
//! - **As parameters** (the default, blocks of up to [`MAX_PARAMETER_CAPACITY`] bytes). The
//!   values are a kernel parameter of the fetch node. When a value changed since the last
//!   launch, [`GraphExec::launch`](crate::GraphExec::launch) first updates that one node
//!   (`cuGraphExecKernelNodeSetParams`), whatever number of nodes reads the values. CUDA keeps
//!   the parameters of every launch already made: an update changes the next launches only
//!   ([`cuGraphExecKernelNodeSetParams`]), so the host runs as far ahead as it likes and each
//!   launch reads its own values. The fetch kernel copies from its parameters and reads
//!   nothing across the bus. Its parameter is sized to the bytes in use (8, 16, ... 2048: one kernel per
//!   size), since the driver copies the whole parameter at every update.
//! - **Through a ring** ([`IndirectDelivery::Ring`], any size). The launch copies the staged
//!   block into slot `k % R` of a ring of `R` slots in page-locked host memory that the device
//!   can read (`cuMemHostAlloc` with `CU_MEMHOSTALLOC_DEVICEMAP`), with no driver call. The
//!   fetch kernel reads the executable's launch counter `c` from device memory, writes `c` to a
//!   word of host memory (the `c` launches before it have completed, so their slots are free),
//!   copies slot `c % R` into the current block across the bus and increments the counter.
//!
//!   ```text
//!    host                                         device (one launch)
//!    ----                                         -------------------
//!    launch #k: waits until launch #k-R fetched,  [fetch] reads its counter c, tells the host
//!               copies staged -> slot k % R,              "c launches done", copies slot c % R
//!               cuGraphLaunch                             into the current block, counter = c+1
//!   ```
//!
//!   The device's counter counts exactly the launch calls that succeeded, as the host does:
//!   launch `k` fetches slot `k % R`. Before the host writes a slot again, it checks (one load
//!   from host memory, no driver call) that the launch which used it last has fetched it; if
//!   not (more than `S` launches queued and not started), `launch` waits, spinning briefly and
//!   then sleeping, and asks the driver every millisecond whether the launches have failed. The
//!   ring has one slot more than the `S` launches that may wait
//!   ([`IndirectOptions::with_slots`]) because a fetch reports the launches before its own, not
//!   itself: it then needs no system-wide fence after its reads, which cost about 0.4 µs per
//!   launch on an H200, and its store to host memory runs beside its copy.
//!
//! # Costs, and when to prefer node updates
//!
//! Measured by `tests/benches/indirect.rs` on an NVIDIA H100 (one kernel node reading one
//! value; a plain graph's launch is about 2.1 µs launch to launch):
//!
//! | | node update + launch | indirect, as parameters | indirect, through a ring |
//! |---|---|---|---|
//! | host, per changed value | one driver call per node (~0.3-0.9 µs) | one store (a few ns) | one store (a few ns) |
//! | host, per launch | the launch | the launch, `cuStreamIsCapturing`, and one node update (~0.5 µs) when a value changed | the launch, `cuStreamIsCapturing`, a copy of the used bytes, now and then one load of the word the device writes |
//! | device, per launch | nothing | the fetch node: +1.2 µs with a value changed at every launch | the fetch node and its read across the bus: +2.2 µs |
//! | memory | none | `capacity` bytes of device memory | `capacity + 16` bytes of device memory, about `(S + 1) × capacity + 64` bytes of page-locked host memory ([`IndirectLayout`]) |
//!
//! Prefer indirect values when several values change at every launch, or when one value is
//! read by many nodes (one write reaches them all, where updates would touch every node); with
//! four values read by four nodes, a launch and its changes take 0.6x the time of four raw node
//! updates and a launch. Prefer the ring when the host is the bottleneck (small graphs launched
//! back to back by a busy thread): it sends the values with no driver call. Prefer node updates
//! when values change rarely (then nothing is paid per launch), when the graph is so short that
//! the fetch node's latency matters on the device, or when a value decides something the driver
//! reads (a launch configuration, a copy's size): those cannot be indirect.
//!
//! # Rules
//!
//! - A key ([`Indirect<T>`]) belongs to the graph that made it, and to its executable: giving it
//!   to another graph or executable is an [`Error::Invalid`](crate::Error::Invalid).
//! - A graph with indirect values is instantiated once (instantiation consumes it), and cannot
//!   be cloned, embedded as a child graph, updated as a whole (`cuGraphExecUpdate` would point
//!   the executable's nodes at the other graph's block, which their fetch node does not fill),
//!   or instantiated for device launch (a launch from the device would not go through
//!   [`GraphExec::launch`](crate::GraphExec::launch)).
//!   [`GraphExec::reinstantiate`](crate::GraphExec::reinstantiate) keeps the block and its count
//!   (the new instantiation's first launch waits for the old one's launches, as for any
//!   re-instantiation); [`GraphExec::reinstantiate_from`](crate::GraphExec::reinstantiate_from)
//!   takes the other graph's block and keys, and the old block lives until the old launches are
//!   done.
//! - Kernels in the bodies of a conditional node may read the graph's values when the
//!   conditional node is ordered after the fetch node ([`Graph::indirect_fetch`](crate::Graph::indirect_fetch)).
//! - The block, the ring and the counters are freed only after the last launch that may use them
//!   has completed, as the crate's memory model frees any memory a graph uses.
//! - The fetch node is an ordinary kernel node, reachable only through `unsafe` calls
//!   ([`GraphExec::set_enabled_unchecked`](crate::GraphExec::set_enabled_unchecked)): disabling
//!   it leaves the kernels reading old values (uninitialized memory before the first launch),
//!   and with a ring, disabling it or launching the raw
//!   executable with `cuGraphLaunch` yourself breaks the count. A launch that then waits for a
//!   fetch that never comes returns an error once the driver says every launch is over.
//!
//! [`cuGraphLaunch`]: https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__GRAPH.html
//! [`cuGraphExecKernelNodeSetParams`]: https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__GRAPH.html
//!
//! The module's parts: `key` ([`Indirect`], and which nodes may read a graph's values),
//! `layout` (a block's size and delivery: [`IndirectOptions`], [`IndirectLayout`]), `staged`
//! (the host's copy of the values), `block` (a graph's block, `IndirectBlock`), `ring` (its
//! memory and the ring of slots launches read), `fetch` (the fetch kernels and their node).

mod block;
mod fetch;
mod key;
mod layout;
mod ring;
mod staged;

pub(crate) use block::{check_not_capturing, IndirectBlock};
pub use key::Indirect;
pub(crate) use key::{foreign_block, foreign_key, IndirectScope};
pub use layout::{IndirectDelivery, IndirectLayout, IndirectOptions, MAX_PARAMETER_CAPACITY};
