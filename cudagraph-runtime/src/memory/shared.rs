//! A range of elements of a reference-counted allocation: what a [`DeviceBuffer`] and a
//! [`HostBuffer`] are, whatever the memory.
//!
//! [`DeviceBuffer`]: crate::DeviceBuffer
//! [`HostBuffer`]: crate::HostBuffer

use std::ops::{Bound, RangeBounds};
use std::sync::Arc;

/// `range` as `(start, end)` within `0..len`, or `None`.
pub(crate) fn bounds(range: impl RangeBounds<usize>, len: usize) -> Option<(usize, usize)> {
    let start = match range.start_bound() {
        Bound::Included(&s) => s,
        Bound::Excluded(&s) => s.checked_add(1)?,
        Bound::Unbounded => 0,
    };
    let end = match range.end_bound() {
        Bound::Included(&e) => e.checked_add(1)?,
        Bound::Excluded(&e) => e,
        Bound::Unbounded => len,
    };
    (start <= end && end <= len).then_some((start, end))
}

/// Elements `offset..offset + len` of the allocation `alloc`, shared with every clone.
pub(crate) struct Shared<A> {
    pub(crate) alloc: Arc<A>,
    pub(crate) offset: usize,
    pub(crate) len: usize,
}

impl<A> Clone for Shared<A> {
    fn clone(&self) -> Self {
        Self {
            alloc: self.alloc.clone(),
            offset: self.offset,
            len: self.len,
        }
    }
}

impl<A> Shared<A> {
    /// All `len` elements of a new allocation.
    pub(crate) fn new(alloc: A, len: usize) -> Self {
        Self {
            alloc: Arc::new(alloc),
            offset: 0,
            len,
        }
    }

    /// The same range of the same allocation.
    pub(crate) fn same(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.alloc, &other.alloc)
            && self.offset == other.offset
            && self.len == other.len
    }

    /// Elements `range` of this range, or `None` when out of bounds.
    pub(crate) fn try_slice(&self, range: impl RangeBounds<usize>) -> Option<Self> {
        let (start, end) = bounds(range, self.len)?;
        Some(Self {
            alloc: self.alloc.clone(),
            offset: self.offset + start,
            len: end - start,
        })
    }

    /// Whether the two share memory: the same allocation, overlapping ranges.
    pub(crate) fn overlaps(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.alloc, &other.alloc)
            && self.offset < other.offset + other.len
            && other.offset < self.offset + self.len
    }
}

/// The methods a buffer type (a `struct` with a `shared: Shared<_>` field) has for being a range
/// of a shared allocation: `Clone` and identity `PartialEq`, lengths, slicing and overlap.
macro_rules! range_methods {
    ($buffer:ident) => {
        impl<T: 'static> Clone for $buffer<T> {
            fn clone(&self) -> Self {
                Self {
                    shared: self.shared.clone(),
                }
            }
        }

        /// Two buffers are equal when they are the same range of the same allocation.
        impl<T: 'static> PartialEq for $buffer<T> {
            fn eq(&self, other: &Self) -> bool {
                self.shared.same(&other.shared)
            }
        }

        impl<T: 'static> Eq for $buffer<T> {}

        impl<T: 'static> $buffer<T> {
            /// The number of elements.
            pub fn len(&self) -> usize {
                self.shared.len
            }

            /// Whether it holds no element.
            pub fn is_empty(&self) -> bool {
                self.shared.len == 0
            }

            /// The size in bytes.
            pub fn num_bytes(&self) -> usize {
                self.shared.len * std::mem::size_of::<T>()
            }

            /// Elements `range` of this buffer, sharing its allocation; `None` when out of bounds.
            pub fn try_slice(&self, range: impl std::ops::RangeBounds<usize>) -> Option<Self> {
                let shared = self.shared.try_slice(range)?;
                Some(Self { shared })
            }

            /// Elements `range` of this buffer, sharing its allocation.
            ///
            /// # Panics
            #[doc = concat!("When `range` is out of bounds (see [`", stringify!($buffer), "::try_slice`]).")]
            pub fn slice(&self, range: impl std::ops::RangeBounds<usize>) -> Self {
                let len = self.len();
                self.try_slice(range)
                    .unwrap_or_else(|| panic!("range out of bounds for a buffer of {len} elements"))
            }

            /// Whether two buffers share memory (the same allocation, overlapping ranges).
            pub fn overlaps(&self, other: &Self) -> bool {
                self.shared.overlaps(&other.shared)
            }
        }
    };
}
pub(crate) use range_methods;

/// A buffer type as a memory operand, by reference and by value (the graph keeps its own
/// reference to the allocation either way). The source and destination trait impls stay written
/// out beside each type: impls expanded from a macro would show up as macro text in the "other
/// types implement" hints of a user's compile error. The type provides `key_of(&self) -> MemKey` and `use_of(&self, write, host_code) -> Use`.
macro_rules! owned_operand {
    ($buffer:ident, $($bound:tt)+) => {
        impl<'a, T: $($bound)+> MemoryOperand<'a> for &$buffer<T> {
            type Elem = T;
            fn key(&self) -> MemKey {
                self.key_of()
            }
            fn len(&self) -> usize {
                self.shared.len
            }
            fn into_use(self, write: bool) -> Result<Use<'a>> {
                Ok(self.use_of(write, false))
            }
        }

        impl<'a, T: $($bound)+> MemoryOperand<'a> for $buffer<T> {
            type Elem = T;
            fn key(&self) -> MemKey {
                self.key_of()
            }
            fn len(&self) -> usize {
                self.shared.len
            }
            fn into_use(self, write: bool) -> Result<Use<'a>> {
                Ok(self.use_of(write, false))
            }
        }
    };
}
pub(crate) use owned_operand;
