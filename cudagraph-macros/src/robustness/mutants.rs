//! Token-level mutants of the corpus: the ui cases and the expansion programs
//! (`tests/expand`), each mutated one to four times at any depth — a token deleted, a token or
//! group repeated, neighbours swapped, an identifier or literal replaced by one of the corpus, a
//! group cut short, a token wrapped in a group (of any delimiter, invisible ones too, as
//! `macro_rules!` passes fragments), a number made 0, huge or negative, a `for` range emptied,
//! a node name declared again, an edge from a node to itself — and run through the whole macro
//! (parse, checks, expansion) under `catch_unwind`. Each distinct panic location is reported
//! with the smallest input found for it (tokens deleted and groups flattened while it still
//! panics there).
//!
//! `mutants_never_panic` runs a small fixed-seed batch with the other tests; a long run:
//! `CUDAGRAPH_MUTANTS=200000 CUDAGRAPH_MUTANTS_SEED=1 cargo test --release -p cudagraph-macros
//! mutants -- --nocapture`.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::str::FromStr;
use std::sync::Once;
use std::time::{Duration, Instant};

use proc_macro2::Literal;

use super::*;

/// The inputs: the ui cases' calls, the expansion programs' calls, and this module's two.
fn inputs() -> Vec<TokenStream> {
    let mut out: Vec<TokenStream> = corpus().into_iter().map(|(_, t)| t).collect();
    let expand = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/expand");
    for path in case_files(&expand) {
        if path.to_string_lossy().ends_with(".expanded.rs") {
            continue;
        }
        let source = std::fs::read_to_string(&path).unwrap_or_default();
        if let Ok(tokens) = TokenStream::from_str(&source) {
            macro_inputs(tokens, &mut out);
        }
    }
    for source in [VALID, BROKEN] {
        out.extend(TokenStream::from_str(source).ok());
    }
    out
}

/// Every identifier and literal of `tokens`, at any depth.
fn leaves(tokens: &TokenStream, idents: &mut Vec<Ident>, literals: &mut Vec<Literal>) {
    for tt in tokens.clone() {
        match tt {
            TokenTree::Group(g) => leaves(&g.stream(), idents, literals),
            TokenTree::Ident(i) => idents.push(i),
            TokenTree::Literal(l) => literals.push(l),
            TokenTree::Punct(_) => {}
        }
    }
}

/// Numbers at the edges: zero, the limits of `usize` and of the macro's own counts, beyond
/// them, negative (as one literal token, which `macro_rules!` can pass on), suffixed, floats.
const NUMBERS: [&str; 24] = [
    "0",
    "0usize",
    "1",
    "-1",
    "-0",
    "2",
    "64",
    "65",
    "65536",
    "65537",
    "20000",
    "20001",
    "200001",
    "4294967296",
    "18446744073709551615",
    "18446744073709551616",
    "340282366920938463463374607431768211455",
    "999999999999999999999999999999999999999999",
    "255u8",
    "256u64",
    "1i32",
    "1.5",
    "1e400",
    "0xFFFF_FFFF_FFFF_FFFF",
];

/// Ranges a `for` loop may be given: empty, reversed, open, inclusive, huge.
const RANGES: [&str; 10] = [
    "0..0",
    "1..0",
    "0..=0",
    "0..",
    "..",
    "..3",
    "",
    "0..18446744073709551615",
    "0..=18446744073709551615",
    "N..N",
];

/// The literal of `source` (one token, a negative number too, as a proc macro may make one).
fn literal(source: &str) -> TokenTree {
    TokenTree::Literal(Literal::from_str(source).unwrap_or_else(|_| Literal::usize_unsuffixed(0)))
}

/// `tokens` with `edit` applied to the sequence holding its `k`-th token (depth first) at that
/// token's index: `k` counts down to it. A group keeps its delimiter and span.
fn at(
    tokens: TokenStream,
    k: &mut usize,
    edit: &mut dyn FnMut(&mut Vec<TokenTree>, usize),
) -> TokenStream {
    let mut trees: Vec<TokenTree> = tokens.into_iter().collect();
    let mut i = 0;
    while i < trees.len() {
        if *k == 0 {
            edit(&mut trees, i);
            *k = usize::MAX;
            return trees.into_iter().collect();
        }
        *k -= 1;
        if let TokenTree::Group(g) = &trees[i] {
            let inner = at(g.stream(), k, edit);
            if *k == usize::MAX {
                let mut group = Group::new(g.delimiter(), inner);
                group.set_span(g.span());
                trees[i] = TokenTree::Group(group);
                return trees.into_iter().collect();
            }
        }
        i += 1;
    }
    trees.into_iter().collect()
}

