//! Memory operands: what a node's memory argument becomes (an address range, how it is used, and
//! what keeps it alive), and the traits saying which values can be given as one.
//!
//! The traits' docs ([`DeviceSrc`]) list which values implement them.
//!
//! Owned buffers are kept alive by the graph; cudarc borrows make the graph borrow them (its
//! lifetime `'a`); raw pointers come with the `unsafe` promise of their `from_raw`.

use std::marker::PhantomData;
use std::sync::Arc;

use cudarc::driver::{
    CudaSlice, CudaStream, CudaView, CudaViewMut, DevicePtr, DevicePtrMut, DeviceSlice,
    PinnedHostSlice, ValidAsZeroBits,
};

use super::alloc::{Allocation, Space};
use super::fence::{refuse_capturing_stream, without_stored_error};
use crate::error::{Error, Result};

/// What keeps the memory of a [`Use`] valid.
#[derive(Debug, Clone)]
pub enum Hold<'a> {
    /// Nothing: the `unsafe` promise made when the raw pointer was created.
    Raw,
    /// A reference to an owned allocation.
    Owned(Arc<dyn Allocation>),
    /// An allocation made by an alloc node of the graph (family `family`, its allocation number
    /// `slot`): the graph's own rules order its uses (see `node::mem`).
    Graph {
        /// The graph family whose alloc node made it.
        family: u64,
        /// Its index among that graph's allocations.
        slot: u32,
    },
    /// Not memory: a conditional handle given to a kernel, which only the graph whose handles
    /// have scope `scope` (a graph and its conditional bodies) may set.
    Handle {
        /// The scope of the handle.
        scope: u64,
    },
    /// A graph's indirect value (see `crate::indirect`): the current block of block `block`,
    /// which the graph that made it keeps alive, and which only its nodes ordered after its
    /// fetch node may read.
    Indirect {
        /// The block's identity.
        block: u64,
    },
    /// Memory of a capture under way, valid only inside the graph that capture makes (an
    /// allocation made in the capture, or memory given to the capture and kept alive by it):
    /// only the capture's own work may use it.
    Captured {
        /// The capture's unique id (`cuStreamGetCaptureInfo`).
        capture: u64,
    },
    /// A borrow that outlives the graph (`'a`); for cudarc device memory, the stream its earlier
    /// work was ordered on.
    Borrowed {
        /// The stream the memory's earlier work was ordered on (device memory).
        home: Option<Arc<CudaStream>>,
        /// The borrow.
        _borrow: PhantomData<&'a ()>,
    },
}

/// One node's use of one range of memory.
#[derive(Debug, Clone)]
pub struct Use<'a> {
    pub(crate) space: Space,
    /// Byte range `start..end`.
    pub(crate) start: u64,
    pub(crate) end: u64,
    /// Written (by the device, or by host code in a host node).
    pub(crate) write: bool,
    /// Read or written by host code, in a host node.
    pub(crate) host_code: bool,
    pub(crate) hold: Hold<'a>,
}

impl Use<'_> {
    /// A kernel's conditional handle of scope `scope`: no memory.
    pub(crate) fn handle(scope: u64) -> Self {
        Self {
            space: Space::Device,
            start: 0,
            end: 0,
            write: false,
            host_code: false,
            hold: Hold::Handle { scope },
        }
    }
}

/// A param's memory as a byte range: its space, start and end.
pub type Bytes = (Space, u64, u64);

/// What a node that no edge orders with a child node uses: one param's memory (`None`: not
/// memory) and whether it writes it.
pub type DeclaredUse = (Option<Bytes>, bool);

/// A use's identity, to tell without cloning anything whether an update changes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MemKey {
    pub(crate) start: u64,
    pub(crate) end: u64,
    /// The allocation's address, for owned memory (else null).
    pub(crate) owner: *const (),
}

