//! The macro must never panic, whatever tokens it gets: every malformed input is a spanned
//! compile error. These tests run the parser, the checks and the expansion on
//!
//! - a corpus: every `cuda_graph!` call of the ui cases (`ui-tests/cases`), each also with its
//!   punctuation re-spaced (as `macro_rules!` may pass it on) and cut at every token;
//! - mutations of valid declarations (words deleted, repeated, swapped, replaced);
//! - random inputs from a structured generator (declarations made of the DSL's pieces with odd
//!   names, wrong kinds and stray tokens, `for` loops with indices in and out of range, then
//!   mutated token by token), seeded from the clock
//!   (printed; `CUDAGRAPH_FUZZ_SEED` replays a run) for a bounded time in CI:
//!   `CUDAGRAPH_FUZZ_INPUTS` (default 20,000) inputs, spread over the machine's cores.
//!
//! A declaration that parses when written out must also parse when its punctuation arrives
//! with other spacing (`>>` `>` apart): `respaced_declarations_expand_alike` checks it on every
//! ui case that compiles.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::atomic::{AtomicUsize, Ordering};

use proc_macro2::{Delimiter, Group, Ident, Punct, Spacing, Span, TokenStream, TokenTree};

mod mutants;

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

/// Parses, checks and expands `tokens`; whether it panicked.
fn panics(tokens: &TokenStream) -> bool {
    catch_unwind(AssertUnwindSafe(|| {
        let _ = syn::parse2::<crate::parse::Input>(tokens.clone()).and_then(crate::expand::expand);
    }))
    .is_err()
}

/// Parses, checks and expands `tokens`; it must not panic.
fn run(tokens: TokenStream) {
    assert!(!panics(&tokens), "the macro panicked on:\n{tokens}");
}

