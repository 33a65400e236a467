//! Programmatic dependent launch (edges with data, CUDA 12.3+, run on Hopper): chains whose
//! consumers wait (`griddepcontrol.wait`) give the CPU's results through the runtime
//! (`Graph::add_edge`) and the declaration (`->(programmatic)`, `->(launch_order)`,
//! `#[programmatic]`); the driver refuses a programmatic edge from a node that is not a kernel
//! (the witness of T11, which the runtime and the macro refuse first); an executable is updated
//! from a graph whose edges carry data; and the runtime's memory checks count an edge with data
//! as ordering only into a kernel that waits.

use cudagraph_runtime::cudarc::driver::sys;
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{cuda_graph, EdgeKind, Error};
use cudagraph_tests::pdl::{PdlAddArgs, PdlDoubleArgs, PdlKernels};
use cudagraph_tests::{gpu, read_back, zeros, Gpu};

const N: usize = 4096;

/// The chain's steps: `Some(k)` adds `k`, `None` doubles.
fn steps(len: usize, salt: u32) -> Vec<Option<u32>> {
    (0..len)
        .map(|i| (i % 3 != 2).then_some(i as u32 + salt))
        .collect()
}

/// What the chain leaves in every element, starting from 0 (wrapping, as `unsigned` does).
fn cpu(steps: &[Option<u32>]) -> u32 {
    steps.iter().fold(0u32, |v, s| match s {
        Some(k) => v.wrapping_add(*k),
        None => v.wrapping_mul(2),
    })
}

/// The chain of `steps` on `y` through the runtime, each edge of `kind`.
fn chain(
    gpu: &Gpu,
    k: &PdlKernels,
    y: &DeviceBuffer<u32>,
    steps: &[Option<u32>],
    kind: EdgeKind,
) -> Graph<'static> {
    let mut g = Graph::new(&gpu.ctx).unwrap();
    let cfg = cudagraph_tests::cfg(N);
    let mut prev: Option<NodeId> = None;
    for step in steps {
        let node = match step {
            Some(add) => g
                .add_kernel(&k.add, cfg, (N as u32, *add, y), &[])
                .unwrap()
                .id(),
            None => g
                .add_kernel(&k.double, cfg, (N as u32, y), &[])
                .unwrap()
                .id(),
        };
        if let Some(p) = prev {
            g.add_edge(p, node, kind).unwrap();
        }
        prev = Some(node);
    }
    g
}

#[test]
fn a_chain_with_programmatic_edges_matches_the_cpu() {
    let Some(gpu) = gpu("a_chain_with_programmatic_edges_matches_the_cpu") else {
        return;
    };
    let k = PdlKernels::load(&gpu.ctx);
    for kind in [
        EdgeKind::Programmatic,
        EdgeKind::LaunchOrder,
        EdgeKind::Default,
    ] {
        for len in [2, 10, 100] {
            let y = zeros::<u32>(&gpu, N);
            let s = steps(len, 1);
            let mut exec = chain(&gpu, &k, &y, &s, kind).instantiate().unwrap();
            exec.launch(&gpu.stream).unwrap();
            let got = read_back(&gpu.stream, &y);
            let want = cpu(&s);
            assert!(
                got.iter().all(|&v| v == want),
                "{kind:?} chain of {len}: got {:?}, want {want}",
                &got[..4]
            );
        }
    }
}

