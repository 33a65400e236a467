//! [`NcclComm`]: one rank's raw NCCL communicator (`ncclComm_t`) and its stream, with the calls
//! the crate makes on it.
//!
//! cudarc's `Comm` keeps its `ncclComm_t` private, and a symmetric window
//! (`ncclCommWindowRegister`, see `symmetric`) needs it; so the crate holds the handle itself and
//! issues its calls through cudarc's raw `nccl::result` functions, as `Comm` does.

use std::sync::Arc;

use cudarc::driver::{CudaStream, DevicePtr, DevicePtrMut};
use cudarc::nccl::result::{self as nccl, NcclError};
use cudarc::nccl::{sys, Id, NcclType};

use super::op::ReduceOp;

/// What an NCCL call returns.
pub(crate) type Called = std::result::Result<(), NcclError>;

/// One rank's communicator, on `stream` (its calls are issued there). Aborted when dropped
/// (`ncclCommAbort`, as cudarc's `Comm` does: it never waits for peers that may be gone).
#[derive(Debug)]
pub(crate) struct NcclComm {
    raw: sys::ncclComm_t,
    stream: Arc<CudaStream>,
    rank: usize,
    size: usize,
}

impl NcclComm {
    /// One communicator per stream, one device each, ranks in that order (`ncclCommInitAll`).
    pub(crate) fn init_all(
        streams: &[Arc<CudaStream>],
    ) -> std::result::Result<Vec<Self>, NcclError> {
        let mut raw = vec![std::ptr::null_mut(); streams.len()];
        let ordinals: Vec<i32> = streams
            .iter()
            .map(|s| s.context().ordinal() as i32)
            .collect();
        // SAFETY: room for one communicator per device; the ordinals are of live contexts.
        unsafe { nccl::comm_init_all(raw.as_mut_ptr(), raw.len() as i32, ordinals.as_ptr()) }?;
        let size = streams.len();
        Ok(raw
            .into_iter()
            .zip(streams)
            .enumerate()
            .map(|(rank, (raw, stream))| Self {
                raw,
                stream: stream.clone(),
                rank,
                size,
            })
            .collect())
    }

    /// Rank `rank` of `size` in the group `id` names (`ncclCommInitRank`), on the current
    /// device; blocks until every rank has joined.
    pub(crate) fn init_rank(
        stream: Arc<CudaStream>,
        rank: usize,
        size: usize,
        id: Id,
    ) -> std::result::Result<Self, NcclError> {
        let mut raw = std::ptr::null_mut();
        let id = sys::ncclUniqueId {
            internal: *id.internal(),
        };
        // The caller checked `rank < size`; both fit NCCL's `int` (a group of 2^31 ranks does
        // not exist), and a value that does not is NCCL's to refuse.
        let (size_i, rank_i) = (
            i32::try_from(size).unwrap_or(i32::MAX),
            i32::try_from(rank).unwrap_or(i32::MAX),
        );
        // SAFETY: `raw` receives the communicator; `id` is a unique id of the group.
        unsafe { nccl::comm_init_rank(&mut raw, size_i, id, rank_i) }?;
        Ok(Self {
            raw,
            stream,
            rank,
            size,
        })
    }

    pub(crate) fn raw(&self) -> sys::ncclComm_t {
        self.raw
    }

    pub(crate) fn stream(&self) -> &Arc<CudaStream> {
        &self.stream
    }

    pub(crate) fn rank(&self) -> usize {
        self.rank
    }

    pub(crate) fn size(&self) -> usize {
        self.size
    }

    fn on(&self) -> sys::cudaStream_t {
        self.stream.cu_stream() as _
    }

    /// `ncclSend` of `data` to `peer`.
    pub(crate) fn send<T: NcclType>(&self, data: &impl DevicePtr<T>, peer: i32) -> Called {
        let (src, _record) = data.device_ptr(&self.stream);
        let ty = T::as_nccl_type();
        // SAFETY: `data` is live device memory of `len` elements, ordered on this stream.
        unsafe { nccl::send(src as _, data.len(), ty, peer, self.raw, self.on()) }.map(drop)
    }

