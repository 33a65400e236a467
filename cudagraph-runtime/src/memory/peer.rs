//! Memory of another device in a node: every node runs on its graph's device, which must reach
//! the other device's memory directly: a copy's engines, as in a copy CUDA records from a
//! captured `cudaMemcpyAsync` between two devices, a kernel's loads and stores, a memset.
//!
//! The graph's device may access that memory only once it is granted: for memory of a pool
//! (cudarc allocates with `cuMemAllocAsync`, from the device's default pool) by the pool's access
//! list
//! ([`cuMemPoolSetAccess`](https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__MALLOC__ASYNC.html)),
//! for memory of `cuMemAlloc` by the peer access of the two contexts
//! ([`cuCtxEnablePeerAccess`](https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__PEER__ACCESS.html)).
//! The driver refuses a copy node without it (`CUDA_ERROR_INVALID_VALUE`), but takes a kernel
//! node whose arguments point there, and the launch then faults on the first access
//! (`CUDA_ERROR_ILLEGAL_ADDRESS`, which ends the context). [`reach`] grants the access when the
//! two devices can have it (`cuDeviceCanAccessPeer`), and otherwise says why the node cannot
//! use the memory; [`check_uses`] does so for every use of a node that its owner places on
//! another device.
//!
//! Granting is for the whole pool or context, from then on: the pool's later allocations are
//! mapped for the graph's device too (a small cost at each allocation), which is what work
//! between the devices needs anyway.

use std::sync::Arc;

use cudarc::driver::{sys, CudaContext};

use super::alloc::Space;
use super::fence::relaxed;
use super::operand::{Hold, Use};
use crate::driver::{named, result::peer};
use crate::error::{Error, Result};

/// A location naming device `ordinal` (for pool access lists and pool properties).
pub(crate) fn device_location(ordinal: i32) -> sys::CUmemLocation {
    // SAFETY: a plain C struct of an enum whose 0 is a value (`CU_MEM_LOCATION_TYPE_INVALID`)
    // and integers (in a union of integers, for CUDA 13.2's binding).
    let mut location: sys::CUmemLocation = unsafe { std::mem::zeroed() };
    location.type_ = sys::CUmemLocationType::CU_MEM_LOCATION_TYPE_DEVICE;
    set_location_id(&mut location, ordinal);
    location
}

#[cfg(not(any(feature = "cuda-13020")))]
fn set_location_id(location: &mut sys::CUmemLocation, ordinal: i32) {
    location.id = ordinal;
}

#[cfg(feature = "cuda-13020")]
fn set_location_id(location: &mut sys::CUmemLocation, ordinal: i32) {
    location.__bindgen_anon_1.id = ordinal;
}

/// Where device memory is, as far as a copy on `ctx`'s device cares.
enum Owner {
    /// On `ctx`'s device (or memory this graph makes itself).
    Here,
    /// On device `ordinal`.
    Device(usize),
    /// Not another device's own memory as far as the driver tells (host or managed memory, an
    /// address it does not know): the driver decides.
    Unknown,
}

/// Which device `operand`'s memory is on: from its owner's stream where it has one (no driver
/// call for the usual same-device copy), else by asking the driver about the address.
fn owner(ctx: &Arc<CudaContext>, operand: &Use<'_>) -> Owner {
    let home = match &operand.hold {
        Hold::Owned(alloc) => alloc.home(),
        Hold::Borrowed { home, .. } => home.as_ref(),
        // Memory the graph makes itself (an alloc node's, an indirect value's block), and
        // conditional handles, are on the graph's device.
        Hold::Graph { .. } | Hold::Indirect { .. } | Hold::Handle { .. } => return Owner::Here,
        // A raw pointer, or memory given to a capture: only the address tells.
        Hold::Raw | Hold::Captured { .. } => None,
    };
    let ordinal = match home {
        Some(stream) if Arc::ptr_eq(stream.context(), ctx) => return Owner::Here,
        Some(stream) => stream.context().ordinal(),
        // Relaxed: no capture this thread makes may fail for the question (see `reach`).
        None => match relaxed(|| peer::device_of(operand.start)) {
            Ok(Some(ordinal)) => ordinal as usize,
            // Host or managed memory (reachable from every device the driver allows), or an
            // address the driver does not know.
            Ok(None) | Err(_) => return Owner::Unknown,
        },
    };
    if ordinal == ctx.ordinal() {
        Owner::Here
    } else {
        Owner::Device(ordinal)
    }
}

