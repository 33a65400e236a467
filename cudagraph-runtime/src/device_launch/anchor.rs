//! The anchor that keeps a device-launchable executable alive for the graphs whose kernels may
//! launch it (see [`DeviceGraphHandle`](super::DeviceGraphHandle)).

use std::sync::{Arc, Mutex};

use cudarc::driver::CudaStream;

use super::footprint::Footprint;
use crate::exec::GraphExec;
use crate::memory::alloc::{AllocState, Allocation, Space};

/// What the graphs whose kernels are given a [`DeviceGraphHandle`] hold of the executable: an
/// allocation to the memory model (registered by their executables, released after their
/// launches), whose "memory" is the executable itself. Its drop destroys the executable only
/// once those launches have completed.
pub(crate) struct DeviceAnchor {
    pub(super) state: AllocState,
    /// The stream the executable was uploaded on (and is re-uploaded on after updates): the
    /// launches of graphs that launch it from the device wait for its work.
    pub(super) home: Arc<CudaStream>,
    /// The driver handle, as an address: the "range" the handle's uses name.
    pub(super) raw: u64,
    /// The executable once its [`DeviceGraphExec`] is dropped, until the launches that may
    /// launch it are over.
    pub(super) parked: Mutex<Option<GraphExec<'static>>>,
    /// What a launch of the version uploaded last uses: what the graphs whose kernels may
    /// launch it are checked against (`memory::hazard`). Replaced with the dependents, after
    /// each update that is uploaded.
    pub(super) footprint: Mutex<Arc<Footprint>>,
}

impl std::fmt::Debug for DeviceAnchor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DeviceAnchor")
            .field("raw", &format_args!("{:#x}", self.raw))
            .finish_non_exhaustive()
    }
}

impl DeviceAnchor {
    pub(crate) fn raw(&self) -> u64 {
        self.raw
    }

    /// Replaces the footprint (see the field).
    pub(super) fn set_footprint(&self, footprint: Arc<Footprint>) {
        *self.footprint.lock().unwrap_or_else(|e| e.into_inner()) = footprint;
    }

    /// What a launch of the version uploaded last uses (see the field).
    pub(crate) fn footprint(&self) -> Arc<Footprint> {
        self.footprint
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }
}

impl Allocation for DeviceAnchor {
    fn state(&self) -> &AllocState {
        &self.state
    }
    fn space(&self) -> Space {
        Space::Launch
    }
    fn home(&self) -> Option<&Arc<CudaStream>> {
        Some(&self.home)
    }
    fn range(&self) -> (u64, u64) {
        // No bytes: a handle conflicts with no memory use (what the launches use is its
        // footprint's).
        (self.raw, self.raw)
    }
    fn device_graph(&self) -> Option<&DeviceAnchor> {
        Some(self)
    }
}

impl Drop for DeviceAnchor {
    /// Destroys the executable once every launch that may launch it from the device has
    /// completed (waited for on the release thread); never before.
    fn drop(&mut self) {
        let exec = self
            .parked
            .get_mut()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        // Leaked if those launches cannot be known to be over: a kernel may still launch it.
        self.state.drop_after_holders(exec);
    }
}
