//! What a [`scope`](crate::scope) waits for when it ends: the completion markers of the
//! executables made from its graphs, waited for on the host (see `crate::scope`).

use std::sync::{Arc, Mutex};

use super::fence::Fence;
use crate::driver::is_capture_code;
use crate::error::Error;

/// The executables made in a scope, by their completion markers: what the scope waits for.
#[derive(Debug, Default)]
pub(crate) struct Registry {
    fences: Mutex<Vec<Arc<Fence>>>,
}

impl Registry {
    pub(crate) fn len(&self) -> usize {
        self.lock().len()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Arc<Fence>>> {
        self.fences.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Adds the executable whose launches `fence` marks.
    pub(crate) fn enlist(&self, fence: &Arc<Fence>) {
        let mut fences = self.lock();
        if !fences.iter().any(|f| Arc::ptr_eq(f, fence)) {
            fences.push(fence.clone());
        }
    }

    /// Waits until every launch of every enlisted executable has completed.
    pub(crate) fn wait_all(&self) {
        let fences = std::mem::take(&mut *self.lock());
        for fence in fences {
            wait_for(&fence);
        }
    }
}

/// Waits until every launch marked by `fence` so far has completed. When the latest launch's
/// stream is being captured (by another thread: no marker can be recorded there meanwhile), waits
/// for the capture to end; a failure of any other kind means the context is lost and runs
/// nothing any more.
fn wait_for(fence: &Fence) {
    loop {
        match fence.mark() {
            Ok(false) => return, // never launched
            Ok(true) => {}
            Err(Error::Capturing { .. }) => {
                std::thread::sleep(std::time::Duration::from_millis(1));
                continue;
            }
            Err(_) => return,
        }
        match fence.done().wait_host() {
            Err(Error::Driver { source, .. }) if is_capture_code(source.0) => {
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
            _ => return,
        }
    }
}
