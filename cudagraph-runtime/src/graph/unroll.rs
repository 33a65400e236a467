//! Unrolled WHILE loops: a WHILE node whose body holds `k` copies of one iteration, one after the
//! other, so that each pass of the loop runs `k` iterations and reads its handle once.
//!
//! A WHILE node costs the GPU a few microseconds per pass (the node reads its handle and starts
//! its body again), on top of the body's own work: for a body of small kernels, that is most of
//! the time a pass takes. Copies of the iteration in one body pay it once per `k` iterations.
//!
//! The price is exactness: the loop stops only where its handle is read, at the end of a pass, so
//! it may run up to `k - 1` iterations after the one that would have stopped it. That suits
//! iterations that are harmless to repeat (a converged Jacobi sweep changes nothing), with the
//! check that sets the handle added to the last copy only: the user picks `k` for the work. (An
//! IF node guarding each copy would keep the count exact, but CUDA ties a handle to a single
//! conditional node and refuses a second one on the WHILE's handle.)

use super::body::Body;
use super::definition::Graph;
use crate::error::{Error, Result};
use crate::node::{Condition, ConditionalHandle, ConditionalNode, NodeId};
use crate::EdgeKind;

/// Which copy of an unrolled WHILE body a builder adds (see [`Graph::add_unrolled_while`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct UnrolledCopy {
    index: u32,
    count: u32,
}

impl UnrolledCopy {
    /// The copy's position, from 0: copies run in this order.
    pub fn index(self) -> u32 {
        self.index
    }

    /// How many copies the body has (the `unroll` of the loop).
    pub fn count(self) -> u32 {
        self.count
    }

    /// Whether it is the last copy, the one that ends a pass of the loop: where the check that
    /// sets the loop's handle goes.
    pub fn is_last(self) -> bool {
        self.index + 1 == self.count
    }
}

