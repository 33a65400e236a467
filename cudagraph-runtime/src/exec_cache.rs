//! One executable per shape, made when a shape is first seen and kept up to a bound.
//!
//! A CUDA graph's executable is fixed to the sizes it was built with: kernel grids, copy lengths
//! and graph allocations cannot change size. A hot loop that sees a few shapes (inference with
//! batch sizes bucketed to powers of two, signal frames of a few lengths) therefore wants one
//! executable per shape, built lazily, with a bound on how many are kept. [`ExecCache`] is that
//! map: keyed by the shape, holding any executable type (a runtime [`GraphExec`], a
//! `cuda_graph!`-generated `<Graph>Exec`, or a struct holding one with its buffers), evicting the
//! least recently used one when it is full. [`bucket_pow2`] rounds a size up to its bucket.
//!
//! ```no_run
//! use std::num::NonZeroUsize;
//! use cudagraph_runtime::{bucket_pow2, ExecCache, GraphExec};
//! # fn build(rows: usize) -> Result<GraphExec<'static>, cudagraph_runtime::Error> { todo!() }
//! # fn f(stream: &std::sync::Arc<cudagraph_runtime::cudarc::driver::CudaStream>,
//! #      batches: &[usize]) -> Result<(), cudagraph_runtime::Error> {
//! let mut cache = ExecCache::new(NonZeroUsize::new(4).unwrap());
//! for &rows in batches {
//!     let bucket = bucket_pow2(rows).expect("a batch of at most 2^63 rows");
//!     // Built the first time a bucket is seen; the least recently used one is dropped when a
//!     // fifth bucket comes, while its launches may still run (see "Eviction" below).
//!     let exec = cache.get_or_build(&bucket, |&rows| build(rows))?;
//!     exec.launch(stream)?;
//! }
//! println!("{:?}", cache.stats());
//! # Ok(()) }
//! ```
//!
//! # Eviction with launches in flight
//!
//! Evicting an executable drops it at once, without waiting for the GPU, and that is sound for
//! this crate's executables ([`GraphExec`] and the types `cuda_graph!` generates around one):
//!
//! - **The executable itself.** `cuGraphExecDestroy` on an executable with launches in flight
//!   does not stop them: CUDA frees it asynchronously once they complete
//!   ([`cuGraphExecDestroy`]).
//! - **Memory it owns** ([`DeviceBuffer`](crate::DeviceBuffer),
//!   [`HostBuffer`](crate::HostBuffer), the block of [indirect values](crate::indirect)) is
//!   released behind a completion marker recorded after its latest launch, as the crate's
//!   "Memory model" section says: a `DeviceBuffer` whose last handle goes with the executable is
//!   freed on its own stream after a wait for that marker, so no later allocation can get its
//!   memory while a launch may still write it, and nothing blocks.
//! - **Graph allocations** (memory nodes) are freed by the graph's own free nodes, which are
//!   stream-ordered: their physical memory goes back to the device's graph memory pool when the
//!   free node runs on the GPU, not when the host drops the executable, and CUDA shares that
//!   memory with other graphs only in the order their launches run ([graph memory nodes]).
//!   Allocations the last launch left unfreed are freed on that launch's stream, after it.
//! - **Kernel modules** it holds the last references to are unloaded once its launches have
//!   completed (on the crate's release thread): `cuModuleUnload` is not documented to wait
//!   for the kernels of the module still running.
//! - **Borrowed memory** (a `GraphExec<'a>` over cudarc slices, made in a
//!   [`scope`](crate::scope)) stays borrowed until the scope returns, which it does only once
//!   every launch of the scope's executables has completed: evicting such an executable waits
//!   for nothing, and the scope's end waits for its launches.
//!
//! The cache itself never looks inside `E`: it drops it, and `E`'s `Drop` is what makes that
//! sound. Any type written in safe Rust over this crate's values inherits the guarantees above.
//!
//! A build that fails leaves the cache as it was: the least recently used executable is evicted
//! only after the new one has been built, so for the time of a build on a full cache there is
//! one executable more than the capacity.
//!
//! [`cuGraphExecDestroy`]: https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__GRAPH.html
//! [graph memory nodes]: https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#graph-memory-nodes
//! [`GraphExec`]: crate::GraphExec

use std::collections::HashMap;
use std::fmt;
use std::hash::Hash;
use std::num::NonZeroUsize;

