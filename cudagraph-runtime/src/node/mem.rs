//! Graph memory nodes: allocations a graph makes and frees itself.
//!
//! An alloc node reserves a virtual address range when it is added, fixed for the life of the
//! graph and its executable; CUDA backs it with physical memory only while the allocation lives in
//! *graph order*: from the alloc node to the free node (or, for an allocation the graph does not
//! free, until something frees it after the launch). Allocations whose graph-order lifetimes do
//! not overlap may share physical memory, within one graph and across graphs launched into one
//! stream ([graph memory nodes]).
//!
//! CUDA checks almost none of the rules, so this crate does, when a node is added:
//!
//! - every use is ordered after the alloc node (a path from it through the dependencies);
//! - a free node is ordered after every use, and nothing uses the allocation once it is freed;
//! - an allocation is freed once, by a node of its own graph;
//! - an allocation is used only by nodes of the graph that made it.
//!
//! The driver accepts all of these mistakes without an error (the tests show it), and then reads
//! or writes memory that another allocation owns, or faults. A graph with memory nodes cannot be
//! cloned, embedded as a child graph, instantiated twice or updated as a whole (CUDA refuses the
//! first three; a whole-graph update it accepts, and would point the executable's nodes at the
//! other graph's addresses).
//!
//! [graph memory nodes]: https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#graph-memory-nodes

use std::marker::PhantomData;

use cudarc::driver::sys;

use super::{node_params, NodeId, NodeKind, NodeParams};
use crate::error::{Error, Result};
use crate::memory::alloc::Space;
use crate::memory::operand::sealed::MemoryOperand;
use crate::memory::operand::{DeviceDst, DeviceSrc, Hold, MemKey, Use};
use crate::memory::peer::device_location;

handle!(
    /// A node freeing a graph allocation. (An alloc node's handle is its
    /// [`GraphAlloc`].) Neither has updates: CUDA allows none.
    MemFreeNode
);

/// Memory allocated by an alloc node of a graph: `len` `T`s on the device, at an address fixed
/// when the node was added.
///
/// It is also the alloc node's handle (for dependency lists: `a.id()`). Give it (by reference)
/// as a kernel argument, memcpy or memset operand of nodes of the same graph ordered after the
/// alloc node and, if the graph frees it, before the free node; anything else is refused with
/// [`Error::Allocation`] when the node is added.
pub struct GraphAlloc<T> {
    pub(crate) node: NodeId,
    /// Its index among the graph's allocations.
    pub(crate) slot: u32,
    pub(crate) addr: sys::CUdeviceptr,
    pub(crate) len: usize,
    _elem: PhantomData<fn() -> T>,
}

impl<T> Clone for GraphAlloc<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for GraphAlloc<T> {}

impl<T> std::fmt::Debug for GraphAlloc<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "GraphAlloc<{}>(node#{}, {:#x}, len {})",
            std::any::type_name::<T>(),
            self.node.index,
            self.addr,
            self.len
        )
    }
}

// SAFETY: integers, a `NodeId` of zeros (family 0: no graph's) and a `PhantomData`.
unsafe impl<T> crate::node::unbuilt::Unbuilt for GraphAlloc<T> {}

impl<T> GraphAlloc<T> {
    pub(crate) fn new(node: NodeId, slot: u32, addr: sys::CUdeviceptr, len: usize) -> Self {
        Self {
            node,
            slot,
            addr,
            len,
            _elem: PhantomData,
        }
    }

    /// The alloc node, for dependency lists.
    pub fn id(&self) -> NodeId {
        self.node
    }

