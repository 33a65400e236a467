//! The crate's error type.

use cudarc::driver::DriverError;

/// Why `cuGraphExecUpdate` refused a graph (`CUgraphExecUpdateResult`, less success).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum UpdateFailure {
    /// An unspecified error (`CU_GRAPH_EXEC_UPDATE_ERROR`).
    Unspecified,
    /// The graph's topology differs from the executable's.
    TopologyChanged,
    /// A node's type changed.
    NodeTypeChanged,
    /// A kernel node's function changed context.
    FunctionChanged,
    /// A parameter changed in a way CUDA cannot update.
    ParametersChanged,
    /// Something about the node is not supported by whole-graph update.
    NotSupported,
    /// A kernel node's function cannot be changed to the new one.
    UnsupportedFunctionChange,
    /// An attribute of the node changed in a way that is not supported.
    AttributesChanged,
    /// A code CUDA added after this crate was written.
    Other(u32),
}

impl std::fmt::Display for UpdateFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Unspecified => "unspecified error",
            Self::TopologyChanged => "the topology changed",
            Self::NodeTypeChanged => "the node type changed",
            Self::FunctionChanged => "the kernel's function changed context",
            Self::ParametersChanged => "a parameter changed in a way CUDA cannot update",
            Self::NotSupported => "this change is not supported by graph update",
            Self::UnsupportedFunctionChange => "the kernel's function cannot change to the new one",
            Self::AttributesChanged => "a node attribute changed in an unsupported way",
            Self::Other(code) => return write!(f, "update result code {code}"),
        })
    }
}