#[test]
fn an_update_pairs_graphs_whose_edges_carry_data() {
    let Some(gpu) = gpu("an_update_pairs_graphs_whose_edges_carry_data") else {
        return;
    };
    let k = PdlKernels::load(&gpu.ctx);
    let y = zeros::<u32>(&gpu, N);
    let first = steps(10, 1);
    let mut exec = chain(&gpu, &k, &y, &first, EdgeKind::Programmatic)
        .instantiate()
        .unwrap();
    let second = steps(10, 7);
    let z = zeros::<u32>(&gpu, N);
    // Same calls, other values and another buffer: the driver pairs the nodes and their edges.
    exec.update(&chain(&gpu, &k, &z, &second, EdgeKind::Programmatic))
        .unwrap();
    exec.launch(&gpu.stream).unwrap();
    assert!(read_back(&gpu.stream, &z)
        .iter()
        .all(|&v| v == cpu(&second)));
    assert!(read_back(&gpu.stream, &y).iter().all(|&v| v == 0));
    // The same topology with plain edges: whether the driver pairs it is its own call (edge
    // data is part of the topology it compares); either way the executable stays correct.
    let w = zeros::<u32>(&gpu, N);
    match exec.update(&chain(&gpu, &k, &w, &second, EdgeKind::Default)) {
        Ok(()) => {
            exec.launch(&gpu.stream).unwrap();
            assert!(read_back(&gpu.stream, &w)
                .iter()
                .all(|&v| v == cpu(&second)));
            eprintln!("update from programmatic to plain edges: accepted");
        }
        Err(e) => {
            exec.launch(&gpu.stream).unwrap();
            let twice = second.iter().chain(&second).copied().collect::<Vec<_>>();
            assert!(read_back(&gpu.stream, &z).iter().all(|&v| v == cpu(&twice)));
            eprintln!("update from programmatic to plain edges: refused: {e}");
        }
    }
}

#[test]
fn the_driver_refuses_a_programmatic_edge_from_a_memset() {
    let Some(gpu) = gpu("the_driver_refuses_a_programmatic_edge_from_a_memset") else {
        return;
    };
    let k = PdlKernels::load(&gpu.ctx);
    let y = zeros::<u32>(&gpu, N);
    let mut g = Graph::new(&gpu.ctx).unwrap();
    let clear = g.add_memset(Memset::new(&y, 0u32), &[]).unwrap();
    let add = g
        .add_kernel(&k.add, cudagraph_tests::cfg(N), (N as u32, 1u32, &y), &[])
        .unwrap();
    // Ours refuses first, naming the node that is not a kernel.
    let ours = g.add_edge(clear, add, EdgeKind::Programmatic).unwrap_err();
    assert!(
        matches!(&ours, Error::Invalid { reason, .. } if reason.contains("two kernel nodes")),
        "{ours:?}"
    );
    // The raw call: the driver refuses when the edge is added or at instantiation.
    let data = sys::CUgraphEdgeData {
        from_port: sys::CU_GRAPH_KERNEL_NODE_PORT_PROGRAMMATIC as u8,
        to_port: 0,
        type_: sys::CUgraphDependencyType::CU_GRAPH_DEPENDENCY_TYPE_PROGRAMMATIC as u8,
        reserved: [0; 5],
    };
    let (from, to) = (g.raw_node(clear).unwrap(), g.raw_node(add).unwrap());
    // SAFETY: a live graph and two of its nodes; one edge with one edge datum.
    let r = unsafe { sys::cuGraphAddDependencies_v2(g.raw(), &from, &to, &data, 1) };
    let refused = if r != sys::CUresult::CUDA_SUCCESS {
        format!("cuGraphAddDependencies: {r:?}")
    } else {
        match g.instantiate() {
            Err(e) => format!("instantiation: {e}"),
            Ok(_) => panic!("the driver accepted a programmatic edge from a memset node"),
        }
    };
    eprintln!("programmatic edge from a memset refused: {refused}");
}

#[test]
fn an_edge_into_a_kernel_that_does_not_wait_orders_no_free() {
    let Some(gpu) = gpu("an_edge_into_a_kernel_that_does_not_wait_orders_no_free") else {
        return;
    };
    let k = PdlKernels::load(&gpu.ctx);
    let cfg = cudagraph_tests::cfg(N);
    let other = zeros::<u32>(&gpu, N);
    for (relay, ordered) in [(&k.add_unmarked, false), (&k.add, true)] {
        let mut g = Graph::new(&gpu.ctx).unwrap();
        let tmp = g.add_mem_alloc::<u32>(N, &[]).unwrap();
        let user = g
            .add_kernel(&k.add, cfg, (N as u32, 1u32, &tmp), &[tmp.id()])
            .unwrap();
        let relay = g
            .add_kernel(relay, cfg, (N as u32, 1u32, &other), &[])
            .unwrap();
        g.add_edge(user, relay, EdgeKind::Programmatic).unwrap();
        // Freed after `relay`: after `user` only if `relay` waits for it.
        let freed = g.add_mem_free(&tmp, &[relay.id()]);
        assert_eq!(freed.is_ok(), ordered, "relay waits: {ordered}: {freed:?}");
    }
}

