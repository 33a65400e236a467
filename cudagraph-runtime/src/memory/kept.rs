//! What a node's work needs alive that is not memory (the graph a capture recorded, holding a
//! library's state for that work; a communicator), held as memory is.
//!
//! A node's memory lives as long as the graph's records and the executables' holdings keep it,
//! and is released only once the launches of every executable that held it are over (see
//! `alloc`). A [`Kept`] value rides the same way: an allocation of no bytes among the node's uses,
//! which conflicts with no other use, and whose drop drops the value after those launches.
//!
//! Not a CUDA user object, which would keep it alive the same way: CUDA tracks the user objects
//! an executable holds at every launch, at a cost in GPU time that a graph of short work feels
//! (see `capture::bare`, which copies captured nodes away from a library's user objects for
//! this reason).

use std::any::Any;
use std::sync::{Arc, Mutex};

use cudarc::driver::CudaStream;

use super::alloc::{AllocState, Allocation, Space};
use super::operand::{Hold, Use};

/// A value kept alive as long as the nodes whose uses hold it may run.
pub(crate) struct Kept {
    state: AllocState,
    /// Taken by the drop.
    value: Mutex<Option<Box<dyn Any + Send>>>,
}

impl Kept {
    /// `value`, to be kept by the node whose uses get [`Kept::use_of`].
    pub(crate) fn new(value: impl Send + 'static) -> Arc<Self> {
        Arc::new(Self {
            state: AllocState::default(),
            value: Mutex::new(Some(Box::new(value))),
        })
    }

    /// The use that keeps `kept` alive: no bytes, read only.
    pub(crate) fn use_of<'a>(kept: Arc<Self>) -> Use<'a> {
        let (start, end) = kept.range();
        Use {
            space: Space::Device,
            start,
            end,
            write: false,
            host_code: false,
            hold: Hold::Owned(kept),
        }
    }
}

impl Allocation for Kept {
    fn state(&self) -> &AllocState {
        &self.state
    }
    fn space(&self) -> Space {
        Space::Device
    }
    fn home(&self) -> Option<&Arc<CudaStream>> {
        // Not memory: no stream orders work on it, and launches wait for none.
        None
    }
    fn range(&self) -> (u64, u64) {
        // No bytes (no use conflicts with it), at an address of its own (holdings find their
        // allocations by address): its own, which no device allocation shares.
        let at = self as *const Self as u64;
        (at, at)
    }
}

impl Drop for Kept {
    /// Drops the value on the release thread, once every launch of the executables that held
    /// it is over (see `AllocState::drop_after_holders`).
    fn drop(&mut self) {
        let value = self
            .value
            .get_mut()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        self.state.drop_after_holders(value);
    }
}