/// The expansion of `tokens`, or its errors, as text.
fn outcome(tokens: TokenStream) -> Result<String, String> {
    syn::parse2::<crate::parse::Input>(tokens)
        .and_then(crate::expand::expand)
        .map(|t| t.to_string())
        .map_err(|e| e.to_compile_error().to_string())
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
                "_1",
                "é",
                "'a:",
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
        "graph X { a: memcpy(-> y); }",
        "graph X { a: memcpy(x ->); }",
        "graph X { a: host(|| -> u32 { 1 }); }",
        "graph X { r#loop: empty; r#loop -> r#loop; }",
        "graph X { a: empty; b: empty; c: empty; a -> b -> c -> a; c -> b; }",
        "graph X { if {} else if {} else {} loop while for match }",
        "pub(crate) graph X { #[doc = 1] a: empty; }",
        "#[] graph X {}",
        // `cfg_attr` on a graph, whose attributes the rules read: malformed, empty, nested.
        "#[cfg_attr] #[cfg_attr()] #[cfg_attr = 1] #[cfg_attr(a,)] graph X { a: empty; }",
        "#[cfg_attr(a, cfg_attr(b, cfg_attr), cfg_attr(c, programmatic(x)), ::p::q, 1)] graph X {}",
        // A loop variable bound again in a node's expressions, in every way a token walk sees.
        "graph X { params { w: [f32; 2] } for i in 0..2 { a[i]: host(move || { let [i, ..] = [0]; match i { i => m!(w[i], |i| w[i] || i |= w[i]) } }); } }",
        "graph X { params { a: , } }",
        "graph X { params { : u32 } }",
        "graph X { params { _1: u32, __: u32, _\u{300}: u32 } a: empty; }",
        "graph X { __: empty; ___: empty; }",
        "graph X { 'outer: loop { a: empty; } /// doc\n match x {} }",
        "graph X { a: capture(w, [x, mut y, mut]); b: capture(w, [], x); c: capture(); }",
        "graph X { a: capture(w, [,]); }",
        "graph X { params { w: Capture } a: capture(w, [w, mut w]); }",
        "graph Step { a: empty; } graph StepExec { b: empty; } graph StepParams {}",
        "graph X { params { k: Kernel<(u32,)> } a: kernel k<<<f::<Vec<Vec<u32>>>(), 1>>>(1); }",
        // Repetition: counts and indices at and beyond the limits, loops of every shape.
        "graph X { for i in 0..1000000000 { a[i]: empty; } }",
        "graph X { for i in 0..18446744073709551615 { a[i]: empty; a[i] -> a[i + 1]; } }",
        "graph X { for i in 0..=18446744073709551615 { } }",
        "graph X { const N: usize = 18446744073709551615 + 1; for i in 0..N { a[i]: empty; } }",
        "graph X { const N: usize = N; const M: usize = 1 / 0; const L: usize = 4 % 0; }",
        "graph X { params { w: [f32; 18446744073709551615] } a: memset(w[0], 0.0f32); }",
        "graph X { params { w: [f32; 4] } for i in 0..4 { a[i]: memset(w[i - 1], 0.0f32); } }",
        "graph X { for i in 0..3 { a[i]: empty; } a[18446744073709551615] -> a[0]; }",
        "graph X { for i in 0..3 { a[i]: empty; } a[99999999999999999999999] -> a[0]; }",
        "graph X { for i in 0..3 { a[i]: empty; } a[] -> a[0]; a[i] -> a[-1]; }",
        "graph X { for i in 0..3 { for j in 0..3 { a[j]: empty; } } b: if h { for k in 0..2 { c[k]: empty; } } }",
        "graph X { for { } for i { } for i in { } for i in 0..2 for 0..2 in i {} }",
        "graph X { for i in 0..2 { a[i]: if h { b: empty; } c[i]: while g { d[i]: empty; } } }",
        "graph X { for i in 0..0 { a[i]: empty; } a[0] -> a[0]; }",
        "graph X { for i in 5..2 { a[i]: empty; } b[0]: empty; b[0] -> a; }",
        "graph X { for i in 0..2 { a[i]: alloc::<f32>(4); b[i]: free(a[i + 1]); c[i]: free(a); } }",
        "graph X { params { t: [Capture; 2], w: [DeviceBuffer<f32>; 2] } for i in 0..2 { c[i]: capture(t[i], [w[i], mut w[i], w]); } }",
        "graph X { params { h: [HostBuffer<f32>; 2] } for i in 0..2 { c[i]: host(f, h[i], mut h[i + 5]); } }",
        "graph X { const A: usize = 2; const A: usize = 3; for A in 0..A { x[A]: empty; } }",
        "graph X { for i in 0..2 { a[i]: empty; } for i in 0..2 { a[i]: empty; } }",
        // Primitives spelled as paths (`::u32` is an extern crate's), raw or with arguments.
        "graph X { params { k: Kernel<(::u32, r#u32, u32<>, ::core::primitive::u32)>, n: ::u32, m: r#u32, o: u32<> } a: kernel k<<<1, 1>>>(n, m, o, n); }",
        // Indices cast, suffixed, below zero on the way.
        "graph X { params { w: [DeviceBuffer<f32>; 4], k: Kernel<(DevicePtrMut<f32>,)> } for i in 0..4 { a[i]: kernel k<<<1, 1>>>(w[(i - 3) % 3]); b[i]: kernel k<<<1, 1>>>(w[(i + 256u8 as usize) as usize % 4]); c[i]: memset(w[(2147483647 + 1) as ::core::primitive::usize], 0.0f32); } }",
    ] {
        if let Ok(tokens) = TokenStream::from_str(source) {
            run(tokens);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The corpus: the ui cases.

/// `ui-tests/cases`, beside this crate.
fn cases_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../ui-tests/cases")
}

/// Every `.rs` file under `dir`, sorted.
fn case_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(case_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out.sort();
    out
}

/// The input of every `cuda_graph! { ... }` call in `tokens`, at any depth (inside
/// `macro_rules!` bodies too).
fn macro_inputs(tokens: TokenStream, out: &mut Vec<TokenStream>) {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    for (i, tt) in tokens.iter().enumerate() {
        if let TokenTree::Group(g) = tt {
            let called = i >= 2
                && matches!(&tokens[i - 1], TokenTree::Punct(p) if p.as_char() == '!')
                && matches!(&tokens[i - 2], TokenTree::Ident(id) if id == "cuda_graph");
            if called {
                out.push(g.stream());
            } else {
                macro_inputs(g.stream(), out);
            }
        }
    }
}

/// Each ui case's `cuda_graph!` inputs, with whether the case is expected to compile.
fn corpus() -> Vec<(PathBuf, TokenStream)> {
    let mut out = Vec::new();
    for path in case_files(&cases_dir()) {
        let Ok(source) = std::fs::read_to_string(&path) else {
            continue;
        };
        let Ok(tokens) = TokenStream::from_str(&source) else {
            continue;
        };
        let mut inputs = Vec::new();
        macro_inputs(tokens, &mut inputs);
        out.extend(inputs.into_iter().map(|t| (path.clone(), t)));
    }
    out
}

/// `tokens` with every punctuation's spacing given by `spacing`, at any depth.
fn respaced(tokens: TokenStream, spacing: &mut dyn FnMut(&Punct) -> Spacing) -> TokenStream {
    tokens
        .into_iter()
        .map(|tt| match tt {
            TokenTree::Group(g) => {
                let mut group = Group::new(g.delimiter(), respaced(g.stream(), spacing));
                group.set_span(g.span());
                TokenTree::Group(group)
            }
            TokenTree::Punct(p) => {
                let mut punct = Punct::new(p.as_char(), spacing(&p));
                punct.set_span(p.span());
                TokenTree::Punct(punct)
            }
            other => other,
        })
        .collect()
}

/// Every token tree of `tokens`, depth first, as flat positions: cutting at each.
fn cut_at_every_token(tokens: &TokenStream, f: &mut dyn FnMut(TokenStream)) {
    let trees: Vec<TokenTree> = tokens.clone().into_iter().collect();
    for i in 0..trees.len() {
        f(trees[..i].iter().cloned().collect());
        if let TokenTree::Group(g) = &trees[i] {
            cut_at_every_token(&g.stream(), &mut |inner| {
                let mut group = Group::new(g.delimiter(), inner);
                group.set_span(g.span());
                let mut cut: Vec<TokenTree> = trees[..i].to_vec();
                cut.push(TokenTree::Group(group));
                f(cut.into_iter().collect());
            });
        }
    }
}

#[test]
fn the_corpus_never_panics() {
    let corpus = corpus();
    assert!(
        corpus.len() > 50,
        "expected the ui cases under {}",
        cases_dir().display()
    );
    let mut inputs = 0usize;
    for (path, tokens) in &corpus {
        let mut check = |t: TokenStream| {
            inputs += 1;
            assert!(
                !panics(&t),
                "the macro panicked on a cut of {}:\n{t}",
                path.display()
            );
        };
        check(tokens.clone());
        check(respaced(tokens.clone(), &mut |_| Spacing::Alone));
        cut_at_every_token(tokens, &mut check);
    }
    println!(
        "corpus: {} declarations, {inputs} inputs, no panic",
        corpus.len()
    );
}

/// A declaration that expands when written out expands too when its punctuation comes with
/// other spacing, where Rust's own tokens allow it: `>>>` as `>>` `>` or `>` `>` `>`, `<<<`
/// likewise (rustc lexes `>>` as one token, and `macro_rules!` passes tokens on with the
/// spacing they had).
#[test]
fn respaced_declarations_expand_alike() {
    let mut compared = 0;
    for (path, tokens) in corpus() {
        if outcome(tokens.clone()).is_err() {
            continue;
        }
        // `<` and `>` apart from their neighbours: how they arrive when `macro_rules!` passes
        // on `>>` `>`, or a generic's closing `>` next to `>>`.
        let apart = respaced(tokens.clone(), &mut |p| match p.as_char() {
            '<' | '>' => Spacing::Alone,
            _ => p.spacing(),
        });
        let joined = respaced(tokens, &mut |p| match p.as_char() {
            '<' | '>' => Spacing::Joint,
            _ => p.spacing(),
        });
        // (The expansions differ only in the docs, which quote expressions as spaced.)
        for (how, t) in [("apart", apart), ("joined", joined)] {
            if let Err(e) = outcome(t) {
                panic!("{} does not expand with `<`/`>` {how}: {e}", path.display());
            }
        }
        compared += 1;
    }
    assert!(compared > 20, "only {compared} ui cases expanded");
}

// ---------------------------------------------------------------------------------------------
// Random inputs.

/// SplitMix64.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    fn pick<'a, T: ?Sized>(&mut self, items: &[&'a T]) -> &'a T {
        items[self.below(items.len())]
    }
}