/// A kernel that waits for its programmatic dependencies orders the nodes after it after the
/// source of a programmatic edge into it (above: a free after `relay` comes after `user`). A
/// disabled node is an empty node, which waits for nothing: disabling `relay` would let the free
/// run while `user` still writes the allocation. Refused; enabling again, and disabling a kernel
/// that no edge with data orders through, go on as before.
#[test]
fn a_kernel_whose_wait_orders_a_free_cannot_be_disabled() {
    let Some(gpu) = gpu("a_kernel_whose_wait_orders_a_free_cannot_be_disabled") else {
        return;
    };
    let k = PdlKernels::load(&gpu.ctx);
    let cfg = cudagraph_tests::cfg(N);
    let other = zeros::<u32>(&gpu, N);
    let mut g = Graph::new(&gpu.ctx).unwrap();
    let tmp = g.add_mem_alloc::<u32>(N, &[]).unwrap();
    let user = g
        .add_kernel(&k.add, cfg, (N as u32, 1u32, &tmp), &[tmp.id()])
        .unwrap();
    let relay = g
        .add_kernel(&k.add, cfg, (N as u32, 1u32, &other), &[])
        .unwrap();
    g.add_edge(user, relay, EdgeKind::Programmatic).unwrap();
    let free = g.add_mem_free(&tmp, &[relay.id()]).unwrap();
    let last = g
        .add_kernel(&k.add, cfg, (N as u32, 1u32, &other), &[free.id()])
        .unwrap();
    let mut exec = g.instantiate().unwrap();
    match exec.set_enabled(relay, false) {
        Err(Error::Invalid { reason, .. }) => assert!(reason.contains("waits"), "{reason}"),
        other => panic!("expected the wait's node to stay enabled, got {other:?}"),
    }
    assert!(exec.is_enabled(relay).unwrap());
    exec.set_enabled(relay, true).unwrap();
    exec.set_enabled(last, false).unwrap();
    exec.set_enabled(user, false).unwrap();
    exec.launch(&gpu.stream).unwrap();
    assert!(read_back(&gpu.stream, &other).iter().all(|&v| v == 1));
}

/// GPU witness for the refusal above: what a launch does when the kernel whose wait orders a
/// node after a programmatic edge's source is disabled (with the `unsafe` escape). The source
/// lets its dependents launch at once, then spins before it writes `x[0] = 1`; a copy `x -> y`
/// comes after the waiting kernel. Enabled, the copy sees 1. Disabled, the copy sees 0 if the
/// driver runs the disabled node as an empty node whose programmatic dependency is met at the
/// source's trigger. Printed, not asserted (the library refuses the disabling either way).
#[test]
fn witness_a_disabled_waiting_kernel_orders_nothing() {
    let Some(gpu) = gpu("witness_a_disabled_waiting_kernel_orders_nothing") else {
        return;
    };
    const LATE: &str = r#"
extern "C" __global__ void late_set(unsigned long long spin, unsigned v, unsigned* y) {
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
    long long start = clock64();
    while (clock64() - start < (long long)spin) {}
    y[0] = v;
}
"#;
    let options = cudagraph_runtime::cudarc::nvrtc::CompileOptions {
        arch: Some("compute_90"),
        ..Default::default()
    };
    let ptx = cudagraph_runtime::cudarc::nvrtc::compile_ptx_with_opts(LATE, options).unwrap();
    let module = gpu.ctx.load_module(ptx).unwrap();
    // SAFETY: `late_set` takes (unsigned long long, unsigned, unsigned*) and writes y[0] only;
    // the check keeps `y` non-empty.
    let late: Kernel<(u64, u32, DevicePtrMut<u32>)> =
        unsafe { Kernel::new(cudagraph_tests::function(&module, "late_set")) }
            .requires(|_, (_, _, y)| y >= 1);
    let k = PdlKernels::load(&gpu.ctx);
    let one = LaunchConfig::for_num_elems(1);
    let [x, y, z] = [(); 3].map(|()| zeros::<u32>(&gpu, 1));
    let mut g = Graph::new(&gpu.ctx).unwrap();
    let source = g
        .add_kernel(&late, one, (200_000_000u64, 1u32, &x), &[])
        .unwrap();
    let relay = g.add_kernel(&k.add, one, (1u32, 1u32, &z), &[]).unwrap();
    g.add_edge(source, relay, EdgeKind::Programmatic).unwrap();
    g.add_memcpy(Memcpy::dtod(&x, &y), &[relay.id()]).unwrap();
    let mut exec = g.instantiate().unwrap();
    for disabled in [false, true] {
        x.copy_from(&[0]).unwrap();
        y.copy_from(&[7]).unwrap();
        // SAFETY: a witness of what the safe `set_enabled` refuses; `x` and `y` outlive the
        // launch, which is waited for below.
        unsafe { exec.set_enabled_unchecked(relay.id(), !disabled) }.unwrap();
        exec.launch(&gpu.stream).unwrap();
        let seen = read_back(&gpu.stream, &y)[0];
        println!("waiting kernel disabled: {disabled}: the copy after it saw x = {seen}");
        if !disabled {
            assert_eq!(
                seen, 1,
                "enabled, the wait orders the copy after the source"
            );
        }
    }
}

