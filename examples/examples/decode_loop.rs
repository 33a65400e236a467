//! A decode loop people recognise: a 2-layer MLP applied 1,000 times, each step feeding its
//! output back as the next input with a position term that changes every step. The two GEMMs
//! are cuBLAS calls recorded by stream capture (`capture(...)` nodes, each declaring the buffer
//! params its work reads and writes, `[w1, x, mut h]`, which the race check uses and the
//! recorded work is checked against); the position, bias and activation kernels are our own.
//! Three ways to run the same 1,000 steps, each checked against the CPU:
//!
//! - eager: every step's five operations launched one by one on a stream;
//! - a graph whose step number is a plain param: its setter updates one kernel node per step;
//! - a graph whose step number is `#[indirect]`: `set_step` is a host write, no driver call.
//!
//! Run: `cargo run --release -p cudagraph-examples --example decode_loop`

use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use cudagraph_examples::{compile, main_with, open_gpu, Failure};
use cudagraph_runtime::cudarc::cublas::{sys as blas_sys, CudaBlas, Gemm, GemmConfig};
use cudagraph_runtime::cudarc::driver::{
    CudaFunction, CudaStream, DevicePtr as CudarcPtr, DevicePtrMut as CudarcPtrMut, LaunchConfig,
    PushKernelArg,
};
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{Capture, Error, Mut};

/// Sequences decoded at once.
const BATCH: usize = 4;
/// Width of the input and output.
const DIM: usize = 128;
/// Width of the hidden layer.
const HIDDEN: usize = 256;
const STEPS: u32 = 1000;

type Position = Kernel<(u32, u32, u32, DevicePtrMut<f32>)>;
type PositionAt = Kernel<(u32, u32, DevicePtr<u32>, DevicePtrMut<f32>)>;
type BiasRelu = Kernel<(u32, u32, DevicePtr<f32>, DevicePtrMut<f32>)>;
type BiasTanh = Kernel<(u32, u32, DevicePtr<f32>, DevicePtr<f32>, DevicePtrMut<f32>)>;

cuda_graph! {
    /// One decode step; the step number is a plain param (its setter updates `pos`).
    graph Step {
        params {
            position: Position,
            bias_relu: BiasRelu,
            bias_tanh: BiasTanh,
            layer1: Capture,
            layer2: Capture,
            w1: DeviceBuffer<f32>,
            w2: DeviceBuffer<f32>,
            x: DeviceBuffer<f32>,
            h: DeviceBuffer<f32>,
            y: DeviceBuffer<f32>,
            b1: DeviceBuffer<f32>,
            b2: DeviceBuffer<f32>,
            step: u32,
        }
        pos: kernel position<<<(BATCH * DIM).div_ceil(256) as u32, 256>>>((BATCH * DIM) as u32, DIM as u32, step, x);
        gemm1: capture(layer1, [w1, x, mut h]);
        act: kernel bias_relu<<<(BATCH * HIDDEN).div_ceil(256) as u32, 256>>>((BATCH * HIDDEN) as u32, HIDDEN as u32, b1, h);
        gemm2: capture(layer2, [w2, h, mut y]);
        out: kernel bias_tanh<<<(BATCH * DIM).div_ceil(256) as u32, 256>>>((BATCH * DIM) as u32, DIM as u32, b2, y, x);
        pos -> gemm1 -> act -> gemm2 -> out;
    }

    /// The same step with the step number `#[indirect]`: read by `pos` from device memory.
    graph IndirectStep {
        params {
            position: PositionAt,
            bias_relu: BiasRelu,
            bias_tanh: BiasTanh,
            layer1: Capture,
            layer2: Capture,
            w1: DeviceBuffer<f32>,
            w2: DeviceBuffer<f32>,
            x: DeviceBuffer<f32>,
            h: DeviceBuffer<f32>,
            y: DeviceBuffer<f32>,
            b1: DeviceBuffer<f32>,
            b2: DeviceBuffer<f32>,
            #[indirect]
            step: u32,
        }
        pos: kernel position<<<(BATCH * DIM).div_ceil(256) as u32, 256>>>((BATCH * DIM) as u32, DIM as u32, step, x);
        gemm1: capture(layer1, [w1, x, mut h]);
        act: kernel bias_relu<<<(BATCH * HIDDEN).div_ceil(256) as u32, 256>>>((BATCH * HIDDEN) as u32, HIDDEN as u32, b1, h);
        gemm2: capture(layer2, [w2, h, mut y]);
        out: kernel bias_tanh<<<(BATCH * DIM).div_ceil(256) as u32, 256>>>((BATCH * DIM) as u32, DIM as u32, b2, y, x);
        pos -> gemm1 -> act -> gemm2 -> out;
    }
}

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
extern "C" __global__ void bias_relu(unsigned n, unsigned width, const float* b, float* h) {
    unsigned k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < n) h[k] = fmaxf(h[k] + b[k % width], 0.0f);
}
extern "C" __global__ void bias_tanh(unsigned n, unsigned width, const float* b, const float* y, float* x) {
    unsigned k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < n) x[k] = tanhf(y[k] + b[k % width]);
}
"#;

