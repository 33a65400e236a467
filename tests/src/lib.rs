//! Shared helpers for the GPU integration tests and benches: open the GPU or skip, compile CUDA C
//! with NVRTC, make random inputs.

/// The workspace README's code blocks, compiled by `cargo test` as doctests (run too, unless
/// `no_run`: those need a GPU).
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;

/// The code blocks of cudagraph-runtime's README (the one crates.io shows), as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../cudagraph-runtime/README.md")]
pub struct RuntimeReadmeDoctests;

/// The code blocks of cudagraph-macros' README, as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../cudagraph-macros/README.md")]
pub struct MacrosReadmeDoctests;

/// The code blocks of the documentation pages in `docs/`, as doctests.
#[cfg(doctest)]
pub mod docs {
    /// `docs/features.md`.
    #[doc = include_str!("../../docs/features.md")]
    pub struct Features;

    /// `docs/memory-model.md`.
    #[doc = include_str!("../../docs/memory-model.md")]
    pub struct MemoryModel;

    /// `docs/rules.md`.
    #[doc = include_str!("../../docs/rules.md")]
    pub struct Rules;

    /// `docs/performance.md`.
    #[doc = include_str!("../../docs/performance.md")]
    pub struct Performance;

    /// `docs/development.md`.
    #[doc = include_str!("../../docs/development.md")]
    pub struct Development;
}

pub mod bench;
pub mod capture;
pub mod child;
pub mod conditional;
pub mod declarations;
pub mod device_launch;
pub mod graph_memory;
pub mod graphs;
pub mod nccl;
pub mod pdl;
pub mod pipeline;
pub mod raw;
pub mod soundness;
pub mod unroll;

use std::collections::BTreeSet;
use std::io::Write as _;
use std::sync::{Arc, Condvar, Mutex, PoisonError};

use cudagraph_runtime::cudarc::driver::{
    CudaContext, CudaFunction, CudaModule, CudaSlice, CudaStream, CudaView,
    DevicePtr as DevicePtrTrait, DeviceRepr, PinnedHostSlice, ValidAsZeroBits,
};
use cudagraph_runtime::cudarc::nvrtc;
use cudagraph_runtime::{
    open_device, DeviceBuffer, DevicePtr, DevicePtrMut, Error, Kernel, LaunchConfig,
};

/// An open GPU: a context and a stream of it, and the test's turn on it (see [`gpu`]).
#[derive(Debug)]
pub struct Gpu {
    /// The primary context of device 0.
    pub ctx: Arc<CudaContext>,
    /// A fresh non-default stream.
    pub stream: Arc<CudaStream>,
    /// Held while the `Gpu` lives: dropping it lets tests of other modules start (forgetting it
    /// keeps them waiting).
    _turn: Turn,
    /// For tests that run NCCL collectives: held while the `Gpu` lives, so that one such test
    /// runs at a time (see `nccl::nccl_gpus`).
    pub(crate) _alone: Option<nccl::Alone>,
}

/// Whether a missing GPU must fail the tests (`CUDAGRAPH_REQUIRE_GPU=1`, set by `.gpu/run`).
pub fn gpu_required() -> bool {
    std::env::var("CUDAGRAPH_REQUIRE_GPU").is_ok_and(|v| v == "1")
}

