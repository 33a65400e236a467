//! [`scope`]: graphs that borrow cudarc memory, with every launch waited for before the borrows
//! end.
//!
//! A graph keeps the raw addresses of the memory its nodes use, and its launches run after the
//! calls that enqueue them return. For memory the graph owns a share of ([`DeviceBuffer`],
//! [`HostBuffer`]) the memory model keeps it alive as long as a launch may use it. Borrowed
//! memory (a cudarc `&mut CudaSlice`, say) is freed or reused by its owner as soon as the borrow
//! ends, so the launches must be over by then, whatever happens to the executables: one may be
//! leaked with `mem::forget` or kept in an `Rc` cycle, and its `Drop` never runs. Soundness cannot
//! rest on `Drop` (the rule behind [`std::thread::scope`]), so borrowing works the way
//! `std::thread::scope` does: graphs that borrow memory are made by a [`Scope`], borrow it for
//! the whole scope, and the scope returns only once every launch of every executable made from
//! them has completed.
//!
//! [`DeviceBuffer`]: crate::DeviceBuffer
//! [`HostBuffer`]: crate::HostBuffer

use std::marker::PhantomData;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::Arc;

use cudarc::driver::CudaContext;

use crate::error::Result;
use crate::graph::Graph;
use crate::memory::registry::Registry;

/// Runs `f` with a [`Scope`] that makes graphs able to borrow memory living outside it (cudarc
/// `&CudaSlice` / `&mut CudaSlice`, views, `&PinnedHostSlice`), and returns once every launch of
/// every executable made from those graphs has completed (waiting on the host), also when `f`
/// panics (the panic is resumed then).
///
/// The memory stays borrowed until `scope` returns: nothing can free it, reuse it or read it
/// meanwhile, and when `scope` returns nothing uses it any more, whatever became of the
/// executables (dropped, leaked with `mem::forget`, kept in a cycle).
///
/// ```no_run
/// use cudagraph_runtime::prelude::*;
/// # fn main() -> cudagraph_runtime::Result<()> {
/// # let func: cudarc::driver::CudaFunction = todo!();
/// # let ctx = cudagraph_runtime::open_device(0)?; let stream = ctx.new_stream()?;
/// // SAFETY: `fill(float* y)` writes y[0..32] and nothing else; the check keeps `y` that long.
/// let fill: Kernel<(DevicePtrMut<f32>,)> =
///     unsafe { Kernel::new(func) }.requires(|_, (y,)| y >= 32);
/// let mut y = stream.alloc_zeros::<f32>(32)?; // a cudarc slice
/// cudagraph_runtime::scope(|s| {
///     let mut graph = s.graph(&ctx)?;
///     graph.add_kernel(&fill, LaunchConfig::for_num_elems(32), (&mut y,), &[])?;
///     let mut exec = graph.instantiate()?;
///     exec.launch(&stream)?;
///     std::mem::forget(exec); // even so, `scope` waits for the launch
///     Ok::<_, cudagraph_runtime::Error>(())
/// })?;
/// let y = stream.clone_dtoh(&y)?; // the borrow is over, and so is every launch
/// # Ok(()) }
/// ```
///
/// Graphs made with [`Graph::new`] borrow nothing (they are `Graph<'static>`): they take memory
/// as [`DeviceBuffer`](crate::DeviceBuffer)s and [`HostBuffer`](crate::HostBuffer)s, which they
/// share, and live as long as you like.
pub fn scope<'env, F, T>(f: F) -> T
where
    F: for<'scope> FnOnce(&'scope Scope<'scope, 'env>) -> T,
{
    let scope = Scope {
        launched: Registry::default(),
        _scope: PhantomData,
        _env: PhantomData,
    };
    let outcome = catch_unwind(AssertUnwindSafe(|| f(&scope)));
    scope.launched.wait_all();
    match outcome {
        Ok(value) => value,
        Err(panic) => resume_unwind(panic),
    }
}

/// Makes graphs that borrow memory living outside the [`scope`] call for as long as it lasts
/// (`'scope`): see [`scope`].
///
/// The graphs are `Graph<'scope>`, and the executables made from them `GraphExec<'scope>`:
/// they cannot leave the scope, and the memory they borrow must outlive it (`'env: 'scope`).
pub struct Scope<'scope, 'env: 'scope> {
    launched: Registry,
    // Invariant in both, as `std::thread::Scope` is: `'scope` is a brand that no other lifetime
    // can stand for, and the graphs' borrows cannot be shortened to end inside the scope.
    _scope: PhantomData<&'scope mut &'scope ()>,
    _env: PhantomData<&'env mut &'env ()>,
}

impl std::fmt::Debug for Scope<'_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Scope")
            .field("executables", &self.launched.len())
            .finish()
    }
}

impl<'scope> Scope<'scope, '_> {
    /// What the scope waits for when it ends.
    pub(crate) fn registry(&'scope self) -> &'scope Registry {
        &self.launched
    }

    /// An empty graph on `ctx`'s device that may borrow memory for the scope.
    pub fn graph(&'scope self, ctx: &Arc<CudaContext>) -> Result<Graph<'scope>> {
        self.graph_with_capacity(ctx, 0)
    }

    /// An empty graph with room for `nodes` nodes in its bookkeeping, that may borrow memory for
    /// the scope.
    pub fn graph_with_capacity(
        &'scope self,
        ctx: &Arc<CudaContext>,
        nodes: usize,
    ) -> Result<Graph<'scope>> {
        Graph::scoped(ctx, nodes, &self.launched)
    }
}
