//! What a capture recorded beyond its own calls: the memory its copy and memset nodes touch.
//!
//! The capture's own calls ([`CaptureScope`](super::CaptureScope)'s) say what memory each node
//! uses. Work enqueued another way (cudarc's copies and memsets, a library's calls) reaches
//! memory by address, unseen; cudarc's event tracking already breaks a capture that uses a
//! buffer last used outside it, but a buffer whose uses were never tracked (made while the
//! context had one stream, say) would slip through and be freed under the graph. So every copy
//! and memset node the capture recorded that its own calls did not is checked here: what it
//! writes must be memory given to the capture to write, what it reads memory given to it at
//! all, or an allocation made in the capture; and a copy's source and destination must not
//! overlap (CUDA leaves such a copy undefined). (Kernels launched through cudarc or a library are
//! `unsafe` calls, whose contract covers the memory they reach.)

use std::collections::HashSet;
use std::ops::Range;

use cudarc::driver::sys;

use crate::driver::result;
use crate::error::{Error, Result};
use crate::graph::Graph;
use crate::memory::operand::Use;
use crate::node::kind::raw_kind_name;
use crate::node::overlapping;
use crate::node::NodeKind;

/// Checks the copy and memset nodes among `nodes` (the capture's, in `graph`) that the
/// capture's own calls did not record (`ours`) against `given` (the memory given to the
/// capture) and the allocations the capture made.
pub(crate) fn recorded_memory(
    graph: &Graph<'_>,
    nodes: Range<usize>,
    ours: &HashSet<sys::CUgraphNode>,
    given: &[Use<'_>],
) -> Result<()> {
    let mut allocated = Vec::new();
    for i in nodes.clone() {
        let Some(record) = graph.record(i) else {
            continue;
        };
        if record.kind == NodeKind::MemAlloc {
            // SAFETY: an alloc node of the live graph.
            let (addr, bytes) = unsafe { result::recorded::alloc(record.raw) }?;
            allocated.push(addr..addr + bytes as u64);
        }
    }
    let may = |range: &Range<u64>, write: bool| {
        range.is_empty()
            || given
                .iter()
                .any(|u| u.start <= range.start && range.end <= u.end && (u.write || !write))
            || allocated
                .iter()
                .any(|a| a.start <= range.start && range.end <= a.end)
    };
    for i in nodes {
        let Some(record) = graph.record(i) else {
            continue;
        };
        if ours.contains(&record.raw) {
            continue;
        }
        // SAFETY: a node of the live graph.
        let code = unsafe { result::graph::node_type(record.raw) }?;
        let refused = if code == sys::CUgraphNodeType::CU_GRAPH_NODE_TYPE_MEMCPY as u32 {
            // SAFETY: a memcpy node of the live graph.
            let copy = unsafe { result::recorded::memcpy(record.raw) }?;
            let (src, dst) = copy_ranges(&copy);
            if !may(&dst, true) {
                Some(("copy writes", dst))
            } else if !may(&src, false) {
                Some(("copy reads", src))
            } else if src.start < dst.end && dst.start < src.end {
                // `Memcpy` refuses these for the copies this crate makes; the views a closure
                // gets cannot make one with cudarc (a `CaptureViewMut`'s parts borrow it, as a
                // `&mut` slice's do), but a library or a raw driver call can. A pitched copy is
                // judged by its first to its last byte (rows interleaved with the other side's
                // are refused too).
                return Err(overlapping(format!("memcpy#{i}"), "a", src, dst));
            } else {
                None
            }
        } else if code == sys::CUgraphNodeType::CU_GRAPH_NODE_TYPE_MEMSET as u32 {
            // SAFETY: a memset node of the live graph.
            let set = unsafe { result::recorded::memset(record.raw) }?;
            let dst = memset_range(&set);
            (!may(&dst, true)).then_some(("memset writes", dst))
        } else {
            None
        };
        if let Some((what, range)) = refused {
            return Err(Error::Invalid {
                node: format!("{}#{i}", raw_kind_name(code)),
                reason: format!(
                    "a {what} {:#x}..{:#x}, memory that was not given to the capture (or not to \
                     write): give the buffer as an operand of the capture (`&buffer` to read, \
                     `&mut buffer` to write) and use its view in the closure, or allocate in \
                     the capture (`CaptureScope::alloc`, or a cudarc allocation on the captured \
                     stream)",
                    range.start, range.end
                ),
            });
        }
    }
    Ok(())
}

/// The byte ranges a 3-D copy reads and writes (the address of its host or device side,
/// whichever its memory type names, from its first byte to its last).
fn copy_ranges(c: &sys::CUDA_MEMCPY3D) -> (Range<u64>, Range<u64>) {
    let side = |kind: sys::CUmemorytype,
                host: u64,
                device: u64,
                (x, y, z): (usize, usize, usize),
                (pitch, height): (usize, usize)| {
        let base = if kind == sys::CUmemorytype::CU_MEMORYTYPE_HOST {
            host
        } else {
            device
        };
        let rows = c.Height.max(1) * c.Depth.max(1);
        let start = base + (x + y * pitch + z * pitch * height) as u64;
        let extent = if rows > 1 {
            pitch * (rows - 1) + c.WidthInBytes
        } else {
            c.WidthInBytes
        };
        start..start + extent as u64
    };
    let src = side(
        c.srcMemoryType,
        c.srcHost as u64,
        c.srcDevice,
        (c.srcXInBytes, c.srcY, c.srcZ),
        (c.srcPitch, c.srcHeight),
    );
    let dst = side(
        c.dstMemoryType,
        c.dstHost as u64,
        c.dstDevice,
        (c.dstXInBytes, c.dstY, c.dstZ),
        (c.dstPitch, c.dstHeight),
    );
    (src, dst)
}

/// The byte range a memset writes.
fn memset_range(m: &sys::CUDA_MEMSET_NODE_PARAMS) -> Range<u64> {
    let row = m.width * m.elementSize as usize;
    let extent = if m.height > 1 {
        m.pitch * (m.height - 1) + row
    } else {
        row
    };
    m.dst..m.dst + extent as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_copy_covers_its_first_to_its_last_byte() {
        let mut c = sys::CUDA_MEMCPY3D {
            srcXInBytes: 0,
            srcY: 0,
            srcZ: 0,
            srcLOD: 0,
            srcMemoryType: sys::CUmemorytype::CU_MEMORYTYPE_DEVICE,
            srcHost: std::ptr::null(),
            srcDevice: 0x1000,
            srcArray: std::ptr::null_mut(),
            reserved0: std::ptr::null_mut(),
            srcPitch: 0,
            srcHeight: 0,
            dstXInBytes: 0,
            dstY: 0,
            dstZ: 0,
            dstLOD: 0,
            dstMemoryType: sys::CUmemorytype::CU_MEMORYTYPE_HOST,
            dstHost: 0x9000 as *mut _,
            dstDevice: 0,
            dstArray: std::ptr::null_mut(),
            reserved1: std::ptr::null_mut(),
            dstPitch: 0,
            dstHeight: 0,
            WidthInBytes: 64,
            Height: 1,
            Depth: 1,
        };
        assert_eq!(copy_ranges(&c), (0x1000..0x1040, 0x9000..0x9040));
        // 2-D, 3 rows with a pitch of 256, from (8, 1).
        c.Height = 3;
        c.srcPitch = 256;
        c.srcXInBytes = 8;
        c.srcY = 1;
        let (src, _) = copy_ranges(&c);
        assert_eq!(src, 0x1000 + 8 + 256..0x1000 + 8 + 256 + 2 * 256 + 64);
    }

    #[test]
    fn a_memset_covers_its_rows() {
        // SAFETY: a plain C struct for which all zeros is valid.
        let mut m: sys::CUDA_MEMSET_NODE_PARAMS = unsafe { std::mem::zeroed() };
        m.dst = 0x2000;
        m.elementSize = 4;
        m.width = 10;
        m.height = 1;
        assert_eq!(memset_range(&m), 0x2000..0x2028);
        m.height = 2;
        m.pitch = 64;
        assert_eq!(memset_range(&m), 0x2000..0x2000 + 64 + 40);
    }
}
