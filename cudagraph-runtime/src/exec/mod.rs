//! Executable graphs: instantiation, launch and updates.
//!
//! [`GraphExec`] is defined in `instantiate`, and its methods are spread over this directory by
//! concern:
//!
//! - `instantiate`: the executable, made from a graph ([`Graph::instantiate`](crate::Graph)),
//!   and its drop;
//! - `launch`: launching it, uploading it, and what launches leave behind (host-node panics,
//!   graph allocations, indirect values);
//! - `update`: whole-graph updates, and re-instantiation;
//! - `nodes`: single-node updates, kind by kind, and enabling and disabling nodes.
//!
//! Stream capture adds `GraphExec::set_capture` from `crate::capture`, beside
//! `Graph::add_capture`.

mod instantiate;
mod launch;
mod nodes;
mod update;

pub use instantiate::{GraphExec, InstantiateFlags};
