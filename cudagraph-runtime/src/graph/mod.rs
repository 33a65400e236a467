//! Definition graphs: nodes and edges, built with explicit driver calls (no capture needed).
//!
//! [`Graph`] is defined in `definition`, and its methods are spread over this directory by
//! concern, each file holding one:
//!
//! - `definition`: the graph itself, its node table, and its life (made, cleared, cloned,
//!   dropped); `records` and `tables`: what it keeps of each node and beside the nodes;
//! - `info`: names and introspection;
//! - `add`: adding nodes: the one path every kind's adder takes, and the adders of the plain
//!   kinds;
//! - `edges`: edges added between existing nodes, and edges with data ([`EdgeKind`]);
//! - `validate`: the checks that span node kinds; `loops`: WHILE nodes beside other
//!   conditional nodes (a driver fault);
//! - `mem`: memory nodes; `indirect`: indirect values;
//! - `conditional`: conditional nodes; `unroll`: WHILE nodes whose body repeats one iteration
//!   ([`UnrolledCopy`]); `body`: a body as the closure building it gets it
//!   ([`Body`]); `bodies`: the bodies' nodes, kept by the enclosing graph; `body_rules`: CUDA's
//!   rule for bodies, through child graphs;
//! - `captured`: the nodes a capture recorded into a graph; `pairing`: how a whole-graph
//!   update pairs two graphs' nodes, checked to be by position.
//!
//! Two features add methods from their own modules, which build on this one: stream capture
//! (`crate::capture`: `Graph::capture`, `add_captured`, `capture_into`, `add_capture`) and
//! instantiation (`crate::exec`: `Graph::instantiate`).

mod add;
mod bodies;
mod body;
mod body_rules;
mod captured;
mod conditional;
mod definition;
#[cfg(not(any(feature = "cuda-12020", feature = "cuda-12030")))]
mod device_update;
mod edges;
mod indirect;
mod info;
mod loops;
mod mem;
mod pairing;
mod rebuild;
mod records;
mod tables;
// Unrolled WHILE loops: conditional nodes and edges added afterwards need CUDA 12.3.
#[cfg(not(feature = "cuda-12020"))]
mod unroll;
mod validate;

pub use body::Body;
pub(crate) use captured::Recorded;
pub use definition::Graph;
pub use edges::EdgeKind;
pub use info::NodeInfo;
pub use rebuild::Rebuild;
#[cfg(not(feature = "cuda-12020"))]
pub use unroll::UnrolledCopy;
pub(crate) use validate::refuse_captured;
