//! What the decode examples share (`decode_loop`: one MLP layer per step; `decode_layers`: 32 of
//! them declared by repetition): the shape, the kernels, deterministic weights and the CPU
//! reference, the GEMMs (cuBLASLt, see [`Linear`]) as work to record or to call eagerly, and
//! the timed, checked run of 1,000 steps.
//!
//! One layer maps the batch's activations `x` (`BATCH` columns of `DIM`) to
//! `x <- tanh(W2 relu(W1 x + b1) + b2)` through a hidden `h` of `HIDDEN`; each step first adds a
//! position term that depends on the step number. Matrices are column-major, as cuBLAS reads them.
//! The first GEMM adds `b1` and applies the ReLU itself (a fused epilogue); `bias_tanh` is a kernel
//! of our own.

mod linear;

pub use linear::{Epilogue, Linear};

use std::sync::Arc;
use std::time::Instant;

use cudagraph_runtime::cudarc::driver::{CudaContext, CudaStream, LaunchConfig, PushKernelArg};
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{Capture, Mut};

use crate::{compile, Failure};

/// Sequences decoded at once.
pub const BATCH: usize = 4;
/// Width of a layer's input and output.
pub const DIM: usize = 128;
/// Width of a layer's hidden activations.
pub const HIDDEN: usize = 256;
/// Decode steps per timed run, each feeding its output back as the next input.
pub const STEPS: u32 = 1000;
/// Largest difference from the CPU accepted: the step is a contraction (see [`Weights::new`]),
/// so the GPU's and the CPU's rounding (different summation orders) stay near 1e-7.
pub const TOLERANCE: f32 = 1e-3;
/// Timed runs of [`STEPS`] steps per way of running them; the median is reported.
const RUNS: usize = 3;

/// `position(n, dim, step, x)`: adds the step's position term to `x`.
pub type Position = Kernel<(u32, u32, u32, DevicePtrMut<f32>)>;
/// `position_at(n, dim, &step, x)`: the same, with the step number read from device memory.
pub type PositionAt = Kernel<(u32, u32, DevicePtr<u32>, DevicePtrMut<f32>)>;
/// `bias_tanh(n, width, b, y, x)`: `x <- tanh(y + b)`.
pub type BiasTanh = Kernel<(u32, u32, DevicePtr<f32>, DevicePtr<f32>, DevicePtrMut<f32>)>;

/// The kernels, in CUDA C for NVRTC.
const SRC: &str = r#"
__device__ float position_term(unsigned step, unsigned i) {
    return (float)((step * 7u + i) % 13u) * 0.01f - 0.06f;
}
extern "C" __global__ void position(unsigned n, unsigned dim, unsigned step, float* x) {
    unsigned k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < n) x[k] += position_term(step, k % dim);
}
extern "C" __global__ void position_at(unsigned n, unsigned dim, const unsigned* step, float* x) {
    unsigned k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < n) x[k] += position_term(*step, k % dim);
}
extern "C" __global__ void bias_tanh(unsigned n, unsigned width, const float* b, const float* y, float* x) {
    unsigned k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < n) x[k] = tanhf(y[k] + b[k % width]);
}
"#;

/// The position term of `step` at row `i` of a column, as `position_term` in the kernels.
fn position_term(step: u32, i: usize) -> f32 {
    (step.wrapping_mul(7).wrapping_add(i as u32) % 13) as f32 * 0.01 - 0.06
}

/// The kernels, typed, with the checks that keep their launches in bounds.
#[derive(Clone, Debug)]
pub struct Kernels {
    /// See [`Position`].
    pub position: Position,
    /// See [`PositionAt`].
    pub position_at: PositionAt,
    /// See [`BiasTanh`].
    pub bias_tanh: BiasTanh,
}

