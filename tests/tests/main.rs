//! The GPU integration tests, one test program with a module per topic (`cargo test --test gpu
//! <module>::` runs one topic). Without a GPU every GPU test skips, and the program says how many
//! did (see `cudagraph_tests::gpu`).
//!
//! Tests of different modules never run at the same time: `cudagraph_tests::gpu` lets a test of
//! one module start only while no test of another module holds the GPU, so each module runs as it
//! did as a program of its own (several modules break captures on purpose, synchronize the whole
//! context, or watch free memory and the graph-memory pool). Tests within a module run in
//! parallel as before, unless the module serializes them itself.
//!
//! Some tests keep a program of their own (listed in `tests/Cargo.toml`): NCCL's collectives
//! (`collectives`: two-rank communicators leave NCCL's threads and memory behind in the
//! process, after which device 0's graph-memory figures that `memory_nodes` checks moved by
//! 32 MiB on a two-GPU machine, the cause not found), the witnesses whose launch faults or
//! corrupts memory (a fault ends the context for every later test of the process), and the
//! tests meant to run under `compute-sanitizer`, whose findings hold for the whole process
//! (`nvidia_capture_samples`, `sanitizer_cross_graph_free`, `memory_nodes_freed_elsewhere`).

mod capture_alloc_order;
mod capture_escape;
mod capture_misuse;
mod capture_safe;
mod device_launch;
mod docs;
mod exec_cache;
mod generated_canonical_order;
mod generated_capture;
mod generated_child_races;
mod generated_conditional;
mod generated_errors;
mod generated_events;
mod generated_handles;
mod generated_hidden_reads;
mod generated_indirect;
mod generated_large;
mod generated_launch_races;
mod generated_memory_nodes;
mod generated_nodes;
mod generated_owned_params;
mod generated_renamed_types;
mod generated_repeat;
mod generated_set_params;
mod generated_swap_slots;
mod generated_unroll;
mod introspection;
mod macro_updates;
mod memory_model;
mod memory_model_streams;
mod memory_nodes;
mod peer_memory;
mod programmatic;
mod runtime_capture;
mod runtime_capture_errors;
mod runtime_capture_fork;
mod runtime_child_empty;
mod runtime_conditional;
mod runtime_enable;
mod runtime_errors;
mod runtime_event;
mod runtime_host;
mod runtime_indirect;
mod runtime_indirect_relaunch;
mod runtime_kernel;
mod runtime_memcpy_memset;
mod runtime_rebuild;
mod runtime_static;
mod runtime_unroll;
mod runtime_update;
mod runtime_user_object;
mod runtime_witness;
mod thread_without_context;
mod vulkan_interop;
mod witness_body_child;
mod witness_construction_order;
mod witness_memory_nodes;
mod witness_semaphores;
mod witness_topology;

/// Every file of `tests/tests/` is a module of this program, a program of its own (a `[[test]]`
/// of `tests/Cargo.toml`) or a module of such a program: with `autotests = false`, a file left
/// out would never run.
#[test]
fn every_test_file_runs() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
    let mut names = Vec::new();
    for entry in std::fs::read_dir(dir.join("tests")).unwrap() {
        names.push(entry.unwrap().file_name().into_string().unwrap());
    }
    let is_program = |name: &str| manifest.contains(&format!("path = \"tests/{name}\""));
    // The files programs are made of: this program's, and the others'.
    let roots: Vec<String> = names
        .iter()
        .filter(|n| *n == "main.rs" || is_program(n))
        .map(|n| std::fs::read_to_string(dir.join("tests").join(n)).unwrap())
        .collect();
    let mut missing = Vec::new();
    for name in &names {
        let Some(stem) = name.strip_suffix(".rs") else {
            continue;
        };
        let module = roots
            .iter()
            .any(|root| root.lines().any(|l| l.trim() == format!("mod {stem};")));
        if stem != "main" && !module && !is_program(name) {
            missing.push(name.clone());
        }
    }
    assert!(
        missing.is_empty(),
        "{missing:?}: neither a module of tests/main.rs or of another program, nor a [[test]] of \
         tests/Cargo.toml"
    );
}