/// The model's weights and the step's buffers, on the GPU and on the host.
struct Model {
    w1: Vec<f32>,
    w2: Vec<f32>,
    b1: Vec<f32>,
    b2: Vec<f32>,
    x0: Vec<f32>,
}

impl Model {
    /// Small deterministic weights: the step is a contraction, so rounding differences between
    /// the GPU and the CPU shrink instead of growing over 1,000 steps.
    fn new() -> Self {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 40) as f32 / (1u64 << 24) as f32 - 0.5
        };
        let s1 = 1.0 / (DIM as f32).sqrt();
        let s2 = 1.0 / (HIDDEN as f32).sqrt();
        Self {
            w1: (0..HIDDEN * DIM).map(|_| next() * s1).collect(),
            w2: (0..DIM * HIDDEN).map(|_| next() * s2).collect(),
            b1: (0..HIDDEN).map(|_| next() * 0.1).collect(),
            b2: (0..DIM).map(|_| next() * 0.1).collect(),
            x0: (0..BATCH * DIM).map(|_| next()).collect(),
        }
    }

    /// The 1,000 steps on the CPU (column-major weights, as cuBLAS reads them).
    fn on_cpu(&self) -> Vec<f32> {
        let mut x = self.x0.clone();
        let mut h = vec![0.0f32; BATCH * HIDDEN];
        for step in 0..STEPS {
            for (k, v) in x.iter_mut().enumerate() {
                let i = (k % DIM) as u32;
                *v += ((step.wrapping_mul(7).wrapping_add(i)) % 13) as f32 * 0.01 - 0.06;
            }
            for b in 0..BATCH {
                for j in 0..HIDDEN {
                    let sum: f32 = (0..DIM)
                        .map(|i| self.w1[j + i * HIDDEN] * x[b * DIM + i])
                        .sum();
                    h[b * HIDDEN + j] = (sum + self.b1[j]).max(0.0);
                }
            }
            for b in 0..BATCH {
                for i in 0..DIM {
                    let sum: f32 = (0..HIDDEN)
                        .map(|j| self.w2[i + j * DIM] * h[b * HIDDEN + j])
                        .sum();
                    x[b * DIM + i] = (sum + self.b2[i]).tanh();
                }
            }
        }
        x
    }
}

/// `C (m x n) = A (m x k) * B (k x n)`, column-major, on `blas`'s stream, through cudarc's
/// typed cuBLAS call (the capture's views are its buffers).
fn gemm<A: CudarcPtr<f32>, B: CudarcPtr<f32>, C: CudarcPtrMut<f32>>(
    blas: &CudaBlas,
    (m, n, k): (usize, usize, usize),
    a: &A,
    b: &B,
    c: &mut C,
) -> Result<(), Error> {
    let cfg = GemmConfig {
        transa: blas_sys::cublasOperation_t::CUBLAS_OP_N,
        transb: blas_sys::cublasOperation_t::CUBLAS_OP_N,
        m: m as i32,
        n: n as i32,
        k: k as i32,
        alpha: 1.0f32,
        lda: m as i32,
        ldb: k as i32,
        beta: 0.0,
        ldc: m as i32,
    };
    if a.len() < m * k || b.len() < k * n || c.len() < m * n {
        return Err(Error::Invalid {
            node: "cublasSgemm".into(),
            reason: format!("buffers too small for a {m} x {n} x {k} product"),
        });
    }
    // SAFETY: `a`, `b` and `c` hold m*k, k*n and m*n floats (checked above); the leading
    // dimensions are the row counts.
    unsafe { blas.gemm(cfg, a, b, c) }.map_err(|e| Error::Invalid {
        node: "cublasSgemm".into(),
        reason: format!("cuBLAS answered {e:?}"),
    })
}

