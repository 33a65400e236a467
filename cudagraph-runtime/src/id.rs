//! Identities never handed out twice in a process: graph families (see
//! [`NodeId`](crate::NodeId)) and the builds of declared graphs.

use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};

/// An id never handed out before.
///
/// Threads take ids from the global counter in blocks, so a new id costs a thread-local
/// increment rather than an atomic read-modify-write on a cache line every thread shares. Graphs
/// are built in hot loops (rebuild + whole-graph update), and on the virtual machines GPUs are
/// rented as, one such atomic measured about 9 ns: over 1% of rebuilding a one-node graph.
/// 2^64 ids in blocks of 2^16 never run out.
pub(crate) fn fresh_id() -> u64 {
    const BLOCK: u64 = 1 << 16;
    static NEXT_BLOCK: AtomicU64 = AtomicU64::new(1);
    thread_local! {
        /// The ids this thread may still hand out: `next..end`.
        static IDS: Cell<(u64, u64)> = const { Cell::new((0, 0)) };
    }
    IDS.with(|ids| {
        let (next, end) = match ids.get() {
            (next, end) if next < end => (next, end),
            _ => {
                let start = NEXT_BLOCK.fetch_add(BLOCK, Ordering::Relaxed);
                (start, start + BLOCK)
            }
        };
        ids.set((next + 1, end));
        next
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn ids_are_unique_across_threads_and_blocks() {
        let per_thread = 3 * (1 << 16) / 2; // each thread crosses a block boundary
        let ids: Vec<Vec<u64>> = std::thread::scope(|s| {
            let threads: Vec<_> = (0..4)
                .map(|_| s.spawn(|| (0..per_thread).map(|_| fresh_id()).collect()))
                .collect();
            threads.into_iter().map(|t| t.join().unwrap()).collect()
        });
        let all: HashSet<u64> = ids.iter().flatten().copied().collect();
        assert_eq!(all.len(), 4 * per_thread);
        assert!(!all.contains(&0), "0 is never an id");
    }
}
