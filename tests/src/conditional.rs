//! The kernels of the conditional-node tests: a loop step, a handle set from device memory,
//! and a store, each from one thread.

use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{ConditionalHandle, SET_CONDITIONAL_DECLARATION};

use crate::{compile, function, Gpu};

/// The kernels' CUDA C source.
pub const SRC: &str = r#"
extern "C" __global__ void step(unsigned long long h, unsigned* counter, unsigned limit) {
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        unsigned c = ++counter[0];
        cudaGraphSetConditional(h, c < limit ? 1u : 0u);
    }
}
extern "C" __global__ void set_from(unsigned long long h, const unsigned* value) {
    if (threadIdx.x == 0 && blockIdx.x == 0) cudaGraphSetConditional(h, value[0]);
}
extern "C" __global__ void put(unsigned v, unsigned* out) {
    if (threadIdx.x == 0 && blockIdx.x == 0) out[0] = v;
}
"#;

/// `step(h, counter, limit)`: increments `counter[0]`, keeps looping while it is below `limit`.
pub type Step = Kernel<(ConditionalHandle, DevicePtrMut<u32>, u32)>;
/// `set_from(h, value)`: sets `h` to `value[0]`.
pub type SetFrom = Kernel<(ConditionalHandle, DevicePtr<u32>)>;
/// `put(v, out)`: stores `v` in `out[0]`.
pub type Put = Kernel<(u32, DevicePtrMut<u32>)>;

/// The three kernels, loaded.
#[allow(missing_debug_implementations)]
pub struct Kernels {
    pub step: Step,
    pub set_from: SetFrom,
    pub put: Put,
}

/// Compiles and loads the kernels on `gpu`.
pub fn kernels(gpu: &Gpu) -> Kernels {
    let module = compile(&gpu.ctx, &format!("{SET_CONDITIONAL_DECLARATION}{SRC}"));
    // Each kernel touches element 0 of its one buffer, from one thread; a conditional handle is
    // an `unsigned long long`, and each sets only its handle parameter and launches nothing.
    // SAFETY: `step` takes (unsigned long long, unsigned*, unsigned) and reads and writes
    // counter[0] only; the check keeps `counter` non-empty.
    let step =
        unsafe { Step::new(function(&module, "step")) }.requires(|_, (_, counter, _)| counter >= 1);
    // SAFETY: `set_from` takes (unsigned long long, const unsigned*) and reads value[0] only;
    // the check keeps `value` non-empty.
    let set_from =
        unsafe { SetFrom::new(function(&module, "set_from")) }.requires(|_, (_, value)| value >= 1);
    // SAFETY: `put` takes (unsigned, unsigned*) and writes out[0] only; the check keeps `out`
    // non-empty.
    let put = unsafe { Put::new(function(&module, "put")) }.requires(|_, (_, out)| out >= 1);
    Kernels {
        step,
        set_from,
        put,
    }
}

/// One block of 32 threads.
pub fn one() -> LaunchConfig {
    LaunchConfig {
        grid_dim: (1, 1, 1),
        block_dim: (32, 1, 1),
        shared_mem_bytes: 0,
    }
}
