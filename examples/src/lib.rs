//! What the examples share: opening the GPU, compiling kernels, and exiting with one clear line
//! when something is missing. Run an example with `cargo run -p cudagraph-examples --example NAME`.

pub mod data_parallel;
pub mod decode;
pub mod device_runtime;
pub mod interop;
pub mod jacobi;
pub mod pipeline;
pub mod quickstart;
pub mod vulkan;

use std::process::ExitCode;
use std::sync::Arc;

use cudagraph_runtime::cudarc::driver::{CudaContext, CudaModule};
use cudagraph_runtime::cudarc::nvrtc;
use cudagraph_runtime::{open_device, Error};

/// Why an example stopped.
#[derive(Debug)]
pub enum Failure {
    /// No GPU or driver on this machine: said in one line, without a backtrace.
    NoGpu(Error),
    /// Anything else, already formatted.
    Other(String),
}

impl<E: std::fmt::Display> From<E> for Failure {
    fn from(e: E) -> Self {
        Failure::Other(e.to_string())
    }
}

/// Runs an example's body and turns its outcome into an exit code, printing one line on failure.
pub fn main_with(name: &str, body: impl FnOnce() -> Result<(), Failure>) -> ExitCode {
    match body() {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::NoGpu(e)) => {
            eprintln!("{name} needs an NVIDIA GPU with a CUDA driver: {e}");
            ExitCode::FAILURE
        }
        Err(Failure::Other(e)) => {
            eprintln!("{name} failed: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Device 0, or [`Failure::NoGpu`]; prints the device's name.
pub fn open_gpu() -> Result<Arc<CudaContext>, Failure> {
    let ctx = open_device(0).map_err(Failure::NoGpu)?;
    println!("device: {}", ctx.name()?);
    Ok(ctx)
}

/// Compiles CUDA C `source` with NVRTC and loads it.
pub fn compile(ctx: &Arc<CudaContext>, source: &str) -> Result<Arc<CudaModule>, Failure> {
    let ptx = nvrtc::compile_ptx(source).map_err(|e| Failure::Other(format!("NVRTC: {e:?}")))?;
    Ok(ctx.load_module(ptx)?)
}