    /// `ncclRecv` into `buf` from `peer`.
    pub(crate) fn recv<T: NcclType>(&self, buf: &mut impl DevicePtrMut<T>, peer: i32) -> Called {
        let len = buf.len();
        let (dst, _record) = buf.device_ptr_mut(&self.stream);
        let ty = T::as_nccl_type();
        // SAFETY: `buf` is live device memory of `len` elements, ordered on this stream.
        unsafe { nccl::recv(dst as _, len, ty, peer, self.raw, self.on()) }.map(drop)
    }

    /// `ncclBroadcast` of `buf` from `root`, in place.
    pub(crate) fn broadcast_in_place<T: NcclType>(
        &self,
        buf: &mut impl DevicePtrMut<T>,
        root: i32,
    ) -> Called {
        let len = buf.len();
        let (dst, _record) = buf.device_ptr_mut(&self.stream);
        let ty = T::as_nccl_type();
        // SAFETY: as `recv`; in place, source and destination are the same memory.
        unsafe { nccl::broadcast(dst as _, dst as _, len, ty, root, self.raw, self.on()) }.map(drop)
    }

    /// `ncclAllGather` of `src` into `dst` (`size` times as long).
    pub(crate) fn all_gather<T: NcclType>(
        &self,
        src: &impl DevicePtr<T>,
        dst: &mut impl DevicePtrMut<T>,
    ) -> Called {
        let (s, _record_s) = src.device_ptr(&self.stream);
        let (d, _record_d) = dst.device_ptr_mut(&self.stream);
        let ty = T::as_nccl_type();
        // SAFETY: both live device memory of the lengths NCCL reads and writes (checked when the
        // node was added), ordered on this stream.
        unsafe { nccl::all_gather(s as _, d as _, src.len(), ty, self.raw, self.on()) }.map(drop)
    }

    /// `ncclAllReduce` of `src` into `dst` (of the same length).
    pub(crate) fn all_reduce<T: NcclType>(
        &self,
        src: &impl DevicePtr<T>,
        dst: &mut impl DevicePtrMut<T>,
        op: ReduceOp,
    ) -> Called {
        let (s, _record_s) = src.device_ptr(&self.stream);
        let (d, _record_d) = dst.device_ptr_mut(&self.stream);
        self.all_reduce_raw::<T>(s, d, src.len(), op)
    }

    /// `ncclAllReduce` of `buf`, in place.
    pub(crate) fn all_reduce_in_place<T: NcclType>(
        &self,
        buf: &mut impl DevicePtrMut<T>,
        op: ReduceOp,
    ) -> Called {
        let len = buf.len();
        let (d, _record) = buf.device_ptr_mut(&self.stream);
        self.all_reduce_raw::<T>(d, d, len, op)
    }

    fn all_reduce_raw<T: NcclType>(&self, s: u64, d: u64, len: usize, op: ReduceOp) -> Called {
        let ty = T::as_nccl_type();
        // SAFETY: the callers' memory: live, `len` elements each, ordered on this stream.
        unsafe { nccl::all_reduce(s as _, d as _, len, ty, op.raw(), self.raw, self.on()) }
            .map(drop)
    }

    /// `ncclReduceScatter` of `src` (`size` times as long) into `dst`.
    pub(crate) fn reduce_scatter<T: NcclType>(
        &self,
        src: &impl DevicePtr<T>,
        dst: &mut impl DevicePtrMut<T>,
        op: ReduceOp,
    ) -> Called {
        let len = dst.len();
        let (s, _record_s) = src.device_ptr(&self.stream);
        let (d, _record_d) = dst.device_ptr_mut(&self.stream);
        let ty = T::as_nccl_type();
        // SAFETY: as `all_gather`, the other way around.
        unsafe { nccl::reduce_scatter(s as _, d as _, len, ty, op.raw(), self.raw, self.on()) }
            .map(drop)
    }
}

impl Drop for NcclComm {
    fn drop(&mut self) {
        // SAFETY: this rank's communicator, used no more: every graph and executable using it
        // holds the communicator, so none is left. Abort rather than destroy: it frees the
        // communicator's resources (its windows among them) without waiting for the peers.
        // An error leaves nothing to do.
        let _ = unsafe { nccl::comm_abort(self.raw) };
    }
}
