//! Linking device code with CUDA's device runtime library (`libcudadevrt.a`), which device-side
//! `cudaGraphLaunch` and the device-side kernel-node updates live in.
//!
//! What a user needs installed: the CUDA toolkit's `libcudadevrt.a` (in `lib64/` of the toolkit:
//! found through `$CUDAGRAPH_CUDADEVRT` (the file itself), then `$CUDA_HOME/lib64`,
//! `$CUDA_PATH/lib64`, `/usr/local/cuda/lib64`), and NVRTC to compile the kernels with
//! `-rdc=true` to PTX. The driver's linker (`cuLink*`) does the rest:
//!
//! ```no_run
//! # fn f(ctx: &std::sync::Arc<cudarc::driver::CudaContext>, ptx: &str) -> cudagraph_runtime::Result<()> {
//! // PTX from NVRTC, compiled with `-rdc=true` (cudarc: `CompileOptions { options:
//! // vec!["-rdc=true".into()], arch: Some("compute_90"), ..Default::default() }`).
//! let cubin = cudagraph_runtime::device_launch::link_with_cudadevrt(ctx, ptx)?;
//! // Load it as any module: cudarc's `ctx.load_module(Ptx::from_binary(cubin))`.
//! # Ok(()) }
//! ```

use std::ffi::{c_void, CString};
use std::path::PathBuf;
use std::sync::Arc;

use cudarc::driver::{sys, CudaContext};

use crate::driver::named;
use crate::error::{Error, Result};

/// The environment variable naming `libcudadevrt.a` itself, searched first.
pub const CUDADEVRT_ENV: &str = "CUDAGRAPH_CUDADEVRT";

/// Where `libcudadevrt.a` is: `$CUDAGRAPH_CUDADEVRT`, else the first of `$CUDA_HOME/lib64`,
/// `$CUDA_PATH/lib64` and `/usr/local/cuda/lib64` holding it. [`Error::Invalid`] saying where
/// it looked when none does.
pub fn cudadevrt_path() -> Result<PathBuf> {
    find_cudadevrt(|name| std::env::var_os(name))
}

/// [`cudadevrt_path`] with the environment read through `env`.
fn find_cudadevrt(env: impl Fn(&str) -> Option<std::ffi::OsString>) -> Result<PathBuf> {
    if let Some(path) = env(CUDADEVRT_ENV) {
        let path = PathBuf::from(path);
        return if path.is_file() {
            Ok(path)
        } else {
            Err(Error::Invalid {
                node: "link_with_cudadevrt".into(),
                reason: format!(
                    "${CUDADEVRT_ENV} names {}, which is not a file",
                    path.display()
                ),
            })
        };
    }
    let mut tried = Vec::new();
    let homes = ["CUDA_HOME", "CUDA_PATH"]
        .iter()
        .filter_map(|v| env(v).map(PathBuf::from))
        .chain(std::iter::once(PathBuf::from("/usr/local/cuda")));
    for home in homes {
        let path = home.join("lib64").join("libcudadevrt.a");
        if path.is_file() {
            return Ok(path);
        }
        tried.push(path.display().to_string());
    }
    Err(Error::Invalid {
        node: "link_with_cudadevrt".into(),
        reason: format!(
            "CUDA's device runtime library was not found (tried {}): install the CUDA toolkit, \
             or name the file with ${CUDADEVRT_ENV}",
            tried.join(", ")
        ),
    })
}

