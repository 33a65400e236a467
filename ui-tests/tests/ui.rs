//! The `cuda_graph!` compile-time rules, as trybuild cases: `cases/pass` must compile, every other
//! folder holds one program per rule violation, with the expected diagnostics in `.stderr`.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.pass("cases/pass/*.rs");
    t.compile_fail("cases/topology/*.rs");
    t.compile_fail("cases/params/*.rs");
    t.compile_fail("cases/kernel_args/*.rs");
    t.compile_fail("cases/updates/*.rs");
    t.compile_fail("cases/malformed/*.rs");
    t.compile_fail("cases/memory/*.rs");
    t.compile_fail("cases/hazards/*.rs");
    t.compile_fail("cases/memory_nodes/*.rs");
    t.compile_fail("cases/conditional/*.rs");
    t.compile_fail("cases/capture/*.rs");
    t.compile_fail("cases/collective/*.rs");
    t.compile_fail("cases/aliases/*.rs");
    t.compile_fail("cases/collisions/*.rs");
    t.compile_fail("cases/soundness/*.rs");
    t.compile_fail("cases/programmatic/*.rs");
    t.compile_fail("cases/device_launch/*.rs");
    t.compile_fail("cases/device_update/*.rs");
    t.compile_fail("cases/repetition/*.rs");
}
