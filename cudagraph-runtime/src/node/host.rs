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

/// The panic slots a graph or an executable reports from.
///
/// Its own slot, shared by the host closures it installs itself, is made with the first of them;
/// the others belong to closures it runs from elsewhere (child graphs, update sources). Empty, it
/// is a single null pointer: most graphs have no host node, and graphs are moved and rebuilt in
/// hot loops, where a smaller `Graph` is a cheaper one.
#[derive(Debug, Clone, Default)]
pub(crate) struct PanicWatch(Option<Box<Watched>>);

#[derive(Debug, Clone, Default)]
struct Watched {
    own: Option<Arc<PanicSlot>>,
    /// Every slot watched, `own` included.
    slots: Vec<Arc<PanicSlot>>,
}

impl PanicWatch {
    /// The slots watched.
    #[inline]
    pub(crate) fn slots(&self) -> &[Arc<PanicSlot>] {
        self.0.as_ref().map_or(&[], |w| &w.slots)
    }

    /// The slot for closures installed here, made on first use.
    pub(crate) fn own_slot(&mut self) -> Arc<PanicSlot> {
        let watched = self.0.get_or_insert_with(Default::default);
        if let Some(own) = &watched.own {
            return own.clone();
        }
        let own = Arc::new(PanicSlot::default());
        watched.slots.push(own.clone());
        watched.own.insert(own).clone()
    }

    /// Also watches `slots` (each once).
    #[inline]
    pub(crate) fn watch(&mut self, slots: &[Arc<PanicSlot>]) {
        if !slots.is_empty() {
            self.watch_more(slots);
        }
    }

    fn watch_more(&mut self, slots: &[Arc<PanicSlot>]) {
        let watched = self.0.get_or_insert_with(Default::default);
        for slot in slots {
            if !watched.slots.iter().any(|s| Arc::ptr_eq(s, slot)) {
                watched.slots.push(slot.clone());
            }
        }
    }

    /// Watches `slots` instead of the slots watched so far (see [`PanicWatch::unwatch`] for
    /// those that stay): for when the closures that ran here have all been replaced.
    pub(crate) fn watch_instead(&mut self, slots: &[Arc<PanicSlot>]) {
        self.unwatch(|_| true);
        self.watch(slots);
    }

    /// Stops watching the slots `gone` picks, once their closures no longer run here. The own
    /// slot stays, and so does any slot holding a panic not yet reported.
    #[inline]
    pub(crate) fn unwatch(&mut self, mut gone: impl FnMut(&Arc<PanicSlot>) -> bool) {
        if let Some(watched) = &mut self.0 {
            let own = watched.own.clone();
            watched.slots.retain(|s| {
                s.raised() || own.as_ref().is_some_and(|o| Arc::ptr_eq(o, s)) || !gone(s)
            });
        }
    }

    /// The first panic caught since the last report, as (node, message), clearing its slot.
    #[inline]
    pub(crate) fn take_first(&self) -> Option<(String, String)> {
        self.slots()
            .iter()
            .filter(|slot| slot.raised())
            .find_map(|slot| slot.take())
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