/// How many tokens `tokens` has, at any depth.
fn count(tokens: &TokenStream) -> usize {
    tokens
        .clone()
        .into_iter()
        .map(|tt| match tt {
            TokenTree::Group(g) => 1 + count(&g.stream()),
            _ => 1,
        })
        .sum()
}

/// Whether `tt` is the punctuation `c`.
fn is_punct(tt: Option<&TokenTree>, c: char) -> bool {
    matches!(tt, Some(TokenTree::Punct(p)) if p.as_char() == c)
}

/// The node declarations of the brace groups of `tokens` (a name, with its `[index]` when it
/// has one, before a single `:` at the start of a statement), at any depth.
fn declared(tokens: &TokenStream, out: &mut Vec<Vec<TokenTree>>) {
    let trees: Vec<TokenTree> = tokens.clone().into_iter().collect();
    for (i, tt) in trees.iter().enumerate() {
        match tt {
            TokenTree::Group(g) => declared(&g.stream(), out),
            TokenTree::Ident(_) => {
                let starts = i == 0
                    || is_punct(trees.get(i - 1), ';')
                    || matches!(trees.get(i - 1), Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Brace);
                let indexed = matches!(trees.get(i + 1), Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Bracket);
                let colon = i + 1 + usize::from(indexed);
                if starts && is_punct(trees.get(colon), ':') && !is_punct(trees.get(colon + 1), ':')
                {
                    out.push(trees[i..colon].to_vec());
                }
            }
            _ => {}
        }
    }
}

/// The pieces mutants are made of.
struct Pools {
    idents: Vec<Ident>,
    literals: Vec<Literal>,
}