impl Kernels {
    /// Compiles the kernels with NVRTC and loads them into `ctx`.
    pub fn load(ctx: &Arc<CudaContext>) -> Result<Self, Failure> {
        let module = compile(ctx, SRC)?;
        let f = |name: &str| module.load_function(name);
        // SAFETY: `position` in `SRC` takes (unsigned, unsigned, unsigned, float*), reads and
        // writes x[k] for k < n only, and launches nothing; the check keeps n within x, and
        // `dim` non-zero for its `k % dim`.
        let position = unsafe { Position::new(f("position")?) }
            .requires(|_, (n, dim, _, x)| dim >= 1 && n as usize <= x);
        // SAFETY: `position_at` takes (unsigned, unsigned, const unsigned*, float*), reads
        // step[0] and reads and writes x[k] for k < n only, and launches nothing; the check
        // keeps n within x, `step` non-empty, and `dim` non-zero.
        let position_at = unsafe { PositionAt::new(f("position_at")?) }
            .requires(|_, (n, dim, step, x)| dim >= 1 && step >= 1 && n as usize <= x);
        // SAFETY: `bias_tanh` takes (unsigned, unsigned, const float*, const float*, float*),
        // reads y[k] and writes x[k] for k < n only and reads b[k % width], and launches
        // nothing; the check keeps n within y and x and width (non-zero) within b.
        let bias_tanh =
            unsafe { BiasTanh::new(f("bias_tanh")?) }.requires(|_, (n, width, b, y, x)| {
                (1..=b).contains(&(width as usize)) && n as usize <= y.min(x)
            });
        Ok(Self {
            position,
            position_at,
            bias_tanh,
        })
    }
}

/// Deterministic numbers in [-0.5, 0.5): xorshift64, so that `tests/benches/torch_decode.py`
/// draws the same weights, bit for bit.
#[derive(Debug)]
struct Numbers(u64);

impl Numbers {
    fn next(&mut self) -> f32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 40) as f32 / (1u64 << 24) as f32 - 0.5
    }

    fn take(&mut self, len: usize, scale: f32) -> Vec<f32> {
        (0..len).map(|_| self.next() * scale).collect()
    }
}

/// One layer's weights on the host.
#[derive(Debug)]
pub struct LayerWeights {
    /// `HIDDEN x DIM`, column-major.
    pub w1: Vec<f32>,
    /// `DIM x HIDDEN`, column-major.
    pub w2: Vec<f32>,
    /// `HIDDEN` biases.
    pub b1: Vec<f32>,
    /// `DIM` biases.
    pub b2: Vec<f32>,
}

impl LayerWeights {
    /// One sequence's column `x` (`DIM`) through the layer on the CPU, with `h` (`HIDDEN`) as
    /// scratch.
    fn apply(&self, x: &mut [f32], h: &mut [f32]) {
        // Column by column of W (contiguous), so that the inner loops vectorize.
        h.copy_from_slice(&self.b1);
        for (&xi, column) in x.iter().zip(self.w1.chunks_exact(HIDDEN)) {
            h.iter_mut().zip(column).for_each(|(hj, &w)| *hj += w * xi);
        }
        h.iter_mut().for_each(|v| *v = v.max(0.0));
        x.copy_from_slice(&self.b2);
        for (&hj, column) in h.iter().zip(self.w2.chunks_exact(DIM)) {
            x.iter_mut().zip(column).for_each(|(xi, &w)| *xi += w * hj);
        }
        x.iter_mut().for_each(|v| *v = v.tanh());
    }
}

/// A model of `layers.len()` layers and the batch's first input.
#[derive(Debug)]
pub struct Weights {
    /// The layers, applied in order.
    pub layers: Vec<LayerWeights>,
    /// `BATCH` columns of `DIM`: the first step's input.
    pub x0: Vec<f32>,
}

impl Weights {
    /// Small deterministic weights (the layers' weights in order, then the input): each layer
    /// is a contraction (W1 and W2 scaled by 1/sqrt of their inner width), so rounding
    /// differences between the GPU and the CPU shrink instead of growing over the steps.
    pub fn new(layers: usize) -> Self {
        let mut numbers = Numbers(0x2545_f491_4f6c_dd1d);
        let s1 = 1.0 / (DIM as f32).sqrt();
        let s2 = 1.0 / (HIDDEN as f32).sqrt();
        let layers = (0..layers)
            .map(|_| LayerWeights {
                w1: numbers.take(HIDDEN * DIM, s1),
                w2: numbers.take(DIM * HIDDEN, s2),
                b1: numbers.take(HIDDEN, 0.1),
                b2: numbers.take(DIM, 0.1),
            })
            .collect();
        let x0 = numbers.take(BATCH * DIM, 1.0);
        Self { layers, x0 }
    }

