//! Host nodes: Rust closures called by the driver, with panics caught at the boundary.

use std::ffi::c_void;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use cudarc::driver::sys;

/// The closure type a host node runs.
pub type HostFn = Box<dyn FnMut() + Send + 'static>;

/// Where host nodes record a caught panic, for the executable to report.
#[derive(Debug, Default)]
pub(crate) struct PanicSlot {
    raised: AtomicBool,
    first: Mutex<Option<(String, String)>>,
}

impl PanicSlot {
    fn record(&self, node: &str, message: String) {
        let mut first = self.first.lock().unwrap_or_else(|e| e.into_inner());
        if first.is_none() {
            *first = Some((node.to_owned(), message));
        }
        self.raised.store(true, Ordering::Release);
    }

    /// Whether a panic awaits reporting (one relaxed load: cheap on the launch path).
    #[inline]
    pub(crate) fn raised(&self) -> bool {
        self.raised.load(Ordering::Relaxed)
    }

    /// The first recorded panic, as (node, message), clearing the slot.
    pub(crate) fn take(&self) -> Option<(String, String)> {
        let mut first = self.first.lock().unwrap_or_else(|e| e.into_inner());
        self.raised.store(false, Ordering::Release);
        first.take()
    }
}

/// What a host node's `userData` points to. Owned by a user object (or by the executable, for
/// closures set by update), so it outlives every launch that may call it.
pub(crate) struct HostCall {
    // A Mutex, not a bare FnMut: clones of a graph share this call, and their executables may run
    // at the same time.
    f: Mutex<HostFn>,
    node: String,
    panics: Arc<PanicSlot>,
}

impl HostCall {
    pub(crate) fn new(f: HostFn, node: String, panics: Arc<PanicSlot>) -> Box<Self> {
        Box::new(Self {
            f: Mutex::new(f),
            node,
            panics,
        })
    }

    pub(crate) fn raw_params(call: &HostCall) -> sys::CUDA_HOST_NODE_PARAMS {
        sys::CUDA_HOST_NODE_PARAMS {
            fn_: Some(run_host_call),
            userData: call as *const HostCall as *mut c_void,
        }
    }
}

unsafe extern "C" fn run_host_call(data: *mut c_void) {
    // SAFETY: `data` is the `HostCall` registered with the node, kept alive by its owner for as long
    // as the node may run.
    let call = unsafe { &*(data as *const HostCall) };
    // Unwinding into the driver is undefined behaviour: catch it and report it at the next launch.
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        let mut f = call.f.lock().unwrap_or_else(|e| e.into_inner());
        f()
    }));
    if let Err(payload) = outcome {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "non-string panic payload".into());
        call.panics.record(&call.node, message);
        // Dropping the payload could itself panic; leak it instead of risking an unwind here.
        std::mem::forget(payload);
    }
}

/// A shareable host-node closure, compared by identity: two `HostCallback`s are equal when they
/// are clones of one another. Use it as a param type for host nodes whose closure captures state.
#[derive(Clone)]
pub struct HostCallback(Arc<dyn Fn() + Send + Sync + 'static>);

impl HostCallback {
    /// Wraps `f`.
    pub fn new(f: impl Fn() + Send + Sync + 'static) -> Self {
        Self(Arc::new(f))
    }

    /// Calls the closure.
    pub fn call(&self) {
        (self.0)()
    }
}

impl PartialEq for HostCallback {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for HostCallback {}

impl std::fmt::Debug for HostCallback {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "HostCallback({:p})", Arc::as_ptr(&self.0).cast::<()>())
    }
}
