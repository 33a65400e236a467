//! The block's memory and its ring of page-locked slots: each launch's values staged, published
//! into the launch's slot, and the slot waited for before it is reused.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use cudarc::driver::{sys, CudaContext};

use super::layout::{ring_slots, IndirectLayout, CONSUMED_ALIGN};
use super::staged::Staged;
use crate::driver::{named, record_err};
use crate::error::{Error, Result};

/// The memory of a block, freed when dropped: its owner drops it only once no launch may use it.
pub(super) struct BlockMemory {
    pub(super) ctx: Arc<CudaContext>,
    /// Device memory: the current block (`capacity` bytes), then (with a ring) the launch
    /// counter.
    pub(super) device: sys::CUdeviceptr,
    /// With a ring: mapped page-locked host memory, the ring's slots ([`ring_slots`]) of
    /// `capacity` bytes, then the consumed word. Null without.
    pub(super) host: *mut u8,
}

// SAFETY: addresses of memory this value owns; the host memory is written only through `&mut`
// of the block that owns it (and read by the device, with the protocol of the module docs).
unsafe impl Send for BlockMemory {}

impl Drop for BlockMemory {
    fn drop(&mut self) {
        if self.device == 0 && self.host.is_null() {
            return;
        }
        if self.ctx.bind_to_thread().is_err() {
            return; // the context is gone, and its memory with it
        }
        if self.device != 0 {
            // SAFETY: allocated by `cuMemAlloc` in this context; the owner drops this only
            // once no launch may use it.
            record_err(
                &self.ctx,
                named("cuMemFree", unsafe {
                    cudarc::driver::result::free_sync(self.device)
                }),
            );
        }
        if !self.host.is_null() {
            // SAFETY: allocated by `cuMemHostAlloc`; as above.
            record_err(
                &self.ctx,
                named("cuMemFreeHost", unsafe {
                    cudarc::driver::result::free_host(self.host.cast())
                }),
            );
        }
    }
}

/// The host's side of a ring (see the module docs): the slots it publishes the staged values
/// into, and the count of launches. It knows nothing of CUDA, so the protocol can be run against
/// a simulated device (see the tests).
pub(super) struct Ring {
    /// The ring's slots ([`ring_slots`]) of `capacity` bytes, then the consumed word (see
    /// [`consumed_offset`]); owned by the block.
    pub(super) host: *mut u8,
    pub(super) layout: IndirectLayout,
    /// Launch calls that succeeded: the device's counter once they have all fetched.
    pub(super) seq: u64,
    /// The slot the next launch publishes into: `seq % ring_slots`.
    pub(super) next_slot: u32,
    /// The consumed word as last read: launches known to have fetched their slot.
    pub(super) consumed_seen: u64,
}

/// Where the consumed word is in the host memory of a block of `layout`.
pub(super) fn consumed_offset(layout: &IndirectLayout) -> usize {
    (ring_slots(layout) as usize * layout.capacity).next_multiple_of(CONSUMED_ALIGN)
}

impl Ring {
    /// A ring over `host`, which holds `layout.host_bytes` zeroed bytes and outlives it.
    pub(super) fn new(host: *mut u8, layout: IndirectLayout) -> Self {
        Self {
            host,
            layout,
            seq: 0,
            next_slot: 0,
            consumed_seen: 0,
        }
    }

    /// The consumed word: how many launches are known to have fetched their slot (the fetch of
    /// launch `c` publishes `c` as it starts: the launches before it have completed).
    #[inline(always)]
    pub(super) fn consumed(&self) -> u64 {
        // SAFETY: the word lies within the host memory (see `layout`), 64-byte aligned; the
        // device writes it with 8-byte stores and the host only reads it, atomically.
        let word = unsafe {
            AtomicU64::from_ptr(self.host.add(consumed_offset(&self.layout)).cast::<u64>())
        };
        // The launches counted here completed before the fetch that stored the count started
        // (launches of one executable run in order), so their reads of the ring are over and
        // writing their slots after this load is safe.
        word.load(Ordering::Acquire)
    }

