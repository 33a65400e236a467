//! Node kinds the bound CUDA version lacks (the `cuda-*` feature of this crate).
//!
//! Every conditional node of a declaration names `needs_conditional_nodes::<()>()`, and a `switch`
//! builds its `Condition` through `CudaHasSwitchNodes`, both at the user's keyword: with a binding
//! that lacks the node kind, the declaration fails to compile with a message naming the CUDA
//! version and feature it needs.

#[cfg(not(feature = "cuda-12020"))]
use crate::node::Condition;

/// Implemented when the bound CUDA has conditional nodes (CUDA 12.3 or newer).
#[diagnostic::on_unimplemented(
    message = "conditional nodes (`if`, `while`, `switch`) need CUDA 12.3 or newer: this build of \
               cudagraph-runtime binds CUDA 12.2 (its `cuda-12020` feature)",
    label = "needs CUDA 12.3",
    note = "depend on cudagraph-runtime with `default-features = false, features = [\"cuda-12030\"]` \
            or a newer `cuda-*` feature (the default binds CUDA 13.0)"
)]
pub trait CudaHasConditionalNodes {}

#[cfg(not(feature = "cuda-12020"))]
impl CudaHasConditionalNodes for () {}

/// Compiles only when the bound CUDA has conditional nodes.
#[inline(always)]
pub fn needs_conditional_nodes<T: CudaHasConditionalNodes>() {}

/// Implemented when the bound CUDA has SWITCH conditional nodes (CUDA 12.8 or newer).
#[cfg(not(feature = "cuda-12020"))]
#[diagnostic::on_unimplemented(
    message = "a `switch` node needs CUDA 12.8 or newer: this build of cudagraph-runtime binds an \
               older CUDA (one of its `cuda-12030` to `cuda-12060` features)",
    label = "needs CUDA 12.8",
    note = "depend on cudagraph-runtime with `default-features = false, features = [\"cuda-12080\"]` \
            or a newer `cuda-*` feature (the default binds CUDA 13.0)"
)]
pub trait CudaHasSwitchNodes {
    /// `Condition::Switch(cases)`.
    fn switch(cases: u32) -> Condition;
}

#[cfg(not(any(
    feature = "cuda-12020",
    feature = "cuda-12030",
    feature = "cuda-12040",
    feature = "cuda-12050",
    feature = "cuda-12060"
)))]
impl CudaHasSwitchNodes for () {
    #[inline(always)]
    fn switch(cases: u32) -> Condition {
        Condition::Switch(cases)
    }
}

/// Implemented when the bound CUDA has edges with data (CUDA 12.3 or newer): adds an edge of a
/// `->(programmatic)` or `->(launch_order)` arrow.
#[diagnostic::on_unimplemented(
    message = "programmatic and launch-order edges (`->(programmatic)`, `->(launch_order)`, \
               `#[programmatic]`) need CUDA 12.3 or newer: this build of cudagraph-runtime binds \
               CUDA 12.2 (its `cuda-12020` feature)",
    label = "needs CUDA 12.3",
    note = "depend on cudagraph-runtime with `default-features = false, features = [\"cuda-12030\"]` \
            or a newer `cuda-*` feature (the default binds CUDA 13.0)"
)]
pub trait CudaHasEdgeData {
    /// [`Graph::add_edge`](crate::Graph::add_edge).
    fn add_edge(
        graph: &mut crate::Graph<'_>,
        from: crate::NodeId,
        to: crate::NodeId,
        kind: crate::EdgeKind,
    ) -> crate::Result<()>;
}

#[cfg(not(feature = "cuda-12020"))]
impl CudaHasEdgeData for () {
    #[inline]
    fn add_edge(
        graph: &mut crate::Graph<'_>,
        from: crate::NodeId,
        to: crate::NodeId,
        kind: crate::EdgeKind,
    ) -> crate::Result<()> {
        graph.add_edge(from, to, kind)
    }
}

/// Adds the edge of a `->(programmatic)` or `->(launch_order)` arrow; compiles only when the
/// bound CUDA has edges with data.
#[inline]
pub fn add_edge<T: CudaHasEdgeData>(
    graph: &mut crate::Graph<'_>,
    from: crate::NodeId,
    to: crate::NodeId,
    kind: crate::EdgeKind,
) -> crate::Result<()> {
    T::add_edge(graph, from, to, kind)
}