    /// The [`STEPS`] steps on the CPU: what the GPU must give. The sequences of the batch are
    /// independent, so each runs on a thread of its own.
    pub fn on_cpu(&self) -> Vec<f32> {
        let mut x = self.x0.clone();
        std::thread::scope(|scope| {
            for column in x.chunks_exact_mut(DIM) {
                scope.spawn(move || {
                    let mut h = vec![0.0f32; HIDDEN];
                    for step in 0..STEPS {
                        for (i, v) in column.iter_mut().enumerate() {
                            *v += position_term(step, i);
                        }
                        for layer in &self.layers {
                            layer.apply(column, &mut h);
                        }
                    }
                });
            }
        });
        x
    }
}

/// A layer's weights on the GPU.
#[derive(Debug)]
pub struct Layer {
    /// `HIDDEN x DIM`, column-major.
    pub w1: DeviceBuffer<f32>,
    /// `DIM x HIDDEN`, column-major.
    pub w2: DeviceBuffer<f32>,
    /// `HIDDEN` biases.
    pub b1: DeviceBuffer<f32>,
    /// `DIM` biases.
    pub b2: DeviceBuffer<f32>,
}

/// What the steps run on: the stream, the GEMMs, the kernels and the activations
/// (`x`, the step's input and output; `h` and `y`, each layer's intermediates).
#[derive(Debug)]
pub struct Decoder {
    /// The stream every step runs on.
    pub stream: Arc<CudaStream>,
    /// The kernels.
    pub kernels: Kernels,
    /// `BATCH` columns of `DIM`: each step's input and output.
    pub x: DeviceBuffer<f32>,
    /// `BATCH` columns of `HIDDEN`: a layer's hidden activations.
    pub h: DeviceBuffer<f32>,
    /// `BATCH` columns of `DIM`: a layer's output before its bias and tanh.
    pub y: DeviceBuffer<f32>,
    /// `h = relu(W1 x + b1)`.
    up: Linear,
    /// `y = W2 h`.
    down: Linear,
    /// The stream captures record on.
    capture_stream: Arc<CudaStream>,
}

impl Decoder {
    /// Streams, kernels and zeroed activations on `ctx`'s device, and the two GEMMs with their
    /// algorithms chosen (timed on zeroed weights of the layers' shapes).
    pub fn new(ctx: &Arc<CudaContext>) -> Result<Self, Failure> {
        let stream = ctx.new_stream()?;
        let capture_stream = ctx.new_stream()?;
        let zeros = |len| DeviceBuffer::<f32>::zeros(&stream, len);
        let (x, h, y) = (
            zeros(BATCH * DIM)?,
            zeros(BATCH * HIDDEN)?,
            zeros(BATCH * DIM)?,
        );
        let (w, b1) = (zeros(HIDDEN * DIM)?, zeros(HIDDEN)?);
        let up = Linear::tuned(
            &capture_stream,
            (HIDDEN, BATCH, DIM),
            Epilogue::BiasRelu,
            [&w, &x],
            Some(&b1),
            &h,
        )?;
        let down = Linear::tuned(
            &capture_stream,
            (DIM, BATCH, HIDDEN),
            Epilogue::Plain,
            [&w, &h],
            None,
            &y,
        )?;
        Ok(Self {
            kernels: Kernels::load(ctx)?,
            x,
            h,
            y,
            up,
            down,
            capture_stream,
            stream,
        })
    }

    /// `weights` on the GPU.
    pub fn upload(&self, weights: &LayerWeights) -> Result<Layer, Failure> {
        let up = |v: &[f32]| DeviceBuffer::from_host(&self.stream, v);
        Ok(Layer {
            w1: up(&weights.w1)?,
            w2: up(&weights.w2)?,
            b1: up(&weights.b1)?,
            b2: up(&weights.b2)?,
        })
    }