/// `C (m x n) = A (m x k) * B (k x n)`, column-major, device addresses, on `blas`'s stream: the
/// eager steps' call.
fn sgemm(
    blas: &CudaBlas,
    (m, n, k): (usize, usize, usize),
    a: u64,
    b: u64,
    c: u64,
) -> Result<(), Error> {
    let (one, zero) = (1.0f32, 0.0f32);
    // SAFETY: `a`, `b` and `c` hold m*k, k*n and m*n floats (the caller's buffers, alive for
    // as long as the work recorded from here may run); leading dimensions are the row counts.
    let status = unsafe {
        blas_sys::cublasSgemm_v2(
            *blas.handle(),
            blas_sys::cublasOperation_t::CUBLAS_OP_N,
            blas_sys::cublasOperation_t::CUBLAS_OP_N,
            m as i32,
            n as i32,
            k as i32,
            &one,
            a as *const f32,
            m as i32,
            b as *const f32,
            k as i32,
            &zero,
            c as *mut f32,
            m as i32,
        )
    };
    match status {
        blas_sys::cublasStatus_t::CUBLAS_STATUS_SUCCESS => Ok(()),
        other => Err(Error::Invalid {
            node: "cublasSgemm".into(),
            reason: format!("cuBLAS answered {other:?}"),
        }),
    }
}

/// The GPU side: buffers, kernels, and the cuBLAS handles (one per stream).
struct Gpu {
    stream: Arc<CudaStream>,
    blas: Arc<CudaBlas>,
    capture_blas: Arc<CudaBlas>,
    capture_stream: Arc<CudaStream>,
    w1: DeviceBuffer<f32>,
    w2: DeviceBuffer<f32>,
    b1: DeviceBuffer<f32>,
    b2: DeviceBuffer<f32>,
    x: DeviceBuffer<f32>,
    h: DeviceBuffer<f32>,
    y: DeviceBuffer<f32>,
    _workspace: DeviceBuffer<u8>,
    functions: [CudaFunction; 4],
}

impl Gpu {
    /// The first layer's GEMM (`h = W1 x`) as work to record: cuBLAS on the views of the
    /// buffers given to the capture (which every graph recorded from it holds).
    fn layer1(&self) -> Capture {
        let blas = self.capture_blas.clone();
        let operands = (self.w1.clone(), self.x.clone(), Mut(self.h.clone()));
        Capture::new(&self.capture_stream, operands, move |_, (w1, x, mut h)| {
            gemm(&blas, (HIDDEN, BATCH, DIM), &w1, &x, &mut h)
        })
    }

    /// The second layer's GEMM (`y = W2 h`) as work to record.
    fn layer2(&self) -> Capture {
        let blas = self.capture_blas.clone();
        let operands = (self.w2.clone(), self.h.clone(), Mut(self.y.clone()));
        Capture::new(&self.capture_stream, operands, move |_, (w2, h, mut y)| {
            gemm(&blas, (DIM, BATCH, HIDDEN), &w2, &h, &mut y)
        })
    }

