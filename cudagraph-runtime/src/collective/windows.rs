//! A communicator's symmetric windows ([`Windows`]): the memory every rank registered together
//! (see `symmetric`), in the order registered, and where a buffer lies in them
//! ([`Windows::placement`]), which NCCL requires to be the same on every rank.

use std::sync::{Arc, Mutex};

use cudarc::driver::CudaContext;
use cudarc::nccl::sys;

/// The high bits of a placement word: its window's number, from 1.
const WINDOW_SHIFT: u32 = 48;

/// How many windows a communicator may have: their numbers, from 1, fit the high bits of a
/// placement word (a larger one would wrap, and read as another window's or as none).
pub(crate) const MAX_WINDOWS: usize = (1 << (64 - WINDOW_SHIFT)) - 1;

/// The memory of every live window of every communicator of the process, as (base, bytes): the
/// memory NCCL may open to a communicator's peers when it registers a buffer captured in a
/// collective (see [`is_nccl_memory`]). Device addresses are unique within a process (CUDA's
/// unified address space), whatever the device.
static NCCL_MEMORY: Mutex<Vec<(u64, u64)>> = Mutex::new(Vec::new());

/// Whether `addr` lies in memory from `ncclMemAlloc` that a communicator's window holds, of any
/// communicator.
///
/// NCCL registers the buffers of a collective captured into a graph (`NCCL_GRAPH_REGISTER`, on
/// by default) where it can map them into the peers' address spaces, which memory from
/// `ncclMemAlloc` allows and the stream-ordered allocations of cudarc do not. A registered
/// buffer is written and read by the peers' kernels directly, at the place the peer's graph
/// recorded, like a symmetric buffer on its own communicator: so a collective over such memory
/// is held to the same rule (one executable per communicator at a time, made on every rank or
/// none, see `owner`), also where the memory is another communicator's window or the step is a
/// point-to-point one.
pub(crate) fn is_nccl_memory(addr: u64) -> bool {
    addr != 0
        && NCCL_MEMORY
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .any(|&(base, bytes)| (base..base + bytes).contains(&addr))
}

/// A communicator's symmetric windows, in the order registered (which is the same on every rank:
/// registering is a call every rank makes together), and their memory.
#[derive(Debug)]
pub(crate) struct Windows {
    ctx: Arc<CudaContext>,
    list: Vec<Window>,
}

/// One window: `bytes` bytes at `base`, from `ncclMemAlloc`.
#[derive(Debug)]
struct Window {
    base: u64,
    bytes: u64,
}

impl Windows {
    pub(crate) fn new(ctx: &Arc<CudaContext>) -> Self {
        Self {
            ctx: ctx.clone(),
            list: Vec::new(),
        }
    }

    /// Where memory starting at `addr` lies: its window's number (from 1) in the high bits and
    /// its byte offset there in the rest, or 0 when it is in no window. The same on every rank
    /// for the same buffer of the same declaration.
    pub(crate) fn placement(&self, addr: u64) -> u64 {
        placement(&self.list, addr)
    }

    /// How many windows there are.
    pub(crate) fn len(&self) -> usize {
        self.list.len()
    }

    /// Records the memory of a new window: `bytes` bytes at `base`, from `ncclMemAlloc`, which
    /// the windows free when dropped.
    pub(crate) fn record(&mut self, base: u64, bytes: u64) {
        self.list.push(Window { base, bytes });
        NCCL_MEMORY
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((base, bytes));
    }
}

/// [`Windows::placement`] among the windows `list`, which holds at most [`MAX_WINDOWS`].
fn placement(list: &[Window], addr: u64) -> u64 {
    list.iter()
        .enumerate()
        .find(|(_, w)| (w.base..w.base + w.bytes).contains(&addr))
        .map_or(0, |(i, w)| {
            ((i as u64 + 1) << WINDOW_SHIFT) | (addr - w.base)
        })
}

/// Writes where `placement`'s buffers lie, if either is in a symmetric window.
pub(crate) fn describe(f: &mut std::fmt::Formatter<'_>, placement: [u64; 2]) -> std::fmt::Result {
    let mut first = true;
    for (word, which) in placement.iter().zip(["source", "destination"]) {
        if *word == 0 {
            continue;
        }
        let window = word >> WINDOW_SHIFT;
        let offset = word & ((1 << WINDOW_SHIFT) - 1);
        let sep = if first { ", " } else { " and " };
        first = false;
        write!(
            f,
            "{sep}{which} at byte {offset} of symmetric buffer #{window}"
        )?;
    }
    Ok(())
}

impl Drop for Windows {
    fn drop(&mut self) {
        // Dropped after the communicator was aborted (the field order of `CommInner`), which
        // released the windows: the memory is unused by NCCL and by every launch (each buffer
        // held the communicator until its launches were done).
        let _ = self.ctx.bind_to_thread();
        // Forgotten before the memory is freed: an `ncclMemAlloc` of another thread may get
        // the same addresses right after the free, and record them.
        NCCL_MEMORY
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .retain(|&(base, _)| !self.list.iter().any(|w| w.base == base));
        for w in &self.list {
            // SAFETY: memory from `ncclMemAlloc`, freed once, here.
            let _ = unsafe { sys::ncclMemFree(w.base as *mut _) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_window_a_communicator_may_have_has_a_placement_of_its_own() {
        let list: Vec<Window> = (0..MAX_WINDOWS as u64)
            .map(|i| Window {
                base: (i + 1) << 32,
                bytes: 256,
            })
            .collect();
        let first = placement(&list, 1 << 32);
        let last = placement(&list, (MAX_WINDOWS as u64) << 32);
        assert_eq!(first, 1 << WINDOW_SHIFT);
        assert_eq!(last, (MAX_WINDOWS as u64) << WINDOW_SHIFT);
        assert_eq!(
            placement(&list, ((MAX_WINDOWS as u64) << 32) + 64),
            last | 64
        );
        assert_eq!(placement(&list, 5), 0, "memory in no window");
        // One window more would be number 2^16, which the high bits cannot hold (shifted into
        // place, it wraps to 0: memory in no window).
        assert_ne!((MAX_WINDOWS as u64 + 1) >> (64 - WINDOW_SHIFT), 0);
    }
}