/// Device 0 for test `test`, or `None` when this machine has no GPU: then the test is counted as
/// skipped (a line saying so, captured by the test runner unless `--nocapture`), and the test
/// program ends with a line the runner does not capture, saying how many of its tests were
/// skipped and why. Call it at the start of the test, and keep the `Gpu` until its end.
///
/// Tests of one module may run at the same time; a test of another module (another source file
/// calling `gpu`) waits until no test of the module holding the GPU holds a `Gpu` any more. So the
/// GPU tests that share one test program run module by module, each module as it ran as a program
/// of its own: several break captures on purpose, synchronize the context, or measure free memory
/// and the graph-memory pool.
///
/// # Panics
/// When there is no GPU and `CUDAGRAPH_REQUIRE_GPU=1`: then a missing GPU is a test failure.
#[track_caller]
pub fn gpu(test: &str) -> Option<Gpu> {
    // Every driver call of the test in its turn, opening the device too.
    let file = std::panic::Location::caller().file();
    let turn = Turn::take(file);
    match open_device(0) {
        Ok(ctx) => {
            // cudarc synchronizes a context wrapper when its first stream is made (for its event
            // tracking), and `open_device` makes a new wrapper for each test. A
            // `cuCtxSynchronize` while another test of the module captures a stream fails, and
            // breaks that test's capture (witness:
            // `runtime_capture_errors::witness_a_context_synchronize_on_another_thread_breaks_a_capture`).
            // The wrapper is new and has done nothing, so there is nothing to synchronize: its
            // first stream is made with event tracking off for that one call.
            // SAFETY: no `CudaSlice` of this wrapper exists yet, nor can one be made meanwhile
            // (the wrapper is this thread's alone until it is returned), so none is left
            // untracked by turning tracking off and on around the call.
            unsafe { ctx.disable_event_tracking() };
            let stream = ctx.new_stream();
            // SAFETY: as above.
            unsafe { ctx.enable_event_tracking() };
            let stream = stream.expect("creating a stream");
            Some(Gpu {
                ctx,
                stream,
                _turn: turn,
                _alone: None,
            })
        }
        Err(e @ (Error::NoDriver | Error::NoDevice { .. })) => {
            drop(turn);
            if gpu_required() {
                panic!("{test}: CUDAGRAPH_REQUIRE_GPU=1 but no GPU is usable: {e}");
            }
            eprintln!("skipped {test}: no GPU ({e})");
            skipped(file, test, &format!("no GPU: {e}"));
            None
        }
        Err(e) => panic!("{test}: opening the GPU failed: {e}"),
    }
}

