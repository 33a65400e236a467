//! Graph allocations that outlive a launch: the ones a graph allocates and does not free.
//!
//! After a launch such an allocation is live until something frees it, and CUDA refuses to
//! launch the executable again until then (`CUDA_ERROR_INVALID_VALUE`), unless it was
//! instantiated with `AUTO_FREE_ON_LAUNCH`, whose launches free the previous launch's
//! allocations first ([graph memory nodes]). The executable keeps one [`Outliving`] record per
//! such allocation and enforces, before each launch:
//!
//! - without auto-free: the last launch's allocation was taken out as a
//!   [`DeviceBuffer`](crate::DeviceBuffer) ([`GraphExec::take_allocation`]) and its free is
//!   made: cudarc's (`cuMemFreeAsync` on the stream it was taken on, once the buffer is gone and
//!   the launches of the executables that used it are ordered before), or a later graph's free
//!   node's (`memory::adopted`, which orders that stream after the free); a launch on another
//!   stream first waits for that stream, which the driver does not order by itself. A buffer
//!   gone is not enough: its free may still be on its way (on the release thread, while its
//!   stream is being captured, say), and a launch on another stream ordered after that stream
//!   before the free is enqueued there would allocate the addresses unordered after it, and after
//!   the launches it waits for;
//! - with auto-free: a live allocation needs nothing (the launch frees it first; it is read
//!   only through `&self` methods, so no read can overlap that launch); one taken out as a
//!   buffer is as without auto-free: the launch waits until the buffer is gone (freed by
//!   cudarc, or by a later graph's free node), since it would allocate the same addresses
//!   again. (CUDA's auto-free frees only what is still unfreed.)
//!
//! An executable dropped with an allocation still live (not taken) frees it, ordered after its
//! last launch, so nothing leaks.
//!
//! [graph memory nodes]: https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#graph-memory-nodes
//! [`GraphExec::take_allocation`]: crate::GraphExec::take_allocation

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use cudarc::driver::{sys, CudaStream};

use super::fence::EventCell;
use crate::driver::named;
use crate::error::{Error, Result};

/// Where one outliving allocation stands.
enum State {
    /// No launch has made it yet (or the last one's was freed).
    Free,
    /// Made by the last launch, on this stream, and not taken.
    Live(Arc<CudaStream>),
    /// Taken out as a buffer, whose memory is freed on `home` (by cudarc, or by another graph's
    /// free node with `home` ordered after it); `freed` is set once that free is made.
    Taken {
        freed: Arc<AtomicBool>,
        home: Arc<CudaStream>,
    },
}

/// One allocation a graph does not free.
struct Record {
    /// The alloc node.
    node: usize,
    addr: sys::CUdeviceptr,
    state: State,
}

/// An executable's outliving allocations.
pub(crate) struct Outliving {
    records: Vec<Record>,
    auto_free: bool,
}

impl Outliving {
    /// The records for `allocations` (alloc node, address); `None` when there are none.
    pub(crate) fn new(
        allocations: Vec<(usize, sys::CUdeviceptr)>,
        auto_free: bool,
    ) -> Option<Box<Self>> {
        (!allocations.is_empty()).then(|| {
            Box::new(Self {
                records: allocations
                    .into_iter()
                    .map(|(node, addr)| Record {
                        node,
                        addr,
                        state: State::Free,
                    })
                    .collect(),
                auto_free,
            })
        })
    }

    /// Refuses a launch on `stream` while an allocation of the last launch is live, and orders
    /// the launch after the frees of taken buffers made on other streams.
    pub(crate) fn before_launch(
        &mut self,
        stream: &Arc<CudaStream>,
        name_of: &dyn Fn(usize) -> String,
    ) -> Result<()> {
        for record in &mut self.records {
            match &record.state {
                State::Free => {}
                // The launch frees it first.
                State::Live(_) if self.auto_free => {}
                State::Live(_) => {
                    return Err(Error::Allocation {
                        node: "launch".into(),
                        allocation: format!("`{}`", name_of(record.node)),
                        reason: "the allocation the last launch made is still live, and CUDA \
                                 launches a graph again only once it is freed: take it with \
                                 `GraphExec::take_allocation` (then drop or keep the buffer), \
                                 or instantiate with `InstantiateFlags::AUTO_FREE_ON_LAUNCH`"
                            .into(),
                    });
                }
                State::Taken { freed, home } => {
                    // Freed: cudarc's free enqueued on `home`, or another graph's free node's
                    // launch with `home` ordered after it. Not merely the buffer gone: its free
                    // may still be on its way (see the module docs).
                    if !freed.load(Ordering::Acquire) {
                        return Err(Error::Allocation {
                            node: "launch".into(),
                            allocation: format!("`{}`", name_of(record.node)),
                            reason: "the buffer taken from the last launch is still alive, or \
                                     its memory is not freed yet (its stream is being captured, \
                                     or the release thread is about to free it), and the next \
                                     launch would allocate the same addresses: drop it first \
                                     (copy out what you need), or launch the graph whose free \
                                     node frees it, and launch again once it is freed"
                                .into(),
                        });
                    }
                    if !Arc::ptr_eq(home, stream) {
                        // cudarc freed it on `home`; the driver does not order a relaunch on
                        // another stream after that free.
                        let marker = EventCell::default();
                        marker.record(home)?;
                        marker.order_before(stream)?;
                    }
                    // The record stays `Taken` until the launch is made (`after_launch`): a
                    // launch the driver refuses (into a stream being captured, say) would leave
                    // the next one, on another stream, unordered after the free.
                }
            }
        }
        Ok(())
    }

