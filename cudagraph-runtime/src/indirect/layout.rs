//! The size of a block of indirect values and of its memory, from [`IndirectOptions`]: its
//! [`IndirectLayout`], and where each value goes in it.

use crate::error::{Error, Result};

/// The largest alignment a value may need: slots, the staged copy and the current block are
/// aligned to it.
pub(super) const MAX_ALIGN: usize = 16;

/// How a graph's block of indirect values is sized: what [`Graph::add_indirect_block`](crate::Graph::add_indirect_block)
/// takes (the first [`Graph::add_indirect`](crate::Graph::add_indirect) uses the default).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IndirectOptions {
    capacity: usize,
    slots: u32,
}

impl Default for IndirectOptions {
    /// 256 bytes (64 `u32`s), 64 slots.
    fn default() -> Self {
        Self {
            capacity: 256,
            slots: 64,
        }
    }
}

impl IndirectOptions {
    /// The bytes the block holds, all values together with their alignment padding (rounded up
    /// to 16). The fetch copies only the bytes in use.
    pub fn with_capacity(self, bytes: usize) -> Self {
        Self {
            capacity: bytes,
            ..self
        }
    }

    /// The number of ring slots `S`: how many launches may be queued without having started
    /// before [`GraphExec::launch`](crate::GraphExec::launch) waits for the oldest one to start.
    /// Each slot costs `capacity` bytes of page-locked memory.
    pub fn with_slots(self, slots: u32) -> Self {
        Self { slots, ..self }
    }

    /// The capacity asked for.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// The number of ring slots asked for.
    pub fn slots(&self) -> u32 {
        self.slots
    }
}

/// The size of a graph's block of indirect values and the memory it takes
/// ([`Graph::indirect_layout`](crate::Graph::indirect_layout),
/// [`GraphExec::indirect_layout`](crate::GraphExec::indirect_layout)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IndirectLayout {
    /// Bytes the block can hold.
    pub capacity: usize,
    /// Bytes in use (values and their padding), which each launch copies, rounded up to 8.
    pub used: usize,
    /// Ring slots.
    pub slots: u32,
    /// Device memory: the current block, then the launch counter.
    pub device_bytes: usize,
    /// Page-locked host memory: the ring, then the word the device publishes its count in.
    pub host_bytes: usize,
}

/// Sizes for `options`, or why they cannot be used.
pub(super) fn layout(options: IndirectOptions) -> Result<IndirectLayout> {
    let invalid = |reason: String| Error::Invalid {
        node: "add_indirect_block".into(),
        reason,
    };
    if options.slots == 0 {
        return Err(invalid("a ring needs at least one slot".into()));
    }
    let capacity = options
        .capacity
        .max(1)
        .checked_next_multiple_of(MAX_ALIGN)
        .filter(|&c| u32::try_from(c).is_ok())
        .ok_or_else(|| invalid(format!("a capacity of {} bytes", options.capacity)))?;
    let ring = options
        .slots
        .checked_add(1)
        .and_then(|slots| capacity.checked_mul(slots as usize))
        .filter(|&r| u32::try_from(r).is_ok() && r < isize::MAX as usize / 2)
        .ok_or_else(|| {
            invalid(format!(
                "{} slots of {capacity} bytes: the ring must stay under 4 GiB",
                options.slots
            ))
        })?;
    Ok(IndirectLayout {
        capacity,
        used: 0,
        slots: options.slots,
        device_bytes: capacity + COUNTER_BYTES,
        host_bytes: ring.next_multiple_of(CONSUMED_ALIGN) + CONSUMED_ALIGN,
    })
}

/// Slots in the ring of a block of `layout`: one more than the launches that may be queued
/// unstarted ([`IndirectLayout::slots`]), because a fetch tells the host only about the launches
/// before its own (see the fetch kernel): the slot of the newest launch that started is still
/// taken as far as the host knows.
pub(super) fn ring_slots(layout: &IndirectLayout) -> u32 {
    layout.slots + 1
}

/// Bytes after the current block: the device's launch counter (8, padded).
pub(super) const COUNTER_BYTES: usize = 16;

/// The host word the device publishes its count in sits on a cache line of its own, after the
/// ring, so that the device's writes to it do not evict the slots the host is writing.
pub(super) const CONSUMED_ALIGN: usize = 64;

/// Where a value of `size` bytes aligned to `align` goes in a block whose first `used` bytes are
/// taken: its offset, and the bytes taken after it. `None` when it does not fit in `capacity`.
pub(super) fn place(
    used: usize,
    size: usize,
    align: usize,
    capacity: usize,
) -> Option<(usize, usize)> {
    let offset = used.checked_next_multiple_of(align)?;
    let end = offset.checked_add(size)?;
    (end <= capacity).then_some((offset, end))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts_round_up_and_refuse_what_does_not_fit() {
        let l = layout(IndirectOptions::default()).unwrap();
        assert_eq!((l.capacity, l.slots, l.used), (256, 64, 0));
        assert_eq!(l.device_bytes, 256 + 16);
        assert_eq!(l.host_bytes, 65 * 256 + 64);
        let l = layout(IndirectOptions::default().with_capacity(1).with_slots(3)).unwrap();
        assert_eq!(l.capacity, 16);
        // 64 bytes of ring (4 slots), the consumed word on the next cache line.
        assert_eq!(l.host_bytes, 128);
        assert!(l.host_bytes >= l.device_bytes);
        assert!(layout(IndirectOptions::default().with_slots(0)).is_err());
        assert!(layout(IndirectOptions::default().with_slots(u32::MAX)).is_err());
        assert!(layout(IndirectOptions::default().with_capacity(usize::MAX)).is_err());
        assert!(layout(
            IndirectOptions::default()
                .with_capacity(1 << 20)
                .with_slots(1 << 13)
        )
        .is_err());
    }

    #[test]
    fn values_are_placed_aligned_and_within_capacity() {
        // u8, then f64, then u32: padding before the f64 only.
        assert_eq!(place(0, 1, 1, 16), Some((0, 1)));
        assert_eq!(place(1, 8, 8, 16), Some((8, 16)));
        assert_eq!(place(16, 4, 4, 16), None);
        assert_eq!(place(16, 4, 4, 32), Some((16, 20)));
        assert_eq!(place(3, 16, 16, 32), Some((16, 32)));
        assert_eq!(place(usize::MAX - 1, 4, 4, usize::MAX), None);
    }
}
