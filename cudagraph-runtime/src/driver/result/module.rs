use super::*;

/// `cuModuleLoadData` of the NUL-terminated PTX text `ptx`, then `cuModuleGetFunction` of each
/// of `names`: the module (which the caller owns) and the functions, in the order of `names`.
/// cudarc's calls, with the unload on failure that they leave to the caller.
///
/// # Safety
/// A context is current on this thread.
pub(crate) unsafe fn load_ptx<const N: usize>(
    ptx: &std::ffi::CStr,
    names: [&std::ffi::CStr; N],
) -> Result<(sys::CUmodule, [sys::CUfunction; N])> {
    use cudarc::driver::result::module;
    // SAFETY: the caller's promise; `ptx` is a NUL-terminated image the driver reads during
    // the call.
    let module = named("cuModuleLoadData", unsafe {
        module::load_data(ptx.as_ptr().cast())
    })?;
    let mut funcs = [std::ptr::null_mut(); N];
    for (func, name) in funcs.iter_mut().zip(names) {
        // SAFETY: `module` was just loaded; `name` is NUL-terminated.
        let found = named("cuModuleGetFunction", unsafe {
            module::get_function(module, name.to_owned())
        });
        match found {
            Ok(f) => *func = f,
            Err(e) => {
                // SAFETY: the module is ours and nothing uses it.
                let _ = unsafe { module::unload(module) };
                return Err(e);
            }
        }
    }
    Ok((module, funcs))
}