    /// One eager step: the five operations launched one by one.
    fn eager_step(&self, step: u32) -> Result<(), Failure> {
        let cfg = |n: usize| LaunchConfig::for_num_elems(n as u32);
        let (nx, nh, dim, hidden) = (
            (BATCH * DIM) as u32,
            (BATCH * HIDDEN) as u32,
            DIM as u32,
            HIDDEN as u32,
        );
        let (x, h, y, b1, b2) = (
            self.x.addr(),
            self.h.addr(),
            self.y.addr(),
            self.b1.addr(),
            self.b2.addr(),
        );
        let s = &self.stream;
        // SAFETY: the kernel's parameter list in `SRC` (as for the two launches below), with
        // buffers of the sizes given (`n` elements, one thread each).
        unsafe {
            s.launch_builder(&self.functions[0])
                .arg(&nx)
                .arg(&dim)
                .arg(&step)
                .arg(&x)
                .launch(cfg(BATCH * DIM))?;
        }
        sgemm(&self.blas, (HIDDEN, BATCH, DIM), self.w1.addr(), x, h)?;
        // SAFETY: as above.
        unsafe {
            s.launch_builder(&self.functions[2])
                .arg(&nh)
                .arg(&hidden)
                .arg(&b1)
                .arg(&h)
                .launch(cfg(BATCH * HIDDEN))?;
        }
        sgemm(&self.blas, (DIM, BATCH, HIDDEN), self.w2.addr(), h, y)?;
        // SAFETY: as above.
        unsafe {
            s.launch_builder(&self.functions[3])
                .arg(&nx)
                .arg(&dim)
                .arg(&b2)
                .arg(&y)
                .arg(&x)
                .launch(cfg(BATCH * DIM))?;
        }
        Ok(())
    }
}

fn main() -> ExitCode {
    main_with("decode_loop", run)
}

