//! Node kinds, node handles and the parameters of each kind.
//!
//! A handle is a small `Copy` value: the index of a node in the graph that made it, plus the
//! identity of that graph's *family* (the graph, its clones and the executable made from it).
//! Using a handle with another family is an [`Error::ForeignNode`](crate::Error::ForeignNode).
//! Handle types say what a node is, so an executable offers each kind exactly the updates CUDA
//! allows: e.g. only kernel, memcpy and memset handles implement [`Switchable`]
//! ([`cuGraphNodeSetEnabled`](https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__GRAPH.html)).

// Each kind's handle is declared in its module with this macro, so it comes first. A handle is
// `NAME`, `NAME<T>` (a type parameter, such as a kernel's parameter list) or `NAME<const N:
// usize>` (a count, such as a semaphore node's): the parameter lives in a marker field.
macro_rules! handle {
    ($(#[$doc:meta])* $name:ident) => {
        handle!(@impl $(#[$doc])* $name [] [] (()));
    };
    ($(#[$doc:meta])* $name:ident <const $n:ident: usize>) => {
        handle!(@impl $(#[$doc])* $name [const $n: usize] [$n] ([(); $n]));
    };
    ($(#[$doc:meta])* $name:ident <$p:ident>) => {
        handle!(@impl $(#[$doc])* $name [$p] [$p] (fn($p)));
    };
    (@impl $(#[$doc:meta])* $name:ident [$($gen:tt)*] [$($arg:tt)*] ($marker:ty)) => {
        $(#[$doc])*
        pub struct $name<$($gen)*> {
            pub(crate) id: $crate::node::NodeId,
            pub(crate) _kind: std::marker::PhantomData<$marker>,
        }
        impl<$($gen)*> Clone for $name<$($arg)*> {
            fn clone(&self) -> Self { *self }
        }
        impl<$($gen)*> Copy for $name<$($arg)*> {}
        impl<$($gen)*> std::fmt::Debug for $name<$($arg)*> {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "{}#{}", stringify!($name), self.id.index)
            }
        }
        impl<$($gen)*> $name<$($arg)*> {
            /// The untyped id, for dependency lists.
            pub fn id(&self) -> $crate::node::NodeId { self.id }
            #[allow(dead_code)]
            pub(crate) fn from_id(id: $crate::node::NodeId) -> Self {
                Self { id, _kind: std::marker::PhantomData }
            }
        }
        // SAFETY: a `NodeId` of zeros (family 0, never handed out) and a `PhantomData`.
        unsafe impl<$($gen)*> $crate::node::unbuilt::Unbuilt for $name<$($arg)*> {}
        impl<$($gen)*> From<$name<$($arg)*>> for $crate::node::NodeId {
            fn from(h: $name<$($arg)*>) -> $crate::node::NodeId { h.id }
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
mod semaphore;
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
pub(crate) use memcpy::{overlapping, MemcpyParams};
pub use memcpy::{DeviceToDevice, DeviceToHost, Direction, HostToDevice, Memcpy, MemcpyNode};
#[cfg(feature = "nccl")] // copies of captured collectives (`capture::bare`)
pub(crate) use memset::with_context as memset_with_context;
pub(crate) use memset::MemsetParams;
pub use memset::{FillWith, Memset, MemsetNode, MemsetValue};
pub(crate) use semaphore::SemaphoreParams;
pub use semaphore::{ExternalSemaphore, SemaphoreKind, SemaphoreSignalNode, SemaphoreWaitNode};

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
    pub trait Sealed {
        /// The kind of node the handle names.
        const KIND: super::NodeKind;

        /// For a kernel node's handle, the parameter list its kernel takes.
        fn param_list() -> Option<std::any::TypeId> {
            None
        }
    }
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

    /// Sets these parameters on `node`, a node of a definition graph made by parameters of the
    /// same kind (`cuGraphKernelNodeSetParams` for a kernel node): how `Graph::rebuild` reuses
    /// the driver's nodes. Only kernel nodes are reused; other kinds never get here.
    ///
    /// # Safety
    /// `node` is a live node of this kind, in a graph without an executable that could be
    /// launched from it mid-call (definition graphs are not launched).
    #[inline]
    unsafe fn set_on(&mut self, node: sys::CUgraphNode) -> Result<()> {
        let _ = node;
        Err(crate::error::Error::Invalid {
            node: Self::KIND.name().into(),
            reason: "only kernel nodes are reused by a rebuild".into(),
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