    /// The layer's first GEMM (`h = relu(W1 x + b1)`) as work to record: cuBLASLt on the
    /// views of the buffers given to the capture (which every graph recorded from it holds).
    pub fn up(&self, layer: &Layer) -> Capture {
        let up = self.up.clone();
        let operands = (
            layer.w1.clone(),
            self.x.clone(),
            layer.b1.clone(),
            Mut(self.h.clone()),
        );
        Capture::new(
            &self.capture_stream,
            operands,
            move |scope, (w1, x, b1, h)| {
                // SAFETY: the views are W1, x, b1 and h, of the shapes `up` was planned for
                // (`upload`, `Decoder::new`), held by every graph recorded from this capture.
                unsafe {
                    up.enqueue(
                        scope.stream().cu_stream(),
                        w1.addr(),
                        x.addr(),
                        Some(b1.addr()),
                        h.addr(),
                    )
                }
            },
        )
    }

    /// The layer's second GEMM (`y = W2 h`) as work to record.
    pub fn down(&self, layer: &Layer) -> Capture {
        let down = self.down.clone();
        let operands = (layer.w2.clone(), self.h.clone(), Mut(self.y.clone()));
        Capture::new(&self.capture_stream, operands, move |scope, (w2, h, y)| {
            // SAFETY: as in `up`, for W2, h and y.
            unsafe {
                down.enqueue(
                    scope.stream().cu_stream(),
                    w2.addr(),
                    h.addr(),
                    None,
                    y.addr(),
                )
            }
        })
    }

    /// The step's position term, launched eagerly.
    pub fn eager_position(&self, step: u32) -> Result<(), Failure> {
        let (n, dim, x) = ((BATCH * DIM) as u32, DIM as u32, self.x.addr());
        // SAFETY: `position`'s parameter list in `SRC`, with `x` of `n` floats (one thread
        // each).
        unsafe {
            self.stream
                .launch_builder(self.kernels.position.function())
                .arg(&n)
                .arg(&dim)
                .arg(&step)
                .arg(&x)
                .launch(LaunchConfig::for_num_elems(n))?;
        }
        Ok(())
    }

    /// One layer, its three operations launched eagerly.
    pub fn eager_layer(&self, layer: &Layer) -> Result<(), Failure> {
        let (nx, dim) = ((BATCH * DIM) as u32, DIM as u32);
        let (x, h, y, b2) = (self.x.addr(), self.h.addr(), self.y.addr(), layer.b2.addr());
        let stream = self.stream.cu_stream();
        // SAFETY: W1, x, b1 and h (W2, h and y) of the shapes the GEMMs were planned for,
        // alive while the work runs (the caller reads the result back before dropping them).
        unsafe {
            self.up
                .enqueue(stream, layer.w1.addr(), x, Some(layer.b1.addr()), h)?;
            self.down.enqueue(stream, layer.w2.addr(), h, None, y)?;
        }
        // SAFETY: `bias_tanh`'s parameter list in `SRC`, with `y` and `x` of `nx` floats (one
        // thread each) and `b2` of `dim`.
        unsafe {
            self.stream
                .launch_builder(self.kernels.bias_tanh.function())
                .arg(&nx)
                .arg(&dim)
                .arg(&b2)
                .arg(&y)
                .arg(&x)
                .launch(LaunchConfig::for_num_elems(nx))?;
        }
        Ok(())
    }

