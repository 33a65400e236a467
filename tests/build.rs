//! Writes into `OUT_DIR` declarations too long to keep by hand: `chain.rs`, a `cuda_graph!`
//! declaration of a chain of kernel nodes, each with its own scalar parameter, for the
//! generated-code benchmarks; `chain_repeat.rs`, the same chain declared by repetition (a `for`
//! loop); `long_chains.rs`, chains of 5000 and 10,000 nodes declared by repetition
//! (`Chain5000`, `Chain10000`), for the generated-code benchmarks of large declarations;
//! `spread.rs`, a declaration of a few hundred nodes of several kinds, for the test of large
//! declarations. (The `compile-time` program times how long the chains take to compile.)
//!
//! The chain has 1000 nodes; `CUDAGRAPH_BENCH_CHAIN=10000` (or another length) at build time
//! makes a longer one, for measuring the same benchmarks at that size.

use std::fmt::Write as _;

#[path = "src/declarations.rs"]
mod declarations;

const DEFAULT_NODES: usize = 1000;
/// The lengths of `long_chains.rs`'s chains.
const LONG_CHAINS: [usize; 2] = [5000, 10_000];
const NODES_VAR: &str = "CUDAGRAPH_BENCH_CHAIN";

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=src/declarations.rs");
    println!("cargo::rerun-if-env-changed={NODES_VAR}");
    let nodes = match std::env::var(NODES_VAR) {
        Ok(v) => match v.parse::<usize>() {
            // The benches name node `n500` and change up to 100 params spread over the chain.
            Ok(n) if n >= DEFAULT_NODES => n,
            _ => panic!("{NODES_VAR}={v:?}: expected a number of nodes, at least {DEFAULT_NODES}"),
        },
        Err(_) => DEFAULT_NODES,
    };
    let mut src = String::new();
    let _ = writeln!(
        src,
        "/// Nodes in the chain.\npub const CHAIN_NODES: usize = {nodes};\n"
    );
    src.push_str(&declarations::chain(nodes));
    src.push('\n');

    // A constructor: the fields are too many to spell out in the bench.
    src.push_str("/// Params with every `a_i` set to `a`.\n");
    src.push_str("pub fn params(k: Kernel<(u32, f32, DevicePtrMut<f32>)>, y: DeviceBuffer<f32>, n: u32, a: f32) -> ChainParams {\n");
    src.push_str("    ChainParams {\n        k,\n        y,\n        n,\n");
    for i in 0..nodes {
        let _ = writeln!(src, "        a{i}: a,");
    }
    src.push_str("    }\n}\n\n");

    // Params by index, for benchmarks that change k of the N parameters: in the params, through
    // the executable's setter, through the guard of `params_mut`.
    by_index(
        &mut src,
        "Sets `a_i` of `p`.",
        "set_a(p: &mut ChainParams, i: usize, value: f32)",
        nodes,
        |i| format!("p.a{i} = value"),
    );
    by_index(
        &mut src,
        "`a_i` of `p`.",
        "get_a(p: &ChainParams, i: usize) -> f32",
        nodes,
        |i| format!("p.a{i}"),
    );
    by_index(
        &mut src,
        "`exec.set_a<i>(value)`.",
        "exec_set_a(exec: &mut ChainExec, i: usize, value: f32) -> cudagraph_runtime::Result<f32>",
        nodes,
        |i| format!("exec.set_a{i}(value)"),
    );
    by_index(
        &mut src,
        "`guard.set_a<i>(value)`.",
        "guard_set_a(guard: &mut ChainParamsMut<'_>, i: usize, value: f32) -> f32",
        nodes,
        |i| format!("guard.set_a{i}(value)"),
    );

    let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    std::fs::write(out.join("chain.rs"), src).expect("writing chain.rs");
    std::fs::write(
        out.join("chain_repeat.rs"),
        declarations::chain_by_repetition(nodes),
    )
    .expect("writing chain_repeat.rs");
    let long_chains: String = LONG_CHAINS
        .iter()
        .map(|&nodes| {
            declarations::chain_by_repetition_named(
                &format!("Chain{nodes}"),
                &format!("NODES_{nodes}"),
                nodes,
            )
        })
        .collect();
    std::fs::write(out.join("long_chains.rs"), long_chains).expect("writing long_chains.rs");
    std::fs::write(out.join("spread.rs"), spread()).expect("writing spread.rs");
}

/// Top-level links of `Spread`'s chain, and links of the chain in its conditional body.
const SPREAD_TOP: usize = 100;
const SPREAD_BODY: usize = 100;

