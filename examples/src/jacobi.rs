//! A Jacobi solver for `A x = b`, `A` tridiagonal with 4 on the diagonal and -1 beside it, as a
//! CUDA graph two ways: a WHILE conditional node whose body iterates until the change between
//! iterates is below a tolerance (the loop runs on the GPU; unrolled, each pass of the loop runs
//! several iterations and checks once), and a graph of one iteration that the host launches and
//! checks once per iteration (a launch and a read-back each time).

use std::sync::Arc;

use cudagraph_runtime::cudarc::driver::{CudaContext, CudaStream};
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{ConditionalHandle, Result, SET_CONDITIONAL_DECLARATION};

const KERNELS: &str = r#"
// y = (b + left + right) / 4 from x; delta2 += |y - x|^2 (a warp sum, then one atomic per warp).
extern "C" __global__ void jacobi(unsigned n, const float* b, const float* x, float* y, float* delta2) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    float d2 = 0.0f;
    if (i < n) {
        float left = i > 0 ? x[i - 1] : 0.0f;
        float right = i + 1 < n ? x[i + 1] : 0.0f;
        float v = (b[i] + left + right) * 0.25f;
        float d = v - x[i];
        y[i] = v;
        d2 = d * d;
    }
    for (int o = 16; o > 0; o >>= 1) d2 += __shfl_down_sync(0xffffffffu, d2, o);
    if ((threadIdx.x & 31) == 0 && d2 > 0.0f) atomicAdd(delta2, d2);
}
// One thread: count the iterations made since the last check (`per_check`: 1, or the copies of
// an unrolled body), go on while the change is above the tolerance and the budget lasts, and
// clear the change for the next check.
extern "C" __global__ void decide(unsigned long long loop, float* delta2, unsigned* iterations,
                                  float tol2, unsigned max_iterations, unsigned per_check) {
    if (threadIdx.x != 0 || blockIdx.x != 0) return;
    unsigned it = iterations[0] += per_check;
    float d2 = delta2[0];
    delta2[0] = 0.0f;
    cudaGraphSetConditional(loop, (d2 > tol2 && it < max_iterations) ? 1u : 0u);
}
"#;

/// A tolerance no iteration meets (a squared change is never negative): the solver then makes
/// exactly its maximum number of iterations, for timing.
pub const NEVER: f32 = -1.0;

/// `jacobi(n, b, x, y, delta2)`.
type JacobiArgs = (
    u32,
    DevicePtr<f32>,
    DevicePtr<f32>,
    DevicePtrMut<f32>,
    DevicePtrMut<f32>,
);
/// `decide(loop, delta2, iterations, tol2, max_iterations, per_check)`.
type DecideArgs = (
    ConditionalHandle,
    DevicePtrMut<f32>,
    DevicePtrMut<u32>,
    f32,
    u32,
    u32,
);

/// The problem and the solver's device state.
#[derive(Debug)]
pub struct Jacobi {
    jacobi: Kernel<JacobiArgs>,
    decide: Kernel<DecideArgs>,
    ctx: Arc<CudaContext>,
    /// The right-hand side.
    pub b: DeviceBuffer<f32>,
    /// The iterate (the answer once solved).
    pub x: DeviceBuffer<f32>,
    /// The other half of the ping-pong pair.
    y: DeviceBuffer<f32>,
    /// Squared change of the last iteration.
    pub delta2: DeviceBuffer<f32>,
    /// Iterations made by the WHILE graph's last launch (all of an unrolled loop's passes).
    pub iterations: DeviceBuffer<u32>,
}

impl Jacobi {
    /// The system with `n` unknowns and right-hand side `b`, starting from zero.
    pub fn new(ctx: &Arc<CudaContext>, stream: &Arc<CudaStream>, b: &[f32]) -> Result<Self> {
        let source = format!("{SET_CONDITIONAL_DECLARATION}{KERNELS}");
        let ptx = cudagraph_runtime::cudarc::nvrtc::compile_ptx(source).map_err(|e| {
            cudagraph_runtime::Error::Invalid {
                node: "jacobi kernels".into(),
                reason: format!("NVRTC: {e:?}"),
            }
        })?;
        let module = ctx
            .load_module(ptx)
            .map_err(|source| cudagraph_runtime::Error::Driver {
                call: "cuModuleLoadData",
                source,
            })?;
        let load = |name| {
            module
                .load_function(name)
                .map_err(|source| cudagraph_runtime::Error::Driver {
                    call: "cuModuleGetFunction",
                    source,
                })
        };
        // SAFETY: `jacobi` in `KERNELS` takes (unsigned, const float*, const float*, float*,
        // float*); for i < n only it reads b[i] and x[i-1..=i+1] (the neighbours only inside
        // 0..n) and writes y[i], and it adds into delta2[0]; it launches nothing. The check keeps
        // n within b, x and y, and delta2 non-empty.
        let jacobi = unsafe { Kernel::<JacobiArgs>::new(load("jacobi")?) }
            .requires(|_, (n, b, x, y, delta2)| n as usize <= b.min(x).min(y) && delta2 >= 1);
        // SAFETY: `decide` takes (unsigned long long, float*, unsigned*, float, unsigned,
        // unsigned), a conditional handle being an `unsigned long long`; it touches delta2[0] and
        // iterations[0] only, sets only its handle `loop`, and launches nothing. The check keeps
        // both buffers non-empty.
        let decide = unsafe { Kernel::<DecideArgs>::new(load("decide")?) }
            .requires(|_, (_, delta2, iterations, _, _, _)| delta2 >= 1 && iterations >= 1);
        Ok(Self {
            jacobi,
            decide,
            ctx: ctx.clone(),
            b: DeviceBuffer::from_host(stream, b)?,
            x: DeviceBuffer::zeros(stream, b.len())?,
            y: DeviceBuffer::zeros(stream, b.len())?,
            delta2: DeviceBuffer::zeros(stream, 1)?,
            iterations: DeviceBuffer::zeros(stream, 1)?,
        })
    }

