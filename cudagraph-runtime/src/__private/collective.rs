//! Collective nodes (feature `nccl`): the communicator param, the buffers, and the call a
//! collective node's eval function returns.

use super::param_class::MemoryLike;
use crate::collective::{Collective, Op};
use crate::{ChildGraphNode, Communicator, DeviceBuffer, Graph, GraphExec, NcclElem, NodeId};
use crate::{Error, ReduceOp, Result};

/// A param a collective node runs over: a [`Communicator`].
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a communicator",
    label = "a collective node runs over a `Communicator` param",
    note = "declare the param as `comm: Communicator` (cudagraph-runtime's `nccl` feature), one \
            per rank: each rank builds the declaration with its own"
)]
pub trait CommunicatorParam {
    /// The communicator.
    fn communicator(&self) -> &Communicator;
}

impl CommunicatorParam for Communicator {
    #[inline(always)]
    fn communicator(&self) -> &Communicator {
        self
    }
}

/// The communicator of param `comm` (called at the user's token: a param of another type is
/// reported there).
#[inline(always)]
pub fn communicator<C: CommunicatorParam>(comm: &C) -> &Communicator {
    comm.communicator()
}

/// A buffer a collective node reads or writes: a [`DeviceBuffer`] param.
///
/// # Safety
/// `buffer` is the param's memory exactly, as [`MemoryLike::bytes`] reports it: a declaration's
/// check that no two params share memory where a node writes reads the one, the collective node
/// uses the other, so a type that gave another buffer (or memory the check does not see) would
/// hide a race between the collective and another node. Implemented by the runtime only.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a buffer a collective node can use",
    label = "a collective node's buffers are `DeviceBuffer<T>` params",
    note = "NCCL reads and writes device memory: declare the param as `DeviceBuffer<T>`, with `T` \
            one of f32, f64, i8, u8, i32, u32, i64, u64"
)]
pub unsafe trait CollectiveBuffer: MemoryLike {
    /// The element type.
    type Elem: NcclElem;
    /// The buffer.
    fn buffer(&self) -> &DeviceBuffer<Self::Elem>;
}

// SAFETY: the buffer itself, whose memory `MemoryLike` reports.
unsafe impl<T: NcclElem + Send + Sync> CollectiveBuffer for DeviceBuffer<T> {
    type Elem = T;
    #[inline(always)]
    fn buffer(&self) -> &DeviceBuffer<T> {
        self
    }
}

/// The buffer of param `buf` (called at the user's token).
#[inline(always)]
pub fn collective_buffer<B: CollectiveBuffer>(buf: &B) -> &DeviceBuffer<B::Elem> {
    buf.buffer()
}

/// What a collective node does, as the declaration writes it.
#[derive(Debug, Clone, Copy)]
pub enum CollectiveOp {
    /// `all_reduce(comm, buf, op)` or `all_reduce(comm, src -> dst, op)`.
    AllReduce(ReduceOp),
    /// `all_gather(comm, src -> dst)`.
    AllGather,
    /// `reduce_scatter(comm, src -> dst, op)`.
    ReduceScatter(ReduceOp),
    /// `broadcast(comm, buf, root)`.
    Broadcast(usize),
    /// `send(comm, buf, peer)`.
    Send(usize),
    /// `recv(comm, buf, peer)`.
    Recv(usize),
    /// `send_recv(comm, src -> dst, to, from)`.
    SendRecv(usize, usize),
}

/// A collective node's call: its communicator, operation and buffers (`dst` none for the nodes
/// of one buffer).
#[derive(Debug)]
pub struct CollectiveCall<'p, T: 'static> {
    comm: &'p Communicator,
    op: CollectiveOp,
    src: &'p DeviceBuffer<T>,
    dst: Option<&'p DeviceBuffer<T>>,
}

/// The call of a collective node over `comm`, of one buffer. (The generated code reaches the
/// communicator and buffers through [`CommunicatorParam`] and [`CollectiveBuffer`], each at
/// the user's token for it.)
#[inline(always)]
pub fn collective<'p, T>(
    comm: &'p Communicator,
    op: CollectiveOp,
    buf: &'p DeviceBuffer<T>,
) -> CollectiveCall<'p, T> {
    CollectiveCall {
        comm,
        op,
        src: buf,
        dst: None,
    }
}

