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

use std::ffi::c_void;
use std::sync::Arc;

use cudarc::driver::sys;

use crate::ambient::{must_defer_releases, refuse_in_host_node};
use crate::driver::result;
use crate::error::{Error, Result};
use crate::reaper::{self, Payload};

/// A reference to a CUDA user object that owns a Rust value.
///
/// Dropping it releases this reference; the value is dropped (on the reaper thread) once the last
/// reference, held here or by graphs, is gone. Clones share one driver reference, so cloning and
/// dropping a clone call no driver function (a host node may do either).
#[derive(Debug, Clone)]
pub struct UserObject {
    held: Arc<Reference>,
}

/// One reference the driver counts, released when dropped.
#[derive(Debug)]
struct Reference(sys::CUuserObject);

// SAFETY: a user object reference may be released from any thread; the value it owns is `Send`.
unsafe impl Send for Reference {}
// SAFETY: `&Reference` only reads the handle.
unsafe impl Sync for Reference {}

impl Drop for Reference {
    fn drop(&mut self) {
        if must_defer_releases() {
            // A host node (or a capture closure) may not call the driver: the release thread
            // gives the reference up instead.
            reaper::drop_later(Box::new(Reference(self.0)));
            return;
        }
        // SAFETY: we hold one reference and give it up. Nothing to report if it fails: the handle
        // was live, so failure means the driver is already gone, and the value with it.
        let _ = unsafe { sys::cuUserObjectRelease(self.0, 1) };
    }
}

unsafe extern "C" fn destroy_on_reaper(data: *mut c_void) {
    // SAFETY: `data` is the `Box<Payload>` leaked in `UserObject::new`; CUDA calls this once.
    let payload: Box<Payload> = unsafe { Box::from_raw(data.cast()) };
    reaper::drop_later(payload);
}

impl UserObject {
    /// Moves `value` into a new user object, holding one reference to it.
    pub fn new<T: Send + 'static>(value: T) -> Result<Self> {
        refuse_in_host_node("UserObject::new")?;
        // Start the reaper now, not inside a driver callback; without it there is nowhere safe to
        // drop the value later.
        if !reaper::start() {
            return Err(Error::Invalid {
                node: "<user object>".into(),
                reason: "the thread that drops user-object values could not be started".into(),
            });
        }
        let data = Box::into_raw(Box::new(Payload::new(Box::new(value))));
        // SAFETY: `data` is a valid leaked box that the destructor reclaims, once.
        let created = unsafe { result::user_object::create(data.cast(), Some(destroy_on_reaper)) };
        let raw = created.inspect_err(|_| {
            // SAFETY: the driver did not take `data`, so it is still ours.
            drop(unsafe { Box::from_raw(data) });
        })?;
        Ok(Self {
            held: Arc::new(Reference(raw)),
        })
    }

    /// The raw handle.
    pub fn raw(&self) -> sys::CUuserObject {
        self.held.0
    }

    /// Gives `graph` a reference (`cuGraphRetainUserObject`): this one, moved, when no clone
    /// shares it; otherwise a new one.
    pub(crate) fn move_into(self, graph: sys::CUgraph) -> Result<()> {
        match Arc::try_unwrap(self.held) {
            Ok(reference) => {
                // SAFETY: `graph` is a live graph; the reference we hold is transferred.
                unsafe { result::graph::retain_user_object(graph, reference.0, true) }?;
                std::mem::forget(reference);
            }
            Err(shared) => {
                // SAFETY: `graph` is a live graph and the object is live (`shared` holds it).
                unsafe { result::graph::retain_user_object(graph, shared.0, false) }?;
            }
        }
        Ok(())
    }
}