/// One random mutation of `tokens`.
fn mutate_once(tokens: TokenStream, rng: &mut Rng, pools: &Pools) -> TokenStream {
    let n = count(&tokens);
    if n == 0 {
        return tokens;
    }
    let mut k = rng.below(n);
    let kind = rng.below(16);
    // Names declared anywhere in the input, for the edits that reuse them.
    let mut names = Vec::new();
    declared(&tokens, &mut names);
    let mut edit = |trees: &mut Vec<TokenTree>, i: usize| match kind {
        0 | 1 => {
            trees.remove(i);
        }
        2 => {
            let t = trees[i].clone();
            trees.insert(i, t);
        }
        3 => {
            let j = if i + 1 < trees.len() { i + 1 } else { i };
            trees.swap(i, j);
        }
        4 | 5 => {
            if let TokenTree::Ident(_) = &trees[i] {
                let id = pools.idents[rng.below(pools.idents.len())].clone();
                trees[i] = TokenTree::Ident(id);
            } else if let TokenTree::Literal(_) = &trees[i] {
                let l = pools.literals[rng.below(pools.literals.len())].clone();
                trees[i] = TokenTree::Literal(l);
            }
        }
        6 => {
            // A number at an edge, or made negative with a `-` before it.
            if rng.chance(20) {
                let minus = Punct::new('-', Spacing::Alone);
                trees.insert(i, TokenTree::Punct(minus));
            } else {
                trees[i] = literal(NUMBERS[rng.below(NUMBERS.len())]);
            }
        }
        7 => {
            // A group cut short.
            if let TokenTree::Group(g) = &trees[i] {
                let inner: Vec<TokenTree> = g.stream().into_iter().collect();
                let keep = rng.below(inner.len() + 1);
                let mut group = Group::new(g.delimiter(), inner[..keep].iter().cloned().collect());
                group.set_span(g.span());
                trees[i] = TokenTree::Group(group);
            } else {
                trees.truncate(i);
            }
        }
        8 => {
            // Wrapped in a group: a token, or the tokens up to a later one.
            let delimiter = [
                Delimiter::None,
                Delimiter::None,
                Delimiter::Parenthesis,
                Delimiter::Bracket,
                Delimiter::Brace,
            ][rng.below(5)];
            let end = (i + 1 + rng.below(3)).min(trees.len());
            let inner: TokenStream = trees.drain(i..end).collect();
            trees.insert(i, TokenTree::Group(Group::new(delimiter, inner)));
        }
        9 => {
            // A group nested in itself.
            if let TokenTree::Group(g) = &trees[i] {
                let mut group = Group::new(g.delimiter(), TokenTree::Group(g.clone()).into());
                group.set_span(g.span());
                trees[i] = TokenTree::Group(group);
            }
        }
        10 => {
            // A `for` range emptied or pushed to an edge: the tokens between `in` and the body.
            let is_in = matches!(&trees[i], TokenTree::Ident(id) if id == "in");
            if is_in {
                let body = (i + 1..trees.len()).find(|&j| {
                    matches!(&trees[j], TokenTree::Group(g) if g.delimiter() == Delimiter::Brace)
                });
                if let Some(body) = body {
                    let range =
                        TokenStream::from_str(RANGES[rng.below(RANGES.len())]).unwrap_or_default();
                    trees.splice(i + 1..body, range);
                }
            } else if let Some(j) =
                (i..trees.len()).find(|&j| matches!(&trees[j], TokenTree::Ident(id) if id == "in"))
            {
                if let Some(body) = (j + 1..trees.len()).find(|&b| {
                    matches!(&trees[b], TokenTree::Group(g) if g.delimiter() == Delimiter::Brace)
                }) {
                    trees.splice(j + 1..body, TokenStream::from_str("0..0").unwrap_or_default());
                }
            }
        }
        11 => {
            // A node name declared again: a declaration's name replaced by another's.
            if let (TokenTree::Ident(_), false) = (&trees[i], names.is_empty()) {
                let is_decl = is_punct(trees.get(i + 1), ':')
                    || (matches!(trees.get(i + 1), Some(TokenTree::Group(_)))
                        && is_punct(trees.get(i + 2), ':'));
                if is_decl {
                    let name = names[rng.below(names.len())].clone();
                    let old = if matches!(trees.get(i + 1), Some(TokenTree::Group(_))) {
                        2
                    } else {
                        1
                    };
                    trees.splice(i..i + old, name);
                } else {
                    trees[i] = names[rng.below(names.len())][0].clone();
                }
            }
        }
        12 | 13 => {
            // An edge from a node to itself (or to another declared node), as a statement.
            if !names.is_empty() {
                let a = names[rng.below(names.len())].clone();
                let b = if kind == 12 {
                    a.clone()
                } else {
                    names[rng.below(names.len())].clone()
                };
                let mut edge: Vec<TokenTree> = a;
                edge.push(TokenTree::Punct(Punct::new('-', Spacing::Joint)));
                edge.push(TokenTree::Punct(Punct::new('>', Spacing::Alone)));
                edge.extend(b);
                edge.push(TokenTree::Punct(Punct::new(';', Spacing::Alone)));
                let at = if rng.chance(50) { trees.len() } else { i };
                trees.splice(at..at, edge);
            }
        }
        14 => {
            // A statement spliced in: this token's group's tokens from one `;` to the next.
            let start = rng.below(trees.len());
            let end = (start..trees.len())
                .find(|&j| is_punct(trees.get(j), ';'))
                .map_or(trees.len(), |j| j + 1);
            let piece: Vec<TokenTree> = trees[start..end].to_vec();
            let at = rng.below(trees.len() + 1);
            trees.splice(at..at, piece);
        }
        _ => {
            // A group's delimiter changed, or a punctuation's spacing.
            match &trees[i] {
                TokenTree::Group(g) => {
                    let delimiter = [
                        Delimiter::None,
                        Delimiter::Parenthesis,
                        Delimiter::Bracket,
                        Delimiter::Brace,
                    ][rng.below(4)];
                    trees[i] = TokenTree::Group(Group::new(delimiter, g.stream()));
                }
                TokenTree::Punct(p) => {
                    let spacing = match p.spacing() {
                        Spacing::Joint => Spacing::Alone,
                        Spacing::Alone => Spacing::Joint,
                    };
                    let mut punct = Punct::new(p.as_char(), spacing);
                    punct.set_span(p.span());
                    trees[i] = TokenTree::Punct(punct);
                }
                _ => {
                    trees.remove(i);
                }
            }
        }
    };
    at(tokens, &mut k, &mut edit)
}

/// `tokens` written out with their invisible groups shown (`⟦ ⟧`) and joint punctuation
/// marked (`-'>`): what `to_string` loses.
fn show(tokens: &TokenStream) -> String {
    let mut out = String::new();
    for tt in tokens.clone() {
        match tt {
            TokenTree::Group(g) if g.delimiter() == Delimiter::None => {
                out.push_str(&format!("⟦ {} ⟧ ", show(&g.stream())));
            }
            TokenTree::Group(g) => {
                let (open, close) = match g.delimiter() {
                    Delimiter::Parenthesis => ("(", ")"),
                    Delimiter::Bracket => ("[", "]"),
                    _ => ("{", "}"),
                };
                out.push_str(&format!("{open} {} {close} ", show(&g.stream())));
            }
            TokenTree::Punct(p) if p.spacing() == Spacing::Joint => {
                out.push(p.as_char());
                out.push('\'');
            }
            other => {
                out.push_str(&other.to_string());
                out.push(' ');
            }
        }
    }
    out
}