impl Use<'_> {
    pub(crate) fn key(&self) -> MemKey {
        MemKey {
            start: self.start,
            end: self.end,
            owner: match &self.hold {
                Hold::Owned(alloc) => Arc::as_ptr(alloc).cast(),
                _ => std::ptr::null(),
            },
        }
    }

    /// Whether `other` is the same use: the same range of the same memory, used the same way.
    /// (What an update compares for every node, so it compares fields, not built keys.)
    #[inline]
    pub(crate) fn same(&self, other: &Use<'_>) -> bool {
        // The allocations compared by address (`Arc::ptr_eq`: no pointer arithmetic through
        // the vtable, as `key`'s `Arc::as_ptr` needs).
        let same_owner = match (&self.hold, &other.hold) {
            (Hold::Owned(a), Hold::Owned(b)) => Arc::ptr_eq(a, b),
            (Hold::Owned(_), _) | (_, Hold::Owned(_)) => false,
            _ => true,
        };
        self.start == other.start
            && self.end == other.end
            && self.write == other.write
            && self.host_code == other.host_code
            && same_owner
    }

    /// Whether a node using this needs the graph's checks beyond its dependencies' when it is
    /// added: host memory (host code in another node may race with it), a device-launchable
    /// executable (whose launches use memory host code may race with), host code itself, or a
    /// hold only some nodes may use (a graph allocation, a conditional handle, an indirect
    /// value, memory of a capture). Ordinary device memory, owned or borrowed or raw, needs none;
    /// one test per use tells so on the hot path of adding a node.
    #[inline(always)]
    pub(crate) fn needs_graph_checks(&self) -> bool {
        self.space != Space::Device || self.host_code || self.held_by_graph()
    }

    /// Whether this is device memory, or a device-launchable executable, that its owner places
    /// on another device than device `ordinal`: a node on that device may use the memory only
    /// once it is granted access, and launch no such executable (see `memory::peer`). One
    /// question to the owner's stream, no driver call: raw pointers answer no (their `from_raw`
    /// promises memory the graph's device can use), as does memory only its address tells the
    /// device of (a copy asks the driver, see `peer::reach`).
    #[inline(always)]
    pub(crate) fn on_device_other_than(&self, ordinal: usize) -> bool {
        self.space != Space::Host && self.home_device().is_some_and(|home| home != ordinal)
    }

    /// The device its owner places it on (by the owner's stream), where the owner tells.
    #[inline(always)]
    pub(crate) fn home_device(&self) -> Option<usize> {
        let home = match &self.hold {
            Hold::Owned(alloc) => alloc.home(),
            Hold::Borrowed { home, .. } => home.as_ref(),
            _ => None,
        };
        home.map(|stream| stream.context().ordinal())
    }

    /// Whether this is a device-launchable executable that the node's kernel may launch (see
    /// [`Space::Launch`]).
    #[inline]
    pub(crate) fn launches(&self) -> bool {
        self.space == Space::Launch
    }

    /// Whether this is memory that only some nodes may use, by where they are: a graph
    /// allocation, a conditional handle, an indirect value or memory of a capture.
    #[inline(always)]
    pub(crate) fn held_by_graph(&self) -> bool {
        matches!(
            self.hold,
            Hold::Graph { .. }
                | Hold::Handle { .. }
                | Hold::Indirect { .. }
                | Hold::Captured { .. }
        )
    }

    pub(crate) fn bytes(&self) -> usize {
        (self.end - self.start) as usize
    }

    /// Whether the two uses may not run at the same time: overlapping ranges of one space, at
    /// least one written.
    pub(crate) fn conflicts_with(&self, other: &Use<'_>) -> bool {
        self.space == other.space
            && (self.write || other.write)
            && self.start < other.end
            && other.start < self.end
    }

    /// The owned allocation this use keeps alive, if any.
    pub(crate) fn owned(&self) -> Option<&Arc<dyn Allocation>> {
        match &self.hold {
            Hold::Owned(alloc) => Some(alloc),
            _ => None,
        }
    }
}

pub(crate) mod sealed {
    use super::{MemKey, Use};
    use crate::error::Result;

    /// The conversion every memory operand makes (sealed: the soundness of a graph rests on it).
    pub trait MemoryOperand<'a> {
        /// The element type.
        type Elem;
        /// The operand's range and owner, without cloning anything.
        fn key(&self) -> MemKey;
        /// The number of elements.
        fn len(&self) -> usize;
        /// The use, kept alive as the operand says.
        fn into_use(self, write: bool) -> Result<Use<'a>>;
    }

    // The seals of the four operand traits, one each, implemented beside each of them. The
    // `MemoryOperand` supertrait alone does not seal them: it is implemented for values that are
    // only some of them (a shared borrow of a cudarc slice is a `DeviceSrc`, not a
    // `DeviceDst`), and the orphan rules let another crate implement a trait of this crate's for
    // such a value with an element type of its own (`impl DeviceDst<'a, Mine> for &'a
    // CudaSlice<Mine>`): a graph would write memory behind a shared borrow, or record a write as
    // a read (an `Indirect`'s use). These take no element type, so no other crate can.

    /// Sealed: the values that are [`DeviceSrc`](super::DeviceSrc)s.
    pub trait DeviceSrc {}
    /// Sealed: the values that are [`DeviceDst`](super::DeviceDst)s.
    pub trait DeviceDst {}
    /// Sealed: the values that are [`HostSrc`](super::HostSrc)s.
    pub trait HostSrc {}
    /// Sealed: the values that are [`HostDst`](super::HostDst)s.
    pub trait HostDst {}
}

