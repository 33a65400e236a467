//! `cuda_graph!` declarations too long to keep by hand, as source text: a chain of kernel nodes,
//! each with its own scalar param, written out node by node (`Chain`) or by repetition
//! (`ChainRep`, the same graph from a `for` loop). `build.rs` writes them for the benchmarks
//! and tests (it includes this file), and the `compile-time` program compiles them to measure
//! what a declaration's size costs the compiler.
//!
//! Plain string building, no dependency: `build.rs` compiles it on its own.

use std::fmt::Write as _;

/// The params both chains start with: the kernel, the buffer it scales and its length.
const CHAIN_PARAMS: &str = "            k: Kernel<(u32, f32, DevicePtrMut<f32>)>,
            y: DeviceBuffer<f32>,
            n: u32,
";

/// `Chain`: `nodes` kernel nodes `n0 -> n1 -> ...`, node `i` scaling `y` by its own param `a_i`,
/// each node and param written out.
pub fn chain(nodes: usize) -> String {
    let mut src = String::from("cuda_graph! {\n");
    let _ = writeln!(
        src,
        "    /// A chain of {nodes} tiny kernels, each scaling `y` by its own `a_i`."
    );
    src.push_str("    pub graph Chain {\n        params {\n");
    src.push_str(CHAIN_PARAMS);
    for i in 0..nodes {
        let _ = writeln!(src, "            a{i}: f32,");
    }
    src.push_str("        }\n");
    for i in 0..nodes {
        let _ = writeln!(src, "        n{i}: kernel k<<<1, 32>>>(n, a{i}, y);");
    }
    if nodes > 1 {
        let chain: Vec<String> = (0..nodes).map(|i| format!("n{i}")).collect();
        let _ = writeln!(src, "        {};", chain.join(" -> "));
    }
    src.push_str("    }\n}\n");
    src
}

/// `ChainRep`: the graph of [`chain`], declared by repetition: nodes `node[0]` to
/// `node[nodes - 1]`, node `i` scaling `y` by `a[i]`, with `pub const NODES` their count.
pub fn chain_by_repetition(nodes: usize) -> String {
    chain_by_repetition_named("ChainRep", "NODES", nodes)
}

/// [`chain_by_repetition`] as graph `name`, its count the constant `count` (declarations of
/// several lengths side by side).
pub fn chain_by_repetition_named(name: &str, count: &str, nodes: usize) -> String {
    let mut src = String::from("cuda_graph! {\n");
    let _ = writeln!(
        src,
        "    /// A chain of {nodes} tiny kernels, each scaling `y` by its own `a[i]`, by \
         repetition."
    );
    let _ = writeln!(src, "    pub graph {name} {{");
    let _ = writeln!(src, "        pub const {count}: usize = {nodes};");
    src.push_str("        params {\n");
    src.push_str(CHAIN_PARAMS);
    let _ = writeln!(src, "            a: [f32; {count}],\n        }}");
    let _ = writeln!(src, "        for i in 0..{count} {{");
    src.push_str("            node[i]: kernel k<<<1, 32>>>(n, a[i], y);\n        }\n");
    let _ = writeln!(
        src,
        "        for i in 0..{count} - 1 {{\n            node[i] -> node[i + 1];\n        }}"
    );
    src.push_str("    }\n}\n");
    src
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_chains_declare_the_same_graph() {
        let hand = chain(3);
        assert!(hand.contains("n2: kernel k<<<1, 32>>>(n, a2, y);"));
        assert!(hand.contains("n0 -> n1 -> n2;"));
        assert!(!chain(1).contains("->"), "one node, no edge");
        let repeated = chain_by_repetition(3);
        assert!(repeated.contains("pub graph ChainRep {"));
        assert!(repeated.contains("pub const NODES: usize = 3;"));
        assert!(repeated.contains("a: [f32; NODES],"));
        assert!(repeated.contains("for i in 0..NODES - 1 {"));
        assert!(repeated.contains("node[i] -> node[i + 1];"));
        let named = chain_by_repetition_named("Long", "LONG", 5000);
        assert!(named.contains("pub graph Long {"));
        assert!(named.contains("pub const LONG: usize = 5000;"));
        assert!(named.contains("for i in 0..LONG {"));
    }
}
