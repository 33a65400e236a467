//! Memory nodes: alloc and free nodes, and the ordering rules of graph allocations (see
//! `node::mem`).

use std::sync::Arc;

use cudarc::driver::sys;

use super::definition::Graph;
use super::tables::Tables;
use crate::error::{Error, Result};
use crate::memory::adopted::Adopted;
use crate::memory::hazard::reaches;
use crate::memory::operand::{Hold, Use};
use crate::memory::DeviceBuffer;
use crate::node::mem::{self, AllocParams, AllocRecord, FreeParams};
use crate::node::{GraphAlloc, MemFreeNode, NodeId, NodeKind};

impl<'a> Graph<'a> {
    /// Checks the uses of graph allocations among the table's uses from `from` on, for a node
    /// about to be added after `deps` (see `node::mem`).
    #[cold]
    pub(super) fn check_alloc_uses(
        &self,
        from: usize,
        deps: &[NodeId],
        node: &dyn Fn() -> String,
    ) -> Result<()> {
        let Some(tables) = self.tables.as_ref() else {
            return Ok(());
        };
        let deps: Vec<u32> = deps.iter().map(|d| d.index).collect();
        mem::check_uses(
            self.family,
            &tables.allocs,
            tables.uses.get(from..).unwrap_or_default(),
            &deps,
            node,
            &|i| self.name_of(i),
            &|a, b| reaches(a, b, |n| self.deps_of(n)),
        )
    }

