//! NCCL collectives as graph nodes (feature `nccl`): all-reduce, all-gather, reduce-scatter,
//! broadcast, send and receive, recorded by stream capture into a graph, over a
//! [`Communicator`].
//!
//! - `comm`: the [`Communicator`], and the ordering of launches that use one;
//! - `connect`: the warm-up that connects a new communicator's ranks before any capture;
//! - `op`: what a collective node issues ([`ReduceOp`], [`NcclElem`], `Collective`);
//! - `add`: the [`Graph`](crate::Graph) methods adding collective nodes;
//! - `table`: what a graph records about its collective nodes;
//! - `order`: the check that every rank issues the same collectives in the same order;
//! - `cycle`: the check that the ranks' collectives across communicators wait in no cycle;
//! - `symmetric`: buffers in NCCL's symmetric memory ([`Communicator::alloc_symmetric`]);
//! - `windows`: the windows they lie in, and where a buffer lies there;
//! - `owner`: the one executable per communicator that may run collectives over them;
//! - `handle`: the raw communicator and the NCCL calls made on it.
//!
//! NCCL is loaded at run time (`libnccl.so.2`): building needs no NCCL, and
//! [`nccl_present`] tells whether it can be loaded.

mod add;
mod comm;
mod connect;
mod cycle;
mod error;
mod handle;
mod op;
mod order;
mod owner;
mod symmetric;
mod table;
mod windows;

pub(crate) use add::{NOT_DEVICE_LAUNCHED, NOT_IN_BODY};
pub use comm::{nccl_present, Communicator};
pub use cudarc::nccl::Id as NcclId;
pub(crate) use op::{Collective, Op};
pub use op::{NcclElem, ReduceOp};
pub(crate) use owner::SymmetricOwner;
pub(crate) use table::{launch_ordered, refuse_other_collectives, CollectiveTable};