    /// Copies the used bytes of `staged` (at most `capacity`) into the next launch's slot, after
    /// waiting, if needed, until the launch that used that slot last has fetched it. `all_done`
    /// tells whether every launch so far has completed (`Ok(false)` when it cannot tell); it is
    /// asked only while waiting.
    #[inline]
    pub(super) fn publish(
        &mut self,
        staged: &Staged,
        all_done: impl FnMut() -> Result<bool>,
    ) -> Result<()> {
        let slots = ring_slots(&self.layout) as u64;
        if self.seq >= slots {
            // Launch `seq - slots` used this slot; it and the launches before it must have
            // fetched: `seq - slots + 1` of them, which the fetch of launch `seq - slots + 1`
            // (an earlier launch than this one: there are at least two slots) publishes.
            let needed = self.seq - slots + 1;
            if self.consumed_seen < needed {
                self.consumed_seen = self.consumed();
                if self.consumed_seen < needed {
                    self.wait_consumed(needed, all_done)?;
                }
            }
        }
        let offset = self.next_slot as usize * self.layout.capacity;
        let used = staged.used();
        debug_assert!(used <= self.layout.capacity && used <= staged.capacity());
        // SAFETY: the slot lies within the ring (`next_slot < slots`), and `used <= capacity`
        // of both the slot and the staged copy (the block's layout sized both); no launch reads
        // the slot now (every launch that used it has fetched it, checked above; the launch that
        // will is made after this returns). Plain writes: the launch call that follows is where
        // the driver makes them visible to the device.
        unsafe { std::ptr::copy_nonoverlapping(staged.as_ptr(), self.host.add(offset), used) };
        std::sync::atomic::fence(Ordering::Release);
        Ok(())
    }

    /// Counts a launch whose launch call succeeded: the device will fetch the slot just written.
    #[inline]
    pub(super) fn launched(&mut self) {
        self.seq += 1;
        self.next_slot += 1;
        if self.next_slot == ring_slots(&self.layout) {
            self.next_slot = 0;
        }
    }