/// Names the generator uses: ordinary ones, ones that clash with generated items, ones whose
/// derived names are no identifiers, raw and non-ASCII ones.
const NAMES: [&str; 34] = [
    "a",
    "b",
    "c",
    "x",
    "y",
    "n",
    "k",
    "h",
    "t",
    "w",
    "e",
    "g",
    "cfg",
    "len",
    "step",
    "out",
    "_1",
    "__",
    "_\u{300}x",
    "ñ",
    "é_b",
    "ʰ",
    "r#type",
    "r#loop",
    "launch",
    "set_params_only",
    "set_step",
    "read_t",
    "__cg_x",
    "foo_bar",
    "fooBar",
    "Step",
    "StepExec",
    "Solver",
];

const TYPES: [&str; 34] = [
    "[DeviceBuffer<f32>; N]",
    "[f32; 4]",
    "[Capture; N]",
    "[HostBuffer<f32>; 2]",
    "[u32; M]",
    "u32",
    "f32",
    "usize",
    "bool",
    "Kernel<(u32, DevicePtrMut<f32>)>",
    "Kernel<(u32, f32, DevicePtr<f32>, DevicePtrMut<f32>)>",
    "Kernel<Args>",
    "Kernel<(Out,)>",
    "DeviceBuffer<f32>",
    "HostBuffer<f32>",
    "DevicePtr<f32>",
    "DevicePtrMut<f32>",
    "Buf",
    "LaunchConfig",
    "Capture",
    "Event",
    "ExternalSemaphore",
    "Graph<'static>",
    "Graph",
    "Inner",
    "fn()",
    "HostCallback",
    "Vec<DeviceBuffer<f32>>",
    "ConditionalHandle",
    "Handle",
    "::u32",
    "r#u32",
    "::core::primitive::f32",
    "&'static DeviceBuffer<f32>",
];

/// A random expression over the names.
fn expr(rng: &mut Rng, depth: usize) -> String {
    let name = rng.pick(&NAMES);
    match (rng.below(9), depth) {
        (_, 3..) | (0..=2, _) => name.to_owned(),
        (3, _) => format!("{} + {}", expr(rng, depth + 1), expr(rng, depth + 1)),
        (4, _) => format!("{name}.div_ceil(256)"),
        (5, _) => format!(
            "size_of::<Vec<Vec<{}>>>() as u32",
            rng.pick(&["u32", "f32"])
        ),
        (6, _) => format!("({}, {})", expr(rng, depth + 1), expr(rng, depth + 1)),
        (7, _) => format!("{name}.slice(..{} as usize)", expr(rng, depth + 1)),
        _ => format!("{}u32", rng.below(1000)),
    }
}

