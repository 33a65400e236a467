//! Statically-checked CUDA graphs for Rust: the runtime.
//!
//! A thin, safe layer over [`cudarc`]'s driver bindings that builds CUDA graphs with explicit
//! node-add calls, instantiates them, launches them and updates them:
//!
//! - [`Graph`]: a definition graph. Kernel ([`Kernel`] with a typed argument tuple), 1-D memcpy
//!   ([`Memcpy`], typed by direction), 1-D memset ([`Memset`], 1/2/4-byte patterns), empty, host
//!   (a Rust closure, optionally reading and writing [`HostBuffer`]s) and child-graph nodes;
//!   dependencies listed when a node is added; DOT export; stream capture into a new graph, into
//!   a graph being built or as a child-graph node, over several streams (see "Stream capture");
//!   [`Graph::clear`] to rebuild it in a loop.
//! - [`GraphExec`]: the executable. Launch, upload, whole-graph [`update`](GraphExec::update)
//!   with an error naming the refused node, single-node updates for kernel, memcpy, memset, host
//!   and child-graph nodes, and enable/disable for the kinds CUDA allows ([`Switchable`]).
//! - [`DeviceBuffer`] and [`HostBuffer`]: memory graphs share ownership of (see "Memory model").
//! - [`scope`]: graphs that borrow cudarc memory (`&CudaSlice`, `&mut CudaSlice`, views), every
//!   launch waited for before the borrows end.
//! - [`Graph::capture`], [`Capture`] and [`Replay`]: safe stream capture of cudarc's calls, cuBLAS
//!   and this crate's own (kernels, copies, host functions, allocations, conditional nodes) over
//!   the memory given to the capture (see "Stream capture").
//! - [`UserObject`]: Rust values whose lifetime the driver tracks.
//! - [`Indirect`] values: scalars kernels read through a pointer, set between launches by a plain
//!   host write instead of a node update ([`indirect`]).
//! - [`ExecCache`]: one executable per shape (batch-size bucket, frame length), built when the
//!   shape is first seen, the least recently used dropped beyond a bound ([`exec_cache`]).
//! - [`ExternalSemaphore`] and [`ExternalMemory`]: Vulkan (or D3D12) semaphores and memory
//!   imported into CUDA, for semaphore signal and wait nodes and buffers shared with the other
//!   API (see "Other APIs: semaphore nodes and external memory").
//!
//! ```no_run
//! use cudagraph_runtime::prelude::*;
//! # fn main() -> Result<(), cudagraph_runtime::Error> {
//! # let func: cudarc::driver::CudaFunction = todo!();
//! let ctx = cudagraph_runtime::open_device(0)?; // Error::NoDriver on a machine without CUDA
//! let stream = ctx.new_stream()?;
//! // SAFETY: the kernel is `void scale(float a, float* y, unsigned n)`, which writes y[i] for
//! // i < n only; the check keeps n within y.
//! let scale: Kernel<(f32, DevicePtrMut<f32>, u32)> =
//!     unsafe { Kernel::new(func) }.requires(|_, (_, y, n)| n as usize <= y);
//! let y = DeviceBuffer::<f32>::zeros(&stream, 1024)?;
//! let out = HostBuffer::<f32>::zeroed(&ctx, 1024)?;
//!
//! let mut graph = Graph::new(&ctx)?;
//! let fill = graph.add_memset(Memset::new(&y, 1.0f32), &[])?;
//! let cfg = LaunchConfig::for_num_elems(1024);
//! let k = graph.add_kernel(&scale, cfg, (2.0, &y, 1024), &[fill.id()])?;
//! graph.add_memcpy(Memcpy::dtoh(&y, &out), &[k.id()])?;
//!
//! let mut exec = graph.instantiate()?;
//! exec.launch(&stream)?;
//! exec.set_kernel_params(k, cfg, (3.0, &y, 1024))?; // applies to the next launch
//! exec.launch(&stream)?;
//! assert_eq!(out.read()?[0], 3.0); // waits for the launch, then reads
//! # Ok(()) }
//! ```
//!
//! # Memory model
//!
//! A CUDA graph keeps the raw addresses of the memory its nodes use, and a launch runs long after
//! the call that enqueued it returned. Rust's promise still holds here: **safe code cannot make a
//! launch touch freed memory or read an invalid value, nor let host code touch memory a launch
//! may be writing.** These are the rules that keep it, each one for all safe code, with no
//! `Drop` relied on (an executable may be leaked with `mem::forget` or kept in an `Rc` cycle):
//!
//! 1. **Memory outlives the launches that use it.** A graph gets memory in one of the ways in the
//!    table below, and each keeps it valid until the last launch that may use it has completed.
//! 2. **Launches come after the work already queued on their memory, and host code after the
//!    launches.** An owned buffer's work is ordered on its own stream; the first launch of a
//!    graph borrowing a cudarc slice waits for the work cudarc queued on it, on any stream.
//!    [`HostBuffer::read`] / [`HostBuffer::write`] wait for the launches that may use the memory
//!    and hold new ones off; [`DeviceBuffer::access`] orders cudarc's calls after them.
//! 3. **A kernel touches only the memory it is given** (the one `unsafe` promise, made once per
//!    kernel: [`Kernel::new`], below). Every argument list a graph gives a kernel, at its add and
//!    at every update, passes the kernel's own check first ([`Kernel::requires`]).
//! 4. **Values are valid.** Memory handed out as `T` without being written first (a graph
//!    allocation, [`GraphExec::read_allocation`], [`GraphExec::take_allocation`]) has a `T` valid
//!    for every bit pattern (`bytemuck::AnyBitPattern`; not `bool`); a memset fills only types
//!    whose every element its bits make valid ([`FillWith`], `unsafe` to implement).
//! 5. **Traits that reach the driver are sealed**: [`KernelArg`], [`KernelArgValues`],
//!    [`KernelArgs`], [`MemsetValue`], [`Switchable`], [`CaptureOperand`], [`CaptureOperands`]
//!    cannot be implemented outside this crate, so no implementation can hand the driver an
//!    address or value the crate did not check.
//! 6. **A handle names what it was made for, or is refused.** Node handles work only with their
//!    graph's executables; a [`KernelNode<A>`] updates a node only while it launches a kernel of
//!    parameter list `A` (a whole-graph update or a re-instantiation may change that); a
//!    conditional node's bodies are lent as [`Body`]s, only inside the closure that builds them,
//!    and cannot be moved out.
//! 7. **No driver calls where CUDA forbids them.** Inside a host node every call of this crate
//!    that would reach the driver refuses ([`Error::InHostNode`]); inside a capture closure the
//!    calls that would wait for the GPU or launch into the stream being captured refuse
//!    ([`Error::Capturing`]). A drop that would call the driver (a graph, an executable, a
//!    buffer, a kernel's module) is left to this crate's release thread.
//! 8. **Bad input is an error, never a panic**: empty buffers are ordinary values, and what CUDA
//!    cannot do with them (a copy of no bytes) is an [`Error`] naming the node.
//!
//! | given as | kept valid by | until |
//! |---|---|---|
//! | [`DeviceBuffer<T>`] / [`HostBuffer<T>`] (owned, shared by reference count) | the graph and every executable made from it | the last launch that may use it has completed |
//! | a cudarc borrow: `&CudaSlice<T>`, `&mut CudaSlice<T>`, `CudaView(Mut)`, `&(mut) PinnedHostSlice<T>` | a [`scope`]: the graph is a `Graph<'scope>`, its executables `GraphExec<'scope>`, the memory borrowed for the whole scope | the scope returns, which it does only once every launch of every executable made in it has completed |
//! | raw [`DevicePtr`] / [`HostPtr`] from `unsafe fn from_raw` | the promise made there | as long as that promise says |
//! | an [`Indirect<T>`] key (a value in the graph's own block) | the graph, then its executable | the last launch that may use it has completed |
//! | a [`DeviceBuffer<T>`] mapped from [`ExternalMemory`] (another API's memory) | as any `DeviceBuffer`; its final release frees the mapping, then the import | the last launch that may use it has completed (the other API's own accesses are ordered through semaphores) |
//!
//! ```text
//!  host code             graph / executable                       GPU
//!  ---------             ------------------                       ---
//!  DeviceBuffer ─clone──▶ node uses ──┬── launch k ──────────────▶ reads/writes
//!  (dropped any time)                 │   (records nothing)
//!                                     ├── set_params swaps y → z:
//!                                     │     y released after a completion
//!                                     │     marker recorded behind launch k
//!                                     └── executable dropped (or leaked) mid-launch:
//!                                           same: every buffer released behind
//!                                           the marker, nothing blocks
//!  y's last clone dropped ──▶ freed on y's own stream, *after* the marker
//!
//!  HostBuffer::read() ──▶ waits for the launches that may use it, keeps new ones out
//!  DeviceBuffer::access() ──▶ cudarc slice, ordered after those launches (stream-ordered)
//!  scope(|s| ..) ──▶ returns once every launch of the scope's executables has completed
//! ```
//!
//! ## What `Kernel::new` asks of a kernel
//!
//! The kernel's code is the one thing this crate cannot check, so [`Kernel::new`] is `unsafe`,
//! and its contract is one a kernel's author can check by reading the kernel: for every launch
//! that passes the kernel's check ([`Kernel::requires`]; without one, for every launch), the
//! kernel (1) has the parameter list it is declared with; (2) reads and writes memory only
//! through its pointer parameters, and through each only the elements `0..len` of the memory
//! given for it; (3) writes only valid values of the pointee type; (4) sets conditional handles
//! only through its handle parameters and launches no work of its own. A kernel whose accesses
//! follow a length parameter (`if (i < n) y[i] = v`) keeps (2) with a check stating the bound:
//!
//! ```no_run
//! # use cudagraph_runtime::prelude::*;
//! # fn f(func: cudarc::driver::CudaFunction) {
//! // SAFETY: `fill(unsigned n, float v, float* y)` writes y[i] for i < n only; the check keeps n
//! // within y. Every add and update of a node launching it is checked, and refused with an
//! // `Error::Invalid` naming the node when n would run past y.
//! let fill: Kernel<(u32, f32, DevicePtrMut<f32>)> =
//!     unsafe { Kernel::new(func) }.requires(|_config, (n, _v, y)| n as usize <= y);
//! # }
//! ```
//!
//! ## How it works
//!
//! - **Who may be using an allocation.** Each allocation records the executables whose nodes use
//!   it (registered at instantiation and by updates), and the ones that stopped using it while
//!   their launches may still run. An executable's launches run in order (CUDA orders each
//!   launch of a `CUgraphExec` after the previous one), so one event recorded on the stream of its
//!   latest launch marks them all; it is recorded only when needed: when memory is released, or
//!   host code asks for access.
//! - **Releasing.** Memory an executable stops using (replaced by [`GraphExec::set_kernel_params`]
//!   and the other single-node updates, by [`GraphExec::update`], or because the executable is
//!   dropped) keeps that marker. A `DeviceBuffer` is freed on its own stream after a wait for it,
//!   so nothing blocks; a `HostBuffer` is freed once its markers have completed (by a thread of
//!   this crate if they have not). Launches never pay for this. An executable that is leaked
//!   never releases what it holds: its memory leaks with it, and stays valid.
//! - **Host access.** [`HostBuffer::read`] and [`HostBuffer::write`] wait for the launches that
//!   may use the memory, and while their guard is alive those executables refuse to launch
//!   ([`Error::BufferInUse`]). [`DeviceBuffer::access`] gives the cudarc slice for cudarc's stream
//!   calls, ordered after those launches on the buffer's own stream, and later launches wait for
//!   what was enqueued through it. A launch pays one sequentially consistent store and load for
//!   this gate, and only when the executable uses owned memory.
//! - **cudarc interop.** Work cudarc ordered on a slice before it was given to a graph comes
//!   first (with cudarc's event tracking on or off: the buffer's own stream orders it), and cudarc
//!   calls made through [`DeviceBuffer::access`] come after the launches that use the buffer.
//!   With event tracking off, enqueue that work on [`DeviceAccess::stream`].
//! - **Borrowed memory** needs a [`scope`], as borrowing across threads needs
//!   [`std::thread::scope`]: the borrow cannot end before the scope does, and the scope waits
//!   for every launch of its executables, however they ended. Taking the borrow makes the
//!   slice's own stream wait for cudarc's uses of it on other streams (its event tracking), and
//!   the executable's first launch waits for that stream: a launch reads what cudarc wrote
//!   before it, and a copy cudarc queued before it never sees its writes. Graphs made with
//!   [`Graph::new`] borrow nothing (`Graph<'static>`): they live as long as you like.
//! - **Page-locked host memory only.** Copies read and write [`HostBuffer`]s (or cudarc's
//!   `PinnedHostSlice`). A pageable buffer in a copy node makes `cuGraphLaunch` itself wait until
//!   the whole graph has run, and nothing would keep host code off it meanwhile: it is reachable
//!   only through `unsafe` [`HostPtr::from_raw`].
//! - **Host nodes** read and write host buffers through their arguments
//!   ([`Graph::add_host_with`]); a node whose use of such memory could run at the same time as
//!   another node's, one writing, is refused ([`Error::Hazard`]), and so is an executable whose host
//!   code would share host memory with another executable's writes (launches of two executables
//!   are not ordered with each other), unless both are bound to the one stream they are launched
//!   into ([`Graph::instantiate_on`]: CUDA runs a stream's work in order, so their launches never
//!   overlap). A host node must not call CUDA; every call of this crate
//!   that would refuses there ([`Error::InHostNode`]), and releases that would call CUDA go to its own thread.
//! - **Values moved into a graph** ([`Graph::retain`], host closures, [`UserObject`]s) are `Send`
//!   and dropped on a thread of this crate once the driver says no graph or launch holds them:
//!   CUDA runs user-object destructors on its own thread, where calling CUDA is illegal. A
//!   captured work's closure, an event node's event and a semaphore node's semaphores are held
//!   by their nodes as memory is, not in user objects (CUDA tracks those at every launch, at a
//!   cost in GPU time), and dropped once the graphs and the launches that may run those nodes
//!   are done (on this crate's thread when launches were waited for). [`wait_for_releases`]
//!   waits for that thread, and the process's exit does too (bounded), so that no release runs
//!   into the driver's teardown.
//! - **Stream capture.** A launch into a stream being captured is refused
//!   ([`Error::Capturing`]): CUDA does not record graph launches. When a completion marker is
//!   needed while its stream is being captured, the call that needs it fails with
//!   [`Error::Capturing`] (or, when an executable is dropped, the release waits on this crate's
//!   thread until the capture ends). Captured work gets its memory as the capture's operands,
//!   held as any node's, and what it records is checked against them ("Stream capture").
//!
//! Two executables that share device memory are ordered by the streams they are launched into,
//! as CUDA orders any two launches; within one graph, `cuda_graph!` rejects unordered nodes that
//! race on a buffer at compile time.
//!
//! # Graph memory nodes
//!
//! [`Graph::add_mem_alloc`] adds an alloc node: `len` `T`s of device memory at an address fixed
//! when the node is added, returned as a [`GraphAlloc<T>`] that is both the node's handle and an
//! operand of kernel, memcpy and memset nodes of the same graph. [`Graph::add_mem_free`] frees
//! it. CUDA backs the allocation with physical memory only between the two nodes in graph order,
//! so temporaries whose spans do not overlap share memory, within one graph and across graphs
//! launched into one stream ([graph memory nodes]); [`GraphMemory`] shows what is used and
//! reserved (current and peak), resets the peaks and returns unused memory to the system.
//!
//! ```text
//!  x ──► [stage 1] ──► h1 ──► [stage 2] ──► h2 ──► [stage 3] ──► h3 ──► [stage 4] ──► y
//!        alloc h1 ─────────────── free h1
//!                     alloc h2 ───────────────────── free h2
//!                                    alloc h3 (may reuse h1's memory) ──────── free h3
//! ```
//!
//! CUDA checks almost none of the rules of these nodes; this crate checks them when a node is
//! added ([`Error::Allocation`], naming the node and the allocation): every use ordered after the
//! alloc node and before the free node, one free, by the graph that made the allocation, and no
//! use by another graph. A graph with memory nodes cannot be cloned, embedded as a child graph,
//! instantiated twice or updated as a whole; its per-node updates keep its allocations.
//!
//! An allocation the graph does not free outlives the launch, and CUDA launches the graph again
//! only once it is freed: take it with [`GraphExec::take_allocation`] (a [`DeviceBuffer`], freed
//! stream-ordered when dropped, usable by cudarc and other graphs; or freed by the free node of
//! a later graph, [`Graph::add_mem_free_buffer`]), read it with
//! [`GraphExec::read_allocation`], or instantiate with
//! [`InstantiateFlags::AUTO_FREE_ON_LAUNCH`] to have each launch free the last one's. Dropping
//! the executable frees what is left. `cuda_graph!` declares the same with `alloc::<T>(len)` and
//! `free(a)` nodes and checks the rules at compile time; `examples/memory_nodes.rs` runs a
//! pipeline of graph allocations for several batch sizes.
//!
//! [graph memory nodes]: https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#graph-memory-nodes
//!
//! # Conditional nodes and events
//!
//! [`Graph::add_conditional`] adds an IF, IF/ELSE, WHILE or SWITCH node whose body graphs the GPU
//! runs, skips, repeats or picks by the value of a [`ConditionalHandle`] that kernels of the graph
//! set (`cudaGraphSetConditional`; NVRTC sources start with [`SET_CONDITIONAL_DECLARATION`]), so a
//! loop until convergence needs no host round-trip ([conditional graph nodes]). Bodies take
//! kernel, empty, child-graph, memset, memcpy and conditional nodes only, and a kernel may set
//! only its own graph's handles: both are checked when a node is added (the driver would refuse
//! the first only at instantiation and does not check the second). The bodies' nodes answer to
//! their handles on the enclosing graph's executables (one-by-one updates, and whole-graph
//! updates pair them too); CUDA cannot clone a graph with conditional nodes, so such a graph is
//! neither cloned nor embedded as a child. `cuda_graph!` declares conditional nodes with their
//! bodies inline (`name: while h { ... }`), checks CUDA's body rules at compile time, and draws
//! each declared graph, bodies nested, as a picture in the type's docs; `TOPOLOGY.to_dot()` and
//! `to_mermaid()` give the same nesting as Graphviz clusters and Mermaid subgraphs:
//!
//! ```text
//! flowchart TD
//!     n0["reset: memset"]
//!     n1["count: conditional"]
//!     subgraph b1_0["count body 0"]
//!         n3["bump: kernel"]
//!     end
//!     n1 -.-> n3
//!     n2["check: kernel"]
//!     n0 --> n1
//!     n1 --> n2
//! ```
//!
//! [`Graph::add_event_record`] and [`Graph::add_event_wait`] order a graph with streams and other
//! graphs through an [`Event`].
//!
//! [conditional graph nodes]: https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#conditional-graph-nodes
//!
//! # Other APIs: semaphore nodes and external memory
//!
//! A graph hands work to and from Vulkan (or D3D12) on the GPU, with no host thread in between:
//! [`Graph::add_semaphore_wait`] makes the nodes after it wait until imported semaphores reach
//! their values (signalled by the other API's work), and [`Graph::add_semaphore_signal`] sets
//! them once the nodes before it are done (the other API's work waits for that). The semaphores
//! are [`ExternalSemaphore`]s ([`ExternalSemaphore::from_fd`] imports a Vulkan binary or
//! timeline semaphore exported as an opaque file descriptor, taking the descriptor, which CUDA
//! owns once the import succeeds; [`ExternalSemaphore::from_raw`] other handle types, `unsafe`).
//! Memory the two APIs share is an [`ExternalMemory`] (imported the same way, `unsafe` because
//! CUDA cannot check the size it is told) mapped as a [`DeviceBuffer`]
//! ([`ExternalMemory::into_buffer`]): a buffer like any other for nodes and host access, whose
//! mapping and import the graphs keep until their launches are done.
//!
//! ```no_run
//! # use cudagraph_runtime::prelude::*;
//! # use cudagraph_runtime::{ExternalSemaphore, SemaphoreKind};
//! # fn f(ctx: &std::sync::Arc<cudagraph_runtime::cudarc::driver::CudaContext>,
//! #      stream: &std::sync::Arc<cudagraph_runtime::cudarc::driver::CudaStream>,
//! #      fd: std::os::fd::OwnedFd, image: DeviceBuffer<u32>, step: Kernel<(u32, DevicePtrMut<u32>)>)
//! #      -> cudagraph_runtime::Result<()> {
//! // `fd`: a Vulkan timeline semaphore, from `vkGetSemaphoreFdKHR`.
//! let sem = ExternalSemaphore::from_fd(ctx, fd, SemaphoreKind::Timeline)?;
//! let mut graph = Graph::new(ctx)?;
//! let ready = graph.add_semaphore_wait([(&sem, 1)], &[])?;
//! let cfg = LaunchConfig::for_num_elems(image.len() as u32);
//! let run = graph.add_kernel(&step, cfg, (image.len() as u32, &image), &[ready.id()])?;
//! let done = graph.add_semaphore_signal([(&sem, 2)], &[run.id()])?;
//! let mut exec = graph.instantiate()?;
//! for frame in 0..1000u64 {
//!     // ... the Vulkan side submits its work for `frame`, signalling 2 * frame + 1 ...
//!     exec.set_semaphore_wait(ready, [(&sem, 2 * frame + 1)])?;
//!     exec.set_semaphore_signal(done, [(&sem, 2 * frame + 2)])?;
//!     exec.launch(stream)?; // no host wait: the GPU waits for Vulkan's signal
//! }
//! # Ok(()) }
//! ```
//!
//! CUDA's rules for these nodes are kept by the types: how many semaphores a node has is part of
//! its handle's type ([`SemaphoreSignalNode<N>`]; CUDA cannot change `numExtSems` in an update),
//! there is no enable/disable for them ([`Switchable`] is not implemented), and they are refused
//! in conditional bodies ([`Error::Invalid`] naming the node); CUDA refuses them in graphs
//! instantiated for device launch. A binary semaphore has no value (its nodes give it `0`).
//!
//! **What is needed at run time**: the NVIDIA driver (CUDA), and for the other API its own
//! runtime: for Vulkan the loader (`libvulkan.so.1`) and NVIDIA's Vulkan driver, on the same GPU
//! (match the devices by UUID: `CudaContext::uuid`, `VkPhysicalDeviceIDProperties::deviceUUID`).
//! This crate does not link Vulkan: the program that creates the Vulkan objects does (the
//! workspace's `vulkan_interop` example uses `ash`). `cuda_graph!` declares the nodes as
//! `wait(sem = value)` and `signal(sem = value)`, and checks that nodes using a buffer marked
//! `#[external]` sit between a semaphore wait and a semaphore signal (see its docs).
//!
//! # Stream capture
//!
//! Work enqueued on a stream can be recorded as graph nodes instead of run ([stream capture]):
//!
//! - [`Graph::capture`]: the work becomes a new graph ([`Scope::capture`] for one that borrows
//!   cudarc memory);
//! - [`Graph::capture_into`] (CUDA 12.3 or newer): the work becomes nodes of a graph being built,
//!   after given nodes, and nodes added later depend on [`Captured::sinks`] to come after it; into
//!   a conditional body too, where CUDA's body rule is checked on the captured nodes;
//! - [`Graph::add_captured`]: the work becomes one child-graph node.
//!
//! - [`Capture`]: work to record again and again (a `cuda_graph!` capture node's param);
//! - [`Replay`]: PyTorch's `torch.cuda.graph` pattern: warm up on a side stream, capture once,
//!   then replay with new values written into the static inputs.
//!
//! Capture is safe. The memory the work uses is given to the capture as its *operands*
//! ([`CaptureOperands`]: `&buffer` to read, `&mut buffer` or [`Mut`] to write, one or a tuple),
//! held by the graph as any node's memory is, and the closure reaches it only through views
//! ([`CaptureView`], [`CaptureViewMut`]) that work with cudarc's calls and cuBLAS and cannot
//! leave the closure; a writable view's parts and view to read borrow it, as a `&mut` slice's
//! do, so no view aliases one that is written. The closure gets a [`CaptureScope`]: the stream being captured, lent for
//! the closure only (it dereferences to the `Arc<CudaStream>`, so cudarc's calls work on it as on
//! the stream); its own calls record kernels, copies, memsets, host functions
//! ([`CaptureScope::host`], `cuLaunchHostFunc`), graph allocations and conditional nodes
//! ([`CaptureScope::add_conditional`], through `cuStreamGetCaptureInfo` /
//! `cuStreamUpdateCaptureDependencies`), each checked as [`Graph`]'s adders check theirs; and
//! [`CaptureScope::fork`] / [`CaptureScope::fork_all`] record parallel branches on other streams.
//! What cudarc recorded on its own (copies, memsets) is checked when the capture ends to touch
//! only the operands (to write, for what it writes) and the capture's allocations; anything else
//! is an [`Error::Invalid`] naming the node. The closure is `Send + 'static` and the graph keeps
//! it (with what it owns: a cuBLAS handle, kernels) while the graph and its executables may run. The capture always ends, also when the closure fails or panics; the closure's error
//! comes first. Captures run in CUDA's thread-local mode: calls that could synchronize with the
//! device are forbidden on the capturing thread while the closure runs; other threads are not
//! affected.
//!
//! ```no_run
//! # use cudagraph_runtime::prelude::*;
//! # use cudagraph_runtime::Error;
//! # fn f(stream: &std::sync::Arc<cudagraph_runtime::cudarc::driver::CudaStream>,
//! #      side: std::sync::Arc<cudagraph_runtime::cudarc::driver::CudaStream>,
//! #      a: &DeviceBuffer<f32>, b: &DeviceBuffer<f32>) -> Result<(), Error> {
//! let graph = Graph::capture(stream, (Mut(a.clone()), Mut(b.clone())), move |s, (mut a, mut b)| {
//!     s.fork(&side, |t| {
//!         t.memset_zeros(&mut a)?; // on `side`: one branch
//!         s.memset_zeros(&mut b)?; // on `stream`: the other
//!         Ok::<(), Error>(())
//!     }) // `stream` waits for `side` here, whatever the closure returned
//! })?;
//! # Ok(()) }
//! ```
//!
//! **Fork and join.** Another stream joins a capture when it waits for an event recorded in the
//! capture, and must be joined back into the captured stream before the capture ends, or the end
//! fails (`CUDA_ERROR_STREAM_CAPTURE_UNJOINED`, [cross-stream dependencies]). With
//! [`CaptureScope::fork`] a missing join cannot happen: the side stream waits for the captured
//! stream, records the work of the closure it is lent to, and is joined back when that closure
//! returns, fails or panics; work enqueued on a forked stream after that (through an
//! `Arc<CudaStream>` kept elsewhere) is joined before the capture ends. Streams brought in
//! otherwise (cudarc's `CudaStream::fork` or `join`, waits on raw events) are the caller's to
//! join, and the capture's views refuse them (a panic, as on a stream outside the capture): the
//! capture joins only its own forks back, before a free of an allocation it viewed and at its
//! end, so work there would be ordered with neither.
//!
//! **Ending a capture.** A capture ends when its closure returns. A closure that ends it itself
//! (cudarc's `CudaStream::end_capture` on the stream) gets a graph of the work so far that holds
//! none of what that work uses (the memory given to the capture, its host functions, its
//! kernels): nothing can take that graph back, so the process is aborted, with a message, when
//! the closure returns, also when the closure then began and broke another capture on the
//! stream (a stream of the crate's own, joined to every capture and recording nothing, tells
//! that apart from a capture the closure only broke).
//!
//! **What breaks a capture.** A call that synchronizes or waits on the host inside a capture
//! breaks it: the call fails, the capture is invalidated, and its end fails with
//! `CUDA_ERROR_STREAM_CAPTURE_INVALIDATED`. The error says which call broke it where that can be
//! known; the streams are out of capture mode afterwards, and usable:
//!
//! | inside the capture closure | the capture returns |
//! |---|---|
//! | a cudarc call that fails with a capture code, its error returned from the closure: `CudaStream::synchronize`, `CudaContext::synchronize` (`_UNSUPPORTED`); `CudaEvent::synchronize` or a query of an event recorded in the capture (`CUDA_ERROR_CAPTURED_EVENT`); the legacy default stream used while a blocking stream is captured (`_IMPLICIT`); a wait on an event recorded outside the capture (`_ISOLATION`) | [`Error::CaptureBroken`] with that call (as the closure's error names it), its code, and what to do instead |
//! | the same, its error ignored; a cudarc call that records its error for later (the waits of cudarc's event tracking, drops) | [`Error::CaptureBroken`] with the code cudarc recorded for later (taken out of the context), else `_INVALIDATED` from the end of the capture |
//! | a call of this crate that would wait on the host for the GPU ([`HostBuffer::read`], [`HostBuffer::write`], [`HostBuffer::zeroed`], [`DeviceBuffer::to_vec`], [`DeviceBuffer::copy_from`], [`GraphExec::read_allocation`]) or enqueue on a stream being captured ([`GraphExec::launch`], [`GraphExec::upload`], [`DeviceBuffer::access`] of a buffer whose own stream is captured, [`DeviceBuffer::zeros`], [`DeviceBuffer::from_host`]) | [`Error::Capturing`] naming the call, refused before any driver call: the capture is intact, and the closure may go on |
//! | work on a stream forked with [`CaptureScope::fork`] | nothing: it is always joined |
//!
//! **cudarc allocations in a capture.** cudarc allocates on the captured stream as an alloc
//! node: its `CudaSlice` names memory that exists only while a launch of the graph has it
//! allocated ([graph memory nodes]). Dropped inside the closure, it is a free node of the graph.
//! Kept past the closure (moved out through shared state), it would reach memory nothing owns:
//! the capture is refused ([`Error::Invalid`] naming the allocation's address), and the refused
//! graph is kept, never destroyed, so that the address is never handed to another allocation
//! (a use of the escaped slice faults the context instead; its drop records
//! `CUDA_ERROR_INVALID_VALUE` in cudarc's context). Use [`CaptureScope::alloc`] for memory the
//! capture allocates. When the closure also *breaks* the capture, the driver destroys the
//! recorded graph at the capture's end and hands its addresses out again: the crate lists the
//! capture's unfreed cudarc allocations before the end and takes their addresses back right
//! after it (into graphs never instantiated nor destroyed). Should another thread's allocation
//! take such an address first, a slice kept past the closure could alias it, and the process
//! is aborted with a message saying why.
//!
//! Dropping this crate's values inside the closure does not break a capture: what would make a
//! forbidden driver call there (destroying a graph or an executable, freeing memory) is left to
//! this crate's release thread.
//!
//! **cudarc's event tracking.** cudarc orders each buffer's uses across streams with events:
//! before a buffer is used, the stream waits for an event recorded after its last use. Inside a
//! capture a wait on an event recorded outside it breaks the capture (`_ISOLATION`). The views a
//! capture closure works on carry no events (the capture orders its own work: stream order, forks
//! and joins; the memory model orders the launches), so tracking stays on; a cudarc buffer used
//! in the closure without being given to the capture breaks it this way, and the capture reports
//! [`Error::CaptureBroken`] naming cudarc's event tracking.
//!
//! [stream capture]: https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#creating-a-graph-using-stream-capture
//! [cross-stream dependencies]: https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#cross-stream-dependencies-and-events
//!
//! # Indirect values
//!
//! [`Graph::add_indirect`] adds a value that the graph's kernels read through a `const T*`
//! parameter ([`DevicePtr<T>`]); [`GraphExec::set_indirect`] changes it for the next launches
//! with a store into host memory, no driver call, and each launch reads exactly the values set
//! before it was made, however many launches are queued. A fetch kernel at the start of each
//! launch copies the launch's values into device memory: from its own parameters, which the
//! launch updates when a value changed (one node update however many nodes read the values), or
//! from a ring of page-locked slots ([`IndirectDelivery`]). The [`indirect`] module explains
//! how, what each costs, and when node updates are the better choice.
//! A graph with indirect values is instantiated once and cannot be cloned, embedded or updated
//! as a whole.
//!
//! # One executable per shape
//!
//! An executable is fixed to the sizes it was built with (grids, copy lengths, graph
//! allocations), so a loop over varying sizes keeps one per shape. [`ExecCache<K, E>`] maps a
//! shape key `K` to any executable type `E` ([`GraphExec`], a `cuda_graph!`-generated type, or a
//! struct of one and its buffers): [`ExecCache::get_or_build`] builds on a miss and drops the
//! least recently used executable when the cache is full; [`bucket_pow2`] rounds a size up to
//! its bucket; [`ExecCache::stats`] counts hits, misses, evictions and failed builds.
//!
//! ```no_run
//! # use std::num::NonZeroUsize;
//! # use cudagraph_runtime::{bucket_pow2, ExecCache, GraphExec, Error};
//! # fn build(rows: usize) -> Result<GraphExec<'static>, Error> { todo!() }
//! # fn f(stream: &std::sync::Arc<cudagraph_runtime::cudarc::driver::CudaStream>, rows: usize)
//! #     -> Result<(), Error> {
//! let mut cache = ExecCache::new(NonZeroUsize::new(3).unwrap());
//! let bucket = bucket_pow2(rows).expect("at most 2^63 rows");
//! cache.get_or_build(&bucket, |&b| build(b))?.launch(stream)?;
//! # Ok(()) }
//! ```
//!
//! Evicting drops the executable while its launches may still run, which the memory model makes
//! sound: CUDA destroys an executable in flight only once its launches complete, memory it owns
//! is released behind the completion marker of its latest launch, and graph allocations are
//! freed by stream-ordered free nodes. A build that fails evicts nothing. With graph memory
//! nodes for the temporaries, the cached executables of all shapes share one pool of physical
//! memory instead of holding static buffers each (`examples/shape_cache.rs`).
//!
//! # Several GPUs: NCCL collectives (feature `nccl`)
//!
//! With the `nccl` feature, NCCL collectives are graph nodes: one graph per GPU, each with its
//! rank's `Communicator` (`ncclComm_t`; `Communicator::init_all` for the GPUs of this
//! process, `Communicator::from_rank` with a `NcclId` across processes or threads), and
//! `Graph::add_all_reduce`, `Graph::add_all_gather`, `Graph::add_reduce_scatter`,
//! `Graph::add_broadcast`, `Graph::add_send`, `Graph::add_recv` and
//! `Graph::add_send_recv` (in `cuda_graph!`: `all_reduce(comm, grads, Sum)` and the others).
//! Each records its NCCL call by stream capture on the communicator's device, as a child-graph
//! node whose buffers are its memory (read and written as the operation says, kept alive as any
//! node's). NCCL is loaded at run time (`libnccl.so.2`): building needs no NCCL, and
//! `nccl_present` tells whether it can be loaded. What NCCL leaves to the user is checked:
//!
//! - **Order.** A communicator's collectives run one at a time, in the same order on every rank,
//!   or the ranks hang: each collective node runs after the one added before it on its
//!   communicator, and instantiating checks, with one exchange over the communicator, that
//!   every rank issues the same sequence (operation, element type, count, root; a send meeting
//!   a receive of its size), refusing with `Error::CollectiveMismatch` naming this rank's node
//!   where they first differ (`Graph::check_collective_order`); over several communicators,
//!   in an order every rank shares, comparing the order across communicators too. Every rank
//!   must instantiate at the same point, on its own thread or process, and launch the
//!   executables using a communicator in the same order, each as many times (not checked: a
//!   mismatch hangs; see `Communicator` for symmetric buffers, where one executable at a time
//!   may use them).
//! - **One graph per communicator in flight.** A launch of an executable using a communicator
//!   waits, on the device, for the previous launch using it (an event the next launch's stream
//!   waits on, recorded only when that launch went to another stream).
//! - **Not in conditional bodies.** Whether a body runs is decided on each device, so a rank
//!   could skip a collective its peers wait in: refused (at compile time in a declaration, with
//!   an `Error` naming the node in the runtime).
//! - **Fixed once built.** NCCL recorded its work for the communicator and buffers: a graph with
//!   collectives is not updated as a whole (re-instantiate it), a child-graph node's update
//!   (`GraphExec::set_child_graph`) cannot add, remove or change a collective, a graph with
//!   collectives is not launched from the device, and `set_params` of a declaration refuses a
//!   changed communicator, buffer, root or peer.
//! - **Symmetric buffers.** `Communicator::alloc_symmetric` gives a `DeviceBuffer` in NCCL's
//!   symmetric memory (a window every rank registers together), for NCCL's lowest-latency
//!   kernels; NCCL requires every rank's buffer at the same offset of the same window, which the
//!   order check compares too, at every instantiation of a graph using them: every rank makes
//!   such an executable, or none does.
//!
//! Copies between devices are memcpy nodes (`Memcpy::dtod` with another device's memory):
//! adding the node grants the access the copy needs, and refuses it where the devices have no
//! peer path. A kernel or memset node using another device's memory is granted the access or
//! refused the same way (without it, the driver takes the node and the launch faults). A `Communicator` of several ranks connects them when it is made (an eager warm-up
//! of every collective kind and a byte sent between every two ranks): NCCL connects ranks
//! lazily, and a connection made inside the capture that records a collective node fails. No
//! NCCL environment variable is needed.
//!
//! # Soundness model, beyond memory
//!
//! - **Thread safety.** [`Graph`] and [`GraphExec`] are `Send`, not `Sync`: CUDA graph objects must
//!   not be used by two threads at once ([graph thread safety]); Rust's borrow rules enforce it.
//!   A graph or executable moved to a thread where no CUDA context is current works there: the
//!   driver's kernel-node calls crash on such a thread (a segmentation fault, though their
//!   parameters name the context), so each call that needs one makes the graph's context
//!   current first, as cudarc's calls do (one `cuCtxGetCurrent` when it already is).
//! - **Argument types.** A [`Kernel`] is created `unsafe`ly, once, with its parameter tuple; every
//!   argument list given afterwards is checked by the type checker.
//! - **Update limits.** Handles are typed by node kind, so only the updates CUDA allows exist:
//!   a memcpy's direction and a semaphore node's number of semaphores are part of their handles'
//!   types; enable/disable exists only for kernel, memcpy and memset nodes. The unchecked
//!   escapes are `unsafe`.
//! - **Panics.** A host closure that panics does not unwind into the driver: the panic is caught,
//!   and the next [`GraphExec::launch`] returns [`Error::HostPanicked`] naming the node.
//! - **No driver.** A machine without the CUDA driver gives [`Error::NoDriver`] from
//!   [`open_device`], never a panic.
//!
//! [graph thread safety]: https://docs.nvidia.com/cuda/cuda-driver-api/graphs-thread-safety.html
//!
//! # CUDA version
//!
//! The default feature `cuda-13000` binds the CUDA 13.0 driver API, which runs on any CUDA 13
//! driver. Pick another with `default-features = false, features = ["cuda-12080"]` (12.2 or newer: the generic
//! `cuGraphAddNode`, which every node is added with, first exists there).
//! [`driver_version`] tells the loaded driver's CUDA version ([`binding_version`] the one bound);
//! a call that needs a newer driver (IF/ELSE and SWITCH nodes need CUDA 12.8) is refused with
//! [`Error::DriverTooOld`] naming what it needs.
#![deny(missing_docs)]
// The CUDA 12.2 binding has no conditional nodes and no capture into a graph (CUDA 12.3): their
// helpers are compiled but unused there.
#![cfg_attr(feature = "cuda-12020", allow(dead_code))]