    /// Checks that node `index`, already in the graph, may use `uses` (an executable's update of
    /// its parameters): the graph allocations among them must be ordered as `node::mem` says.
    pub(crate) fn check_alloc_uses_of(&self, index: usize, uses: &[Use<'_>]) -> Result<()> {
        let Some(tables) = self.tables.as_ref() else {
            return Ok(());
        };
        if !uses.iter().any(|u| matches!(u.hold, Hold::Graph { .. })) {
            return Ok(());
        }
        let ordered_before = |a: usize, b: usize| reaches(a, b, |n| self.deps_of(n));
        // A body's node is ordered as its conditional node is.
        let node = match index.checked_sub(self.nodes.len()) {
            None => index as u32,
            Some(i) => tables.bodies.nodes[i].owner,
        };
        // As if the node were being added: after its own dependencies, with the frees that come
        // after it not counted (a use ordered before its free is what the rule asks for).
        let mut allocs = tables.allocs.clone();
        for record in &mut allocs {
            if record
                .freed_by
                .is_some_and(|free| ordered_before(node as usize, free as usize))
            {
                record.freed_by = None;
            }
        }
        // The node itself (not its dependencies): the alloc node must reach it, and it differs
        // from the alloc node.
        mem::check_uses(
            self.family,
            &allocs,
            uses,
            &[node],
            &|| self.name_of(index),
            &|i| self.name_of(i),
            &|a, b| a != b && ordered_before(a, b),
        )
    }

    /// Whether the graph has memory nodes (alloc or free nodes, added or captured). Such a
    /// graph cannot be cloned, embedded in another or updated as a whole, and CUDA allows one
    /// executable of it at a time.
    pub fn has_memory_nodes(&self) -> bool {
        self.tables.as_ref().is_some_and(|t| t.memory_nodes)
    }

    /// Whether the graph has device-updatable kernel nodes
    /// ([`Graph::add_device_updatable_kernel`](crate::Graph::add_device_updatable_kernel)).
    pub fn has_device_updatable_nodes(&self) -> bool {
        self.tables.as_ref().is_some_and(|t| t.device_updatable)
    }

    /// Whether node `index` is a device-updatable kernel node.
    pub(crate) fn is_device_updatable(&self, index: usize) -> bool {
        self.tables
            .as_ref()
            .is_some_and(|t| t.device_updatable_nodes.contains(&(index as u32)))
    }

    /// Refuses `what` (a clone, a clear, an embedding, a whole-graph update) of a graph with
    /// device-updatable kernel nodes: CUDA forbids copying, removing and whole-graph updates of
    /// them.
    // Inlined, the error out of line: a flag test on every rebuild and whole-graph update.
    #[inline]
    pub(crate) fn refuse_device_updatable(&self, what: &str) -> crate::error::Result<()> {
        if self.has_device_updatable_nodes() {
            return Err(device_updatable_refused(what));
        }
        Ok(())
    }

    /// The allocations this graph makes and does not free (their alloc node indices and
    /// addresses): they outlive each launch.
    pub(crate) fn unfreed_allocations(&self) -> Vec<(usize, sys::CUdeviceptr)> {
        self.tables.as_ref().map_or_else(Vec::new, |t| {
            t.allocs
                .iter()
                .filter(|a| a.freed_by.is_none())
                .map(|a| (a.node as usize, a.addr))
                .collect()
        })
    }

    /// Adds an alloc node: `len` `T`s of device memory on the graph's device, allocated when the
    /// launch reaches the node, at an address fixed now (the same for every launch). Use it in
    /// nodes ordered after this one; free it with [`Graph::add_mem_free`] after its last use,
    /// or leave it to outlive the launch (see
    /// [`GraphExec::take_allocation`](crate::GraphExec::take_allocation)).
    ///
    /// The memory is uninitialized: write it before reading it. Whatever a node reads of it
    /// before then (and whatever a copy, [`GraphExec::read_allocation`](crate::GraphExec::read_allocation)
    /// or a taken buffer hands host code) is arbitrary bits, so `T` must be valid for every bit
    /// pattern ([`AnyBitPattern`](bytemuck::AnyBitPattern): numbers, arrays of them, and
    /// `#[repr(C)]` structs of them that derive `bytemuck::Pod` or `AnyBitPattern`; not `bool`,
    /// `char` or enums).
    pub fn add_mem_alloc<T: cudarc::driver::DeviceRepr + bytemuck::AnyBitPattern>(
        &mut self,
        len: usize,
        deps: &[NodeId],
    ) -> Result<GraphAlloc<T>> {
        let bytes = len
            .checked_mul(std::mem::size_of::<T>())
            .filter(|&b| b > 0)
            .ok_or_else(|| Error::Invalid {
                node: self.pending_name(NodeKind::MemAlloc),
                reason: format!(
                    "an allocation of {len} elements of {} bytes: it must hold at least one \
                     byte and fit in memory",
                    std::mem::size_of::<T>()
                ),
            });
        let bytes = self.or_forget_name(bytes)?;
        let mut params = AllocParams::new(self.ctx.ordinal() as i32, bytes);
        let id = self.add_node(&mut params, deps, self.uses_len())?;
        let tables = self.tables_mut();
        let slot = tables.allocs.len() as u32;
        let addr = params.address();
        tables.allocs.push(AllocRecord {
            node: id.index,
            addr,
            bytes,
            freed_by: None,
        });
        tables.memory_nodes = true;
        Ok(GraphAlloc::new(id, slot, addr, len))
    }

    /// Adds a free node for `alloc`, an allocation of this graph, after `deps`, which must order
    /// it after every node that uses the allocation. Nothing may use the allocation afterwards;
    /// its physical memory may back a later allocation of the graph, or of another graph
    /// launched into the same stream.
    pub fn add_mem_free<T>(
        &mut self,
        alloc: &GraphAlloc<T>,
        deps: &[NodeId],
    ) -> Result<MemFreeNode> {
        let checked = self.check_free(alloc, deps);
        self.or_forget_name(checked)?;
        let mut params = FreeParams { addr: alloc.addr };
        let id = self.add_node(&mut params, deps, self.uses_len())?;
        self.tables_mut().allocs[alloc.slot as usize].freed_by = Some(id.index);
        Ok(MemFreeNode::from_id(id))
    }

    /// Adds a free node for `buffer`, an allocation that another graph made and left unfreed
    /// (taken from its executable with [`GraphExec::take_allocation`](crate::GraphExec::take_allocation)), after `deps`, which must
    /// order it after every node of this graph that uses the buffer. The buffer must be whole and
    /// otherwise unshared: no clone, and no other graph or executable using it. The work queued
    /// on it so far is waited for here.
    ///
    /// The first launch of this graph's executable frees the memory, so that executable launches
    /// once; later launches are refused ([`Error::Allocation`]). Until that launch the executable
    /// that made the allocation still waits for it to be freed before it launches again; a graph
    /// or executable dropped without launching frees the memory itself.
    pub fn add_mem_free_buffer<T: cudarc::driver::DeviceRepr>(
        &mut self,
        buffer: DeviceBuffer<T>,
        deps: &[NodeId],
    ) -> Result<MemFreeNode> {
        let checked = self.check_free_buffer(&buffer, deps);
        self.or_forget_name(checked)?;
        let adopted = buffer.adopt_for_free()?;
        let mut params = FreeParams {
            addr: adopted.addr(),
        };
        // Pushed first: if the node is refused, dropping the table entry frees the memory.
        let tables = self.tables_mut();
        tables.adopted.0.push(adopted);
        tables.memory_nodes = true;
        let id = self.add_node(&mut params, deps, self.uses_len());
        if id.is_err() {
            self.tables_mut().adopted.0.pop();
        }
        Ok(MemFreeNode::from_id(id?))
    }

    /// `buffer` can go to a free node after `deps`: only nodes of this graph use it, all ordered
    /// before the free node.
    fn check_free_buffer<T: cudarc::driver::DeviceRepr>(
        &self,
        buffer: &DeviceBuffer<T>,
        deps: &[NodeId],
    ) -> Result<()> {
        for dep in deps {
            self.check_node(*dep)?;
        }
        let record = buffer.record_ptr();
        let holds = |u: &Use<'_>| matches!(&u.hold, Hold::Owned(a) if Arc::as_ptr(a).cast::<()>() == record);
        let mut held = 0;
        for (index, uses) in self.ordered_uses() {
            let count = uses.iter().filter(|u| holds(u)).count();
            held += count;
            if count > 0
                && !deps
                    .iter()
                    .any(|d| reaches(index, d.index as usize, |n| self.deps_of(n)))
            {
                return Err(Error::Allocation {
                    node: self.pending_name(NodeKind::MemFree),
                    allocation: format!("the buffer at {:#x}", buffer.addr()),
                    reason: format!(
                        "node `{}` uses the buffer and is not ordered before the free node: list \
                         it (or a node after it) in the free node's dependencies",
                        self.name_of(index)
                    ),
                });
            }
        }
        match buffer.why_not_adoptable(held) {
            None => Ok(()),
            Some(why) => Err(Error::Allocation {
                node: self.pending_name(NodeKind::MemFree),
                allocation: format!("the buffer at {:#x}", buffer.addr()),
                reason: why.into(),
            }),
        }
    }

    /// The allocations of other graphs that this graph's free nodes free.
    pub(crate) fn adopted_mut(&mut self) -> &mut [Adopted] {
        match &mut self.tables {
            Some(tables) => &mut tables.adopted.0,
            None => &mut [],
        }
    }

    fn check_free<T>(&self, alloc: &GraphAlloc<T>, deps: &[NodeId]) -> Result<()> {
        let empty = Tables::default();
        let tables = self.tables.as_deref().unwrap_or(&empty);
        let users = self
            .ordered_uses()
            .filter(|(_, uses)| {
                uses.iter().any(|u| {
                    matches!(u.hold, Hold::Graph { family, slot }
                        if family == alloc.node.family && slot == alloc.slot)
                })
            })
            .map(|(i, _)| i);
        for dep in deps {
            self.check_node(*dep)?;
        }
        let deps: Vec<u32> = deps.iter().map(|d| d.index).collect();
        mem::check_free(
            self.family,
            alloc.node.family,
            &tables.allocs,
            alloc.slot,
            alloc.span(),
            users,
            &deps,
            &|| self.pending_name(NodeKind::MemFree),
            &|i| self.name_of(i),
            &|a, b| reaches(a, b, |n| self.deps_of(n)),
        )
    }
}

impl Graph<'_> {
    /// The alloc node of `alloc`, checked to be an allocation of this graph: a graph and its
    /// clone share their node handles' family, so a handle of an allocation the clone added
    /// after the copy carries this graph's family and maybe the index of one of its alloc nodes
    /// (see `node::mem::record_of`).
    pub(crate) fn alloc_node<T>(&self, alloc: &GraphAlloc<T>, call: &str) -> Result<usize> {
        let node = self.check_node(alloc.id())?;
        let empty = Tables::default();
        let tables = self.tables.as_deref().unwrap_or(&empty);
        let (start, end) = alloc.span();
        match mem::record_of(
            self.family,
            &tables.allocs,
            alloc.node.family,
            alloc.slot,
            start,
            end,
        ) {
            Some(record) if record.node as usize == node => Ok(node),
            _ => Err(Error::Allocation {
                node: call.into(),
                allocation: format!("allocation at {:#x}", alloc.addr),
                reason: "it was made by an alloc node of another graph (a clone of this graph, \
                         which shares its node handles, or this graph before `clear`)"
                    .into(),
            }),
        }
    }
}

/// The error of [`Graph::refuse_device_updatable`].
#[cold]
#[inline(never)]
fn device_updatable_refused(what: &str) -> crate::error::Error {
    crate::error::Error::Invalid {
        node: what.into(),
        reason: "the graph has device-updatable kernel nodes, which CUDA does not let be \
                 copied, removed or updated by a whole-graph update: build another graph"
            .into(),
    }
}