    /// The allocation's device address (the same for every launch).
    pub fn addr(&self) -> sys::CUdeviceptr {
        self.addr
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether it holds no element (never: an allocation holds at least one).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The size in bytes.
    pub fn bytes(&self) -> usize {
        self.len * std::mem::size_of::<T>()
    }

    /// Its addresses, `start..end`.
    pub(crate) fn span(&self) -> (sys::CUdeviceptr, sys::CUdeviceptr) {
        (self.addr, self.addr + self.bytes() as u64)
    }

    fn key(&self) -> MemKey {
        let (start, end) = self.span();
        MemKey {
            start,
            end,
            owner: std::ptr::null(),
        }
    }

    fn into_use<'a>(self, write: bool) -> Use<'a> {
        Use {
            space: Space::Device,
            start: self.addr,
            end: self.addr + self.bytes() as u64,
            write,
            host_code: false,
            hold: Hold::Graph {
                family: self.node.family,
                slot: self.slot,
            },
        }
    }
}

impl<T> From<GraphAlloc<T>> for NodeId {
    fn from(a: GraphAlloc<T>) -> NodeId {
        a.node
    }
}

impl<T> From<&GraphAlloc<T>> for NodeId {
    fn from(a: &GraphAlloc<T>) -> NodeId {
        a.node
    }
}

macro_rules! graph_alloc_operand {
    ($($ty:ty),*) => {$(
        impl<'a, T> MemoryOperand<'a> for $ty {
            type Elem = T;
            fn key(&self) -> MemKey {
                GraphAlloc::key(self)
            }
            fn len(&self) -> usize {
                self.len
            }
            fn into_use(self, write: bool) -> Result<Use<'a>> {
                let alloc: &GraphAlloc<T> = &self;
                Ok(GraphAlloc::into_use(*alloc, write))
            }
        }
        impl<'a, T> DeviceSrc<'a, T> for $ty {}
        impl<T> $crate::memory::operand::sealed::DeviceSrc for $ty {}
        impl<'a, T> DeviceDst<'a, T> for $ty {}
        impl<T> $crate::memory::operand::sealed::DeviceDst for $ty {}
    )*};
}
graph_alloc_operand!(GraphAlloc<T>, &GraphAlloc<T>);

/// What a graph knows of one of its allocations.
#[derive(Debug, Clone, Copy)]
pub(crate) struct AllocRecord {
    /// The alloc node.
    pub(crate) node: u32,
    /// Its address.
    pub(crate) addr: sys::CUdeviceptr,
    /// Its size in bytes.
    pub(crate) bytes: usize,
    /// The free node, once added.
    pub(crate) freed_by: Option<u32>,
}

impl AllocRecord {
    /// Whether `start..end` lies within the allocation.
    fn holds(&self, start: sys::CUdeviceptr, end: sys::CUdeviceptr) -> bool {
        start >= self.addr && end <= self.addr.saturating_add(self.bytes as u64) && start <= end
    }
}

/// The record of the allocation that a handle of family `alloc_family` and index `slot` names,
/// spanning `start..end`, among `allocs`, the allocations of a graph of family `family`: none
/// when the handle is another graph's. A graph and its clone share a family (their node handles
/// name each other's nodes), so the family and the index alone do not tell a clone's allocation
/// from the original's once either adds alloc nodes: the range must lie within the record's.
pub(crate) fn record_of(
    family: u64,
    allocs: &[AllocRecord],
    alloc_family: u64,
    slot: u32,
    start: sys::CUdeviceptr,
    end: sys::CUdeviceptr,
) -> Option<&AllocRecord> {
    allocs
        .get(slot as usize)
        .filter(|r| alloc_family == family && r.holds(start, end))
}

