//! Stream capture: work enqueued on a stream is recorded as graph nodes instead of run
//! (`cuStreamBeginCapture` / `cuStreamBeginCaptureToGraph` ... `cuStreamEndCapture`), into a new
//! graph, into an existing one, or as a child-graph node. The crate docs ("Stream capture")
//! describe it for users.
//!
//! - `into`: the ways to capture (into a new graph, as a child-graph node, into a graph being
//!   built), the methods of [`Graph`](crate::Graph), [`Scope`](crate::Scope) and
//!   [`Body`](crate::Body) that do;
//! - `run`: running one capture, whatever its closure does, and giving what it recorded to the
//!   graph;
//! - `scope`: the [`CaptureScope`] a capture closure gets (this crate's own calls, forks);
//! - `sequence`: what the capture records, shared by its scopes (`sequence::Sequence`);
//! - `operands`: the memory given to a capture, and the views its closure works on;
//! - `alloc`: memory allocated inside a capture ([`CaptureAlloc`]);
//! - `bare`: the nodes a capture recorded, copied away from the user objects a library left on
//!   them;
//! - `check`: what the capture recorded beyond its own calls, checked against that memory;
//! - `witness`: the stream that tells a capture its closure ended from one it broke;
//! - `escape`: allocations cudarc made in the capture that outlive its closure, refused;
//! - `errors`: what breaks a capture, explained;
//! - `work`: [`Capture`], work to record again and again;
//! - `replay`: [`Replay`], warm up, capture once, replay.

mod alloc;
#[cfg(feature = "nccl")]
mod bare;
mod check;
mod errors;
mod escape;
mod into;
mod operands;
mod replay;
mod run;
mod scope;
mod sequence;
mod witness;
mod work;

pub use alloc::CaptureAlloc;
pub use into::Captured;
pub use operands::{CaptureOperand, CaptureOperands, CaptureView, CaptureViewMut, Mut};
pub use replay::Replay;
pub use scope::CaptureScope;
pub use work::Capture;
