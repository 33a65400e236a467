//! The kernels of the unrolled-WHILE tests, and the CPU model of what such a loop leaves.
//!
//! A pass of the loop runs `unroll` copies of its body, each `bump` (the counter grows by `by`)
//! then `note` (the counter's value appended to a log), with the check (`stop_at`: the loop goes
//! on while the counter is below `limit`, and the checks are counted) between them in the last
//! copy only. The loop ends after the pass whose check sees the counter at `limit` or more: the
//! counter is then the first multiple of `unroll * by` at or over `limit`, and the log holds every
//! value the counter took, in order (each copy after the previous one).

use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{ConditionalHandle, SET_CONDITIONAL_DECLARATION};

use crate::{compile, function, Gpu};

/// The kernels' CUDA C source, each run by one thread.
pub const SRC: &str = r#"
extern "C" __global__ void bump(unsigned* counter, unsigned by) {
    if (threadIdx.x == 0 && blockIdx.x == 0) counter[0] += by;
}
extern "C" __global__ void stop_at(unsigned long long h, const unsigned* counter, unsigned* checks,
                                   unsigned limit) {
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        checks[0] += 1;
        cudaGraphSetConditional(h, counter[0] < limit ? 1u : 0u);
    }
}
// log[0]: the number of values noted; log[1..]: the values, as many as `capacity` holds.
extern "C" __global__ void note(const unsigned* counter, unsigned* log, unsigned capacity) {
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        unsigned i = log[0];
        if (i < capacity) log[1 + i] = counter[0];
        log[0] = i + 1;
    }
}
"#;

/// `bump(counter, by)`: `counter[0] += by`.
pub type Bump = Kernel<(DevicePtrMut<u32>, u32)>;
/// `stop_at(h, counter, checks, limit)`: `checks[0] += 1`; `h` set to whether `counter[0] < limit`.
pub type StopAt = Kernel<(ConditionalHandle, DevicePtr<u32>, DevicePtrMut<u32>, u32)>;
/// `note(counter, log, capacity)`: appends `counter[0]` to `log`.
pub type Note = Kernel<(DevicePtr<u32>, DevicePtrMut<u32>, u32)>;

/// The values a log holds at most (its buffer has one more element, the count).
pub const CAPACITY: u32 = 256;

/// The three kernels, loaded.
#[allow(missing_debug_implementations)]
pub struct Kernels {
    pub bump: Bump,
    pub stop_at: StopAt,
    pub note: Note,
}

/// Compiles and loads the kernels on `gpu`.
pub fn kernels(gpu: &Gpu) -> Kernels {
    let module = compile(&gpu.ctx, &format!("{SET_CONDITIONAL_DECLARATION}{SRC}"));
    // SAFETY: `bump` takes (unsigned*, unsigned) and reads and writes counter[0] only, from one
    // thread, launching nothing; the check keeps `counter` non-empty.
    let bump = unsafe { Bump::new(function(&module, "bump")) }.requires(|_, (c, _)| c >= 1);
    // SAFETY: `stop_at` takes (unsigned long long, const unsigned*, unsigned*, unsigned), a
    // conditional handle being an `unsigned long long`; it reads counter[0], reads and writes
    // checks[0], sets only its handle and launches nothing; the check keeps both non-empty.
    let stop_at = unsafe { StopAt::new(function(&module, "stop_at")) }
        .requires(|_, (_, counter, checks, _)| counter >= 1 && checks >= 1);
    // SAFETY: `note` takes (const unsigned*, unsigned*, unsigned); it reads counter[0] and writes
    // log[0] and log[1 + i] for i < capacity only; the check keeps `counter` non-empty and `log`
    // longer than `capacity`.
    let note = unsafe { Note::new(function(&module, "note")) }
        .requires(|_, (counter, log, capacity)| counter >= 1 && log > capacity as usize);
    Kernels {
        bump,
        stop_at,
        note,
    }
}

/// What a launch of the loop leaves: the counter, the checks made, and the log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    pub counter: u32,
    pub checks: u32,
    /// The values noted, in order.
    pub log: Vec<u32>,
}

impl Outcome {
    /// The outcome read back from the buffers a launch wrote (`log` as the `note` kernel keeps
    /// it: the count, then the values).
    pub fn read(counter: &[u32], checks: &[u32], log: &[u32]) -> Self {
        let noted = log[0].min(CAPACITY) as usize;
        Self {
            counter: counter[0],
            checks: checks[0],
            log: log[1..1 + noted].to_vec(),
        }
    }
}

/// The CPU model of a launch: passes of `unroll` copies (`bump` by `by`, then in the last copy
/// the check against `limit`, then `note`), from a counter of 0, until a check stops the loop.
/// With `noting` false, the `note` nodes are disabled.
pub fn model(unroll: u32, by: u32, limit: u32, noting: bool) -> Outcome {
    let mut out = Outcome {
        counter: 0,
        checks: 0,
        log: Vec::new(),
    };
    loop {
        let mut more = true;
        for copy in 0..unroll {
            out.counter += by;
            if copy + 1 == unroll {
                out.checks += 1;
                more = out.counter < limit;
            }
            if noting {
                out.log.push(out.counter);
            }
        }
        if !more {
            return out;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::model;

    #[test]
    fn the_model_runs_whole_passes() {
        // Unroll 4, limit 5: two passes, 8 bumps, the log every value.
        let out = model(4, 1, 5, true);
        assert_eq!((out.counter, out.checks), (8, 2));
        assert_eq!(out.log, (1..=8).collect::<Vec<_>>());
        // The first multiple of unroll * by at or over the limit.
        for (unroll, by, limit, counter) in
            [(1, 1, 5, 5), (4, 1, 4, 4), (4, 2, 9, 16), (3, 1, 1, 3)]
        {
            assert_eq!(model(unroll, by, limit, false).counter, counter);
        }
        assert!(model(8, 1, 3, false).log.is_empty());
    }
}