/// The call of a collective node over `comm`, from `src` to `dst`.
#[inline(always)]
pub fn collective_to<'p, T>(
    comm: &'p Communicator,
    op: CollectiveOp,
    src: &'p DeviceBuffer<T>,
    dst: &'p DeviceBuffer<T>,
) -> CollectiveCall<'p, T> {
    CollectiveCall {
        comm,
        op,
        src,
        dst: Some(dst),
    }
}

impl<T: NcclElem> CollectiveCall<'_, T> {
    /// What the node issues and the addresses of its buffers, as its graph records them; `None`
    /// for a root or peer out of range (adding the node says so).
    fn recorded(&self) -> Option<(Collective, [u64; 2])> {
        let rank = |r: usize| u32::try_from(r).ok();
        let (op, count) = match (self.op, self.dst) {
            (CollectiveOp::AllReduce(r), _) => (Op::AllReduce(r), self.src.len()),
            (CollectiveOp::AllGather, _) => (Op::AllGather, self.src.len()),
            (CollectiveOp::ReduceScatter(r), _) => (Op::ReduceScatter(r), self.src.len()),
            (CollectiveOp::Broadcast(root), _) => {
                (Op::Broadcast { root: rank(root)? }, self.src.len())
            }
            (CollectiveOp::Send(peer), _) => (Op::Send { peer: rank(peer)? }, self.src.len()),
            (CollectiveOp::Recv(peer), _) => (Op::Recv { peer: rank(peer)? }, self.src.len()),
            (CollectiveOp::SendRecv(to, from), _) => (
                Op::SendRecv {
                    to: rank(to)?,
                    from: rank(from)?,
                },
                self.src.len(),
            ),
        };
        let addrs = [self.src.addr(), self.dst.map_or(0, DeviceBuffer::addr)];
        Some((Collective::new::<T>(op, count), addrs))
    }
}

/// Adds a collective node (the runtime's `Graph::add_*` of its operation).
pub fn add_collective<T: NcclElem>(
    graph: &mut Graph<'static>,
    call: CollectiveCall<'_, T>,
    deps: &[NodeId],
) -> Result<ChildGraphNode> {
    let comm = call.comm;
    let mut src = call.src.clone();
    let mut dst = call.dst.cloned();
    match (call.op, dst.as_mut()) {
        (CollectiveOp::AllReduce(op), None) => {
            graph.add_all_reduce_in_place(comm, &mut src, op, deps)
        }
        (CollectiveOp::AllReduce(op), Some(dst)) => graph.add_all_reduce(comm, &src, dst, op, deps),
        (CollectiveOp::AllGather, Some(dst)) => graph.add_all_gather(comm, &src, dst, deps),
        (CollectiveOp::ReduceScatter(op), Some(dst)) => {
            graph.add_reduce_scatter(comm, &src, dst, op, deps)
        }
        (CollectiveOp::Broadcast(root), None) => graph.add_broadcast(comm, &mut src, root, deps),
        (CollectiveOp::Send(peer), None) => graph.add_send(comm, &src, peer, deps),
        (CollectiveOp::Recv(peer), None) => graph.add_recv(comm, &mut src, peer, deps),
        (CollectiveOp::SendRecv(to, from), Some(dst)) => {
            graph.add_send_recv(comm, &src, to, dst, from, deps)
        }
        // The macro writes each operation with its own operands.
        (op, _) => Err(Error::Invalid {
            node: "collective".into(),
            reason: format!("{op:?} with other operands than the declaration's syntax gives"),
        }),
    }
}

/// Checks that collective node `node` of `exec` still issues `call` (its communicator, buffers,
/// operation, root or peers): NCCL's recorded work cannot change, so a changed param is refused,
/// naming the node; build the graph again instead.
pub fn same_collective<T: NcclElem>(
    exec: &GraphExec<'static>,
    node: ChildGraphNode,
    call: CollectiveCall<'_, T>,
    name: &str,
) -> Result<()> {
    let graph = exec.graph();
    let same = call.recorded().is_some_and(|(what, addrs)| {
        graph
            .collectives()
            .is_some_and(|table| table.issues(node.id().index(), call.comm.inner.id, what, addrs))
    });
    if same {
        return Ok(());
    }
    Err(Error::Invalid {
        node: name.into(),
        reason: "a collective node's communicator, buffers, root and peers are fixed when the \
                 graph is built (NCCL recorded its work for them, on every rank at once): build \
                 the graph again with the new params, on every rank"
            .into(),
    })
}