/// Makes the device memory of `operand` (`what` names it in a refusal: "the copy's source")
/// reachable by a node running on `ctx`'s device. `Ok(Some(reason))` when the two devices cannot
/// reach each other's memory (the node cannot use it); `Ok(None)` when the node may; an error
/// when a driver call failed.
pub(crate) fn reach(
    ctx: &Arc<CudaContext>,
    operand: &Use<'_>,
    what: &str,
) -> Result<Option<String>> {
    if operand.space != Space::Device {
        return Ok(None);
    }
    let Owner::Device(there) = owner(ctx, operand) else {
        return Ok(None);
    };
    let here = ctx.ordinal();
    let there_device = named(
        "cuDeviceGet",
        cudarc::driver::result::device::get(there as i32),
    )?;
    if !peer::can_access(ctx.cu_device(), there_device)? {
        return Ok(Some(format!(
            "{what} is memory of device {there}, and the graph runs on device {here}, which \
             cannot access it (cuDeviceCanAccessPeer: no peer-to-peer path between the two \
             devices): bring the data over through page-locked host memory (a device-to-host \
             copy in a graph of device {there}, then a host-to-device copy in this one)"
        )));
    }
    // Pool access and peer access are not stream work: relaxed mode lets a copy recorded in a
    // capture grant them without invalidating it.
    if !relaxed(|| grant(ctx, operand.start))? {
        return Ok(Some(format!(
            "{what} is memory of device {there} mapped with the virtual memory management calls \
             (cuMemMap), which device {here}, where the graph runs, may not access: its owner \
             grants that access (cuMemSetAccess for device {here}) before the node is added"
        )));
    }
    Ok(None)
}

/// Makes the memory of every use in `uses` that its owner places on another device than
/// `ctx`'s (see [`Use::on_device_other_than`]) reachable by work on `ctx`'s device, or refuses
/// the work (`node` names it; `what` says what the memory is to it: "memory the kernel node
/// uses") when that device cannot access it.
pub(crate) fn check_uses(
    ctx: &Arc<CudaContext>,
    uses: &[Use<'_>],
    what: &dyn Fn() -> String,
    node: &dyn Fn() -> String,
) -> Result<()> {
    let ordinal = ctx.ordinal();
    for operand in uses.iter().filter(|u| u.on_device_other_than(ordinal)) {
        if operand.launches() {
            let there = operand.home_device().unwrap_or_default();
            return Err(Error::Invalid {
                node: node(),
                reason: format!(
                    "the kernel is given a graph instantiated for device launch on device \
                     {there}, and runs on device {ordinal}: a kernel launches only device graphs \
                     of its own device (instantiate the graph for device launch from a graph of \
                     device {ordinal})"
                ),
            });
        }
        if let Some(reason) = reach(ctx, operand, &what())? {
            return Err(Error::Invalid {
                node: node(),
                reason,
            });
        }
    }
    Ok(())
}

/// Gives `ctx`'s device read and write access to the memory at `addr` of another device: its
/// pool's access list for pool memory, the contexts' peer access for memory of `cuMemAlloc`.
/// `false` for memory mapped with the virtual memory management calls that `ctx`'s device may
/// not access: only its owner sets who may (`cuMemSetAccess` on the whole mapping).
fn grant(ctx: &Arc<CudaContext>, addr: sys::CUdeviceptr) -> Result<bool> {
    let location = device_location(ctx.ordinal() as i32);
    let pool = peer::pool_of(addr)?;
    if !pool.is_null() {
        // SAFETY: the pool of live memory is live.
        if !unsafe { peer::pool_read_write(pool, location) }? {
            // SAFETY: as above.
            unsafe { peer::grant_pool_access(pool, location) }?;
        }
        return Ok(true);
    }
    let owner_ctx = peer::context_of(addr)?;
    if owner_ctx.is_null() {
        // Memory of no context (mapped with the virtual memory calls): the driver refuses a
        // copy node the graph's device may not access, but takes a kernel node, whose launch
        // then faults.
        return peer::mapped_read_write(addr, location);
    }
    // SAFETY: `ctx` is live (held); `owner_ctx` is the context of live memory.
    unsafe { peer::enable_peer_access(ctx.cu_ctx(), owner_ctx) }?;
    Ok(true)
}
