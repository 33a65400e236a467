//! A declaration large enough that `build` adds its nodes from several functions (`Spread`, 208
//! nodes, written by `build.rs`): at the top and in a conditional body, with an allocation, a
//! conditional handle and an `#[indirect]` key made in one place and used by nodes built in
//! another. The built graph is the declared one (names, kinds, dependencies in order), and each
//! launch computes what its params say after changes through its params guard, its setters,
//! `set_params` and a rebuild.

use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{cuda_graph, ConditionalHandle, SET_CONDITIONAL_DECLARATION};
use cudagraph_tests::{compile, function, gpu, read_back, upload, zeros, Gpu, Kernels, ScaleArgs};

include!(concat!(env!("OUT_DIR"), "/spread.rs"));

/// Elements of `y`: one block of 32 threads, as the declaration launches.
const N: u32 = 32;

const SRC: &str = r#"
extern "C" __global__ void set_from(unsigned long long h, const unsigned* flag) {
    if (threadIdx.x == 0 && blockIdx.x == 0) cudaGraphSetConditional(h, flag[0]);
}
extern "C" __global__ void offset_by(unsigned n, const float* a, float* y) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    for (; i < n; i += gridDim.x * blockDim.x) y[i] += *a;
}
"#;

/// `set_from(h, flag)`.
type SetFrom = Kernel<(ConditionalHandle, DevicePtr<u32>)>;
/// `offset_by(n, a, y)`.
type OffsetBy = Kernel<(u32, DevicePtr<f32>, DevicePtrMut<f32>)>;

/// The params: `a_i = i / 4`, `b_i = i + 1`, `g = 1/2` (sums exact in `f32`), `flag` 1.
fn params(gpu: &Gpu) -> SpreadParams {
    let k = Kernels::load(&gpu.ctx);
    let module = compile(&gpu.ctx, &format!("{SET_CONDITIONAL_DECLARATION}{SRC}"));
    // SAFETY: `set_from` in `SRC` takes (unsigned long long, const unsigned*), a conditional
    // handle being an `unsigned long long`; it reads flag[0] only, sets only its handle, and
    // launches nothing; the check keeps `flag` non-empty.
    let set_from =
        unsafe { SetFrom::new(function(&module, "set_from")) }.requires(|_, (_, flag)| flag >= 1);
    // SAFETY: `offset_by` takes (unsigned, const float*, float*), reads a[0] and reads and
    // writes y[i] for i < n only (a grid-stride loop), and launches nothing; the check keeps n
    // within y and `a` non-empty.
    let offset_by = unsafe { OffsetBy::new(function(&module, "offset_by")) }
        .requires(|_, (n, a, y)| a >= 1 && n as usize <= y);
    spread_params(
        k.offset,
        offset_by,
        k.saxpy,
        set_from,
        zeros(gpu, N as usize),
        upload(gpu, &[1u32]),
        N,
        0.5,
    )
}

/// What every element of `y` is after a launch with `p` and `flag`.
fn expected(p: &mut SpreadParams, flag: bool) -> f32 {
    let a: f32 = (0..SPREAD_TOP).map(|i| *spread_a(p, i)).sum();
    let b: f32 = (0..SPREAD_BODY).map(|i| *spread_b(p, i)).sum();
    a + if flag { b } else { 0.0 } + p.g
}

/// Launches `exec` and checks `y` against `p`.
fn launch_and_check(gpu: &Gpu, exec: &mut SpreadExec, p: &mut SpreadParams, what: &str) {
    exec.launch(&gpu.stream).unwrap();
    let flag = read_back(&gpu.stream, &p.flag)[0] != 0;
    let want = expected(p, flag);
    let y = read_back(&gpu.stream, &p.y);
    assert!(
        y.iter().all(|&v| v == want),
        "{what}: y[0] = {}, expected {want} in all {N} elements",
        y[0]
    );
}

