//! The size of a block of indirect values and of its memory, from [`IndirectOptions`]: its
//! [`IndirectLayout`], and where each value goes in it.

use crate::error::{Error, Result};

/// The largest alignment a value may need: slots, the staged copy and the current block are
/// aligned to it.
pub(super) const MAX_ALIGN: usize = 16;

/// The largest block [`IndirectDelivery::Parameters`] takes: its values travel as one kernel
/// parameter, and a kernel's parameters must fit in 4 KiB (the limit of every GPU and driver
/// CUDA 12 and 13 support).
pub const MAX_PARAMETER_CAPACITY: usize = 2048;

/// How each launch's values reach the device (see the [module docs](crate::indirect)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum IndirectDelivery {
    /// As a kernel parameter of the fetch node, updated by the launch when a value changed
    /// (`cuGraphExecKernelNodeSetParams`, one driver call however many nodes read the values).
    /// The cheaper path for the device: the fetch copies from its parameters and reads nothing
    /// across the bus. Blocks of up to [`MAX_PARAMETER_CAPACITY`] bytes.
    #[default]
    Parameters,
    /// Through a ring of page-locked slots the device reads across the bus: a launch writes its
    /// values into its slot with no driver call, so the host pays the least, and the device
    /// about 1 µs more per launch than with [`IndirectDelivery::Parameters`].
    Ring,
}

/// How a graph's block of indirect values is sized and delivered: what
/// [`Graph::add_indirect_block`](crate::Graph::add_indirect_block) takes (the first
/// [`Graph::add_indirect`](crate::Graph::add_indirect) uses the default).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IndirectOptions {
    capacity: usize,
    slots: u32,
    delivery: IndirectDelivery,
}

impl Default for IndirectOptions {
    /// 256 bytes (64 `u32`s), delivered as parameters; 64 slots if the ring is chosen.
    fn default() -> Self {
        Self {
            capacity: 256,
            slots: 64,
            delivery: IndirectDelivery::Parameters,
        }
    }
}

impl IndirectOptions {
    /// The bytes the block holds, all values together with their alignment padding (rounded up
    /// to 16, and for [`IndirectDelivery::Parameters`] to a power of two, at most
    /// [`MAX_PARAMETER_CAPACITY`]). The fetch copies only the bytes in use.
    pub fn with_capacity(self, bytes: usize) -> Self {
        Self {
            capacity: bytes,
            ..self
        }
    }

    /// For [`IndirectDelivery::Ring`], the number of ring slots `S`: how many launches may be
    /// queued without having started before [`GraphExec::launch`](crate::GraphExec::launch)
    /// waits for the oldest one to start. Each slot costs `capacity` bytes of page-locked memory.
    /// Parameters need no slots: the driver keeps each launch's parameters.
    pub fn with_slots(self, slots: u32) -> Self {
        Self { slots, ..self }
    }

    /// How the values reach the device: [`IndirectDelivery::Parameters`] unless chosen.
    pub fn with_delivery(self, delivery: IndirectDelivery) -> Self {
        Self { delivery, ..self }
    }

    /// The capacity asked for.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// The number of ring slots asked for.
    pub fn slots(&self) -> u32 {
        self.slots
    }

    /// The delivery asked for.
    pub fn delivery(&self) -> IndirectDelivery {
        self.delivery
    }
}

/// The size of a graph's block of indirect values and the memory it takes
/// ([`Graph::indirect_layout`](crate::Graph::indirect_layout),
/// [`GraphExec::indirect_layout`](crate::GraphExec::indirect_layout)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IndirectLayout {
    /// How the values reach the device.
    pub delivery: IndirectDelivery,
    /// Bytes the block can hold.
    pub capacity: usize,
    /// Bytes in use (values and their padding), which each launch copies, rounded up to 8.
    pub used: usize,
    /// Ring slots (none for [`IndirectDelivery::Parameters`]).
    pub slots: u32,
    /// Device memory: the current block, then (with a ring) the launch counter.
    pub device_bytes: usize,
    /// Page-locked host memory: the ring, then the word the device publishes its count in
    /// (none for [`IndirectDelivery::Parameters`]).
    pub host_bytes: usize,
}

/// Sizes for `options`, or why they cannot be used.
pub(super) fn layout(options: IndirectOptions) -> Result<IndirectLayout> {
    let invalid = |reason: String| Error::Invalid {
        node: "add_indirect_block".into(),
        reason,
    };
    if options.delivery == IndirectDelivery::Parameters {
        if options.capacity > MAX_PARAMETER_CAPACITY {
            return Err(invalid(format!(
                "a block of {} bytes delivered as kernel parameters: at most \
                 {MAX_PARAMETER_CAPACITY} bytes fit (a kernel's parameters are limited to 4 KiB); \
                 choose `IndirectDelivery::Ring` for a larger block",
                options.capacity
            )));
        }
        let capacity = options.capacity.max(MAX_ALIGN).next_power_of_two();
        return Ok(IndirectLayout {
            delivery: IndirectDelivery::Parameters,
            capacity,
            used: 0,
            slots: 0,
            device_bytes: capacity,
            host_bytes: 0,
        });
    }
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
        delivery: IndirectDelivery::Ring,
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
    fn parameter_layouts_round_to_a_power_of_two_and_refuse_what_does_not_fit() {
        let l = layout(IndirectOptions::default()).unwrap();
        assert_eq!(l.delivery, IndirectDelivery::Parameters);
        assert_eq!((l.capacity, l.slots, l.used), (256, 0, 0));
        assert_eq!((l.device_bytes, l.host_bytes), (256, 0));
        for (asked, got) in [
            (0, 16),
            (1, 16),
            (17, 32),
            (48, 64),
            (2047, 2048),
            (2048, 2048),
        ] {
            let l = layout(IndirectOptions::default().with_capacity(asked)).unwrap();
            assert_eq!(l.capacity, got, "{asked} bytes");
        }
        let e = layout(IndirectOptions::default().with_capacity(2049)).unwrap_err();
        assert!(e.to_string().contains("IndirectDelivery::Ring"), "{e}");
        assert!(layout(IndirectOptions::default().with_capacity(usize::MAX)).is_err());
        // Slots mean nothing without a ring, even none.
        assert!(layout(IndirectOptions::default().with_slots(0)).is_ok());
    }

    #[test]
    fn ring_layouts_round_up_and_refuse_what_does_not_fit() {
        let ring = IndirectOptions::default().with_delivery(IndirectDelivery::Ring);
        let l = layout(ring).unwrap();
        assert_eq!((l.capacity, l.slots, l.used), (256, 64, 0));
        assert_eq!(l.device_bytes, 256 + 16);
        assert_eq!(l.host_bytes, 65 * 256 + 64);
        let l = layout(ring.with_capacity(1).with_slots(3)).unwrap();
        assert_eq!(l.capacity, 16);
        // 64 bytes of ring (4 slots), the consumed word on the next cache line.
        assert_eq!(l.host_bytes, 128);
        assert!(l.host_bytes >= l.device_bytes);
        assert!(layout(ring.with_slots(0)).is_err());
        assert!(layout(ring.with_slots(u32::MAX)).is_err());
        assert!(layout(ring.with_capacity(usize::MAX)).is_err());
        assert!(layout(ring.with_capacity(1 << 20).with_slots(1 << 13)).is_err());
        // A ring takes blocks too large for parameters.
        assert_eq!(layout(ring.with_capacity(8192)).unwrap().capacity, 8192);
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
