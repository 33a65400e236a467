//! Test data shared by several GPU test files: the inputs and outputs of an `axpy_out` node built
//! two ways, and an `add_u32` counter buffer.

use cudagraph_runtime::{DeviceBuffer, Graph, KernelNode, NodeId};

use crate::{cfg, upload, zeros, AddU32Args, Gpu, Kernels, Rng};

/// Inputs `x`, `y` and two outputs for `axpy_out` (`out = a * x + y`), with a scalar for each.
#[derive(Debug)]
pub struct AxpyPair {
    /// The element count of every buffer.
    pub n: usize,
    /// The scalar of the first variant.
    pub a1: f32,
    /// The scalar of the second variant.
    pub a2: f32,
    /// What `x` holds.
    pub x_host: Vec<f32>,
    /// What `y` holds.
    pub y_host: Vec<f32>,
    /// The first input.
    pub x: DeviceBuffer<f32>,
    /// The second input.
    pub y: DeviceBuffer<f32>,
    /// The first variant's output (zeroed).
    pub out1: DeviceBuffer<f32>,
    /// The second variant's output (zeroed).
    pub out2: DeviceBuffer<f32>,
}

impl AxpyPair {
    /// Draws `n` in `1000..50_000`, `a1`, `a2`, `x` and `y` (in that order), uploads `x` and `y`,
    /// then allocates `out1` and `out2`.
    pub fn new(gpu: &Gpu, rng: &mut Rng) -> Self {
        let n = rng.len_in(1000, 50_000);
        let (a1, a2) = (rng.f32(), rng.f32());
        let (x_host, y_host) = (rng.f32s(n), rng.f32s(n));
        let (x, y) = (upload(gpu, &x_host), upload(gpu, &y_host));
        let (out1, out2) = (zeros(gpu, n), zeros(gpu, n));
        Self {
            n,
            a1,
            a2,
            x_host,
            y_host,
            x,
            y,
            out1,
            out2,
        }
    }

    /// `a * x + y`, computed on the host.
    pub fn want(&self, a: f32) -> Vec<f32> {
        self.x_host
            .iter()
            .zip(&self.y_host)
            .map(|(x, y)| a * x + y)
            .collect()
    }
}

/// A device buffer of `u32` counters for `add_u32`, and the amount one launch adds to each.
#[derive(Debug)]
pub struct Counters {
    /// The element count.
    pub n: usize,
    /// What one `add_u32` launch adds to every counter.
    pub add: u32,
    /// The starting values.
    pub y0: Vec<u32>,
    /// The counters on the device, uploaded from `y0`.
    pub y: DeviceBuffer<u32>,
}

impl Counters {
    /// Draws `n` in `1000..50_000`, `add` in `1..=1000` and `n` starting values below 2^20 (in
    /// that order), and uploads the values.
    pub fn new(gpu: &Gpu, rng: &mut Rng) -> Self {
        let n = rng.len_in(1000, 50_000);
        let add = rng.below(1000) + 1;
        let y0: Vec<u32> = (0..n).map(|_| rng.below(1 << 20)).collect();
        let y = upload(gpu, &y0);
        Self { n, add, y0, y }
    }

    /// Adds the kernel node `y[i] += add` (over all `n` counters) to `graph`, after `deps`.
    pub fn add_bump(
        &self,
        graph: &mut Graph<'_>,
        k: &Kernels,
        deps: &[NodeId],
    ) -> KernelNode<AddU32Args> {
        let n = self.n;
        graph
            .add_kernel(&k.add_u32, cfg(n), (n as u32, self.add, &self.y), deps)
            .unwrap()
    }

    /// What the counters hold after `launches` bumps.
    pub fn after(&self, launches: u32) -> Vec<u32> {
        self.y0.iter().map(|v| v + launches * self.add).collect()
    }
}
