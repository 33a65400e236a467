//! The handle kernels launch a device-launchable executable with: [`DeviceGraph`] in kernel
//! signatures, [`DeviceGraphHandle`] as the value given for it.

use std::marker::PhantomData;
use std::sync::Arc;

use super::anchor::DeviceAnchor;
use crate::error::Result;
use crate::kernel::{private, KernelArg, Param};
use crate::memory::alloc::{Allocation, Space};
use crate::memory::operand::{Hold, MemKey, Use};

/// CUDA C for kernels that launch graphs, compiled with NVRTC: the special streams of
/// `cudaGraphLaunch` (from CUDA's `cuda_device_runtime_api.h`), defined only where the
/// compiler's built-in declarations lack them. NVRTC declares `cudaGraphLaunch`,
/// `cudaGetCurrentGraphExec` and `cudaGraphExec_t` itself; the program must be compiled with
/// `-rdc=true` and linked with [`link_with_cudadevrt`](super::link_with_cudadevrt).
pub const DEVICE_LAUNCH_DECLARATIONS: &str = "\
#ifndef cudaStreamGraphTailLaunch
#define cudaStreamGraphTailLaunch (cudaStream_t)0x0100000000000000
#endif
#ifndef cudaStreamGraphFireAndForget
#define cudaStreamGraphFireAndForget (cudaStream_t)0x0200000000000000
#endif
#ifndef cudaStreamGraphFireAndForgetAsSibling
#define cudaStreamGraphFireAndForgetAsSibling (cudaStream_t)0x0300000000000000
#endif
";

/// A kernel parameter that receives a device-launchable executable (`cudaGraphExec_t` in CUDA
/// C), to launch with `cudaGraphLaunch`. The value given for it is a [`DeviceGraphHandle`].
///
/// A type of kernel signatures only: it has no values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeviceGraph {}

/// The `Copy` handle of a [`DeviceGraphExec`](super::DeviceGraphExec), given to kernels for a
/// parameter of type [`DeviceGraph`]. Only a `DeviceGraphExec` (instantiated for device launch
/// and uploaded) makes one.
///
/// A graph whose kernel is given the handle keeps the executable alive until that graph's last
/// launch has completed (see [`crate::device_launch`]).
#[derive(Clone, Copy)]
pub struct DeviceGraphHandle<'e> {
    anchor: &'e Arc<DeviceAnchor>,
    _exec: PhantomData<&'e super::DeviceGraphExec>,
}

impl std::fmt::Debug for DeviceGraphHandle<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "DeviceGraphHandle({:#x})", self.anchor.raw())
    }
}

impl<'e> DeviceGraphHandle<'e> {
    pub(super) fn new(anchor: &'e Arc<DeviceAnchor>) -> Self {
        Self {
            anchor,
            _exec: PhantomData,
        }
    }

    /// The driver's handle (`CUgraphExec`), as the kernel receives it.
    pub fn raw(&self) -> u64 {
        self.anchor.raw()
    }

    /// The anchor, for the race checks of `cuda_graph!` (`__private::launched`).
    pub(crate) fn anchor(&self) -> &'e Arc<DeviceAnchor> {
        self.anchor
    }

    fn key(&self) -> MemKey {
        let (start, end) = self.anchor.range();
        MemKey {
            start,
            end,
            owner: Arc::as_ptr(self.anchor).cast(),
        }
    }
}

/// An owned handle of a [`DeviceGraphExec`](super::DeviceGraphExec), for where a borrow cannot
/// go: a param of a `cuda_graph!` declaration (`Clone + PartialEq`, compared by executable). It
/// keeps the executable alive while it lives, like a graph given it; given for a kernel parameter
/// of type [`DeviceGraph`] as [`DeviceGraphHandle`] is. Made by
/// [`DeviceGraphExec::shared_handle`](super::DeviceGraphExec::shared_handle).
#[derive(Clone)]
pub struct SharedDeviceGraph {
    anchor: Arc<DeviceAnchor>,
}

impl SharedDeviceGraph {
    pub(super) fn new(anchor: &Arc<DeviceAnchor>) -> Self {
        Self {
            anchor: anchor.clone(),
        }
    }

    /// The borrowed, `Copy` handle.
    pub fn handle(&self) -> DeviceGraphHandle<'_> {
        DeviceGraphHandle::new(&self.anchor)
    }
}

impl PartialEq for SharedDeviceGraph {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.anchor, &other.anchor)
    }
}
impl Eq for SharedDeviceGraph {}

impl std::fmt::Debug for SharedDeviceGraph {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SharedDeviceGraph({:#x})", self.anchor.raw())
    }
}

impl<'a> private::Argument<'a, DeviceGraph> for SharedDeviceGraph {}
#[diagnostic::do_not_recommend]
impl<'a> KernelArg<'a, DeviceGraph> for SharedDeviceGraph {
    #[inline(always)]
    fn repr(&self) -> u64 {
        self.anchor.raw()
    }
    #[inline(always)]
    fn checked(&self) {}
    #[inline(always)]
    fn memory(&self) -> Option<MemKey> {
        Some(self.handle().key())
    }
    #[inline]
    fn into_part(self) -> Result<(u64, Option<Use<'a>>)> {
        KernelArg::<'a, DeviceGraph>::into_part(self.handle())
    }
}

/// A shared handle given by reference (a declaration's param is given as `&param`).
impl<'a> private::Argument<'a, DeviceGraph> for &SharedDeviceGraph {}
#[diagnostic::do_not_recommend]
impl<'a> KernelArg<'a, DeviceGraph> for &SharedDeviceGraph {
    #[inline(always)]
    fn repr(&self) -> u64 {
        self.anchor.raw()
    }
    #[inline(always)]
    fn checked(&self) {}
    #[inline(always)]
    fn memory(&self) -> Option<MemKey> {
        Some(self.handle().key())
    }
    #[inline]
    fn into_part(self) -> Result<(u64, Option<Use<'a>>)> {
        KernelArg::<'a, DeviceGraph>::into_part(self.handle())
    }
}

impl private::Sealed for DeviceGraph {}
/// A kernel may take a device-launchable executable (`cudaGraphExec_t` in CUDA C).
impl Param for DeviceGraph {
    type Repr = u64;
    type Checked = ();
}

/// The handle is given as itself; the graph holds the executable through it.
impl<'a> private::Argument<'a, DeviceGraph> for DeviceGraphHandle<'_> {}
#[diagnostic::do_not_recommend]
impl<'a> KernelArg<'a, DeviceGraph> for DeviceGraphHandle<'_> {
    #[inline(always)]
    fn repr(&self) -> u64 {
        self.anchor.raw()
    }
    #[inline(always)]
    fn checked(&self) {}
    #[inline(always)]
    fn memory(&self) -> Option<MemKey> {
        Some(self.key())
    }
    #[inline]
    fn into_part(self) -> Result<(u64, Option<Use<'a>>)> {
        let key = self.key();
        let anchor: Arc<dyn Allocation> = self.anchor.clone();
        Ok((
            self.anchor.raw(),
            Some(Use {
                space: Space::Launch,
                start: key.start,
                end: key.end,
                write: false,
                host_code: false,
                hold: Hold::Owned(anchor),
            }),
        ))
    }
}