/// `spread.rs`: a declaration large enough that `build` adds its nodes from several functions,
/// at the top and inside a conditional body, with handles used far from where they are made: an
/// allocation made first and read by a late node, a conditional handle set by a node built in
/// another function than the one making it, an `#[indirect]` key read by the last kernel.
fn spread() -> String {
    let mut src = String::new();
    let _ = writeln!(
        src,
        "/// Links of `Spread`'s top-level chain.\npub const SPREAD_TOP: usize = {SPREAD_TOP};"
    );
    let _ = writeln!(
        src,
        "/// Links of the chain in `Spread`'s conditional body.\npub const SPREAD_BODY: usize = {SPREAD_BODY};\n"
    );
    src.push_str(
        "cuda_graph! {
    /// `y = sum(a_i) + (flag != 0 ? sum(b_i) : 0) + g`, element-wise over `n` elements: the
    /// `a_i` summed in an allocation `t` by a chain of kernels, the `b_i` added to `y` by a
    /// chain in an `if` body, then `y += t` and `y += *g`.
    pub graph Spread {
        params {
            offset: Kernel<(u32, f32, DevicePtrMut<f32>)>,
            offset_by: Kernel<(u32, DevicePtr<f32>, DevicePtrMut<f32>)>,
            add: Kernel<(u32, f32, DevicePtr<f32>, DevicePtrMut<f32>)>,
            set_from: Kernel<(ConditionalHandle, DevicePtr<u32>)>,
            y: DeviceBuffer<f32>,
            flag: DeviceBuffer<u32>,
            n: u32,
            #[indirect]
            g: f32,
",
    );
    for i in 0..SPREAD_TOP {
        let _ = writeln!(src, "            a{i}: f32,");
    }
    for i in 0..SPREAD_BODY {
        let _ = writeln!(src, "            b{i}: f32,");
    }
    src.push_str(
        "        }
",
    );
    src.push_str(
        "        t: alloc::<f32>(n as usize);
",
    );
    src.push_str(
        "        zero_t: memset(t, 0.0f32);
",
    );
    src.push_str(
        "        zero_y: memset(y, 0.0f32);
",
    );
    for i in 0..SPREAD_TOP {
        let _ = writeln!(src, "        s{i}: kernel offset<<<1, 32>>>(n, a{i}, t);");
    }
    src.push_str(
        "        pick: kernel set_from<<<1, 32>>>(go, flag);
",
    );
    src.push_str(
        "        gate: if go {
",
    );
    for i in 0..SPREAD_BODY {
        let _ = writeln!(
            src,
            "            u{i}: kernel offset<<<1, 32>>>(n, b{i}, y);"
        );
    }
    let body: Vec<String> = (0..SPREAD_BODY).map(|i| format!("u{i}")).collect();
    let _ = writeln!(src, "            {};", body.join(" -> "));
    src.push_str(
        "        }
",
    );
    src.push_str(
        "        mix: kernel add<<<1, 32>>>(n, 1.0f32, t, y);
",
    );
    src.push_str(
        "        last: kernel offset_by<<<1, 32>>>(n, g, y);
",
    );
    src.push_str(
        "        done: free(t);
",
    );
    let top: Vec<String> = (0..SPREAD_TOP).map(|i| format!("s{i}")).collect();
    let _ = writeln!(
        src,
        "        t -> zero_t -> {} -> pick -> gate -> mix -> last -> done;",
        top.join(" -> ")
    );
    src.push_str(
        "        zero_y -> gate;
",
    );
    src.push_str(
        "    }
}

",
    );

    src.push_str("/// Params with `a_i = i / 4` and `b_i = i + 1` (sums exact in `f32`).\n");
    src.push_str("#[allow(clippy::too_many_arguments)]\n");
    src.push_str("pub fn spread_params(\n    offset: Kernel<(u32, f32, DevicePtrMut<f32>)>,\n    offset_by: Kernel<(u32, DevicePtr<f32>, DevicePtrMut<f32>)>,\n    add: Kernel<(u32, f32, DevicePtr<f32>, DevicePtrMut<f32>)>,\n    set_from: Kernel<(ConditionalHandle, DevicePtr<u32>)>,\n    y: DeviceBuffer<f32>,\n    flag: DeviceBuffer<u32>,\n    n: u32,\n    g: f32,\n) -> SpreadParams {\n");
    src.push_str("    SpreadParams {\n        offset,\n        offset_by,\n        add,\n        set_from,\n        y,\n        flag,\n        n,\n        g,\n");
    for i in 0..SPREAD_TOP {
        let _ = writeln!(src, "        a{i}: {:?},", i as f32 / 4.0);
    }
    for i in 0..SPREAD_BODY {
        let _ = writeln!(src, "        b{i}: {:?},", i as f32 + 1.0);
    }
    src.push_str("    }\n}\n\n");
    by_index(
        &mut src,
        "`a_i` of `p`.",
        "spread_a(p: &mut SpreadParams, i: usize) -> &mut f32",
        SPREAD_TOP,
        |i| format!("&mut p.a{i}"),
    );
    by_index(
        &mut src,
        "`b_i` of `p`.",
        "spread_b(p: &mut SpreadParams, i: usize) -> &mut f32",
        SPREAD_BODY,
        |i| format!("&mut p.b{i}"),
    );
    by_index(
        &mut src,
        "`guard.set_a<i>(value)`.",
        "spread_set_a(guard: &mut SpreadParamsMut<'_>, i: usize, value: f32) -> f32",
        SPREAD_TOP,
        |i| format!("guard.set_a{i}(value)"),
    );
    by_index(
        &mut src,
        "`guard.set_b<i>(value)`.",
        "spread_set_b(guard: &mut SpreadParamsMut<'_>, i: usize, value: f32) -> f32",
        SPREAD_BODY,
        |i| format!("guard.set_b{i}(value)"),
    );
    src
}

/// Writes `pub fn <signature>`, documented `doc`, whose body is a `match` on `i` from 0 to `n - 1`
/// with `arm(i)` as each arm's expression (a param's field or variant, picked by its index).
fn by_index(src: &mut String, doc: &str, signature: &str, n: usize, arm: impl Fn(usize) -> String) {
    let _ = writeln!(src, "/// {doc}\npub fn {signature} {{\n    match i {{");
    for i in 0..n {
        let _ = writeln!(src, "        {i} => {},", arm(i));
    }
    src.push_str("        _ => panic!(\"no parameter number {i}\"),\n    }\n}\n\n");
}