/// How many GPUs must be there (`CUDAGRAPH_REQUIRE_GPUS`, 0 when unset): tests needing more
/// than there are fail instead of skipping when they need at most this many.
pub fn gpus_required() -> usize {
    std::env::var("CUDAGRAPH_REQUIRE_GPUS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

/// Device 0 for test `test` (see [`gpu`]) and the contexts of devices `1..n`, or `None` when
/// this machine has no GPU or fewer than `n`: a skip, and a failure when there is no GPU under
/// `CUDAGRAPH_REQUIRE_GPU=1` or fewer than `n` under `CUDAGRAPH_REQUIRE_GPUS` of `n` or more.
#[track_caller]
pub fn gpus(test: &str, n: usize) -> Option<(Gpu, Vec<Arc<CudaContext>>)> {
    let file = std::panic::Location::caller().file();
    let first = gpu(test)?;
    let more = more_devices(file, test, n)?;
    Some((first, more))
}

/// The contexts of devices `1..n` for test `test` of source file `file`, or `None` (a skip, or
/// a failure under `CUDAGRAPH_REQUIRE_GPUS`, see [`gpus`]) when one is missing.
pub(crate) fn more_devices(file: &str, test: &str, n: usize) -> Option<Vec<Arc<CudaContext>>> {
    let mut more = Vec::new();
    for ordinal in 1..n {
        match open_device(ordinal) {
            Ok(ctx) => more.push(ctx),
            Err(e @ Error::NoDevice { .. }) => {
                let why = format!("needs {n} GPUs, and device {ordinal} is missing ({e})");
                if gpus_required() >= n {
                    panic!(
                        "{test}: CUDAGRAPH_REQUIRE_GPUS={} but it {why}",
                        gpus_required()
                    );
                }
                eprintln!("skipped {test}: {why}");
                skipped(file, test, &format!("needs {n} GPUs"));
                return None;
            }
            Err(e) => panic!("{test}: opening device {ordinal} failed: {e}"),
        }
    }
    Some(more)
}

/// Which module's tests hold the GPU, and how many `Gpu`s they hold.
struct Turns {
    module: &'static str,
    holders: usize,
}

static TURNS: Mutex<Turns> = Mutex::new(Turns {
    module: "",
    holders: 0,
});
static TURN_ENDED: Condvar = Condvar::new();

/// A test's turn on the GPU: its module's, shared with the other tests of that module.
#[derive(Debug)]
struct Turn;

impl Turn {
    /// Waits until the GPU is free or held by tests of `module`, and joins them.
    fn take(module: &'static str) -> Self {
        let mut turns = TURNS.lock().unwrap_or_else(PoisonError::into_inner);
        // Always admitted while its own module holds the GPU: a test waiting here may hold a lock
        // of its module that a test already running needs.
        while turns.holders > 0 && turns.module != module {
            turns = TURN_ENDED
                .wait(turns)
                .unwrap_or_else(PoisonError::into_inner);
        }
        turns.module = module;
        turns.holders += 1;
        Turn
    }
}

impl Drop for Turn {
    fn drop(&mut self) {
        let mut turns = TURNS.lock().unwrap_or_else(PoisonError::into_inner);
        turns.holders -= 1;
        if turns.holders == 0 {
            TURN_ENDED.notify_all();
        }
    }
}

/// The tests of this program that skipped for want of a GPU (or of NCCL, or of a second GPU),
/// and why.
static SKIPPED: Mutex<(BTreeSet<String>, BTreeSet<String>)> =
    Mutex::new((BTreeSet::new(), BTreeSet::new()));

/// Counts `test` of source file `file` as skipped, for want of what `why` says (`no GPU: ...`);
/// the first skip arranges for the summary at exit.
pub(crate) fn skipped(file: &str, test: &str, why: &str) {
    let mut skipped = SKIPPED.lock().unwrap_or_else(PoisonError::into_inner);
    if skipped.0.is_empty() {
        // SAFETY: registers a plain function, callable at any time, with the C library.
        unsafe { atexit(report_skips) };
    }
    skipped.1.insert(why.to_owned());
    // Named as the test runner names it: `module::test` in a program of several modules.
    let module = std::path::Path::new(file)
        .file_stem()
        .map(|m| m.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name = match std::env::args().next() {
        // A program of one file (`soundness_1_leak_amplification` of `1_leak_amplification.rs`).
        Some(program) if program_name(&program).ends_with(&*module) => test.to_owned(),
        _ if module == "main" || module == "lib" => test.to_owned(),
        _ => format!("{module}::{test}"),
    };
    skipped.0.insert(name);
}

/// The test program's name: its file name without the hash cargo adds (`<name>-<16 hex digits>`).
fn program_name(path: &str) -> String {
    let file = std::path::Path::new(path)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    match file.rsplit_once('-') {
        Some((name, hash)) if hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit()) => {
            name.to_owned()
        }
        _ => file,
    }
}

unsafe extern "C" {
    /// The C library's `atexit`: `f` runs when the process exits normally, after the test
    /// runner has printed its results (it returns from `main`, or calls `process::exit`).
    fn atexit(f: extern "C" fn()) -> std::ffi::c_int;
}

/// Prints, after the test runner's results, how many tests skipped and why: written to stderr
/// directly, which the runner does not capture (it captures `print!` and `eprint!` only).
extern "C" fn report_skips() {
    let _ = std::panic::catch_unwind(|| {
        let skipped = SKIPPED.lock().unwrap_or_else(PoisonError::into_inner);
        let (tests, why) = &*skipped;
        let why: Vec<&str> = why.iter().map(String::as_str).collect();
        let why = why.join("; ");
        let program = program_name(&std::env::args().next().unwrap_or_default());
        let n = tests.len();
        let what = if n == 1 { "test" } else { "tests" };
        let named = if n <= 3 {
            let names: Vec<&str> = tests.iter().map(String::as_str).collect();
            format!(" ({})", names.join(", "))
        } else {
            String::new()
        };
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED {n} GPU {what} of `{program}`{named}, counted as passed above but not run: \
             {why}\n(set CUDAGRAPH_REQUIRE_GPU=1 to make a missing GPU or NCCL fail them, \
             CUDAGRAPH_REQUIRE_VULKAN=1 a missing Vulkan, CUDAGRAPH_REQUIRE_GPUS=2 a missing second GPU)\n"
        );
    });
}

/// Whether a missing Vulkan must fail the tests that need it (`CUDAGRAPH_REQUIRE_VULKAN=1`, for
/// the GPU machine with the Vulkan loader in place). A machine with CUDA but no Vulkan loader or
/// driver skips them otherwise: Vulkan is not part of what this crate needs.
pub fn vulkan_required() -> bool {
    std::env::var("CUDAGRAPH_REQUIRE_VULKAN").is_ok_and(|v| v == "1")
}

/// The Vulkan side of a frame loop on `gpu`'s device (see `cudagraph_examples::vulkan`), with a
/// shared buffer of `elems` `u32`s and readback slots for `frames` frames, for test `test`; or
/// `None` when this machine has no usable Vulkan (loader, driver, device): then the test is
/// counted as skipped, as [`gpu`] counts a missing GPU.
///
/// # Panics
/// When Vulkan is missing and `CUDAGRAPH_REQUIRE_VULKAN=1`, or a Vulkan call fails.
#[track_caller]
pub fn vulkan(
    test: &str,
    gpu: &Gpu,
    elems: usize,
    frames: usize,
) -> Option<cudagraph_examples::vulkan::VulkanFrames> {
    use cudagraph_examples::vulkan::{VulkanError, VulkanFrames};
    let file = std::panic::Location::caller().file();
    let uuid = gpu
        .ctx
        .uuid()
        .expect("the CUDA device's UUID")
        .bytes
        .map(|b| b as u8);
    match VulkanFrames::new(uuid, elems, frames) {
        Ok(frames) => Some(frames),
        Err(VulkanError::Unavailable(why)) => {
            if vulkan_required() {
                panic!("{test}: CUDAGRAPH_REQUIRE_VULKAN=1 but Vulkan is not usable: {why}");
            }
            eprintln!("skipped {test}: no Vulkan ({why})");
            skipped(file, test, &format!("no Vulkan: {why}"));
            None
        }
        Err(e) => panic!("{test}: Vulkan failed: {e}"),
    }
}

/// Compiles CUDA C `src` with NVRTC and loads it into `ctx`.
pub fn compile(ctx: &Arc<CudaContext>, src: &str) -> Arc<CudaModule> {
    let ptx = nvrtc::compile_ptx(src).unwrap_or_else(|e| panic!("NVRTC failed: {e:?}"));
    ctx.load_module(ptx).expect("loading the PTX module")
}

/// Loads function `name` from `module`.
pub fn function(module: &Arc<CudaModule>, name: &str) -> CudaFunction {
    module
        .load_function(name)
        .unwrap_or_else(|e| panic!("loading `{name}`: {e}"))
}

/// Kernels shared by the tests and benches (all `extern "C"`, 1-D, bounds-checked).
pub const KERNELS: &str = r#"
extern "C" __global__ void saxpy(unsigned n, float a, const float* x, float* y) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
extern "C" __global__ void scale(unsigned n, float a, float* y) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * y[i];
}
extern "C" __global__ void offset(unsigned n, float a, float* y) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = y[i] + a;
}
extern "C" __global__ void add_u32(unsigned n, unsigned k, unsigned* y) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] += k;
}
extern "C" __global__ void axpy_out(unsigned n, float a, const float* x, const float* y, float* out) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = a * x[i] + y[i];
}
extern "C" __global__ void mixed_args(unsigned char a, short b, long long c, double d, float e, bool negate,
                                       unsigned n, double* out) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        double v = (double)a + (double)b + (double)c + d + (double)e + (double)i;
        out[i] = negate ? -v : v;
    }
}
extern "C" __global__ void noop(unsigned n, float* y) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && y[i] == 12345.0f) y[i] = 0.0f;
}
"#;

