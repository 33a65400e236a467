//! Kernels that launch graphs and update kernel nodes from the device: compiled by NVRTC with
//! `-rdc=true` for the GPU's architecture and linked with CUDA's device runtime library
//! (`libcudadevrt.a`, found as `cudagraph_runtime::device_launch::device_runtime` says; set
//! `CUDAGRAPH_CUDADEVRT` to the file when it is elsewhere).

use std::sync::Arc;

use cudagraph_runtime::cudarc::driver::{CudaContext, CudaModule};

/// Compiles `src` (CUDA C using the device runtime) for `ctx`'s GPU with `-rdc=true`, links it
/// with `libcudadevrt.a` and loads it (`cudagraph_examples::device_runtime`). Panics with the
/// compiler's or linker's message.
pub fn compile_with_device_runtime(ctx: &Arc<CudaContext>, src: &str) -> Arc<CudaModule> {
    cudagraph_examples::device_runtime::compile_with_device_runtime(ctx, src)
        .unwrap_or_else(|e| panic!("compiling with the device runtime: {e:?}"))
}

/// `scheduler_step(unsigned* counter, unsigned* log, unsigned limit, int* err)`.
pub type SchedulerArgs = (
    cudagraph_runtime::DevicePtrMut<u32>,
    cudagraph_runtime::DevicePtrMut<u32>,
    u32,
    cudagraph_runtime::DevicePtrMut<i32>,
);

/// `steer(cudaGraphDeviceNode_t b, unsigned long long k_offset, unsigned* launches, int* err)`.
pub type SteerArgs = (
    cudagraph_runtime::device_launch::DeviceNode,
    u64,
    cudagraph_runtime::DevicePtrMut<u32>,
    cudagraph_runtime::DevicePtrMut<i32>,
);

/// The kernels of the device-launch tests and benches.
pub const SRC: &str = r#"
extern "C" __global__ void add_u32(unsigned n, unsigned k, unsigned* y) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] += k;
}
// mode 0: fire-and-forget, 1: tail launch, 2: fire-and-forget as a sibling.
extern "C" __global__ void launch_graph(cudaGraphExec_t g, unsigned mode, int* err) {
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        cudaStream_t s = mode == 0 ? cudaStreamGraphFireAndForget
                       : mode == 1 ? cudaStreamGraphTailLaunch
                                   : cudaStreamGraphFireAndForgetAsSibling;
        err[0] |= (int)cudaGraphLaunch(g, s);
    }
}
// `launch_graph` in fire-and-forget mode after spinning for `cycles` clock cycles: a device
// launch that comes late, while the host goes on.
extern "C" __global__ void launch_graph_late(cudaGraphExec_t g, unsigned long long cycles, int* err) {
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        long long start = clock64();
        while ((unsigned long long)(clock64() - start) < cycles) {}
        err[0] |= (int)cudaGraphLaunch(g, cudaStreamGraphFireAndForget);
    }
}
extern "C" __global__ void launch_two(cudaGraphExec_t a, cudaGraphExec_t b, int* err) {
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        err[0] |= (int)cudaGraphLaunch(a, cudaStreamGraphFireAndForget);
        err[0] |= (int)cudaGraphLaunch(b, cudaStreamGraphFireAndForget);
    }
}
extern "C" __global__ void tail_launch_twice(cudaGraphExec_t g, int* err) {
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        err[0] = (int)cudaGraphLaunch(g, cudaStreamGraphTailLaunch);
        err[1] = (int)cudaGraphLaunch(g, cudaStreamGraphTailLaunch);
    }
}
extern "C" __global__ void put(unsigned v, unsigned* out) {
    if (threadIdx.x == 0 && blockIdx.x == 0) out[0] = v;
}
extern "C" __global__ void copy_first(const unsigned* src, unsigned* dst) {
    if (threadIdx.x == 0 && blockIdx.x == 0) dst[0] = src[0];
}
// The scheduler pattern: each run records its step and tail-launches the graph it runs in
// until `limit` steps have run (the counter lives in device memory).
extern "C" __global__ void scheduler_step(unsigned* counter, unsigned* log, unsigned limit, int* err) {
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        unsigned c = counter[0];
        if (c >= limit) return;
        log[c] = c + 1;
        counter[0] = c + 1;
        if (c + 1 < limit) err[0] |= (int)cudaGraphLaunch(cudaGetCurrentGraphExec(), cudaStreamGraphTailLaunch);
    }
}
// Device-side node updates: after `bump` ran, `steer` sets bump's `k` (at byte offset
// `k_offset`) to 3c + 1 and enables it unless c % 3 == 2, for the next launch (c counts the
// launches so far).
extern "C" __global__ void bump(unsigned k, unsigned* y) {
    if (threadIdx.x == 0 && blockIdx.x == 0) y[0] += k;
}
extern "C" __global__ void steer(cudaGraphDeviceNode_t b, unsigned long long k_offset,
                                 unsigned* launches, int* err) {
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        unsigned c = ++launches[0];
        unsigned next_k = 3 * c + 1;
        // One call per change (`cudaGraphKernelNodeUpdatesApply` takes an array of
        // `cudaGraphKernelNodeUpdate`, whose union member has a constructor in NVRTC's
        // declaration, so an array of them cannot be declared uninitialised).
        err[0] |= (int)cudaGraphKernelNodeSetParam(b, k_offset, &next_k, sizeof(unsigned));
        err[0] |= (int)cudaGraphKernelNodeSetEnabled(b, c % 3 != 2);
    }
}
"#;
