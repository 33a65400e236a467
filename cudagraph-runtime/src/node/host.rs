//! Host nodes: Rust closures called by the driver, with panics caught at the boundary, and the
//! host buffers they read and write.

use std::ffi::c_void;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use cudarc::driver::sys;

use super::{node_params, NodeKind, NodeParams, NodeUpdate};
use crate::ambient::InHostNode;
use crate::driver::result;
use crate::error::{Error, Result};
use crate::memory::operand::Use;
use crate::memory::HostBuffer;

handle!(
    /// A host node.
    HostNode
);

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
}

/// A host node's parameters: the call the driver makes, with the `HostCall` it gets. Whoever
/// adds or updates the node keeps that `HostCall` alive as long as a launch may call it.
#[derive(Debug)]
pub(crate) struct HostParams {
    raw: sys::CUDA_HOST_NODE_PARAMS,
}

impl HostParams {
    /// The function the driver calls and what it calls it with (`cuLaunchHostFunc`'s).
    pub(crate) fn call(&self) -> (unsafe extern "C" fn(*mut c_void), *mut c_void) {
        (run_host_call, self.raw.userData)
    }

    /// The parameters that make the driver run `call`.
    pub(crate) fn of(call: &HostCall) -> Self {
        Self {
            raw: sys::CUDA_HOST_NODE_PARAMS {
                fn_: Some(run_host_call),
                userData: call as *const HostCall as *mut c_void,
            },
        }
    }
}

impl NodeParams for HostParams {
    const KIND: NodeKind = NodeKind::Host;

    #[inline]
    fn with_raw<R>(&mut self, f: impl FnOnce(&mut sys::CUgraphNodeParams) -> R) -> R {
        let mut p = node_params(sys::CUgraphNodeType::CU_GRAPH_NODE_TYPE_HOST);
        // Field by field: newer CUDA versions add fields, left zero (their defaults).
        p.__bindgen_anon_1.host.fn_ = self.raw.fn_;
        p.__bindgen_anon_1.host.userData = self.raw.userData;
        f(&mut p)
    }
}

impl NodeUpdate for HostParams {
    #[inline]
    unsafe fn update(&mut self, exec: sys::CUgraphExec, node: sys::CUgraphNode) -> Result<()> {
        // SAFETY: the caller's promise; the `HostCall` outlives the launches that may call it
        // (this type's contract).
        unsafe { result::exec::host_node_set_params(exec, node, &self.raw) }
    }
}

unsafe extern "C" fn run_host_call(data: *mut c_void) {
    // SAFETY: `data` is the `HostCall` registered with the node, kept alive by its owner for as long
    // as the node may run.
    let call = unsafe { &*(data as *const HostCall) };
    let _inside = InHostNode::enter();
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

// ---------------------------------------------------------------------------------------------
// Host buffers a host node reads and writes.

mod sealed {
    pub trait Sealed {}
}

/// Host buffers a host node reads (`&HostBuffer<T>`) or writes (`&mut HostBuffer<T>`), one or a
/// tuple of up to four. The node's closure gets `&[T]` or `&mut [T]` for each, in order.
///
/// The node is ordered after the copies that write those buffers, and before the copies that
/// read them, by the graph's edges: adding a node whose buffers another node may use at the same
/// time (no path between them, one of the two writing) is an error, as is an executable update
/// that would create such a pair. Guards ([`HostBuffer::read`]) wait for the launches, and an
/// executable whose host nodes use a buffer cannot be made while another executable may write it
/// (or the other way round): host code never sees these buffers while anything else may write
/// them.
///
/// `&mut` marks a buffer the closure writes; the handle itself is not changed.
pub trait HostViews: sealed::Sealed {
    /// What the closure gets for the buffers.
    type Views<'v>;
    /// The buffers' addresses, carried to the driver thread.
    #[doc(hidden)]
    type Raw: Send + 'static;
    /// The buffers as uses by host code.
    #[doc(hidden)]
    fn uses(&self, out: &mut Vec<Use<'static>>);
    #[doc(hidden)]
    fn raw(&self) -> Self::Raw;
    /// # Safety
    /// Only inside the node's call, when the graph's ordering gives it the memory.
    #[doc(hidden)]
    unsafe fn views(raw: &mut Self::Raw) -> Self::Views<'_>;
}

/// A host buffer's elements, as a raw pointer and length carried to the driver thread.
#[doc(hidden)]
#[derive(Debug)]
pub struct RawView<T> {
    ptr: *mut T,
    len: usize,
}

// SAFETY: only an address; the memory is reached in `views`, under the graph's ordering, and the
// element type is `Send + Sync` wherever a `RawView` is made.
unsafe impl<T: Send + Sync> Send for RawView<T> {}

impl<T: Send + Sync + 'static> sealed::Sealed for &HostBuffer<T> {}
impl<T: Send + Sync + 'static> HostViews for &HostBuffer<T> {
    type Views<'v> = &'v [T];
    type Raw = RawView<T>;
    fn uses(&self, out: &mut Vec<Use<'static>>) {
        out.push(self.use_of(false, true));
    }
    fn raw(&self) -> RawView<T> {
        RawView {
            ptr: self.ptr(),
            len: self.len(),
        }
    }
    unsafe fn views(raw: &mut RawView<T>) -> &[T] {
        // SAFETY: the caller's promise; the memory holds `len` initialized `T`s.
        unsafe { std::slice::from_raw_parts(raw.ptr, raw.len) }
    }
}

impl<T: Send + Sync + 'static> sealed::Sealed for &mut HostBuffer<T> {}
impl<T: Send + Sync + 'static> HostViews for &mut HostBuffer<T> {
    type Views<'v> = &'v mut [T];
    type Raw = RawView<T>;
    fn uses(&self, out: &mut Vec<Use<'static>>) {
        out.push(self.use_of(true, true));
    }
    fn raw(&self) -> RawView<T> {
        RawView {
            ptr: self.ptr(),
            len: self.len(),
        }
    }
    unsafe fn views(raw: &mut RawView<T>) -> &mut [T] {
        // SAFETY: the caller's promise; the memory holds `len` initialized `T`s, and no other
        // view of the node overlaps it (checked when the node is added).
        unsafe { std::slice::from_raw_parts_mut(raw.ptr, raw.len) }
    }
}

