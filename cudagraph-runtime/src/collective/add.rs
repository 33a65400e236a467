//! The collective nodes of a [`Graph`]: each one NCCL call (or one group of calls) recorded by
//! stream capture on the communicator's stream, embedded as a child-graph node whose memory is
//! the collective's buffers.

use cudarc::nccl::result::NcclError;
use cudarc::nccl::{group_end, group_start};

use super::comm::Communicator;
use super::error::nccl_err;
use super::handle::NcclComm;
use super::op::{Collective, NcclElem, Op, ReduceOp};
use crate::capture::CaptureOperands;
use crate::error::{Error, Result};
use crate::graph::Graph;
use crate::memory::fence::relaxed;
use crate::memory::DeviceBuffer;
use crate::node::{ChildGraphNode, NodeId, NodeKind};

/// Why a conditional body refuses a collective node.
pub(crate) const NOT_IN_BODY: &str = "an NCCL collective cannot be in a conditional body: \
     whether a body runs is decided on each device, so one rank could skip a collective its \
     peers wait in, and hang them all (and NCCL's captured work may hold nodes a body cannot); \
     put the collective before or after the conditional node, on every rank";

/// Why a graph launched from the device refuses collective nodes.
pub(crate) const NOT_DEVICE_LAUNCHED: &str = "an NCCL collective cannot be in a graph launched \
     from the device: the launches using a communicator must run one after the other (NCCL \
     runs a communicator's collectives one at a time, in the same order on every rank), which \
     only a launch from the host orders (a kernel's launch of the graph is not ordered); put \
     the collectives in a graph launched from the host";