/// A list of `count` expressions.
fn exprs(rng: &mut Rng, count: usize) -> String {
    (0..count)
        .map(|_| expr(rng, 0))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A random node, statement or piece of one.
fn item(rng: &mut Rng, depth: usize) -> String {
    let name = rng.pick(&NAMES);
    let other = rng.pick(&NAMES);
    let attrs = match rng.below(12) {
        0 => "/// Docs.\n",
        1 => "#[unordered(y)] ",
        2 => "#[unordered(x, n)] ",
        3 => "#[cfg(test)] ",
        _ => "",
    };
    let body = |rng: &mut Rng| {
        let count = rng.below(4);
        (0..count)
            .map(|_| item(rng, depth + 1))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let node = match rng.below(26) {
        0..=3 => {
            let config = match rng.below(5) {
                0 => "cfg".to_owned(),
                1 => format!("{}, {}, {}", expr(rng, 0), expr(rng, 0), expr(rng, 0)),
                2 => String::new(),
                _ => format!("{}, {}", expr(rng, 0), expr(rng, 0)),
            };
            let args = rng.below(5);
            format!("kernel {other}<<<{config}>>>({})", exprs(rng, args))
        }
        4 => format!("memset({other}, {})", expr(rng, 0)),
        5 => format!("memcpy({} -> {})", rng.pick(&NAMES), rng.pick(&NAMES)),
        6 => format!("host({}, {other}, mut {})", expr(rng, 0), rng.pick(&NAMES)),
        7 => format!("host(move || println!(\"{{{other}}}\"))"),
        8 => format!("child({other})"),
        9 => "empty".to_owned(),
        10 => format!("alloc::<{}>({})", rng.pick(&["f32", "u32"]), expr(rng, 0)),
        11 => format!("free({other})"),
        12 => format!("record({other})"),
        13 => format!("wait({other})"),
        14 => format!("capture({other})"),
        15 => format!(
            "capture({other}, [{}, mut {}])",
            rng.pick(&NAMES),
            rng.pick(&NAMES)
        ),
        16 if depth < 3 => format!("if {other} {{ {} }}", body(rng)),
        17 if depth < 3 => format!(
            "if {other}(default = 1) {{ {} }} else {{ {} }}",
            body(rng),
            body(rng)
        ),
        18 if depth < 3 => format!("while {other} {{ {} }}", body(rng)),
        19 if depth < 3 => format!(
            "switch {other} {{ 0 => {{ {} }} 1 => {{ {} }} }}",
            body(rng),
            body(rng)
        ),
        20 => {
            let chain: Vec<&str> = (0..2 + rng.below(3)).map(|_| rng.pick(&NAMES)).collect();
            return format!("{} -> [{}, {}];", chain.join(" -> "), name, other);
        }
        21 => {
            return match rng.below(6) {
                0 => format!("'l: loop {{ {name}: empty; }}"),
                1 => format!("/// Doc.\nmatch {other} {{ _ => {{}} }}"),
                2 => format!("for i in 0..{other} {{ {name}: empty; }}"),
                3 => format!("let {name} = {};", expr(rng, 0)),
                4 => format!("{{ {name}: empty; }}"),
                _ => format!("repeat!({name});"),
            }
        }
        22 => return format!("{name} -> {other};"),
        23 => format!("signal({other} = {})", expr(rng, 0)),
        24 => format!("wait({other} = {}, {} = 1)", expr(rng, 0), rng.pick(&NAMES)),
        _ => format!("launch {other}<<<1, 1>>>()"),
    };
    format!("{attrs}{name}: {node};")
}

/// Indices the generator writes: the loop variable with and without offsets, consts, ones out
/// of range or beyond `usize`, ones the macro cannot compute.
const INDICES: [&str; 12] = [
    "i",
    "i",
    "i + 1",
    "i - 1",
    "N - 1",
    "0",
    "n",
    "i % 2",
    "i / 0",
    "N",
    "99999999999999999999999",
    "j",
];

/// A random `for` loop: nodes named by the loop variable, indexed operands and expressions,
/// edges within and between iterations (or a piece of one).
fn repetition(rng: &mut Rng) -> String {
    // Half the loops are well formed: empty nodes, edges within and between iterations.
    if rng.chance(50) {
        let names = ["rep_a", "rep_b", "rep_c"];
        let count = 1 + rng.below(3);
        let mut body = String::new();
        for name in &names[..count] {
            body.push_str(&format!("{name}[i]: empty;\n"));
        }
        for pair in names[..count].windows(2) {
            body.push_str(&format!("{}[i] -> {}[i];\n", pair[0], pair[1]));
        }
        let chain = format!("for i in 0..2 {{ {0}[i] -> {0}[i + 1]; }}", names[0]);
        return format!("for i in 0..3 {{\n{body}}}\n{chain}");
    }
    let range = rng.pick(&[
        "0..N", "0..3", "0..=2", "1..N", "0..n", "0..", "N..0", "0..M",
    ]);
    let var = rng.pick(&["i", "i", "i", "n", "N", "j"]);
    let mut body = String::new();
    for _ in 0..rng.below(6) {
        let (name, other) = (rng.pick(&NAMES), rng.pick(&NAMES));
        let index = rng.pick(&INDICES);
        let item = match rng.below(12) {
            0 => format!("{name}[{var}]: kernel {other}<<<1, 1>>>(n, {other}[{index}], x);"),
            1 => format!("{name}[{var}]: memset({other}[{index}], 0.0f32);"),
            2 => format!("{name}[{var}]: memcpy({other}[{index}] -> {name}[{index}]);"),
            3 => format!("{name}[{var}]: alloc::<f32>(n as usize);"),
            4 => format!("{name}[{var}]: free({other}[{index}]);"),
            5 => format!("{name}[{var}]: capture({other}[{index}], [w[{index}], mut x]);"),
            6 => format!("{name}[{var}]: host(f, {other}[{index}]);"),
            7 => format!("{name}[{index}] -> {other}[{}];", rng.pick(&INDICES)),
            8 => format!("{name}: empty;"),
            9 | 10 => format!("{name}[{var}]: empty;"),
            _ => item(rng, 3),
        };
        body.push_str(&item);
        body.push('\n');
    }
    format!("for {var} in {range} {{\n{body}}}")
}

/// A random declaration: one to three graphs with params, nodes and edges.
fn declaration(rng: &mut Rng) -> String {
    let mut out = String::new();
    for _ in 0..1 + rng.below(3) {
        let name = rng.pick(&["Step", "StepExec", "Solver", "SolverParam", "Inner", "G"]);
        let vis = rng.pick(&["", "pub ", "pub(crate) "]);
        out.push_str(&format!("/// A graph.\n{vis}graph {name} {{\n"));
        if rng.chance(30) {
            let value = rng.pick(&["4", "0", "n", "M * 2", "N", "2 + 3 * 4", "1 / 0"]);
            let name = rng.pick(&["N", "M", "N"]);
            out.push_str(&format!("const {name}: usize = {value};\n"));
        }
        if rng.chance(90) {
            out.push_str("params {\n");
            for _ in 0..rng.below(8) {
                let attr = if rng.chance(15) { "#[indirect] " } else { "" };
                out.push_str(&format!(
                    "{attr}{}: {},\n",
                    rng.pick(&NAMES),
                    rng.pick(&TYPES)
                ));
            }
            out.push_str("}\n");
        }
        for _ in 0..rng.below(10) {
            if rng.chance(8) {
                out.push_str(&repetition(rng));
            } else {
                out.push_str(&item(rng, 0));
            }
            out.push('\n');
        }
        out.push_str("}\n");
    }
    out
}

/// One random change to a token stream: a token deleted, repeated, swapped with the next, or
/// replaced; a group's delimiter changed; spacing flipped.
fn mutate(tokens: TokenStream, rng: &mut Rng) -> TokenStream {
    let mut trees: Vec<TokenTree> = tokens.into_iter().collect();
    if trees.is_empty() {
        return TokenStream::new();
    }
    let i = rng.below(trees.len());
    // Into a group, sometimes.
    if let TokenTree::Group(g) = &trees[i] {
        if rng.chance(50) {
            let mut group = Group::new(g.delimiter(), mutate(g.stream(), rng));
            group.set_span(g.span());
            trees[i] = TokenTree::Group(group);
            return trees.into_iter().collect();
        }
    }
    match rng.below(7) {
        0 => {
            trees.remove(i);
        }
        1 => {
            let t = trees[i].clone();
            trees.insert(i, t);
        }
        2 => {
            let j = (i + 1).min(trees.len() - 1);
            trees.swap(i, j);
        }
        3 => {
            let name = rng.pick(&NAMES);
            trees[i] = match name.strip_prefix("r#") {
                Some(raw) => TokenTree::Ident(Ident::new_raw(raw, Span::call_site())),
                None => TokenTree::Ident(Ident::new(name, Span::call_site())),
            };
        }
        4 => {
            let c = *rng.pick(&[&'<', &'>', &'-', &':', &';', &',', &'#', &'!', &'=', &'\'']);
            let spacing = if rng.chance(50) {
                Spacing::Joint
            } else {
                Spacing::Alone
            };
            trees[i] = TokenTree::Punct(Punct::new(c, spacing));
        }
        5 => {
            let delimiter = *rng.pick(&[
                &Delimiter::Brace,
                &Delimiter::Bracket,
                &Delimiter::Parenthesis,
                &Delimiter::None,
            ]);
            let inner = match &trees[i] {
                TokenTree::Group(g) => g.stream(),
                other => other.clone().into(),
            };
            trees[i] = TokenTree::Group(Group::new(delimiter, inner));
        }
        _ => {
            return respaced(trees.into_iter().collect(), &mut |p| {
                if rng.chance(30) {
                    match p.spacing() {
                        Spacing::Joint => Spacing::Alone,
                        Spacing::Alone => Spacing::Joint,
                    }
                } else {
                    p.spacing()
                }
            })
        }
    }
    trees.into_iter().collect()
}

/// The seed of a fuzz run: `CUDAGRAPH_FUZZ_SEED`, else the clock.
fn seed() -> u64 {
    std::env::var("CUDAGRAPH_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64)
        })
}

/// Runs `inputs` random inputs from `seed`, over `threads` threads; returns how many ran and
/// the inputs that panicked.
fn fuzz(seed: u64, inputs: usize, threads: usize) -> (usize, Vec<String>) {
    let done = AtomicUsize::new(0);
    let failures = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for thread in 0..threads {
            let (done, failures) = (&done, &failures);
            scope.spawn(move || {
                // Token streams stay on their thread: each reads the corpus itself.
                let corpus: Vec<TokenStream> = corpus().into_iter().map(|(_, t)| t).collect();
                let mut rng = Rng(seed ^ (thread as u64).wrapping_mul(0xA24B_AED4_963E_E407));
                while done.fetch_add(1, Ordering::Relaxed) < inputs {
                    // Half from the generator, half from the corpus; then 0 to 4 mutations.
                    let base = if rng.chance(50) || corpus.is_empty() {
                        TokenStream::from_str(&declaration(&mut rng)).unwrap_or_default()
                    } else {
                        corpus[rng.below(corpus.len())].clone()
                    };
                    let mut tokens = base;
                    for _ in 0..rng.below(5) {
                        tokens = mutate(tokens, &mut rng);
                    }
                    if panics(&tokens) {
                        if let Ok(mut f) = failures.lock() {
                            f.push(tokens.to_string());
                        }
                    }
                }
            });
        }
    });
    let ran = done.load(Ordering::Relaxed).min(inputs);
    (ran, failures.into_inner().unwrap_or_default())
}

