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
mod model;
mod parse;
#[cfg(test)]
mod robustness;
mod text;

use proc_macro::TokenStream;

/// Declares CUDA graphs with typed params, checked at compile time.
///
/// ```no_run
/// use cudagraph_runtime::{cuda_graph, prelude::*};
///
/// fn report() {
///     println!("step done");
/// }
///
/// cuda_graph! {
///     /// One solver step: `y = alpha * x + y` on a zeroed `y`, copied back to the host.
///     pub graph Step {
///         params {
///             saxpy: Kernel<(u32, f32, DevicePtr<f32>, DevicePtrMut<f32>)>,
///             x: DevicePtr<f32>,
///             y: DevicePtrMut<f32>,
///             host_y: HostPtrMut<f32>,
///             n: u32,
///             alpha: f32,
///             done: fn(),
///         }
///         zero:  memset(y, 0.0f32);
///         scale: kernel saxpy<<<n.div_ceil(256), 256>>>(n, alpha, x, y);
///         back:  memcpy(y -> host_y);
///         log:   host(done);
///         zero -> scale -> back -> log;
///     }
/// }
///
/// # fn main() -> cudagraph_runtime::Result<()> {
/// # let func: cudagraph_runtime::cudarc::driver::CudaFunction = todo!();
/// # let (x, y, host_y): (DevicePtr<f32>, DevicePtrMut<f32>, HostPtrMut<f32>) = todo!();
/// let ctx = cudagraph_runtime::open_device(0)?;
/// let stream = ctx.default_stream();
/// // SAFETY: `saxpy` is `void saxpy(unsigned n, float a, const float* x, float* y)`.
/// let saxpy = unsafe { Kernel::new(func) };
/// let mut params = StepParams { saxpy, x, y, host_y, n: 1 << 20, alpha: 2.0, done: report };
///
/// let mut exec = Step::build(&ctx, &params)?.instantiate()?;
/// exec.launch(&stream)?;
///
/// params.alpha = 3.0;
/// assert_eq!(exec.set_params(&params)?, 1); // only `scale` reads `alpha`
/// exec.zero().set_enabled(false)?;          // kernel, memset and memcpy nodes only
/// exec.launch(&stream)?;
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
/// - **Nodes**, `name: kind;`, each with a unique name:
///
///   | kind | syntax | node |
///   |---|---|---|
///   | kernel | `kernel k<<<grid, block>>>(args...)` | launch of param `k: Kernel<(A, B, ...)>` |
///   | | `kernel k<<<grid, block, shared_mem_bytes>>>(args...)` | with dynamic shared memory |
///   | | `kernel k<<<config>>>(args...)` | `config`: a `LaunchConfig` |
///   | memset | `memset(dst, value)` | fills param `dst: DevicePtrMut<T>` (T of 1, 2 or 4 bytes) |
///   | memcpy | `memcpy(src -> dst)` | 1-D copy between two pointer params; the direction follows from their types (`DevicePtr`/`DevicePtrMut` to `HostPtrMut` is device-to-host, ...) |
///   | host | `host(f)` | runs `f` on a CPU thread: a `fn()`, a closure, or a `HostCallback` |
///   | child | `child(g)` | embeds param `g`: a graph of another `cuda_graph!` declaration, or a runtime `Graph` |
///   | empty | `empty` | does nothing (a join point) |
///
///   `grid` and `block` are `u32`, `(u32, u32)` or `(u32, u32, u32)`. The operands that fix a
///   node's *type* (the kernel, a memset's destination, a memcpy's two ends, a child's graph)
///   are param names; every other operand (launch sizes, kernel arguments, a memset's value, a
///   host closure) is any Rust expression over the params: `(n + 255) / 256`, `n as usize`,
///   `if n > 4 { 2.0 } else { 1.0 }`, `move || println!("{n}")`. In those expressions a `Copy`
///   param is a value, any other param a reference (so a host closure that keeps a non-`Copy`
///   param clones it first: `host({ let log = log.clone(); move || log.call() })`).
///   Doc comments on a node document its handle.
/// - **Edges**, `a -> b;`, in chains (`a -> b -> c;`) and with bracketed lists for fan-out and
///   fan-in (`a -> [b, c] -> d;` is `a -> b`, `a -> c`, `b -> d`, `c -> d`). A node's
///   dependencies are listed to CUDA in the order their edges are declared.
///
/// Doc comments on a graph document its type; `cfg` and lint attributes (`allow`, `warn`, ...)
/// apply to every generated item; the visibility applies to every generated type.
///
/// # Generated items
///
/// For `graph Step` with nodes `zero`, `scale`, ...:
///
/// - **`StepParams`**: the params, a plain struct with `pub` fields. Its docs list which node
///   reads which param.
/// - **`Step`**, a built graph:
///   - `Step::build(&ctx, &params) -> Result<Step>` adds the nodes in one canonical order: a
///     topological order of the declaration where, among the nodes whose dependencies are
///     placed, the one declared first goes next; each node is named after its declaration
///     (`graph.name_next("scale")`), so runtime errors name it. Every `Step` is built by the
///     same sequence of driver calls, so any `Step` pairs node for node with any `StepExec`
///     in a whole-graph update (SPEC 2.4).
///   - `rebuild(&mut self, &params)`: builds it again in place, with the same driver calls,
///     reusing the runtime graph's bookkeeping (`Graph::clear`): the cheap way to rebuild for
///     `update` in a loop.
///   - `instantiate(self)` and `instantiate_with(self, flags, upload)` make a `StepExec`;
///     `graph()` gives the runtime graph.
///   - `Step::TOPOLOGY`: the nodes (in build order: node `i` is the graph's node `i`), their
///     kinds and the edges, as constants, with `to_dot()` and `to_mermaid()`. The type's rustdoc
///     shows the node list and the Mermaid text.
/// - **`StepExec`**, the executable:
///   - `launch(&stream)`, `upload(&stream)`, `as_exec()` (the runtime executable, read-only);
///   - `update(&step)`: whole-graph update, from a `Step` only (another declaration's graph,
///     even of the same shape, does not compile);
///   - `set_params(&params) -> Result<usize>`: the fast path. It compares each param with the
///     value the executable was last given, and calls the single-node update of exactly the
///     nodes whose expressions mention a changed param (or that were set through their handle
///     since); it returns how many nodes it updated. Afterwards the executable's nodes are what
///     `Step::build(&ctx, &params)` would make; enabled/disabled states are kept.
///   - one method per node, `exec.scale()`, returning its update handle.
/// - **One handle type per node**, `StepScaleNode<'_>`, with exactly the updates CUDA allows for
///   the node's kind (SPEC 2.4):
///
///   | kind | methods |
///   |---|---|
///   | kernel | `set(args...)`, `set_launch(config, args...)`, `launch_config()`, `set_enabled(bool)`, `is_enabled()` |
///   | memset | `set(dst, value)` (same element type), `set_enabled`, `is_enabled` |
///   | memcpy | `set(src, dst)` (same direction), `set_enabled`, `is_enabled` |
///   | host | `set(f)` |
///   | child | `set(&graph)` (same graph type) |
///   | empty | — |
///
///   Every handle also has `node()`, its runtime handle. A kernel whose parameter tuple is
///   written through an alias (`Kernel<SaxpyArgs>`) takes its arguments as one tuple in `set`.
///
/// ## How `set_params` compares params
///
/// A param is compared by value (`Clone + PartialEq`, so `f32` NaNs count as changed), a kernel
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
/// # Rules checked at compile time
///
/// Every error points at the offending tokens and says what to do; all the errors of a
/// declaration are reported together. The cases are in `ui-tests/cases/`.
///
/// | rule | rejected | reported by |
/// |---|---|---|
/// | T1 | a node name used twice, an edge to an undeclared node (with a "did you mean"), a self-edge, an edge declared twice | the macro |
/// | T2 | a dependency cycle: every edge of it, each with the whole cycle spelled out | the macro |
/// | T3 | kernel arguments that do not match the kernel's parameters: count (by the macro when the tuple is written out) and types (by the type checker, at each argument) | macro / rustc |
/// | T4 | `exec.update(&g)` with `g` from another declaration or a runtime `Graph` | rustc, custom message |
/// | T5 | a memcpy update in another direction, a 2-D memset or memcpy update, a memset of another element type | rustc, custom message |
/// | T6 | `set_enabled`/`is_enabled` on a host, child or empty node | rustc, custom message |
/// | T12 | `if`, `match`, `for`, `while`, `loop` choosing or repeating nodes at run time | the macro |
///
/// Also rejected: operands that fix a node's type but are not params, `self` in expressions,
/// params that cannot be compared, memsets of other element types, memcpys without a device
/// side, attributes with no single generated item to go to, and malformed syntax of any kind
/// (the macro never panics; a statement that does not parse is reported and the rest of the
/// declaration is still checked).
///
/// # Limits
///
/// Graphs cannot be generic. Node kinds are those of the runtime: kernel, 1-D memset, 1-D
/// memcpy, host, child graph, empty (no event, semaphore, memory or conditional nodes yet).
#[proc_macro]
pub fn cuda_graph(input: TokenStream) -> TokenStream {
    syn::parse::<parse::Input>(input)
        .and_then(expand::expand)
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}