    fn n(&self) -> u32 {
        self.b.len() as u32
    }

    /// One iteration (two half-steps, `x -> y -> x`) after `deps`; returns its last node.
    fn iteration(&self, g: &mut Body<'static>, deps: &[NodeId]) -> Result<NodeId> {
        let cfg = LaunchConfig::for_num_elems(self.n());
        let n = self.n();
        let a = g.add_kernel(
            &self.jacobi,
            cfg,
            (n, &self.b, &self.x, &self.y, &self.delta2),
            deps,
        )?;
        let b = g.add_kernel(
            &self.jacobi,
            cfg,
            (n, &self.b, &self.y, &self.x, &self.delta2),
            &[a.id()],
        )?;
        Ok(b.id())
    }

    /// The solver as one graph: from zero, iterate on the GPU until the squared change of an
    /// iteration is at most `tol2` or `max_iterations` iterations are done.
    pub fn while_graph(&self, tol2: f32, max_iterations: u32) -> Result<Graph<'static>> {
        self.unrolled_graph(tol2, max_iterations, 1)
    }

    /// The solver as one graph whose WHILE node runs `unroll` iterations per pass, the
    /// convergence check once per pass (after the last; see `Graph::add_unrolled_while`): from
    /// zero, iterate on the GPU in passes until the squared change summed over a pass is at most
    /// `tol2` or `max_iterations` iterations are done. It makes a multiple of `unroll`
    /// iterations: up to `unroll - 1` more than a check after each iteration would, harmless
    /// here (an iteration of a converged solve changes next to nothing).
    pub fn unrolled_graph(
        &self,
        tol2: f32,
        max_iterations: u32,
        unroll: u32,
    ) -> Result<Graph<'static>> {
        let mut g = Graph::new(&self.ctx)?;
        let start = [
            g.add_memset(Memset::new(&self.x, 0.0f32), &[])?.id(),
            g.add_memset(Memset::new(&self.delta2, 0.0f32), &[])?.id(),
            g.add_memset(Memset::new(&self.iterations, 0u32), &[])?.id(),
        ];
        let looping = g.conditional_handle(Some(1))?;
        g.add_unrolled_while(looping, &start, unroll, |body, copy| {
            let last = self.iteration(body, &[])?;
            if copy.is_last() {
                let check = Check {
                    looping,
                    tol2,
                    max_iterations,
                    per_check: copy.count(),
                };
                self.add_decide(body, check, last)?;
            }
            Ok(())
        })?;
        Ok(g)
    }

    /// The convergence check after `last`: counts the iterations and sets the loop's handle.
    fn add_decide(&self, body: &mut Body<'static>, check: Check, last: NodeId) -> Result<()> {
        let one = LaunchConfig {
            grid_dim: (1, 1, 1),
            block_dim: (32, 1, 1),
            shared_mem_bytes: 0,
        };
        body.add_kernel(
            &self.decide,
            one,
            (
                check.looping,
                &self.delta2,
                &self.iterations,
                check.tol2,
                check.max_iterations,
                check.per_check,
            ),
            &[last],
        )?;
        Ok(())
    }

    /// One iteration as a graph, for a host loop: clears the change, iterates.
    pub fn step_graph(&self) -> Result<Graph<'static>> {
        let mut g = Graph::new(&self.ctx)?;
        let clear = g.add_memset(Memset::new(&self.delta2, 0.0f32), &[])?;
        self.iteration(g.as_body(), &[clear.id()])?;
        Ok(g)
    }

    /// The same solver driven from the host: launch one iteration, read the change back, decide.
    /// Returns the iterations made.
    pub fn solve_from_host(
        &self,
        step: &mut GraphExec<'static>,
        stream: &Arc<CudaStream>,
        tol2: f32,
        max_iterations: u32,
    ) -> Result<u32> {
        self.x.copy_from(&vec![0.0; self.b.len()])?;
        for it in 1..=max_iterations {
            step.launch(stream)?;
            let d2 = self.delta2.to_vec()?[0];
            if d2 <= tol2 || it == max_iterations {
                return Ok(it);
            }
        }
        Ok(0)
    }
}

/// What the convergence check of a WHILE graph compares and counts.
#[derive(Debug, Clone, Copy)]
struct Check {
    /// The loop's handle.
    looping: ConditionalHandle,
    tol2: f32,
    max_iterations: u32,
    /// Iterations per check: the copies of an unrolled body.
    per_check: u32,
}

/// The same iterations on the CPU: `iterations` iterations (two half-steps each) from zero.
pub fn cpu_jacobi(b: &[f32], iterations: u32) -> Vec<f32> {
    let n = b.len();
    let (mut x, mut y) = (vec![0.0f32; n], vec![0.0f32; n]);
    let half = |from: &[f32], to: &mut [f32]| {
        for i in 0..n {
            let left = if i > 0 { from[i - 1] } else { 0.0 };
            let right = if i + 1 < n { from[i + 1] } else { 0.0 };
            to[i] = (b[i] + left + right) * 0.25;
        }
    };
    for _ in 0..iterations {
        half(&x, &mut y);
        half(&y, &mut x);
    }
    x
}