/// Everything that can go wrong in this crate.
///
/// Errors that concern one node name it: the name given when it was added (the macro uses the
/// declared name), or its kind and index (`kernel#3`).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The CUDA driver library (`libcuda.so`) could not be loaded.
    #[error("no CUDA driver: libcuda could not be loaded (is an NVIDIA driver installed?)")]
    NoDriver,
    /// The driver loaded but reports no usable device at this ordinal.
    #[error("no CUDA device {ordinal}: {source}")]
    NoDevice {
        /// The device ordinal asked for.
        ordinal: usize,
        /// What the driver said.
        source: DriverError,
    },
    /// A driver call failed.
    #[error("{call} failed: {source}")]
    Driver {
        /// The driver function that failed.
        call: &'static str,
        /// The driver's error code.
        source: DriverError,
    },
    /// A driver call about one node failed.
    #[error("{call} on node `{node}` failed: {source}")]
    Node {
        /// The driver function that failed.
        call: &'static str,
        /// The node it was about.
        node: String,
        /// The driver's error code.
        source: DriverError,
    },
    /// `cuGraphExecUpdate` rejected the new graph.
    #[error("update rejected at node `{node}`: {reason}")]
    UpdateRejected {
        /// The node of the new graph the driver blamed (`<graph>` when it named none).
        node: String,
        /// The driver's reason.
        reason: UpdateFailure,
    },
    /// A node handle was used with a graph or executable it does not belong to.
    #[error("node `{node}` does not belong to this graph")]
    ForeignNode {
        /// The node, as named in its own graph's numbering.
        node: String,
    },
    /// A host node's closure panicked while the graph ran; the panic was caught at the driver
    /// boundary and is reported here.
    #[error("host node `{node}` panicked: {message}")]
    HostPanicked {
        /// The host node.
        node: String,
        /// The panic's message.
        message: String,
    },
    /// An NCCL call failed (feature `nccl`).
    #[error("NCCL {call} for `{node}` failed: {code}")]
    Nccl {
        /// The NCCL function that failed.
        call: &'static str,
        /// The node (or API item) it was for.
        node: String,
        /// NCCL's result code.
        code: String,
    },
    /// The ranks of a communicator do not issue the same collectives in the same order: their
    /// launches would hang (feature `nccl`, see `Graph::check_collective_order`).
    #[error("collective `{node}` differs between ranks: {reason}")]
    CollectiveMismatch {
        /// This rank's node at the first place where the ranks disagree.
        node: String,
        /// What each side issues there, and what to do.
        reason: String,
    },
    /// An argument is out of range (too many nodes, a copy of the wrong length, ...).
    #[error("invalid argument for `{node}`: {reason}")]
    Invalid {
        /// The node (or API item) concerned.
        node: String,
        /// What is wrong.
        reason: String,
    },
    /// Memory is in use in a way that forbids what was asked: a launch or a new use while host
    /// code accesses the memory through a guard, a guard while another one writes it, or host
    /// memory shared by two executables of which one writes it.
    #[error("{buffer} is in use: {reason}")]
    BufferInUse {
        /// The memory concerned.
        buffer: String,
        /// Why, and what to do.
        reason: String,
    },
    /// Two nodes of a graph would use the same memory at the same time, one of them writing it:
    /// no edge orders them, so CUDA may run them in any order, or at once.
    #[error("nodes `{first}` and `{second}` may run at the same time: {reason}")]
    Hazard {
        /// The node added or declared first.
        first: String,
        /// The other node.
        second: String,
        /// What they share, and what to do.
        reason: String,
    },
    /// A node would break the rules of graph allocations (alloc and free nodes): a use not
    /// ordered after the alloc node or after the free, a free not ordered after every use, a
    /// second free, an allocation of another graph, or an executable whose allocation from the
    /// last launch is still live.
    #[error("`{node}` and {allocation}: {reason}")]
    Allocation {
        /// The node concerned (or the executable's call).
        node: String,
        /// The allocation (its alloc node).
        allocation: String,
        /// What is wrong, and what to do.
        reason: String,
    },
    /// A call of this crate was refused because a stream is being captured: it would have
    /// enqueued work on a capturing stream (recorded into the capture instead of run: a launch, a
    /// completion marker, an allocation), or it waits on the host for the GPU inside a capture
    /// closure (its result could not include the captured work, which has not run, and CUDA
    /// forbids synchronizing calls there). Refused before any driver call, so the capture is not
    /// broken: a capture closure may go on after it.
    #[error("{what}: the stream is being captured; end the capture first")]
    Capturing {
        /// The call that was refused, and why.
        what: String,
    },
    /// A stream capture was broken by a call made while it ran: most often one that
    /// synchronizes (`CudaStream::synchronize`, a blocking copy to the host, `cuCtxSynchronize`,
    /// a query of an event recorded in the capture), a wait on an event recorded outside the
    /// capture (cudarc's event tracking makes those), or use of the legacy default stream.
    /// Nothing was recorded; the streams are out of capture mode and usable again.
    ///
    /// `call` names the call that failed as far as it can be known: the capture closure's error
    /// (a cudarc call, or this crate's call named in it), the error cudarc recorded for later
    /// (see `CudaContext::check_err`), or, when the closure reported nothing, the end of the
    /// capture. See [CUDA's stream capture rules].
    ///
    /// [CUDA's stream capture rules]: https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#prohibited-and-unhandled-operations
    #[error("{call} failed with {}: {hint}", code_name(*.code))]
    CaptureBroken {
        /// The call that failed, as far as it is known.
        call: String,
        /// The driver's capture error (`CUDA_ERROR_STREAM_CAPTURE_*` or
        /// `CUDA_ERROR_CAPTURED_EVENT`).
        #[source]
        code: DriverError,
        /// What makes CUDA return this code during a capture, and what to do instead.
        hint: &'static str,
    },
    /// A call that needs the CUDA driver was made inside a host node, where CUDA forbids calls
    /// into it.
    #[error("{what} cannot be called inside a host node (CUDA forbids driver calls there)")]
    InHostNode {
        /// The call.
        what: &'static str,
    },
    /// The loaded CUDA driver is older than a graph API the call needs (see
    /// [`driver_version`](crate::driver_version)). Refused before the driver is called.
    #[error(
        "{api} needs a CUDA {}.{} driver or newer, and this one is CUDA {}.{}: update the NVIDIA \
         driver",
        needed.0, needed.1, found.0, found.1
    )]
    DriverTooOld {
        /// The API (or node type) concerned.
        api: &'static str,
        /// The CUDA version it needs, `(major, minor)`.
        needed: (u32, u32),
        /// The loaded driver's CUDA version.
        found: (u32, u32),
    },
}

impl Error {
    /// A driver call's failure ([`Error::Driver`]) as one about node `node` ([`Error::Node`]);
    /// any other error as it is.
    #[cold]
    pub(crate) fn at_node(self, node: impl FnOnce() -> String) -> Error {
        match self {
            Error::Driver { call, source } => Error::Node {
                call,
                node: node(),
                source,
            },
            other => other,
        }
    }
}

/// The name of a driver error code (`CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED`).
fn code_name(code: DriverError) -> String {
    format!("{:?}", code.0)
}

/// `Result` with this crate's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// A cudarc call's failure, so `?` works on cudarc calls in code returning this crate's
/// [`Result`] (e.g. inside [`Graph::capture`](crate::Graph::capture)).
impl From<DriverError> for Error {
    fn from(source: DriverError) -> Self {
        Error::Driver {
            call: "a cudarc driver call",
            source,
        }
    }
}