cuda_graph! {
    /// `y = ((y + k) * 2 + k)`, each edge programmatic under `#[programmatic]`, and a kernel on
    /// another buffer after a launch-order edge.
    #[programmatic]
    graph PdlChain {
        params {
            add: Kernel<PdlAddArgs>,
            double: Kernel<PdlDoubleArgs>,
            y: DeviceBuffer<u32>,
            z: DeviceBuffer<u32>,
            n: u32,
            k: u32,
        }
        #[waits]
        first: kernel add<<<n.div_ceil(256), 256>>>(n, k, y);
        #[waits]
        twice: kernel double<<<n.div_ceil(256), 256>>>(n, y);
        #[waits]
        last: kernel add<<<n.div_ceil(256), 256>>>(n, k, y);
        aside: kernel add<<<n.div_ceil(256), 256>>>(n, 1, z);
        first -> twice -> last ->(launch_order) aside;
    }
}

#[test]
fn a_declared_programmatic_chain_matches_the_cpu() {
    let Some(gpu) = gpu("a_declared_programmatic_chain_matches_the_cpu") else {
        return;
    };
    let k = PdlKernels::load(&gpu.ctx);
    let (y, z) = (zeros::<u32>(&gpu, N), zeros::<u32>(&gpu, N));
    let mut params = PdlChainParams {
        add: k.add.clone(),
        double: k.double.clone(),
        y: y.clone(),
        z: z.clone(),
        n: N as u32,
        k: 3,
    };
    let mut exec = PdlChain::build(&gpu.ctx, &params)
        .unwrap()
        .instantiate()
        .unwrap();
    exec.launch(&gpu.stream).unwrap();
    assert!(read_back(&gpu.stream, &y).iter().all(|&v| v == (3 * 2 + 3)));
    assert!(read_back(&gpu.stream, &z).iter().all(|&v| v == 1));
    // A whole-graph update from a rebuilt declaration keeps the edges' data.
    params.k = 5;
    exec.update(&PdlChain::build(&gpu.ctx, &params).unwrap())
        .unwrap();
    exec.launch(&gpu.stream).unwrap();
    let want = ((3 * 2 + 3) + 5) * 2 + 5;
    assert!(read_back(&gpu.stream, &y).iter().all(|&v| v == want));
    // A kernel not declared to wait is refused for a `#[waits]` node, naming it.
    params.add = k.add_unmarked.clone();
    let Err(err) = PdlChain::build(&gpu.ctx, &params) else {
        panic!("a #[waits] node took a kernel not marked to wait");
    };
    assert!(err.to_string().contains("first"), "{err}");
}