use sealed::MemoryOperand;

/// Device memory a node may read: `T`s on the device.
///
/// The four memory-operand traits, and the values that implement them:
///
/// | trait | memory a node... | implemented by |
/// |---|---|---|
/// | [`DeviceSrc<T>`] | reads on the device | `DeviceBuffer<T>` (and `&`), `&CudaSlice<T>`, `&mut CudaSlice<T>`, `CudaView<T>` (and `&`), `CudaViewMut<T>` (and `&mut`), `DevicePtr<T>`, `DevicePtrMut<T>` |
/// | [`DeviceDst<T>`] | writes on the device | `DeviceBuffer<T>` (and `&`), `&mut CudaSlice<T>`, `CudaViewMut<T>` (and `&mut`), `DevicePtrMut<T>` |
/// | [`HostSrc<T>`] | reads in host memory | `HostBuffer<T>` (and `&`), `&PinnedHostSlice<T>`, `HostPtr<T>`, `HostPtrMut<T>` |
/// | [`HostDst<T>`] | writes in host memory | `HostBuffer<T>` (and `&`), `&mut PinnedHostSlice<T>`, `HostPtrMut<T>` |
///
///
/// A `DeviceBuffer` or `HostBuffer` is kept alive by the graph (by reference: pass `&buffer`);
/// a cudarc borrow makes the graph borrow the memory for its lifetime `'a`; a raw pointer comes
/// with the promise of its `unsafe fn from_raw`.
///
/// The four traits are sealed: the values listed are the only ones (a shared borrow is never a
/// destination: other code may read the memory while the graph borrows it).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not device memory holding `{T}` that a graph can read",
    label = "expected a `DeviceBuffer<{T}>`, a cudarc `&CudaSlice<{T}>` / `CudaView<{T}>`, or a raw `DevicePtr<{T}>`",
    note = "a graph keeps a `DeviceBuffer` alive itself and borrows cudarc slices for its own lifetime"
)]
pub trait DeviceSrc<'a, T>: MemoryOperand<'a, Elem = T> + sealed::DeviceSrc {}

/// Device memory a node may write: `T`s on the device. See [`DeviceSrc`] for the values that
/// implement it.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not device memory holding `{T}` that a graph can write",
    label = "expected a `DeviceBuffer<{T}>`, a cudarc `&mut CudaSlice<{T}>` / `CudaViewMut<{T}>`, or a raw `DevicePtrMut<{T}>`",
    note = "a graph keeps a `DeviceBuffer` alive itself and borrows cudarc slices for its own lifetime"
)]
pub trait DeviceDst<'a, T>: MemoryOperand<'a, Elem = T> + sealed::DeviceDst {}

/// Page-locked host memory a copy may read: `T`s on the host. See [`DeviceSrc`] for the values
/// that implement it.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not page-locked host memory holding `{T}` that a graph can read",
    label = "expected a `HostBuffer<{T}>`, a cudarc `&PinnedHostSlice<{T}>`, or a raw `HostPtr<{T}>`",
    note = "copies go through page-locked memory: a pageable `&[{T}]` would make each launch wait \
            for the whole graph, and nothing would stop host code from changing it meanwhile"
)]
pub trait HostSrc<'a, T>: MemoryOperand<'a, Elem = T> + sealed::HostSrc {}

/// Page-locked host memory a copy may write: `T`s on the host. See [`DeviceSrc`] for the values
/// that implement it.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not page-locked host memory holding `{T}` that a graph can write",
    label = "expected a `HostBuffer<{T}>`, a cudarc `&mut PinnedHostSlice<{T}>`, or a raw `HostPtrMut<{T}>`",
    note = "copies go through page-locked memory: a pageable `&mut [{T}]` would make each launch \
            wait for the whole graph, and nothing would stop host code from reading it meanwhile"
)]
pub trait HostDst<'a, T>: MemoryOperand<'a, Elem = T> + sealed::HostDst {}

// ---------------------------------------------------------------------------------------------
// cudarc memory, borrowed for the graph's lifetime.

