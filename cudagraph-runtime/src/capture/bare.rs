//! The nodes a capture recorded, copied into a graph that holds none of the user objects left on
//! the captured one.
//!
//! A library may keep the state of the work it enqueues alive with a CUDA user object on the
//! graph being captured: NCCL does, for the plan of each captured collective. Executables hold
//! their graph's user objects, and CUDA tracks them at every launch, which costs GPU time: on an
//! H200 (driver 580), a graph of one 5 µs kernel that held one user object took 9.5 to 11 µs per
//! launch back to back instead of 6.5 to 6.8 µs, and only 28 of its launches could be queued
//! (1021 without); NCCL's captured all-reduce of 4 bytes over two GPUs took 9.7 to 9.9 µs per
//! launch, and 5.4 µs with its nodes copied into a graph without the user object.
//!
//! The copy runs the same work: the same kernels with the same arguments and launch attributes,
//! the same event records and waits, copies and memsets, in the same order. What the user objects
//! kept alive the caller keeps alive instead, with the captured graph itself, as long as launches
//! may run the copy (see `memory::kept`).
//!
//! Copied: kernel, memcpy, memset, empty, event-record and event-wait nodes, joined by plain
//! edges. A graph with another node (a host function, a child graph, a batch memory operation,
//! a memory or conditional node) or an edge carrying data (a programmatic launch's) is not copied:
//! the caller embeds the captured graph itself.

use std::collections::HashMap;
use std::sync::Arc;

use cudarc::driver::{sys, CudaContext};

use crate::driver::result;
use crate::error::Result;
use crate::graph::Graph;
use crate::node::node_params;

/// `graph`'s nodes and edges copied into a new graph of `ctx`, or `None` when it holds a node or
/// an edge that is not copied (see the module docs).
///
/// # Safety
/// `graph` is a live graph of `ctx`, which nothing changes during the call.
pub(crate) unsafe fn copy_nodes(
    graph: sys::CUgraph,
    ctx: &Arc<CudaContext>,
) -> Result<Option<Graph<'static>>> {
    // SAFETY: the caller's promise.
    let nodes = unsafe { result::graph::nodes(graph) }?;
    let mut deps = Vec::with_capacity(nodes.len());
    for &node in &nodes {
        // SAFETY: a node of the live graph.
        let (of, unlisted) = unsafe { result::graph::dependencies(node) }?;
        if unlisted {
            return Ok(None);
        }
        deps.push(of);
    }
    let raw = result::graph::create()?;
    // SAFETY: new and ours; the value destroys it, also when a copy below fails.
    let copy = unsafe { Graph::from_raw_parts(raw, ctx.clone(), Vec::new()) };
    let mut made: HashMap<sys::CUgraphNode, sys::CUgraphNode> = HashMap::new();
    // Each node after its dependencies. The driver lists a capture's nodes in the order it
    // recorded them, which is such an order, so one pass copies them all; another order only
    // takes more passes.
    let mut pending: Vec<usize> = (0..nodes.len()).collect();
    while !pending.is_empty() {
        let mut waiting = Vec::new();
        for &at in &pending {
            let after: Option<Vec<_>> = deps[at].iter().map(|d| made.get(d).copied()).collect();
            let Some(after) = after else {
                waiting.push(at);
                continue;
            };
            // SAFETY: `nodes[at]` is a node of the live graph, `after` are nodes of the copy.
            match unsafe { copy_node(nodes[at], raw, &after, ctx) }? {
                Some(new) => made.insert(nodes[at], new),
                None => return Ok(None),
            };
        }
        if waiting.len() == pending.len() {
            // No node could be placed: not a graph the driver makes (it has no cycles).
            return Ok(None);
        }
        pending = waiting;
    }
    Ok(Some(copy))
}