/// A host buffer a declared host node writes (`host(f, mut b)` in `cuda_graph!`): the write
/// marker, owning a clone of the param's handle.
#[doc(hidden)]
#[derive(Debug)]
pub struct Writes<T: 'static>(pub(crate) HostBuffer<T>);

impl<T: Send + Sync + 'static> sealed::Sealed for Writes<T> {}
impl<T: Send + Sync + 'static> HostViews for Writes<T> {
    type Views<'v> = &'v mut [T];
    type Raw = RawView<T>;
    fn uses(&self, out: &mut Vec<Use<'static>>) {
        out.push(self.0.use_of(true, true));
    }
    fn raw(&self) -> RawView<T> {
        RawView {
            ptr: self.0.ptr(),
            len: self.0.len(),
        }
    }
    unsafe fn views(raw: &mut RawView<T>) -> &mut [T] {
        // SAFETY: as for `&mut HostBuffer<T>`.
        unsafe { std::slice::from_raw_parts_mut(raw.ptr, raw.len) }
    }
}

macro_rules! tuple_views {
    ($($v:ident $i:tt),*) => {
        impl<$($v: HostViews),*> sealed::Sealed for ($($v,)*) {}
        impl<$($v: HostViews),*> HostViews for ($($v,)*) {
            type Views<'v> = ($($v::Views<'v>,)*);
            type Raw = ($($v::Raw,)*);
            fn uses(&self, out: &mut Vec<Use<'static>>) {
                $(self.$i.uses(out);)*
            }
            fn raw(&self) -> Self::Raw {
                ($(self.$i.raw(),)*)
            }
            unsafe fn views(raw: &mut Self::Raw) -> Self::Views<'_> {
                // SAFETY: the caller's promise, for each buffer.
                unsafe { ($($v::views(&mut raw.$i),)*) }
            }
        }
    };
}
tuple_views!(A 0);
tuple_views!(A 0, B 1);
tuple_views!(A 0, B 1, C 2);
tuple_views!(A 0, B 1, C 2, D 3);

/// The closure of a host node with buffers `V`, as a plain host-node closure. `uses` gets the
/// buffers as uses by host code.
pub(crate) fn with_views<V: HostViews>(
    views: V,
    mut f: impl for<'v> FnMut(V::Views<'v>) + Send + 'static,
    uses: &mut Vec<Use<'static>>,
) -> HostFn {
    views.uses(uses);
    let mut raw = views.raw();
    Box::new(move || {
        // SAFETY: called only as the node's closure; the node's uses were checked against every
        // other use of the memory (in its graph, by other executables, by guards).
        f(unsafe { V::views(&mut raw) })
    })
}

/// Refuses a host node's buffers (`uses`) when two overlap and one is written: the closure would
/// get a `&mut` slice aliasing another. `node` names the node.
pub(crate) fn check_views_apart(uses: &[Use<'_>], node: impl FnOnce() -> String) -> Result<()> {
    for (i, a) in uses.iter().enumerate() {
        if uses[..i].iter().any(|b| a.conflicts_with(b)) {
            return Err(Error::Invalid {
                node: node(),
                reason: "two of the host node's buffers overlap and one is written: the \
                         closure would get a `&mut` slice aliasing another slice"
                    .into(),
            });
        }
    }
    Ok(())
}
