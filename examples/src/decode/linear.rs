//! A layer's GEMM through cuBLASLt: `D = epilogue(A B)` for one fixed shape, column-major f32,
//! with the bias and ReLU fused into the product where the layer has them, and the algorithm
//! chosen once, by timing cuBLASLt's candidates the way the steps run them: replayed in a graph.
//!
//! Why not `cublasSgemm`: for these small products (4 columns) cuBLAS's heuristic splits the
//! inner dimension and adds a reduction kernel, so every GEMM is two kernels, and a bias and an
//! activation are one more. In a graph each kernel costs the GPU a launch, which for kernels this
//! small is most of their time; a fused epilogue and an algorithm picked by its time in a graph
//! run the layer's first GEMM as one kernel. See cuBLASLt's
//! [`cublasLtMatmul`](https://docs.nvidia.com/cuda/cublas/#cublasltmatmul) and
//! [epilogues](https://docs.nvidia.com/cuda/cublas/#cublasltepilogue-t).

use std::ffi::c_void;
use std::mem::size_of;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use cudagraph_runtime::cudarc::cublaslt::{result as lt, sys};
use cudagraph_runtime::cudarc::driver::{sys::CUstream, CudaStream};
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{Error, Mut};

use crate::Failure;

/// What the GEMM does to the product before writing it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Epilogue {
    /// `D = A B`.
    Plain,
    /// `D = relu(A B + bias)`, `bias` one value per row of `D`.
    BiasRelu,
}

/// Candidates asked of cuBLASLt's heuristic, each timed.
const CANDIDATES: usize = 8;
/// Products per timed graph, each after the one before (they write the same `D`).
const CHAIN: usize = 32;
/// Timed launches of each candidate's graph, after one to warm up.
const LAUNCHES: usize = 5;

/// `D (m x n) = epilogue(A (m x k) B (k x n))` on f32, column-major, leading dimensions the
/// row counts. Cheap to clone; clones share the cuBLASLt objects.
#[derive(Clone, Debug)]
pub struct Linear {
    plan: Arc<Plan>,
    algo: sys::cublasLtMatmulAlgo_t,
}

/// The cuBLASLt objects of one shape and epilogue.
#[derive(Debug)]
struct Plan {
    handle: Handle,
    epilogue: Epilogue,
    a: Layout,
    b: Layout,
    d: Layout,
    /// Behind a lock because each call sets the bias pointer on it.
    desc: Mutex<Desc>,
}

impl Linear {
    /// Plans the product for `(m, n, k)` and chooses its algorithm: each of cuBLASLt's
    /// candidates that needs no workspace (none to share between nodes that may run at once)
    /// is recorded `CHAIN` times into a graph on `stream`, and the one whose graph replays
    /// fastest is kept. `a`, `b`, `bias` (with [`Epilogue::BiasRelu`]) and `d` are operands of
    /// the real shapes (the timing writes `d`). Prints the choice.
    pub fn tuned(
        stream: &Arc<CudaStream>,
        (m, n, k): (usize, usize, usize),
        epilogue: Epilogue,
        [a, b]: [&DeviceBuffer<f32>; 2],
        bias: Option<&DeviceBuffer<f32>>,
        d: &DeviceBuffer<f32>,
    ) -> Result<Self, Failure> {
        let plan = Arc::new(Plan::new((m, n, k), epilogue)?);
        let mut best: Option<(Duration, usize, sys::cublasLtMatmulAlgo_t)> = None;
        let candidates = plan.candidates()?;
        for (i, algo) in candidates.iter().enumerate() {
            let linear = Self {
                plan: plan.clone(),
                algo: *algo,
            };
            let Some(time) = linear.time_in_graph(stream, [a, b], bias, d)? else {
                continue;
            };
            if best.is_none_or(|(t, ..)| time < t) {
                best = Some((time, i, *algo));
            }
        }
        let (time, i, algo) = best.ok_or_else(|| {
            Failure::Other(format!(
                "cuBLASLt: none of {} candidates runs a {m} x {n} x {k} product",
                candidates.len()
            ))
        })?;
        println!(
            "cuBLASLt {m} x {n} x {k} ({epilogue:?}): candidate {} of {}, {:.2} us per product in a graph",
            i + 1,
            candidates.len(),
            time.as_secs_f64() * 1e6 / (CHAIN * LAUNCHES) as f64,
        );
        Ok(Self { plan, algo })
    }

