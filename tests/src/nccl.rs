//! The GPUs and NCCL a collective test needs, or a visible skip.
//!
//! What a missing piece does to a test:
//!
//! - no GPU: skipped, and a failure under `CUDAGRAPH_REQUIRE_GPU=1` (as every GPU test);
//! - no NCCL (`libnccl.so.2` cannot be loaded): skipped, and a failure under
//!   `CUDAGRAPH_REQUIRE_GPU=1` (the GPU machines have NCCL), unless `CUDAGRAPH_REQUIRE_NCCL=0`;
//! - fewer GPUs than the test needs: skipped, and a failure only under
//!   `CUDAGRAPH_REQUIRE_GPUS=n` for `n` at least the number needed (the one-GPU machine runs the
//!   two-GPU tests as skips; on the two-GPU machine, set `CUDAGRAPH_REQUIRE_GPUS=2`).

use std::sync::Arc;

use cudagraph_runtime::cudarc::driver::CudaContext;
use cudagraph_runtime::nccl_present;

use crate::{gpu, gpu_required, more_devices, skipped, Gpu};

/// Whether a missing NCCL fails the tests: under `CUDAGRAPH_REQUIRE_GPU=1`, unless
/// `CUDAGRAPH_REQUIRE_NCCL=0`.
pub fn nccl_required() -> bool {
    gpu_required() && std::env::var("CUDAGRAPH_REQUIRE_NCCL").map_or(true, |v| v != "0")
}

/// Held by the test that runs NCCL collectives (see [`nccl_gpus`]).
static NCCL_ALONE: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// An NCCL test's turn (see [`nccl_gpus`]), held by its `Gpu`, dropped last of the test's
/// values: before the next NCCL test may start, or the process end, it waits for the runtime's
/// deferred releases (communicators whose last handle an executable or a graph released, which
/// the release thread destroys). A communicator still being destroyed when the test program
/// returned from `main` ended it with a segmentation fault after every test had passed (once,
/// on two H200s).
#[derive(Debug)]
pub struct Alone(#[allow(dead_code)] std::sync::MutexGuard<'static, ()>);

impl Drop for Alone {
    fn drop(&mut self) {
        if !cudagraph_runtime::wait_for_releases(std::time::Duration::from_secs(5)) {
            eprintln!("the runtime's deferred releases did not finish within 5 s of the test");
        }
    }
}

/// Device 0 (with the test's turn on the GPUs, see [`gpu`]), alone among the NCCL tests, and the contexts of devices
/// `1..n`, with NCCL loadable; `None` (a skip, see the module docs) otherwise.
#[track_caller]
pub fn nccl_gpus(test: &str, n: usize) -> Option<(Gpu, Vec<Arc<CudaContext>>)> {
    let file = std::panic::Location::caller().file();
    let first = gpu(test)?;
    if !nccl_present() {
        let why = "no NCCL: libnccl.so.2 could not be loaded";
        if nccl_required() {
            panic!("{test}: CUDAGRAPH_REQUIRE_GPU=1 but {why} (CUDAGRAPH_REQUIRE_NCCL=0 to skip)");
        }
        eprintln!("skipped {test}: {why}");
        skipped(file, test, why);
        return None;
    }
    // One NCCL test at a time: collectives of different communicators on the same GPUs, in
    // flight at once, can wait for each other forever (NCCL's "Using multiple NCCL
    // communicators concurrently"); run in parallel on two H200s, four of these tests hung, and
    // one at a time all pass.
    let mut first = first;
    first._alone = Some(Alone(NCCL_ALONE.lock().unwrap_or_else(|e| e.into_inner())));
    let more = more_devices(file, test, n)?;
    Some((first, more))
}

/// Ends the whole test process, with a line naming `test`, when it runs longer than `limit`:
/// a collective whose peers never come waits forever (NCCL has no timeout), and a hung test
/// program says nothing about why. Dropping the watchdog stops it.
#[derive(Debug)]
#[must_use = "the watchdog stops when dropped"]
pub struct Watchdog {
    stop: std::sync::mpsc::Sender<()>,
}

impl Watchdog {
    /// Starts watching `test` for `limit`.
    pub fn new(test: &str, limit: std::time::Duration) -> Self {
        let (stop, stopped) = std::sync::mpsc::channel::<()>();
        let test = test.to_owned();
        std::thread::spawn(move || {
            if let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = stopped.recv_timeout(limit) {
                eprintln!(
                    "TIMEOUT {test}: still running after {limit:?} (ranks waiting for each other \
                     in NCCL?); ending the process (rerun with NCCL_DEBUG=INFO to see where)"
                );
                // Not `exit`: its handlers could wait for the very threads that hang.
                std::process::abort();
            }
        });
        Self { stop }
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        let _ = self.stop.send(());
    }
}

/// The time a test of two GPUs may take before its [`Watchdog`] ends the process: NCCL's
/// initialisation and connection take seconds, the tests' work less.
pub const TWO_GPU_LIMIT: std::time::Duration = std::time::Duration::from_secs(180);

/// A [`Watchdog`] of [`TWO_GPU_LIMIT`] for `test`, which runs collectives across GPUs; also
/// notes when `NCCL_RUNTIME_CONNECT` is set (the library must not need it, so such a run proves
/// less).
pub fn watch(test: &str) -> Watchdog {
    if let Ok(v) = std::env::var("NCCL_RUNTIME_CONNECT") {
        eprintln!(
            "note {test}: NCCL_RUNTIME_CONNECT={v} is set; run without it to check that \
             communicators connect by themselves"
        );
    }
    Watchdog::new(test, TWO_GPU_LIMIT)
}
