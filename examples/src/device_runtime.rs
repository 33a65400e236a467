//! Compiling kernels that use CUDA's device runtime (device graph launch, device-side node
//! updates): NVRTC with `-rdc=true` for the GPU's architecture, then the driver's linker with
//! the toolkit's `libcudadevrt.a` (`cudagraph_runtime::device_launch::link_with_cudadevrt`, which
//! says where it looks; set `CUDAGRAPH_CUDADEVRT` to the file when it is elsewhere).

use std::sync::Arc;

use cudagraph_runtime::cudarc::driver::{sys, CudaContext, CudaModule};
use cudagraph_runtime::cudarc::nvrtc::{compile_ptx_with_opts, CompileOptions, Ptx};
use cudagraph_runtime::device_launch::{link_with_cudadevrt, DEVICE_LAUNCH_DECLARATIONS};

use crate::Failure;

/// Compiles `src` (CUDA C using the device runtime) for `ctx`'s GPU with `-rdc=true`, links it
/// with `libcudadevrt.a` and loads it. NVRTC declares the device runtime's functions and types
/// itself under `-rdc=true` (declaring them again is an error, as an H100's CUDA 13 NVRTC showed).
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
    let ptx = compile_ptx_with_opts(format!("{DEVICE_LAUNCH_DECLARATIONS}{src}"), options)
        .map_err(|e| Failure::Other(format!("NVRTC: {e:?}")))?;
    let cubin = link_with_cudadevrt(ctx, &ptx.to_src())?;
    Ok(ctx.load_module(Ptx::from_binary(cubin))?)
}