/// Counters of an [`ExecCache`], since it was made.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CacheStats {
    /// Lookups ([`ExecCache::get`], [`ExecCache::get_or_build`]) that found their key.
    pub hits: u64,
    /// Lookups that did not: [`ExecCache::get_or_build`] then ran its build.
    pub misses: u64,
    /// Executables dropped to make room for a new one (not those taken out with
    /// [`ExecCache::remove`]).
    pub evictions: u64,
    /// Builds that returned an error; the cache was left as it was.
    pub failed_builds: u64,
}

/// One cached executable and when it was last used.
struct Slot<E> {
    exec: E,
    /// The value of the cache's clock at the latest lookup of this key: the smallest is the least
    /// recently used.
    last_used: u64,
}

/// Executables by shape key, at most `capacity` of them, the least recently used evicted first.
///
/// `K` is the shape (a batch-size bucket, a frame length, a tuple of both); `E` is any executable
/// type, or a struct of an executable and the buffers it uses. See the [module docs](self) for
/// why evicting an executable whose launches are still running is sound.
///
/// Lookups hash the key once (twice on a hit through [`get_or_build`](Self::get_or_build));
/// eviction scans the entries, which is cheap at the few shapes a cache holds and runs only after
/// a build, which costs far more.
pub struct ExecCache<K, E> {
    slots: HashMap<K, Slot<E>>,
    capacity: NonZeroUsize,
    /// Counts lookups; never wraps in practice (2^64 lookups).
    clock: u64,
    stats: CacheStats,
}

/// The keys of `slots`, most recently used first.
fn by_recency<K, E>(slots: &HashMap<K, Slot<E>>) -> Vec<&K> {
    let mut keys: Vec<(&K, u64)> = slots.iter().map(|(k, s)| (k, s.last_used)).collect();
    keys.sort_by_key(|&(_, last_used)| std::cmp::Reverse(last_used));
    keys.into_iter().map(|(k, _)| k).collect()
}

impl<K, E> fmt::Debug for ExecCache<K, E>
where
    K: fmt::Debug,
{
    /// The keys (most recently used first), capacity and counters; executables are not printed.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ExecCache")
            .field("keys", &by_recency(&self.slots))
            .field("capacity", &self.capacity)
            .field("stats", &self.stats)
            .finish()
    }
}

impl<K: Eq + Hash + Clone, E> ExecCache<K, E> {
    /// An empty cache that keeps at most `capacity` executables.
    pub fn new(capacity: NonZeroUsize) -> Self {
        Self {
            slots: HashMap::with_capacity(capacity.get()),
            capacity,
            clock: 0,
            stats: CacheStats::default(),
        }
    }

    /// The next value of the clock: later lookups get larger values.
    fn tick(&mut self) -> u64 {
        self.clock += 1;
        self.clock
    }

    /// The executable for `key`, built with `build(key)` if there is none; it becomes the most
    /// recently used.
    ///
    /// On a miss with the cache full, the least recently used executable is dropped after `build`
    /// succeeds (launches of it may still be running: see the [module docs](self)). When `build`
    /// fails its error is returned and the cache is unchanged, apart from
    /// [`CacheStats::misses`] and [`CacheStats::failed_builds`].
    pub fn get_or_build<Er>(
        &mut self,
        key: &K,
        build: impl FnOnce(&K) -> Result<E, Er>,
    ) -> Result<&mut E, Er> {
        let now = self.tick();
        if self.slots.contains_key(key) {
            self.stats.hits += 1;
            // Looked up twice: the borrow checker does not yet accept returning a borrow from a
            // branch of a match on `get_mut` and then using the map in the other branch.
            let slot = self
                .slots
                .get_mut(key)
                .expect("present: `contains_key` said so and nothing removed it since");
            slot.last_used = now;
            return Ok(&mut slot.exec);
        }
        self.stats.misses += 1;
        let exec = match build(key) {
            Ok(exec) => exec,
            Err(e) => {
                self.stats.failed_builds += 1;
                return Err(e);
            }
        };
        if self.slots.len() >= self.capacity.get() {
            self.evict_least_recent();
        }
        let slot = self.slots.entry(key.clone()).or_insert(Slot {
            exec,
            last_used: now,
        });
        Ok(&mut slot.exec)
    }

    /// The executable for `key`, if it is cached; it becomes the most recently used. Counts a
    /// hit or a miss.
    pub fn get(&mut self, key: &K) -> Option<&mut E> {
        let now = self.tick();
        match self.slots.get_mut(key) {
            Some(slot) => {
                self.stats.hits += 1;
                slot.last_used = now;
                Some(&mut slot.exec)
            }
            None => {
                self.stats.misses += 1;
                None
            }
        }
    }

    /// Whether `key` is cached, without counting a lookup or changing the order of use.
    pub fn contains(&self, key: &K) -> bool {
        self.slots.contains_key(key)
    }

