//! Data-parallel training of a tiny linear model, one graph per GPU: each rank computes the
//! gradient of the mean squared error on its shard of the batch (a kernel), the ranks average
//! their gradients with an all-reduce inside the graph (`all_reduce(comm, grads, Avg)`), and each
//! rank takes the same step. The same declaration is built on every device, each build with its
//! own communicator and buffers; [`train_on_cpu`] is the reference every rank's weights must
//! match.

use std::sync::Arc;

use cudagraph_runtime::cudarc::driver::{CudaContext, CudaStream};
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{Communicator, Error};

/// The model's kernels, in CUDA C: `gradient` (one thread per weight: the mean over the shard
/// of `(w . x_i - y_i) * x_ij`) and `update` (`w -= lr * g`).
pub const KERNELS: &str = r#"
extern "C" __global__ void gradient(unsigned batch, unsigned dim, const float* x, const float* y,
                                    const float* w, float* g) {
    unsigned j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= dim) return;
    float sum = 0.0f;
    for (unsigned i = 0; i < batch; ++i) {
        float r = -y[i];
        for (unsigned k = 0; k < dim; ++k) r += w[k] * x[i * dim + k];
        sum += r * x[i * dim + j];
    }
    g[j] = sum / (float)batch;
}
extern "C" __global__ void update(unsigned dim, float lr, const float* g, float* w) {
    unsigned j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < dim) w[j] -= lr * g[j];
}
"#;

/// `gradient(batch, dim, x, y, w, g)`.
pub type GradientArgs = (
    u32,
    u32,
    DevicePtr<f32>,
    DevicePtr<f32>,
    DevicePtr<f32>,
    DevicePtrMut<f32>,
);
/// `update(dim, lr, g, w)`.
pub type UpdateArgs = (u32, f32, DevicePtr<f32>, DevicePtrMut<f32>);

cuda_graph! {
    /// One training step of one rank: local gradient, all-reduce (average) of the gradients over
    /// the ranks, update.
    pub graph DataParallelStep {
        params {
            comm: Communicator,
            gradient: Kernel<GradientArgs>,
            update: Kernel<UpdateArgs>,
            x: DeviceBuffer<f32>,
            y: DeviceBuffer<f32>,
            w: DeviceBuffer<f32>,
            grads: DeviceBuffer<f32>,
            batch: u32,
            dim: u32,
            lr: f32,
        }
        local: kernel gradient<<<dim.div_ceil(64), 64>>>(batch, dim, x, y, w, grads);
        average: all_reduce(comm, grads, Avg);
        step: kernel update<<<dim.div_ceil(64), 64>>>(dim, lr, grads, w);
        local -> average -> step;
    }
}

/// A training problem: `ranks` shards of `batch` samples of `dim` features, `y = w_true . x`
/// plus a little noise.
#[derive(Debug, Clone)]
pub struct Problem {
    pub dim: usize,
    pub batch: usize,
    /// Each rank's samples, `batch * dim` features each, row by row.
    pub xs: Vec<Vec<f32>>,
    /// Each rank's targets.
    pub ys: Vec<Vec<f32>>,
    pub lr: f32,
}

impl Problem {
    /// A problem for `ranks` ranks, the same for the same arguments (a fixed pseudo-random
    /// sequence).
    pub fn new(ranks: usize, dim: usize, batch: usize) -> Self {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            ((z ^ (z >> 31)) >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0
        };
        let w_true: Vec<f32> = (0..dim).map(|_| next()).collect();
        let mut xs = Vec::new();
        let mut ys = Vec::new();
        for _ in 0..ranks {
            let x: Vec<f32> = (0..batch * dim).map(|_| next()).collect();
            let y = (0..batch)
                .map(|i| {
                    let dot: f32 = (0..dim).map(|k| w_true[k] * x[i * dim + k]).sum();
                    dot + 0.01 * next()
                })
                .collect();
            xs.push(x);
            ys.push(y);
        }
        Self {
            dim,
            batch,
            xs,
            ys,
            lr: 0.1,
        }
    }
}

