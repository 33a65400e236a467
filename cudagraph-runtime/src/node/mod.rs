//! Node kinds, node handles and the parameters of each kind.
//!
//! A handle is a small `Copy` value: the index of a node in the graph that made it, plus the
//! identity of that graph's *family* (the graph, its clones and the executable made from it).
//! Using a handle with another family is an [`Error::ForeignNode`](crate::Error::ForeignNode).
//! Handle types say what a node is, so an executable offers each kind exactly the updates CUDA
//! allows: e.g. only kernel, memcpy and memset handles implement [`Switchable`]
//! ([`cuGraphNodeSetEnabled`](https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__GRAPH.html)).

mod host;
pub(crate) mod mem;
mod memcpy;
mod memset;

pub(crate) use host::{in_host_node, with_views, HostCall, PanicSlot, PanicWatch};
pub use host::{HostCallback, HostFn, HostViews, RawView, Writes};
pub use mem::GraphAlloc;
pub use memcpy::{DeviceToDevice, DeviceToHost, Direction, HostToDevice, Memcpy};
pub use memset::{FillWith, Memset, MemsetValue};

use std::marker::PhantomData;

/// What a node does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NodeKind {
    /// A kernel launch.
    Kernel,
    /// A 1-D memory copy.
    Memcpy,
    /// A 1-D memset.
    Memset,
    /// A node that does nothing (a join point).
    Empty,
    /// A Rust closure run on a CPU thread.
    Host,
    /// An embedded graph.
    ChildGraph,
    /// A graph allocation (`cuGraphAddNode` with a memory-alloc node).
    MemAlloc,
    /// The free of a graph allocation.
    MemFree,
    /// A node of another kind, found in a captured graph.
    Other,
}

impl NodeKind {
    /// Lower-case name, as used in default node names and DOT output.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Kernel => "kernel",
            Self::Memcpy => "memcpy",
            Self::Memset => "memset",
            Self::Empty => "empty",
            Self::Host => "host",
            Self::ChildGraph => "child_graph",
            Self::MemAlloc => "mem_alloc",
            Self::MemFree => "mem_free",
            Self::Other => "node",
        }
    }
}

/// Any node of a graph, by position: what dependency lists are made of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct NodeId {
    pub(crate) family: u64,
    pub(crate) index: u32,
}

impl NodeId {
    /// The node's position in its graph (the order nodes were added in).
    pub fn index(&self) -> usize {
        self.index as usize
    }
}

macro_rules! handle {
    ($(#[$doc:meta])* $name:ident $(<$p:ident>)?) => {
        $(#[$doc])*
        pub struct $name$(<$p>)? {
            pub(crate) id: NodeId,
            $(pub(crate) _kind: PhantomData<fn($p)>,)?
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
            pub fn id(&self) -> NodeId { self.id }
            #[allow(dead_code)]
            pub(crate) fn from_id(id: NodeId) -> Self {
                Self { id, $(_kind: PhantomData::<fn($p)>)? }
            }
        }
        impl$(<$p>)? From<$name$(<$p>)?> for NodeId {
            fn from(h: $name$(<$p>)?) -> NodeId { h.id }
        }
    };
}

handle!(
    /// A kernel node whose argument list is `A`.
    KernelNode<A>
);
handle!(
    /// A 1-D memcpy node copying in direction `D`.
    MemcpyNode<D>
);
handle!(
    /// A 1-D memset node writing a pattern of type `V`.
    MemsetNode<V>
);
handle!(
    /// An empty node.
    EmptyNode
);
handle!(
    /// A host node.
    HostNode
);
handle!(
    /// A child-graph node.
    ChildGraphNode
);
handle!(
    /// A node freeing a graph allocation. (An alloc node's handle is its
    /// [`GraphAlloc`].) Neither has updates: CUDA allows none.
    MemFreeNode
);

/// Node kinds an executable can enable and disable (`cuGraphNodeSetEnabled`): kernel, memcpy and
/// memset nodes only.
pub trait Switchable: Copy + Into<NodeId> {}
impl<A> Switchable for KernelNode<A> {}
impl<D> Switchable for MemcpyNode<D> {}
impl<T> Switchable for MemsetNode<T> {}
