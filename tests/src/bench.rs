//! Bookkeeping for ours-versus-raw benchmarks: per-iteration times recorded from criterion's
//! `iter_custom` samples, and a table of ratios (ours / raw) with a verdict against each target.
//!
//! Criterion-agnostic on purpose (criterion is only a dev-dependency): a bench hands every
//! `iter_custom` measurement to [`Samples::record`], which keeps it and returns it unchanged.
//! Criterion calls the routine for its warm-up first and then once per measurement sample, so the
//! last `sample_size` records of an id are exactly the samples criterion analyses (as long as
//! the sample size is not changed on the command line and `--quick` is not given).

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::fmt::{self, Display, Write as _};
use std::time::{Duration, Instant};

/// The measurements of each benchmark id, as recorded from criterion's `iter_custom` calls.
#[derive(Debug)]
pub struct Samples {
    sample_size: usize,
    runs: RefCell<BTreeMap<String, Vec<(u64, Duration)>>>,
}

/// A per-iteration time: the median and quartiles of the per-sample averages (criterion's
/// `median` estimate, with its spread).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Estimate {
    /// Median of the samples' per-iteration times.
    pub median: Duration,
    /// First quartile.
    pub q1: Duration,
    /// Third quartile.
    pub q3: Duration,
    /// How many samples it rests on.
    pub samples: usize,
}

impl Samples {
    /// Keeps the last `sample_size` calls of each id: the criterion config's sample size.
    pub fn new(sample_size: usize) -> Self {
        Self {
            sample_size: sample_size.max(1),
            runs: RefCell::default(),
        }
    }

    /// Records that `iters` iterations of `id` took `elapsed`; returns `elapsed` for criterion.
    pub fn record(&self, id: &str, iters: u64, elapsed: Duration) -> Duration {
        let mut runs = self.runs.borrow_mut();
        match runs.get_mut(id) {
            Some(v) => v.push((iters, elapsed)),
            None => {
                runs.insert(id.to_owned(), vec![(iters, elapsed)]);
            }
        }
        elapsed
    }

    /// The per-iteration estimate of `id` from its measurement samples (warm-up left out), or
    /// `None` when it did not run (filtered out, say).
    pub fn estimate(&self, id: &str) -> Option<Estimate> {
        let runs = self.runs.borrow();
        let all = runs.get(id)?;
        let measured = &all[all.len().saturating_sub(self.sample_size)..];
        let mut per_iter: Vec<f64> = measured
            .iter()
            .filter(|(n, _)| *n > 0)
            .map(|(n, t)| t.as_secs_f64() / *n as f64)
            .collect();
        if per_iter.is_empty() {
            return None;
        }
        per_iter.sort_by(f64::total_cmp);
        let at = |q: f64| Duration::from_secs_f64(quantile(&per_iter, q));
        Some(Estimate {
            median: at(0.5),
            q1: at(0.25),
            q3: at(0.75),
            samples: per_iter.len(),
        })
    }

    /// An A/B measurement: `ours` and `raw` run in alternating blocks of `block` calls, each block
    /// recorded under `ids.0` / `ids.1`, for `warm_up` unrecorded rounds and then the sample size.
    /// A separate run of each side lets machine drift between the two (clock, other tenants of
    /// the host) show up as a difference; alternating blocks gives both sides the same conditions,
    /// which matters for calls of a few hundred nanoseconds. Which side goes first alternates too.
    pub fn interleaved(
        &self,
        ids: (&str, &str),
        block: u64,
        warm_up: usize,
        mut ours: impl FnMut(),
        mut raw: impl FnMut(),
    ) {
        self.interleaved_blocks(
            ids,
            block,
            warm_up,
            |n| (0..n).for_each(|_| ours()),
            |n| (0..n).for_each(|_| raw()),
        );
    }

    /// [`Samples::interleaved`] with sides that run a whole block of `block` iterations per call,
    /// for work that must be finished inside the timing (launches, then a wait for the stream).
    pub fn interleaved_blocks(
        &self,
        ids: (&str, &str),
        block: u64,
        warm_up: usize,
        mut ours: impl FnMut(u64),
        mut raw: impl FnMut(u64),
    ) {
        let time = |f: &mut dyn FnMut(u64)| {
            let start = Instant::now();
            f(block);
            start.elapsed()
        };
        for round in 0..warm_up + self.sample_size {
            let (t_ours, t_raw) = if round % 2 == 0 {
                let o = time(&mut ours);
                (o, time(&mut raw))
            } else {
                let r = time(&mut raw);
                (time(&mut ours), r)
            };
            if round >= warm_up {
                self.record(ids.0, block, t_ours);
                self.record(ids.1, block, t_raw);
            }
        }
    }
}

/// Linear-interpolated quantile of sorted, non-empty `v`.
fn quantile(v: &[f64], q: f64) -> f64 {
    let pos = q * (v.len() - 1) as f64;
    let (lo, hi) = (pos.floor() as usize, pos.ceil() as usize);
    v[lo] + (v[hi] - v[lo]) * (pos - lo as f64)
}