impl Problem {
    /// The same samples on one rank: every shard's, one after the other. Its mean gradient over
    /// the whole batch is the average of the shards' mean gradients (they are of one size), so
    /// one GPU training it takes the steps the ranks take together, up to the order of the sums.
    pub fn on_one_rank(&self) -> Self {
        Self {
            dim: self.dim,
            batch: self.batch * self.xs.len(),
            xs: vec![self.xs.concat()],
            ys: vec![self.ys.concat()],
            lr: self.lr,
        }
    }
}

/// The largest difference between weights `got` and `want`, relative to each of `want`'s (or to
/// 1e-3, for those smaller).
pub fn largest_relative_difference(got: &[f32], want: &[f32]) -> f32 {
    got.iter()
        .zip(want)
        .map(|(g, w)| (g - w).abs() / w.abs().max(1e-3))
        .fold(0.0f32, f32::max)
}

/// The weights after `steps` steps from zero, computed on the CPU as the ranks compute them
/// together: each step, the average of the shards' mean gradients.
pub fn train_on_cpu(p: &Problem, steps: usize) -> Vec<f32> {
    let (dim, batch) = (p.dim, p.batch);
    let mut w = vec![0.0f32; dim];
    for _ in 0..steps {
        let mut g = vec![0.0f32; dim];
        for (x, y) in p.xs.iter().zip(&p.ys) {
            for (j, g) in g.iter_mut().enumerate() {
                let mut sum = 0.0f32;
                for i in 0..batch {
                    let mut r = -y[i];
                    for k in 0..dim {
                        r += w[k] * x[i * dim + k];
                    }
                    sum += r * x[i * dim + j];
                }
                *g += sum / batch as f32 / p.xs.len() as f32;
            }
        }
        for (w, g) in w.iter_mut().zip(&g) {
            *w -= p.lr * g;
        }
    }
    w
}

/// One rank's training: builds the step on the communicator's device (its own buffers, its
/// shard of `p`), instantiates it (which checks that every rank issues the same collectives),
/// launches it `steps` times, and returns its weights. Every rank runs it on its own thread, at
/// once.
pub fn train_rank(comm: Communicator, p: &Problem, steps: usize) -> Result<Vec<f32>, Error> {
    let ctx: Arc<CudaContext> = comm.context().clone();
    let stream: Arc<CudaStream> = ctx.new_stream().map_err(|source| Error::Driver {
        call: "cuStreamCreate",
        source,
    })?;
    let ptx =
        cudagraph_runtime::cudarc::nvrtc::compile_ptx(KERNELS).map_err(|e| Error::Invalid {
            node: "data_parallel kernels".into(),
            reason: format!("NVRTC: {e:?}"),
        })?;
    let module = ctx.load_module(ptx).map_err(|source| Error::Driver {
        call: "cuModuleLoadData",
        source,
    })?;
    let function = |name| {
        module.load_function(name).map_err(|source| Error::Driver {
            call: "cuModuleGetFunction",
            source,
        })
    };
    let rank = comm.rank();
    // SAFETY: the parameter lists are those of `gradient` and `update` in `KERNELS`
    // (`unsigned` = u32, `float` = f32, `const float*` = DevicePtr, `float*` = DevicePtrMut).
    let (gradient, update) = unsafe {
        (
            Kernel::<GradientArgs>::new(function("gradient")?),
            Kernel::<UpdateArgs>::new(function("update")?),
        )
    };
    let params = DataParallelStepParams {
        comm,
        gradient,
        update,
        x: DeviceBuffer::from_host(&stream, &p.xs[rank])?,
        y: DeviceBuffer::from_host(&stream, &p.ys[rank])?,
        w: DeviceBuffer::zeros(&stream, p.dim)?,
        grads: DeviceBuffer::zeros(&stream, p.dim)?,
        batch: p.batch as u32,
        dim: p.dim as u32,
        lr: p.lr,
    };
    let mut exec = DataParallelStep::build(&ctx, &params)?.instantiate()?;
    for _ in 0..steps {
        exec.launch(&stream)?;
    }
    params.w.to_vec()
}
