//! [`Indirect`]: the key of one value, as kernels take it, and which graphs' nodes may read it.

use std::marker::PhantomData;

use cudarc::driver::sys;

use crate::error::{Error, Result};
use crate::memory::alloc::Space;
use crate::memory::operand::sealed::MemoryOperand;
use crate::memory::operand::{DeviceSrc, Hold, MemKey, Use};

/// The key of one indirect value of type `T`: made by [`Graph::add_indirect`](crate::Graph::add_indirect),
/// written with [`GraphExec::set_indirect`](crate::GraphExec::set_indirect), and given (by value
/// or reference) for a kernel parameter of type [`DevicePtr<T>`](crate::DevicePtr) (`const T*` in
/// CUDA C) or as the source of a copy.
///
/// It belongs to the graph that made it and to that graph's executable.
pub struct Indirect<T> {
    pub(super) block: u64,
    pub(super) offset: u32,
    pub(super) addr: sys::CUdeviceptr,
    pub(super) _value: PhantomData<fn() -> T>,
}

impl<T> Clone for Indirect<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Indirect<T> {}

impl<T> PartialEq for Indirect<T> {
    fn eq(&self, other: &Self) -> bool {
        self.block == other.block && self.offset == other.offset
    }
}

impl<T> Eq for Indirect<T> {}

impl<T> std::fmt::Debug for Indirect<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Indirect<{}>(offset {}, {:#x})",
            std::any::type_name::<T>(),
            self.offset,
            self.addr
        )
    }
}

// SAFETY: integers (block 0 is no graph's: ids start at 1) and a `PhantomData`.
unsafe impl<T> crate::node::unbuilt::Unbuilt for Indirect<T> {}

impl<T> Indirect<T> {
    /// The device address kernels read the value at (the same for every launch).
    pub fn addr(&self) -> sys::CUdeviceptr {
        self.addr
    }

    /// The value's offset in its block.
    pub fn offset(&self) -> usize {
        self.offset as usize
    }

    /// The identity of the block the key belongs to.
    pub(crate) fn block_id(&self) -> u64 {
        self.block
    }

    fn key(&self) -> MemKey {
        MemKey {
            start: self.addr,
            end: self.addr + std::mem::size_of::<T>() as u64,
            owner: std::ptr::null(),
        }
    }

    fn into_use<'a>(self) -> Use<'a> {
        Use {
            space: Space::Device,
            start: self.addr,
            end: self.addr + std::mem::size_of::<T>() as u64,
            write: false,
            host_code: false,
            hold: Hold::Indirect { block: self.block },
        }
    }
}

// As memory operands: the value in the current block, read only. The graph checks that the key
// is its own and orders the node after the fetch node.

impl<'a, T> MemoryOperand<'a> for Indirect<T> {
    type Elem = T;
    fn key(&self) -> MemKey {
        Indirect::key(self)
    }
    fn len(&self) -> usize {
        1
    }
    fn into_use(self, _write: bool) -> Result<Use<'a>> {
        Ok(Indirect::into_use(self))
    }
}

#[diagnostic::do_not_recommend]
impl<'a, T> DeviceSrc<'a, T> for Indirect<T> {}
impl<T> crate::memory::operand::sealed::DeviceSrc for Indirect<T> {}

impl<'a, T> MemoryOperand<'a> for &Indirect<T> {
    type Elem = T;
    fn key(&self) -> MemKey {
        Indirect::key(self)
    }
    fn len(&self) -> usize {
        1
    }
    fn into_use(self, _write: bool) -> Result<Use<'a>> {
        Ok(Indirect::into_use(*self))
    }
}

#[diagnostic::do_not_recommend]
impl<'a, T> DeviceSrc<'a, T> for &Indirect<T> {}
impl<T> crate::memory::operand::sealed::DeviceSrc for &Indirect<T> {}

/// Where a graph's nodes may read indirect values from: the block `block`, after the fetch node
/// `fetch` (`None` in a conditional body whose conditional node is ordered after it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct IndirectScope {
    pub(crate) block: u64,
    pub(crate) fetch: Option<u32>,
}

/// Why a use of an indirect value of block `block` is refused in a graph of scope `scope`, if
/// it is.
pub(crate) fn foreign_block(scope: Option<IndirectScope>, block: u64) -> Option<&'static str> {
    match scope {
        Some(s) if s.block == block => None,
        Some(_) => Some(
            "an indirect value of another graph: a key works only in the graph that made it \
             (and in that graph's conditional bodies)",
        ),
        None => Some(
            "an indirect value of another graph: this graph has no indirect values (a key works \
             only in the graph that made it)",
        ),
    }
}

/// A key of another graph's (or executable's) indirect values, as an error of `call`.
#[cold]
pub(crate) fn foreign_key(call: &str) -> Error {
    Error::Invalid {
        node: call.into(),
        reason: "an indirect value of another graph: a key works only with the graph that made \
                 it and that graph's executable"
            .into(),
    }
}
