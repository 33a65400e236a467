//! The macro must never panic, whatever tokens it gets: every malformed input is a spanned
//! compile error. These tests run the parser, the checks and the expansion on many mutations of
//! valid declarations (words deleted, repeated, swapped, replaced) and on truncations.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::str::FromStr;

use proc_macro2::TokenStream;

const VALID: &str = r#"
    /// Docs.
    #[allow(dead_code)]
    pub graph Step {
        #[derive(Debug)]
        params {
            /// The kernel.
            saxpy: Kernel<(u32, f32, DevicePtr<f32>, DevicePtrMut<f32>)>,
            x: DevicePtr<f32>,
            y: DevicePtrMut<f32>,
            host_y: HostPtrMut<f32>,
            n: u32,
            alpha: f32,
            report: fn(),
            inner: Inner,
        }
        zero: memset(y, 0.0f32);
        scale: kernel saxpy<<<(n + 255) / 256, 256, 0>>>(n, alpha, x, y);
        back: memcpy(y -> host_y);
        log: host(move || println!("{n}"));
        tick: host(report);
        sub: child(inner);
        join: empty;
        zero -> scale -> [back, sub] -> log;
        [log, sub] -> join;
        tick -> join;
    }
    graph Inner { only: empty; }
"#;

const BROKEN: &str = r#"
    graph Broken {
        params { k: Kernel<(u32,)>, n u32 }
        a: kernel k<<<1, 1>>>(n);
        if n > 1 { b: empty; } else { c: empty; }
        a -> a -> b;
        d: memcpy(n);
        for i in 0..3 { }
        e: kernel k<<<>>>();
        a -> [] -> e;
        match x { _ => {} }
    }
"#;

/// Parses, checks and expands `tokens`; whatever the outcome, it must not panic.
fn run(tokens: TokenStream) {
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        let _ = syn::parse2::<crate::parse::Input>(tokens.clone()).and_then(crate::expand::expand);
    }));
    assert!(outcome.is_ok(), "the macro panicked on:\n{tokens}");
}

fn words(source: &str) -> Vec<&str> {
    source.split_whitespace().collect()
}

fn lex(words: &[&str]) -> Option<TokenStream> {
    TokenStream::from_str(&words.join(" ")).ok()
}

#[test]
fn valid_declarations_expand() {
    for source in [VALID, BROKEN] {
        let tokens = TokenStream::from_str(source).unwrap_or_default();
        run(tokens);
    }
    let tokens = TokenStream::from_str(VALID).unwrap_or_default();
    assert!(syn::parse2::<crate::parse::Input>(tokens)
        .and_then(crate::expand::expand)
        .is_ok());
}

#[test]
fn mutated_declarations_never_panic() {
    for source in [VALID, BROKEN] {
        let w = words(source);
        for i in 0..w.len() {
            let mut deleted = w.clone();
            deleted.remove(i);
            let mut repeated = w.clone();
            repeated.insert(i, w[i]);
            let mut swapped = w.clone();
            swapped.swap(i, (i + 1).min(w.len() - 1));
            for replacement in [
                "->",
                ";",
                ":",
                "<<<",
                ">>>",
                "[",
                "]",
                "(",
                ")",
                "{",
                "}",
                "#",
                "0",
                "graph",
                "params",
                "kernel",
                "empty",
                "self",
                "r#type",
                "__cg_params",
            ] {
                let mut replaced = w.clone();
                replaced[i] = replacement;
                if let Some(tokens) = lex(&replaced) {
                    run(tokens);
                }
            }
            for mutated in [deleted, repeated, swapped] {
                if let Some(tokens) = lex(&mutated) {
                    run(tokens);
                }
            }
            if let Some(tokens) = lex(&w[..i]) {
                run(tokens);
            }
        }
    }
}

#[test]
fn odd_inputs_never_panic() {
    for source in [
        "",
        "graph",
        "graph X",
        "graph X {}",
        "graph X { ; ; ; }",
        "graph X { a: empty; } graph X { a: empty; }",
        "graph X { params {} params {} }",
        "graph X { a -> b -> c; }",
        "graph X { a: kernel k<<<1, 1>>>(); }",
        "graph X { params { k: Kernel<()> } a: kernel k<<<<<1>>>>>(); }",
        "graph X { params { k: Kernel<()> } a: kernel k<<<1 >> 2, 3>>>(); }",
        "graph X { a: memcpy(a -> -> b); }",
        "graph X { a: memcpy(->); }",
        "graph X { a: host(|| -> u32 { 1 }); }",
        "graph X { r#loop: empty; r#loop -> r#loop; }",
        "graph X { a: empty; b: empty; c: empty; a -> b -> c -> a; c -> b; }",
        "graph X { if {} else if {} else {} loop while for match }",
        "pub(crate) graph X { #[doc = 1] a: empty; }",
        "#[] graph X {}",
        "graph X { params { a: , } }",
        "graph X { params { : u32 } }",
    ] {
        if let Ok(tokens) = TokenStream::from_str(source) {
            run(tokens);
        }
    }
}