/// Checks a node's uses of graph allocations (`uses`) against the rules of the module docs: the
/// node is `node` (the next index when it is being added), ordered after `deps`, and `reaches`
/// tells whether there is a path from one node to another (each node reaches itself).
pub(crate) fn check_uses(
    family: u64,
    allocs: &[AllocRecord],
    uses: &[Use<'_>],
    deps: &[u32],
    node: &dyn Fn() -> String,
    name_of: &dyn Fn(usize) -> String,
    reaches: &dyn Fn(usize, usize) -> bool,
) -> Result<()> {
    for u in uses {
        let Hold::Graph { family: f, slot } = u.hold else {
            continue;
        };
        let record = match record_of(family, allocs, f, slot, u.start, u.end) {
            Some(record) => record,
            None => {
                return Err(Error::Allocation {
                    node: node(),
                    allocation: format!("allocation at {:#x}", u.start),
                    reason: "it was made by an alloc node of another graph (or of this graph \
                             before `clear`); a node may use only its own graph's allocations \
                             (CUDA would fault, or touch another graph's memory)"
                        .into(),
                });
            }
        };
        let alloc = record.node as usize;
        let allocation = || format!("`{}`", name_of(alloc));
        if !deps.iter().any(|&d| reaches(alloc, d as usize)) {
            return Err(Error::Allocation {
                node: node(),
                allocation: allocation(),
                reason: "the node is not ordered after the alloc node: add a dependency on it \
                         (the allocation does not exist before its alloc node runs)"
                    .into(),
            });
        }
        if let Some(free) = record.freed_by {
            return Err(Error::Allocation {
                node: node(),
                allocation: allocation(),
                reason: format!(
                    "it is freed by `{}`, and no node may use an allocation after it is freed \
                     (a use must be ordered before the free node: add the nodes that use it \
                     before the free node, which depends on them)",
                    name_of(free as usize)
                ),
            });
        }
    }
    Ok(())
}

/// Checks a free of allocation `slot` by the node about to be added after `deps`: the allocation
/// is this graph's and not yet freed, and every node using it (`users`) is ordered before.
#[allow(clippy::too_many_arguments)]
pub(crate) fn check_free(
    family: u64,
    alloc_family: u64,
    allocs: &[AllocRecord],
    slot: u32,
    range: (sys::CUdeviceptr, sys::CUdeviceptr),
    users: impl Iterator<Item = usize>,
    deps: &[u32],
    node: &dyn Fn() -> String,
    name_of: &dyn Fn(usize) -> String,
    reaches: &dyn Fn(usize, usize) -> bool,
) -> Result<()> {
    let Some(record) = record_of(family, allocs, alloc_family, slot, range.0, range.1) else {
        return Err(Error::Allocation {
            node: node(),
            allocation: "an allocation of another graph".into(),
            reason: "a free node frees an allocation of its own graph (CUDA refuses others)".into(),
        });
    };
    let allocation = format!("`{}`", name_of(record.node as usize));
    if let Some(free) = record.freed_by {
        return Err(Error::Allocation {
            node: node(),
            allocation,
            reason: format!(
                "it is already freed by `{}`: an allocation is freed once",
                name_of(free as usize)
            ),
        });
    }
    let ordered = |n: usize| deps.iter().any(|&d| reaches(n, d as usize));
    if !ordered(record.node as usize) {
        return Err(Error::Allocation {
            node: node(),
            allocation,
            reason: "the free node is not ordered after the alloc node: add a dependency on it"
                .into(),
        });
    }
    for user in users {
        if !ordered(user) {
            return Err(Error::Allocation {
                node: node(),
                allocation,
                reason: format!(
                    "`{}` uses the allocation and the free node is not ordered after it: add \
                     a dependency on `{}` (memory freed while a node uses it may already \
                     belong to another allocation)",
                    name_of(user),
                    name_of(user)
                ),
            });
        }
    }
    Ok(())
}

/// An alloc node's parameters: `bytes` bytes of device memory on one device, accessible from
/// that device only. The driver writes the allocation's address into them.
pub(crate) struct AllocParams {
    raw: sys::CUgraphNodeParams,
}

impl AllocParams {
    /// An allocation of `bytes` bytes on device `ordinal`.
    pub(crate) fn new(ordinal: i32, bytes: usize) -> Self {
        let mut raw = node_params(sys::CUgraphNodeType::CU_GRAPH_NODE_TYPE_MEM_ALLOC);
        // SAFETY: borrowing the union's `alloc` member, the one `type_` selects, all zeros.
        let alloc = unsafe { &mut raw.__bindgen_anon_1.alloc };
        alloc.poolProps.allocType = sys::CUmemAllocationType::CU_MEM_ALLOCATION_TYPE_PINNED;
        alloc.poolProps.location = device_location(ordinal);
        alloc.bytesize = bytes;
        Self { raw }
    }

    /// The address the driver gave the allocation (once the node is added).
    pub(crate) fn address(&self) -> sys::CUdeviceptr {
        // SAFETY: an alloc node's parameters, whose `alloc` member the driver filled in.
        unsafe { self.raw.__bindgen_anon_1.alloc.dptr }
    }
}

impl NodeParams for AllocParams {
    const KIND: NodeKind = NodeKind::MemAlloc;

    #[inline]
    fn with_raw<R>(&mut self, f: impl FnOnce(&mut sys::CUgraphNodeParams) -> R) -> R {
        f(&mut self.raw)
    }
}

/// A free node's parameters: the allocation it frees.
pub(crate) struct FreeParams {
    /// The allocation's address.
    pub(crate) addr: sys::CUdeviceptr,
}

impl NodeParams for FreeParams {
    const KIND: NodeKind = NodeKind::MemFree;

    #[inline]
    fn with_raw<R>(&mut self, f: impl FnOnce(&mut sys::CUgraphNodeParams) -> R) -> R {
        let mut p = node_params(sys::CUgraphNodeType::CU_GRAPH_NODE_TYPE_MEM_FREE);
        p.__bindgen_anon_1.free.dptr = self.addr;
        f(&mut p)
    }
}