    /// Takes the executable for `key` out of the cache and gives it to the caller (not counted
    /// as an eviction).
    pub fn remove(&mut self, key: &K) -> Option<E> {
        self.slots.remove(key).map(|slot| slot.exec)
    }

    /// Drops every executable (not counted as evictions); the counters stay.
    pub fn clear(&mut self) {
        self.slots.clear();
    }

    /// How many executables are cached.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether no executable is cached.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// The most executables the cache keeps.
    pub fn capacity(&self) -> NonZeroUsize {
        self.capacity
    }

    /// The cached keys, most recently used first (the last one is evicted next).
    pub fn keys(&self) -> impl Iterator<Item = &K> + '_ {
        by_recency(&self.slots).into_iter()
    }

    /// The counters since the cache was made.
    pub fn stats(&self) -> CacheStats {
        self.stats
    }

    /// Drops the least recently used executable (the cache is not empty).
    fn evict_least_recent(&mut self) {
        let oldest = self
            .slots
            .iter()
            .min_by_key(|(_, slot)| slot.last_used)
            .map(|(key, _)| key.clone());
        if let Some(key) = oldest {
            // Dropped here, launches in flight or not: see the module docs for why that is sound.
            self.slots.remove(&key);
            self.stats.evictions += 1;
        }
    }
}

