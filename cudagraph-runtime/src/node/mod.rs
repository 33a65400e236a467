//! Node kinds, node handles and the parameters of each kind.
//!
//! A handle is a small `Copy` value: the index of a node in the graph that made it, plus the
//! identity of that graph's *family* (the graph, its clones and the executable made from it).
//! Using a handle with another family is an [`Error::ForeignNode`](crate::Error::ForeignNode).
//! Handle types say what a node is, so an executable offers each kind exactly the updates CUDA
//! allows: e.g. only kernel, memcpy and memset handles implement [`Switchable`]
//! ([`cuGraphNodeSetEnabled`](https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__GRAPH.html)).

// Each kind's handle is declared in its module with this macro, so it comes first.
macro_rules! handle {
    ($(#[$doc:meta])* $name:ident $(<$p:ident>)?) => {
        $(#[$doc])*
        pub struct $name$(<$p>)? {
            pub(crate) id: $crate::node::NodeId,
            $(pub(crate) _kind: std::marker::PhantomData<fn($p)>,)?
        }
        impl$(<$p>)? Clone for $name$(<$p>)? {
            fn clone(&self) -> Self { *self }
        }
        impl$(<$p>)? Copy for $name$(<$p>)? {}
        impl$(<$p>)? std::fmt::Debug for $name$(<$p>)? {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "{}#{}", stringify!($name), self.id.index)
            }
        }
        impl$(<$p>)? $name$(<$p>)? {
            /// The untyped id, for dependency lists.
            pub fn id(&self) -> $crate::node::NodeId { self.id }
            #[allow(dead_code)]
            pub(crate) fn from_id(id: $crate::node::NodeId) -> Self {
                Self { id, $(_kind: std::marker::PhantomData::<fn($p)>)? }
            }
        }
        // SAFETY: a `NodeId` of zeros (family 0, never handed out) and a `PhantomData`.
        unsafe impl$(<$p>)? $crate::node::unbuilt::Unbuilt for $name$(<$p>)? {}
        impl$(<$p>)? From<$name$(<$p>)?> for $crate::node::NodeId {
            fn from(h: $name$(<$p>)?) -> $crate::node::NodeId { h.id }
        }
    };
}

mod child;
#[cfg(not(feature = "cuda-12020"))]
mod conditional;
mod empty;
mod event;
mod host;
mod kernel;
pub(crate) mod kind;
pub(crate) mod mem;
mod memcpy;
mod memset;
pub(crate) mod unbuilt;

pub use child::ChildGraphNode;
pub(crate) use child::ChildParams;
#[cfg(not(feature = "cuda-12020"))]
pub(crate) use conditional::ConditionalParams;
#[cfg(not(feature = "cuda-12020"))]
pub use conditional::{Condition, ConditionalHandle, ConditionalNode, SET_CONDITIONAL_DECLARATION};
/// The driver's conditional handle. The CUDA 12.2 bindings have none (conditional nodes came with
/// 12.3): there a graph never holds one.
#[cfg(not(feature = "cuda-12020"))]
pub(crate) type RawConditionalHandle = cudarc::driver::sys::CUgraphConditionalHandle;
#[cfg(feature = "cuda-12020")]
pub(crate) type RawConditionalHandle = u64;
pub use empty::EmptyNode;
pub(crate) use empty::EmptyParams;
pub(crate) use event::EventParams;
pub use event::{Event, EventRecordNode, EventWaitNode};
pub(crate) use host::{check_views_apart, with_views, HostCall, HostParams, PanicSlot, PanicWatch};
pub use host::{HostCallback, HostFn, HostNode, HostViews, RawView, Writes};
pub use kernel::KernelNode;
pub(crate) use kernel::{KernelLaunch, KernelParams};
pub use kind::NodeKind;
pub use mem::{GraphAlloc, MemFreeNode};
pub use memcpy::{DeviceToDevice, DeviceToHost, Direction, HostToDevice, Memcpy, MemcpyNode};
pub use memset::{FillWith, Memset, MemsetNode, MemsetValue};

use cudarc::driver::sys;

use crate::error::Result;
use crate::kernel::KernelContract;

/// Any node of a graph, by position: what dependency lists are made of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct NodeId {
    /// The graph family's id: never 0 (`fresh_id`), so an id of zeros (a handle standing for a
    /// node not built yet, see `node::unbuilt::Unbuilt`) belongs to no graph.
    pub(crate) family: u64,
    pub(crate) index: u32,
}

impl NodeId {
    /// The node's position in its graph (the order nodes were added in).
    pub fn index(&self) -> usize {
        self.index as usize
    }
}

/// Node kinds an executable can enable and disable (`cuGraphNodeSetEnabled`): kernel, memcpy and
/// memset nodes only (sealed: the handles of those kinds).
pub trait Switchable: Copy + Into<NodeId> + switchable::Sealed {}

pub(crate) mod switchable {
    /// Sealed: the handles of the node kinds CUDA enables and disables.
    pub trait Sealed {}
}

/// A node kind's parameters as the driver takes them: what [`Graph`](crate::Graph) adds a node
/// of this kind with, through the generic `cuGraphAddNode`.
pub(crate) trait NodeParams {
    /// The kind of node these parameters make.
    const KIND: NodeKind;

    /// What a kernel node keeps of its kernel ([`KernelContract::NONE`] for other kinds).
    #[inline]
    fn kernel(&self) -> KernelContract {
        KernelContract::NONE
    }

    /// Calls `f` with the driver's generic parameters for a node of this kind. Pointers in them
    /// are valid during the call only; the driver may write results into them (an alloc node's
    /// address), which the implementation keeps.
    fn with_raw<R>(&mut self, f: impl FnOnce(&mut sys::CUgraphNodeParams) -> R) -> R;

    /// Adds a node with these parameters to `graph` after `deps`: through the generic
    /// `cuGraphAddNode` unless the kind has a faster call of its own.
    ///
    /// # Safety
    /// `graph` is live and `deps` are its nodes.
    #[inline]
    unsafe fn add_to(
        &mut self,
        graph: sys::CUgraph,
        deps: &[sys::CUgraphNode],
    ) -> Result<sys::CUgraphNode> {
        self.with_raw(|p| {
            // SAFETY: the caller's promise; `p` is valid for its kind, with the pointers in it
            // valid during the call (`with_raw`).
            unsafe { crate::driver::result::graph::add_node(graph, deps, p) }
        })
    }
}

/// A node kind's parameters as an executable's single-node update sends them
/// (`cuGraphExec*NodeSetParams` of the kind).
pub(crate) trait NodeUpdate {
    /// Sends the parameters to node `node` of `exec`.
    ///
    /// # Safety
    /// `exec` is live, and `node` is a node of its graph of the kind these parameters are for.
    unsafe fn update(&mut self, exec: sys::CUgraphExec, node: sys::CUgraphNode) -> Result<()>;
}

/// Generic node parameters of type `type_`, all else zero (the driver's "nothing set"): the
/// kind's module fills in its member of the union.
#[inline]
pub(crate) fn node_params(type_: sys::CUgraphNodeType) -> sys::CUgraphNodeParams {
    // SAFETY: a plain C struct of integers, pointers and unions of such, for which all zeros is
    // a valid value (and the documented one for fields left unset).
    let mut p: sys::CUgraphNodeParams = unsafe { std::mem::zeroed() };
    p.type_ = type_;
    p
}