/// How a row compares with its target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// The median ratio is within the target.
    Pass,
    /// Over the target, but the quartile ranges still allow a ratio within it: rerun before
    /// believing it.
    Noisy,
    /// Over the target even comparing ours' first quartile with raw's third.
    Fail,
    /// No target: reported only.
    Report,
    /// A side did not run.
    Missing,
}

impl Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Pass => "PASS",
            Self::Noisy => "OVER (within spread)",
            Self::Fail => "FAIL",
            Self::Report => "report",
            Self::Missing => "missing",
        })
    }
}

/// One line of a [`RatioTable`].
#[derive(Debug, Clone)]
pub struct RatioRow {
    /// The benchmark's name.
    pub bench: String,
    /// Its parameter (chain length, say).
    pub param: String,
    /// Our path's time.
    pub ours: Option<Estimate>,
    /// The raw driver path's time.
    pub raw: Option<Estimate>,
    /// The largest acceptable ours / raw, if any.
    pub target: Option<f64>,
    /// Free text shown after the verdict.
    pub note: String,
}

impl RatioRow {
    /// Median ours / median raw.
    pub fn ratio(&self) -> Option<f64> {
        Some(self.ours?.median.as_secs_f64() / self.raw?.median.as_secs_f64())
    }

    /// The row's verdict.
    pub fn verdict(&self) -> Verdict {
        let (Some(ours), Some(raw), Some(ratio)) = (self.ours, self.raw, self.ratio()) else {
            return Verdict::Missing;
        };
        let Some(target) = self.target else {
            return Verdict::Report;
        };
        if ratio <= target {
            Verdict::Pass
        } else if ours.q1.as_secs_f64() / raw.q3.as_secs_f64() <= target {
            Verdict::Noisy
        } else {
            Verdict::Fail
        }
    }
}

/// A table of ours / raw ratios, one row per (benchmark, parameter).
#[derive(Debug, Clone, Default)]
pub struct RatioTable {
    title: String,
    rows: Vec<RatioRow>,
}

impl RatioTable {
    /// An empty table headed `title`.
    pub fn new(title: impl Into<String>) -> Self {
        Self {
            title: title.into(),
            rows: Vec::new(),
        }
    }

    /// Adds a row.
    pub fn push(&mut self, row: RatioRow) {
        self.rows.push(row);
    }

    /// Adds a row for `bench` at `param`, taking `ours_id` and `raw_id` from `samples`.
    pub fn compare(
        &mut self,
        samples: &Samples,
        bench: &str,
        param: impl Display,
        (ours_id, raw_id): (&str, &str),
        target: Option<f64>,
        note: impl Into<String>,
    ) {
        self.push(RatioRow {
            bench: bench.to_owned(),
            param: param.to_string(),
            ours: samples.estimate(ours_id),
            raw: samples.estimate(raw_id),
            target,
            note: note.into(),
        });
    }

    /// The rows so far.
    pub fn rows(&self) -> &[RatioRow] {
        &self.rows
    }

    /// Whether every row with a target meets it (rows that did not run are not counted).
    pub fn all_pass(&self) -> bool {
        self.rows
            .iter()
            .all(|r| !matches!(r.verdict(), Verdict::Fail | Verdict::Noisy))
    }
}

fn micros(e: Option<Estimate>) -> String {
    e.map_or_else(
        || "-".to_owned(),
        |e| format!("{:.3}", e.median.as_secs_f64() * 1e6),
    )
}

impl Display for RatioTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let header = [
            "benchmark",
            "N",
            "ours µs",
            "raw µs",
            "ours/raw",
            "target",
            "verdict",
            "note",
        ];
        let lines: Vec<[String; 8]> = self
            .rows
            .iter()
            .map(|r| {
                [
                    r.bench.clone(),
                    r.param.clone(),
                    micros(r.ours),
                    micros(r.raw),
                    r.ratio()
                        .map_or_else(|| "-".to_owned(), |x| format!("{x:.3}x")),
                    r.target
                        .map_or_else(|| "-".to_owned(), |t| format!("<= {t:.2}x")),
                    r.verdict().to_string(),
                    r.note.clone(),
                ]
            })
            .collect();
        let mut width = header.map(|h| h.chars().count());
        for line in &lines {
            for (w, cell) in width.iter_mut().zip(line) {
                *w = (*w).max(cell.chars().count());
            }
        }
        let mut out = String::new();
        let mut put = |cells: &[String]| {
            let mut line = String::new();
            for (i, (cell, w)) in cells.iter().zip(width).enumerate() {
                let pad = w - cell.chars().count();
                // Text columns left-aligned, numbers right-aligned.
                if matches!(i, 0 | 6 | 7) {
                    let _ = write!(line, "{cell}{:pad$}  ", "");
                } else {
                    let _ = write!(line, "{:pad$}{cell}  ", "");
                }
            }
            out.push_str(line.trim_end());
            out.push('\n');
        };
        writeln!(f, "{}", self.title)?;
        put(&header.map(str::to_owned));
        put(&width.map(|w| "-".repeat(w)));
        for line in &lines {
            put(line);
        }
        f.write_str(&out)?;
        let targeted: Vec<_> = self.rows.iter().filter(|r| r.target.is_some()).collect();
        let met = targeted
            .iter()
            .filter(|r| r.verdict() == Verdict::Pass)
            .count();
        write!(f, "targets met: {met} of {}", targeted.len())
    }
}