/// Adds a copy of `node` to `into` after `after`, or `None` for a kind that is not copied.
///
/// # Safety
/// `node` is a node of a live graph of `ctx`, `into` a live graph of `ctx` and `after` its nodes.
unsafe fn copy_node(
    node: sys::CUgraphNode,
    into: sys::CUgraph,
    after: &[sys::CUgraphNode],
    ctx: &Arc<CudaContext>,
) -> Result<Option<sys::CUgraphNode>> {
    use sys::CUgraphNodeType as Type;
    // SAFETY: the caller's promise (for this call and every one below about `node`).
    let kind = unsafe { result::graph::node_type(node) }?;
    let mut params = if kind == Type::CU_GRAPH_NODE_TYPE_KERNEL as u32 {
        // SAFETY: a kernel node. Its argument buffer belongs to it, live through the add,
        // which copies the arguments.
        let mut kernel = unsafe { result::graph::kernel_node_params(node) }?;
        // As a rebuild names them (`graph::rebuild`): the graph's context, and the function
        // alone when there is one (what the driver gives back for `ctx` and `kern` is not
        // documented).
        kernel.ctx = ctx.cu_ctx();
        if !kernel.func.is_null() {
            kernel.kern = std::ptr::null_mut();
        }
        // SAFETY: `into` is live, `after` its nodes; `kernel` is a live node's parameters.
        let new = unsafe { result::graph::add_kernel_node(into, after, &kernel) }?;
        // SAFETY: both are live kernel nodes of `ctx`.
        unsafe { result::graph::copy_kernel_attributes(new, node) }?;
        return Ok(Some(new));
    } else if kind == Type::CU_GRAPH_NODE_TYPE_MEMCPY as u32 {
        // SAFETY: a memcpy node.
        let copy = unsafe { result::recorded::memcpy(node) }?;
        let mut p = node_params(Type::CU_GRAPH_NODE_TYPE_MEMCPY);
        p.__bindgen_anon_1.memcpy = sys::CUDA_MEMCPY_NODE_PARAMS {
            flags: 0,
            reserved: 0,
            copyCtx: ctx.cu_ctx(),
            copyParams: copy,
        };
        p
    } else if kind == Type::CU_GRAPH_NODE_TYPE_MEMSET as u32 {
        // SAFETY: a memset node.
        let set = unsafe { result::recorded::memset(node) }?;
        let mut p = node_params(Type::CU_GRAPH_NODE_TYPE_MEMSET);
        p.__bindgen_anon_1.memset = crate::node::memset_with_context(&set, ctx.cu_ctx());
        p
    } else if kind == Type::CU_GRAPH_NODE_TYPE_EMPTY as u32 {
        node_params(Type::CU_GRAPH_NODE_TYPE_EMPTY)
    } else if kind == Type::CU_GRAPH_NODE_TYPE_EVENT_RECORD as u32 {
        let mut p = node_params(Type::CU_GRAPH_NODE_TYPE_EVENT_RECORD);
        // SAFETY: an event-record node.
        p.__bindgen_anon_1.eventRecord.event = unsafe { result::recorded::event(node, true) }?;
        p
    } else if kind == Type::CU_GRAPH_NODE_TYPE_WAIT_EVENT as u32 {
        let mut p = node_params(Type::CU_GRAPH_NODE_TYPE_WAIT_EVENT);
        // SAFETY: an event-wait node.
        p.__bindgen_anon_1.eventWait.event = unsafe { result::recorded::event(node, false) }?;
        p
    } else {
        return Ok(None);
    };
    // SAFETY: `into` is live, `after` its nodes, and `params` is valid for its type: copied
    // from a live node of the same kind, in the same context.
    unsafe { result::graph::add_node(into, after, &mut params) }.map(Some)
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    use std::time::Duration;

    use super::copy_nodes;
    use crate::driver::result;
    use crate::{open_device, wait_for_releases, DeviceBuffer, Error, Graph, Mut};

    /// Sets its flag when dropped.
    struct Flag(Arc<AtomicBool>);

    impl Drop for Flag {
        fn drop(&mut self) {
            self.0.store(true, Ordering::Release);
        }
    }

    /// A captured copy, fork and join (an event record and wait between two streams), in a graph
    /// that holds a user object (`Graph::retain`, as a library's state would be): the copy has the
    /// same kinds of nodes, does the same work, and holds no user object (the value goes with the
    /// captured graph, while the copy lives on). A capture with a host function is not copied.
    /// Needs a GPU; skipped without a driver.
    #[test]
    fn a_copy_runs_the_captured_work_without_its_user_objects() {
        let Ok(ctx) = open_device(0) else {
            eprintln!("skipped a_copy_runs_the_captured_work_without_its_user_objects: no driver");
            return;
        };
        let stream = ctx.new_stream().unwrap();
        let n = 256;
        let src = DeviceBuffer::from_host(&stream, &(0..n as u32).collect::<Vec<_>>()).unwrap();
        let dst = DeviceBuffer::<u32>::zeros(&stream, n).unwrap();
        let side = ctx.new_stream().unwrap();
        let operands = (src.clone(), Mut(dst.clone()));
        let mut graph = Graph::capture(&stream, operands, move |s, (x, mut y)| {
            s.fork(&side, |o| o.memset_zeros(&mut y))?;
            s.memcpy_dtod(&x, &mut y)?;
            Ok::<(), Error>(())
        })
        .unwrap();
        let dropped = Arc::new(AtomicBool::new(false));
        graph.retain(Flag(dropped.clone())).unwrap();
        // SAFETY: a live graph of `ctx`, which nothing changes meanwhile.
        let copy = unsafe { copy_nodes(graph.raw(), &ctx) }
            .unwrap()
            .expect("memset, memcpy and event nodes are copied");
        let kinds = |g: &Graph<'_>| {
            // SAFETY: a live graph.
            let mut kinds: Vec<u32> = unsafe { result::graph::nodes(g.raw()) }
                .unwrap()
                .into_iter()
                // SAFETY: its nodes.
                .map(|node| unsafe { result::graph::node_type(node) }.unwrap())
                .collect();
            kinds.sort_unstable();
            kinds
        };
        assert_eq!(kinds(&copy), kinds(&graph));
        assert!(kinds(&copy).len() >= 2, "{:?}", kinds(&copy));

        drop(graph);
        assert!(wait_for_releases(Duration::from_secs(10)));
        assert!(
            dropped.load(Ordering::Acquire),
            "the captured graph's user object outlived it: the copy holds it"
        );

        let mut outer = Graph::new(&ctx).unwrap();
        outer.add_child_graph(&copy, &[]).unwrap();
        let mut exec = outer.instantiate().unwrap();
        exec.launch(&stream).unwrap();
        assert_eq!(dst.to_vec().unwrap(), (0..n as u32).collect::<Vec<_>>());

        let host = Graph::capture(&stream, (), |s, ()| s.host_fn(|| {})).unwrap();
        // SAFETY: as above.
        let copied = unsafe { copy_nodes(host.raw(), &ctx) }.unwrap();
        assert!(copied.is_none(), "a host function is not copied");
    }
}