/// A use of borrowed device memory at `addr`.
fn borrowed_device<'a, T>(addr: u64, len: usize, home: &Arc<CudaStream>, write: bool) -> Use<'a> {
    Use {
        space: Space::Device,
        start: addr,
        end: addr + (len * std::mem::size_of::<T>()) as u64,
        write,
        host_code: false,
        hold: Hold::Borrowed {
            home: Some(home.clone()),
            _borrow: PhantomData,
        },
    }
}

/// Saturating: a slice whose bytes overflow (cudarc's `alloc_zeros` does not check the
/// product, and a release build wraps it) gets a key no admitted slice has, so an update that
/// compares keys to skip its checks never takes it for the memory a node already holds, and
/// the full path refuses it (`admit_borrowed`).
fn borrowed_key<T>(addr: u64, len: usize) -> MemKey {
    let bytes = len.saturating_mul(std::mem::size_of::<T>()) as u64;
    MemKey {
        start: addr,
        end: addr.saturating_add(bytes),
        owner: std::ptr::null(),
    }
}

// Taking the address through cudarc's `device_ptr(_mut)` on the slice's own stream makes that
// stream wait for the slice's uses on other streams (when cudarc tracks them with events); the
// executable's first launch then waits for that stream. Dropping the guard at once records the
// slice's event there, which is harmless: nothing else can use the slice while the graph borrows
// it, and the executable waits for its launches before the borrow ends.
//
// That join is refused while the slice's stream is being captured (by another thread, or with
// cudarc's `begin_capture`): it would be recorded into the capture, not made, and the launches
// would run ahead of cudarc's work on other streams.

/// The address only, for a key: nothing is enqueued through it, so cudarc's read event is not
/// recorded (which would stand for no use, or inside a capture make the event a captured one).
///
/// cudarc still makes the slice's stream wait for its write event: the only way to the
/// address. Nothing relies on that wait. While the stream is being captured (by another thread,
/// or with cudarc's `begin_capture`) it either joins the capture (an event recorded in it: one
/// more edge) or breaks it (an event recorded outside it, which a capture may not wait for):
/// that capture then ends with an error, and cudarc stores the error for its next call. Waiting
/// on another stream instead would break captures in the first case, and cudarc does not say
/// which case it is; asking whether the stream is captured costs a driver call per lookup
/// (every update of a node given a borrowed slice); a key is an address, never an ordering.
fn read_key<T, S: DevicePtr<T>>(slice: &S) -> MemKey {
    let (addr, sync) = slice.device_ptr(slice.stream());
    std::mem::forget(sync);
    borrowed_key::<T>(addr, slice.len())
}

/// Refuses a borrowed slice of `len` elements on `stream` while that stream is being captured
/// (its join would be recorded into the capture, not made), one on the per-thread default
/// stream (the next launch waits for the tail of the slice's stream, and may be made from
/// another thread), and one whose bytes overflow.
fn admit_borrowed<T>(stream: &CudaStream, len: usize) -> Result<()> {
    const WHAT: &str = "a cudarc slice given to a graph";
    if super::fence::is_per_thread(stream) {
        return Err(super::fence::per_thread_refused(WHAT));
    }
    refuse_capturing_stream(
        stream,
        WHAT,
        "the wait for its uses on other streams (cudarc's event tracking) would be recorded \
         into the capture, not made; give it to the graph before or after the capture",
    )?;
    super::check_alloc_size::<T>(len, WHAT)
}

fn read_use<'a, T, S: DevicePtr<T>>(slice: &S, write: bool) -> Result<Use<'a>> {
    let stream = slice.stream().clone();
    admit_borrowed::<T>(&stream, slice.len())?;
    let addr = without_stored_error(stream.context(), || {
        let (addr, sync) = slice.device_ptr(&stream);
        drop(sync);
        addr
    });
    Ok(borrowed_device::<T>(addr, slice.len(), &stream, write))
}

fn write_use<'a, T, S: DevicePtrMut<T>>(slice: &mut S, write: bool) -> Result<Use<'a>> {
    let stream = slice.stream().clone();
    admit_borrowed::<T>(&stream, slice.len())?;
    let len = slice.len();
    let addr = without_stored_error(stream.context(), || {
        let (addr, sync) = slice.device_ptr_mut(&stream);
        drop(sync);
        addr
    });
    Ok(borrowed_device::<T>(addr, len, &stream, write))
}

