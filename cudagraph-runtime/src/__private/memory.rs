//! Memory params: the param types a memset or memcpy names, the operands they give, and
//! whether two of them share memory.

use crate::memory::alloc::Space;
use crate::memory::operand::sealed::MemoryOperand;
use crate::{
    DeviceBuffer, DevicePtr, DevicePtrMut, Error, GraphAlloc, HostBuffer, HostPtr, HostPtrMut,
};

// ---------------------------------------------------------------------------------------------
// Memory params: the param types a memset or memcpy names, and the operands they give.

/// A param type that is memory a node can name: an owned buffer (given by reference, so the
/// graph shares it) or a raw pointer (given by value).
///
/// # Safety
/// `bytes` is exactly the memory `operand` gives: the overlap check between params reads the
/// one, the nodes use the other. Implemented by the runtime only.
pub unsafe trait MemoryParam {
    /// The element type.
    type Elem;
    /// The operand the param gives.
    type Operand<'p>
    where
        Self: 'p;
    /// As an operand.
    fn operand(&self) -> Self::Operand<'_>;
    /// Its memory space and byte range `start..end`.
    fn bytes(&self) -> (Space, u64, u64);
}

macro_rules! memory_params {
    ($($ty:ident: $op:ty, $space:ident, |$s:ident| $e:expr;)*) => {$(
        // SAFETY: `bytes` is read from the operand itself.
        unsafe impl<T: Send + Sync + 'static> MemoryParam for $ty<T> {
            type Elem = T;
            type Operand<'p> = $op where Self: 'p;
            #[inline(always)]
            fn operand(&self) -> Self::Operand<'_> {
                let $s = self;
                $e
            }
            #[inline]
            fn bytes(&self) -> (Space, u64, u64) {
                let key = MemoryOperand::key(&self.operand());
                (Space::$space, key.start, key.end)
            }
        }
    )*};
}
memory_params! {
    GraphAlloc: GraphAlloc<T>, Device, |s| *s;
    DeviceBuffer: &'p DeviceBuffer<T>, Device, |s| s;
    HostBuffer: &'p HostBuffer<T>, Host, |s| s;
    DevicePtr: DevicePtr<T>, Device, |s| *s;
    DevicePtrMut: DevicePtrMut<T>, Device, |s| *s;
    HostPtr: HostPtr<T>, Host, |s| *s;
    HostPtrMut: HostPtrMut<T>, Host, |s| *s;
}

// ---------------------------------------------------------------------------------------------
// Two different memory params used by unordered nodes, one writing: checked when built.

/// Whether two memory params share memory.
#[inline]
pub fn overlap<P: MemoryParam, Q: MemoryParam>(p: &P, q: &Q) -> bool {
    let (a, b) = (p.bytes(), q.bytes());
    a.0 == b.0 && a.1 < b.2 && b.1 < a.2
}

/// The error for two unordered nodes whose params `p` and `q` share memory.
#[cold]
pub fn overlap_error(first: &str, p: &str, second: &str, q: &str) -> Error {
    Error::Hazard {
        first: first.to_owned(),
        second: second.to_owned(),
        reason: format!(
            "`{first}` uses `{p}` and `{second}` uses `{q}`, which share memory, one of them writes \
             it, and no edge orders the two nodes (a data race); give them separate buffers, add an \
             edge, or mark `{first}` `#[unordered({p})]` and `{second}` `#[unordered({q})]`"
        ),
    }
}