#[doc(hidden)]
pub mod __private;
mod ambient;
mod capture;
#[cfg(feature = "nccl")]
mod collective;
pub mod device_launch;
pub mod dot;
mod driver;
mod error;
mod exec;
pub mod exec_cache;
mod function_set;
mod graph;
mod graph_memory;
mod id;
pub mod indirect;
mod introspect;
mod kernel;
mod memory;
mod node;
mod ptr;
mod reaper;
mod scope;
mod topology;
mod trace;
mod user_object;
mod version;

pub use bytemuck;
pub use capture::{
    Capture, CaptureAlloc, CaptureOperand, CaptureOperands, CaptureScope, CaptureView,
    CaptureViewMut, Captured, Mut, Replay,
};
#[cfg(feature = "nccl")]
pub use collective::{nccl_present, Communicator, NcclElem, NcclId, ReduceOp};
pub use cudagraph_macros::cuda_graph;
pub use cudarc;
pub use device_launch::{DeviceGraph, DeviceGraphExec, DeviceGraphHandle, SharedDeviceGraph};
pub use driver::{driver_present, open_device};
pub use error::{Error, Result, UpdateFailure};
pub use exec::{GraphExec, InstantiateFlags};
pub use exec_cache::{bucket_pow2, CacheStats, ExecCache};
#[cfg(not(feature = "cuda-12020"))]
pub use graph::UnrolledCopy;
pub use graph::{Body, EdgeKind, Graph, NodeInfo, Rebuild};
pub use graph_memory::GraphMemory;
pub use indirect::{Indirect, IndirectDelivery, IndirectLayout, IndirectOptions};
pub use introspect::DotFlags;
pub use kernel::{
    Kernel, KernelArg, KernelArgPart, KernelArgValues, KernelArgs, KernelParam, LaunchConfig, Param,
};
pub use memory::{
    DeviceAccess, DeviceBuffer, DeviceDst, DeviceSrc, ExternalMemory, HostBuffer, HostDst,
    HostReadGuard, HostSrc, HostWriteGuard,
};
pub use node::{
    ChildGraphNode, DeviceToDevice, DeviceToHost, Direction, EmptyNode, Event, EventRecordNode,
    EventWaitNode, ExternalSemaphore, FillWith, GraphAlloc, HostCallback, HostFn, HostNode,
    HostToDevice, HostViews, KernelNode, MemFreeNode, Memcpy, MemcpyNode, Memset, MemsetNode,
    MemsetValue, NodeId, NodeKind, RawView, SemaphoreKind, SemaphoreSignalNode, SemaphoreWaitNode,
    Switchable,
};
#[cfg(not(feature = "cuda-12020"))]
pub use node::{Condition, ConditionalHandle, ConditionalNode, SET_CONDITIONAL_DECLARATION};
pub use ptr::{DevicePtr, DevicePtrMut, HostPtr, HostPtrMut};
pub use reaper::wait_for_releases;
pub use scope::{scope, Scope};
pub use topology::Topology;
pub use user_object::UserObject;
pub use version::{binding_version, driver_version};

/// The names most programs need.
pub mod prelude {
    pub use crate::{
        cuda_graph, Body, Capture, DeviceBuffer, DeviceGraph, DeviceGraphExec, DevicePtr,
        DevicePtrMut, Event, Graph, GraphAlloc, GraphExec, HostBuffer, HostCallback, HostPtr,
        HostPtrMut, Indirect, InstantiateFlags, Kernel, LaunchConfig, Memcpy, Memset, Mut, NodeId,
        Replay, SharedDeviceGraph,
    };
    // Conditional nodes came with CUDA 12.3.
    #[cfg(not(feature = "cuda-12020"))]
    pub use crate::{Condition, ConditionalHandle};
}
