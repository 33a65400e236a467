//! Expansion snapshots, in the style of pin-project's `tests/expand`: each program in
//! `tests/expand/*.rs` has its `cuda_graph!` calls expanded by the macro's own expansion function
//! (no `cargo expand` needed), pretty-printed with `prettyplease`, and compared with the checked-in
//! `tests/expand/*.expanded.rs`. A change to the generated code shows up in review as a diff of
//! those files.
//!
//! After an intended change, write the new snapshots with
//! `CUDAGRAPH_EXPAND=overwrite cargo test -p cudagraph-macros snapshots` and review the diff. A
//! program without a snapshot gets one written (and the test fails under `CI`, where a missing
//! snapshot is a mistake).

use std::path::{Path, PathBuf};

use proc_macro2::TokenStream;

use crate::{expand, parse};

/// The folder of the programs and their snapshots.
fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/expand")
}

/// The programs: every `.rs` file of the folder but the snapshots, sorted by name.
fn programs() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir())
        .expect("tests/expand exists")
        .map(|e| e.expect("a readable folder entry").path())
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            name.ends_with(".rs") && !name.ends_with(".expanded.rs")
        })
        .collect();
    out.sort();
    out
}

/// Whether `mac` is a `cuda_graph!` call (by any path ending in `cuda_graph`).
fn is_cuda_graph(mac: &syn::Macro) -> bool {
    mac.path
        .segments
        .last()
        .is_some_and(|s| s.ident == "cuda_graph")
}

/// The macro's output for the tokens of one call, as the proc macro computes it.
fn expand_call(tokens: TokenStream) -> TokenStream {
    syn::parse2::<parse::Input>(tokens)
        .and_then(expand::expand)
        .unwrap_or_else(syn::Error::into_compile_error)
}

/// `source` with each top-level `cuda_graph!` call replaced by its expansion, pretty-printed.
pub(crate) fn expand_program(source: &str) -> String {
    let file = syn::parse_file(source).expect("the program parses");
    let mut items = Vec::with_capacity(file.items.len());
    for item in file.items {
        match item {
            syn::Item::Macro(m) if is_cuda_graph(&m.mac) => {
                let expanded = expand_call(m.mac.tokens);
                let expanded: syn::File =
                    syn::parse2(expanded).expect("the expansion parses as items");
                items.extend(expanded.items);
            }
            other => items.push(other),
        }
    }
    prettyplease::unparse(&syn::File { items, ..file })
}

#[test]
fn expansions_match_their_snapshots() {
    let overwrite = std::env::var("CUDAGRAPH_EXPAND").as_deref() == Ok("overwrite");
    let ci = std::env::var_os("CI").is_some();
    let programs = programs();
    assert!(!programs.is_empty(), "no program in {}", dir().display());
    let mut failures = Vec::new();
    for program in programs {
        let source = std::fs::read_to_string(&program).expect("a readable program");
        let expanded = expand_program(&source);
        let name = program.file_name().unwrap().to_string_lossy().into_owned();
        assert!(
            !expanded.contains("compile_error"),
            "{name}: the macro refused the declaration:\n{expanded}"
        );
        let snapshot = program.with_extension("expanded.rs");
        match std::fs::read_to_string(&snapshot) {
            Ok(old) if old == expanded => {}
            Ok(_) if overwrite => {
                std::fs::write(&snapshot, &expanded).expect("snapshot written");
                eprintln!("{name}: snapshot overwritten");
            }
            Ok(old) => failures.push(format!(
                "{name}: the expansion differs from {} (first difference at line {}); if the \
                 change is intended, run with CUDAGRAPH_EXPAND=overwrite and review the diff",
                snapshot.display(),
                first_difference(&old, &expanded)
            )),
            Err(_) => {
                std::fs::write(&snapshot, &expanded).expect("snapshot written");
                if ci && !overwrite {
                    failures.push(format!(
                        "{name}: no snapshot was checked in; one was written to {}",
                        snapshot.display()
                    ));
                } else {
                    eprintln!("{name}: new snapshot written to {}", snapshot.display());
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The first line (from 1) where `a` and `b` differ.
fn first_difference(a: &str, b: &str) -> usize {
    let mut lines = a.lines().zip(b.lines());
    lines.position(|(x, y)| x != y).unwrap_or_else(|| {
        // One is a prefix of the other.
        a.lines().count().min(b.lines().count())
    }) + 1
}

#[test]
fn expansion_is_deterministic() {
    for program in programs() {
        let source = std::fs::read_to_string(&program).expect("a readable program");
        assert_eq!(
            expand_program(&source),
            expand_program(&source),
            "{}",
            program.display()
        );
    }
}
