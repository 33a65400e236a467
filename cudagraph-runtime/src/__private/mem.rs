//! Memory nodes: a declared allocation's length, and reading it back.

use crate::{Error, GraphAlloc, GraphExec, Result};

// ---------------------------------------------------------------------------------------------
// Memory nodes.

/// An alloc node's length, as declared (a `usize`).
#[inline(always)]
pub fn alloc_len(len: usize) -> usize {
    len
}

/// Refuses params that would change the length of allocation `alloc` of alloc node `node`.
pub fn same_alloc_len<T>(alloc: &GraphAlloc<T>, len: usize, node: &str) -> Result<()> {
    if alloc.len() == len {
        return Ok(());
    }
    Err(Error::Allocation {
        node: node.into(),
        allocation: format!("its allocation of {} elements", alloc.len()),
        reason: format!(
            "the params ask for {len} elements: CUDA fixes an allocation's size when the graph is \
             built; build and instantiate a new graph for the new size"
        ),
    })
}

/// A declared allocation the last launch left, taken out as a buffer (`take_<name>()` of the
/// allocations a `cuda_graph!` executable's launch returns; see `GraphExec::take_allocation`).
///
/// # Safety
/// As [`read_declared_allocation`].
#[inline]
pub unsafe fn take_declared_allocation<T: cudarc::driver::DeviceRepr>(
    exec: &mut GraphExec<'_>,
    alloc: &GraphAlloc<T>,
) -> Result<crate::DeviceBuffer<T>> {
    // SAFETY: the caller's promise.
    unsafe { exec.take_any_allocation(alloc) }
}

/// A copy of a declared allocation (`read_<name>()` of a `cuda_graph!` executable).
///
/// # Safety
/// The allocation was made by the declaration's `alloc::<T>` node, which `Graph::add_mem_alloc`
/// admits only for types valid for every bit pattern. (Taking that bound here too would report a
/// `bool` allocation twice, once at the node and once at the whole macro.)
#[inline]
pub unsafe fn read_declared_allocation<T: cudarc::driver::DeviceRepr>(
    exec: &GraphExec<'_>,
    alloc: &GraphAlloc<T>,
) -> Result<Vec<T>> {
    // SAFETY: the caller's promise.
    unsafe { exec.copy_allocation(alloc) }
}
