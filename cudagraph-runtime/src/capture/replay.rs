//! [`Replay`]: run the work a few times, capture it once, replay the graph: the pattern of
//! PyTorch's `torch.cuda.graph` (warm-up iterations on a side stream, capture, `replay()` with
//! new values in static input buffers).

use std::sync::Arc;

use cudarc::driver::CudaStream;

use super::operands::CaptureOperands;
use super::run::given;
use super::scope::CaptureScope;
use super::sequence::Sequence;
use crate::ambient::{InCapture, InWarmUp};
use crate::error::{Error, Result};
use crate::exec::{GraphExec, InstantiateFlags};
use crate::graph::Graph;
use crate::id::fresh_id;
use crate::memory::holdings::Holdings;

/// Work run eagerly a few times (a warm-up: libraries initialize lazily, kernels load), then
/// recorded once by stream capture and replayed as a graph.
///
/// The work's memory is static, as in PyTorch's graphs: the operands (see [`Graph::capture`])
/// are the same buffers at every replay. Give new inputs by writing the input buffers
/// ([`DeviceBuffer::copy_from`](crate::DeviceBuffer::copy_from), or a graph that copies into
/// them), replay, and read the outputs ([`DeviceBuffer::to_vec`](crate::DeviceBuffer::to_vec)):
/// the memory model orders each of those after the replays that may use the buffer, and the
/// replays after them.
///
/// ```no_run
/// # use cudagraph_runtime::prelude::*;
/// # use cudagraph_runtime::{Mut, Replay};
/// # fn f(stream: &std::sync::Arc<cudarc::driver::CudaStream>, scale: Kernel<(u32, DevicePtrMut<f32>)>)
/// #     -> cudagraph_runtime::Result<()> {
/// let x = DeviceBuffer::<f32>::zeros(stream, 1024)?; // the static input and output
/// let mut step = Replay::new(stream, 3, Mut(x.clone()), move |s, mut x| {
///     s.launch(&scale, LaunchConfig::for_num_elems(1024), (1024, &x))
/// })?;
/// for input in [[1.0f32; 1024], [2.0; 1024]] {
///     x.copy_from(&input)?;  // after the replays that use `x`, before the next
///     step.replay(stream)?;
///     println!("{}", x.to_vec()?[0]);
/// }
/// # Ok(()) }
/// ```
///
/// While the work runs eagerly, [`CaptureScope::is_capturing`] is `false`, and its memory is
/// what it was given (the views; the warm-up is ordered like a launch of a graph that uses that
/// memory); it records no host function, allocation or conditional node there (those exist
/// only in the graph). The warm-up's work has completed when `new` returns, and when a panic
/// in `work` leaves it (on every stream it forked too).
#[derive(Debug)]
pub struct Replay {
    exec: GraphExec<'static>,
}

impl Replay {
    /// Runs `work` eagerly `warmup` times on `stream`, waits for it, then records it into a
    /// graph ([`Graph::capture`], with `operands`) and instantiates it.
    pub fn new<O, F, E>(
        stream: &Arc<CudaStream>,
        warmup: usize,
        operands: O,
        mut work: F,
    ) -> Result<Self>
    where
        O: CaptureOperands<'static> + Clone,
        F: FnMut(&CaptureScope<'_, 'static>, O::Views<'_>) -> std::result::Result<(), E>
            + Send
            + 'static,
        Error: From<E>,
    {
        if warmup > 0 {
            warm_up(stream, warmup, operands.clone(), &mut work)?;
        }
        let graph = Graph::capture(stream, operands, work)?;
        Ok(Self {
            exec: graph.instantiate_with(InstantiateFlags::NONE, Some(stream))?,
        })
    }

    /// Launches the recorded work into `stream` ([`GraphExec::launch`]).
    #[inline]
    pub fn replay(&mut self, stream: &Arc<CudaStream>) -> Result<()> {
        self.exec.launch(stream)
    }

    /// The executable.
    pub fn exec(&self) -> &GraphExec<'static> {
        &self.exec
    }

    /// The executable, to update.
    pub fn exec_mut(&mut self) -> &mut GraphExec<'static> {
        &mut self.exec
    }
}

/// Runs `work` `times` times on `stream`, eagerly, then waits for it. The memory it is given is
/// held and ordered as an executable holds and orders its memory: the warm-up waits for the work
/// enqueued on it before, and host access to it waits for the warm-up.
fn warm_up<O, F, E>(stream: &Arc<CudaStream>, times: usize, operands: O, work: &mut F) -> Result<()>
where
    O: CaptureOperands<'static>,
    F: FnMut(&CaptureScope<'_, 'static>, O::Views<'_>) -> std::result::Result<(), E>,
    Error: From<E>,
{
    let given = given(stream, operands)?;
    let mut holdings = Holdings::new([&given[..]], &|_| "the warm-up".into())?;
    let sequence = Sequence::new(stream, 0, fresh_id());
    // A panic in `work` (or in a check of this crate inside it) leaves the loop with work
    // enqueued and not waited for below: it is waited for on the way out, before the holdings
    // and the memory given go (dropped after this guard).
    let _on_unwind = WaitOnUnwind(&sequence);
    let mut outcome = Ok(());
    for _ in 0..times {
        outcome = holdings.launch(stream, || {
            // Calls that wait on the host are refused inside, as in a capture: the eager work
            // has not run when the closure returns.
            let _inside = InCapture::enter();
            // Host access to the memory given to it would wait for this gate (see `in_warm_up`).
            let _warm = InWarmUp::enter();
            let scope = CaptureScope::new(&sequence);
            let views = O::views(&given, &sequence.streams);
            work(&scope, views).map_err(Error::from)
        });
        if outcome.is_err() {
            break;
        }
    }
    // Everything enqueued so far, whatever failed: the work is over before `new` goes on.
    let synced =
        crate::memory::fence::relaxed(|| stream.synchronize()).map_err(|source| Error::Driver {
            call: "cuStreamSynchronize",
            source,
        });
    drop(holdings);
    outcome.and(synced)
}

/// Waits for the work of a warm-up when a panic leaves it (see [`Sequence::wait_for_all`]).
struct WaitOnUnwind<'s, 'a>(&'s Sequence<'a>);

impl Drop for WaitOnUnwind<'_, '_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.wait_for_all();
        }
    }
}