/// The power of two at least `n` (1 for 0): a bucket for a size, so that sizes up to twice apart
/// share one executable (padded up to the bucket). `None` above the largest power of two a
/// `usize` holds.
///
/// ```
/// use cudagraph_runtime::bucket_pow2;
/// assert_eq!(bucket_pow2(0), Some(1));
/// assert_eq!(bucket_pow2(5), Some(8));
/// assert_eq!(bucket_pow2(16), Some(16));
/// assert_eq!(bucket_pow2(usize::MAX), None);
/// ```
pub const fn bucket_pow2(n: usize) -> Option<usize> {
    n.checked_next_power_of_two()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::RefCell;
    use std::rc::Rc;

    /// A fake executable: records its key in `dropped` when dropped.
    #[derive(Debug)]
    struct Fake {
        key: u32,
        dropped: Rc<RefCell<Vec<u32>>>,
    }

    impl Drop for Fake {
        fn drop(&mut self) {
            self.dropped.borrow_mut().push(self.key);
        }
    }

    fn cache(capacity: usize) -> ExecCache<u32, Fake> {
        ExecCache::new(NonZeroUsize::new(capacity).unwrap())
    }

    /// `get_or_build` with a build that succeeds; returns whether it built.
    fn touch(c: &mut ExecCache<u32, Fake>, key: u32, dropped: &Rc<RefCell<Vec<u32>>>) -> bool {
        let mut built = false;
        let exec = c
            .get_or_build(&key, |&k| {
                built = true;
                Ok::<_, String>(Fake {
                    key: k,
                    dropped: dropped.clone(),
                })
            })
            .unwrap();
        assert_eq!(exec.key, key, "the executable built for the key");
        built
    }

    fn keys(c: &ExecCache<u32, Fake>) -> Vec<u32> {
        c.keys().copied().collect()
    }

    #[test]
    fn a_key_is_built_once_and_then_found() {
        let dropped = Rc::default();
        let mut c = cache(2);
        assert!(touch(&mut c, 1, &dropped));
        assert!(!touch(&mut c, 1, &dropped));
        assert!(!touch(&mut c, 1, &dropped));
        assert_eq!(c.len(), 1);
        assert_eq!(
            c.stats(),
            CacheStats {
                hits: 2,
                misses: 1,
                evictions: 0,
                failed_builds: 0
            }
        );
        assert!(dropped.borrow().is_empty());
    }

    #[test]
    fn the_least_recently_used_is_evicted_and_dropped() {
        let dropped = Rc::default();
        let mut c = cache(2);
        touch(&mut c, 1, &dropped);
        touch(&mut c, 4, &dropped);
        assert_eq!(keys(&c), [4, 1]);
        // Using 1 makes 4 the least recently used.
        touch(&mut c, 1, &dropped);
        assert_eq!(keys(&c), [1, 4]);
        assert!(touch(&mut c, 16, &dropped));
        assert_eq!(*dropped.borrow(), [4], "4 was the least recently used");
        assert_eq!(keys(&c), [16, 1]);
        assert_eq!(c.len(), 2, "never more than the capacity");
        // `get` counts as a use too.
        assert!(c.get(&1).is_some());
        assert!(touch(&mut c, 4, &dropped));
        assert_eq!(*dropped.borrow(), [4, 16]);
        assert_eq!(keys(&c), [4, 1]);
        assert_eq!(c.stats().evictions, 2);
    }

    #[test]
    fn an_interleaved_order_keeps_the_capacity_and_counts_everything() {
        let dropped = Rc::default();
        let mut c = cache(2);
        let order = [1, 4, 16, 1, 16, 4, 4, 1, 16, 16, 1, 4];
        let built: Vec<bool> = order.iter().map(|&k| touch(&mut c, k, &dropped)).collect();
        // 1 4 16(evicts 1) 1(evicts 4) 16 4(evicts 1) 4 1(evicts 16) 16(evicts 4) 16 1 4(evicts 16)
        assert_eq!(
            built,
            [true, true, true, true, false, true, false, true, true, false, false, true]
        );
        assert_eq!(*dropped.borrow(), [1, 4, 1, 16, 4, 16]);
        assert_eq!(keys(&c), [4, 1]);
        let stats = c.stats();
        assert_eq!((stats.hits, stats.misses, stats.evictions), (4, 8, 6));
        assert_eq!(stats.misses - stats.evictions, c.len() as u64);
        // A second round (the GPU test `tests/exec_cache.rs` runs both).
        for &k in &order {
            touch(&mut c, k, &dropped);
        }
        let stats = c.stats();
        assert_eq!((stats.hits, stats.misses, stats.evictions), (10, 14, 12));
        assert_eq!(keys(&c), [4, 1]);
    }

    #[test]
    fn a_failed_build_leaves_the_cache_unchanged() {
        let dropped = Rc::default();
        let mut c = cache(2);
        touch(&mut c, 1, &dropped);
        touch(&mut c, 4, &dropped);
        let before = keys(&c);
        let result = c.get_or_build(&16, |_| Err("out of memory"));
        assert_eq!(result.err(), Some("out of memory"));
        assert!(
            dropped.borrow().is_empty(),
            "nothing is evicted for a build that failed"
        );
        assert_eq!(keys(&c), before, "the order of use is unchanged too");
        assert!(!c.contains(&16));
        let stats = c.stats();
        assert_eq!(
            (stats.misses, stats.failed_builds, stats.evictions),
            (3, 1, 0)
        );
        // The next build of that key runs again, and evicts then.
        assert!(touch(&mut c, 16, &dropped));
        assert_eq!(*dropped.borrow(), [1]);
    }

    #[test]
    fn get_remove_and_clear() {
        let dropped = Rc::default();
        let mut c = cache(3);
        assert!(c.is_empty());
        assert!(c.get(&7).is_none());
        touch(&mut c, 7, &dropped);
        touch(&mut c, 8, &dropped);
        assert_eq!(c.get(&7).map(|e| e.key), Some(7));
        let taken = c.remove(&7).expect("cached");
        assert_eq!(taken.key, 7);
        assert!(
            dropped.borrow().is_empty(),
            "remove gives the executable back"
        );
        drop(taken);
        assert!(c.remove(&7).is_none());
        c.clear();
        assert!(c.is_empty());
        assert_eq!(*dropped.borrow(), [7, 8]);
        let stats = c.stats();
        assert_eq!((stats.hits, stats.misses, stats.evictions), (1, 3, 0));
        assert_eq!(c.capacity().get(), 3);
    }

    #[test]
    fn a_cache_of_one_replaces_its_executable() {
        let dropped = Rc::default();
        let mut c = cache(1);
        for k in [1, 2, 2, 3] {
            touch(&mut c, k, &dropped);
        }
        assert_eq!(keys(&c), [3]);
        assert_eq!(*dropped.borrow(), [1, 2]);
        assert_eq!(c.stats().evictions, 2);
    }

    #[test]
    fn the_debug_form_lists_keys_not_executables() {
        let dropped = Rc::default();
        let mut c = cache(2);
        touch(&mut c, 1, &dropped);
        touch(&mut c, 4, &dropped);
        let text = format!("{c:?}");
        assert!(text.contains("keys: [4, 1]"), "{text}");
        assert!(!text.contains("Fake"), "{text}");
    }

    #[test]
    fn buckets_are_powers_of_two() {
        let got: Vec<usize> = [0, 1, 2, 3, 4, 5, 9, 16, 17]
            .iter()
            .map(|&n| bucket_pow2(n).unwrap())
            .collect();
        assert_eq!(got, [1, 1, 2, 4, 4, 8, 16, 16, 32]);
        assert_eq!(
            bucket_pow2(1 << (usize::BITS - 1)),
            Some(1 << (usize::BITS - 1))
        );
        assert_eq!(bucket_pow2((1 << (usize::BITS - 1)) + 1), None);
    }
}
