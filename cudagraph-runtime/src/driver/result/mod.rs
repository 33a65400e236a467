//! The driver calls of graphs, executables, their nodes and the memory they use that cudarc's
//! `result` module (0.19) does not wrap, one thin function a call: each makes the raw `sys` call
//! and turns its `CUresult` into this crate's [`Result`], an
//! [`Error::Driver`](crate::Error::Driver) naming the call. Callers that know the node a call was
//! about name it with [`Error::at_node`](crate::Error::at_node).
//!
//! The calls cudarc wraps are made through cudarc's functions, named with
//! [`named`](super::named) where they are made. Six functions here make a call cudarc has as
//! well, each because cudarc's would lose something, said where it stands ("cudarc's ...").
//!
//! The functions take raw handles, so most are `unsafe`: their `# Safety` sections say what the
//! handles must be, and every caller says why they are.

use cudarc::driver::sys;

use super::{check, named};
use crate::error::Result;

/// Definition graphs and their nodes.
pub(crate) mod graph;

/// Executable graphs: instantiation, launch, updates.
pub(crate) mod exec;

/// Stream capture.
pub(crate) mod stream;

/// Work enqueued on a stream by this crate's capture calls (recorded as nodes when the stream is
/// being captured).
pub(crate) mod enqueue;

/// The parameters of nodes a capture recorded, read back to check what memory they touch.
pub(crate) mod recorded;

/// Copies and the device's graph memory pool.
pub(crate) mod memory;

/// Semaphores and memory of other APIs (Vulkan, D3D12), imported into CUDA. (Mapping imported
/// memory and destroying it are cudarc's calls, `result::external_memory`.)
pub(crate) mod interop;

/// Memory this crate allocates itself (the blocks of indirect values, `crate::indirect`).
pub(crate) mod alloc;

/// Modules this crate loads itself (the fetch kernel of `crate::indirect`).
pub(crate) mod module;

/// User objects.
pub(crate) mod user_object;

/// Memory of one device reached from another (the copies of `crate::memory::peer`).
pub(crate) mod peer;