/// A bounded fuzz run, for CI: `CUDAGRAPH_FUZZ_INPUTS` inputs (20,000 by default; the release
/// run of 1,000,000 is `CUDAGRAPH_FUZZ_INPUTS=1000000 cargo test --release -p cudagraph-macros
/// fuzz -- --nocapture`).
#[test]
fn fuzz_never_panics() {
    let inputs = std::env::var("CUDAGRAPH_FUZZ_INPUTS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20_000);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let seed = seed();
    let started = std::time::Instant::now();
    let (ran, failures) = fuzz(seed, inputs, threads);
    println!(
        "fuzz: {ran} inputs from seed {seed} (replay with CUDAGRAPH_FUZZ_SEED={seed}), {} \
         threads, {:.1} s, {} panics",
        threads,
        started.elapsed().as_secs_f64(),
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "the macro panicked on {} inputs, the first:\n{}",
        failures.len(),
        failures[0]
    );
}

/// A loop whose count is near `usize::MAX`, after nodes (or edges) declared before it: the
/// total the size limit compares overflowed (found by `mutants`: a panic in a debug build of the
/// macro, and in a release build a wrapped total under the limit and a loop of 2^64 iterations
/// made, until memory ran out). It is refused at the range like any loop too large.
#[test]
fn huge_loops_after_other_nodes_are_refused_not_overflowed() {
    for source in [
        "graph X { a: empty; for i in 0..18446744073709551615 { b[i]: empty; } }",
        "graph X { a: empty; b: empty; a -> b; for i in 0..18446744073709551615 { a -> b; } }",
    ] {
        let tokens = TokenStream::from_str(source).unwrap_or_default();
        assert!(!panics(&tokens), "panicked: {source}");
        let errors = outcome(tokens).expect_err("refused");
        assert!(
            errors.contains("this loop would make graph `X` larger than `cuda_graph!` checks"),
            "{source}: {errors}"
        );
    }
}

/// A loop that declares no node and no edge is not bounded by the size limit, and its
/// iterations were walked one by one: `for i in 0..18446744073709551615 {}` (or a body of
/// statements that do not parse) never finished expanding (found by `mutants`).
#[test]
fn huge_loops_without_nodes_or_edges_are_not_walked() {
    let started = std::time::Instant::now();
    let empty = "graph X { a: empty; for i in 0..18446744073709551615 { } }";
    assert!(outcome(TokenStream::from_str(empty).unwrap_or_default()).is_ok());
    let broken = "graph X { for i in 0..18446744073709551615 { x; a -> []; } }";
    let errors = outcome(TokenStream::from_str(broken).unwrap_or_default()).expect_err("refused");
    assert!(errors.contains("expected `->`"), "{errors}");
    assert!(
        started.elapsed() < std::time::Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn the_generator_makes_declarations_that_expand() {
    // The generator must reach the expansion, not only the parser's errors, loops too.
    let mut rng = Rng(7);
    let (mut expanded, mut with_loops) = (0, 0);
    for _ in 0..4000 {
        let source = declaration(&mut rng);
        if TokenStream::from_str(&source)
            .ok()
            .is_some_and(|t| outcome(t).is_ok())
        {
            expanded += 1;
            with_loops += usize::from(source.contains("for i in 0..3"));
        }
    }
    println!("{expanded} of 4000 generated declarations expanded, {with_loops} with a loop");
    assert!(
        expanded > 20,
        "only {expanded} of 4000 generated declarations expanded"
    );
    assert!(
        with_loops > 2,
        "only {with_loops} generated declarations with a loop expanded"
    );
}

/// A loop of thousands of nodes that no edge orders makes a pair to judge for every two of
/// them: past `MAX_UNORDERED_PAIRS` the declaration is refused at once (it took gigabytes and
/// minutes), and below it a race between every two iterations is reported once, not kept
/// once per pair.
#[test]
fn too_many_unordered_pairs_are_refused_before_they_are_judged() {
    for use_of in ["w[i]", "y"] {
        let source = format!(
            "graph X {{ params {{ w: [DeviceBuffer<f32>; 20000], y: DeviceBuffer<f32>, \
             k: Kernel<(DevicePtrMut<f32>,)> }} for i in 0..20000 {{ a[i]: kernel \
             k<<<1, 1>>>({use_of}); }} }}"
        );
        let errors =
            outcome(TokenStream::from_str(&source).unwrap_or_default()).expect_err("refused");
        assert!(
            errors.contains("199,990,000 pairs of nodes that use memory"),
            "{errors}"
        );
        assert_eq!(errors.matches("compile_error").count(), 1, "{errors}");
    }
    // Ordered, the same loop is judged.
    let chained = "graph X { params { w: [DeviceBuffer<f32>; 20000], \
                   k: Kernel<(DevicePtrMut<f32>,)> } for i in 0..20000 { a[i]: kernel \
                   k<<<1, 1>>>(w[i]); } for i in 0..19999 { a[i] -> a[i + 1]; } }";
    assert!(outcome(TokenStream::from_str(chained).unwrap_or_default()).is_ok());
    let racing = "graph X { params { y: DeviceBuffer<f32>, k: Kernel<(DevicePtrMut<f32>,)> } \
                  for i in 0..2000 { a[i]: kernel k<<<1, 1>>>(y); } }";
    let errors = outcome(TokenStream::from_str(racing).unwrap_or_default()).expect_err("a race");
    assert_eq!(errors.matches("compile_error").count(), 1, "{errors}");
    assert!(
        errors.contains("nodes `a[0]` and `a[1]` both use buffer `y`"),
        "{errors}"
    );
    let analysis_races = {
        let input: crate::parse::Input = syn::parse_str(racing).expect("parses");
        let model = crate::model::Model::new(&input.graphs[0]);
        model.hazards().races.len()
    };
    assert_eq!(
        analysis_races, 1,
        "one race kept for 1,999,000 racing pairs"
    );
}

/// Nodes without memory cost nothing per pair: 20,000 empty nodes that no edge orders (200
/// million pairs) took 15 s, every pair looked at by the data-race rule; the rule now skips
/// them a word at a time (0.6 s for the whole expansion in a debug build).
#[test]
fn unordered_nodes_without_memory_are_not_judged_by_pairs() {
    let started = std::time::Instant::now();
    for (params, body) in [
        ("", "a[i]: empty;"),
        ("k: Kernel<(u32,)>, n: u32", "a[i]: kernel k<<<1, 1>>>(n);"),
    ] {
        let source = format!("graph X {{ params {{ {params} }} for i in 0..20000 {{ {body} }} }}");
        let expanded = outcome(TokenStream::from_str(&source).unwrap_or_default());
        assert!(expanded.is_ok(), "{body}: {expanded:?}");
    }
    // Generous (a loaded machine, a debug build): it took 15 s for the first body alone.
    assert!(
        started.elapsed() < std::time::Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
}

/// Every node that may launch device graphs (a kernel given a `DeviceGraph`, a child node) is
/// checked against each node with memory beside it by code of its own: 800 launching kernels
/// no edge orders took 26 s and 4 GB. Past `MAX_LAUNCH_PAIRS` the declaration is refused at
/// its name, counted before any pair is made; one launcher beside thousands of nodes is not.
#[test]
fn too_many_launch_pairs_are_refused_before_they_are_made() {
    let started = std::time::Instant::now();
    for (params, node) in [
        (
            "launch: Kernel<(DeviceGraph, u32)>, worker: SharedDeviceGraph, n: u32",
            "a[i]: kernel launch<<<1, 1>>>(worker, n);",
        ),
        ("raw: Graph<'static>", "a[i]: child(raw);"),
    ] {
        let source = format!("graph X {{ params {{ {params} }} for i in 0..2500 {{ {node} }} }}");
        let errors =
            outcome(TokenStream::from_str(&source).unwrap_or_default()).expect_err("refused");
        assert!(errors.contains("graph `X` has 6,2"), "{errors}");
        assert!(
            errors.contains("pairs of a node that may launch device graphs"),
            "{errors}"
        );
        assert_eq!(errors.matches("compile_error").count(), 1, "{errors}");
    }
    assert!(
        started.elapsed() < std::time::Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
    // One launching kernel before a chain of 5,000 kernels: 5,000 pairs, made.
    let chained =
        "graph X { params { launch: Kernel<(DeviceGraph, u32)>, worker: SharedDeviceGraph, \
                   n: u32, k: Kernel<(DevicePtrMut<f32>,)>, w: [DeviceBuffer<f32>; 5000] } \
                   go: kernel launch<<<1, 1>>>(worker, n); \
                   for i in 0..5000 { b[i]: kernel k<<<1, 1>>>(w[i]); } \
                   for i in 0..4999 { b[i] -> b[i + 1]; } go -> b[0]; }";
    let input: crate::parse::Input = syn::parse_str(chained).expect("parses");
    let model = crate::model::Model::new(&input.graphs[0]);
    let analysis = model.hazards();
    assert_eq!(analysis.too_many_launch_pairs, None);
    // Every kernel of the chain (the launching kernel uses no memory but its handle).
    assert_eq!(analysis.launch_pairs.len(), 5000);
    assert!(outcome(TokenStream::from_str(chained).unwrap_or_default()).is_ok());
}

/// Messages quote node names in Rust syntax as the user must write them: a keyword name is
/// raw (`r#match`), so that a suggested edge parses when pasted into the declaration.
#[test]
fn suggested_edges_write_keyword_names_raw() {
    let cases = [
        // Two unordered writers of one buffer: the edge that orders them.
        (
            "graph X { params { k: Kernel<(DevicePtrMut<f32>,)>, y: DeviceBuffer<f32> } \
             r#match: kernel k<<<1, 1>>>(y); r#loop: kernel k<<<1, 1>>>(y); }",
            "the edge `r#match -> r#loop;` (or `r#loop -> r#match;`)",
        ),
        // Instances of a loop: the edge in a loop, by its variable.
        (
            "graph X { params { k: Kernel<(DevicePtrMut<f32>,)>, y: DeviceBuffer<f32> } \
             for i in 0..2 { r#fn[i]: kernel k<<<1, 1>>>(y); } }",
            "r#fn[i] -> r#fn[i + 1];",
        ),
        // A cycle: its path.
        (
            "graph X { r#match: empty; r#if: empty; r#match -> r#if; r#if -> r#match; }",
            "the edge `r#match -> r#if` is part of the dependency cycle `r#match -> r#if -> r#match`:",
        ),
        // A node that is not declared: the close name.
        (
            "graph X { r#match: empty; after: empty; r#matc -> after; }",
            "did you mean `r#match`?",
        ),
    ];
    for (source, expected) in cases {
        let errors =
            outcome(TokenStream::from_str(source).unwrap_or_default()).expect_err("refused");
        assert!(errors.contains(expected), "{source}: {errors}");
        // The runtime's names stay unraw: only what is quoted as code is written raw.
        assert!(!errors.contains("`match ->"), "{source}: {errors}");
    }
    let source = "graph X { r#match: empty; r#if: empty; }";
    let input: crate::parse::Input = syn::parse_str(source).expect("parses");
    let model = crate::model::Model::new(&input.graphs[0]);
    assert_eq!(
        (
            model.nodes[0].name.as_str(),
            model.nodes[0].written.as_str()
        ),
        ("match", "r#match")
    );
    let plain: syn::Ident = syn::parse_str("r#step").expect("an identifier");
    assert_eq!(crate::tokens::written(&plain), "step");
}

/// Two different params of unordered nodes, one writing, are checked for shared memory when
/// the graph is built: a loop of iterations no edge orders, each using its own elements of two
/// array params (`k(x[i], y[i])`), made one table entry per pair of iterations and params
/// (1,000 iterations: ~5 s, 750 MB and tens of MB of generated code). The check is now one
/// sort of the memories the loop's uses name, its code linear in the iterations.
#[test]
fn unordered_uses_of_different_params_are_checked_in_linear_code() {
    let mut sizes = Vec::new();
    for n in [1000, 2800] {
        let source = format!(
            "graph X {{ params {{ x: [DeviceBuffer<f32>; {n}], y: [DeviceBuffer<f32>; {n}], \
             k: Kernel<(DevicePtr<f32>, DevicePtrMut<f32>)> }} for i in 0..{n} {{ a[i]: kernel \
             k<<<1, 1>>>(x[i], y[i]); }} }}"
        );
        let started = std::time::Instant::now();
        let expanded = outcome(TokenStream::from_str(&source).unwrap_or_default());
        let took = started.elapsed();
        let expanded = expanded.expect("expands");
        let hwm = std::fs::read_to_string("/proc/self/status")
            .ok()
            .and_then(|s| {
                s.lines()
                    .find(|l| l.starts_with("VmHWM"))
                    .map(str::to_owned)
            });
        eprintln!(
            "{n} iterations: {took:?}, {} bytes of code, {hwm:?}",
            expanded.len()
        );
        assert!(
            expanded.contains("first_overlap_between"),
            "checked together"
        );
        // Generous (a loaded machine, a debug build): 2,800 took 35 s, now ~6, most of it the
        // data-race rule's walk over the 3.9 million pairs of nodes.
        assert!(took < std::time::Duration::from_secs(25), "{n}: {took:?}");
        sizes.push(expanded.len());
    }
    // Linear: 2.8 times the iterations, not 7.8 times the code (1,000: 46 MB, 2,800: 381 MB).
    assert!(sizes[1] < sizes[0] * 4, "{sizes:?}");
    assert!(sizes[1] < 4_000_000, "{sizes:?}");
    // An edge between two of the iterations: every other pair is an entry of the table again,
    // refused at the graph's name past `MAX_OVERLAP_PAIRS`.
    let source = "graph X { params { x: [DeviceBuffer<f32>; 1000], y: [DeviceBuffer<f32>; 1000], \
                  k: Kernel<(DevicePtr<f32>, DevicePtrMut<f32>)> } for i in 0..1000 { a[i]: \
                  kernel k<<<1, 1>>>(x[i], y[i]); } a[0] -> a[1]; }";
    let errors = outcome(TokenStream::from_str(source).unwrap_or_default()).expect_err("refused");
    assert!(
        errors.contains("graph `X` has 1,498,497 pairs of uses"),
        "{errors}"
    );
    assert_eq!(errors.matches("compile_error").count(), 1, "{errors}");
}
