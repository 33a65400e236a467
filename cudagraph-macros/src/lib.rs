//! The `cuda_graph!` macro: CUDA graphs declared in Rust, checked at compile time.
//!
//! Use it through the runtime crate, which re-exports it: `cudagraph_runtime::cuda_graph`. The
//! macro's own documentation ([`cuda_graph!`]) is the reference of the DSL, of the generated API
//! and of the rules checked at compile time.
//!
//! Inside, the crate is laid out like serde_derive: `parse` (syntax only), `model` (the
//! resolved graph: indices, edges, the canonical build order), `check` (one module per rule,
//! errors accumulated and reported together) and `expand` (code generation over
//! `cudagraph_runtime::__private`, located at the user's tokens so that type errors land there).
#![deny(missing_docs)]

mod check;
mod expand;
mod kinds;
mod model;
mod parse;
mod reach;
mod repeat;
#[cfg(test)]
mod robustness;
#[cfg(test)]
mod snapshots;
mod text;
mod tokens;

use proc_macro::TokenStream;

/// Declares CUDA graphs with typed params, checked at compile time.
///
/// ```no_run
/// use cudagraph_runtime::{cuda_graph, prelude::*};
///
/// fn report(y: &[f32]) {
///     println!("step done: y[0] = {}", y[0]);
/// }
///
/// cuda_graph! {
///     /// One solver step: `y = alpha * x + y` on a zeroed `y`, copied back to the host.
///     pub graph Step {
///         params {
///             saxpy: Kernel<(u32, f32, DevicePtr<f32>, DevicePtrMut<f32>)>,
///             x: DeviceBuffer<f32>,
///             y: DeviceBuffer<f32>,
///             host_y: HostBuffer<f32>,
///             n: u32,
///             alpha: f32,
///             done: fn(&[f32]),
///         }
///         zero:  memset(y, 0.0f32);
///         scale: kernel saxpy<<<n.div_ceil(256), 256>>>(n, alpha, x, y);
///         back:  memcpy(y -> host_y);
///         log:   host(done, host_y);
///         zero -> scale -> back -> log;
///     }
/// }
///
/// # fn main() -> cudagraph_runtime::Result<()> {
/// # let func: cudagraph_runtime::cudarc::driver::CudaFunction = todo!();
/// let ctx = cudagraph_runtime::open_device(0)?;
/// let stream = ctx.new_stream()?;
/// // SAFETY: `saxpy` is `void saxpy(unsigned n, float a, const float* x, float* y)`.
/// let saxpy = unsafe { Kernel::new(func) };
/// let n = 1 << 20;
/// let params = StepParams {
///     saxpy,
///     x: DeviceBuffer::from_host(&stream, &vec![1.0; n])?,
///     y: DeviceBuffer::zeros(&stream, n)?,
///     host_y: HostBuffer::zeroed(&ctx, n)?,
///     n: n as u32,
///     alpha: 2.0,
///     done: report,
/// };
///
/// let mut exec = Step::build(&ctx, &params)?.instantiate()?; // the executable keeps a copy
/// exec.launch(&stream)?;
///
/// assert_eq!(exec.set_alpha(3.0)?, 2.0);           // updates `scale`, the one node reading it
/// let mut p = exec.params_mut();                   // several changes, each node updated once:
/// let _old_x = p.set_x(DeviceBuffer::from_host(&stream, &vec![0.5; n])?);
/// p.set_n(n as u32 / 2);
/// drop(p);                                         // applied by the next launch (or `p.apply()?`)
/// exec.zero().set_enabled(false)?;                 // kernel, memset and memcpy nodes only
/// exec.launch(&stream)?;
/// println!("{}", exec.params().host_y.read()?[0]); // waits for the launch
/// println!("{}", Step::TOPOLOGY.to_mermaid());
/// # Ok(()) }
/// ```
///
/// # The DSL
///
/// One call declares one or more graphs. A graph is
/// `#[attrs] vis graph Name { items }`; its items, in any order, are:
///
/// - **`params { name: Type, ... }`**, at most once: the graph's inputs. They become the public
///   fields of `NameParams`, and the only names node expressions can read. Attributes on the
///   block (`#[derive(Clone, Debug)]`) go to that struct; doc comments on a param go to its field.
///   A param may be marked `#[indirect]` (see "Indirect params") or `#[external]` (memory another
///   API shares, see "Semaphore nodes").
/// - **Nodes**, `name: kind;`, each with a unique name:
///
///   | kind | syntax | node |
///   |---|---|---|
///   | kernel | `kernel k<<<grid, block>>>(args...)` | launch of param `k: Kernel<(A, B, ...)>` |
///   | | `kernel k<<<grid, block, shared_mem_bytes>>>(args...)` | with dynamic shared memory |
///   | | `kernel k<<<config>>>(args...)` | `config`: a `LaunchConfig` (an expression, or a param of that type) |
///   | memset | `memset(dst, value)` | fills param `dst: DeviceBuffer<T>` with `value` repeated: a `T` for elements of 1, 2 or 4 bytes, a `u32` pattern for 8-byte elements (`memset(doubles, 0u32)` zeroes `f64`s) |
///   | memcpy | `memcpy(src -> dst)` | 1-D copy between two buffer params; the direction follows from their types (`DeviceBuffer` to `HostBuffer` is device-to-host, ...) |
///   | host | `host(f)` | runs `f` on a CPU thread: a `fn()`, a closure, or a `HostCallback` |
///   | | `host(f, a, mut b)` | `f` gets `HostBuffer` params as slices: `a` read (`&[T]`), `mut b` written (`&mut [T]`); one buffer alone, several as a tuple |
///   | child | `child(g)` | embeds param `g`: a graph of another `cuda_graph!` declaration, or a runtime `Graph` |
///   | empty | `empty` | does nothing (a join point) |
///   | alloc | `alloc::<T>(len)` | a graph allocation of `len` `T`s (`len`: a `usize` expression); its name is then a memory operand of kernel arguments, memsets and memcpys, like a `DeviceBuffer<T>` param (see "Graph allocations") |
///   | free | `free(a)` | frees the allocation of alloc node `a` |
///   | event record | `record(e)` | records param `e: Event` when the node runs: a stream or another graph that waits for `e` waits for the nodes before it |
///   | event wait | `wait(e)` | the nodes after it wait for the last record of param `e: Event`, made on any stream or by any graph |
///   | semaphore signal | `signal(s = v)`, `signal(a = v, b = w)` | signals params `s: ExternalSemaphore` (imported from Vulkan or another API), setting a timeline semaphore to `v: u64` (see "Semaphore nodes") |
///   | semaphore wait | `wait(s = v)`, `wait(a = v, b = w)` | the nodes after it wait until each semaphore reaches its value, signalled by the other API's work |
///   | capture | `capture(w)` | a child graph recorded by stream capture from param `w: Capture` (work enqueued on a stream through cudarc, cuBLAS or the capture scope's own calls, on the memory given to it: `Capture::new(&stream, (x, Mut(h)), \|s, (x, mut h)\| ...)`); recorded again when `set_params` gets another `Capture` |
///   | | `capture(w, [a, mut b])` | the same, declaring the buffer params the work reads (`a`) and writes (`mut b`); `[]` for none (see "Memory") |
///   | collective | `all_reduce(comm, buf, Sum)`, `all_reduce(comm, src -> dst, Sum)` | an NCCL all-reduce over param `comm: Communicator` (cudagraph-runtime's `nccl` feature), in place or from `src` to `dst` (`DeviceBuffer<T>` params); the reduction is `Sum`, `Prod`, `Max`, `Min` or `Avg` |
///   | | `all_gather(comm, src -> dst)`, `reduce_scatter(comm, src -> dst, Sum)` | all-gather, reduce-scatter |
///   | | `broadcast(comm, buf, root)`, `send(comm, buf, peer)`, `recv(comm, buf, peer)`, `send_recv(comm, src -> dst, to, from)` | broadcast in place from rank `root`; send to, receive from a peer; both at once (ranks: `usize` expressions over the params) |
///   | conditional | `if h { .. }`, `if h { .. } else { .. }`, `while h { .. }`, `switch h { 0 => { .. } .. }` | runs, skips, repeats or picks its bodies on the GPU by the value kernels give handle `h` (see "Conditional nodes") |
///
///   `grid` and `block` are `u32`, `(u32, u32)` or `(u32, u32, u32)`; the launch configuration
///   ends at the `>>>` before the argument list, so it may hold generics
///   (`<<<blocks::<Vec<u32>>(n), 256>>>`). The operands that fix a
///   node's *type* (the kernel, a memset's destination, a memcpy's two ends, a child's graph)
///   are param names; every other operand (launch sizes, kernel arguments, a memset's value, a
///   host closure) is any Rust expression over the params: `(n + 255) / 256`, `n as usize`,
///   `if n > 4 { 2.0 } else { 1.0 }`, `move || println!("{n}")`. In those expressions a `Copy`
///   param is a value, any other param a reference (so a host closure that keeps a non-`Copy`
///   param clones it first: `host({ let log = log.clone(); move || log.call() })`).
///   Doc comments on a node document its handle.
/// - **Edges**, `a -> b;`, in chains (`a -> b -> c;`) and with bracketed lists for fan-out and
///   fan-in (`a -> [b, c] -> d;` is `a -> b`, `a -> c`, `b -> d`, `c -> d`). A node's
///   dependencies are listed to CUDA in the order their edges are declared. Between two kernel
///   nodes an arrow may carry data: `a ->(programmatic) b` and `a ->(launch_order) b` (see
///   "Programmatic dependent launch").
/// - **Consts**, `const NAME: usize = value;`, and **`for` loops** over them: see
///   "Repetition".
///
/// ## Repetition
///
/// A `for` loop declares nodes and edges once per iteration, over a range fixed at compile
/// time: a transformer's 32 layers are one layer written once.
///
/// ```text
/// const LAYERS: usize = 32;
/// params { k: Kernel<(u32, f32, DevicePtr<f32>, DevicePtrMut<f32>)>, w: [DeviceBuffer<f32>; LAYERS], scale: [f32; LAYERS], x: DeviceBuffer<f32>, h: DeviceBuffer<f32>, n: u32 }
/// embed: memset(x, 1.0f32);
/// for layer in 0..LAYERS {
///     attn[layer]: kernel k<<<n.div_ceil(256), 256>>>(n, scale[layer], w[layer], h);
///     mlp[layer]: kernel k<<<n.div_ceil(256), 256>>>(n, 1.0, h, x);
///     attn[layer] -> mlp[layer];
/// }
/// for layer in 0..LAYERS - 1 { mlp[layer] -> attn[layer + 1]; }
/// head: memcpy(x -> h);
/// embed -> attn[0];
/// mlp[LAYERS - 1] -> head;
/// ```
///
/// - The count is known when the macro expands, so the topology stays fixed: a range's ends and
///   every index that picks a node or a buffer are integer literals, the graph's consts and the
///   loop variable, with `+ - * / %`, computed as rustc computes them: in `usize` arithmetic,
///   where a value below zero on the way overflows (`(layer - 1) % 3` at `layer = 0` is
///   refused; write `(layer + 2) % 3`). A graph's consts, `const NAME: usize = value;` at its
///   top, are emitted as written (the params' types and the user's code name them); a const
///   declared outside the graph is resolved by rustc after the macro ran, so the macro cannot
///   count with it (it says so).
/// - A node declared in a loop is named by the loop variable, `attn[layer]`: one node per
///   iteration, `attn[0]` to `attn[LAYERS - 1]` (a loop that declares nodes counts from 0).
///   Edges name instances, `attn[layer + 1]`, `attn[0]`, `mlp[LAYERS - 1]`, in the loop and
///   outside it; an index that picks no instance is an error at its tokens, with the
///   iteration where it does (an edge to the next iteration goes in a loop over one iteration
///   less, as above).
/// - A param of type `[T; N]` (`N` a literal or a const of the graph) is an array param:
///   `w[layer]` is one of its elements, in operands (`memset(h[layer], 0.0f32)`,
///   `capture(gemm[layer], [w[layer], mut h])`, `host(f, logs[layer])`) and in expressions,
///   where an element is what a param is (a value when `Copy`, else a reference). Each
///   element is a buffer of its own to the hazard rule, and a value of its own to
///   `set_params`: changing `scale[3]` updates only the nodes that read `scale[3]`. Which
///   element an expression reads is computed from its index as written (`w[3]`, `w[K]`,
///   `w[layer + 1]`); where rustc may pick another, the node reads every element of the
///   param, and any element's change updates it: an index in a macro call's input
///   (`next!(w[0])`), or one using a name that an item or a macro call in the node's
///   expressions may hide (`{ const K: usize = 1; w[K] }`, `use other::*;`, a macro declaring a
///   const named like the loop variable), or that a pattern there binds (`{ let i = 0; w[i] }`).
/// - An alloc node declared in a loop makes one allocation per iteration, `t[layer]`.
/// - Every rule judges the graph the loops make, across iterations: names, cycles (spelled
///   with instances, `attn[1] -> mlp[1] -> attn[1]`), races between iterations, graph
///   allocations, conditional bodies. Conditional nodes are declared outside loops; loops are
///   at the top of the graph, not nested.
/// - Semaphore, collective and `#[waits]` nodes, and edges with data (`->(programmatic)`,
///   `->(launch_order)`, or made programmatic by `#[programmatic]`), are declared outside loops
///   (the macro says so at the node or the edge).
/// - The generated code adds a loop's nodes in a loop: one eval and one update function and
///   one handle type per declared node, whatever the count. The executable's method takes the
///   index: `exec.attn(3)?` (`Error::Invalid` beyond the loop); a repeated alloc node a launch
///   leaves is read by index too (`read_t(3)`). `TOPOLOGY` lists every instance (`attn[3]`).
/// - An array param's element is set on its own: `exec.set_scale(3, 0.5)?` (or the guard's
///   `p.set_scale(3, 0.5)`) updates only the nodes that read `scale[3]`; `Error::Invalid`
///   beyond the array.
///
/// ## Memory
///
/// Buffer params are `DeviceBuffer<T>` (device memory) and `HostBuffer<T>` (page-locked host
/// memory): shared handles that the graph and its executables keep alive until the last launch
/// that may use them has completed, also when a setter or `set_params` replaces them or the
/// executable is dropped while a launch runs. Host code reads results through the buffer
/// (`exec.params().out.read()?`, or any clone of it, waits for the launches that write it), or
/// in a host node that gets the buffer (`host(f, out)`). Raw `DevicePtr<T>` / `HostPtr<T>` params (from `unsafe fn from_raw`)
/// are accepted too, with the promise made there. See the runtime crate's "Memory model".
///
/// Two nodes that use one buffer, one of them writing it, must be ordered by an edge (T14
/// below). What a node uses is decided by the types, not by how they are written: a param of
/// type `Buf` (`type Buf = DeviceBuffer<f32>`) is a buffer, and a kernel parameter of type
/// `Out` (`type Out = DevicePtrMut<f32>`), or of a kernel whose whole type is an alias, writes
/// what it gets. Where the declaration spells the types out, the macro reports the race itself;
/// where it does not, the generated code asks the type system and the compile fails at the
/// same token with the same message (an `E0080` constant-evaluation error). A param whose type
/// holds memory the macro cannot see (`Vec<DeviceBuffer<T>>`, `Option<DevicePtrMut<T>>`) cannot
/// be named in a kernel's pointer argument: make each buffer a param.
///
/// The race rule judges a kernel argument for a pointer parameter as the param or allocation it
/// names, so that argument is one of the forms whose memory is what they name:
///
/// - a param or an allocation by name: `x`, `t`;
/// - an element of an array param, or the allocation of one iteration of a repeated alloc node,
///   at an index the macro knows (integer literals, the graph's consts, the loop variable):
///   `w[layer]`, `t[l + 1]`;
/// - part of a `DeviceBuffer<T>` or `HostBuffer<T>` param (or of such an element), by the
///   buffer's own `slice`: `y.slice(..half)`, `w[layer].slice(1..)`. The range is a plain value,
///   any expression.
///
/// Anything else (`if f { a } else { b }`, a block, a function call, another method) could
/// compute other memory while naming a param, and is refused at the argument: declare the memory
/// as a param and pass the param (to choose among buffers at run time, change the param with
/// `set_params`). For a parameter whose type is behind an alias, the generated code asserts that
/// an argument out of these forms goes to a value parameter (values are any expression). It
/// also asserts that the param a `slice` is taken of is a `DeviceBuffer<T>` or `HostBuffer<T>`
/// (or a shared reference to one), whatever its type is written as: an import may give that name
/// to another type, whose `slice` could give other memory.
///
/// Two work items the declaration cannot see through are handled this way:
///
/// - a capture node's work is not in the declaration: `capture(w, [x, mut h])` declares that it
///   reads `x` and writes `h`, and the node is checked like any other; `build`, `set_params`,
///   the setters and the node's handle check the recorded work against that (it may use only
///   the memory given to its `Capture`, so its memory is known), and refuse work that uses other
///   memory or writes memory declared read (`Error::Invalid`); a new `h` is a change of the
///   node too (its work still uses what its `Capture` was given: change both together, through
///   `params_mut`). `capture(w)` declares nothing, and
///   counts as writing every buffer;
/// - a child node's graph keeps a record of the memory its nodes use: `build` and `set_params`
///   check it against the nodes no edge orders with the child node (`Error::Hazard`).
///
/// A collective node reads its source and writes its destination (its one buffer: an all-reduce
/// or broadcast reads and writes it, a receive writes it, a send reads it). Every rank builds
/// the same declaration with its own communicator and buffers; collectives on one communicator
/// run in the order the graph is built in (the same on every rank), instantiation checks across
/// the ranks that they agree, and a collective cannot be in a conditional body (a rank could
/// skip it while its peers wait). NCCL records its work for the communicator and buffers when
/// the graph is built: `set_params` refuses to change them (build the graph again).
///
/// When two nodes may run at the same time on purpose (each writes its own part of the
/// buffer, or they use only atomics), mark both `#[unordered(buffer)]`:
///
/// ```text
/// #[unordered(y)] lo: kernel fill<<<g, b>>>(half, 1.0, y.slice(..half as usize));
/// #[unordered(y)] hi: kernel fill<<<g, b>>>(half, 2.0, y.slice(half as usize..));
/// ```
///
/// ## Graph allocations
///
/// An alloc node makes device memory that lives in *graph order*: CUDA backs it with physical
/// memory from the alloc node to the free node, and allocations whose spans do not overlap may
/// share physical memory, within one graph and across graphs launched into one stream
/// ([graph memory nodes]). That is what temporaries between the stages of a pipeline want:
///
/// ```text
/// t1: alloc::<f32>(n as usize);
/// t2: alloc::<f32>(n as usize);
/// s1: kernel affine<<<g, b>>>(n, 2.0, -1.0, x, t1);
/// s2: kernel relu<<<g, b>>>(n, t1, t2);
/// f1: free(t1);
/// t3: alloc::<f32>(n as usize);            // after f1: may reuse t1's memory
/// s3: kernel affine<<<g, b>>>(n, 0.5, 0.25, t2, t3);
/// s4: kernel add<<<g, b>>>(n, t3, x, out);
/// f2: free(t2);
/// f3: free(t3);
/// t1 -> s1 -> s2 -> f1 -> t3 -> s3 -> s4 -> f3;
/// t2 -> s2 -> s3 -> f2;
/// ```
///
/// Every use of an allocation must be ordered after its alloc node and before its free node, and
/// it is freed once (T7 below): CUDA checks none of this, and a use outside the span reads or
/// writes memory another allocation may own. An allocation's size and address are fixed when the
/// graph is built: `set_params` refuses params that would change a length
/// (`Error::Allocation`), and the nodes' handles offer no update. A declaration with memory
/// nodes has no whole-graph `update` and cannot be a child graph (CUDA supports neither).
///
/// An allocation with no free node outlives the launch (T8): CUDA launches such a graph again
/// only once the allocation is freed. Its executable is therefore instantiated with
/// auto-free-on-launch (each launch frees the last one's allocations), and `launch` returns a
/// `<Graph>Allocations<'_>` that borrows the executable: `read_<name>()` copies an allocation
/// out, `<name>()` gives its address, `take_<name>()` takes it out as a `DeviceBuffer` (yours to
/// keep, to give to cudarc, or to a later graph's free node: `Graph::add_mem_free_buffer`), and
/// the executable cannot be launched again while the value lives. A launch after a
/// `take_<name>()` is refused (`Error::Allocation`) until the buffer is gone, since it would
/// allocate the same addresses:
///
/// ```text
/// let mut done = exec.launch(&stream)?;
/// let counts: Vec<u32> = done.read_counts()?;
/// let kept: DeviceBuffer<u32> = done.take_counts()?;
/// ```
///
/// [graph memory nodes]: https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#graph-memory-nodes
///
/// ## Indirect params
///
/// A param marked `#[indirect]` lives in device memory that the graph's kernels read through a
/// pointer, and changes with a host write instead of node updates: for the scalars a hot loop
/// changes every launch (a decode step, a time step, a scale).
///
/// ```text
/// params {
///     record: Kernel<(DevicePtr<u32>, DevicePtr<f32>, DevicePtrMut<f32>)>,
///     #[indirect] step: u32,      // a kernel takes it as `const unsigned* step` and reads `*step`
///     #[indirect] scale: f32,
///     out: DeviceBuffer<f32>,
/// }
/// write: kernel record<<<1, 32>>>(step, scale, out);
/// ```
///
/// The executable's setter `set_<param>(value)` is a store into host memory (about a nanosecond,
/// no driver call); the params guard and `set_params` set indirect params the same way and
/// update no node for them. Each launch reads exactly the values set before its `launch` call,
/// however many launches are queued: a fetch node added before the declared nodes copies the
/// launch's values into device memory at the start of the launch, from its own parameters,
/// which the launch updates when a value changed (one node update however many nodes read the
/// values; on an H100 the fetch costs the GPU about 1.2 µs per launch; see the runtime's
/// `indirect` module for when node updates are cheaper). In expressions an indirect param is its key (`Indirect<T>`), a kernel
/// argument for a `DevicePtr<T>` parameter. Not in conditional bodies; a declaration with
/// indirect params has no whole-graph `update` (the runtime refuses it) and, because of the
/// fetch node, its nodes' indices in the runtime graph are one more than in `TOPOLOGY`.
///
/// ## Conditional nodes
///
/// A conditional node runs, skips, repeats or picks its bodies on the GPU by the value of its
/// *conditional handle*, which kernels set with `cudaGraphSetConditional`: a loop until
/// convergence or a branch on a computed value, with no host round-trip ([conditional graph
/// nodes], CUDA 12.4 or newer, `switch` 12.8):
///
/// ```text
/// reset: memset(counter, 0u32);
/// solve: while more(default = 1) {          // `more` is reset to 1 at each launch
///     sweep: kernel jacobi<<<g, b>>>(n, x, x_next);
///     check: kernel residual<<<g, b>>>(n, x_next, x, tol, more);   // sets `more` to 0 when done
///     sweep -> check;
/// }
/// decide: kernel sign<<<1, 32>>>(positive, x);
/// branch: if positive { up: kernel scale<<<g, b>>>(n, 2.0, x); }
///         else { down: memset(x, 0.0f32); }
/// pick: switch variant { 0 => { a: kernel fast<<<g, b>>>(n, x); } 1 => { b: kernel exact<<<g, b>>>(n, x); } }
/// reset -> solve -> decide -> branch;
/// ```
///
/// The name after `if` / `while` / `switch` declares the node's handle: a kernel takes it as an
/// argument of type `ConditionalHandle` (`unsigned long long` in CUDA C, with the one-line
/// declaration `cudagraph_runtime::SET_CONDITIONAL_DECLARATION` for NVRTC). `h(default = v)` resets
/// it to `v` at the start of each launch (otherwise it keeps the last value set). A switch's
/// cases are the values `0, 1, 2, ...` in order; a value with no case runs nothing. Bodies hold
/// nodes and edges like the graph does, conditional nodes included; node names are unique across
/// the whole declaration, and edges stay within one body. Nodes of a body get handles of their
/// kind (`exec.up().set(..)`) and `set_params` updates them; the conditional node itself has no
/// update, and a declaration with conditional nodes cannot be a child graph (CUDA cannot clone
/// them). The handle of a conditional node may be set by the nodes beside it (in the same scope)
/// and by the nodes inside the bodies within that scope. CUDA's rules a declaration cannot show
/// (a body's kernel launching work with dynamic parallelism) are checked by the driver when the
/// graph is instantiated.
///
/// **Unrolled loops.** `while h(default = 1, unroll = k) { .. }` runs `k` copies of the body per
/// pass of the loop, one after the other, and reads `h` once per pass: a WHILE node costs the GPU
/// a few microseconds per pass, which a body of small kernels pays once per `k` iterations
/// instead of once per iteration. The body's nodes are in each copy, except its *checks*, the
/// nodes directly in the body that name `h` (the kernel that sets it): they run in the last copy
/// only, and in the other copies a node after a check waits for what the check waits for. The
/// loop then ends on whole passes: it may run up to `k - 1` iterations after the one whose check
/// would have stopped it, so choose `k` for iterations that are harmless to repeat (a converged
/// Jacobi sweep changes next to nothing). `k` is a count the macro knows (an integer literal or
/// a const of the graph), from 1 (the plain loop) to 64; an unrolled body holds no conditional
/// node (each copy would need a handle of its own) and something besides its checks. The rules
/// judge the body as declared: copies run one after the other, so they add no race. A repeated
/// node's handle is all its copies: its update sets each of them (`set` takes arguments that are
/// `Clone`, given to each copy), `set_enabled` switches them together, and `node()` gives their
/// runtime handles by copy; `set_params`, the setters and whole-graph updates reach every copy.
/// `TOPOLOGY` and the picture list a body once (drawn "body ×k"); in the runtime graph, the body's
/// nodes are there once per copy, so body nodes' indices there differ from `TOPOLOGY`'s. (The
/// runtime API: `Graph::add_unrolled_while`.)
///
/// ```text
/// solve: while more(default = 1, unroll = 8) {     // 8 sweeps per pass, one check
///     sweep: kernel jacobi<<<g, b>>>(n, x, x_next);
///     back: kernel jacobi<<<g, b>>>(n, x_next, x);
///     check: kernel residual<<<1, 32>>>(more, delta, tol);   // in the 8th copy only
///     sweep -> back -> check;
/// }
/// ```
///
/// [conditional graph nodes]: https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#conditional-graph-nodes
///
/// ## Semaphore nodes
///
/// Semaphore nodes hand work between a graph and another API (Vulkan, D3D12) on the GPU, with no
/// host thread in between: the graph waits for a semaphore the other API signals, and signals
/// one the other API waits for. The semaphores are params of type `ExternalSemaphore` (imported
/// with `ExternalSemaphore::from_fd`), their values `u64` expressions over the params; memory the
/// two APIs share is a `DeviceBuffer<T>` param mapped from `ExternalMemory` and marked
/// `#[external]`:
///
/// ```text
/// params {
///     step: Kernel<(u32, DevicePtrMut<u32>)>,
///     #[external] image: DeviceBuffer<u32>,     // Vulkan memory, imported
///     sem: ExternalSemaphore,                  // a Vulkan timeline semaphore, imported
///     frame: u64,
///     n: u32,
/// }
/// ready: wait(sem = 2 * frame + 1);     // Vulkan signals 2k+1 when it has written the image
/// run: kernel step<<<n.div_ceil(256), 256>>>(n, image);
/// done: signal(sem = 2 * frame + 2);    // Vulkan waits for 2k+2 before it reads the image
/// ready -> run -> done;
/// ```
///
/// Each frame, `params.frame = k; exec.set_params(&params)?` updates the two values (and nothing
/// else), and `launch` queues the frame behind Vulkan's work without the host waiting for it.
/// A timeline semaphore is set to (or waited until it reaches) its value; a binary semaphore
/// has no value and takes `0`. A node signals or waits for as many semaphores as it names:
/// CUDA cannot change that count in an update, so it is part of the node's handle type (its
/// `set` takes an array of exactly that many `(&ExternalSemaphore, u64)` pairs).
///
/// What `#[external]` means for a buffer shared with Vulkan: Vulkan's work on it is ordered with
/// the graph's only through semaphores. A wait node orders the nodes after it behind the Vulkan
/// work that signalled it, and a signal node orders the Vulkan work that waits for it behind the
/// nodes before it: to Vulkan, a path `wait -> node -> signal` is an edge on each side of the
/// node. So every node that uses an `#[external]` buffer must come after a semaphore wait node
/// and before a semaphore signal node (T14; before it through edges that order memory: past an
/// edge with data into a kernel that does not wait, the signal may come while the node runs),
/// or it may run while Vulkan uses the buffer. Which
/// values Vulkan signals and waits for is the program's to get right: the declaration does not
/// show Vulkan's side. CUDA refuses semaphore nodes in conditional bodies (T10) and in graphs
/// instantiated for device launch (the driver refuses the instantiation), and cannot enable or
/// disable them (T6).
///
/// ## Programmatic dependent launch
///
/// An edge between two kernel nodes may let the second launch before the first has finished
/// ([programmatic dependent launch], CUDA 12.3 or newer; the instructions need Hopper, `sm_90`):
///
/// ```text
/// produce: kernel step<<<g, b>>>(n, x);
/// #[waits]
/// consume: kernel scale<<<g, b>>>(n, x, y);
/// log: kernel count<<<1, 32>>>(calls);
/// produce ->(programmatic) consume ->(launch_order) log;
/// ```
///
/// - `a ->(programmatic) b`: `b` may launch once every block of `a` has called
///   `cudaTriggerProgrammaticLaunchCompletion()` (`griddepcontrol.launch_dependents`) or exited;
/// - `a ->(launch_order) b`: `b` may launch once every block of `a` has begun.
///
/// Either way `b` sees `a`'s writes only after `cudaGridDependencySynchronize()`
/// (`griddepcontrol.wait`), which waits for `a` to complete. `#[waits]` on a kernel node declares
/// that its kernel waits so, in every block, before it touches memory; its `Kernel` must say so
/// too (`unsafe` `Kernel::waits_for_dependency`, checked when the graph is built). Into a
/// waiting kernel, an edge with data orders memory like a plain edge, and its launch overlaps the
/// tail of the kernel before it; into any other, it orders launches only, so the memory rules
/// (T14 races, T7 allocations) treat the two nodes as unordered, and say which edge to fix.
/// `#[programmatic]` on a graph turns every plain edge between two kernel nodes into a
/// programmatic one where the consumer is `#[waits]` (where that changes no ordering the
/// declaration relies on); its other edges stay as written. The edges are added after their
/// consumer node (`Graph::add_edge`), and a whole-graph update pairs graphs whose edges carry the
/// same data.
///
/// [programmatic dependent launch]: https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#programmatic-dependent-launch-and-synchronization
///
/// ## Device launch and device-side node updates
///
/// `#[device_launch]` on a graph makes its executables launchable from kernels: its graph type
/// gains `instantiate_for_device_launch`, and CUDA's rules for device graphs are checked (T9).
/// In such a declaration a kernel node may be made *device-updatable* (CUDA 12.4+): kernels of
/// the graph then change its value parameters, grid and enabled state for the graph's next
/// launches (`cudaGraphKernelNodeSetParam`, `cudaGraphKernelNodeSetGridDim`,
/// `cudaGraphKernelNodeSetEnabled`, `cudaGraphKernelNodeUpdatesApply`):
///
/// ```text
/// #[device_updatable]
/// bump: kernel add<<<1, 32>>>(k, y);
/// steer: kernel steer<<<1, 32>>>(device_node(bump), param_offset(bump, 0), launches);
/// bump -> steer;
/// ```
///
/// - `device_node(x)`, as a whole kernel argument, is `x`'s device handle (a
///   `DeviceKernelNode`, for a `DeviceNode` parameter: `cudaGraphDeviceNode_t` in CUDA C). The
///   handle exists once `x` is added, so the kernel taking it must be ordered after `x` (a path
///   of edges from `x`), which also keeps it from changing `x` while `x` runs.
/// - `param_offset(x, i)`, as a whole kernel argument, is the byte offset of parameter `i` of
///   `x`'s kernel in its parameter buffer (a `u64` constant computed from the kernel's
///   signature): the `offset` of `cudaGraphKernelNodeSetParam`. Only value parameters have one:
///   the memory a node uses stays what the host gave it, so a pointer or handle parameter, or an
///   index past the last one, does not compile (checked by the macro when the kernel's types are
///   written out, by a constant evaluation otherwise).
///
/// CUDA forbids instantiating a graph with device-updatable nodes twice and giving it (or its
/// executable) to a whole-graph update, and wants it uploaded again after host-side updates:
/// such a graph is instantiated only by `instantiate_for_device_launch` (whose
/// `DeviceGraphExec` re-uploads after each update); `instantiate`, `instantiate_with`,
/// `instantiate_on`, `rebuild` and embedding it as a child graph return `Error::Invalid`. The
/// values and grids a kernel sets are its author's promise to keep within the updated kernel's
/// launch check (`Kernel::requires`), which cannot run on the device.
///
/// Doc comments on a graph document its type; `cfg` and lint attributes (`allow`, `warn`, ...)
/// apply to every generated item, `#[programmatic]` to its edges; the visibility applies to every
/// generated type. A `cfg_attr` on a graph may hold doc comments, `cfg` and lint attributes
/// (the macro reads `#[programmatic]` and `#[device_launch]` before any `cfg_attr` is evaluated:
/// they cannot be conditional).
///
/// # Generated items
///
/// For `graph Step` with nodes `zero`, `scale`, ...:
///
/// - **`StepParams`**: the params, a plain struct with `pub` fields. Its docs list which node
///   reads which param. A graph keeps a copy of the params it was built from, and hands it to its
///   executable, which owns it from then on: a param type is `Clone + PartialEq`, or a kernel
///   (cloned), a launch configuration (copied) or a child graph (duplicated: a runtime `Graph` is
///   cloned with `cuGraphClone`, a declared graph built again).
/// - **`Step`**, a built graph:
///   - `Step::build(&ctx, &params) -> Result<Step>` adds the nodes in one canonical order: a
///     topological order of the declaration where, among the nodes whose dependencies are
///     placed, the one declared first goes next; each node is named after its declaration
///     (`graph.name_next("scale")`), so runtime errors name it. Every `Step` is built by the
///     same sequence of driver calls, so any `Step` pairs node for node with any `StepExec`
///     in a whole-graph update ([CUDA's pairing rules]).
///
///     [CUDA's pairing rules]: https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#whole-graph-update
///   - `rebuild(&mut self, &params)`: builds it again in place, with the same driver calls,
///     reusing the runtime graph's bookkeeping (`Graph::clear`): the cheap way to rebuild for
///     `update` in a loop.
///   - `instantiate(self)` and `instantiate_with(self, flags, upload)` make a `StepExec`;
///     `instantiate_on(self, &stream)` makes one bound to `stream` (it launches there only, so
///     executables bound to one stream may share host memory their host nodes write: their
///     launches never overlap); `graph()` gives the runtime graph.
///   - `Step::TOPOLOGY`: the nodes (in build order: node `i` is the graph's node `i`), their
///     kinds and the edges, as constants, with `to_dot()` and `to_mermaid()`. The type's rustdoc
///     shows the node list and a picture of the graph, conditional nodes drawn around their
///     bodies: an SVG laid out by the macro at compile time and inlined into the docs (no
///     script, so it shows offline and on docs.rs); graphs of more than 100 nodes get no
///     picture there.
///   - `Step::topology_svg()`: that picture as a standalone SVG, for a program to save or serve.
/// - **`StepExec`**, the executable, which owns the params it runs:
///   - `launch(&stream)`, `upload(&stream)`, `as_exec()` (the runtime executable, read-only);
///   - `params() -> &StepParams`, and `into_params(self)`;
///   - `set_alpha(value) -> Result<f32>`, one setter per param (`set_<param>`): it updates the
///     nodes whose expressions read the param, and nothing else (which node reads which param is
///     known when the macro runs: no param is compared, no other node looked at), and returns the
///     old value. On error (an update the driver or a kernel's check refuses, params that would
///     make two nodes race, an allocation's length, which CUDA cannot change) the error names
///     the node, and the change is undone: the param keeps its old value and the nodes updated
///     before the refusal are set back, so launches run as before (for this the executable
///     keeps a copy of the params its nodes were last updated from: a clone of each, a child
///     graph duplicated);
///   - `params_mut() -> StepParamsMut<'_>`, a guard for several changes at once: it reads as the
///     params, its `set_<param>(value)` and `swap(|p| (&mut p.x, &mut p.x_new))` change them and
///     mark the nodes that read them (`swap`'s closure is given `StepSlots`, the params' names
///     holding no values: it names the two params to swap and can change none; an array param's
///     elements are named `p.w[3]`), and its `apply()` updates those nodes, each once however
///     many of its params changed. A guard dropped without `apply` leaves the changes to the next
///     `launch`, which applies them first: no change can be forgotten. An update that fails is
///     the error of that `apply` or `launch` (naming the node; the launch launches nothing), and
///     every change not applied yet is undone: the params are what the nodes were last updated
///     from, the nodes are as they were, and the next launch runs them. A swap of two buffers
///     the executable holds registers and releases nothing: it costs the single-node updates of
///     their readers, and the two buffers' copies into the applied params (a reference count
///     each);
///   - `set_params(&params) -> Result<usize>`: whole replacement. It compares each param with
///     the executable's own, copies in those that changed and updates exactly the nodes that
///     read them (or that were set through their handle since); it returns how many nodes it
///     updated. Afterwards the executable's nodes are what `Step::build(&ctx, &params)` would
///     make; enabled/disabled states are kept. Refused, it is undone as a whole, as a setter
///     is. Its cost grows with the declaration (every param compared): the setters and the
///     guard do not;
///   - `update(&step)`: whole-graph update, from a `Step` only (another declaration's graph,
///     even of the same shape, does not compile); the executable takes a copy of the graph's
///     params;
///   - one method per node, `exec.scale()`, returning its update handle.
/// - **One handle type per node**, `StepScaleNode<'_>`, with exactly the updates CUDA allows for
///   the node's kind ([individual node update]):
///
///   [individual node update]: https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#individual-node-update
///
///   | kind | methods |
///   |---|---|
///   | kernel | `set(args...)`, `set_launch(config, args...)`, `launch_config()`, `set_enabled(bool)`, `is_enabled()` |
///   | memset | `set(dst, value)` (memory the node's pattern fills, such as a `&DeviceBuffer<T>`), `set_enabled`, `is_enabled` |
///   | memcpy | `set(src, dst)` (same direction: `&DeviceBuffer<T>`, `&HostBuffer<T>`), `set_enabled`, `is_enabled` |
///   | host | `set(f)`, `set_with(buffers, f)` (`&buffer` read, `&mut buffer` written) |
///   | child | `set(&graph)` (same graph type) |
///   | empty | — |
///   | alloc, free | — (`node()` of an alloc node is its `GraphAlloc<T>`: address and length) |
///   | event record, event wait | `set(&event)` |
///   | semaphore signal, semaphore wait | `set([(&sem, value), ...])`: exactly as many semaphores as the node names |
///   | capture | `set(&capture)` (records it; same topology) |
///   | conditional | — (its bodies' nodes have handles of their own) |
///
///   Every handle also has `node()`, its runtime handle. Kernel arguments are given as for the
///   runtime's `add_kernel`: values, and buffers by reference (`set(n, a, &x, &y)`). A kernel
///   whose parameter tuple is written through an alias (`Kernel<SaxpyArgs>`) takes its arguments
///   as one tuple in `set`. Memory a handle replaces is released once the launches that may use
///   it have completed.
///
/// ## How `set_params` compares params
///
/// (The setters and the params guard compare nothing: a param set is a param changed.) A param is
/// compared by value (`Clone + PartialEq`, so `f32` NaNs count as changed), a kernel
/// param by its function, a child-graph param by identity (every `build` makes a new one; a
/// runtime `Graph` has none and counts as changed every time). A host closure given as a `fn()`
/// compares by address; a closure in the declaration is rebuilt when a param it mentions
/// changes; a `cudagraph_runtime::HostCallback` (an
/// `Arc<dyn Fn() + Send + Sync>` compared with `Arc::ptr_eq`) compares by identity. Since node
/// expressions see only the params, a node cannot read anything else that could change
/// unnoticed, except through interior mutability.
///
/// A kernel param may change its function (another kernel with the same parameter list, in the
/// same context): `set_params` and `update` switch the nodes that launch it, as CUDA allows.
///
/// ## Declaration size
///
/// The code made for a declaration grows linearly with its declared nodes and params: a small
/// function per declared node for updating it and a setter per param, with tables of which node
/// reads which param (or element of an array param); `build` adds the nodes 64 per function, the
/// params are copied and `set_params` compares them 64 per function, and the executable's structs
/// of handles are allocated zeroed rather than built field by field. So no function the compiler
/// optimizes, and no value it builds, grows with the declaration (the optimizer's time is
/// quadratic in either). A node declared in a loop is one declared node, whatever the count: its
/// instances cost data (their names in `TOPOLOGY`, their dependencies, the elements they read),
/// not code. The repository's `compile-time` program measures both ways of writing a chain of
/// kernel nodes (see `docs/compile-time.md`). The runtime's kernel update is inlined into each
/// node's update function, for the speed of the setters.
///
/// # Rules checked at compile time
///
/// Every error points at the offending tokens and says what to do; all the errors of a
/// declaration are reported together. The cases are in `ui-tests/cases/`.
///
/// Each rule names the CUDA behaviour it mirrors, and its cases in `ui-tests/cases/` (folder /
/// file) show the diagnostics. Where the rule mirrors a driver error, a GPU test in
/// `tests/tests/runtime_witness.rs` or `witness_*.rs` builds the same graph through the runtime and
/// shows the driver refusing it.
///
/// | rule | rejected | why | reported by | cases |
/// |---|---|---|---|---|
/// | T1 | a node name used twice, an edge to an undeclared node (with a "did you mean"), a self-edge, an edge declared twice | malformed topology | the macro | `topology/duplicate_node`, `unknown_node`, `self_edge`, `duplicate_edge` |
/// | T2 | a dependency cycle: every edge of it, each with the whole cycle spelled out | a CUDA graph is a DAG (the driver refuses a cycle when the edge is added or at instantiation) | the macro | `topology/cycle`, `two_cycles` |
/// | T3 | kernel arguments that do not match the kernel's parameters: count (when the tuple is written out) and types, each at its argument | the kernel would read garbage | macro / rustc | `kernel_args/*` |
/// | T4 | `exec.update(&g)` with `g` from another declaration or a runtime `Graph`; any whole-graph update of a declaration with memory nodes | `cuGraphExecUpdate` pairs nodes by creation order ([whole-graph update]); it cannot move an executable's allocations | rustc, custom message | `updates/update_other_declaration`, `memory_nodes/no_update` |
/// | T5 | `set` on an alloc or free node, a memcpy update in another direction, a 2-D memset or memcpy update, a memset of memory the node's pattern cannot fill; a semaphore node update with another number of semaphores (impossible by construction: `set_params` evaluates the declaration's own list, and the handle's `set` takes an array of the declared length) | `cuGraphExecMemcpyNodeSetParams` / `...MemsetNodeSetParams` refuse them, `cuGraphExecNodeSetParams` refuses memory nodes ([individual node update]), and `cuGraphExecExternalSemaphores{Signal,Wait}NodeSetParams` refuse a change of `numExtSems` (`witness_semaphores.rs`) | rustc, custom message; rustc (array length) | `updates/memcpy_direction`, `two_dimensional`, `handle_types`, `semaphore_count`, `memory_nodes/no_update` |
/// | T6 | `set_enabled`/`is_enabled` on a host, child, empty, alloc, free, event or semaphore node | `cuGraphNodeSetEnabled` takes kernel, memcpy and memset nodes only | rustc, custom message | `updates/enable_disable`, `semaphore_count`, `memory_nodes/no_update` |
/// | T7 | a node using an allocation without being ordered after its alloc node, or before its free node; a use ordered after the free; a second free; a free of something else than an allocation of the graph; an allocation of another graph of the call; an allocation and a param of one name; a child node embedding a declaration with memory nodes (rustc, custom message) | CUDA backs an allocation only between its alloc and free nodes, in graph order, and may give the memory to another allocation outside ([graph memory nodes]); the driver accepts all but the second free and the embedding (`witness_memory_nodes.rs`, `witness_use_after_free.rs`, `witness_foreign_allocation.rs` show what it does) | the macro | `memory_nodes/use_not_after_alloc`, `free_not_after_use`, `use_after_free`, `double_free`, `free_what`, `names`, `embed_memory_nodes` |
/// | T8 | launching again while the allocations a launch left (no free node) are still lent out | CUDA relaunches a graph only once its unfreed allocations are freed (the driver refuses with `CUDA_ERROR_INVALID_VALUE`); the executable is instantiated with auto-free-on-launch and `launch` lends the allocations through a borrow of it | rustc (borrow checker) | `memory_nodes/relaunch_while_read` |
/// | T9 | in a `#[device_launch]` declaration: a host, event record, event wait, semaphore, collective, alloc, free or conditional node (at its keyword); a memcpy operand whose param's type is not a `DeviceBuffer<T>` or `HostBuffer<T>`, however written (an alias of one is one; a raw pointer, or another type imported under a buffer's name, is not), at the type; an `#[indirect]` param. `#[device_updatable]` outside a `#[device_launch]` declaration, on a node that is no kernel, in a `for` loop or a conditional body, or with arguments; `device_node(x)` or `param_offset(x, i)` naming no `#[device_updatable]` kernel node; `device_node(x)` in a kernel not ordered after `x` (or in `x` itself); `param_offset(x, i)` with `i` no integer literal, past the last parameter, or of a pointer or handle parameter | a graph instantiated for device launch may hold kernel, memcpy (device or page-locked memory), memset, empty and child-graph nodes only ([device graph launch]; `tests/tests/device_launch.rs` shows the driver refusing each other kind); a graph with device-updatable nodes must not be instantiated twice nor given to a whole-graph update, and must be uploaded again after host-side updates (the runtime instantiates it only for device launch, whose executable does that); a device-side update changes value parameters only ([device-side node updates]) | the macro, or rustc (a constant evaluation) for memcpy operands and for `param_offset` when the kernel's types are behind an alias; the runtime at instantiation (`Error::Invalid` naming the node), and for a graph with device-updatable nodes at any other instantiation, rebuild, embedding or whole-graph update (`Error::Invalid`) | `device_launch/*`, `device_update/*` |
/// | T10 | a host, event record, event wait, semaphore signal, semaphore wait, collective, alloc or free node in a conditional body, also inside a graph a body's child node embeds, at any depth (a declared graph at compile time; a runtime `Graph`, or captured work, when the node is added: `Error::Invalid`); a body node using an allocation; an edge between a body's node and a node outside the body (or in another body); a kernel setting the handle of a conditional node it is neither beside nor inside; a handle of another graph of the call; a `ConditionalHandle` param; a handle named like a param, node or other handle; a default that reads a param; switch cases out of order; `else if`; `unroll` on an `if` or `switch` node, an `unroll` the macro cannot compute or outside 1 to 64, a conditional node in an unrolled body, an unrolled body whose every node sets the loop's handle | CUDA allows only kernel, empty, child, memset, memcpy and conditional nodes in a body ([body requirements]) and reports a bad body only at instantiation (`runtime_conditional.rs` shows the driver accepting host and event nodes in a body when they are added and refusing the graph at instantiation, `witness_body_child.rs` the same through a child graph); a handle belongs to the graph it was made for; CUDA fixes a handle's default when the graph is built; CUDA ties a handle to a single conditional node, so the copies of an unrolled body could not each hold one, and a body of checks alone would repeat nothing | the macro; embedding and `set_enabled` on the node: rustc, custom message | `conditional/*` |
/// | T10b | two conditional nodes that no path orders, one of them a WHILE node or holding one in a body (a declared graph at compile time; a runtime `Graph` or captured work at instantiation: `Error::Invalid` naming both) | not a CUDA rule but a driver fault: NVIDIA's driver (580.159.04, H100 and H200) fails such launches at random with `CUDA_ERROR_LAUNCH_FAILED`, which ends the context; ordered, the same graphs run clean (`witness_concurrent_loops.rs`) | the macro | `conditional/concurrent_loops` |
/// | T11 | an edge with data (`->(programmatic)`, `->(launch_order)`) whose end is not a kernel node; `#[waits]` on another node or with arguments; `#[programmatic]` with arguments; an arrow's data other than `programmatic` and `launch_order`; at build time, a `#[waits]` node whose `Kernel` was not made with `waits_for_dependency` (`Error::Invalid`) | CUDA's edge data (`CUgraphEdgeData`: a kernel node's port, `CU_GRAPH_DEPENDENCY_TYPE_PROGRAMMATIC`) joins two kernel nodes only (`tests/tests/programmatic.rs` shows the driver refusing one from a memset); a consumer sees the producer's writes only after `griddepcontrol.wait` | the macro; `build` | `programmatic/*` |
/// | T12 | `if`, `if let`, `match`, `while`, `while let`, `loop` choosing or repeating nodes at run time, whatever comes before them (doc comments, attributes, a label); a `for` whose count is not known at compile time | whole-graph update needs one topology per declaration | the macro | `topology/runtime_if`, `runtime_loops`, `runtime_shapes`, `repetition/loop_syntax` |
/// | T13 | values moved into a graph (host closures, retained values) that are not `Send` | they are dropped on another thread, after the last launch (CUDA runs [user object] destructors on its own thread, where CUDA calls are illegal; the runtime hands them to one of its own) | rustc | `memory/non_send_values` |
/// | T14 | two nodes with no path between them (through edges that order memory: an edge with data orders memory only into a `#[waits]` kernel) that use one buffer param, one writing it (a `DevicePtrMut` argument, a memset or memcpy destination, a host node's `mut` buffer, a capture node's `mut` use or any use of an undeclared capture), unless both are `#[unordered(buffer)]`, whatever the types are written as; a node using an `#[external]` buffer (shared with another API) that does not come after a semaphore wait node and before a semaphore signal node; a kernel argument for a pointer parameter (written `DevicePtr<T>` / `DevicePtrMut<T>`, or an alias of one) that is not a param or allocation by name, an element of an array param or repeated allocation at an index the macro knows, or a `DeviceBuffer<T>` / `HostBuffer<T>` param's `.slice(range)` (the range any expression), or whose `slice` is not that buffer's; a host node given one buffer twice (as written), one of them `mut` (its closure would get a `&mut` slice aliasing another); a kernel argument giving memory from a param whose memory cannot be seen; a kernel argument for a `DeviceGraph` parameter that does not name a param; at build time, two *different* params that share memory used that way, a child graph's memory used that way, and the memory a device graph that a kernel may launch (through a handle param, nested launches included; a child node launches what its graph's kernels may; the graphs one kernel may launch are also checked against each other) uses that way against every node not ordered *before* the launching kernel (a fire-and-forget or sibling launch runs beside the nodes after it too; in a `while` body, beside the whole body), the launching kernel itself and the graphs other kernels may launch, unless both nodes are `#[unordered(buffer)]` | CUDA runs unordered nodes in any order, or at once: a data race the driver accepts | the macro, or rustc (a constant assertion) where the types are behind aliases; `build`, `set_params`, the setters, the params guard and (for a graph whose kernels may launch device graphs) instantiation for shared memory, child graphs and launched graphs: `Error::Hazard`; an update of a device-launchable executable widening the memory it uses while an executable that may launch it exists: `Error::BufferInUse` | `hazards/*` (`external_buffer` for `#[external]`, `pointer_arg_forms` for the argument forms, `host_buffer_twice`, `renamed_device_graph`), `aliases/*` (`pointer_through_alias`), `programmatic/unwaited_*` |
/// | T15 | dropping or replacing borrowed memory while an executable uses it, host code reading memory a launch may write, a pageable `Vec` as a copy's operand, a raw pointer made from a borrow | use after free and data races with the GPU | rustc (borrow checker, operand traits) | `memory/*` |
///
/// [device graph launch]: https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#device-graph-launch
/// [device-side node updates]: https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#device-side-node-updates
/// [whole-graph update]: https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#whole-graph-update
/// [individual node update]: https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#individual-node-update
/// [user object]: https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#cuda-user-objects
/// [graph memory nodes]: https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#graph-memory-nodes
/// [body requirements]: https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#conditional-node-body-graph-requirements
///
/// Also rejected: names that make generated items clash (a graph named like another graph's
/// `StepExec`, a node named like a method of the executable, two nodes with one handle type,
/// ...: `collisions/*`), names from which no item can be derived (a param `_1` would make the
/// variant `1`), operands that fix a node's type but are not params, `self` and the generated
/// code's names (`__cg_params`) in expressions, params that cannot be compared, memcpys without
/// a device side, a runtime `Graph` param
/// without its `'static`, attributes with no single generated item to go to, Rust statements
/// where nodes go (blocks, `let`, macro calls: generate the whole `cuda_graph!` call from a
/// macro instead), and malformed syntax of any kind (the macro never panics, on any input: a
/// fuzz test runs it on generated and mutated declarations; a statement that does not parse is
/// reported and the rest of the declaration is still checked). Every suggestion a message makes
/// (an edge to add, a name meant) is checked to be legal first.
///
/// A declaration made by `macro_rules!` compiles as written out: the punctuation may come with
/// any spacing (`>>` and `>` apart), and names the caller passes in (`n` in an argument)
/// resolve against the params the macro declares.
///
/// # Limits
///
/// Graphs cannot be generic, so params own what the nodes use (no borrowed cudarc slices: the
/// runtime API takes those). Loops are at a graph's top level, one deep, without conditional,
/// semaphore, collective or `#[waits]` nodes in them; a declaration with loops has at most 20,000
/// nodes and 200,000 edges (the rules judge every pair of nodes), and any declaration at most
/// 4,000,000 pairs of nodes that use memory with no path of edges between them (about 2,800
/// nodes no edge orders; each pair is a possible race to judge) and at most 50,000 pairs of a
/// node that may launch device graphs (a kernel given a `DeviceGraph`, a child node) and a node
/// using memory that what it launches may run beside (each is checked by code of its own when
/// the graph is built), and at most 100,000 pairs of uses of two different params, one
/// writing, by nodes with no path of edges between them that are checked pair by pair when the
/// graph is built (those of nodes no edge orders at all, a loop's iterations among themselves
/// or with another declaration's nodes, are checked together in one sort and not counted); an
/// array param is indexed
/// element by element up to 65,536 elements. Node kinds: kernel, 1-D memset, 1-D memcpy, host,
/// child graph, empty, alloc, free, event record, event wait, semaphore signal, semaphore wait,
/// capture and conditional (no batch memory operations). The uses
/// a capture node declares name params, not the declaration's allocations. Nodes
/// inside a conditional body cannot use the declaration's allocations. Allocations are on the
/// graph's device (the `ctx` given to `build`).
#[proc_macro]
pub fn cuda_graph(input: TokenStream) -> TokenStream {
    syn::parse::<parse::Input>(input)
        .and_then(expand::expand)
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}
