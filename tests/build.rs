//! Writes `chain.rs` into `OUT_DIR`: a `cuda_graph!` declaration of a chain of kernel nodes, each
//! with its own scalar parameter, for the generated-code benchmarks (and for timing how long a
//! large declaration takes to compile). Too long to keep by hand.
//!
//! The chain has 1000 nodes; `CUDAGRAPH_BENCH_CHAIN=10000` (or another length) at build time
//! makes a longer one, for measuring the same benchmarks at that size.

use std::fmt::Write as _;

const DEFAULT_NODES: usize = 1000;
const NODES_VAR: &str = "CUDAGRAPH_BENCH_CHAIN";

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
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
    src.push_str("cuda_graph! {\n");
    let _ = writeln!(
        src,
        "    /// A chain of {nodes} tiny kernels, each scaling `y` by its own `a_i`."
    );
    src.push_str("    pub graph Chain {\n        params {\n");
    src.push_str("            k: Kernel<(u32, f32, DevicePtrMut<f32>)>,\n");
    src.push_str("            y: DeviceBuffer<f32>,\n            n: u32,\n");
    for i in 0..nodes {
        let _ = writeln!(src, "            a{i}: f32,");
    }
    src.push_str("        }\n");
    for i in 0..nodes {
        let _ = writeln!(src, "        n{i}: kernel k<<<1, 32>>>(n, a{i}, y);");
    }
    let chain: Vec<String> = (0..nodes).map(|i| format!("n{i}")).collect();
    let _ = writeln!(src, "        {};", chain.join(" -> "));
    src.push_str("    }\n}\n\n");

    // A constructor: the fields are too many to spell out in the bench.
    src.push_str("/// Params with every `a_i` set to `a`.\n");
    src.push_str("pub fn params(k: Kernel<(u32, f32, DevicePtrMut<f32>)>, y: DeviceBuffer<f32>, n: u32, a: f32) -> ChainParams {\n");
    src.push_str("    ChainParams {\n        k,\n        y,\n        n,\n");
    for i in 0..nodes {
        let _ = writeln!(src, "        a{i}: a,");
    }
    src.push_str("    }\n}\n\n");

    // Field access by index, for benchmarks that change k of the N parameters.
    src.push_str("/// Sets `a_i` of `p`.\n");
    src.push_str("pub fn set_a(p: &mut ChainParams, i: usize, value: f32) {\n    match i {\n");
    for i in 0..nodes {
        let _ = writeln!(src, "        {i} => p.a{i} = value,");
    }
    src.push_str("        _ => panic!(\"no parameter a{i}\"),\n    }\n}\n");

    // The enum variant of `a_i`, for `set_params_only`.
    src.push_str("/// `ChainParam::A<i>`.\n");
    src.push_str("pub fn a_param(i: usize) -> ChainParam {\n    match i {\n");
    for i in 0..nodes {
        let _ = writeln!(src, "        {i} => ChainParam::A{i},");
    }
    src.push_str("        _ => panic!(\"no parameter a{i}\"),\n    }\n}\n");

    let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    std::fs::write(out.join("chain.rs"), src).expect("writing chain.rs");
}