/// A small, seedable random generator (SplitMix64): tests print their seed so a failure can be
/// replayed with `CUDAGRAPH_SEED`.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// Seeded from `CUDAGRAPH_SEED` or the clock; prints the seed with `label`.
    pub fn new(label: &str) -> Self {
        let seed = std::env::var("CUDAGRAPH_SEED")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| {
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(1, |d| d.as_nanos() as u64)
            });
        eprintln!("{label}: seed {seed} (replay with CUDAGRAPH_SEED={seed})");
        Self(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A float in [-1, 1).
    pub fn f32(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 23) as f32 - 1.0
    }

    /// `n` floats in [-1, 1).
    pub fn f32s(&mut self, n: usize) -> Vec<f32> {
        (0..n).map(|_| self.f32()).collect()
    }

    /// A `u32` below `bound` (> 0).
    pub fn below(&mut self, bound: u32) -> u32 {
        (self.next_u64() % bound as u64) as u32
    }

    /// A length in `lo..hi` (`lo < hi`): buffer sizes that are rarely a multiple of a block.
    pub fn len_in(&mut self, lo: usize, hi: usize) -> usize {
        lo + (self.next_u64() % (hi - lo) as u64) as usize
    }
}

/// Asserts `got` equals `want` element-wise within `tol` (relative to magnitude, absolute near 0).
#[track_caller]
pub fn assert_close(what: &str, got: &[f32], want: &[f32], tol: f32) {
    assert_eq!(got.len(), want.len(), "{what}: length");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        let ok = (g - w).abs() <= tol * w.abs().max(1.0);
        assert!(ok, "{what}: element {i}: got {g}, want {w}");
    }
}