#[test]
fn a_declaration_built_by_several_functions_is_the_declared_graph_and_runs_its_params() {
    let Some(gpu) = gpu("a_declaration_built_by_several_functions_is_the_declared_graph") else {
        return;
    };
    let mut p = params(&gpu);
    let graph = Spread::build(&gpu.ctx, &p).unwrap();

    // The top-level graph holds the fetch node of the `#[indirect]` param, then the declared
    // top-level nodes in TOPOLOGY's order with their dependencies in declared order (and the
    // reader of `g` after the fetch node); the body's nodes follow them in TOPOLOGY.
    let t = Spread::TOPOLOGY;
    let top = 3 + SPREAD_TOP + 5;
    assert_eq!(t.nodes.len(), top + SPREAD_BODY, "declared nodes");
    let fetch = graph
        .graph()
        .indirect_fetch()
        .expect("a fetch node for `g`");
    assert_eq!(fetch.index(), 0, "the fetch node comes first");
    let nodes: Vec<_> = graph.graph().nodes().skip(1).collect();
    assert_eq!(nodes.len(), top, "top-level nodes");
    for (info, (i, &(name, kind))) in nodes.iter().zip(t.nodes.iter().enumerate()) {
        assert_eq!(info.index, i + 1);
        assert_eq!((info.name.as_str(), info.kind), (name, kind), "node {i}");
        let deps: Vec<usize> = info
            .deps
            .iter()
            .filter(|&&d| d as usize != fetch.index())
            .map(|&d| d as usize - 1)
            .collect();
        let want: Vec<usize> = t.dependencies(i).collect();
        assert_eq!(deps, want, "dependencies of `{name}`, in declared order");
        let after_fetch = info.deps.iter().any(|&d| d as usize == fetch.index());
        assert_eq!(
            after_fetch,
            name == "last",
            "`{name}` ordered after the fetch node"
        );
    }

    let mut exec = graph.instantiate().unwrap();
    launch_and_check(&gpu, &mut exec, &mut p, "as built");

    // Nodes in different build functions, at the top and in the body, and the indirect param,
    // set through the guard: each reader updated once.
    let (a, b) = ([1, 63, 64, 99], [0, 63, 64, 99]);
    let mut guard = exec.params_mut();
    for &i in &a {
        *spread_a(&mut p, i) += 8.0;
        spread_set_a(&mut guard, i, *spread_a(&mut p, i));
    }
    for &i in &b {
        *spread_b(&mut p, i) -= 0.5;
        spread_set_b(&mut guard, i, *spread_b(&mut p, i));
    }
    p.g = 2.25;
    assert_eq!(guard.set_g(p.g), 0.5, "the old value");
    assert_eq!(guard.apply().unwrap(), a.len() + b.len());
    launch_and_check(&gpu, &mut exec, &mut p, "after the guard's apply");

    // One param by its setter, one left for the launch to apply.
    p.a5 = 4.0;
    assert_eq!(exec.set_a5(4.0).unwrap(), 5.0 / 4.0, "the old value");
    p.b6 = 1.5;
    let _ = exec.params_mut().set_b6(1.5);
    assert_eq!((exec.params().a5, exec.params().b6), (4.0, 1.5));
    launch_and_check(
        &gpu,
        &mut exec,
        &mut p,
        "after a setter, and a change the launch applied",
    );

    *spread_a(&mut p, 70) = -3.0;
    *spread_b(&mut p, 5) = 0.75;
    assert_eq!(exec.set_params(&p).unwrap(), 2);
    launch_and_check(&gpu, &mut exec, &mut p, "after set_params");

    // The body is skipped when `flag` is 0: its handle is read by the conditional node built
    // in another function than the kernel that sets it.
    p.flag = upload(&gpu, &[0u32]);
    assert_eq!(exec.set_params(&p).unwrap(), 1);
    launch_and_check(&gpu, &mut exec, &mut p, "flag 0");

    // A rebuild from new params instantiates to the same results.
    for i in 0..SPREAD_TOP {
        *spread_a(&mut p, i) = 1.0;
    }
    let mut rebuilt = Spread::build(&gpu.ctx, &p).unwrap().instantiate().unwrap();
    launch_and_check(&gpu, &mut rebuilt, &mut p, "rebuilt");
}

#[test]
fn a_handle_of_zeros_belongs_to_no_graph() {
    // `build` starts from handles of zeros (allocated zeroed, then overwritten node by node): were
    // one ever left, every graph and executable would refuse it rather than use another node.
    let Some(gpu) = gpu("a_handle_of_zeros_belongs_to_no_graph") else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let y = zeros::<f32>(&gpu, 32);
    let mut graph = cudagraph_runtime::Graph::new(&gpu.ctx).unwrap();
    let node = graph
        .add_kernel(
            &k.scale,
            LaunchConfig::for_num_elems(32),
            (32u32, 2.0f32, &y),
            &[],
        )
        .unwrap();
    let zeros =
        *cudagraph_runtime::__private::unbuilt_box::<cudagraph_runtime::KernelNode<ScaleArgs>>();
    assert_eq!(
        node.id().index(),
        zeros.id().index(),
        "same index, other family"
    );
    let refused = graph.add_empty(&[zeros.id()]).unwrap_err();
    assert!(
        refused
            .to_string()
            .contains("dependency node#0 is not a node of this graph"),
        "{refused}"
    );
    let mut exec = graph.instantiate().unwrap();
    let refused =
        exec.set_kernel_params(zeros, LaunchConfig::for_num_elems(32), (32u32, 3.0f32, &y));
    assert!(
        matches!(refused, Err(cudagraph_runtime::Error::ForeignNode { .. })),
        "{refused:?}"
    );
    assert!(exec
        .set_kernel_params(node, LaunchConfig::for_num_elems(32), (32u32, 3.0f32, &y))
        .is_ok());
}
