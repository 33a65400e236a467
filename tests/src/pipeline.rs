//! A three-stage pipeline with temporaries, built two ways for the memory-node benchmark: with
//! the temporaries as graph allocations (alloc before the first use, free after the last) and
//! with one static buffer per temporary.
//!
//! `t1 = 2x - 1; t2 = relu(t1); t3 = t2 / 2 + 1/4; out = t3 + x`.

use std::sync::Arc;

use cudagraph_runtime::cudarc::driver::CudaContext;
use cudagraph_runtime::{DeviceBuffer, DeviceDst, DeviceSrc, Graph, NodeId};

use crate::cfg;

/// The pipeline's kernels, loaded with their checks, and their parameter lists (the examples'
/// pipeline runs the same ones).
pub use cudagraph_examples::pipeline::{AddArgs, AffineArgs, PipelineKernels, ReluArgs};

/// What the pipeline computes for one input element (as the examples' pipeline).
pub use cudagraph_examples::pipeline::expected;

/// Where the temporaries come from.
pub trait Temporaries {
    /// A temporary as a kernel operand.
    type Temp: DeviceSrc<'static, f32> + DeviceDst<'static, f32> + Copy;
    /// Temporary `i` of `n` floats, after `deps`; the node the first use must follow, if any.
    fn take(
        &mut self,
        g: &mut Graph<'static>,
        i: usize,
        n: usize,
        deps: &[NodeId],
    ) -> (Self::Temp, Option<NodeId>);
    /// Done with `t` after `deps` (its last uses); the free node, if any.
    fn give_back(
        &mut self,
        g: &mut Graph<'static>,
        t: Self::Temp,
        deps: &[NodeId],
    ) -> Option<NodeId>;
}

/// Temporaries as graph allocations.
#[derive(Debug, Default)]
pub struct Allocated;

impl Temporaries for Allocated {
    type Temp = cudagraph_runtime::GraphAlloc<f32>;
    fn take(
        &mut self,
        g: &mut Graph<'static>,
        _: usize,
        n: usize,
        deps: &[NodeId],
    ) -> (Self::Temp, Option<NodeId>) {
        let t = g.add_mem_alloc::<f32>(n, deps).expect("alloc node");
        (t, Some(t.id()))
    }
    fn give_back(
        &mut self,
        g: &mut Graph<'static>,
        t: Self::Temp,
        deps: &[NodeId],
    ) -> Option<NodeId> {
        Some(g.add_mem_free(&t, deps).expect("free node").id())
    }
}

/// Temporaries as static buffers, one per temporary.
#[derive(Debug)]
pub struct Static<'b>(pub &'b [DeviceBuffer<f32>; 3]);

impl<'b> Temporaries for Static<'b> {
    type Temp = &'b DeviceBuffer<f32>;
    fn take(
        &mut self,
        _: &mut Graph<'static>,
        i: usize,
        _: usize,
        _: &[NodeId],
    ) -> (Self::Temp, Option<NodeId>) {
        (&self.0[i], None)
    }
    fn give_back(&mut self, _: &mut Graph<'static>, _: Self::Temp, _: &[NodeId]) -> Option<NodeId> {
        None
    }
}

/// Builds the pipeline from `x` into `out` (`n` floats each), temporaries from `temps`.
pub fn build(
    ctx: &Arc<CudaContext>,
    k: &PipelineKernels,
    x: &DeviceBuffer<f32>,
    out: &DeviceBuffer<f32>,
    mut temps: impl Temporaries,
) -> Graph<'static> {
    let n = x.len();
    let c = cfg(n);
    let n32 = n as u32;
    let mut g = Graph::new(ctx).expect("graph");
    let after = |node: Option<NodeId>| node.into_iter().collect::<Vec<_>>();
    let (t1, a1) = temps.take(&mut g, 0, n, &[]);
    let s1 = g
        .add_kernel(&k.affine, c, (n32, 2.0, -1.0, x, t1), &after(a1))
        .expect("stage 1");
    let (t2, a2) = temps.take(&mut g, 1, n, &[]);
    let mut deps = vec![s1.id()];
    deps.extend(a2);
    let s2 = g
        .add_kernel(&k.relu, c, (n32, t1, t2), &deps)
        .expect("stage 2");
    // Freeing `t1` before allocating `t3` lets `t3` take its physical memory.
    let f1 = temps.give_back(&mut g, t1, &[s2.id()]);
    let (t3, a3) = temps.take(&mut g, 2, n, &after(f1.or(Some(s2.id()))));
    let mut deps = vec![s2.id()];
    deps.extend(a3);
    let s3 = g
        .add_kernel(&k.affine, c, (n32, 0.5, 0.25, t2, t3), &deps)
        .expect("stage 3");
    temps.give_back(&mut g, t2, &[s3.id()]);
    let s4 = g
        .add_kernel(&k.add, c, (n32, t3, x, out), &[s3.id()])
        .expect("stage 4");
    temps.give_back(&mut g, t3, &[s4.id()]);
    g
}