/// A value no correct run produces, for poisoning outputs before a launch.
pub const POISON: f32 = f32::NAN;

/// A `u32` no correct run produces, for poisoning integer outputs before a launch.
pub const POISON_U32: u32 = 0xDEAD_BEEF;

/// Arguments of `saxpy`: `(n, a, x, y)`.
pub type SaxpyArgs = (u32, f32, DevicePtr<f32>, DevicePtrMut<f32>);
/// Arguments of `scale`: `(n, a, y)`.
pub type ScaleArgs = (u32, f32, DevicePtrMut<f32>);
/// Arguments of `add_u32`: `(n, k, y)`.
pub type AddU32Args = (u32, u32, DevicePtrMut<u32>);
/// Arguments of `axpy_out`: `(n, a, x, y, out)`.
pub type AxpyOutArgs = (u32, f32, DevicePtr<f32>, DevicePtr<f32>, DevicePtrMut<f32>);

/// The kernels of [`KERNELS`], loaded and typed with their C parameter lists.
#[derive(Debug, Clone)]
pub struct Kernels {
    /// `saxpy(n, a, x, y)`: `y[i] = a * x[i] + y[i]`.
    pub saxpy: Kernel<SaxpyArgs>,
    /// `scale(n, a, y)`: `y[i] = a * y[i]`.
    pub scale: Kernel<ScaleArgs>,
    /// `offset(n, a, y)`: `y[i] = y[i] + a` (the parameter list of `scale`, another function).
    pub offset: Kernel<ScaleArgs>,
    /// `add_u32(n, k, y)`: `y[i] += k`.
    pub add_u32: Kernel<AddU32Args>,
    /// `axpy_out(n, a, x, y, out)`: `out[i] = a * x[i] + y[i]`, out of place.
    pub axpy_out: Kernel<AxpyOutArgs>,
}

impl Kernels {
    /// Compiles [`KERNELS`] and loads it into `ctx`.
    pub fn load(ctx: &Arc<CudaContext>) -> Self {
        let module = compile(ctx, KERNELS);
        // SAFETY: `saxpy` in `KERNELS` takes (unsigned, float, const float*, float*), reads x[i]
        // and reads and writes y[i] for i < n only, and launches nothing; the check keeps n
        // within x and y.
        let saxpy = unsafe { Kernel::<SaxpyArgs>::new(function(&module, "saxpy")) }
            .requires(|_, (n, _, x, y)| n as usize <= x.min(y));
        let n_within_y = |_: &LaunchConfig, (n, _, y): (u32, f32, usize)| n as usize <= y;
        // SAFETY: `scale` takes (unsigned, float, float*), reads and writes y[i] for i < n only,
        // and launches nothing; the check keeps n within y.
        let scale =
            unsafe { Kernel::<ScaleArgs>::new(function(&module, "scale")) }.requires(n_within_y);
        // SAFETY: `offset`: the parameter list and accesses of `scale`, and its check.
        let offset =
            unsafe { Kernel::<ScaleArgs>::new(function(&module, "offset")) }.requires(n_within_y);
        // SAFETY: `add_u32` takes (unsigned, unsigned, unsigned*), reads and writes y[i] for
        // i < n only, and launches nothing; the check keeps n within y.
        let add_u32 = unsafe { Kernel::<AddU32Args>::new(function(&module, "add_u32")) }
            .requires(|_, (n, _, y)| n as usize <= y);
        // SAFETY: `axpy_out` takes (unsigned, float, const float*, const float*, float*), reads
        // x[i] and y[i] and writes out[i] for i < n only, and launches nothing; the check keeps
        // n within all three.
        let axpy_out = unsafe { Kernel::<AxpyOutArgs>::new(function(&module, "axpy_out")) }
            .requires(|_, (n, _, x, y, out)| n as usize <= x.min(y).min(out));
        Self {
            saxpy,
            scale,
            offset,
            add_u32,
            axpy_out,
        }
    }
}