    /// Runs the [`STEPS`] steps from `x0` with `step` (called with each step number in order,
    /// to enqueue that step on [`Decoder::stream`]): once to warm up, then 3 timed runs (`RUNS`),
    /// each ended by reading `x` back and checked against `want`.
    pub fn measure(
        &self,
        what: &str,
        x0: &[f32],
        want: &[f32],
        mut step: impl FnMut(u32) -> Result<(), Failure>,
    ) -> Result<Measured, Failure> {
        let mut rates = Vec::with_capacity(RUNS);
        let mut worst = 0.0f32;
        for run in 0..=RUNS {
            self.x.copy_from(x0)?;
            let started = Instant::now();
            for s in 0..STEPS {
                step(s)?;
            }
            let got = self.x.to_vec()?;
            let elapsed = started.elapsed().as_secs_f64();
            let diff = got
                .iter()
                .zip(want)
                .map(|(g, w)| (g - w).abs())
                .fold(0.0f32, f32::max);
            // NaN counts as a difference too.
            if diff.is_nan() || diff >= TOLERANCE {
                return Err(Failure::Other(format!(
                    "{what}: differs from the CPU by {diff} (tolerance {TOLERANCE})"
                )));
            }
            worst = worst.max(diff);
            if run > 0 {
                rates.push(STEPS as f64 / elapsed);
            }
        }
        rates.sort_by(f64::total_cmp);
        Ok(Measured {
            steps_per_s: rates[RUNS / 2],
            worst,
        })
    }
}

/// How fast a way of running the steps went, and how close it came to the CPU.
#[derive(Clone, Copy, Debug)]
pub struct Measured {
    /// Steps per second, the median of the timed runs.
    pub steps_per_s: f64,
    /// The largest difference from the CPU over all runs.
    pub worst: f32,
}

/// The table of results: a header, then [`Table::row`] for each way of running the steps.
#[derive(Debug)]
pub struct Table {
    eager: f64,
}

impl Table {
    /// Prints the header; `eager` is the row the others are compared with.
    pub fn new(eager: Measured) -> Self {
        println!(
            "{:<34} {:>12} {:>14} {:>10}",
            "", "steps/s", "largest diff", "vs eager"
        );
        Self {
            eager: eager.steps_per_s,
        }
    }

    /// Prints one row.
    pub fn row(&self, what: &str, m: Measured) {
        println!(
            "{:<34} {:>12.0} {:>14.1e} {:>9.2}x",
            what,
            m.steps_per_s,
            m.worst,
            m.steps_per_s / self.eager
        );
    }
}

/// The sum of `x`: printed by the examples and by `tests/benches/torch_decode.py`, so that the
/// two can be seen to compute the same steps.
pub fn checksum(x: &[f32]) -> f64 {
    x.iter().map(|&v| f64::from(v)).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The CPU layer (written to vectorize) against the layer's formula written out.
    #[test]
    fn layer_on_cpu_is_the_formula() {
        let weights = Weights::new(2);
        let layer = &weights.layers[1];
        let x = &weights.x0[DIM..2 * DIM];
        let h: Vec<f32> = (0..HIDDEN)
            .map(|j| {
                let sum: f32 = (0..DIM).map(|i| layer.w1[j + i * HIDDEN] * x[i]).sum();
                (sum + layer.b1[j]).max(0.0)
            })
            .collect();
        let want: Vec<f32> = (0..DIM)
            .map(|i| {
                let sum: f32 = (0..HIDDEN).map(|j| layer.w2[i + j * DIM] * h[j]).sum();
                (sum + layer.b2[i]).tanh()
            })
            .collect();
        let mut got = x.to_vec();
        layer.apply(&mut got, &mut vec![0.0; HIDDEN]);
        for (g, w) in got.iter().zip(&want) {
            assert!((g - w).abs() < 1e-5, "{g} against {w}");
        }
        // Not a fixed point or all zeros: the layer does something.
        assert!(got.iter().zip(x).any(|(g, x)| (g - x).abs() > 0.01));
    }

    /// The generator's first numbers, pinned: `numbers` in `tests/benches/torch_decode.py`
    /// draws these too, so that the script's weights are the examples'.
    #[test]
    fn numbers_are_the_scripts() {
        let mut numbers = Numbers(0x2545_f491_4f6c_dd1d);
        let bits: Vec<u32> = (0..3).map(|_| numbers.next().to_bits()).collect();
        assert_eq!(bits, [0xbb13_d800, 0x3ec8_e232, 0xbe95_d16c]);
    }
}