    /// Enqueues the product on `stream` (also a stream being captured, where it records its
    /// kernels).
    ///
    /// # Safety
    /// `a`, `b` and `d` are device addresses of `m * k`, `k * n` and `m * n` floats, and `bias`
    /// (with [`Epilogue::BiasRelu`]) of `m`, in memory that stays allocated and unwritten by
    /// other work (written, for `d`) until the product has run: until the stream reaches it,
    /// or, recorded in a graph, as long as the graph may be launched.
    pub unsafe fn enqueue(
        &self,
        stream: CUstream,
        a: u64,
        b: u64,
        bias: Option<u64>,
        d: u64,
    ) -> Result<(), Error> {
        let plan = &*self.plan;
        let refused = |reason: String| Error::Invalid {
            node: "cublasLtMatmul".into(),
            reason,
        };
        if (plan.epilogue == Epilogue::BiasRelu) != bias.is_some() {
            return Err(refused(format!(
                "{:?} takes a bias exactly when it adds one",
                plan.epilogue
            )));
        }
        let (one, zero) = (1.0f32, 0.0f32);
        let desc = plan.desc.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(bias) = bias {
            // SAFETY: the attribute's value is a device pointer, read during the call.
            unsafe {
                desc.set(
                    sys::cublasLtMatmulDescAttributes_t::CUBLASLT_MATMUL_DESC_BIAS_POINTER,
                    &bias,
                )
            }
            .map_err(|e| refused(format!("setting the bias: {e:?}")))?;
        }
        // SAFETY: the handle, descriptor and layouts are alive (the plan owns them); the
        // layouts describe the caller's buffers (see # Safety); alpha and beta are host values
        // read during the call (the default pointer mode); D is also C, read with beta = 0;
        // the algorithm came from this plan's heuristic and needs no workspace.
        unsafe {
            lt::matmul(
                plan.handle.0,
                desc.0,
                (&one as *const f32).cast(),
                (&zero as *const f32).cast(),
                a as *const c_void,
                plan.a.0,
                b as *const c_void,
                plan.b.0,
                d as *const c_void,
                plan.d.0,
                d as *mut c_void,
                plan.d.0,
                &self.algo,
                std::ptr::null_mut(),
                0,
                stream as sys::cudaStream_t,
            )
        }
        .map_err(|e| refused(format!("cuBLASLt answered {e:?}")))
    }

    /// Seconds for [`LAUNCHES`] launches of a graph of [`CHAIN`] products with this algorithm,
    /// or `None` when cuBLASLt refuses to run it.
    fn time_in_graph(
        &self,
        stream: &Arc<CudaStream>,
        [a, b]: [&DeviceBuffer<f32>; 2],
        bias: Option<&DeviceBuffer<f32>>,
        d: &DeviceBuffer<f32>,
    ) -> Result<Option<Duration>, Failure> {
        let with_bias = bias.is_some();
        let linear = self.clone();
        // Without a bias, `a` stands in as the third operand (read, never used by the work).
        let operands = (
            a.clone(),
            b.clone(),
            bias.unwrap_or(a).clone(),
            Mut(d.clone()),
        );
        let graph = Graph::capture(stream, operands, move |scope, (a, b, bias, d)| {
            (0..CHAIN).try_for_each(|_| {
                // SAFETY: the views are the operands of the shapes `tuned` was given, alive
                // as long as the graph (which holds them).
                unsafe {
                    linear.enqueue(
                        scope.stream().cu_stream(),
                        a.addr(),
                        b.addr(),
                        with_bias.then(|| bias.addr()),
                        d.addr(),
                    )
                }
            })
        });
        let graph = match graph {
            Ok(graph) => graph,
            // An algorithm that the heuristic offered but that does not run this product.
            Err(Error::Invalid { node, .. }) if node == "cublasLtMatmul" => return Ok(None),
            Err(e) => return Err(e.into()),
        };
        let mut exec = graph.instantiate()?;
        exec.launch(stream)?;
        stream.synchronize()?;
        let started = Instant::now();
        for _ in 0..LAUNCHES {
            exec.launch(stream)?;
        }
        stream.synchronize()?;
        Ok(Some(started.elapsed()))
    }
}