/// Links `ptx` (PTX compiled with `-rdc=true`) with CUDA's device runtime library
/// ([`cudadevrt_path`]) for `ctx`'s device, with the driver's linker (`cuLinkCreate`,
/// `cuLinkAddData`, `cuLinkAddFile`, `cuLinkComplete`), and returns the cubin, to load as a
/// module. A link error comes back as [`Error::Invalid`] with the linker's log.
pub fn link_with_cudadevrt(ctx: &Arc<CudaContext>, ptx: &str) -> Result<Vec<u8>> {
    crate::ambient::refuse_in_host_node("link_with_cudadevrt")?;
    let library = cudadevrt_path()?;
    ctx.bind_to_thread().map_err(|source| Error::Driver {
        call: "cuCtxSetCurrent",
        source,
    })?;
    let ptx = CString::new(ptx).map_err(|_| Error::Invalid {
        node: "link_with_cudadevrt".into(),
        reason: "the PTX holds a NUL byte".into(),
    })?;
    let library =
        CString::new(library.to_string_lossy().into_owned()).map_err(|_| Error::Invalid {
            node: "link_with_cudadevrt".into(),
            reason: "the library's path holds a NUL byte".into(),
        })?;
    let mut log = vec![0u8; 16 * 1024];
    let mut options = [
        sys::CUjit_option::CU_JIT_ERROR_LOG_BUFFER,
        sys::CUjit_option::CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
    ];
    let mut values = [log.as_mut_ptr().cast::<c_void>(), log.len() as *mut c_void];
    let mut state: sys::CUlinkState = std::ptr::null_mut();
    // SAFETY: two options with their values (a buffer of `log.len()` bytes that outlives the
    // link state, and its size as a pointer-sized integer, as the driver reads it).
    named("cuLinkCreate", unsafe {
        sys::cuLinkCreate_v2(
            options.len() as u32,
            options.as_mut_ptr(),
            values.as_mut_ptr(),
            &mut state,
        )
        .result()
    })?;
    let linked = (|| -> std::result::Result<Vec<u8>, (&'static str, sys::CUresult)> {
        // SAFETY: a live link state; the PTX is NUL-terminated and its size counts the NUL.
        let r = unsafe {
            sys::cuLinkAddData_v2(
                state,
                sys::CUjitInputType::CU_JIT_INPUT_PTX,
                ptx.as_ptr() as *mut c_void,
                ptx.as_bytes_with_nul().len(),
                c"kernels.ptx".as_ptr(),
                0,
                std::ptr::null_mut(),
                std::ptr::null_mut(),
            )
        };
        if r != sys::CUresult::CUDA_SUCCESS {
            return Err(("cuLinkAddData", r));
        }
        // SAFETY: a live link state and a NUL-terminated path.
        let r = unsafe {
            sys::cuLinkAddFile_v2(
                state,
                sys::CUjitInputType::CU_JIT_INPUT_LIBRARY,
                library.as_ptr(),
                0,
                std::ptr::null_mut(),
                std::ptr::null_mut(),
            )
        };
        if r != sys::CUresult::CUDA_SUCCESS {
            return Err(("cuLinkAddFile", r));
        }
        let mut cubin: *mut c_void = std::ptr::null_mut();
        let mut size = 0usize;
        // SAFETY: a live link state; the cubin it returns lives until the state is destroyed,
        // and is copied out before that.
        let r = unsafe { sys::cuLinkComplete(state, &mut cubin, &mut size) };
        if r != sys::CUresult::CUDA_SUCCESS {
            return Err(("cuLinkComplete", r));
        }
        // SAFETY: `cubin` points to `size` bytes owned by the link state, alive here.
        Ok(unsafe { std::slice::from_raw_parts(cubin.cast::<u8>(), size) }.to_vec())
    })();
    // SAFETY: created above, destroyed once.
    unsafe { sys::cuLinkDestroy(state) };
    linked.map_err(|(call, code)| {
        let end = log.iter().position(|&b| b == 0).unwrap_or(log.len());
        Error::Invalid {
            node: "link_with_cudadevrt".into(),
            reason: format!(
                "{call} failed ({code:?}): {}",
                String::from_utf8_lossy(&log[..end]).trim()
            ),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_library_is_found_by_its_variable_then_under_the_toolkit_homes() {
        let dir = std::env::temp_dir().join(format!("cudadevrt-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("lib64")).unwrap();
        let lib = dir.join("lib64").join("libcudadevrt.a");
        std::fs::write(&lib, b"!<arch>\n").unwrap();
        let named = |v: &str| (v == CUDADEVRT_ENV).then(|| lib.clone().into_os_string());
        assert_eq!(find_cudadevrt(named).unwrap(), lib);
        let home = |v: &str| (v == "CUDA_HOME").then(|| dir.clone().into_os_string());
        assert_eq!(find_cudadevrt(home).unwrap(), lib);
        let wrong = |v: &str| (v == CUDADEVRT_ENV).then(|| dir.join("nothing").into_os_string());
        match find_cudadevrt(wrong) {
            Err(Error::Invalid { reason, .. }) => {
                assert!(reason.contains(CUDADEVRT_ENV), "{reason}")
            }
            other => panic!("{other:?}"),
        }
        let elsewhere = dir.join("empty");
        let none = |v: &str| (v == "CUDA_PATH").then(|| elsewhere.clone().into_os_string());
        if !std::path::Path::new("/usr/local/cuda/lib64/libcudadevrt.a").exists() {
            match find_cudadevrt(none) {
                Err(Error::Invalid { reason, .. }) => {
                    assert!(reason.contains("empty/lib64/libcudadevrt.a"), "{reason}")
                }
                other => panic!("{other:?}"),
            }
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