thread_local! {
    /// Whether this thread's panics are being recorded (and kept quiet), and where the last one
    /// was.
    static CAUGHT: RefCell<Option<Option<String>>> = const { RefCell::new(None) };
}

/// A panic hook that records, on the threads that ask, where a panic happened, and leaves the
/// others to the hook before it.
fn install_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let recorded = CAUGHT.with(|c| {
                let mut c = c.borrow_mut();
                match c.as_mut() {
                    Some(slot) => {
                        let location = info.location().map_or_else(
                            || "?".to_owned(),
                            |l| format!("{}:{}", l.file(), l.line()),
                        );
                        let payload = info
                            .payload()
                            .downcast_ref::<&str>()
                            .map(|s| (*s).to_owned())
                            .or_else(|| info.payload().downcast_ref::<String>().cloned())
                            .unwrap_or_default();
                        let payload: String = payload.chars().take(160).collect();
                        *slot = Some(format!("{location}: {payload}"));
                        true
                    }
                    None => false,
                }
            });
            if !recorded {
                previous(info);
            }
        }));
    });
}

/// Where the whole macro panics on `tokens`, if it does.
fn panic_site(tokens: &TokenStream) -> Option<String> {
    install_hook();
    panic_site_and_outcome(tokens).err()
}

/// Where the whole macro panics on `tokens`, or whether it expanded.
fn panic_site_and_outcome(tokens: &TokenStream) -> Result<bool, String> {
    install_hook();
    CAUGHT.with(|c| *c.borrow_mut() = Some(None));
    let result = catch_unwind(AssertUnwindSafe(|| {
        syn::parse2::<crate::parse::Input>(tokens.clone())
            .and_then(crate::expand::expand)
            .is_ok()
    }));
    let site = CAUGHT.with(|c| c.borrow_mut().take().flatten());
    result.map_err(|_| site.unwrap_or_else(|| "?".to_owned()))
}

/// The location part of a panic site (without its message, which may quote the input).
fn location(site: &str) -> &str {
    site.split(": ").next().unwrap_or(site)
}

/// `tokens` made smaller while it still panics at `site`'s location: tokens deleted, groups
/// emptied and replaced by their contents, until none of those keeps the panic.
fn minimize(tokens: TokenStream, site: &str) -> TokenStream {
    let keeps = |t: &TokenStream| panic_site(t).is_some_and(|s| location(&s) == location(site));
    let mut best = tokens;
    let mut tries = 0;
    loop {
        let mut smaller = false;
        let mut k = 0;
        while k < count(&best) && tries < 20_000 {
            let mut found = None;
            for how in 0..3 {
                tries += 1;
                let mut at_k = k;
                let candidate = at(best.clone(), &mut at_k, &mut |trees, i| match how {
                    0 => {
                        trees.remove(i);
                    }
                    1 => {
                        if let TokenTree::Group(g) = &trees[i] {
                            let inner: Vec<TokenTree> = g.stream().into_iter().collect();
                            trees.splice(i..=i, inner);
                        }
                    }
                    _ => {
                        if let TokenTree::Group(g) = &trees[i] {
                            trees[i] =
                                TokenTree::Group(Group::new(g.delimiter(), TokenStream::new()));
                        }
                    }
                });
                if count(&candidate) < count(&best) && keeps(&candidate) {
                    found = Some(candidate);
                    break;
                }
            }
            match found {
                Some(candidate) => {
                    best = candidate;
                    smaller = true;
                }
                None => k += 1,
            }
        }
        if !smaller || tries >= 20_000 {
            return best;
        }
    }
}

/// What a run found: each panic location with the smallest input seen for it and how many
/// mutants reached it; the slowest mutant.
#[derive(Default)]
struct Report {
    mutants: usize,
    expanded: usize,
    panics: BTreeMap<String, (String, TokenStream, usize)>,
    slowest: (Duration, String),
}