impl<'a> Graph<'a> {
    /// Adds a collective node issuing `call` (one NCCL call on `comm`'s stream, recorded by
    /// capture), with the buffers `operands` (read and written as they say), after `deps`.
    fn add_collective<O, F>(
        &mut self,
        comm: &Communicator,
        step: Collective,
        addrs: [u64; 2],
        operands: O,
        deps: &[NodeId],
        call: F,
    ) -> Result<ChildGraphNode>
    where
        O: CaptureOperands<'a>,
        F: for<'v> Fn(&NcclComm, O::Views<'v>) -> std::result::Result<(), NcclError>
            + Send
            + 'static,
    {
        let what = match step.op {
            Op::AllReduce(_) => ("all_reduce", "ncclAllReduce", "Graph::add_all_reduce"),
            Op::AllGather => ("all_gather", "ncclAllGather", "Graph::add_all_gather"),
            Op::ReduceScatter(_) => (
                "reduce_scatter",
                "ncclReduceScatter",
                "Graph::add_reduce_scatter",
            ),
            Op::Broadcast { .. } => ("broadcast", "ncclBroadcast", "Graph::add_broadcast"),
            Op::Send { .. } => ("send", "ncclSend", "Graph::add_send"),
            Op::Recv { .. } => ("recv", "ncclRecv", "Graph::add_recv"),
            Op::SendRecv { .. } => ("send_recv", "ncclSend/ncclRecv", "Graph::add_send_recv"),
        };
        // Before anything is made (the capture below calls the driver).
        let here = crate::ambient::refuse_in_host_node(what.2);
        self.or_forget_name(here)?;
        self.name_next_unless_named(what.0);
        let node = self.pending_name(NodeKind::ChildGraph);
        if self.is_body() {
            return self.or_forget_name(Err(Error::Invalid {
                node,
                reason: NOT_IN_BODY.into(),
            }));
        }
        if comm.context().cu_ctx() != self.context().cu_ctx() {
            return self.or_forget_name(Err(Error::Invalid {
                node,
                reason: format!(
                    "the communicator (rank {} of {}) is on device {}, the graph on device {}: \
                     add a collective to the graph of its rank's device",
                    comm.rank(),
                    comm.size(),
                    comm.context().ordinal(),
                    self.context().ordinal()
                ),
            }));
        }
        // Where the buffers lie in the communicator's symmetric windows: part of what every rank
        // must issue alike (point-to-point steps run no symmetric kernel).
        let step = if step.is_p2p() {
            step
        } else {
            let windows = comm.inner.windows();
            step.placed(addrs.map(|a| windows.placement(a)))
        };
        let deps = self.after_collectives(&[comm.inner.id], deps);
        let inner = comm.inner.clone();
        let call_name = what.1;
        // No other thread issues work to the stream while it is captured.
        let stream_use = comm.inner.stream_use();
        // The node holds the communicator, and what NCCL recorded with its own user object (the
        // plan of the collective), as it holds memory (see `memory::kept`): until the launches
        // that may use them are over, however soon the graph, its executables and every handle
        // are dropped. Not in user objects of the graph: CUDA tracks those at every launch, at
        // a cost in GPU time (3 to 4.5 µs a launch on an H200) that small collectives feel.
        let captured = self.add_captured_keeping(
            what.2,
            comm.inner.stream(),
            &deps,
            operands,
            comm.inner.clone(),
            {
                let node = node.clone();
                move |_scope, views| {
                    let comm = inner.lock();
                    // In relaxed mode: NCCL may make calls here that a thread-local capture
                    // refuses but that record no stream work: connecting an algorithm the
                    // communicator's warm-up did not pick (see `connect`: it imports and maps
                    // its peers' buffers), or registering the captured buffers with the peers
                    // (`NCCL_GRAPH_REGISTER`, on by default). NCCL switches to relaxed mode
                    // itself around its allocations only.
                    relaxed(|| call(&comm, views)).map_err(nccl_err(call_name, node.clone()))
                }
            },
        );
        drop(stream_use);
        let captured = captured?;
        let index = captured.id().index();
        self.collectives_mut().push(&comm.inner, index, step, addrs);
        Ok(captured)
    }

    /// `deps`, and the last collective node on each of the communicators `comms`: NCCL runs a
    /// communicator's collectives one at a time, in the same order on every rank, so each
    /// collective node comes after the one added before it on its communicator (the order of
    /// the calls that add them, which the same declaration makes the same on every rank).
    pub(crate) fn after_collectives(&self, comms: &[u64], deps: &[NodeId]) -> Vec<NodeId> {
        let mut all = deps.to_vec();
        let last = self
            .collectives()
            .map(|t| t.last_on(comms))
            .unwrap_or_default();
        for id in last.into_iter().filter_map(|i| self.node_id(i)) {
            if !all.contains(&id) {
                all.push(id);
            }
        }
        all
    }

    /// Refuses `what` of `len` elements where `expected` were needed.
    fn collective_len(&mut self, what: &str, len: usize, expected: usize, why: &str) -> Result<()> {
        if len == expected {
            return Ok(());
        }
        self.name_next_unless_named(what);
        let node = self.pending_name(NodeKind::ChildGraph);
        self.or_forget_name(Err(Error::Invalid {
            node,
            reason: format!("{len} elements where {expected} are needed: {why}"),
        }))
    }

    /// Refuses rank `peer` of `comm` as the `role` of `what` when out of range (or this rank,
    /// when `not_self`).
    fn collective_peer(
        &mut self,
        what: &str,
        comm: &Communicator,
        peer: usize,
        role: &str,
        not_self: bool,
    ) -> Result<u32> {
        let reason = if peer >= comm.size() {
            format!(
                "the {role} is rank {peer}, and the communicator has ranks 0..{}",
                comm.size()
            )
        } else if not_self && peer == comm.rank() {
            format!(
                "the {role} is this rank ({peer}): a lone send or receive to itself waits \
                 forever; use `add_send_recv`, which groups both"
            )
        } else {
            return Ok(peer as u32);
        };
        self.name_next_unless_named(what);
        let node = self.pending_name(NodeKind::ChildGraph);
        self.or_forget_name(Err(Error::Invalid { node, reason }))
    }

    /// Adds an all-reduce node (`ncclAllReduce`) after `deps`: `dst` becomes the reduction `op`
    /// of every rank's `src` (both of the same length). It reads `src` and writes `dst`, as the
    /// memory model records them: the graph and its executables keep both alive, and nodes
    /// using them must be ordered with it.
    ///
    /// Every rank must add the same collectives in the same order on `comm` (checked across
    /// ranks when the graph is instantiated, see [`Graph::check_collective_order`]). The node
    /// runs after `deps` and after the collective node added before it on `comm`, if any:
    /// NCCL runs a communicator's collectives one at a time, in the order every rank issues
    /// them. A
    /// conditional body ([`Body`](crate::Body)) has no collective nodes: whether it runs is
    /// decided on each device, so a rank could skip a collective its peers wait in (a child
    /// graph holding collectives is refused there). Refused for a communicator of another
    /// device.
    ///
    /// The node is a child-graph node holding what NCCL recorded, named `all_reduce#i` unless
    /// named with [`Graph::name_next`].
    pub fn add_all_reduce<T: NcclElem>(
        &mut self,
        comm: &Communicator,
        src: &DeviceBuffer<T>,
        dst: &mut DeviceBuffer<T>,
        op: ReduceOp,
        deps: &[NodeId],
    ) -> Result<ChildGraphNode> {
        self.collective_len(
            "all_reduce",
            dst.len(),
            src.len(),
            "an all-reduce writes as many elements as it reads",
        )?;
        let step = Collective::new::<T>(Op::AllReduce(op), src.len());
        self.add_collective(
            comm,
            step,
            [src.addr(), dst.addr()],
            (src, dst),
            deps,
            move |c, (s, mut d)| c.all_reduce(&s, &mut d, op),
        )
    }

    /// Adds an in-place all-reduce node: `buf` becomes the reduction `op` of every rank's `buf`
    /// (see [`Graph::add_all_reduce`]).
    pub fn add_all_reduce_in_place<T: NcclElem>(
        &mut self,
        comm: &Communicator,
        buf: &mut DeviceBuffer<T>,
        op: ReduceOp,
        deps: &[NodeId],
    ) -> Result<ChildGraphNode> {
        let step = Collective::new::<T>(Op::AllReduce(op), buf.len());
        self.add_collective(comm, step, [buf.addr(), 0], buf, deps, move |c, mut b| {
            c.all_reduce_in_place(&mut b, op)
        })
    }

    /// Adds an all-gather node (`ncclAllGather`): `dst` (`size` times `src`'s length) becomes
    /// every rank's `src`, rank after rank (see [`Graph::add_all_reduce`] for the rules).
    pub fn add_all_gather<T: NcclElem>(
        &mut self,
        comm: &Communicator,
        src: &DeviceBuffer<T>,
        dst: &mut DeviceBuffer<T>,
        deps: &[NodeId],
    ) -> Result<ChildGraphNode> {
        self.collective_len(
            "all_gather",
            dst.len(),
            src.len() * comm.size(),
            "an all-gather writes the communicator's size times the elements it reads",
        )?;
        let step = Collective::new::<T>(Op::AllGather, src.len());
        self.add_collective(
            comm,
            step,
            [src.addr(), dst.addr()],
            (src, dst),
            deps,
            |c, (s, mut d)| c.all_gather(&s, &mut d),
        )
    }

    /// Adds a reduce-scatter node (`ncclReduceScatter`): rank `r`'s `dst` becomes the reduction
    /// `op` of block `r` of every rank's `src` (`size` blocks of `dst`'s length) (see
    /// [`Graph::add_all_reduce`] for the rules).
    pub fn add_reduce_scatter<T: NcclElem>(
        &mut self,
        comm: &Communicator,
        src: &DeviceBuffer<T>,
        dst: &mut DeviceBuffer<T>,
        op: ReduceOp,
        deps: &[NodeId],
    ) -> Result<ChildGraphNode> {
        self.collective_len(
            "reduce_scatter",
            src.len(),
            dst.len() * comm.size(),
            "a reduce-scatter reads the communicator's size times the elements it writes",
        )?;
        let step = Collective::new::<T>(Op::ReduceScatter(op), src.len());
        self.add_collective(
            comm,
            step,
            [src.addr(), dst.addr()],
            (src, dst),
            deps,
            move |c, (s, mut d)| c.reduce_scatter(&s, &mut d, op),
        )
    }

    /// Adds a broadcast node (`ncclBroadcast`, in place): every rank's `buf` becomes rank
    /// `root`'s (it is read on the root, written elsewhere, and recorded as written on every
    /// rank) (see [`Graph::add_all_reduce`] for the rules).
    pub fn add_broadcast<T: NcclElem>(
        &mut self,
        comm: &Communicator,
        buf: &mut DeviceBuffer<T>,
        root: usize,
        deps: &[NodeId],
    ) -> Result<ChildGraphNode> {
        let root = self.collective_peer("broadcast", comm, root, "root", false)?;
        let step = Collective::new::<T>(Op::Broadcast { root }, buf.len());
        self.add_collective(comm, step, [buf.addr(), 0], buf, deps, move |c, mut b| {
            c.broadcast_in_place(&mut b, root as i32)
        })
    }

    /// Adds a send node (`ncclSend`): `buf` goes to rank `peer`, whose graph must receive it
    /// ([`Graph::add_recv`], or [`Graph::add_send_recv`]) at the same place of its sequence,
    /// with the same length (see [`Graph::add_all_reduce`] for the rules).
    pub fn add_send<T: NcclElem>(
        &mut self,
        comm: &Communicator,
        buf: &DeviceBuffer<T>,
        peer: usize,
        deps: &[NodeId],
    ) -> Result<ChildGraphNode> {
        let peer = self.collective_peer("send", comm, peer, "peer", true)?;
        let step = Collective::new::<T>(Op::Send { peer }, buf.len());
        self.add_collective(comm, step, [buf.addr(), 0], buf, deps, move |c, b| {
            c.send(&b, peer as i32)
        })
    }

    /// Adds a receive node (`ncclRecv`): `buf` becomes what rank `peer` sends at the same place
    /// of its sequence (see [`Graph::add_send`]).
    pub fn add_recv<T: NcclElem>(
        &mut self,
        comm: &Communicator,
        buf: &mut DeviceBuffer<T>,
        peer: usize,
        deps: &[NodeId],
    ) -> Result<ChildGraphNode> {
        let peer = self.collective_peer("recv", comm, peer, "peer", true)?;
        let step = Collective::new::<T>(Op::Recv { peer }, buf.len());
        self.add_collective(comm, step, [buf.addr(), 0], buf, deps, move |c, mut b| {
            c.recv(&mut b, peer as i32)
        })
    }

    /// Adds a node that sends `src` to rank `to` and receives `dst` (of the same length) from
    /// rank `from`, as one NCCL group (`ncclGroupStart`, `ncclSend`, `ncclRecv`,
    /// `ncclGroupEnd`): the step of a ring or a halo exchange, where every rank sends and
    /// receives at once (see [`Graph::add_send`]).
    pub fn add_send_recv<T: NcclElem>(
        &mut self,
        comm: &Communicator,
        src: &DeviceBuffer<T>,
        to: usize,
        dst: &mut DeviceBuffer<T>,
        from: usize,
        deps: &[NodeId],
    ) -> Result<ChildGraphNode> {
        let to = self.collective_peer("send_recv", comm, to, "rank sent to", false)?;
        let from = self.collective_peer("send_recv", comm, from, "rank received from", false)?;
        self.collective_len(
            "send_recv",
            dst.len(),
            src.len(),
            "a send-receive step receives as many elements as it sends",
        )?;
        let step = Collective::new::<T>(Op::SendRecv { to, from }, src.len());
        self.add_collective(
            comm,
            step,
            [src.addr(), dst.addr()],
            (src, dst),
            deps,
            move |c, (s, mut d)| {
                group_start()?;
                let sent = c.send(&s, to as i32);
                let received = c.recv(&mut d, from as i32);
                // The group always ends, also when a call in it failed.
                let ended = group_end().map(drop);
                sent.and(received).and(ended)
            },
        )
    }

    /// Checks that every rank of each communicator this graph's collective nodes use adds the
    /// same collectives in the same order (operation, element type, count, root, where the
    /// buffers lie in symmetric windows; a send meeting a receive of the same size on its
    /// peer), with one exchange over the communicator (an all-gather of the length and a hash of
    /// the sequence, and of the whole sequence only when they differ or there are sends and
    /// receives or symmetric buffers). Refused with [`Error::CollectiveMismatch`] naming this
    /// rank's node at the first place where the ranks disagree.
    ///
    /// A graph using several communicators exchanges over them in an order every rank shares
    /// (each communicator has a random key, the same on all its ranks, and they go by key), so
    /// ranks whose graphs first use them in different orders are refused or pass, and do not
    /// wait in different exchanges. The order across communicators is compared too: two ranks
    /// whose graphs both use communicators `p` and `q` must add their collectives on the two in
    /// the same order (rank 0 all-reducing on `p` then on `q`, rank 1 on `q` then on `p`, would
    /// wait for each other forever when launched), as NCCL asks of
    /// [several communicators](https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/usage/communicators.html#using-multiple-nccl-communicators-concurrently).
    /// When one communicator is refused, the exchanges over the others still run (their ranks
    /// wait in them), and the first refusal is returned.
    ///
    /// [`Graph::instantiate`] checks it first (once: a graph already checked is not checked
    /// again, until a collective is added). Every rank must call it (or instantiate) at the
    /// same point, on its own thread or process: the exchange waits for all of them. Refused
    /// where the exchange cannot wait: inside a host node ([`Error::InHostNode`]) or a capture
    /// closure ([`Error::Capturing`]).
    ///
    /// A graph with collectives over symmetric buffers ([`Communicator::alloc_symmetric`])
    /// exchanges again at every instantiation, checked or not, over each communicator it runs
    /// them on: the ranks compare the collectives they instantiate there and whether each made
    /// its executable, and every rank refuses unless all did
    /// ([`Error::CollectiveMismatch`] where the collectives differ, [`Error::Invalid`] where a
    /// peer could not instantiate; a rank that could not returns its own error). So the ranks
    /// of a communicator own executables running the same symmetric collectives, or none does.
    pub fn check_collective_order(&mut self) -> Result<()> {
        if self.collectives().is_none() {
            return Ok(());
        }
        let mut table = std::mem::take(self.collectives_mut());
        let checked = table.check_order(&|i| self.name_of(i));
        *self.collectives_mut() = table;
        checked
    }

    /// The exchange that makes every rank instantiate a graph with collectives over symmetric
    /// buffers or none (see [`Graph::check_collective_order`]): `ready` when this rank made its
    /// executable. Nothing is exchanged for other graphs.
    pub(crate) fn agree_on_instantiation(&self, ready: bool) -> Result<()> {
        match self.collectives() {
            Some(table) => table.agree_on_instantiation(ready, &|i| self.name_of(i)),
            None => Ok(()),
        }
    }
}
