//! How long a `cuda_graph!` declaration takes to compile, and how much memory rustc needs for
//! it, by size and by how it is written: the chain of `cudagraph_tests::declarations`, node by
//! node (`hand`) or by repetition (`repeat`).
//!
//! ```text
//! cargo run --release -p cudagraph-tests --bin compile-time -- [--sizes 100,1000,10000]
//!     [--shapes hand,repeat] [--dir DIR]
//! ```
//!
//! It makes a crate in `DIR` (default: `cudagraph-compile-time` in the temporary directory)
//! that depends on this workspace's `cudagraph-runtime`, builds it once with a one-node
//! declaration (compiling the dependencies, not timed), then once per shape and size with that
//! declaration as its `lib.rs`: `/usr/bin/time -v cargo build --release`, in which only the
//! crate itself compiles (the macro's expansion included). Reported per build: wall time, CPU
//! time (user + system, of cargo and rustc: less disturbed than wall time by other work on the
//! machine) and rustc's peak memory (the largest resident set of cargo's children, which is
//! rustc's), then a Markdown table of all of them.

use std::path::{Path, PathBuf};
use std::process::Command;

use cudagraph_tests::declarations::{chain, chain_by_repetition};

/// One measured build.
struct Build {
    shape: &'static str,
    nodes: usize,
    wall_s: f64,
    cpu_s: f64,
    peak_mb: f64,
}

fn main() {
    let mut sizes = vec![100, 1000, 10_000];
    let mut shapes = vec!["hand", "repeat"];
    let mut dir = std::env::temp_dir().join("cudagraph-compile-time");
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let value = args
            .next()
            .unwrap_or_else(|| usage(&format!("{arg} needs a value")));
        match arg.as_str() {
            "--sizes" => {
                sizes = value
                    .split(',')
                    .map(|s| s.parse().unwrap_or_else(|_| usage(&format!("size {s:?}"))))
                    .collect()
            }
            "--shapes" => {
                shapes = value
                    .split(',')
                    .map(|s| match s {
                        "hand" => "hand",
                        "repeat" => "repeat",
                        _ => usage(&format!("shape {s:?}")),
                    })
                    .collect()
            }
            "--dir" => dir = PathBuf::from(value),
            _ => usage(&format!("unknown argument {arg:?}")),
        }
    }
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the tests crate is in the workspace");
    make_crate(&dir, workspace);
    println!("building the dependencies in {} (not timed)", dir.display());
    write_lib(&dir, &chain(1));
    build(&dir).unwrap_or_else(|e| panic!("the one-node declaration did not build: {e}"));
    let mut builds = Vec::new();
    for &nodes in &sizes {
        for &shape in &shapes {
            let source = match shape {
                "hand" => chain(nodes),
                _ => chain_by_repetition(nodes),
            };
            // The dependencies up to date first (untimed): a source of the workspace changed
            // since the last build would otherwise be rebuilt in the timed one.
            build_dependencies(&dir);
            write_lib(&dir, &source);
            match build(&dir) {
                Ok((wall_s, cpu_s, peak_mb)) => {
                    println!(
                        "{shape:>6} {nodes:>6} nodes: {wall_s:7.1} s wall, {cpu_s:7.1} s CPU, \
                         {peak_mb:7.0} MB"
                    );
                    builds.push(Build {
                        shape,
                        nodes,
                        wall_s,
                        cpu_s,
                        peak_mb,
                    });
                }
                Err(e) => println!("{shape:>6} {nodes:>6} nodes: failed: {e}"),
            }
        }
    }
    println!("\n| declaration | nodes | wall (s) | CPU (s) | rustc peak (MB) |");
    println!("|---|---:|---:|---:|---:|");
    for b in &builds {
        let shape = match b.shape {
            "hand" => "node by node",
            _ => "by repetition",
        };
        println!(
            "| {shape} | {} | {:.1} | {:.1} | {:.0} |",
            b.nodes, b.wall_s, b.cpu_s, b.peak_mb
        );
    }
}

fn usage(problem: &str) -> ! {
    eprintln!(
        "{problem}\nusage: compile-time [--sizes 100,1000,10000] [--shapes hand,repeat] [--dir DIR]"
    );
    std::process::exit(2)
}

/// The crate's manifest (a workspace of its own, on this workspace's lock file) and `src/`.
fn make_crate(dir: &Path, workspace: &Path) {
    std::fs::create_dir_all(dir.join("src")).expect("making the crate's directory");
    let runtime = workspace.join("cudagraph-runtime");
    let manifest = format!(
        "[package]\nname = \"cudagraph-compile-time\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\
         publish = false\n\n[dependencies]\ncudagraph-runtime = {{ path = {:?} }}\n\n\
         # Not a member of the repository's workspace.\n[workspace]\n",
        runtime.display().to_string()
    );
    std::fs::write(dir.join("Cargo.toml"), manifest).expect("writing Cargo.toml");
    // The workspace's versions of the dependencies.
    std::fs::copy(workspace.join("Cargo.lock"), dir.join("Cargo.lock"))
        .expect("copying Cargo.lock");
}

/// `lib.rs`: one declaration.
fn write_lib(dir: &Path, declaration: &str) {
    let source = format!(
        "//! One declaration, compiled to time it.\n\
         use cudagraph_runtime::{{cuda_graph, prelude::*}};\n\n{declaration}"
    );
    std::fs::write(dir.join("src/lib.rs"), source).expect("writing lib.rs");
}

/// `cargo build --release` of the crate's dependency `cudagraph-runtime` (and so of the macro).
fn build_dependencies(dir: &Path) {
    let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned()))
        .args([
            "build",
            "--release",
            "-p",
            "cudagraph-runtime",
            "--manifest-path",
        ])
        .arg(dir.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(dir.join("target"))
        .env_remove("CARGO_TARGET_DIR")
        .status()
        .expect("running cargo");
    assert!(status.success(), "building the dependencies failed");
}

/// `/usr/bin/time -v cargo build --release` of the crate: wall seconds, CPU seconds and the
/// peak resident set of its largest child process (rustc), in MB.
fn build(dir: &Path) -> Result<(f64, f64, f64), String> {
    let output = Command::new("/usr/bin/time")
        .arg("-v")
        .arg(std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned()))
        .args(["build", "--release", "--manifest-path"])
        .arg(dir.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(dir.join("target"))
        .env_remove("CARGO_TARGET_DIR")
        .output()
        .map_err(|e| format!("running /usr/bin/time: {e}"))?;
    let report = String::from_utf8_lossy(&output.stderr);
    if !output.status.success() {
        return Err(report.lines().take(40).collect::<Vec<_>>().join("\n"));
    }
    let field = |name: &str| {
        report
            .lines()
            .find_map(|l| l.trim().strip_prefix(name))
            .map(str::trim)
            .ok_or_else(|| format!("no {name:?} in the report of /usr/bin/time"))
    };
    let seconds = |s: &str| -> Result<f64, String> {
        s.parse()
            .map_err(|_| format!("not a number of seconds: {s:?}"))
    };
    let wall = field("Elapsed (wall clock) time (h:mm:ss or m:ss):")?;
    let wall_s = wall.split(':').try_fold(0.0, |total, part| {
        Ok::<f64, String>(total * 60.0 + seconds(part)?)
    })?;
    let cpu_s =
        seconds(field("User time (seconds):")?)? + seconds(field("System time (seconds):")?)?;
    let peak_kb = seconds(field("Maximum resident set size (kbytes):")?)?;
    Ok((wall_s, cpu_s, peak_kb / 1024.0))
}
