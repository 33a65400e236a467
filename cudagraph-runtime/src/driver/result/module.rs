use super::*;

/// `cuModuleLoadData` of the NUL-terminated PTX text `ptx`, then `cuModuleGetFunction` of
/// `name`: the module (which the caller owns) and the function. cudarc's calls, with the
/// unload on failure that they leave to the caller.
///
/// # Safety
/// A context is current on this thread.
pub(crate) unsafe fn load_ptx(
    ptx: &std::ffi::CStr,
    name: &std::ffi::CStr,
) -> Result<(sys::CUmodule, sys::CUfunction)> {
    use cudarc::driver::result::module;
    // SAFETY: the caller's promise; `ptx` is a NUL-terminated image the driver reads during
    // the call.
    let module = named("cuModuleLoadData", unsafe {
        module::load_data(ptx.as_ptr().cast())
    })?;
    // SAFETY: `module` was just loaded; `name` is NUL-terminated.
    let found = named("cuModuleGetFunction", unsafe {
        module::get_function(module, name.to_owned())
    });
    if found.is_err() {
        // SAFETY: the module is ours and nothing uses it.
        let _ = unsafe { module::unload(module) };
    }
    Ok((module, found?))
}
