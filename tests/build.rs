//! Writes `chain1000.rs` into `OUT_DIR`: a `cuda_graph!` declaration of a chain of 1000 kernel
//! nodes, each with its own scalar parameter, for the generated-code benchmarks (and for timing
//! how long a 1000-node declaration takes to compile). Too long to keep by hand.

use std::fmt::Write as _;

const NODES: usize = 1000;

fn main() {
    let mut src = String::new();
    src.push_str("cuda_graph! {\n");
    src.push_str("    /// A chain of 1000 tiny kernels, each scaling `y` by its own `a_i`.\n");
    src.push_str("    pub graph Chain1000 {\n        params {\n");
    src.push_str("            k: Kernel<(u32, f32, DevicePtrMut<f32>)>,\n");
    src.push_str("            y: DeviceBuffer<f32>,\n            n: u32,\n");
    for i in 0..NODES {
        let _ = writeln!(src, "            a{i}: f32,");
    }
    src.push_str("        }\n");
    for i in 0..NODES {
        let _ = writeln!(src, "        n{i}: kernel k<<<1, 32>>>(n, a{i}, y);");
    }
    let chain: Vec<String> = (0..NODES).map(|i| format!("n{i}")).collect();
    let _ = writeln!(src, "        {};", chain.join(" -> "));
    src.push_str("    }\n}\n\n");

    // A constructor: 1000 fields are too many to spell out in the bench.
    src.push_str("/// Params with every `a_i` set to `a`.\n");
    src.push_str("pub fn params(k: Kernel<(u32, f32, DevicePtrMut<f32>)>, y: DeviceBuffer<f32>, n: u32, a: f32) -> Chain1000Params {\n");
    src.push_str("    Chain1000Params {\n        k,\n        y,\n        n,\n");
    for i in 0..NODES {
        let _ = writeln!(src, "        a{i}: a,");
    }
    src.push_str("    }\n}\n\n");

    // Field access by index, for benchmarks that change k of the N parameters.
    src.push_str("/// Sets `a_i` of `p`.\n");
    src.push_str("pub fn set_a(p: &mut Chain1000Params, i: usize, value: f32) {\n    match i {\n");
    for i in 0..NODES {
        let _ = writeln!(src, "        {i} => p.a{i} = value,");
    }
    src.push_str("        _ => panic!(\"no parameter a{i}\"),\n    }\n}\n");

    // The enum variant of `a_i`, for `set_params_only`.
    src.push_str("/// `Chain1000Param::A<i>`.\n");
    src.push_str("pub fn a_param(i: usize) -> Chain1000Param {\n    match i {\n");
    for i in 0..NODES {
        let _ = writeln!(src, "        {i} => Chain1000Param::A{i},");
    }
    src.push_str("        _ => panic!(\"no parameter a{i}\"),\n    }\n}\n");

    let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    std::fs::write(out.join("chain1000.rs"), src).expect("writing chain1000.rs");
    println!("cargo::rerun-if-changed=build.rs");
}