/// Asserts that a raw driver call succeeded, naming it otherwise (the raw side of a benchmark
/// has no error path: a failure there is the benchmark's bug).
#[track_caller]
pub fn ok(call: &str, result: cudagraph_runtime::cudarc::driver::sys::CUresult) {
    assert_eq!(
        result,
        cudagraph_runtime::cudarc::driver::sys::CUresult::CUDA_SUCCESS,
        "{call} failed"
    );
}

/// Waits for `stream` with a raw `cuStreamSynchronize`.
pub fn sync(stream: &cudagraph_runtime::cudarc::driver::CudaStream) {
    // SAFETY: a live stream of the context bound to this thread.
    ok("cuStreamSynchronize", unsafe {
        cudagraph_runtime::cudarc::driver::sys::cuStreamSynchronize(stream.cu_stream())
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn us(x: f64) -> Duration {
        Duration::from_secs_f64(x * 1e-6)
    }

    #[test]
    fn estimates_use_the_measurement_samples_only() {
        let s = Samples::new(3);
        s.record("a", 1, us(1000.0)); // warm-up
        for (n, t) in [(1, 2.0), (2, 4.0), (3, 9.0)] {
            s.record("a", n, us(t));
        }
        let e = s.estimate("a").unwrap();
        assert_eq!(e.samples, 3);
        assert!((e.median.as_secs_f64() * 1e6 - 2.0).abs() < 1e-9);
        assert!(s.estimate("b").is_none());
    }

    #[test]
    fn interleaved_runs_alternate_and_record_the_measured_rounds() {
        let s = Samples::new(4);
        let order = RefCell::new(Vec::new());
        s.interleaved_blocks(
            ("ours", "raw"),
            7,
            2,
            |n| order.borrow_mut().push(('o', n)),
            |n| order.borrow_mut().push(('r', n)),
        );
        let order = order.into_inner();
        // 2 warm-up rounds + 4 measured, each side once per round with the whole block, the side
        // going first alternating.
        let firsts: String = order.chunks(2).map(|pair| pair[0].0).collect();
        assert_eq!(firsts, "ororor");
        assert!(order.iter().all(|&(_, n)| n == 7));
        for id in ["ours", "raw"] {
            let runs = s.runs.borrow();
            let recorded = &runs[id];
            assert_eq!(recorded.len(), 4, "{id}: measured rounds only");
            assert!(recorded.iter().all(|&(n, _)| n == 7));
        }

        // The per-call form runs each side `block` times per round.
        let calls = RefCell::new((0, 0));
        s.interleaved(
            ("o2", "r2"),
            5,
            1,
            || calls.borrow_mut().0 += 1,
            || calls.borrow_mut().1 += 1,
        );
        assert_eq!(calls.into_inner(), (25, 25));
    }

    #[test]
    fn verdicts_and_table() {
        let e = |m: f64, q1: f64, q3: f64| {
            Some(Estimate {
                median: us(m),
                q1: us(q1),
                q3: us(q3),
                samples: 20,
            })
        };
        let row = |ours, raw, target| RatioRow {
            bench: "launch".into(),
            param: "10".into(),
            ours,
            raw,
            target,
            note: String::new(),
        };
        assert_eq!(
            row(e(1.0, 1.0, 1.0), e(1.0, 1.0, 1.0), Some(1.05)).verdict(),
            Verdict::Pass
        );
        assert_eq!(
            row(e(1.2, 1.0, 1.3), e(1.0, 0.9, 1.1), Some(1.05)).verdict(),
            Verdict::Noisy
        );
        assert_eq!(
            row(e(2.0, 1.9, 2.1), e(1.0, 0.9, 1.1), Some(1.05)).verdict(),
            Verdict::Fail
        );
        assert_eq!(
            row(e(2.0, 1.9, 2.1), e(1.0, 0.9, 1.1), None).verdict(),
            Verdict::Report
        );
        assert_eq!(
            row(None, e(1.0, 0.9, 1.1), None).verdict(),
            Verdict::Missing
        );
        let mut t = RatioTable::new("t");
        t.push(row(e(1.0, 1.0, 1.0), e(2.0, 2.0, 2.0), Some(1.05)));
        let text = t.to_string();
        assert!(
            text.contains("0.500x")
                && text.contains("PASS")
                && text.ends_with("targets met: 1 of 1"),
            "{text}"
        );
        assert!(t.all_pass());
    }
}