/// Implements the operand traits for a cudarc borrow. `|$s| $slice` reaches the cudarc value
/// from `&self` (`$s`), `|$o| $owned` from `self` by value (`$o`).
macro_rules! borrowed_device {
    ($ty:ty, |$s:ident| $slice:expr, |$o:ident| $owned:expr, $into:ident, $($tr:ident),*) => {
        impl<'a, T> MemoryOperand<'a> for $ty {
            type Elem = T;
            fn key(&self) -> MemKey {
                let $s = self;
                read_key::<T, _>($slice)
            }
            fn len(&self) -> usize {
                let $s = self;
                DeviceSlice::<T>::len($slice)
            }
            #[allow(unused_mut)]
            fn into_use(self, write: bool) -> Result<Use<'a>> {
                let mut $o = self;
                $into::<T, _>($owned, write)
            }
        }
        $(#[diagnostic::do_not_recommend] impl<'a, T> $tr<'a, T> for $ty {})*
        $(impl<'a, T> sealed::$tr for $ty {})*
    };
}
borrowed_device!(&'a CudaSlice<T>, |s| *s, |o| o, read_use, DeviceSrc);
borrowed_device!(&'a CudaView<'_, T>, |s| *s, |o| o, read_use, DeviceSrc);
borrowed_device!(CudaView<'a, T>, |s| s, |o| &o, read_use, DeviceSrc);
borrowed_device!(
    &'a mut CudaSlice<T>,
    |s| &**s,
    |o| o,
    write_use,
    DeviceSrc,
    DeviceDst
);
borrowed_device!(
    &'a mut CudaViewMut<'_, T>,
    |s| &**s,
    |o| o,
    write_use,
    DeviceSrc,
    DeviceDst
);
borrowed_device!(
    CudaViewMut<'a, T>,
    |s| s,
    |o| &mut o,
    write_use,
    DeviceSrc,
    DeviceDst
);

/// A use of borrowed page-locked host memory.
fn borrowed_host<'a, T>(ptr: *const T, len: usize, write: bool) -> Use<'a> {
    let start = ptr as u64;
    Use {
        space: Space::Host,
        start,
        end: start + (len * std::mem::size_of::<T>()) as u64,
        write,
        host_code: false,
        hold: Hold::Borrowed {
            home: None,
            _borrow: PhantomData,
        },
    }
}

fn pinned_error(source: cudarc::driver::DriverError) -> Error {
    Error::Driver {
        call: "cuEventSynchronize (PinnedHostSlice)",
        source,
    }
}

// `as_ptr`/`as_mut_ptr` wait (on the host) for cudarc's earlier copies of the slice: the graph
// then starts from its settled contents.

impl<'a, T: ValidAsZeroBits> MemoryOperand<'a> for &'a PinnedHostSlice<T> {
    type Elem = T;
    fn key(&self) -> MemKey {
        MemKey {
            start: self.as_ptr().map_or(0, |p| p as u64),
            end: self.as_ptr().map_or(0, |p| p as u64) + self.num_bytes() as u64,
            owner: std::ptr::null(),
        }
    }
    fn len(&self) -> usize {
        PinnedHostSlice::len(self)
    }
    fn into_use(self, write: bool) -> Result<Use<'a>> {
        let ptr = self.as_ptr().map_err(pinned_error)?;
        Ok(borrowed_host(ptr, PinnedHostSlice::len(self), write))
    }
}
#[diagnostic::do_not_recommend]
impl<'a, T: ValidAsZeroBits> HostSrc<'a, T> for &'a PinnedHostSlice<T> {}
impl<T: ValidAsZeroBits> sealed::HostSrc for &PinnedHostSlice<T> {}

impl<'a, T: ValidAsZeroBits> MemoryOperand<'a> for &'a mut PinnedHostSlice<T> {
    type Elem = T;
    fn key(&self) -> MemKey {
        (&**self).key()
    }
    fn len(&self) -> usize {
        PinnedHostSlice::len(self)
    }
    fn into_use(self, write: bool) -> Result<Use<'a>> {
        let len = PinnedHostSlice::len(self);
        let ptr = self.as_mut_ptr().map_err(pinned_error)?;
        Ok(borrowed_host(ptr, len, write))
    }
}
#[diagnostic::do_not_recommend]
impl<'a, T: ValidAsZeroBits> HostSrc<'a, T> for &'a mut PinnedHostSlice<T> {}
impl<T: ValidAsZeroBits> sealed::HostSrc for &mut PinnedHostSlice<T> {}
impl<'a, T: ValidAsZeroBits> HostDst<'a, T> for &'a mut PinnedHostSlice<T> {}
impl<T: ValidAsZeroBits> sealed::HostDst for &mut PinnedHostSlice<T> {}