    /// Marks every allocation live after a launch on `stream` (made: one that failed leaves
    /// the records as [`Outliving::before_launch`] found them).
    pub(crate) fn after_launch(&mut self, stream: &Arc<CudaStream>) {
        for record in &mut self.records {
            record.state = State::Live(stream.clone());
        }
    }

    /// The live allocation of alloc node `node` (its address and the stream of the launch that
    /// made it), for reading it.
    pub(crate) fn live(
        &self,
        node: usize,
        name_of: &dyn Fn(usize) -> String,
    ) -> Result<(sys::CUdeviceptr, &Arc<CudaStream>)> {
        let record = self.record(node, name_of)?;
        match &record.state {
            State::Live(stream) => Ok((record.addr, stream)),
            State::Free => Err(not_live(record.node, name_of, "no launch has made it yet")),
            State::Taken { .. } => Err(not_live(
                record.node,
                name_of,
                "it was taken out of the executable as a buffer: use the buffer",
            )),
        }
    }

    /// Hands the live allocation of alloc node `node` over: `wrap` turns its address, the
    /// launch's stream and a flag into a buffer, which sets the flag once its memory is freed.
    pub(crate) fn take<B>(
        &mut self,
        node: usize,
        name_of: &dyn Fn(usize) -> String,
        wrap: impl FnOnce(sys::CUdeviceptr, &Arc<CudaStream>, Arc<AtomicBool>) -> B,
    ) -> Result<B> {
        let (addr, stream) = self.live(node, name_of)?;
        let stream = stream.clone();
        let freed = Arc::new(AtomicBool::new(false));
        let buffer = wrap(addr, &stream, freed.clone());
        let record = self.record_mut(node);
        record.state = State::Taken {
            freed,
            home: stream,
        };
        Ok(buffer)
    }

    fn record(&self, node: usize, name_of: &dyn Fn(usize) -> String) -> Result<&Record> {
        self.records
            .iter()
            .find(|r| r.node == node)
            .ok_or_else(|| Error::Allocation {
                node: "take_allocation".into(),
                allocation: format!("`{}`", name_of(node)),
                reason: "the graph frees this allocation itself, so it does not outlive a launch"
                    .into(),
            })
    }

    fn record_mut(&mut self, node: usize) -> &mut Record {
        self.records
            .iter_mut()
            .find(|r| r.node == node)
            .expect("found by `live`")
    }

    /// Whether a live allocation's stream (where [`Outliving::free_live`] would free it) is
    /// being captured now.
    pub(crate) fn live_on_capturing_stream(&self) -> bool {
        self.records.iter().any(|r| match &r.state {
            State::Live(stream) => super::fence::is_capturing(stream).unwrap_or(false),
            _ => false,
        })
    }

    /// Frees the allocations still live (the executable is going away): `cuMemFreeAsync` on the
    /// stream of the launch that made them, so after that launch and anything ordered before.
    pub(crate) fn free_live(&mut self) -> Result<()> {
        let mut result = Ok(());
        for record in &mut self.records {
            if let State::Live(stream) = &record.state {
                // SAFETY: a live graph allocation; nothing can use it once its executable is gone
                // (reads go through `&GraphExec`), and the free is ordered after its launch.
                let freed = named("cuMemFreeAsync", unsafe {
                    cudarc::driver::result::free_async(record.addr, stream.cu_stream())
                });
                result = result.and(freed);
                record.state = State::Free;
            }
        }
        result
    }
}

fn not_live(node: usize, name_of: &dyn Fn(usize) -> String, why: &str) -> Error {
    Error::Allocation {
        node: "read_allocation".into(),
        allocation: format!("`{}`", name_of(node)),
        reason: format!("the allocation is not live: {why}"),
    }
}
