//! CUDA user objects: Rust values whose lifetime the driver tracks ([user objects] in the CUDA
//! Programming Guide).
//!
//! [user objects]: https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#cuda-user-objects
//!
//! A value moved into a graph lives until the graph, every executable instantiated from it and
//! every launch of those has let go of it. CUDA then calls a destructor callback on one of its own
//! threads, where calling CUDA is illegal; so the callback only hands the value to a thread this
//! crate owns (the *reaper*), which drops it. A value whose `Drop` frees CUDA memory is thus safe to
//! hand over.

use std::any::Any;
use std::ffi::c_void;

use cudarc::driver::sys;

use crate::driver::result;
use crate::error::{Error, Result};
use crate::reaper;

/// A reference to a CUDA user object that owns a Rust value.
///
/// Dropping it releases this reference; the value is dropped (on the reaper thread) once the last
/// reference, held here or by graphs, is gone.
#[derive(Debug)]
pub struct UserObject {
    raw: sys::CUuserObject,
}

// SAFETY: a user object reference may be released from any thread; the value it owns is `Send`.
unsafe impl Send for UserObject {}

type Payload = Box<dyn Any + Send>;

unsafe extern "C" fn destroy_on_reaper(data: *mut c_void) {
    // SAFETY: `data` is the `Box<Payload>` leaked in `UserObject::new`; CUDA calls this once.
    let payload: Box<Payload> = unsafe { Box::from_raw(data.cast()) };
    reaper::drop_later(*payload);
}

impl UserObject {
    /// Moves `value` into a new user object, holding one reference to it.
    pub fn new<T: Send + 'static>(value: T) -> Result<Self> {
        // Start the reaper now, not inside a driver callback; without it there is nowhere safe to
        // drop the value later.
        if !reaper::start() {
            return Err(Error::Invalid {
                node: "<user object>".into(),
                reason: "the thread that drops user-object values could not be started".into(),
            });
        }
        let data = Box::into_raw(Box::new(Box::new(value) as Payload));
        // SAFETY: `data` is a valid leaked box that the destructor reclaims, once.
        let created = unsafe { result::user_object::create(data.cast(), Some(destroy_on_reaper)) };
        let raw = created.inspect_err(|_| {
            // SAFETY: the driver did not take `data`, so it is still ours.
            drop(unsafe { Box::from_raw(data) });
        })?;
        Ok(Self { raw })
    }

    /// The raw handle.
    pub fn raw(&self) -> sys::CUuserObject {
        self.raw
    }

    /// Moves this reference into `graph` (`cuGraphRetainUserObject` with `CU_GRAPH_USER_OBJECT_MOVE`).
    pub(crate) fn move_into(self, graph: sys::CUgraph) -> Result<()> {
        // SAFETY: `graph` is a live graph; the reference we hold is transferred, so we forget self.
        unsafe { result::graph::move_user_object(graph, self.raw) }?;
        std::mem::forget(self);
        Ok(())
    }
}

impl Clone for UserObject {
    /// Another reference to the same object.
    fn clone(&self) -> Self {
        // SAFETY: `raw` is live while we hold a reference. Retain cannot fail on a live object.
        let _ = unsafe { sys::cuUserObjectRetain(self.raw, 1) };
        Self { raw: self.raw }
    }
}

impl Drop for UserObject {
    fn drop(&mut self) {
        // SAFETY: we hold one reference and give it up. Nothing to report if it fails: the handle
        // was live, so failure means the driver is already gone, and the value with it.
        let _ = unsafe { sys::cuUserObjectRelease(self.raw, 1) };
    }
}
