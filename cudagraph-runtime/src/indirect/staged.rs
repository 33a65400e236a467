//! The staged copy of a block: the values the next launch reads, written by `set_indirect`,
//! and where each value goes in it.

use std::mem::MaybeUninit;

use super::layout::{place, MAX_ALIGN};
use crate::error::{Error, Result};

/// 16 bytes of the staged copy, aligned as the most demanding value. Bytes, possibly
/// uninitialized: a value's padding is copied as it is, never read as a number.
#[derive(Clone, Copy)]
#[repr(C, align(16))]
pub(super) struct Chunk(pub(super) [MaybeUninit<u8>; MAX_ALIGN]);

/// The host's copy of a block's values: what the next launch reads.
pub(super) struct Staged {
    chunks: Box<[Chunk]>,
    /// Bytes taken by values so far (not rounded).
    used_end: usize,
}

impl Staged {
    /// `capacity` zeroed bytes (a multiple of 16).
    pub(super) fn new(capacity: usize) -> Self {
        debug_assert_eq!(capacity % MAX_ALIGN, 0);
        Self {
            chunks: vec![Chunk([MaybeUninit::new(0); MAX_ALIGN]); capacity / MAX_ALIGN]
                .into_boxed_slice(),
            used_end: 0,
        }
    }

    /// The bytes the copy holds.
    pub(super) fn capacity(&self) -> usize {
        self.chunks.len() * MAX_ALIGN
    }

    /// Bytes in use, rounded up to 8: what a launch copies.
    #[inline(always)]
    pub(super) fn used(&self) -> usize {
        self.used_end.next_multiple_of(8)
    }

    /// The first byte of the copy (16-byte aligned, `capacity` bytes).
    #[inline(always)]
    pub(super) fn as_ptr(&self) -> *const u8 {
        self.chunks.as_ptr().cast()
    }

    /// Room for a `T`: its offset, or why there is none.
    pub(super) fn place<T>(&mut self) -> Result<usize> {
        let (size, align) = (std::mem::size_of::<T>(), std::mem::align_of::<T>());
        let invalid = |reason: String| Error::Invalid {
            node: "add_indirect".into(),
            reason,
        };
        if size == 0 {
            return Err(invalid("an indirect value of a zero-sized type".into()));
        }
        if align > MAX_ALIGN {
            return Err(invalid(format!(
                "`{}` needs {align}-byte alignment; indirect values may need at most {MAX_ALIGN}",
                std::any::type_name::<T>()
            )));
        }
        let used = self.used_end;
        let capacity = self.capacity();
        let (offset, end) = place(used, size, align, capacity).ok_or_else(|| {
            invalid(format!(
                "the block is full: {used} of {capacity} bytes used, and a `{}` needs {size} more \
                 (with alignment); make the block larger with `Graph::add_indirect_block` before \
                 the first value",
                std::any::type_name::<T>()
            ))
        })?;
        self.used_end = end;
        Ok(offset)
    }

    /// Writes `value` at `offset`: the next launch reads it.
    ///
    /// # Safety
    /// `offset` was returned by [`Staged::place`] for a `T`.
    #[inline(always)]
    pub(super) unsafe fn set<T: Copy>(&mut self, offset: usize, value: T) {
        debug_assert!(offset + std::mem::size_of::<T>() <= self.used_end);
        // SAFETY: the caller's promise: `offset` and the size of `T` lie within the copy.
        unsafe {
            self.chunks
                .as_mut_ptr()
                .cast::<u8>()
                .add(offset)
                .cast::<T>()
                .write_unaligned(value)
        }
    }

    /// The `T` at `offset`.
    ///
    /// # Safety
    /// `offset` was returned by [`Staged::place`] for a `T`.
    #[inline(always)]
    pub(super) unsafe fn get<T: Copy>(&self, offset: usize) -> T {
        // SAFETY: as in `set`; the bytes there were written as a `T` (by `set`, which the block
        // calls with the initial value).
        unsafe { self.as_ptr().add(offset).cast::<T>().read_unaligned() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_placed_one_after_another_and_read_back() {
        let mut s = Staged::new(32);
        let (a, b) = (s.place::<u8>().unwrap(), s.place::<f64>().unwrap());
        assert_eq!((a, b, s.used()), (0, 8, 16));
        // SAFETY: offsets `place` gave for these types.
        unsafe {
            s.set(a, 7u8);
            s.set(b, 2.5f64);
            assert_eq!((s.get::<u8>(a), s.get::<f64>(b)), (7, 2.5));
        }
        assert!(s.place::<[u64; 2]>().is_ok());
        let full = s.place::<u32>().unwrap_err();
        assert!(full.to_string().contains("the block is full"), "{full}");
        assert!(s.place::<()>().is_err());
    }
}
