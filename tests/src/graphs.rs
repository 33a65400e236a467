//! Test data shared by several GPU test files: the inputs and outputs of an `axpy_out` node built
//! two ways.

use cudagraph_runtime::cudarc::driver::CudaSlice;
use cudagraph_runtime::DevicePtr;

use crate::{Gpu, Rng};

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
    pub x: CudaSlice<f32>,
    /// The second input.
    pub y: CudaSlice<f32>,
    /// The first variant's output (zeroed).
    pub out1: CudaSlice<f32>,
    /// The second variant's output (zeroed).
    pub out2: CudaSlice<f32>,
}

impl AxpyPair {
    /// Draws `n` in `1000..50_000`, `a1`, `a2`, `x` and `y` (in that order), uploads `x` and `y`,
    /// then allocates `out1` and `out2`.
    pub fn new(gpu: &Gpu, rng: &mut Rng) -> Self {
        let n = rng.len_in(1000, 50_000);
        let (a1, a2) = (rng.f32(), rng.f32());
        let (x_host, y_host) = (rng.f32s(n), rng.f32s(n));
        let x = gpu.stream.clone_htod(&x_host).unwrap();
        let y = gpu.stream.clone_htod(&y_host).unwrap();
        let out1 = gpu.stream.alloc_zeros::<f32>(n).unwrap();
        let out2 = gpu.stream.alloc_zeros::<f32>(n).unwrap();
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

    /// `x` and `y` as kernel arguments.
    pub fn inputs(&self) -> (DevicePtr<f32>, DevicePtr<f32>) {
        (DevicePtr::from(&self.x), DevicePtr::from(&self.y))
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
