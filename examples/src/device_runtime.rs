//! Compiling kernels that use CUDA's device runtime (device graph launch, device-side node
//! updates): NVRTC with `-rdc=true` for the GPU's architecture, then the driver's linker with
//! the toolkit's `libcudadevrt.a` (`cudagraph_runtime::device_launch::link_with_cudadevrt`, which
//! says where it looks; set `CUDAGRAPH_CUDADEVRT` to the file when it is elsewhere).

use std::sync::Arc;

use cudagraph_runtime::cudarc::driver::{sys, CudaContext, CudaModule};
use cudagraph_runtime::cudarc::nvrtc::{compile_ptx_with_opts, CompileOptions, Ptx};
use cudagraph_runtime::device_launch::{link_with_cudadevrt, DEVICE_LAUNCH_DECLARATIONS};

use crate::Failure;

/// The declarations of CUDA's `cuda_device_runtime_api.h` and `driver_types.h` these kernels
/// use, for an NVRTC that does not declare them itself (used only when compiling without them
/// fails; the test output says so).
pub const FALLBACK_DECLARATIONS: &str = r#"
typedef struct CUgraphExec_st* cudaGraphExec_t;
typedef struct CUstream_st* cudaStream_t;
typedef struct CUgraphDeviceUpdatableNode_st* cudaGraphDeviceNode_t;
typedef int cudaError_t;
extern "C" __device__ cudaError_t cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream);
static __device__ __forceinline__ cudaGraphExec_t cudaGetCurrentGraphExec() {
    unsigned long long g;
    asm("mov.u64 %0, %%current_graph_exec;" : "=l"(g));
    return (cudaGraphExec_t)g;
}
enum cudaGraphKernelNodeField {
    cudaGraphKernelNodeFieldInvalid = 0,
    cudaGraphKernelNodeFieldGridDim,
    cudaGraphKernelNodeFieldParam,
    cudaGraphKernelNodeFieldEnabled
};
struct cudaGraphKernelNodeUpdate {
    cudaGraphDeviceNode_t node;
    enum cudaGraphKernelNodeField field;
    union {
        dim3 gridDim;
        struct { const void* pValue; unsigned long long offset; unsigned long long size; } param;
        unsigned int isEnabled;
    } updateData;
};
extern "C" __device__ cudaError_t cudaGraphKernelNodeUpdatesApply(
    const struct cudaGraphKernelNodeUpdate* updates, unsigned long long updateCount);
"#;

/// Compiles `src` (CUDA C using the device runtime) for `ctx`'s GPU with `-rdc=true`, links it
/// with `libcudadevrt.a` and loads it. When NVRTC does not compile it with its own declarations
/// of the device runtime, it tries again with [`FALLBACK_DECLARATIONS`] (and says so on stderr).
pub fn compile_with_device_runtime(
    ctx: &Arc<CudaContext>,
    src: &str,
) -> Result<Arc<CudaModule>, Failure> {
    let major =
        ctx.attribute(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)?;
    let minor =
        ctx.attribute(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)?;
    // NVRTC's options take a `&'static str`: one small string leaked per compilation.
    let arch: &'static str = Box::leak(format!("compute_{major}{minor}").into_boxed_str());
    let options = CompileOptions {
        options: vec!["-rdc=true".into()],
        arch: Some(arch),
        ..Default::default()
    };
    let ptx = match compile_ptx_with_opts(
        format!("{DEVICE_LAUNCH_DECLARATIONS}{src}"),
        options.clone(),
    ) {
        Ok(ptx) => ptx,
        Err(first) => {
            eprintln!(
                "NVRTC did not compile the kernels with its own declarations of the device \
                 runtime ({first:?}); compiling them with FALLBACK_DECLARATIONS"
            );
            compile_ptx_with_opts(
                format!("{FALLBACK_DECLARATIONS}{DEVICE_LAUNCH_DECLARATIONS}{src}"),
                options,
            )
            .map_err(|e| Failure::Other(format!("NVRTC: {e:?}")))?
        }
    };
    let cubin = link_with_cudadevrt(ctx, &ptx.to_src())?;
    Ok(ctx.load_module(Ptx::from_binary(cubin))?)
}