/// A launch configuration covering `n` elements, one thread each.
pub fn cfg(n: usize) -> LaunchConfig {
    LaunchConfig::for_num_elems(u32::try_from(n).expect("element count fits in u32"))
}

/// Overwrites `dst` with `value` (stream-ordered): poison before a launch.
pub fn fill<T: DeviceRepr + Clone>(stream: &Arc<CudaStream>, dst: &mut CudaSlice<T>, value: T) {
    stream
        .memcpy_htod(&vec![value; dst.len()], dst)
        .expect("filling a device buffer");
}

/// Overwrites `dst` with `value`, after every launch enqueued so far that may use it and before
/// every later one.
pub fn fill_buffer<T: DeviceRepr + Clone + 'static>(dst: &DeviceBuffer<T>, value: T) {
    dst.copy_from(&vec![value; dst.len()])
        .expect("filling a device buffer");
}

/// A zeroed device buffer of `n` elements, allocated on `gpu`'s stream.
pub fn zeros<T: DeviceRepr + ValidAsZeroBits + 'static>(gpu: &Gpu, n: usize) -> DeviceBuffer<T> {
    DeviceBuffer::zeros(&gpu.stream, n).expect("allocating a device buffer")
}

/// A device copy of `data`, allocated on `gpu`'s stream.
pub fn upload<T: DeviceRepr + 'static>(gpu: &Gpu, data: &[T]) -> DeviceBuffer<T> {
    DeviceBuffer::from_host(&gpu.stream, data).expect("uploading to the device")
}

/// Device memory a test reads back: a cudarc slice or view, or a [`DeviceBuffer`].
pub trait ReadBack<T> {
    /// The contents, after everything queued on `stream` so far that may write them (the
    /// stream is synchronized; a `DeviceBuffer` orders the copy after the launches using it).
    fn read_back(&self, stream: &Arc<CudaStream>) -> Vec<T>;
}

fn read_slice<T: DeviceRepr, S: DevicePtrTrait<T>>(stream: &Arc<CudaStream>, src: &S) -> Vec<T> {
    let out = stream.clone_dtoh(src).expect("copying device to host");
    stream.synchronize().expect("synchronizing the stream");
    out
}

impl<T: DeviceRepr> ReadBack<T> for CudaSlice<T> {
    fn read_back(&self, stream: &Arc<CudaStream>) -> Vec<T> {
        read_slice(stream, self)
    }
}

impl<T: DeviceRepr> ReadBack<T> for CudaView<'_, T> {
    fn read_back(&self, stream: &Arc<CudaStream>) -> Vec<T> {
        read_slice(stream, self)
    }
}

impl<T: DeviceRepr + 'static> ReadBack<T> for DeviceBuffer<T> {
    fn read_back(&self, _stream: &Arc<CudaStream>) -> Vec<T> {
        self.to_vec().expect("reading a DeviceBuffer back")
    }
}

/// `src`'s contents, after everything queued on `stream` so far (see [`ReadBack`]).
pub fn read_back<T, S: ReadBack<T> + ?Sized>(stream: &Arc<CudaStream>, src: &S) -> Vec<T> {
    src.read_back(stream)
}