    /// Waits until `needed` launches have fetched (see [`Ring::publish`]).
    #[cold]
    #[inline(never)]
    pub(super) fn wait_consumed(
        &mut self,
        needed: u64,
        mut all_done: impl FnMut() -> Result<bool>,
    ) -> Result<()> {
        let start = Instant::now();
        let mut next_check = Duration::from_micros(200);
        let mut round = 0u32;
        loop {
            // Spin first (the oldest launch is usually about to start), then give the CPU away.
            match round {
                0..64 => std::hint::spin_loop(),
                64..128 => std::thread::yield_now(),
                _ => std::thread::sleep(Duration::from_micros(20)),
            }
            round = round.saturating_add(1);
            let seen = self.consumed();
            if seen >= needed {
                self.consumed_seen = seen;
                return Ok(());
            }
            if start.elapsed() < next_check {
                continue;
            }
            next_check = start.elapsed() + Duration::from_millis(1);
            if all_done()? {
                // Every launch has completed, so every fetch has run: read again, after them.
                let seen = self.consumed();
                if seen >= needed {
                    self.consumed_seen = seen;
                    return Ok(());
                }
                return Err(Error::Invalid {
                    node: "launch".into(),
                    reason: format!(
                        "the executable's indirect values: {} launches were made but the device \
                         fetched values for {seen} only, though every launch has completed (was \
                         the fetch node disabled, or the raw executable launched directly?)",
                        self.seq
                    ),
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::indirect::layout::{layout, IndirectDelivery, IndirectOptions, MAX_ALIGN};
    use crate::indirect::staged::Chunk;
    use std::mem::MaybeUninit;

    fn ring_options() -> IndirectOptions {
        IndirectOptions::default().with_delivery(IndirectDelivery::Ring)
    }

    /// The host's side of the protocol against a simulated device on another thread, which does
    /// what the fetch kernel does: waits for launch `c` to be made (the launch call), publishes
    /// `consumed = c` (the launches before it are done), reads slot `c % ring_slots`. It falls behind now and then, so the host
    /// waits for slots; every launch must read exactly the values set before it.
    #[test]
    fn a_simulated_device_reads_each_launch_s_own_values() {
        let hash = |c: u64| c.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x5555;
        for (slots, launches) in [(1u32, 3_000u64), (2, 3_000), (4, 10_000), (64, 20_000)] {
            let options = ring_options().with_capacity(32).with_slots(slots);
            let layout = layout(options).unwrap();
            let mut host = vec![Chunk([MaybeUninit::new(0); MAX_ALIGN]); layout.host_bytes / 16];
            let base = host.as_mut_ptr().cast::<u8>();
            let mut ring = Ring::new(base, layout);
            let mut staged = Staged::new(layout.capacity);
            let (a, b) = (
                staged.place::<u32>().unwrap(),
                staged.place::<u64>().unwrap(),
            );
            assert_eq!((a, b, staged.used()), (0, 8, 16));
            // What the launch call tells the device: how many launches were made.
            let made = AtomicU64::new(0);
            let (base_addr, capacity, ring_len) =
                (base as usize, layout.capacity, ring_slots(&layout));
            let consumed_at = consumed_offset(&layout);
            std::thread::scope(|scope| {
                let device = scope.spawn(|| {
                    let base = base_addr as *mut u8;
                    let mut wrong = Vec::new();
                    for c in 0..launches {
                        while made.load(Ordering::Acquire) <= c {
                            std::hint::spin_loop();
                        }
                        if c % 97 == 0 {
                            // Fall behind: the host fills the ring and waits.
                            std::thread::sleep(Duration::from_micros(200));
                        }
                        // SAFETY: the consumed word, 8-byte aligned, only ever accessed
                        // atomically while the threads run.
                        let consumed =
                            unsafe { AtomicU64::from_ptr(base.add(consumed_at).cast::<u64>()) };
                        consumed.store(c, Ordering::Release);
                        let slot = (c % ring_len as u64) as usize * capacity;
                        // SAFETY: within the host memory; the host wrote this slot before the
                        // launch was made (ordered by `made`), and writes it again only after
                        // it has seen a later launch's store to `consumed`.
                        let (got_a, got_b) = unsafe {
                            (
                                base.add(slot + a).cast::<u32>().read(),
                                base.add(slot + b).cast::<u64>().read(),
                            )
                        };
                        if (got_a, got_b) != (c as u32, hash(c)) {
                            wrong.push(c);
                        }
                    }
                    wrong
                });
                for c in 0..launches {
                    // SAFETY: offsets `place` gave for a u32 and a u64.
                    unsafe {
                        staged.set(a, c as u32);
                        staged.set(b, hash(c));
                    }
                    ring.publish(&staged, || Ok(false)).unwrap();
                    ring.launched();
                    made.store(c + 1, Ordering::Release);
                }
                let wrong = device.join().unwrap();
                assert!(
                    wrong.is_empty(),
                    "{slots} slots: {} launches read other values, first {:?}",
                    wrong.len(),
                    wrong.first()
                );
            });
            assert_eq!(ring.seq, launches);
            drop(host);
        }
    }

    #[test]
    fn a_wait_for_a_fetch_that_never_comes_ends_in_an_error_once_all_is_done() {
        let layout = layout(ring_options().with_slots(2)).unwrap();
        let mut host = vec![Chunk([MaybeUninit::new(0); MAX_ALIGN]); layout.host_bytes / 16];
        let mut ring = Ring::new(host.as_mut_ptr().cast(), layout);
        let mut staged = Staged::new(layout.capacity);
        staged.place::<u32>().unwrap();
        // Two launches may be queued: a ring of three slots.
        for _ in 0..3 {
            ring.publish(&staged, || Ok(false)).unwrap();
            ring.launched();
        }
        // Three launches made, none fetched (a device that never runs the fetch): the fourth
        // launch needs slot 0 back, and the driver says every launch is over.
        let mut asked = 0;
        let third = ring.publish(&staged, || {
            asked += 1;
            Ok(asked > 2)
        });
        assert!(matches!(third, Err(Error::Invalid { .. })), "{third:?}");
        assert_eq!(asked, 3);
        // An error from the driver ends the wait with that error.
        let failed = ring.publish(&staged, || {
            Err(Error::Capturing {
                what: "the test".into(),
            })
        });
        assert!(matches!(failed, Err(Error::Capturing { .. })), "{failed:?}");
        drop(host);
    }
}