impl<'a> Graph<'a> {
    /// Adds a WHILE node reading `handle` after `deps`, whose body holds `unroll` copies of one
    /// iteration: `build` is called once per copy, in order, with the body and which copy it
    /// adds, and adds that copy's nodes (dependencies among them as usual). Each copy runs after
    /// the one before it: the nodes of a copy that depend on no node of their own copy are made
    /// to depend on every node of the previous copy that no node of that copy depends on (a copy
    /// that adds nothing is skipped). Returns the node and what `build` returned for each copy.
    ///
    /// The loop reads `handle` once per pass, after the last copy: add the kernel that sets it
    /// (the convergence check) to the last copy only ([`UnrolledCopy::is_last`]). A pass then
    /// runs all `unroll` copies, so the loop may run up to `unroll - 1` iterations after the
    /// one whose check would have stopped it: choose `unroll` for iterations that are harmless
    /// to repeat. The check runs once per pass, so the per-pass cost of the WHILE node (a few
    /// microseconds of GPU time) is paid once per `unroll` iterations. `unroll = 1` is the
    /// plain loop ([`Graph::add_conditional`] with [`Condition::While`]).
    ///
    /// `unroll` is at least 1 ([`Error::Invalid`] otherwise). Otherwise as
    /// [`Graph::add_conditional`]: the same body rules, and if `build` fails the node is
    /// removed and its error returned.
    pub fn add_unrolled_while<R>(
        &mut self,
        handle: ConditionalHandle,
        deps: &[NodeId],
        unroll: u32,
        build: impl FnMut(&mut Body<'a>, UnrolledCopy) -> Result<R>,
    ) -> Result<(ConditionalNode, Vec<R>)> {
        if unroll == 0 {
            let node = self.pending_name(crate::node::NodeKind::Conditional);
            return self.or_forget_name(Err(Error::Invalid {
                node,
                reason: "an unrolled WHILE body has at least one copy of the iteration \
                         (`unroll` 1 is the plain loop)"
                    .into(),
            }));
        }
        let mut build = build;
        self.add_conditional_with(handle, Condition::While, deps, |bodies| {
            let body = bodies[0].graph_mut();
            body.add_copies(unroll, |graph, copy| build(graph.as_body(), copy))
        })
    }

    /// Adds `count` copies of a sub-graph to this graph, `build` adding each (see
    /// [`Graph::add_unrolled_while`] for how they are ordered); returns what each returned.
    fn add_copies<R>(
        &mut self,
        count: u32,
        mut build: impl FnMut(&mut Graph<'a>, UnrolledCopy) -> Result<R>,
    ) -> Result<Vec<R>> {
        // Not `count` up front: a count near `u32::MAX` (which `add_unrolled_while` takes)
        // would reserve that many `R`s before `build` first runs, and abort the process when
        // the allocation fails, where a failing `build` returns its error.
        let mut out = Vec::with_capacity(count.min(64) as usize);
        // The last non-empty copy's sinks: what the next copy's sources wait for.
        let mut sinks: Vec<u32> = Vec::new();
        for index in 0..count {
            let start = self.nodes.len();
            out.push(build(self, UnrolledCopy { index, count })?);
            let end = self.nodes.len();
            if start == end {
                continue;
            }
            let inside = |d: u32| (start..end).contains(&(d as usize));
            for node in start..end {
                if self.deps_of(node).iter().any(|&d| inside(d)) {
                    continue;
                }
                for &sink in &sinks {
                    if self.deps_of(node).contains(&sink) {
                        continue;
                    }
                    let (from, to) = (self.id_at(sink), self.id_at(node as u32));
                    self.add_edge(from, to, EdgeKind::Default)?;
                }
            }
            let mut is_sink = vec![true; end - start];
            for node in start..end {
                for &d in self.deps_of(node) {
                    if inside(d) {
                        is_sink[d as usize - start] = false;
                    }
                }
            }
            sinks = (start..end)
                .filter(|&n| is_sink[n - start])
                .map(|n| n as u32)
                .collect();
        }
        Ok(out)
    }
}

impl<'a> Body<'a> {
    /// Adds a nested WHILE node whose body holds `unroll` copies of one iteration (see
    /// [`Graph::add_unrolled_while`]).
    pub fn add_unrolled_while<R>(
        &mut self,
        handle: ConditionalHandle,
        deps: &[NodeId],
        unroll: u32,
        build: impl FnMut(&mut Body<'a>, UnrolledCopy) -> Result<R>,
    ) -> Result<(ConditionalNode, Vec<R>)> {
        self.graph_mut()
            .add_unrolled_while(handle, deps, unroll, build)
    }
}

#[cfg(all(test, not(feature = "cuda-12020")))]
mod tests {
    use std::sync::Arc;

    use cudarc::driver::CudaContext;

    use crate::{open_device, EdgeKind, Graph, Kernel, LaunchConfig};

    /// A kernel of no parameters (never launched), from PTX a real driver takes as well as the
    /// null one.
    fn nop(ctx: &Arc<CudaContext>) -> Kernel<()> {
        let ptx = cudarc::nvrtc::Ptx::from_src(
            ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry nop() { ret; }\n",
        );
        let module = ctx.load_module(ptx).unwrap();
        let func = module.load_function("nop").unwrap();
        // SAFETY: never launched (the test only adds it to graphs, which it never launches).
        unsafe { Kernel::new(func) }
    }

    /// Each copy of an unrolled body runs after every node of the copy before it. A
    /// programmatic edge `a -> b` into a kernel that does not wait for it lets `b` (and so the
    /// copy's last node) complete while `a` still runs: `a` must then be among what the next
    /// copy waits for, not only `b`. Into a kernel that waits, `b`'s completion follows `a`'s,
    /// and waiting for `b` is enough. Needs a driver to make the objects (the null driver
    /// will do); skipped without one.
    #[test]
    fn a_copy_waits_for_a_producer_whose_data_edge_orders_no_completion() {
        let Ok(ctx) = open_device(0) else {
            eprintln!(
                "skipped a_copy_waits_for_a_producer_whose_data_edge_orders_no_completion: \
                 no driver"
            );
            return;
        };
        let plain = nop(&ctx);
        // SAFETY: never launched.
        let waiting = unsafe { nop(&ctx).waits_for_dependency() };
        let one = LaunchConfig::for_num_elems(1);
        for waits in [false, true] {
            let consumer = if waits { &waiting } else { &plain };
            let mut graph = Graph::new(&ctx).unwrap();
            graph
                .add_copies(2, |g, _| {
                    let a = g.add_kernel(&plain, one, (), &[])?;
                    let b = g.add_kernel(consumer, one, (), &[])?;
                    g.add_edge(a, b, EdgeKind::Programmatic)?;
                    Ok(())
                })
                .unwrap();
            // Copy 0 is nodes 0 (a) and 1 (b); copy 1 is nodes 2 and 3.
            let reaches = |from: usize, to: usize| {
                crate::memory::hazard::reaches(from, to, |n| graph.deps_of(n))
            };
            for first in [0, 1] {
                for second in [2, 3] {
                    assert!(
                        reaches(first, second),
                        "waits {waits}: node {first} of copy 0 does not order node {second} of \
                         copy 1 (deps of {second}: {:?})",
                        graph.deps_of(second)
                    );
                }
            }
        }
    }
}