/// Page-locked host memory (not write-combined, so the CPU may read it back) holding `data`.
pub fn pinned<T: DeviceRepr + ValidAsZeroBits + Copy>(
    ctx: &Arc<CudaContext>,
    data: &[T],
) -> PinnedHostSlice<T> {
    // SAFETY: flags 0 asks for plain page-locked memory; it is fully written below before any read.
    let mut buf = unsafe { ctx.alloc_pinned_with_flags::<T>(data.len(), 0) }
        .expect("allocating pinned memory");
    // `as_mut_slice` would form a reference to uninitialized memory: write through the pointer.
    let dst = buf.as_mut_ptr().expect("pinned memory's event");
    // SAFETY: `dst` has room for `data.len()` elements and no GPU work uses it yet.
    unsafe { std::ptr::copy_nonoverlapping(data.as_ptr(), dst, data.len()) };
    buf
}

/// Asserts every element of `got` still has `poison`'s exact bits: nothing wrote it.
#[track_caller]
pub fn assert_untouched(what: &str, got: &[f32], poison: f32) {
    if let Some(i) = got.iter().position(|g| g.to_bits() != poison.to_bits()) {
        panic!(
            "{what}: element {i} was written ({}), expected it untouched",
            got[i]
        );
    }
}

/// Reads `src` back (synchronizing `stream`) and asserts it is within `1e-6` of `want`.
#[track_caller]
pub fn assert_read_close<S: ReadBack<f32> + ?Sized>(
    stream: &Arc<CudaStream>,
    what: &str,
    src: &S,
    want: &[f32],
) {
    assert_close(what, &read_back(stream, src), want, 1e-6);
}

/// Reads `src` back (synchronizing `stream`) and asserts it still holds [`POISON`] everywhere.
#[track_caller]
pub fn assert_read_untouched<S: ReadBack<f32> + ?Sized>(
    stream: &Arc<CudaStream>,
    what: &str,
    src: &S,
) {
    assert_untouched(what, &read_back(stream, src), POISON);
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::{Barrier, Mutex};
    use std::time::Duration;

    use super::Turn;

    #[test]
    fn program_names_lose_cargos_hash_only() {
        use super::program_name;
        assert_eq!(program_name("/t/debug/deps/gpu-d39c022eff3de208"), "gpu");
        assert_eq!(
            program_name("deps/soundness_9_empty_buffers-7372a0f54549b7e2"),
            "soundness_9_empty_buffers"
        );
        assert_eq!(program_name(".gpu/test/tests--gpu"), "tests--gpu");
    }

    /// Tests of one module share the GPU, tests of two modules never do, and a test holding its
    /// module's own lock while it waits for the turn blocks no one for good.
    #[test]
    fn modules_take_turns_and_share_theirs() {
        // How many turns each of two modules holds at once.
        static HELD: [AtomicUsize; 2] = [AtomicUsize::new(0), AtomicUsize::new(0)];
        static A_LOCK: Mutex<()> = Mutex::new(());
        const MODULES: [&str; 2] = ["tests/a.rs", "tests/b.rs"];
        let both_a = Barrier::new(2);
        let hold = |m: usize, work: &dyn Fn()| {
            let _turn = Turn::take(MODULES[m]);
            HELD[m].fetch_add(1, Ordering::SeqCst);
            assert_eq!(HELD[1 - m].load(Ordering::SeqCst), 0, "two modules at once");
            work();
            assert_eq!(HELD[1 - m].load(Ordering::SeqCst), 0, "two modules at once");
            HELD[m].fetch_sub(1, Ordering::SeqCst);
        };
        std::thread::scope(|s| {
            // Two tests of `a` that hold the turn together (the barrier needs both)...
            for _ in 0..2 {
                s.spawn(|| {
                    hold(0, &|| {
                        both_a.wait();
                    })
                });
            }
            // ...one that takes `a`'s own lock before its turn, and one that needs that lock
            // while it holds the turn...
            s.spawn(|| {
                let _lock = A_LOCK.lock().unwrap();
                hold(0, &|| std::thread::sleep(Duration::from_millis(20)));
            });
            s.spawn(|| hold(0, &|| drop(A_LOCK.lock().unwrap())));
            // ...and tests of `b` in between.
            for _ in 0..4 {
                s.spawn(|| hold(1, &|| std::thread::sleep(Duration::from_millis(5))));
            }
        });
        assert_eq!(super::TURNS.lock().unwrap().holders, 0);
    }
}
