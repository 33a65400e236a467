//! What the bench prints at the end: NCCL's choices from the tuning probe, every variant's sides
//! against eager, and bus bandwidth.

use super::*;

/// Runs the tuning probe's process and prints what NCCL picked for each all-reduce, captured and
/// eager.
pub(super) fn tuning_probe(mut child: std::process::Child) {
    println!(
        "\n==== tuning probe (NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=TUNING): NCCL's choice per call"
    );
    let out = BufReader::new(child.stdout.take().expect("piped"));
    let mut section: Option<String> = None;
    let mut seen: Vec<String> = Vec::new();
    let flush = |section: &Option<String>, seen: &mut Vec<String>| {
        if let Some(s) = section.as_deref().filter(|s| *s != "done") {
            let picks = if seen.is_empty() {
                "(no NCCL tuning line: one rank takes no algorithm)".to_owned()
            } else {
                seen.join(" | ")
            };
            println!("  TUNING {s}: {picks}");
        }
        seen.clear();
    };
    for line in out.lines().map_while(Result::ok) {
        if let Some(mark) = line.strip_prefix("MARK ") {
            flush(&section, &mut seen);
            section = Some(mark.to_owned());
        } else if let Some(at) = line.find("AllReduce: ") {
            // The same choice is printed once per rank: kept once.
            let pick = line[at..].trim().to_owned();
            if section.is_some() && !seen.contains(&pick) {
                seen.push(pick);
            }
        } else if line.contains("NCCL WARN") || line.starts_with("TIMEOUT") {
            println!("  {line}");
        }
    }
    flush(&section, &mut seen);
    let status = child.wait().expect("waiting for the tuning probe");
    if !status.success() {
        println!("  tuning probe FAILED: {status}");
    }
}

/// Prints every variant's sides against eager, side by side.
pub(super) fn summary(
    args: &Args,
    header: Option<&str>,
    rows: &BTreeMap<(String, Side, usize), [f64; 3]>,
    failed: &[&str],
) {
    let sizes: Vec<usize> = SMALL.iter().chain(&LARGE).map(|&(b, _)| b).collect();
    println!(
        "\n==== SUMMARY: all-reduce ({}, in place, f32), {}",
        args.op.name(),
        header.unwrap_or("<no worker reported its devices>")
    );
    println!("time per step, median of {SAMPLE_SIZE} blocks (µs), and each graph side / eager");
    let mut head = format!("{:<10} {:<9}", "variant", "side");
    for &b in &sizes {
        head.push_str(&format!(" {:>16}", human(b)));
    }
    println!("{head}");
    for variant in &args.variants {
        for side in Side::ALL {
            let mut line = format!("{:<10} {:<9}", variant.name, side.name());
            for &b in &sizes {
                let key = (variant.name.to_owned(), side, b);
                let eager = rows.get(&(variant.name.to_owned(), Side::Eager, b));
                let text = match (rows.get(&key), eager) {
                    (Some(m), _) if side == Side::Eager => format!("{:.2}", m[0] / 1e3),
                    (Some(m), Some(e)) => format!("{:.2} {:>6.3}x", m[0] / 1e3, m[0] / e[0]),
                    _ => "-".to_owned(),
                };
                line.push_str(&format!(" {text:>16}"));
            }
            println!("{line}");
        }
    }
    println!(
        "targets: graph / eager <= {SMALL_TARGET:.2}x up to 64 KiB, <= {LARGE_TARGET:.2}x above"
    );
    println!("what each comparison tells:");
    println!(
        "  library / eager  the crate's path against NCCL called eagerly (the issue's target)"
    );
    println!(
        "  library / child  the crate's node (its ordering, NCCL's nodes without NCCL's user \
         object) against the capture as NCCL leaves it"
    );
    println!("  child / inline   the child-graph level around the captured collective");
    println!("  events / inline  one event wait + record pair around it (NCCL's mixing shape)");
    println!("  batched / library  the library's path, {BATCH} all-reduces per graph launch");
    println!(
        "  sym-lib / sym-eager  the library's path against the same eager call, both over NCCL's \
         symmetric memory"
    );
    println!("  no-mixing rows   NCCL's event wait and record around each captured collective");
    let pair = |v: &str, a: Side, b: Side| {
        let mut line = format!("{:<10} {:<17}", v, format!("{} / {}", a.name(), b.name()));
        for &bytes in &sizes {
            let get = |s: Side| rows.get(&(v.to_owned(), s, bytes));
            let text = match (get(a), get(b)) {
                (Some(x), Some(y)) => format!("{:.3}x {:+.2}", x[0] / y[0], (x[0] - y[0]) / 1e3),
                _ => "-".to_owned(),
            };
            line.push_str(&format!(" {text:>16}"));
        }
        println!("{line}");
    };
    println!("ratios and differences (µs per step) between graph sides:");
    for variant in &args.variants {
        pair(variant.name, Side::Library, Side::Child);
        pair(variant.name, Side::Child, Side::Inline);
        pair(variant.name, Side::Events, Side::Inline);
        pair(variant.name, Side::Batched, Side::Library);
        pair(variant.name, Side::SymLibrary, Side::SymEager);
        pair(variant.name, Side::SymLibrary, Side::Library);
        pair(variant.name, Side::SymEager, Side::Eager);
    }
    if args.variants.len() > 1 {
        println!(
            "each variant's sides over the first variant's (same side; another process, so not \
             A/B: eager's row shows how much the machine drifted between the two)"
        );
        let base = args.variants[0].name;
        for variant in &args.variants[1..] {
            for side in Side::ALL {
                let mut line = format!(
                    "{:<10} {:<17}",
                    variant.name,
                    format!("{} / {base}", side.name())
                );
                for &bytes in &sizes {
                    let get = |v: &str| rows.get(&(v.to_owned(), side, bytes));
                    let text = match (get(variant.name), get(base)) {
                        (Some(x), Some(y)) => {
                            format!("{:.3}x {:+.2}", x[0] / y[0], (x[0] - y[0]) / 1e3)
                        }
                        _ => "-".to_owned(),
                    };
                    line.push_str(&format!(" {text:>16}"));
                }
                println!("{line}");
            }
        }
    }
    if !failed.is_empty() {
        println!("FAILED variants: {}", failed.join(", "));
    }
}

/// NCCL's algorithm and bus bandwidths of an all-reduce of `bytes` over `n` ranks taking `time`
/// per step, in GB/s (as nccl-tests computes them: `busBw = algBw * 2(n-1)/n`).
pub(super) fn bus_bandwidth(bytes: usize, n: usize, time: Duration) -> (f64, f64) {
    let alg = bytes as f64 / time.as_secs_f64() / 1e9;
    (alg, alg * 2.0 * (n - 1) as f64 / n as f64)
}

pub(super) fn human(bytes: usize) -> String {
    if bytes >= 1 << 20 {
        format!("{} MiB", bytes >> 20)
    } else if bytes >= 1 << 10 {
        format!("{} KiB", bytes >> 10)
    } else {
        format!("{bytes} B")
    }
}