fn run() -> Result<(), Failure> {
    let ctx = open_gpu()?;
    let stream = ctx.new_stream()?;
    let capture_stream = ctx.new_stream()?;
    let model = Model::new();
    let module = compile(&ctx, SRC)?;
    let f = |name: &str| module.load_function(name);
    let functions = [
        f("position")?,
        f("position_at")?,
        f("bias_relu")?,
        f("bias_tanh")?,
    ];
    // A workspace of its own for the handle used inside captures, so cuBLAS allocates nothing
    // while a capture records (which would break it).
    let workspace = DeviceBuffer::<u8>::zeros(&stream, 4 << 20)?;
    let capture_blas = CudaBlas::new(capture_stream.clone())?;
    // SAFETY: `workspace` outlives the handle's use (both live in `gpu` until the end).
    let set = unsafe {
        blas_sys::cublasSetWorkspace_v2(*capture_blas.handle(), workspace.addr() as *mut _, 4 << 20)
    };
    if set != blas_sys::cublasStatus_t::CUBLAS_STATUS_SUCCESS {
        return Err(Failure::Other(format!("cublasSetWorkspace: {set:?}")));
    }
    let gpu = Gpu {
        blas: Arc::new(CudaBlas::new(stream.clone())?),
        capture_blas: Arc::new(capture_blas),
        capture_stream,
        w1: DeviceBuffer::from_host(&stream, &model.w1)?,
        w2: DeviceBuffer::from_host(&stream, &model.w2)?,
        b1: DeviceBuffer::from_host(&stream, &model.b1)?,
        b2: DeviceBuffer::from_host(&stream, &model.b2)?,
        x: DeviceBuffer::from_host(&stream, &model.x0)?,
        h: DeviceBuffer::zeros(&stream, BATCH * HIDDEN)?,
        y: DeviceBuffer::zeros(&stream, BATCH * DIM)?,
        _workspace: workspace,
        functions,
        stream,
    };
    let want = model.on_cpu();
    let check = |what: &str, got: Vec<f32>| -> Result<f32, Failure> {
        let worst = got
            .iter()
            .zip(&want)
            .map(|(g, w)| (g - w).abs())
            .fold(0.0f32, f32::max);
        // NaN counts as a difference too.
        if worst.is_nan() || worst >= 1e-3 {
            return Err(Failure::Other(format!(
                "{what}: differs from the CPU by {worst}"
            )));
        }
        Ok(worst)
    };
    // SAFETY: `position` in `SRC` takes (unsigned, unsigned, unsigned, float*), reads and
    // writes x[k] for k < n only, and launches nothing; the check keeps n within x, and `dim`
    // non-zero for its `k % dim`.
    let position = unsafe { Position::new(gpu.functions[0].clone()) }
        .requires(|_, (n, dim, _, x)| dim >= 1 && n as usize <= x);
    // SAFETY: `position_at` takes (unsigned, unsigned, const unsigned*, float*), reads step[0]
    // and reads and writes x[k] for k < n only, and launches nothing; the check keeps n within
    // x, `step` non-empty, and `dim` non-zero.
    let position_at = unsafe { PositionAt::new(gpu.functions[1].clone()) }
        .requires(|_, (n, dim, step, x)| dim >= 1 && step >= 1 && n as usize <= x);
    // SAFETY: `bias_relu` takes (unsigned, unsigned, const float*, float*), reads and writes
    // h[k] for k < n only and reads b[k % width], and launches nothing; the check keeps n
    // within h and width (non-zero) within b.
    let bias_relu = unsafe { BiasRelu::new(gpu.functions[2].clone()) }
        .requires(|_, (n, width, b, h)| (1..=b).contains(&(width as usize)) && n as usize <= h);
    // SAFETY: `bias_tanh` takes (unsigned, unsigned, const float*, const float*, float*),
    // reads y[k] and writes x[k] for k < n only and reads b[k % width], and launches nothing;
    // the check keeps n within y and x and width (non-zero) within b.
    let bias_tanh =
        unsafe { BiasTanh::new(gpu.functions[3].clone()) }.requires(|_, (n, width, b, y, x)| {
            (1..=b).contains(&(width as usize)) && n as usize <= y.min(x)
        });

    println!("{STEPS} decode steps, batch {BATCH}, {DIM} -> {HIDDEN} -> {DIM}, results checked against the CPU:");
    println!(
        "{:<34} {:>12} {:>14} {:>10}",
        "", "steps/s", "largest diff", "vs eager"
    );

    // Eager.
    gpu.eager_step(0)?; // warm up cuBLAS and the kernels
    gpu.x.copy_from(&model.x0)?;
    let started = Instant::now();
    for step in 0..STEPS {
        gpu.eager_step(step)?;
    }
    let got = gpu.x.to_vec()?;
    let eager = STEPS as f64 / started.elapsed().as_secs_f64();
    let worst = check("eager", got)?;
    println!(
        "{:<34} {:>12.0} {:>14.1e} {:>10}",
        "eager stream launches", eager, worst, "1.00x"
    );

    // The graph with the step number set through its setter.
    let params = StepParams {
        position,
        bias_relu: bias_relu.clone(),
        bias_tanh: bias_tanh.clone(),
        layer1: gpu.layer1(),
        layer2: gpu.layer2(),
        w1: gpu.w1.clone(),
        w2: gpu.w2.clone(),
        x: gpu.x.clone(),
        h: gpu.h.clone(),
        y: gpu.y.clone(),
        b1: gpu.b1.clone(),
        b2: gpu.b2.clone(),
        step: 0,
    };
    let mut step_exec = Step::build(&ctx, &params)?.instantiate()?;
    gpu.x.copy_from(&model.x0)?;
    let started = Instant::now();
    for step in 0..STEPS {
        step_exec.set_step(step)?;
        step_exec.launch(&gpu.stream)?;
    }
    let got = gpu.x.to_vec()?;
    let with_setter = STEPS as f64 / started.elapsed().as_secs_f64();
    let worst = check("graph + set_step", got)?;
    println!(
        "{:<34} {:>12.0} {:>14.1e} {:>9.2}x",
        "graph, step updated by set_step",
        with_setter,
        worst,
        with_setter / eager
    );

    // The graph with the step #[indirect].
    let indirect_params = IndirectStepParams {
        position: position_at,
        bias_relu,
        bias_tanh,
        layer1: gpu.layer1(),
        layer2: gpu.layer2(),
        w1: gpu.w1.clone(),
        w2: gpu.w2.clone(),
        x: gpu.x.clone(),
        h: gpu.h.clone(),
        y: gpu.y.clone(),
        b1: gpu.b1.clone(),
        b2: gpu.b2.clone(),
        step: 0,
    };
    let mut indirect_exec = IndirectStep::build(&ctx, &indirect_params)?.instantiate()?;
    gpu.x.copy_from(&model.x0)?;
    let started = Instant::now();
    for step in 0..STEPS {
        indirect_exec.set_step(step)?;
        indirect_exec.launch(&gpu.stream)?;
    }
    let got = gpu.x.to_vec()?;
    let with_indirect = STEPS as f64 / started.elapsed().as_secs_f64();
    let worst = check("graph + indirect step", got)?;
    println!(
        "{:<34} {:>12.0} {:>14.1e} {:>9.2}x",
        "graph, step #[indirect]",
        with_indirect,
        worst,
        with_indirect / eager
    );
    Ok(())
}