/// Runs `mutants` mutants from `seed` on this thread.
fn run_mutants(seed: u64, mutants: usize, time_limit: Option<Duration>) -> Report {
    let inputs = inputs();
    let mut idents = Vec::new();
    let mut literals = Vec::new();
    for t in &inputs {
        leaves(t, &mut idents, &mut literals);
    }
    // Names and literals the corpus may lack: keywords a path or pattern may hold, the
    // placeholder, raw names, format strings (their inline arguments are read as mentions).
    for name in [
        "_", "self", "Self", "crate", "super", "usize", "graph", "r#fn", "r#type",
    ] {
        idents.push(match name.strip_prefix("r#") {
            Some(raw) => Ident::new_raw(raw, Span::call_site()),
            None => Ident::new(name, Span::call_site()),
        });
    }
    for source in [
        "\"{n}\"",
        "\"{\"",
        "\"{:w$.p$}\"",
        "\"{0:>1$}\"",
        "r#\"{x} {{y}}\"#",
        "'c'",
        "b\"x\"",
        "c\"x\"",
        "1.0f32",
        "0u32",
    ] {
        literals.extend(Literal::from_str(source).ok());
    }
    let pools = Pools { idents, literals };
    let mut rng = Rng(seed);
    let mut report = Report::default();
    let started = Instant::now();
    // A mutant that runs for long is shown while it runs (it may never end, or exhaust memory).
    let current = std::sync::Arc::new(std::sync::Mutex::new((
        0usize,
        Instant::now(),
        String::new(),
    )));
    let watched = std::sync::Arc::downgrade(&current);
    std::thread::spawn(move || {
        let mut shown = usize::MAX;
        while let Some(current) = watched.upgrade() {
            if let Ok(c) = current.lock() {
                if c.0 != shown && c.1.elapsed() > Duration::from_secs(5) {
                    eprintln!("mutant {} has run for over 5 s:\n  {}", c.0, c.2);
                    shown = c.0;
                }
            }
            drop(current);
            std::thread::sleep(Duration::from_millis(500));
        }
    });
    for _ in 0..mutants {
        if time_limit.is_some_and(|limit| started.elapsed() > limit) {
            break;
        }
        let mut tokens = inputs[rng.below(inputs.len())].clone();
        for _ in 0..1 + rng.below(4) {
            tokens = mutate_once(tokens, &mut rng, &pools);
        }
        report.mutants += 1;
        if let Ok(mut c) = current.lock() {
            *c = (report.mutants, Instant::now(), show(&tokens));
        }
        let t0 = Instant::now();
        let outcome = panic_site_and_outcome(&tokens);
        report.expanded += usize::from(outcome == Ok(true));
        let site = outcome.err();
        let took = t0.elapsed();
        if took > report.slowest.0 {
            report.slowest = (took, tokens.to_string());
        }
        if let Some(site) = site {
            let key = location(&site).to_owned();
            let entry = report.panics.entry(key).or_insert_with(|| {
                let small = minimize(tokens.clone(), &site);
                (site.clone(), small, 0)
            });
            entry.2 += 1;
        }
    }
    report
}

fn env_number(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|s| s.parse().ok())
}

#[test]
fn mutants_never_panic() {
    // A fixed seed and a few seconds by default; `CUDAGRAPH_MUTANTS` for a long run.
    let seed = env_number("CUDAGRAPH_MUTANTS_SEED").unwrap_or(0x5EED);
    let (mutants, limit) = match env_number("CUDAGRAPH_MUTANTS") {
        Some(n) => (n as usize, None),
        None => (3_000, Some(Duration::from_secs(8))),
    };
    let started = Instant::now();
    let report = run_mutants(seed, mutants, limit);
    println!(
        "mutants: {} from seed {seed} ({} expanded) in {:.1} s, {} panic locations; slowest {:?}",
        report.mutants,
        report.expanded,
        started.elapsed().as_secs_f64(),
        report.panics.len(),
        report.slowest.0,
    );
    let mut found = String::new();
    for (site, small, hits) in report.panics.values() {
        found.push_str(&format!(
            "\n{site} ({hits} mutants); smallest input:\n  {small}\n  (as tokens: {})\n",
            show(small)
        ));
    }
    print!("{found}");
    assert!(report.panics.is_empty(), "the macro panicked:{found}");
}

/// Runs the macro on `CUDAGRAPH_MUTANT` (an input written out) and prints how it ended and how
/// long it took: `CUDAGRAPH_MUTANT='graph X { ... }' cargo test -p cudagraph-macros
/// one_mutant -- --ignored --nocapture`.
#[test]
#[ignore]
fn one_mutant() {
    let source = std::env::var("CUDAGRAPH_MUTANT").unwrap_or_default();
    let tokens = TokenStream::from_str(&source).expect("tokens");
    let started = Instant::now();
    let result = panic_site_and_outcome(&tokens);
    println!("{:?} in {:?}", result, started.elapsed());
    if let Ok(false) = result {
        println!("{}", outcome(tokens).unwrap_err());
    }
}