impl Plan {
    fn new((m, n, k): (usize, usize, usize), epilogue: Epilogue) -> Result<Self, Failure> {
        let layout = |rows: usize, cols: usize| {
            lt::create_matrix_layout(
                sys::cudaDataType_t::CUDA_R_32F,
                rows as u64,
                cols as u64,
                rows as i64,
            )
            .map(Layout)
        };
        let handle = Handle(lt::create_handle()?);
        let desc = Desc(lt::create_matmul_desc(
            sys::cublasComputeType_t::CUBLAS_COMPUTE_32F,
            sys::cudaDataType_t::CUDA_R_32F,
        )?);
        let kind = match epilogue {
            Epilogue::Plain => sys::cublasLtEpilogue_t::CUBLASLT_EPILOGUE_DEFAULT,
            Epilogue::BiasRelu => sys::cublasLtEpilogue_t::CUBLASLT_EPILOGUE_RELU_BIAS,
        };
        // SAFETY: the epilogue attribute's value is a `cublasLtEpilogue_t`.
        unsafe {
            desc.set(
                sys::cublasLtMatmulDescAttributes_t::CUBLASLT_MATMUL_DESC_EPILOGUE,
                &kind,
            )?
        };
        Ok(Self {
            handle,
            epilogue,
            a: layout(m, k)?,
            b: layout(k, n)?,
            d: layout(m, n)?,
            desc: Mutex::new(desc),
        })
    }

    /// cuBLASLt's candidate algorithms that need no workspace, best guess first.
    fn candidates(&self) -> Result<Vec<sys::cublasLtMatmulAlgo_t>, Failure> {
        let pref = Pref(lt::create_matmul_pref()?);
        let no_workspace = 0usize;
        // SAFETY: the attribute's value is a `size_t`.
        unsafe {
            lt::set_matmul_pref_attribute(
                pref.0,
                sys::cublasLtMatmulPreferenceAttributes_t::CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                (&no_workspace as *const usize).cast(),
                size_of::<usize>(),
            )?;
        }
        // SAFETY: all-zero bytes are a valid `cublasLtMatmulHeuristicResult_t` (plain data).
        let mut found: Vec<sys::cublasLtMatmulHeuristicResult_t> =
            vec![unsafe { std::mem::zeroed() }; CANDIDATES];
        let mut count = 0;
        let desc = self.desc.lock().unwrap_or_else(|e| e.into_inner());
        // SAFETY: the handle, descriptor, layouts and preference are alive; `found` holds
        // `CANDIDATES` results and `count` says how many were written.
        unsafe {
            sys::cublasLtMatmulAlgoGetHeuristic(
                self.handle.0,
                desc.0,
                self.a.0,
                self.b.0,
                self.d.0,
                self.d.0,
                pref.0,
                CANDIDATES as i32,
                found.as_mut_ptr(),
                &mut count,
            )
        }
        .result()?;
        found.truncate(count.max(0) as usize);
        Ok(found
            .into_iter()
            .filter(|r| {
                r.state == sys::cublasStatus_t::CUBLAS_STATUS_SUCCESS && r.workspaceSize == 0
            })
            .map(|r| r.algo)
            .collect())
    }
}

/// Generates the owner of a cuBLASLt object, destroying it on drop.
macro_rules! owner {
    ($(#[$doc:meta])* $name:ident($ty:ty) = $destroy:path) => {
        $(#[$doc])*
        #[derive(Debug)]
        struct $name($ty);

        // SAFETY: cuBLASLt's objects are host-side descriptions with no thread affinity; the
        // one mutated after creation (`Desc`) is used behind a lock.
        unsafe impl Send for $name {}
        // SAFETY: as for `Send`; shared use only reads them.
        unsafe impl Sync for $name {}

        impl Drop for $name {
            fn drop(&mut self) {
                // SAFETY: created by the matching cuBLASLt call and destroyed only here. A
                // failure to destroy leaks a host object and is not worth a panic.
                let _ = unsafe { $destroy(self.0) };
            }
        }
    };
}

owner!(/// A cuBLASLt handle.
    Handle(sys::cublasLtHandle_t) = lt::destroy_handle);
owner!(/// A matrix layout.
    Layout(sys::cublasLtMatrixLayout_t) = lt::destroy_matrix_layout);
owner!(/// A matmul descriptor.
    Desc(sys::cublasLtMatmulDesc_t) = lt::destroy_matmul_desc);
owner!(/// A heuristic search preference.
    Pref(sys::cublasLtMatmulPreference_t) = lt::destroy_matmul_pref);

impl Desc {
    /// Sets a descriptor attribute to `value`.
    ///
    /// # Safety
    /// `T` is the attribute's documented type.
    unsafe fn set<T>(
        &self,
        attr: sys::cublasLtMatmulDescAttributes_t,
        value: &T,
    ) -> Result<(), lt::CublasError> {
        // SAFETY: `value` is a live `T` of `size_of::<T>()` bytes, the attribute's type.
        unsafe {
            lt::set_matmul_desc_attribute(self.0, attr, (value as *const T).cast(), size_of::<T>())
        }
    }
}
